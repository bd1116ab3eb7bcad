/* Dot products. Float reductions need -ffast-math (reassociation) to vectorise. */
float dot_f32(int n, const float *restrict a, const float *restrict b)
{
	float s = 0;
	for (int i = 0; i < n; i++)
		s += a[i] * b[i];
	return s;
}

/* int16 dot product: gcc turns it into vpmaddwd + vpaddd. */
int dot_i16(int n, const short *restrict a, const short *restrict b)
{
	int s = 0;
	for (int i = 0; i < n; i++)
		s += a[i] * b[i];
	return s;
}
