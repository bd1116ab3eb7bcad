.intel_syntax noprefix
# Loads and stores that cross a 64-byte cache line: four independent
# accesses a copy, each starting half its width before the end of a
# line (split) or at a line's start (within lines), loads of 8, 16 and
# 32 bytes and 32-byte stores; and a 3-point stencil whose loads and
# store are 4 bytes off the line in every other iteration. Bases are
# 256-byte aligned (testdata/kernels/README.md). Each region is one
# kernel for `portlab validate --no-peers testdata/experiments/line_splits.s`;
# docs/models.md ("Line splits") has what the Zen 3 guest ran: every
# split access took twice the cycles of one within a line.

# loads_gpr_split: four mov r64 loads, each crossing a line
# LLVM-MCA-BEGIN loads_gpr_split
	mov r8, qword ptr [rcx+60]
	mov r9, qword ptr [rcx+124]
	mov r10, qword ptr [rcx+188]
	mov r11, qword ptr [rcx+252]
# LLVM-MCA-END loads_gpr_split

# loads_gpr: the same loads within lines
# LLVM-MCA-BEGIN loads_gpr
	mov r8, qword ptr [rcx+56]
	mov r9, qword ptr [rcx+120]
	mov r10, qword ptr [rcx+184]
	mov r11, qword ptr [rcx+248]
# LLVM-MCA-END loads_gpr

# loads_xmm_split: four movups xmm loads, each crossing a line
# LLVM-MCA-BEGIN loads_xmm_split
	movups xmm0, xmmword ptr [rcx+56]
	movups xmm1, xmmword ptr [rcx+120]
	movups xmm2, xmmword ptr [rcx+184]
	movups xmm3, xmmword ptr [rcx+248]
# LLVM-MCA-END loads_xmm_split

# loads_ymm_split: four vmovups ymm loads, each crossing a line
# LLVM-MCA-BEGIN loads_ymm_split
	vmovups ymm0, ymmword ptr [rcx+48]
	vmovups ymm1, ymmword ptr [rcx+112]
	vmovups ymm2, ymmword ptr [rcx+176]
	vmovups ymm3, ymmword ptr [rcx+240]
# LLVM-MCA-END loads_ymm_split

# loads_ymm: the same loads within lines
# LLVM-MCA-BEGIN loads_ymm
	vmovups ymm0, ymmword ptr [rcx+32]
	vmovups ymm1, ymmword ptr [rcx+96]
	vmovups ymm2, ymmword ptr [rcx+160]
	vmovups ymm3, ymmword ptr [rcx+224]
# LLVM-MCA-END loads_ymm

# stores_ymm_split: four vmovups ymm stores, each crossing a line
# LLVM-MCA-BEGIN stores_ymm_split
	vmovups ymmword ptr [rdx+48], ymm0
	vmovups ymmword ptr [rdx+112], ymm0
	vmovups ymmword ptr [rdx+176], ymm0
	vmovups ymmword ptr [rdx+240], ymm0
# LLVM-MCA-END stores_ymm_split

# stores_ymm: the same stores within lines
# LLVM-MCA-BEGIN stores_ymm
	vmovups ymmword ptr [rdx+32], ymm0
	vmovups ymmword ptr [rdx+96], ymm0
	vmovups ymmword ptr [rdx+160], ymm0
	vmovups ymmword ptr [rdx+224], ymm0
# LLVM-MCA-END stores_ymm

# stencil: gcc_stencil3_ymm's body (loads at +0, +4 and +8 bytes, the
# store at +4; the pointer advances 32 bytes an iteration)
# LLVM-MCA-BEGIN stencil
	vmulps ymm0, ymm2, ymmword ptr [rcx+rax+4]
	vfmadd231ps ymm0, ymm1, ymmword ptr [rcx+rax]
	vfmadd231ps ymm0, ymm1, ymmword ptr [rcx+rax+8]
	vmovups ymmword ptr [rdx+rax+4], ymm0
	add rax, 32
# LLVM-MCA-END stencil

# stencil_aligned: the same with every access at a multiple of 32 bytes
# LLVM-MCA-BEGIN stencil_aligned
	vmulps ymm0, ymm2, ymmword ptr [rcx+rax+32]
	vfmadd231ps ymm0, ymm1, ymmword ptr [rcx+rax]
	vfmadd231ps ymm0, ymm1, ymmword ptr [rcx+rax+64]
	vmovups ymmword ptr [rdx+rax+32], ymm0
	add rax, 32
# LLVM-MCA-END stencil_aligned
