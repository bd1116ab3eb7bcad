.intel_syntax noprefix
# Vector domains: chains of one vector form alone (four links a copy) and
# of two forms in turn (two pairs a copy), each reading the other's
# result. Each region is one kernel for
# `portlab validate --no-peers testdata/experiments/vector_domains.s`.
# On the Zen 3 guest (docs/models.md, "Vector domains") a pair runs at
# the sum of its two latencies when both forms are of one group (vaddps,
# vmulps, vandps; or vpaddd, vshufps, vpshufd, vblendps) and a cycle a
# crossing longer between the groups: addps_shufps 12.0 a copy where the
# latencies give 8, andps_paddd 8.0 for 4, addps_mulps 12.0 for 12.
# LLVM-MCA-BEGIN addps4
	vaddps xmm0, xmm0, xmm1
	vaddps xmm0, xmm0, xmm1
	vaddps xmm0, xmm0, xmm1
	vaddps xmm0, xmm0, xmm1
# LLVM-MCA-END addps4
# LLVM-MCA-BEGIN mulps4
	vmulps xmm0, xmm0, xmm1
	vmulps xmm0, xmm0, xmm1
	vmulps xmm0, xmm0, xmm1
	vmulps xmm0, xmm0, xmm1
# LLVM-MCA-END mulps4
# LLVM-MCA-BEGIN paddd4
	vpaddd xmm0, xmm0, xmm1
	vpaddd xmm0, xmm0, xmm1
	vpaddd xmm0, xmm0, xmm1
	vpaddd xmm0, xmm0, xmm1
# LLVM-MCA-END paddd4
# LLVM-MCA-BEGIN shufps4
	vshufps xmm0, xmm0, xmm0, 0x55
	vshufps xmm0, xmm0, xmm0, 0x55
	vshufps xmm0, xmm0, xmm0, 0x55
	vshufps xmm0, xmm0, xmm0, 0x55
# LLVM-MCA-END shufps4
# LLVM-MCA-BEGIN andps4
	vandps xmm0, xmm0, xmm1
	vandps xmm0, xmm0, xmm1
	vandps xmm0, xmm0, xmm1
	vandps xmm0, xmm0, xmm1
# LLVM-MCA-END andps4
# LLVM-MCA-BEGIN pshufd4
	vpshufd xmm0, xmm0, 0x55
	vpshufd xmm0, xmm0, 0x55
	vpshufd xmm0, xmm0, 0x55
	vpshufd xmm0, xmm0, 0x55
# LLVM-MCA-END pshufd4
# LLVM-MCA-BEGIN blendps4
	vblendps xmm0, xmm0, xmm1, 5
	vblendps xmm0, xmm0, xmm1, 5
	vblendps xmm0, xmm0, xmm1, 5
	vblendps xmm0, xmm0, xmm1, 5
# LLVM-MCA-END blendps4
# LLVM-MCA-BEGIN addps_mulps
	vaddps xmm0, xmm0, xmm1
	vmulps xmm0, xmm0, xmm1
	vaddps xmm0, xmm0, xmm1
	vmulps xmm0, xmm0, xmm1
# LLVM-MCA-END addps_mulps
# LLVM-MCA-BEGIN addps_paddd
	vaddps xmm0, xmm0, xmm1
	vpaddd xmm0, xmm0, xmm1
	vaddps xmm0, xmm0, xmm1
	vpaddd xmm0, xmm0, xmm1
# LLVM-MCA-END addps_paddd
# LLVM-MCA-BEGIN addps_shufps
	vaddps xmm0, xmm0, xmm1
	vshufps xmm0, xmm0, xmm0, 0x55
	vaddps xmm0, xmm0, xmm1
	vshufps xmm0, xmm0, xmm0, 0x55
# LLVM-MCA-END addps_shufps
# LLVM-MCA-BEGIN addps_andps
	vaddps xmm0, xmm0, xmm1
	vandps xmm0, xmm0, xmm1
	vaddps xmm0, xmm0, xmm1
	vandps xmm0, xmm0, xmm1
# LLVM-MCA-END addps_andps
# LLVM-MCA-BEGIN addps_pshufd
	vaddps xmm0, xmm0, xmm1
	vpshufd xmm0, xmm0, 0x55
	vaddps xmm0, xmm0, xmm1
	vpshufd xmm0, xmm0, 0x55
# LLVM-MCA-END addps_pshufd
# LLVM-MCA-BEGIN addps_blendps
	vaddps xmm0, xmm0, xmm1
	vblendps xmm0, xmm0, xmm1, 5
	vaddps xmm0, xmm0, xmm1
	vblendps xmm0, xmm0, xmm1, 5
# LLVM-MCA-END addps_blendps
# LLVM-MCA-BEGIN mulps_paddd
	vmulps xmm0, xmm0, xmm1
	vpaddd xmm0, xmm0, xmm1
	vmulps xmm0, xmm0, xmm1
	vpaddd xmm0, xmm0, xmm1
# LLVM-MCA-END mulps_paddd
# LLVM-MCA-BEGIN mulps_shufps
	vmulps xmm0, xmm0, xmm1
	vshufps xmm0, xmm0, xmm0, 0x55
	vmulps xmm0, xmm0, xmm1
	vshufps xmm0, xmm0, xmm0, 0x55
# LLVM-MCA-END mulps_shufps
# LLVM-MCA-BEGIN mulps_andps
	vmulps xmm0, xmm0, xmm1
	vandps xmm0, xmm0, xmm1
	vmulps xmm0, xmm0, xmm1
	vandps xmm0, xmm0, xmm1
# LLVM-MCA-END mulps_andps
# LLVM-MCA-BEGIN mulps_pshufd
	vmulps xmm0, xmm0, xmm1
	vpshufd xmm0, xmm0, 0x55
	vmulps xmm0, xmm0, xmm1
	vpshufd xmm0, xmm0, 0x55
# LLVM-MCA-END mulps_pshufd
# LLVM-MCA-BEGIN mulps_blendps
	vmulps xmm0, xmm0, xmm1
	vblendps xmm0, xmm0, xmm1, 5
	vmulps xmm0, xmm0, xmm1
	vblendps xmm0, xmm0, xmm1, 5
# LLVM-MCA-END mulps_blendps
# LLVM-MCA-BEGIN paddd_shufps
	vpaddd xmm0, xmm0, xmm1
	vshufps xmm0, xmm0, xmm0, 0x55
	vpaddd xmm0, xmm0, xmm1
	vshufps xmm0, xmm0, xmm0, 0x55
# LLVM-MCA-END paddd_shufps
# LLVM-MCA-BEGIN paddd_andps
	vpaddd xmm0, xmm0, xmm1
	vandps xmm0, xmm0, xmm1
	vpaddd xmm0, xmm0, xmm1
	vandps xmm0, xmm0, xmm1
# LLVM-MCA-END paddd_andps
# LLVM-MCA-BEGIN paddd_pshufd
	vpaddd xmm0, xmm0, xmm1
	vpshufd xmm0, xmm0, 0x55
	vpaddd xmm0, xmm0, xmm1
	vpshufd xmm0, xmm0, 0x55
# LLVM-MCA-END paddd_pshufd
# LLVM-MCA-BEGIN paddd_blendps
	vpaddd xmm0, xmm0, xmm1
	vblendps xmm0, xmm0, xmm1, 5
	vpaddd xmm0, xmm0, xmm1
	vblendps xmm0, xmm0, xmm1, 5
# LLVM-MCA-END paddd_blendps
# LLVM-MCA-BEGIN shufps_andps
	vshufps xmm0, xmm0, xmm0, 0x55
	vandps xmm0, xmm0, xmm1
	vshufps xmm0, xmm0, xmm0, 0x55
	vandps xmm0, xmm0, xmm1
# LLVM-MCA-END shufps_andps
# LLVM-MCA-BEGIN shufps_pshufd
	vshufps xmm0, xmm0, xmm0, 0x55
	vpshufd xmm0, xmm0, 0x55
	vshufps xmm0, xmm0, xmm0, 0x55
	vpshufd xmm0, xmm0, 0x55
# LLVM-MCA-END shufps_pshufd
# LLVM-MCA-BEGIN shufps_blendps
	vshufps xmm0, xmm0, xmm0, 0x55
	vblendps xmm0, xmm0, xmm1, 5
	vshufps xmm0, xmm0, xmm0, 0x55
	vblendps xmm0, xmm0, xmm1, 5
# LLVM-MCA-END shufps_blendps
# LLVM-MCA-BEGIN andps_pshufd
	vandps xmm0, xmm0, xmm1
	vpshufd xmm0, xmm0, 0x55
	vandps xmm0, xmm0, xmm1
	vpshufd xmm0, xmm0, 0x55
# LLVM-MCA-END andps_pshufd
# LLVM-MCA-BEGIN andps_blendps
	vandps xmm0, xmm0, xmm1
	vblendps xmm0, xmm0, xmm1, 5
	vandps xmm0, xmm0, xmm1
	vblendps xmm0, xmm0, xmm1, 5
# LLVM-MCA-END andps_blendps
# LLVM-MCA-BEGIN pshufd_blendps
	vpshufd xmm0, xmm0, 0x55
	vblendps xmm0, xmm0, xmm1, 5
	vpshufd xmm0, xmm0, 0x55
	vblendps xmm0, xmm0, xmm1, 5
# LLVM-MCA-END pshufd_blendps
