/* Integer sum reduction (vectorises without -ffast-math). */
int sum_i32(int n, const int *restrict a)
{
	int s = 0;
	for (int i = 0; i < n; i++)
		s += a[i];
	return s;
}
