package modeldb

import (
	"strings"
	"testing"

	"portlab/results"
)

// domainBenchmarks are latency chains and domain chains of a few xmm
// forms as the Zen 3 guest ran them (cycles a link, a pair): vaddps,
// vmulps and vandps on one side of a crossing, vpaddd, vshufps and
// vpshufd on the other, a cycle each way.
func domainBenchmarks(crossing float64) []*results.Benchmark {
	var out []*results.Benchmark
	add := func(form, kind, ops string, v float64) {
		out = append(out, &results.Benchmark{Mode: "latency", Measurements: []results.Measurement{{Key: "latency", Value: v, PerSnippetValue: v}},
			Portlab: &results.Extra{ID: form + kind + ops, Form: form, Kind: kind, Operands: ops, Median: v, Reps: 5, Clean: 5, Host: "h", Date: "2026-11-28T17:00:00Z"}})
	}
	forms := []struct {
		name, key, domain string
		lat               float64
	}{
		{"vaddps xmm, xmm, xmm", "1->0", DomainFP, 2.99},
		{"vmulps xmm, xmm, xmm", "1->0", DomainFP, 3.01},
		{"vandps xmm, xmm, xmm", "1->0", DomainFP, 1.00},
		{"vpaddd xmm, xmm, xmm", "1->0", DomainInt, 1.00},
		{"vshufps xmm, xmm, xmm, imm8", "1->0", DomainInt, 1.00},
		{"vpshufd xmm, xmm, imm8", "1->0", DomainInt, 1.00},
	}
	lat := map[string]float64{DomainInt: 1.00, DomainFP: 2.99}
	for _, f := range forms {
		add(f.name, "latency", f.key, f.lat)
		for _, p := range []string{DomainInt, DomainFP} {
			v := f.lat + lat[p]
			if p != f.domain {
				v += 2 * crossing
			}
			add(f.name, DomainKind, p, v)
		}
	}
	return out
}

// TestDomainsFromChains: a form takes the domain of the partner it
// chains with at the sum of their latencies, and the model the cycles a
// crossing costs; forms whose two chains agree take none.
func TestDomainsFromChains(t *testing.T) {
	ms := CollectMeasurements(domainBenchmarks(1), CollectOptions{})
	if v := ms.Domains["vshufps xmm, xmm, xmm, imm8"][DomainFP]; v < 5.98 || v > 6.0 {
		t.Fatalf("collected vshufps with vaddps %v, want 5.99", v)
	}
	results, crossing := domainsOf(ms)
	if crossing != 1 {
		t.Errorf("crossing %d cycles, want 1 (results %+v)", crossing, results)
	}
	want := map[string]string{"vaddps xmm, xmm, xmm": DomainFP, "vmulps xmm, xmm, xmm": DomainFP, "vandps xmm, xmm, xmm": DomainFP,
		"vpaddd xmm, xmm, xmm": DomainInt, "vshufps xmm, xmm, xmm, imm8": DomainInt, "vpshufd xmm, xmm, imm8": DomainInt}
	for _, r := range results {
		if r.Domain != want[r.Form] {
			t.Errorf("%s: domain %q (int %+.2f, fp %+.2f), want %q", r.Form, r.Domain, r.Int, r.FP, want[r.Form])
		}
	}
	if len(results) != len(want) {
		t.Errorf("%d forms judged, want %d", len(results), len(want))
	}
	// No crossing: every form chains at the sum of the latencies.
	if results, crossing := domainsOf(CollectMeasurements(domainBenchmarks(0), CollectOptions{})); crossing != 0 {
		t.Errorf("no crossing measured: %d cycles (%+v)", crossing, results)
	}
	// Half a cycle each way shows domains but rounds to no whole cycle.
	if _, crossing := domainsOf(CollectMeasurements(domainBenchmarks(0.4), CollectOptions{})); crossing != 0 {
		t.Errorf("0.4 cycles a crossing: %d cycles, want 0", crossing)
	}
}

// TestBuildMeasuresDomains: the chains reach the built model (the header
// and each form's domain) and the build report; without them the pass
// says so and the model has none.
func TestBuildMeasuresDomains(t *testing.T) {
	m, rep, err := Build(CollectMeasurements(domainBenchmarks(1), CollectOptions{}), BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if m.DomainCrossingLatency != 1 {
		t.Errorf("domain_crossing_latency %d, want 1", m.DomainCrossingLatency)
	}
	for form, d := range map[string]string{"vshufps xmm, xmm, xmm, imm8": DomainInt, "vandps xmm, xmm, xmm": DomainFP} {
		if e, ok := m.Lookup(form); !ok || e.Domain != d {
			t.Errorf("%s: entry %v, want domain %q", form, e, d)
		}
	}
	wantPass(t, rep, "vector domains", true, "6 forms chained with both partners: 3 int, 3 fp, 0 neither")
	m, rep, err = Build(CollectMeasurements(domainBenchmarks(0), CollectOptions{}), BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if m.DomainCrossingLatency != 0 {
		t.Errorf("no crossing measured: domain_crossing_latency %d", m.DomainCrossingLatency)
	}
	wantPass(t, rep, "vector domains", false, "0 int, 0 fp, 6 neither")
	var lats []*results.Benchmark
	for _, b := range domainBenchmarks(1) {
		if b.Portlab.Kind == "latency" {
			lats = append(lats, b)
		}
	}
	_, rep, err = Build(CollectMeasurements(lats, CollectOptions{}), BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	wantPass(t, rep, "vector domains", false, "not measured")
}

// TestDomainRoundTrip: the header and the entries' domains survive
// writing, reading and model diff, model show says what a domain does,
// and a bad domain or crossing is an error naming the file and line.
func TestDomainRoundTrip(t *testing.T) {
	src := `name: x
isa: x86
ports: ['0', '1']
domain_crossing_latency: 1
instruction_forms:
  - {form: "vaddps xmm, xmm, xmm", uops: 1, latency: 3, throughput: 0.5, domain: fp, port_pressure: [[1, '01']]}
  - {form: "vpaddd xmm, xmm, xmm", uops: 1, latency: 1, throughput: 0.25, domain: int, port_pressure: [[1, '01']]}
`
	m, err := Parse("x.yml", []byte(src), LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	data, err := m.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"domain_crossing_latency: 1\n", "domain: fp", "domain: int"} {
		if !strings.Contains(string(data), want) {
			t.Errorf("written model lacks %q:\n%s", want, data)
		}
	}
	back, err := Parse("back.yml", data, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if e, _ := back.Lookup("vaddps xmm, xmm, xmm"); back.DomainCrossingLatency != 1 || e.Domain != DomainFP {
		t.Errorf("read back crossing %d, vaddps domain %q", back.DomainCrossingLatency, e.Domain)
	}
	if e, _ := m.Lookup("vpaddd xmm, xmm, xmm"); !strings.Contains(m.domainOf(e), "int: +1 cycle(s) reading a vector register written by fp-domain work") {
		t.Errorf("show: %q", m.domainOf(e))
	}
	other := back.Clone()
	other.DomainCrossingLatency = 0
	e, _ := other.Lookup("vaddps xmm, xmm, xmm")
	e.Domain = ""
	d := Diff(m, other, DiffOptions{})
	if len(d.Header) != 1 || d.Header[0].Field != "domain_crossing_latency" {
		t.Errorf("diff header %+v, want domain_crossing_latency", d.Header)
	}
	if len(d.Changed) != 1 || !strings.Contains(d.Changed[0].Form, "vaddps") {
		t.Errorf("diff changed %+v, want vaddps's domain", d.Changed)
	}
	for _, c := range []struct{ line, at, want string }{
		{"domain_crossing_latency: 40\ninstruction_forms: []\n", "bad.yml:4", "40 cycles"},
		{"instruction_forms:\n  - {form: \"vaddps xmm, xmm, xmm\", uops: 1, latency: 3, throughput: 0.5, domain: float, port_pressure: [[1, '0']]}\n", "bad.yml:5", `"float"`},
	} {
		_, err := Parse("bad.yml", []byte("name: x\nisa: x86\nports: ['0']\n"+c.line), LoadOptions{})
		if err == nil || !strings.Contains(err.Error(), c.at) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("error %v, want %s and %q", err, c.at, c.want)
		}
	}
}
