package modeldb

import (
	"math"
	"sort"
	"strings"
	"testing"

	"portlab/results"
)

// intelLike is a ground truth with the port fusion of Intel's AVX-512
// cores, as the Granite Rapids guest measured it (see wide512.go): beside
// 512-bit work FP adds and multiplies move from port 1 to port 0, shuffles
// and vpaddd lose port 1, scalar work keeps it. With fusion false the same
// model has no such entries (a Zen 4-like core).
func intelLike(fusion bool) *Model {
	pp := func(c float64, ports ...string) PortPressure { return PortPressure{{Cycles: c, Ports: ports}} }
	m := &Model{Name: "intel-like", ISA: "x86", DispatchWidth: 6, Ports: []string{"0", "1", "5", "6", "2", "3"}}
	add := func(form string, tp float64, p, p512 PortPressure) {
		e := &Entry{Form: form, Uops: 1, Latency: 3, Throughput: tp, PortPressure: p}
		if fusion {
			e.PortPressure512 = p512
		}
		m.Put(e)
	}
	add("add r64, r64", 0.25, pp(1, "0", "1", "5", "6"), nil)
	add("imul r64, r64", 1, pp(1, "1"), nil)
	add("vaddpd ymm, ymm, ymm", 0.5, pp(1, "1", "5"), pp(1, "0", "5"))
	add("vmulpd ymm, ymm, ymm", 0.5, pp(1, "0", "1"), pp(1, "0"))
	add("vpshufb ymm, ymm, ymm", 0.5, pp(1, "1", "5"), pp(1, "5"))
	add("vpaddd ymm, ymm, ymm", 1.0/3, pp(1, "0", "1", "5"), pp(1, "0", "5"))
	add("vpaddd xmm, xmm, xmm", 1.0/3, pp(1, "0", "1", "5"), pp(1, "0", "5"))
	add("vaddpd zmm, zmm, zmm", 0.5, pp(1, "0", "5"), nil)
	add("vmulpd zmm, zmm, zmm", 0.5, pp(1, "0", "5"), nil)
	add("vpermd zmm, zmm, zmm", 1, pp(1, "5"), nil)
	add("vpaddd zmm, zmm, zmm", 0.5, pp(1, "0", "5"), nil)
	add("vfmadd231pd zmm, zmm, zmm", 0.5, pp(1, "0", "5"), nil)
	add("vpslld zmm, zmm, imm8", 1, pp(1, "0"), nil)
	add("vfmadd231ps xmm, xmm, xmm", 0.5, pp(1, "0", "1"), pp(1, "0", "5"))
	// Alike beside their own width, apart beside 512-bit work (the guest:
	// 8 vmulps ymm with 4 vpermd zmm take 6 cycles, 8 vpslld ymm 8).
	add("vmulps ymm, ymm, ymm", 0.5, pp(1, "0", "1"), pp(1, "0", "5"))
	add("vpslld ymm, ymm, imm8", 0.5, pp(1, "0", "1"), pp(1, "0"))
	m.SortForms()
	m.Reindex()
	return m
}

// sweepLike measures truth as a sweep would: every form alone, mixed with
// the probes of its own width, and every vector form with the other
// width's cross-width probes.
func sweepLike(t *testing.T, truth *Model, noise float64, seed int64) *Measurements {
	t.Helper()
	narrowProbes := []string{"add r64, r64", "imul r64, r64", "vaddpd ymm, ymm, ymm", "vmulpd ymm, ymm, ymm", "vpshufb ymm, ymm, ymm"}
	wideProbes := []string{"add r64, r64", "imul r64, r64", "vaddpd zmm, zmm, zmm", "vmulpd zmm, zmm, zmm", "vpermd zmm, zmm, zmm"}
	return synthSweep(t, truth, noise, seed, func(f string) []string {
		switch wide, narrow := formWidth(f); {
		case wide:
			return append(append([]string(nil), wideProbes...), "vaddpd ymm, ymm, ymm", "vmulpd ymm, ymm, ymm")
		case narrow:
			return append(append([]string(nil), narrowProbes...), "vaddpd zmm, zmm, zmm", "vmulpd zmm, zmm, zmm", "vpermd zmm, zmm, zmm")
		}
		return narrowProbes
	})
}

func ports512(t *testing.T, m *Model, form string) []string {
	t.Helper()
	e, ok := m.Lookup(form)
	if !ok {
		t.Fatalf("model lacks %q", form)
	}
	var out []string
	for _, u := range e.PortPressure512 {
		out = append(out, u.Ports...)
	}
	sort.Strings(out)
	return out
}

// TestPredictBeside512 checks the predictor against what the Granite
// Rapids guest measured (wide512.go): 8 vaddpd ymm with 8 vpermd zmm take
// 8 cycles, 8 vpshufb ymm with them 16, 8 imul with 8 vpaddd zmm 8, and
// without 512-bit work the narrow forms keep port 1.
func TestPredictBeside512(t *testing.T) {
	p := NewPredictor(intelLike(true))
	for _, c := range []struct {
		mix  []MixPart
		want float64
	}{
		{[]MixPart{{Form: "vaddpd ymm, ymm, ymm", Count: 8}, {Form: "vpermd zmm, zmm, zmm", Count: 8}}, 8},
		{[]MixPart{{Form: "vaddpd ymm, ymm, ymm", Count: 16}, {Form: "vpermd zmm, zmm, zmm", Count: 8}}, 12},
		{[]MixPart{{Form: "vpshufb ymm, ymm, ymm", Count: 8}, {Form: "vpermd zmm, zmm, zmm", Count: 8}}, 16},
		{[]MixPart{{Form: "vaddpd ymm, ymm, ymm", Count: 8}, {Form: "vfmadd231pd zmm, zmm, zmm", Count: 8}}, 8},
		{[]MixPart{{Form: "imul r64, r64", Count: 8}, {Form: "vpaddd zmm, zmm, zmm", Count: 8}}, 8},
		{[]MixPart{{Form: "vaddpd ymm, ymm, ymm", Count: 8}, {Form: "vpshufb ymm, ymm, ymm", Count: 8}}, 8},
		{[]MixPart{{Form: "vaddpd ymm, ymm, ymm", Count: 8}, {Form: "imul r64, r64", Count: 8}}, 8},
		{[]MixPart{{Form: "vaddpd ymm, ymm, ymm", Count: 8}, {Form: "vmulpd ymm, ymm, ymm", Count: 8}}, 16.0 / 3},
	} {
		pr, err := p.Predict(c.mix)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(pr.Cycles-c.want) > 1e-6 {
			t.Errorf("%s: predicted %.3f cycles, want %.3f", MixString(c.mix), pr.Cycles, c.want)
		}
	}
}

// TestBuildFitsPortsBeside512 builds models from sweeps of an Intel-like
// truth with the port fusion and a Zen-like one without: the first must
// find where each narrow form's port-1 work goes beside 512-bit work, the
// second must find nothing (no fusion invented), and random mixes of both
// widths, never fitted, must come out right.
func TestBuildFitsPortsBeside512(t *testing.T) {
	truth := intelLike(true)
	base := intelLike(false) // what LLVM's model knows: the ports, not the fusion
	ms := sweepLike(t, truth, 0.01, 1)
	m, rep, err := Build(ms, BuildOptions{Base: base})
	if err != nil {
		t.Fatal(err)
	}
	t.Log(rep.Summary(5))
	wantPass(t, rep, "ports beside 512-bit work", true, "mixes of 512-bit work with narrower vector forms")
	for form, want := range map[string]string{
		"vaddpd ymm, ymm, ymm":  "0 5",
		"vmulpd ymm, ymm, ymm":  "0",
		"vpshufb ymm, ymm, ymm": "5",
		"vpaddd ymm, ymm, ymm":  "0 5",
		// p0 and p0/p5 look alike beside vaddpd zmm (1:1); beside vpermd
		// zmm (2:1) they do not.
		"vfmadd231ps xmm, xmm, xmm": "0 5",
		// One class beside their own width; their mixes with 512-bit
		// work part them.
		"vmulps ymm, ymm, ymm":  "0 5",
		"vpslld ymm, ymm, imm8": "0",
		"imul r64, r64":         "",
		"vaddpd zmm, zmm, zmm":  "",
	} {
		got := ports512(t, m, form)
		if s := joinSpace(got); s != want {
			t.Errorf("%s: ports beside 512-bit work %q, want %q", form, s, want)
		}
	}
	if len(rep.Beside512) == 0 {
		t.Error("the build report says nothing about the cross-width mixes")
	}
	// Random mixes of both widths, never fitted.
	mixes := randomMixes(t, truth, 300, 0.01, 7)
	if r := EvaluateMixMeasurements(m, mixes, 0.1); r.Fraction() < 0.97 {
		t.Errorf("random mixes within 10 %%: %.1f %%, want 97 %%+\n%s", 100*r.Fraction(), r.Summary(5))
	}
	stripped := m.Clone()
	for _, e := range stripped.Forms {
		e.PortPressure512 = nil
	}
	stripped.Reindex()
	if r, r2 := EvaluateMixMeasurements(stripped, mixes, 0.1), EvaluateMixMeasurements(m, mixes, 0.1); r.Fraction() >= r2.Fraction() {
		t.Errorf("without the ports beside 512-bit work random mixes fare as well (%.1f %% against %.1f %%): the test does not test the fusion", 100*r.Fraction(), 100*r2.Fraction())
	}

	// No fusion in the silicon: none in the model.
	zen := intelLike(false)
	mz, repz, err := Build(sweepLike(t, zen, 0.01, 2), BuildOptions{Base: base})
	if err != nil {
		t.Fatal(err)
	}
	// Measured beside 512-bit work and found no different: the pass
	// looked and changed nothing.
	wantPass(t, repz, "ports beside 512-bit work", false, "mixes of 512-bit work with narrower vector forms")
	for _, e := range mz.Forms {
		if len(e.PortPressure512) > 0 {
			t.Errorf("%s: ports beside 512-bit work %s on a core without the fusion", e.Form, FormatPressure(e.PortPressure512))
		}
	}
}

func joinSpace(s []string) string {
	out := ""
	for i, x := range s {
		if i > 0 {
			out += " "
		}
		out += x
	}
	return out
}

// TestPortPressure512RoundTrip: the ports beside 512-bit work survive
// writing and reading a model, and an unknown port in them is an error
// naming the entry.
func TestPortPressure512RoundTrip(t *testing.T) {
	m := intelLike(true)
	data, err := m.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	back, err := Parse("intel-like.yml", data, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range m.Forms {
		b, ok := back.Lookup(e.Form)
		if !ok || !samePressure(b.PortPressure512, e.PortPressure512) {
			t.Errorf("%s: ports beside 512-bit work %s after the round trip, want %s", e.Form, FormatPressure(b.PortPressure512), FormatPressure(e.PortPressure512))
		}
	}
	bad := `name: x
isa: x86
ports: ['0', '1']
instruction_forms:
  - {form: "vaddpd ymm, ymm, ymm", uops: 1, latency: 3, throughput: 0.5, port_pressure: [[1, '01']], port_pressure_beside_512bit: [[1, '7']]}
`
	_, err = Parse("bad.yml", []byte(bad), LoadOptions{})
	if err == nil || !strings.Contains(err.Error(), "bad.yml:5") || !strings.Contains(err.Error(), `port_pressure_beside_512bit: unknown port "7"`) {
		t.Errorf("unknown port beside 512-bit work: error %v", err)
	}
}

// TestWidthClasses: what counts as 512-bit work (it closes a port to
// narrower vector work) and as narrower vector work.
func TestWidthClasses(t *testing.T) {
	for name, want := range map[string][2]bool{
		"vaddpd zmm, zmm, zmm":  {true, false},
		"vaddpd zmm, zmm, m512": {true, false},
		"vpbroadcastd zmm, r32": {true, false},
		"vpmovqd ymm, zmm":      {true, false},
		// Loads and stores too (the guest's mixes fit better so).
		"vmovups zmm, m512":     {true, false},
		"vbroadcastss zmm, m32": {true, false},
		"vmovups m512, zmm":     {true, false},
		"vaddpd ymm, ymm, ymm":  {false, true},
		"vaddps xmm, xmm, m128": {false, true},
		"addps xmm, xmm":        {false, true},
		"add r64, r64":          {false, false},
		"kandw k, k, k":         {false, false},
	} {
		f := mustForm(t, name)
		if got := [2]bool{Is512BitOp(f), IsNarrowVectorOp(f)}; got != want {
			t.Errorf("%s: 512-bit work %v, narrower vector work %v; want %v", name, got[0], got[1], want)
		}
	}
}

// TestBuildKeepsLatencyBeside512: a narrower vector register form's chain
// measured beside 512-bit loads gives the entry latency_beside_512bit
// where it differs from the form's own latency by more than 5 %, and it
// survives writing and reading. A memory form takes its register form's
// (scaled to its own latency), whatever its own chain beside zmm loads
// read: that chain times the load pipes.
func TestBuildKeepsLatencyBeside512(t *testing.T) {
	res := func(id, form, kind, pair string, v float64) *results.Benchmark {
		return &results.Benchmark{Mode: "latency", Measurements: []results.Measurement{{Key: "latency", Value: v}},
			Portlab: &results.Extra{ID: id, Form: form, Kind: kind, Operands: pair, Median: v, Reps: 5, Clean: 5, Host: "h"}}
	}
	tp := func(id, form string, v float64) *results.Benchmark {
		return &results.Benchmark{Mode: "inverse_throughput", Measurements: []results.Measurement{{Key: "inverse_throughput", Value: v}},
			Portlab: &results.Extra{ID: id, Form: form, Kind: "throughput", Median: v, Reps: 5, Clean: 5, Host: "h"}}
	}
	ms := CollectMeasurements([]*results.Benchmark{
		res("a", "vaddss xmm, xmm, xmm", "latency", "1->0", 2.0), tp("at", "vaddss xmm, xmm, xmm", 0.5),
		res("a5", "vaddss xmm, xmm, xmm", Latency512Kind, "1->0", 3.2),
		res("b", "vpaddd ymm, ymm, ymm", "latency", "1->0", 1.0), tp("bt", "vpaddd ymm, ymm, ymm", 0.34),
		res("b5", "vpaddd ymm, ymm, ymm", Latency512Kind, "1->0", 1.01),
		// Memory forms: a chain beside zmm loads as older sweeps measured
		// it, load-bound; vaddss's scaled from its register form's, and
		// vpaddd's none, as its register form keeps none.
		res("c", "vaddss xmm, xmm, m32", "latency", "1->0", 2.0), tp("ct", "vaddss xmm, xmm, m32", 0.5),
		res("c5", "vaddss xmm, xmm, m32", Latency512Kind, "1->0", 4.0),
		res("d", "vpaddd ymm, ymm, m256", "latency", "1->0", 1.0), tp("dt", "vpaddd ymm, ymm, m256", 0.5),
		res("d5", "vpaddd ymm, ymm, m256", Latency512Kind, "1->0", 1.7),
		res("e", "vmulss xmm, xmm, m32", "latency", "1->0", 3.0), tp("et", "vmulss xmm, xmm, m32", 0.5),
		res("e5", "vmulss xmm, xmm, m32", Latency512Kind, "1->0", 4.5),
		// Faster beside zmm loads than alone: its own latency stays.
		res("f", "vpinsrq xmm, xmm, r64, imm8", "latency", "1->0", 1.5), res("f2", "vpinsrq xmm, xmm, r64, imm8", "latency", "2->0", 4.0),
		tp("ft", "vpinsrq xmm, xmm, r64, imm8", 1.0), res("f5", "vpinsrq xmm, xmm, r64, imm8", Latency512Kind, "1->0", 0.93),
		// The chain beside zmm loads is not the entry's largest pair: the
		// ratio (2.0 / 1.0) is not the entry latency's, so none.
		res("g", "vpshufb ymm, ymm, ymm", "latency", "1->0", 1.0), res("g2", "vpshufb ymm, ymm, ymm", "latency", "2->0", 3.0),
		tp("gt", "vpshufb ymm, ymm, ymm", 0.5), res("g5", "vpshufb ymm, ymm, ymm", Latency512Kind, "1->0", 2.0),
		// A memory form whose entry latency is the load's (mem->0): its
		// register form's ratio is not for that chain.
		res("h", "vmovdqa ymm, ymm", "latency", "1->0", 0.5), tp("ht", "vmovdqa ymm, ymm", 0.25),
		res("h5", "vmovdqa ymm, ymm", Latency512Kind, "1->0", 1.0),
		res("i", "vmovdqa ymm, m256", "latency", "mem->0", 8.0), tp("it", "vmovdqa ymm, m256", 0.5),
	}, CollectOptions{})
	if l := ms.Forms["vaddss xmm, xmm, xmm"]; l.Latency512 != 3.2 || l.Latency() != 2 {
		t.Fatalf("collected latency %v, beside 512-bit work %v; want 2 and 3.2", l.Latency(), l.Latency512)
	}
	m, rep, err := Build(ms, BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	wantPass(t, rep, "latency beside 512-bit work", true, "5 register forms' latencies measured beside 512-bit work, 3 of them")
	// vmulss xmm, xmm, m32: no register form measured, so none.
	for form, want := range map[string]float64{"vaddss xmm, xmm, xmm": 3.2, "vpaddd ymm, ymm, ymm": 0,
		"vaddss xmm, xmm, m32": 3.2, "vpaddd ymm, ymm, m256": 0, "vmulss xmm, xmm, m32": 0,
		"vpinsrq xmm, xmm, r64, imm8": 0, "vpshufb ymm, ymm, ymm": 0, "vmovdqa ymm, ymm": 1, "vmovdqa ymm, m256": 0} {
		if e, _ := m.Lookup(form); e.Latency512 != want {
			t.Errorf("%s: latency beside 512-bit work %v, want %v", form, e.Latency512, want)
		}
	}
	back := roundTrip(t, m, "m.yml")
	if e, _ := back.Lookup("vaddss xmm, xmm, xmm"); e.Latency512 != 3.2 {
		t.Errorf("read back %v", e.Latency512)
	}
}

// TestBuildFitsCrossWidthMixesWhereNoPortCloses builds a Zen-like core (no
// port fusion: 512-bit forms share the narrower forms' ports) from no base
// model. Fitted from mixes of one width only, the abstract ports of the
// 512-bit forms are tied to those of the narrower vector forms by nothing
// but the integer probes: they got ports of their own, and closing a port
// to narrower work beside them seemed to explain the cross-width mixes
// (72.8 % of the random ones within 10 %). Fitted with the others (the
// pass "512-bit work in the fit"), they explain all the mixes better, and
// random mixes of both widths, never fitted, come out right. On the
// Intel-like core closing port 1 explains them better: they stay apart.
func TestBuildFitsCrossWidthMixesWhereNoPortCloses(t *testing.T) {
	zen := intelLike(false)
	m, rep, err := Build(sweepLike(t, zen, 0.01, 3), BuildOptions{Now: fixedNow})
	if err != nil {
		t.Fatal(err)
	}
	t.Log(rep.Summary(5))
	wantPass(t, rep, "512-bit work in the fit", true, ": fitted with the others")
	var cross []*MixMeasurement
	for _, mx := range randomMixes(t, zen, 600, 0.01, 11) {
		if isCrossWidth(mx) {
			cross = append(cross, mx)
		}
	}
	if len(cross) < 100 {
		t.Fatalf("%d cross-width random mixes, want 100+", len(cross))
	}
	if r := EvaluateMixMeasurements(m, cross, 0.1); r.Fraction() < 0.97 {
		t.Errorf("cross-width random mixes within 10 %%: %.1f %% of %d, want 97 %%+\n%s", 100*r.Fraction(), len(cross), r.Summary(5))
	}
	// The 512-bit add and the 256-bit one share a port.
	if zp, yp := portSet(t, m, "vaddpd zmm, zmm, zmm"), portSet(t, m, "vaddpd ymm, ymm, ymm"); !sharesAny(zp, yp) {
		t.Errorf("vaddpd zmm on %v and vaddpd ymm on %v share no port", zp, yp)
	}

	_, repi, err := Build(sweepLike(t, intelLike(true), 0.01, 1), BuildOptions{Base: intelLike(false)})
	if err != nil {
		t.Fatal(err)
	}
	wantPass(t, repi, "512-bit work in the fit", false, ": they stay apart")
}

func sharesAny(a, b map[string]bool) bool {
	for k := range a {
		if b[k] {
			return true
		}
	}
	return false
}
