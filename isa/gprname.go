package isa

// GPRName returns the name of a general register at an operand kind's
// width: GPRName("rax", KindR32) is "eax", GPRName("r9", KindR8) is "r9b".
// Kinds that are not general-register kinds return r64 unchanged.
func GPRName(r64 string, k Kind) string {
	switch k {
	case KindR8, KindR16, KindR32:
		return gprName(r64, k)
	}
	return r64
}
