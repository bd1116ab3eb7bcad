# Load-to-use latency: memory mapped at a fixed address holds its own
# address, so each load feeds the next.
# LLVM-EXEGESIS-MEM-DEF self 4096 0000000030000000
# LLVM-EXEGESIS-MEM-MAP self 30000000
# LLVM-EXEGESIS-DEFREG RAX 30000000
movq (%rax), %rax
