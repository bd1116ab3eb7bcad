package analysis

import (
	"fmt"
	"math"
	"testing"

	"portlab/modeldb"
)

// TestStoreForwardRoundTrip: a model's store_to_load_forward_latency is
// the round trip of a store and the reload of its value, chained, so a
// chain of such pairs runs at it, and work between the reload and the
// next store adds its latency (measured on the Zen 3 guest, round trip
// 5.97: pairs 6.0 a link, with add 7.4, with imul 9.0-9.1). A round trip
// of a cycle or less is memory renaming: the reload costs nothing.
func TestStoreForwardRoundTrip(t *testing.T) {
	const forms = `instruction_forms:
  - {form: "mov r64, m64", uops: 1, latency: 4, throughput: 0.5, port_pressure: [[1, ['LD']]], flags: [may-load]}
  - {form: "mov m64, r64", uops: 1, latency: 1, throughput: 0.5, port_pressure: [[1, ['ST']]], flags: [may-store]}
  - {form: "add r64, imm8", uops: 1, latency: 1, throughput: 0.25, port_pressure: [[1, ['ALU']]]}
  - {form: "imul r64, r64", uops: 1, latency: 3, throughput: 1, port_pressure: [[1, ['ALU']]]}
`
	const pair = "mov qword ptr [rdi], rax\nmov rax, qword ptr [rdi]\n"
	for _, c := range []struct {
		fwd  float64
		src  string
		want float64
	}{
		{5.97, pair, 6},
		{5.97, pair + "add rax, 1\n", 7},
		{5.97, pair + "imul rax, rax\n", 9},
		{5.97, pair + "add rax, 1\nmov qword ptr [rdi+64], rax\nmov rax, qword ptr [rdi+64]\nadd rax, 1\n", 14},
		{0.5, pair + "add rax, 1\nmov qword ptr [rdi+64], rax\nmov rax, qword ptr [rdi+64]\nadd rax, 1\n", 2},
		{1.0, pair + "imul rax, rax\n", 3},
	} {
		model := fmt.Sprintf(`name: forwarding
isa: x86
dispatched_uops_per_cycle: 6
ports: ['ALU', 'LD', 'ST']
load_latency: {gpr: 4}
store_to_load_forward_latency: %g
`, c.fwd) + forms
		m, err := modeldb.Parse("fwd.yml", []byte(model), modeldb.LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		_, region := staticOf(t, m, c.src)
		if got := simulate(t, m, region, 400); math.Abs(got-c.want) > 0.03*c.want {
			t.Errorf("round trip %g, %q: simulated %.3f cycles/iteration, want %.2f", c.fwd, c.src, got, c.want)
		}
	}
}
