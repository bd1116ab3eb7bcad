.intel_syntax noprefix
# Loads beside stores and read-modify-writes, and read-modify-writes of
# the same addresses every iteration. Loads read 16 slots of two lines
# from rsi, stores and read-modify-writes write rdx's slots (another 8 KiB
# slot of the scratch, testdata/kernels/README.md). A kernel's body runs
# again and again on the same addresses, so a read-modify-write of an
# address reads what the same instruction wrote one iteration before:
# a chain through memory, whose links are the store-to-load forwarding
# latency and the operation. Each region is one kernel for `portlab
# validate --no-peers testdata/experiments/memory_mixes.s`; docs/models.md
# ("Read-modify-writes of one address chain through memory", "Known
# limits") has what the Zen 3 guest ran: loads beside stores and
# read-modify-writes as the model has them; read-modify-writes of one
# address an iteration at the chain's link (about 6.5 cycles), slower
# with more chains at once; 8- and 16-bit read-modify-writes beside
# loads slower than 32- and 64-bit ones (loads56_rmw32_*: 38 cycles
# against 30-31, 32 predicted).

# loads24: 24 loads, three a cycle
# LLVM-MCA-BEGIN loads24
	mov r8, qword ptr [rsi+0]
	mov r9, qword ptr [rsi+8]
	mov r10, qword ptr [rsi+16]
	mov r11, qword ptr [rsi+24]
	mov r8, qword ptr [rsi+32]
	mov r9, qword ptr [rsi+40]
	mov r10, qword ptr [rsi+48]
	mov r11, qword ptr [rsi+56]
	mov r8, qword ptr [rsi+64]
	mov r9, qword ptr [rsi+72]
	mov r10, qword ptr [rsi+80]
	mov r11, qword ptr [rsi+88]
	mov r8, qword ptr [rsi+96]
	mov r9, qword ptr [rsi+104]
	mov r10, qword ptr [rsi+112]
	mov r11, qword ptr [rsi+120]
	mov r8, qword ptr [rsi+0]
	mov r9, qword ptr [rsi+8]
	mov r10, qword ptr [rsi+16]
	mov r11, qword ptr [rsi+24]
	mov r8, qword ptr [rsi+32]
	mov r9, qword ptr [rsi+40]
	mov r10, qword ptr [rsi+48]
	mov r11, qword ptr [rsi+56]
# LLVM-MCA-END loads24

# loads24_stores8: 24 loads and 8 stores to one line
# LLVM-MCA-BEGIN loads24_stores8
	mov r8, qword ptr [rsi+0]
	mov r9, qword ptr [rsi+8]
	mov r10, qword ptr [rsi+16]
	mov qword ptr [rdx+0], rax
	mov r11, qword ptr [rsi+24]
	mov r8, qword ptr [rsi+32]
	mov r9, qword ptr [rsi+40]
	mov qword ptr [rdx+8], rax
	mov r10, qword ptr [rsi+48]
	mov r11, qword ptr [rsi+56]
	mov r8, qword ptr [rsi+64]
	mov qword ptr [rdx+16], rax
	mov r9, qword ptr [rsi+72]
	mov r10, qword ptr [rsi+80]
	mov r11, qword ptr [rsi+88]
	mov qword ptr [rdx+24], rax
	mov r8, qword ptr [rsi+96]
	mov r9, qword ptr [rsi+104]
	mov r10, qword ptr [rsi+112]
	mov qword ptr [rdx+32], rax
	mov r11, qword ptr [rsi+120]
	mov r8, qword ptr [rsi+0]
	mov r9, qword ptr [rsi+8]
	mov qword ptr [rdx+40], rax
	mov r10, qword ptr [rsi+16]
	mov r11, qword ptr [rsi+24]
	mov r8, qword ptr [rsi+32]
	mov qword ptr [rdx+48], rax
	mov r9, qword ptr [rsi+40]
	mov r10, qword ptr [rsi+48]
	mov r11, qword ptr [rsi+56]
	mov qword ptr [rdx+56], rax
# LLVM-MCA-END loads24_stores8

# loads24_rmw8: 24 loads and 8 read-modify-writes of 8 addresses of one line
# LLVM-MCA-BEGIN loads24_rmw8
	mov r8, qword ptr [rsi+0]
	mov r9, qword ptr [rsi+8]
	mov r10, qword ptr [rsi+16]
	add qword ptr [rdx+0], rax
	mov r11, qword ptr [rsi+24]
	mov r8, qword ptr [rsi+32]
	mov r9, qword ptr [rsi+40]
	add qword ptr [rdx+8], rax
	mov r10, qword ptr [rsi+48]
	mov r11, qword ptr [rsi+56]
	mov r8, qword ptr [rsi+64]
	add qword ptr [rdx+16], rax
	mov r9, qword ptr [rsi+72]
	mov r10, qword ptr [rsi+80]
	mov r11, qword ptr [rsi+88]
	add qword ptr [rdx+24], rax
	mov r8, qword ptr [rsi+96]
	mov r9, qword ptr [rsi+104]
	mov r10, qword ptr [rsi+112]
	add qword ptr [rdx+32], rax
	mov r11, qword ptr [rsi+120]
	mov r8, qword ptr [rsi+0]
	mov r9, qword ptr [rsi+8]
	add qword ptr [rdx+40], rax
	mov r10, qword ptr [rsi+16]
	mov r11, qword ptr [rsi+24]
	mov r8, qword ptr [rsi+32]
	add qword ptr [rdx+48], rax
	mov r9, qword ptr [rsi+40]
	mov r10, qword ptr [rsi+48]
	mov r11, qword ptr [rsi+56]
	add qword ptr [rdx+56], rax
# LLVM-MCA-END loads24_rmw8

# rmw4: 4 read-modify-writes of 4 addresses: 4 chains through memory, a link an iteration
# LLVM-MCA-BEGIN rmw4
	add qword ptr [rdx+0], 1
	add qword ptr [rdx+8], 1
	add qword ptr [rdx+16], 1
	add qword ptr [rdx+24], 1
# LLVM-MCA-END rmw4

# rmw8: 8 read-modify-writes of 8 addresses: 8 chains through memory, a link an iteration
# LLVM-MCA-BEGIN rmw8
	add qword ptr [rdx+0], 1
	add qword ptr [rdx+8], 1
	add qword ptr [rdx+16], 1
	add qword ptr [rdx+24], 1
	add qword ptr [rdx+32], 1
	add qword ptr [rdx+40], 1
	add qword ptr [rdx+48], 1
	add qword ptr [rdx+56], 1
# LLVM-MCA-END rmw8

# rmw16: 16 read-modify-writes of 16 addresses: 16 chains through memory, a link an iteration
# LLVM-MCA-BEGIN rmw16
	add qword ptr [rdx+0], 1
	add qword ptr [rdx+8], 1
	add qword ptr [rdx+16], 1
	add qword ptr [rdx+24], 1
	add qword ptr [rdx+32], 1
	add qword ptr [rdx+40], 1
	add qword ptr [rdx+48], 1
	add qword ptr [rdx+56], 1
	add qword ptr [rdx+64], 1
	add qword ptr [rdx+72], 1
	add qword ptr [rdx+80], 1
	add qword ptr [rdx+88], 1
	add qword ptr [rdx+96], 1
	add qword ptr [rdx+104], 1
	add qword ptr [rdx+112], 1
	add qword ptr [rdx+120], 1
# LLVM-MCA-END rmw16

# rmw32: 32 read-modify-writes of 32 addresses: 32 chains through memory, a link an iteration
# LLVM-MCA-BEGIN rmw32
	add qword ptr [rdx+0], 1
	add qword ptr [rdx+8], 1
	add qword ptr [rdx+16], 1
	add qword ptr [rdx+24], 1
	add qword ptr [rdx+32], 1
	add qword ptr [rdx+40], 1
	add qword ptr [rdx+48], 1
	add qword ptr [rdx+56], 1
	add qword ptr [rdx+64], 1
	add qword ptr [rdx+72], 1
	add qword ptr [rdx+80], 1
	add qword ptr [rdx+88], 1
	add qword ptr [rdx+96], 1
	add qword ptr [rdx+104], 1
	add qword ptr [rdx+112], 1
	add qword ptr [rdx+120], 1
	add qword ptr [rdx+128], 1
	add qword ptr [rdx+136], 1
	add qword ptr [rdx+144], 1
	add qword ptr [rdx+152], 1
	add qword ptr [rdx+160], 1
	add qword ptr [rdx+168], 1
	add qword ptr [rdx+176], 1
	add qword ptr [rdx+184], 1
	add qword ptr [rdx+192], 1
	add qword ptr [rdx+200], 1
	add qword ptr [rdx+208], 1
	add qword ptr [rdx+216], 1
	add qword ptr [rdx+224], 1
	add qword ptr [rdx+232], 1
	add qword ptr [rdx+240], 1
	add qword ptr [rdx+248], 1
# LLVM-MCA-END rmw32

# rmw8_twice: 16 read-modify-writes of 8 addresses: two links of each chain an iteration
# LLVM-MCA-BEGIN rmw8_twice
	add qword ptr [rdx+0], 1
	add qword ptr [rdx+8], 1
	add qword ptr [rdx+16], 1
	add qword ptr [rdx+24], 1
	add qword ptr [rdx+32], 1
	add qword ptr [rdx+40], 1
	add qword ptr [rdx+48], 1
	add qword ptr [rdx+56], 1
	add qword ptr [rdx+0], 1
	add qword ptr [rdx+8], 1
	add qword ptr [rdx+16], 1
	add qword ptr [rdx+24], 1
	add qword ptr [rdx+32], 1
	add qword ptr [rdx+40], 1
	add qword ptr [rdx+48], 1
	add qword ptr [rdx+56], 1
# LLVM-MCA-END rmw8_twice

# rmw24: 24 read-modify-writes of 24 addresses (three lines): the store commit's 12 cycles
# LLVM-MCA-BEGIN rmw24
	add qword ptr [rdx+0], rax
	add qword ptr [rdx+8], rax
	add qword ptr [rdx+16], rax
	add qword ptr [rdx+24], rax
	add qword ptr [rdx+32], rax
	add qword ptr [rdx+40], rax
	add qword ptr [rdx+48], rax
	add qword ptr [rdx+56], rax
	add qword ptr [rdx+64], rax
	add qword ptr [rdx+72], rax
	add qword ptr [rdx+80], rax
	add qword ptr [rdx+88], rax
	add qword ptr [rdx+96], rax
	add qword ptr [rdx+104], rax
	add qword ptr [rdx+112], rax
	add qword ptr [rdx+120], rax
	add qword ptr [rdx+128], rax
	add qword ptr [rdx+136], rax
	add qword ptr [rdx+144], rax
	add qword ptr [rdx+152], rax
	add qword ptr [rdx+160], rax
	add qword ptr [rdx+168], rax
	add qword ptr [rdx+176], rax
	add qword ptr [rdx+184], rax
# LLVM-MCA-END rmw24

# loads24_rmw24: 24 loads and 24 read-modify-writes, the loads at the same offsets in their 4 KiB page as the first 16 read-modify-writes
# LLVM-MCA-BEGIN loads24_rmw24
	add qword ptr [rdx+0], rax
	mov r8, qword ptr [rsi+0]
	add qword ptr [rdx+8], rax
	mov r9, qword ptr [rsi+8]
	add qword ptr [rdx+16], rax
	mov r10, qword ptr [rsi+16]
	add qword ptr [rdx+24], rax
	mov r11, qword ptr [rsi+24]
	add qword ptr [rdx+32], rax
	mov r8, qword ptr [rsi+32]
	add qword ptr [rdx+40], rax
	mov r9, qword ptr [rsi+40]
	add qword ptr [rdx+48], rax
	mov r10, qword ptr [rsi+48]
	add qword ptr [rdx+56], rax
	mov r11, qword ptr [rsi+56]
	add qword ptr [rdx+64], rax
	mov r8, qword ptr [rsi+64]
	add qword ptr [rdx+72], rax
	mov r9, qword ptr [rsi+72]
	add qword ptr [rdx+80], rax
	mov r10, qword ptr [rsi+80]
	add qword ptr [rdx+88], rax
	mov r11, qword ptr [rsi+88]
	add qword ptr [rdx+96], rax
	mov r8, qword ptr [rsi+96]
	add qword ptr [rdx+104], rax
	mov r9, qword ptr [rsi+104]
	add qword ptr [rdx+112], rax
	mov r10, qword ptr [rsi+112]
	add qword ptr [rdx+120], rax
	mov r11, qword ptr [rsi+120]
	add qword ptr [rdx+128], rax
	mov r8, qword ptr [rsi+0]
	add qword ptr [rdx+136], rax
	mov r9, qword ptr [rsi+8]
	add qword ptr [rdx+144], rax
	mov r10, qword ptr [rsi+16]
	add qword ptr [rdx+152], rax
	mov r11, qword ptr [rsi+24]
	add qword ptr [rdx+160], rax
	mov r8, qword ptr [rsi+32]
	add qword ptr [rdx+168], rax
	mov r9, qword ptr [rsi+40]
	add qword ptr [rdx+176], rax
	mov r10, qword ptr [rsi+48]
	add qword ptr [rdx+184], rax
	mov r11, qword ptr [rsi+56]
# LLVM-MCA-END loads24_rmw24

# loads24_rmw24_apart: the same with the loads 1 KiB on, apart from every read-modify-write in the page
# LLVM-MCA-BEGIN loads24_rmw24_apart
	add qword ptr [rdx+0], rax
	mov r8, qword ptr [rsi+1024]
	add qword ptr [rdx+8], rax
	mov r9, qword ptr [rsi+1032]
	add qword ptr [rdx+16], rax
	mov r10, qword ptr [rsi+1040]
	add qword ptr [rdx+24], rax
	mov r11, qword ptr [rsi+1048]
	add qword ptr [rdx+32], rax
	mov r8, qword ptr [rsi+1056]
	add qword ptr [rdx+40], rax
	mov r9, qword ptr [rsi+1064]
	add qword ptr [rdx+48], rax
	mov r10, qword ptr [rsi+1072]
	add qword ptr [rdx+56], rax
	mov r11, qword ptr [rsi+1080]
	add qword ptr [rdx+64], rax
	mov r8, qword ptr [rsi+1088]
	add qword ptr [rdx+72], rax
	mov r9, qword ptr [rsi+1096]
	add qword ptr [rdx+80], rax
	mov r10, qword ptr [rsi+1104]
	add qword ptr [rdx+88], rax
	mov r11, qword ptr [rsi+1112]
	add qword ptr [rdx+96], rax
	mov r8, qword ptr [rsi+1120]
	add qword ptr [rdx+104], rax
	mov r9, qword ptr [rsi+1128]
	add qword ptr [rdx+112], rax
	mov r10, qword ptr [rsi+1136]
	add qword ptr [rdx+120], rax
	mov r11, qword ptr [rsi+1144]
	add qword ptr [rdx+128], rax
	mov r8, qword ptr [rsi+1024]
	add qword ptr [rdx+136], rax
	mov r9, qword ptr [rsi+1032]
	add qword ptr [rdx+144], rax
	mov r10, qword ptr [rsi+1040]
	add qword ptr [rdx+152], rax
	mov r11, qword ptr [rsi+1048]
	add qword ptr [rdx+160], rax
	mov r8, qword ptr [rsi+1056]
	add qword ptr [rdx+168], rax
	mov r9, qword ptr [rsi+1064]
	add qword ptr [rdx+176], rax
	mov r10, qword ptr [rsi+1072]
	add qword ptr [rdx+184], rax
	mov r11, qword ptr [rsi+1080]
# LLVM-MCA-END loads24_rmw24_apart

# loads56_rmw32_narrow8: 56 loads and 32 byte read-modify-writes of 32 addresses
# LLVM-MCA-BEGIN loads56_rmw32_narrow8
	mov rax, qword ptr [rsi+0]
	sub byte ptr [rdx+0], cl
	mov rcx, qword ptr [rsi+8]
	mov rax, qword ptr [rsi+16]
	sub byte ptr [rdx+8], cl
	mov rcx, qword ptr [rsi+24]
	mov rax, qword ptr [rsi+32]
	sub byte ptr [rdx+16], cl
	mov rcx, qword ptr [rsi+40]
	sub byte ptr [rdx+24], cl
	mov rax, qword ptr [rsi+48]
	mov rcx, qword ptr [rsi+56]
	sub byte ptr [rdx+32], cl
	mov rax, qword ptr [rsi+64]
	mov rcx, qword ptr [rsi+72]
	sub byte ptr [rdx+40], cl
	mov rax, qword ptr [rsi+80]
	mov rcx, qword ptr [rsi+88]
	sub byte ptr [rdx+48], cl
	mov rax, qword ptr [rsi+96]
	sub byte ptr [rdx+56], cl
	mov rcx, qword ptr [rsi+104]
	mov rax, qword ptr [rsi+112]
	sub byte ptr [rdx+64], cl
	mov rcx, qword ptr [rsi+120]
	mov rax, qword ptr [rsi+0]
	sub byte ptr [rdx+72], cl
	mov rcx, qword ptr [rsi+8]
	mov rax, qword ptr [rsi+16]
	sub byte ptr [rdx+80], cl
	mov rcx, qword ptr [rsi+24]
	sub byte ptr [rdx+88], cl
	mov rax, qword ptr [rsi+32]
	mov rcx, qword ptr [rsi+40]
	sub byte ptr [rdx+96], cl
	mov rax, qword ptr [rsi+48]
	mov rcx, qword ptr [rsi+56]
	sub byte ptr [rdx+104], cl
	mov rax, qword ptr [rsi+64]
	mov rcx, qword ptr [rsi+72]
	sub byte ptr [rdx+112], cl
	mov rax, qword ptr [rsi+80]
	sub byte ptr [rdx+120], cl
	mov rcx, qword ptr [rsi+88]
	mov rax, qword ptr [rsi+96]
	sub byte ptr [rdx+128], cl
	mov rcx, qword ptr [rsi+104]
	mov rax, qword ptr [rsi+112]
	sub byte ptr [rdx+136], cl
	mov rcx, qword ptr [rsi+120]
	mov rax, qword ptr [rsi+0]
	sub byte ptr [rdx+144], cl
	mov rcx, qword ptr [rsi+8]
	sub byte ptr [rdx+152], cl
	mov rax, qword ptr [rsi+16]
	mov rcx, qword ptr [rsi+24]
	sub byte ptr [rdx+160], cl
	mov rax, qword ptr [rsi+32]
	mov rcx, qword ptr [rsi+40]
	sub byte ptr [rdx+168], cl
	mov rax, qword ptr [rsi+48]
	mov rcx, qword ptr [rsi+56]
	sub byte ptr [rdx+176], cl
	mov rax, qword ptr [rsi+64]
	sub byte ptr [rdx+184], cl
	mov rcx, qword ptr [rsi+72]
	mov rax, qword ptr [rsi+80]
	sub byte ptr [rdx+192], cl
	mov rcx, qword ptr [rsi+88]
	mov rax, qword ptr [rsi+96]
	sub byte ptr [rdx+200], cl
	mov rcx, qword ptr [rsi+104]
	mov rax, qword ptr [rsi+112]
	sub byte ptr [rdx+208], cl
	mov rcx, qword ptr [rsi+120]
	sub byte ptr [rdx+216], cl
	mov rax, qword ptr [rsi+0]
	mov rcx, qword ptr [rsi+8]
	sub byte ptr [rdx+224], cl
	mov rax, qword ptr [rsi+16]
	mov rcx, qword ptr [rsi+24]
	sub byte ptr [rdx+232], cl
	mov rax, qword ptr [rsi+32]
	mov rcx, qword ptr [rsi+40]
	sub byte ptr [rdx+240], cl
	mov rax, qword ptr [rsi+48]
	sub byte ptr [rdx+248], cl
	mov rcx, qword ptr [rsi+56]
# LLVM-MCA-END loads56_rmw32_narrow8

# loads56_rmw32_narrow16: 56 loads and 32 word read-modify-writes of 32 addresses
# LLVM-MCA-BEGIN loads56_rmw32_narrow16
	mov rax, qword ptr [rsi+0]
	sub word ptr [rdx+0], cx
	mov rcx, qword ptr [rsi+8]
	mov rax, qword ptr [rsi+16]
	sub word ptr [rdx+8], cx
	mov rcx, qword ptr [rsi+24]
	mov rax, qword ptr [rsi+32]
	sub word ptr [rdx+16], cx
	mov rcx, qword ptr [rsi+40]
	sub word ptr [rdx+24], cx
	mov rax, qword ptr [rsi+48]
	mov rcx, qword ptr [rsi+56]
	sub word ptr [rdx+32], cx
	mov rax, qword ptr [rsi+64]
	mov rcx, qword ptr [rsi+72]
	sub word ptr [rdx+40], cx
	mov rax, qword ptr [rsi+80]
	mov rcx, qword ptr [rsi+88]
	sub word ptr [rdx+48], cx
	mov rax, qword ptr [rsi+96]
	sub word ptr [rdx+56], cx
	mov rcx, qword ptr [rsi+104]
	mov rax, qword ptr [rsi+112]
	sub word ptr [rdx+64], cx
	mov rcx, qword ptr [rsi+120]
	mov rax, qword ptr [rsi+0]
	sub word ptr [rdx+72], cx
	mov rcx, qword ptr [rsi+8]
	mov rax, qword ptr [rsi+16]
	sub word ptr [rdx+80], cx
	mov rcx, qword ptr [rsi+24]
	sub word ptr [rdx+88], cx
	mov rax, qword ptr [rsi+32]
	mov rcx, qword ptr [rsi+40]
	sub word ptr [rdx+96], cx
	mov rax, qword ptr [rsi+48]
	mov rcx, qword ptr [rsi+56]
	sub word ptr [rdx+104], cx
	mov rax, qword ptr [rsi+64]
	mov rcx, qword ptr [rsi+72]
	sub word ptr [rdx+112], cx
	mov rax, qword ptr [rsi+80]
	sub word ptr [rdx+120], cx
	mov rcx, qword ptr [rsi+88]
	mov rax, qword ptr [rsi+96]
	sub word ptr [rdx+128], cx
	mov rcx, qword ptr [rsi+104]
	mov rax, qword ptr [rsi+112]
	sub word ptr [rdx+136], cx
	mov rcx, qword ptr [rsi+120]
	mov rax, qword ptr [rsi+0]
	sub word ptr [rdx+144], cx
	mov rcx, qword ptr [rsi+8]
	sub word ptr [rdx+152], cx
	mov rax, qword ptr [rsi+16]
	mov rcx, qword ptr [rsi+24]
	sub word ptr [rdx+160], cx
	mov rax, qword ptr [rsi+32]
	mov rcx, qword ptr [rsi+40]
	sub word ptr [rdx+168], cx
	mov rax, qword ptr [rsi+48]
	mov rcx, qword ptr [rsi+56]
	sub word ptr [rdx+176], cx
	mov rax, qword ptr [rsi+64]
	sub word ptr [rdx+184], cx
	mov rcx, qword ptr [rsi+72]
	mov rax, qword ptr [rsi+80]
	sub word ptr [rdx+192], cx
	mov rcx, qword ptr [rsi+88]
	mov rax, qword ptr [rsi+96]
	sub word ptr [rdx+200], cx
	mov rcx, qword ptr [rsi+104]
	mov rax, qword ptr [rsi+112]
	sub word ptr [rdx+208], cx
	mov rcx, qword ptr [rsi+120]
	sub word ptr [rdx+216], cx
	mov rax, qword ptr [rsi+0]
	mov rcx, qword ptr [rsi+8]
	sub word ptr [rdx+224], cx
	mov rax, qword ptr [rsi+16]
	mov rcx, qword ptr [rsi+24]
	sub word ptr [rdx+232], cx
	mov rax, qword ptr [rsi+32]
	mov rcx, qword ptr [rsi+40]
	sub word ptr [rdx+240], cx
	mov rax, qword ptr [rsi+48]
	sub word ptr [rdx+248], cx
	mov rcx, qword ptr [rsi+56]
# LLVM-MCA-END loads56_rmw32_narrow16

# loads56_rmw32_wide32: 56 loads and 32 dword read-modify-writes of 32 addresses
# LLVM-MCA-BEGIN loads56_rmw32_wide32
	mov rax, qword ptr [rsi+0]
	sub dword ptr [rdx+0], ecx
	mov rcx, qword ptr [rsi+8]
	mov rax, qword ptr [rsi+16]
	sub dword ptr [rdx+8], ecx
	mov rcx, qword ptr [rsi+24]
	mov rax, qword ptr [rsi+32]
	sub dword ptr [rdx+16], ecx
	mov rcx, qword ptr [rsi+40]
	sub dword ptr [rdx+24], ecx
	mov rax, qword ptr [rsi+48]
	mov rcx, qword ptr [rsi+56]
	sub dword ptr [rdx+32], ecx
	mov rax, qword ptr [rsi+64]
	mov rcx, qword ptr [rsi+72]
	sub dword ptr [rdx+40], ecx
	mov rax, qword ptr [rsi+80]
	mov rcx, qword ptr [rsi+88]
	sub dword ptr [rdx+48], ecx
	mov rax, qword ptr [rsi+96]
	sub dword ptr [rdx+56], ecx
	mov rcx, qword ptr [rsi+104]
	mov rax, qword ptr [rsi+112]
	sub dword ptr [rdx+64], ecx
	mov rcx, qword ptr [rsi+120]
	mov rax, qword ptr [rsi+0]
	sub dword ptr [rdx+72], ecx
	mov rcx, qword ptr [rsi+8]
	mov rax, qword ptr [rsi+16]
	sub dword ptr [rdx+80], ecx
	mov rcx, qword ptr [rsi+24]
	sub dword ptr [rdx+88], ecx
	mov rax, qword ptr [rsi+32]
	mov rcx, qword ptr [rsi+40]
	sub dword ptr [rdx+96], ecx
	mov rax, qword ptr [rsi+48]
	mov rcx, qword ptr [rsi+56]
	sub dword ptr [rdx+104], ecx
	mov rax, qword ptr [rsi+64]
	mov rcx, qword ptr [rsi+72]
	sub dword ptr [rdx+112], ecx
	mov rax, qword ptr [rsi+80]
	sub dword ptr [rdx+120], ecx
	mov rcx, qword ptr [rsi+88]
	mov rax, qword ptr [rsi+96]
	sub dword ptr [rdx+128], ecx
	mov rcx, qword ptr [rsi+104]
	mov rax, qword ptr [rsi+112]
	sub dword ptr [rdx+136], ecx
	mov rcx, qword ptr [rsi+120]
	mov rax, qword ptr [rsi+0]
	sub dword ptr [rdx+144], ecx
	mov rcx, qword ptr [rsi+8]
	sub dword ptr [rdx+152], ecx
	mov rax, qword ptr [rsi+16]
	mov rcx, qword ptr [rsi+24]
	sub dword ptr [rdx+160], ecx
	mov rax, qword ptr [rsi+32]
	mov rcx, qword ptr [rsi+40]
	sub dword ptr [rdx+168], ecx
	mov rax, qword ptr [rsi+48]
	mov rcx, qword ptr [rsi+56]
	sub dword ptr [rdx+176], ecx
	mov rax, qword ptr [rsi+64]
	sub dword ptr [rdx+184], ecx
	mov rcx, qword ptr [rsi+72]
	mov rax, qword ptr [rsi+80]
	sub dword ptr [rdx+192], ecx
	mov rcx, qword ptr [rsi+88]
	mov rax, qword ptr [rsi+96]
	sub dword ptr [rdx+200], ecx
	mov rcx, qword ptr [rsi+104]
	mov rax, qword ptr [rsi+112]
	sub dword ptr [rdx+208], ecx
	mov rcx, qword ptr [rsi+120]
	sub dword ptr [rdx+216], ecx
	mov rax, qword ptr [rsi+0]
	mov rcx, qword ptr [rsi+8]
	sub dword ptr [rdx+224], ecx
	mov rax, qword ptr [rsi+16]
	mov rcx, qword ptr [rsi+24]
	sub dword ptr [rdx+232], ecx
	mov rax, qword ptr [rsi+32]
	mov rcx, qword ptr [rsi+40]
	sub dword ptr [rdx+240], ecx
	mov rax, qword ptr [rsi+48]
	sub dword ptr [rdx+248], ecx
	mov rcx, qword ptr [rsi+56]
# LLVM-MCA-END loads56_rmw32_wide32

# loads56_rmw32_wide64: 56 loads and 32 qword read-modify-writes of 32 addresses
# LLVM-MCA-BEGIN loads56_rmw32_wide64
	mov rax, qword ptr [rsi+0]
	sub qword ptr [rdx+0], rcx
	mov rcx, qword ptr [rsi+8]
	mov rax, qword ptr [rsi+16]
	sub qword ptr [rdx+8], rcx
	mov rcx, qword ptr [rsi+24]
	mov rax, qword ptr [rsi+32]
	sub qword ptr [rdx+16], rcx
	mov rcx, qword ptr [rsi+40]
	sub qword ptr [rdx+24], rcx
	mov rax, qword ptr [rsi+48]
	mov rcx, qword ptr [rsi+56]
	sub qword ptr [rdx+32], rcx
	mov rax, qword ptr [rsi+64]
	mov rcx, qword ptr [rsi+72]
	sub qword ptr [rdx+40], rcx
	mov rax, qword ptr [rsi+80]
	mov rcx, qword ptr [rsi+88]
	sub qword ptr [rdx+48], rcx
	mov rax, qword ptr [rsi+96]
	sub qword ptr [rdx+56], rcx
	mov rcx, qword ptr [rsi+104]
	mov rax, qword ptr [rsi+112]
	sub qword ptr [rdx+64], rcx
	mov rcx, qword ptr [rsi+120]
	mov rax, qword ptr [rsi+0]
	sub qword ptr [rdx+72], rcx
	mov rcx, qword ptr [rsi+8]
	mov rax, qword ptr [rsi+16]
	sub qword ptr [rdx+80], rcx
	mov rcx, qword ptr [rsi+24]
	sub qword ptr [rdx+88], rcx
	mov rax, qword ptr [rsi+32]
	mov rcx, qword ptr [rsi+40]
	sub qword ptr [rdx+96], rcx
	mov rax, qword ptr [rsi+48]
	mov rcx, qword ptr [rsi+56]
	sub qword ptr [rdx+104], rcx
	mov rax, qword ptr [rsi+64]
	mov rcx, qword ptr [rsi+72]
	sub qword ptr [rdx+112], rcx
	mov rax, qword ptr [rsi+80]
	sub qword ptr [rdx+120], rcx
	mov rcx, qword ptr [rsi+88]
	mov rax, qword ptr [rsi+96]
	sub qword ptr [rdx+128], rcx
	mov rcx, qword ptr [rsi+104]
	mov rax, qword ptr [rsi+112]
	sub qword ptr [rdx+136], rcx
	mov rcx, qword ptr [rsi+120]
	mov rax, qword ptr [rsi+0]
	sub qword ptr [rdx+144], rcx
	mov rcx, qword ptr [rsi+8]
	sub qword ptr [rdx+152], rcx
	mov rax, qword ptr [rsi+16]
	mov rcx, qword ptr [rsi+24]
	sub qword ptr [rdx+160], rcx
	mov rax, qword ptr [rsi+32]
	mov rcx, qword ptr [rsi+40]
	sub qword ptr [rdx+168], rcx
	mov rax, qword ptr [rsi+48]
	mov rcx, qword ptr [rsi+56]
	sub qword ptr [rdx+176], rcx
	mov rax, qword ptr [rsi+64]
	sub qword ptr [rdx+184], rcx
	mov rcx, qword ptr [rsi+72]
	mov rax, qword ptr [rsi+80]
	sub qword ptr [rdx+192], rcx
	mov rcx, qword ptr [rsi+88]
	mov rax, qword ptr [rsi+96]
	sub qword ptr [rdx+200], rcx
	mov rcx, qword ptr [rsi+104]
	mov rax, qword ptr [rsi+112]
	sub qword ptr [rdx+208], rcx
	mov rcx, qword ptr [rsi+120]
	sub qword ptr [rdx+216], rcx
	mov rax, qword ptr [rsi+0]
	mov rcx, qword ptr [rsi+8]
	sub qword ptr [rdx+224], rcx
	mov rax, qword ptr [rsi+16]
	mov rcx, qword ptr [rsi+24]
	sub qword ptr [rdx+232], rcx
	mov rax, qword ptr [rsi+32]
	mov rcx, qword ptr [rsi+40]
	sub qword ptr [rdx+240], rcx
	mov rax, qword ptr [rsi+48]
	sub qword ptr [rdx+248], rcx
	mov rcx, qword ptr [rsi+56]
# LLVM-MCA-END loads56_rmw32_wide64
