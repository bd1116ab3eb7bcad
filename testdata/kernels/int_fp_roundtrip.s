.intel_syntax noprefix
# kernel: int_fp_roundtrip
# what: int -> double -> int round trip with a multiply and an add in the chain
# origin: hand-written
# expect: loop-carried latency across domains: vcvtsi2sd + vmulsd + vcvttsd2si + add, about 10-20 cycles/iter including the int<->FP transfer latency
# LLVM-MCA-BEGIN int_fp_roundtrip
	vcvtsi2sd xmm0, xmm0, rax
	vmulsd xmm0, xmm0, xmm1
	vcvttsd2si rax, xmm0
	add rax, rbx
# LLVM-MCA-END int_fp_roundtrip
