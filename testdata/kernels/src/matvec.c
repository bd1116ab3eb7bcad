/* The inner product of a matrix-vector multiply, y[i] = sum_j A[i][j] * x[j]. */
void matvec(int n, int m, const double *restrict A, const double *restrict x, double *restrict y)
{
	for (int i = 0; i < n; i++) {
		double s = 0;
		for (int j = 0; j < m; j++)
			s += A[(long)i * m + j] * x[j];
		y[i] = s;
	}
}
