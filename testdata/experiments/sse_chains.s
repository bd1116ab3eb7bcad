.intel_syntax noprefix
# Two streams that read their destination share the sixteen registers
# legacy SSE can name. Each region is one kernel for
# `portlab validate --no-peers testdata/experiments/sse_chains.s`: 48
# pshufb xmm (ports FP1 and FP2 on Zen 4, latency 1-2) and 48 mulpd xmm
# (FP0 and FP1, latency 3), 96 instructions on three ports: 32.0 cycles by
# the ports. On the Zen 4 guest (docs/method.md, "Port-conflict mixes")
# the chains cost 10-23 % with 6-12 registers each, no chain is long
# enough alone (mulpd on 8 registers: 6 links of 3 cycles, 18.0), and
# nothing is lost with twice the registers or a probe whose destination
# is write-only: why ports mode mixes legacy-SSE forms with VEX.128 probes.

# sse_p6_m8: 48 pshufb xmm, xmm on 6 registers and 48 mulpd xmm, xmm on 8, both reading their destination (the legacy probe mix): 37.6 cycles where the ports allow 32.0
# LLVM-MCA-BEGIN sse_p6_m8
	pshufb xmm0, xmm15
	mulpd xmm6, xmm15
	pshufb xmm1, xmm15
	mulpd xmm7, xmm15
	pshufb xmm2, xmm15
	mulpd xmm8, xmm15
	pshufb xmm3, xmm15
	mulpd xmm9, xmm15
	pshufb xmm4, xmm15
	mulpd xmm10, xmm15
	pshufb xmm5, xmm15
	mulpd xmm11, xmm15
	pshufb xmm0, xmm15
	mulpd xmm12, xmm15
	pshufb xmm1, xmm15
	mulpd xmm13, xmm15
	pshufb xmm2, xmm15
	mulpd xmm6, xmm15
	pshufb xmm3, xmm15
	mulpd xmm7, xmm15
	pshufb xmm4, xmm15
	mulpd xmm8, xmm15
	pshufb xmm5, xmm15
	mulpd xmm9, xmm15
	pshufb xmm0, xmm15
	mulpd xmm10, xmm15
	pshufb xmm1, xmm15
	mulpd xmm11, xmm15
	pshufb xmm2, xmm15
	mulpd xmm12, xmm15
	pshufb xmm3, xmm15
	mulpd xmm13, xmm15
	pshufb xmm4, xmm15
	mulpd xmm6, xmm15
	pshufb xmm5, xmm15
	mulpd xmm7, xmm15
	pshufb xmm0, xmm15
	mulpd xmm8, xmm15
	pshufb xmm1, xmm15
	mulpd xmm9, xmm15
	pshufb xmm2, xmm15
	mulpd xmm10, xmm15
	pshufb xmm3, xmm15
	mulpd xmm11, xmm15
	pshufb xmm4, xmm15
	mulpd xmm12, xmm15
	pshufb xmm5, xmm15
	mulpd xmm13, xmm15
	pshufb xmm0, xmm15
	mulpd xmm6, xmm15
	pshufb xmm1, xmm15
	mulpd xmm7, xmm15
	pshufb xmm2, xmm15
	mulpd xmm8, xmm15
	pshufb xmm3, xmm15
	mulpd xmm9, xmm15
	pshufb xmm4, xmm15
	mulpd xmm10, xmm15
	pshufb xmm5, xmm15
	mulpd xmm11, xmm15
	pshufb xmm0, xmm15
	mulpd xmm12, xmm15
	pshufb xmm1, xmm15
	mulpd xmm13, xmm15
	pshufb xmm2, xmm15
	mulpd xmm6, xmm15
	pshufb xmm3, xmm15
	mulpd xmm7, xmm15
	pshufb xmm4, xmm15
	mulpd xmm8, xmm15
	pshufb xmm5, xmm15
	mulpd xmm9, xmm15
	pshufb xmm0, xmm15
	mulpd xmm10, xmm15
	pshufb xmm1, xmm15
	mulpd xmm11, xmm15
	pshufb xmm2, xmm15
	mulpd xmm12, xmm15
	pshufb xmm3, xmm15
	mulpd xmm13, xmm15
	pshufb xmm4, xmm15
	mulpd xmm6, xmm15
	pshufb xmm5, xmm15
	mulpd xmm7, xmm15
	pshufb xmm0, xmm15
	mulpd xmm8, xmm15
	pshufb xmm1, xmm15
	mulpd xmm9, xmm15
	pshufb xmm2, xmm15
	mulpd xmm10, xmm15
	pshufb xmm3, xmm15
	mulpd xmm11, xmm15
	pshufb xmm4, xmm15
	mulpd xmm12, xmm15
	pshufb xmm5, xmm15
	mulpd xmm13, xmm15
# LLVM-MCA-END

# sse_p4_m11: the same on 4 and 11 registers: 35.4
# LLVM-MCA-BEGIN sse_p4_m11
	pshufb xmm0, xmm15
	mulpd xmm4, xmm15
	pshufb xmm1, xmm15
	mulpd xmm5, xmm15
	pshufb xmm2, xmm15
	mulpd xmm6, xmm15
	pshufb xmm3, xmm15
	mulpd xmm7, xmm15
	pshufb xmm0, xmm15
	mulpd xmm8, xmm15
	pshufb xmm1, xmm15
	mulpd xmm9, xmm15
	pshufb xmm2, xmm15
	mulpd xmm10, xmm15
	pshufb xmm3, xmm15
	mulpd xmm11, xmm15
	pshufb xmm0, xmm15
	mulpd xmm12, xmm15
	pshufb xmm1, xmm15
	mulpd xmm13, xmm15
	pshufb xmm2, xmm15
	mulpd xmm14, xmm15
	pshufb xmm3, xmm15
	mulpd xmm4, xmm15
	pshufb xmm0, xmm15
	mulpd xmm5, xmm15
	pshufb xmm1, xmm15
	mulpd xmm6, xmm15
	pshufb xmm2, xmm15
	mulpd xmm7, xmm15
	pshufb xmm3, xmm15
	mulpd xmm8, xmm15
	pshufb xmm0, xmm15
	mulpd xmm9, xmm15
	pshufb xmm1, xmm15
	mulpd xmm10, xmm15
	pshufb xmm2, xmm15
	mulpd xmm11, xmm15
	pshufb xmm3, xmm15
	mulpd xmm12, xmm15
	pshufb xmm0, xmm15
	mulpd xmm13, xmm15
	pshufb xmm1, xmm15
	mulpd xmm14, xmm15
	pshufb xmm2, xmm15
	mulpd xmm4, xmm15
	pshufb xmm3, xmm15
	mulpd xmm5, xmm15
	pshufb xmm0, xmm15
	mulpd xmm6, xmm15
	pshufb xmm1, xmm15
	mulpd xmm7, xmm15
	pshufb xmm2, xmm15
	mulpd xmm8, xmm15
	pshufb xmm3, xmm15
	mulpd xmm9, xmm15
	pshufb xmm0, xmm15
	mulpd xmm10, xmm15
	pshufb xmm1, xmm15
	mulpd xmm11, xmm15
	pshufb xmm2, xmm15
	mulpd xmm12, xmm15
	pshufb xmm3, xmm15
	mulpd xmm13, xmm15
	pshufb xmm0, xmm15
	mulpd xmm14, xmm15
	pshufb xmm1, xmm15
	mulpd xmm4, xmm15
	pshufb xmm2, xmm15
	mulpd xmm5, xmm15
	pshufb xmm3, xmm15
	mulpd xmm6, xmm15
	pshufb xmm0, xmm15
	mulpd xmm7, xmm15
	pshufb xmm1, xmm15
	mulpd xmm8, xmm15
	pshufb xmm2, xmm15
	mulpd xmm9, xmm15
	pshufb xmm3, xmm15
	mulpd xmm10, xmm15
	pshufb xmm0, xmm15
	mulpd xmm11, xmm15
	pshufb xmm1, xmm15
	mulpd xmm12, xmm15
	pshufb xmm2, xmm15
	mulpd xmm13, xmm15
	pshufb xmm3, xmm15
	mulpd xmm14, xmm15
	pshufb xmm0, xmm15
	mulpd xmm4, xmm15
	pshufb xmm1, xmm15
	mulpd xmm5, xmm15
	pshufb xmm2, xmm15
	mulpd xmm6, xmm15
	pshufb xmm3, xmm15
	mulpd xmm7, xmm15
# LLVM-MCA-END

# sse_p3_m12: the same on 3 and 12 registers: 39.4 (the pshufb chains, 16 links of 2 cycles, 32.0)
# LLVM-MCA-BEGIN sse_p3_m12
	pshufb xmm0, xmm15
	mulpd xmm3, xmm15
	pshufb xmm1, xmm15
	mulpd xmm4, xmm15
	pshufb xmm2, xmm15
	mulpd xmm5, xmm15
	pshufb xmm0, xmm15
	mulpd xmm6, xmm15
	pshufb xmm1, xmm15
	mulpd xmm7, xmm15
	pshufb xmm2, xmm15
	mulpd xmm8, xmm15
	pshufb xmm0, xmm15
	mulpd xmm9, xmm15
	pshufb xmm1, xmm15
	mulpd xmm10, xmm15
	pshufb xmm2, xmm15
	mulpd xmm11, xmm15
	pshufb xmm0, xmm15
	mulpd xmm12, xmm15
	pshufb xmm1, xmm15
	mulpd xmm13, xmm15
	pshufb xmm2, xmm15
	mulpd xmm14, xmm15
	pshufb xmm0, xmm15
	mulpd xmm3, xmm15
	pshufb xmm1, xmm15
	mulpd xmm4, xmm15
	pshufb xmm2, xmm15
	mulpd xmm5, xmm15
	pshufb xmm0, xmm15
	mulpd xmm6, xmm15
	pshufb xmm1, xmm15
	mulpd xmm7, xmm15
	pshufb xmm2, xmm15
	mulpd xmm8, xmm15
	pshufb xmm0, xmm15
	mulpd xmm9, xmm15
	pshufb xmm1, xmm15
	mulpd xmm10, xmm15
	pshufb xmm2, xmm15
	mulpd xmm11, xmm15
	pshufb xmm0, xmm15
	mulpd xmm12, xmm15
	pshufb xmm1, xmm15
	mulpd xmm13, xmm15
	pshufb xmm2, xmm15
	mulpd xmm14, xmm15
	pshufb xmm0, xmm15
	mulpd xmm3, xmm15
	pshufb xmm1, xmm15
	mulpd xmm4, xmm15
	pshufb xmm2, xmm15
	mulpd xmm5, xmm15
	pshufb xmm0, xmm15
	mulpd xmm6, xmm15
	pshufb xmm1, xmm15
	mulpd xmm7, xmm15
	pshufb xmm2, xmm15
	mulpd xmm8, xmm15
	pshufb xmm0, xmm15
	mulpd xmm9, xmm15
	pshufb xmm1, xmm15
	mulpd xmm10, xmm15
	pshufb xmm2, xmm15
	mulpd xmm11, xmm15
	pshufb xmm0, xmm15
	mulpd xmm12, xmm15
	pshufb xmm1, xmm15
	mulpd xmm13, xmm15
	pshufb xmm2, xmm15
	mulpd xmm14, xmm15
	pshufb xmm0, xmm15
	mulpd xmm3, xmm15
	pshufb xmm1, xmm15
	mulpd xmm4, xmm15
	pshufb xmm2, xmm15
	mulpd xmm5, xmm15
	pshufb xmm0, xmm15
	mulpd xmm6, xmm15
	pshufb xmm1, xmm15
	mulpd xmm7, xmm15
	pshufb xmm2, xmm15
	mulpd xmm8, xmm15
	pshufb xmm0, xmm15
	mulpd xmm9, xmm15
	pshufb xmm1, xmm15
	mulpd xmm10, xmm15
	pshufb xmm2, xmm15
	mulpd xmm11, xmm15
	pshufb xmm0, xmm15
	mulpd xmm12, xmm15
	pshufb xmm1, xmm15
	mulpd xmm13, xmm15
	pshufb xmm2, xmm15
	mulpd xmm14, xmm15
# LLVM-MCA-END

# evex_p6_m8: vpshufb and vmulpd xmm reading their destination on 6 and 8 registers: 37.4
# LLVM-MCA-BEGIN evex_p6_m8
	vpshufb xmm0, xmm0, xmm31
	vmulpd xmm6, xmm6, xmm31
	vpshufb xmm1, xmm1, xmm31
	vmulpd xmm7, xmm7, xmm31
	vpshufb xmm2, xmm2, xmm31
	vmulpd xmm8, xmm8, xmm31
	vpshufb xmm3, xmm3, xmm31
	vmulpd xmm9, xmm9, xmm31
	vpshufb xmm4, xmm4, xmm31
	vmulpd xmm10, xmm10, xmm31
	vpshufb xmm5, xmm5, xmm31
	vmulpd xmm11, xmm11, xmm31
	vpshufb xmm0, xmm0, xmm31
	vmulpd xmm12, xmm12, xmm31
	vpshufb xmm1, xmm1, xmm31
	vmulpd xmm13, xmm13, xmm31
	vpshufb xmm2, xmm2, xmm31
	vmulpd xmm6, xmm6, xmm31
	vpshufb xmm3, xmm3, xmm31
	vmulpd xmm7, xmm7, xmm31
	vpshufb xmm4, xmm4, xmm31
	vmulpd xmm8, xmm8, xmm31
	vpshufb xmm5, xmm5, xmm31
	vmulpd xmm9, xmm9, xmm31
	vpshufb xmm0, xmm0, xmm31
	vmulpd xmm10, xmm10, xmm31
	vpshufb xmm1, xmm1, xmm31
	vmulpd xmm11, xmm11, xmm31
	vpshufb xmm2, xmm2, xmm31
	vmulpd xmm12, xmm12, xmm31
	vpshufb xmm3, xmm3, xmm31
	vmulpd xmm13, xmm13, xmm31
	vpshufb xmm4, xmm4, xmm31
	vmulpd xmm6, xmm6, xmm31
	vpshufb xmm5, xmm5, xmm31
	vmulpd xmm7, xmm7, xmm31
	vpshufb xmm0, xmm0, xmm31
	vmulpd xmm8, xmm8, xmm31
	vpshufb xmm1, xmm1, xmm31
	vmulpd xmm9, xmm9, xmm31
	vpshufb xmm2, xmm2, xmm31
	vmulpd xmm10, xmm10, xmm31
	vpshufb xmm3, xmm3, xmm31
	vmulpd xmm11, xmm11, xmm31
	vpshufb xmm4, xmm4, xmm31
	vmulpd xmm12, xmm12, xmm31
	vpshufb xmm5, xmm5, xmm31
	vmulpd xmm13, xmm13, xmm31
	vpshufb xmm0, xmm0, xmm31
	vmulpd xmm6, xmm6, xmm31
	vpshufb xmm1, xmm1, xmm31
	vmulpd xmm7, xmm7, xmm31
	vpshufb xmm2, xmm2, xmm31
	vmulpd xmm8, xmm8, xmm31
	vpshufb xmm3, xmm3, xmm31
	vmulpd xmm9, xmm9, xmm31
	vpshufb xmm4, xmm4, xmm31
	vmulpd xmm10, xmm10, xmm31
	vpshufb xmm5, xmm5, xmm31
	vmulpd xmm11, xmm11, xmm31
	vpshufb xmm0, xmm0, xmm31
	vmulpd xmm12, xmm12, xmm31
	vpshufb xmm1, xmm1, xmm31
	vmulpd xmm13, xmm13, xmm31
	vpshufb xmm2, xmm2, xmm31
	vmulpd xmm6, xmm6, xmm31
	vpshufb xmm3, xmm3, xmm31
	vmulpd xmm7, xmm7, xmm31
	vpshufb xmm4, xmm4, xmm31
	vmulpd xmm8, xmm8, xmm31
	vpshufb xmm5, xmm5, xmm31
	vmulpd xmm9, xmm9, xmm31
	vpshufb xmm0, xmm0, xmm31
	vmulpd xmm10, xmm10, xmm31
	vpshufb xmm1, xmm1, xmm31
	vmulpd xmm11, xmm11, xmm31
	vpshufb xmm2, xmm2, xmm31
	vmulpd xmm12, xmm12, xmm31
	vpshufb xmm3, xmm3, xmm31
	vmulpd xmm13, xmm13, xmm31
	vpshufb xmm4, xmm4, xmm31
	vmulpd xmm6, xmm6, xmm31
	vpshufb xmm5, xmm5, xmm31
	vmulpd xmm7, xmm7, xmm31
	vpshufb xmm0, xmm0, xmm31
	vmulpd xmm8, xmm8, xmm31
	vpshufb xmm1, xmm1, xmm31
	vmulpd xmm9, xmm9, xmm31
	vpshufb xmm2, xmm2, xmm31
	vmulpd xmm10, xmm10, xmm31
	vpshufb xmm3, xmm3, xmm31
	vmulpd xmm11, xmm11, xmm31
	vpshufb xmm4, xmm4, xmm31
	vmulpd xmm12, xmm12, xmm31
	vpshufb xmm5, xmm5, xmm31
	vmulpd xmm13, xmm13, xmm31
# LLVM-MCA-END

# evex_p8_m16: the same on 8 and 16 registers: 32.0, the bound
# LLVM-MCA-BEGIN evex_p8_m16
	vpshufb xmm0, xmm0, xmm31
	vmulpd xmm8, xmm8, xmm31
	vpshufb xmm1, xmm1, xmm31
	vmulpd xmm9, xmm9, xmm31
	vpshufb xmm2, xmm2, xmm31
	vmulpd xmm10, xmm10, xmm31
	vpshufb xmm3, xmm3, xmm31
	vmulpd xmm11, xmm11, xmm31
	vpshufb xmm4, xmm4, xmm31
	vmulpd xmm12, xmm12, xmm31
	vpshufb xmm5, xmm5, xmm31
	vmulpd xmm13, xmm13, xmm31
	vpshufb xmm6, xmm6, xmm31
	vmulpd xmm14, xmm14, xmm31
	vpshufb xmm7, xmm7, xmm31
	vmulpd xmm15, xmm15, xmm31
	vpshufb xmm0, xmm0, xmm31
	vmulpd xmm16, xmm16, xmm31
	vpshufb xmm1, xmm1, xmm31
	vmulpd xmm17, xmm17, xmm31
	vpshufb xmm2, xmm2, xmm31
	vmulpd xmm18, xmm18, xmm31
	vpshufb xmm3, xmm3, xmm31
	vmulpd xmm19, xmm19, xmm31
	vpshufb xmm4, xmm4, xmm31
	vmulpd xmm20, xmm20, xmm31
	vpshufb xmm5, xmm5, xmm31
	vmulpd xmm21, xmm21, xmm31
	vpshufb xmm6, xmm6, xmm31
	vmulpd xmm22, xmm22, xmm31
	vpshufb xmm7, xmm7, xmm31
	vmulpd xmm23, xmm23, xmm31
	vpshufb xmm0, xmm0, xmm31
	vmulpd xmm8, xmm8, xmm31
	vpshufb xmm1, xmm1, xmm31
	vmulpd xmm9, xmm9, xmm31
	vpshufb xmm2, xmm2, xmm31
	vmulpd xmm10, xmm10, xmm31
	vpshufb xmm3, xmm3, xmm31
	vmulpd xmm11, xmm11, xmm31
	vpshufb xmm4, xmm4, xmm31
	vmulpd xmm12, xmm12, xmm31
	vpshufb xmm5, xmm5, xmm31
	vmulpd xmm13, xmm13, xmm31
	vpshufb xmm6, xmm6, xmm31
	vmulpd xmm14, xmm14, xmm31
	vpshufb xmm7, xmm7, xmm31
	vmulpd xmm15, xmm15, xmm31
	vpshufb xmm0, xmm0, xmm31
	vmulpd xmm16, xmm16, xmm31
	vpshufb xmm1, xmm1, xmm31
	vmulpd xmm17, xmm17, xmm31
	vpshufb xmm2, xmm2, xmm31
	vmulpd xmm18, xmm18, xmm31
	vpshufb xmm3, xmm3, xmm31
	vmulpd xmm19, xmm19, xmm31
	vpshufb xmm4, xmm4, xmm31
	vmulpd xmm20, xmm20, xmm31
	vpshufb xmm5, xmm5, xmm31
	vmulpd xmm21, xmm21, xmm31
	vpshufb xmm6, xmm6, xmm31
	vmulpd xmm22, xmm22, xmm31
	vpshufb xmm7, xmm7, xmm31
	vmulpd xmm23, xmm23, xmm31
	vpshufb xmm0, xmm0, xmm31
	vmulpd xmm8, xmm8, xmm31
	vpshufb xmm1, xmm1, xmm31
	vmulpd xmm9, xmm9, xmm31
	vpshufb xmm2, xmm2, xmm31
	vmulpd xmm10, xmm10, xmm31
	vpshufb xmm3, xmm3, xmm31
	vmulpd xmm11, xmm11, xmm31
	vpshufb xmm4, xmm4, xmm31
	vmulpd xmm12, xmm12, xmm31
	vpshufb xmm5, xmm5, xmm31
	vmulpd xmm13, xmm13, xmm31
	vpshufb xmm6, xmm6, xmm31
	vmulpd xmm14, xmm14, xmm31
	vpshufb xmm7, xmm7, xmm31
	vmulpd xmm15, xmm15, xmm31
	vpshufb xmm0, xmm0, xmm31
	vmulpd xmm16, xmm16, xmm31
	vpshufb xmm1, xmm1, xmm31
	vmulpd xmm17, xmm17, xmm31
	vpshufb xmm2, xmm2, xmm31
	vmulpd xmm18, xmm18, xmm31
	vpshufb xmm3, xmm3, xmm31
	vmulpd xmm19, xmm19, xmm31
	vpshufb xmm4, xmm4, xmm31
	vmulpd xmm20, xmm20, xmm31
	vpshufb xmm5, xmm5, xmm31
	vmulpd xmm21, xmm21, xmm31
	vpshufb xmm6, xmm6, xmm31
	vmulpd xmm22, xmm22, xmm31
	vpshufb xmm7, xmm7, xmm31
	vmulpd xmm23, xmm23, xmm31
# LLVM-MCA-END

# sse_pshufb_vex_mulpd: 48 pshufb xmm, xmm on 6 registers beside 48 vmulpd xmm, xmm, xmm, whose destination is write-only (the VEX probe): 32.0, the bound
# LLVM-MCA-BEGIN sse_pshufb_vex_mulpd
	pshufb xmm0, xmm15
	vmulpd xmm7, xmm15, xmm15
	pshufb xmm1, xmm15
	vmulpd xmm8, xmm15, xmm15
	pshufb xmm2, xmm15
	vmulpd xmm9, xmm15, xmm15
	pshufb xmm3, xmm15
	vmulpd xmm10, xmm15, xmm15
	pshufb xmm4, xmm15
	vmulpd xmm11, xmm15, xmm15
	pshufb xmm5, xmm15
	vmulpd xmm12, xmm15, xmm15
	pshufb xmm0, xmm15
	vmulpd xmm13, xmm15, xmm15
	pshufb xmm1, xmm15
	vmulpd xmm14, xmm15, xmm15
	pshufb xmm2, xmm15
	vmulpd xmm7, xmm15, xmm15
	pshufb xmm3, xmm15
	vmulpd xmm8, xmm15, xmm15
	pshufb xmm4, xmm15
	vmulpd xmm9, xmm15, xmm15
	pshufb xmm5, xmm15
	vmulpd xmm10, xmm15, xmm15
	pshufb xmm0, xmm15
	vmulpd xmm11, xmm15, xmm15
	pshufb xmm1, xmm15
	vmulpd xmm12, xmm15, xmm15
	pshufb xmm2, xmm15
	vmulpd xmm13, xmm15, xmm15
	pshufb xmm3, xmm15
	vmulpd xmm14, xmm15, xmm15
	pshufb xmm4, xmm15
	vmulpd xmm7, xmm15, xmm15
	pshufb xmm5, xmm15
	vmulpd xmm8, xmm15, xmm15
	pshufb xmm0, xmm15
	vmulpd xmm9, xmm15, xmm15
	pshufb xmm1, xmm15
	vmulpd xmm10, xmm15, xmm15
	pshufb xmm2, xmm15
	vmulpd xmm11, xmm15, xmm15
	pshufb xmm3, xmm15
	vmulpd xmm12, xmm15, xmm15
	pshufb xmm4, xmm15
	vmulpd xmm13, xmm15, xmm15
	pshufb xmm5, xmm15
	vmulpd xmm14, xmm15, xmm15
	pshufb xmm0, xmm15
	vmulpd xmm7, xmm15, xmm15
	pshufb xmm1, xmm15
	vmulpd xmm8, xmm15, xmm15
	pshufb xmm2, xmm15
	vmulpd xmm9, xmm15, xmm15
	pshufb xmm3, xmm15
	vmulpd xmm10, xmm15, xmm15
	pshufb xmm4, xmm15
	vmulpd xmm11, xmm15, xmm15
	pshufb xmm5, xmm15
	vmulpd xmm12, xmm15, xmm15
	pshufb xmm0, xmm15
	vmulpd xmm13, xmm15, xmm15
	pshufb xmm1, xmm15
	vmulpd xmm14, xmm15, xmm15
	pshufb xmm2, xmm15
	vmulpd xmm7, xmm15, xmm15
	pshufb xmm3, xmm15
	vmulpd xmm8, xmm15, xmm15
	pshufb xmm4, xmm15
	vmulpd xmm9, xmm15, xmm15
	pshufb xmm5, xmm15
	vmulpd xmm10, xmm15, xmm15
	pshufb xmm0, xmm15
	vmulpd xmm11, xmm15, xmm15
	pshufb xmm1, xmm15
	vmulpd xmm12, xmm15, xmm15
	pshufb xmm2, xmm15
	vmulpd xmm13, xmm15, xmm15
	pshufb xmm3, xmm15
	vmulpd xmm14, xmm15, xmm15
	pshufb xmm4, xmm15
	vmulpd xmm7, xmm15, xmm15
	pshufb xmm5, xmm15
	vmulpd xmm8, xmm15, xmm15
	pshufb xmm0, xmm15
	vmulpd xmm9, xmm15, xmm15
	pshufb xmm1, xmm15
	vmulpd xmm10, xmm15, xmm15
	pshufb xmm2, xmm15
	vmulpd xmm11, xmm15, xmm15
	pshufb xmm3, xmm15
	vmulpd xmm12, xmm15, xmm15
	pshufb xmm4, xmm15
	vmulpd xmm13, xmm15, xmm15
	pshufb xmm5, xmm15
	vmulpd xmm14, xmm15, xmm15
# LLVM-MCA-END
