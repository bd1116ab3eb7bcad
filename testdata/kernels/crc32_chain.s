# kernel: crc32_chain
# what: CRC-32C of four loaded qwords into one accumulator
# origin: hand-written
# expect: loop-carried crc32 latency: 4 x 3 cycles = 12 cycles/iter
# LLVM-MCA-BEGIN crc32_chain
	crc32q (%rdi), %rax
	crc32q 8(%rdi), %rax
	crc32q 16(%rdi), %rax
	crc32q 24(%rdi), %rax
	addq $32, %rdi
# LLVM-MCA-END crc32_chain
