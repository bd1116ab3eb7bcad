package modeldb

import (
	"math"
	"math/rand"
	"portlab/isa"
	"sort"
	"testing"
)

// This file makes synthetic measurements from a ground-truth model
// (testdata/models/synthetic-zen4.yml): what a sweep would measure on a
// machine that behaves exactly like the model, give or take noise.

func loadTruth(t testing.TB) *Model {
	t.Helper()
	m, err := Load("../testdata/models/synthetic-zen4.yml")
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// synthProbes are the forms every other form is mixed with, as a sweep's
// port-conflict stage would.
var synthProbes = []string{
	"add r64, r64", "imul r64, r64", "shl r64, imm8", "mov r64, m64", "mov m64, r64",
	"vaddpd ymm, ymm, ymm", "vmulpd ymm, ymm, ymm", "vpaddd ymm, ymm, ymm",
	"vshufpd ymm, ymm, ymm, imm8", "vpmulld ymm, ymm, ymm", "vdivpd ymm, ymm, ymm",
}

// mixCounts balances a mix as gen.MixCounts does: a*tpF ≈ b*tpP.
func mixCounts(tpF, tpP float64) (int, int) {
	bestA, bestB, bestErr := 1, 1, math.Inf(1)
	for a := 1; a <= 8; a++ {
		for b := 1; b <= 8; b++ {
			x, y := float64(a)*tpF, float64(b)*tpP
			if e := math.Abs(x-y) / (x + y); e < bestErr-1e-9 {
				bestA, bestB, bestErr = a, b, e
			}
		}
	}
	return bestA, bestB
}

func noisy(rng *rand.Rand, v, noise float64) float64 {
	return v * (1 + noise*(2*rng.Float64()-1))
}

// synthMeasurements measures every truth form alone and mixed with every
// probe, with relative noise.
func synthMeasurements(t testing.TB, truth *Model, noise float64, seed int64) *Measurements {
	t.Helper()
	return synthSweep(t, truth, noise, seed, func(string) []string { return synthProbes })
}

// synthSweep measures every truth form alone and mixed with the probes
// probesOf gives it, with relative noise.
func synthSweep(t testing.TB, truth *Model, noise float64, seed int64, probesOf func(form string) []string) *Measurements {
	t.Helper()
	rng := rand.New(rand.NewSource(seed))
	ms := &Measurements{Forms: map[string]*FormMeasurements{}, Hosts: []string{"synthetic"}}
	pred := NewPredictor(truth)
	tp := map[string]float64{}
	for _, e := range truth.sortedForms() {
		pr, err := pred.Predict([]MixPart{{Form: e, Count: 1}})
		if err != nil {
			t.Fatal(err)
		}
		tp[e] = pr.Cycles
		en, _ := truth.Lookup(e)
		ms.Forms[e] = &FormMeasurements{Form: e, Throughput: noisy(rng, pr.Cycles, noise),
			Latencies: map[string]float64{"1->0": en.Latency}, Host: "synthetic"}
	}
	seen := map[string]bool{}
	for _, f := range truth.sortedForms() {
		for _, probe := range probesOf(f) {
			if f == probe {
				continue
			}
			a, b := mixCounts(tp[f], tp[probe])
			parts := []MixPart{{Form: f, Count: a}, {Form: probe, Count: b}}
			k := mixKey(parts)
			if seen[k] {
				continue
			}
			seen[k] = true
			pr, err := pred.Predict(parts)
			if err != nil {
				t.Fatal(err)
			}
			ms.Mixes = append(ms.Mixes, &MixMeasurement{Parts: parts, Cycles: noisy(rng, pr.Cycles, noise), Host: "synthetic"})
		}
	}
	return ms
}

// randomMixes draws n mixes of 2-4 distinct truth forms with counts 1-4.
func randomMixes(t testing.TB, truth *Model, n int, noise float64, seed int64) []*MixMeasurement {
	t.Helper()
	rng := rand.New(rand.NewSource(seed))
	forms := truth.sortedForms()
	pred := NewPredictor(truth)
	var out []*MixMeasurement
	for len(out) < n {
		k := 2 + rng.Intn(3)
		idx := rng.Perm(len(forms))[:k]
		sort.Ints(idx)
		var parts []MixPart
		for _, i := range idx {
			parts = append(parts, MixPart{Form: forms[i], Count: 1 + rng.Intn(4)})
		}
		pr, err := pred.Predict(parts)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, &MixMeasurement{Parts: parts, Cycles: noisy(rng, pr.Cycles, noise)})
	}
	return out
}

// portSet returns the set of ports an entry's pressure names.
func portSet(t testing.TB, m *Model, form string) map[string]bool {
	t.Helper()
	e, ok := m.Lookup(form)
	if !ok {
		t.Fatalf("model lacks %q", form)
	}
	s := map[string]bool{}
	for _, u := range e.PortPressure {
		for _, p := range u.Ports {
			s[p] = true
		}
	}
	return s
}

func disjoint(a, b map[string]bool) bool {
	for p := range a {
		if b[p] {
			return false
		}
	}
	return true
}

func sameSet(a, b map[string]bool) bool {
	if len(a) != len(b) {
		return false
	}
	for p := range a {
		if !b[p] {
			return false
		}
	}
	return true
}

func mustForm(t testing.TB, name string) *isa.Form {
	t.Helper()
	f, ok := isa.Lookup(name)
	if !ok {
		t.Fatalf("catalog lacks %q", name)
	}
	return f
}

// sortedForms returns the model's form names sorted.
func (m *Model) sortedForms() []string {
	out := make([]string, len(m.Forms))
	for i, e := range m.Forms {
		out[i] = e.Form
	}
	sort.Strings(out)
	return out
}
