/* int32 -> float conversion with a scale. */
void i2f(int n, const int *restrict a, float *restrict b, float scale)
{
	for (int i = 0; i < n; i++)
		b[i] = (float)a[i] * scale;
}
