.intel_syntax noprefix
# Writes to the AVX-512 mask registers, and FP work whose pipes overlap.
# Each region is one kernel for `portlab validate --no-peers
# testdata/experiments/mask_writes.s`; its comment gives the cycles a copy
# that optimal balancing over the Zen 4 pipes named below allows ("by the
# ports") and what the Zen 4 guest
# (AuthenticAMD-19-11-1) measured, 2026-11-30, over three runs (a range
# where they differed by more than 1 %; docs/method.md, "Zen 4 guest"). There `vpcmpeqb k, xmm, xmm` runs on
# the pipes of `vmulps` (FP0/FP1: the pair takes the sum) and `korw` on
# those of `vaddps` (FP2/FP3), two a cycle each; together they take the
# sum of their times, as if every write to a mask register took one of two
# slots a cycle, whichever pipe computes it. Beside `vpshufb` (FP1/FP2)
# either runs well above the ports' bound where mask writes are at least
# as many as the shuffles, at it where the shuffles are twice as many.
# `vmulps` with `vpshufb` balances at the bound except two multiplies a
# shuffle (1.2 times it).
# Mask destinations alternate between k2 and k3; vector destinations
# rotate over four registers that nothing reads.

# cmpk_alone: 24 vpcmpeqb k, xmm, xmm (12.0 by the ports; Zen 4 12.0)
# LLVM-MCA-BEGIN cmpk_alone
	vpcmpeqb k3, xmm26, xmm27
	vpcmpeqb k2, xmm26, xmm27
	vpcmpeqb k3, xmm26, xmm27
	vpcmpeqb k2, xmm26, xmm27
	vpcmpeqb k3, xmm26, xmm27
	vpcmpeqb k2, xmm26, xmm27
	vpcmpeqb k3, xmm26, xmm27
	vpcmpeqb k2, xmm26, xmm27
	vpcmpeqb k3, xmm26, xmm27
	vpcmpeqb k2, xmm26, xmm27
	vpcmpeqb k3, xmm26, xmm27
	vpcmpeqb k2, xmm26, xmm27
	vpcmpeqb k3, xmm26, xmm27
	vpcmpeqb k2, xmm26, xmm27
	vpcmpeqb k3, xmm26, xmm27
	vpcmpeqb k2, xmm26, xmm27
	vpcmpeqb k3, xmm26, xmm27
	vpcmpeqb k2, xmm26, xmm27
	vpcmpeqb k3, xmm26, xmm27
	vpcmpeqb k2, xmm26, xmm27
	vpcmpeqb k3, xmm26, xmm27
	vpcmpeqb k2, xmm26, xmm27
	vpcmpeqb k3, xmm26, xmm27
	vpcmpeqb k2, xmm26, xmm27
# LLVM-MCA-END

# korw_alone: 24 korw (12.0 by the ports; Zen 4 12.0)
# LLVM-MCA-BEGIN korw_alone
	korw k3, k4, k5
	korw k2, k4, k5
	korw k3, k4, k5
	korw k2, k4, k5
	korw k3, k4, k5
	korw k2, k4, k5
	korw k3, k4, k5
	korw k2, k4, k5
	korw k3, k4, k5
	korw k2, k4, k5
	korw k3, k4, k5
	korw k2, k4, k5
	korw k3, k4, k5
	korw k2, k4, k5
	korw k3, k4, k5
	korw k2, k4, k5
	korw k3, k4, k5
	korw k2, k4, k5
	korw k3, k4, k5
	korw k2, k4, k5
	korw k3, k4, k5
	korw k2, k4, k5
	korw k3, k4, k5
	korw k2, k4, k5
# LLVM-MCA-END

# cmpk_mul: 24 vpcmpeqb k, xmm, xmm + 24 vmulps xmm (24.0 by the ports; Zen 4 24.0)
# LLVM-MCA-BEGIN cmpk_mul
	vpcmpeqb k3, xmm26, xmm27
	vmulps xmm0, xmm8, xmm9
	vpcmpeqb k2, xmm26, xmm27
	vmulps xmm1, xmm8, xmm9
	vpcmpeqb k3, xmm26, xmm27
	vmulps xmm2, xmm8, xmm9
	vpcmpeqb k2, xmm26, xmm27
	vmulps xmm3, xmm8, xmm9
	vpcmpeqb k3, xmm26, xmm27
	vmulps xmm0, xmm8, xmm9
	vpcmpeqb k2, xmm26, xmm27
	vmulps xmm1, xmm8, xmm9
	vpcmpeqb k3, xmm26, xmm27
	vmulps xmm2, xmm8, xmm9
	vpcmpeqb k2, xmm26, xmm27
	vmulps xmm3, xmm8, xmm9
	vpcmpeqb k3, xmm26, xmm27
	vmulps xmm0, xmm8, xmm9
	vpcmpeqb k2, xmm26, xmm27
	vmulps xmm1, xmm8, xmm9
	vpcmpeqb k3, xmm26, xmm27
	vmulps xmm2, xmm8, xmm9
	vpcmpeqb k2, xmm26, xmm27
	vmulps xmm3, xmm8, xmm9
	vpcmpeqb k3, xmm26, xmm27
	vmulps xmm0, xmm8, xmm9
	vpcmpeqb k2, xmm26, xmm27
	vmulps xmm1, xmm8, xmm9
	vpcmpeqb k3, xmm26, xmm27
	vmulps xmm2, xmm8, xmm9
	vpcmpeqb k2, xmm26, xmm27
	vmulps xmm3, xmm8, xmm9
	vpcmpeqb k3, xmm26, xmm27
	vmulps xmm0, xmm8, xmm9
	vpcmpeqb k2, xmm26, xmm27
	vmulps xmm1, xmm8, xmm9
	vpcmpeqb k3, xmm26, xmm27
	vmulps xmm2, xmm8, xmm9
	vpcmpeqb k2, xmm26, xmm27
	vmulps xmm3, xmm8, xmm9
	vpcmpeqb k3, xmm26, xmm27
	vmulps xmm0, xmm8, xmm9
	vpcmpeqb k2, xmm26, xmm27
	vmulps xmm1, xmm8, xmm9
	vpcmpeqb k3, xmm26, xmm27
	vmulps xmm2, xmm8, xmm9
	vpcmpeqb k2, xmm26, xmm27
	vmulps xmm3, xmm8, xmm9
# LLVM-MCA-END

# cmpk_add: 24 vpcmpeqb k, xmm, xmm + 24 vaddps xmm (12.0 by the ports; Zen 4 12.3-13.0)
# LLVM-MCA-BEGIN cmpk_add
	vpcmpeqb k3, xmm26, xmm27
	vaddps xmm4, xmm8, xmm9
	vpcmpeqb k2, xmm26, xmm27
	vaddps xmm5, xmm8, xmm9
	vpcmpeqb k3, xmm26, xmm27
	vaddps xmm6, xmm8, xmm9
	vpcmpeqb k2, xmm26, xmm27
	vaddps xmm7, xmm8, xmm9
	vpcmpeqb k3, xmm26, xmm27
	vaddps xmm4, xmm8, xmm9
	vpcmpeqb k2, xmm26, xmm27
	vaddps xmm5, xmm8, xmm9
	vpcmpeqb k3, xmm26, xmm27
	vaddps xmm6, xmm8, xmm9
	vpcmpeqb k2, xmm26, xmm27
	vaddps xmm7, xmm8, xmm9
	vpcmpeqb k3, xmm26, xmm27
	vaddps xmm4, xmm8, xmm9
	vpcmpeqb k2, xmm26, xmm27
	vaddps xmm5, xmm8, xmm9
	vpcmpeqb k3, xmm26, xmm27
	vaddps xmm6, xmm8, xmm9
	vpcmpeqb k2, xmm26, xmm27
	vaddps xmm7, xmm8, xmm9
	vpcmpeqb k3, xmm26, xmm27
	vaddps xmm4, xmm8, xmm9
	vpcmpeqb k2, xmm26, xmm27
	vaddps xmm5, xmm8, xmm9
	vpcmpeqb k3, xmm26, xmm27
	vaddps xmm6, xmm8, xmm9
	vpcmpeqb k2, xmm26, xmm27
	vaddps xmm7, xmm8, xmm9
	vpcmpeqb k3, xmm26, xmm27
	vaddps xmm4, xmm8, xmm9
	vpcmpeqb k2, xmm26, xmm27
	vaddps xmm5, xmm8, xmm9
	vpcmpeqb k3, xmm26, xmm27
	vaddps xmm6, xmm8, xmm9
	vpcmpeqb k2, xmm26, xmm27
	vaddps xmm7, xmm8, xmm9
	vpcmpeqb k3, xmm26, xmm27
	vaddps xmm4, xmm8, xmm9
	vpcmpeqb k2, xmm26, xmm27
	vaddps xmm5, xmm8, xmm9
	vpcmpeqb k3, xmm26, xmm27
	vaddps xmm6, xmm8, xmm9
	vpcmpeqb k2, xmm26, xmm27
	vaddps xmm7, xmm8, xmm9
# LLVM-MCA-END

# korw_add: 24 korw + 24 vaddps xmm (24.0 by the ports; Zen 4 24.0)
# LLVM-MCA-BEGIN korw_add
	korw k3, k4, k5
	vaddps xmm4, xmm8, xmm9
	korw k2, k4, k5
	vaddps xmm5, xmm8, xmm9
	korw k3, k4, k5
	vaddps xmm6, xmm8, xmm9
	korw k2, k4, k5
	vaddps xmm7, xmm8, xmm9
	korw k3, k4, k5
	vaddps xmm4, xmm8, xmm9
	korw k2, k4, k5
	vaddps xmm5, xmm8, xmm9
	korw k3, k4, k5
	vaddps xmm6, xmm8, xmm9
	korw k2, k4, k5
	vaddps xmm7, xmm8, xmm9
	korw k3, k4, k5
	vaddps xmm4, xmm8, xmm9
	korw k2, k4, k5
	vaddps xmm5, xmm8, xmm9
	korw k3, k4, k5
	vaddps xmm6, xmm8, xmm9
	korw k2, k4, k5
	vaddps xmm7, xmm8, xmm9
	korw k3, k4, k5
	vaddps xmm4, xmm8, xmm9
	korw k2, k4, k5
	vaddps xmm5, xmm8, xmm9
	korw k3, k4, k5
	vaddps xmm6, xmm8, xmm9
	korw k2, k4, k5
	vaddps xmm7, xmm8, xmm9
	korw k3, k4, k5
	vaddps xmm4, xmm8, xmm9
	korw k2, k4, k5
	vaddps xmm5, xmm8, xmm9
	korw k3, k4, k5
	vaddps xmm6, xmm8, xmm9
	korw k2, k4, k5
	vaddps xmm7, xmm8, xmm9
	korw k3, k4, k5
	vaddps xmm4, xmm8, xmm9
	korw k2, k4, k5
	vaddps xmm5, xmm8, xmm9
	korw k3, k4, k5
	vaddps xmm6, xmm8, xmm9
	korw k2, k4, k5
	vaddps xmm7, xmm8, xmm9
# LLVM-MCA-END

# korw_mul: 24 korw + 24 vmulps xmm (12.0 by the ports; Zen 4 13.1-15.8)
# LLVM-MCA-BEGIN korw_mul
	korw k3, k4, k5
	vmulps xmm0, xmm8, xmm9
	korw k2, k4, k5
	vmulps xmm1, xmm8, xmm9
	korw k3, k4, k5
	vmulps xmm2, xmm8, xmm9
	korw k2, k4, k5
	vmulps xmm3, xmm8, xmm9
	korw k3, k4, k5
	vmulps xmm0, xmm8, xmm9
	korw k2, k4, k5
	vmulps xmm1, xmm8, xmm9
	korw k3, k4, k5
	vmulps xmm2, xmm8, xmm9
	korw k2, k4, k5
	vmulps xmm3, xmm8, xmm9
	korw k3, k4, k5
	vmulps xmm0, xmm8, xmm9
	korw k2, k4, k5
	vmulps xmm1, xmm8, xmm9
	korw k3, k4, k5
	vmulps xmm2, xmm8, xmm9
	korw k2, k4, k5
	vmulps xmm3, xmm8, xmm9
	korw k3, k4, k5
	vmulps xmm0, xmm8, xmm9
	korw k2, k4, k5
	vmulps xmm1, xmm8, xmm9
	korw k3, k4, k5
	vmulps xmm2, xmm8, xmm9
	korw k2, k4, k5
	vmulps xmm3, xmm8, xmm9
	korw k3, k4, k5
	vmulps xmm0, xmm8, xmm9
	korw k2, k4, k5
	vmulps xmm1, xmm8, xmm9
	korw k3, k4, k5
	vmulps xmm2, xmm8, xmm9
	korw k2, k4, k5
	vmulps xmm3, xmm8, xmm9
	korw k3, k4, k5
	vmulps xmm0, xmm8, xmm9
	korw k2, k4, k5
	vmulps xmm1, xmm8, xmm9
	korw k3, k4, k5
	vmulps xmm2, xmm8, xmm9
	korw k2, k4, k5
	vmulps xmm3, xmm8, xmm9
# LLVM-MCA-END

# cmpk_korw: 24 vpcmpeqb k, xmm, xmm + 24 korw (12.0 by the ports; Zen 4 24.0)
# LLVM-MCA-BEGIN cmpk_korw
	vpcmpeqb k3, xmm26, xmm27
	korw k2, k4, k5
	vpcmpeqb k3, xmm26, xmm27
	korw k2, k4, k5
	vpcmpeqb k3, xmm26, xmm27
	korw k2, k4, k5
	vpcmpeqb k3, xmm26, xmm27
	korw k2, k4, k5
	vpcmpeqb k3, xmm26, xmm27
	korw k2, k4, k5
	vpcmpeqb k3, xmm26, xmm27
	korw k2, k4, k5
	vpcmpeqb k3, xmm26, xmm27
	korw k2, k4, k5
	vpcmpeqb k3, xmm26, xmm27
	korw k2, k4, k5
	vpcmpeqb k3, xmm26, xmm27
	korw k2, k4, k5
	vpcmpeqb k3, xmm26, xmm27
	korw k2, k4, k5
	vpcmpeqb k3, xmm26, xmm27
	korw k2, k4, k5
	vpcmpeqb k3, xmm26, xmm27
	korw k2, k4, k5
	vpcmpeqb k3, xmm26, xmm27
	korw k2, k4, k5
	vpcmpeqb k3, xmm26, xmm27
	korw k2, k4, k5
	vpcmpeqb k3, xmm26, xmm27
	korw k2, k4, k5
	vpcmpeqb k3, xmm26, xmm27
	korw k2, k4, k5
	vpcmpeqb k3, xmm26, xmm27
	korw k2, k4, k5
	vpcmpeqb k3, xmm26, xmm27
	korw k2, k4, k5
	vpcmpeqb k3, xmm26, xmm27
	korw k2, k4, k5
	vpcmpeqb k3, xmm26, xmm27
	korw k2, k4, k5
	vpcmpeqb k3, xmm26, xmm27
	korw k2, k4, k5
	vpcmpeqb k3, xmm26, xmm27
	korw k2, k4, k5
	vpcmpeqb k3, xmm26, xmm27
	korw k2, k4, k5
	vpcmpeqb k3, xmm26, xmm27
	korw k2, k4, k5
# LLVM-MCA-END

# cmpkz_alone: 24 vpcmpeqb k, zmm, zmm (24.0 by the ports; Zen 4 24.0)
# LLVM-MCA-BEGIN cmpkz_alone
	vpcmpeqb k3, zmm26, zmm27
	vpcmpeqb k2, zmm26, zmm27
	vpcmpeqb k3, zmm26, zmm27
	vpcmpeqb k2, zmm26, zmm27
	vpcmpeqb k3, zmm26, zmm27
	vpcmpeqb k2, zmm26, zmm27
	vpcmpeqb k3, zmm26, zmm27
	vpcmpeqb k2, zmm26, zmm27
	vpcmpeqb k3, zmm26, zmm27
	vpcmpeqb k2, zmm26, zmm27
	vpcmpeqb k3, zmm26, zmm27
	vpcmpeqb k2, zmm26, zmm27
	vpcmpeqb k3, zmm26, zmm27
	vpcmpeqb k2, zmm26, zmm27
	vpcmpeqb k3, zmm26, zmm27
	vpcmpeqb k2, zmm26, zmm27
	vpcmpeqb k3, zmm26, zmm27
	vpcmpeqb k2, zmm26, zmm27
	vpcmpeqb k3, zmm26, zmm27
	vpcmpeqb k2, zmm26, zmm27
	vpcmpeqb k3, zmm26, zmm27
	vpcmpeqb k2, zmm26, zmm27
	vpcmpeqb k3, zmm26, zmm27
	vpcmpeqb k2, zmm26, zmm27
# LLVM-MCA-END

# cmpkz_korw: 24 vpcmpeqb k, zmm, zmm + 24 korw (24.0 by the ports; Zen 4 38.2)
# LLVM-MCA-BEGIN cmpkz_korw
	vpcmpeqb k3, zmm26, zmm27
	korw k2, k4, k5
	vpcmpeqb k3, zmm26, zmm27
	korw k2, k4, k5
	vpcmpeqb k3, zmm26, zmm27
	korw k2, k4, k5
	vpcmpeqb k3, zmm26, zmm27
	korw k2, k4, k5
	vpcmpeqb k3, zmm26, zmm27
	korw k2, k4, k5
	vpcmpeqb k3, zmm26, zmm27
	korw k2, k4, k5
	vpcmpeqb k3, zmm26, zmm27
	korw k2, k4, k5
	vpcmpeqb k3, zmm26, zmm27
	korw k2, k4, k5
	vpcmpeqb k3, zmm26, zmm27
	korw k2, k4, k5
	vpcmpeqb k3, zmm26, zmm27
	korw k2, k4, k5
	vpcmpeqb k3, zmm26, zmm27
	korw k2, k4, k5
	vpcmpeqb k3, zmm26, zmm27
	korw k2, k4, k5
	vpcmpeqb k3, zmm26, zmm27
	korw k2, k4, k5
	vpcmpeqb k3, zmm26, zmm27
	korw k2, k4, k5
	vpcmpeqb k3, zmm26, zmm27
	korw k2, k4, k5
	vpcmpeqb k3, zmm26, zmm27
	korw k2, k4, k5
	vpcmpeqb k3, zmm26, zmm27
	korw k2, k4, k5
	vpcmpeqb k3, zmm26, zmm27
	korw k2, k4, k5
	vpcmpeqb k3, zmm26, zmm27
	korw k2, k4, k5
	vpcmpeqb k3, zmm26, zmm27
	korw k2, k4, k5
	vpcmpeqb k3, zmm26, zmm27
	korw k2, k4, k5
	vpcmpeqb k3, zmm26, zmm27
	korw k2, k4, k5
	vpcmpeqb k3, zmm26, zmm27
	korw k2, k4, k5
	vpcmpeqb k3, zmm26, zmm27
	korw k2, k4, k5
# LLVM-MCA-END

# korw_padd: 24 korw + 48 vpaddd xmm (18.0 by the ports; Zen 4 18.0)
# LLVM-MCA-BEGIN korw_padd
	korw k3, k4, k5
	vpaddd xmm12, xmm10, xmm11
	vpaddd xmm13, xmm10, xmm11
	korw k2, k4, k5
	vpaddd xmm14, xmm10, xmm11
	vpaddd xmm15, xmm10, xmm11
	korw k3, k4, k5
	vpaddd xmm12, xmm10, xmm11
	vpaddd xmm13, xmm10, xmm11
	korw k2, k4, k5
	vpaddd xmm14, xmm10, xmm11
	vpaddd xmm15, xmm10, xmm11
	korw k3, k4, k5
	vpaddd xmm12, xmm10, xmm11
	vpaddd xmm13, xmm10, xmm11
	korw k2, k4, k5
	vpaddd xmm14, xmm10, xmm11
	vpaddd xmm15, xmm10, xmm11
	korw k3, k4, k5
	vpaddd xmm12, xmm10, xmm11
	vpaddd xmm13, xmm10, xmm11
	korw k2, k4, k5
	vpaddd xmm14, xmm10, xmm11
	vpaddd xmm15, xmm10, xmm11
	korw k3, k4, k5
	vpaddd xmm12, xmm10, xmm11
	vpaddd xmm13, xmm10, xmm11
	korw k2, k4, k5
	vpaddd xmm14, xmm10, xmm11
	vpaddd xmm15, xmm10, xmm11
	korw k3, k4, k5
	vpaddd xmm12, xmm10, xmm11
	vpaddd xmm13, xmm10, xmm11
	korw k2, k4, k5
	vpaddd xmm14, xmm10, xmm11
	vpaddd xmm15, xmm10, xmm11
	korw k3, k4, k5
	vpaddd xmm12, xmm10, xmm11
	vpaddd xmm13, xmm10, xmm11
	korw k2, k4, k5
	vpaddd xmm14, xmm10, xmm11
	vpaddd xmm15, xmm10, xmm11
	korw k3, k4, k5
	vpaddd xmm12, xmm10, xmm11
	vpaddd xmm13, xmm10, xmm11
	korw k2, k4, k5
	vpaddd xmm14, xmm10, xmm11
	vpaddd xmm15, xmm10, xmm11
	korw k3, k4, k5
	vpaddd xmm12, xmm10, xmm11
	vpaddd xmm13, xmm10, xmm11
	korw k2, k4, k5
	vpaddd xmm14, xmm10, xmm11
	vpaddd xmm15, xmm10, xmm11
	korw k3, k4, k5
	vpaddd xmm12, xmm10, xmm11
	vpaddd xmm13, xmm10, xmm11
	korw k2, k4, k5
	vpaddd xmm14, xmm10, xmm11
	vpaddd xmm15, xmm10, xmm11
	korw k3, k4, k5
	vpaddd xmm12, xmm10, xmm11
	vpaddd xmm13, xmm10, xmm11
	korw k2, k4, k5
	vpaddd xmm14, xmm10, xmm11
	vpaddd xmm15, xmm10, xmm11
	korw k3, k4, k5
	vpaddd xmm12, xmm10, xmm11
	vpaddd xmm13, xmm10, xmm11
	korw k2, k4, k5
	vpaddd xmm14, xmm10, xmm11
	vpaddd xmm15, xmm10, xmm11
# LLVM-MCA-END

# cmpk_shuf: 24 vpcmpeqb k, xmm, xmm + 24 vpshufb xmm (16.0 by the ports; Zen 4 22.5-23.2)
# LLVM-MCA-BEGIN cmpk_shuf
	vpcmpeqb k3, xmm26, xmm27
	vpshufb xmm12, xmm10, xmm11
	vpcmpeqb k2, xmm26, xmm27
	vpshufb xmm13, xmm10, xmm11
	vpcmpeqb k3, xmm26, xmm27
	vpshufb xmm14, xmm10, xmm11
	vpcmpeqb k2, xmm26, xmm27
	vpshufb xmm15, xmm10, xmm11
	vpcmpeqb k3, xmm26, xmm27
	vpshufb xmm12, xmm10, xmm11
	vpcmpeqb k2, xmm26, xmm27
	vpshufb xmm13, xmm10, xmm11
	vpcmpeqb k3, xmm26, xmm27
	vpshufb xmm14, xmm10, xmm11
	vpcmpeqb k2, xmm26, xmm27
	vpshufb xmm15, xmm10, xmm11
	vpcmpeqb k3, xmm26, xmm27
	vpshufb xmm12, xmm10, xmm11
	vpcmpeqb k2, xmm26, xmm27
	vpshufb xmm13, xmm10, xmm11
	vpcmpeqb k3, xmm26, xmm27
	vpshufb xmm14, xmm10, xmm11
	vpcmpeqb k2, xmm26, xmm27
	vpshufb xmm15, xmm10, xmm11
	vpcmpeqb k3, xmm26, xmm27
	vpshufb xmm12, xmm10, xmm11
	vpcmpeqb k2, xmm26, xmm27
	vpshufb xmm13, xmm10, xmm11
	vpcmpeqb k3, xmm26, xmm27
	vpshufb xmm14, xmm10, xmm11
	vpcmpeqb k2, xmm26, xmm27
	vpshufb xmm15, xmm10, xmm11
	vpcmpeqb k3, xmm26, xmm27
	vpshufb xmm12, xmm10, xmm11
	vpcmpeqb k2, xmm26, xmm27
	vpshufb xmm13, xmm10, xmm11
	vpcmpeqb k3, xmm26, xmm27
	vpshufb xmm14, xmm10, xmm11
	vpcmpeqb k2, xmm26, xmm27
	vpshufb xmm15, xmm10, xmm11
	vpcmpeqb k3, xmm26, xmm27
	vpshufb xmm12, xmm10, xmm11
	vpcmpeqb k2, xmm26, xmm27
	vpshufb xmm13, xmm10, xmm11
	vpcmpeqb k3, xmm26, xmm27
	vpshufb xmm14, xmm10, xmm11
	vpcmpeqb k2, xmm26, xmm27
	vpshufb xmm15, xmm10, xmm11
# LLVM-MCA-END

# korw_shuf: 24 korw + 24 vpshufb xmm (16.0 by the ports; Zen 4 22.5)
# LLVM-MCA-BEGIN korw_shuf
	korw k3, k4, k5
	vpshufb xmm12, xmm10, xmm11
	korw k2, k4, k5
	vpshufb xmm13, xmm10, xmm11
	korw k3, k4, k5
	vpshufb xmm14, xmm10, xmm11
	korw k2, k4, k5
	vpshufb xmm15, xmm10, xmm11
	korw k3, k4, k5
	vpshufb xmm12, xmm10, xmm11
	korw k2, k4, k5
	vpshufb xmm13, xmm10, xmm11
	korw k3, k4, k5
	vpshufb xmm14, xmm10, xmm11
	korw k2, k4, k5
	vpshufb xmm15, xmm10, xmm11
	korw k3, k4, k5
	vpshufb xmm12, xmm10, xmm11
	korw k2, k4, k5
	vpshufb xmm13, xmm10, xmm11
	korw k3, k4, k5
	vpshufb xmm14, xmm10, xmm11
	korw k2, k4, k5
	vpshufb xmm15, xmm10, xmm11
	korw k3, k4, k5
	vpshufb xmm12, xmm10, xmm11
	korw k2, k4, k5
	vpshufb xmm13, xmm10, xmm11
	korw k3, k4, k5
	vpshufb xmm14, xmm10, xmm11
	korw k2, k4, k5
	vpshufb xmm15, xmm10, xmm11
	korw k3, k4, k5
	vpshufb xmm12, xmm10, xmm11
	korw k2, k4, k5
	vpshufb xmm13, xmm10, xmm11
	korw k3, k4, k5
	vpshufb xmm14, xmm10, xmm11
	korw k2, k4, k5
	vpshufb xmm15, xmm10, xmm11
	korw k3, k4, k5
	vpshufb xmm12, xmm10, xmm11
	korw k2, k4, k5
	vpshufb xmm13, xmm10, xmm11
	korw k3, k4, k5
	vpshufb xmm14, xmm10, xmm11
	korw k2, k4, k5
	vpshufb xmm15, xmm10, xmm11
# LLVM-MCA-END

# cmpk2_shuf: 24 vpcmpeqb k, xmm, xmm + 12 vpshufb xmm (12.0 by the ports; Zen 4 18.0)
# LLVM-MCA-BEGIN cmpk2_shuf
	vpcmpeqb k3, xmm26, xmm27
	vpcmpeqb k2, xmm26, xmm27
	vpshufb xmm12, xmm10, xmm11
	vpcmpeqb k3, xmm26, xmm27
	vpcmpeqb k2, xmm26, xmm27
	vpshufb xmm13, xmm10, xmm11
	vpcmpeqb k3, xmm26, xmm27
	vpcmpeqb k2, xmm26, xmm27
	vpshufb xmm14, xmm10, xmm11
	vpcmpeqb k3, xmm26, xmm27
	vpcmpeqb k2, xmm26, xmm27
	vpshufb xmm15, xmm10, xmm11
	vpcmpeqb k3, xmm26, xmm27
	vpcmpeqb k2, xmm26, xmm27
	vpshufb xmm12, xmm10, xmm11
	vpcmpeqb k3, xmm26, xmm27
	vpcmpeqb k2, xmm26, xmm27
	vpshufb xmm13, xmm10, xmm11
	vpcmpeqb k3, xmm26, xmm27
	vpcmpeqb k2, xmm26, xmm27
	vpshufb xmm14, xmm10, xmm11
	vpcmpeqb k3, xmm26, xmm27
	vpcmpeqb k2, xmm26, xmm27
	vpshufb xmm15, xmm10, xmm11
	vpcmpeqb k3, xmm26, xmm27
	vpcmpeqb k2, xmm26, xmm27
	vpshufb xmm12, xmm10, xmm11
	vpcmpeqb k3, xmm26, xmm27
	vpcmpeqb k2, xmm26, xmm27
	vpshufb xmm13, xmm10, xmm11
	vpcmpeqb k3, xmm26, xmm27
	vpcmpeqb k2, xmm26, xmm27
	vpshufb xmm14, xmm10, xmm11
	vpcmpeqb k3, xmm26, xmm27
	vpcmpeqb k2, xmm26, xmm27
	vpshufb xmm15, xmm10, xmm11
# LLVM-MCA-END

# cmpk3_shuf: 36 vpcmpeqb k, xmm, xmm + 12 vpshufb xmm (18.0 by the ports; Zen 4 24.0)
# LLVM-MCA-BEGIN cmpk3_shuf
	vpcmpeqb k3, xmm26, xmm27
	vpcmpeqb k2, xmm26, xmm27
	vpcmpeqb k3, xmm26, xmm27
	vpshufb xmm12, xmm10, xmm11
	vpcmpeqb k2, xmm26, xmm27
	vpcmpeqb k3, xmm26, xmm27
	vpcmpeqb k2, xmm26, xmm27
	vpshufb xmm13, xmm10, xmm11
	vpcmpeqb k3, xmm26, xmm27
	vpcmpeqb k2, xmm26, xmm27
	vpcmpeqb k3, xmm26, xmm27
	vpshufb xmm14, xmm10, xmm11
	vpcmpeqb k2, xmm26, xmm27
	vpcmpeqb k3, xmm26, xmm27
	vpcmpeqb k2, xmm26, xmm27
	vpshufb xmm15, xmm10, xmm11
	vpcmpeqb k3, xmm26, xmm27
	vpcmpeqb k2, xmm26, xmm27
	vpcmpeqb k3, xmm26, xmm27
	vpshufb xmm12, xmm10, xmm11
	vpcmpeqb k2, xmm26, xmm27
	vpcmpeqb k3, xmm26, xmm27
	vpcmpeqb k2, xmm26, xmm27
	vpshufb xmm13, xmm10, xmm11
	vpcmpeqb k3, xmm26, xmm27
	vpcmpeqb k2, xmm26, xmm27
	vpcmpeqb k3, xmm26, xmm27
	vpshufb xmm14, xmm10, xmm11
	vpcmpeqb k2, xmm26, xmm27
	vpcmpeqb k3, xmm26, xmm27
	vpcmpeqb k2, xmm26, xmm27
	vpshufb xmm15, xmm10, xmm11
	vpcmpeqb k3, xmm26, xmm27
	vpcmpeqb k2, xmm26, xmm27
	vpcmpeqb k3, xmm26, xmm27
	vpshufb xmm12, xmm10, xmm11
	vpcmpeqb k2, xmm26, xmm27
	vpcmpeqb k3, xmm26, xmm27
	vpcmpeqb k2, xmm26, xmm27
	vpshufb xmm13, xmm10, xmm11
	vpcmpeqb k3, xmm26, xmm27
	vpcmpeqb k2, xmm26, xmm27
	vpcmpeqb k3, xmm26, xmm27
	vpshufb xmm14, xmm10, xmm11
	vpcmpeqb k2, xmm26, xmm27
	vpcmpeqb k3, xmm26, xmm27
	vpcmpeqb k2, xmm26, xmm27
	vpshufb xmm15, xmm10, xmm11
# LLVM-MCA-END

# cmpk_shuf2: 12 vpcmpeqb k, xmm, xmm + 24 vpshufb xmm (12.0 by the ports; Zen 4 12.0-12.6)
# LLVM-MCA-BEGIN cmpk_shuf2
	vpcmpeqb k3, xmm26, xmm27
	vpshufb xmm12, xmm10, xmm11
	vpshufb xmm13, xmm10, xmm11
	vpcmpeqb k2, xmm26, xmm27
	vpshufb xmm14, xmm10, xmm11
	vpshufb xmm15, xmm10, xmm11
	vpcmpeqb k3, xmm26, xmm27
	vpshufb xmm12, xmm10, xmm11
	vpshufb xmm13, xmm10, xmm11
	vpcmpeqb k2, xmm26, xmm27
	vpshufb xmm14, xmm10, xmm11
	vpshufb xmm15, xmm10, xmm11
	vpcmpeqb k3, xmm26, xmm27
	vpshufb xmm12, xmm10, xmm11
	vpshufb xmm13, xmm10, xmm11
	vpcmpeqb k2, xmm26, xmm27
	vpshufb xmm14, xmm10, xmm11
	vpshufb xmm15, xmm10, xmm11
	vpcmpeqb k3, xmm26, xmm27
	vpshufb xmm12, xmm10, xmm11
	vpshufb xmm13, xmm10, xmm11
	vpcmpeqb k2, xmm26, xmm27
	vpshufb xmm14, xmm10, xmm11
	vpshufb xmm15, xmm10, xmm11
	vpcmpeqb k3, xmm26, xmm27
	vpshufb xmm12, xmm10, xmm11
	vpshufb xmm13, xmm10, xmm11
	vpcmpeqb k2, xmm26, xmm27
	vpshufb xmm14, xmm10, xmm11
	vpshufb xmm15, xmm10, xmm11
	vpcmpeqb k3, xmm26, xmm27
	vpshufb xmm12, xmm10, xmm11
	vpshufb xmm13, xmm10, xmm11
	vpcmpeqb k2, xmm26, xmm27
	vpshufb xmm14, xmm10, xmm11
	vpshufb xmm15, xmm10, xmm11
# LLVM-MCA-END

# cmpk_shuf3: 12 vpcmpeqb k, xmm, xmm + 36 vpshufb xmm (18.0 by the ports; Zen 4 18.0)
# LLVM-MCA-BEGIN cmpk_shuf3
	vpcmpeqb k3, xmm26, xmm27
	vpshufb xmm12, xmm10, xmm11
	vpshufb xmm13, xmm10, xmm11
	vpshufb xmm14, xmm10, xmm11
	vpcmpeqb k2, xmm26, xmm27
	vpshufb xmm15, xmm10, xmm11
	vpshufb xmm12, xmm10, xmm11
	vpshufb xmm13, xmm10, xmm11
	vpcmpeqb k3, xmm26, xmm27
	vpshufb xmm14, xmm10, xmm11
	vpshufb xmm15, xmm10, xmm11
	vpshufb xmm12, xmm10, xmm11
	vpcmpeqb k2, xmm26, xmm27
	vpshufb xmm13, xmm10, xmm11
	vpshufb xmm14, xmm10, xmm11
	vpshufb xmm15, xmm10, xmm11
	vpcmpeqb k3, xmm26, xmm27
	vpshufb xmm12, xmm10, xmm11
	vpshufb xmm13, xmm10, xmm11
	vpshufb xmm14, xmm10, xmm11
	vpcmpeqb k2, xmm26, xmm27
	vpshufb xmm15, xmm10, xmm11
	vpshufb xmm12, xmm10, xmm11
	vpshufb xmm13, xmm10, xmm11
	vpcmpeqb k3, xmm26, xmm27
	vpshufb xmm14, xmm10, xmm11
	vpshufb xmm15, xmm10, xmm11
	vpshufb xmm12, xmm10, xmm11
	vpcmpeqb k2, xmm26, xmm27
	vpshufb xmm13, xmm10, xmm11
	vpshufb xmm14, xmm10, xmm11
	vpshufb xmm15, xmm10, xmm11
	vpcmpeqb k3, xmm26, xmm27
	vpshufb xmm12, xmm10, xmm11
	vpshufb xmm13, xmm10, xmm11
	vpshufb xmm14, xmm10, xmm11
	vpcmpeqb k2, xmm26, xmm27
	vpshufb xmm15, xmm10, xmm11
	vpshufb xmm12, xmm10, xmm11
	vpshufb xmm13, xmm10, xmm11
	vpcmpeqb k3, xmm26, xmm27
	vpshufb xmm14, xmm10, xmm11
	vpshufb xmm15, xmm10, xmm11
	vpshufb xmm12, xmm10, xmm11
	vpcmpeqb k2, xmm26, xmm27
	vpshufb xmm13, xmm10, xmm11
	vpshufb xmm14, xmm10, xmm11
	vpshufb xmm15, xmm10, xmm11
# LLVM-MCA-END

# mul_shuf: 24 vmulps xmm + 24 vpshufb xmm (16.0 by the ports; Zen 4 16.0)
# LLVM-MCA-BEGIN mul_shuf
	vmulps xmm0, xmm8, xmm9
	vpshufb xmm12, xmm10, xmm11
	vmulps xmm1, xmm8, xmm9
	vpshufb xmm13, xmm10, xmm11
	vmulps xmm2, xmm8, xmm9
	vpshufb xmm14, xmm10, xmm11
	vmulps xmm3, xmm8, xmm9
	vpshufb xmm15, xmm10, xmm11
	vmulps xmm0, xmm8, xmm9
	vpshufb xmm12, xmm10, xmm11
	vmulps xmm1, xmm8, xmm9
	vpshufb xmm13, xmm10, xmm11
	vmulps xmm2, xmm8, xmm9
	vpshufb xmm14, xmm10, xmm11
	vmulps xmm3, xmm8, xmm9
	vpshufb xmm15, xmm10, xmm11
	vmulps xmm0, xmm8, xmm9
	vpshufb xmm12, xmm10, xmm11
	vmulps xmm1, xmm8, xmm9
	vpshufb xmm13, xmm10, xmm11
	vmulps xmm2, xmm8, xmm9
	vpshufb xmm14, xmm10, xmm11
	vmulps xmm3, xmm8, xmm9
	vpshufb xmm15, xmm10, xmm11
	vmulps xmm0, xmm8, xmm9
	vpshufb xmm12, xmm10, xmm11
	vmulps xmm1, xmm8, xmm9
	vpshufb xmm13, xmm10, xmm11
	vmulps xmm2, xmm8, xmm9
	vpshufb xmm14, xmm10, xmm11
	vmulps xmm3, xmm8, xmm9
	vpshufb xmm15, xmm10, xmm11
	vmulps xmm0, xmm8, xmm9
	vpshufb xmm12, xmm10, xmm11
	vmulps xmm1, xmm8, xmm9
	vpshufb xmm13, xmm10, xmm11
	vmulps xmm2, xmm8, xmm9
	vpshufb xmm14, xmm10, xmm11
	vmulps xmm3, xmm8, xmm9
	vpshufb xmm15, xmm10, xmm11
	vmulps xmm0, xmm8, xmm9
	vpshufb xmm12, xmm10, xmm11
	vmulps xmm1, xmm8, xmm9
	vpshufb xmm13, xmm10, xmm11
	vmulps xmm2, xmm8, xmm9
	vpshufb xmm14, xmm10, xmm11
	vmulps xmm3, xmm8, xmm9
	vpshufb xmm15, xmm10, xmm11
# LLVM-MCA-END

# mul2_shuf: 24 vmulps xmm + 12 vpshufb xmm (12.0 by the ports; Zen 4 14.4)
# LLVM-MCA-BEGIN mul2_shuf
	vmulps xmm0, xmm8, xmm9
	vmulps xmm1, xmm8, xmm9
	vpshufb xmm12, xmm10, xmm11
	vmulps xmm2, xmm8, xmm9
	vmulps xmm3, xmm8, xmm9
	vpshufb xmm13, xmm10, xmm11
	vmulps xmm0, xmm8, xmm9
	vmulps xmm1, xmm8, xmm9
	vpshufb xmm14, xmm10, xmm11
	vmulps xmm2, xmm8, xmm9
	vmulps xmm3, xmm8, xmm9
	vpshufb xmm15, xmm10, xmm11
	vmulps xmm0, xmm8, xmm9
	vmulps xmm1, xmm8, xmm9
	vpshufb xmm12, xmm10, xmm11
	vmulps xmm2, xmm8, xmm9
	vmulps xmm3, xmm8, xmm9
	vpshufb xmm13, xmm10, xmm11
	vmulps xmm0, xmm8, xmm9
	vmulps xmm1, xmm8, xmm9
	vpshufb xmm14, xmm10, xmm11
	vmulps xmm2, xmm8, xmm9
	vmulps xmm3, xmm8, xmm9
	vpshufb xmm15, xmm10, xmm11
	vmulps xmm0, xmm8, xmm9
	vmulps xmm1, xmm8, xmm9
	vpshufb xmm12, xmm10, xmm11
	vmulps xmm2, xmm8, xmm9
	vmulps xmm3, xmm8, xmm9
	vpshufb xmm13, xmm10, xmm11
	vmulps xmm0, xmm8, xmm9
	vmulps xmm1, xmm8, xmm9
	vpshufb xmm14, xmm10, xmm11
	vmulps xmm2, xmm8, xmm9
	vmulps xmm3, xmm8, xmm9
	vpshufb xmm15, xmm10, xmm11
# LLVM-MCA-END

# mul3_shuf: 36 vmulps xmm + 12 vpshufb xmm (18.0 by the ports; Zen 4 18.4)
# LLVM-MCA-BEGIN mul3_shuf
	vmulps xmm0, xmm8, xmm9
	vmulps xmm1, xmm8, xmm9
	vmulps xmm2, xmm8, xmm9
	vpshufb xmm12, xmm10, xmm11
	vmulps xmm3, xmm8, xmm9
	vmulps xmm0, xmm8, xmm9
	vmulps xmm1, xmm8, xmm9
	vpshufb xmm13, xmm10, xmm11
	vmulps xmm2, xmm8, xmm9
	vmulps xmm3, xmm8, xmm9
	vmulps xmm0, xmm8, xmm9
	vpshufb xmm14, xmm10, xmm11
	vmulps xmm1, xmm8, xmm9
	vmulps xmm2, xmm8, xmm9
	vmulps xmm3, xmm8, xmm9
	vpshufb xmm15, xmm10, xmm11
	vmulps xmm0, xmm8, xmm9
	vmulps xmm1, xmm8, xmm9
	vmulps xmm2, xmm8, xmm9
	vpshufb xmm12, xmm10, xmm11
	vmulps xmm3, xmm8, xmm9
	vmulps xmm0, xmm8, xmm9
	vmulps xmm1, xmm8, xmm9
	vpshufb xmm13, xmm10, xmm11
	vmulps xmm2, xmm8, xmm9
	vmulps xmm3, xmm8, xmm9
	vmulps xmm0, xmm8, xmm9
	vpshufb xmm14, xmm10, xmm11
	vmulps xmm1, xmm8, xmm9
	vmulps xmm2, xmm8, xmm9
	vmulps xmm3, xmm8, xmm9
	vpshufb xmm15, xmm10, xmm11
	vmulps xmm0, xmm8, xmm9
	vmulps xmm1, xmm8, xmm9
	vmulps xmm2, xmm8, xmm9
	vpshufb xmm12, xmm10, xmm11
	vmulps xmm3, xmm8, xmm9
	vmulps xmm0, xmm8, xmm9
	vmulps xmm1, xmm8, xmm9
	vpshufb xmm13, xmm10, xmm11
	vmulps xmm2, xmm8, xmm9
	vmulps xmm3, xmm8, xmm9
	vmulps xmm0, xmm8, xmm9
	vpshufb xmm14, xmm10, xmm11
	vmulps xmm1, xmm8, xmm9
	vmulps xmm2, xmm8, xmm9
	vmulps xmm3, xmm8, xmm9
	vpshufb xmm15, xmm10, xmm11
# LLVM-MCA-END

# mul_shuf2: 12 vmulps xmm + 24 vpshufb xmm (12.0 by the ports; Zen 4 12.0)
# LLVM-MCA-BEGIN mul_shuf2
	vmulps xmm0, xmm8, xmm9
	vpshufb xmm12, xmm10, xmm11
	vpshufb xmm13, xmm10, xmm11
	vmulps xmm1, xmm8, xmm9
	vpshufb xmm14, xmm10, xmm11
	vpshufb xmm15, xmm10, xmm11
	vmulps xmm2, xmm8, xmm9
	vpshufb xmm12, xmm10, xmm11
	vpshufb xmm13, xmm10, xmm11
	vmulps xmm3, xmm8, xmm9
	vpshufb xmm14, xmm10, xmm11
	vpshufb xmm15, xmm10, xmm11
	vmulps xmm0, xmm8, xmm9
	vpshufb xmm12, xmm10, xmm11
	vpshufb xmm13, xmm10, xmm11
	vmulps xmm1, xmm8, xmm9
	vpshufb xmm14, xmm10, xmm11
	vpshufb xmm15, xmm10, xmm11
	vmulps xmm2, xmm8, xmm9
	vpshufb xmm12, xmm10, xmm11
	vpshufb xmm13, xmm10, xmm11
	vmulps xmm3, xmm8, xmm9
	vpshufb xmm14, xmm10, xmm11
	vpshufb xmm15, xmm10, xmm11
	vmulps xmm0, xmm8, xmm9
	vpshufb xmm12, xmm10, xmm11
	vpshufb xmm13, xmm10, xmm11
	vmulps xmm1, xmm8, xmm9
	vpshufb xmm14, xmm10, xmm11
	vpshufb xmm15, xmm10, xmm11
	vmulps xmm2, xmm8, xmm9
	vpshufb xmm12, xmm10, xmm11
	vpshufb xmm13, xmm10, xmm11
	vmulps xmm3, xmm8, xmm9
	vpshufb xmm14, xmm10, xmm11
	vpshufb xmm15, xmm10, xmm11
# LLVM-MCA-END
