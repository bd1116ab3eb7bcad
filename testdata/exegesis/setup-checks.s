# A snippet written for llvm-exegesis (AT&T, subprocess-mode annotations).
# It checks its own set-up and traps (ud2) when any annotation was not
# honoured, so running it without a crash proves the set-up.
# LLVM-EXEGESIS-DEFREG RCX 10
# LLVM-EXEGESIS-DEFREG RBX fffffffffffffff0
# LLVM-EXEGESIS-DEFREG XMM3 3ff00000000000004000000000000000
# LLVM-EXEGESIS-MEM-DEF test1 4096 2a
# LLVM-EXEGESIS-MEM-MAP test1 10000000
# LLVM-EXEGESIS-MEM-MAP test1 10002000
# LLVM-EXEGESIS-LIVEIN R14
# LLVM-EXEGESIS-LOOP-REGISTER R11
# LLVM-EXEGESIS-SNIPPET-ADDRESS 20000000
  cmpq $0x10, %rcx
  jne 1f
  cmpq $-16, %rbx
  jne 1f
  cmpb $0x2a, 0x10000000
  jne 1f
  cmpb $0x2a, 0x10002fff
  jne 1f
  movq %xmm3, %rax
  movabsq $0x4000000000000000, %rdx
  cmpq %rdx, %rax
  jne 1f
  movq %r14, (%r14)
  cmpq (%r14), %r14
  jne 1f
  leaq 0(%rip), %rax
  cmpq $0x20000000, %rax
  jb 1f
  cmpq $0x20100000, %rax
  jae 1f
  addq %rcx, %rsi
  jmp 2f
1:
  ud2
2:
