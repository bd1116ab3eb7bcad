package modeldb

import (
	"strings"
	"testing"

	"portlab/isa"
	"portlab/results"
)

// domainBenchmarks are latency chains and domain chains of a few xmm
// forms as the Zen 3 guest ran them (cycles a link, a pair): vaddps,
// vmulps and vandps on one side of a crossing, vpaddd, vshufps and
// vpshufd on the other, a pair across taking roundTrip cycles more (2 on
// the Zen 3 guest, 1 on the Emerald Rapids guest).
func domainBenchmarks(roundTrip float64) []*results.Benchmark {
	return domainBenchmarksOf(roundTrip, []domainForm{
		{"vaddps xmm, xmm, xmm", "1->0", DomainFP, 2.99},
		{"vmulps xmm, xmm, xmm", "1->0", DomainFP, 3.01},
		{"vandps xmm, xmm, xmm", "1->0", DomainFP, 1.00},
		{"vpaddd xmm, xmm, xmm", "1->0", DomainInt, 1.00},
		{"vshufps xmm, xmm, xmm, imm8", "1->0", DomainInt, 1.00},
		{"vpshufd xmm, xmm, imm8", "1->0", DomainInt, 1.00},
	})
}

// domainForm is a form of domainBenchmarksOf: its chained latency pair,
// its domain and latency.
type domainForm struct {
	name, key, domain string
	lat               float64
}

// domainBenchmarksOf chains each form with partners of latency 1.00
// (vpaddd) and 2.99 (vaddps), a pair across its domain roundTrip cycles
// longer.
func domainBenchmarksOf(roundTrip float64, forms []domainForm) []*results.Benchmark {
	var out []*results.Benchmark
	add := func(form, kind, ops string, v float64) {
		out = append(out, &results.Benchmark{Mode: "latency", Measurements: []results.Measurement{{Key: "latency", Value: v, PerSnippetValue: v}},
			Portlab: &results.Extra{ID: form + kind + ops, Form: form, Kind: kind, Operands: ops, Median: v, Reps: 5, Clean: 5, Host: "h", Date: "2026-11-28T17:00:00Z"}})
	}
	lat := map[string]float64{DomainInt: 1.00, DomainFP: 2.99}
	for _, f := range forms {
		add(f.name, "latency", f.key, f.lat)
		for _, p := range []string{DomainInt, DomainFP} {
			v := f.lat + lat[p]
			if p != f.domain {
				v += roundTrip
			}
			add(f.name, DomainKind, p, v)
		}
	}
	return out
}

// TestDomainsFromChains: a form takes the domain of the partner it
// chains with at the sum of their latencies, and the model the cycles a
// round trip costs; forms whose two chains agree take none.
func TestDomainsFromChains(t *testing.T) {
	ms := CollectMeasurements(domainBenchmarks(2), CollectOptions{})
	if v := ms.Domains["vshufps xmm, xmm, xmm, imm8"][DomainFP]; v < 5.98 || v > 6.0 {
		t.Fatalf("collected vshufps with vaddps %v, want 5.99", v)
	}
	results, roundTrip := domainsOf(ms)
	if roundTrip != 2 {
		t.Errorf("round trip %d cycles, want 2 (results %+v)", roundTrip, results)
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
	// One cycle a round trip (the Emerald Rapids guest: vpand with vaddps
	// 4.0 a pair for latencies of 1 and 2) is one cycle, not two.
	if results, roundTrip := domainsOf(CollectMeasurements(domainBenchmarks(1), CollectOptions{})); roundTrip != 1 {
		t.Errorf("a cycle a round trip: %d cycles, want 1 (%+v)", roundTrip, results)
	}
	// A pair far slower than a crossing (assists on doubles chained with
	// singles on the Emerald Rapids guest) gives no domain.
	bs := domainBenchmarks(2)
	for _, b := range bs {
		if b.Portlab.Form == "vmulps xmm, xmm, xmm" && b.Portlab.Kind == DomainKind && b.Portlab.Operands == DomainInt {
			b.Portlab.Median += 20
			b.Measurements[0].Value += 20
			b.Measurements[0].PerSnippetValue += 20
		}
	}
	results, roundTrip = domainsOf(CollectMeasurements(bs, CollectOptions{}))
	for _, r := range results {
		if r.Form == "vmulps xmm, xmm, xmm" && (r.Domain != "" || !r.TooSlow) {
			t.Errorf("vmulps 22 cycles a pair beyond its latencies: domain %q, too slow %v", r.Domain, r.TooSlow)
		}
	}
	if roundTrip != 2 || !strings.Contains(domainsText(results), "1 of them more than 4 cycles") {
		t.Errorf("one slow form: round trip %d, report %q", roundTrip, domainsText(results))
	}
	// No crossing: every form chains at the sum of the latencies.
	if results, roundTrip := domainsOf(CollectMeasurements(domainBenchmarks(0), CollectOptions{})); roundTrip != 0 {
		t.Errorf("no crossing measured: %d cycles (%+v)", roundTrip, results)
	}
	// Less than domainShows a pair: no form gets a domain.
	results, roundTrip = domainsOf(CollectMeasurements(domainBenchmarks(0.4), CollectOptions{}))
	if roundTrip != 0 {
		t.Errorf("0.4 cycles a round trip: %d cycles, want 0", roundTrip)
	}
	for _, r := range results {
		if r.Domain != "" {
			t.Errorf("0.4 cycles a round trip: %s given domain %s", r.Form, r.Domain)
		}
	}
}

// TestDomainsPerWidth: a width whose partners fall outside their own
// domains loses its forms' domains and the other widths keep theirs (on
// the Emerald Rapids guest xmm and ymm show a round trip of one cycle,
// zmm none); two chains at or below the latencies show no domain, however
// far apart.
func TestDomainsPerWidth(t *testing.T) {
	forms := []domainForm{
		{"vaddps xmm, xmm, xmm", "1->0", DomainFP, 2.99},
		{"vmulps xmm, xmm, xmm", "1->0", DomainFP, 3.01},
		{"vpaddd xmm, xmm, xmm", "1->0", DomainInt, 1.00},
		{"vshufps xmm, xmm, xmm, imm8", "1->0", DomainInt, 1.00},
		{"vaddps ymm, ymm, ymm", "1->0", DomainInt, 2.99}, // the fp partner measured int: ymm unusable
		{"vpaddd ymm, ymm, ymm", "1->0", DomainInt, 1.00},
		{"vshufps ymm, ymm, ymm, imm8", "1->0", DomainInt, 1.00},
	}
	bs := domainBenchmarksOf(1, forms)
	// zmm: a pair across 0.6 cycle faster than the latencies give (vaddps
	// zmm with vpaddd), a pair within at them.
	bs = append(bs, domainBenchmarksOf(-0.6, []domainForm{{"vaddps zmm, zmm, zmm", "1->0", DomainFP, 2.99}, {"vpaddd zmm, zmm, zmm", "1->0", DomainInt, 1.00}})...)
	results, roundTrip := domainsOf(CollectMeasurements(bs, CollectOptions{}))
	if roundTrip != 1 {
		t.Errorf("round trip %d, want 1 (%+v)", roundTrip, results)
	}
	for _, r := range results {
		want := map[string]string{"vaddps xmm, xmm, xmm": DomainFP, "vmulps xmm, xmm, xmm": DomainFP, "vpaddd xmm, xmm, xmm": DomainInt, "vshufps xmm, xmm, xmm, imm8": DomainInt}[r.Form]
		if r.Domain != want || r.WidthDropped != (r.Width == "ymm") {
			t.Errorf("%s: domain %q (dropped %v), want %q", r.Form, r.Domain, r.WidthDropped, want)
		}
	}
	if text := domainsText(results); !strings.Contains(text, "ymm: the partners not in their own domains, 3 forms' domains dropped") {
		t.Errorf("report %q", text)
	}
}

// TestDomainPartners: the fp partner adds the form's element type
// (doubles for pd and sd forms other than integer ones), the int partner
// is vpaddd, at the form's width and encoding.
func TestDomainPartners(t *testing.T) {
	for form, want := range map[string][2]string{
		"vaddps ymm, ymm, ymm":        {"vpaddd ymm, ymm, ymm", "vaddps ymm, ymm, ymm"},
		"vmulpd zmm, zmm, zmm":        {"vpaddd zmm, zmm, zmm", "vaddpd zmm, zmm, zmm"},
		"vpermilpd xmm, xmm, imm8":    {"vpaddd xmm, xmm, xmm", "vaddpd xmm, xmm, xmm"},
		"subsd xmm, xmm":              {"paddd xmm, xmm", "addpd xmm, xmm"},
		"vpmaxsd ymm, ymm, ymm":       {"vpaddd ymm, ymm, ymm", "vaddps ymm, ymm, ymm"},
		"vpdpwssd xmm, xmm, xmm":      {"vpaddd xmm, xmm, xmm", "vaddps xmm, xmm, xmm"},
		"vshufpd ymm, ymm, ymm, imm8": {"vpaddd ymm, ymm, ymm", "vaddpd ymm, ymm, ymm"},
		"vcvtps2pd ymm, xmm":          {"vpaddd ymm, ymm, ymm", "vaddpd ymm, ymm, ymm"},
		"vpshufd xmm, xmm, imm8":      {"vpaddd xmm, xmm, xmm", "vaddps xmm, xmm, xmm"},
		"vshufps xmm, xmm, xmm, imm8": {"vpaddd xmm, xmm, xmm", "vaddps xmm, xmm, xmm"},
	} {
		f, ok := isa.Lookup(form)
		if !ok {
			t.Errorf("%s: not in the catalog", form)
			continue
		}
		if got := [2]string{DomainPartnerFor(f, DomainInt), DomainPartnerFor(f, DomainFP)}; got != want {
			t.Errorf("%s: partners %q, want %q", form, got, want)
		}
	}
}

// TestCrossingCycles: a round trip splits evenly between the two ways,
// an odd cycle on the way into the fp domain, and a chain that crosses
// both ways takes the whole round trip.
func TestCrossingCycles(t *testing.T) {
	for _, c := range []struct{ roundTrip, toFP, toInt int }{{0, 0, 0}, {1, 1, 0}, {2, 1, 1}, {3, 2, 1}} {
		fp, in := CrossingCycles(c.roundTrip, DomainFP), CrossingCycles(c.roundTrip, DomainInt)
		if fp != c.toFP || in != c.toInt || fp+in != c.roundTrip {
			t.Errorf("round trip %d: into fp %d, into int %d; want %d and %d", c.roundTrip, fp, in, c.toFP, c.toInt)
		}
	}
	if CrossingCycles(2, "") != 0 {
		t.Error("a form without a domain pays no crossing")
	}
}

// TestBuildMeasuresDomains: the chains reach the built model (the header
// and each form's domain) and the build report; without them the pass
// says so and the model has none.
func TestBuildMeasuresDomains(t *testing.T) {
	m, rep, err := Build(CollectMeasurements(domainBenchmarks(2), CollectOptions{}), BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if m.DomainRoundTripLatency != 2 {
		t.Errorf("domain_round_trip_latency %d, want 2", m.DomainRoundTripLatency)
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
	if m.DomainRoundTripLatency != 0 {
		t.Errorf("no crossing measured: domain_round_trip_latency %d", m.DomainRoundTripLatency)
	}
	wantPass(t, rep, "vector domains", false, "0 int, 0 fp, 6 neither")
	var lats []*results.Benchmark
	for _, b := range domainBenchmarks(2) {
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
// an older file's cycles a crossing read as half a round trip, and a bad
// domain or round trip is an error naming the file and line.
func TestDomainRoundTrip(t *testing.T) {
	src := `name: x
isa: x86
ports: ['0', '1']
domain_round_trip_latency: 3
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
	for _, want := range []string{"domain_round_trip_latency: 3\n", "domain: fp", "domain: int"} {
		if !strings.Contains(string(data), want) {
			t.Errorf("written model lacks %q:\n%s", want, data)
		}
	}
	back, err := Parse("back.yml", data, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if e, _ := back.Lookup("vaddps xmm, xmm, xmm"); back.DomainRoundTripLatency != 3 || e.Domain != DomainFP {
		t.Errorf("read back round trip %d, vaddps domain %q", back.DomainRoundTripLatency, e.Domain)
	}
	if e, _ := m.Lookup("vpaddd xmm, xmm, xmm"); !strings.Contains(m.domainOf(e), "int: +1 cycle(s) reading a vector register written by fp-domain work, +2 for fp-domain work") {
		t.Errorf("show: %q", m.domainOf(e))
	}
	old, err := Parse("old.yml", []byte(strings.Replace(src, "domain_round_trip_latency: 3", "domain_crossing_latency: 1", 1)), LoadOptions{})
	if err != nil || old.DomainRoundTripLatency != 2 {
		t.Errorf("domain_crossing_latency: 1 of an older file: round trip %v (%v), want 2", old.DomainRoundTripLatency, err)
	}
	other := back.Clone()
	other.DomainRoundTripLatency = 0
	e, _ := other.Lookup("vaddps xmm, xmm, xmm")
	e.Domain = ""
	d := Diff(m, other, DiffOptions{})
	if len(d.Header) != 1 || d.Header[0].Field != "domain_round_trip_latency" {
		t.Errorf("diff header %+v, want domain_round_trip_latency", d.Header)
	}
	if len(d.Changed) != 1 || !strings.Contains(d.Changed[0].Form, "vaddps") {
		t.Errorf("diff changed %+v, want vaddps's domain", d.Changed)
	}
	for _, c := range []struct{ line, at, want string }{
		{"domain_round_trip_latency: 40\ninstruction_forms: []\n", "bad.yml:4", "40 cycles"},
		{"domain_crossing_latency: 17\ninstruction_forms: []\n", "bad.yml:4", "17 cycles"},
		{"instruction_forms:\n  - {form: \"vaddps xmm, xmm, xmm\", uops: 1, latency: 3, throughput: 0.5, domain: float, port_pressure: [[1, '0']]}\n", "bad.yml:5", `"float"`},
	} {
		_, err := Parse("bad.yml", []byte("name: x\nisa: x86\nports: ['0']\n"+c.line), LoadOptions{})
		if err == nil || !strings.Contains(err.Error(), c.at) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("error %v, want %s and %q", err, c.at, c.want)
		}
	}
}
