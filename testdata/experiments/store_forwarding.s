.intel_syntax noprefix
# Store-to-load forwarding: a store, then a reload of its value into the
# stored register, chained, two pairs a copy on two cache lines, alone and
# with work between the reload and the next store. Each region is one
# kernel for `portlab validate --no-peers testdata/experiments/store_forwarding.s`.
# On the Zen 3 guest (docs/models.md, "Store forwarding"), whose sweep
# measured the round trip at 5.97 cycles, a copy ran at 12.10-12.16
# cycles (pair64), 14.84-14.86 (pair_add), 18.00-18.03 (pair_imul),
# 16.13-16.22 (pair_addop) and 12.10-12.13 (pair32). Vector registers
# make a longer round trip there (the sweep: 9.0 cycles a pair for xmm
# stores, 10.0 for ymm): pair_xmm 18.01-18.04, pair_ymm 19.99-20.00,
# pair_ymm_add 25.99, pair_ymm_addop 25.98-26.01, pair_sd 17.97.
# LLVM-MCA-BEGIN pair64
	mov qword ptr [rdi], rax
	mov rax, qword ptr [rdi]
	mov qword ptr [rdi+64], rax
	mov rax, qword ptr [rdi+64]
# LLVM-MCA-END pair64
# LLVM-MCA-BEGIN pair_add
	mov qword ptr [rdi], rax
	mov rax, qword ptr [rdi]
	add rax, 1
	mov qword ptr [rdi+64], rax
	mov rax, qword ptr [rdi+64]
	add rax, 1
# LLVM-MCA-END pair_add
# LLVM-MCA-BEGIN pair_imul
	mov qword ptr [rdi], rax
	mov rax, qword ptr [rdi]
	imul rax, rax
	mov qword ptr [rdi+64], rax
	mov rax, qword ptr [rdi+64]
	imul rax, rax
# LLVM-MCA-END pair_imul
# LLVM-MCA-BEGIN pair_addop
	mov qword ptr [rdi], rax
	add rax, qword ptr [rdi]
	mov qword ptr [rdi+64], rax
	add rax, qword ptr [rdi+64]
# LLVM-MCA-END pair_addop
# LLVM-MCA-BEGIN pair32
	mov dword ptr [rdi], eax
	mov eax, dword ptr [rdi]
	mov dword ptr [rdi+64], eax
	mov eax, dword ptr [rdi+64]
# LLVM-MCA-END pair32
# LLVM-MCA-BEGIN pair_xmm
	vmovaps xmmword ptr [rdi], xmm0
	vmovaps xmm0, xmmword ptr [rdi]
	vmovaps xmmword ptr [rdi+64], xmm0
	vmovaps xmm0, xmmword ptr [rdi+64]
# LLVM-MCA-END pair_xmm
# LLVM-MCA-BEGIN pair_ymm
	vmovaps ymmword ptr [rdi], ymm0
	vmovaps ymm0, ymmword ptr [rdi]
	vmovaps ymmword ptr [rdi+64], ymm0
	vmovaps ymm0, ymmword ptr [rdi+64]
# LLVM-MCA-END pair_ymm
# LLVM-MCA-BEGIN pair_ymm_add
	vmovaps ymmword ptr [rdi], ymm0
	vmovaps ymm0, ymmword ptr [rdi]
	vaddps ymm0, ymm0, ymm1
	vmovaps ymmword ptr [rdi+64], ymm0
	vmovaps ymm0, ymmword ptr [rdi+64]
	vaddps ymm0, ymm0, ymm1
# LLVM-MCA-END pair_ymm_add
# LLVM-MCA-BEGIN pair_ymm_addop
	vmovaps ymmword ptr [rdi], ymm0
	vaddps ymm0, ymm1, ymmword ptr [rdi]
	vmovaps ymmword ptr [rdi+64], ymm0
	vaddps ymm0, ymm1, ymmword ptr [rdi+64]
# LLVM-MCA-END pair_ymm_addop
# LLVM-MCA-BEGIN pair_sd
	vmovsd qword ptr [rdi], xmm0
	vmovsd xmm0, qword ptr [rdi]
	vmovsd qword ptr [rdi+64], xmm0
	vmovsd xmm0, qword ptr [rdi+64]
# LLVM-MCA-END pair_sd
