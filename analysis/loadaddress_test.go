package analysis

import (
	"testing"
)

// TestLoadAddressLatency: with the model's load_address_latency (Zen 3:
// scaled index and three-component addresses +1), a load chained through
// its address registers in such a shape takes the extra cycle, in the
// static bound and in the simulation alike, from its base as from its
// index, and the kernel's notes say so; a simple shape, a store's address
// and lea take none. On the Zen 3 guest (AuthenticAMD-19-1-1, `portlab
// validate` of these chains, 2026-11-28) `mov rax, [rdi+rax*8]; and eax,
// 0` ran 6.00 cycles a link, `[rdi+rax]` 5.03, `[rdi+rax+8]` 6.05.
func TestLoadAddressLatency(t *testing.T) {
	const header = `name: zen3-like
isa: x86
dispatched_uops_per_cycle: 6
ports: ['ALU', 'AGU']
load_latency: {gpr: 4}
`
	const forms = `instruction_forms:
  - {form: "mov r64, m64", uops: 1, latency: 4, throughput: 0.33, port_pressure: [[1, ['AGU']]], flags: [may-load]}
  - {form: "mov m64, r64", uops: 1, latency: 1, throughput: 0.5, port_pressure: [[1, ['AGU']]], flags: [may-store]}
  - {form: "and r32, imm8", uops: 1, latency: 1, throughput: 0.25, port_pressure: [[1, ['ALU']]]}
  - {form: "add r64, m64", uops: 1, latency: 5, throughput: 0.33, port_pressure: [[1, ['ALU']], [1, ['AGU']]], flags: [may-load]}
  - {form: "lea r64, m", uops: 1, latency: 1, throughput: 0.25, port_pressure: [[1, ['ALU']]]}
`
	with, without := withAndWithout(t, header, "load_address_latency: {base+index*s: 1, base+index+disp: 1, base+index*s+disp: 1}\n", forms)
	checkRule(t, with, without, "load_address_latency", []ruleCase{
		{"scaled index", "mov rax, [rdi+rax*8]\nand eax, 0\n", 6, 5},
		{"index", "mov rax, [rdi+rax]\nand eax, 0\n", 5, 5},
		{"index and displacement", "mov rax, [rdi+rax+8]\nand eax, 0\n", 6, 5},
		{"through the base", "mov rax, [rax+rsi*8+8]\n", 5, 4},
		{"load-op", "add rax, [rdi+rax*8]\nand eax, 0\n", 7, 6},
		{"lea", "lea rax, [rdi+rax*8]\n", 1, 1},
	})
	// A store's address registers are read as ever.
	_, region := staticOf(t, with, "mov [rdi+rax*8], rcx\n")
	b, err := NewBuilder(with)
	if err != nil {
		t.Fatal(err)
	}
	k, err := b.Kernel(region)
	if err != nil {
		t.Fatal(err)
	}
	if x := k.Instrs[0]; x.AddressLate != 0 {
		t.Errorf("store: its address takes %d cycles more, want none", x.AddressLate)
	}
	for _, r := range k.Instrs[0].Desc.Reads {
		if r.Advance < 0 {
			t.Errorf("store: a read %d cycles early", -r.Advance)
		}
	}
}
