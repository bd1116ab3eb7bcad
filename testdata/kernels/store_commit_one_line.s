.intel_syntax noprefix
# kernel: store_commit_one_line
# what: 8 independent 8-byte stores filling one cache line in order
# origin: hand-written
# expect: store ports: 2 stores a cycle, 4 cycles/iter; consecutive stores share a line, so the commit keeps up
# LLVM-MCA-BEGIN store_commit_one_line
	mov QWORD PTR [rsi+0], rax
	mov QWORD PTR [rsi+8], rax
	mov QWORD PTR [rsi+16], rax
	mov QWORD PTR [rsi+24], rax
	mov QWORD PTR [rsi+32], rax
	mov QWORD PTR [rsi+40], rax
	mov QWORD PTR [rsi+48], rax
	mov QWORD PTR [rsi+56], rax
# LLVM-MCA-END store_commit_one_line
