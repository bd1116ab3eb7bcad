package sweep

import (
	"strings"
	"testing"

	"portlab/gen"
	"portlab/isa"
	"portlab/results"
)

// The OSACA paper's example: an FMA competes with a multiply for the same
// ports, but not with an add (Zen 4: FMA/MUL on FP0/FP1, ADD on FP2/FP3;
// Golden Cove: FMA/MUL on p0/p1, ADD on p1/p5, so a balanced schedule
// separates them).
func TestFMAConflictsWithMulNotAdd(t *testing.T) {
	e, h := hostEngine(t)
	if !h.Has("fma") || !h.Has("avx") {
		t.Skip("host lacks FMA")
	}
	look := func(n string) *isa.Form {
		f, ok := isa.Lookup(n)
		if !ok {
			t.Fatalf("no form %q", n)
		}
		return f
	}
	fma, mul, add := look("vfmadd231pd ymm, ymm, ymm"), look("vmulpd ymm, ymm, ymm"), look("vaddpd ymm, ymm, ymm")
	tp := map[string]float64{}
	for try := 0; try < 3; try++ {
		var benches []*gen.Bench
		for _, f := range []*isa.Form{fma, mul, add} {
			b, err := gen.Throughput(f)
			if err != nil {
				t.Fatal(err)
			}
			benches = append(benches, b)
		}
		for _, p := range []*isa.Form{mul, add} {
			b, err := gen.Mix(fma, p, 1, 1)
			if err != nil {
				t.Fatal(err)
			}
			benches = append(benches, b)
		}
		res := measureBenches(e, options(h), benches, nil)
		for _, r := range res[:3] {
			if r.Error != "" {
				t.Fatal(r.Error)
			}
			tp[r.Portlab.Form] = r.Portlab.Median
		}
		// slow is the mix's time per copy over what it would take on
		// disjoint ports (the slower form alone).
		slow := func(r *results.Benchmark) float64 {
			disjoint, _ := MixPrediction(r, tp)
			m, _ := r.Value("inverse_throughput")
			return m.PerSnippetValue / disjoint
		}
		withMul, withAdd := slow(res[3]), slow(res[4])
		t.Logf("try %d: singles %v; FMA+MUL %.2fx the disjoint-port time, FMA+ADD %.2fx", try+1, tp, withMul, withAdd)
		switch {
		case withMul < 1.8:
			continue // FMA and MUL share all their ports: the mix must take the sum
		case strings.HasPrefix(h.Microarch, "znver") && withAdd > 1.15:
			continue // Zen: the adders are separate pipes
		case withAdd > withMul-0.3:
			continue // elsewhere the adders share at most some ports with the FMA units
		}
		return
	}
	t.Error("FMA+MUL should be ~2x slower than on disjoint ports and FMA+ADD clearly less (not at all on Zen)")
}
