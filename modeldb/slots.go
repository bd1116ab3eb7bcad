package modeldb

import "portlab/isa"

// DispatchSlots returns the dispatch (rename) slots one instance of form f
// takes when it has uops uops. With micro-fusion (every x86 core since
// Core 2 and K8; Model.MicroFusion) a load-op form's load, and a store's
// address and data, take the slot of the operation they belong to: one
// slot fewer each, never fewer than one. Without it, or for a form
// without memory operands, the slots are the uops. The simulator, the mix
// predictor and the port fit all count dispatch this way.
func DispatchSlots(f *isa.Form, uops float64, microFusion bool) float64 {
	if !microFusion || uops < 2 || f == nil {
		return uops
	}
	load, store := MemoryAccess(f)
	s := uops
	if load {
		s--
	}
	if store {
		s--
	}
	return max(1, s)
}

// MemoryAccess reports whether form f reads and whether it writes memory
// through an operand (lea's address is not an access).
func MemoryAccess(f *isa.Form) (load, store bool) {
	a := operandAccess(f)
	return a.Loads(), a.Stores()
}
