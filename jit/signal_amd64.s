#include "textflag.h"

// crashRecord is written by jitSignalHandler: magic, signal, si_code,
// si_addr, faulting RIP (5 x 8 bytes).
GLOBL ·crashRecord(SB), NOPTR, $40

// func signalHandlerAddr() uintptr
TEXT ·signalHandlerAddr(SB), NOSPLIT, $0-8
	LEAQ ·jitSignalHandler(SB), AX
	MOVQ AX, ret+0(FP)
	RET

// jitSignalHandler is installed (SA_SIGINFO|SA_ONSTACK) for the fault
// signals in the worker. Called by the kernel with DI = signal, SI = siginfo,
// DX = ucontext. It writes the crash record to stderr and exits the process
// with status 77; the parent decodes the record. It touches no Go state.
TEXT ·jitSignalHandler(SB), NOSPLIT|NOFRAME, $0
	LEAQ ·crashRecord(SB), AX
	MOVQ $0x48534152434c5450, CX // "PTLCRASH"
	MOVQ CX, 0(AX)
	MOVQ DI, 8(AX)
	MOVL 8(SI), CX
	MOVQ CX, 16(AX)
	MOVQ 16(SI), CX
	MOVQ CX, 24(AX)
	MOVQ 168(DX), CX
	MOVQ CX, 32(AX)
	MOVQ $1, AX
	MOVQ $2, DI
	LEAQ ·crashRecord(SB), SI
	MOVQ $40, DX
	SYSCALL
	MOVQ $231, AX
	MOVQ $77, DI
	SYSCALL
	INT $3
