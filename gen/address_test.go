package gen

import (
	"strings"
	"testing"

	"portlab/isa"
)

func TestAddressShapeBenches(t *testing.T) {
	f, ok := isa.Lookup("lea r32, m")
	if !ok {
		t.Fatal("lea r32, m not in the catalog")
	}
	bs := AddressShapeBenches(f)
	if len(bs) != 2*len(isa.AddressShapes) {
		t.Fatalf("%d benches, want a latency and a throughput per shape (%d)", len(bs), 2*len(isa.AddressShapes))
	}
	seen := map[string]bool{}
	for _, b := range bs {
		seen[b.Kind+" "+b.Addressing] = true
		file, err := isa.Parse("b.s", []byte(".intel_syntax noprefix\n"+b.Snippet.Source))
		if err != nil {
			t.Fatalf("%s %s: %v\n%s", b.Kind, b.Addressing, err, b.Snippet.Source)
		}
		for _, in := range file.Insts() {
			if in.Mnemonic != "lea" || in.Args[0].Reg.Width() != 32 {
				t.Errorf("%s %s: %q is not a 32-bit lea", b.Kind, b.Addressing, in.Text)
			}
			if got := in.Args[1].Mem.Shape(); got != b.Addressing {
				t.Errorf("%s %s: %q has shape %q", b.Kind, b.Addressing, in.Text, got)
			}
		}
		switch b.Kind {
		case KindAddressLatency:
			// One instruction, its destination an address register.
			if n := strings.Count(b.Snippet.Source, "\n"); n != 1 || !strings.Contains(b.Snippet.Source, "eax, [") || !strings.Contains(b.Snippet.Source, "rax") {
				t.Errorf("latency chain %q", b.Snippet.Source)
			}
		case KindAddressTP:
			if strings.Contains(b.Snippet.Source, "[rax") || b.Snippet.Instructions != 16 {
				t.Errorf("throughput stream reads a destination or miscounts: %q", b.Snippet.Source)
			}
		default:
			t.Errorf("kind %q", b.Kind)
		}
	}
	for _, s := range isa.AddressShapes {
		if !seen[KindAddressLatency+" "+s] || !seen[KindAddressTP+" "+s] {
			t.Errorf("shape %s not measured both ways", s)
		}
	}
	if g, _ := isa.Lookup("add r64, m64"); AddressShapeBenches(g) != nil {
		t.Error("add r64, m64 got address-shape benches")
	}
}
