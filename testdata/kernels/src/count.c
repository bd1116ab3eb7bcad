/* Histogram-free counting: how many elements equal x. */
int count_eq(int n, const int *restrict a, int x)
{
	int c = 0;
	for (int i = 0; i < n; i++)
		c += a[i] == x;
	return c;
}
