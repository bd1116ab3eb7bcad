.intel_syntax noprefix
# kernel: bitscan_mix
# what: lzcnt, tzcnt, bsf, bsr and adds of the results
# origin: hand-written
# expect: ALU throughput: 4 independent bit scans plus 4 adds in 2 chains of 2 (2 cycles); bsf/bsr are several uops on AMD, so about 2-3 cycles/iter
# note: rbx (0x13) is never written, so bsf/bsr never see a zero source
# LLVM-MCA-BEGIN bitscan_mix
	lzcnt r8, rbx
	tzcnt r9, rbx
	bsf r10, rbx
	bsr r11, rbx
	add rax, r8
	add rax, r9
	add rcx, r10
	add rcx, r11
# LLVM-MCA-END bitscan_mix
