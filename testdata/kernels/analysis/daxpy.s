# daxpy: y[i] += a * x[i], four doubles a step (AVX2 + FMA).
# Used by the benchmarks (BenchmarkSmallFile, go run ./analysis/bench) as
# "a small file".
# LLVM-MCA-BEGIN daxpy
.L2:
	vmovupd	(%rsi,%rax), %ymm1
	vfmadd213pd	(%rdx,%rax), %ymm0, %ymm1
	vmovupd	%ymm1, (%rdx,%rax)
	addq	$32, %rax
	cmpq	%rax, %rcx
	jne	.L2
# LLVM-MCA-END
