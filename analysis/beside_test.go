package analysis

import (
	"math"
	"strings"
	"testing"

	"portlab/modeldb"
)

// TestBesideMulticycle: with the model's beside_multicycle_delay (xmm
// 0.55, as measured on the Zen 3 guest AuthenticAMD-19-1-1), a chain of
// one-cycle vector instructions beside independent vector work of three
// cycles or more is late by the share of the delay the block's rate of
// that work calls for, as testdata/experiments/one_cycle_chains.s ran
// there (2026-11-28): two vpaddq links beside two vpsadbw 2.71-2.72
// cycles a copy, beside four 3.05-3.07, beside one 2.00, beside two
// one-cycle vpand 2.00; a three-cycle vaddps chain beside vmulps keeps
// its latency. Kernel (analyze) and Batch (validate, model eval) agree,
// and without the header the ports and latencies set the pace.
func TestBesideMulticycle(t *testing.T) {
	const header = `name: zen3-like
isa: x86
dispatched_uops_per_cycle: 6
ports: ['0', '1', '2', '3']
load_latency: {gpr: 4, xmm: 8}
`
	const forms = `instruction_forms:
  - {form: "vpaddq xmm, xmm, xmm", uops: 1, latency: 1, throughput: 0.25, port_pressure: [[1, '0123']]}
  - {form: "vpand xmm, xmm, xmm", uops: 1, latency: 1, throughput: 0.25, port_pressure: [[1, '0123']]}
  - {form: "vpsadbw xmm, xmm, xmm", uops: 1, latency: 3, throughput: 0.5, port_pressure: [[1, '03']]}
  - {form: "vmulps xmm, xmm, xmm", uops: 1, latency: 3, throughput: 0.5, port_pressure: [[1, '01']]}
  - {form: "vaddps xmm, xmm, xmm", uops: 1, latency: 3, throughput: 0.5, port_pressure: [[1, '23']]}
`
	with, without := withAndWithout(t, header, "beside_multicycle_delay: {xmm: 0.55}\n", forms)
	const chain = "vpaddq xmm0, xmm0, xmm1\n"
	const chain2 = "vpaddq xmm0, xmm0, xmm2\n"
	for _, c := range []struct {
		name          string
		src           string
		with, without float64
		noted         bool
	}{
		{"alone", chain + chain2, 2, 2, false},
		{"beside one vpsadbw", "vpsadbw xmm3, xmm8, xmm9\n" + chain + chain2, 2, 2, false},
		{"beside two vpsadbw", "vpsadbw xmm3, xmm8, xmm9\n" + chain + "vpsadbw xmm4, xmm8, xmm9\n" + chain2, 2.61, 2, true},
		{"beside four vpsadbw", "vpsadbw xmm3, xmm8, xmm9\nvpsadbw xmm5, xmm8, xmm9\n" + chain + "vpsadbw xmm4, xmm8, xmm9\nvpsadbw xmm6, xmm8, xmm9\n" + chain2, 3.1, 2, true},
		{"beside two vpand", "vpand xmm3, xmm8, xmm9\n" + chain + "vpand xmm4, xmm8, xmm9\n" + chain2, 2, 2, false},
		{"a vaddps chain beside vmulps", "vmulps xmm3, xmm8, xmm9\nvaddps xmm0, xmm0, xmm1\nvmulps xmm4, xmm8, xmm9\nvaddps xmm0, xmm0, xmm2\n", 6, 6, false},
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
				noted = noted || strings.Contains(n, "beside_multicycle_delay")
			}
			if want := m.model == with && c.noted; noted != want {
				t.Errorf("%s, model %s: notes %q, want a beside_multicycle_delay note: %v", c.name, m.model.Name, k.Notes, want)
			}
			if got := simulate(t, m.model, region, 400); math.Abs(got-m.want) > 0.02*m.want+0.02 {
				t.Errorf("%s, model %s: simulated %.3f cycles/iteration, want %.2f", c.name, m.model.Name, got, m.want)
			}
			bt, err := NewBatch(m.model, Options{})
			if err != nil {
				t.Fatal(err)
			}
			for range 2 { // the batch's kernel is reused: the second prediction must not see the first's state
				pr, err := bt.PredictSteadyState(region.Insts)
				if err != nil {
					t.Fatal(err)
				}
				if math.Abs(pr.CyclesPerIteration-m.want) > 0.01*m.want {
					t.Errorf("%s, model %s: steady state %.3f cycles/iteration, want %.2f", c.name, m.model.Name, pr.CyclesPerIteration, m.want)
				}
			}
		}
	}
}
