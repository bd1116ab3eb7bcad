package gen

import (
	"testing"

	"portlab/isa"
	"portlab/modeldb"
)

// TestLateForwardBenches: each unmasked vpaddd of a vector width gets the
// three late-forwarding chains, two vpaddd links a copy on one
// accumulator, each after one vpmaddwd (alone, fed) or two (beside two);
// fed, each link reads the vpmaddwd just before it, alone and beside two
// it reads a register nothing in the snippet writes. Other forms get none.
func TestLateForwardBenches(t *testing.T) {
	for _, name := range []string{"vpaddd xmm, xmm, xmm", "vpaddd ymm, ymm, ymm", "vpaddd zmm, zmm, zmm"} {
		f, ok := isa.Lookup(name)
		if !ok {
			t.Fatalf("%s not in the catalog", name)
		}
		bs := LateForwardBenches(f)
		if len(bs) != 3 {
			t.Fatalf("%s: %d benches, want 3", name, len(bs))
		}
		for _, b := range bs {
			file, err := isa.Parse("b.s", []byte(".intel_syntax noprefix\n"+b.Snippet.Source))
			if err != nil {
				t.Fatalf("%s %s: %v\n%s", name, b.Operands, err, b.Snippet.Source)
			}
			written := map[isa.Reg]bool{}
			var acc isa.Reg
			links, fed, beside, multiplies := 0, 0, 0, 0
			for i, in := range file.Insts() {
				form, err := in.ResolveForm()
				if err != nil {
					t.Fatalf("%s %s: %q: %v", name, b.Operands, in.Text, err)
				}
				dst, src := in.Args[0].Reg, in.Args[2].Reg
				switch {
				case form.Mnemonic == "vpmaddwd":
					written[dst] = true
					multiplies++
				case form.Name() == name && i > 0:
					if acc == 0 {
						acc = dst
					}
					if dst != acc || in.Args[1].Reg != acc {
						t.Errorf("%s %s: %q is not a link of the %s chain", name, b.Operands, in.Text, acc)
					}
					links++
					beside = max(beside, multiplies)
					multiplies = 0
					prev := file.Insts()[i-1].Args[0].Reg
					if src == prev {
						fed++
					} else if written[src] {
						t.Errorf("%s %s: %q reads an earlier vpmaddwd", name, b.Operands, in.Text)
					}
				default:
					t.Errorf("%s %s: unexpected %q at %d", name, b.Operands, in.Text, i)
				}
			}
			want := map[string][2]int{modeldb.LateForwardAlone: {0, 1}, modeldb.LateForwardFed: {2, 1}, modeldb.LateForwardBeside2: {0, 2}}[b.Operands]
			if b.Kind != KindLateForward || b.Mode != "latency" || links != 2 || fed != want[0] || beside != want[1] || b.Snippet.Instructions != 2 {
				t.Errorf("%s %s (%s, %s): %d links, %d fed, %d vpmaddwd a link, %d instructions counted; want 2 links, %d fed, %d a link, 2 counted",
					name, b.Operands, b.Kind, b.Mode, links, fed, beside, b.Snippet.Instructions, want[0], want[1])
			}
		}
		all, err := Generate(f)
		if err != nil {
			t.Fatal(err)
		}
		found := 0
		for _, b := range all {
			if b.Kind == KindLateForward {
				found++
			}
		}
		if found != 3 {
			t.Errorf("Generate(%s) has %d late-forwarding benches, want 3", name, found)
		}
	}
	for _, name := range []string{"vpaddd zmm {k}, zmm, zmm", "vpaddq zmm, zmm, zmm", "vpaddd ymm, ymm, m256"} {
		if g, ok := isa.Lookup(name); ok && LateForwardBenches(g) != nil {
			t.Errorf("%s got late-forwarding chains", name)
		}
	}
}
