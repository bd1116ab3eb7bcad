.intel_syntax noprefix
# Forms that read the flags they write, each instance on a register of
# its own, so that the flags are the only chain between instances. Each
# region is one kernel for `portlab validate --no-peers
# testdata/experiments/flag_chains.s`.
#
# On the Zen 5 guest (AuthenticAMD-1a-2-1, 2026-12-02), cycles for the 16
# instructions of each region, and what the model of that day predicted:
#   shl_cl, shr_cl 5.37 (16.00 predicted: the simulator chained them
#     through the flags, which a shift by cl leaves as they were when the
#     count is 0; the core does not wait for them; 5.33 with the sweep's
#     flags->flags chains, docs/method.md "Latency")
#   ror_imm, rol_ror, shl_imm 5.37-5.38 (5.33), shrd 16.30 (16.00)
#   adcx_adox 7.99 (8.00: adcx chains through CF, adox through OF, apart)
#   adcx_only, adox_only, adc 15.97-16.00 (16.00: one chain, a cycle a link)
#   add, inc 2.98 (3.00)
# docs/benchmarks.md (Zen 5, the vector memory path and cmov's flags).

# shl_cl: shl by cl, eight registers
# LLVM-MCA-BEGIN shl_cl
	shl rax, cl
	shl rbx, cl
	shl rdx, cl
	shl rsi, cl
	shl r8, cl
	shl r9, cl
	shl r10, cl
	shl r11, cl
	shl rax, cl
	shl rbx, cl
	shl rdx, cl
	shl rsi, cl
	shl r8, cl
	shl r9, cl
	shl r10, cl
	shl r11, cl
# LLVM-MCA-END

# shr_cl: shr by cl, eight registers
# LLVM-MCA-BEGIN shr_cl
	shr rax, cl
	shr rbx, cl
	shr rdx, cl
	shr rsi, cl
	shr r8, cl
	shr r9, cl
	shr r10, cl
	shr r11, cl
	shr rax, cl
	shr rbx, cl
	shr rdx, cl
	shr rsi, cl
	shr r8, cl
	shr r9, cl
	shr r10, cl
	shr r11, cl
# LLVM-MCA-END

# ror_imm: ror by an immediate, eight registers
# LLVM-MCA-BEGIN ror_imm
	ror rax, 7
	ror rbx, 7
	ror rdx, 7
	ror rsi, 7
	ror r8, 7
	ror r9, 7
	ror r10, 7
	ror r11, 7
	ror rax, 7
	ror rbx, 7
	ror rdx, 7
	ror rsi, 7
	ror r8, 7
	ror r9, 7
	ror r10, 7
	ror r11, 7
# LLVM-MCA-END

# rol_ror: rol and ror by immediates in turn
# LLVM-MCA-BEGIN rol_ror
	ror rax, 7
	rol rbx, 3
	ror rdx, 7
	rol rsi, 3
	ror r8, 7
	rol r9, 3
	ror r10, 7
	rol r11, 3
	ror rax, 7
	rol rbx, 3
	ror rdx, 7
	rol rsi, 3
	ror r8, 7
	rol r9, 3
	ror r10, 7
	rol r11, 3
# LLVM-MCA-END

# shl_imm: shl by an immediate, eight registers
# LLVM-MCA-BEGIN shl_imm
	shl rax, 3
	shl rbx, 3
	shl rdx, 3
	shl rsi, 3
	shl r8, 3
	shl r9, 3
	shl r10, 3
	shl r11, 3
	shl rax, 3
	shl rbx, 3
	shl rdx, 3
	shl rsi, 3
	shl r8, 3
	shl r9, 3
	shl r10, 3
	shl r11, 3
# LLVM-MCA-END

# shrd: shrd by an immediate, eight registers
# LLVM-MCA-BEGIN shrd
	shrd rax, r12, 5
	shrd rbx, r12, 5
	shrd rdx, r12, 5
	shrd rsi, r12, 5
	shrd r8, r12, 5
	shrd r9, r12, 5
	shrd r10, r12, 5
	shrd r11, r12, 5
	shrd rax, r12, 5
	shrd rbx, r12, 5
	shrd rdx, r12, 5
	shrd rsi, r12, 5
	shrd r8, r12, 5
	shrd r9, r12, 5
	shrd r10, r12, 5
	shrd r11, r12, 5
# LLVM-MCA-END

# adcx_adox: adcx and adox in turn
# LLVM-MCA-BEGIN adcx_adox
	adcx r8, r12
	adox r9, r12
	adcx r10, r12
	adox r11, r12
	adcx r8, r12
	adox r9, r12
	adcx r10, r12
	adox r11, r12
	adcx r8, r12
	adox r9, r12
	adcx r10, r12
	adox r11, r12
	adcx r8, r12
	adox r9, r12
	adcx r10, r12
	adox r11, r12
# LLVM-MCA-END

# adcx_only: adcx alone
# LLVM-MCA-BEGIN adcx_only
	adcx r8, r12
	adcx r9, r12
	adcx r10, r12
	adcx r11, r12
	adcx r8, r12
	adcx r9, r12
	adcx r10, r12
	adcx r11, r12
	adcx r8, r12
	adcx r9, r12
	adcx r10, r12
	adcx r11, r12
	adcx r8, r12
	adcx r9, r12
	adcx r10, r12
	adcx r11, r12
# LLVM-MCA-END

# adox_only: adox alone
# LLVM-MCA-BEGIN adox_only
	adox r8, r12
	adox r9, r12
	adox r10, r12
	adox r11, r12
	adox r8, r12
	adox r9, r12
	adox r10, r12
	adox r11, r12
	adox r8, r12
	adox r9, r12
	adox r10, r12
	adox r11, r12
	adox r8, r12
	adox r9, r12
	adox r10, r12
	adox r11, r12
# LLVM-MCA-END

# add: add, eight registers (no flags read)
# LLVM-MCA-BEGIN add
	add rax, r12
	add rbx, r12
	add rdx, r12
	add rsi, r12
	add r8, r12
	add r9, r12
	add r10, r12
	add r11, r12
	add rax, r12
	add rbx, r12
	add rdx, r12
	add rsi, r12
	add r8, r12
	add r9, r12
	add r10, r12
	add r11, r12
# LLVM-MCA-END

# inc: inc, eight registers (CF kept)
# LLVM-MCA-BEGIN inc
	inc rax
	inc rbx
	inc rdx
	inc rsi
	inc r8
	inc r9
	inc r10
	inc r11
	inc rax
	inc rbx
	inc rdx
	inc rsi
	inc r8
	inc r9
	inc r10
	inc r11
# LLVM-MCA-END

# adc: adc, eight registers
# LLVM-MCA-BEGIN adc
	adc rax, r12
	adc rbx, r12
	adc rdx, r12
	adc rsi, r12
	adc r8, r12
	adc r9, r12
	adc r10, r12
	adc r11, r12
	adc rax, r12
	adc rbx, r12
	adc rdx, r12
	adc rsi, r12
	adc r8, r12
	adc r9, r12
	adc r10, r12
	adc r11, r12
# LLVM-MCA-END

