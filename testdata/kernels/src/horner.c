/* Polynomial evaluation by Horner's rule on every element. */
void horner(int n, const float *restrict x, float *restrict y)
{
	for (int i = 0; i < n; i++) {
		float v = x[i];
		y[i] = ((((0.1f * v + 0.2f) * v + 0.3f) * v + 0.4f) * v + 0.5f);
	}
}
