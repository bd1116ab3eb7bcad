package analysis

import (
	"math"
	"testing"

	"portlab/modeldb"
)

// TestFlagsToResultLatency: a form's latency from the flags to its result
// ("flags->0") sets a chain through the flags apart from its register
// chains. On the Zen 5 guest `cmovbe` took 2 cycles from the flags and 1
// from its registers (the sweep's flags->0 chains), so `cmp rax, rbx;
// cmovbe rax, rcx` ran 3 cycles a link and `cmovbe rax, rcx; cmovbe rcx,
// rax` 1 an instruction, and `cmove` 1 from either.
func TestFlagsToResultLatency(t *testing.T) {
	const model = `name: flags
isa: x86
dispatched_uops_per_cycle: 6
ports: ['ALU0', 'ALU1', 'ALU2', 'ALU3']
instruction_forms:
  - {form: "cmp r64, r64", uops: 1, latency: 1, latencies: [{from: '0', to: flags, cycles: 1}, {from: '1', to: flags, cycles: 1}], throughput: 0.25, port_pressure: [[1, ['ALU0', 'ALU1', 'ALU2', 'ALU3']]]}
  - {form: "cmovbe r64, r64", uops: 1, latency: 2, latencies: [{from: '0', to: '0', cycles: 1}, {from: '1', to: '0', cycles: 1}, {from: flags, to: '0', cycles: 2}], throughput: 0.25, port_pressure: [[1, ['ALU0', 'ALU1', 'ALU2', 'ALU3']]]}
  - {form: "cmove r64, r64", uops: 1, latency: 1, latencies: [{from: '0', to: '0', cycles: 1}, {from: '1', to: '0', cycles: 1}, {from: flags, to: '0', cycles: 1}], throughput: 0.25, port_pressure: [[1, ['ALU0', 'ALU1', 'ALU2', 'ALU3']]]}
`
	m, err := modeldb.Parse("flags.yml", []byte(model), modeldb.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		src  string
		want float64
	}{
		{"cmp rax, rbx\ncmovbe rax, rcx\n", 3},
		{"cmp rax, rbx\ncmove rax, rcx\n", 2},
		{"cmovbe rax, rcx\ncmovbe rcx, rax\n", 2},
		{"cmp rdx, rbx\ncmovbe rax, rcx\ncmp rsi, rbx\ncmovbe rax, rcx\n", 2},
	} {
		_, region := staticOf(t, m, c.src)
		if got := simulate(t, m, region, 400); math.Abs(got-c.want) > 0.03*c.want {
			t.Errorf("%q: simulated %.3f cycles/iteration, want %.2f", c.src, got, c.want)
		}
	}
}
