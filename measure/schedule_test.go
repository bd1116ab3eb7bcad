package measure

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"portlab/jit"
	"portlab/perf"
)

// A disturbed group is retried after the other groups, not back to back,
// and the engine sleeps only when nothing else is left to measure.
func TestRetriesWaitBehindOtherGroups(t *testing.T) {
	e := &Engine{}
	o := Options{MaxRetries: 4, RetryBackoff: 20 * time.Millisecond}
	names := map[*groupRun]string{}
	var groups []*groupRun
	for _, n := range []string{"a", "b", "c"} {
		g := &groupRun{}
		names[g] = n
		groups = append(groups, g)
	}
	wants := map[string]int{"a": 2, "c": 3} // jobs until enough clean repetitions
	var order, finished []string
	attempt := func(g *groupRun) (bool, []*groupRun) {
		time.Sleep(15 * time.Millisecond) // a job
		g.attempt++
		order = append(order, names[g])
		return g.attempt < wants[names[g]], nil
	}
	e.runGroups(groups, o, attempt, func(g *groupRun) { finished = append(finished, names[g]) })
	// a (0-15 ms) is ready again at 35 ms: b runs (15-30), c (30-45), then
	// a (ready), then c (ready at 65 ms: the engine waits about 20 ms), and
	// c's second retry after 40 ms more.
	if want := []string{"a", "b", "c", "a", "c", "c"}; !slices.Equal(order, want) {
		t.Errorf("jobs ran in order %v, want %v", order, want)
	}
	if want := []string{"b", "a", "c"}; !slices.Equal(finished, want) {
		t.Errorf("groups finished in order %v, want %v", finished, want)
	}
	if e.Stats.Retries != 3 {
		t.Errorf("%d retries counted, want 3", e.Stats.Retries)
	}
	// The sleeps: before c's first retry (ready 20 ms after its job, a's
	// retry took 15 of them: none if a busy host stretched that job) and
	// its second (40 ms after its retry, less the microseconds between).
	if w := e.Stats.Waiting; w < 35*time.Millisecond || w > 200*time.Millisecond {
		t.Errorf("waited %v before retries, want about 45 ms", w)
	}
}

// Where the engine would sleep before a retry, Options.Idle gets the wait
// first, with the time the retry is due; the engine sleeps only what the
// idle work left, and counts only that as waiting.
func TestIdleGetsTheWaitBeforeARetry(t *testing.T) {
	e := &Engine{}
	var dues []time.Time
	o := Options{MaxRetries: 4, RetryBackoff: 20 * time.Millisecond,
		Idle: func(until time.Time) {
			if !time.Now().Before(until) {
				t.Errorf("Idle called at or after the retry was due")
			}
			dues = append(dues, until)
			time.Sleep(time.Until(until)) // work that fills the wait
		}}
	g := &groupRun{}
	attempt := func(g *groupRun) (bool, []*groupRun) {
		g.attempt++
		return g.attempt < 3, nil
	}
	finished := 0
	e.runGroups([]*groupRun{g}, o, attempt, func(*groupRun) { finished++ })
	if finished != 1 || g.attempt != 3 {
		t.Fatalf("%d groups finished after %d jobs, want 1 after 3", finished, g.attempt)
	}
	// One group alone: both retries wait (20 and 40 ms), and Idle gets both.
	if len(dues) != 2 {
		t.Fatalf("Idle called %d times, want 2 (once per retry)", len(dues))
	}
	if gap := dues[1].Sub(dues[0]); gap < 40*time.Millisecond {
		t.Errorf("second retry due %v after the first, want the doubled back-off (40 ms or more)", gap)
	}
	if e.Stats.Waiting > 5*time.Millisecond {
		t.Errorf("counted %v waiting though Idle filled the waits", e.Stats.Waiting)
	}
}

// A group that runs again without the snippets that converged: they come
// back as a final group with their repetitions, and the rest get a job of
// their own that keeps the first job's loop counts.
func TestSplitKeepsTheFirstJobsCounts(t *testing.T) {
	e := &Engine{}
	obj := func(b byte) *jit.Object { return &jit.Object{Code: []byte{b, 0xc3}} }
	var shared []*jit.Object
	for k := range nShared {
		shared = append(shared, obj(byte(k)))
	}
	var ps []*prepared
	var ms []*Measurement
	for k := range 3 {
		ps = append(ps, &prepared{s: &Snippet{Name: fmt.Sprint("s", k)}, copies: 4, instrs: 1,
			objs:  []*jit.Object{obj(0x10 + byte(k)), obj(0x20 + byte(k))},
			roles: []role{{name: "snip-n", mult: 1}, {name: "snip-2n", mult: 1}}})
		ms = append(ms, &Measurement{Snippet: ps[k].s})
	}
	o := Options{Reps: 11, Calls: 3, TargetTicks: 1000}
	g := newGroupRun(ps, ms, shared)
	e.layOut(g, o)
	// The first job's counts: shared groups 0 to sharedGroups-1, snippet
	// k's group sharedGroups+k.
	for f := range g.l.job.Funcs {
		g.l.job.Funcs[f].FixedCount = uint64(100 + g.l.job.Funcs[f].Group)
	}
	for k := range g.reps {
		g.reps[k] = make([]perf.Timing, k+1) // told apart by length
	}
	g.attempt = 1
	done := g.split([]bool{true, false, true})
	if !done.final || len(done.ps) != 2 || done.ps[0] != ps[0] || done.ps[1] != ps[2] || len(done.reps[1]) != 3 {
		t.Fatalf("the converged part holds %d snippets (final %v), want s0 and s2 with their repetitions", len(done.ps), done.final)
	}
	if len(g.ps) != 1 || g.ps[0] != ps[1] || g.ms[0] != ms[1] || len(g.reps[0]) != 2 || g.l != nil {
		t.Fatalf("the part that runs again holds %d snippets, want s1 alone and a job to build", len(g.ps))
	}
	e.layOut(g, o)
	// s1 is snippet 0 of the new job and keeps the count of its former
	// group, the next one.
	for _, f := range g.l.job.Funcs {
		want := uint64(100 + f.Group)
		if f.Group == sharedGroups {
			want = 100 + sharedGroups + 1
		}
		if f.FixedCount != want {
			t.Errorf("function of group %d: count %d, want %d", f.Group, f.FixedCount, want)
		}
	}
	if n := len(g.l.job.Funcs); n != nShared+2 {
		t.Errorf("rebuilt job has %d functions, want %d", n, nShared+2)
	}
}

// The final part a split returns is finished at once, never run again;
// the rest waits for its retry as before.
func TestFinalGroupsFinishAtOnce(t *testing.T) {
	e := &Engine{}
	o := Options{MaxRetries: 4, RetryBackoff: time.Millisecond}
	g := &groupRun{}
	part := &groupRun{final: true}
	runs := map[*groupRun]int{}
	attempt := func(x *groupRun) (bool, []*groupRun) {
		runs[x]++
		x.attempt++
		if x.attempt == 1 {
			return true, []*groupRun{part}
		}
		return false, nil
	}
	var finished []*groupRun
	e.runGroups([]*groupRun{g}, o, attempt, func(x *groupRun) { finished = append(finished, x) })
	if runs[part] != 0 || runs[g] != 2 {
		t.Errorf("the final part ran %d jobs, the group %d; want 0 and 2", runs[part], runs[g])
	}
	if len(finished) != 2 || finished[0] != part || finished[1] != g {
		t.Errorf("finished %d groups, want the final part, then the group", len(finished))
	}
}

// pass is one pass's measurement: its median, whether it converged, its
// worker.
func pass(v float64, conv bool, worker int) *Measurement {
	return &Measurement{PerSnippet: perf.Stats{Median: v}, PerInstr: perf.Stats{Median: v}, Converged: conv, Worker: worker}
}

// The measurement of several passes is the median pass; where two or
// more converged and others did not, the median of the converged ones
// (of two, the faster); one converged pass alone does not decide.
func TestMedianPassPrefersConvergedPasses(t *testing.T) {
	for _, c := range []struct {
		name   string
		passes []*Measurement
		want   float64
		kept   string
	}{
		{"all converged", []*Measurement{pass(0.36, true, 1), pass(0.34, true, 2), pass(0.35, true, 3)}, 0.35, "kept the median"},
		{"none converged", []*Measurement{pass(0.86, false, 1), pass(0.38, false, 2), pass(0.35, false, 3)}, 0.38, "kept the median"},
		{"two of three converged", []*Measurement{pass(0.86, false, 1), pass(0.35, true, 2), pass(0.34, true, 3)}, 0.34, "kept the median of the 2 that converged"},
		{"one of three converged", []*Measurement{pass(0.86, false, 1), pass(0.38, false, 2), pass(0.35, true, 3)}, 0.38, "kept the median"},
		{"three of five converged", []*Measurement{pass(0.90, false, 1), pass(0.50, true, 2), pass(0.52, true, 3), pass(0.60, false, 4), pass(0.51, true, 5)}, 0.51, "kept the median of the 3 that converged"},
	} {
		m := medianPass(c.passes)
		if m.PerInstr.Median != c.want {
			t.Errorf("%s: kept %.2f, want %.2f", c.name, m.PerInstr.Median, c.want)
		}
		if len(m.PassMedians) != len(c.passes) || len(m.PassWorkers) != len(c.passes) {
			t.Errorf("%s: %d pass medians and %d workers, want %d", c.name, len(m.PassMedians), len(m.PassWorkers), len(c.passes))
		}
		if len(m.Warnings) != 1 || !strings.HasSuffix(m.Warnings[0], c.kept) {
			t.Errorf("%s: warnings %q, want one ending %q", c.name, m.Warnings, c.kept)
		}
	}
}

// FastestPass keeps the fastest pass that converged (an unconverged
// pass's floors may come from different moments), and the median where
// none converged.
func TestFastestPass(t *testing.T) {
	for _, c := range []struct {
		name   string
		passes []*Measurement
		want   float64
		kept   string
	}{
		{"levels of their own", []*Measurement{pass(1.10, true, 1), pass(0.56, true, 2), pass(0.63, true, 3)}, 0.56, "kept the fastest that converged"},
		{"a faster pass unconverged", []*Measurement{pass(0.50, false, 1), pass(0.56, true, 2), pass(0.83, true, 3)}, 0.56, "kept the fastest that converged"},
		{"none converged", []*Measurement{pass(0.86, false, 1), pass(0.38, false, 2), pass(0.35, false, 3)}, 0.38, "kept the median"},
	} {
		m := fastestPass(c.passes)
		if m.PerInstr.Median != c.want || !m.Converged == (c.name != "none converged") {
			t.Errorf("%s: kept %.2f (converged %v), want %.2f", c.name, m.PerInstr.Median, m.Converged, c.want)
		}
		if len(m.PassMedians) != len(c.passes) || len(m.PassWorkers) != len(c.passes) {
			t.Errorf("%s: %d pass medians and %d workers, want %d", c.name, len(m.PassMedians), len(m.PassWorkers), len(c.passes))
		}
		if len(m.Warnings) != 1 || !strings.HasSuffix(m.Warnings[0], c.kept) {
			t.Errorf("%s: warnings %q, want one ending %q", c.name, m.Warnings, c.kept)
		}
	}
}

// A retry waits out its back-off on the CPU the group's last job ran on,
// not after the engine moved to another CPU: the other core's neighbour
// keeps its own time.
func TestRetryAfterAMoveDoesNotWait(t *testing.T) {
	e := &Engine{cpus: []int{3, 4}}
	o := Options{MaxRetries: 4, RetryBackoff: 50 * time.Millisecond}
	g := &groupRun{}
	busy := []float64{1, 0.2, 0} // the first job moves the engine, the second does not
	attempt := func(g *groupRun) (bool, []*groupRun) {
		g.cpu = e.CPU()
		e.afterJob(g.cpu, busy[g.attempt])
		g.attempt++
		return g.attempt < 3, nil
	}
	e.runGroups([]*groupRun{g}, o, attempt, func(*groupRun) {})
	// The first retry at once on CPU 4, the second after 100 ms there.
	// The wait is the time left to the retry's due time when the engine
	// looks: a stalled test process can only shorten it.
	if w := e.Stats.Waiting; w < 40*time.Millisecond || w > 101*time.Millisecond {
		t.Errorf("waited %v before retries, want 100 ms (150 if the move had not counted)", w)
	}
	if e.Stats.JobsOn[3] != 1 || e.Stats.JobsOn[4] != 2 {
		t.Errorf("jobs by CPU %v, want 1 on CPU 3 and 2 on 4", e.Stats.JobsOn)
	}
}

// Under LengthCheck a pass whose two body lengths read apart is not
// kept while passes that agree exist: gcc_absmax_i32_ymm's 1-cycle chain
// read 0.84 where its N-copy function ran at 1.16 a copy and the 2N-copy
// one at 1.00. Where no pass agrees, the kept pass comes from all of
// them and the warning says the steady state depends on the length.
func TestKeptOfLengths(t *testing.T) {
	lengths := func(copies int, vs ...float64) []*Measurement {
		var ms []*Measurement
		for i, v := range vs {
			m := pass(v, true, i+1)
			m.Copies = copies
			if v == 0 {
				m.Err = errors.New("crash")
			}
			ms = append(ms, m)
		}
		return ms
	}
	o := Options{LowerQuartilePass: true}
	short := lengths(43, 0.84, 1.00, 0.843, 1.157, 1.003, 0.98)
	long := lengths(65, 1.00, 1.001, 1.00, 1.16, 1.00, 0)
	agree, which, _ := lengthsAgree(short, long, 0.02)
	if want := []bool{false, true, false, true, true, false}; !slices.Equal(which, want) || len(agree) != 3 {
		t.Fatalf("agreeing passes %v (%d), want %v: a failed twin never agrees", which, len(agree), want)
	}
	m := keptOfLengths(short, long, short, o, 0.02)
	if m.PerSnippet.Median != 1.00 {
		t.Errorf("kept %.3f, want 1.00: the lower quartile of the passes that agree (1.00, 1.003, 1.157), not 0.84", m.PerSnippet.Median)
	}
	if len(m.PassMedians) != 6 || m.Length == nil || m.Length.Copies != 65 || m.Length.Agreed() != 3 || len(m.Length.PassMedians) != 6 || m.Length.PassMedians[5] != 0 {
		t.Fatalf("record: passes %v, length %+v", m.PassMedians, m.Length)
	}
	if m.Length.Value != 1.00 {
		t.Errorf("the longer length's value %.3f, want 1.00 (the lower quartile of its agreeing passes: 1.00, 1.001, 1.16)", m.Length.Value)
	}
	if !slices.ContainsFunc(m.Warnings, func(w string) bool {
		return strings.Contains(w, "3 of 6 passes read their two body lengths (43 and 65 copies) more than 2 % apart")
	}) {
		t.Errorf("warnings %q", m.Warnings)
	}
	// A store-bound stream: the lengths disagree in every pass.
	short = lengths(15, 2.37, 2.38, 2.36, 2.90)
	long = lengths(23, 2.50, 2.49, 2.51, 3.10)
	m = keptOfLengths(short, long, short, o, 0.02)
	if m.PerSnippet.Median != 2.36 || m.Length.Value != 2.49 || m.Length.Agreed() != 0 {
		t.Errorf("kept %.2f at 15 copies and %.2f at 23 (%d agree), want 2.36 and 2.49 (the lower quartiles of every pass)", m.PerSnippet.Median, m.Length.Value, m.Length.Agreed())
	}
	if !slices.ContainsFunc(m.Warnings, func(w string) bool { return strings.Contains(w, "depends on the body's length") }) {
		t.Errorf("warnings %q", m.Warnings)
	}
}

// The engine's twin of a snippet has half as many copies again (at least
// one more), and a call with LengthCheck returns one measurement per
// snippet, each with the twin's passes beside its own.
func TestLengthCheck(t *testing.T) {
	twins := withLongerTwins([]*Snippet{{Name: "a"}, {Name: "b"}})
	if len(twins) != 4 || twins[0].longer || !twins[1].longer || twins[1].Name != "a" || twins[3].Name != "b" {
		t.Fatalf("twins %+v", twins)
	}
	e, _ := hostEngine(t)
	snips := []*Snippet{snippet(t, "add rax, rax"), snippet(t, "imul rax, rax")}
	ms := e.MeasureAll(snips, Options{Passes: 2, MaxPasses: 4, LengthCheck: true}, nil)
	if len(ms) != 2 {
		t.Fatalf("%d measurements for 2 snippets", len(ms))
	}
	for i, m := range ms {
		if m.Err != nil {
			t.Fatal(m.Err)
		}
		l := m.Length
		if l == nil {
			t.Fatalf("%s: no second length", snips[i].Source)
		}
		if want := max(m.Copies+1, (3*m.Copies+1)/2); l.Copies != want {
			t.Errorf("%s: %d and %d copies, want %d at the second length", snips[i].Source, m.Copies, l.Copies, want)
		}
		if n := len(m.PassMedians); n < 2 || n > 4 || len(l.PassMedians) != n || len(l.Agree) != n {
			t.Errorf("%s: %d passes, %d at the second length, %d agreements", snips[i].Source, n, len(l.PassMedians), len(l.Agree))
		}
		if l.Value <= 0 {
			t.Errorf("%s: no value at the second length", snips[i].Source)
		}
	}
}

// A pass whose two lengths disagree is used where one function of a pair
// lies on the other pair's line and its partner does not: the intact
// pair's value is the steady state, the partner ran in another one (made-up
// floors as measured on the Zen 4 guest: gcc_absmax_i32_ymm's 43-copy
// function at 1.157 cycles a copy beside three at 1.00; stream_add_sse's
// 15-copy function 2 cycles an iteration slow beside three on a line of
// 2.50). Two pairs each in a state of its own (32 copies at 1.00, 48 at
// 1.10) have no three on a line and are not used.
func TestThreeOfFourOnALine(t *testing.T) {
	fn := func(copies int, tn, t2n float64) *Measurement {
		m := pass((t2n-tn)/float64(copies), true, copies)
		m.Copies = copies
		m.Layout = perf.Layout{CalibSpan: 100, Span: float64(copies), Differential: true}
		for _, noise := range []float64{0.3, 0, 0.1} { // the floors are the fastest repetitions
			m.Timings = append(m.Timings, perf.Timing{Calib: [2][2]float64{{100, 200}, {100.5, 200.5}}, Snip: [2]float64{tn + noise, t2n + noise}})
		}
		return m
	}
	for _, c := range []struct {
		name        string
		short, long *Measurement
		want        float64 // 0: not used
		warn        string
	}{
		{"absmax", fn(43, 43*1.157+0.1, 86+0.1), fn(65, 65+0.1, 130+0.1), 1.0, "its 43-copy function ran in another state than the 65- and 130-copy ones, on whose line the 86-copy one lies"},
		{"stream", fn(15, 15*2.5+1.6+2, 30*2.5+1.6), fn(23, 23*2.5+1.6, 46*2.5+1.6), 2.5, "its 15-copy function ran in another state"},
		{"two states", fn(32, 32.5, 64.5), fn(48, 48*1.1+0.5, 96*1.1+0.5), 0, ""},
		{"agree", fn(32, 32.5, 64.5), fn(48, 48.5, 96.5), 1.0, ""},
	} {
		usable, which, fitted := lengthsAgree([]*Measurement{c.short}, []*Measurement{c.long}, 0.02)
		if c.want == 0 {
			if len(usable) != 0 || which[0] || fitted[0] != 0 {
				t.Errorf("%s: used (%v, %v), want not", c.name, which, fitted)
			}
			continue
		}
		if len(usable) != 1 || !which[0] || math.Abs(fitted[0]-c.want) > 0.002 || math.Abs(usable[0].PerSnippet.Median-c.want) > 0.002 {
			t.Errorf("%s: used %v, value %v, want %.3f", c.name, which, fitted, c.want)
			continue
		}
		if c.warn != "" && !slices.ContainsFunc(usable[0].Warnings, func(w string) bool { return strings.Contains(w, c.warn) }) {
			t.Errorf("%s: warnings %q, want one saying %q", c.name, usable[0].Warnings, c.warn)
		}
		if c.warn != "" && c.short.PerSnippet.Median == usable[0].PerSnippet.Median {
			t.Errorf("%s: the pass's own measurement was changed, not a copy", c.name)
		}
	}
	// keptOfLengths takes the line's slope of such a pass and says so.
	m := keptOfLengths([]*Measurement{fn(43, 43*1.157+0.1, 86.1), fn(43, 43.1, 86.1)}, []*Measurement{fn(65, 65.1, 130.1), fn(65, 65.1, 130.1)},
		[]*Measurement{fn(43, 43*1.157+0.1, 86.1), fn(43, 43.1, 86.1)}, Options{LowerQuartilePass: true}, 0.02)
	if math.Abs(m.PerSnippet.Median-1) > 0.002 || m.Length.Agreed() != 2 || !slices.ContainsFunc(m.Warnings, func(w string) bool { return strings.Contains(w, "1 with one function off the line of the other three") }) {
		t.Errorf("kept %.3f (%d usable), warnings %q", m.PerSnippet.Median, m.Length.Agreed(), m.Warnings)
	}
}
