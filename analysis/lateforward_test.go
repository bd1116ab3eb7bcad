package analysis

import (
	"math"
	"strings"
	"testing"

	"portlab/modeldb"
)

// TestLateForwarding: with the model's late forwarding (ymm +1, zmm +2),
// a one-cycle vector instruction that reads a multiply-class result
// directly is late on its own chain, as measured on the Emerald Rapids
// guest (GenuineIntel-6-cf-2, `portlab validate` of these blocks,
// 2026-11-27): vpaddd zmm fed by vpmaddwd 2.98-3.00 cycles an iteration,
// fed through vpxord 1.50, not fed 1.00, every other link fed 4.00; the
// ymm chain 3.00 beside 512-bit work; fed by a load-op vpmaddwd 2.99.
// Without the header the ports and latencies alone set the pace.
func TestLateForwarding(t *testing.T) {
	const header = `name: gc-like
isa: x86
dispatched_uops_per_cycle: 6
ports: ['0', '1', '2', '3', '5']
load_latency: {gpr: 5, xmm: 6, ymm: 7, zmm: 8}
`
	const forms = `instruction_forms:
  - {form: "vpmaddwd zmm, zmm, zmm", uops: 1, latency: 6, throughput: 0.5, port_pressure: [[1, '05']]}
  - {form: "vpmaddwd zmm, zmm, m512", uops: 2, latency: 14, throughput: 0.5, port_pressure: [[1, '05'], [1, '23']], flags: [may-load]}
  - {form: "vpmaddwd ymm, ymm, ymm", uops: 1, latency: 5, throughput: 0.5, port_pressure: [[1, '01']]}
  - {form: "vpaddd zmm, zmm, zmm", uops: 1, latency: 1, throughput: 0.5, port_pressure: [[1, '05']]}
  - {form: "vpaddd ymm, ymm, ymm", uops: 1, latency: 1, throughput: 0.33, port_pressure: [[1, '015']]}
  - {form: "vpxord zmm, zmm, zmm", uops: 1, latency: 1, throughput: 0.5, port_pressure: [[1, '05']]}
`
	with, without := withAndWithout(t, header, "late_forwarding: {ymm: 1, zmm: 2}\n", forms)
	for _, c := range []struct {
		name          string
		src           string
		with, without float64
		noted         bool // the rule applies (and says so in the notes), if not always on the bound: vpxord is late, but on no chain
	}{
		{"fed", "vpmaddwd zmm0, zmm3, zmm4\nvpaddd zmm1, zmm1, zmm0\n", 3, 1, true},
		{"not fed", "vpmaddwd zmm0, zmm3, zmm4\nvpaddd zmm1, zmm1, zmm5\n", 1, 1, false},
		{"fed through vpxord", "vpmaddwd zmm0, zmm3, zmm4\nvpxord zmm6, zmm7, zmm0\nvpaddd zmm1, zmm1, zmm6\n", 1.5, 1.5, true},
		{"every other link fed", "vpmaddwd zmm0, zmm3, zmm4\nvpaddd zmm1, zmm1, zmm0\nvpaddd zmm1, zmm1, zmm7\n", 4, 2, true},
		{"fed by a load-op", "vpmaddwd zmm0, zmm3, zmmword ptr [rdx]\nvpaddd zmm1, zmm1, zmm0\n", 3, 1, true},
		{"ymm", "vpmaddwd ymm0, ymm3, ymm4\nvpaddd ymm1, ymm1, ymm0\n", 2, 1, true},
		{"ymm beside 512-bit work", "vpmaddwd ymm0, ymm3, ymm4\nvpaddd ymm1, ymm1, ymm0\nvpxord zmm8, zmm9, zmm10\n", 3, 1, true},
		{"the producer's own chain", "vpmaddwd zmm0, zmm0, zmm4\nvpaddd zmm1, zmm1, zmm0\n", 6, 6, true},
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
			noted := false
			for _, n := range k.Notes {
				noted = noted || strings.Contains(n, "directly") && strings.Contains(n, "late_forwarding")
			}
			if late := m.model == with && c.noted; noted != late {
				t.Errorf("%s, model %s: notes %q, want a late-forwarding note: %v", c.name, m.model.Name, k.Notes, late)
			}
			if got := simulate(t, m.model, region, 400); math.Abs(got-m.want) > 0.03*m.want+0.02 {
				t.Errorf("%s, model %s: simulated %.3f cycles/iteration, want %.2f", c.name, m.model.Name, got, m.want)
			}
		}
	}
}
