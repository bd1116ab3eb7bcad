.intel_syntax noprefix
# kernel: store_commit_lines
# what: 8 independent 8-byte stores, each to a cache line of its own (64 bytes apart)
# origin: hand-written
# expect: store commit: two store-data ports allow 2 a cycle (4 cycles/iter), but a Golden Cove-class core commits 2 stores a cycle only when they share a line: 8 cycles/iter there
# LLVM-MCA-BEGIN store_commit_lines
	mov QWORD PTR [rsi+0], rax
	mov QWORD PTR [rsi+64], rax
	mov QWORD PTR [rsi+128], rax
	mov QWORD PTR [rsi+192], rax
	mov QWORD PTR [rsi+256], rax
	mov QWORD PTR [rsi+320], rax
	mov QWORD PTR [rsi+384], rax
	mov QWORD PTR [rsi+448], rax
# LLVM-MCA-END store_commit_lines
