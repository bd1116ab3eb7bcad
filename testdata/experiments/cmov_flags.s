.intel_syntax noprefix
# cmov's latency from the flags, by condition: each region chains `cmp
# rax, rbx` into `cmovCC rax, rcx` (or setCC al) eight times, so a link is
# cmp's latency to the flags plus the form's from the flags. Each region
# is one kernel for `portlab validate --no-peers
# testdata/experiments/cmov_flags.s`; the sweep measures the same chain
# per form (`flags->0`, docs/method.md "Latency").
#
# On the Zen 5 guest (AuthenticAMD-1a-2-1, 2026-12-02), cycles for the
# eight links: 24.0 for cmov with a condition that reads two flags or
# more (be, a, l, ge, le, g), after cmp or add; 16.0 for those that read
# one (o, no, b, ae, e, ne, s, ns, p, np) and for every setCC. Chained
# through their registers alone, all take one cycle.

# cmp_cmovo: cmp, then cmovo from its flags
# LLVM-MCA-BEGIN cmp_cmovo
	cmp rax, rbx
	cmovo rax, rcx
	cmp rax, rbx
	cmovo rax, rcx
	cmp rax, rbx
	cmovo rax, rcx
	cmp rax, rbx
	cmovo rax, rcx
	cmp rax, rbx
	cmovo rax, rcx
	cmp rax, rbx
	cmovo rax, rcx
	cmp rax, rbx
	cmovo rax, rcx
	cmp rax, rbx
	cmovo rax, rcx
# LLVM-MCA-END

# cmp_cmovno: cmp, then cmovno from its flags
# LLVM-MCA-BEGIN cmp_cmovno
	cmp rax, rbx
	cmovno rax, rcx
	cmp rax, rbx
	cmovno rax, rcx
	cmp rax, rbx
	cmovno rax, rcx
	cmp rax, rbx
	cmovno rax, rcx
	cmp rax, rbx
	cmovno rax, rcx
	cmp rax, rbx
	cmovno rax, rcx
	cmp rax, rbx
	cmovno rax, rcx
	cmp rax, rbx
	cmovno rax, rcx
# LLVM-MCA-END

# cmp_cmovb: cmp, then cmovb from its flags
# LLVM-MCA-BEGIN cmp_cmovb
	cmp rax, rbx
	cmovb rax, rcx
	cmp rax, rbx
	cmovb rax, rcx
	cmp rax, rbx
	cmovb rax, rcx
	cmp rax, rbx
	cmovb rax, rcx
	cmp rax, rbx
	cmovb rax, rcx
	cmp rax, rbx
	cmovb rax, rcx
	cmp rax, rbx
	cmovb rax, rcx
	cmp rax, rbx
	cmovb rax, rcx
# LLVM-MCA-END

# cmp_cmovae: cmp, then cmovae from its flags
# LLVM-MCA-BEGIN cmp_cmovae
	cmp rax, rbx
	cmovae rax, rcx
	cmp rax, rbx
	cmovae rax, rcx
	cmp rax, rbx
	cmovae rax, rcx
	cmp rax, rbx
	cmovae rax, rcx
	cmp rax, rbx
	cmovae rax, rcx
	cmp rax, rbx
	cmovae rax, rcx
	cmp rax, rbx
	cmovae rax, rcx
	cmp rax, rbx
	cmovae rax, rcx
# LLVM-MCA-END

# cmp_cmove: cmp, then cmove from its flags
# LLVM-MCA-BEGIN cmp_cmove
	cmp rax, rbx
	cmove rax, rcx
	cmp rax, rbx
	cmove rax, rcx
	cmp rax, rbx
	cmove rax, rcx
	cmp rax, rbx
	cmove rax, rcx
	cmp rax, rbx
	cmove rax, rcx
	cmp rax, rbx
	cmove rax, rcx
	cmp rax, rbx
	cmove rax, rcx
	cmp rax, rbx
	cmove rax, rcx
# LLVM-MCA-END

# cmp_cmovne: cmp, then cmovne from its flags
# LLVM-MCA-BEGIN cmp_cmovne
	cmp rax, rbx
	cmovne rax, rcx
	cmp rax, rbx
	cmovne rax, rcx
	cmp rax, rbx
	cmovne rax, rcx
	cmp rax, rbx
	cmovne rax, rcx
	cmp rax, rbx
	cmovne rax, rcx
	cmp rax, rbx
	cmovne rax, rcx
	cmp rax, rbx
	cmovne rax, rcx
	cmp rax, rbx
	cmovne rax, rcx
# LLVM-MCA-END

# cmp_cmovbe: cmp, then cmovbe from its flags
# LLVM-MCA-BEGIN cmp_cmovbe
	cmp rax, rbx
	cmovbe rax, rcx
	cmp rax, rbx
	cmovbe rax, rcx
	cmp rax, rbx
	cmovbe rax, rcx
	cmp rax, rbx
	cmovbe rax, rcx
	cmp rax, rbx
	cmovbe rax, rcx
	cmp rax, rbx
	cmovbe rax, rcx
	cmp rax, rbx
	cmovbe rax, rcx
	cmp rax, rbx
	cmovbe rax, rcx
# LLVM-MCA-END

# cmp_cmova: cmp, then cmova from its flags
# LLVM-MCA-BEGIN cmp_cmova
	cmp rax, rbx
	cmova rax, rcx
	cmp rax, rbx
	cmova rax, rcx
	cmp rax, rbx
	cmova rax, rcx
	cmp rax, rbx
	cmova rax, rcx
	cmp rax, rbx
	cmova rax, rcx
	cmp rax, rbx
	cmova rax, rcx
	cmp rax, rbx
	cmova rax, rcx
	cmp rax, rbx
	cmova rax, rcx
# LLVM-MCA-END

# cmp_cmovs: cmp, then cmovs from its flags
# LLVM-MCA-BEGIN cmp_cmovs
	cmp rax, rbx
	cmovs rax, rcx
	cmp rax, rbx
	cmovs rax, rcx
	cmp rax, rbx
	cmovs rax, rcx
	cmp rax, rbx
	cmovs rax, rcx
	cmp rax, rbx
	cmovs rax, rcx
	cmp rax, rbx
	cmovs rax, rcx
	cmp rax, rbx
	cmovs rax, rcx
	cmp rax, rbx
	cmovs rax, rcx
# LLVM-MCA-END

# cmp_cmovns: cmp, then cmovns from its flags
# LLVM-MCA-BEGIN cmp_cmovns
	cmp rax, rbx
	cmovns rax, rcx
	cmp rax, rbx
	cmovns rax, rcx
	cmp rax, rbx
	cmovns rax, rcx
	cmp rax, rbx
	cmovns rax, rcx
	cmp rax, rbx
	cmovns rax, rcx
	cmp rax, rbx
	cmovns rax, rcx
	cmp rax, rbx
	cmovns rax, rcx
	cmp rax, rbx
	cmovns rax, rcx
# LLVM-MCA-END

# cmp_cmovp: cmp, then cmovp from its flags
# LLVM-MCA-BEGIN cmp_cmovp
	cmp rax, rbx
	cmovp rax, rcx
	cmp rax, rbx
	cmovp rax, rcx
	cmp rax, rbx
	cmovp rax, rcx
	cmp rax, rbx
	cmovp rax, rcx
	cmp rax, rbx
	cmovp rax, rcx
	cmp rax, rbx
	cmovp rax, rcx
	cmp rax, rbx
	cmovp rax, rcx
	cmp rax, rbx
	cmovp rax, rcx
# LLVM-MCA-END

# cmp_cmovnp: cmp, then cmovnp from its flags
# LLVM-MCA-BEGIN cmp_cmovnp
	cmp rax, rbx
	cmovnp rax, rcx
	cmp rax, rbx
	cmovnp rax, rcx
	cmp rax, rbx
	cmovnp rax, rcx
	cmp rax, rbx
	cmovnp rax, rcx
	cmp rax, rbx
	cmovnp rax, rcx
	cmp rax, rbx
	cmovnp rax, rcx
	cmp rax, rbx
	cmovnp rax, rcx
	cmp rax, rbx
	cmovnp rax, rcx
# LLVM-MCA-END

# cmp_cmovl: cmp, then cmovl from its flags
# LLVM-MCA-BEGIN cmp_cmovl
	cmp rax, rbx
	cmovl rax, rcx
	cmp rax, rbx
	cmovl rax, rcx
	cmp rax, rbx
	cmovl rax, rcx
	cmp rax, rbx
	cmovl rax, rcx
	cmp rax, rbx
	cmovl rax, rcx
	cmp rax, rbx
	cmovl rax, rcx
	cmp rax, rbx
	cmovl rax, rcx
	cmp rax, rbx
	cmovl rax, rcx
# LLVM-MCA-END

# cmp_cmovge: cmp, then cmovge from its flags
# LLVM-MCA-BEGIN cmp_cmovge
	cmp rax, rbx
	cmovge rax, rcx
	cmp rax, rbx
	cmovge rax, rcx
	cmp rax, rbx
	cmovge rax, rcx
	cmp rax, rbx
	cmovge rax, rcx
	cmp rax, rbx
	cmovge rax, rcx
	cmp rax, rbx
	cmovge rax, rcx
	cmp rax, rbx
	cmovge rax, rcx
	cmp rax, rbx
	cmovge rax, rcx
# LLVM-MCA-END

# cmp_cmovle: cmp, then cmovle from its flags
# LLVM-MCA-BEGIN cmp_cmovle
	cmp rax, rbx
	cmovle rax, rcx
	cmp rax, rbx
	cmovle rax, rcx
	cmp rax, rbx
	cmovle rax, rcx
	cmp rax, rbx
	cmovle rax, rcx
	cmp rax, rbx
	cmovle rax, rcx
	cmp rax, rbx
	cmovle rax, rcx
	cmp rax, rbx
	cmovle rax, rcx
	cmp rax, rbx
	cmovle rax, rcx
# LLVM-MCA-END

# cmp_cmovg: cmp, then cmovg from its flags
# LLVM-MCA-BEGIN cmp_cmovg
	cmp rax, rbx
	cmovg rax, rcx
	cmp rax, rbx
	cmovg rax, rcx
	cmp rax, rbx
	cmovg rax, rcx
	cmp rax, rbx
	cmovg rax, rcx
	cmp rax, rbx
	cmovg rax, rcx
	cmp rax, rbx
	cmovg rax, rcx
	cmp rax, rbx
	cmovg rax, rcx
	cmp rax, rbx
	cmovg rax, rcx
# LLVM-MCA-END

# cmp_setl: cmp, then setl into the low byte of the register cmp reads
# LLVM-MCA-BEGIN cmp_setl
	cmp rax, rbx
	setl al
	cmp rax, rbx
	setl al
	cmp rax, rbx
	setl al
	cmp rax, rbx
	setl al
	cmp rax, rbx
	setl al
	cmp rax, rbx
	setl al
	cmp rax, rbx
	setl al
	cmp rax, rbx
	setl al
# LLVM-MCA-END

# cmp_setg: cmp, then setg into the low byte of the register cmp reads
# LLVM-MCA-BEGIN cmp_setg
	cmp rax, rbx
	setg al
	cmp rax, rbx
	setg al
	cmp rax, rbx
	setg al
	cmp rax, rbx
	setg al
	cmp rax, rbx
	setg al
	cmp rax, rbx
	setg al
	cmp rax, rbx
	setg al
	cmp rax, rbx
	setg al
# LLVM-MCA-END

# cmp_setle: cmp, then setle into the low byte of the register cmp reads
# LLVM-MCA-BEGIN cmp_setle
	cmp rax, rbx
	setle al
	cmp rax, rbx
	setle al
	cmp rax, rbx
	setle al
	cmp rax, rbx
	setle al
	cmp rax, rbx
	setle al
	cmp rax, rbx
	setle al
	cmp rax, rbx
	setle al
	cmp rax, rbx
	setle al
# LLVM-MCA-END

# cmp_setbe: cmp, then setbe into the low byte of the register cmp reads
# LLVM-MCA-BEGIN cmp_setbe
	cmp rax, rbx
	setbe al
	cmp rax, rbx
	setbe al
	cmp rax, rbx
	setbe al
	cmp rax, rbx
	setbe al
	cmp rax, rbx
	setbe al
	cmp rax, rbx
	setbe al
	cmp rax, rbx
	setbe al
	cmp rax, rbx
	setbe al
# LLVM-MCA-END

# cmp_seta: cmp, then seta into the low byte of the register cmp reads
# LLVM-MCA-BEGIN cmp_seta
	cmp rax, rbx
	seta al
	cmp rax, rbx
	seta al
	cmp rax, rbx
	seta al
	cmp rax, rbx
	seta al
	cmp rax, rbx
	seta al
	cmp rax, rbx
	seta al
	cmp rax, rbx
	seta al
	cmp rax, rbx
	seta al
# LLVM-MCA-END

# add_cmovl: add, then cmovl from its flags
# LLVM-MCA-BEGIN add_cmovl
	add rax, rbx
	cmovl rax, rcx
	add rax, rbx
	cmovl rax, rcx
	add rax, rbx
	cmovl rax, rcx
	add rax, rbx
	cmovl rax, rcx
	add rax, rbx
	cmovl rax, rcx
	add rax, rbx
	cmovl rax, rcx
	add rax, rbx
	cmovl rax, rcx
	add rax, rbx
	cmovl rax, rcx
# LLVM-MCA-END

# add_cmovbe: add, then cmovbe from its flags
# LLVM-MCA-BEGIN add_cmovbe
	add rax, rbx
	cmovbe rax, rcx
	add rax, rbx
	cmovbe rax, rcx
	add rax, rbx
	cmovbe rax, rcx
	add rax, rbx
	cmovbe rax, rcx
	add rax, rbx
	cmovbe rax, rcx
	add rax, rbx
	cmovbe rax, rcx
	add rax, rbx
	cmovbe rax, rcx
	add rax, rbx
	cmovbe rax, rcx
# LLVM-MCA-END

# cmov_registers: cmovl chained through its registers alone
# LLVM-MCA-BEGIN cmov_registers
	cmovl rax, rcx
	cmovl rcx, rax
	cmovl rax, rcx
	cmovl rcx, rax
	cmovl rax, rcx
	cmovl rcx, rax
	cmovl rax, rcx
	cmovl rcx, rax
	cmovl rax, rcx
	cmovl rcx, rax
	cmovl rax, rcx
	cmovl rcx, rax
	cmovl rax, rcx
	cmovl rcx, rax
	cmovl rax, rcx
	cmovl rcx, rax
# LLVM-MCA-END
