.intel_syntax noprefix
# A false dependency on the destination: a form that writes its whole
# destination yet waits for the destination's previous value. Each region
# is one kernel for `portlab validate --no-peers
# testdata/experiments/false_dependency.s`. On the Zen 3 guest
# (2026-11-29, two runs; docs/models.md, "Known limits") `cvtpi2pd xmm, mm`
# does: over two destinations 17.98-17.99 cycles (3 cycles a link of each
# destination's chain), over twelve 9.21-9.31, the model 9.61 for both;
# cvtdq2pd and vcvtdq2pd over two destinations 5.99-6.00 (no dependency),
# cvtsi2sd 17.97-18.03 (its merge of the upper half is architectural and
# modelled).

# cvtpi2pd_2dst: 12 cvtpi2pd over two destinations
# LLVM-MCA-BEGIN cvtpi2pd_2dst
	cvtpi2pd xmm4, mm0
	cvtpi2pd xmm5, mm0
	cvtpi2pd xmm4, mm0
	cvtpi2pd xmm5, mm0
	cvtpi2pd xmm4, mm0
	cvtpi2pd xmm5, mm0
	cvtpi2pd xmm4, mm0
	cvtpi2pd xmm5, mm0
	cvtpi2pd xmm4, mm0
	cvtpi2pd xmm5, mm0
	cvtpi2pd xmm4, mm0
	cvtpi2pd xmm5, mm0
# LLVM-MCA-END cvtpi2pd_2dst

# cvtpi2pd_12dst: 12 cvtpi2pd over twelve destinations
# LLVM-MCA-BEGIN cvtpi2pd_12dst
	cvtpi2pd xmm0, mm0
	cvtpi2pd xmm1, mm0
	cvtpi2pd xmm2, mm0
	cvtpi2pd xmm3, mm0
	cvtpi2pd xmm4, mm0
	cvtpi2pd xmm5, mm0
	cvtpi2pd xmm6, mm0
	cvtpi2pd xmm7, mm0
	cvtpi2pd xmm8, mm0
	cvtpi2pd xmm9, mm0
	cvtpi2pd xmm10, mm0
	cvtpi2pd xmm11, mm0
# LLVM-MCA-END cvtpi2pd_12dst

# cvtdq2pd_2dst: 12 cvtdq2pd over two destinations (no dependency on them)
# LLVM-MCA-BEGIN cvtdq2pd_2dst
	cvtdq2pd xmm4, xmm0
	cvtdq2pd xmm5, xmm0
	cvtdq2pd xmm4, xmm0
	cvtdq2pd xmm5, xmm0
	cvtdq2pd xmm4, xmm0
	cvtdq2pd xmm5, xmm0
	cvtdq2pd xmm4, xmm0
	cvtdq2pd xmm5, xmm0
	cvtdq2pd xmm4, xmm0
	cvtdq2pd xmm5, xmm0
	cvtdq2pd xmm4, xmm0
	cvtdq2pd xmm5, xmm0
# LLVM-MCA-END cvtdq2pd_2dst

# vcvtdq2pd_2dst: the same VEX-encoded
# LLVM-MCA-BEGIN vcvtdq2pd_2dst
	vcvtdq2pd xmm4, xmm0
	vcvtdq2pd xmm5, xmm0
	vcvtdq2pd xmm4, xmm0
	vcvtdq2pd xmm5, xmm0
	vcvtdq2pd xmm4, xmm0
	vcvtdq2pd xmm5, xmm0
	vcvtdq2pd xmm4, xmm0
	vcvtdq2pd xmm5, xmm0
	vcvtdq2pd xmm4, xmm0
	vcvtdq2pd xmm5, xmm0
	vcvtdq2pd xmm4, xmm0
	vcvtdq2pd xmm5, xmm0
# LLVM-MCA-END vcvtdq2pd_2dst

# cvtsi2sd_2dst: 12 cvtsi2sd over two destinations (an architectural merge of the upper half, modelled)
# LLVM-MCA-BEGIN cvtsi2sd_2dst
	cvtsi2sd xmm4, rax
	cvtsi2sd xmm5, rax
	cvtsi2sd xmm4, rax
	cvtsi2sd xmm5, rax
	cvtsi2sd xmm4, rax
	cvtsi2sd xmm5, rax
	cvtsi2sd xmm4, rax
	cvtsi2sd xmm5, rax
	cvtsi2sd xmm4, rax
	cvtsi2sd xmm5, rax
	cvtsi2sd xmm4, rax
	cvtsi2sd xmm5, rax
# LLVM-MCA-END cvtsi2sd_2dst
