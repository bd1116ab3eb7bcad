package analysis

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"portlab/modeldb"
)

// TestModelIndex writes an index and looks every form up in it, and forms
// it lacks before, between and after its entries.
func TestModelIndex(t *testing.T) {
	m := &modeldb.Model{Name: "index test", DispatchWidth: 4, Ports: []string{"0", "1"}}
	forms := []string{"add r64, r64", "add r64, imm8", "imul r64, r64", "mov m64, r64",
		"vaddpd zmm {k}{z}, zmm, m64bcst", "{evex} vaddpd ymm, ymm, ymm", "xor r32, r32"}
	for i, f := range forms {
		m.Put(&modeldb.Entry{Form: f, Uops: float64(i + 1), Latency: float64(i), Throughput: 0.25 * float64(i+1),
			PortPressure: modeldb.PortPressure{{Cycles: 1, Ports: []string{"0"}}}})
	}
	m.Put(&modeldb.Entry{Form: "pxor xmm, xmm", Uops: 1, Flags: []string{modeldb.FlagZeroIdiom}})
	dir := t.TempDir()
	path := filepath.Join(dir, "test.idx")
	if err := writeIndex(dir, path, m); err != nil {
		t.Fatal(err)
	}
	got, err := loadIndex(path)
	if err != nil {
		t.Fatal(err)
	}
	if got.Name != m.Name || got.DispatchWidth != 4 || len(got.Forms) != 0 {
		t.Errorf("header: %+v", got)
	}
	if !modelMarksIdioms(got) {
		t.Error("the index lost the idiom flag")
	}
	for _, want := range m.Forms {
		e, ok := lookupEntry(got, want.Form)
		if !ok {
			t.Errorf("%s: not found", want.Form)
			continue
		}
		if !reflect.DeepEqual(e, want) {
			t.Errorf("%s: got %+v, want %+v", want.Form, e, want)
		}
	}
	for _, absent := range []string{"", "aaa", "add r64", "add r64, r64, r64", "mov m64, r32", "zzz", "{zzz}"} {
		if e, ok := lookupEntry(got, absent); ok {
			t.Errorf("%q: found %+v", absent, e)
		}
	}
}

// TestPruneCache keeps the current index of a model, removes older ones
// and week-old resolve files, and leaves everything else alone.
func TestPruneCache(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"m-1.idx", "m-2.idx", "other-1.idx", "resolve-a", "resolve-b", "host-x"} {
		if err := os.WriteFile(filepath.Join(dir, f), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	old := time.Now().Add(-8 * 24 * time.Hour)
	if err := os.Chtimes(filepath.Join(dir, "resolve-a"), old, old); err != nil {
		t.Fatal(err)
	}
	pruneCache(dir, "m-*.idx", "m-2.idx")
	var left []string
	des, _ := os.ReadDir(dir)
	for _, de := range des {
		left = append(left, de.Name())
	}
	if got := strings.Join(left, " "); got != "host-x m-2.idx other-1.idx resolve-b" {
		t.Errorf("left %q", got)
	}
}
