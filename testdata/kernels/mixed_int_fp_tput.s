# kernel: mixed_int_fp_tput
# what: eight independent ymm FMAs interleaved with integer adds, an imul and two loads
# origin: hand-written
# expect: FMA ports: 8 FMAs at 2/cycle = 4 cycles/iter (8 accumulators cover the 4-cycle latency); the integer work fits on other ports on Zen 4, but competes with FMA for ports 0/1 on Intel (imul is port 1 only)
# LLVM-MCA-BEGIN mixed_int_fp_tput
	vfmadd231ps %ymm8, %ymm9, %ymm0
	addq %rbx, %rax
	vfmadd231ps %ymm8, %ymm9, %ymm1
	addq %rbx, %rcx
	vfmadd231ps %ymm8, %ymm9, %ymm2
	imulq %rbx, %rsi
	vfmadd231ps %ymm8, %ymm9, %ymm3
	xorq %rbx, %rdi
	vfmadd231ps %ymm8, %ymm9, %ymm4
	addq (%r8), %r9
	vfmadd231ps %ymm8, %ymm9, %ymm5
	addq 8(%r8), %r10
	vfmadd231ps %ymm8, %ymm9, %ymm6
	vfmadd231ps %ymm8, %ymm9, %ymm7
	addq $16, %r8
# LLVM-MCA-END mixed_int_fp_tput
