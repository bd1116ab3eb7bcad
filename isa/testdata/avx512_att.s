# AVX-512 kernel: masked FMA with broadcast and a rounding-mode add.
# LLVM-MCA-BEGIN avx512
	vfmadd231pd	(%rsi){1to8}, %zmm1, %zmm0{%k1}
	vaddpd	{rz-sae}, %zmm2, %zmm0, %zmm3
	vpcmpeqd	64(%rdi), %zmm4, %k2{%k1}
	vmovdqu64	%zmm3, (%rdx){%k2}
	kandw	%k1, %k2, %k3
	vpternlogd	$0x96, %zmm5, %zmm6, %zmm7{%k3}{z}
# LLVM-MCA-END
