package analysis

import (
	"fmt"
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
	simulatedCases(t, model, []simCase{
		{"cmp rax, rbx\ncmovbe rax, rcx\n", 3},
		{"cmp rax, rbx\ncmove rax, rcx\n", 2},
		{"cmovbe rax, rcx\ncmovbe rcx, rax\n", 2},
		{"cmp rdx, rbx\ncmovbe rax, rcx\ncmp rsi, rbx\ncmovbe rax, rcx\n", 2},
	})
}

// TestFlagsToFlagsChain: a form's chain from the flags to the flags
// (flags->flags: instances on registers of their own) is how long it
// waits for the flags it reads, not when it writes them. On the Zen 5
// guest 16 `shl r64, cl` on eight registers ran in 5.37 cycles (0.34 a
// link: the shifts do not wait), 16 `adc r64, r64` in 16.0; the shift
// still writes its flags at its latency.
func TestFlagsToFlagsChain(t *testing.T) {
	const model = `name: flags
isa: x86
dispatched_uops_per_cycle: 8
ports: ['ALU0', 'ALU1', 'ALU2', 'ALU3', 'SH0', 'SH1', 'SH2']
instruction_forms:
  - {form: "shl r64, cl", uops: 1, latency: 1, latencies: [{from: '0', to: '0', cycles: 1}, {from: flags, to: flags, cycles: 0.336}], throughput: 0.333, port_pressure: [[1, ['SH0', 'SH1', 'SH2']]]}
  - {form: "shr r64, cl", uops: 1, latency: 1, latencies: [{from: '0', to: '0', cycles: 1}], throughput: 0.333, port_pressure: [[1, ['SH0', 'SH1', 'SH2']]]}
  - {form: "adc r64, r64", uops: 1, latency: 1, latencies: [{from: '0', to: '0', cycles: 1}, {from: '1', to: '0', cycles: 1}, {from: flags, to: flags, cycles: 1}], throughput: 0.25, port_pressure: [[1, ['ALU0', 'ALU1', 'ALU2', 'ALU3']]]}
  - {form: "cmovb r64, r64", uops: 1, latency: 1, latencies: [{from: '0', to: '0', cycles: 1}, {from: '1', to: '0', cycles: 1}], throughput: 0.25, port_pressure: [[1, ['ALU0', 'ALU1', 'ALU2', 'ALU3']]]}
`
	regs := []string{"rax", "rdx", "rbx", "rsi", "r8", "r9", "r10", "r11"}
	each := func(format string) string {
		var s string
		for _, r := range regs {
			s += fmt.Sprintf(format, r)
		}
		return s
	}
	simulatedCases(t, model, []simCase{
		{each("shl %s, cl\n"), 8.0 / 3},
		// Without the pair the flags chain the shifts, a cycle a link.
		{each("shr %s, cl\n"), 8},
		{each("adc %s, r12\n"), 8},
		// The shift still writes its flags a cycle after it starts:
		// through them into the count and back, 2 cycles a link.
		{"shl rax, cl\ncmovb rcx, rdx\n", 2},
	})
}

type simCase struct {
	src  string
	want float64
}

// simulatedCases simulates each case's code with the model (YAML) and
// wants its cycles an iteration within 3 %.
func simulatedCases(t *testing.T, model string, cases []simCase) {
	t.Helper()
	m, err := modeldb.Parse("flags.yml", []byte(model), modeldb.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		_, region := staticOf(t, m, c.src)
		if got := simulate(t, m, region, 400); math.Abs(got-c.want) > 0.03*c.want {
			t.Errorf("%q: simulated %.3f cycles/iteration, want %.2f", c.src, got, c.want)
		}
	}
}
