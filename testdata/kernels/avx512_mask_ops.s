# kernel: avx512_mask_ops
# what: AVX-512 compares into masks, masked add, blend, mask logic, ternlog and a masked store
# origin: hand-written
# expect: 512-bit vector ports: ~9 zmm/mask ops and a masked zmm store per iter, about 2-3 cycles/iter (Zen 4 double-pumps zmm); the masked vpaddd chain is 1 cycle
# note: the first compare is vpcmpeqd (all lanes equal: k1 all ones). With vpcmpgtd on the harness's equal vectors k1 and so the
# note: store mask k3 were 0, and an all-zero masked store takes a 50-cycle microcode assist on Intel cores (56 cycles/iter measured)
# LLVM-MCA-BEGIN avx512_mask_ops
	vpcmpeqd %zmm1, %zmm0, %k1
	vpaddd %zmm2, %zmm3, %zmm3{%k1}
	vpblendmd %zmm4, %zmm5, %zmm6{%k2}
	kandw %k1, %k2, %k3
	vpternlogd $0x96, %zmm4, %zmm5, %zmm7
	vmovdqu32 %zmm3, (%rdi){%k3}
	vpcmpeqd (%rsi), %zmm0, %k4{%k2}
	korw %k4, %k1, %k5
	addq $64, %rdi
	addq $64, %rsi
# LLVM-MCA-END avx512_mask_ops
