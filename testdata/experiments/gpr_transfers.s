.intel_syntax noprefix
# Moves from a vector register to a general one (movq r64, xmm; vpextrd
# r32, xmm, imm8; vcvttsd2si r64, xmm) beside integer work: register adds
# (every ALU), shifts (two of them) and imul (one). Each region is one
# kernel for `portlab validate --no-peers testdata/experiments/gpr_transfers.s`;
# the name counts the moves (m: movq, p: vpextrd, c: vcvttsd2si, x: movq
# xmm, r64 the other way) and the integer instructions (a: add, s: shl, i:
# imul) of one copy. On the Zen 4 guest (docs/method.md, "Zen 4 guest",
# `portlab validate --no-peers`, 2026-11-29, two runs alike) each move to
# a general register takes a cycle of every ALU a one-cycle instruction
# needs, but not the multiplier's: m3a12 6.00 cycles where a port of the
# four would give 3.75, m6a12 8.99 (4.50), m1a20 5.99 (5.25), m5s10 9.99
# (5.00), p3a12 6.00, c3a12 5.99, m10i10 9.99 (10.00); the other way,
# x3a12 3.75, as one ALU each.
# Every move's destination is written, never read.

# a12: 12 add (3.00 by the ports)
# LLVM-MCA-BEGIN a12
	add rax, r13
	add rcx, r13
	add rdx, r13
	add rbx, r13
	add rsi, r13
	add r8, r13
	add r9, r13
	add r10, r13
	add r11, r13
	add r12, r13
	add rax, r13
	add rcx, r13
# LLVM-MCA-END

# m3: 3 movq r64, xmm alone (3.00)
# LLVM-MCA-BEGIN m3
	movq r14, xmm0
	movq rbp, xmm0
	movq r14, xmm0
# LLVM-MCA-END

# m3a12: 3 movq and 12 add (3.75 with each movq on one ALU)
# LLVM-MCA-BEGIN m3a12
	movq r14, xmm0
	add rax, r13
	add rcx, r13
	add rdx, r13
	add rbx, r13
	movq rbp, xmm0
	add rsi, r13
	add r8, r13
	add r9, r13
	add r10, r13
	movq r14, xmm0
	add r11, r13
	add r12, r13
	add rax, r13
	add rcx, r13
# LLVM-MCA-END

# m6a12: 6 movq and 12 add (4.50)
# LLVM-MCA-BEGIN m6a12
	movq r14, xmm0
	add rax, r13
	add rcx, r13
	movq rbp, xmm0
	add rdx, r13
	add rbx, r13
	movq r14, xmm0
	add rsi, r13
	add r8, r13
	movq rbp, xmm0
	add r9, r13
	add r10, r13
	movq r14, xmm0
	add r11, r13
	add r12, r13
	movq rbp, xmm0
	add rax, r13
	add rcx, r13
# LLVM-MCA-END

# m1a20: 1 movq and 20 add (5.25)
# LLVM-MCA-BEGIN m1a20
	movq r14, xmm0
	add rax, r13
	add rcx, r13
	add rdx, r13
	add rbx, r13
	add rsi, r13
	add r8, r13
	add r9, r13
	add r10, r13
	add r11, r13
	add r12, r13
	add rax, r13
	add rcx, r13
	add rdx, r13
	add rbx, r13
	add rsi, r13
	add r8, r13
	add r9, r13
	add r10, r13
	add r11, r13
	add r12, r13
# LLVM-MCA-END

# m5s10: 5 movq and 10 shl r64, 2 (5.00: shl on two ALUs)
# LLVM-MCA-BEGIN m5s10
	movq r14, xmm0
	shl rax, 2
	shl rcx, 2
	movq rbp, xmm0
	shl rdx, 2
	shl rbx, 2
	movq r14, xmm0
	shl rsi, 2
	shl r8, 2
	movq rbp, xmm0
	shl r9, 2
	shl r10, 2
	movq r14, xmm0
	shl r11, 2
	shl r12, 2
# LLVM-MCA-END

# m10i10: 10 movq and 10 imul r64, r13 (10.00)
# LLVM-MCA-BEGIN m10i10
	movq r14, xmm0
	imul rax, r13
	movq rbp, xmm0
	imul rcx, r13
	movq r14, xmm0
	imul rdx, r13
	movq rbp, xmm0
	imul rbx, r13
	movq r14, xmm0
	imul rsi, r13
	movq rbp, xmm0
	imul r8, r13
	movq r14, xmm0
	imul r9, r13
	movq rbp, xmm0
	imul r10, r13
	movq r14, xmm0
	imul r11, r13
	movq rbp, xmm0
	imul r12, r13
# LLVM-MCA-END

# p3a12: 3 vpextrd r32, xmm, 1 and 12 add (3.75)
# LLVM-MCA-BEGIN p3a12
	vpextrd r14d, xmm0, 1
	add rax, r13
	add rcx, r13
	add rdx, r13
	add rbx, r13
	vpextrd ebp, xmm0, 1
	add rsi, r13
	add r8, r13
	add r9, r13
	add r10, r13
	vpextrd r14d, xmm0, 1
	add r11, r13
	add r12, r13
	add rax, r13
	add rcx, r13
# LLVM-MCA-END

# c3a12: 3 vcvttsd2si r64, xmm and 12 add (3.75)
# LLVM-MCA-BEGIN c3a12
	vcvttsd2si r14, xmm0
	add rax, r13
	add rcx, r13
	add rdx, r13
	add rbx, r13
	vcvttsd2si rbp, xmm0
	add rsi, r13
	add r8, r13
	add r9, r13
	add r10, r13
	vcvttsd2si r14, xmm0
	add r11, r13
	add r12, r13
	add rax, r13
	add rcx, r13
# LLVM-MCA-END

# x3a12: 3 movq xmm, r64 (the other way) and 12 add (3.00)
# LLVM-MCA-BEGIN x3a12
	movq xmm1, r14
	add rax, r13
	add rcx, r13
	add rdx, r13
	add rbx, r13
	movq xmm1, r14
	add rsi, r13
	add r8, r13
	add r9, r13
	add r10, r13
	movq xmm1, r14
	add r11, r13
	add r12, r13
	add rax, r13
	add rcx, r13
# LLVM-MCA-END
