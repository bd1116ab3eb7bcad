package modeldb

import (
	"maps"
	"math"
	"strings"
	"testing"

	"portlab/results"
)

// TestBesideDelayFromMeasurements: the delay is the chain beside two
// vpmaddwd a link over its own bound (the Zen 3 guest's chains: 1.55 a
// link, 1.00 bound), where it shows beyond the chain's uncertainty; a
// chain bound by the vpmaddwd's ports, or within its uncertainty of its
// bound, or not measured, gives none.
func TestBesideDelayFromMeasurements(t *testing.T) {
	got := besideDelayOf(map[string]*LateForwardRun{
		"xmm": {Beside2: 1.5490, Beside2Uncertainty: 0.007},
		"ymm": {Beside2: 1.5457, Beside2Uncertainty: 0.005},
		"zmm": {Alone: 1, Fed: 3},
	}, map[string]float64{"xmm": 1.0, "ymm": 1.003})
	if want := map[string]float64{"xmm": 0.55, "ymm": 0.54}; !maps.Equal(got, want) {
		t.Errorf("Zen 3 chains: %v, want %v", got, want)
	}
	for name, c := range map[string]struct {
		run   LateForwardRun
		bound float64
	}{
		"at its latency (Emerald Rapids-like)": {LateForwardRun{Beside2: 1.01, Beside2Uncertainty: 0.005}, 1},
		"within its uncertainty":               {LateForwardRun{Beside2: 1.4, Beside2Uncertainty: 0.35}, 1},
		"bound by the vpmaddwd's port":         {LateForwardRun{Beside2: 2.02, Beside2Uncertainty: 0.01}, 2},
	} {
		if got := besideDelayOf(map[string]*LateForwardRun{"ymm": &c.run}, map[string]float64{"ymm": c.bound}); got != nil {
			t.Errorf("%s: %v, want none", name, got)
		}
	}
	if got := besideDelayOf(map[string]*LateForwardRun{"zmm": {Beside2: 3.5}}, nil); got["zmm"] != 1 {
		t.Errorf("a delay of 2.5 cycles: %v, want zmm capped at 1", got)
	}
}

// TestBesideShare: none at half a multi-cycle instruction a cycle or
// less, all from two, 1 - ((2 - rate)/1.5)^2 between: rising and
// flattening, continuous at both ends.
func TestBesideShare(t *testing.T) {
	for rate, want := range map[float64]float64{0: 0, 0.5: 0, 0.5 + 1e-9: 0, 1: 1 - 4.0/9, 1.25: 0.75, 1.5: 1 - 1.0/9, 2: 1, 6: 1} {
		if got := BesideShare(rate); math.Abs(got-want) > 1e-8 {
			t.Errorf("BesideShare(%g) = %g, want %g", rate, got, want)
		}
	}
}

// TestBesideDelayRoundTrip: the header survives writing, reading,
// cloning and model diff; bad widths and delays are errors naming the
// file and line.
func TestBesideDelayRoundTrip(t *testing.T) {
	m := &Model{Name: "x", ISA: "x86", Ports: []string{"0"}, BesideMulticycleDelay: map[string]float64{"xmm": 0.55, "ymm": 0.54}}
	data, err := m.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), "beside_multicycle_delay: {xmm: 0.55, ymm: 0.54}") {
		t.Errorf("written:\n%s", data)
	}
	back, err := Parse("x.yml", data, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !maps.Equal(back.BesideMulticycleDelay, m.BesideMulticycleDelay) {
		t.Errorf("read back %v, want %v", back.BesideMulticycleDelay, m.BesideMulticycleDelay)
	}
	c := m.Clone()
	c.BesideMulticycleDelay["xmm"] = 0.9
	if m.BesideMulticycleDelay["xmm"] != 0.55 {
		t.Errorf("Clone shares the map")
	}
	d := Diff(&Model{Name: "x", ISA: "x86", Ports: []string{"0"}}, m, DiffOptions{})
	if len(d.Header) != 1 || d.Header[0].Field != "beside_multicycle_delay" || d.Header[0].B != "xmm +0.55, ymm +0.54" {
		t.Errorf("diff header %+v, want the delay added", d.Header)
	}
	for _, c := range []struct{ yaml, want string }{
		{"beside_multicycle_delay: {mm: 0.5}", `unknown width "mm"`},
		{"beside_multicycle_delay: {ymm: 1.5}", "1.5 cycles, want 0 to 1"},
	} {
		src := "name: x\nisa: x86\nports: ['0']\n" + c.yaml + "\ninstruction_forms: []\n"
		_, err := Parse("bad.yml", []byte(src), LoadOptions{})
		if err == nil || !strings.Contains(err.Error(), "bad.yml:4") || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want bad.yml:4 and %q", c.yaml, err, c.want)
		}
	}
}

// TestBuildMeasuresBesideDelay: the chains beside two vpmaddwd a link
// reach the built model's header and the build report, against the
// vpaddd latency and the vpmaddwd's measured throughput; a build whose
// chains ran at their bound has none, and one without the chains keeps
// the base's.
func TestBuildMeasuresBesideDelay(t *testing.T) {
	bench := func(form, kind, operands string, mode string, v float64) *results.Benchmark {
		key := "latency"
		if mode == "inverse_throughput" {
			key = "inverse_throughput"
		}
		return &results.Benchmark{Mode: mode, Measurements: []results.Measurement{{Key: key, Value: v, PerSnippetValue: 2 * v}},
			Portlab: &results.Extra{ID: form + kind + operands, Form: form, Kind: kind, Operands: operands, Median: v, Reps: 5, Clean: 5, Host: "h", Date: "2026-11-28T21:00:00Z"}}
	}
	sweep := func(beside float64) []*results.Benchmark {
		return []*results.Benchmark{
			bench("vpaddd xmm, xmm, xmm", "latency", "1->0", "latency", 1),
			bench("vpmaddwd xmm, xmm, xmm", "throughput", "", "inverse_throughput", 0.5),
			bench("vpaddd xmm, xmm, xmm", LateForwardKind, LateForwardAlone, "latency", 1.36),
			bench("vpaddd xmm, xmm, xmm", LateForwardKind, LateForwardFed, "latency", 1.36),
			bench("vpaddd xmm, xmm, xmm", LateForwardKind, LateForwardBeside2, "latency", beside),
		}
	}
	ms := CollectMeasurements(sweep(1.549), CollectOptions{})
	if r := ms.LateForward["xmm"]; r == nil || r.Beside2 != 1.549 {
		t.Fatalf("collected xmm chains %+v, want beside two 1.549", r)
	}
	m, rep, err := Build(ms, BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if want := map[string]float64{"xmm": 0.55}; !maps.Equal(m.BesideMulticycleDelay, want) {
		t.Errorf("built beside_multicycle_delay %v, want %v", m.BesideMulticycleDelay, want)
	}
	if m.LateForwarding != nil {
		t.Errorf("late_forwarding %v from chains that ran alike alone and fed", m.LateForwarding)
	}
	wantPass(t, rep, "one-cycle vector work beside multi-cycle work", true, "xmm 1.55 +- 0.00 cycles a link beside two vpmaddwd (its bound 1.00)")
	m2, rep2, err := Build(CollectMeasurements(sweep(1.003), CollectOptions{}), BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if m2.BesideMulticycleDelay != nil {
		t.Errorf("beside_multicycle_delay %v from a chain at its latency", m2.BesideMulticycleDelay)
	}
	wantPass(t, rep2, "one-cycle vector work beside multi-cycle work", false, "xmm 1.00 +- 0.00 cycles a link beside two vpmaddwd")
	base := &Model{Name: "base", ISA: "x86", Ports: []string{"0"}, BesideMulticycleDelay: map[string]float64{"ymm": 0.5}}
	m3, rep3, err := Build(CollectMeasurements(sweep(1.549)[:2], CollectOptions{}), BuildOptions{Base: base})
	if err != nil {
		t.Fatal(err)
	}
	if m3.BesideMulticycleDelay["ymm"] != 0.5 {
		t.Errorf("the base's delay did not stay: %v", m3.BesideMulticycleDelay)
	}
	wantPass(t, rep3, "one-cycle vector work beside multi-cycle work", false, "not measured: the base's beside_multicycle_delay stays (ymm +0.50)")
}
