/* 3-point stencil. */
void stencil3(int n, const float *restrict a, float *restrict b)
{
	for (int i = 1; i < n - 1; i++)
		b[i] = 0.25f * a[i - 1] + 0.5f * a[i] + 0.25f * a[i + 1];
}
