package sweep

import (
	"testing"

	"portlab/gen"
	"portlab/results"
)

// TestLatencyBeside512NeedsAVX512: a narrower vector form's latency chain
// beside zmm loads is measured on a host with AVX-512 (and reads slower
// than the chain alone there: the guest's vaddss 2 -> 3.2 cycles) and
// left out where the host lacks it (the loads would fault).
func TestLatencyBeside512NeedsAVX512(t *testing.T) {
	e, h := hostEngine(t)
	forms, err := Select([]string{"vaddss xmm, xmm, xmm"}, h.Has)
	if err != nil {
		t.Fatal(err)
	}
	count := func(has func(string) bool) (n int, alone, beside float64) {
		t.Helper()
		o := options(h)
		o.Forms, o.Throughput, o.Has = forms, false, has
		sum, err := Run(e, o)
		if err != nil {
			t.Fatal(err)
		}
		// A noisy result is measured again and appended: count each
		// benchmark once, its surest result.
		for _, b := range results.Cleanest(sum.Results) {
			switch b.Portlab.Kind {
			case gen.KindLatency512:
				n++
				beside = b.Portlab.Median
			case gen.KindLatency:
				alone = b.Portlab.Median
			}
		}
		return n, alone, beside
	}
	if n, _, _ := count(func(f string) bool { return f != "avx512f" && h.Has(f) }); n != 0 {
		t.Errorf("%d latency-beside-512bit results on a host without AVX-512, want 0", n)
	}
	if !h.Has("avx512f") {
		t.Skip("host lacks AVX-512: the chain beside zmm loads is not measured here")
	}
	n, alone, beside := count(h.Has)
	if n != 1 {
		t.Fatalf("%d latency-beside-512bit results, want 1", n)
	}
	if !(beside >= alone*0.95) {
		t.Errorf("vaddss chain beside zmm loads %.2f cycles, alone %.2f: want at least the chain's own latency", beside, alone)
	}
}
