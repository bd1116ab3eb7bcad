package modeldb

import (
	"math"
	"math/rand"
	"slices"
	"strings"
	"testing"
	"time"

	"portlab/results"
)

var fixedNow = func() time.Time { return time.Date(2025, 6, 2, 0, 0, 0, 0, time.UTC) }

// TestBuildFromResultsFile builds a model from the hand-written results in
// testdata: the FP adder and multiplier end up on disjoint ports, the FMA
// on the multiplier's, imul on one of add's four ALU ports.
func TestBuildFromResultsFile(t *testing.T) {
	bs, err := results.ReadFile("../testdata/models/sweep-results.yaml")
	if err != nil {
		t.Fatal(err)
	}
	ms := CollectMeasurements(bs, CollectOptions{})
	if len(ms.Forms) != 6 || len(ms.Mixes) != 10 || strings.Join(ms.Skipped, "; ") != "1 failed benchmarks; 1 unmeasurable forms" {
		t.Fatalf("collected %d forms, %d mixes, skipped %q", len(ms.Forms), len(ms.Mixes), ms.Skipped)
	}
	if ms.Forms["cpuid"].Unmeasurable == "" {
		t.Error("unmeasurable reason lost")
	}
	fm := ms.Forms["vfmadd231pd ymm, ymm, ymm"]
	if fm.Throughput != 0.5 || fm.Latencies["0->0"] != 4 || fm.Latencies["1->0"] != 4 || fm.Host != "AuthenticAMD-25-61-2" {
		t.Errorf("vfmadd231pd measurements %+v", fm)
	}
	m, rep, err := Build(ms, BuildOptions{Now: fixedNow, Sources: []string{"sweep-results.yaml"}})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Measured != 5 || rep.MixesUsed != 10 || rep.LowConfidence != 0 || rep.DispatchWidth != 6 || m.DispatchWidth != 6 {
		t.Errorf("report:\n%s", rep.Summary(10))
	}
	add, mul := portSet(t, m, "vaddpd ymm, ymm, ymm"), portSet(t, m, "vmulpd ymm, ymm, ymm")
	alu, imul := portSet(t, m, "add r64, r64"), portSet(t, m, "imul r64, r64")
	checkFPPorts(t, m, bs[0].CPUName, ms.Hosts[0]) // a Zen 4: adds and multiplies apart
	if len(add) != 2 || len(mul) != 2 {
		t.Errorf("vaddpd %v, vmulpd %v", add, mul)
	}
	if len(alu) != 4 || len(imul) != 1 || !disjoint(alu, add) || !disjoint(alu, mul) {
		t.Errorf("add %v, imul %v", alu, imul)
	}
	for p := range imul {
		if !alu[p] {
			t.Errorf("imul port %s is not one of add's", p)
		}
	}
	e, _ := m.Lookup("vfmadd231pd ymm, ymm, ymm")
	if e.Latency != 4 || len(e.Latencies) != 2 || e.Throughput != 0.5 || e.Uops != 1 {
		t.Errorf("vfmadd231pd entry %+v", e)
	}
	pr := e.Provenance
	if pr.Source != SourceMeasured || pr.Host != "AuthenticAMD-25-61-2" || pr.Date != "2025-06-01" || pr.Confidence != "high" || pr.FitError > 0.001 {
		t.Errorf("provenance %+v", pr)
	}
	if m.Provenance.From != "portlab model build sweep-results.yaml" || m.Provenance.Date != "2025-06-02" {
		t.Errorf("model provenance %+v", m.Provenance)
	}
	// Every mix is reproduced.
	r := EvaluateMixMeasurements(m, ms.Mixes, 0.01)
	if r.Within != 10 {
		t.Errorf("fit mixes:\n%s", r.Summary(10))
	}
	// The model validates.
	data, _ := m.Marshal()
	if _, err := Parse("built.yml", data, LoadOptions{}); err != nil {
		t.Fatal(err)
	}
}

// TestBuildSyntheticSweep is the acceptance test on synthetic
// measurements from a Zen-4-like ground truth (1 % noise): FMA and
// multiply on the same two FP ports, add on two others, and 200 random
// mixes of 2-4 forms, none used for fitting, predicted within 10 % for at
// least 90 % of them.
func TestBuildSyntheticSweep(t *testing.T) {
	truth := loadTruth(t)
	for _, noise := range []float64{0.01, 0.03} {
		ms := synthMeasurements(t, truth, noise, 1)
		m, rep, err := Build(ms, BuildOptions{Now: fixedNow})
		if err != nil {
			t.Fatal(err)
		}
		add, mul := portSet(t, m, "vaddpd ymm, ymm, ymm"), portSet(t, m, "vmulpd ymm, ymm, ymm")
		checkFPPorts(t, m, truth.LLVMCPU, "") // the truth is a Zen 4
		if len(add) != 2 {
			t.Errorf("noise %v: vaddpd %v", noise, add)
		}
		// The ground truth's structure, up to port names.
		if len(m.Ports) != 11 { // 4 ALU + 3 AGU + 4 FP; the store ports hide behind the AGUs
			t.Errorf("noise %v: %d ports %v", noise, len(m.Ports), m.Ports)
		}
		if s := portSet(t, m, "vdivpd ymm, ymm, ymm"); len(s) != 1 || !mul[firstKey(s)] || !portSet(t, m, "vshufpd ymm, ymm, ymm, imm8")[firstKey(s)] {
			t.Errorf("noise %v: the divider %v is not the FP port multiply and shuffle share", noise, s)
		}
		r := EvaluateMixMeasurements(m, randomMixes(t, truth, 200, noise, 2), 0.10)
		t.Logf("noise %v: %s", noise, r.Summary(3))
		if r.N != 200 || r.Fraction() < 0.9 {
			t.Errorf("noise %v: %d of %d random mixes within 10%%", noise, r.Within, r.N)
		}
		if noise == 0.01 && rep.LowConfidence != 0 {
			t.Errorf("low-confidence forms with 1%% noise:\n%s", rep.Summary(10))
		}
	}
}

func firstKey(s map[string]bool) string {
	for k := range s {
		return k
	}
	return ""
}

// TestBuildWithBase starts from a base model with mistakes and checks that
// exactly the mistakes are corrected and recorded.
func TestBuildWithBase(t *testing.T) {
	truth := loadTruth(t)
	ms := synthMeasurements(t, truth, 0.01, 1)
	base := truth.Clone()
	base.Name = "imported"
	base.Provenance = &Provenance{Source: SourceImported, From: "llvm-mca 14 -mcpu=test"}
	wrong := map[string]PortPressure{
		"vaddpd ymm, ymm, ymm":      {{1, []string{"FP0", "FP1"}}},
		"vfmadd231pd ymm, ymm, ymm": {{1, []string{"FP2", "FP3"}}},
		"imul r64, r64":             {{1, []string{"ALU0"}}},
	}
	for f, pp := range wrong {
		e, _ := base.Lookup(f)
		e.PortPressure = pp
	}
	e, _ := base.Lookup("vpermpd ymm, ymm, imm8")
	e.Throughput, e.PortPressure = 0.5, PortPressure{{1, []string{"FP1", "FP2"}}}
	// A form the sweep did not measure stays as imported.
	base.Put(&Entry{Form: "vsqrtpd ymm, ymm", Uops: 1, Latency: 20, Throughput: 9, PortPressure: PortPressure{{9, []string{"FP1"}}}})
	m, rep, err := Build(ms, BuildOptions{Base: base, Now: fixedNow})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(m.Ports, " ") != strings.Join(base.Ports, " ") {
		t.Errorf("ports changed: %v", m.Ports)
	}
	corrected := map[string]bool{}
	for _, c := range rep.Corrections {
		if c.Field == "port_pressure" || c.Field == "throughput" {
			corrected[c.Form] = true
		}
	}
	want := []string{"imul r64, r64", "vaddpd ymm, ymm, ymm", "vfmadd231pd ymm, ymm, ymm", "vpermpd ymm, ymm, imm8"}
	if len(corrected) != len(want) {
		t.Errorf("corrected %v, want %v\n%s", corrected, want, rep.Summary(20))
	}
	for _, f := range want {
		if !corrected[f] {
			t.Errorf("%q not corrected", f)
		}
		if got, tr := portSet(t, m, f), portSet(t, truth, f); !sameSet(got, tr) {
			t.Errorf("%q on %v, truth %v", f, got, tr)
		}
	}
	e, _ = m.Lookup("vaddpd ymm, ymm, ymm")
	if !strings.Contains(e.Provenance.Note, "replaced port_pressure 1*p[FP0,FP1] -> 1*p[FP2,FP3] (llvm-mca 14 -mcpu=test)") {
		t.Errorf("correction not recorded: %q", e.Provenance.Note)
	}
	e, _ = m.Lookup("vpermpd ymm, ymm, imm8")
	if !strings.Contains(e.Provenance.Note, "throughput 0.5 -> 1") {
		t.Errorf("throughput correction not recorded: %q", e.Provenance.Note)
	}
	e, _ = m.Lookup("vsqrtpd ymm, ymm")
	if e.Throughput != 9 || e.Provenance != nil {
		t.Errorf("unmeasured base entry changed: %+v", e)
	}
	e, _ = m.Lookup("vmulpd ymm, ymm, ymm")
	if strings.Contains(e.Provenance.Note, "replaced") {
		t.Errorf("a correct entry was corrected: %q", e.Provenance.Note)
	}
	if m.Provenance.Note != `started from "imported" (llvm-mca 14 -mcpu=test)` {
		t.Errorf("model provenance %+v", m.Provenance)
	}
}

// TestBuildLowConfidence: forms the mixes cannot explain, and forms with
// no mixes at all, are marked low-confidence rather than guessed silently.
func TestBuildLowConfidence(t *testing.T) {
	truth := loadTruth(t)
	ms := synthMeasurements(t, truth, 0.01, 1)
	// A form measured alone only.
	ms.Forms["vsqrtpd ymm, ymm"] = &FormMeasurements{Form: "vsqrtpd ymm, ymm", Throughput: 9, Latencies: map[string]float64{}}
	// Mixes that no port mapping explains: imul slows down with a vector add.
	for _, mx := range ms.Mixes {
		if len(mx.Parts) == 2 && mx.Parts[0].Form == "imul r64, m64" && mx.Parts[1].Form == "vaddpd ymm, ymm, ymm" {
			mx.Cycles *= 1.6
		}
	}
	m, rep, err := Build(ms, BuildOptions{Now: fixedNow})
	if err != nil {
		t.Fatal(err)
	}
	fits := map[string]FormFit{}
	for _, f := range rep.Fits {
		fits[f.Form] = f
	}
	if f := fits["vsqrtpd ymm, ymm"]; f.Confidence != "low" || !strings.Contains(f.Note, "no port-conflict measurements") {
		t.Errorf("vsqrtpd fit %+v", f)
	}
	e, _ := m.Lookup("vsqrtpd ymm, ymm")
	if e.Throughput != 9 || len(e.PortPressure) != 0 || e.Provenance.Confidence != "low" {
		t.Errorf("vsqrtpd entry %+v %+v", e, e.Provenance)
	}
	if f := fits["imul r64, m64"]; f.Confidence != "low" || f.MaxError < 0.2 {
		t.Errorf("imul r64, m64 fit %+v", f)
	}
	if f := fits["vmulpd ymm, ymm, ymm"]; f.Confidence != "high" {
		t.Errorf("vmulpd fit %+v", f)
	}
}

func TestBuildHoldOut(t *testing.T) {
	truth := loadTruth(t)
	ms := synthMeasurements(t, truth, 0.01, 1)
	m, rep, err := Build(ms, BuildOptions{HoldOut: 0.25, Now: fixedNow})
	if err != nil {
		t.Fatal(err)
	}
	n := len(ms.Mixes)
	if len(rep.HeldOut) < n/6 || len(rep.HeldOut) > n/3 || rep.MixesUsed+len(rep.HeldOut) != n {
		t.Errorf("held out %d of %d (used %d)", len(rep.HeldOut), n, rep.MixesUsed)
	}
	// The split is stable.
	_, rep2, _ := Build(ms, BuildOptions{HoldOut: 0.25, Now: fixedNow})
	if len(rep2.HeldOut) != len(rep.HeldOut) || rep2.HeldOut[0].Key() != rep.HeldOut[0].Key() {
		t.Error("held-out mixes differ between runs")
	}
	// A held-out mix can be the only evidence that tells two mappings
	// apart: with both of vfmadd231ps's mixes with vaddpd and vmulpd held
	// out, its fitted mixes fit it on the adder's ports as well as on the
	// multiplier's, and the order ports were opened in decides (7 of 69
	// held-out mixes missed one way, 5 the other). A broken fit misses
	// far more.
	r := EvaluateMixMeasurements(m, rep.HeldOut, 0.10)
	if r.Fraction() < 0.85 {
		t.Errorf("held-out mixes:\n%s", r.Summary(5))
	}
}

func TestEvaluateMixes(t *testing.T) {
	bs, err := results.ReadFile("../testdata/models/sweep-results.yaml")
	if err != nil {
		t.Fatal(err)
	}
	m := loadTruth(t)
	r := EvaluateMixes(m, bs, 0.10, AllMixes)
	// The truth model has all five forms and their ports as the fixture says.
	if r.N != 10 || r.Within != 10 || r.Missing != 0 || r.MeanAbs > 1e-9 {
		t.Errorf("report:\n%s", r.Summary(10))
	}
	// The fixture's mixes are register-only: one kind, which the summary
	// does not break down.
	if len(r.ByMemory) != 1 || r.ByMemory[0] != (GroupScore{Group: "registers only", N: 10, Within: 10}) || strings.Contains(r.Summary(0), "by memory access") {
		t.Errorf("by memory %+v; summary:\n%s", r.ByMemory, r.Summary(0))
	}
	// A model lacking a form counts its mixes as missing.
	m2 := m.Clone()
	m2.Forms = m2.Forms[:0]
	for _, e := range m.Forms {
		if e.Form != "imul r64, r64" {
			m2.Forms = append(m2.Forms, e)
		}
	}
	m2.Reindex()
	r = EvaluateMixes(m2, bs, 0.10, AllMixes)
	if r.N != 6 || r.Missing != 4 || r.MissingForms["imul r64, r64"] != 4 {
		t.Errorf("report:\n%s", r.Summary(10))
	}
	if !strings.Contains(r.Summary(0), `4 mixes not predicted: forms missing from the model ("imul r64, r64")`) {
		t.Errorf("summary:\n%s", r.Summary(0))
	}
	// Random mixes (kind random-mix) are collected apart, never fitted,
	// and scored on their own when asked.
	var mixes []*results.Benchmark
	for _, b := range bs {
		if b.Portlab != nil && len(b.Portlab.Mix) > 0 {
			mixes = append(mixes, b)
		}
	}
	rnd := *mixes[0]
	x := *rnd.Portlab
	x.Kind = RandomMixKind
	rnd.Portlab = &x
	with := append(append([]*results.Benchmark(nil), bs...), &rnd)
	ms := CollectMeasurements(with, CollectOptions{})
	if len(ms.RandomMixes) != 1 || len(ms.Mixes) != 10 {
		t.Fatalf("%d random and %d port mixes collected, want 1 and 10", len(ms.RandomMixes), len(ms.Mixes))
	}
	_, rep, err := Build(ms, BuildOptions{Now: fixedNow})
	if err != nil {
		t.Fatal(err)
	}
	if rep.MixesUsed != 10 {
		t.Errorf("the fit used %d mixes, want the 10 port mixes only", rep.MixesUsed)
	}
	for set, want := range map[MixSet]int{AllMixes: 11, PortMixesOnly: 10, RandomMixesOnly: 1} {
		if r := EvaluateMixes(m, with, 0.10, set); r.N != want {
			t.Errorf("mix set %d: %d mixes scored, want %d", set, r.N, want)
		}
	}
}

// Masked and {evex}-spelled variants that were never mixed take the ports
// of the form they vary when their throughput is the same.
func TestBuildJoinsUnmixedVariants(t *testing.T) {
	for n, want := range map[string]string{
		"vaddpd zmm {k}{z}, zmm, zmm":  "vaddpd zmm, zmm, zmm",
		"vaddpd ymm {k}, ymm, m64bcst": "vaddpd ymm, ymm, m64bcst",
		"{evex} vaddpd ymm, ymm, ymm":  "vaddpd ymm, ymm, ymm",
		"vcmppd k {k}, zmm, zmm, imm8": "vcmppd k, zmm, zmm, imm8",
		"vaddpd ymm, ymm, ymm":         "",
		"kmovw k, k":                   "",
	} {
		if got := variantOf(n); got != want {
			t.Errorf("variantOf(%q) = %q, want %q", n, got, want)
		}
	}
	truth := loadTruth(t)
	ms := synthMeasurements(t, truth, 0.01, 1)
	variants := map[string]string{
		"vaddpd ymm {k}, ymm, ymm":    "vaddpd ymm, ymm, ymm",
		"{evex} vmulpd ymm, ymm, ymm": "vmulpd ymm, ymm, ymm",
	}
	for v, of := range variants {
		fm := *ms.Forms[of]
		fm.Form = v
		ms.Forms[v] = &fm
	}
	m, _, err := Build(ms, BuildOptions{Now: fixedNow})
	if err != nil {
		t.Fatal(err)
	}
	for v, of := range variants {
		if got, want := portSet(t, m, v), portSet(t, m, of); len(want) == 0 || !sameSet(got, want) {
			t.Errorf("%s on %v, %s on %v: want the same ports", v, sortedKeys(got), of, sortedKeys(want))
		}
	}
}

// Forms the base model lacks still load through the base's memory path:
// with two load ports where vector loads go, two forms that each load at
// one a cycle alone run at one a cycle together, which their probe mixes
// (integer loads and stores, execution ports) cannot show.
func TestBuildMemoryPartFromTheBase(t *testing.T) {
	truth := loadTruth(t)
	truth.Ports = append(truth.Ports, "VL0", "VL1")
	vecLoad := PortPressure{{1, []string{"VL0", "VL1"}}, {1, []string{"AGU0", "AGU1", "AGU2"}}}
	for _, f := range []string{"vmovupd ymm, m256", "vaddpd ymm, ymm, m256", "vmulpd ymm, ymm, m256", "vfmadd231pd ymm, ymm, m256"} {
		e, _ := truth.Lookup(f)
		e.PortPressure = append(append(PortPressure{}, e.PortPressure[:len(e.PortPressure)-1]...), vecLoad...)
	}
	truth.Put(&Entry{Form: "vmovups ymm, m256", Uops: 1, Latency: 7, Throughput: 0.5, PortPressure: vecLoad})
	ms := synthMeasurements(t, truth, 0.01, 1)

	base := truth.Clone()
	kept := base.Forms[:0]
	for _, e := range base.Forms {
		if e.Form != "vaddpd ymm, ymm, m256" && e.Form != "vmulpd ymm, ymm, m256" {
			kept = append(kept, e)
		}
	}
	base.Forms = kept
	base.Reindex()
	m, rep, err := Build(ms, BuildOptions{Base: base, Now: fixedNow})
	if err != nil {
		t.Fatal(err)
	}
	wantPass(t, rep, "memory part from the base", true, "the base's plain loads and stores use")
	for _, f := range []string{"vaddpd ymm, ymm, m256", "vmulpd ymm, ymm, m256"} {
		if got := portSet(t, m, f); !got["VL0"] || !got["VL1"] {
			t.Errorf("%s on %v: want the vector load ports VL0, VL1", f, sortedKeys(got))
		}
	}
	mix := []MixPart{{Form: "vaddpd ymm, ymm, m256", Count: 4}, {Form: "vmulpd ymm, ymm, m256", Count: 4}}
	want, _ := NewPredictor(truth).Predict(mix)
	got, err := NewPredictor(m).Predict(mix)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(got.Cycles-want.Cycles) > 0.05*want.Cycles {
		t.Errorf("4 vaddpd ymm, m256 + 4 vmulpd ymm, m256: predicted %.2f cycles, truth %.2f", got.Cycles, want.Cycles)
	}
}

// A base model's uop count that the measured throughput contradicts is
// corrected: no form dispatches more uops than the dispatch width allows in
// the cycles it takes.
func TestBuildCapsUopsByThroughput(t *testing.T) {
	truth := loadTruth(t)
	ms := synthMeasurements(t, truth, 0.01, 1)
	base := truth.Clone()
	e, _ := base.Lookup("popcnt r64, r64") // 4 a cycle measured
	e.Uops = 6
	m, rep, err := Build(ms, BuildOptions{Base: base, Now: fixedNow})
	if err != nil {
		t.Fatal(err)
	}
	if e, _ := m.Lookup("popcnt r64, r64"); e.Uops != 1 {
		t.Errorf("popcnt r64, r64: %v uops, want 1 (6 dispatch slots cannot run 4 a cycle)", e.Uops)
	}
	found := false
	for _, c := range rep.Corrections {
		found = found || (c.Form == "popcnt r64, r64" && c.Field == "uops" && c.Old == "6" && c.New == "1")
	}
	if !found {
		t.Errorf("the uops correction is not recorded:\n%s", rep.Summary(20))
	}
	for _, c := range []struct{ uops, tp, width, want float64 }{
		{6, 0.25, 6, 1}, {3, 1, 6, 3}, {4, 0.5, 6, 3}, {2, 0.25, 0, 2}, {1, 0.1, 6, 1},
	} {
		if got := uopsWithin(c.uops, c.tp, c.width); got != c.want {
			t.Errorf("uopsWithin(%v, %v, %v) = %v, want %v", c.uops, c.tp, c.width, got, c.want)
		}
	}
}

// A masked variant never mixed, whose throughput differs from its
// unmasked form's, gets that form's ports scaled to its throughput.
func TestBuildVariantTakesItsFormsPorts(t *testing.T) {
	truth := loadTruth(t)
	ms := synthMeasurements(t, truth, 0.01, 1)
	ms.Forms["vaddpd ymm {k}, ymm, ymm"] = &FormMeasurements{Form: "vaddpd ymm {k}, ymm, ymm", Throughput: 0.62}
	m, _, err := Build(ms, BuildOptions{Base: truth, Now: fixedNow})
	if err != nil {
		t.Fatal(err)
	}
	got, want := portSet(t, m, "vaddpd ymm {k}, ymm, ymm"), portSet(t, m, "vaddpd ymm, ymm, ymm")
	if len(want) == 0 || !sameSet(got, want) {
		t.Errorf("vaddpd ymm {k} on %v, vaddpd ymm on %v", sortedKeys(got), sortedKeys(want))
	}
	if e, _ := m.Lookup("vaddpd ymm {k}, ymm, ymm"); !strings.Contains(e.Provenance.Note, "variant") {
		t.Errorf("note %q does not say where the ports came from", e.Provenance.Note)
	}
}

// lea measured per address shape: the results are the entry's addressing
// list, not its own latency and throughput, and survive a save and load.
func TestBuildAddressShapes(t *testing.T) {
	res := func(kind, shape string, v float64) *results.Benchmark {
		return &results.Benchmark{Mode: "latency", Measurements: []results.Measurement{{Key: "latency", Value: v}},
			Portlab: &results.Extra{ID: kind + shape, Form: "lea r64, m", Kind: kind, Addressing: shape, Operands: "mem->0", Median: v, Reps: 5, Clean: 5, Host: "h"}}
	}
	bs := []*results.Benchmark{
		{Mode: "latency", Measurements: []results.Measurement{{Key: "latency", Value: 1}}, Portlab: &results.Extra{ID: "l", Form: "lea r64, m", Kind: "latency", Operands: "mem->0", Median: 1, Reps: 5, Clean: 5, Host: "h"}},
		{Mode: "inverse_throughput", Measurements: []results.Measurement{{Key: "inverse_throughput", Value: 0.25}}, Portlab: &results.Extra{ID: "t", Form: "lea r64, m", Kind: "throughput", Median: 0.25, Reps: 5, Clean: 5, Host: "h"}},
		res(AddressLatencyKind, "base+index+disp", 2), res(AddressThroughputKind, "base+index+disp", 0.5),
		res(AddressLatencyKind, "base+disp", 1), res(AddressThroughputKind, "base+disp", 0.25),
	}
	bs[3].Mode, bs[3].Measurements = "inverse_throughput", []results.Measurement{{Key: "inverse_throughput", Value: 0.5}}
	bs[5].Mode, bs[5].Measurements = "inverse_throughput", []results.Measurement{{Key: "inverse_throughput", Value: 0.25}}
	ms := CollectMeasurements(bs, CollectOptions{})
	fm := ms.Forms["lea r64, m"]
	if fm == nil || fm.Throughput != 0.25 || fm.Latencies["mem->0"] != 1 {
		t.Fatalf("the form's own figures took the shapes' in: %+v", fm)
	}
	if a := fm.Addressing["base+index+disp"]; a == nil || a.Latency != 2 || a.Throughput != 0.5 {
		t.Fatalf("shape base+index+disp: %+v", a)
	}
	m, _, err := Build(ms, BuildOptions{Now: fixedNow})
	if err != nil {
		t.Fatal(err)
	}
	back := roundTrip(t, m, "m.yml")
	data, err := m.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	e, _ := back.Lookup("lea r64, m")
	if a, ok := e.ForShape("base+index+disp"); !ok || a.Latency != 2 || a.Throughput != 0.5 || e.Latency != 1 || e.Throughput != 0.25 {
		t.Errorf("entry %+v, shape %+v", e, a)
	}
	if len(e.Addressing) != 2 || e.Addressing[0].Shape != "base+disp" {
		t.Errorf("addressing %+v: want the measured shapes in isa.AddressShapes order", e.Addressing)
	}
	bad := strings.Replace(string(data), "base+index+disp", "base+disp+index", 1)
	if _, err := Parse("bad.yml", []byte(bad), LoadOptions{}); err == nil || !strings.Contains(err.Error(), `"base+disp+index" is not an address shape`) || !strings.Contains(err.Error(), "bad.yml:") {
		t.Errorf("a bad shape: %v", err)
	}
}

// The generator puts a zero idiom before each adc (fresh flags): its
// snippets are dispatch-bound at two instructions an adc. The resets are
// counted as overhead slots, alone and in mixes, so the fit does not
// invent ports to explain the dispatch limit (uncounted, adc comes out on
// the AGUs and an FP pipe), and predictions of measured mixes count them
// too.
func TestResetsTakeDispatchSlots(t *testing.T) {
	tp := func(form string, lines []string, n int, per float64) *results.Benchmark {
		return &results.Benchmark{Mode: "inverse_throughput", Key: results.Key{Instructions: lines},
			Measurements: []results.Measurement{{Key: "inverse_throughput", Value: per / float64(n), PerSnippetValue: per}},
			Portlab:      &results.Extra{ID: form, Form: form, Kind: "throughput", Median: per / float64(n), Reps: 5, Clean: 5, Host: "h"}}
	}
	repeat := func(n int, lines ...string) []string {
		var out []string
		for i := 0; i < n; i++ {
			out = append(out, lines...)
		}
		return out
	}
	mix := func(id string, parts []results.MixPart, lines []string, per float64) *results.Benchmark {
		n := 0
		for _, p := range parts {
			n += p.Count
		}
		b := tp(parts[0].Form, lines, n, per)
		b.Portlab.ID, b.Portlab.Kind, b.Portlab.Mix = id, "ports", parts
		return b
	}
	adc, add, imul := "adc r64, imm8", "add r64, r64", "imul r64, r64"
	bs := []*results.Benchmark{
		tp(adc, repeat(8, "xor r11d, r11d", "adc rax, 1"), 8, 8*2/6.0), // dispatch: 16 slots at 6
		tp(add, repeat(8, "add rax, rcx"), 8, 2),
		tp(imul, repeat(4, "imul rax, rcx"), 4, 4),
		// adc beside imul: imul's port bounds it (4 cycles), not the
		// 12 slots.
		mix("m1", []results.MixPart{{Form: adc, Count: 4}, {Form: imul, Count: 4}}, repeat(4, "xor r11d, r11d", "adc rax, 1", "imul rcx, rdx"), 4),
		// adc beside twice as many adds: 24 uops on the 4 ALUs, 6 cycles
		// (32 slots would take 5.33).
		mix("m2", []results.MixPart{{Form: adc, Count: 8}, {Form: add, Count: 16}}, repeat(8, "xor r11d, r11d", "adc rax, 1", "add rcx, rdx", "add rsi, rdx"), 6),
		// adc beside a few adds: 20 slots, 3.33 cycles at 6 a cycle (the
		// ports take 3; without the resets 12 slots would take 2).
		mix("m4", []results.MixPart{{Form: adc, Count: 8}, {Form: add, Count: 4}}, repeat(4, "xor r11d, r11d", "adc rax, 1", "add rcx, rdx", "xor r11d, r11d", "adc rax, 1"), 20/6.0),
		mix("m3", []results.MixPart{{Form: add, Count: 8}, {Form: imul, Count: 2}}, repeat(2, "add rax, rcx", "add rax, rcx", "add rax, rcx", "add rax, rcx", "imul rdx, rsi"), 2.5),
	}
	ms := CollectMeasurements(bs, CollectOptions{})
	if o := ms.Forms[adc].Overhead; o != 1 {
		t.Fatalf("adc overhead %v slots an instance, want 1", o)
	}
	if o := ms.Forms[add].Overhead; o != 0 {
		t.Fatalf("add overhead %v, want 0", o)
	}
	var m2 *MixMeasurement
	for _, mx := range ms.Mixes {
		if mx.Key() == mixKey([]MixPart{{Form: adc, Count: 8}, {Form: add, Count: 16}}) {
			m2 = mx
		}
	}
	if m2 == nil || m2.Overhead != 8 {
		t.Fatalf("mix adc+add: %+v, want 8 overhead slots", m2)
	}
	m, rep, err := Build(ms, BuildOptions{Now: fixedNow})
	if err != nil {
		t.Fatal(err)
	}
	if rep.DispatchWidth != 6 {
		t.Errorf("dispatch width %v, want 6 (adc and its resets: 2 slots each at 1/3 cycle)", rep.DispatchWidth)
	}
	alu, adcPorts := portSet(t, m, add), portSet(t, m, adc)
	if e, _ := m.Lookup(adc); e.Provenance.FitError > 0.01 {
		t.Errorf("adc fits its mixes with error %.1f%%: %s", 100*e.Provenance.FitError, e.Provenance.Note)
	}
	// At most 3 adc a cycle with their resets: 3 or 4 of the ALUs fit.
	if len(adcPorts) < 3 || len(alu) != 4 {
		t.Errorf("adc on %v, add on %v: want adc on 3 or 4 of add's 4 ALU ports", adcPorts, alu)
	}
	for p := range adcPorts {
		if !alu[p] {
			t.Errorf("adc on port %s, not one of add's ALU ports %v", p, alu)
		}
	}
	pred := NewPredictor(m)
	if pr, err := pred.PredictWithOverhead(m2.Parts, m2.Overhead); err != nil || pr.Bound != "ports" || math.Abs(pr.Cycles-6) > 0.05 {
		t.Errorf("adc+add with its resets predicted %.2f cycles (%s, %v), measured 6 (ports)", pr.Cycles, pr.Bound, err)
	}
	// 8 adds and 8 other instructions: 16 slots, 2.67 cycles; the ports
	// take 2.
	if pr, err := pred.PredictWithOverhead([]MixPart{{Form: add, Count: 8}}, 8); err != nil || pr.Bound != "dispatch" || math.Abs(pr.Cycles-16/6.0) > 0.05 {
		t.Errorf("8 adds and 8 overhead slots predicted %.2f cycles (%s, %v), want 2.67 (dispatch)", pr.Cycles, pr.Bound, err)
	}
}

// A thing measured by two versions of the generator's code (different
// result IDs) takes the newest snippet's values: a fixed generator flaw
// (a mix's loads reading a masked store's bytes, FMA chains short of
// registers) must not be averaged back in. Without dates, all count.
func TestNewestSnippetSupersedes(t *testing.T) {
	res := func(id, date, kind string, v float64, mix []results.MixPart) *results.Benchmark {
		return &results.Benchmark{Mode: "inverse_throughput", Measurements: []results.Measurement{{Key: "inverse_throughput", Value: v, PerSnippetValue: v * 2}},
			Portlab: &results.Extra{ID: id, Form: "vaddpd ymm, ymm, ymm", Kind: kind, Median: v, Reps: 5, Clean: 5, Host: "h", Date: date, Mix: mix}}
	}
	mix := []results.MixPart{{Form: "vaddpd ymm, ymm, ymm", Count: 1}, {Form: "add r64, r64", Count: 1}}
	ms := CollectMeasurements([]*results.Benchmark{
		res("old", "2026-11-24T10:00:00Z", "throughput", 0.8, nil),
		res("old", "2026-11-24T11:00:00Z", "throughput", 0.9, nil),
		res("new", "2026-11-25T10:00:00Z", "throughput", 0.5, nil),
		res("oldmix", "2026-11-24T10:00:00Z", "ports", 4, mix),
		res("newmix", "2026-11-25T10:00:00Z", "ports", 1, mix),
	}, CollectOptions{})
	if tp := ms.Forms["vaddpd ymm, ymm, ymm"].Throughput; tp != 0.5 {
		t.Errorf("throughput %v, want the newest snippet's 0.5", tp)
	}
	if len(ms.Mixes) != 1 || ms.Mixes[0].Cycles != 2 {
		t.Errorf("mixes %+v, want one of 2 cycles (the newest snippet's)", ms.Mixes)
	}
	// The same forms measured again in other counts (the generator
	// changed a copy's size): the older counts are not collected.
	mix2 := []results.MixPart{{Form: "vaddpd ymm, ymm, ymm", Count: 2}, {Form: "add r64, r64", Count: 1}}
	ms = CollectMeasurements([]*results.Benchmark{
		res("newmix2", "2026-11-26T10:00:00Z", "ports", 3, mix2),
		res("oldmix", "2026-11-24T10:00:00Z", "ports", 4, mix),
		res("fit", "2026-11-20T10:00:00Z", "fit-mix", 4, mix),
	}, CollectOptions{})
	if len(ms.Mixes) != 2 || ms.Mixes[0].Parts[0].Count != 2 || !ms.Mixes[1].Random {
		t.Errorf("mixes %+v, want the newer counts' probe mix and the fit mix (another kind)", ms.Mixes)
	}
	undated := CollectMeasurements([]*results.Benchmark{res("a", "", "ports", 3, mix2), res("b", "", "ports", 4, mix)}, CollectOptions{})
	if len(undated.Mixes) != 2 {
		t.Errorf("undated mixes in other counts: %d collected, want both", len(undated.Mixes))
	}
	ms = CollectMeasurements([]*results.Benchmark{res("a", "", "throughput", 1, nil), res("b", "", "throughput", 3, nil), res("c", "", "throughput", 2, nil)}, CollectOptions{})
	if tp := ms.Forms["vaddpd ymm, ymm, ymm"].Throughput; tp != 2 {
		t.Errorf("undated results: throughput %v, want the median of all, 2", tp)
	}
}

// Random mixes measured for fitting (kind fit-mix) teach the fit what the
// probes cannot: with only integer probes, the vector forms' ports are
// guesses (vaddpd and vfmadd231ps behave alike beside them and share a
// class). Fit mixes of 2-4 forms improve the classes' fit, and with a
// split tolerance correct them: the classes whose fit they contradict are
// split. They do not make classes themselves (a random mix's partners are
// its own), and a fit mix equal to a validation mix is not fitted.
func TestBuildFitsRandomMixes(t *testing.T) {
	truth := loadTruth(t)
	intProbes := []string{"add r64, r64", "imul r64, r64", "shl r64, imm8", "mov r64, m64", "mov m64, r64"}
	ms := synthSweep(t, truth, 0.01, 1, func(string) []string { return intProbes })
	validation := randomMixes(t, truth, 200, 0.01, 2)
	without, repWithout, err := Build(ms, BuildOptions{Now: fixedNow})
	if err != nil {
		t.Fatal(err)
	}
	for _, mx := range randomMixes(t, truth, 400, 0.01, 3) {
		mx.Random = true
		ms.Mixes = append(ms.Mixes, mx)
	}
	unsplit, repUnsplit, err := Build(ms, BuildOptions{Now: fixedNow})
	if err != nil {
		t.Fatal(err)
	}
	if repUnsplit.Classes != repWithout.Classes || len(repUnsplit.Split) != 0 {
		t.Errorf("fit mixes changed the classes: %d (%d split), without them %d", repUnsplit.Classes, len(repUnsplit.Split), repWithout.Classes)
	}
	with, repWith, err := Build(ms, BuildOptions{Now: fixedNow, Infer: InferOptions{SplitTolerance: 0.10}})
	if err != nil {
		t.Fatal(err)
	}
	if len(repWith.Split) == 0 || !strings.Contains(repWith.Summary(3), "classes of their own") {
		t.Errorf("no class split; report:\n%s", repWith.Summary(3))
	}
	members := map[int]int{}
	for _, f := range repWith.Fits {
		members[f.Class]++
	}
	for _, f := range repWith.Fits {
		if slices.Contains(repWith.Split, f.Form) && members[f.Class] != 1 {
			t.Errorf("split form %s shares class %d with %d others", f.Form, f.Class, members[f.Class]-1)
		}
	}
	rw, ru, rwo := EvaluateMixMeasurements(with, validation, 0.10), EvaluateMixMeasurements(unsplit, validation, 0.10), EvaluateMixMeasurements(without, validation, 0.10)
	t.Logf("without fit mixes: %s\nwith them: %s\nsplit: %s", rwo.Summary(3), ru.Summary(3), rw.Summary(3))
	if ru.Fraction() < rwo.Fraction()+0.03 {
		t.Errorf("validation mixes within 10%%: %.1f%% with fit mixes, %.1f%% without (want 3 points more)", 100*ru.Fraction(), 100*rwo.Fraction())
	}
	if rw.Fraction() < 0.9 || rw.Fraction() < ru.Fraction()+0.1 {
		t.Errorf("validation mixes within 10%%: %.1f%% with fit mixes and split classes, %.1f%% without splitting (want at least 90%% and 10 points more)", 100*rw.Fraction(), 100*ru.Fraction())
	}

	// A fit-mix result equal to a random-mix result is left out.
	res := func(kind string, v float64) *results.Benchmark {
		return &results.Benchmark{Mode: "inverse_throughput", Measurements: []results.Measurement{{Key: "inverse_throughput", Value: v, PerSnippetValue: 2 * v}},
			Portlab: &results.Extra{Kind: kind, Mix: []results.MixPart{{Form: "add r64, r64", Count: 1}, {Form: "imul r64, r64", Count: 1}}}}
	}
	got := CollectMeasurements([]*results.Benchmark{res(FitMixKind, 0.5), res(RandomMixKind, 0.5)}, CollectOptions{})
	if len(got.Mixes) != 0 || len(got.RandomMixes) != 1 {
		t.Errorf("a fit mix equal to a validation mix: %d fitted, %d validation mixes (want 0 and 1)", len(got.Mixes), len(got.RandomMixes))
	}
	got = CollectMeasurements([]*results.Benchmark{res(FitMixKind, 0.5)}, CollectOptions{})
	if len(got.Mixes) != 1 || !got.Mixes[0].Random {
		t.Errorf("a fit mix alone: %d fitted mixes (want 1, marked Random)", len(got.Mixes))
	}
}

// A base with two load ports where the host has three: the plain load's
// measured rate grows the group by a new port, and every form that reads
// 128 bits or less loads through the grown group too, however its own
// throughput is bound (imul r64, m64 by its multiplier); 256-bit load-ops
// keep the base's group.
func TestBuildNarrowLoadsTakeTheGrownLoadPorts(t *testing.T) {
	truth := loadTruth(t)
	ms := synthMeasurements(t, truth, 0.01, 1)
	base := truth.Clone()
	for _, e := range base.Forms {
		for _, pp := range []PortPressure{e.PortPressure} {
			for i, u := range pp {
				if slices.Equal(u.Ports, []string{"AGU0", "AGU1", "AGU2"}) {
					pp[i].Ports = []string{"AGU0", "AGU1"}
				}
			}
		}
	}
	base.Reindex()
	m, rep, err := Build(ms, BuildOptions{Base: base, Now: fixedNow})
	if err != nil {
		t.Fatal(err)
	}
	wantPass(t, rep, "narrow loads on every load port", true, "more than the base's load ports")
	grown := func(form string) bool {
		for p := range portSet(t, m, form) {
			if strings.HasPrefix(p, "new") {
				return true
			}
		}
		return false
	}
	for _, f := range []string{"mov r64, m64", "imul r64, m64"} {
		if !grown(f) {
			t.Errorf("%s on %v: want the grown load group", f, sortedKeys(portSet(t, m, f)))
		}
	}
	if f := "vaddpd ymm, ymm, m256"; grown(f) {
		t.Errorf("%s on %v: a 256-bit load-op took the grown load group", f, sortedKeys(portSet(t, m, f)))
	}
}

// A few mixes run much slower than any port mapping explains (front-end
// or memory limits the bottleneck model lacks): with each mix's share of
// the fit error capped (InferOptions.ErrorCap) they cost the classes they
// touch a miss each, not a pull towards mappings that mispredict the rest.
func TestBuildErrorCapResistsUnexplainedMixes(t *testing.T) {
	truth := loadTruth(t)
	ms := synthMeasurements(t, truth, 0.01, 1)
	for _, mx := range randomMixes(t, truth, 400, 0.01, 3) {
		mx.Random = true
		ms.Mixes = append(ms.Mixes, mx)
	}
	rng := rand.New(rand.NewSource(4))
	slowed := 0
	for _, mx := range ms.Mixes {
		if rng.Float64() < 0.15 {
			mx.Cycles *= 1.4 + 0.6*rng.Float64()
			slowed++
		}
	}
	validation := randomMixes(t, truth, 300, 0.01, 5)
	score := func(errCap float64) *MixReport {
		m, _, err := Build(ms, BuildOptions{Now: fixedNow, Infer: InferOptions{ErrorCap: errCap}})
		if err != nil {
			t.Fatal(err)
		}
		return EvaluateMixMeasurements(m, validation, 0.10)
	}
	capped, plain := score(0), score(100)
	t.Logf("%d of %d mixes slowed by 40-100 %%\ncapped: %s\nplain RMS: %s", slowed, len(ms.Mixes), capped.Summary(0), plain.Summary(0))
	if capped.Fraction() < 0.97 || capped.Fraction() < plain.Fraction()+0.04 {
		t.Errorf("validation mixes within 10%%: %.1f%% with the error cap, %.1f%% with plain RMS (want at least 97 %% and 4 points more)", 100*capped.Fraction(), 100*plain.Fraction())
	}
}

// A form the base model has as one uop on one port group, measured as two
// uops on two groups (LLVM 14's sapphirerapids has vcvtqq2ps ymm, zmm as
// one uop on p05; the Granite Rapids guest runs one on port 0 and one on
// port 5): when no one-use mapping fits its mixes, the fit tries two.
func TestBuildSplitsAOneUopBaseFormTheMixesSplit(t *testing.T) {
	truth := loadTruth(t)
	const form = "vcvtdq2pd ymm, xmm" // truth: 1*p[FP0,FP1] + 1*p[FP2,FP3]
	ms := synthMeasurements(t, truth, 0.01, 1)
	base := truth.Clone()
	e, _ := base.Lookup(form)
	e.Uops, e.PortPressure = 1, PortPressure{{4, []string{"FP0", "FP1", "FP2", "FP3"}}}
	m, rep, err := Build(ms, BuildOptions{Base: base, Now: fixedNow})
	if err != nil {
		t.Fatal(err)
	}
	got, _ := m.Lookup(form)
	want, _ := truth.Lookup(form)
	if FormatPressure(got.PortPressure) != FormatPressure(want.PortPressure) {
		t.Errorf("%s: ports %s, want %s (%s)\n%s", form, FormatPressure(got.PortPressure), FormatPressure(want.PortPressure), got.Provenance.Note, rep.Summary(10))
	}
}

// The dividers of LLVM's Intel models (Divider, FPDivider) are units
// behind port 0, not issue ports: no candidate group joins one with a
// port, though the groups the classes use would make such unions.
func TestVocabularyKeepsDividersApart(t *testing.T) {
	ports := []string{"Divider", "FPDivider", "0", "1", "5"}
	if got := unitPorts(ports); got != 0b11 {
		t.Fatalf("unitPorts(%v) = %b, want 11", ports, got)
	}
	p := &inferProblem{ports: ports, basePorts: len(ports), units: unitPorts(ports)}
	p.classes = []*inferClass{
		{cur: []maskUse{{0b00001, 4}}},               // a divide: Divider
		{cur: []maskUse{{0b11100, 1}}},               // p015
		{cur: []maskUse{{0b00010, 1}, {0b00100, 1}}}, // FPDivider + p0
	}
	p.partners = [][]int{{1, 2}, {0, 2}, {0, 1}}
	for c := range p.classes {
		all, _ := p.vocabularyOf(c)
		for _, g := range all {
			if g&p.units != 0 && g&^p.units != 0 {
				t.Errorf("class %d: vocabulary holds %b, a divider joined with ports", c, g)
			}
		}
		if !slices.Contains(all, 0b00001) || !slices.Contains(all, 0b11100) {
			t.Errorf("class %d: vocabulary %b lacks the classes' own groups", c, all)
		}
	}
	// Without units the same classes would offer Divider+p015.
	p.units = 0
	all, _ := p.vocabularyOf(0)
	if !slices.Contains(all, 0b11101) {
		t.Errorf("without units the vocabulary %b lacks Divider+p015: the test no longer shows what it guards", all)
	}
}

// TestScaleToScalesTheDividerAlone: a base mapping whose divider sets the
// bound reaches a slower measured throughput by the divider's cycles
// alone (a divide is one issue-port uop however long it divides), faster
// or slower, while the divider still binds; one whose issue ports set the
// bound scales as a whole.
func TestScaleToScalesTheDividerAlone(t *testing.T) {
	ports := []string{"Divider", "FPDivider", "0", "1", "5"}
	p := &inferProblem{ports: ports, basePorts: len(ports), units: unitPorts(ports)}
	const fpdiv, p0 = 0b00010, 0b00100
	for _, c := range []struct {
		uses []maskUse
		tp   float64
		want []maskUse
	}{
		{[]maskUse{{fpdiv, 5}, {p0, 1}}, 8, []maskUse{{fpdiv, 8}, {p0, 1}}},        // vdivpd ymm: 5 in LLVM 14, 8 measured
		{[]maskUse{{fpdiv, 5}, {p0, 1}}, 4, []maskUse{{fpdiv, 4}, {p0, 1}}},        // faster than the base: the divider too
		{[]maskUse{{fpdiv, 2}, {p0, 1}}, 0.5, []maskUse{{fpdiv, 0.5}, {p0, 0.25}}}, // the port would bind: all scale
		{[]maskUse{{fpdiv, 1}, {p0, 3}}, 6, []maskUse{{fpdiv, 2}, {p0, 6}}},        // the port binds: all scale
		{[]maskUse{{p0, 1}}, 2, []maskUse{{p0, 2}}},
	} {
		got := p.scaleTo(c.uses, c.tp)
		if !equalUses(got, c.want) {
			t.Errorf("scaleTo(%v, %v) = %v, want %v", c.uses, c.tp, got, c.want)
		}
	}
	p.units = 0 // without units (abstract ports) everything scales
	if got := p.scaleTo([]maskUse{{fpdiv, 5}, {p0, 1}}, 8); !equalUses(got, []maskUse{{fpdiv, 8}, {p0, 1.6}}) {
		t.Errorf("without units: %v", got)
	}
}

// Within the tolerance a memory form keeps its register form plus a plain
// load (composed) over a mapping of its own, even a smaller one; only the
// base's mapping and the base grown by new ports come first.
func TestComposedMemoryMappingWins(t *testing.T) {
	composed := &candidate{uses: []maskUse{{0b0011, 1}, {0b1100, 1}}, composed: true, err: 0.04}
	own := &candidate{uses: []maskUse{{0b0001, 1}}, err: 0.03}
	base := &candidate{uses: []maskUse{{0b0011, 1}, {0b1100, 1}, {0b10000, 1}}, isBase: true, err: 0.045}
	for _, first := range []bool{true, false} {
		if !smaller(composed, own, first) || smaller(own, composed, first) {
			t.Errorf("first=%t: the one-use mapping of its own wins over register form + load", first)
		}
		if !smaller(base, composed, first) || smaller(composed, base, first) {
			t.Errorf("first=%t: register form + load wins over the base mapping", first)
		}
	}
	// Without the mark the one-use mapping is the smaller.
	plain := *composed
	plain.composed = false
	if !smaller(own, &plain, false) {
		t.Error("one use is not smaller than two without the composed mark")
	}
}

// A 512-bit form whose mixes leave its vector ports open (mixed with
// integer probes only, as a base without AVX-512 leaves it) takes its
// 256-bit form's ports, scaled to its throughput (Zen 4 runs 512-bit work
// on the 256-bit pipes twice), not the smallest group that explains its
// throughput alone.
func TestBuildWideFormsFromTheirNarrowForms(t *testing.T) {
	truth := loadTruth(t)
	truth.Put(&Entry{Form: "vpmulld zmm, zmm, zmm", Uops: 1, Latency: 3, Throughput: 1, PortPressure: PortPressure{{2, []string{"FP0", "FP3"}}}})
	truth.Put(&Entry{Form: "vshufpd zmm, zmm, zmm, imm8", Uops: 2, Latency: 3, Throughput: 2, PortPressure: PortPressure{{4, []string{"FP1", "FP2"}}}})
	integer := []string{"add r64, r64", "imul r64, r64", "shl r64, imm8", "mov r64, m64", "mov m64, r64"}
	ms := synthSweep(t, truth, 0.01, 1, func(f string) []string {
		if strings.Contains(f, "zmm") {
			return integer
		}
		return synthProbes
	})
	base := loadTruth(t) // no 512-bit form
	m, rep, err := Build(ms, BuildOptions{Base: base, Now: fixedNow})
	if err != nil {
		t.Fatal(err)
	}
	wantPass(t, rep, "512-bit forms from their 256-bit forms", true, "2 of 2 classes of 512-bit forms have their 256-bit form measured")
	for form, want := range map[string]string{"vpmulld zmm, zmm, zmm": "2*p[FP0,FP3]", "vshufpd zmm, zmm, zmm, imm8": "4*p[FP1,FP2]"} {
		e, ok := m.Lookup(form)
		if !ok {
			t.Fatalf("%s not in the model", form)
		}
		if got := FormatPressure(e.PortPressure); got != want {
			t.Errorf("%s: ports %s, want %s, its 256-bit form's scaled to its throughput (%s)", form, got, want, e.Provenance.Note)
		}
	}
	mix := []MixPart{{Form: "vpmulld ymm, ymm, ymm", Count: 8}, {Form: "vpmulld zmm, zmm, zmm", Count: 4}}
	want, _ := NewPredictor(truth).Predict(mix)
	got, err := NewPredictor(m).Predict(mix)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(got.Cycles-want.Cycles) > 0.05*want.Cycles {
		t.Errorf("8 vpmulld ymm + 4 vpmulld zmm: predicted %.2f cycles, truth %.2f", got.Cycles, want.Cycles)
	}
}

// A latency below zero (a chain that ran faster than its helpers, in a
// results file written before the sweep called that an error) is left
// out and counted, and the built model loads.
func TestNegativeLatencyLeftOut(t *testing.T) {
	lat := func(pair string, v float64) *results.Benchmark {
		return &results.Benchmark{Mode: "latency", Measurements: []results.Measurement{{Key: "latency", Value: v}},
			Portlab: &results.Extra{ID: pair, Form: "vpconflictd ymm, m32bcst", Kind: "latency", Operands: pair, Median: v, Reps: 5, Clean: 5, Host: "h"}}
	}
	bs := []*results.Benchmark{lat("mem->0", -2.5),
		{Mode: "inverse_throughput", Measurements: []results.Measurement{{Key: "inverse_throughput", Value: 4}}, Portlab: &results.Extra{ID: "t", Form: "vpconflictd ymm, m32bcst", Kind: "throughput", Median: 4, Reps: 5, Clean: 5, Host: "h"}}}
	ms := CollectMeasurements(bs, CollectOptions{})
	fm := ms.Forms["vpconflictd ymm, m32bcst"]
	if fm == nil || len(fm.Latencies) != 0 || fm.Throughput != 4 {
		t.Fatalf("collected %+v", fm)
	}
	if !slices.ContainsFunc(ms.Skipped, func(s string) bool { return s == "1 latencies below what their chains' helpers take" }) {
		t.Errorf("skipped: %q", ms.Skipped)
	}
	m, _, err := Build(ms, BuildOptions{Now: fixedNow})
	if err != nil {
		t.Fatal(err)
	}
	roundTrip(t, m, "m.yml")
}

// The header's load latency of a vector class is its plain load's
// load-to-use latency where measured; a class not measured keeps the
// base's.
func TestVectorLoadLatencyInTheHeader(t *testing.T) {
	res := func(form, kind, pair string, v float64) *results.Benchmark {
		mode, key := "latency", "latency"
		if kind == "throughput" {
			mode, key = "inverse_throughput", "inverse_throughput"
		}
		return &results.Benchmark{Mode: mode, Measurements: []results.Measurement{{Key: key, Value: v}},
			Portlab: &results.Extra{ID: form + kind, Form: form, Kind: kind, Operands: pair, Median: v, Reps: 5, Clean: 5, Host: "h"}}
	}
	bs := []*results.Benchmark{res("vmovups ymm, m256", "latency", "mem->0", 7), res("vmovups ymm, m256", "throughput", "", 0.5)}
	base := &Model{Name: "base", ISA: "x86", LoadLatency: map[string]float64{"xmm": 8, "ymm": 8}}
	m, rep, err := Build(CollectMeasurements(bs, CollectOptions{}), BuildOptions{Now: fixedNow, Base: base})
	if err != nil {
		t.Fatal(err)
	}
	if got := m.LoadLatency; got["ymm"] != 7 || got["xmm"] != 8 {
		t.Errorf("load latency %v, want ymm 7 as measured, xmm 8 from the base", got)
	}
	i := slices.IndexFunc(rep.Passes, func(p Pass) bool { return p.Name == "loads and stores in the header" })
	if i < 0 || !slices.Contains(rep.Passes[i].Changes, "load latency ymm 7") {
		t.Errorf("the pass does not say so: %+v", rep.Passes)
	}
}

// A report's per-mix outcomes come in the order of the mixes evaluated,
// whatever order the report lists them in (worst first), and a mix the
// model could not predict counts as a miss.
func TestReportWithinEach(t *testing.T) {
	m, err := LoadFile("../testdata/models/synthetic-zen4.yml", LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	mix := func(cycles float64, parts ...MixPart) *MixMeasurement {
		return &MixMeasurement{Parts: parts, Cycles: cycles}
	}
	add := MixPart{Form: "add r64, r64", Count: 4}              // 1 cycle on the four ALUs
	fma := MixPart{Form: "vfmadd231pd ymm, ymm, ymm", Count: 2} // 1 cycle on FP0/FP1
	mixes := []*MixMeasurement{
		mix(1, add), // right
		mix(2, add), // 50 % off
		mix(1, MixPart{Form: "vmulpd zmm, zmm, zmm", Count: 1}), // not in the model
		mix(0, add),         // no cycles
		mix(1.05, add, fma), // within 10 %
	}
	r := EvaluateMixMeasurements(m, mixes, 0.10)
	if got, want := r.WithinEach(len(mixes)), []bool{true, false, false, false, true}; !slices.Equal(got, want) {
		t.Errorf("within each %v, want %v (report order %+v)", got, want, r.Mixes)
	}
}

// The base mapping stands while it predicts every mix of its class within
// 10 %, however much closer another mapping fits those mixes; past that,
// the smallest mapping within the tolerance of the best fit wins.
func TestBaseStandsWithinTenPercent(t *testing.T) {
	base := &candidate{uses: []maskUse{{0b0011, 1}}, isBase: true, err: 0.06, maxErr: 0.09, n: 3}
	closer := &candidate{uses: []maskUse{{0b0110, 1}}, err: 0.004, maxErr: 0.006, n: 3}
	if got := choose([]*candidate{closer, base}, 0.004+DefaultTolerance, false); got != base {
		t.Errorf("chose %v, want the base mapping (every mix within 10 %%)", got.uses)
	}
	base.maxErr = 0.12
	if got := choose([]*candidate{closer, base}, 0.004+DefaultTolerance, false); got != closer {
		t.Errorf("chose %v, want the closer mapping (the base misses a mix by 12 %%)", got.uses)
	}
	// A base mapping no mix could judge does not stand by that rule.
	base.maxErr, base.n = 0, 0
	if got := choose([]*candidate{closer, base}, 0.004+DefaultTolerance, false); got != closer {
		t.Errorf("chose %v with no mix evaluated, want the closer mapping", got.uses)
	}
	if got := choose(nil, 1, true); got != nil {
		t.Errorf("chose %v from no candidates", got.uses)
	}
}

// A model kept as it stands takes the operand latencies a newer build
// lists and it lacks, and only those: its own pairs, and entries with one
// latency for every pair, stay as they are.
func TestAddLatencies(t *testing.T) {
	kept := &Model{Forms: []*Entry{
		{Form: "shl r64, cl", Latency: 1, Latencies: []OperandLatency{{From: "0", To: "0", Cycles: 1}},
			Provenance: &Provenance{Source: SourceMeasured, Note: "ports inferred from 12 mixes"}},
		{Form: "rcl r64, cl", Latency: 2, Latencies: []OperandLatency{{From: "0", To: "0", Cycles: 2}}},
		{Form: "add r64, r64", Latency: 1},
	}}
	built := &Model{Forms: []*Entry{
		{Form: "shl r64, cl", Latency: 1.1, Latencies: []OperandLatency{{From: "0", To: "0", Cycles: 1.1}, {From: "flags", To: "flags", Cycles: 0.3363}}},
		{Form: "rcl r64, cl", Latency: 4, Latencies: []OperandLatency{{From: "0", To: "0", Cycles: 2}, {From: "flags", To: "flags", Cycles: 4}}},
		{Form: "add r64, r64", Latency: 1, Latencies: []OperandLatency{{From: "1", To: "0", Cycles: 1}}},
		{Form: "adc r64, r64", Latency: 1, Latencies: []OperandLatency{{From: "flags", To: "flags", Cycles: 1}}},
	}}
	pairs, forms := kept.AddLatencies(built, "portlab characterize on h, 2026-12-02")
	if pairs != 2 || forms != 2 {
		t.Errorf("added %d pairs to %d forms, want 2 to 2", pairs, forms)
	}
	shl, _ := kept.Lookup("shl r64, cl")
	if len(shl.Latencies) != 2 || shl.Latencies[0].Cycles != 1 || shl.Latencies[1] != (OperandLatency{From: "flags", To: "flags", Cycles: 0.3363}) || shl.Latency != 1 {
		t.Errorf("shl r64, cl: latency %v, pairs %+v", shl.Latency, shl.Latencies)
	}
	if want := "ports inferred from 12 mixes; added latency flags->flags 0.3363 (portlab characterize on h, 2026-12-02)"; shl.Provenance.Note != want {
		t.Errorf("note %q, want %q", shl.Provenance.Note, want)
	}
	rcl, _ := kept.Lookup("rcl r64, cl")
	if rcl.Latency != 4 || len(rcl.Latencies) != 2 || rcl.Provenance != nil {
		t.Errorf("rcl r64, cl: latency %v, pairs %+v, provenance %+v: want 4, the flags pair added, no provenance made up", rcl.Latency, rcl.Latencies, rcl.Provenance)
	}
	add, _ := kept.Lookup("add r64, r64")
	if len(add.Latencies) != 0 {
		t.Errorf("add r64, r64 had one latency for every pair, now %+v", add.Latencies)
	}
	if _, ok := kept.Lookup("adc r64, r64"); ok {
		t.Error("a form the kept model lacks was added")
	}
}
