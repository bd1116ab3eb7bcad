package sweep

import (
	"bytes"
	"fmt"
	"math"
	"strings"
	"testing"

	"portlab/internal/browsertest"
	"portlab/isa"
	"portlab/results"
)

func TestFormGroup(t *testing.T) {
	for form, want := range map[string]string{
		"vmovntdq m256, ymm":                "non-temporal store",
		"vfmadd231ps zmm, zmm, m32bcst":     "broadcast",
		"shl m16, imm8":                     "memory destination",
		"blsr r32, m32":                     "memory source",
		"vaddpd zmm {k}, zmm, zmm":          "zmm register",
		"add r64, r64":                      "register",
		"nop":                               "register",
		"vpmaddwd ymm, ymm, m256":           "memory source",
		"mov m64, r64":                      "memory destination",
		"vmovdqu64 zmm {k}{z}, m512":        "memory source",
		"vcvtps2ph m128 {k}, ymm, imm8":     "memory destination",
		"vfmadd231pd ymm, ymm, ymm":         "register",
		"{evex} vmovntdq m128, xmm":         "non-temporal store",
		"vpsubq xmm {k}, xmm, m64bcst":      "broadcast",
		"movntps m128, xmm":                 "non-temporal store",
		"vpermd zmm, zmm, zmm":              "zmm register",
		"cmpxchg m64, r64":                  "memory destination",
		"vpbroadcastd zmm, r32":             "zmm register",
		"vextracti32x8 m256 {k}, zmm, imm8": "memory destination",
	} {
		if got := FormGroup(form); got != want {
			t.Errorf("FormGroup(%q) = %q, want %q", form, got, want)
		}
	}
}

func TestCompareGroupsAndWorst(t *testing.T) {
	mk := func(id, form string, v float64) *results.Benchmark {
		return &results.Benchmark{Measurements: []results.Measurement{{Key: "inverse_throughput", Value: v}},
			Portlab: &results.Extra{ID: id, Form: form, Kind: "throughput", Median: v}}
	}
	a := []*results.Benchmark{mk("1", "add r64, r64", 0.25), mk("2", "vmovntdq m256, ymm", 40), mk("3", "blsr r32, m32", 0.37), mk("4", "imul r64, r64", 1)}
	b := []*results.Benchmark{mk("1", "add r64, r64", 0.2501), mk("2", "vmovntdq m256, ymm", 55), mk("3", "blsr r32, m32", 0.44), mk("4", "imul r64, r64", 1)}
	ag := Compare(a, b, 0.01, 1)
	if ag.Compared != 4 || ag.Within != 2 || ag.FormsWithin != 2 {
		t.Fatalf("compared %d within %d forms within %d, want 4, 2, 2", ag.Compared, ag.Within, ag.FormsWithin)
	}
	if len(ag.Worst) != 1 || ag.Worst[0].Form != "vmovntdq m256, ymm" {
		t.Fatalf("worst = %+v, want only the non-temporal store", ag.Worst)
	}
	if ag.Disagreeing["non-temporal store"] != 1 || ag.Disagreeing["memory source"] != 1 || len(ag.Disagreeing) != 2 {
		t.Fatalf("disagreeing by group = %v", ag.Disagreeing)
	}
	var out bytes.Buffer
	WriteAgreement(&out, ag)
	if !strings.Contains(out.String(), "benchmarks outside the tolerance: 1 memory source, 1 non-temporal store") {
		t.Errorf("report lacks the breakdown:\n%s", out.String())
	}
	// A noisy result (fewer than half of its repetitions clean) is counted
	// apart; of several results of one benchmark the cleanest counts.
	noisy := mk("3", "blsr r32, m32", 0.44)
	noisy.Portlab.Reps, noisy.Portlab.Clean = 21, 3
	re := mk("1", "add r64, r64", 0.25)
	re.Portlab.Reps, re.Portlab.Clean = 21, 20
	b = append(b[:2:2], noisy, b[3], re) // add measured again, cleaner
	ag = Compare(a, b, 0.01, 1)
	if ag.Compared != 4 || ag.Noisy != 1 || ag.QuietWithin != 2 || ag.QuietForms != 3 || ag.QuietFormsWithin != 2 {
		t.Fatalf("compared %d, noisy %d, quiet within %d, quiet forms %d within %d; want 4, 1, 2, 3, 2", ag.Compared, ag.Noisy, ag.QuietWithin, ag.QuietForms, ag.QuietFormsWithin)
	}
	out.Reset()
	WriteAgreement(&out, ag)
	if !strings.Contains(out.String(), "without them: 2 of 3 forms (66.67%) agree on every benchmark; 2 of 3 benchmarks (66.67%)") {
		t.Errorf("report lacks the figures without noisy benchmarks:\n%s", out.String())
	}
}

func TestProbeVariant(t *testing.T) {
	for _, c := range []struct{ form, probe, want string }{
		{"addps xmm, m128", "vaddpd ymm, ymm, ymm", "vaddpd xmm, xmm, xmm"},
		{"psadbw xmm, xmm", "vpshufb ymm, ymm, ymm", "vpshufb xmm, xmm, xmm"},
		{"cvtdq2ps xmm, m128", "vmovups ymm, m256", "vmovups xmm, m128"},
		{"psadbw xmm, xmm", "vpermd ymm, ymm, ymm", ""}, // no xmm counterpart: not mixed
		{"psadbw xmm, xmm", "add r64, r64", "add r64, r64"},
		{"vfmadd231pd zmm, zmm, zmm", "vmulpd ymm, ymm, ymm", "vmulpd zmm, zmm, zmm"},
		{"vpaddd zmm {k}, zmm, m512", "vpaddd ymm, ymm, ymm", "vpaddd zmm, zmm, zmm"},
		{"vaddps xmm, xmm, xmm", "vaddpd ymm, ymm, ymm", "vaddpd ymm, ymm, ymm"},
		{"mov r64, m64", "vdivpd ymm, ymm, ymm", "vdivpd ymm, ymm, ymm"},
	} {
		f, ok1 := isa.Lookup(c.form)
		p, ok2 := isa.Lookup(c.probe)
		if !ok1 || !ok2 {
			t.Fatalf("%q or %q not in the catalog", c.form, c.probe)
		}
		got := ""
		if v := ProbeVariant(f, p); v != nil {
			got = v.Name()
		}
		if got != c.want {
			t.Errorf("ProbeVariant(%q, %q) = %q, want %q", c.form, c.probe, got, c.want)
		}
	}
}

func TestCrossWidthProbes(t *testing.T) {
	names := func(f string) string {
		form, ok := isa.Lookup(f)
		if !ok {
			t.Fatalf("%q not in the catalog", f)
		}
		var out []string
		for _, p := range CrossWidthProbes(form) {
			out = append(out, p.Name())
		}
		return strings.Join(out, "; ")
	}
	for f, want := range map[string]string{
		"vfmadd231pd zmm, zmm, zmm":  "vaddpd ymm, ymm, ymm; vmulpd ymm, ymm, ymm",
		"vpaddd ymm {k}, ymm, m256":  "vaddpd zmm, zmm, zmm; vmulpd zmm, zmm, zmm; vpermd zmm, zmm, zmm",
		"vaddps xmm, xmm, xmm":       "vaddpd zmm, zmm, zmm; vmulpd zmm, zmm, zmm; vpermd zmm, zmm, zmm",
		"vmovdqu64 zmm {k}{z}, m512": "vaddpd ymm, ymm, ymm; vmulpd ymm, ymm, ymm",
		"addps xmm, xmm":             "",
		"add r64, r64":               "",
	} {
		if got := names(f); got != want {
			t.Errorf("CrossWidthProbes(%q) = %q, want %q", f, got, want)
		}
	}
}

// A plain vector load or store is mixed with the VEX plain loads and
// stores of every width (a legacy-SSE one with the 128-bit ones), each
// probe once beside the default probes' variants; other forms get none.
func TestMemoryWidthProbes(t *testing.T) {
	lookup := func(n string) *isa.Form {
		f, ok := isa.Lookup(n)
		if !ok {
			t.Fatalf("%q not in the catalog", n)
		}
		return f
	}
	for f, want := range map[string]string{
		"vmovups zmm, m512":     "vmovups xmm, m128; vmovups m128, xmm; vmovups ymm, m256; vmovups m256, ymm; vmovups m512, zmm",
		"vmovups m256, ymm":     "vmovups xmm, m128; vmovups m128, xmm; vmovups ymm, m256; vmovups zmm, m512; vmovups m512, zmm",
		"movups xmm, m128":      "vmovups xmm, m128; vmovups m128, xmm",
		"mov r64, m64":          "",
		"movq mm, m64":          "",
		"vmovups xmm, m128":     "", // not a class's plain load: its mixes come from the loads that are
		"vpaddd zmm, zmm, m512": "",
	} {
		var got []string
		for _, p := range MemoryWidthProbes(lookup(f)) {
			got = append(got, p.Name())
		}
		if g := strings.Join(got, "; "); g != want {
			t.Errorf("MemoryWidthProbes(%q) = %q, want %q", f, g, want)
		}
	}
	var base []*isa.Form
	for _, n := range DefaultProbes {
		base = append(base, lookup(n))
	}
	// The zmm load's probes: the defaults' zmm variants (the vector load
	// among them is the zmm load itself, which ports mode skips), the
	// cross-width ones, then the other widths' loads and stores, once.
	probes := probesFor(lookup("vmovups zmm, m512"), base)
	seen := map[string]int{}
	for _, p := range probes {
		seen[p.Name()]++
	}
	for _, n := range []string{"vmovups xmm, m128", "vmovups ymm, m256", "vmovups m512, zmm", "vaddpd ymm, ymm, ymm", "vpermd zmm, zmm, zmm", "mov r64, m64"} {
		if seen[n] != 1 {
			t.Errorf("the zmm load's probes hold %q %d times, want once: %v", n, seen[n], seen)
		}
	}
	if n, want := PortMixCount(lookup("vmovups zmm, m512"), nil), len(probes)-1; n != want {
		t.Errorf("PortMixCount(vmovups zmm, m512) = %d, want %d (its probes but itself)", n, want)
	}
}

// Benchmarks that all moved by one factor between two sweeps (a family in
// another state of the core in one of them) are reported as a group with
// their family; differences crowded just past the tolerance, each by its
// own amount, are not, however many fall near one factor.
func TestCompareFindsShifts(t *testing.T) {
	mk := func(id, form, kind string, v float64) *results.Benchmark {
		return &results.Benchmark{Measurements: []results.Measurement{{Key: "inverse_throughput", Value: v}},
			Portlab: &results.Extra{ID: id, Form: form, Kind: kind, Median: v}}
	}
	var a, b []*results.Benchmark
	add := func(form, kind string, x, y float64) {
		id := fmt.Sprint(len(a))
		a, b = append(a, mk(id, form, kind, x)), append(b, mk(id, form, kind, y))
	}
	// Eight vpcmp* forms 22 % slower in the second sweep (0.500 -> 0.611,
	// each within 0.2 % of the others), one other form among them.
	for i, f := range []string{"vpcmpeqq k, ymm, m256", "vpcmpgtd k, ymm, m256", "vpcmpq k, ymm, m256, imm8",
		"vpcmpeqw k {k}, ymm, m256", "vpcmpgtq k, ymm, m64bcst", "vpcmpud k, ymm, m256, imm8", "vpcmpeqb k, ymm, m256", "vpcmpgtw k, ymm, m256"} {
		add(f, "throughput", 0.5, 0.611*(1+0.0003*float64(i)))
	}
	add("vdivpd ymm {k}, ymm, m256", "throughput", 4.5, 5.5)
	// Forty forms 1.1-3.0 % apart, spread evenly: noise past a 1 % tolerance.
	for i := 0; i < 40; i++ {
		add(fmt.Sprintf("form%d r64, r64", i), "throughput", 1, 1.011+0.019*float64(i)/39)
	}
	// The same eight slower in latency too, but only four: too few.
	for i, f := range []string{"neg m16", "add m8, r8", "sub m8, r8", "and m8, imm8"} {
		add(f, "latency", 6.2, 7.25+0.001*float64(i))
	}
	// Six forms of two families 12 % slower beside 512-bit work: a group
	// of mixed forms.
	for i, f := range []string{"movlhps xmm, xmm", "punpcklwd xmm, xmm", "punpckhwd xmm, xmm", "pshufd xmm, xmm, imm8", "punpckhbw xmm, xmm", "pshufhw xmm, xmm, imm8"} {
		add(f, "latency-beside-512bit", 1.137, 1.273+0.0005*float64(i))
	}
	ag := Compare(a, b, 0.01, 5)
	if len(ag.Together) != 2 {
		t.Fatalf("groups %+v, want two", ag.Together)
	}
	if mixed := ag.Together[1]; mixed.N != 6 || mixed.Family != "" || strings.Join(mixed.Stems, ", ") != "3 punpc*, 2 pshuf*, 1 movlh*" {
		t.Errorf("second group %+v, want six of mixed stems", mixed)
	}
	sh := ag.Together[0]
	if sh.Kind != "throughput" || sh.N != 9 || sh.Family != "vpcmp" || sh.Shared != 8 || math.Abs(sh.Factor-1.2227) > 0.002 || sh.A != 0.5 {
		t.Errorf("group %+v, want 9 throughputs, 8 of them vpcmp*, x1.222 from 0.5", sh)
	}
	if sh.Examples[0] != "vpcmpeqq k, ymm, m256" || len(sh.Examples) != 3 {
		t.Errorf("examples %v, want three vpcmp forms", sh.Examples)
	}
	var out bytes.Buffer
	WriteAgreement(&out, ag)
	if !strings.Contains(out.String(), "moved together: 15 of the benchmarks outside the tolerance differ in groups") ||
		!strings.Contains(out.String(), "  6 latency-beside-512bit benchmarks +12.1% (1.137 -> 1.274): mixed forms (3 punpc*, 2 pshuf*, 1 movlh*), e.g. movlhps xmm, xmm;") ||
		!strings.Contains(out.String(), "  9 throughput benchmarks +22.") || !strings.Contains(out.String(), "8 of them vpcmp*, e.g. vpcmpeqq k, ymm, m256;") {
		t.Errorf("report:\n%s", out.String())
	}
	// The noise alone (and the latencies too few to count): nothing moved
	// together.
	ag = Compare(a[9:53], b[9:53], 0.01, 5)
	if len(ag.Together) != 0 {
		t.Errorf("groups %+v from noise alone", ag.Together)
	}
	out.Reset()
	WriteAgreement(&out, ag)
	if strings.Contains(out.String(), "moved together") {
		t.Errorf("report names groups from noise alone:\n%s", out.String())
	}
}

// The HTML report of a comparison draws every benchmark outside the
// tolerance, the groups in their colours, and carries both hosts, the
// dates and the command; it renders in a real browser with its text
// inside its figure.
func TestCompareHTML(t *testing.T) {
	mk := func(id, form, kind string, v float64, date string) *results.Benchmark {
		return &results.Benchmark{Measurements: []results.Measurement{{Key: "inverse_throughput", Value: v}},
			Portlab: &results.Extra{ID: id, Form: form, Kind: kind, Median: v, Host: "AuthenticAMD-19-11-1", Date: date,
				HostInfo: &results.HostInfo{Microarch: "znver4"}}}
	}
	var a, b []*results.Benchmark
	add := func(form string, x, y float64) {
		id := fmt.Sprint(len(a))
		a, b = append(a, mk(id, form, "throughput", x, "2026-11-29T05:17:35Z")), append(b, mk(id, form, "throughput", y, "2026-11-29T06:08:31Z"))
	}
	for i, f := range []string{"vpcmpeqq k, ymm, m256", "vpcmpgtd k, ymm, m256", "vpcmpq k, ymm, m256, imm8", "vpcmpeqw k, ymm, m256", "vpcmpgtq k, ymm, m64bcst"} {
		add(f, 0.5, 0.611+0.0002*float64(i))
	}
	add("vmovntdq m256, ymm", 52.4, 95) // beyond the axis: a triangle
	add("add r64, r64", 0.25, 0.2501)
	add("unpcklps xmm, xmm", 0.369, 0.402)
	add("vzeroupper", 0, 0.02) // nothing on a log axis
	ag := Compare(a, b, 0.01, 5)
	var page bytes.Buffer
	if err := WriteCompareHTML(&page, CompareReport{A: "s3.yaml", B: "s4.yaml", Command: "portlab bench compare --html c.html s3.yaml s4.yaml", Ag: ag}); err != nil {
		t.Fatal(err)
	}
	s := page.String()
	for _, want := range []string{
		"8 benchmarks outside ±1.0% of 9 compared (1 with a value of 0 not drawn)", "AuthenticAMD-19-11-1, znver4", "2026-11-29T05:17:35Z", "2026-11-29T06:08:31Z",
		"portlab bench compare --html c.html s3.yaml s4.yaml", "5 vpcmp*", "+22.",
		`fill="` + groupColors[0] + `" fill-opacity="0.75"><title>vpcmpeqq k, ymm, m256, throughput: 0.5 -&gt; 0.611 (+22.2%)</title>`,
	} {
		if !strings.Contains(s, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	if n := strings.Count(s, "<circle"); n != 6 {
		t.Errorf("%d points drawn, want 6 (the seventh outside is clipped)", n)
	}
	if strings.Count(s, "<polygon") != 1 {
		t.Error("the benchmark beyond the axis is not drawn as a triangle")
	}
	browsertest.Check(t, page.Bytes(), "", 1)
}
