package analysis

import (
	"strings"
	"testing"

	"portlab/modeldb"
)

// TestFalseDependency: a form whose model entry says it waits for its
// write-only destination (false_dependency) chains through that
// destination at that link, whatever its latency from its sources: on the
// Zen 4 guest twelve cvtpi2pd xmm, mm over two destinations ran at 17.98
// cycles (six links of 3 a destination), over twelve at 6.00 (its
// throughput); a zero idiom on the destination breaks the chain, a form
// without the field (cvtdq2pd) has none, and vexpandpd's 4-cycle link is
// longer than its latency.
func TestFalseDependency(t *testing.T) {
	const model = `name: false-dep
isa: x86
dispatched_uops_per_cycle: 6
ports: ['FP0', 'FP1', 'LD']
load_latency: {gpr: 4, xmm: 6}
load_throughput_default: [[1, ['LD']]]
instruction_forms:
  - {form: "cvtpi2pd xmm, mm", uops: 1, latency: 4, false_dependency: 3, throughput: 0.5, port_pressure: [[1, ['FP0', 'FP1']]]}
  - {form: "cvtdq2pd xmm, xmm", uops: 1, latency: 4, throughput: 0.5, port_pressure: [[1, ['FP0', 'FP1']]]}
  - {form: "vexpandpd ymm, ymm", uops: 1, latency: 2, false_dependency: 4, throughput: 0.5, port_pressure: [[1, ['FP0', 'FP1']]]}
  - {form: "xorps xmm, xmm", uops: 1, latency: 0, throughput: 0.25, port_pressure: [], flags: [zero-idiom]}
`
	m, err := modeldb.Parse("falsedep.yml", []byte(model), modeldb.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if e, _ := m.Lookup("cvtpi2pd xmm, mm"); e.FalseDependency != 3 {
		t.Fatalf("false_dependency read as %v, want 3", e.FalseDependency)
	}
	rep := func(line string, dsts []string) string {
		var b strings.Builder
		for i := 0; i < 12; i++ {
			b.WriteString(strings.ReplaceAll(line, "D", dsts[i%len(dsts)]) + "\n")
		}
		return b.String()
	}
	two := []string{"xmm4", "xmm5"}
	twelve := []string{"xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "xmm9", "xmm10", "xmm11"}
	checkBlock(t, m, "cvtpi2pd over two destinations", rep("cvtpi2pd D, mm0", two), 18)
	checkBlock(t, m, "vexpandpd over one destination", "vexpandpd ymm1, ymm0\n", 4)
	// The kernel names each instruction that waits, once, and not one
	// whose destination a zero idiom wrote last; a memory form the model
	// lacks takes its register form's false dependency.
	notes := func(src string) []string {
		k, _ := intelKernel(t, m, src)
		var out []string
		for _, n := range k.Notes {
			if strings.Contains(n, "false dependency") {
				out = append(out, n)
			}
		}
		return out
	}
	if n := notes(rep("cvtpi2pd D, mm0", two)); len(n) != 1 || !strings.Contains(n[0], "cvtpi2pd xmm, mm waits for the old value of the destination it overwrites (xmm4, xmm5): a false dependency, 3 cycles a link") {
		t.Errorf("notes %q, want one for the form", n)
	}
	if n := notes("xorps xmm4, xmm4\ncvtpi2pd xmm4, mm0\n"); len(n) != 0 {
		t.Errorf("notes %q after a zero idiom, want none", n)
	}
	if n := notes("cvtpi2pd xmm4, qword ptr [rdi]\n"); len(n) != 1 {
		t.Errorf("the memory form (derived from the register form): notes %q, want one", n)
	}
	checkBlock(t, m, "cvtpi2pd xmm, m64 over one destination (derived)", "cvtpi2pd xmm4, qword ptr [rdi]\n", 3)
	// Port-bound: the ports' 6 cycles for twelve (each destination's
	// chain one 3-cycle link an iteration), 0.5 for one.
	for _, c := range []struct {
		name, src string
		lcd, want float64
	}{
		{"cvtpi2pd over twelve destinations", rep("cvtpi2pd D, mm0", twelve), 3, 6},
		{"cvtdq2pd over two destinations", rep("cvtdq2pd D, xmm0", two), 0, 6},
		{"cvtpi2pd after a zero idiom on its destination", "xorps xmm4, xmm4\ncvtpi2pd xmm4, mm0\n", 0, 0.5},
	} {
		st, r := staticOf(t, m, c.src)
		if st.LCDBound != c.lcd {
			t.Errorf("%s: loop-carried bound %.2f, want %.0f", c.name, st.LCDBound, c.lcd)
		}
		if got := simulate(t, m, r, 400); got < 0.97*c.want || got > 1.03*c.want {
			t.Errorf("%s: simulated %.3f cycles/iteration, want %.2f", c.name, got, c.want)
		}
	}
}
