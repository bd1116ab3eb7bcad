.intel_syntax noprefix
# Integer read-modify-writes beside 512-bit FP work. Each region is one
# kernel for `portlab validate --no-peers testdata/experiments/rmw_beside_512.s`:
# 16 instances of a 512-bit (or 256-bit) vector form a copy, each followed
# by n `or qword ptr [rdi+D], rax` (a read-modify-write; 32 of them alone
# take 17.7 cycles on the Zen 4 guest) on 32 addresses 8 bytes apart. By
# the ports the two run side by side.
# On the Zen 4 guest (docs/method.md, "Port assignment at allocation") two
# read-modify-writes after each 512-bit op of one a cycle (vmaxpd, vaddpd,
# vmulpd, vpermd zmm) run in series (32 cycles for 16-17.7), one or three
# do not, and neither do plain stores, 256-bit ops or vpaddq zmm (two a
# cycle); four register adds after each vmaxpd zmm take 20.6, after the
# same FP work as two vmaxpd ymm 16.0, and with a vpaddd ymm added to
# each vmaxpd zmm (more work) 16.0 again. Every vector destination
# alternates between two registers that nothing reads.

# rmw_alone: 32 read-modify-writes (16.00 by the ports)
# LLVM-MCA-BEGIN rmw_alone
	or qword ptr [rdi+3024], rax
	or qword ptr [rdi+3032], rax
	or qword ptr [rdi+3040], rax
	or qword ptr [rdi+3048], rax
	or qword ptr [rdi+3056], rax
	or qword ptr [rdi+3064], rax
	or qword ptr [rdi+3072], rax
	or qword ptr [rdi+3080], rax
	or qword ptr [rdi+3088], rax
	or qword ptr [rdi+3096], rax
	or qword ptr [rdi+3104], rax
	or qword ptr [rdi+3112], rax
	or qword ptr [rdi+3120], rax
	or qword ptr [rdi+3128], rax
	or qword ptr [rdi+3136], rax
	or qword ptr [rdi+3144], rax
	or qword ptr [rdi+3152], rax
	or qword ptr [rdi+3160], rax
	or qword ptr [rdi+3168], rax
	or qword ptr [rdi+3176], rax
	or qword ptr [rdi+3184], rax
	or qword ptr [rdi+3192], rax
	or qword ptr [rdi+3200], rax
	or qword ptr [rdi+3208], rax
	or qword ptr [rdi+3216], rax
	or qword ptr [rdi+3224], rax
	or qword ptr [rdi+3232], rax
	or qword ptr [rdi+3240], rax
	or qword ptr [rdi+3248], rax
	or qword ptr [rdi+3256], rax
	or qword ptr [rdi+3264], rax
	or qword ptr [rdi+3272], rax
# LLVM-MCA-END

# vmaxpd_zmm_alone: 16 vmaxpd zmm (16.00)
# LLVM-MCA-BEGIN vmaxpd_zmm_alone
	vmaxpd zmm0, zmm2, zmm3
	vmaxpd zmm1, zmm2, zmm3
	vmaxpd zmm0, zmm2, zmm3
	vmaxpd zmm1, zmm2, zmm3
	vmaxpd zmm0, zmm2, zmm3
	vmaxpd zmm1, zmm2, zmm3
	vmaxpd zmm0, zmm2, zmm3
	vmaxpd zmm1, zmm2, zmm3
	vmaxpd zmm0, zmm2, zmm3
	vmaxpd zmm1, zmm2, zmm3
	vmaxpd zmm0, zmm2, zmm3
	vmaxpd zmm1, zmm2, zmm3
	vmaxpd zmm0, zmm2, zmm3
	vmaxpd zmm1, zmm2, zmm3
	vmaxpd zmm0, zmm2, zmm3
	vmaxpd zmm1, zmm2, zmm3
# LLVM-MCA-END

# vmaxpd_zmm_1: one read-modify-write after each (16.00)
# LLVM-MCA-BEGIN vmaxpd_zmm_1
	vmaxpd zmm0, zmm2, zmm3
	or qword ptr [rdi+3024], rax
	vmaxpd zmm1, zmm2, zmm3
	or qword ptr [rdi+3032], rax
	vmaxpd zmm0, zmm2, zmm3
	or qword ptr [rdi+3040], rax
	vmaxpd zmm1, zmm2, zmm3
	or qword ptr [rdi+3048], rax
	vmaxpd zmm0, zmm2, zmm3
	or qword ptr [rdi+3056], rax
	vmaxpd zmm1, zmm2, zmm3
	or qword ptr [rdi+3064], rax
	vmaxpd zmm0, zmm2, zmm3
	or qword ptr [rdi+3072], rax
	vmaxpd zmm1, zmm2, zmm3
	or qword ptr [rdi+3080], rax
	vmaxpd zmm0, zmm2, zmm3
	or qword ptr [rdi+3088], rax
	vmaxpd zmm1, zmm2, zmm3
	or qword ptr [rdi+3096], rax
	vmaxpd zmm0, zmm2, zmm3
	or qword ptr [rdi+3104], rax
	vmaxpd zmm1, zmm2, zmm3
	or qword ptr [rdi+3112], rax
	vmaxpd zmm0, zmm2, zmm3
	or qword ptr [rdi+3120], rax
	vmaxpd zmm1, zmm2, zmm3
	or qword ptr [rdi+3128], rax
	vmaxpd zmm0, zmm2, zmm3
	or qword ptr [rdi+3136], rax
	vmaxpd zmm1, zmm2, zmm3
	or qword ptr [rdi+3144], rax
# LLVM-MCA-END

# vmaxpd_zmm_2: two after each (16.00)
# LLVM-MCA-BEGIN vmaxpd_zmm_2
	vmaxpd zmm0, zmm2, zmm3
	or qword ptr [rdi+3024], rax
	or qword ptr [rdi+3032], rax
	vmaxpd zmm1, zmm2, zmm3
	or qword ptr [rdi+3040], rax
	or qword ptr [rdi+3048], rax
	vmaxpd zmm0, zmm2, zmm3
	or qword ptr [rdi+3056], rax
	or qword ptr [rdi+3064], rax
	vmaxpd zmm1, zmm2, zmm3
	or qword ptr [rdi+3072], rax
	or qword ptr [rdi+3080], rax
	vmaxpd zmm0, zmm2, zmm3
	or qword ptr [rdi+3088], rax
	or qword ptr [rdi+3096], rax
	vmaxpd zmm1, zmm2, zmm3
	or qword ptr [rdi+3104], rax
	or qword ptr [rdi+3112], rax
	vmaxpd zmm0, zmm2, zmm3
	or qword ptr [rdi+3120], rax
	or qword ptr [rdi+3128], rax
	vmaxpd zmm1, zmm2, zmm3
	or qword ptr [rdi+3136], rax
	or qword ptr [rdi+3144], rax
	vmaxpd zmm0, zmm2, zmm3
	or qword ptr [rdi+3152], rax
	or qword ptr [rdi+3160], rax
	vmaxpd zmm1, zmm2, zmm3
	or qword ptr [rdi+3168], rax
	or qword ptr [rdi+3176], rax
	vmaxpd zmm0, zmm2, zmm3
	or qword ptr [rdi+3184], rax
	or qword ptr [rdi+3192], rax
	vmaxpd zmm1, zmm2, zmm3
	or qword ptr [rdi+3200], rax
	or qword ptr [rdi+3208], rax
	vmaxpd zmm0, zmm2, zmm3
	or qword ptr [rdi+3216], rax
	or qword ptr [rdi+3224], rax
	vmaxpd zmm1, zmm2, zmm3
	or qword ptr [rdi+3232], rax
	or qword ptr [rdi+3240], rax
	vmaxpd zmm0, zmm2, zmm3
	or qword ptr [rdi+3248], rax
	or qword ptr [rdi+3256], rax
	vmaxpd zmm1, zmm2, zmm3
	or qword ptr [rdi+3264], rax
	or qword ptr [rdi+3272], rax
# LLVM-MCA-END

# vmaxpd_zmm_3: three after each (24.00)
# LLVM-MCA-BEGIN vmaxpd_zmm_3
	vmaxpd zmm0, zmm2, zmm3
	or qword ptr [rdi+3024], rax
	or qword ptr [rdi+3032], rax
	or qword ptr [rdi+3040], rax
	vmaxpd zmm1, zmm2, zmm3
	or qword ptr [rdi+3048], rax
	or qword ptr [rdi+3056], rax
	or qword ptr [rdi+3064], rax
	vmaxpd zmm0, zmm2, zmm3
	or qword ptr [rdi+3072], rax
	or qword ptr [rdi+3080], rax
	or qword ptr [rdi+3088], rax
	vmaxpd zmm1, zmm2, zmm3
	or qword ptr [rdi+3096], rax
	or qword ptr [rdi+3104], rax
	or qword ptr [rdi+3112], rax
	vmaxpd zmm0, zmm2, zmm3
	or qword ptr [rdi+3120], rax
	or qword ptr [rdi+3128], rax
	or qword ptr [rdi+3136], rax
	vmaxpd zmm1, zmm2, zmm3
	or qword ptr [rdi+3144], rax
	or qword ptr [rdi+3152], rax
	or qword ptr [rdi+3160], rax
	vmaxpd zmm0, zmm2, zmm3
	or qword ptr [rdi+3168], rax
	or qword ptr [rdi+3176], rax
	or qword ptr [rdi+3184], rax
	vmaxpd zmm1, zmm2, zmm3
	or qword ptr [rdi+3192], rax
	or qword ptr [rdi+3200], rax
	or qword ptr [rdi+3208], rax
	vmaxpd zmm0, zmm2, zmm3
	or qword ptr [rdi+3216], rax
	or qword ptr [rdi+3224], rax
	or qword ptr [rdi+3232], rax
	vmaxpd zmm1, zmm2, zmm3
	or qword ptr [rdi+3240], rax
	or qword ptr [rdi+3248], rax
	or qword ptr [rdi+3256], rax
	vmaxpd zmm0, zmm2, zmm3
	or qword ptr [rdi+3264], rax
	or qword ptr [rdi+3272], rax
	or qword ptr [rdi+3024], rax
	vmaxpd zmm1, zmm2, zmm3
	or qword ptr [rdi+3032], rax
	or qword ptr [rdi+3040], rax
	or qword ptr [rdi+3048], rax
	vmaxpd zmm0, zmm2, zmm3
	or qword ptr [rdi+3056], rax
	or qword ptr [rdi+3064], rax
	or qword ptr [rdi+3072], rax
	vmaxpd zmm1, zmm2, zmm3
	or qword ptr [rdi+3080], rax
	or qword ptr [rdi+3088], rax
	or qword ptr [rdi+3096], rax
	vmaxpd zmm0, zmm2, zmm3
	or qword ptr [rdi+3104], rax
	or qword ptr [rdi+3112], rax
	or qword ptr [rdi+3120], rax
	vmaxpd zmm1, zmm2, zmm3
	or qword ptr [rdi+3128], rax
	or qword ptr [rdi+3136], rax
	or qword ptr [rdi+3144], rax
# LLVM-MCA-END

# vaddpd_zmm_2: two after each vaddpd zmm (16.00)
# LLVM-MCA-BEGIN vaddpd_zmm_2
	vaddpd zmm0, zmm2, zmm3
	or qword ptr [rdi+3024], rax
	or qword ptr [rdi+3032], rax
	vaddpd zmm1, zmm2, zmm3
	or qword ptr [rdi+3040], rax
	or qword ptr [rdi+3048], rax
	vaddpd zmm0, zmm2, zmm3
	or qword ptr [rdi+3056], rax
	or qword ptr [rdi+3064], rax
	vaddpd zmm1, zmm2, zmm3
	or qword ptr [rdi+3072], rax
	or qword ptr [rdi+3080], rax
	vaddpd zmm0, zmm2, zmm3
	or qword ptr [rdi+3088], rax
	or qword ptr [rdi+3096], rax
	vaddpd zmm1, zmm2, zmm3
	or qword ptr [rdi+3104], rax
	or qword ptr [rdi+3112], rax
	vaddpd zmm0, zmm2, zmm3
	or qword ptr [rdi+3120], rax
	or qword ptr [rdi+3128], rax
	vaddpd zmm1, zmm2, zmm3
	or qword ptr [rdi+3136], rax
	or qword ptr [rdi+3144], rax
	vaddpd zmm0, zmm2, zmm3
	or qword ptr [rdi+3152], rax
	or qword ptr [rdi+3160], rax
	vaddpd zmm1, zmm2, zmm3
	or qword ptr [rdi+3168], rax
	or qword ptr [rdi+3176], rax
	vaddpd zmm0, zmm2, zmm3
	or qword ptr [rdi+3184], rax
	or qword ptr [rdi+3192], rax
	vaddpd zmm1, zmm2, zmm3
	or qword ptr [rdi+3200], rax
	or qword ptr [rdi+3208], rax
	vaddpd zmm0, zmm2, zmm3
	or qword ptr [rdi+3216], rax
	or qword ptr [rdi+3224], rax
	vaddpd zmm1, zmm2, zmm3
	or qword ptr [rdi+3232], rax
	or qword ptr [rdi+3240], rax
	vaddpd zmm0, zmm2, zmm3
	or qword ptr [rdi+3248], rax
	or qword ptr [rdi+3256], rax
	vaddpd zmm1, zmm2, zmm3
	or qword ptr [rdi+3264], rax
	or qword ptr [rdi+3272], rax
# LLVM-MCA-END

# vpermd_zmm_2: two after each vpermd zmm (16.00)
# LLVM-MCA-BEGIN vpermd_zmm_2
	vpermd zmm0, zmm2, zmm3
	or qword ptr [rdi+3024], rax
	or qword ptr [rdi+3032], rax
	vpermd zmm1, zmm2, zmm3
	or qword ptr [rdi+3040], rax
	or qword ptr [rdi+3048], rax
	vpermd zmm0, zmm2, zmm3
	or qword ptr [rdi+3056], rax
	or qword ptr [rdi+3064], rax
	vpermd zmm1, zmm2, zmm3
	or qword ptr [rdi+3072], rax
	or qword ptr [rdi+3080], rax
	vpermd zmm0, zmm2, zmm3
	or qword ptr [rdi+3088], rax
	or qword ptr [rdi+3096], rax
	vpermd zmm1, zmm2, zmm3
	or qword ptr [rdi+3104], rax
	or qword ptr [rdi+3112], rax
	vpermd zmm0, zmm2, zmm3
	or qword ptr [rdi+3120], rax
	or qword ptr [rdi+3128], rax
	vpermd zmm1, zmm2, zmm3
	or qword ptr [rdi+3136], rax
	or qword ptr [rdi+3144], rax
	vpermd zmm0, zmm2, zmm3
	or qword ptr [rdi+3152], rax
	or qword ptr [rdi+3160], rax
	vpermd zmm1, zmm2, zmm3
	or qword ptr [rdi+3168], rax
	or qword ptr [rdi+3176], rax
	vpermd zmm0, zmm2, zmm3
	or qword ptr [rdi+3184], rax
	or qword ptr [rdi+3192], rax
	vpermd zmm1, zmm2, zmm3
	or qword ptr [rdi+3200], rax
	or qword ptr [rdi+3208], rax
	vpermd zmm0, zmm2, zmm3
	or qword ptr [rdi+3216], rax
	or qword ptr [rdi+3224], rax
	vpermd zmm1, zmm2, zmm3
	or qword ptr [rdi+3232], rax
	or qword ptr [rdi+3240], rax
	vpermd zmm0, zmm2, zmm3
	or qword ptr [rdi+3248], rax
	or qword ptr [rdi+3256], rax
	vpermd zmm1, zmm2, zmm3
	or qword ptr [rdi+3264], rax
	or qword ptr [rdi+3272], rax
# LLVM-MCA-END

# vpaddq_zmm_2: two after each vpaddq zmm, two a cycle (16.00)
# LLVM-MCA-BEGIN vpaddq_zmm_2
	vpaddq zmm0, zmm2, zmm3
	or qword ptr [rdi+3024], rax
	or qword ptr [rdi+3032], rax
	vpaddq zmm1, zmm2, zmm3
	or qword ptr [rdi+3040], rax
	or qword ptr [rdi+3048], rax
	vpaddq zmm0, zmm2, zmm3
	or qword ptr [rdi+3056], rax
	or qword ptr [rdi+3064], rax
	vpaddq zmm1, zmm2, zmm3
	or qword ptr [rdi+3072], rax
	or qword ptr [rdi+3080], rax
	vpaddq zmm0, zmm2, zmm3
	or qword ptr [rdi+3088], rax
	or qword ptr [rdi+3096], rax
	vpaddq zmm1, zmm2, zmm3
	or qword ptr [rdi+3104], rax
	or qword ptr [rdi+3112], rax
	vpaddq zmm0, zmm2, zmm3
	or qword ptr [rdi+3120], rax
	or qword ptr [rdi+3128], rax
	vpaddq zmm1, zmm2, zmm3
	or qword ptr [rdi+3136], rax
	or qword ptr [rdi+3144], rax
	vpaddq zmm0, zmm2, zmm3
	or qword ptr [rdi+3152], rax
	or qword ptr [rdi+3160], rax
	vpaddq zmm1, zmm2, zmm3
	or qword ptr [rdi+3168], rax
	or qword ptr [rdi+3176], rax
	vpaddq zmm0, zmm2, zmm3
	or qword ptr [rdi+3184], rax
	or qword ptr [rdi+3192], rax
	vpaddq zmm1, zmm2, zmm3
	or qword ptr [rdi+3200], rax
	or qword ptr [rdi+3208], rax
	vpaddq zmm0, zmm2, zmm3
	or qword ptr [rdi+3216], rax
	or qword ptr [rdi+3224], rax
	vpaddq zmm1, zmm2, zmm3
	or qword ptr [rdi+3232], rax
	or qword ptr [rdi+3240], rax
	vpaddq zmm0, zmm2, zmm3
	or qword ptr [rdi+3248], rax
	or qword ptr [rdi+3256], rax
	vpaddq zmm1, zmm2, zmm3
	or qword ptr [rdi+3264], rax
	or qword ptr [rdi+3272], rax
# LLVM-MCA-END

# vmaxpd_ymm_2: two after each vmaxpd ymm (16.00)
# LLVM-MCA-BEGIN vmaxpd_ymm_2
	vmaxpd ymm0, ymm2, ymm3
	or qword ptr [rdi+3024], rax
	or qword ptr [rdi+3032], rax
	vmaxpd ymm1, ymm2, ymm3
	or qword ptr [rdi+3040], rax
	or qword ptr [rdi+3048], rax
	vmaxpd ymm0, ymm2, ymm3
	or qword ptr [rdi+3056], rax
	or qword ptr [rdi+3064], rax
	vmaxpd ymm1, ymm2, ymm3
	or qword ptr [rdi+3072], rax
	or qword ptr [rdi+3080], rax
	vmaxpd ymm0, ymm2, ymm3
	or qword ptr [rdi+3088], rax
	or qword ptr [rdi+3096], rax
	vmaxpd ymm1, ymm2, ymm3
	or qword ptr [rdi+3104], rax
	or qword ptr [rdi+3112], rax
	vmaxpd ymm0, ymm2, ymm3
	or qword ptr [rdi+3120], rax
	or qword ptr [rdi+3128], rax
	vmaxpd ymm1, ymm2, ymm3
	or qword ptr [rdi+3136], rax
	or qword ptr [rdi+3144], rax
	vmaxpd ymm0, ymm2, ymm3
	or qword ptr [rdi+3152], rax
	or qword ptr [rdi+3160], rax
	vmaxpd ymm1, ymm2, ymm3
	or qword ptr [rdi+3168], rax
	or qword ptr [rdi+3176], rax
	vmaxpd ymm0, ymm2, ymm3
	or qword ptr [rdi+3184], rax
	or qword ptr [rdi+3192], rax
	vmaxpd ymm1, ymm2, ymm3
	or qword ptr [rdi+3200], rax
	or qword ptr [rdi+3208], rax
	vmaxpd ymm0, ymm2, ymm3
	or qword ptr [rdi+3216], rax
	or qword ptr [rdi+3224], rax
	vmaxpd ymm1, ymm2, ymm3
	or qword ptr [rdi+3232], rax
	or qword ptr [rdi+3240], rax
	vmaxpd ymm0, ymm2, ymm3
	or qword ptr [rdi+3248], rax
	or qword ptr [rdi+3256], rax
	vmaxpd ymm1, ymm2, ymm3
	or qword ptr [rdi+3264], rax
	or qword ptr [rdi+3272], rax
# LLVM-MCA-END

# vmaxpd_zmm_2stores: two plain stores after each (16.00)
# LLVM-MCA-BEGIN vmaxpd_zmm_2stores
	vmaxpd zmm0, zmm2, zmm3
	mov qword ptr [rdi+3024], rax
	mov qword ptr [rdi+3032], rax
	vmaxpd zmm1, zmm2, zmm3
	mov qword ptr [rdi+3040], rax
	mov qword ptr [rdi+3048], rax
	vmaxpd zmm0, zmm2, zmm3
	mov qword ptr [rdi+3056], rax
	mov qword ptr [rdi+3064], rax
	vmaxpd zmm1, zmm2, zmm3
	mov qword ptr [rdi+3072], rax
	mov qword ptr [rdi+3080], rax
	vmaxpd zmm0, zmm2, zmm3
	mov qword ptr [rdi+3088], rax
	mov qword ptr [rdi+3096], rax
	vmaxpd zmm1, zmm2, zmm3
	mov qword ptr [rdi+3104], rax
	mov qword ptr [rdi+3112], rax
	vmaxpd zmm0, zmm2, zmm3
	mov qword ptr [rdi+3120], rax
	mov qword ptr [rdi+3128], rax
	vmaxpd zmm1, zmm2, zmm3
	mov qword ptr [rdi+3136], rax
	mov qword ptr [rdi+3144], rax
	vmaxpd zmm0, zmm2, zmm3
	mov qword ptr [rdi+3152], rax
	mov qword ptr [rdi+3160], rax
	vmaxpd zmm1, zmm2, zmm3
	mov qword ptr [rdi+3168], rax
	mov qword ptr [rdi+3176], rax
	vmaxpd zmm0, zmm2, zmm3
	mov qword ptr [rdi+3184], rax
	mov qword ptr [rdi+3192], rax
	vmaxpd zmm1, zmm2, zmm3
	mov qword ptr [rdi+3200], rax
	mov qword ptr [rdi+3208], rax
	vmaxpd zmm0, zmm2, zmm3
	mov qword ptr [rdi+3216], rax
	mov qword ptr [rdi+3224], rax
	vmaxpd zmm1, zmm2, zmm3
	mov qword ptr [rdi+3232], rax
	mov qword ptr [rdi+3240], rax
	vmaxpd zmm0, zmm2, zmm3
	mov qword ptr [rdi+3248], rax
	mov qword ptr [rdi+3256], rax
	vmaxpd zmm1, zmm2, zmm3
	mov qword ptr [rdi+3264], rax
	mov qword ptr [rdi+3272], rax
# LLVM-MCA-END

# vmaxpd_zmm_4adds: four register adds after each vmaxpd zmm (16.00)
# LLVM-MCA-BEGIN vmaxpd_zmm_4adds
	vmaxpd zmm0, zmm2, zmm3
	add rax, 5
	add rbx, 5
	add rcx, 5
	add rdx, 5
	vmaxpd zmm1, zmm2, zmm3
	add rsi, 5
	add r8, 5
	add r9, 5
	add r10, 5
	vmaxpd zmm0, zmm2, zmm3
	add rax, 5
	add rbx, 5
	add rcx, 5
	add rdx, 5
	vmaxpd zmm1, zmm2, zmm3
	add rsi, 5
	add r8, 5
	add r9, 5
	add r10, 5
	vmaxpd zmm0, zmm2, zmm3
	add rax, 5
	add rbx, 5
	add rcx, 5
	add rdx, 5
	vmaxpd zmm1, zmm2, zmm3
	add rsi, 5
	add r8, 5
	add r9, 5
	add r10, 5
	vmaxpd zmm0, zmm2, zmm3
	add rax, 5
	add rbx, 5
	add rcx, 5
	add rdx, 5
	vmaxpd zmm1, zmm2, zmm3
	add rsi, 5
	add r8, 5
	add r9, 5
	add r10, 5
	vmaxpd zmm0, zmm2, zmm3
	add rax, 5
	add rbx, 5
	add rcx, 5
	add rdx, 5
	vmaxpd zmm1, zmm2, zmm3
	add rsi, 5
	add r8, 5
	add r9, 5
	add r10, 5
	vmaxpd zmm0, zmm2, zmm3
	add rax, 5
	add rbx, 5
	add rcx, 5
	add rdx, 5
	vmaxpd zmm1, zmm2, zmm3
	add rsi, 5
	add r8, 5
	add r9, 5
	add r10, 5
	vmaxpd zmm0, zmm2, zmm3
	add rax, 5
	add rbx, 5
	add rcx, 5
	add rdx, 5
	vmaxpd zmm1, zmm2, zmm3
	add rsi, 5
	add r8, 5
	add r9, 5
	add r10, 5
	vmaxpd zmm0, zmm2, zmm3
	add rax, 5
	add rbx, 5
	add rcx, 5
	add rdx, 5
	vmaxpd zmm1, zmm2, zmm3
	add rsi, 5
	add r8, 5
	add r9, 5
	add r10, 5
# LLVM-MCA-END

# vmaxpd_ymm_4adds: two vmaxpd ymm (the same FP work) and four adds (16.00)
# LLVM-MCA-BEGIN vmaxpd_ymm_4adds
	vmaxpd ymm0, ymm2, ymm3
	vmaxpd ymm1, ymm2, ymm3
	add rax, 5
	add rbx, 5
	add rcx, 5
	add rdx, 5
	vmaxpd ymm0, ymm2, ymm3
	vmaxpd ymm1, ymm2, ymm3
	add rsi, 5
	add r8, 5
	add r9, 5
	add r10, 5
	vmaxpd ymm0, ymm2, ymm3
	vmaxpd ymm1, ymm2, ymm3
	add rax, 5
	add rbx, 5
	add rcx, 5
	add rdx, 5
	vmaxpd ymm0, ymm2, ymm3
	vmaxpd ymm1, ymm2, ymm3
	add rsi, 5
	add r8, 5
	add r9, 5
	add r10, 5
	vmaxpd ymm0, ymm2, ymm3
	vmaxpd ymm1, ymm2, ymm3
	add rax, 5
	add rbx, 5
	add rcx, 5
	add rdx, 5
	vmaxpd ymm0, ymm2, ymm3
	vmaxpd ymm1, ymm2, ymm3
	add rsi, 5
	add r8, 5
	add r9, 5
	add r10, 5
	vmaxpd ymm0, ymm2, ymm3
	vmaxpd ymm1, ymm2, ymm3
	add rax, 5
	add rbx, 5
	add rcx, 5
	add rdx, 5
	vmaxpd ymm0, ymm2, ymm3
	vmaxpd ymm1, ymm2, ymm3
	add rsi, 5
	add r8, 5
	add r9, 5
	add r10, 5
	vmaxpd ymm0, ymm2, ymm3
	vmaxpd ymm1, ymm2, ymm3
	add rax, 5
	add rbx, 5
	add rcx, 5
	add rdx, 5
	vmaxpd ymm0, ymm2, ymm3
	vmaxpd ymm1, ymm2, ymm3
	add rsi, 5
	add r8, 5
	add r9, 5
	add r10, 5
	vmaxpd ymm0, ymm2, ymm3
	vmaxpd ymm1, ymm2, ymm3
	add rax, 5
	add rbx, 5
	add rcx, 5
	add rdx, 5
	vmaxpd ymm0, ymm2, ymm3
	vmaxpd ymm1, ymm2, ymm3
	add rsi, 5
	add r8, 5
	add r9, 5
	add r10, 5
	vmaxpd ymm0, ymm2, ymm3
	vmaxpd ymm1, ymm2, ymm3
	add rax, 5
	add rbx, 5
	add rcx, 5
	add rdx, 5
	vmaxpd ymm0, ymm2, ymm3
	vmaxpd ymm1, ymm2, ymm3
	add rsi, 5
	add r8, 5
	add r9, 5
	add r10, 5
	vmaxpd ymm0, ymm2, ymm3
	vmaxpd ymm1, ymm2, ymm3
	add rax, 5
	add rbx, 5
	add rcx, 5
	add rdx, 5
	vmaxpd ymm0, ymm2, ymm3
	vmaxpd ymm1, ymm2, ymm3
	add rsi, 5
	add r8, 5
	add r9, 5
	add r10, 5
# LLVM-MCA-END

# vmaxpd_zmm_4adds_vpaddd: the same with a vpaddd ymm after each vmaxpd zmm (16.00)
# LLVM-MCA-BEGIN vmaxpd_zmm_4adds_vpaddd
	vmaxpd zmm0, zmm2, zmm3
	vpaddd ymm4, ymm2, ymm3
	add rax, 5
	add rbx, 5
	add rcx, 5
	add rdx, 5
	vmaxpd zmm1, zmm2, zmm3
	vpaddd ymm5, ymm2, ymm3
	add rsi, 5
	add r8, 5
	add r9, 5
	add r10, 5
	vmaxpd zmm0, zmm2, zmm3
	vpaddd ymm4, ymm2, ymm3
	add rax, 5
	add rbx, 5
	add rcx, 5
	add rdx, 5
	vmaxpd zmm1, zmm2, zmm3
	vpaddd ymm5, ymm2, ymm3
	add rsi, 5
	add r8, 5
	add r9, 5
	add r10, 5
	vmaxpd zmm0, zmm2, zmm3
	vpaddd ymm4, ymm2, ymm3
	add rax, 5
	add rbx, 5
	add rcx, 5
	add rdx, 5
	vmaxpd zmm1, zmm2, zmm3
	vpaddd ymm5, ymm2, ymm3
	add rsi, 5
	add r8, 5
	add r9, 5
	add r10, 5
	vmaxpd zmm0, zmm2, zmm3
	vpaddd ymm4, ymm2, ymm3
	add rax, 5
	add rbx, 5
	add rcx, 5
	add rdx, 5
	vmaxpd zmm1, zmm2, zmm3
	vpaddd ymm5, ymm2, ymm3
	add rsi, 5
	add r8, 5
	add r9, 5
	add r10, 5
	vmaxpd zmm0, zmm2, zmm3
	vpaddd ymm4, ymm2, ymm3
	add rax, 5
	add rbx, 5
	add rcx, 5
	add rdx, 5
	vmaxpd zmm1, zmm2, zmm3
	vpaddd ymm5, ymm2, ymm3
	add rsi, 5
	add r8, 5
	add r9, 5
	add r10, 5
	vmaxpd zmm0, zmm2, zmm3
	vpaddd ymm4, ymm2, ymm3
	add rax, 5
	add rbx, 5
	add rcx, 5
	add rdx, 5
	vmaxpd zmm1, zmm2, zmm3
	vpaddd ymm5, ymm2, ymm3
	add rsi, 5
	add r8, 5
	add r9, 5
	add r10, 5
	vmaxpd zmm0, zmm2, zmm3
	vpaddd ymm4, ymm2, ymm3
	add rax, 5
	add rbx, 5
	add rcx, 5
	add rdx, 5
	vmaxpd zmm1, zmm2, zmm3
	vpaddd ymm5, ymm2, ymm3
	add rsi, 5
	add r8, 5
	add r9, 5
	add r10, 5
	vmaxpd zmm0, zmm2, zmm3
	vpaddd ymm4, ymm2, ymm3
	add rax, 5
	add rbx, 5
	add rcx, 5
	add rdx, 5
	vmaxpd zmm1, zmm2, zmm3
	vpaddd ymm5, ymm2, ymm3
	add rsi, 5
	add r8, 5
	add r9, 5
	add r10, 5
# LLVM-MCA-END
