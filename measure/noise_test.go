package measure

import (
	"math"
	"runtime"
	"strings"
	"testing"

	"portlab/internal/spin"
	"portlab/perf"
)

// With a busy loop on the other CPU, the values every x86-64 core shares
// stay within 2 % of the known ones: latency chains (a busy SMT sibling
// barely moves them) and the imul stream (bound by the core's
// multipliers; the spinner does no multiplies). Where the other CPU is the measuring
// one's SMT sibling the spinner slows throughput-bound code while it
// runs, and the estimate must still find the quiet floor or say it could
// not: a not-converged estimate is reported, never a slow value passed
// off as converged.
func TestCanonicalValuesBesideASpinner(t *testing.T) {
	e, _ := hostEngine(t)
	// The spinner's CPU is the other one for the whole check: the engine
	// does not move onto it.
	cpus := e.CPUs()
	e.SetCPUs([]int{e.CPU()})
	defer e.SetCPUs(cpus)
	other := spin.Other(e.CPU())
	if runtime.NumCPU() < 2 || other < 0 {
		t.Skip("needs a second CPU for the spinner")
	}
	s, err := spin.Start(other)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := e.NoiseCheck(0, nil)
	s.Stop()
	if err != nil {
		t.Fatal(err)
	}
	if s.Rounds.Load() == 0 {
		t.Fatal("the spinner did not run")
	}
	for _, row := range rep.Rows {
		t.Logf("%-26s %.4f (rounds %v, %d converged)", row.Name, row.Median, row.Values, row.Converged)
		if row.Known == 0 {
			continue
		}
		if row.Converged == 0 {
			t.Logf("%s: no round converged beside the spinner (CPU %d shares the core): the values are not asserted", row.Name, other)
			continue
		}
		// The rounds the engine called converged: a round it did not is
		// one it says it is unsure of (add latency read 1.080 in such a
		// round beside 0.9998 in a converged one, a median of 1.040).
		var sure []float64
		for k, v := range row.Values {
			if row.converged[k] {
				sure = append(sure, v)
			}
		}
		if m := perf.NewStats(sure).Median; math.Abs(m/row.Known-1) > 0.02 {
			t.Errorf("%s: %.4f (median of the converged rounds %v) beside a spinner on CPU %d, want %.0f within 2 %%", row.Name, m, sure, other, row.Known)
		}
	}
	if rep.Rounds != 2 {
		t.Errorf("%d rounds, want 2 (the least a noise check runs)", rep.Rounds)
	}
}

// An unsound check says what went wrong, and points to another CPU only
// where the engine measured on one CPU alone: a moving engine has
// measured on every CPU it may use.
func TestVerdictAdvice(t *testing.T) {
	r := &NoiseReport{Rows: []NoiseRow{{Name: "add r64, r64 latency", Known: 1, Median: 1.05, Off: 0.05, Values: []float64{1.05, 1.05}, Converged: 2}}}
	for _, moving := range []bool{false, true} {
		sound, v := verdict(r, moving)
		if sound || !strings.Contains(v, "add r64, r64 latency reads 1.050 for 1") {
			t.Errorf("moving %v: %v, %q: want unsound, naming the benchmark", moving, sound, v)
		}
		if strings.Contains(v, "--cpu") == moving {
			t.Errorf("moving %v: %q: want --cpu advised only when pinned", moving, v)
		}
	}
}

// TestCanonicalsKnowTheCore: the imul stream's known value follows the
// core's multipliers: one a cycle on the cores portlab names, 3/8 (eight
// chains of latency 3) on Zen 5's three, none on a core it cannot name.
func TestCanonicalsKnowTheCore(t *testing.T) {
	for uarch, want := range map[string]float64{"znver4": 1, "emeraldrapids": 1, "znver5": 0.375, "generic": 0, "": 0} {
		var got float64 = -1
		for _, c := range Canonicals(uarch) {
			if c.Name == "imul r64, r64 throughput" {
				got = c.Known
			}
		}
		if got != want {
			t.Errorf("%q: imul stream known %v, want %v", uarch, got, want)
		}
	}
}
