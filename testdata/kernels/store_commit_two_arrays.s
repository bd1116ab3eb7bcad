.intel_syntax noprefix
# kernel: store_commit_two_arrays
# what: 8 independent 8-byte stores alternating between two arrays, each filling its lines in order
# origin: hand-written
# expect: store commit: consecutive stores never share a line, so 1 a cycle on a Golden Cove-class core (8 cycles/iter); 4 where stores to any lines commit 2 a cycle
# LLVM-MCA-BEGIN store_commit_two_arrays
	mov QWORD PTR [rsi+0], rax
	mov QWORD PTR [rdi+0], rax
	mov QWORD PTR [rsi+8], rax
	mov QWORD PTR [rdi+8], rax
	mov QWORD PTR [rsi+16], rax
	mov QWORD PTR [rdi+16], rax
	mov QWORD PTR [rsi+24], rax
	mov QWORD PTR [rdi+24], rax
# LLVM-MCA-END store_commit_two_arrays
