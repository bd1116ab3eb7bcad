package jit

import "unsafe"

// callJIT runs the machine code at fn with the context block ctx (see
// ctxLayout). Implemented in call_amd64.s.
//
//go:noescape
func callJIT(fn, ctx unsafe.Pointer)

// Context block layout shared by the trampoline and the generated harness
// code (harness.go). All offsets in bytes.
const (
	ctxSavedSP   = 0
	ctxStackTop  = 48
	ctxLoopCount = 56
	ctxTStart    = 64
	ctxTEnd      = 72
	ctxGoMXCSR   = 80
	ctxMXCSR     = 84
	ctxGPR       = 96  // [16]uint64 by x86 register number
	ctxK         = 224 // [8]uint64
	ctxTailIters = 288 // iterations of the frequency probe after the body (0 = none)
	ctxTailTicks = 296 // TSC ticks the frequency probe took
	ctxVec       = 320 // [32][64]byte
	ctxSize      = ctxVec + 32*64
)
