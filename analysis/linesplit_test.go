package analysis

import (
	"math"
	"strconv"
	"strings"
	"testing"

	"portlab/modeldb"
)

// TestLineSplits: with the model's load_line_split (x2, as the Zen 3
// guest AuthenticAMD-19-1-1 measured) a load whose bytes cross a 64-byte
// line takes its class's plain-load ports twice in the iterations it
// does, and with a store commit of a line a cycle a store that crosses
// writes two lines; testdata/experiments/line_splits.s ran there
// (2026-11-28): four split ymm loads 4.00 cycles a copy against 2.00
// within lines, four split mov r64 loads 2.66 against 1.33, four split
// ymm stores 8.00 against 4.00. Without the header loads split for free;
// without a store commit, stores do.
func TestLineSplits(t *testing.T) {
	const header = `name: zen3-like
isa: x86
dispatched_uops_per_cycle: 6
ports: ['0', '1', '2', '3', 'L0', 'L1', 'L2', 'S']
load_latency: {gpr: 4, xmm: 8, ymm: 8}
store_commit: {lines_per_cycle: 1, stores_per_line: 2}
`
	const forms = `instruction_forms:
  - {form: "mov r64, m64", uops: 1, latency: 4, throughput: 0.333, port_pressure: [[1, ['L0', 'L1', 'L2']]], flags: [may-load]}
  - {form: "vmovups ymm, m256", uops: 1, latency: 8, throughput: 0.5, port_pressure: [[1, ['L0', 'L1']]], flags: [may-load]}
  - {form: "vmovups m256, ymm", uops: 1, latency: 1, throughput: 1, port_pressure: [[1, ['S']]], flags: [may-store]}
  - {form: "add r64, imm8", uops: 1, latency: 1, throughput: 0.25, port_pressure: [[1, '0123']]}
`
	with, without := withAndWithout(t, header, "load_line_split: {gpr: 2, ymm: 2}\n", forms)
	ymmLoads := func(first int) string {
		var b strings.Builder
		for i := 0; i < 4; i++ {
			b.WriteString("vmovups ymm" + string(rune('0'+i)) + ", ymmword ptr [rcx+" + itoa(first+64*i) + "]\n")
		}
		return b.String()
	}
	gprLoads := func(first int) string {
		var b strings.Builder
		for i := 0; i < 4; i++ {
			b.WriteString("mov r" + itoa(8+i) + ", qword ptr [rcx+" + itoa(first+64*i) + "]\n")
		}
		return b.String()
	}
	ymmStores := func(first int) string {
		var b strings.Builder
		for i := 0; i < 4; i++ {
			b.WriteString("vmovups ymmword ptr [rdx+" + itoa(first+64*i) + "], ymm0\n")
		}
		return b.String()
	}
	for _, c := range []struct {
		name          string
		src           string
		with, without float64
		noted         string
	}{
		{"ymm loads split", ymmLoads(48), 4, 2, "load_line_split"},
		{"ymm loads within lines", ymmLoads(32), 2, 2, ""},
		{"gpr loads split", gprLoads(60), 2.667, 1.333, "load_line_split"},
		{"gpr loads within lines", gprLoads(56), 1.333, 1.333, ""},
		{"ymm stores split", ymmStores(48), 8, 8, "store_commit"},
		{"ymm stores within lines", ymmStores(32), 4, 4, ""},
		{"a load split every other iteration", "vmovups ymm0, ymmword ptr [rcx+rax+48]\nvmovups ymm1, ymmword ptr [rcx+rax+128]\nadd rax, 32\n", 1.25, 1, "1 of every 2 iterations"},
	} {
		for _, m := range []struct {
			model *modeldb.Model
			want  float64
		}{{with, c.with}, {without, c.without}} {
			_, region := staticOf(t, m.model, c.src)
			b, err := NewBuilder(m.model)
			if err != nil {
				t.Fatal(err)
			}
			k, err := b.Kernel(region)
			if err != nil {
				t.Fatal(err)
			}
			notes := strings.Join(k.Notes, "\n")
			if c.noted != "" && (m.model == with || c.noted == "store_commit") && !strings.Contains(notes, c.noted) {
				t.Errorf("%s, model %s: notes %q, want one naming %s", c.name, m.model.Name, k.Notes, c.noted)
			}
			if c.noted == "" && strings.Contains(notes, "crosses a cache line") {
				t.Errorf("%s, model %s: notes %q, want no line split", c.name, m.model.Name, k.Notes)
			}
			bt, err := NewBatch(m.model, Options{})
			if err != nil {
				t.Fatal(err)
			}
			pr, err := bt.PredictSteadyState(region.Insts)
			if err != nil {
				t.Fatal(err)
			}
			if math.Abs(pr.CyclesPerIteration-m.want) > 0.01*m.want {
				t.Errorf("%s, model %s: steady state %.3f cycles/iteration, want %.3f", c.name, m.model.Name, pr.CyclesPerIteration, m.want)
			}
		}
	}
}

func itoa(n int) string { return strconv.Itoa(n) }
