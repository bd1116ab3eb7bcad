.intel_syntax noprefix
# Plain vector loads and stores in different orders: how many memory
# operations a cycle the core runs depends on the order, not only on the
# counts. Loads read rsi's slot, stores write rdi's (another 8 KiB slot of
# the scratch, testdata/kernels/README.md); a store's data is a register
# no load of the region writes. Each region is one kernel for `portlab
# validate --no-peers testdata/experiments/load_store_order.s`.
#
# On the Zen 5 guest (AuthenticAMD-1a-2-1, 2026-12-02, docs/models.md
# "Known limits"), cycles a copy of each region:
#   xmm interleaved 2.27, grouped 2.88, pairs 2.85, loads2_store1 1.99
#   ymm interleaved 2.27, grouped 2.88, pairs 2.89, loads2_store1 1.98
#   zmm interleaved 4.00, grouped 3.99, pairs 3.99, loads2_store1 2.18
#   gpr interleaved 1.98, grouped 1.98
# Two vector loads a cycle, two vector stores of 256 bits or less (one of
# 512), and about 3.5 memory operations a cycle in all where loads and
# stores alternate, 2.8 where they come in runs; general-register loads
# and stores run four a cycle in any order. A port model has one rate for
# all orders: the measured Zen 5 model shares three pipes between vector
# loads and stores (2.67 cycles for four of each).

# xmm_interleaved: four loads and four stores in turn (movups xmm)
# LLVM-MCA-BEGIN xmm_interleaved
	movups xmm0, XMMWORD PTR [rsi+0]
	movups XMMWORD PTR [rdi+0], xmm8
	movups xmm1, XMMWORD PTR [rsi+16]
	movups XMMWORD PTR [rdi+16], xmm9
	movups xmm2, XMMWORD PTR [rsi+32]
	movups XMMWORD PTR [rdi+32], xmm10
	movups xmm3, XMMWORD PTR [rsi+48]
	movups XMMWORD PTR [rdi+48], xmm11
# LLVM-MCA-END

# xmm_grouped: four loads, then four stores (movups xmm)
# LLVM-MCA-BEGIN xmm_grouped
	movups xmm0, XMMWORD PTR [rsi+0]
	movups xmm1, XMMWORD PTR [rsi+16]
	movups xmm2, XMMWORD PTR [rsi+32]
	movups xmm3, XMMWORD PTR [rsi+48]
	movups XMMWORD PTR [rdi+0], xmm8
	movups XMMWORD PTR [rdi+16], xmm9
	movups XMMWORD PTR [rdi+32], xmm10
	movups XMMWORD PTR [rdi+48], xmm11
# LLVM-MCA-END

# xmm_pairs: two loads, two stores, twice (movups xmm)
# LLVM-MCA-BEGIN xmm_pairs
	movups xmm0, XMMWORD PTR [rsi+0]
	movups xmm1, XMMWORD PTR [rsi+16]
	movups XMMWORD PTR [rdi+0], xmm8
	movups XMMWORD PTR [rdi+16], xmm9
	movups xmm2, XMMWORD PTR [rsi+32]
	movups xmm3, XMMWORD PTR [rsi+48]
	movups XMMWORD PTR [rdi+32], xmm10
	movups XMMWORD PTR [rdi+48], xmm11
# LLVM-MCA-END

# xmm_loads2_store1: two loads and a store, twice (movups xmm)
# LLVM-MCA-BEGIN xmm_loads2_store1
	movups xmm0, XMMWORD PTR [rsi+0]
	movups xmm1, XMMWORD PTR [rsi+16]
	movups XMMWORD PTR [rdi+0], xmm8
	movups xmm2, XMMWORD PTR [rsi+32]
	movups xmm3, XMMWORD PTR [rsi+48]
	movups XMMWORD PTR [rdi+16], xmm9
# LLVM-MCA-END

# ymm_interleaved: four loads and four stores in turn (vmovups ymm)
# LLVM-MCA-BEGIN ymm_interleaved
	vmovups ymm0, YMMWORD PTR [rsi+0]
	vmovups YMMWORD PTR [rdi+0], ymm8
	vmovups ymm1, YMMWORD PTR [rsi+32]
	vmovups YMMWORD PTR [rdi+32], ymm9
	vmovups ymm2, YMMWORD PTR [rsi+64]
	vmovups YMMWORD PTR [rdi+64], ymm10
	vmovups ymm3, YMMWORD PTR [rsi+96]
	vmovups YMMWORD PTR [rdi+96], ymm11
# LLVM-MCA-END

# ymm_grouped: four loads, then four stores (vmovups ymm)
# LLVM-MCA-BEGIN ymm_grouped
	vmovups ymm0, YMMWORD PTR [rsi+0]
	vmovups ymm1, YMMWORD PTR [rsi+32]
	vmovups ymm2, YMMWORD PTR [rsi+64]
	vmovups ymm3, YMMWORD PTR [rsi+96]
	vmovups YMMWORD PTR [rdi+0], ymm8
	vmovups YMMWORD PTR [rdi+32], ymm9
	vmovups YMMWORD PTR [rdi+64], ymm10
	vmovups YMMWORD PTR [rdi+96], ymm11
# LLVM-MCA-END

# ymm_pairs: two loads, two stores, twice (vmovups ymm)
# LLVM-MCA-BEGIN ymm_pairs
	vmovups ymm0, YMMWORD PTR [rsi+0]
	vmovups ymm1, YMMWORD PTR [rsi+32]
	vmovups YMMWORD PTR [rdi+0], ymm8
	vmovups YMMWORD PTR [rdi+32], ymm9
	vmovups ymm2, YMMWORD PTR [rsi+64]
	vmovups ymm3, YMMWORD PTR [rsi+96]
	vmovups YMMWORD PTR [rdi+64], ymm10
	vmovups YMMWORD PTR [rdi+96], ymm11
# LLVM-MCA-END

# ymm_loads2_store1: two loads and a store, twice (vmovups ymm)
# LLVM-MCA-BEGIN ymm_loads2_store1
	vmovups ymm0, YMMWORD PTR [rsi+0]
	vmovups ymm1, YMMWORD PTR [rsi+32]
	vmovups YMMWORD PTR [rdi+0], ymm8
	vmovups ymm2, YMMWORD PTR [rsi+64]
	vmovups ymm3, YMMWORD PTR [rsi+96]
	vmovups YMMWORD PTR [rdi+32], ymm9
# LLVM-MCA-END

# zmm_interleaved: four loads and four stores in turn (vmovups zmm)
# LLVM-MCA-BEGIN zmm_interleaved
	vmovups zmm0, ZMMWORD PTR [rsi+0]
	vmovups ZMMWORD PTR [rdi+0], zmm8
	vmovups zmm1, ZMMWORD PTR [rsi+64]
	vmovups ZMMWORD PTR [rdi+64], zmm9
	vmovups zmm2, ZMMWORD PTR [rsi+128]
	vmovups ZMMWORD PTR [rdi+128], zmm10
	vmovups zmm3, ZMMWORD PTR [rsi+192]
	vmovups ZMMWORD PTR [rdi+192], zmm11
# LLVM-MCA-END

# zmm_grouped: four loads, then four stores (vmovups zmm)
# LLVM-MCA-BEGIN zmm_grouped
	vmovups zmm0, ZMMWORD PTR [rsi+0]
	vmovups zmm1, ZMMWORD PTR [rsi+64]
	vmovups zmm2, ZMMWORD PTR [rsi+128]
	vmovups zmm3, ZMMWORD PTR [rsi+192]
	vmovups ZMMWORD PTR [rdi+0], zmm8
	vmovups ZMMWORD PTR [rdi+64], zmm9
	vmovups ZMMWORD PTR [rdi+128], zmm10
	vmovups ZMMWORD PTR [rdi+192], zmm11
# LLVM-MCA-END

# zmm_pairs: two loads, two stores, twice (vmovups zmm)
# LLVM-MCA-BEGIN zmm_pairs
	vmovups zmm0, ZMMWORD PTR [rsi+0]
	vmovups zmm1, ZMMWORD PTR [rsi+64]
	vmovups ZMMWORD PTR [rdi+0], zmm8
	vmovups ZMMWORD PTR [rdi+64], zmm9
	vmovups zmm2, ZMMWORD PTR [rsi+128]
	vmovups zmm3, ZMMWORD PTR [rsi+192]
	vmovups ZMMWORD PTR [rdi+128], zmm10
	vmovups ZMMWORD PTR [rdi+192], zmm11
# LLVM-MCA-END

# zmm_loads2_store1: two loads and a store, twice (vmovups zmm)
# LLVM-MCA-BEGIN zmm_loads2_store1
	vmovups zmm0, ZMMWORD PTR [rsi+0]
	vmovups zmm1, ZMMWORD PTR [rsi+64]
	vmovups ZMMWORD PTR [rdi+0], zmm8
	vmovups zmm2, ZMMWORD PTR [rsi+128]
	vmovups zmm3, ZMMWORD PTR [rsi+192]
	vmovups ZMMWORD PTR [rdi+64], zmm9
# LLVM-MCA-END
# gpr_interleaved: four loads and four stores in turn (mov r64)
# LLVM-MCA-BEGIN gpr_interleaved
	mov r8, QWORD PTR [rsi+0]
	mov QWORD PTR [rdi+0], r12
	mov r9, QWORD PTR [rsi+8]
	mov QWORD PTR [rdi+8], r13
	mov r10, QWORD PTR [rsi+16]
	mov QWORD PTR [rdi+16], r14
	mov r11, QWORD PTR [rsi+24]
	mov QWORD PTR [rdi+24], r15
# LLVM-MCA-END

# gpr_grouped: four loads, then four stores (mov r64)
# LLVM-MCA-BEGIN gpr_grouped
	mov r8, QWORD PTR [rsi+0]
	mov r9, QWORD PTR [rsi+8]
	mov r10, QWORD PTR [rsi+16]
	mov r11, QWORD PTR [rsi+24]
	mov QWORD PTR [rdi+0], r12
	mov QWORD PTR [rdi+8], r13
	mov QWORD PTR [rdi+16], r14
	mov QWORD PTR [rdi+24], r15
# LLVM-MCA-END
