# kernel: triad_zmm
# what: STREAM triad a = b + s*c in double, two zmm per iteration
# origin: hand-written
# expect: 512-bit memory ops: 4 zmm loads and 2 zmm stores/iter; Zen 4 does 1 zmm load/cycle and a zmm store per 2 cycles (4 cycles/iter), Golden Cove 2 zmm loads and 1 zmm store per cycle (2)
# LLVM-MCA-BEGIN triad_zmm
	vmovupd (%rdx), %zmm0
	vmovupd 64(%rdx), %zmm1
	vfmadd213pd (%rsi), %zmm8, %zmm0
	vfmadd213pd 64(%rsi), %zmm8, %zmm1
	vmovupd %zmm0, (%rdi)
	vmovupd %zmm1, 64(%rdi)
	addq $128, %rdx
	addq $128, %rsi
	addq $128, %rdi
# LLVM-MCA-END triad_zmm
