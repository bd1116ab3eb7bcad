package characterize

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"portlab/analysis"
	"portlab/hostcpu"
	"portlab/internal/fsutil"
	"portlab/isa"
	"portlab/measure"
	"portlab/modeldb"
	"portlab/results"
	"portlab/sweep"
	"portlab/validate"
)

// Options control Run.
type Options struct {
	Engine   *measure.Engine
	Host     *hostcpu.Info
	HostInfo *results.HostInfo // written on every result (sweep.HostInfo)
	// Budget is the time the whole chain may take (resumed runs included).
	Budget time.Duration
	// Dir is the work directory: results, state, model and reports.
	Dir string
	// Resume goes on with the run in Dir; without it Dir must not hold one.
	Resume bool
	// Forms are the forms to measure (nil: every form of the catalog; the
	// host's features filter them).
	Forms []*isa.Form
	// Kernels are measured and predicted to score the model (may be
	// empty); Peers predict them too (llvm-mca).
	Kernels []*validate.Kernel
	Peers   []validate.Predictor
	// Base is the model the build starts from (nil: modeldb.BaseFor the
	// host: the embedded model measured on its CPU signature, else LLVM's
	// of its CPU; none near: the build invents its ports).
	Base *modeldb.Model
	// Install writes the model to the user's model directory
	// (modeldb.UserModelPath); Outputs are further paths for it.
	Install bool
	Outputs []string
	// ValidationMixes is the size of the validation draw (default 400).
	ValidationMixes int
	// Measure are the engine's options for every benchmark.
	Measure measure.Options
	// Progress is told where the run stands, often; Log gets a line per
	// step.
	Progress func(Status)
	Log      io.Writer
	// Command is the command line that reproduces the run.
	Command string

	// stopAfter makes Run return errInterrupted after the named step, as
	// an interrupt there would leave it (tests).
	stopAfter string
}

var errInterrupted = errors.New("interrupted")

// Status is where a run stands, for a progress line.
type Status struct {
	Step        string
	Index       int // 1-based, of Count
	Count       int
	Done, Total int // units of the step (forms, mixes, kernels)
	What        string
	// Elapsed is the time spent so far (resumed runs included), Left an
	// estimate of what remains.
	Elapsed, Left time.Duration
	Budget        time.Duration
}

// Steps are the steps of a run, in order.
var Steps = []string{"sweep", "kernels", "validation", "ports", "fit", "revalidate", "build", "evaluate", "predict", "install"}

// measuring are the steps whose work the state keeps: a resumed run
// skips them once done. The others are quick and run every time.
var measuring = map[string]bool{"sweep": true, "kernels": true, "validation": true, "ports": true, "fit": true, "revalidate": true, "build": true}

// Step seeds of the random draws: the validation draw and the fit draw
// never share a mix.
const (
	validationSeed = 1
	fitSeed        = 11
)

// Report is what a run achieved.
type Report struct {
	Host    string `json:"host"` // "emeraldrapids (GenuineIntel-6-cf-2)"
	Date    string `json:"date"`
	Command string `json:"command,omitempty"`
	Budget  string `json:"budget"`
	Elapsed string `json:"elapsed"`
	Base    string `json:"base,omitempty"`
	// Bases says which bases the builds that competed started from, what
	// each predicted of the validation draw and which was kept ("" for
	// one build).
	Bases     string   `json:"bases,omitempty"`
	Model     string   `json:"model"` // the model in the work directory
	Installed []string `json:"installed,omitempty"`
	Plan      *Plan    `json:"plan,omitempty"`
	// Cut says the run fell behind its plan and stopped measuring mixes.
	Cut   bool       `json:"cut,omitempty"`
	Steps []StepTime `json:"steps"`
	// Build is the build report's summary.
	Build string `json:"build"`
	// Mixes are the validation draw's scores: the new model's, then the
	// base's.
	Mixes []MixScore `json:"mixes"`
	// DrawRepeat is how far the draw's two rounds agree: the reach of any
	// model's score on it (nil where one round was measured).
	DrawRepeat *modeldb.DrawRepeat `json:"draw_repeat,omitempty"`
	// Kernels are the kernel scores: the new model's, the base's, the
	// peers'.
	Kernels []validate.Score `json:"kernels,omitempty"`
	// KernelReport is the whole kernel validation (text view).
	KernelReport *validate.Report `json:"-"`
}

// StepTime is what one step took, resumed runs included.
type StepTime struct {
	Step       string  `json:"step"`
	Seconds    float64 `json:"seconds"`
	Benchmarks int     `json:"benchmarks,omitempty"`
	Note       string  `json:"note,omitempty"`
}

// MixScore is one model's prediction of the validation draw: Within by
// the model's bottleneck bound (what model build fits), Simulated by
// simulating each mix's machine code as measured (analysis.MixSimulator,
// as validate predicts a kernel), each the fraction within 10 %.
type MixScore struct {
	Model     string  `json:"model"`
	N         int     `json:"n"`
	Within    float64 `json:"within_10pct"`
	Simulated float64 `json:"simulated_within_10pct"`
	// ByMemory is the simulated predictions by how the mixes touch
	// memory (modeldb.MixReport.ByMemory): where the model misses.
	ByMemory []MemoryScore `json:"by_memory,omitempty"`
}

// MemoryScore is a MixScore's share of one memory kind's mixes within
// 10 % and their median signed error.
type MemoryScore struct {
	Kind   string  `json:"kind"`
	N      int     `json:"n"`
	Within float64 `json:"within_10pct"`
	Median float64 `json:"median_error"`
}

// state is the run's state.json.
type state struct {
	Version   int                `json:"version"`
	Signature string             `json:"signature"`
	Forms     int                `json:"forms"`
	Budget    float64            `json:"budget_s"`
	Started   string             `json:"started"`
	Spent     map[string]float64 `json:"spent_s"`
	Counts    map[string]int     `json:"benchmarks"`
	Done      map[string]bool    `json:"done"`
	Notes     map[string]string  `json:"notes,omitempty"`
	Plan      *Plan              `json:"plan,omitempty"`
	Cut       bool               `json:"cut,omitempty"`
	// Kernels are the kernels' measurements (kernels step).
	Kernels []kernelMeasurement `json:"kernels,omitempty"`
}

type kernelMeasurement struct {
	Name     string   `json:"name"`
	Cycles   float64  `json:"cycles"`
	Min      float64  `json:"min"`
	Max      float64  `json:"max"`
	Clean    int      `json:"clean"`
	Reps     int      `json:"reps"`
	Warnings []string `json:"warnings,omitempty"`
	Err      string   `json:"error,omitempty"`
}

const stateVersion = 1

// Files of the work directory.
const (
	stateFile   = "state.json"
	resultsFile = "results.yaml"
	modelFile   = "model.yml.gz"
	buildFile   = "build.txt"
	reportFile  = "report.json"
)

// run is one Run's working set.
type run struct {
	o        Options
	st       *state
	start    time.Time // of this process's part
	prior    float64   // seconds spent by earlier parts
	cur      string    // the step under way
	curFrom  time.Time
	lastSave time.Time
	forms    []*isa.Form
	ordered  []*isa.Form // PortsOrder
	counts   []int       // their port mixes
	// ms are the results file's measurements, collected once (load).
	ms    *modeldb.Measurements
	model *modeldb.Model
	// repeat is how far the validation draw's two rounds agree (load).
	repeat *modeldb.DrawRepeat
	base   *modeldb.Model
	rep    *Report
}

// Run runs the chain (see the package comment).
func Run(o Options) (*Report, error) {
	if o.Engine == nil || o.Host == nil {
		return nil, errors.New("characterize: no engine or host")
	}
	if o.Budget <= 0 {
		return nil, fmt.Errorf("budget %v: want a positive duration", o.Budget)
	}
	if o.ValidationMixes <= 0 {
		o.ValidationMixes = 400
	}
	if o.Log == nil {
		o.Log = io.Discard
	}
	r := &run{o: o, start: time.Now()}
	forms := o.Forms
	if forms == nil {
		var err error
		if forms, err = sweep.Select(nil, nil); err != nil {
			return nil, err
		}
	}
	for _, f := range forms {
		if f.Supported(o.Host.Has) {
			r.forms = append(r.forms, f)
		}
	}
	if len(r.forms) == 0 {
		return nil, fmt.Errorf("no form to measure runs on this host (%s)", o.Host.Microarch)
	}
	if err := r.open(); err != nil {
		return nil, err
	}
	r.base = o.Base
	if r.base == nil {
		b, err := modeldb.BaseFor(o.Host.Microarch, o.Host.Signature())
		if err != nil {
			return nil, err
		}
		r.base = b
	}
	r.rep = &Report{Host: fmt.Sprintf("%s (%s)", o.Host.Microarch, o.Host.Signature()), Command: o.Command,
		Budget: time.Duration(r.st.Budget * float64(time.Second)).String(), Model: filepath.Join(o.Dir, modelFile)}
	if r.base != nil {
		r.rep.Base = r.base.Label()
	}
	steps := []func() error{r.sweep, r.kernels, r.validation, r.ports, r.fit, r.revalidate, r.build, r.evaluate, r.predict, r.install}
	for i, step := range steps {
		name := Steps[i]
		r.cur, r.curFrom = name, time.Now()
		if r.st.Done[name] && measuring[name] {
			continue
		}
		fmt.Fprintf(o.Log, "%s: %s\n", name, r.stepIntro(name))
		if name == "build" {
			// Nothing is measured from here on: the build gets every CPU.
			o.Engine.Release()
		}
		r.progress(0, 0, "")
		if err := step(); err != nil {
			r.saveSpent()
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		r.st.Done[name] = true
		r.saveSpent()
		fmt.Fprintf(o.Log, "%s: done in %v%s\n", name, time.Duration(r.st.Spent[name]*float64(time.Second)).Round(time.Second), r.noteOf(name))
		if name == o.stopAfter {
			return nil, errInterrupted
		}
	}
	r.rep.Date = time.Now().UTC().Format("2006-01-02")
	r.rep.Plan, r.rep.Cut = r.st.Plan, r.st.Cut
	r.rep.Elapsed = r.elapsed().Round(time.Second).String()
	for _, s := range Steps {
		r.rep.Steps = append(r.rep.Steps, StepTime{Step: s, Seconds: round1(r.st.Spent[s]), Benchmarks: r.st.Counts[s], Note: r.st.Notes[s]})
	}
	data, err := json.MarshalIndent(r.rep, "", "  ")
	if err != nil {
		return nil, err
	}
	if err := fsutil.WriteFileAtomic(filepath.Join(o.Dir, reportFile), append(data, '\n'), 0o644); err != nil {
		return nil, err
	}
	return r.rep, nil
}

// open reads or starts the state.
func (r *run) open() error {
	o := r.o
	if err := os.MkdirAll(o.Dir, 0o755); err != nil {
		return err
	}
	path := filepath.Join(o.Dir, stateFile)
	data, err := os.ReadFile(path)
	switch {
	case err == nil && !o.Resume:
		return fmt.Errorf("%s holds a characterization under way: run again with --resume to finish it, or with --fresh to start over", o.Dir)
	case err == nil:
		var st state
		if err := json.Unmarshal(data, &st); err != nil {
			return fmt.Errorf("%s: %v (start over with --fresh)", path, err)
		}
		if st.Version != stateVersion {
			return fmt.Errorf("%s: state version %d, want %d (start over with --fresh)", path, st.Version, stateVersion)
		}
		if st.Signature != o.Host.Signature() {
			return fmt.Errorf("%s: a characterization of %s, not of this host (%s)", path, st.Signature, o.Host.Signature())
		}
		if st.Forms != len(r.forms) {
			return fmt.Errorf("%s: a characterization of %d forms, not of these %d (start over with --fresh)", path, st.Forms, len(r.forms))
		}
		if st.Budget != o.Budget.Seconds() {
			fmt.Fprintf(o.Log, "resuming with the run's own budget of %v (not %v)\n", time.Duration(st.Budget*float64(time.Second)), o.Budget)
		}
		if st.Spent == nil {
			st.Spent = map[string]float64{}
		}
		if st.Counts == nil {
			st.Counts = map[string]int{}
		}
		if st.Done == nil {
			st.Done = map[string]bool{}
		}
		if st.Notes == nil {
			st.Notes = map[string]string{}
		}
		r.st = &st
	case errors.Is(err, os.ErrNotExist):
		// A results file without a state is a run cut short before its
		// first save: start over cleanly.
		for _, f := range []string{resultsFile, modelFile, buildFile, reportFile} {
			_ = os.Remove(filepath.Join(o.Dir, f))
		}
		r.st = &state{Version: stateVersion, Signature: o.Host.Signature(), Forms: len(r.forms), Budget: o.Budget.Seconds(),
			Started: time.Now().UTC().Format(time.RFC3339), Spent: map[string]float64{}, Counts: map[string]int{},
			Done: map[string]bool{}, Notes: map[string]string{}}
		if err := r.save(); err != nil {
			return err
		}
	default:
		return err
	}
	for _, v := range r.st.Spent {
		r.prior += v
	}
	return nil
}

func (r *run) save() error {
	data, err := json.MarshalIndent(r.st, "", "  ")
	if err != nil {
		return err
	}
	r.lastSave = time.Now()
	return fsutil.WriteFileAtomic(filepath.Join(r.o.Dir, stateFile), append(data, '\n'), 0o644)
}

// saveSpent adds the current step's time to the state and saves it.
func (r *run) saveSpent() {
	now := time.Now()
	r.st.Spent[r.cur] += now.Sub(r.curFrom).Seconds()
	r.curFrom = now
	_ = r.save()
}

// elapsed is the run's time so far, earlier parts included.
func (r *run) elapsed() time.Duration {
	s := 0.0
	for _, v := range r.st.Spent {
		s += v
	}
	return time.Duration(s*float64(time.Second)) + time.Since(r.curFrom)
}

func (r *run) budget() time.Duration { return time.Duration(r.st.Budget * float64(time.Second)) }

// left estimates the time the run still needs.
func (r *run) left(done, total int) time.Duration {
	el := r.elapsed()
	if r.st.Plan == nil {
		// Before the plan the budget is the estimate.
		return max(r.budget()-el, 0)
	}
	p := r.st.Plan
	rest := 0.0
	stepFrac := 1.0
	if total > 0 {
		stepFrac = 1 - float64(done)/float64(total)
	}
	switch r.cur {
	case "ports":
		rest = stepFrac*float64(p.PortMixes)*p.MixSeconds + float64(p.FitMixes)*p.MixSeconds
	case "fit":
		rest = stepFrac * float64(p.FitMixes) * p.MixSeconds
	case "revalidate":
		rest = stepFrac * p.Revalidate
	}
	if (r.cur == "ports" || r.cur == "fit") && !r.st.Done["revalidate"] {
		rest += p.Revalidate
	}
	if !r.st.Done["build"] {
		est := buildFixed + float64(p.PortMixes+p.FitMixes)*buildPerMix + p.LoadSeconds
		if r.cur == "build" {
			// What the build has spent so far comes off its estimate.
			est = max(est-r.st.Spent["build"]-time.Since(r.curFrom).Seconds(), 0)
		}
		rest += est
	}
	if !r.st.Done["predict"] {
		rest += predictFixed
	}
	return time.Duration(rest * float64(time.Second))
}

func (r *run) progress(done, total int, what string) {
	if r.o.Progress != nil {
		idx := 0
		for i, s := range Steps {
			if s == r.cur {
				idx = i + 1
			}
		}
		r.o.Progress(Status{Step: r.cur, Index: idx, Count: len(Steps), Done: done, Total: total, What: what,
			Elapsed: r.elapsed(), Left: r.left(done, total), Budget: r.budget()})
	}
	if time.Since(r.lastSave) > 10*time.Second {
		r.saveSpent()
	}
}

func (r *run) noteOf(step string) string {
	if n := r.st.Notes[step]; n != "" {
		return " (" + n + ")"
	}
	return ""
}

func (r *run) stepIntro(step string) string {
	switch step {
	case "sweep":
		return fmt.Sprintf("latency and throughput of %d forms", len(r.forms))
	case "kernels":
		return fmt.Sprintf("measuring %d kernels", len(r.o.Kernels))
	case "validation":
		return fmt.Sprintf("a validation draw of %d random mixes (never fitted)", r.o.ValidationMixes)
	case "ports":
		if p := r.st.Plan; p != nil {
			return fmt.Sprintf("port-conflict mixes of %d of %d forms (%d mixes)", p.PortsForms, p.AllForms, p.PortMixes)
		}
	case "fit":
		if p := r.st.Plan; p != nil {
			return fmt.Sprintf("a fit draw of %d random mixes", p.FitMixes)
		}
	case "revalidate":
		return fmt.Sprintf("the validation draw again, keeping each mix's fastest (%d random mixes)", r.o.ValidationMixes)
	case "build":
		if r.base != nil {
			return "the model, from " + r.base.Label()
		}
		return "the model, from the measurements alone"
	case "evaluate":
		return "predicting the validation draw"
	case "predict":
		return "predicting the kernels"
	case "install":
		return "writing the model"
	}
	return ""
}

// sweepOptions are the options every measuring step shares.
func (r *run) sweepOptions(forms []*isa.Form) sweep.Options {
	o := r.o
	return sweep.Options{
		Forms: forms, Out: filepath.Join(o.Dir, resultsFile), Resume: true, Measure: o.Measure,
		KeepNoisy: true, Lean: true, LoadOpPasses: 3, MemoryPasses: 3, MemoryRounds: 2, CPUName: o.Host.Microarch, HostSig: o.Host.Signature(), HostInfo: o.HostInfo, Has: o.Host.Has,
		Progress: func(done, total int, cur string) { r.progress(done, total, cur) },
		Stop:     r.behind,
	}
}

// behind says whether the run fell so far behind its plan that measuring
// more mixes would break the budget: the time spent plus what the build
// and the predictions need is past the budget by a tenth.
func (r *run) behind() bool {
	if r.st.Plan == nil || (r.cur != "ports" && r.cur != "fit") {
		return false
	}
	p := r.st.Plan
	need := buildFixed + float64(p.PortMixes+p.FitMixes)*buildPerMix + predictFixed + 2*p.LoadSeconds
	return r.elapsed().Seconds()+need > 1.1*r.st.Budget
}

// measure runs one measuring step's sweep and counts its benchmarks.
func (r *run) measure(so sweep.Options) error {
	_, err := r.measureSum(so)
	return err
}

// measureSum is measure, returning the sweep's summary (nil when the
// sweep had nothing to do or stopped).
func (r *run) measureSum(so sweep.Options) (*sweep.Summary, error) {
	sum, err := sweep.Run(r.o.Engine, so)
	if errors.Is(err, sweep.ErrStopped) {
		r.st.Cut = true
		r.st.Notes[r.cur] = "cut short: the run fell behind its plan"
		err = nil
	}
	if err != nil {
		return nil, err
	}
	if sum != nil {
		r.st.Counts[r.cur] += sum.Benchmarks
		if sum.StillNoisy > 0 {
			r.st.Notes[r.cur] = fmt.Sprintf("%d of %d results noisy (not converged)", sum.StillNoisy, sum.Benchmarks)
		}
	}
	return sum, nil
}

func (r *run) sweep() error {
	so := r.sweepOptions(r.forms)
	so.Latency, so.Throughput = true, true
	// Second chances for noisy results while the sweep is within its
	// share of the budget; one round.
	so.NoisyRounds = 1
	so.NoisyUntil = time.Now().Add(time.Duration(sweepShare*r.st.Budget*float64(time.Second)) - r.elapsed())
	return r.measure(so)
}

// sweepShare is the part of the budget after which the sweep gives noisy
// results no more second chances.
const sweepShare = 0.45

func (r *run) kernels() error {
	ks := r.o.Kernels
	if len(ks) == 0 {
		r.st.Notes["kernels"] = "no kernels given"
		return nil
	}
	meas := validate.Measure(r.o.Engine, ks, measure.Options{Reps: 21, Passes: 5, MaxPasses: 9, LowerQuartilePass: true})
	r.st.Kernels = nil
	for i, m := range meas {
		km := kernelMeasurement{Name: ks[i].Name, Cycles: m.Cycles, Min: m.Min, Max: m.Max, Clean: m.Clean, Reps: m.Reps, Warnings: m.Warnings}
		if m.Err != nil {
			km.Err = m.Err.Error()
		}
		r.st.Kernels = append(r.st.Kernels, km)
	}
	r.st.Counts["kernels"] = len(ks)
	return nil
}

// mixOptions are sweepOptions for mixes. A model is fitted and judged on
// mixes at the 10 % level, so a mix needs less certainty than a form's
// own numbers: its estimate may be 1 % unsure, it gets one more job when
// it is not, and no second chance at the end. On a host whose neighbour
// keeps the throughput canary a few percent slow that is what makes a mix
// cost milliseconds rather than tens of them.
func (r *run) mixOptions(forms []*isa.Form) sweep.Options {
	so := r.sweepOptions(forms)
	so.Measure.RelTol, so.Measure.AbsTol = mixTolerance, 2*mixTolerance/10
	so.Measure.MaxRetries = 1
	so.NoisyRounds = -1
	return so
}

// revalidateShare is how many times the validation step's time the
// plan keeps for its second round after the fit mixes, when the
// neighbour has had half an hour to change: on the Zen 3 guest
// (2026-11-28) the second round took 3.1 times the first (1 min 12 s
// and 23 s) and 5.0 times (2 min 21 s and 28 s).
const revalidateShare = 4.0

// mixTolerance is the relative uncertainty a mix's estimate may have.
const mixTolerance = 0.01

// validation measures the validation draw twice over: first by the mixes'
// looser rule, which prices a mix for the plan, then the mixes that came
// out noisy again by the sweep's rule, with a second chance. The draw
// judges the model, and a judge read slow by the neighbour understates
// it: on the Emerald Rapids guest a draw measured by the looser rule in a
// busy stretch scored 67.2 % within 10 %, a fresh draw measured by the
// sweep's rule an hour later 87.0 % with the same model.
func (r *run) validation() error {
	before := r.o.Engine.Stats
	t0 := time.Now()
	var wall float64
	var st measure.EngineStats
	var n0 int
	again, err := r.measureDraw(1, func() {
		wall, st, n0 = time.Since(t0).Seconds(), r.o.Engine.Stats, r.st.Counts["validation"]
	})
	if err != nil {
		return err
	}
	r.st.Counts["validation"] = n0
	strictNote := ""
	if again != nil && again.Benchmarks > 0 {
		strictNote = fmt.Sprintf("; %d noisy mixes measured again by the sweep's rule (%d still noisy)", again.Benchmarks, again.StillNoisy)
	}
	engine := (st.Running + st.Waiting + st.Assembling - before.Running - before.Waiting - before.Assembling).Seconds()
	n := r.st.Counts["validation"]
	mixCost, load := 0.0, 0.0
	if n > 0 {
		// The engine's time per mix, plus a tenth for generating and
		// writing them; the rest of the step is reading the results.
		mixCost = 1.1 * engine / float64(n)
		load = max(wall-1.1*engine, 0)
	} else {
		// Resumed after the draw was measured: the sweep's rate stands in.
		mixCost = r.st.Spent["sweep"] / float64(max(r.st.Counts["sweep"], 1))
		load = 2
	}
	r.ordered = PortsOrder(r.forms)
	r.counts = portMixCounts(r.ordered, r.o.Host.Has)
	// The draw's second round (revalidate) is kept off the mixes' time:
	// revalidateShare times what this step took.
	second := revalidateShare * time.Since(t0).Seconds()
	if n == 0 {
		second = revalidateShare * float64(r.o.ValidationMixes) * mixCost
	}
	left := r.st.Budget - r.elapsed().Seconds()
	p := MakePlan(left-second, mixCost, load, r.counts)
	p.Left, p.Revalidate = left, second
	r.st.Plan = &p
	r.st.Notes["validation"] = fmt.Sprintf("%.1f ms a mix; %v left for %d port-conflict mixes (%d of %d forms) and %d fit mixes%s",
		1000*mixCost, time.Duration(left*float64(time.Second)).Round(time.Second), p.PortMixes, p.PortsForms, p.AllForms, p.FitMixes, strictNote)
	return nil
}

func (r *run) ports() error {
	p := r.st.Plan
	if p == nil || p.PortsForms == 0 {
		r.st.Notes["ports"] = "no time left for port-conflict mixes"
		return nil
	}
	if r.ordered == nil {
		r.ordered = PortsOrder(r.forms)
	}
	so := r.mixOptions(r.ordered[:p.PortsForms])
	so.Ports = true
	return r.measure(so)
}

func (r *run) fit() error {
	p := r.st.Plan
	if p == nil || p.FitMixes == 0 || r.st.Cut {
		if r.st.Cut {
			r.st.Notes["fit"] = "skipped: the run fell behind its plan"
		} else {
			r.st.Notes["fit"] = "no time left for fit mixes"
		}
		return nil
	}
	so := r.mixOptions(r.forms)
	so.Throughput, so.RandomMixes, so.MixSeed, so.FitMixes = true, p.FitMixes, fitSeed, true
	return r.measure(so)
}

// revalidate measures the validation draw a second time after the
// port-conflict and fit mixes (ten minutes and more after the first), as
// the validation step did, and the draw keeps each mix's fastest result
// of equal standing (results.KeepFastest): noise only adds time, and the
// neighbour's busy stretches last seconds to minutes. On the Zen 3 guest
// the fastest of two measurements of a 400-mix draw a few minutes apart
// put 46.0 % of it within 10 % where one put 42.5 % (docs/benchmarks.md,
// "characterize"). A run that fell behind its plan skips it.
func (r *run) revalidate() error {
	if r.st.Cut {
		r.st.Notes["revalidate"] = "skipped: the run fell behind its plan"
		return nil
	}
	again, err := r.measureDraw(2, nil)
	if err == nil && again != nil && again.Benchmarks > 0 {
		r.st.Notes["revalidate"] = fmt.Sprintf("%d mixes noisy in both rounds measured again by the sweep's rule (%d still noisy)", again.Benchmarks, again.StillNoisy)
	}
	return err
}

// measureDraw measures the validation draw as its round (1: the first;
// later rounds measure every mix again, Extra.Round): by the mixes'
// looser rule, then by the sweep's rule, with a second chance, the mixes
// whose results are all noisy. between, when set, runs between the two;
// the second's summary is returned.
func (r *run) measureDraw(round int, between func()) (*sweep.Summary, error) {
	draw := func(so sweep.Options) sweep.Options {
		so.Throughput, so.RandomMixes, so.MixSeed = true, r.o.ValidationMixes, validationSeed
		if round > 1 {
			so.AgainKind, so.AgainRound = modeldb.RandomMixKind, round
		}
		return so
	}
	if err := r.measure(draw(r.mixOptions(r.forms))); err != nil {
		return nil, err
	}
	if between != nil {
		between()
	}
	strict := draw(r.sweepOptions(r.forms))
	strict.MeasureNoisyKind, strict.NoisyRounds = modeldb.RandomMixKind, 1
	return r.measureSum(strict)
}

// load reads the results file once and collects its measurements; the
// results themselves are not kept (on the Zen 4 guest a 30-minute run's
// 833 MB file decodes to about 700 MB of results, 280 MB of
// measurements).
func (r *run) load() error {
	if r.ms != nil {
		return nil
	}
	bs, err := results.ReadFile(filepath.Join(r.o.Dir, resultsFile))
	if err != nil {
		return err
	}
	r.repeat = modeldb.RepeatOf(bs, 0.10)
	r.ms = modeldb.CollectMeasurements(results.Cleanest(bs), modeldb.CollectOptions{})
	return nil
}

func (r *run) build() error {
	if err := r.load(); err != nil {
		return err
	}
	ms := r.ms
	h := r.o.Host
	// buildFrom builds from a base; stop, when set, may give the build up
	// (modeldb.ErrBuildStopped).
	buildFrom := func(base *modeldb.Model, stop func() bool) (*modeldb.Model, *modeldb.BuildReport, error) {
		return modeldb.Build(ms, modeldb.BuildOptions{
			Name:    fmt.Sprintf("measured by portlab characterize on %s (%s)", h.Microarch, h.Signature()),
			LLVMCPU: h.Microarch, Base: base, Sources: []string{resultsFile},
			From:  "portlab characterize --budget " + r.o.Budget.String(),
			Infer: modeldb.InferOptions{Progress: func(what string, done, total int) { r.progress(done, total, what) }, Stop: stop},
		})
	}
	start := time.Now()
	m, rep, err := buildFrom(r.base, nil)
	if err != nil {
		return err
	}
	first := time.Since(start)
	summary := rep.Summary(10)
	all := []built{{label: baseLabel(r.base), m: m, rep: rep}}
	others, gaveUp, err := r.competing(first, buildFrom)
	if err != nil {
		return err
	}
	all = append(all, others...)
	// A model measured before competes last, as it stands: a rebuild
	// replaces it only predicting more of the validation draw
	// (chooseBuild). On a Zen 4 guest without AVX-512 (AuthenticAMD-19-11-1,
	// 2026-11-30) the rebuild of the embedded model took a dispatch width
	// of 7 and put 58.8 % of the draw within 10 %, the embedded model
	// 62.3 % (p = 0.035; the pass "dispatch width" now keeps 6 there).
	if measuredBase(r.base) && r.o.Base == nil {
		all = append(all, keptCandidate(r.base, ms.Mixes, ms.RandomMixes))
	}
	givenUp := ""
	if len(gaveUp) > 0 {
		r.st.Notes["build"] = "gave up the build from " + joinAnd(gaveUp) + " at the budget"
		givenUp = "; gave up the build from " + joinAnd(gaveUp) + ", which would have run past the budget"
	}
	switch {
	case len(all) == 1 && givenUp != "":
		r.rep.Bases = "built from " + baseLabel(r.base) + givenUp
		summary = r.rep.Bases + "\n" + summary
	case len(all) > 1:
		best, bases := chooseBuild(all, ms.RandomMixes)
		m = all[best].m
		r.rep.Bases = bases + givenUp
		if all[best].asIs {
			// Kept as it stands, it takes the kinds of latency this run
			// measured that it lacks (modeldb.Model.AddLatencies), from
			// the build of the same measurements; its ports stay.
			source := "portlab characterize on " + h.Signature()
			if pv := all[0].m.Provenance; pv != nil && pv.Date != "" {
				source += ", " + pv.Date
			}
			var took string
			m, took = asItStands(m, all[0].m, source)
			r.rep.Bases += took
			// The build from it stays on record in the build report.
			summary = r.rep.Bases + "\nthe build from " + all[0].label + ", not kept:\n" + all[0].rep.Summary(10)
		} else {
			summary = r.rep.Bases + "\n" + all[best].rep.Summary(10)
		}
	}
	if err := m.SaveWith(filepath.Join(r.o.Dir, modelFile), modeldb.MarshalOptions{Compact: true}); err != nil {
		return err
	}
	if err := fsutil.WriteFileAtomic(filepath.Join(r.o.Dir, buildFile), []byte(summary), 0o644); err != nil {
		return err
	}
	r.model = m
	return nil
}

// chooseBuild keeps one of the builds by their predictions of the
// validation draw (keepBuild), and says in words what each predicted and
// why the kept one stands. The base as it stands, where it competes (a
// model measured before), then stays unless the kept build predicts more
// of the draw: a rerun of characterize on a host with a measured model
// gives a model no worse on the run's own held-out draw than the one it
// had. A draw of 400 tells them apart only by a sign test's few mixes,
// and with the sign test alone a worse rebuild within chance replaced a
// measured model: on the Zen 3 guest (AuthenticAMD-19-1-1, 2026-12-02,
// three of four mixes noisy) the rebuild put 44.5 % of its draw within
// 10 %, the embedded model 48.0 % (p = 0.07), and the kernels read MAPE
// 4.7 % and tau-b 0.932 against 4.3 % and 0.945.
func chooseBuild(all []built, draw []*modeldb.MixMeasurement) (best int, bases string) {
	var parts []string
	against := ""
	var builds []int
	asIs := -1
	within := make([][]bool, len(all))
	count := make([]int, len(all))
	for i, b := range all {
		ev := modeldb.EvaluateMixMeasurements(b.m, draw, 0.10)
		within[i], count[i] = ev.WithinEach(len(draw)), ev.Within
		score := fmt.Sprintf(" (%.1f %% of the %d validation mixes within 10 %%)", 100*ev.Fraction(), ev.N)
		if b.asIs {
			against = ", against " + b.name() + score
			asIs = i
			continue
		}
		builds = append(builds, i)
		parts = append(parts, "from "+b.label+score)
	}
	ws := make([][]bool, len(builds))
	for k, i := range builds {
		ws[k] = within[i]
	}
	k, why := keepBuild(ws)
	best = builds[k]
	reason := why(func(k int) string { return all[builds[k]].name() })
	if asIs >= 0 {
		if count[best] > count[asIs] {
			reason = joinReasons(reason, fmt.Sprintf("it predicts %d of the draw within 10 %%, %s %d", count[best], all[asIs].name(), count[asIs]))
		} else {
			reason = joinReasons(reason, fmt.Sprintf("%s predicts %d of the draw within 10 %%, %s %d: a rebuild replaces a measured model only predicting more", all[asIs].name(), count[asIs], all[best].name(), count[best]))
			best = asIs
		}
	}
	return best, "built " + joinAnd(parts) + against + ": kept " + all[best].name() + reason
}

// joinReasons adds a clause to keepBuild's parenthesis of reasons.
func joinReasons(reason, clause string) string {
	if reason == "" {
		return " (" + clause + ")"
	}
	return strings.TrimSuffix(reason, ")") + "; " + clause + ")"
}

// built is one build of the build step: its base's label, the model and
// its report; asIs marks the base itself, which competes as it stands
// (no report), loads how many of its loads took their register forms'
// ports (keptCandidate).
type built struct {
	label string
	m     *modeldb.Model
	rep   *modeldb.BuildReport
	asIs  bool
	// loads and groups are what the builder's rules changed in a base
	// as it stands: loads on their register forms' ports, memory forms
	// whose memory groups moved (keptCandidate).
	loads, groups int
}

// name is the build in words: "the build from BASE", or the base as it
// stands.
func (b built) name() string {
	if !b.asIs {
		return "the build from " + b.label
	}
	var rules []string
	switch {
	case b.groups == 1:
		rules = append(rules, "1 memory form's memory groups by width")
	case b.groups > 1:
		rules = append(rules, fmt.Sprintf("%d memory forms' memory groups by width", b.groups))
	}
	switch {
	case b.loads == 1:
		rules = append(rules, "its 1 load on its register form's ports")
	case b.loads > 1:
		rules = append(rules, fmt.Sprintf("its %d loads on their register forms' ports", b.loads))
	}
	if len(rules) == 0 {
		return b.label + " as it stands"
	}
	return b.label + " as it stands (" + strings.Join(rules, ", ") + ")"
}

// keptCandidate is a measured base as it competes as it stands: with the
// builder's rules for memory forms applied to it where that predicts more
// of the validation draw, else unchanged: first the memory groups the
// run's mixes of plain loads and stores with each other move
// (modeldb.Model.MemoryGroupMoves, the pass "memory groups by width"),
// then every form that reads memory takes its register form's ports
// (modeldb.Model.LoadsFromRegisterForms, the pass "loads from their
// register forms"). A model measured before a rule keeps what the mixes
// of its time gave it: the Zen 5 guest's embedded model
// (AuthenticAMD-1a-2-1, 2026-12-02) predicted its run's draw 64.5 %
// within 10 % as it stood and 69.5 % with the loads rule.
func keptCandidate(base *modeldb.Model, mixes, draw []*modeldb.MixMeasurement) built {
	b := built{label: baseLabel(base), m: base, asIs: true}
	ruled := base.Clone()
	g := ruled.MoveMemoryGroups(ruled.MemoryGroupMoves(mixes))
	n := ruled.LoadsFromRegisterForms(nil)
	if n == 0 && g == 0 {
		return b
	}
	if modeldb.EvaluateMixMeasurements(ruled, draw, 0.10).Within > modeldb.EvaluateMixMeasurements(base, draw, 0.10).Within {
		b.m, b.loads, b.groups = ruled, n, g
	}
	return b
}

// measuredBase says whether a base is a model portlab measured (not an
// imported LLVM or OSACA one), which a run may keep as it stands.
func measuredBase(m *modeldb.Model) bool {
	return m != nil && m.Provenance != nil && m.Provenance.Source == modeldb.SourceMeasured
}

// competing builds the models of the other bases (otherBases) where the
// budget allows: each counted at its cost in first builds (what the build
// from the run's own base took) and one more for margin, and given up
// (gaveUp, by label) where it would run past the budget less what the
// evaluation and the predictions need (build gives stop to
// modeldb.InferOptions.Stop). On the Zen 4 guest, with the neighbour
// busy, the build from no base took seven times the first, not the four
// its cost says, and the run 32 minutes of a 30-minute budget. The
// validation draw (never fitted) then decides which build to keep
// (keepBuild).
func (r *run) competing(first time.Duration, build func(base *modeldb.Model, stop func() bool) (*modeldb.Model, *modeldb.BuildReport, error)) (out []built, gaveUp []string, err error) {
	for _, alt := range r.otherBases() {
		if r.elapsed()+time.Duration((alt.cost+1)*float64(first)) >= r.budget() {
			continue
		}
		m, rep, err := build(alt.m, func() bool { return r.elapsed().Seconds()+predictFixed >= r.st.Budget })
		if errors.Is(err, modeldb.ErrBuildStopped) {
			gaveUp = append(gaveUp, baseLabel(alt.m))
			continue
		}
		if err != nil {
			return nil, nil, err
		}
		out = append(out, built{label: baseLabel(alt.m), m: m, rep: rep})
	}
	return out, gaveUp, nil
}

// keepBuild picks, of builds that predict the same validation draw
// (within[i][k]: build i predicts mix k within 10 %), the one to keep:
// the first (the run's own base), unless a later one predicts more of
// the draw beyond chance, by the one-sided sign test on the mixes only
// one of the two predicts (McNemar's test) at keepP; a later one then
// takes its place and the next must beat it. A draw of 400 mixes
// separates builds only by a few mixes: on the Zen 4 guest the build
// from no base predicted 78.5 % of one run's draw and 77.5 % of a fresh
// one where the build from LLVM 14's znver3 predicted 77.8 % and 77.2 %,
// yet its kernels came out worse (MAPE 3.7 % against 3.4 %, tau-b 0.932
// against 0.940), 22 of its 32 ports abstract and its groups crossing
// the integer and FP units (adc al, imm8 on ten ports, a load port and
// three FP pipes among them; docs/benchmarks.md, "Which build to
// keep"). why says in words why the kept one stands (labels names the
// builds: "the build from ...").
func keepBuild(within [][]bool) (best int, why func(labels func(int) string) string) {
	type duel struct {
		i int
		modeldb.Paired
	}
	var kept, lost []duel
	for i := 1; i < len(within); i++ {
		d := duel{i, modeldb.PairOutcomes(within[i], within[best])}
		if d.OnlyA > d.OnlyB && d.P < keepP {
			best = i
			kept = append(kept, d)
		} else {
			lost = append(lost, d)
		}
	}
	return best, func(labels func(int) string) string {
		var out []string
		for _, d := range kept {
			out = append(out, fmt.Sprintf("%s predicts %d mixes within 10 %% that the one before it misses and misses %d it predicts, p = %.3f by the sign test", labels(d.i), d.OnlyA, d.OnlyB, d.P))
		}
		for _, d := range lost {
			if d.OnlyA > d.OnlyB {
				out = append(out, fmt.Sprintf("%s %d against %d, p = %.2f: within chance, the one before it stands", labels(d.i), d.OnlyA, d.OnlyB, d.P))
			}
		}
		if len(out) == 0 {
			return ""
		}
		return " (" + strings.Join(out, "; ") + ")"
	}
}

// keepP is the sign test's p-value below which a later build replaces an
// earlier one.
const keepP = 0.05

// altBase is a base another build starts from (m nil: no base), and its
// expected cost in builds from the first base.
type altBase struct {
	m    *modeldb.Model
	cost float64
}

// otherBases are the bases that compete with the run's own, best first:
// from a model measured before (not one --base named), the imported LLVM
// model nearest the host, which carries none of the earlier runs'
// mappings, then no base at all; from an imported model, no base. A base
// can hold the fit back more than it helps: on the Zen 4 guest the same
// measurements built from no base predict 77.8 % of a fresh draw of 400
// mixes within 10 %, from the embedded model 75.5 %, from LLVM 14's
// znver3 76.2 %, from its sapphirerapids 56.5 % (docs/benchmarks.md,
// "Bases"). A build from no base opens its ports from the mixes and takes
// about four times as long (6 min 55 s against 1 min 43 s from znver3
// there): it is counted as four.
func (r *run) otherBases() []altBase {
	if r.o.Base != nil || r.base == nil {
		return nil
	}
	if r.base.Provenance != nil && r.base.Provenance.Source == modeldb.SourceMeasured {
		if m := modeldb.ImportedNearest(r.o.Host.Microarch); m != nil {
			return []altBase{{m, 1}, {nil, 4}}
		}
	}
	return []altBase{{nil, 4}}
}

// baseLabel names a build's base in the build report.
func baseLabel(m *modeldb.Model) string {
	if m == nil {
		return "no base"
	}
	return m.Label()
}

// joinAnd joins phrases as "a, b and c".
func joinAnd(parts []string) string {
	if len(parts) < 2 {
		return strings.Join(parts, "")
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
}

// loadModel reads the built model (a resumed run past the build).
func (r *run) loadModel() error {
	if r.model != nil {
		return nil
	}
	m, err := modeldb.LoadFile(filepath.Join(r.o.Dir, modelFile), modeldb.LoadOptions{})
	if err != nil {
		return err
	}
	r.model = m
	return nil
}

func (r *run) evaluate() error {
	if err := r.loadModel(); err != nil {
		return err
	}
	if err := r.load(); err != nil {
		return err
	}
	if b, err := os.ReadFile(filepath.Join(r.o.Dir, buildFile)); err == nil {
		r.rep.Build = string(b)
	}
	// The draw is collected once and scored by both predictors of both
	// models.
	draw := r.ms.RandomMixes
	score := func(label string, m *modeldb.Model) error {
		mr := modeldb.EvaluateMixMeasurements(m, draw, 0.10)
		sim, err := analysis.MixSimulator(m)
		if err != nil {
			return err
		}
		sr := modeldb.EvaluateMixMeasurementsWith(m, draw, 0.10, analysis.MixSimulatorName, sim)
		ms := MixScore{Model: label, N: mr.N, Within: mr.Fraction(), Simulated: sr.Fraction()}
		for _, k := range sr.ByMemory {
			ms.ByMemory = append(ms.ByMemory, MemoryScore{Kind: k.Group, N: k.N, Within: float64(k.Within) / float64(k.N), Median: k.Median})
		}
		r.rep.Mixes = append(r.rep.Mixes, ms)
		return nil
	}
	r.rep.DrawRepeat = r.repeat
	if err := score("portlab "+r.o.Host.Microarch+" (this run)", r.model); err != nil {
		return err
	}
	if r.base != nil {
		return score(r.base.Label()+" (base)", r.base)
	}
	return nil
}

func (r *run) predict() error {
	if err := r.loadModel(); err != nil {
		return err
	}
	ks := r.o.Kernels
	if len(ks) == 0 || len(r.st.Kernels) != len(ks) {
		return nil
	}
	meas := make([]validate.Measured, len(ks))
	for i, km := range r.st.Kernels {
		if km.Name != ks[i].Name {
			return fmt.Errorf("the kernels measured (%s, ...) are not these (%s, ...): start over with --fresh", km.Name, ks[i].Name)
		}
		meas[i] = validate.Measured{Cycles: km.Cycles, Min: km.Min, Max: km.Max, Clean: km.Clean, Reps: km.Reps, Warnings: km.Warnings}
		if km.Err != "" {
			meas[i].Err = errors.New(km.Err)
		}
	}
	preds := []validate.Predictor{&validate.Portlab{Label: "portlab (this run)", Model: r.model}}
	if r.base != nil {
		preds = append(preds, &validate.Portlab{Label: "portlab " + strings.Trim(r.base.Label(), `"`) + " (base)", Model: r.base})
	}
	preds = append(preds, r.o.Peers...)
	vr := validate.Build(ks, meas, preds, r.rep.Host)
	vr.Date = r.st.Started
	vr.Command = r.o.Command
	r.rep.KernelReport = vr
	r.rep.Kernels = vr.Scores
	return nil
}

func (r *run) install() error {
	if err := r.loadModel(); err != nil {
		return err
	}
	var to []string
	if r.o.Install {
		p, err := modeldb.UserModelPath(r.o.Host.Signature())
		if err != nil {
			return err
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		to = append(to, p)
	}
	to = append(to, r.o.Outputs...)
	for _, p := range to {
		if err := r.model.SaveWith(p, modeldb.MarshalOptions{Compact: true}); err != nil {
			return err
		}
	}
	sort.Strings(to)
	r.rep.Installed = to
	return nil
}

// asItStands is the measured model kept as it stands: a copy of it with
// the operand latencies the build from this run's measurements lists and
// it lacks (modeldb.Model.AddLatencies; source names the run), and the
// clause the report adds where there were any. On the Zen 5 guest the
// embedded model kept so had no flags->flags pairs, measured since: the
// shifts by cl waited for the flags in its simulation (16 shl r64, cl on
// 8 registers 16.00 cycles, measured 5.37).
func asItStands(kept, build *modeldb.Model, source string) (*modeldb.Model, string) {
	m := kept.Clone()
	pairs, forms := m.AddLatencies(build, source)
	if pairs == 0 {
		return m, ""
	}
	latencies, of := "operand latencies", "forms"
	if pairs == 1 {
		latencies = "operand latency"
	}
	if forms == 1 {
		of = "form"
	}
	return m, fmt.Sprintf("; it takes the %d %s of %d %s this run measured that it lacked", pairs, latencies, forms, of)
}
