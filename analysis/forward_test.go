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

// TestStoreForwardByClass: a store whose own round trip was measured (its
// entry's latency to memory) forwards in that time rather than the
// model's general one, and a vector load without a register counterpart
// (vmovsd xmm, m64) counts its whole latency as the load's (measured on
// the Zen 3 guest, testdata/experiments/store_forwarding.s: round trips
// of 6.0 for mov, 9.0 for xmm stores, 10.0 for ymm; pairs of vmovaps xmm
// 9.0 a pair, ymm 10.0, with vaddps 13.0, vmovsd 9.0).
func TestStoreForwardByClass(t *testing.T) {
	const model = `name: forwarding
isa: x86
dispatched_uops_per_cycle: 6
ports: ['ALU', 'FP', 'LD', 'ST']
load_latency: {gpr: 4, xmm: 8, ymm: 8}
store_to_load_forward_latency: 6
instruction_forms:
  - {form: "mov r64, m64", uops: 1, latency: 4, throughput: 0.5, port_pressure: [[1, ['LD']]], flags: [may-load]}
  - {form: "mov m64, r64", uops: 1, latency: 6, latencies: [{from: '1', to: 'mem', cycles: 6}], throughput: 0.5, port_pressure: [[1, ['ST']]], flags: [may-store]}
  - {form: "vmovaps xmm, m128", uops: 1, latency: 8, throughput: 0.5, port_pressure: [[1, ['LD']]], flags: [may-load]}
  - {form: "vmovaps m128, xmm", uops: 1, latency: 9, latencies: [{from: '1', to: 'mem', cycles: 9.02}], throughput: 0.5, port_pressure: [[1, ['ST']]], flags: [may-store]}
  - {form: "vmovaps ymm, m256", uops: 1, latency: 8, throughput: 0.5, port_pressure: [[1, ['LD']]], flags: [may-load]}
  - {form: "vmovaps m256, ymm", uops: 1, latency: 10, latencies: [{from: '1', to: 'mem', cycles: 10.0}], throughput: 0.5, port_pressure: [[1, ['ST']]], flags: [may-store]}
  - {form: "vmovups m256, ymm", uops: 1, latency: 1, throughput: 0.5, port_pressure: [[1, ['ST']]], flags: [may-store]}
  - {form: "vmovsd xmm, m64", uops: 1, latency: 8, throughput: 0.5, port_pressure: [[1, ['LD']]], flags: [may-load]}
  - {form: "vmovsd m64, xmm", uops: 1, latency: 9, latencies: [{from: '1', to: 'mem', cycles: 9.0}], throughput: 0.5, port_pressure: [[1, ['ST']]], flags: [may-store]}
  - {form: "vaddps ymm, ymm, ymm", uops: 1, latency: 3, throughput: 0.5, port_pressure: [[1, ['FP']]]}
`
	m, err := modeldb.Parse("fwd.yml", []byte(model), modeldb.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		src  string
		want float64
	}{
		{"mov qword ptr [rdi], rax\nmov rax, qword ptr [rdi]\n", 6},
		{"vmovaps xmmword ptr [rdi], xmm0\nvmovaps xmm0, xmmword ptr [rdi]\n", 9},
		{"vmovaps ymmword ptr [rdi], ymm0\nvmovaps ymm0, ymmword ptr [rdi]\n", 10},
		{"vmovaps ymmword ptr [rdi], ymm0\nvmovaps ymm0, ymmword ptr [rdi]\nvaddps ymm0, ymm0, ymm1\n", 13},
		{"vmovsd qword ptr [rdi], xmm0\nvmovsd xmm0, qword ptr [rdi]\n", 9},
		// A store without a measured round trip takes the model's.
		{"vmovups ymmword ptr [rdi], ymm0\nvmovaps ymm0, ymmword ptr [rdi]\n", 6},
	} {
		_, region := staticOf(t, m, c.src)
		if got := simulate(t, m, region, 400); math.Abs(got-c.want) > 0.03*c.want {
			t.Errorf("%q: simulated %.3f cycles/iteration, want %.2f", c.src, got, c.want)
		}
	}
}

// TestReadModifyWriteChains: a read-modify-write of an address reads what
// the last store to it wrote, its own an iteration before included: four
// of four addresses run at the chain's link (the entry's latency from
// memory to memory), not at the ports' 2 cycles; two of one address an
// iteration at two links; after a plain store to the address, which
// breaks the chain every iteration, at the ports' pace. Measured on the Zen 3 guest
// (testdata/experiments/memory_mixes.s): four 6.5-6.6 cycles, two links
// of eight addresses 17.5-18.1. Without the model's round trip (llvm-mca's
// models) nothing waits.
func TestReadModifyWriteChains(t *testing.T) {
	const forms = `instruction_forms:
  - {form: "add m64, imm8", uops: 2, latency: 6, latencies: [{from: 'mem', to: 'mem', cycles: 6.13}], throughput: 0.5, port_pressure: [[1, ['LD']], [1, ['ST']]], flags: [may-load, may-store]}
  - {form: "mov m64, r64", uops: 1, latency: 1, throughput: 0.5, port_pressure: [[1, ['ST']]], flags: [may-store]}
`
	four := "add qword ptr [rdx], 1\nadd qword ptr [rdx+8], 1\nadd qword ptr [rdx+16], 1\nadd qword ptr [rdx+24], 1\n"
	for _, c := range []struct {
		fwd  float64
		src  string
		want float64
	}{
		{6, four, 6},
		{6, "add qword ptr [rdx], 1\nadd qword ptr [rdx+8], 1\nadd qword ptr [rdx], 1\nadd qword ptr [rdx+8], 1\n", 12},
		// The plain store overwrites the address each iteration: no chain.
		{6, "mov qword ptr [rdx], rax\nadd qword ptr [rdx], 1\n", 2},
		{0, four, 4},
	} {
		model := "name: rmw\nisa: x86\ndispatched_uops_per_cycle: 6\nports: ['LD', 'ST']\nload_latency: {gpr: 4}\n"
		if c.fwd > 0 {
			model += fmt.Sprintf("store_to_load_forward_latency: %g\n", c.fwd)
		}
		m, err := modeldb.Parse("rmw.yml", []byte(model+forms), modeldb.LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		_, region := staticOf(t, m, c.src)
		if got := simulate(t, m, region, 400); math.Abs(got-c.want) > 0.03*c.want {
			t.Errorf("round trip %g, %q: simulated %.3f cycles/iteration, want %.2f", c.fwd, c.src, got, c.want)
		}
	}
}
