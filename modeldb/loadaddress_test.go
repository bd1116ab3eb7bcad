package modeldb

import (
	"maps"
	"strings"
	"testing"

	"portlab/results"
)

// TestLoadAddressFromMeasurements: a shape counts from half a cycle a link
// over base+index and is rounded to whole cycles (the Zen 3 guest's
// chains: base+index 4.00, the three others 5.00-5.10).
func TestLoadAddressFromMeasurements(t *testing.T) {
	got := loadAddressLatencyOf(map[string]float64{"base+index": 3.996, "base+index*s": 5.097, "base+index+disp": 5.017, "base+index*s+disp": 5.068})
	if want := map[string]int{"base+index*s": 1, "base+index+disp": 1, "base+index*s+disp": 1}; !maps.Equal(got, want) {
		t.Errorf("Zen 3 chains: %v, want %v", got, want)
	}
	if got := loadAddressLatencyOf(map[string]float64{"base+index": 5, "base+index*s": 5.3, "base+index+disp": 5.01}); got != nil {
		t.Errorf("shapes within half a cycle: %v, want none", got)
	}
	if got := loadAddressLatencyOf(map[string]float64{"base+index*s": 6}); got != nil {
		t.Errorf("no reference: %v, want none", got)
	}
}

// TestLoadAddressRoundTrip: the header survives writing, reading, cloning
// and model diff; unknown shapes and counts out of range are errors
// naming the file and line.
func TestLoadAddressRoundTrip(t *testing.T) {
	m := &Model{Name: "x", ISA: "x86", Ports: []string{"0"}, LoadAddressLatency: map[string]int{"base+index*s": 1, "base+index+disp": 1}}
	data, err := m.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), "load_address_latency: {base+index*s: 1, base+index+disp: 1}") {
		t.Errorf("written:\n%s", data)
	}
	back, err := Parse("x.yml", data, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !maps.Equal(back.LoadAddressLatency, m.LoadAddressLatency) {
		t.Errorf("read back %v, want %v", back.LoadAddressLatency, m.LoadAddressLatency)
	}
	c := m.Clone()
	c.LoadAddressLatency["base+index*s"] = 3
	if m.LoadAddressLatency["base+index*s"] != 1 {
		t.Errorf("Clone shares the load_address_latency map")
	}
	d := Diff(&Model{Name: "x", ISA: "x86", Ports: []string{"0"}}, m, DiffOptions{})
	if len(d.Header) != 1 || d.Header[0].Field != "load_address_latency" || d.Header[0].B != "base+index*s +1, base+index+disp +1" {
		t.Errorf("diff header %+v, want load_address_latency added", d.Header)
	}
	for _, c := range []struct{ yaml, want string }{
		{"load_address_latency: {base+scale: 1}", `unknown address shape "base+scale"`},
		{"load_address_latency: {base+index*s: 40}", "40 extra cycles"},
	} {
		src := "name: x\nisa: x86\nports: ['0']\n" + c.yaml + "\ninstruction_forms: []\n"
		_, err := Parse("bad.yml", []byte(src), LoadOptions{})
		if err == nil || !strings.Contains(err.Error(), "bad.yml:4") || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want bad.yml:4 and %q", c.yaml, err, c.want)
		}
	}
}

// TestBuildMeasuresLoadAddress: the load-address chains of a sweep reach
// the built model's header and the build report where the pointer chase
// agrees with base+index; chains that show nothing leave it out, a chase
// that disagrees keeps it out and says why, and without the chains the
// pass says they were not measured.
func TestBuildMeasuresLoadAddress(t *testing.T) {
	res := func(kind, shape string, v float64) *results.Benchmark {
		return &results.Benchmark{Mode: "latency", Measurements: []results.Measurement{{Key: "latency", Value: v, PerSnippetValue: v}},
			Portlab: &results.Extra{ID: kind + shape, Form: "mov r64, m64", Kind: kind, Operands: "mem->0", Addressing: shape, Median: v, Reps: 5, Clean: 5, Host: "h", Date: "2026-11-28T09:00:00Z"}}
	}
	chase := func(v float64) *results.Benchmark { return res("latency", "", v) }
	chains := []*results.Benchmark{
		res(LoadAddressKind, "base+index", 3.996), res(LoadAddressKind, "base+index*s", 5.097),
		res(LoadAddressKind, "base+index+disp", 5.017), res(LoadAddressKind, "base+index*s+disp", 5.068),
	}
	ms := CollectMeasurements(append([]*results.Benchmark{chase(4.038)}, chains...), CollectOptions{})
	if v := ms.LoadAddress["base+index*s"]; v != 5.097 {
		t.Fatalf("collected base+index*s %v, want 5.097 (all: %v)", v, ms.LoadAddress)
	}
	if l := ms.Forms["mov r64, m64"].Latency(); l != 4.038 {
		t.Errorf("the chains changed the plain load's own latency: %v", l)
	}
	m, rep, err := Build(ms, BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if want := map[string]int{"base+index*s": 1, "base+index+disp": 1, "base+index*s+disp": 1}; !maps.Equal(m.LoadAddressLatency, want) {
		t.Errorf("built load_address_latency %v, want %v", m.LoadAddressLatency, want)
	}
	wantPass(t, rep, "load latency by address shape", true, "base+index 4.00, base+index*s 5.10")
	for _, c := range []struct {
		name string
		bs   []*results.Benchmark
		why  string
	}{
		{"no shape slower", []*results.Benchmark{chase(5), res(LoadAddressKind, "base+index", 5.01), res(LoadAddressKind, "base+index*s", 5.02)}, "base+index*s 5.02"},
		{"the chase disagrees", append([]*results.Benchmark{chase(5.0)}, chains...), "no common reference"},
		{"not measured", []*results.Benchmark{chase(4)}, "not measured"},
	} {
		m, rep, err := Build(CollectMeasurements(c.bs, CollectOptions{}), BuildOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if m.LoadAddressLatency != nil {
			t.Errorf("%s: load_address_latency %v, want none", c.name, m.LoadAddressLatency)
		}
		wantPass(t, rep, "load latency by address shape", false, c.why)
	}
}

// TestShowLoadAddress: model show says what the shapes add to a form that
// reads memory, and nothing for lea, register forms or without the header.
func TestShowLoadAddress(t *testing.T) {
	src := `name: x
isa: x86
ports: ['0', '5']
load_address_latency: {base+index*s: 1}
instruction_forms:
  - {form: "add r64, m64", uops: 1, latency: 5, throughput: 0.5, port_pressure: [[1, '05']]}
  - {form: "lea r64, m", uops: 1, latency: 1, throughput: 0.25, port_pressure: [[1, '05']]}
  - {form: "add r64, r64", uops: 1, latency: 1, throughput: 0.25, port_pressure: [[1, '05']]}
`
	m, err := Parse("x.yml", []byte(src), LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for form, want := range map[string]string{
		"add r64, m64": "base+index*s +1",
		"lea r64, m":   "",
		"add r64, r64": "",
	} {
		e, _ := m.Lookup(form)
		got := m.loadAddressOf(e)
		if want == "" && got != "" || want != "" && !strings.Contains(got, want) {
			t.Errorf("%s: %q, want %q", form, got, want)
		}
	}
	m.LoadAddressLatency = nil
	if e, _ := m.Lookup("add r64, m64"); m.loadAddressOf(e) != "" {
		t.Errorf("without the header: %q", m.loadAddressOf(e))
	}
}
