package modeldb

import (
	"slices"
	"strings"
	"testing"

	"portlab/results"
)

// The operands a false dependency would make a form wait for: write-only
// vector and MMX register destinations, not a destination it reads or
// merges under a mask, nor a general-purpose one.
func TestFalseDependencyOperands(t *testing.T) {
	for name, want := range map[string][]int{
		"cvtpi2pd xmm, mm":             {0},
		"vexpandpd ymm, ymm":           {0},
		"vexpandpd ymm {k}{z}, ymm":    {0},
		"vexpandpd ymm {k}, ymm":       nil, // merges: it reads the destination anyway
		"vaddpd ymm, ymm, ymm":         {0},
		"addpd xmm, xmm":               nil, // reads its destination
		"cvtsi2sd xmm, r64":            nil, // merges the upper half: reads it
		"add r64, r64":                 nil,
		"popcnt r64, r64":              nil, // general-purpose: not timed over one destination
		"vmovdqa m256, ymm":            nil,
		"vpcompressd ymm {k}{z}, ymm":  {0},
		"cvtpd2pi mm, xmm":             {0},
		"vcvtps2ph xmm, ymm, imm8":     {0},
		"vextracti128 xmm, ymm, imm8":  {0},
		"vpbroadcastd ymm {k}{z}, xmm": {0},
		"vpbroadcastd ymm {k}, xmm":    nil,
	} {
		if got := FalseDependencyOperands(mustForm(t, name)); !slices.Equal(got, want) {
			t.Errorf("%s: %v, want %v", name, got, want)
		}
	}
}

// TestBuildFindsFalseDependencies: a form whose stream over one
// destination register ran more than 1.25 times its throughput (and a
// quarter cycle slower) gets that stream's link as its false dependency;
// one whose stream ran at its throughput, or only a little slower, gets
// none, and loses one its base gave it; a form without the measurement
// keeps its base's. It survives writing and reading, and a model that
// gives one to a form with no write-only vector destination is refused
// with the form named.
func TestBuildFindsFalseDependencies(t *testing.T) {
	tp := func(id, form, kind string, v float64) *results.Benchmark {
		return &results.Benchmark{Mode: "inverse_throughput", Measurements: []results.Measurement{{Key: "inverse_throughput", Value: v}},
			Portlab: &results.Extra{ID: id, Form: form, Kind: kind, Median: v, Reps: 5, Clean: 5, Host: "h"}}
	}
	ms := CollectMeasurements([]*results.Benchmark{
		tp("a", "cvtpi2pd xmm, mm", "throughput", 0.5), tp("ad", "cvtpi2pd xmm, mm", DestChainKind, 3.0),
		tp("b", "vexpandpd ymm, ymm", "throughput", 0.667), tp("bd", "vexpandpd ymm, ymm", DestChainKind, 4.0),
		tp("c", "vaddpd ymm, ymm, ymm", "throughput", 0.5), tp("cd", "vaddpd ymm, ymm, ymm", DestChainKind, 0.5),
		// 1.25x and more, but less than a quarter cycle slower: none.
		tp("d", "vpshufb xmm, xmm, xmm", "throughput", 0.25), tp("dd", "vpshufb xmm, xmm, xmm", DestChainKind, 0.4),
		tp("e", "cvtdq2pd xmm, xmm", "throughput", 1.0),
	}, CollectOptions{})
	if fm := ms.Forms["vexpandpd ymm, ymm"]; fm.DestChain != 4.0 || fm.Throughput != 0.667 {
		t.Fatalf("collected a destination chain of %v and a throughput of %v, want 4 and 0.667", fm.DestChain, fm.Throughput)
	}
	base, err := Parse("base.yml", []byte(`name: base
isa: x86
ports: ['0', '1']
instruction_forms:
  - {form: "vaddpd ymm, ymm, ymm", uops: 1, latency: 3, false_dependency: 3, throughput: 0.5, port_pressure: [[1, ['0', '1']]]}
  - {form: "cvtdq2pd xmm, xmm", uops: 1, latency: 4, false_dependency: 2, throughput: 1, port_pressure: [[1, ['0']]]}
`), LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	m, rep, err := Build(ms, BuildOptions{Base: base})
	if err != nil {
		t.Fatal(err)
	}
	wantPass(t, rep, "false dependencies", true, "4 forms with a write-only vector or MMX destination timed over one destination register, 2 of them")
	for form, want := range map[string]float64{"cvtpi2pd xmm, mm": 3, "vexpandpd ymm, ymm": 4, "vaddpd ymm, ymm, ymm": 0,
		"vpshufb xmm, xmm, xmm": 0, "cvtdq2pd xmm, xmm": 2} {
		if e, ok := m.Lookup(form); !ok || e.FalseDependency != want {
			t.Errorf("%s: false dependency %v, want %v", form, e.FalseDependency, want)
		}
	}
	back := roundTrip(t, m, "m.yml")
	if e, _ := back.Lookup("vexpandpd ymm, ymm"); e.FalseDependency != 4 {
		t.Errorf("read back %v", e.FalseDependency)
	}
	var b strings.Builder
	m.WriteEntry(&b, mustEntry(t, m, "cvtpi2pd xmm, mm"))
	if !strings.Contains(b.String(), "waits for its destination's previous value: 3 cycles a link") {
		t.Errorf("model show:\n%s", b.String())
	}
	_, err = Parse("bad.yml", []byte(`name: bad
isa: x86
ports: ['0']
instruction_forms:
  - {form: "add r64, r64", uops: 1, latency: 1, false_dependency: 1, throughput: 1, port_pressure: [[1, ['0']]]}
`), LoadOptions{})
	if err == nil || !strings.Contains(err.Error(), `bad.yml:5`) || !strings.Contains(err.Error(), `"add r64, r64" has no write-only vector or MMX destination`) {
		t.Errorf("a false dependency on add r64, r64: %v", err)
	}
}

func mustEntry(t *testing.T, m *Model, form string) *Entry {
	t.Helper()
	e, ok := m.Lookup(form)
	if !ok {
		t.Fatalf("%s: not in the model", form)
	}
	return e
}
