package modeldb

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"portlab/hostcpu"
)

// A model in the user's directory named by a CPU signature is that
// host's model; other hosts keep the embedded ones.
func TestUserModelIsTheHostDefault(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("PORTLAB_MODEL_DIR", dir)
	m, err := Embedded("llvm14-znver3.yml.gz")
	if err != nil {
		t.Fatal(err)
	}
	m.Name = "measured here"
	m.LLVMCPU = "znver4"
	path, err := UserModelPath("AuthenticAMD-19-11-1")
	if err != nil || path != filepath.Join(dir, "AuthenticAMD-19-11-1.yml.gz") {
		t.Fatalf("UserModelPath: %q, %v", path, err)
	}
	if err := m.SaveWith(path, MarshalOptions{Compact: true}); err != nil {
		t.Fatal(err)
	}
	got, where, exact, err := HostModel("AuthenticAMD-19-11-1", "znver4")
	if err != nil || got.Name != "measured here" || where != path || !exact {
		t.Errorf("HostModel of the signature: %v, %q, %v, %v", got.Label(), where, exact, err)
	}
	got, where, exact, err = HostModel("GenuineIntel-6-ae-1", "graniterapids-d")
	if err != nil || got.Name == "measured here" || where != "embedded" || exact {
		t.Errorf("HostModel of another signature: %v, %q, %v, %v (want the embedded stand-in)", got.Label(), where, exact, err)
	}
	us, err := UserModels()
	if err != nil || len(us) != 1 || us[0].Signature != "AuthenticAMD-19-11-1" || us[0].LLVMCPU != "znver4" || us[0].Forms != len(m.Forms) {
		t.Errorf("UserModels: %+v, %v", us, err)
	}
	if _, err := UserModelPath("../x"); err == nil || !strings.Contains(err.Error(), `"../x"`) {
		t.Errorf("a signature with a path in it: %v", err)
	}
	t.Setenv("PORTLAB_MODEL_DIR", "")
	t.Setenv("XDG_DATA_HOME", dir)
	if d, _ := UserModelDir(); d != filepath.Join(dir, "portlab", "models") {
		t.Errorf("XDG_DATA_HOME: model dir %q", d)
	}
}

// A rebuild on the CPU an embedded model was measured on starts from that
// model; on any other signature, from LLVM's model, never from a model
// measured on another CPU.
func TestBaseFor(t *testing.T) {
	for _, c := range []struct{ cpu, signature, want string }{
		{"znver3", "AuthenticAMD-19-1-1", "portlab-znver3.yml.gz"},
		{"emeraldrapids", "GenuineIntel-6-cf-2", "portlab-emeraldrapids.yml.gz"},
		{"znver3", "AuthenticAMD-19-21-0", ""},
		{"graniterapids", "GenuineIntel-6-ad-1", ""},
		{"emeraldrapids", "", ""},
		{"znver4", "AuthenticAMD-19-61-2", ""},
	} {
		b, err := BaseFor(c.cpu, c.signature)
		if err != nil || b == nil {
			t.Fatalf("%s %s: %v", c.cpu, c.signature, err)
		}
		measured := b.Provenance != nil && b.Provenance.Source == SourceMeasured
		if c.want == "" && measured {
			t.Errorf("%s on %q: base %s was measured on %s", c.cpu, c.signature, b.Label(), b.Provenance.Host)
		}
		if c.want != "" {
			want, err := Embedded(c.want)
			if err != nil {
				t.Fatal(err)
			}
			if b.Label() != want.Label() || b.Provenance.Host != c.signature {
				t.Errorf("%s on %q: base %s, want %s", c.cpu, c.signature, b.Label(), c.want)
			}
		}
	}
}

// Every microarchitecture hostcpu can name gets a base of its own vendor
// for a build (an imported model, never one measured on another CPU)
// and a stand-in model for predictions.
func TestEveryHostHasABase(t *testing.T) {
	for _, vendor := range []string{hostcpu.VendorIntel, hostcpu.VendorAMD, hostcpu.VendorHygon} {
		names := hostcpu.Microarchs(vendor)
		for _, cpu := range names {
			b, err := BaseFor(cpu, "")
			if err != nil || b == nil {
				t.Errorf("%s: no base (%v)", cpu, err)
				continue
			}
			if b.Provenance == nil || b.Provenance.Source != SourceImported {
				t.Errorf("%s: base %s is not an imported model", cpu, b.Label())
			}
			if !slices.Contains(names, b.LLVMCPU) {
				t.Errorf("%s: base %s is another vendor's", cpu, b.Label())
			}
			m, exact, err := Nearest(cpu)
			if err != nil || !slices.Contains(names, m.LLVMCPU) || exact != (m.LLVMCPU == cpu) {
				t.Errorf("%s: stand-in %v (exact %v, %v)", cpu, m, exact, err)
			}
		}
	}
	// The kindred cores: Cascade Lake starts from LLVM's Skylake-server
	// model (as sapphirerapids), Zen 2 from its own, Raptor Lake's
	// predictions use the Raptor Cove server model measured by portlab.
	for cpu, want := range map[string]string{"cascadelake": "sapphirerapids", "znver2": "znver2", "tigerlake": "icelake-server", "broadwell": "haswell", "znver5": "znver3"} {
		if b, _ := BaseFor(cpu, ""); b == nil || b.LLVMCPU != want {
			t.Errorf("%s: base %v, want LLVM's %s", cpu, b, want)
		}
	}
	if m, exact, _ := Nearest("raptorlake"); m == nil || exact || m.LLVMCPU != "emeraldrapids" || m.Provenance.Source != SourceMeasured {
		t.Errorf("raptorlake: stand-in %v", m)
	}
	if b, err := BaseFor("generic", ""); b != nil || err != nil {
		t.Errorf("generic: base %v (%v), want none", b, err)
	}
}
