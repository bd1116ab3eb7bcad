package gen

import (
	"strings"
	"testing"

	"portlab/isa"
)

// TestLatency512Benches: a narrower vector form's first register chain
// comes again with a zmm load after every link, on zmm registers the chain
// does not use, counting only the chain's links; 512-bit,
// general-register and memory forms get none (a memory form's links load
// too, and the chain would time the load pipes).
func TestLatency512Benches(t *testing.T) {
	for _, name := range []string{"vaddss xmm, xmm, xmm", "addps xmm, xmm", "vpshufb ymm, ymm, ymm", "{evex} vaddps ymm, ymm, ymm"} {
		f, lat := latencyBenches(t, name)
		bs := Latency512Benches(f, lat)
		if len(bs) != 1 {
			t.Fatalf("%s: %d benches, want 1", name, len(bs))
		}
		b := bs[0]
		file, err := isa.Parse("b.s", []byte(".intel_syntax noprefix\n"+b.Snippet.Source))
		if err != nil {
			t.Fatalf("%s: %v\n%s", name, err, b.Snippet.Source)
		}
		links, loads := 0, 0
		used := map[int]bool{}
		for i, in := range file.Insts() {
			form, err := in.ResolveForm()
			if err != nil {
				t.Fatal(err)
			}
			if i%2 == 1 {
				if form.Name() != "vmovups zmm, m512" {
					t.Errorf("%s: %q after a link, want a zmm load", name, in.Text)
				}
				loads++
				if used[in.Args[0].Reg.Num()] {
					t.Errorf("%s: the load %q writes a register of the chain", name, in.Text)
				}
				continue
			}
			if form.Name() != f.Name() {
				t.Errorf("%s: %q is not a link", name, in.Text)
			}
			links++
			for _, a := range in.Args {
				if a.Type == isa.OpReg && a.Reg.IsVector() {
					used[a.Reg.Num()] = true
				}
			}
		}
		if b.Kind != KindLatency512 || b.Mode != "latency" || links != loads || b.Snippet.Instructions != links || !strings.Contains(b.Operands, "->") {
			t.Errorf("%s: kind %s mode %s, %d links, %d loads, %d instructions counted, pair %q", name, b.Kind, b.Mode, links, loads, b.Snippet.Instructions, b.Operands)
		}
	}
	for _, name := range []string{"vaddps zmm, zmm, zmm", "add r64, r64", "vpminud xmm, xmm, m128", "vaddps ymm, ymm, m256", "vpaddq xmm, xmm, m64bcst"} {
		f, lat := latencyBenches(t, name)
		if len(lat) == 0 {
			t.Fatalf("%s: no latency chains: the check shows nothing", name)
		}
		if bs := Latency512Benches(f, lat); len(bs) != 0 {
			t.Errorf("%s: %d benches beside 512-bit work, want none", name, len(bs))
		}
	}
}

// latencyBenches returns a catalog form and its latency benchmarks.
func latencyBenches(t *testing.T, name string) (*isa.Form, []*Bench) {
	t.Helper()
	f := form(t, name)
	lat, err := Latency(f)
	if err != nil {
		t.Fatal(err)
	}
	return f, lat
}
