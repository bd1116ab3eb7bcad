.intel_syntax noprefix
# kernel: cvt_chain_ymm
# what: dependent int32 <-> float conversions of a ymm register
# origin: hand-written
# expect: conversion latency: 4 dependent vcvtdq2ps/vcvttps2dq (3-4 cycles each) = 12-16 cycles/iter
# LLVM-MCA-BEGIN cvt_chain_ymm
	vcvtdq2ps ymm0, ymm0
	vcvttps2dq ymm0, ymm0
	vcvtdq2ps ymm0, ymm0
	vcvttps2dq ymm0, ymm0
# LLVM-MCA-END cvt_chain_ymm
