// Package isa owns what portlab knows about x86-64 instructions, independent of
// timing: the instruction-form catalog (generated from golang.org/x/arch's x86
// table and extended in code with EVEX forms and implicit operands), operand
// read/write semantics, the CPUID feature each form needs, parsing AT&T and
// Intel assembly text into instructions mapped to forms, printing both
// syntaxes, and decoding machine code.
package isa
