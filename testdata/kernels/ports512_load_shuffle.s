.intel_syntax noprefix
# kernel: ports512_load_shuffle
# what: 8 vpshufb ymm beside 8 zmm loads (512-bit work that only loads)
# origin: hand-written
# expect: port 5: on Intel AVX-512 cores 512-bit uops in flight close port 1 to narrower vector work, loads included: the shuffles keep only port 5, 8 cycles/iter (4 if zmm loads left port 1 open)
# note: needs AVX-512F (validate does not run it on a host without, and says so)
# LLVM-MCA-BEGIN ports512_load_shuffle
	vpshufb ymm0, ymm14, ymm15
	vmovups zmm16, ZMMWORD PTR [rsi+0]
	vpshufb ymm1, ymm14, ymm15
	vmovups zmm17, ZMMWORD PTR [rsi+64]
	vpshufb ymm2, ymm14, ymm15
	vmovups zmm18, ZMMWORD PTR [rsi+128]
	vpshufb ymm3, ymm14, ymm15
	vmovups zmm19, ZMMWORD PTR [rsi+192]
	vpshufb ymm4, ymm14, ymm15
	vmovups zmm20, ZMMWORD PTR [rsi+256]
	vpshufb ymm5, ymm14, ymm15
	vmovups zmm21, ZMMWORD PTR [rsi+320]
	vpshufb ymm6, ymm14, ymm15
	vmovups zmm22, ZMMWORD PTR [rsi+384]
	vpshufb ymm7, ymm14, ymm15
	vmovups zmm23, ZMMWORD PTR [rsi+448]
# LLVM-MCA-END ports512_load_shuffle
