/* Inclusive prefix sum: a loop-carried dependence gcc cannot vectorise. */
void prefix_sum(long n, const long *restrict a, long *restrict out)
{
	long s = 0;
	for (long i = 0; i < n; i++) {
		s += a[i];
		out[i] = s;
	}
}
