package isa

import (
	"strings"
	"testing"
)

func TestMatch(t *testing.T) {
	fs, err := Match("vfmadd*pd ymm*")
	if err != nil {
		t.Fatal(err)
	}
	// vfmadd{132,213,231}pd and vfmaddsub{...}pd: VEX reg+mem (2 each) and
	// EVEX ymm 3 sources x 3 masks (9 each).
	if len(fs) != 6*(2+9) {
		t.Errorf("'vfmadd*pd ymm*' matched %d forms, want %d", len(fs), 6*11)
	}
	for _, f := range fs {
		n := strings.TrimPrefix(f.Name(), "{evex} ")
		if !strings.HasPrefix(n, "vfmadd") || !strings.Contains(n, "pd ymm") {
			t.Errorf("'vfmadd*pd ymm*' matched %q", n)
		}
	}
	if _, ok := find(fs, "vfmadd231pd ymm, ymm, m256"); !ok {
		t.Error("'vfmadd*pd ymm*' misses vfmadd231pd ymm, ymm, m256")
	}
	if _, ok := find(fs, "vfmaddsub132pd ymm {k}{z}, ymm, m64bcst"); !ok {
		t.Error("'vfmadd*pd ymm*' misses vfmaddsub132pd ymm {k}{z}, ymm, m64bcst")
	}

	fs, err = Match("vfmadd231pd *")
	if err != nil {
		t.Fatal(err)
	}
	// 4 VEX + 27 EVEX.
	if len(fs) != 31 {
		t.Errorf("'vfmadd231pd *' matched %d forms, want 31", len(fs))
	}
	if _, ok := find(fs, "{evex} vfmadd231pd ymm, ymm, ymm"); !ok {
		t.Error("'vfmadd231pd *' misses the {evex} forms")
	}
	fs, _ = Match("{evex} vfmadd231pd *")
	if len(fs) != 4 {
		t.Errorf("'{evex} vfmadd231pd *' matched %d forms, want 4", len(fs))
	}
	fs, _ = Match("ADD R64,*")
	if len(fs) != 4 {
		t.Errorf("'ADD R64,*' matched %d forms, want 4: %v", len(fs), fs)
	}
	fs, _ = Match("add r64, r64")
	if len(fs) != 1 || fs[0].Name() != "add r64, r64" {
		t.Errorf("literal glob: %v", fs)
	}
	fs, _ = Match("{evex} vaddp? xmm, xmm, xmm")
	if len(fs) != 2 {
		t.Errorf("'{evex} vaddp? xmm, xmm, xmm' matched %v", fs)
	}
	fs, _ = Match("cmov[ab] r64, r64")
	if len(fs) != 2 {
		t.Errorf("class: %v", fs)
	}
	fs, _ = Match("cmov[!ab] r64, r64") // e g l o p s
	if len(fs) != 6 {
		t.Errorf("negated class matched %d, want 6", len(fs))
	}
	fs, _ = Match("*{z}*")
	for _, f := range fs {
		if !f.Operands[0].Zeroing {
			t.Errorf("'*{z}*' matched %q", f.Name())
		}
	}
	fs, _ = Match("nosuch*")
	if len(fs) != 0 {
		t.Errorf("nosuch*: %v", fs)
	}
	for _, bad := range []string{"vadd[pd", `add\`, "", "[z-a]*", "   "} {
		_, err := Match(bad)
		if err == nil {
			t.Errorf("Match(%q): no error", bad)
			continue
		}
		if !strings.Contains(err.Error(), "glob") {
			t.Errorf("Match(%q): error %q does not name the glob", bad, err)
		}
	}
}

func find(fs []*Form, name string) (*Form, bool) {
	for _, f := range fs {
		if f.Name() == name {
			return f, true
		}
	}
	return nil, false
}
