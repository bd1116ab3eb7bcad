/* Complex multiply of interleaved single-precision arrays. */
void cmul(int n, const float *restrict a, const float *restrict b, float *restrict c)
{
	for (int i = 0; i < n; i++) {
		float ar = a[2 * i], ai = a[2 * i + 1];
		float br = b[2 * i], bi = b[2 * i + 1];
		c[2 * i] = ar * br - ai * bi;
		c[2 * i + 1] = ar * bi + ai * br;
	}
}
