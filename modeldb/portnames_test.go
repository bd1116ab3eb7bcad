package modeldb

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"portlab/results"
)

// A build from no base names its abstract ports after the reference's
// where the same forms use them, and the names are all that changes: on
// the synthetic Zen-4-like core, with the truth as the reference, every
// probe's ports come out as the truth's, and the model predicts random
// mixes exactly as the one with abstract names does.
func TestBuildNamesAbstractPortsAfterTheReference(t *testing.T) {
	truth := loadTruth(t)
	ms := synthMeasurements(t, truth, 0.01, 1)
	named, rep, err := Build(ms, BuildOptions{Now: fixedNow, Clusters: truth})
	if err != nil {
		t.Fatal(err)
	}
	plain, _, err := Build(ms, BuildOptions{Now: fixedNow})
	if err != nil {
		t.Fatal(err)
	}
	wantPass(t, rep, "port names", true, "names")
	for _, f := range []string{"add r64, r64", "shl r64, imm8", "imul r64, r64", "vaddpd ymm, ymm, ymm", "vmulpd ymm, ymm, ymm", "vshufpd ymm, ymm, ymm, imm8", "vdivpd ymm, ymm, ymm"} {
		got, want := portSet(t, named, f), portSet(t, truth, f)
		if len(got) != len(want) {
			t.Errorf("%s: ports %v, the reference's %v", f, got, want)
			continue
		}
		for p := range want {
			if !got[p] {
				t.Errorf("%s: ports %v, the reference's %v", f, got, want)
				break
			}
		}
	}
	if strings.Join(rep.Ports, " ") != strings.Join(named.Ports, " ") {
		t.Errorf("report's ports %v, the model's %v", rep.Ports, named.Ports)
	}
	// Same ports in the same order, some renamed: a simulator that tries
	// a group's ports in the model's order runs the same.
	to := map[string]string{}
	for _, c := range passOf(t, rep, "port names").Changes {
		var from, name string
		fmt.Sscanf(c, "%s -> %s", &from, &name)
		to[from] = name
	}
	if len(named.Ports) != len(plain.Ports) {
		t.Fatalf("ports %v, without names %v", named.Ports, plain.Ports)
	}
	for i, p := range plain.Ports {
		if want, ok := to[p]; !ok && named.Ports[i] != p || ok && named.Ports[i] != want {
			t.Errorf("port %d: %s, without names %s (renamed %v)", i, named.Ports[i], p, to)
		}
	}
	if s := rep.Summary(3); abstractPort.MatchString(passOf(t, rep, "ports from the mixes").Evidence) {
		t.Errorf("the report still names abstract ports the pass renamed:\n%s", s)
	}
	a, b := NewPredictor(named), NewPredictor(plain)
	for _, mx := range randomMixes(t, truth, 200, 0, 3) {
		pa, err := a.Predict(mx.Parts)
		if err != nil {
			t.Fatal(err)
		}
		pb, err := b.Predict(mx.Parts)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(pa.Cycles-pb.Cycles) > 1e-9 {
			t.Fatalf("%v: %v cycles with the names, %v without", mx.Parts, pa.Cycles, pb.Cycles)
		}
	}
}

// A port whose forms the reference spreads over several of its ports, or
// that too few forms use, keeps its abstract name; each reference port
// names one port.
func TestMatchPortsOnlyWhereEvident(t *testing.T) {
	m := &Model{Ports: []string{"P0", "P1", "P2", "P3"}}
	ref := &Model{Ports: []string{"A", "B", "C", "D", "E"}}
	add := func(form string, mp, rp []string) {
		m.Forms = append(m.Forms, &Entry{Form: form, PortPressure: PortPressure{{Cycles: 1, Ports: mp}}})
		ref.Forms = append(ref.Forms, &Entry{Form: form, PortPressure: PortPressure{{Cycles: 1, Ports: rp}}})
	}
	forms := []string{"add r64, r64", "sub r64, r64", "and r64, r64", "or r64, r64", "xor r64, r64", "adc r64, r64", "sbb r64, r64", "cmp r64, r64"}
	for _, f := range forms {
		add(f, []string{"P0"}, []string{"A"}) // P0 is A
	}
	for i, f := range []string{"add r32, r32", "sub r32, r32", "and r32, r32", "or r32, r32", "xor r32, r32", "adc r32, r32", "sbb r32, r32", "cmp r32, r32"} {
		add(f, []string{"P1"}, []string{[]string{"B", "C", "D", "E"}[i%4]}) // P1 is none of them
	}
	add("add r16, r16", []string{"P2"}, []string{"A"}) // too few, and A is taken
	add("sub r16, r16", []string{"P3"}, []string{"E"})
	m.Reindex()
	ref.Reindex()
	got := MatchPorts(m, ref)
	if len(got) != 1 || got[0].Port != "P0" || got[0].Ref != "A" || got[0].Both != len(forms) {
		t.Fatalf("matches %+v, want only P0 -> A over %d forms", got, len(forms))
	}
	if err := m.RenamePorts(map[string]string{"P0": "A", "P1": "P2"}); err == nil || !strings.Contains(err.Error(), `"P2"`) {
		t.Errorf("renaming two ports to one name: %v", err)
	}
	if err := m.RenamePorts(map[string]string{"P0": "A"}); err != nil {
		t.Fatal(err)
	}
	if e, _ := m.Lookup("add r64, r64"); e.PortPressure.String() != "1*pA" || m.Ports[0] != "A" {
		t.Errorf("renamed: ports %v, add r64, r64 %v", m.Ports, e.PortPressure)
	}
}

// From no base, a real sweep's model takes the CPU its results name and
// the port names of the imported LLVM model nearest it: the Zen 4
// subset's integer adds and shifts on LLVM 14 znver3's ALUs, its vector
// adds and multiplies on two FP pipes each, as znver3 has them.
func TestBuildFromNoBaseNamesRealPorts(t *testing.T) {
	bs, err := results.ReadFile("../testdata/models/real-znver4-subset.yaml")
	if err != nil {
		t.Fatal(err)
	}
	ms := CollectMeasurements(bs, CollectOptions{})
	m, rep, err := Build(ms, BuildOptions{Now: fixedNow})
	if err != nil {
		t.Fatal(err)
	}
	if m.LLVMCPU != "znver4" || m.MicroArchitecture != "znver4" {
		t.Errorf("llvm_cpu %q, micro_architecture %q: want the results' znver4", m.LLVMCPU, m.MicroArchitecture)
	}
	wantPass(t, rep, "port names", true, "znver3")
	for form, want := range map[string]string{"add r64, r64": "ALU0 ALU1 ALU2 ALU3", "shr r64, imm8": "ALU1 ALU2",
		"vaddpd ymm, ymm, ymm": "FPP2 FPP3", "vmulpd ymm, ymm, ymm": "FPP0 FPP1"} {
		if got := strings.Join(sortedKeys(portSet(t, m, form)), " "); got != want {
			t.Errorf("%s on %s, want %s\n%s", form, got, want, rep.Summary(0))
		}
	}
}
