package gen

import (
	"testing"

	"portlab/isa"
)

// Register chains are marked as such (measure settles them without the
// throughput canary); chains through memory are not.
func TestRegisterChainsAreMarked(t *testing.T) {
	for _, c := range []struct {
		form, pair string
		chain      bool
	}{
		{"add r64, r64", "1->0", true},
		{"imul r64, r64", "1->0", true},
		{"add m64, r64", "mem->mem", false},
		{"mov r64, m64", "mem->0", false},
		{"add r64, m64", "0->0", true}, // the load is off the chain
	} {
		f, ok := isa.Lookup(c.form)
		if !ok {
			t.Fatalf("no form %q", c.form)
		}
		bs, err := Latency(f)
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for _, b := range bs {
			if b.Operands != c.pair {
				continue
			}
			found = true
			if b.Snippet.Chain != c.chain {
				t.Errorf("%s %s: Chain %v, want %v", c.form, c.pair, b.Snippet.Chain, c.chain)
			}
		}
		if !found {
			var pairs []string
			for _, b := range bs {
				pairs = append(pairs, b.Operands)
			}
			t.Errorf("%s: no %s chain (have %v)", c.form, c.pair, pairs)
		}
	}
	for key, b := range HelperBenches() {
		if !b.Snippet.Chain {
			t.Errorf("helper %s: not marked a chain", key)
		}
	}
}
