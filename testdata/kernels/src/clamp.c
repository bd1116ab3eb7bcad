/* Saturating uint8 add with a clamp, as in image blending. */
void blend_u8(long n, const unsigned char *restrict a, const unsigned char *restrict b, unsigned char *restrict c)
{
	for (long i = 0; i < n; i++) {
		unsigned s = a[i] + b[i];
		c[i] = s > 255 ? 255 : s;
	}
}
