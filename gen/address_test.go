package gen

import (
	"strings"
	"testing"

	"portlab/isa"
	"portlab/modeldb"
)

func TestAddressShapeBenches(t *testing.T) {
	f, ok := isa.Lookup("lea r32, m")
	if !ok {
		t.Fatal("lea r32, m not in the catalog")
	}
	bs := AddressShapeBenches(f)
	per := 2 + len(addressProbes)
	if len(bs) != per*len(isa.AddressShapes) {
		t.Fatalf("%d benches, want a latency, a throughput and %d probe mixes per shape (%d)", len(bs), len(addressProbes), per*len(isa.AddressShapes))
	}
	seen := map[string]bool{}
	for _, b := range bs {
		seen[b.Kind+" "+b.Addressing] = true
		file, err := isa.Parse("b.s", []byte(".intel_syntax noprefix\n"+b.Snippet.Source))
		if err != nil {
			t.Fatalf("%s %s: %v\n%s", b.Kind, b.Addressing, err, b.Snippet.Source)
		}
		if b.Kind == KindAddressPorts {
			checkAddressPorts(t, b, file)
			continue
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
		if !seen[KindAddressLatency+" "+s] || !seen[KindAddressTP+" "+s] || !seen[KindAddressPorts+" "+s] {
			t.Errorf("shape %s not measured all ways", s)
		}
	}
	if g, _ := isa.Lookup("add r64, m64"); AddressShapeBenches(g) != nil {
		t.Error("add r64, m64 got address-shape benches")
	}
}

// checkAddressPorts: a probe mix holds 8 leas of its shape, on r8-r11
// and reading only rdi and rbx, and 8 of the probe its Mix names, which
// write none of lea's registers and read none lea writes.
func checkAddressPorts(t *testing.T, b *Bench, file *isa.File) {
	t.Helper()
	if len(b.Mix) != 2 || b.Mix[0].Form != b.Form.Name() || b.Mix[0].Count != 8 || b.Mix[1].Count != 8 || b.Snippet.Instructions != 16 {
		t.Fatalf("%s: mix %+v, %d instructions", b.Addressing, b.Mix, b.Snippet.Instructions)
	}
	leas, probes := 0, 0
	for _, in := range file.Insts() {
		form, err := in.ResolveForm()
		if err != nil {
			t.Fatalf("%s: %q: %v", b.Addressing, in.Text, err)
		}
		switch form.Name() {
		case b.Form.Name():
			leas++
			if got := in.Args[1].Mem.Shape(); got != b.Addressing {
				t.Errorf("%s: %q has shape %q", b.Addressing, in.Text, got)
			}
			if n := in.Args[0].Reg.Name(); !strings.HasPrefix(n, "r8") && !strings.HasPrefix(n, "r9") && !strings.HasPrefix(n, "r10") && !strings.HasPrefix(n, "r11") {
				t.Errorf("%s: lea writes %s", b.Addressing, n)
			}
		case b.Mix[1].Form:
			probes++
			for _, a := range in.Args {
				if a.Type == isa.OpReg && a.Reg.IsGPR() {
					switch n := a.Reg.Name(); n {
					case "r8", "r9", "r10", "r11", "rdi", "r15":
						t.Errorf("%s: probe %q uses %s", b.Addressing, in.Text, n)
					}
				}
			}
		default:
			t.Errorf("%s: %q is neither lea nor the probe %s", b.Addressing, in.Text, b.Mix[1].Form)
		}
	}
	if leas != 8 || probes != 8 {
		t.Errorf("%s with %s: %d leas and %d probes, want 8 and 8", b.Addressing, b.Mix[1].Form, leas, probes)
	}
}

// TestLoadAddressBenches: the plain 64-bit load gets a chain in every
// shape of modeldb.LoadAddressShapes: the load in that shape, its
// destination the next load's index, zeroed by `and r32, 0` (subtracted as
// one cycle). Other forms, lea and narrower loads included, get none.
func TestLoadAddressBenches(t *testing.T) {
	f, ok := isa.Lookup("mov r64, m64")
	if !ok {
		t.Fatal("mov r64, m64 not in the catalog")
	}
	bs := LoadAddressBenches(f)
	if len(bs) != len(modeldb.LoadAddressShapes) {
		t.Fatalf("%d benches, want one per shape (%d)", len(bs), len(modeldb.LoadAddressShapes))
	}
	for i, b := range bs {
		if b.Kind != KindLoadAddress || b.Addressing != modeldb.LoadAddressShapes[i] || b.Mode != "latency" || b.HelperFixed != 1 || b.Snippet.Instructions != 1 {
			t.Errorf("bench %d: kind %q shape %q mode %q helper %v, instances %d", i, b.Kind, b.Addressing, b.Mode, b.HelperFixed, b.Snippet.Instructions)
		}
		file, err := isa.Parse("b.s", []byte(".intel_syntax noprefix\n"+b.Snippet.Source))
		if err != nil {
			t.Fatalf("%s: %v\n%s", b.Addressing, err, b.Snippet.Source)
		}
		ins := file.Insts()
		if len(ins) != 2 {
			t.Fatalf("%s: %d instructions, want a load and an and:\n%s", b.Addressing, len(ins), b.Snippet.Source)
		}
		ld, and := ins[0], ins[1]
		form, err := ld.ResolveForm()
		if err != nil || form.Name() != "mov r64, m64" {
			t.Fatalf("%s: %q is not mov r64, m64 (%v)", b.Addressing, ld.Text, err)
		}
		mem := ld.Args[1].Mem
		if got := mem.Shape(); got != b.Addressing {
			t.Errorf("%s: %q has shape %q", b.Addressing, ld.Text, got)
		}
		dst := ld.Args[0].Reg
		if mem.Index.Parent() != dst.Parent() || mem.Base.Parent() == dst.Parent() {
			t.Errorf("%s: %q does not feed its destination to the index alone", b.Addressing, ld.Text)
		}
		if and.Mnemonic != "and" || and.Args[0].Reg.Parent() != dst.Parent() || and.Args[0].Reg.Width() != 32 || and.Args[1].Imm != 0 {
			t.Errorf("%s: %q does not zero %s", b.Addressing, and.Text, dst)
		}
	}
	for _, name := range []string{"lea r64, m", "mov r32, m32", "add r64, m64"} {
		g, ok := isa.Lookup(name)
		if !ok {
			t.Fatalf("%s not in the catalog", name)
		}
		if bs := LoadAddressBenches(g); bs != nil {
			t.Errorf("%s: %d load-address benches, want none", name, len(bs))
		}
	}
}
