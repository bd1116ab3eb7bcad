package modeldb

import (
	"maps"
	"strings"
	"testing"

	"portlab/results"
)

// TestLateForwardingFromMeasurements: the delay counts from 0.3 cycles a
// link and is rounded up to whole cycles from there (the Emerald Rapids
// guest's chains: xmm 1.64, ymm 1.44-1.58, zmm 3.00, all 1.00 alone).
func TestLateForwardingFromMeasurements(t *testing.T) {
	got := lateForwardingOf(map[string]*LateForwardRun{
		"xmm": {Alone: 1.0001, Fed: 1.6403},
		"ymm": {Alone: 0.9970, Fed: 1.4423},
		"zmm": {Alone: 1.0198, Fed: 2.9986},
	})
	if want := map[string]int{"xmm": 1, "ymm": 1, "zmm": 2}; !maps.Equal(got, want) {
		t.Errorf("Emerald Rapids chains: %v, want %v", got, want)
	}
	if got := lateForwardingOf(map[string]*LateForwardRun{"ymm": {Alone: 1.0, Fed: 1.2}, "xmm": {Alone: 1, Fed: 1.01}}); got != nil {
		t.Errorf("fed chains within 0.3 cycles of alone: %v, want none", got)
	}
	// Zen 3 with the neighbour busy: the fed chain 0.35 slower, but its
	// uncertainty a quarter of a cycle.
	if got := lateForwardingOf(map[string]*LateForwardRun{"ymm": {Alone: 1.0184, AloneUncertainty: 0.0322, Fed: 1.3734, FedUncertainty: 0.2474}}); got != nil {
		t.Errorf("a delay within the chains' uncertainty: %v, want none", got)
	}
	if got := lateForwardingOf(map[string]*LateForwardRun{"ymm": {Alone: 0.9970, AloneUncertainty: 0.005, Fed: 1.4423, FedUncertainty: 0.006}}); got["ymm"] != 1 {
		t.Errorf("converged chains 0.45 apart: %v, want ymm +1", got)
	}
	if got := lateForwardingOf(map[string]*LateForwardRun{"zmm": {Fed: 3}}); got != nil {
		t.Errorf("the chain alone not measured: %v, want none", got)
	}
}

// TestLateForwardingRoundTrip: the header survives writing, reading,
// cloning and model diff; bad widths and counts are errors naming the
// file and line.
func TestLateForwardingRoundTrip(t *testing.T) {
	m := &Model{Name: "x", ISA: "x86", Ports: []string{"0"}, LateForwarding: map[string]int{"ymm": 1, "zmm": 2}}
	data, err := m.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), "late_forwarding: {ymm: 1, zmm: 2}") {
		t.Errorf("written:\n%s", data)
	}
	back, err := Parse("x.yml", data, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !maps.Equal(back.LateForwarding, m.LateForwarding) {
		t.Errorf("read back %v, want %v", back.LateForwarding, m.LateForwarding)
	}
	c := m.Clone()
	c.LateForwarding["zmm"] = 5
	if m.LateForwarding["zmm"] != 2 {
		t.Errorf("Clone shares the late forwarding map")
	}
	d := Diff(&Model{Name: "x", ISA: "x86", Ports: []string{"0"}}, m, DiffOptions{})
	if len(d.Header) != 1 || d.Header[0].Field != "late_forwarding" || d.Header[0].B != "ymm +1, zmm +2" {
		t.Errorf("diff header %+v, want late forwarding added", d.Header)
	}
	for _, c := range []struct{ yaml, want string }{
		{"late_forwarding: {mm: 1}", `unknown width "mm"`},
		{"late_forwarding: {zmm: 40}", "40 extra cycles"},
	} {
		src := "name: x\nisa: x86\nports: ['0']\n" + c.yaml + "\ninstruction_forms: []\n"
		_, err := Parse("bad.yml", []byte(src), LoadOptions{})
		if err == nil || !strings.Contains(err.Error(), "bad.yml:4") || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want bad.yml:4 and %q", c.yaml, err, c.want)
		}
	}
}

// TestBuildMeasuresLateForwarding: the late-forwarding chains of a sweep
// reach the built model's header and the build report; chains that show
// no delay leave it out, and without them the pass says so.
func TestBuildMeasuresLateForwarding(t *testing.T) {
	res := func(form, operands string, v float64) *results.Benchmark {
		return &results.Benchmark{Mode: "latency", Measurements: []results.Measurement{{Key: "latency", Value: v, PerSnippetValue: 2 * v}},
			Portlab: &results.Extra{ID: form + operands, Form: form, Kind: LateForwardKind, Operands: operands, Median: v, Reps: 5, Clean: 5, Host: "h", Date: "2026-11-27T09:00:00Z"}}
	}
	lat := &results.Benchmark{Mode: "latency", Measurements: []results.Measurement{{Key: "latency", Value: 1, PerSnippetValue: 1}},
		Portlab: &results.Extra{ID: "lat", Form: "vpaddd zmm, zmm, zmm", Kind: "latency", Operands: "1->0", Median: 1, Reps: 5, Clean: 5, Host: "h", Date: "2026-11-27T09:00:00Z"}}
	bs := []*results.Benchmark{lat,
		res("vpaddd zmm, zmm, zmm", LateForwardAlone, 1.0198), res("vpaddd zmm, zmm, zmm", LateForwardFed, 2.9986),
		res("vpaddd ymm, ymm, ymm", LateForwardAlone, 0.997), res("vpaddd ymm, ymm, ymm", LateForwardFed, 1.5779),
	}
	ms := CollectMeasurements(bs, CollectOptions{})
	if r := ms.LateForward["zmm"]; r == nil || r.Alone != 1.0198 || r.Fed != 2.9986 {
		t.Fatalf("collected zmm chains %+v, want 1.0198 and 2.9986", r)
	}
	if l := ms.Forms["vpaddd zmm, zmm, zmm"].Latencies["1->0"]; l != 1 {
		t.Errorf("the chains changed the form's own latency: %v", l)
	}
	m, rep, err := Build(ms, BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if want := map[string]int{"ymm": 1, "zmm": 2}; !maps.Equal(m.LateForwarding, want) {
		t.Errorf("built late_forwarding %v, want %v", m.LateForwarding, want)
	}
	wantPass(t, rep, "late forwarding", true, "zmm 1.02 +- 0.00 cycles a link alone, 3.00 +- 0.00 fed by vpmaddwd")
	quiet := []*results.Benchmark{lat, res("vpaddd zmm, zmm, zmm", LateForwardAlone, 1), res("vpaddd zmm, zmm, zmm", LateForwardFed, 1.02)}
	m2, rep2, err := Build(CollectMeasurements(quiet, CollectOptions{}), BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if m2.LateForwarding != nil {
		t.Errorf("late_forwarding %v where the fed chain ran as fast", m2.LateForwarding)
	}
	wantPass(t, rep2, "late forwarding", false, "zmm 1.00 +- 0.00 cycles a link alone, 1.02 +- 0.00 fed")
	_, rep3, err := Build(CollectMeasurements(bs[:1], CollectOptions{}), BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	wantPass(t, rep3, "late forwarding", false, "not measured")
}

// TestShowLateForwarding: model show says what late forwarding does to a
// one-cycle vector form, and nothing for others or without the header.
func TestShowLateForwarding(t *testing.T) {
	src := `name: x
isa: x86
ports: ['0', '5']
late_forwarding: {ymm: 1, zmm: 2}
instruction_forms:
  - {form: "vpaddd ymm, ymm, ymm", uops: 1, latency: 1.001, throughput: 0.33, port_pressure: [[1, '05']]}
  - {form: "vpaddd zmm, zmm, zmm", uops: 1, latency: 1, throughput: 0.5, port_pressure: [[1, '05']]}
  - {form: "vpaddd ymm, ymm, m256", uops: 2, latency: 1, throughput: 0.5, port_pressure: [[1, '05']]}
  - {form: "vpmaddwd zmm, zmm, zmm", uops: 1, latency: 6, throughput: 0.5, port_pressure: [[1, '05']]}
  - {form: "add r64, r64", uops: 1, latency: 1, throughput: 0.25, port_pressure: [[1, '05']]}
`
	m, err := Parse("x.yml", []byte(src), LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for form, want := range map[string]string{
		"vpaddd ymm, ymm, ymm":   "+1 cycle(s) on its result when it reads a result of 4-cycle-or-longer vector work directly (+2 beside 512-bit work)",
		"vpaddd zmm, zmm, zmm":   "+2 cycle(s) on its result",
		"vpaddd ymm, ymm, m256":  "",
		"vpmaddwd zmm, zmm, zmm": "",
		"add r64, r64":           "",
	} {
		e, ok := m.Lookup(form)
		if !ok {
			t.Fatalf("%s not in the model", form)
		}
		var b strings.Builder
		m.WriteEntry(&b, e)
		got := b.String()
		if want == "" && strings.Contains(got, "late fwd") || want != "" && !strings.Contains(got, "late fwd     "+want) {
			t.Errorf("%s: model show says\n%s\nwant a late-forwarding line %q", form, got, want)
		}
	}
	m.LateForwarding = nil
	e, _ := m.Lookup("vpaddd ymm, ymm, ymm")
	var b strings.Builder
	m.WriteEntry(&b, e)
	if strings.Contains(b.String(), "late fwd") {
		t.Errorf("without the header:\n%s", b.String())
	}
}
