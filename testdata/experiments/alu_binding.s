.intel_syntax noprefix
# lea beside a form that only one integer ALU runs: imul r64, r64, imm8
# (one ALU on Zen 4, a cycle each) in a fixed pattern with lea r64, [rdi+64]
# (every ALU), and popcnt (every ALU) in the same pattern. Each region is
# one kernel for `portlab validate --no-peers testdata/experiments/alu_binding.s`;
# the name spells the pattern of one period (i: imul, l: lea, p: popcnt),
# repeated to 10 imul a copy. Optimal port balancing gives max(imuls,
# all / 4). On the Zen 4 guest (docs/method.md, "Port assignment at
# allocation") one imul in four instructions runs at that bound, one in
# five, six and seven 14-30 % above it, one in eight and nine at it again, the
# imuls in pairs 50 % above and in one block 68 % above: the ALU a lea
# takes is not the one that balances the ports best, and which it takes
# depends on the order. popcnt in the same places runs at the bound, and
# so do the FP pipes in the same order (fp_tllll).
# Every destination is written, never read.

# lea_alone: 40 lea (10.00 by the ports)
# LLVM-MCA-BEGIN lea_alone
	lea rax, [rdi+64]
	lea rbx, [rdi+64]
	lea rcx, [rdi+64]
	lea rdx, [rdi+64]
	lea rsi, [rdi+64]
	lea r8, [rdi+64]
	lea r9, [rdi+64]
	lea r10, [rdi+64]
	lea rax, [rdi+64]
	lea rbx, [rdi+64]
	lea rcx, [rdi+64]
	lea rdx, [rdi+64]
	lea rsi, [rdi+64]
	lea r8, [rdi+64]
	lea r9, [rdi+64]
	lea r10, [rdi+64]
	lea rax, [rdi+64]
	lea rbx, [rdi+64]
	lea rcx, [rdi+64]
	lea rdx, [rdi+64]
	lea rsi, [rdi+64]
	lea r8, [rdi+64]
	lea r9, [rdi+64]
	lea r10, [rdi+64]
	lea rax, [rdi+64]
	lea rbx, [rdi+64]
	lea rcx, [rdi+64]
	lea rdx, [rdi+64]
	lea rsi, [rdi+64]
	lea r8, [rdi+64]
	lea r9, [rdi+64]
	lea r10, [rdi+64]
	lea rax, [rdi+64]
	lea rbx, [rdi+64]
	lea rcx, [rdi+64]
	lea rdx, [rdi+64]
	lea rsi, [rdi+64]
	lea r8, [rdi+64]
	lea r9, [rdi+64]
	lea r10, [rdi+64]
# LLVM-MCA-END

# illl: 10 imul, 30 lea (10.00)
# LLVM-MCA-BEGIN illl
	imul r11, rbp, 7
	lea rax, [rdi+64]
	lea rbx, [rdi+64]
	lea rcx, [rdi+64]
	imul r12, rbp, 7
	lea rdx, [rdi+64]
	lea rsi, [rdi+64]
	lea r8, [rdi+64]
	imul r13, rbp, 7
	lea r9, [rdi+64]
	lea r10, [rdi+64]
	lea rax, [rdi+64]
	imul r14, rbp, 7
	lea rbx, [rdi+64]
	lea rcx, [rdi+64]
	lea rdx, [rdi+64]
	imul r11, rbp, 7
	lea rsi, [rdi+64]
	lea r8, [rdi+64]
	lea r9, [rdi+64]
	imul r12, rbp, 7
	lea r10, [rdi+64]
	lea rax, [rdi+64]
	lea rbx, [rdi+64]
	imul r13, rbp, 7
	lea rcx, [rdi+64]
	lea rdx, [rdi+64]
	lea rsi, [rdi+64]
	imul r14, rbp, 7
	lea r8, [rdi+64]
	lea r9, [rdi+64]
	lea r10, [rdi+64]
	imul r11, rbp, 7
	lea rax, [rdi+64]
	lea rbx, [rdi+64]
	lea rcx, [rdi+64]
	imul r12, rbp, 7
	lea rdx, [rdi+64]
	lea rsi, [rdi+64]
	lea r8, [rdi+64]
# LLVM-MCA-END

# illll: 10 imul, 40 lea (12.50)
# LLVM-MCA-BEGIN illll
	imul r11, rbp, 7
	lea rax, [rdi+64]
	lea rbx, [rdi+64]
	lea rcx, [rdi+64]
	lea rdx, [rdi+64]
	imul r12, rbp, 7
	lea rsi, [rdi+64]
	lea r8, [rdi+64]
	lea r9, [rdi+64]
	lea r10, [rdi+64]
	imul r13, rbp, 7
	lea rax, [rdi+64]
	lea rbx, [rdi+64]
	lea rcx, [rdi+64]
	lea rdx, [rdi+64]
	imul r14, rbp, 7
	lea rsi, [rdi+64]
	lea r8, [rdi+64]
	lea r9, [rdi+64]
	lea r10, [rdi+64]
	imul r11, rbp, 7
	lea rax, [rdi+64]
	lea rbx, [rdi+64]
	lea rcx, [rdi+64]
	lea rdx, [rdi+64]
	imul r12, rbp, 7
	lea rsi, [rdi+64]
	lea r8, [rdi+64]
	lea r9, [rdi+64]
	lea r10, [rdi+64]
	imul r13, rbp, 7
	lea rax, [rdi+64]
	lea rbx, [rdi+64]
	lea rcx, [rdi+64]
	lea rdx, [rdi+64]
	imul r14, rbp, 7
	lea rsi, [rdi+64]
	lea r8, [rdi+64]
	lea r9, [rdi+64]
	lea r10, [rdi+64]
	imul r11, rbp, 7
	lea rax, [rdi+64]
	lea rbx, [rdi+64]
	lea rcx, [rdi+64]
	lea rdx, [rdi+64]
	imul r12, rbp, 7
	lea rsi, [rdi+64]
	lea r8, [rdi+64]
	lea r9, [rdi+64]
	lea r10, [rdi+64]
# LLVM-MCA-END

# illlll: 10 imul, 50 lea (15.00)
# LLVM-MCA-BEGIN illlll
	imul r11, rbp, 7
	lea rax, [rdi+64]
	lea rbx, [rdi+64]
	lea rcx, [rdi+64]
	lea rdx, [rdi+64]
	lea rsi, [rdi+64]
	imul r12, rbp, 7
	lea r8, [rdi+64]
	lea r9, [rdi+64]
	lea r10, [rdi+64]
	lea rax, [rdi+64]
	lea rbx, [rdi+64]
	imul r13, rbp, 7
	lea rcx, [rdi+64]
	lea rdx, [rdi+64]
	lea rsi, [rdi+64]
	lea r8, [rdi+64]
	lea r9, [rdi+64]
	imul r14, rbp, 7
	lea r10, [rdi+64]
	lea rax, [rdi+64]
	lea rbx, [rdi+64]
	lea rcx, [rdi+64]
	lea rdx, [rdi+64]
	imul r11, rbp, 7
	lea rsi, [rdi+64]
	lea r8, [rdi+64]
	lea r9, [rdi+64]
	lea r10, [rdi+64]
	lea rax, [rdi+64]
	imul r12, rbp, 7
	lea rbx, [rdi+64]
	lea rcx, [rdi+64]
	lea rdx, [rdi+64]
	lea rsi, [rdi+64]
	lea r8, [rdi+64]
	imul r13, rbp, 7
	lea r9, [rdi+64]
	lea r10, [rdi+64]
	lea rax, [rdi+64]
	lea rbx, [rdi+64]
	lea rcx, [rdi+64]
	imul r14, rbp, 7
	lea rdx, [rdi+64]
	lea rsi, [rdi+64]
	lea r8, [rdi+64]
	lea r9, [rdi+64]
	lea r10, [rdi+64]
	imul r11, rbp, 7
	lea rax, [rdi+64]
	lea rbx, [rdi+64]
	lea rcx, [rdi+64]
	lea rdx, [rdi+64]
	lea rsi, [rdi+64]
	imul r12, rbp, 7
	lea r8, [rdi+64]
	lea r9, [rdi+64]
	lea r10, [rdi+64]
	lea rax, [rdi+64]
	lea rbx, [rdi+64]
# LLVM-MCA-END

# illllll: 10 imul, 60 lea (17.50)
# LLVM-MCA-BEGIN illllll
	imul r11, rbp, 7
	lea rax, [rdi+64]
	lea rbx, [rdi+64]
	lea rcx, [rdi+64]
	lea rdx, [rdi+64]
	lea rsi, [rdi+64]
	lea r8, [rdi+64]
	imul r12, rbp, 7
	lea r9, [rdi+64]
	lea r10, [rdi+64]
	lea rax, [rdi+64]
	lea rbx, [rdi+64]
	lea rcx, [rdi+64]
	lea rdx, [rdi+64]
	imul r13, rbp, 7
	lea rsi, [rdi+64]
	lea r8, [rdi+64]
	lea r9, [rdi+64]
	lea r10, [rdi+64]
	lea rax, [rdi+64]
	lea rbx, [rdi+64]
	imul r14, rbp, 7
	lea rcx, [rdi+64]
	lea rdx, [rdi+64]
	lea rsi, [rdi+64]
	lea r8, [rdi+64]
	lea r9, [rdi+64]
	lea r10, [rdi+64]
	imul r11, rbp, 7
	lea rax, [rdi+64]
	lea rbx, [rdi+64]
	lea rcx, [rdi+64]
	lea rdx, [rdi+64]
	lea rsi, [rdi+64]
	lea r8, [rdi+64]
	imul r12, rbp, 7
	lea r9, [rdi+64]
	lea r10, [rdi+64]
	lea rax, [rdi+64]
	lea rbx, [rdi+64]
	lea rcx, [rdi+64]
	lea rdx, [rdi+64]
	imul r13, rbp, 7
	lea rsi, [rdi+64]
	lea r8, [rdi+64]
	lea r9, [rdi+64]
	lea r10, [rdi+64]
	lea rax, [rdi+64]
	lea rbx, [rdi+64]
	imul r14, rbp, 7
	lea rcx, [rdi+64]
	lea rdx, [rdi+64]
	lea rsi, [rdi+64]
	lea r8, [rdi+64]
	lea r9, [rdi+64]
	lea r10, [rdi+64]
	imul r11, rbp, 7
	lea rax, [rdi+64]
	lea rbx, [rdi+64]
	lea rcx, [rdi+64]
	lea rdx, [rdi+64]
	lea rsi, [rdi+64]
	lea r8, [rdi+64]
	imul r12, rbp, 7
	lea r9, [rdi+64]
	lea r10, [rdi+64]
	lea rax, [rdi+64]
	lea rbx, [rdi+64]
	lea rcx, [rdi+64]
	lea rdx, [rdi+64]
# LLVM-MCA-END

# illlllll: 10 imul, 70 lea (20.00)
# LLVM-MCA-BEGIN illlllll
	imul r11, rbp, 7
	lea rax, [rdi+64]
	lea rbx, [rdi+64]
	lea rcx, [rdi+64]
	lea rdx, [rdi+64]
	lea rsi, [rdi+64]
	lea r8, [rdi+64]
	lea r9, [rdi+64]
	imul r12, rbp, 7
	lea r10, [rdi+64]
	lea rax, [rdi+64]
	lea rbx, [rdi+64]
	lea rcx, [rdi+64]
	lea rdx, [rdi+64]
	lea rsi, [rdi+64]
	lea r8, [rdi+64]
	imul r13, rbp, 7
	lea r9, [rdi+64]
	lea r10, [rdi+64]
	lea rax, [rdi+64]
	lea rbx, [rdi+64]
	lea rcx, [rdi+64]
	lea rdx, [rdi+64]
	lea rsi, [rdi+64]
	imul r14, rbp, 7
	lea r8, [rdi+64]
	lea r9, [rdi+64]
	lea r10, [rdi+64]
	lea rax, [rdi+64]
	lea rbx, [rdi+64]
	lea rcx, [rdi+64]
	lea rdx, [rdi+64]
	imul r11, rbp, 7
	lea rsi, [rdi+64]
	lea r8, [rdi+64]
	lea r9, [rdi+64]
	lea r10, [rdi+64]
	lea rax, [rdi+64]
	lea rbx, [rdi+64]
	lea rcx, [rdi+64]
	imul r12, rbp, 7
	lea rdx, [rdi+64]
	lea rsi, [rdi+64]
	lea r8, [rdi+64]
	lea r9, [rdi+64]
	lea r10, [rdi+64]
	lea rax, [rdi+64]
	lea rbx, [rdi+64]
	imul r13, rbp, 7
	lea rcx, [rdi+64]
	lea rdx, [rdi+64]
	lea rsi, [rdi+64]
	lea r8, [rdi+64]
	lea r9, [rdi+64]
	lea r10, [rdi+64]
	lea rax, [rdi+64]
	imul r14, rbp, 7
	lea rbx, [rdi+64]
	lea rcx, [rdi+64]
	lea rdx, [rdi+64]
	lea rsi, [rdi+64]
	lea r8, [rdi+64]
	lea r9, [rdi+64]
	lea r10, [rdi+64]
	imul r11, rbp, 7
	lea rax, [rdi+64]
	lea rbx, [rdi+64]
	lea rcx, [rdi+64]
	lea rdx, [rdi+64]
	lea rsi, [rdi+64]
	lea r8, [rdi+64]
	lea r9, [rdi+64]
	imul r12, rbp, 7
	lea r10, [rdi+64]
	lea rax, [rdi+64]
	lea rbx, [rdi+64]
	lea rcx, [rdi+64]
	lea rdx, [rdi+64]
	lea rsi, [rdi+64]
	lea r8, [rdi+64]
# LLVM-MCA-END

# illllllll: 10 imul, 80 lea (22.50)
# LLVM-MCA-BEGIN illllllll
	imul r11, rbp, 7
	lea rax, [rdi+64]
	lea rbx, [rdi+64]
	lea rcx, [rdi+64]
	lea rdx, [rdi+64]
	lea rsi, [rdi+64]
	lea r8, [rdi+64]
	lea r9, [rdi+64]
	lea r10, [rdi+64]
	imul r12, rbp, 7
	lea rax, [rdi+64]
	lea rbx, [rdi+64]
	lea rcx, [rdi+64]
	lea rdx, [rdi+64]
	lea rsi, [rdi+64]
	lea r8, [rdi+64]
	lea r9, [rdi+64]
	lea r10, [rdi+64]
	imul r13, rbp, 7
	lea rax, [rdi+64]
	lea rbx, [rdi+64]
	lea rcx, [rdi+64]
	lea rdx, [rdi+64]
	lea rsi, [rdi+64]
	lea r8, [rdi+64]
	lea r9, [rdi+64]
	lea r10, [rdi+64]
	imul r14, rbp, 7
	lea rax, [rdi+64]
	lea rbx, [rdi+64]
	lea rcx, [rdi+64]
	lea rdx, [rdi+64]
	lea rsi, [rdi+64]
	lea r8, [rdi+64]
	lea r9, [rdi+64]
	lea r10, [rdi+64]
	imul r11, rbp, 7
	lea rax, [rdi+64]
	lea rbx, [rdi+64]
	lea rcx, [rdi+64]
	lea rdx, [rdi+64]
	lea rsi, [rdi+64]
	lea r8, [rdi+64]
	lea r9, [rdi+64]
	lea r10, [rdi+64]
	imul r12, rbp, 7
	lea rax, [rdi+64]
	lea rbx, [rdi+64]
	lea rcx, [rdi+64]
	lea rdx, [rdi+64]
	lea rsi, [rdi+64]
	lea r8, [rdi+64]
	lea r9, [rdi+64]
	lea r10, [rdi+64]
	imul r13, rbp, 7
	lea rax, [rdi+64]
	lea rbx, [rdi+64]
	lea rcx, [rdi+64]
	lea rdx, [rdi+64]
	lea rsi, [rdi+64]
	lea r8, [rdi+64]
	lea r9, [rdi+64]
	lea r10, [rdi+64]
	imul r14, rbp, 7
	lea rax, [rdi+64]
	lea rbx, [rdi+64]
	lea rcx, [rdi+64]
	lea rdx, [rdi+64]
	lea rsi, [rdi+64]
	lea r8, [rdi+64]
	lea r9, [rdi+64]
	lea r10, [rdi+64]
	imul r11, rbp, 7
	lea rax, [rdi+64]
	lea rbx, [rdi+64]
	lea rcx, [rdi+64]
	lea rdx, [rdi+64]
	lea rsi, [rdi+64]
	lea r8, [rdi+64]
	lea r9, [rdi+64]
	lea r10, [rdi+64]
	imul r12, rbp, 7
	lea rax, [rdi+64]
	lea rbx, [rdi+64]
	lea rcx, [rdi+64]
	lea rdx, [rdi+64]
	lea rsi, [rdi+64]
	lea r8, [rdi+64]
	lea r9, [rdi+64]
	lea r10, [rdi+64]
# LLVM-MCA-END


# illllllllllll: 10 imul, 120 lea (32.50)
# LLVM-MCA-BEGIN illllllllllll
	imul r11, rbp, 7
	lea rax, [rdi+64]
	lea rbx, [rdi+64]
	lea rcx, [rdi+64]
	lea rdx, [rdi+64]
	lea rsi, [rdi+64]
	lea r8, [rdi+64]
	lea r9, [rdi+64]
	lea r10, [rdi+64]
	lea rax, [rdi+64]
	lea rbx, [rdi+64]
	lea rcx, [rdi+64]
	lea rdx, [rdi+64]
	imul r12, rbp, 7
	lea rsi, [rdi+64]
	lea r8, [rdi+64]
	lea r9, [rdi+64]
	lea r10, [rdi+64]
	lea rax, [rdi+64]
	lea rbx, [rdi+64]
	lea rcx, [rdi+64]
	lea rdx, [rdi+64]
	lea rsi, [rdi+64]
	lea r8, [rdi+64]
	lea r9, [rdi+64]
	lea r10, [rdi+64]
	imul r13, rbp, 7
	lea rax, [rdi+64]
	lea rbx, [rdi+64]
	lea rcx, [rdi+64]
	lea rdx, [rdi+64]
	lea rsi, [rdi+64]
	lea r8, [rdi+64]
	lea r9, [rdi+64]
	lea r10, [rdi+64]
	lea rax, [rdi+64]
	lea rbx, [rdi+64]
	lea rcx, [rdi+64]
	lea rdx, [rdi+64]
	imul r14, rbp, 7
	lea rsi, [rdi+64]
	lea r8, [rdi+64]
	lea r9, [rdi+64]
	lea r10, [rdi+64]
	lea rax, [rdi+64]
	lea rbx, [rdi+64]
	lea rcx, [rdi+64]
	lea rdx, [rdi+64]
	lea rsi, [rdi+64]
	lea r8, [rdi+64]
	lea r9, [rdi+64]
	lea r10, [rdi+64]
	imul r11, rbp, 7
	lea rax, [rdi+64]
	lea rbx, [rdi+64]
	lea rcx, [rdi+64]
	lea rdx, [rdi+64]
	lea rsi, [rdi+64]
	lea r8, [rdi+64]
	lea r9, [rdi+64]
	lea r10, [rdi+64]
	lea rax, [rdi+64]
	lea rbx, [rdi+64]
	lea rcx, [rdi+64]
	lea rdx, [rdi+64]
	imul r12, rbp, 7
	lea rsi, [rdi+64]
	lea r8, [rdi+64]
	lea r9, [rdi+64]
	lea r10, [rdi+64]
	lea rax, [rdi+64]
	lea rbx, [rdi+64]
	lea rcx, [rdi+64]
	lea rdx, [rdi+64]
	lea rsi, [rdi+64]
	lea r8, [rdi+64]
	lea r9, [rdi+64]
	lea r10, [rdi+64]
	imul r13, rbp, 7
	lea rax, [rdi+64]
	lea rbx, [rdi+64]
	lea rcx, [rdi+64]
	lea rdx, [rdi+64]
	lea rsi, [rdi+64]
	lea r8, [rdi+64]
	lea r9, [rdi+64]
	lea r10, [rdi+64]
	lea rax, [rdi+64]
	lea rbx, [rdi+64]
	lea rcx, [rdi+64]
	lea rdx, [rdi+64]
	imul r14, rbp, 7
	lea rsi, [rdi+64]
	lea r8, [rdi+64]
	lea r9, [rdi+64]
	lea r10, [rdi+64]
	lea rax, [rdi+64]
	lea rbx, [rdi+64]
	lea rcx, [rdi+64]
	lea rdx, [rdi+64]
	lea rsi, [rdi+64]
	lea r8, [rdi+64]
	lea r9, [rdi+64]
	lea r10, [rdi+64]
	imul r11, rbp, 7
	lea rax, [rdi+64]
	lea rbx, [rdi+64]
	lea rcx, [rdi+64]
	lea rdx, [rdi+64]
	lea rsi, [rdi+64]
	lea r8, [rdi+64]
	lea r9, [rdi+64]
	lea r10, [rdi+64]
	lea rax, [rdi+64]
	lea rbx, [rdi+64]
	lea rcx, [rdi+64]
	lea rdx, [rdi+64]
	imul r12, rbp, 7
	lea rsi, [rdi+64]
	lea r8, [rdi+64]
	lea r9, [rdi+64]
	lea r10, [rdi+64]
	lea rax, [rdi+64]
	lea rbx, [rdi+64]
	lea rcx, [rdi+64]
	lea rdx, [rdi+64]
	lea rsi, [rdi+64]
	lea r8, [rdi+64]
	lea r9, [rdi+64]
	lea r10, [rdi+64]
# LLVM-MCA-END

# iillllllll: 10 imul, 40 lea, the imuls in pairs (12.50)
# LLVM-MCA-BEGIN iillllllll
	imul r11, rbp, 7
	imul r12, rbp, 7
	lea rax, [rdi+64]
	lea rbx, [rdi+64]
	lea rcx, [rdi+64]
	lea rdx, [rdi+64]
	lea rsi, [rdi+64]
	lea r8, [rdi+64]
	lea r9, [rdi+64]
	lea r10, [rdi+64]
	imul r13, rbp, 7
	imul r14, rbp, 7
	lea rax, [rdi+64]
	lea rbx, [rdi+64]
	lea rcx, [rdi+64]
	lea rdx, [rdi+64]
	lea rsi, [rdi+64]
	lea r8, [rdi+64]
	lea r9, [rdi+64]
	lea r10, [rdi+64]
	imul r11, rbp, 7
	imul r12, rbp, 7
	lea rax, [rdi+64]
	lea rbx, [rdi+64]
	lea rcx, [rdi+64]
	lea rdx, [rdi+64]
	lea rsi, [rdi+64]
	lea r8, [rdi+64]
	lea r9, [rdi+64]
	lea r10, [rdi+64]
	imul r13, rbp, 7
	imul r14, rbp, 7
	lea rax, [rdi+64]
	lea rbx, [rdi+64]
	lea rcx, [rdi+64]
	lea rdx, [rdi+64]
	lea rsi, [rdi+64]
	lea r8, [rdi+64]
	lea r9, [rdi+64]
	lea r10, [rdi+64]
	imul r11, rbp, 7
	imul r12, rbp, 7
	lea rax, [rdi+64]
	lea rbx, [rdi+64]
	lea rcx, [rdi+64]
	lea rdx, [rdi+64]
	lea rsi, [rdi+64]
	lea r8, [rdi+64]
	lea r9, [rdi+64]
	lea r10, [rdi+64]
# LLVM-MCA-END

# blocks: 10 imul, then 40 lea (12.50)
# LLVM-MCA-BEGIN blocks
	imul r11, rbp, 7
	imul r12, rbp, 7
	imul r13, rbp, 7
	imul r14, rbp, 7
	imul r11, rbp, 7
	imul r12, rbp, 7
	imul r13, rbp, 7
	imul r14, rbp, 7
	imul r11, rbp, 7
	imul r12, rbp, 7
	lea rax, [rdi+64]
	lea rbx, [rdi+64]
	lea rcx, [rdi+64]
	lea rdx, [rdi+64]
	lea rsi, [rdi+64]
	lea r8, [rdi+64]
	lea r9, [rdi+64]
	lea r10, [rdi+64]
	lea rax, [rdi+64]
	lea rbx, [rdi+64]
	lea rcx, [rdi+64]
	lea rdx, [rdi+64]
	lea rsi, [rdi+64]
	lea r8, [rdi+64]
	lea r9, [rdi+64]
	lea r10, [rdi+64]
	lea rax, [rdi+64]
	lea rbx, [rdi+64]
	lea rcx, [rdi+64]
	lea rdx, [rdi+64]
	lea rsi, [rdi+64]
	lea r8, [rdi+64]
	lea r9, [rdi+64]
	lea r10, [rdi+64]
	lea rax, [rdi+64]
	lea rbx, [rdi+64]
	lea rcx, [rdi+64]
	lea rdx, [rdi+64]
	lea rsi, [rdi+64]
	lea r8, [rdi+64]
	lea r9, [rdi+64]
	lea r10, [rdi+64]
	lea rax, [rdi+64]
	lea rbx, [rdi+64]
	lea rcx, [rdi+64]
	lea rdx, [rdi+64]
	lea rsi, [rdi+64]
	lea r8, [rdi+64]
	lea r9, [rdi+64]
	lea r10, [rdi+64]
# LLVM-MCA-END

# pllll: 10 popcnt, 40 lea (12.50)
# LLVM-MCA-BEGIN pllll
	popcnt r11, rbp
	lea rax, [rdi+64]
	lea rbx, [rdi+64]
	lea rcx, [rdi+64]
	lea rdx, [rdi+64]
	popcnt r12, rbp
	lea rsi, [rdi+64]
	lea r8, [rdi+64]
	lea r9, [rdi+64]
	lea r10, [rdi+64]
	popcnt r13, rbp
	lea rax, [rdi+64]
	lea rbx, [rdi+64]
	lea rcx, [rdi+64]
	lea rdx, [rdi+64]
	popcnt r14, rbp
	lea rsi, [rdi+64]
	lea r8, [rdi+64]
	lea r9, [rdi+64]
	lea r10, [rdi+64]
	popcnt r11, rbp
	lea rax, [rdi+64]
	lea rbx, [rdi+64]
	lea rcx, [rdi+64]
	lea rdx, [rdi+64]
	popcnt r12, rbp
	lea rsi, [rdi+64]
	lea r8, [rdi+64]
	lea r9, [rdi+64]
	lea r10, [rdi+64]
	popcnt r13, rbp
	lea rax, [rdi+64]
	lea rbx, [rdi+64]
	lea rcx, [rdi+64]
	lea rdx, [rdi+64]
	popcnt r14, rbp
	lea rsi, [rdi+64]
	lea r8, [rdi+64]
	lea r9, [rdi+64]
	lea r10, [rdi+64]
	popcnt r11, rbp
	lea rax, [rdi+64]
	lea rbx, [rdi+64]
	lea rcx, [rdi+64]
	lea rdx, [rdi+64]
	popcnt r12, rbp
	lea rsi, [rdi+64]
	lea r8, [rdi+64]
	lea r9, [rdi+64]
	lea r10, [rdi+64]
# LLVM-MCA-END

# fp_tllll: the FP pipes' counterpart, 10 vtestpd ymm, ymm (one pipe, a
# cycle each) and 40 vpaddd ymm (four pipes) in the order of illll (12.50)
# LLVM-MCA-BEGIN fp_tllll
	vtestpd ymm10, ymm11
	vpaddd ymm0, ymm8, ymm9
	vpaddd ymm1, ymm8, ymm9
	vpaddd ymm2, ymm8, ymm9
	vpaddd ymm3, ymm8, ymm9
	vtestpd ymm10, ymm11
	vpaddd ymm4, ymm8, ymm9
	vpaddd ymm5, ymm8, ymm9
	vpaddd ymm6, ymm8, ymm9
	vpaddd ymm7, ymm8, ymm9
	vtestpd ymm10, ymm11
	vpaddd ymm0, ymm8, ymm9
	vpaddd ymm1, ymm8, ymm9
	vpaddd ymm2, ymm8, ymm9
	vpaddd ymm3, ymm8, ymm9
	vtestpd ymm10, ymm11
	vpaddd ymm4, ymm8, ymm9
	vpaddd ymm5, ymm8, ymm9
	vpaddd ymm6, ymm8, ymm9
	vpaddd ymm7, ymm8, ymm9
	vtestpd ymm10, ymm11
	vpaddd ymm0, ymm8, ymm9
	vpaddd ymm1, ymm8, ymm9
	vpaddd ymm2, ymm8, ymm9
	vpaddd ymm3, ymm8, ymm9
	vtestpd ymm10, ymm11
	vpaddd ymm4, ymm8, ymm9
	vpaddd ymm5, ymm8, ymm9
	vpaddd ymm6, ymm8, ymm9
	vpaddd ymm7, ymm8, ymm9
	vtestpd ymm10, ymm11
	vpaddd ymm0, ymm8, ymm9
	vpaddd ymm1, ymm8, ymm9
	vpaddd ymm2, ymm8, ymm9
	vpaddd ymm3, ymm8, ymm9
	vtestpd ymm10, ymm11
	vpaddd ymm4, ymm8, ymm9
	vpaddd ymm5, ymm8, ymm9
	vpaddd ymm6, ymm8, ymm9
	vpaddd ymm7, ymm8, ymm9
	vtestpd ymm10, ymm11
	vpaddd ymm0, ymm8, ymm9
	vpaddd ymm1, ymm8, ymm9
	vpaddd ymm2, ymm8, ymm9
	vpaddd ymm3, ymm8, ymm9
	vtestpd ymm10, ymm11
	vpaddd ymm4, ymm8, ymm9
	vpaddd ymm5, ymm8, ymm9
	vpaddd ymm6, ymm8, ymm9
	vpaddd ymm7, ymm8, ymm9
# LLVM-MCA-END
