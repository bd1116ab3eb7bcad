package modeldb

import "portlab/isa"

// Port fusion beside 512-bit work. Intel cores with AVX-512 (Skylake-SP to
// Granite Rapids) have no 512-bit unit on port 1: while 512-bit uops are
// in flight they fuse the port-0 and port-1 vector units into one 512-bit
// unit issued through port 0, and narrower vector uops lose port 1. Where
// such a uop goes instead depends on its unit. Measured on the Granite
// Rapids guest (8 instances each, cycles per 8):
//
//	vaddpd ymm alone 4, beside vfmadd231pd zmm 8 (not 5.3), beside vpermd zmm 8, 16 of them beside 8 vpermd zmm 12: the adds move to ports 0 and 5
//	vmulps ymm or vpmullw ymm alone 4, beside 4 vpermd zmm 6: multiplies move to ports 0 and 5
//	vpslld ymm, imm8 (ports 0 and 1 too) alone 4, beside 4 vpermd zmm 8: shifts keep only port 0
//	vpshufb ymm alone 4, beside vpermd zmm 16: the shuffles keep only port 5
//	vpaddd ymm alone 2.7, beside vpaddd zmm 8: ports 0 and 5 only
//	imul r64 (port 1, scalar) alone 8, beside vpaddd zmm 8: scalar work keeps port 1
//
// A model says this per entry (Entry.PortPressure512, fitted from the
// sweep's cross-width mixes by Build); predictions (Predictor, analysis)
// use it for the narrower vector forms of a mix or kernel that holds
// 512-bit work. Zen 4 runs 512-bit uops as two 256-bit halves on the same
// pipes: its models have no such entries.

// Is512BitOp reports whether form f is 512-bit vector work that fuses the
// vector ports: any form with a zmm operand, loads and stores included.
// Pure zmm loads and stores (vmovups zmm, m512, vbroadcastss zmm, m32,
// vmovups m512, zmm) close port 1 too: on the Granite Rapids guest 8
// vpshufb ymm with 8 vmovups zmm, m512 take 8 cycles (4.26 with ymm
// loads), and 8 vpsubw ymm with 4 vpbroadcastw zmm, m16 take 4 cycles, as
// on ports 0 and 5 alone. A model built with them counted as 512-bit work
// predicts 90.5 % of 1,000 random validation mixes within 10 %, against
// 89.9 % with them counted as leaving port 1 open (89.9 % / 89.4 % of the
// 127,880 fitted mixes; docs/benchmarks.md).
func Is512BitOp(f *isa.Form) bool {
	for _, op := range f.Operands {
		if op.Kind == isa.KindZMM {
			return true
		}
	}
	return false
}

// IsNarrowVectorOp reports whether form f is 128- or 256-bit vector work
// (an xmm or ymm register operand and no zmm one): the forms that lose a
// port beside 512-bit work.
func IsNarrowVectorOp(f *isa.Form) bool {
	narrow := false
	for _, op := range f.Operands {
		switch op.Kind {
		case isa.KindZMM:
			return false
		case isa.KindXMM, isa.KindYMM:
			narrow = true
		}
	}
	return narrow
}

// formWidth is what Is512BitOp and IsNarrowVectorOp say of a form name
// (false for names the catalog lacks).
func formWidth(name string) (wide, narrow bool) {
	f, ok := isa.Lookup(name)
	if !ok {
		return false, false
	}
	return Is512BitOp(f), IsNarrowVectorOp(f)
}

// PressureBeside returns the entry's port pressure in code that holds
// 512-bit work (wide512) or not: PortPressure512 when wide512 and the
// entry has one, else PortPressure.
func (e *Entry) PressureBeside(wide512 bool) PortPressure {
	if wide512 && len(e.PortPressure512) > 0 {
		return e.PortPressure512
	}
	return e.PortPressure
}
