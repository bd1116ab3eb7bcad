# Named, nested and overlapping regions, each analysed on its own.
# "chain" is the add chain of k01: 103 cycles. "both" holds the add and
# the imul chain of k03 (independent chains: the imul chain sets the
# pace, 303 cycles). "imul" is the imul alone: 303 cycles. "tail" overlaps
# "both" and holds the imul and the vaddpd chain of k05: 303 cycles; the
# vaddpd issues the cycle the imul does (1+3k), but it comes later in
# program order, so its last one (issued 298, executed 301) retires at
# 302 with the imul: 303 cycles.
# expect: region=chain iterations=100 cycles=103
# expect: region=both iterations=100 cycles=303
# expect: region=imul iterations=100 cycles=303
# expect: region=tail iterations=100 cycles=303
# LLVM-MCA-BEGIN both
# LLVM-MCA-BEGIN chain
	addq	$1, %rax
# LLVM-MCA-END chain
# LLVM-MCA-BEGIN imul
# LLVM-MCA-BEGIN tail
	imulq	%rbx, %rbx
# LLVM-MCA-END imul
# LLVM-MCA-END both
	vaddpd	%ymm1, %ymm0, %ymm0
# LLVM-MCA-END tail
