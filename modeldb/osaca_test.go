package modeldb

import (
	"math"
	"os"
	"strings"
	"testing"
)

func TestImportOSACAMini(t *testing.T) {
	m, rep, err := ImportOSACA("../testdata/models/osaca-mini.yml", OSACAOptions{DeriveMemory: true})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Entries != 14 || rep.Mapped != 11 || rep.Forms != 48 || rep.Derived != 44 || len(rep.Unmapped) != 3 {
		t.Errorf("report: %d entries, %d mapped, %d forms, %d derived, %d unmapped", rep.Entries, rep.Mapped, rep.Forms, rep.Derived, len(rep.Unmapped))
	}
	wantUnmapped := []string{
		`frobnicate gpr: the catalog has no mnemonic "frobnicate"`,
		`vaddpd ymm, ymm: no catalog form of "vaddpd" has operands (ymm, ymm)`,
		`imul mem, gpr: unknown port "9"`,
	}
	for i, u := range rep.Unmapped {
		if got := u.Form + ": " + u.Reason; got != wantUnmapped[i] {
			t.Errorf("unmapped %d: %q, want %q", i, got, wantUnmapped[i])
		}
	}
	if rep.Unmapped[0].Line != 147 {
		t.Errorf("unmapped line %d, want 147", rep.Unmapped[0].Line)
	}
	// Header.
	if m.MicroArchitecture != "Test Core" || m.DispatchWidth != 4 || m.ROBSize != 256 || m.LoadLatency["ymm"] != 7 ||
		FormatPressure(m.StorePorts) != "1*p4+1*p23" || len(m.LoadThroughput) != 2 || strings.Join(m.Ports, " ") != "0 1 2 3 4 5 LD" {
		t.Errorf("header: %+v", m)
	}
	if m.Provenance == nil || m.Provenance.Source != SourceImported || m.Provenance.From != "osaca:osaca-mini.yml (OSACA 0.5.3)" {
		t.Errorf("provenance %+v", m.Provenance)
	}
	type want struct {
		lat, tp float64
		pp      string
		prov    string // "" imported with the model, else the entry's note prefix
	}
	for form, w := range map[string]want{
		// name lists, gpr matching every width, AT&T order
		"add r8, r8":   {1, 0.33333, "1*p015", ""},
		"sub r64, r64": {1, 0.33333, "1*p015", ""},
		// immediates of every size, and the accumulator forms
		"add r64, imm8":  {1, 0.33333, "1*p015", ""},
		"add rax, imm32": {1, 0.33333, "1*p015", ""},
		// shift by one: AT&T writes no count
		"shl r64, 1": {1, 0.5, "1*p05", ""},
		// a VEX entry covers the {evex} form with the same operands
		"{evex} vaddpd ymm, ymm, ymm": {3, 0.5, "1*p01", ""},
		// mask: true covers merge and zeroing
		"vaddpd zmm {k}, zmm, zmm":    {4, 1, "1*p0", ""},
		"vaddpd zmm {k}{z}, zmm, zmm": {4, 1, "1*p0", ""},
		// a memory entry as given
		"vaddpd ymm, ymm, m256":     {10, 0.5, "1*p[0,1]+1*p[2,3]+1*p[LD]", ""},
		"vfmadd213pd ymm, ymm, ymm": {4, 1, "1*p0", ""},
		"jne rel8":                  {0, 0.5, "1*p5", ""},
		// derived as OSACA does: register form + load (latency + load latency)
		"imul r64, m64":              {8, 1, "1*p1+1*p23", `derived as OSACA does: "imul r64, r64" + load`},
		"vfmadd231pd ymm, ymm, m256": {11, 1, "1*p[0]+1*p[2,3]+1*p[LD]", `derived as OSACA does: "vfmadd231pd ymm, ymm, ymm" + load`},
		"add m64, r64":               {6, 1, "1*p015+1*p23+1*p4+1*p23", `derived as OSACA does: "add r64, r64" + load + store`},
	} {
		e, ok := m.Lookup(form)
		if !ok {
			t.Errorf("%q not imported", form)
			continue
		}
		if e.Latency != w.lat || e.Throughput != w.tp || FormatPressure(e.PortPressure) != w.pp {
			t.Errorf("%q: latency %v throughput %v ports %s, want %v %v %s", form, e.Latency, e.Throughput, FormatPressure(e.PortPressure), w.lat, w.tp, w.pp)
		}
		switch {
		case w.prov == "" && e.Provenance != nil:
			t.Errorf("%q: own provenance %+v", form, e.Provenance)
		case w.prov != "" && (e.Provenance == nil || e.Provenance.Source != SourceInferred || e.Provenance.Note != w.prov):
			t.Errorf("%q: provenance %+v, want inferred %q", form, e.Provenance, w.prov)
		}
	}
	// Forms no entry describes are not invented.
	for _, form := range []string{"vmulpd zmm, zmm, zmm", "vaddpd xmm, xmm, xmm", "imul r64, r64, imm8", "vaddpd zmm, zmm, zmm"} {
		if _, ok := m.Lookup(form); ok {
			t.Errorf("%q imported", form)
		}
	}
	// Without derivation only the direct forms are there.
	m2, rep2, err := ImportOSACA("../testdata/models/osaca-mini.yml", OSACAOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(m2.Forms) != 48 || rep2.Derived != 0 {
		t.Errorf("without derivation: %d forms, %d derived", len(m2.Forms), rep2.Derived)
	}
	// The imported model passes validation after a round trip.
	data, err := m.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Parse("imported.yml", data, LoadOptions{}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(rep.Summary(2), "3 entries not mapped to any catalog form:\n") || !strings.Contains(rep.Summary(2), "... and 1 more") {
		t.Errorf("summary:\n%s", rep.Summary(2))
	}
}

// osacaZen4 is OSACA's Zen 4 machine file, shared read-only with the
// project (AGPL data: never copied into the repository).
const osacaZen4 = "../../shared/data/osaca-zen4.yml"

func TestImportOSACAZen4(t *testing.T) {
	if _, err := os.Stat(osacaZen4); err != nil {
		t.Skipf("OSACA's Zen 4 file is not here (%v)", err)
	}
	m, rep, err := ImportOSACA(osacaZen4, OSACAOptions{DeriveMemory: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%s", rep.Summary(5))
	if rep.Entries != 474 {
		t.Errorf("%d entries, want 474", rep.Entries)
	}
	if rep.Mapped < 430 || rep.Forms < 1200 || rep.Derived < 1000 {
		t.Errorf("mapped %d entries to %d forms, derived %d: fewer than expected", rep.Mapped, rep.Forms, rep.Derived)
	}
	// Every unmapped entry says why; the file's known oddities are among them.
	reasons := map[string]bool{}
	for _, u := range rep.Unmapped {
		if u.Reason == "" || u.Line == 0 {
			t.Errorf("unmapped entry without a reason or line: %+v", u)
		}
		reasons[u.Form+": "+u.Reason] = true
	}
	for _, r := range []string{
		`vgatherdpd|vgatherqpd mem, xmm: unknown port "135"`, // the file writes ['135'] for '135'
		`ptest xmm, xmm: port_pressure: each element is [cycles, ports]`,
	} {
		if !reasons[r] {
			t.Errorf("unmapped entries lack %q", r)
		}
	}
	if m.DispatchWidth != 6 || m.ROBSize != 320 || len(m.Ports) != 20 || m.LoadLatency["gpr"] != 4 {
		t.Errorf("header: width %d rob %d ports %v", m.DispatchWidth, m.ROBSize, m.Ports)
	}
	type want struct {
		lat, tp float64
		pp      string
	}
	for form, w := range map[string]want{
		"vaddpd ymm, ymm, ymm":      {3, 0.5, "1*p[10,12]"},
		"vmulpd ymm, ymm, ymm":      {3, 0.5, "1*p[9,11]"},
		"vfmadd231pd ymm, ymm, ymm": {4, 0.5, "1*p[9,11]"},
		"add r64, r64":              {1, 0.25, "1*p0246"},
		"vpaddd ymm, ymm, ymm":      {1, 0.25, "1*p[9,10,11,12]"},
		"mov r64, m64":              {4, 0.33333, "1*p[1,3,5]+1*p[1D,3D,5D]"},
		"vdivpd ymm, ymm, ymm":      {13, 5, "1*p[9,11]+10*p[9DV,11DV]"},
	} {
		e, ok := m.Lookup(form)
		if !ok {
			t.Errorf("%q not imported", form)
			continue
		}
		if e.Latency != w.lat || math.Abs(e.Throughput-w.tp) > 1e-4 || FormatPressure(e.PortPressure) != w.pp {
			t.Errorf("%q: latency %v throughput %v ports %s, want %v %v %s", form, e.Latency, e.Throughput, FormatPressure(e.PortPressure), w.lat, w.tp, w.pp)
		}
	}
	// OSACA's Zen 4 port layout: the FP adders and multipliers are disjoint.
	add, mul := portSet(t, m, "vaddpd ymm, ymm, ymm"), portSet(t, m, "vmulpd ymm, ymm, ymm")
	if !disjoint(add, mul) {
		t.Errorf("vaddpd %v and vmulpd %v share ports", add, mul)
	}
	data, err := m.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Parse("zen4.yml", data, LoadOptions{}); err != nil {
		t.Fatalf("imported Zen 4 model does not validate: %v", err)
	}
}

func TestMatchOperand(t *testing.T) {
	// OSACA's AT&T operand order against Intel-order forms.
	for _, c := range []struct {
		ops  []OSACAOperand
		form string
		ok   bool
	}{
		{[]OSACAOperand{{Class: "immediate"}, {Class: "register", Name: "gpr"}}, "add r64, imm8", true},
		{[]OSACAOperand{{Class: "register", Name: "gpr"}, {Class: "immediate"}}, "add r64, imm8", false},
		{[]OSACAOperand{{Class: "register", Name: "cl"}, {Class: "register", Name: "gpr"}}, "shl r64, cl", true},
		{[]OSACAOperand{{Class: "memory"}, {Class: "register", Name: "xmm"}}, "movaps xmm, m128", true},
		{[]OSACAOperand{{Class: "memory"}, {Class: "register", Name: "zmm"}, {Class: "register", Name: "zmm"}}, "vaddpd zmm, zmm, m64bcst", false},
		{[]OSACAOperand{{Class: "memory", Broadcast: true}, {Class: "register", Name: "zmm"}, {Class: "register", Name: "zmm"}}, "vaddpd zmm, zmm, m64bcst", true},
		{[]OSACAOperand{{Class: "register", Name: "zmm"}, {Class: "register", Name: "zmm"}, {Class: "register", Name: "zmm", Mask: true, Zeroing: true}}, "vaddpd zmm {k}, zmm, zmm", false},
		{[]OSACAOperand{{Class: "register", Name: "*"}, {Class: "register", Name: "*"}}, "cmp r32, r32", true},
		{[]OSACAOperand{{Class: "identifier"}}, "jmp rel32", true},
	} {
		f := mustForm(t, c.form)
		if _, ok := matchOSACA(f, c.ops); ok != c.ok {
			t.Errorf("%s vs %v: match %v, want %v", c.form, c.ops, ok, c.ok)
		}
	}
	// AT&T sign extension: movsbl is movsx r32, r8.
	found := false
	for _, f := range osacaCandidates("movsb") {
		if f.Name() == "movsx r32, r8" {
			found = true
		}
		if f.Name() == "movsx r32, r16" {
			t.Error("movsb matched a 16-bit source")
		}
	}
	if !found {
		t.Error("movsb does not cover movsx r32, r8")
	}
}
