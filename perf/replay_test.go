package perf

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"slices"
	"strings"
	"testing"
)

// Two runs of the same 618 benchmarks on the Emerald Rapids guest with its
// neighbour busy, every benchmark in eight jobs of 11 repetitions
// (`bench --min-jobs 8 --record-all`): testdata/noise/*-8jobs-*.jsonl.gz.

// uncertaintyRule is a way to say how sure an estimate is: the value and
// its uncertainty (cycles per copy) from a benchmark's repetitions so far,
// jobs of jobLen.
type uncertaintyRule struct {
	name string
	est  func(l Layout, ts []Timing, jobLen int) (v, u float64)
	// recent: when all the jobs so far are unsure, the last job alone,
	// then the last two, may converge in their stead.
	recent bool
}

// moves returns the estimate from the fewest samples, the latency
// canary, and how far the estimate moves when each of the five snippet and
// calibration floors in turn is next's instead (which sample stands in for
// a floor: the second fewest, the third, ...).
func moves(l Layout, ts []Timing, next floors) (v, lat float64, m [5]float64) {
	f1 := kthFloors(ts, 1)
	v, c, _ := l.value(f1)
	lat = c.lat
	all, _ := l.floorMoves(f1, next)
	copy(m[:], all[:5])
	return v, lat, m
}

func latTerm(v, lat float64) float64 { return math.Abs(lat/LatCanaryExpected-1) * math.Abs(v) }

func sum(m [5]float64) (s float64) {
	for _, x := range m {
		s += x
	}
	return s
}

// otherJobFloors is, for every point, its fewest sample among the jobs
// other than the one that holds its floor.
func otherJobFloors(ts []Timing, jobLen int) floors {
	f1 := kthFloors(ts, 1)
	other := func(get func(Timing) []float64, floor float64) float64 {
		job := -1
		for i, t := range ts {
			if job < 0 && slices.Contains(get(t), floor) {
				job = i / jobLen
			}
		}
		best := math.NaN()
		for i, t := range ts {
			for _, x := range get(t) {
				if i/jobLen != job && x > 0 && !(x >= best) {
					best = x
				}
			}
		}
		return best
	}
	var f floors
	for i := range 2 {
		f.calib[i] = other(func(t Timing) []float64 { return []float64{t.Calib[0][i], t.Calib[1][i]} }, f1.calib[i])
		f.lat[i] = other(func(t Timing) []float64 { return []float64{t.Lat[i]} }, f1.lat[i])
		f.tp[i] = other(func(t Timing) []float64 { return []float64{t.Tp[i]} }, f1.tp[i])
		f.snip[i] = other(func(t Timing) []float64 { return []float64{t.Snip[i]} }, f1.snip[i])
	}
	f.alt = f1.alt
	return f
}

var uncertaintyRules = []uncertaintyRule{
	{"engine", engineEstimate, false},
	{"root-sum-square", func(l Layout, ts []Timing, _ int) (float64, float64) {
		v, lat, m := moves(l, ts, kthFloors(ts, 2))
		s := 0.0
		for _, x := range m {
			s += x * x
		}
		return v, math.Sqrt(s) + latTerm(v, lat)
	}, false},
	{"third-fewest", thirdFewest, false},
	{"no-latency-canary", func(l Layout, ts []Timing, _ int) (float64, float64) {
		v, _, m := moves(l, ts, kthFloors(ts, 2))
		return v, sum(m)
	}, false},
	{"canary-beyond-its-noise", func(l Layout, ts []Timing, _ int) (float64, float64) {
		f1, f2 := kthFloors(ts, 1), kthFloors(ts, 2)
		v, lat, m := moves(l, ts, f2)
		ul := 0.0
		for i := range 2 {
			g := f1
			g.lat[i] = f2.lat[i]
			_, w, _ := l.value(g)
			ul += math.Abs(w.lat - lat)
		}
		return v, sum(m) + math.Max(0, math.Abs(lat-LatCanaryExpected)-ul)/LatCanaryExpected*math.Abs(v)
	}, false},
	{"floor-seen-in-two-jobs", func(l Layout, ts []Timing, jobLen int) (float64, float64) {
		v, lat, m := moves(l, ts, otherJobFloors(ts, jobLen))
		return v, sum(m) + latTerm(v, lat)
	}, false},
	{"engine, or the last jobs", engineEstimate, true},
	{"third-fewest, or the last jobs", thirdFewest, true},
}

func engineEstimate(l Layout, ts []Timing, _ int) (float64, float64) {
	e := l.Estimate(ts)
	return e.Value, e.Uncertainty
}

func thirdFewest(l Layout, ts []Timing, _ int) (float64, float64) {
	v, lat, m := moves(l, ts, kthFloors(ts, 3))
	return v, sum(m) + latTerm(v, lat)
}

type replayed struct {
	converged, compared, off int
	jobs                     int // jobs until converged, summed
}

// replay decides after every job of a run, as the engine does, whether
// each benchmark has converged under a rule (uncertainty within 0.5 % or
// 0.002 cycles an instruction, the throughput canary within 3 % of the
// run's reference), and compares the value it stops at with the other
// run's result for the benchmark (other, by benchmarkKey; none: the other
// run has no converged result of it).
func replay(rule uncertaintyRule, run []*Recording, other map[string]float64, jobLen, maxJobs int) replayed {
	var out replayed
	for _, r := range run {
		ins := float64(r.Instructions)
		sure := func(ts []Timing) (float64, bool) {
			v, u := rule.est(r.Layout, ts, jobLen)
			return v, len(ts) >= 2 && !math.IsNaN(u) && u <= math.Max(0.005*math.Abs(v), 0.002*ins) && r.Layout.Estimate(ts).CanaryClear(r.References())
		}
		for n := jobLen; n <= min(len(r.Timings), maxJobs*jobLen); n += jobLen {
			v, ok := sure(r.Timings[:n])
			for k := 1; rule.recent && !ok && k <= 2 && k*jobLen < n; k++ {
				v, ok = sure(r.Timings[n-k*jobLen : n])
			}
			if !ok {
				continue
			}
			out.converged++
			out.jobs += n / jobLen
			if w, found := other[benchmarkKey(r)]; found {
				out.compared++
				if math.Abs(v/ins/w-1) > 0.01 {
					out.off++
				}
			}
			break
		}
	}
	return out
}

func benchmarkKey(r *Recording) string { return r.Name + "\x00" + r.Source }

// firstsAndResults splits a run's recordings into each benchmark's first
// measurement and the run's result of each benchmark: of its measurements
// (the first and any second chance) the converged one with the smallest
// relative uncertainty, in cycles per instruction.
func firstsAndResults(recs []*Recording) ([]*Recording, map[string]float64) {
	var firsts []*Recording
	results := map[string]float64{}
	rel := map[string]float64{}
	seen := map[string]bool{}
	for _, r := range recs {
		k := benchmarkKey(r)
		if !seen[k] {
			seen[k] = true
			firsts = append(firsts, r)
		}
		e := r.Layout.Estimate(r.Timings)
		if !e.Converged(0.005, 0.002*float64(r.Instructions)) || !e.CanaryClear(r.References()) {
			continue
		}
		if x, ok := rel[k]; !ok || e.Uncertainty/math.Abs(e.Value) < x {
			rel[k] = e.Uncertainty / math.Abs(e.Value)
			results[k] = e.Value / float64(r.Instructions)
		}
	}
	return firsts, results
}

// TestUncertaintyReplayedOnTwoRuns replays the engine's decision after
// each job on two runs of the same benchmarks on a noisy host, under the
// engine's uncertainty and the alternatives studied (go test -run
// Replayed -v prints them side by side; docs/benchmarks.md, "Uncertainty
// rules replayed"), within five jobs (the engine's budget) and eight.
// The other run's result of a benchmark is its surest converged
// measurement, first or second chance, as it estimated it
// (testdata/noise/emeraldrapids-kvm-8jobs.results.json). Of the results
// the engine's rule lets converge, at most 3 % may read more than 1 % from
// the other run's; and without the latency canary's term at least twice as
// many must be off (the term is why the rule holds on this host).
//
// PORTLAB_REPLAY=A.jsonl.gz,B.jsonl.gz replays two other runs instead
// (`bench --min-jobs 8 --record-all`, jobs of 11 repetitions): all their
// recordings, each run's results computed from its own second chances.
func TestUncertaintyReplayedOnTwoRuns(t *testing.T) {
	var runs [2][]*Recording
	var results [2]map[string]float64
	if env := os.Getenv("PORTLAB_REPLAY"); env != "" {
		files := strings.Split(env, ",")
		if len(files) != 2 {
			t.Fatalf("PORTLAB_REPLAY=%s: want two recording files, comma-separated", env)
		}
		for i, f := range files {
			recs, err := ReadRecordings(f)
			if err != nil {
				t.Fatal(err)
			}
			runs[i], results[i] = firstsAndResults(recs)
		}
	} else {
		for i, f := range []string{"a", "b"} {
			recs, err := ReadRecordings("../testdata/noise/emeraldrapids-kvm-8jobs-" + f + ".jsonl.gz")
			if err != nil {
				t.Fatal(err)
			}
			runs[i] = recs
		}
		data, err := os.ReadFile("../testdata/noise/emeraldrapids-kvm-8jobs.results.json")
		if err != nil {
			t.Fatal(err)
		}
		var reported struct{ A, B []float64 }
		if err := json.Unmarshal(data, &reported); err != nil {
			t.Fatal(err)
		}
		for i, vals := range [][]float64{reported.A, reported.B} {
			if len(runs[i]) != len(runs[0]) || len(vals) != len(runs[0]) {
				t.Fatalf("run %d: %d recordings and %d results, want %d of each", i, len(runs[i]), len(vals), len(runs[0]))
			}
			results[i] = map[string]float64{}
			for k, v := range vals {
				if v > 0 {
					results[i][benchmarkKey(runs[i][k])] = v
				}
			}
		}
		for k := range runs[0] {
			if a, b := runs[0][k], runs[1][k]; a.Name != b.Name || a.Source != b.Source || len(a.Timings) != 88 || len(b.Timings) != 88 {
				t.Fatalf("recording %d: %s (%d timings) and %s (%d): want one benchmark in eight jobs of 11 in both runs", k+1, a.Name, len(a.Timings), b.Name, len(b.Timings))
			}
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%-32s %-3s %4s %10s %9s %8s %10s\n", "rule", "run", "jobs", "converged", "mean jobs", "compared", "off >1%")
	got := map[string][2]replayed{}
	for _, rule := range uncertaintyRules {
		for _, jobs := range []int{5, 8} {
			var pair [2]replayed
			for i := range 2 {
				pair[i] = replay(rule, runs[i], results[1-i], 11, jobs)
				p := pair[i]
				fmt.Fprintf(&b, "%-32s %-3s %4d %5d/%-4d %9.2f %8d %4d %4.1f%%\n", rule.name, []string{"A", "B"}[i], jobs, p.converged, len(runs[i]),
					float64(p.jobs)/float64(max(p.converged, 1)), p.compared, p.off, 100*float64(p.off)/float64(max(p.compared, 1)))
			}
			if jobs == 8 {
				got[rule.name] = pair
			}
		}
	}
	t.Log("\n" + b.String())
	if os.Getenv("PORTLAB_REPLAY") != "" {
		return
	}
	share := func(p replayed) float64 { return float64(p.off) / float64(max(p.compared, 1)) }
	eng := got["engine"]
	if n := eng[0].compared + eng[1].compared; n < 250 {
		t.Errorf("%d converged results compared, want at least 250", n)
	}
	for i, p := range eng {
		if share(p) > 0.03 {
			t.Errorf("run %d: %d of %d converged results more than 1 %% from the other run's, want at most 3 %%", i, p.off, p.compared)
		}
	}
	nolat := got["no-latency-canary"]
	if nolat[0].off+nolat[1].off < 2*(eng[0].off+eng[1].off) {
		t.Errorf("without the latency canary's term %d results are off, with it %d: the term no longer earns its place", nolat[0].off+nolat[1].off, eng[0].off+eng[1].off)
	}
}
