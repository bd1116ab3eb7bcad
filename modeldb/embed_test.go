package modeldb

import (
	"strings"
	"testing"
)

func TestEmbedded(t *testing.T) {
	infos, err := List()
	if err != nil {
		t.Fatal(err)
	}
	byCPU := map[string]ModelInfo{} // the measured model where a CPU has one
	byFile := map[string]ModelInfo{}
	for _, i := range infos {
		if _, ok := byCPU[i.LLVMCPU]; !ok || i.Source == SourceMeasured {
			byCPU[i.LLVMCPU] = i
		}
		byFile[i.File] = i
	}
	z, ok := byFile["llvm14-znver3.yml.gz"]
	if !ok || z.LLVMCPU != "znver3" || z.Source != SourceImported || !strings.HasPrefix(z.From, "llvm-mca 14") || z.Forms < 3000 {
		t.Fatalf("embedded znver3: %+v (all: %+v)", z, infos)
	}
	// znver3 has both LLVM's model and one measured on a Zen 3 guest: the
	// measured one is the default.
	zm := byCPU["znver3"]
	m, err := Default("znver3")
	if err != nil {
		t.Fatal(err)
	}
	if zm.Source != SourceMeasured || len(m.Forms) != zm.Forms || m.LLVMCPU != "znver3" || m.Provenance == nil || m.Provenance.Host != "AuthenticAMD-19-1-1" {
		t.Errorf("Default(znver3): %q, %d forms (measured: %+v), cpu %q", m.Name, len(m.Forms), zm, m.LLVMCPU)
	}
	// Copies: changing one does not change the next.
	e, _ := m.Lookup("vaddpd ymm, ymm, ymm")
	e.Throughput = 99
	m2, _ := Default("znver3")
	if e2, _ := m2.Lookup("vaddpd ymm, ymm, ymm"); e2.Throughput == 99 {
		t.Error("Default returns a shared model")
	}
	// znver4 and znver5 have the models measured on the project's Zen 4
	// and Zen 5 guests; graniterapids-d has none: the nearest is
	// graniterapids', and it says so.
	for _, cpu := range []string{"znver4", "znver5"} {
		if n, exact, err := Nearest(cpu); err != nil || !exact || n.LLVMCPU != cpu || !strings.Contains(n.Name, "measured by portlab") {
			t.Errorf("Nearest(%s): %q exact %v err %v", cpu, n.Name, exact, err)
		}
	}
	if n, exact, err := Nearest("graniterapids-d"); err != nil || exact || n.LLVMCPU != "graniterapids" {
		t.Errorf("Nearest(graniterapids-d): %q exact %v err %v", n.Name, exact, err)
	}
	if _, err := Default("pentium-z"); err == nil || !strings.Contains(err.Error(), "have: ") {
		t.Errorf("unknown CPU: %v", err)
	}
	if _, err := Embedded(z.File); err != nil {
		t.Error(err)
	}
	// The model portlab measured on a Granite Rapids-class guest is that
	// CPU's default (measured models win over imported ones), with its
	// provenance.
	g, err := Default("graniterapids")
	if err != nil {
		t.Fatal(err)
	}
	if p := g.Provenance; p == nil || p.Source != SourceMeasured || p.Host != "GenuineIntel-6-a7-1" || p.Date == "" || !strings.Contains(g.Name, "Granite Rapids") || g.MicroArchitecture != "graniterapids" {
		t.Errorf("Default(graniterapids): %q %q %+v", g.Name, g.MicroArchitecture, g.Provenance)
	}
	if i := byCPU["graniterapids"]; i.File != "portlab-graniterapids.yml.gz" || i.Forms < 11000 {
		t.Errorf("embedded graniterapids: %+v", i)
	}
	if n, exact, err := Nearest("graniterapids"); err != nil || !exact || n.Name != g.Name {
		t.Errorf("Nearest(graniterapids): %v exact %v err %v", n.Label(), exact, err)
	}
}
