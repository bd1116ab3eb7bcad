package modeldb

import (
	"slices"
	"strings"
	"testing"

	"portlab/isa"
	"portlab/results"
)

// TestMaskSlotsFromStreams: the slots come from the pair's rate where the
// pair ran as the sum of its forms (the Zen 4 guest: 0.50, 0.50, 0.50 an
// instruction; the 512-bit compare with korw 0.825, two slots a write),
// and not where it ran near what disjoint pipes allow.
func TestMaskSlotsFromStreams(t *testing.T) {
	for _, c := range []struct {
		x           *MaskWritesRun
		slots       int
		wide        float64
		description string
	}{
		{&MaskWritesRun{Logic: 0.49975, Compare: 0.49975, Pair: 0.49975, CompareZMM: 1, PairZMM: 0.82501}, 2, 2, "Zen 4"},
		{&MaskWritesRun{Logic: 0.5, Compare: 0.5, Pair: 0.5}, 2, 1, "no 512-bit streams"},
		{&MaskWritesRun{Logic: 0.5, Compare: 0.5, Pair: 0.26}, 0, 1, "disjoint pipes"},
		{&MaskWritesRun{Logic: 0.5, Compare: 0.5, Pair: 0.36}, 0, 1, "less than halfway to the sum"},
		{&MaskWritesRun{Logic: 1, Compare: 1, Pair: 1}, 1, 1, "one slot"},
		{&MaskWritesRun{Logic: 0.5, Compare: 0.5}, 0, 1, "pair not measured"},
		{nil, 0, 1, "nothing measured"},
	} {
		slots, wide := maskSlotsOf(c.x)
		if slots != c.slots || wide != c.wide {
			t.Errorf("%s: %d slots, 512-bit writes %v; want %d, %v", c.description, slots, wide, c.slots, c.wide)
		}
	}
}

// TestWritesMask: forms whose first operand is a written mask register,
// and which of them are 512-bit (Is512BitOp).
func TestWritesMask(t *testing.T) {
	for _, c := range []struct {
		form        string
		writes, wid bool
	}{
		{"korw k, k, k", true, false},
		{"vpcmpeqd k, xmm, xmm", true, false},
		{"vpcmpeqd k {k}, zmm, m512", true, true},
		{"vpmovb2m k, zmm", true, true},
		{"kmovw k, r32", true, false},
		{"kortestw k, k", false, false},
		{"ktestw k, k", false, false},
		{"kmovw r32, k", false, false},
		{"vpaddd zmm {k}, zmm, zmm", false, false},
	} {
		f, ok := isa.Lookup(c.form)
		if !ok {
			t.Fatalf("no form %q", c.form)
		}
		if w, wide := writesMask(f), Is512BitOp(f); w != c.writes || (w && wide != c.wid) {
			t.Errorf("%s: writes a mask %v, 512-bit %v; want %v, %v", c.form, w, wide, c.writes, c.wid)
		}
	}
}

// TestBuildMeasuresMaskWrites: the streams of a sweep give every form
// that writes a mask a use of the slots (two for the 512-bit compare),
// none to a form that only reads one; without the streams, or with a
// pair that ran as disjoint pipes allow, or one whose forms share their
// pipes, there are no slots, and a base that had them loses them (they
// are the host's measurement).
func TestBuildMeasuresMaskWrites(t *testing.T) {
	tp := func(form string, v float64) *results.Benchmark {
		return &results.Benchmark{Mode: "inverse_throughput", Measurements: []results.Measurement{{Key: "inverse_throughput", Value: v, PerSnippetValue: 16 * v}},
			Portlab: &results.Extra{ID: "tp " + form, Form: form, Kind: "throughput", Median: v, Reps: 5, Clean: 5, Host: "h", Date: "2026-11-30T03:00:00Z"}}
	}
	stream := func(operands string, v float64) *results.Benchmark {
		b := tp("korw k, k, k", v)
		b.Portlab.ID, b.Portlab.Kind, b.Portlab.Operands = "mask "+operands, MaskWritesKind, operands
		return b
	}
	forms := []*results.Benchmark{tp("korw k, k, k", 0.5), tp("vpcmpeqd k, xmm, xmm", 0.5), tp("vpcmpeqd k, zmm, zmm", 1), tp("kortestw k, k", 1), tp("vpaddd xmm, xmm, xmm", 0.25)}
	streams := []*results.Benchmark{
		stream(MaskWritesLogic, 0.49975), stream(MaskWritesCompare, 0.49975), stream(MaskWritesPair, 0.49975),
		stream(MaskWritesCompareZMM, 1), stream(MaskWritesPairZMM, 0.82501),
	}
	base := &Model{Name: "base", ISA: "x86", DispatchWidth: 6, Ports: []string{"FP0", "FP1", "FP2", "FP3"}, Forms: []*Entry{
		{Form: "korw k, k, k", Uops: 1, Latency: 1, Throughput: 0.5, PortPressure: PortPressure{{Cycles: 1, Ports: []string{"FP2", "FP3"}}}},
		{Form: "vpcmpeqd k, xmm, xmm", Uops: 1, Latency: 3, Throughput: 0.5, PortPressure: PortPressure{{Cycles: 1, Ports: []string{"FP0", "FP1"}}}},
		{Form: "vpcmpeqd k, zmm, zmm", Uops: 1, Latency: 3, Throughput: 1, PortPressure: PortPressure{{Cycles: 2, Ports: []string{"FP0", "FP1"}}}},
		{Form: "kortestw k, k", Uops: 1, Latency: 1, Throughput: 1, PortPressure: PortPressure{{Cycles: 1, Ports: []string{"FP0"}}}},
		{Form: "vpaddd xmm, xmm, xmm", Uops: 1, Latency: 1, Throughput: 0.25, PortPressure: PortPressure{{Cycles: 1, Ports: []string{"FP0", "FP1", "FP2", "FP3"}}}},
	}}
	ms := CollectMeasurements(append(slices.Clone(forms), streams...), CollectOptions{})
	if ms.MaskWrites == nil || ms.MaskWrites.Pair != 0.49975 || ms.MaskWrites.PairZMM != 0.82501 || ms.MaskWrites.Noisy {
		t.Fatalf("collected %+v", ms.MaskWrites)
	}
	if got := ms.Forms["korw k, k, k"].Throughput; got != 0.5 {
		t.Errorf("the streams changed korw's throughput: %v", got)
	}
	m, rep, err := Build(ms, BuildOptions{Base: base})
	if err != nil {
		t.Fatal(err)
	}
	slots := []string{"MaskWrite.0", "MaskWrite.1"}
	if !slices.Equal(m.Ports[len(m.Ports)-2:], slots) {
		t.Errorf("ports %v, want the two slots last", m.Ports)
	}
	slotUse := func(m *Model, form string) float64 {
		e, ok := m.Lookup(form)
		if !ok {
			t.Fatalf("no entry for %s", form)
		}
		for _, u := range e.PortPressure {
			if slices.ContainsFunc(u.Ports, isMaskWritePort) {
				return u.Cycles
			}
		}
		return 0
	}
	for form, want := range map[string]float64{"korw k, k, k": 1, "vpcmpeqd k, xmm, xmm": 1, "vpcmpeqd k, zmm, zmm": 2, "kortestw k, k": 0, "vpaddd xmm, xmm, xmm": 0} {
		if got := slotUse(m, form); got != want {
			t.Errorf("%s: %v cycles of the slots, want %v", form, got, want)
		}
	}
	wantPass(t, rep, "mask writes", true, "the two in turn 0.500 (disjoint pipes allow 0.250, one shared unit 0.500)")
	if p := passOf(t, rep, "mask writes"); len(p.Changes) != 1 || !strings.Contains(p.Changes[0], "2 mask-write slots a cycle") || !strings.Contains(p.Changes[0], "on 3 forms") {
		t.Errorf("changes %q", p.Changes)
	}

	// Rebuilt from that model without the streams: the slots go.
	m2, rep2, err := Build(CollectMeasurements(forms, CollectOptions{}), BuildOptions{Base: m})
	if err != nil {
		t.Fatal(err)
	}
	if slices.ContainsFunc(m2.Ports, isMaskWritePort) || slotUse(m2, "korw k, k, k") != 0 {
		t.Errorf("without the streams the slots stay: ports %v", m2.Ports)
	}
	wantPass(t, rep2, "mask writes", false, "not measured")

	// A pair as fast as disjoint pipes allow: no slots.
	disjoint := append(slices.Clone(forms), stream(MaskWritesLogic, 0.5), stream(MaskWritesCompare, 0.5), stream(MaskWritesPair, 0.25))
	m3, rep3, err := Build(CollectMeasurements(disjoint, CollectOptions{}), BuildOptions{Base: base})
	if err != nil {
		t.Fatal(err)
	}
	if slices.ContainsFunc(m3.Ports, isMaskWritePort) {
		t.Errorf("slots from a pair on disjoint pipes: ports %v", m3.Ports)
	}
	wantPass(t, rep3, "mask writes", false, "no shared limit")

	// Where the two share their pipes (a host that runs the compare and
	// korw on the same two ports), the ports give the pair its time: no
	// slots.
	shared := base.Clone()
	for _, e := range shared.Forms {
		if e.Form == "korw k, k, k" {
			e.PortPressure = PortPressure{{Cycles: 1, Ports: []string{"FP0", "FP1"}}}
		}
	}
	m4, rep4, err := Build(ms, BuildOptions{Base: shared})
	if err != nil {
		t.Fatal(err)
	}
	if slices.ContainsFunc(m4.Ports, isMaskWritePort) {
		t.Errorf("slots where the pair shares its pipes: ports %v", m4.Ports)
	}
	wantPass(t, rep4, "mask writes", false, "the fitted ports give the pair 0.500 already")
}
