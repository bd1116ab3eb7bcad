package sweep

import (
	"strings"
	"testing"

	"portlab/gen"
	"portlab/isa"
	"portlab/modeldb"
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

// A host without AVX-512 runs no chain beside 512-bit work and no zmm
// late-forwarding chain; one with AVX-512F but not BW runs the former
// only; a domain chain runs where its partner does (vpaddd ymm: AVX2);
// the mask-write streams need AVX512VL (a compare into a mask from xmm).
func TestHostRuns(t *testing.T) {
	f, _ := isa.Lookup("addsd xmm, xmm")
	bs, err := gen.Generate(f)
	if err != nil {
		t.Fatal(err)
	}
	none := func(s string) bool { return !strings.HasPrefix(s, "avx512") }
	onlyF := func(s string) bool { return s == "avx512f" }
	n512 := 0
	for _, b := range bs {
		if b.Kind == gen.KindLatency512 {
			n512++
			if HostRuns(b, none) || !HostRuns(b, onlyF) {
				t.Errorf("%s: runs without AVX-512 %v, with AVX-512F %v", b.Snippet.Name, HostRuns(b, none), HostRuns(b, onlyF))
			}
		} else if !HostRuns(b, none) {
			t.Errorf("%s (%s) refused without AVX-512", b.Snippet.Name, b.Kind)
		}
	}
	if n512 == 0 {
		t.Fatal("addsd xmm, xmm has no latency chain beside 512-bit work: the test shows nothing")
	}
	f, _ = isa.Lookup("vaddps ymm, ymm, ymm")
	avxOnly := func(s string) bool { return s == "avx" }
	domains := 0
	for _, b := range gen.DomainBenches(f) {
		domains++
		if want := b.Operands == modeldb.DomainFP; HostRuns(b, avxOnly) != want || !HostRuns(b, func(s string) bool { return s == "avx" || s == "avx2" }) {
			t.Errorf("vaddps ymm's %s domain chain: on an AVX host %v, want %v", b.Operands, HostRuns(b, avxOnly), want)
		}
	}
	if domains != 2 {
		t.Errorf("vaddps ymm: %d domain chains, want 2", domains)
	}
	korw, _ := isa.Lookup("korw k, k, k")
	streams := gen.MaskWriteBenches(korw)
	if len(streams) == 0 {
		t.Fatal("korw k, k, k: no mask-write streams")
	}
	for _, b := range streams {
		if HostRuns(b, onlyF) || !HostRuns(b, func(s string) bool { return s == "avx512f" || s == "avx512vl" }) {
			t.Errorf("mask-write stream %q: with AVX-512F alone runs %v, want only with AVX512VL too", b.Operands, HostRuns(b, onlyF))
		}
	}
	for _, n := range []string{"vpaddd ymm, ymm, ymm", "vpaddd zmm, zmm, zmm"} {
		f, _ := isa.Lookup(n)
		bs := gen.LateForwardBenches(f)
		if len(bs) == 0 {
			t.Fatalf("%s: no late-forwarding chains", n)
		}
		zmm := strings.Contains(n, "zmm")
		for _, b := range bs {
			if HostRuns(b, onlyF) == zmm || !HostRuns(b, func(string) bool { return true }) {
				t.Errorf("%s: with AVX-512F alone runs %v", n, HostRuns(b, onlyF))
			}
		}
	}
}
