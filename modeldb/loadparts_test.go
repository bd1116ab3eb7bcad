package modeldb

import (
	"strings"
	"testing"

	"portlab/results"
)

// loadsModel is a Zen-like model: integer ALUs, FP pipes, the pipes FP4
// and FP5 that vector loads take, two load ports and a shuffle port.
func loadsModel() *Model {
	pp := func(uses ...PortUse) PortPressure { return PortPressure(uses) }
	u := func(c float64, ports ...string) PortUse { return PortUse{Cycles: c, Ports: ports} }
	m := &Model{Name: "loads", ISA: "x86", DispatchWidth: 6, Ports: []string{"ALU0", "ALU1", "FP0", "FP1", "FP4", "FP5", "LD0", "LD1", "P5"}}
	put := func(form string, tp float64, p PortPressure) {
		m.Put(&Entry{Form: form, Uops: float64(len(p)), Latency: 1, Throughput: tp, PortPressure: p,
			Provenance: &Provenance{Source: SourceMeasured, Note: "fitted"}})
	}
	put("mov r64, m64", 0.5, pp(u(1, "LD0", "LD1")))
	put("movups xmm, m128", 0.5, pp(u(1, "FP4", "FP5"), u(1, "LD0", "LD1")))
	put("add r64, r64", 0.5, pp(u(1, "ALU0", "ALU1")))
	put("vfmadd132ps xmm, xmm, xmm", 0.5, pp(u(1, "FP0", "FP1")))
	// Fitted to a few mixes: the FMA's work on the integer ALUs.
	put("vfmadd132ps xmm, xmm, m128", 0.5, pp(u(1, "ALU0", "ALU1"), u(1, "FP4", "FP5"), u(1, "LD0", "LD1")))
	// The same drift on an add from memory.
	put("add r64, m64", 0.5, pp(u(1, "FP0", "FP1"), u(1, "LD0", "LD1")))
	// A register form with a shuffle uop the memory form does without
	// (vcvtps2pd ymm, m128 on Intel cores): the composition would run at
	// one a cycle where the form ran two.
	put("vcvtps2pd ymm, xmm", 1, pp(u(1, "FP0", "FP1"), u(1, "P5")))
	put("vcvtps2pd ymm, m128", 0.5, pp(u(1, "FP0", "FP1"), u(1, "LD0", "LD1")))
	// A broadcast from memory is its load alone.
	put("vbroadcastss xmm, xmm", 0.5, pp(u(1, "FP0", "FP1")))
	put("vbroadcastss xmm, m32", 0.5, pp(u(1, "LD0", "LD1")))
	// A read-modify-write is no load.
	put("add m64, r64", 1, pp(u(1, "FP0"), u(1, "LD0", "LD1")))
	m.Reindex()
	return m
}

func pressureOf(t *testing.T, m *Model, form string) string {
	t.Helper()
	e, ok := m.Lookup(form)
	if !ok {
		t.Fatalf("no %s", form)
	}
	return FormatPressure(e.PortPressure)
}

// TestLoadsFromRegisterForms: a load folded into an operation takes its
// register form's ports beside its own groups on the plain loads' ports;
// a form whose composition would not run at its measured throughput,
// moves and broadcasts from memory, read-modify-writes and forms include
// leaves out keep their entries.
func TestLoadsFromRegisterForms(t *testing.T) {
	m := loadsModel()
	want := map[string]string{
		"vfmadd132ps xmm, xmm, m128": FormatPressure(PortPressure{{Cycles: 1, Ports: []string{"FP0", "FP1"}}, {Cycles: 1, Ports: []string{"FP4", "FP5"}}, {Cycles: 1, Ports: []string{"LD0", "LD1"}}}),
		"add r64, m64":               FormatPressure(PortPressure{{Cycles: 1, Ports: []string{"ALU0", "ALU1"}}, {Cycles: 1, Ports: []string{"LD0", "LD1"}}}),
	}
	kept := []string{"vcvtps2pd ymm, m128", "vbroadcastss xmm, m32", "add m64, r64", "mov r64, m64", "movups xmm, m128"}
	before := map[string]string{}
	for _, f := range kept {
		before[f] = pressureOf(t, m, f)
	}
	if n := m.LoadsFromRegisterForms(nil); n != len(want) {
		t.Errorf("changed %d entries, want %d", n, len(want))
	}
	for f, w := range want {
		if got := pressureOf(t, m, f); got != w {
			t.Errorf("%s: %s, want %s", f, got, w)
		}
		e, _ := m.Lookup(f)
		if !strings.HasPrefix(e.Provenance.Note, "fitted; port_pressure 1*p[") || !strings.Contains(e.Provenance.Note, "]: ") || !strings.Contains(e.Provenance.Note, "its own load part") {
			t.Errorf("%s: provenance note %q: want what it replaced", f, e.Provenance.Note)
		}
	}
	for _, f := range kept {
		if got := pressureOf(t, m, f); got != before[f] {
			t.Errorf("%s: %s, want it kept as %s", f, got, before[f])
		}
	}
	// Applied again, nothing changes.
	if n := m.LoadsFromRegisterForms(nil); n != 0 {
		t.Errorf("applied twice: changed %d more", n)
	}

	// include leaves out the add and (through its register form) the FMA.
	m = loadsModel()
	n := m.LoadsFromRegisterForms(func(f string) bool { return f != "add r64, m64" && f != "vfmadd132ps xmm, xmm, xmm" })
	if n != 0 {
		t.Errorf("with both forms left out: changed %d", n)
	}

	// Without a plain load the load ports are unknown.
	m = loadsModel()
	m.Forms = slicesDeleteForms(m.Forms, "mov r64, m64", "movups xmm, m128")
	m.Reindex()
	if n := m.LoadsFromRegisterForms(nil); n != 0 {
		t.Errorf("without plain loads: changed %d", n)
	}
}

// TestLoadsFromRegisterFormsBeside512: where the register form has ports
// of its own beside 512-bit work, the memory form takes them with its
// load part.
func TestLoadsFromRegisterFormsBeside512(t *testing.T) {
	m := loadsModel()
	r, _ := m.Lookup("vfmadd132ps xmm, xmm, xmm")
	r.PortPressure512 = PortPressure{{Cycles: 1, Ports: []string{"FP0"}}}
	e, _ := m.Lookup("vfmadd132ps xmm, xmm, m128")
	e.Throughput = 0.5
	m.LoadsFromRegisterForms(nil)
	want := FormatPressure(PortPressure{{Cycles: 1, Ports: []string{"FP0"}}, {Cycles: 1, Ports: []string{"FP4", "FP5"}}, {Cycles: 1, Ports: []string{"LD0", "LD1"}}})
	if got := FormatPressure(e.PortPressure512); got != want {
		t.Errorf("beside 512-bit work: %s, want %s", got, want)
	}
}

func slicesDeleteForms(es []*Entry, forms ...string) []*Entry {
	var out []*Entry
	for _, e := range es {
		drop := false
		for _, f := range forms {
			drop = drop || e.Form == f
		}
		if !drop {
			out = append(out, e)
		}
	}
	return out
}

// TestBuildTakesLoadsFromRegisterForms: a base whose add from memory runs
// on one ALU (a mapping its one mix cannot refuse: the mix's vector adds
// take the other ALU) is built into the add's two ALUs beside the load,
// and the pass says so.
func TestBuildTakesLoadsFromRegisterForms(t *testing.T) {
	base := clusterModel(t, true)
	base.Name = "base"
	base.Put(&Entry{Form: "add r64, m64", Uops: 1, Latency: 5, Throughput: 1, Flags: []string{FlagMayLoad},
		PortPressure: PortPressure{{Cycles: 1, Ports: []string{"ALU1"}}, {Cycles: 1, Ports: []string{"LD"}}}})
	bs := []*results.Benchmark{
		clusterResult("a", "add r64, r64", 0.5), clusterResult("i", "imul r64, r64", 1), clusterResult("v", "vaddpd ymm, ymm, ymm", 0.5),
		clusterResult("l", "mov r64, m64", 1), clusterResult("am", "add r64, m64", 1),
		clusterMix("m1", []results.MixPart{{Form: "add r64, m64", Count: 4}, {Form: "vaddpd ymm, ymm, ymm", Count: 4}}, 4),
	}
	ms := CollectMeasurements(bs, CollectOptions{})
	m, rep, err := Build(ms, BuildOptions{Base: base, Now: fixedNow})
	if err != nil {
		t.Fatal(err)
	}
	want := FormatPressure(PortPressure{{Cycles: 1, Ports: []string{"ALU0", "ALU1"}}, {Cycles: 1, Ports: []string{"LD"}}})
	if got := pressureOf(t, m, "add r64, m64"); got != want {
		t.Errorf("add r64, m64 on %s, want %s", got, want)
	}
	p := passOf(t, rep, "loads from their register forms")
	if !p.Applied || len(p.Changes) != 1 || !strings.HasPrefix(p.Changes[0], "1 form that reads memory takes") {
		t.Errorf("pass: applied %v, changes %q", p.Applied, p.Changes)
	}
	if !strings.Contains(p.Evidence, "mov r64, m64") {
		t.Errorf("pass evidence %q: want the plain load it read the load ports from", p.Evidence)
	}
}
