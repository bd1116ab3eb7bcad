package gen

import (
	"testing"

	"portlab/isa"
)

// TestStoreCommitBenches: mov m64, r64 gets the store-commit streams, 16
// stores each, consecutive stores in one line (two lines a copy), each in
// a line of its own, or a line apart over 4, 8 and 12 lines in turn;
// other forms get none.
func TestStoreCommitBenches(t *testing.T) {
	f, ok := isa.Lookup("mov m64, r64")
	if !ok {
		t.Fatal("mov m64, r64 not in the catalog")
	}
	bs := StoreCommitBenches(f)
	if len(bs) != 5 {
		t.Fatalf("%d benches, want 5", len(bs))
	}
	for _, b := range bs {
		file, err := isa.Parse("b.s", []byte(".intel_syntax noprefix\n"+b.Snippet.Source))
		if err != nil {
			t.Fatalf("%s: %v\n%s", b.Operands, err, b.Snippet.Source)
		}
		lines := map[int64]int{}
		n := 0
		for _, in := range file.Insts() {
			form, err := in.ResolveForm()
			if err != nil || form.Name() != "mov m64, r64" {
				t.Fatalf("%s: %q is not mov m64, r64 (%v)", b.Operands, in.Text, err)
			}
			lines[in.Args[0].Mem.Disp/64]++
			n++
		}
		want := map[string]int{StoreCommitSameLine: 2, StoreCommitLinesApart: 16, "lines-apart-4": 4, "lines-apart-8": 8, "lines-apart-12": 12}[b.Operands]
		if b.Kind != KindStoreCommit || n != 16 || len(lines) != want || b.Snippet.Instructions != 16 {
			t.Errorf("%s (%s): %d stores over %d lines, want 16 over %d", b.Operands, b.Kind, n, len(lines), want)
		}
	}
	if g, _ := isa.Lookup("mov m32, r32"); StoreCommitBenches(g) != nil {
		t.Error("mov m32, r32 got store-commit streams")
	}
	all, err := Generate(f)
	if err != nil {
		t.Fatal(err)
	}
	found := 0
	for _, b := range all {
		if b.Kind == KindStoreCommit {
			found++
		}
	}
	if found != 5 {
		t.Errorf("Generate(mov m64, r64) has %d store-commit benches, want 5", found)
	}
}
