.intel_syntax noprefix
# A one-cycle vector chain beside independent vector work of more than
# one cycle: two links of a vpaddq chain through xmm0 a copy, beside
# nothing, beside one-cycle forms (vpand, vpshufd) and beside 1, 2 or 4
# independent multi-cycle forms (vpsadbw, vpmuludq, vmulps, vaddps,
# vcvtdq2ps) whose results nothing reads; and a chain of three-cycle
# vaddps beside vmulps and vpand. Ports and latencies give every vpaddq
# region 2.00 cycles a copy and the vaddps regions 6.00. Each region is
# one kernel for `portlab validate --no-peers
# testdata/experiments/one_cycle_chains.s`; docs/models.md ("Known
# limits") has what the Zen 3 guest ran.

# alone: the chain alone
# LLVM-MCA-BEGIN alone
	vpaddq xmm0, xmm0, xmm1
	vpaddq xmm0, xmm0, xmm2
# LLVM-MCA-END alone

# vpand2: beside two vpand (one cycle)
# LLVM-MCA-BEGIN vpand2
	vpand xmm3, xmm8, xmm9
	vpaddq xmm0, xmm0, xmm1
	vpand xmm4, xmm8, xmm9
	vpaddq xmm0, xmm0, xmm2
# LLVM-MCA-END vpand2

# vpshufd2: beside two vpshufd (one cycle)
# LLVM-MCA-BEGIN vpshufd2
	vpshufd xmm3, xmm8, 1
	vpaddq xmm0, xmm0, xmm1
	vpshufd xmm4, xmm8, 1
	vpaddq xmm0, xmm0, xmm2
# LLVM-MCA-END vpshufd2

# vpsadbw1: beside one vpsadbw (three cycles)
# LLVM-MCA-BEGIN vpsadbw1
	vpsadbw xmm3, xmm8, xmm9
	vpaddq xmm0, xmm0, xmm1
	vpaddq xmm0, xmm0, xmm2
# LLVM-MCA-END vpsadbw1

# vpsadbw2: beside two vpsadbw
# LLVM-MCA-BEGIN vpsadbw2
	vpsadbw xmm3, xmm8, xmm9
	vpaddq xmm0, xmm0, xmm1
	vpsadbw xmm4, xmm8, xmm9
	vpaddq xmm0, xmm0, xmm2
# LLVM-MCA-END vpsadbw2

# vpsadbw4: beside four vpsadbw
# LLVM-MCA-BEGIN vpsadbw4
	vpsadbw xmm3, xmm8, xmm9
	vpsadbw xmm4, xmm8, xmm9
	vpaddq xmm0, xmm0, xmm1
	vpsadbw xmm5, xmm8, xmm9
	vpsadbw xmm6, xmm8, xmm9
	vpaddq xmm0, xmm0, xmm2
# LLVM-MCA-END vpsadbw4

# vpmuludq2: beside two vpmuludq (three cycles)
# LLVM-MCA-BEGIN vpmuludq2
	vpmuludq xmm3, xmm8, xmm9
	vpaddq xmm0, xmm0, xmm1
	vpmuludq xmm4, xmm8, xmm9
	vpaddq xmm0, xmm0, xmm2
# LLVM-MCA-END vpmuludq2

# vmulps2: beside two vmulps (three cycles)
# LLVM-MCA-BEGIN vmulps2
	vmulps xmm3, xmm8, xmm9
	vpaddq xmm0, xmm0, xmm1
	vmulps xmm4, xmm8, xmm9
	vpaddq xmm0, xmm0, xmm2
# LLVM-MCA-END vmulps2

# vaddps2: beside two vaddps (three cycles)
# LLVM-MCA-BEGIN vaddps2
	vaddps xmm3, xmm8, xmm9
	vpaddq xmm0, xmm0, xmm1
	vaddps xmm4, xmm8, xmm9
	vpaddq xmm0, xmm0, xmm2
# LLVM-MCA-END vaddps2

# vcvtdq2ps2: beside two vcvtdq2ps (three cycles)
# LLVM-MCA-BEGIN vcvtdq2ps2
	vcvtdq2ps xmm3, xmm8
	vpaddq xmm0, xmm0, xmm1
	vcvtdq2ps xmm4, xmm8
	vpaddq xmm0, xmm0, xmm2
# LLVM-MCA-END vcvtdq2ps2

# vmulps4: beside four vmulps
# LLVM-MCA-BEGIN vmulps4
	vmulps xmm3, xmm8, xmm9
	vmulps xmm4, xmm8, xmm9
	vpaddq xmm0, xmm0, xmm1
	vmulps xmm5, xmm8, xmm9
	vmulps xmm6, xmm8, xmm9
	vpaddq xmm0, xmm0, xmm2
# LLVM-MCA-END vmulps4

# vaddps_chain_vmulps2: a vaddps chain (three cycles a link) beside two vmulps
# LLVM-MCA-BEGIN vaddps_chain_vmulps2
	vmulps xmm3, xmm8, xmm9
	vaddps xmm0, xmm0, xmm1
	vmulps xmm4, xmm8, xmm9
	vaddps xmm0, xmm0, xmm2
# LLVM-MCA-END vaddps_chain_vmulps2

# vaddps_chain_vpand2: a vaddps chain beside two vpand
# LLVM-MCA-BEGIN vaddps_chain_vpand2
	vpand xmm3, xmm8, xmm9
	vaddps xmm0, xmm0, xmm1
	vpand xmm4, xmm8, xmm9
	vaddps xmm0, xmm0, xmm2
# LLVM-MCA-END vaddps_chain_vpand2
