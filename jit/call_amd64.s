#include "textflag.h"

// func callJIT(fn, ctx unsafe.Pointer)
//
// Calls JIT'd code on a private stack. The code may clobber every general,
// vector and mask register and the flags; the trampoline saves what Go needs
// (SP, BP, R12-R15, MXCSR) in the context block and restores it, re-zeroes
// X15 and clears DF. At entry to fn: [RSP] = return address,
// [RSP+8] = [RSP+16] = ctx, RSP+8 16-byte aligned.
TEXT ·callJIT(SB), NOSPLIT|NOFRAME, $0-16
	MOVQ fn+0(FP), AX
	MOVQ ctx+8(FP), BX
	MOVQ SP, 0(BX)
	MOVQ BP, 8(BX)
	MOVQ R12, 16(BX)
	MOVQ R13, 24(BX)
	MOVQ R14, 32(BX)
	MOVQ R15, 40(BX)
	STMXCSR 80(BX)
	MOVQ 48(BX), CX
	MOVQ CX, SP
	PUSHQ BX
	PUSHQ BX
	CALL AX
	POPQ BX
	POPQ BX
	CLD
	LDMXCSR 80(BX)
	MOVQ 8(BX), BP
	MOVQ 16(BX), R12
	MOVQ 24(BX), R13
	MOVQ 32(BX), R14
	MOVQ 40(BX), R15
	MOVQ 0(BX), SP
	XORPS X15, X15
	RET
