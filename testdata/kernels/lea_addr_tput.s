# kernel: lea_addr_tput
# what: eight independent LEAs of one to three components
# origin: hand-written
# expect: LEA port count: 8 LEAs/iter; simple ones run on every ALU, 3-component and scaled ones on fewer ports (Intel) or take 2 cycles (Zen 4): about 2-4 cycles/iter
# note: lea never touches memory
# LLVM-MCA-BEGIN lea_addr_tput
	leaq 8(%rbx), %r8
	leaq (%rbx,%rcx), %r9
	leaq (%rbx,%rcx,4), %r10
	leaq 12(%rbx,%rcx,8), %r11
	leaq 3(%rcx,%rcx,2), %r12
	leaq (,%rcx,8), %r13
	leaq -1(%rbx), %r14
	leaq 1(%rbx,%rbx), %r15
# LLVM-MCA-END lea_addr_tput
