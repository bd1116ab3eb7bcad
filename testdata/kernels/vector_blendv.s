.intel_syntax noprefix
# kernel: vector_blendv
# what: compare, variable blends (vpblendvb, vblendvps), min/max and and-accumulate (ymm)
# origin: hand-written
# expect: vector ALU throughput: 7 vector ops where the blendv forms are 1 uop on Zen 4 (about 2 cycles/iter on its 4 pipes) but 2-3 uops on Intel's 3 vector ports (about 4); the accumulator chains (vpminsd, vmaxps, vpand) are 1-4 cycles
# LLVM-MCA-BEGIN vector_blendv
	vpcmpgtd ymm0, ymm8, ymm9
	vpblendvb ymm1, ymm8, ymm9, ymm0
	vpminsd ymm2, ymm2, ymm1
	vblendvps ymm3, ymm8, ymm9, ymm0
	vmaxps ymm4, ymm4, ymm3
	vpcmpgtd ymm5, ymm9, YMMWORD PTR [rdi]
	vpand ymm6, ymm6, ymm5
	add rdi, 32
# LLVM-MCA-END vector_blendv
