/* A memcpy-like byte loop with a twist so it is not turned into a memcpy call
 * (also compiled with -fno-tree-loop-distribute-patterns). */
void copy_xor(long n, unsigned char *restrict dst, const unsigned char *restrict src, unsigned char key)
{
	for (long i = 0; i < n; i++)
		dst[i] = src[i] ^ key;
}
