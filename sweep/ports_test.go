package sweep

import (
	"strings"
	"testing"

	"portlab/gen"
	"portlab/internal/retry"
	"portlab/isa"
	"portlab/results"
)

// The OSACA paper's example: an FMA competes with a multiply for the same
// ports, but not with an add (Zen 3/4: FMA/MUL on FP0/FP1, ADD on FP2/FP3;
// Golden Cove: FMA/MUL on p0/p1, ADD on p1/p5, so a balanced schedule
// separates them).
//
// On the Zen 3 guests (family 0x19 model 1) the separation is only
// partial, and varies from run to run: FMA+ADD mixes take 1.07-1.3x the
// disjoint time at 128 bits and 1.2-1.75x at 256, while FMA+MUL takes
// 1.8-2.1x at both (measured 2026-11-24; no port model explains the ymm
// case). On Zen 3 the test asserts the conflict with the
// multiply at both widths and that the add conflicts clearly less at xmm,
// and logs the ymm ratio.
//
// On the Zen 4 guest (AuthenticAMD-19-11-1) a worker settles into one of
// two steady states for FMA+ADD at 256 bits and keeps it: 1.04-1.05x or
// 1.15-1.20x the disjoint time (2026-11-30, twelve runs of this package's
// tests, half of them beside a spinner on the other vCPU: eight fresh
// workers in a row read 1.15-1.20x in one run). Both are far from the 2x
// of shared ports, so the test takes up to 1.3x as separate pipes (a
// bound between the two states would fail whenever the second lasts the
// minute of patience).
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
	// ratios measures, at one width, how much slower FMA+MUL and FMA+ADD
	// mixes run than they would on disjoint ports.
	ratios := func(w string) (withMul, withAdd float64) {
		fma, mul, add := look("vfmadd231pd "+w+", "+w+", "+w), look("vmulpd "+w+", "+w+", "+w), look("vaddpd "+w+", "+w+", "+w)
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
		res := measureBenches(e, options(h), benches, nil, nil)
		tp := map[string]float64{}
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
		return slow(res[3]), slow(res[4])
	}
	zen3 := h.Microarch == "znver3"
	ok := retry.Patiently(6, func(try int) bool {
		if try > 0 {
			// A fresh worker process: on Zen 4 a worker settles into one
			// of two steady states for these mixes (FMA+ADD 1.05x or
			// 1.2x, the same code), and keeps it for its lifetime.
			e.Runner.Close()
		}
		withMul, withAdd := ratios("ymm")
		t.Logf("try %d: ymm: FMA+MUL %.2fx the disjoint-port time, FMA+ADD %.2fx", try+1, withMul, withAdd)
		switch {
		case withMul < 1.8:
			return false // FMA and MUL share all their ports: the mix must take the sum
		case zen3:
			xMul, xAdd := ratios("xmm")
			t.Logf("try %d: xmm: FMA+MUL %.2fx, FMA+ADD %.2fx", try+1, xMul, xAdd)
			if xMul < 1.8 || xAdd > xMul-0.4 {
				return false // Zen 3: at 128 bits the adders are (nearly) separate pipes
			}
		case strings.HasPrefix(h.Microarch, "znver") && withAdd > 1.3:
			return false // Zen 4: the adders are separate pipes (1.05x or 1.2x, by the worker's steady state)
		case withAdd > withMul-0.3:
			return false // elsewhere the adders share at most some ports with the FMA units
		}
		return true
	})
	if !ok {
		t.Error("FMA+MUL should be ~2x slower than on disjoint ports and FMA+ADD clearly less (not at all on Zen)")
	}
}
