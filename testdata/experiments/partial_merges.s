.intel_syntax noprefix
# Writes to part of a general register (r8, r16) merge into its old value:
# chains of four such writes a copy, through ax, where nothing else reads
# the register. Each region is one kernel for
# `portlab validate --no-peers testdata/experiments/partial_merges.s`.
# On the Zen 3 guest (docs/models.md, "Narrow loads merge late") the load
# forms run at 1 cycle a link (4.00 a copy), not their load's 4-5 cycles:
# the old value joins the operation after the load. The register form
# imul ax, cx, 3 takes 4 a link (its 3 cycles and the merge).
# LLVM-MCA-BEGIN movsxd16_load
	movsxd ax, dword ptr [rdi]
	movsxd ax, dword ptr [rdi+8]
	movsxd ax, dword ptr [rdi+16]
	movsxd ax, dword ptr [rdi+24]
# LLVM-MCA-END movsxd16_load
# LLVM-MCA-BEGIN mov16_load
	mov ax, word ptr [rdi]
	mov ax, word ptr [rdi+8]
	mov ax, word ptr [rdi+16]
	mov ax, word ptr [rdi+24]
# LLVM-MCA-END mov16_load
# LLVM-MCA-BEGIN mov8_load
	mov al, byte ptr [rdi]
	mov al, byte ptr [rdi+8]
	mov al, byte ptr [rdi+16]
	mov al, byte ptr [rdi+24]
# LLVM-MCA-END mov8_load
# LLVM-MCA-BEGIN popcnt16_load
	popcnt ax, word ptr [rdi]
	popcnt ax, word ptr [rdi+8]
	popcnt ax, word ptr [rdi+16]
	popcnt ax, word ptr [rdi+24]
# LLVM-MCA-END popcnt16_load
# LLVM-MCA-BEGIN movzx16_reg
	movzx ax, cl
	movzx ax, cl
	movzx ax, cl
	movzx ax, cl
# LLVM-MCA-END movzx16_reg
# LLVM-MCA-BEGIN imul16_reg
	imul ax, cx, 3
	imul ax, cx, 3
	imul ax, cx, 3
	imul ax, cx, 3
# LLVM-MCA-END imul16_reg
