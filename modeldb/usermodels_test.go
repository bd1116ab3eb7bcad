package modeldb

import (
	"path/filepath"
	"strings"
	"testing"
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
	got, where, exact, err = HostModel("AuthenticAMD-1a-11-0", "znver5")
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
