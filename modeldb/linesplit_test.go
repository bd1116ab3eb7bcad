package modeldb

import (
	"maps"
	"strings"
	"testing"

	"portlab/isa"
	"portlab/results"
)

// TestLineSplitFromMeasurements: the factor is the split stream's cycles
// a load over the plain load's throughput (the Zen 3 guest: 1.00 against
// 0.50 for xmm and ymm, 0.70 against 0.333 for gpr), where it shows 1.1
// times beyond the stream's uncertainty; none where the stream runs as
// the plain load does, where its uncertainty covers the difference, or
// where the plain load was not measured.
func TestLineSplitFromMeasurements(t *testing.T) {
	got := lineSplitOf(map[string]*LineSplitRun{
		"gpr": {Cycles: 0.7002, Uncertainty: 0.04},
		"xmm": {Cycles: 0.9996, Uncertainty: 0.003},
		"ymm": {Cycles: 1.0016, Uncertainty: 0.002},
		"zmm": {Cycles: 1.01, Uncertainty: 0.01},
	}, map[string]float64{"gpr": 0.3323, "xmm": 0.4997, "ymm": 0.5007, "zmm": 1.0})
	if want := map[string]float64{"gpr": 2.11, "xmm": 2, "ymm": 2}; !maps.Equal(got, want) {
		t.Errorf("Zen 3 streams: %v, want %v", got, want)
	}
	if got := lineSplitOf(map[string]*LineSplitRun{"ymm": {Cycles: 0.8, Uncertainty: 0.4}}, map[string]float64{"ymm": 0.5}); got != nil {
		t.Errorf("within the uncertainty: %v, want none", got)
	}
	if got := lineSplitOf(map[string]*LineSplitRun{"ymm": {Cycles: 1}}, nil); got != nil {
		t.Errorf("no plain load: %v, want none", got)
	}
	// Six unconverged results of the Zen 3 guest's gpr stream: the
	// fastest; converged ones beside them: their median.
	gpr := []lineSplitValue{{0.712, 0.036, false}, {0.915, 0.134, false}, {0.891, 0.295, false}, {0.688, 0.028, false}, {1.022, 0.115, false}, {0.992, 0.049, false}}
	if r := lineSplitRunOf(gpr); r.Cycles != 0.688 || r.Uncertainty != 0.028 || r.Converged {
		t.Errorf("unconverged stream: %+v, want the fastest, 0.688 +- 0.028", r)
	}
	if r := lineSplitRunOf(append(gpr, lineSplitValue{0.67, 0.002, true}, lineSplitValue{0.66, 0.001, true}, lineSplitValue{0.8, 0.002, true})); r.Cycles != 0.67 || !r.Converged {
		t.Errorf("with converged results: %+v, want their median 0.67", r)
	}
	for bytes, want := range map[int]string{0: "", 1: "gpr", 8: "gpr", 10: "xmm", 16: "xmm", 32: "ymm", 64: "zmm", 128: ""} {
		if got := LineSplitClass(bytes); got != want {
			t.Errorf("LineSplitClass(%d) = %q, want %q", bytes, got, want)
		}
	}
	for class, form := range map[string]string{"gpr": "mov r64, m64", "ymm": "vmovups ymm, m256", "mm": ""} {
		if got := LineSplitPlainLoad(class); got != form {
			t.Errorf("LineSplitPlainLoad(%q) = %q, want %q", class, got, form)
		}
	}
	for form := range LineSplitForms {
		if _, ok := isa.Lookup(form); !ok {
			t.Errorf("%s is not in the catalog", form)
		}
	}
}

// TestLineSplitRoundTrip: the header survives writing, reading, cloning
// and model diff; bad classes and factors are errors naming the file and
// line.
func TestLineSplitRoundTrip(t *testing.T) {
	m := &Model{Name: "x", ISA: "x86", Ports: []string{"0"}, LoadLineSplit: map[string]float64{"gpr": 2.11, "ymm": 2}}
	data, err := m.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), "load_line_split: {gpr: 2.11, ymm: 2}") {
		t.Errorf("written:\n%s", data)
	}
	back, err := Parse("x.yml", data, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !maps.Equal(back.LoadLineSplit, m.LoadLineSplit) {
		t.Errorf("read back %v, want %v", back.LoadLineSplit, m.LoadLineSplit)
	}
	c := m.Clone()
	c.LoadLineSplit["ymm"] = 3
	if m.LoadLineSplit["ymm"] != 2 {
		t.Errorf("Clone shares the map")
	}
	d := Diff(&Model{Name: "x", ISA: "x86", Ports: []string{"0"}}, m, DiffOptions{})
	if len(d.Header) != 1 || d.Header[0].Field != "load_line_split" || d.Header[0].B != "gpr x2.11, ymm x2.00" {
		t.Errorf("diff header %+v, want the factors added", d.Header)
	}
	for _, c := range []struct{ yaml, want string }{
		{"load_line_split: {mm: 2}", `unknown class "mm"`},
		{"load_line_split: {ymm: 0.5}", "x0.5, want 1 to 8"},
	} {
		src := "name: x\nisa: x86\nports: ['0']\n" + c.yaml + "\ninstruction_forms: []\n"
		_, err := Parse("bad.yml", []byte(src), LoadOptions{})
		if err == nil || !strings.Contains(err.Error(), "bad.yml:4") || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want bad.yml:4 and %q", c.yaml, err, c.want)
		}
	}
}

// TestBuildMeasuresLineSplits: the line-split streams of a sweep reach
// the built model's header and the build report against the plain
// loads' throughputs; a build without them keeps the base's.
func TestBuildMeasuresLineSplits(t *testing.T) {
	bench := func(form, kind, operands string, v float64) *results.Benchmark {
		return &results.Benchmark{Mode: "inverse_throughput", Measurements: []results.Measurement{{Key: "inverse_throughput", Value: v, PerSnippetValue: 8 * v}},
			Portlab: &results.Extra{ID: form + kind + operands, Form: form, Kind: kind, Operands: operands, Median: v, Reps: 5, Clean: 5, Host: "h", Date: "2026-11-28T21:40:00Z"}}
	}
	bs := []*results.Benchmark{
		bench("vmovups ymm, m256", "throughput", "", 0.5),
		bench("vmovups ymm, m256", LineSplitKind, LineSplitLoad, 1.0016),
		bench("vmovups m256, ymm", LineSplitKind, LineSplitLoad, 2),
	}
	ms := CollectMeasurements(bs, CollectOptions{})
	if r := ms.LineSplit["ymm"]; r == nil || r.Cycles != 1.0016 || len(ms.LineSplit) != 1 {
		t.Fatalf("collected %v, want ymm 1.0016 alone (a store is no line-split load)", ms.LineSplit)
	}
	m, rep, err := Build(ms, BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if want := map[string]float64{"ymm": 2}; !maps.Equal(m.LoadLineSplit, want) {
		t.Errorf("built load_line_split %v, want %v", m.LoadLineSplit, want)
	}
	wantPass(t, rep, "line splits", true, "ymm 1.002 +- 0.000 cycles a load split, 0.500 within a line")
	base := &Model{Name: "base", ISA: "x86", Ports: []string{"0"}, LoadLineSplit: map[string]float64{"gpr": 2}}
	m2, rep2, err := Build(CollectMeasurements(bs[:1], CollectOptions{}), BuildOptions{Base: base})
	if err != nil {
		t.Fatal(err)
	}
	if m2.LoadLineSplit["gpr"] != 2 {
		t.Errorf("the base's factors did not stay: %v", m2.LoadLineSplit)
	}
	wantPass(t, rep2, "line splits", false, "not measured: the base's load_line_split stays (gpr x2.00)")
}

// TestShowLineSplitAndBeside: model show says what load_line_split does
// to a form that reads memory (by its operand's class) and what
// beside_multicycle_delay does to a one-cycle vector register form, and
// nothing for other forms or without the header.
func TestShowLineSplitAndBeside(t *testing.T) {
	src := `name: x
isa: x86
ports: ['0', '1']
load_line_split: {gpr: 2.08, ymm: 2}
beside_multicycle_delay: {xmm: 0.55}
instruction_forms:
  - {form: "add r64, m64", uops: 2, latency: 5, throughput: 0.5, port_pressure: [[1, '01']]}
  - {form: "vaddps ymm, ymm, m256", uops: 2, latency: 10, throughput: 0.5, port_pressure: [[1, '01']]}
  - {form: "vaddps xmm, xmm, m128", uops: 2, latency: 10, throughput: 0.5, port_pressure: [[1, '01']]}
  - {form: "vpaddd xmm, xmm, xmm", uops: 1, latency: 1, throughput: 0.25, port_pressure: [[1, '01']]}
  - {form: "vpaddd ymm, ymm, ymm", uops: 1, latency: 1, throughput: 0.25, port_pressure: [[1, '01']]}
  - {form: "vmulps xmm, xmm, xmm", uops: 1, latency: 3, throughput: 0.5, port_pressure: [[1, '01']]}
  - {form: "lea r64, m", uops: 1, latency: 1, throughput: 0.25, port_pressure: [[1, '01']]}
`
	m, err := Parse("x.yml", []byte(src), LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for form, want := range map[string][2]string{
		"add r64, m64":          {"line split   where its 8 bytes cross a 64-byte line, it takes the load ports of mov r64, m64 2.08 times", ""},
		"vaddps ymm, ymm, m256": {"line split   where its 32 bytes cross", ""},
		"vaddps xmm, xmm, m128": {"", ""},
		"vpaddd xmm, xmm, xmm":  {"", "beside slow  up to +0.55 cycle(s) on its result beside independent vector work of 3 cycles or more"},
		"vpaddd ymm, ymm, ymm":  {"", ""},
		"vmulps xmm, xmm, xmm":  {"", ""},
		"lea r64, m":            {"", ""},
	} {
		e, _ := m.Lookup(form)
		var b strings.Builder
		m.WriteEntry(&b, e)
		got := b.String()
		for i, label := range []string{"line split", "beside slow"} {
			if want[i] == "" && strings.Contains(got, label) || want[i] != "" && !strings.Contains(got, want[i]) {
				t.Errorf("%s: model show says\n%s\nwant %q for %s", form, got, want[i], label)
			}
		}
	}
}
