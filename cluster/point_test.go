package cluster

import (
	"testing"

	"portlab/results"
)

// TestPointsThatMeasureNoFormsOwnNumber: the store-commit and mask-write
// streams and lea in one address shape are clustered under names of their own and compared
// with no model entry (the entry holds the form's own throughput: the
// streams at 0.5 and 1.0 cycles a store would both be "inconsistent").
func TestPointsThatMeasureNoFormsOwnNumber(t *testing.T) {
	tp := func(x *results.Extra) *results.Benchmark {
		return &results.Benchmark{Mode: "inverse_throughput", Measurements: []results.Measurement{{Key: "inverse_throughput", Value: 1}}, Portlab: x}
	}
	for _, c := range []struct {
		x      *results.Extra
		opcode string
		aux    bool
	}{
		{&results.Extra{Form: "mov m64, r64", Kind: "store-commit", Operands: "lines-apart"}, "store commit: lines-apart", true},
		{&results.Extra{Form: "lea r64, m", Kind: "address-throughput", Addressing: "base+index+disp"}, "lea r64, m [base+index+disp]", true},
		{&results.Extra{Form: "vaddss xmm, xmm, xmm", Kind: "latency-beside-512bit", Operands: "1->0"}, "vaddss xmm, xmm, xmm (beside 512-bit work)", true},
		{&results.Extra{Form: "korw k, k, k", Kind: "mask-writes", Operands: "512-bit compare and korw"}, "mask writes: 512-bit compare and korw", true},
		{&results.Extra{Form: "mov m64, r64", Kind: "throughput"}, "mov m64, r64", false},
	} {
		p := newPoint("f.yaml", 0, tp(c.x))
		if p.Opcode != c.opcode || p.Aux != c.aux || (p.Form != "") == c.aux {
			t.Errorf("%s %s: opcode %q aux %v form %q; want %q, aux %v", c.x.Kind, c.x.Operands+c.x.Addressing, p.Opcode, p.Aux, p.Form, c.opcode, c.aux)
		}
	}
}
