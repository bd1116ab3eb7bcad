package gen

import (
	"testing"

	"portlab/isa"
	"portlab/modeldb"
)

// TestLineSplitBenches: each plain load of modeldb.LineSplitForms gets
// one line-split stream, eight independent loads into eight registers,
// each of its own line and crossing into the next (bases are 256-byte
// aligned); other forms get none.
func TestLineSplitBenches(t *testing.T) {
	for name, lf := range modeldb.LineSplitForms {
		f, ok := isa.Lookup(name)
		if !ok {
			t.Fatalf("%s not in the catalog", name)
		}
		bs := LineSplitBenches(f)
		if len(bs) != 1 {
			t.Fatalf("%s: %d benches, want 1", name, len(bs))
		}
		b := bs[0]
		if b.Kind != KindLineSplit || b.Operands != modeldb.LineSplitLoad || b.Mode != "inverse_throughput" || b.Snippet.Instructions != 8 {
			t.Errorf("%s: %s %s %s, %d instructions counted", name, b.Kind, b.Operands, b.Mode, b.Snippet.Instructions)
		}
		file, err := isa.Parse("b.s", []byte(".intel_syntax noprefix\n"+b.Snippet.Source))
		if err != nil {
			t.Fatalf("%s: %v\n%s", name, err, b.Snippet.Source)
		}
		dsts, lines := map[isa.Reg]bool{}, map[int64]bool{}
		for _, in := range file.Insts() {
			form, err := in.ResolveForm()
			if err != nil || form.Name() != name {
				t.Fatalf("%s: %q is %v (%v)", name, in.Text, form, err)
			}
			dsts[in.Args[0].Reg] = true
			mem := in.Args[1].Mem
			first, last := mem.Disp/64, (mem.Disp+int64(lf.Bytes)-1)/64
			if mem.Base.Name() != memBase || first == last || lines[first] {
				t.Errorf("%s: %q does not cross a line of its own", name, in.Text)
			}
			lines[first] = true
		}
		if len(dsts) != 8 {
			t.Errorf("%s: %d destination registers, want 8", name, len(dsts))
		}
	}
	for _, name := range []string{"mov m64, r64", "movups xmm, xmm", "vmovups ymm {k}, m256", "add r64, m64"} {
		if f, ok := isa.Lookup(name); ok && LineSplitBenches(f) != nil {
			t.Errorf("%s got a line-split stream", name)
		}
	}
}
