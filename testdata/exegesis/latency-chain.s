# A plain exegesis snippet: a dependency chain through RAX with a defined
# start value (Intel syntax).
.intel_syntax noprefix
# LLVM-EXEGESIS-DEFREG RAX 1
# LLVM-EXEGESIS-DEFREG RCX 3
imul rax, rcx
