package measure

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"portlab/jit"
	"portlab/perf"
)

// Repetition is how a snippet is repeated to fill the timed window, as in
// llvm-exegesis. The middle-half modes time the body at two lengths and take
// the difference, T(2n) - T(n), which cancels the harness's own cost.
type Repetition string

// Repetition modes.
const (
	Duplicate           Repetition = "duplicate"
	Loop                Repetition = "loop"
	Min                 Repetition = "min"
	MiddleHalfDuplicate Repetition = "middle-half-duplicate"
	MiddleHalfLoop      Repetition = "middle-half-loop"
)

// ParseRepetition accepts the exegesis names (and "middle-half" for
// middle-half-duplicate).
func ParseRepetition(s string) (Repetition, error) {
	switch Repetition(s) {
	case Duplicate, Loop, Min, MiddleHalfDuplicate, MiddleHalfLoop:
		return Repetition(s), nil
	case "middle-half":
		return MiddleHalfDuplicate, nil
	}
	return "", fmt.Errorf("unknown repetition mode %q (want duplicate, loop, min, middle-half-duplicate or middle-half-loop)", s)
}

// Options control one measurement.
type Options struct {
	Mode            string     // exegesis measurement key: "latency" or "inverse_throughput"
	Repetition      Repetition // default MiddleHalfDuplicate
	MinInstructions int        // instructions in the short body (default 128)
	Reps            int        // repetitions of the schedule in one job (default 11)
	Calls           int        // calls per point, fewest ticks kept (default 3)
	// TargetTicks is the TSC ticks a call aims for (default 15 us). A busy
	// SMT neighbour leaves the core quiet in stretches of tens to hundreds
	// of microseconds (docs/method.md, "One measurement"), and a shorter
	// call fits more of them; much shorter calls carry more of the
	// harness's jitter into the floors.
	TargetTicks uint64
	// MaxRetries is how many more jobs a snippet whose estimate has not
	// converged may run (default 4): the per-benchmark budget.
	MaxRetries int
	// MinJobs is how many jobs every snippet runs before its convergence
	// is judged (0 or 1: after each job). Recordings made so hold the
	// same number of jobs for every benchmark, time apart as retries are,
	// and a study can replay the engine's decision after each job with
	// another rule (docs/method.md, "How sure"). More jobs follow while
	// the estimate has not converged, up to 1+MaxRetries in all.
	MinJobs int
	// RelTol and AbsTol are the uncertainty a converged estimate may
	// have: RelTol of the value or AbsTol cycles per instruction,
	// whichever is larger (defaults 0.005 and 0.002).
	RelTol, AbsTol float64
	// RetryBackoff is the least time between a job and its first extra
	// job, doubled for each further one (default 20 ms: 20, 40, 80, 160
	// ms with the default retries). On these KVM guests a neighbour's
	// burst disturbs every repetition for tens to hundreds of milliseconds
	// at a time; jobs re-run back to back land in the same burst. The
	// engine measures other groups meanwhile and sleeps only when nothing
	// else is left (runGroups).
	RetryBackoff time.Duration
	// Idle, when set, is called when the engine has nothing to measure
	// until a retry's back-off ends (the time given): work that must not
	// run beside a measurement, such as assembling the next batch
	// (Engine.Warm), can run then. It should return by that time (an
	// overrun delays the retry, which is harmless); the engine sleeps
	// whatever is left.
	Idle  func(until time.Time)
	NoFTZ bool // leave MXCSR's flush-to-zero/denormals-are-zero off
	// Group is how many snippets share one worker job (and one set of
	// calibration and canary points per repetition). Default 1; sweeps use
	// more. Snippets with fixed-address memory or code never share.
	Group int
	// CacheCounters asks for the validation counters (L1d, LLC, dTLB read
	// misses) when the host has hardware counters.
	CacheCounters bool
	// Passes measures every snippet this many times in separate jobs, all
	// snippets once before any a second time, each pass in a worker
	// process of its own, and keeps the median pass (default 1). For code
	// whose speed a slower state of the core can hold down for a while:
	// vector load-op forms on this project's Granite Rapids guests run
	// 8-20 % slower in stretches of a few hundred milliseconds that no
	// canary sees (docs/method.md, "Passes"). A fresh worker per pass, because on Zen 4
	// a worker keeps one of two steady states for its lifetime
	// (vfmadd231pd ymm beside vaddpd ymm 1.05x or 1.2x the disjoint-port
	// time in every job of one process).
	Passes int
	// MaxPasses, when above Passes, measures the snippets whose passes
	// disagree (the slowest pass median more than PassSpread above the
	// fastest) in more passes, up to MaxPasses in all, and keeps the
	// median of them all. Some kernels settle into a different steady
	// state from one job to the next (Zen 4: gcc_horner_zmm 3.97-4.94
	// cycles, the same code at the same addresses, the canaries steady);
	// a median over more jobs is a steadier figure, and only they pay.
	MaxPasses int
	// PassSpread is the relative spread of pass medians beyond which
	// MaxPasses applies (default 0.02).
	PassSpread float64
	// FastestPass keeps the fastest converged pass instead of the median
	// (the median where none converged): for code that settles into
	// levels of its own from one measurement to the next, the canaries
	// clear, where the fastest is what the core can do and the median
	// flips between levels (docs/method.md, "Passes").
	FastestPass bool
	// LowerQuartilePass keeps the pass at the lower quartile of every
	// pass (of five the second fastest) instead of the median: for code
	// that runs slower in most passes while a neighbour is busy, where a
	// pass alone can also read fast (its floors from different moments). `portlab validate` sets it: on
	// the Zen 3 guest with a busy neighbour (2026-11-29, three runs of the
	// 57 kernels, 5-15 passes each) the lower-quartile pass was within 3 %
	// of xcheck's median of per-process minima for 49-52 kernels against
	// 45-47 with the median and 45-49 with the fastest pass.
	LowerQuartilePass bool
	// LengthCheck, with Passes > 1, measures every snippet at a second
	// body length too (half as many copies again), in the same job of
	// every pass. A steady state does not depend on the body's length, so
	// a pass whose two lengths read more than PassSpread apart timed its
	// N- and 2N-copy functions in different states and its difference is
	// no cost of the code: on the Zen 4 guest gcc_absmax_i32_ymm's 1-cycle
	// vpmaxsd chain read 0.84 cycles in some workers (the N-copy function
	// at 1.16 a copy, the 2N-copy one at 1.00) and 1.00 in others. Such a
	// pass is used where one function lies off the line of the other
	// three (the intact pair's value, lengthsAgree) and not otherwise; the
	// kept pass comes from the used ones, and more passes run (up to
	// MaxPasses) until at least two are used and agree with each other.
	// Code with no pass used (each pair in a state of its own) keeps the
	// pass of all of them, with a warning and both lengths' values in
	// Measurement.Length. `portlab validate` sets it.
	LengthCheck bool
	// Deadline, when set, is when the engine stops giving estimates more
	// jobs: no retry starts after it, and every snippet keeps the
	// estimate of the jobs it has run (Measurement.Converged says whether
	// that one is sure); the canary reference's warm-up takes at most a
	// quarter of the time left to it. A snippet's first job always runs.
	// `portlab quick` sets it from its time budget, so that its table
	// comes in that time on a noisy host, the results that needed more
	// jobs marked noisy.
	Deadline time.Time
}

// pastDeadline reports whether a job that would start at t starts after
// o.Deadline (never without one).
func (o Options) pastDeadline(t time.Time) bool {
	return !o.Deadline.IsZero() && t.After(o.Deadline)
}

func (o *Options) defaults(tscHz float64) {
	if o.Mode == "" {
		o.Mode = "latency"
	}
	if o.Repetition == "" {
		o.Repetition = MiddleHalfDuplicate
	}
	if o.MinInstructions <= 0 {
		o.MinInstructions = 128
	}
	if o.Reps <= 0 {
		o.Reps = defaultReps
	}
	if o.Calls <= 0 {
		o.Calls = 3
	}
	if o.RelTol <= 0 {
		o.RelTol = 0.005
	}
	if o.AbsTol <= 0 {
		o.AbsTol = 0.002
	}
	if o.TargetTicks == 0 {
		if tscHz <= 0 {
			tscHz = 2.5e9
		}
		o.TargetTicks = uint64(15e-6 * tscHz)
	}
	if o.Group <= 0 {
		o.Group = 1
	}
	if o.MaxRetries < 0 {
		o.MaxRetries = 0
	} else if o.MaxRetries == 0 {
		o.MaxRetries = 4
	}
	if o.RetryBackoff <= 0 {
		o.RetryBackoff = 20 * time.Millisecond
	}
}

// Host is what the engine needs to know about the machine.
type Host struct {
	Has   func(feature string) bool
	TSCHz float64
	CPU   string // LLVM cpu name, for results
}

// Engine measures snippets: it assembles them into harness functions,
// interleaves them with the calibration chain and the canaries, runs the
// job in the worker and turns the ticks into cycles.
type Engine struct {
	Asm    *jit.Assembler
	Runner *jit.Runner
	// passRunners are the workers of passes after the first
	// (passRunner).
	passRunners []*jit.Runner
	Host        Host
	// Recorder, when set, writes the raw repetitions of noisy benchmarks.
	Recorder *Recorder
	// refs are the throughput canaries of this run's quiet moments (see
	// converged).
	refs perf.CanaryReferences
	// referencing is set while establishReference measures.
	referencing bool
	// provisional are the converged estimates judged before the
	// reference had referenceNotes jobs behind each canary: MeasureCalls
	// judges them again before it returns (rejudge).
	provisional []provisional
	// Stats accounts for the engine's time, so a slow run can say whether
	// it measured, assembled or waited for a quiet machine.
	Stats EngineStats
	// unlock releases the measuring locks of the engine's CPUs
	// (jit.LockCPU).
	unlock func()
	// cpus are the CPUs the engine measures on, one at a time (SetCPUs);
	// cur indexes the one it measures on now.
	cpus []int
	cur  int
}

// MoveAbove is the share of a job's repetitions beside a busy sibling
// (perf.Layout.BusyShare) above which an engine with several CPUs
// measures its next job on the next one. On the Emerald Rapids guest
// (2026-11-28) the neighbours of its two vCPUs came and went
// independently of each other (their slow shares in 7 ms windows
// correlated at -0.12 to 0.24, tools/cputrace), and in a 12-second trace
// where CPU 1 ran its canary slow 96 % of the time and CPU 0 30 %,
// moving after a window more than half slow would have run slow 30 % of
// the time, a point from the quieter CPU of every window in hindsight.
const MoveAbove = 0.5

// SetCPUs makes the engine measure on cpus, one at a time, starting on
// the first: it moves to the next after a job whose repetitions mostly
// ran beside a busy sibling (MoveAbove), and stays while they run
// quiet. The caller holds their measuring locks (jit.LockCPU). One CPU
// pins it there.
func (e *Engine) SetCPUs(cpus []int) {
	e.cpus, e.cur = slices.Clone(cpus), 0
	if len(cpus) > 0 {
		e.Runner.MoveTo(cpus[0])
	}
}

// CPUs are the CPUs the engine measures on (SetCPUs), the runner's alone
// when none were set.
func (e *Engine) CPUs() []int {
	if len(e.cpus) == 0 {
		return []int{e.Runner.CPU}
	}
	return slices.Clone(e.cpus)
}

// CPU is the CPU the engine measures its next job on.
func (e *Engine) CPU() int {
	if len(e.cpus) == 0 {
		if e.Runner == nil {
			return -1
		}
		return e.Runner.CPU
	}
	return e.cpus[e.cur]
}

// afterJob counts a job on its CPU and moves on when most of its
// repetitions ran beside a busy sibling.
func (e *Engine) afterJob(cpu int, busy float64) {
	if e.Stats.JobsOn == nil {
		e.Stats.JobsOn, e.Stats.BusyOn = map[int]int{}, map[int]float64{}
	}
	e.Stats.JobsOn[cpu]++
	e.Stats.BusyOn[cpu] += busy
	if len(e.cpus) > 1 && busy > MoveAbove {
		e.cur = (e.cur + 1) % len(e.cpus)
		e.Stats.Moves++
	}
}

// EngineStats is where an engine's time went.
type EngineStats struct {
	Jobs       int           // worker jobs run, retries included
	Retries    int           // jobs run again because most repetitions were disturbed
	Running    time.Duration // in the worker
	Waiting    time.Duration // backing off before a retry, with nothing else to measure
	Assembling time.Duration // in the assembler
	// Reference and ReferenceJobs are the time and the jobs (counted in
	// Jobs too) of the run's canary reference warm-up
	// (Engine.establishReference).
	Reference     time.Duration
	ReferenceJobs int
	// Rejudged counts the estimates that had converged against a young
	// canary reference and did not against the run's later one (rejudge).
	Rejudged int
	// Cut counts the estimates that wanted another job when
	// Options.Deadline had passed: they end with the jobs they had.
	Cut int
	// Moves counts the engine's moves to another CPU after a busy job
	// (Engine.SetCPUs); JobsOn the jobs run on each CPU.
	Moves  int
	JobsOn map[int]int
	// BusyOn sums, by CPU, the share of each job's repetitions that ran
	// beside a busy sibling (perf.Layout.BusyShare).
	BusyOn map[int]float64
}

// String is a one-line account of the engine's time.
func (s EngineStats) String() string {
	r := func(d time.Duration) time.Duration { return d.Round(100 * time.Millisecond) }
	line := fmt.Sprintf("%d jobs (%d of them retries of disturbed ones): %v running, %v waiting before retries, %v assembling", s.Jobs, s.Retries, r(s.Running), r(s.Waiting), r(s.Assembling))
	if s.ReferenceJobs > 0 {
		line += fmt.Sprintf("; the canary reference took %d of the jobs and %v", s.ReferenceJobs, s.Reference.Round(10*time.Millisecond))
	}
	if s.Rejudged > 0 {
		line += fmt.Sprintf("; %d estimates judged again against the grown canary reference and found noisy", s.Rejudged)
	}
	if s.Cut > 0 {
		line += fmt.Sprintf("; %d estimates stopped at the time budget with the jobs they had", s.Cut)
	}
	if len(s.JobsOn) > 1 {
		var on []string
		for _, c := range slices.Sorted(maps.Keys(s.JobsOn)) {
			on = append(on, fmt.Sprintf("%d on CPU %d, %.0f%% busy", s.JobsOn[c], c, 100*s.BusyOn[c]/float64(s.JobsOn[c])))
		}
		line += fmt.Sprintf("; moved to another CPU %d times after a busy job (jobs: %s)", s.Moves, strings.Join(on, ", "))
	}
	return line
}

// Release stops the workers and gives this process's threads every CPU
// of its start-up mask again, for a while of work that measures nothing
// (characterize's model build: kept off the measuring CPU, a 2-vCPU
// host's build ran on one CPU and its garbage collector with it). The
// engine stays usable: its next job starts a worker and keeps the
// process off that CPU again. Unlike Close it keeps the CPU's lock.
func (e *Engine) Release() {
	e.stopWorkers()
	jit.RestoreCPUs()
}

// stopWorkers stops the engine's workers; its next job starts one.
func (e *Engine) stopWorkers() {
	e.Runner.Close()
	for _, r := range e.passRunners {
		r.Close()
	}
}

// Close stops the worker and lets go of the CPU.
func (e *Engine) Close() error {
	e.stopWorkers()
	if e.unlock != nil {
		e.unlock()
	}
	return nil
}

// Measurement is the result of timing one snippet.
type Measurement struct {
	Snippet      *Snippet
	Mode         string
	Repetition   Repetition
	Instructions int // instructions per snippet copy
	// PerSnippet is cycles per snippet copy: Median holds the estimate
	// (perf.Estimate: from the floors of the repetitions), Min and Max the
	// range of the per-repetition values. PerInstr is the same per
	// instruction.
	PerSnippet perf.Stats
	PerInstr   perf.Stats
	// Uncertainty is the estimate's, in cycles per instruction, and
	// Converged whether it is within the options' tolerance.
	Uncertainty float64
	Converged   bool
	// Estimate is the estimator's whole answer (per snippet copy), with
	// the noise the repetitions showed; Timings and Layout are the raw
	// repetitions it came from (for recordings, perf.Recording).
	Estimate    perf.Estimate
	Timings     []perf.Timing
	Layout      perf.Layout
	Clock       perf.Clock // what the cycles were counted with
	Canaries    perf.Canaries
	Reps, Clean int // repetitions over all the jobs of the snippet, and the undisturbed ones
	// RepsPerJob is one job's repetitions (Options.Reps): the engine runs
	// more jobs until the estimate converges.
	RepsPerJob int
	Warnings   []string
	// Validation holds the validation counters (median per repetition of the
	// whole job: "l1d-read-misses", "llc-read-misses", "dtlb-read-misses")
	// when asked for and available; ValidationNote says why they are not.
	Validation     map[string]float64
	ValidationNote string
	Code           []byte // the snippet's own bytes (one copy)
	Copies         int    // copies in the short body
	Err            error  // the snippet could not be measured (assembly error, crash, timeout)
	LoopRegister   string
	// PassMedians are the cycles per instruction of every pass when
	// Options.Passes > 1 (the measurement is their median); PassWorkers
	// the process IDs of the workers that ran them.
	PassMedians []float64
	PassWorkers []int
	// Length is what the second body length said (Options.LengthCheck).
	Length *LengthCheck
	// Worker is the process ID of the worker that ran the measurement.
	Worker int
}

// LengthCheck is a snippet measured at a second body length in every pass
// (Options.LengthCheck).
type LengthCheck struct {
	Copies int // copies in that length's short body
	// PassMedians are the cycles per instruction at that length, pass by
	// pass as Measurement.PassMedians (0 where the pass failed), and
	// Agree says which passes' two lengths read within the pass spread.
	PassMedians []float64
	Agree       []bool
	// Fitted is, by pass, the value of a pass whose lengths agree (the
	// shorter length's, cycles per snippet copy), or of one where a
	// function ran off the line of the other three (the intact pair's
	// value); 0 for the passes not used. Agree marks both.
	Fitted []float64
	// Value is the cycles per snippet copy at that length: its pass at the
	// same quantile as the kept one, among the same passes.
	Value float64
}

// Agreed is how many passes' two lengths agreed.
func (l *LengthCheck) Agreed() int {
	n := 0
	for _, a := range l.Agree {
		if a {
			n++
		}
	}
	return n
}
