package gen

import (
	"strings"
	"testing"

	"portlab/isa"
	"portlab/modeldb"
)

// TestMaskWriteBenches: korw k, k, k gets the five mask-write streams, 16
// independent instructions each, of the forms each stream names (the
// pairs in turn); Generate includes them; other forms get none.
func TestMaskWriteBenches(t *testing.T) {
	f, ok := isa.Lookup("korw k, k, k")
	if !ok {
		t.Fatal("korw k, k, k not in the catalog")
	}
	want := map[string][]string{
		modeldb.MaskWritesLogic:      {"korw k, k, k"},
		modeldb.MaskWritesCompare:    {"vpcmpeqd k, xmm, xmm"},
		modeldb.MaskWritesPair:       {"vpcmpeqd k, xmm, xmm", "korw k, k, k"},
		modeldb.MaskWritesCompareZMM: {"vpcmpeqd k, zmm, zmm"},
		modeldb.MaskWritesPairZMM:    {"vpcmpeqd k, zmm, zmm", "korw k, k, k"},
	}
	bs := MaskWriteBenches(f)
	if len(bs) != len(want) {
		t.Fatalf("%d benches, want %d", len(bs), len(want))
	}
	for _, b := range bs {
		file, err := isa.Parse("b.s", []byte(".intel_syntax noprefix\n"+b.Snippet.Source))
		if err != nil {
			t.Fatalf("%s: %v\n%s", b.Operands, err, b.Snippet.Source)
		}
		forms, ok := want[b.Operands]
		if !ok {
			t.Fatalf("unexpected stream %q", b.Operands)
		}
		written := map[isa.Reg]bool{}
		n := 0
		for i, in := range file.Insts() {
			form, err := in.ResolveForm()
			if err != nil || form.Name() != forms[i%len(forms)] {
				t.Fatalf("%s: instruction %d %q is not %s (%v)", b.Operands, i, in.Text, forms[i%len(forms)], err)
			}
			// Independent: no instruction reads what one writes.
			written[in.Args[0].Reg] = true
			for _, a := range in.Args[1:] {
				if written[a.Reg] {
					t.Errorf("%s: %q reads %s, which the stream writes", b.Operands, in.Text, a.Reg)
				}
			}
			n++
		}
		if b.Kind != KindMaskWrites || n != 16 || b.Snippet.Instructions != 16 || b.Mode != "inverse_throughput" {
			t.Errorf("%s (%s, %s): %d instructions, counted %d; want 16 of kind %s", b.Operands, b.Kind, b.Mode, n, b.Snippet.Instructions, KindMaskWrites)
		}
	}
	for _, n := range []string{"korw k, k", "kandw k, k, k", "vpcmpeqd k, xmm, xmm"} {
		if g, ok := isa.Lookup(n); ok && MaskWriteBenches(g) != nil {
			t.Errorf("%s got mask-write streams", n)
		}
	}
	all, err := Generate(f)
	if err != nil {
		t.Fatal(err)
	}
	found := 0
	for _, b := range all {
		if b.Kind == KindMaskWrites {
			found++
			if !strings.Contains(b.Snippet.Info, b.Operands) {
				t.Errorf("stream %q: info %q does not name it", b.Operands, b.Snippet.Info)
			}
		}
	}
	if found != len(want) {
		t.Errorf("Generate(korw k, k, k) has %d mask-write streams, want %d", found, len(want))
	}
}
