package analysis

import (
	"testing"
)

// TestDomainCrossings: with a model's domain_round_trip_latency, a
// vector register written in one domain costs half of it more to read in
// the other (an odd cycle on the way into fp), in the static bound and
// the simulation, and the report notes it; within a domain, for forms
// without one and without the header, the latencies alone hold (measured
// on the Zen 3 guest, a round trip of 2: vaddps with vshufps 12.0 a copy
// of two pairs, vandps with vpaddd 8.0, vaddps with vmulps 12.0, vpaddd
// with vshufps 4.0; on the Emerald Rapids guest, a round trip of 1: vpand
// with vaddps 4.0 a pair for latencies of 1 and 2).
func TestDomainCrossings(t *testing.T) {
	const header = `name: domains
isa: x86
dispatched_uops_per_cycle: 6
ports: ['FP0', 'FP1', 'LD']
load_latency: {xmm: 7}
load_throughput_default: [[1, ['LD']]]
`
	const forms = `instruction_forms:
  - {form: "vaddps xmm, xmm, xmm", uops: 1, latency: 3, throughput: 0.5, domain: fp, port_pressure: [[1, ['FP0', 'FP1']]]}
  - {form: "vmulps xmm, xmm, xmm", uops: 1, latency: 3, throughput: 0.5, domain: fp, port_pressure: [[1, ['FP0', 'FP1']]]}
  - {form: "vandps xmm, xmm, xmm", uops: 1, latency: 1, throughput: 0.5, domain: fp, port_pressure: [[1, ['FP0', 'FP1']]]}
  - {form: "vpaddd xmm, xmm, xmm", uops: 1, latency: 1, throughput: 0.5, domain: int, port_pressure: [[1, ['FP0', 'FP1']]]}
  - {form: "vshufps xmm, xmm, xmm, imm8", uops: 1, latency: 1, throughput: 0.5, domain: int, port_pressure: [[1, ['FP0', 'FP1']]]}
  - {form: "vpor xmm, xmm, xmm", uops: 1, latency: 1, throughput: 0.5, port_pressure: [[1, ['FP0', 'FP1']]]}
  - {form: "vpxor xmm, xmm, xmm", uops: 1, latency: 1, throughput: 0.5, domain: int, port_pressure: [[1, ['FP0', 'FP1']]]}
  - {form: "vmovups xmm, m128", uops: 1, latency: 7, throughput: 0.5, port_pressure: [[1, ['FP0', 'FP1']]], flags: [may-load]}
`
	with, without := withAndWithout(t, header, "domain_round_trip_latency: 2\n", forms)
	checkRule(t, with, without, "across vector domains", []ruleCase{
		{"add and shuffle", "vaddps xmm0, xmm0, xmm1\nvshufps xmm0, xmm0, xmm0, 0x55\nvaddps xmm0, xmm0, xmm1\nvshufps xmm0, xmm0, xmm0, 0x55\n", 12, 8},
		{"logic and integer add", "vandps xmm0, xmm0, xmm1\nvpaddd xmm0, xmm0, xmm1\nvandps xmm0, xmm0, xmm1\nvpaddd xmm0, xmm0, xmm1\n", 8, 4},
		{"add and multiply", "vaddps xmm0, xmm0, xmm1\nvmulps xmm0, xmm0, xmm1\nvaddps xmm0, xmm0, xmm1\nvmulps xmm0, xmm0, xmm1\n", 12, 12},
		{"integer add and shuffle", "vpaddd xmm0, xmm0, xmm1\nvshufps xmm0, xmm0, xmm0, 0x55\nvpaddd xmm0, xmm0, xmm1\nvshufps xmm0, xmm0, xmm0, 0x55\n", 4, 4},
		{"a form without a domain", "vaddps xmm0, xmm0, xmm1\nvpor xmm0, xmm0, xmm1\n", 4, 4},
		{"a load-op takes its register form's domain", "vaddps xmm0, xmm0, [rdi]\nvpaddd xmm0, xmm0, xmm1\n", 11, 10}, // the load-op issues after vpaddd, its result 10 cycles later (llvm-mca's rule)
	})
	// A round trip of one cycle: a pair across takes one cycle more, all
	// of it on the way into fp.
	odd, _ := withAndWithout(t, header, "domain_round_trip_latency: 1\n", forms)
	checkRule(t, odd, without, "across vector domains", []ruleCase{
		{"add and shuffle, a cycle a round trip", "vaddps xmm0, xmm0, xmm1\nvshufps xmm0, xmm0, xmm0, 0x55\nvaddps xmm0, xmm0, xmm1\nvshufps xmm0, xmm0, xmm0, 0x55\n", 10, 8},
		{"logic and integer add, a cycle a round trip", "vandps xmm0, xmm0, xmm1\nvpaddd xmm0, xmm0, xmm1\n", 3, 2},
	})
	// A zero idiom executes nothing: its result crosses no domain.
	st, _ := staticOf(t, with, "vpxor xmm0, xmm0, xmm0\nvaddps xmm0, xmm0, xmm1\n")
	if st.LCDBound > 0 {
		t.Errorf("zero idiom: loop-carried bound %.2f, want none", st.LCDBound)
	}
}
