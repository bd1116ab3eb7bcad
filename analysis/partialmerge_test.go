package analysis

import (
	"testing"

	"portlab/modeldb"
)

// TestPartialLoadMergesLate: a narrow load into a general register merges
// into the register's old value in the operation after the load, so a
// chain through the old value costs a cycle a link, not the load's
// latency (measured on Zen 3: movsxd ax, [rdi], mov ax, [rdi] and popcnt
// ax, [rdi] chains 1.00 cycle a link); a narrow register write merges at
// once (imul ax, cx, 3: 4 a link, its latency and the merge), and a
// full read of the register waits for the whole load.
func TestPartialLoadMergesLate(t *testing.T) {
	const model = `name: merges
isa: x86
dispatched_uops_per_cycle: 6
ports: ['ALU', 'AGU']
load_latency: {gpr: 4}
instruction_forms:
  - {form: "mov r64, m64", uops: 1, latency: 4, throughput: 0.5, port_pressure: [[1, ['AGU']]], flags: [may-load]}
  - {form: "mov r16, m16", uops: 1, latency: 4, latencies: [{from: mem, to: '0', cycles: 4}], throughput: 0.5, port_pressure: [[1, ['AGU']]], flags: [may-load]}
  - {form: "movsxd r16, m32", uops: 1, latency: 5, latencies: [{from: mem, to: '0', cycles: 5}], throughput: 0.5, port_pressure: [[1, ['AGU']], [1, ['ALU']]], flags: [may-load]}
  - {form: "movsxd r16, r32", uops: 1, latency: 1, throughput: 0.5, port_pressure: [[1, ['ALU']]]}
  - {form: "imul r16, r16, imm8", uops: 1, latency: 3, throughput: 1, port_pressure: [[1, ['ALU']]]}
  - {form: "popcnt r16, m16", uops: 1, latency: 5, latencies: [{from: mem, to: '0', cycles: 5}], throughput: 0.5, port_pressure: [[1, ['AGU']], [1, ['ALU']]], flags: [may-load]}
  - {form: "add r64, r64", uops: 1, latency: 1, throughput: 0.5, port_pressure: [[1, ['ALU']]]}
`
	m, err := modeldb.Parse("merges.yml", []byte(model), modeldb.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if p := DefaultPartialWrites(m); p != PartialMerge {
		t.Fatalf("partial writes %q for a measured model, want %q", p, PartialMerge)
	}
	for _, c := range []struct {
		name, src string
		want      float64
	}{
		{"movsxd load", "movsxd ax, dword ptr [rdi]\nmovsxd ax, dword ptr [rdi+8]\n", 2},
		{"mov load", "mov ax, word ptr [rdi]\nmov ax, word ptr [rdi+8]\n", 2},
		{"register write", "imul ax, cx, 3\nimul ax, cx, 3\n", 6},
		{"popcnt load", "popcnt ax, word ptr [rdi]\n", 1},
	} {
		checkBlock(t, m, c.name, c.src, c.want)
	}
	// The load itself still takes its latency to a full read.
	st, _ := staticOf(t, m, "movsxd ax, dword ptr [rdi]\nadd rdi, rax\n")
	if st.LCDBound != 6 {
		t.Errorf("load address through the merged value: loop-carried bound %.2f, want 6 (5 + 1)", st.LCDBound)
	}
}

// TestMaskCompareWritesItsWholeDestination: a compare into a mask
// register under a write mask (vpcmpgtq k2 {k1}, ...) writes all of k2
// and reads none of it, so compares into one k register form no chain;
// a merge-masked vector write keeps the old value and chains through it.
func TestMaskCompareWritesItsWholeDestination(t *testing.T) {
	const model = `name: masks
isa: x86
dispatched_uops_per_cycle: 6
ports: ['FP0', 'FP1']
instruction_forms:
  - {form: "vpcmpgtq k {k}, ymm, ymm", uops: 1, latency: 4, throughput: 0.5, port_pressure: [[1, ['FP0', 'FP1']]]}
  - {form: "vpaddq ymm {k}, ymm, ymm", uops: 1, latency: 4, throughput: 0.5, port_pressure: [[1, ['FP0', 'FP1']]]}
`
	m, err := modeldb.Parse("masks.yml", []byte(model), modeldb.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	st, _ := staticOf(t, m, "vpcmpgtq k2 {k1}, ymm0, ymm1\nvpcmpgtq k2 {k1}, ymm0, ymm1\n")
	if st.LCDBound != 0 {
		t.Errorf("compares into k2 under k1: loop-carried bound %.2f, want none", st.LCDBound)
	}
	st, _ = staticOf(t, m, "vpaddq ymm2 {k1}, ymm0, ymm1\nvpaddq ymm2 {k1}, ymm0, ymm1\n")
	if st.LCDBound != 8 {
		t.Errorf("merge-masked adds into ymm2: loop-carried bound %.2f, want 8 (two of 4)", st.LCDBound)
	}
}
