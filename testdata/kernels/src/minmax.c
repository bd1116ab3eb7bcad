/* abs/min/max reductions. */
int absmax_i32(int n, const int *restrict a)
{
	int m = 0;
	for (int i = 0; i < n; i++) {
		int v = a[i] < 0 ? -a[i] : a[i];
		m = v > m ? v : m;
	}
	return m;
}

float min_f32(int n, const float *restrict a)
{
	float m = __builtin_inff();
	for (int i = 0; i < n; i++)
		m = a[i] < m ? a[i] : m;
	return m;
}
