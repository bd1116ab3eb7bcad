package measure

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"portlab/perf"
)

// Canonical is a benchmark whose value is known for the host's core
// (Known > 0), or whose value is the host's own but should not move
// (Known 0): the noise check measures them again and again.
type Canonical struct {
	Name   string
	Source string
	Mode   string  // "latency" or "inverse_throughput"
	Known  float64 // cycles per instruction on the host's core; 0: host-specific
}

// Canonicals are the noise check's benchmarks on a core of the LLVM cpu
// name uarch: latency chains (a busy SMT sibling barely moves them), a
// stream of eight imul chains bound by the core's multipliers, and the
// throughput canary's independent adds (bound by the core's ALU count,
// and the first thing a busy sibling slows).
func Canonicals(uarch string) []Canonical {
	return []Canonical{
		{"add r64, r64 latency", "add rax, rax", "latency", 1},
		{"imul r64, r64 latency", "imul rax, rax", "latency", 3},
		{"imul r64, r64 throughput", "imul rbx, rcx\nimul rsi, rcx\nimul rdi, rcx\nimul r8, rcx\nimul r9, rcx\nimul r10, rcx\nimul r11, rcx\nimul r12, rcx", "inverse_throughput", imulStream(8, uarch)},
		{"add r64, r64 throughput", tpCanaryBody, "inverse_throughput", 0},
	}
}

// imulStream is the cycles per instruction of n independent chains of
// imul r64, r64 (latency 3) on a core of the LLVM cpu name uarch: the
// chains' bound 3/n or the multipliers' 1/k, whichever is slower; 0 where
// the core is unknown. Every x86-64 core portlab names starts one 64-bit
// multiply a cycle but Zen 5, which starts three (measured on a Zen 5
// guest: imul r64, r64 throughput 0.334; eight chains 0.375).
func imulStream(n int, uarch string) float64 {
	k := 1
	switch uarch {
	case "", "generic":
		return 0
	case "znver5":
		k = 3
	}
	return max(3/float64(n), 1/float64(k))
}

// canonicals are the noise check's benchmarks on the engine's host.
func (e *Engine) canonicals() []Canonical { return Canonicals(e.Host.CPU) }

// NoiseRow is one canonical benchmark over the rounds of a noise check.
type NoiseRow struct {
	Name  string  `json:"name"`
	Known float64 `json:"known,omitempty"`
	// Values are the round estimates (cycles per instruction), Median
	// their median, Spread the range of their middle 80 % (10th to 90th
	// percentile) over the median; Outliers the converged rounds more
	// than 1 % from the median (a converged estimate that is off).
	Values    []float64 `json:"values"`
	Median    float64   `json:"median"`
	Spread    float64   `json:"spread"`
	Outliers  int       `json:"outliers"`
	converged []bool
	Off       float64 `json:"off,omitempty"` // |median/known - 1| where known
	Converged int     `json:"converged"`     // rounds whose estimate converged
	Reps      float64 `json:"repetitions"`   // mean repetitions a round needed
}

// NoiseReport is what a noise check saw.
type NoiseReport struct {
	Rounds   int           `json:"rounds"`
	Duration time.Duration `json:"duration_ns"`
	Rows     []NoiseRow    `json:"benchmarks"`
	// Disturbed is the share of disturbed repetitions, Sibling the median
	// and largest round slowdown of the throughput canary against its
	// floor, Clock the largest movement of the core clock within a
	// benchmark.
	Disturbed  float64 `json:"disturbed"`
	Sibling    float64 `json:"sibling"`
	SiblingMax float64 `json:"sibling_max"`
	Clock      float64 `json:"clock"`
	// Sound says whether measuring now gives the quiet values, Verdict
	// says so in a sentence.
	Sound   bool   `json:"sound"`
	Verdict string `json:"verdict"`
}

// NoiseCheck measures the canonical benchmarks in rounds for about d
// (at least two rounds) and reports how the host's noise affected them.
// progress, when set, is called after each round.
func (e *Engine) NoiseCheck(d time.Duration, progress func(round int, elapsed time.Duration)) (*NoiseReport, error) {
	var snips [2][]*Snippet // latency, throughput
	var order [2][]int
	canon := e.canonicals()
	for i, c := range canon {
		s, err := ParseSnippet(c.Name, c.Source)
		if err != nil {
			return nil, fmt.Errorf("noise check: %s: %v", c.Name, err)
		}
		k := 0
		if c.Mode != "latency" {
			k = 1
		}
		snips[k] = append(snips[k], s)
		order[k] = append(order[k], i)
	}
	rep := &NoiseReport{Rows: make([]NoiseRow, len(canon))}
	for i, c := range canon {
		rep.Rows[i] = NoiseRow{Name: c.Name, Known: c.Known}
	}
	var disturbed, reps float64
	var sibling []float64
	start := time.Now()
	for rep.Rounds < 2 || time.Since(start) < d {
		for k, mode := range []string{"latency", "inverse_throughput"} {
			ms := e.MeasureAll(snips[k], Options{Mode: mode}, nil)
			for j, m := range ms {
				if m.Err != nil {
					return nil, fmt.Errorf("noise check: %s: %v", m.Snippet.Name, m.Err)
				}
				row := &rep.Rows[order[k][j]]
				row.Values = append(row.Values, m.PerInstr.Median)
				row.Reps += float64(m.Reps)
				if m.Converged {
					row.Converged++
				}
				row.converged = append(row.converged, m.Converged)
				disturbed += float64(m.Estimate.Disturbed)
				reps += float64(m.Estimate.Reps)
				sibling = append(sibling, m.Estimate.Sibling)
				rep.Clock = math.Max(rep.Clock, m.Estimate.ClockRange)
			}
		}
		rep.Rounds++
		if progress != nil {
			progress(rep.Rounds, time.Since(start))
		}
	}
	rep.Duration = time.Since(start)
	if reps > 0 {
		rep.Disturbed = disturbed / reps
	}
	rep.Sibling = perf.NewStats(sibling).Median
	rep.SiblingMax = slices.Max(sibling)
	for i := range rep.Rows {
		r := &rep.Rows[i]
		sorted := slices.Sorted(slices.Values(r.Values))
		r.Median = perf.NewStats(sorted).Median
		n := len(sorted)
		r.Spread = (sorted[(n-1)*9/10] - sorted[(n-1)/10]) / r.Median
		for k, v := range r.Values {
			if r.converged[k] && math.Abs(v/r.Median-1) > 0.01 {
				r.Outliers++
			}
		}
		r.Reps /= float64(len(r.Values))
		if r.Known > 0 {
			r.Off = math.Abs(r.Median/r.Known - 1)
		}
	}
	rep.Sound, rep.Verdict = verdict(rep, len(e.CPUs()) > 1)
	return rep, nil
}

// verdict decides whether measuring now is sound: the known values within
// 1 %, the middle 80 % of every benchmark's rounds within 1 %, at most one
// converged round in twenty more than 1 % off, and nine rounds of ten
// converged.
func verdict(r *NoiseReport, moving bool) (bool, string) {
	var bad []string
	slow := false
	for _, row := range r.Rows {
		switch {
		case row.Known > 0 && row.Off > 0.01:
			bad = append(bad, fmt.Sprintf("%s reads %.3f for %.0f", row.Name, row.Median, row.Known))
		case row.Spread > 0.01:
			bad = append(bad, fmt.Sprintf("%s varies by %.1f%% between rounds", row.Name, 100*row.Spread))
		case row.Outliers*20 > len(row.Values):
			bad = append(bad, fmt.Sprintf("%s: %d of %d converged rounds more than 1%% off", row.Name, row.Outliers, len(row.Values)))
		case row.Converged*10 < 9*len(row.Values):
			bad = append(bad, fmt.Sprintf("%s converged in %d of %d rounds", row.Name, row.Converged, len(row.Values)))
		}
		if row.Reps > 2*float64(defaultReps) {
			slow = true
		}
	}
	if len(bad) > 0 {
		where := ", or on another CPU (--cpu),"
		if moving {
			where = "" // it measured on every CPU it may use
		}
		return false, "not sound now: " + strings.Join(bad, "; ") + ". Measure later" + where + " and keep the machine otherwise idle."
	}
	noisy := r.Disturbed > 0.25 || r.Sibling > perf.DisturbedSlack || r.SiblingMax > 0.05
	switch {
	case noisy && slow:
		return true, fmt.Sprintf("sound, but noisy: %.0f%% of repetitions disturbed, the throughput canary up to %.0f%% slow; the estimates still converge to the known values, measuring takes longer than on a quiet host.", 100*r.Disturbed, 100*r.SiblingMax)
	case noisy:
		return true, fmt.Sprintf("sound: some noise (%.0f%% of repetitions disturbed, the throughput canary up to %.0f%% slow), and the estimates converge to the known values.", 100*r.Disturbed, 100*r.SiblingMax)
	}
	return true, "sound: a quiet host; the estimates converge at once to the known values."
}

// defaultReps is Options.Reps's default.
const defaultReps = 11
