package sweep

import (
	"slices"
	"testing"
	"time"

	"portlab/gen"
	"portlab/isa"
	"portlab/jit"
	"portlab/measure"
)

// A batch warmed in the engine's idle moments is measured without running
// the assembler again: the warmer assembles exactly what the measurement
// needs (every call of the batch, the passes' included), and nothing runs
// GNU as beside a measurement.
func TestWarmedBatchNeedsNoAssembler(t *testing.T) {
	e, h := hostEngine(t)
	// A fresh assembler without a disk cache, so nothing is warm before.
	fresh := &measure.Engine{Asm: &jit.Assembler{Path: "as"}, Runner: e.Runner, Host: e.Host}
	var benches []*gen.Bench
	for _, n := range []string{"add r64, r64", "imul r64, r64", "mov r64, m64", "addsd xmm, xmm"} {
		f, ok := isa.Lookup(n)
		if !ok {
			t.Fatalf("no form %q", n)
		}
		bs, err := gen.Generate(f)
		if err != nil {
			t.Fatal(err)
		}
		benches = append(benches, bs...)
	}
	if h.Has("avx") {
		f, _ := isa.Lookup("vaddpd ymm, ymm, m256") // a vector load-op: measured in passes
		bs, err := gen.Generate(f)
		if err != nil {
			t.Fatal(err)
		}
		benches = append(benches, bs...)
	}
	// What the sweep would run here (no chains beside 512-bit work on a
	// host without AVX-512).
	benches = slices.DeleteFunc(benches, func(b *gen.Bench) bool { return !HostRuns(b, h.Has) })
	o := options(h)
	o.LoadOpPasses = 3
	o.Measure.MaxRetries = -1 // one job each: the test is about assembling
	w := newWarmer(fresh, o, benches)
	// A deadline already passed warms nothing.
	w.idle(time.Now())
	if n := fresh.Asm.Runs(); n != 0 {
		t.Fatalf("a warmer past its deadline ran the assembler %d times", n)
	}
	for w.c < len(w.calls) {
		w.idle(time.Now().Add(time.Hour))
	}
	warmed := fresh.Asm.Runs()
	if warmed == 0 {
		t.Fatal("warming ran no assembler")
	}
	res := measureBenches(fresh, o, benches, nil, nil)
	if n := fresh.Asm.Runs() - warmed; n != 0 {
		t.Errorf("measuring the warmed batch ran the assembler %d more times, want 0", n)
	}
	for _, r := range res {
		if r.Error != "" {
			t.Errorf("%s: %s", r.Portlab.Form, r.Error)
		}
	}
}
