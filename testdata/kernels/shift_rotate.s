# kernel: shift_rotate
# what: eight shifts and rotates (by cl, by immediate, BMI2 shlx/sarx/rorx, shrd), each on its own chain
# origin: hand-written
# expect: shift ports: 8 shifts on 2 shift ports (Intel) plus the extra uops of shl/shr by cl (flag merge) and shrd; Zen 4 shifts on all ALUs but shrd is several uops: about 3-6 cycles/iter
# note: rcx (0x13: shift count 19) is never written
# LLVM-MCA-BEGIN shift_rotate
	shlq %cl, %rax
	rorq $7, %rbx
	shlxq %rcx, %rsi, %rsi
	sarxq %rcx, %rdi, %rdi
	rolq $3, %r8
	shrq %cl, %r9
	rorxq $11, %r10, %r10
	shrdq $5, %r11, %r12
# LLVM-MCA-END shift_rotate
