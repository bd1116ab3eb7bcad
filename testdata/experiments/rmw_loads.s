.intel_syntax noprefix
# Integer read-modify-writes (add m64, r64 to one line, eight qwords) beside
# loads (mov r64, m64 from other lines; vmovdqu ymm, m256 and vpaddd ymm,
# ymm, m256 for vector loads) and beside register adds, in fixed patterns.
# Each region is one kernel for
# `portlab validate --no-peers testdata/experiments/rmw_loads.s`; the name
# spells one period (r: read-modify-write, l: load, v: vector load, o: vector
# load-op, a: register add), repeated to 48 instructions (40 for rllll).
# On the Zen 4 guest (docs/method.md, "Port assignment at allocation") the
# read-modify-writes alone take 0.59 cycles each and the loads 0.33; one
# load after each read-modify-write, of any kind, makes the pair take 1.00
# cycle, two loads 1.12, three 1.50, while two read-modify-writes before
# each load take 1.19 for the three (its passes 0.92-1.20: more than one
# steady state) and three 2.05 for the four. A register add after each
# read-modify-write costs nothing (0.61 the pair). How much a load costs
# depends on where it stands, which no port mapping expresses: the Zen 4
# model predicts 0.69 for rl, 1.13 for rrl, 0.97 for rll.

# LLVM-MCA-BEGIN r
	add qword ptr [rdi+2560], rax
	add qword ptr [rdi+2568], rax
	add qword ptr [rdi+2576], rax
	add qword ptr [rdi+2584], rax
	add qword ptr [rdi+2592], rax
	add qword ptr [rdi+2600], rax
	add qword ptr [rdi+2608], rax
	add qword ptr [rdi+2616], rax
	add qword ptr [rdi+2560], rax
	add qword ptr [rdi+2568], rax
	add qword ptr [rdi+2576], rax
	add qword ptr [rdi+2584], rax
	add qword ptr [rdi+2592], rax
	add qword ptr [rdi+2600], rax
	add qword ptr [rdi+2608], rax
	add qword ptr [rdi+2616], rax
	add qword ptr [rdi+2560], rax
	add qword ptr [rdi+2568], rax
	add qword ptr [rdi+2576], rax
	add qword ptr [rdi+2584], rax
	add qword ptr [rdi+2592], rax
	add qword ptr [rdi+2600], rax
	add qword ptr [rdi+2608], rax
	add qword ptr [rdi+2616], rax
	add qword ptr [rdi+2560], rax
	add qword ptr [rdi+2568], rax
	add qword ptr [rdi+2576], rax
	add qword ptr [rdi+2584], rax
	add qword ptr [rdi+2592], rax
	add qword ptr [rdi+2600], rax
	add qword ptr [rdi+2608], rax
	add qword ptr [rdi+2616], rax
	add qword ptr [rdi+2560], rax
	add qword ptr [rdi+2568], rax
	add qword ptr [rdi+2576], rax
	add qword ptr [rdi+2584], rax
	add qword ptr [rdi+2592], rax
	add qword ptr [rdi+2600], rax
	add qword ptr [rdi+2608], rax
	add qword ptr [rdi+2616], rax
	add qword ptr [rdi+2560], rax
	add qword ptr [rdi+2568], rax
	add qword ptr [rdi+2576], rax
	add qword ptr [rdi+2584], rax
	add qword ptr [rdi+2592], rax
	add qword ptr [rdi+2600], rax
	add qword ptr [rdi+2608], rax
	add qword ptr [rdi+2616], rax
# LLVM-MCA-END

# LLVM-MCA-BEGIN l
	mov r8, qword ptr [rdi+0]
	mov r9, qword ptr [rdi+64]
	mov r10, qword ptr [rdi+128]
	mov r11, qword ptr [rdi+192]
	mov r12, qword ptr [rdi+0]
	mov r13, qword ptr [rdi+64]
	mov r8, qword ptr [rdi+128]
	mov r9, qword ptr [rdi+192]
	mov r10, qword ptr [rdi+0]
	mov r11, qword ptr [rdi+64]
	mov r12, qword ptr [rdi+128]
	mov r13, qword ptr [rdi+192]
	mov r8, qword ptr [rdi+0]
	mov r9, qword ptr [rdi+64]
	mov r10, qword ptr [rdi+128]
	mov r11, qword ptr [rdi+192]
	mov r12, qword ptr [rdi+0]
	mov r13, qword ptr [rdi+64]
	mov r8, qword ptr [rdi+128]
	mov r9, qword ptr [rdi+192]
	mov r10, qword ptr [rdi+0]
	mov r11, qword ptr [rdi+64]
	mov r12, qword ptr [rdi+128]
	mov r13, qword ptr [rdi+192]
	mov r8, qword ptr [rdi+0]
	mov r9, qword ptr [rdi+64]
	mov r10, qword ptr [rdi+128]
	mov r11, qword ptr [rdi+192]
	mov r12, qword ptr [rdi+0]
	mov r13, qword ptr [rdi+64]
	mov r8, qword ptr [rdi+128]
	mov r9, qword ptr [rdi+192]
	mov r10, qword ptr [rdi+0]
	mov r11, qword ptr [rdi+64]
	mov r12, qword ptr [rdi+128]
	mov r13, qword ptr [rdi+192]
	mov r8, qword ptr [rdi+0]
	mov r9, qword ptr [rdi+64]
	mov r10, qword ptr [rdi+128]
	mov r11, qword ptr [rdi+192]
	mov r12, qword ptr [rdi+0]
	mov r13, qword ptr [rdi+64]
	mov r8, qword ptr [rdi+128]
	mov r9, qword ptr [rdi+192]
	mov r10, qword ptr [rdi+0]
	mov r11, qword ptr [rdi+64]
	mov r12, qword ptr [rdi+128]
	mov r13, qword ptr [rdi+192]
# LLVM-MCA-END

# LLVM-MCA-BEGIN rl
	add qword ptr [rdi+2560], rax
	mov r8, qword ptr [rdi+0]
	add qword ptr [rdi+2568], rax
	mov r9, qword ptr [rdi+64]
	add qword ptr [rdi+2576], rax
	mov r10, qword ptr [rdi+128]
	add qword ptr [rdi+2584], rax
	mov r11, qword ptr [rdi+192]
	add qword ptr [rdi+2592], rax
	mov r12, qword ptr [rdi+0]
	add qword ptr [rdi+2600], rax
	mov r13, qword ptr [rdi+64]
	add qword ptr [rdi+2608], rax
	mov r8, qword ptr [rdi+128]
	add qword ptr [rdi+2616], rax
	mov r9, qword ptr [rdi+192]
	add qword ptr [rdi+2560], rax
	mov r10, qword ptr [rdi+0]
	add qword ptr [rdi+2568], rax
	mov r11, qword ptr [rdi+64]
	add qword ptr [rdi+2576], rax
	mov r12, qword ptr [rdi+128]
	add qword ptr [rdi+2584], rax
	mov r13, qword ptr [rdi+192]
	add qword ptr [rdi+2592], rax
	mov r8, qword ptr [rdi+0]
	add qword ptr [rdi+2600], rax
	mov r9, qword ptr [rdi+64]
	add qword ptr [rdi+2608], rax
	mov r10, qword ptr [rdi+128]
	add qword ptr [rdi+2616], rax
	mov r11, qword ptr [rdi+192]
	add qword ptr [rdi+2560], rax
	mov r12, qword ptr [rdi+0]
	add qword ptr [rdi+2568], rax
	mov r13, qword ptr [rdi+64]
	add qword ptr [rdi+2576], rax
	mov r8, qword ptr [rdi+128]
	add qword ptr [rdi+2584], rax
	mov r9, qword ptr [rdi+192]
	add qword ptr [rdi+2592], rax
	mov r10, qword ptr [rdi+0]
	add qword ptr [rdi+2600], rax
	mov r11, qword ptr [rdi+64]
	add qword ptr [rdi+2608], rax
	mov r12, qword ptr [rdi+128]
	add qword ptr [rdi+2616], rax
	mov r13, qword ptr [rdi+192]
# LLVM-MCA-END

# LLVM-MCA-BEGIN rrl
	add qword ptr [rdi+2560], rax
	add qword ptr [rdi+2568], rax
	mov r8, qword ptr [rdi+0]
	add qword ptr [rdi+2576], rax
	add qword ptr [rdi+2584], rax
	mov r9, qword ptr [rdi+64]
	add qword ptr [rdi+2592], rax
	add qword ptr [rdi+2600], rax
	mov r10, qword ptr [rdi+128]
	add qword ptr [rdi+2608], rax
	add qword ptr [rdi+2616], rax
	mov r11, qword ptr [rdi+192]
	add qword ptr [rdi+2560], rax
	add qword ptr [rdi+2568], rax
	mov r12, qword ptr [rdi+0]
	add qword ptr [rdi+2576], rax
	add qword ptr [rdi+2584], rax
	mov r13, qword ptr [rdi+64]
	add qword ptr [rdi+2592], rax
	add qword ptr [rdi+2600], rax
	mov r8, qword ptr [rdi+128]
	add qword ptr [rdi+2608], rax
	add qword ptr [rdi+2616], rax
	mov r9, qword ptr [rdi+192]
	add qword ptr [rdi+2560], rax
	add qword ptr [rdi+2568], rax
	mov r10, qword ptr [rdi+0]
	add qword ptr [rdi+2576], rax
	add qword ptr [rdi+2584], rax
	mov r11, qword ptr [rdi+64]
	add qword ptr [rdi+2592], rax
	add qword ptr [rdi+2600], rax
	mov r12, qword ptr [rdi+128]
	add qword ptr [rdi+2608], rax
	add qword ptr [rdi+2616], rax
	mov r13, qword ptr [rdi+192]
	add qword ptr [rdi+2560], rax
	add qword ptr [rdi+2568], rax
	mov r8, qword ptr [rdi+0]
	add qword ptr [rdi+2576], rax
	add qword ptr [rdi+2584], rax
	mov r9, qword ptr [rdi+64]
	add qword ptr [rdi+2592], rax
	add qword ptr [rdi+2600], rax
	mov r10, qword ptr [rdi+128]
	add qword ptr [rdi+2608], rax
	add qword ptr [rdi+2616], rax
	mov r11, qword ptr [rdi+192]
# LLVM-MCA-END

# LLVM-MCA-BEGIN rrrl
	add qword ptr [rdi+2560], rax
	add qword ptr [rdi+2568], rax
	add qword ptr [rdi+2576], rax
	mov r8, qword ptr [rdi+0]
	add qword ptr [rdi+2584], rax
	add qword ptr [rdi+2592], rax
	add qword ptr [rdi+2600], rax
	mov r9, qword ptr [rdi+64]
	add qword ptr [rdi+2608], rax
	add qword ptr [rdi+2616], rax
	add qword ptr [rdi+2560], rax
	mov r10, qword ptr [rdi+128]
	add qword ptr [rdi+2568], rax
	add qword ptr [rdi+2576], rax
	add qword ptr [rdi+2584], rax
	mov r11, qword ptr [rdi+192]
	add qword ptr [rdi+2592], rax
	add qword ptr [rdi+2600], rax
	add qword ptr [rdi+2608], rax
	mov r12, qword ptr [rdi+0]
	add qword ptr [rdi+2616], rax
	add qword ptr [rdi+2560], rax
	add qword ptr [rdi+2568], rax
	mov r13, qword ptr [rdi+64]
	add qword ptr [rdi+2576], rax
	add qword ptr [rdi+2584], rax
	add qword ptr [rdi+2592], rax
	mov r8, qword ptr [rdi+128]
	add qword ptr [rdi+2600], rax
	add qword ptr [rdi+2608], rax
	add qword ptr [rdi+2616], rax
	mov r9, qword ptr [rdi+192]
	add qword ptr [rdi+2560], rax
	add qword ptr [rdi+2568], rax
	add qword ptr [rdi+2576], rax
	mov r10, qword ptr [rdi+0]
	add qword ptr [rdi+2584], rax
	add qword ptr [rdi+2592], rax
	add qword ptr [rdi+2600], rax
	mov r11, qword ptr [rdi+64]
	add qword ptr [rdi+2608], rax
	add qword ptr [rdi+2616], rax
	add qword ptr [rdi+2560], rax
	mov r12, qword ptr [rdi+128]
	add qword ptr [rdi+2568], rax
	add qword ptr [rdi+2576], rax
	add qword ptr [rdi+2584], rax
	mov r13, qword ptr [rdi+192]
# LLVM-MCA-END

# LLVM-MCA-BEGIN rll
	add qword ptr [rdi+2560], rax
	mov r8, qword ptr [rdi+0]
	mov r9, qword ptr [rdi+64]
	add qword ptr [rdi+2568], rax
	mov r10, qword ptr [rdi+128]
	mov r11, qword ptr [rdi+192]
	add qword ptr [rdi+2576], rax
	mov r12, qword ptr [rdi+0]
	mov r13, qword ptr [rdi+64]
	add qword ptr [rdi+2584], rax
	mov r8, qword ptr [rdi+128]
	mov r9, qword ptr [rdi+192]
	add qword ptr [rdi+2592], rax
	mov r10, qword ptr [rdi+0]
	mov r11, qword ptr [rdi+64]
	add qword ptr [rdi+2600], rax
	mov r12, qword ptr [rdi+128]
	mov r13, qword ptr [rdi+192]
	add qword ptr [rdi+2608], rax
	mov r8, qword ptr [rdi+0]
	mov r9, qword ptr [rdi+64]
	add qword ptr [rdi+2616], rax
	mov r10, qword ptr [rdi+128]
	mov r11, qword ptr [rdi+192]
	add qword ptr [rdi+2560], rax
	mov r12, qword ptr [rdi+0]
	mov r13, qword ptr [rdi+64]
	add qword ptr [rdi+2568], rax
	mov r8, qword ptr [rdi+128]
	mov r9, qword ptr [rdi+192]
	add qword ptr [rdi+2576], rax
	mov r10, qword ptr [rdi+0]
	mov r11, qword ptr [rdi+64]
	add qword ptr [rdi+2584], rax
	mov r12, qword ptr [rdi+128]
	mov r13, qword ptr [rdi+192]
	add qword ptr [rdi+2592], rax
	mov r8, qword ptr [rdi+0]
	mov r9, qword ptr [rdi+64]
	add qword ptr [rdi+2600], rax
	mov r10, qword ptr [rdi+128]
	mov r11, qword ptr [rdi+192]
	add qword ptr [rdi+2608], rax
	mov r12, qword ptr [rdi+0]
	mov r13, qword ptr [rdi+64]
	add qword ptr [rdi+2616], rax
	mov r8, qword ptr [rdi+128]
	mov r9, qword ptr [rdi+192]
# LLVM-MCA-END

# LLVM-MCA-BEGIN rlll
	add qword ptr [rdi+2560], rax
	mov r8, qword ptr [rdi+0]
	mov r9, qword ptr [rdi+64]
	mov r10, qword ptr [rdi+128]
	add qword ptr [rdi+2568], rax
	mov r11, qword ptr [rdi+192]
	mov r12, qword ptr [rdi+0]
	mov r13, qword ptr [rdi+64]
	add qword ptr [rdi+2576], rax
	mov r8, qword ptr [rdi+128]
	mov r9, qword ptr [rdi+192]
	mov r10, qword ptr [rdi+0]
	add qword ptr [rdi+2584], rax
	mov r11, qword ptr [rdi+64]
	mov r12, qword ptr [rdi+128]
	mov r13, qword ptr [rdi+192]
	add qword ptr [rdi+2592], rax
	mov r8, qword ptr [rdi+0]
	mov r9, qword ptr [rdi+64]
	mov r10, qword ptr [rdi+128]
	add qword ptr [rdi+2600], rax
	mov r11, qword ptr [rdi+192]
	mov r12, qword ptr [rdi+0]
	mov r13, qword ptr [rdi+64]
	add qword ptr [rdi+2608], rax
	mov r8, qword ptr [rdi+128]
	mov r9, qword ptr [rdi+192]
	mov r10, qword ptr [rdi+0]
	add qword ptr [rdi+2616], rax
	mov r11, qword ptr [rdi+64]
	mov r12, qword ptr [rdi+128]
	mov r13, qword ptr [rdi+192]
	add qword ptr [rdi+2560], rax
	mov r8, qword ptr [rdi+0]
	mov r9, qword ptr [rdi+64]
	mov r10, qword ptr [rdi+128]
	add qword ptr [rdi+2568], rax
	mov r11, qword ptr [rdi+192]
	mov r12, qword ptr [rdi+0]
	mov r13, qword ptr [rdi+64]
	add qword ptr [rdi+2576], rax
	mov r8, qword ptr [rdi+128]
	mov r9, qword ptr [rdi+192]
	mov r10, qword ptr [rdi+0]
	add qword ptr [rdi+2584], rax
	mov r11, qword ptr [rdi+64]
	mov r12, qword ptr [rdi+128]
	mov r13, qword ptr [rdi+192]
# LLVM-MCA-END

# LLVM-MCA-BEGIN rllll
	add qword ptr [rdi+2560], rax
	mov r8, qword ptr [rdi+0]
	mov r9, qword ptr [rdi+64]
	mov r10, qword ptr [rdi+128]
	mov r11, qword ptr [rdi+192]
	add qword ptr [rdi+2568], rax
	mov r12, qword ptr [rdi+0]
	mov r13, qword ptr [rdi+64]
	mov r8, qword ptr [rdi+128]
	mov r9, qword ptr [rdi+192]
	add qword ptr [rdi+2576], rax
	mov r10, qword ptr [rdi+0]
	mov r11, qword ptr [rdi+64]
	mov r12, qword ptr [rdi+128]
	mov r13, qword ptr [rdi+192]
	add qword ptr [rdi+2584], rax
	mov r8, qword ptr [rdi+0]
	mov r9, qword ptr [rdi+64]
	mov r10, qword ptr [rdi+128]
	mov r11, qword ptr [rdi+192]
	add qword ptr [rdi+2592], rax
	mov r12, qword ptr [rdi+0]
	mov r13, qword ptr [rdi+64]
	mov r8, qword ptr [rdi+128]
	mov r9, qword ptr [rdi+192]
	add qword ptr [rdi+2600], rax
	mov r10, qword ptr [rdi+0]
	mov r11, qword ptr [rdi+64]
	mov r12, qword ptr [rdi+128]
	mov r13, qword ptr [rdi+192]
	add qword ptr [rdi+2608], rax
	mov r8, qword ptr [rdi+0]
	mov r9, qword ptr [rdi+64]
	mov r10, qword ptr [rdi+128]
	mov r11, qword ptr [rdi+192]
	add qword ptr [rdi+2616], rax
	mov r12, qword ptr [rdi+0]
	mov r13, qword ptr [rdi+64]
	mov r8, qword ptr [rdi+128]
	mov r9, qword ptr [rdi+192]
# LLVM-MCA-END

# LLVM-MCA-BEGIN rrll
	add qword ptr [rdi+2560], rax
	add qword ptr [rdi+2568], rax
	mov r8, qword ptr [rdi+0]
	mov r9, qword ptr [rdi+64]
	add qword ptr [rdi+2576], rax
	add qword ptr [rdi+2584], rax
	mov r10, qword ptr [rdi+128]
	mov r11, qword ptr [rdi+192]
	add qword ptr [rdi+2592], rax
	add qword ptr [rdi+2600], rax
	mov r12, qword ptr [rdi+0]
	mov r13, qword ptr [rdi+64]
	add qword ptr [rdi+2608], rax
	add qword ptr [rdi+2616], rax
	mov r8, qword ptr [rdi+128]
	mov r9, qword ptr [rdi+192]
	add qword ptr [rdi+2560], rax
	add qword ptr [rdi+2568], rax
	mov r10, qword ptr [rdi+0]
	mov r11, qword ptr [rdi+64]
	add qword ptr [rdi+2576], rax
	add qword ptr [rdi+2584], rax
	mov r12, qword ptr [rdi+128]
	mov r13, qword ptr [rdi+192]
	add qword ptr [rdi+2592], rax
	add qword ptr [rdi+2600], rax
	mov r8, qword ptr [rdi+0]
	mov r9, qword ptr [rdi+64]
	add qword ptr [rdi+2608], rax
	add qword ptr [rdi+2616], rax
	mov r10, qword ptr [rdi+128]
	mov r11, qword ptr [rdi+192]
	add qword ptr [rdi+2560], rax
	add qword ptr [rdi+2568], rax
	mov r12, qword ptr [rdi+0]
	mov r13, qword ptr [rdi+64]
	add qword ptr [rdi+2576], rax
	add qword ptr [rdi+2584], rax
	mov r8, qword ptr [rdi+128]
	mov r9, qword ptr [rdi+192]
	add qword ptr [rdi+2592], rax
	add qword ptr [rdi+2600], rax
	mov r10, qword ptr [rdi+0]
	mov r11, qword ptr [rdi+64]
	add qword ptr [rdi+2608], rax
	add qword ptr [rdi+2616], rax
	mov r12, qword ptr [rdi+128]
	mov r13, qword ptr [rdi+192]
# LLVM-MCA-END

# LLVM-MCA-BEGIN rv
	add qword ptr [rdi+2560], rax
	vmovdqu ymm0, ymmword ptr [rdi+0]
	add qword ptr [rdi+2568], rax
	vmovdqu ymm1, ymmword ptr [rdi+32]
	add qword ptr [rdi+2576], rax
	vmovdqu ymm2, ymmword ptr [rdi+64]
	add qword ptr [rdi+2584], rax
	vmovdqu ymm3, ymmword ptr [rdi+96]
	add qword ptr [rdi+2592], rax
	vmovdqu ymm4, ymmword ptr [rdi+0]
	add qword ptr [rdi+2600], rax
	vmovdqu ymm5, ymmword ptr [rdi+32]
	add qword ptr [rdi+2608], rax
	vmovdqu ymm6, ymmword ptr [rdi+64]
	add qword ptr [rdi+2616], rax
	vmovdqu ymm7, ymmword ptr [rdi+96]
	add qword ptr [rdi+2560], rax
	vmovdqu ymm0, ymmword ptr [rdi+0]
	add qword ptr [rdi+2568], rax
	vmovdqu ymm1, ymmword ptr [rdi+32]
	add qword ptr [rdi+2576], rax
	vmovdqu ymm2, ymmword ptr [rdi+64]
	add qword ptr [rdi+2584], rax
	vmovdqu ymm3, ymmword ptr [rdi+96]
	add qword ptr [rdi+2592], rax
	vmovdqu ymm4, ymmword ptr [rdi+0]
	add qword ptr [rdi+2600], rax
	vmovdqu ymm5, ymmword ptr [rdi+32]
	add qword ptr [rdi+2608], rax
	vmovdqu ymm6, ymmword ptr [rdi+64]
	add qword ptr [rdi+2616], rax
	vmovdqu ymm7, ymmword ptr [rdi+96]
	add qword ptr [rdi+2560], rax
	vmovdqu ymm0, ymmword ptr [rdi+0]
	add qword ptr [rdi+2568], rax
	vmovdqu ymm1, ymmword ptr [rdi+32]
	add qword ptr [rdi+2576], rax
	vmovdqu ymm2, ymmword ptr [rdi+64]
	add qword ptr [rdi+2584], rax
	vmovdqu ymm3, ymmword ptr [rdi+96]
	add qword ptr [rdi+2592], rax
	vmovdqu ymm4, ymmword ptr [rdi+0]
	add qword ptr [rdi+2600], rax
	vmovdqu ymm5, ymmword ptr [rdi+32]
	add qword ptr [rdi+2608], rax
	vmovdqu ymm6, ymmword ptr [rdi+64]
	add qword ptr [rdi+2616], rax
	vmovdqu ymm7, ymmword ptr [rdi+96]
# LLVM-MCA-END

# LLVM-MCA-BEGIN ro
	add qword ptr [rdi+2560], rax
	vpaddd ymm0, ymm9, ymmword ptr [rdi+0]
	add qword ptr [rdi+2568], rax
	vpaddd ymm1, ymm9, ymmword ptr [rdi+32]
	add qword ptr [rdi+2576], rax
	vpaddd ymm2, ymm9, ymmword ptr [rdi+64]
	add qword ptr [rdi+2584], rax
	vpaddd ymm3, ymm9, ymmword ptr [rdi+96]
	add qword ptr [rdi+2592], rax
	vpaddd ymm4, ymm9, ymmword ptr [rdi+0]
	add qword ptr [rdi+2600], rax
	vpaddd ymm5, ymm9, ymmword ptr [rdi+32]
	add qword ptr [rdi+2608], rax
	vpaddd ymm6, ymm9, ymmword ptr [rdi+64]
	add qword ptr [rdi+2616], rax
	vpaddd ymm7, ymm9, ymmword ptr [rdi+96]
	add qword ptr [rdi+2560], rax
	vpaddd ymm0, ymm9, ymmword ptr [rdi+0]
	add qword ptr [rdi+2568], rax
	vpaddd ymm1, ymm9, ymmword ptr [rdi+32]
	add qword ptr [rdi+2576], rax
	vpaddd ymm2, ymm9, ymmword ptr [rdi+64]
	add qword ptr [rdi+2584], rax
	vpaddd ymm3, ymm9, ymmword ptr [rdi+96]
	add qword ptr [rdi+2592], rax
	vpaddd ymm4, ymm9, ymmword ptr [rdi+0]
	add qword ptr [rdi+2600], rax
	vpaddd ymm5, ymm9, ymmword ptr [rdi+32]
	add qword ptr [rdi+2608], rax
	vpaddd ymm6, ymm9, ymmword ptr [rdi+64]
	add qword ptr [rdi+2616], rax
	vpaddd ymm7, ymm9, ymmword ptr [rdi+96]
	add qword ptr [rdi+2560], rax
	vpaddd ymm0, ymm9, ymmword ptr [rdi+0]
	add qword ptr [rdi+2568], rax
	vpaddd ymm1, ymm9, ymmword ptr [rdi+32]
	add qword ptr [rdi+2576], rax
	vpaddd ymm2, ymm9, ymmword ptr [rdi+64]
	add qword ptr [rdi+2584], rax
	vpaddd ymm3, ymm9, ymmword ptr [rdi+96]
	add qword ptr [rdi+2592], rax
	vpaddd ymm4, ymm9, ymmword ptr [rdi+0]
	add qword ptr [rdi+2600], rax
	vpaddd ymm5, ymm9, ymmword ptr [rdi+32]
	add qword ptr [rdi+2608], rax
	vpaddd ymm6, ymm9, ymmword ptr [rdi+64]
	add qword ptr [rdi+2616], rax
	vpaddd ymm7, ymm9, ymmword ptr [rdi+96]
# LLVM-MCA-END

# LLVM-MCA-BEGIN ra
	add qword ptr [rdi+2560], rax
	add r10, r9
	add qword ptr [rdi+2568], rax
	add r11, r9
	add qword ptr [rdi+2576], rax
	add r12, r9
	add qword ptr [rdi+2584], rax
	add r13, r9
	add qword ptr [rdi+2592], rax
	add r10, r9
	add qword ptr [rdi+2600], rax
	add r11, r9
	add qword ptr [rdi+2608], rax
	add r12, r9
	add qword ptr [rdi+2616], rax
	add r13, r9
	add qword ptr [rdi+2560], rax
	add r10, r9
	add qword ptr [rdi+2568], rax
	add r11, r9
	add qword ptr [rdi+2576], rax
	add r12, r9
	add qword ptr [rdi+2584], rax
	add r13, r9
	add qword ptr [rdi+2592], rax
	add r10, r9
	add qword ptr [rdi+2600], rax
	add r11, r9
	add qword ptr [rdi+2608], rax
	add r12, r9
	add qword ptr [rdi+2616], rax
	add r13, r9
	add qword ptr [rdi+2560], rax
	add r10, r9
	add qword ptr [rdi+2568], rax
	add r11, r9
	add qword ptr [rdi+2576], rax
	add r12, r9
	add qword ptr [rdi+2584], rax
	add r13, r9
	add qword ptr [rdi+2592], rax
	add r10, r9
	add qword ptr [rdi+2600], rax
	add r11, r9
	add qword ptr [rdi+2608], rax
	add r12, r9
	add qword ptr [rdi+2616], rax
	add r13, r9
# LLVM-MCA-END

# LLVM-MCA-BEGIN rvv
	add qword ptr [rdi+2560], rax
	vmovdqu ymm0, ymmword ptr [rdi+0]
	vmovdqu ymm1, ymmword ptr [rdi+32]
	add qword ptr [rdi+2568], rax
	vmovdqu ymm2, ymmword ptr [rdi+64]
	vmovdqu ymm3, ymmword ptr [rdi+96]
	add qword ptr [rdi+2576], rax
	vmovdqu ymm4, ymmword ptr [rdi+0]
	vmovdqu ymm5, ymmword ptr [rdi+32]
	add qword ptr [rdi+2584], rax
	vmovdqu ymm6, ymmword ptr [rdi+64]
	vmovdqu ymm7, ymmword ptr [rdi+96]
	add qword ptr [rdi+2592], rax
	vmovdqu ymm0, ymmword ptr [rdi+0]
	vmovdqu ymm1, ymmword ptr [rdi+32]
	add qword ptr [rdi+2600], rax
	vmovdqu ymm2, ymmword ptr [rdi+64]
	vmovdqu ymm3, ymmword ptr [rdi+96]
	add qword ptr [rdi+2608], rax
	vmovdqu ymm4, ymmword ptr [rdi+0]
	vmovdqu ymm5, ymmword ptr [rdi+32]
	add qword ptr [rdi+2616], rax
	vmovdqu ymm6, ymmword ptr [rdi+64]
	vmovdqu ymm7, ymmword ptr [rdi+96]
	add qword ptr [rdi+2560], rax
	vmovdqu ymm0, ymmword ptr [rdi+0]
	vmovdqu ymm1, ymmword ptr [rdi+32]
	add qword ptr [rdi+2568], rax
	vmovdqu ymm2, ymmword ptr [rdi+64]
	vmovdqu ymm3, ymmword ptr [rdi+96]
	add qword ptr [rdi+2576], rax
	vmovdqu ymm4, ymmword ptr [rdi+0]
	vmovdqu ymm5, ymmword ptr [rdi+32]
	add qword ptr [rdi+2584], rax
	vmovdqu ymm6, ymmword ptr [rdi+64]
	vmovdqu ymm7, ymmword ptr [rdi+96]
	add qword ptr [rdi+2592], rax
	vmovdqu ymm0, ymmword ptr [rdi+0]
	vmovdqu ymm1, ymmword ptr [rdi+32]
	add qword ptr [rdi+2600], rax
	vmovdqu ymm2, ymmword ptr [rdi+64]
	vmovdqu ymm3, ymmword ptr [rdi+96]
	add qword ptr [rdi+2608], rax
	vmovdqu ymm4, ymmword ptr [rdi+0]
	vmovdqu ymm5, ymmword ptr [rdi+32]
	add qword ptr [rdi+2616], rax
	vmovdqu ymm6, ymmword ptr [rdi+64]
	vmovdqu ymm7, ymmword ptr [rdi+96]
# LLVM-MCA-END
