package modeldb

import (
	"strings"
	"testing"

	"portlab/results"
)

// widthsModel is a Zen 5-like model as a build from an older base left
// it: vector loads of up to 256 bits take one of the two vector load
// pipes FL0 and FL1, the 512-bit load two uops of a group grown by two
// new ports (N7, N8), every 512-bit load from memory with it.
func widthsModel() *Model {
	u := func(c float64, ports ...string) PortUse { return PortUse{Cycles: c, Ports: ports} }
	m := &Model{Name: "widths", ISA: "x86", DispatchWidth: 8,
		Ports: []string{"ALU0", "ALU1", "FP0", "FP1", "FL0", "FL1", "N7", "N8", "LD0", "LD1", "LD2", "LD3", "ST0", "ST1"}}
	put := func(form string, tp float64, pp ...PortUse) {
		m.Put(&Entry{Form: form, Uops: 1, Latency: 1, Throughput: tp, PortPressure: PortPressure(pp),
			Provenance: &Provenance{Source: SourceMeasured, Note: "fitted"}})
	}
	lds := []string{"LD0", "LD1", "LD2", "LD3"}
	put("add r64, r64", 0.5, u(1, "ALU0", "ALU1"))
	put("vpaddd ymm, ymm, ymm", 0.5, u(1, "FP0", "FP1"))
	put("mov r64, m64", 0.25, u(1, lds...))
	put("vmovups xmm, m128", 0.5, u(1, "FL0", "FL1"), u(1, lds...))
	put("vmovups ymm, m256", 0.5, u(1, "FL0", "FL1"), u(1, lds...))
	put("vmovups zmm, m512", 0.5, u(2, "FL0", "FL1", "N7", "N8"), u(2, lds...))
	put("vmovups m512, zmm", 1, u(2, "ST0", "ST1"))
	put("vpaddd zmm, zmm, m512", 0.5, u(1, "FP0", "FP1"), u(2, "FL0", "FL1", "N7", "N8"), u(2, lds...))
	// A register form that happens to use the group keeps it: the
	// move is about the memory path.
	put("vpermd zmm, zmm, zmm", 0.5, u(2, "FL0", "FL1", "N7", "N8"))
	m.Reindex()
	return m
}

// widthsMixes are plain loads mixed with each other as they ran: a 512-bit
// load beside a narrower one takes as long as two narrower ones (zmm is
// the cycles of a 512-bit load and a narrower one, 6 of each).
func widthsMixes(zmm float64) []*MixMeasurement {
	mix := func(cycles float64, parts ...MixPart) *MixMeasurement {
		return &MixMeasurement{Parts: parts, Cycles: cycles}
	}
	return []*MixMeasurement{
		mix(zmm, MixPart{Form: "vmovups zmm, m512", Count: 6}, MixPart{Form: "vmovups xmm, m128", Count: 6}),
		mix(zmm, MixPart{Form: "vmovups zmm, m512", Count: 6}, MixPart{Form: "vmovups ymm, m256", Count: 6}),
		mix(6, MixPart{Form: "vmovups ymm, m256", Count: 6}, MixPart{Form: "vmovups xmm, m128", Count: 6}),
		mix(4, MixPart{Form: "vmovups zmm, m512", Count: 4}, MixPart{Form: "mov r64, m64", Count: 8}),
		// Not all plain memory forms: not evidence.
		mix(3, MixPart{Form: "vmovups zmm, m512", Count: 6}, MixPart{Form: "add r64, r64", Count: 6}),
	}
}

// TestMemoryGroupMoves: where a 512-bit load beside a narrower one runs as
// two narrower loads, the 512-bit load's group is the narrower loads'
// pair of pipes at the same cycles a port, in every memory form that has
// it; register forms keep theirs, and so does every form where the mixes
// show the wider group.
func TestMemoryGroupMoves(t *testing.T) {
	m := widthsModel()
	before := pressureOf(t, m, "vmovups zmm, m512")
	moves := m.MemoryGroupMoves(widthsMixes(6))
	if got := pressureOf(t, m, "vmovups zmm, m512"); got != before {
		t.Errorf("MemoryGroupMoves changed the model: %s, was %s", got, before)
	}
	if len(moves) != 1 {
		t.Fatalf("moves %v, want one", moves)
	}
	g := moves[0]
	if strings.Join(g.From, ",") != "FL0,FL1,N7,N8" || strings.Join(g.To, ",") != "FL0,FL1" || g.Form != "vmovups zmm, m512" ||
		g.Like != "vmovups xmm, m128" || g.Mixes != 4 || g.WithinBefore != 2 || g.Within != 4 {
		t.Errorf("move %+v: want the zmm load's p[FL0,FL1,N7,N8] as the xmm load's p[FL0,FL1], 4 of 4 mixes within instead of 2", g)
	}
	if s := g.String(); !strings.Contains(s, "vmovups zmm, m512's p[FL0,FL1,N7,N8] is vmovups xmm, m128's p[FL0,FL1]") || !strings.Contains(s, "4 of 4 mixes") {
		t.Errorf("move in words: %q", s)
	}
	if n := m.MoveMemoryGroups(moves); n != 2 {
		t.Errorf("MoveMemoryGroups changed %d entries, want 2 (the zmm load and vpaddd zmm, zmm, m512)", n)
	}
	want := map[string]string{
		"vmovups zmm, m512":     "1*p[FL0,FL1]+2*p[LD0,LD1,LD2,LD3]",
		"vpaddd zmm, zmm, m512": "1*p[FP0,FP1]+1*p[FL0,FL1]+2*p[LD0,LD1,LD2,LD3]",
		"vpermd zmm, zmm, zmm":  "2*p[FL0,FL1,N7,N8]",
		"vmovups xmm, m128":     "1*p[FL0,FL1]+1*p[LD0,LD1,LD2,LD3]",
	}
	for f, w := range want {
		if got := pressureOf(t, m, f); got != w {
			t.Errorf("%s on %s, want %s", f, got, w)
		}
	}
	e, _ := m.Lookup("vpaddd zmm, zmm, m512")
	if !strings.HasPrefix(e.Provenance.Note, "fitted; port_pressure ") || !strings.Contains(e.Provenance.Note, "p[FL0,FL1,N7,N8] -> p[FL0,FL1]: vmovups zmm, m512's memory group is vmovups xmm, m128's") {
		t.Errorf("provenance note %q: want what it replaced and why", e.Provenance.Note)
	}
	// Alone, every form runs as fast as before.
	for _, f := range []string{"vmovups zmm, m512", "vpaddd zmm, zmm, m512"} {
		e, _ := m.Lookup(f)
		if b, err := Balance(m.Ports, e.PortPressure); err != nil || b.Cycles != e.Throughput {
			t.Errorf("%s alone: %v cycles (%v), measured %v", f, b.Cycles, err, e.Throughput)
		}
	}

	// Where the 512-bit load beside a narrower one leaves room (the four
	// ports of the fitted group), nothing moves.
	m = widthsModel()
	if moves := m.MemoryGroupMoves(widthsMixes(4.5)); len(moves) != 0 {
		t.Errorf("moves %v where the mixes show the wider group", moves)
	}
	// Nor without mixes of plain memory forms with each other.
	if moves := m.MemoryGroupMoves(widthsMixes(6)[4:]); len(moves) != 0 {
		t.Errorf("moves %v without plain memory mixes", moves)
	}
}

// TestBuildMovesMemoryGroups: the builder's pass "memory groups by width"
// moves the group in every memory form of the model, measured or
// carried from the base, and says what the mixes showed.
func TestBuildMovesMemoryGroups(t *testing.T) {
	base := widthsModel()
	base.Name = "base"
	var bs []*results.Benchmark
	for _, f := range []string{"mov r64, m64", "vmovups xmm, m128", "vmovups ymm, m256", "vmovups zmm, m512", "add r64, r64", "vpaddd ymm, ymm, ymm"} {
		e, _ := base.Lookup(f)
		bs = append(bs, clusterResult(f, f, e.Throughput))
	}
	for i, mx := range widthsMixes(6)[:4] {
		var parts []results.MixPart
		for _, p := range mx.Parts {
			parts = append(parts, results.MixPart{Form: p.Form, Count: p.Count})
		}
		bs = append(bs, clusterMix("w"+string(rune('0'+i)), parts, mx.Cycles))
	}
	ms := CollectMeasurements(bs, CollectOptions{})
	m, rep, err := Build(ms, BuildOptions{Base: base, Now: fixedNow})
	if err != nil {
		t.Fatal(err)
	}
	p := passOf(t, rep, "memory groups by width")
	if !p.Applied || !strings.HasPrefix(p.Evidence, "4 mixes of plain loads and stores with each other: 2 within 10 % with the fitted groups, 4 with 1 moved") {
		t.Errorf("pass: applied %v, evidence %q", p.Applied, p.Evidence)
	}
	if len(p.Changes) != 2 || !strings.Contains(p.Changes[0], "p[FL0,FL1,N7,N8] is") || p.Changes[1] != "2 memory forms' entries changed" {
		t.Errorf("pass changes %q", p.Changes)
	}
	if got, want := pressureOf(t, m, "vpaddd zmm, zmm, m512"), "1*p[FP0,FP1]+1*p[FL0,FL1]+2*p[LD0,LD1,LD2,LD3]"; got != want {
		t.Errorf("vpaddd zmm, zmm, m512 (from the base) on %s, want %s", got, want)
	}
}
