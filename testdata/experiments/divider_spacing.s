.intel_syntax noprefix
# Divides spaced by other work: vdivpd ymm (5.0 cycles each back to back on
# the Zen 4 guest) two a copy with k instructions after each, of several
# kinds. Each region is one kernel for
# `portlab validate --no-peers testdata/experiments/divider_spacing.s`; the
# name gives the divides a copy and what follows each (n: nop, v: vpaddd
# xmm, l: mov r64, m64, r: add m32, imm32). On the Zen 4 guest
# (docs/method.md, "Zen 4 guest", `portlab validate --no-peers`,
# 2026-11-29, two runs) back to back and with one vpaddd after each a
# divide takes 5.0 cycles, with four or more vpaddd or loads after each
# 4.5 (d2v4, d2v16, d2l8: 8.99-9.00 a copy), with two vpaddd 5.0, with
# eight nops 5.0 or 4.5 (9.99 and 9.05 in two runs): the divider's rate
# beside other work is not its rate alone. The sweep's mixes of a form
# with vdivpd ymm as a probe show the same (2 divides and 16 of the form
# in 9.0 cycles).

# d12: 12 vdivpd ymm back to back (60.0 at 5.0 a divide)
# LLVM-MCA-BEGIN d12
	vdivpd ymm0, ymm12, ymm13
	vdivpd ymm1, ymm12, ymm13
	vdivpd ymm2, ymm12, ymm13
	vdivpd ymm3, ymm12, ymm13
	vdivpd ymm4, ymm12, ymm13
	vdivpd ymm5, ymm12, ymm13
	vdivpd ymm6, ymm12, ymm13
	vdivpd ymm7, ymm12, ymm13
	vdivpd ymm8, ymm12, ymm13
	vdivpd ymm9, ymm12, ymm13
	vdivpd ymm10, ymm12, ymm13
	vdivpd ymm11, ymm12, ymm13
# LLVM-MCA-END

# d2n8: 2 vdivpd, 8 nop after each (10.0 at 5.0)
# LLVM-MCA-BEGIN d2n8
	vdivpd ymm0, ymm12, ymm13
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	vdivpd ymm1, ymm12, ymm13
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
# LLVM-MCA-END

# d2v2: 2 vdivpd, 2 vpaddd xmm after each
# LLVM-MCA-BEGIN d2v2
	vdivpd ymm0, ymm12, ymm13
	vpaddd xmm5, xmm6, xmm7
	vpaddd xmm5, xmm6, xmm7
	vdivpd ymm1, ymm12, ymm13
	vpaddd xmm5, xmm6, xmm7
	vpaddd xmm5, xmm6, xmm7
# LLVM-MCA-END

# d2v4: 2 vdivpd, 4 vpaddd xmm after each
# LLVM-MCA-BEGIN d2v4
	vdivpd ymm0, ymm12, ymm13
	vpaddd xmm5, xmm6, xmm7
	vpaddd xmm5, xmm6, xmm7
	vpaddd xmm5, xmm6, xmm7
	vpaddd xmm5, xmm6, xmm7
	vdivpd ymm1, ymm12, ymm13
	vpaddd xmm5, xmm6, xmm7
	vpaddd xmm5, xmm6, xmm7
	vpaddd xmm5, xmm6, xmm7
	vpaddd xmm5, xmm6, xmm7
# LLVM-MCA-END

# d2v16: 2 vdivpd, 16 vpaddd xmm after each
# LLVM-MCA-BEGIN d2v16
	vdivpd ymm0, ymm12, ymm13
	vpaddd xmm5, xmm6, xmm7
	vpaddd xmm5, xmm6, xmm7
	vpaddd xmm5, xmm6, xmm7
	vpaddd xmm5, xmm6, xmm7
	vpaddd xmm5, xmm6, xmm7
	vpaddd xmm5, xmm6, xmm7
	vpaddd xmm5, xmm6, xmm7
	vpaddd xmm5, xmm6, xmm7
	vpaddd xmm5, xmm6, xmm7
	vpaddd xmm5, xmm6, xmm7
	vpaddd xmm5, xmm6, xmm7
	vpaddd xmm5, xmm6, xmm7
	vpaddd xmm5, xmm6, xmm7
	vpaddd xmm5, xmm6, xmm7
	vpaddd xmm5, xmm6, xmm7
	vpaddd xmm5, xmm6, xmm7
	vdivpd ymm1, ymm12, ymm13
	vpaddd xmm5, xmm6, xmm7
	vpaddd xmm5, xmm6, xmm7
	vpaddd xmm5, xmm6, xmm7
	vpaddd xmm5, xmm6, xmm7
	vpaddd xmm5, xmm6, xmm7
	vpaddd xmm5, xmm6, xmm7
	vpaddd xmm5, xmm6, xmm7
	vpaddd xmm5, xmm6, xmm7
	vpaddd xmm5, xmm6, xmm7
	vpaddd xmm5, xmm6, xmm7
	vpaddd xmm5, xmm6, xmm7
	vpaddd xmm5, xmm6, xmm7
	vpaddd xmm5, xmm6, xmm7
	vpaddd xmm5, xmm6, xmm7
	vpaddd xmm5, xmm6, xmm7
	vpaddd xmm5, xmm6, xmm7
# LLVM-MCA-END

# d2l8: 2 vdivpd, 8 mov r64, m64 after each
# LLVM-MCA-BEGIN d2l8
	vdivpd ymm0, ymm12, ymm13
	mov rax, qword ptr [rdi+0]
	mov rax, qword ptr [rdi+64]
	mov rax, qword ptr [rdi+128]
	mov rax, qword ptr [rdi+192]
	mov rax, qword ptr [rdi+0]
	mov rax, qword ptr [rdi+64]
	mov rax, qword ptr [rdi+128]
	mov rax, qword ptr [rdi+192]
	vdivpd ymm1, ymm12, ymm13
	mov rax, qword ptr [rdi+0]
	mov rax, qword ptr [rdi+64]
	mov rax, qword ptr [rdi+128]
	mov rax, qword ptr [rdi+192]
	mov rax, qword ptr [rdi+0]
	mov rax, qword ptr [rdi+64]
	mov rax, qword ptr [rdi+128]
	mov rax, qword ptr [rdi+192]
# LLVM-MCA-END

# d2r8: 2 vdivpd, 8 add m32, imm32 after each (10.6: the read-modify-writes' own bound)
# LLVM-MCA-BEGIN d2r8
	vdivpd ymm0, ymm12, ymm13
	add dword ptr [rdi+2560], 4096
	add dword ptr [rdi+2568], 4096
	add dword ptr [rdi+2576], 4096
	add dword ptr [rdi+2584], 4096
	add dword ptr [rdi+2592], 4096
	add dword ptr [rdi+2600], 4096
	add dword ptr [rdi+2608], 4096
	add dword ptr [rdi+2616], 4096
	vdivpd ymm1, ymm12, ymm13
	add dword ptr [rdi+2624], 4096
	add dword ptr [rdi+2632], 4096
	add dword ptr [rdi+2640], 4096
	add dword ptr [rdi+2648], 4096
	add dword ptr [rdi+2656], 4096
	add dword ptr [rdi+2664], 4096
	add dword ptr [rdi+2672], 4096
	add dword ptr [rdi+2680], 4096
# LLVM-MCA-END

# d12v1: 12 vdivpd, one vpaddd xmm after each
# LLVM-MCA-BEGIN d12v1
	vdivpd ymm0, ymm12, ymm13
	vpaddd xmm14, xmm15, xmm15
	vdivpd ymm1, ymm12, ymm13
	vpaddd xmm14, xmm15, xmm15
	vdivpd ymm2, ymm12, ymm13
	vpaddd xmm14, xmm15, xmm15
	vdivpd ymm3, ymm12, ymm13
	vpaddd xmm14, xmm15, xmm15
	vdivpd ymm4, ymm12, ymm13
	vpaddd xmm14, xmm15, xmm15
	vdivpd ymm5, ymm12, ymm13
	vpaddd xmm14, xmm15, xmm15
	vdivpd ymm6, ymm12, ymm13
	vpaddd xmm14, xmm15, xmm15
	vdivpd ymm7, ymm12, ymm13
	vpaddd xmm14, xmm15, xmm15
	vdivpd ymm8, ymm12, ymm13
	vpaddd xmm14, xmm15, xmm15
	vdivpd ymm9, ymm12, ymm13
	vpaddd xmm14, xmm15, xmm15
	vdivpd ymm10, ymm12, ymm13
	vpaddd xmm14, xmm15, xmm15
	vdivpd ymm11, ymm12, ymm13
	vpaddd xmm14, xmm15, xmm15
# LLVM-MCA-END
