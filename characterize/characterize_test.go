package characterize

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"portlab/analysis/input"
	"portlab/hostcpu"
	"portlab/isa"
	"portlab/measure"
	"portlab/modeldb"
	"portlab/results"
	"portlab/sweep"
	"portlab/validate"
)

func TestMakePlan(t *testing.T) {
	counts := []int{10, 10, 10, 10} // 40 port mixes in all
	// Time for everything: every form's port mixes, the rest fit mixes.
	p := MakePlan(1000, 0.01, 1, counts)
	if p.PortsForms != 4 || p.PortMixes != 40 {
		t.Errorf("plenty of time: %d forms, %d mixes; want all 4, 40", p.PortsForms, p.PortMixes)
	}
	spend := 1000.0 - buildFixed - predictFixed - 3
	want := int(spend/(0.01+buildPerMix)) - 40
	if p.FitMixes != min(want, maxFitMixes) {
		t.Errorf("fit mixes %d, want %d", p.FitMixes, min(want, maxFitMixes))
	}
	if s := p.Seconds(); s > 1000 {
		t.Errorf("the plan needs %.0f s of the 1000 it had", s)
	}
	// Little time: port mixes take at most their share, whole forms only.
	many := make([]int, 1000)
	for i := range many {
		many[i] = 13
	}
	p = MakePlan(buildFixed+predictFixed+3+100*(0.01+buildPerMix), 0.01, 1, many)
	if p.PortMixes > int(portsShare*100) || p.PortMixes%13 != 0 || p.PortsForms != p.PortMixes/13 {
		t.Errorf("100 mixes of time: %d port mixes of %d forms", p.PortMixes, p.PortsForms)
	}
	if p.PortMixes+p.FitMixes > 100 {
		t.Errorf("100 mixes of time: %d + %d planned", p.PortMixes, p.FitMixes)
	}
	// No time: nothing.
	if p := MakePlan(10, 0.01, 1, many); p.PortMixes != 0 || p.FitMixes != 0 {
		t.Errorf("no time: %+v", p)
	}
}

func TestPortsOrder(t *testing.T) {
	var forms []*isa.Form
	names := []string{"vaddpd zmm {k}, zmm, zmm", "add r64, m64", "vaddpd zmm, zmm, zmm", "add r64, r64", "lea r64, m", "vaddpd ymm, ymm, ymm", "vmovups m256, ymm", "mov r64, m64"}
	for _, n := range names {
		f, ok := isa.Lookup(n)
		if !ok {
			t.Fatalf("no form %q", n)
		}
		forms = append(forms, f)
	}
	got := PortsOrder(forms)
	tier := map[string]int{}
	for _, f := range got {
		tier[f.Name()] = portsTier(f)
	}
	want := map[string]int{"vmovups m256, ymm": -1, "mov r64, m64": -1, "add r64, r64": 0, "vaddpd ymm, ymm, ymm": 0, "lea r64, m": 0, "vaddpd zmm, zmm, zmm": 1, "add r64, m64": 2, "vaddpd zmm {k}, zmm, zmm": 3}
	for n, w := range want {
		if tier[n] != w {
			t.Errorf("%s: tier %d, want %d", n, tier[n], w)
		}
	}
	for i := 1; i < len(got); i++ {
		if portsTier(got[i-1]) > portsTier(got[i]) {
			t.Errorf("order %s before %s", got[i-1].Name(), got[i].Name())
		}
	}
	// The order is the same on every run.
	again := PortsOrder(forms)
	for i := range got {
		if got[i] != again[i] {
			t.Fatal("PortsOrder is not deterministic")
		}
	}
}

// A run interrupted after a step and resumed finishes without measuring
// again what it had, and a finished run resumed rebuilds the same model.
func TestInterruptedRunResumes(t *testing.T) {
	if _, err := exec.LookPath("as"); err != nil {
		t.Skip("GNU as not installed")
	}
	eng, info, err := measure.NewHostEngine(-1)
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	forms, err := sweep.Select([]string{"add r64, r64", "imul r64, r64", "shl r64, imm8", "vaddpd ymm, ymm, ymm", "vpaddd ymm, ymm, ymm", "add m64, imm8"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	ks, err := validate.Load([]string{"../testdata/kernels/int_add_chain.s", "../testdata/kernels/imul_indep.s"}, input.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("PORTLAB_MODEL_DIR", t.TempDir())
	dir := t.TempDir()
	out := filepath.Join(t.TempDir(), "m.yml")
	o := Options{Engine: eng, Host: info, Budget: time.Minute, Dir: dir, Forms: forms, Kernels: ks, ValidationMixes: 20,
		Install: true, Outputs: []string{out}, Measure: measure.Options{MaxRetries: 1, RetryBackoff: time.Millisecond}, stopAfter: "validation", Log: testLog{t}}
	if _, err := Run(o); !errors.Is(err, errInterrupted) {
		t.Fatalf("first part: %v, want the interruption", err)
	}
	// The sweep measures an integer memory form's throughput in three
	// passes, as bench does (--memory-passes).
	res, err := results.ReadFile(filepath.Join(dir, resultsFile))
	if err != nil {
		t.Fatal(err)
	}
	var passes []int
	for _, r := range res {
		if r.Portlab != nil && r.Portlab.Form == "add m64, imm8" && r.Portlab.Kind == "throughput" {
			passes = append(passes, len(r.Portlab.PassMedians))
		}
	}
	if len(passes) == 0 || slices.ContainsFunc(passes, func(n int) bool { return n != 3 }) {
		t.Errorf("add m64, imm8 throughputs measured in %v passes, want 3 each", passes)
	}
	st1 := readState(t, dir)
	if !st1.Done["sweep"] || !st1.Done["validation"] || st1.Done["ports"] || st1.Plan == nil {
		t.Fatalf("state after the validation step: %+v", st1)
	}
	// Without --resume the directory is refused, naming the way on.
	o.stopAfter = ""
	if _, err := Run(o); err == nil || !strings.Contains(err.Error(), "--resume") {
		t.Fatalf("a second run without Resume: %v", err)
	}
	o.Resume = true
	building := map[string]bool{} // what the build step's progress lines said
	o.Progress = func(s Status) {
		if s.Step == "build" {
			building[s.What] = true
		}
	}
	rep, err := Run(o)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"ports from the mixes", "placing port mappings", "late forwarding"} {
		if !building[want] {
			t.Errorf("the build's progress never said %q: %v", want, building)
		}
	}
	st2 := readState(t, dir)
	for _, s := range []string{"sweep", "kernels", "validation"} {
		if st2.Counts[s] != st1.Counts[s] {
			t.Errorf("%s: %d benchmarks after resuming, %d before: measured again", s, st2.Counts[s], st1.Counts[s])
		}
	}
	if *st2.Plan != *st1.Plan {
		t.Errorf("plan changed on resuming: %+v, then %+v", st1.Plan, st2.Plan)
	}
	if st1.Plan.Revalidate <= 0 {
		t.Errorf("the plan keeps no time for the draw's second round: %+v", st1.Plan)
	}
	// The validation draw's second round: every mix measured again after
	// the fit mixes (round 2), each result keeping the fastest; or, in a
	// run that fell behind, skipped and said so.
	res, err = results.ReadFile(filepath.Join(dir, resultsFile))
	if err != nil {
		t.Fatal(err)
	}
	drawn, again := map[string]bool{}, map[string]bool{}
	for _, r := range res {
		if x := r.Portlab; x != nil && x.Kind == modeldb.RandomMixKind {
			drawn[x.ID] = true
			if x.Round == 2 {
				again[x.ID] = true
			}
			if x.Keep != results.KeepFastest {
				t.Errorf("validation mix %s: keep %q, want %q", x.ID, x.Keep, results.KeepFastest)
			}
		}
	}
	switch {
	case !st2.Done["revalidate"]:
		t.Error("the revalidate step is not done")
	case st2.Cut && !strings.Contains(st2.Notes["revalidate"], "skipped"):
		t.Errorf("a run that fell behind: revalidate note %q, want it skipped", st2.Notes["revalidate"])
	case !st2.Cut && (len(drawn) == 0 || len(again) != len(drawn)):
		t.Errorf("%d of %d validation mixes measured in a second round", len(again), len(drawn))
	}
	if len(rep.Mixes) == 0 || rep.Mixes[0].N == 0 {
		t.Errorf("no validation mixes scored: %+v", rep.Mixes)
	}
	if len(rep.Mixes) > 0 {
		n := 0
		for _, k := range rep.Mixes[0].ByMemory {
			n += k.N
		}
		if n != rep.Mixes[0].N {
			t.Errorf("the draw by memory access counts %d mixes of %d: %+v", n, rep.Mixes[0].N, rep.Mixes[0].ByMemory)
		}
	}
	if len(rep.Kernels) == 0 || rep.Kernels[0].N != 2 {
		t.Errorf("kernel scores %+v, want 2 kernels for the new model", rep.Kernels)
	}
	user, err := modeldb.UserModelPath(info.Signature())
	if err != nil {
		t.Fatal(err)
	}
	m, err := modeldb.LoadFile(user, modeldb.LoadOptions{})
	if err != nil {
		t.Fatalf("the installed model: %v", err)
	}
	if e, ok := m.Lookup("imul r64, r64"); !ok || e.Provenance == nil || e.Provenance.Source != modeldb.SourceMeasured {
		t.Errorf("installed model's imul r64, r64: %+v", e)
	}
	first, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	// Resumed once more, the finished run measures nothing and writes the
	// same model.
	if _, err := Run(o); err != nil {
		t.Fatal(err)
	}
	st3 := readState(t, dir)
	for s, n := range st2.Counts {
		if st3.Counts[s] != n {
			t.Errorf("%s: measured again in a finished run (%d, then %d)", s, n, st3.Counts[s])
		}
	}
	second, _ := os.ReadFile(out)
	if !bytes.Equal(first, second) {
		t.Error("a finished run resumed wrote another model")
	}
	var text bytes.Buffer
	WriteText(&text, rep)
	for _, want := range []string{"validation draw", "bottleneck bound", "simulated code", "kernels measured on this host", "time per step", "sweep"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, text.String())
		}
	}
}

func readState(t *testing.T, dir string) *state {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, stateFile))
	if err != nil {
		t.Fatal(err)
	}
	var st state
	if err := json.Unmarshal(data, &st); err != nil {
		t.Fatal(err)
	}
	return &st
}

type testLog struct{ t *testing.T }

func (l testLog) Write(b []byte) (int, error) {
	l.t.Log(strings.TrimRight(string(b), "\n"))
	return len(b), nil
}

// The report breaks the new model's draw down by memory access when the
// draw holds more than one kind.
func TestReportByMemory(t *testing.T) {
	rep := &Report{Host: "h", Mixes: []MixScore{{Model: "portlab znver3 (this run)", N: 3, Within: 2.0 / 3, Simulated: 2.0 / 3,
		ByMemory: []MemoryScore{{Kind: "registers only", N: 2, Within: 1, Median: 0.01}, {Kind: "loads + read-modify-writes", N: 1, Within: 0, Median: -0.2}}}}}
	var text bytes.Buffer
	WriteText(&text, rep)
	for _, want := range []string{"portlab znver3 (this run), simulated, by memory access:", "registers only", "100.0 %", "+1.0 %", "loads + read-modify-writes", "-20.0 %"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, text.String())
		}
	}
	rep.Mixes[0].ByMemory = rep.Mixes[0].ByMemory[:1]
	text.Reset()
	WriteText(&text, rep)
	if strings.Contains(text.String(), "by memory access") {
		t.Errorf("one kind broken down:\n%s", text.String())
	}
}

// A run that starts from a model measured before also builds from the
// imported LLVM model nearest the host and from no base, one that starts
// from an imported model also from no base (each where the budget allows; the validation
// draw decides which to keep, keepBuild, and the report says which); one that starts
// from the model --base named, or from none, builds once.
func TestOtherBases(t *testing.T) {
	measured, err := modeldb.Embedded("portlab-znver4.yml.gz")
	if err != nil {
		t.Fatal(err)
	}
	imported, err := modeldb.Embedded("llvm14-znver3.yml.gz")
	if err != nil {
		t.Fatal(err)
	}
	host := &hostcpu.Info{Microarch: "znver4"}
	// From a model measured before: the imported one competes, then no
	// base at four builds' cost.
	r := &run{o: Options{Host: host}, base: measured}
	if got := r.otherBases(); len(got) != 2 || got[0].m == nil || got[0].m.Label() != imported.Label() || got[0].cost != 1 || got[1].m != nil || got[1].cost != 4 {
		t.Errorf("from a measured base: other bases %+v, want %s, then no base", got, imported.Label())
	}
	// From an imported model: no base at all competes, at four builds' cost.
	r = &run{o: Options{Host: host}, base: imported}
	if got := r.otherBases(); len(got) != 1 || got[0].m != nil || got[0].cost != 4 {
		t.Errorf("from an imported base: other bases %+v, want no base", got)
	}
	// The base --base named, or none at all: nothing competes.
	r = &run{o: Options{Host: host, Base: measured}, base: measured}
	if got := r.otherBases(); len(got) != 0 {
		t.Errorf("from the base --base named: other bases %+v", got)
	}
	r = &run{o: Options{Host: &hostcpu.Info{Microarch: "generic"}}}
	if got := r.otherBases(); len(got) != 0 {
		t.Errorf("from no base: other bases %+v", got)
	}
	if got := joinAnd([]string{"from a (1 %)", "from b (2 %)", "from no base (3 %)"}); got != "from a (1 %), from b (2 %) and from no base (3 %)" {
		t.Errorf("joinAnd: %q", got)
	}
	if baseLabel(nil) != "no base" || baseLabel(imported) != imported.Label() {
		t.Error("baseLabel")
	}
	var text bytes.Buffer
	WriteText(&text, &Report{Host: "h", Base: imported.Label(), Bases: "built from a (1 %) and from no base (2 %): kept the build from no base"})
	if !strings.Contains(text.String(), "base       "+imported.Label()+"\n           built from a (1 %) and from no base (2 %): kept the build from no base\n") {
		t.Errorf("the report does not say which build was kept:\n%s", text.String())
	}
}

// moved is a build's per-mix outcomes on a validation draw: those of
// from with wins more mixes predicted within 10 % (of those from
// misses) and losses fewer (of those it predicts).
func moved(from []bool, wins, losses int) []bool {
	w := append([]bool(nil), from...)
	for k := range w {
		switch {
		case !from[k] && wins > 0:
			w[k], wins = true, wins-1
		case from[k] && losses > 0:
			w[k], losses = false, losses-1
		}
	}
	return w
}

// The first build (the run's own base) stays unless a later one predicts
// more of the validation draw beyond chance (the sign test on the mixes
// only one of them predicts); a later one that wins must then be beaten
// in turn, and the report says why the kept one stands.
func TestKeepBuild(t *testing.T) {
	labels := func(i int) string {
		return []string{"the build from base", "the build from imported", "the build from no base"}[i]
	}
	base := make([]bool, 400)
	for k := range base {
		base[k] = k%5 != 0 // 320 of 400 within 10 %
	}
	// 6 mixes ahead and 3 behind: within chance (p = 0.25).
	near := moved(base, 6, 3)
	best, why := keepBuild([][]bool{base, near})
	if best != 0 {
		t.Errorf("a build 6 mixes ahead and 3 behind replaced the base")
	}
	if s := why(labels); !strings.Contains(s, "the build from imported 6 against 3, p = 0.25: within chance, the one before it stands") {
		t.Errorf("why the base stands: %q", s)
	}
	// 25 ahead, 5 behind: kept (p < 0.001).
	far := moved(base, 25, 5)
	best, why = keepBuild([][]bool{base, near, far})
	if best != 2 {
		t.Fatalf("a build 25 mixes ahead and 5 behind was not kept (kept %d)", best)
	}
	if s := why(labels); !strings.Contains(s, "the build from no base predicts 25 mixes within 10 % that the one before it misses and misses 5 it predicts, p = 0.000") {
		t.Errorf("why the winner was kept: %q", s)
	}
	// A later build must beat the one that replaced the base, not the base.
	best, _ = keepBuild([][]bool{base, far, near})
	if best != 1 {
		t.Errorf("kept %d: the build that beat the base lost its place to one that did not beat it", best)
	}
	// Equal builds: the first stays, and nothing needs saying.
	best, why = keepBuild([][]bool{base, moved(base, 0, 0)})
	if best != 0 || why(labels) != "" {
		t.Errorf("equal builds: kept %d, %q", best, why(labels))
	}
}

// TestCompetingBuildsGiveUpAtTheBudget: the other bases' builds start
// where their cost fits the budget, and one that would run past the
// budget (less what the predictions need) is given up, the others kept.
func TestCompetingBuildsGiveUpAtTheBudget(t *testing.T) {
	measured, err := modeldb.Embedded("portlab-znver4.yml.gz")
	if err != nil {
		t.Fatal(err)
	}
	host := &hostcpu.Info{Microarch: "znver4"}
	// fake builds: the one from no base takes ten seconds a class (the
	// run's clock is its spent time) until stop says so or 30 classes.
	var started []string
	fake := func(r *run) func(*modeldb.Model, func() bool) (*modeldb.Model, *modeldb.BuildReport, error) {
		return func(base *modeldb.Model, stop func() bool) (*modeldb.Model, *modeldb.BuildReport, error) {
			started = append(started, baseLabel(base))
			if base == nil {
				for k := 0; k < 30; k++ {
					if stop() {
						return nil, nil, modeldb.ErrBuildStopped
					}
					r.st.Spent["build"] += 10
				}
			}
			return &modeldb.Model{Name: baseLabel(base)}, &modeldb.BuildReport{}, nil
		}
	}
	for _, c := range []struct {
		budget, spent, first float64
		started, kept        []string
		gaveUp               []string
	}{
		// 300 s of the no-base build's classes pass 1000 s less 20.
		{1000, 800, 10, []string{"LLVM", "no base"}, []string{"LLVM"}, []string{"no base"}},
		// Enough time for both.
		{2000, 800, 10, []string{"LLVM", "no base"}, []string{"LLVM", "no base"}, nil},
		// The first build took so long that neither starts.
		{1000, 800, 150, nil, nil, nil},
	} {
		started = nil
		r := &run{o: Options{Host: host}, base: measured, curFrom: time.Now(),
			st: &state{Budget: c.budget, Spent: map[string]float64{"sweep": c.spent}}}
		out, gaveUp, err := r.competing(time.Duration(c.first*float64(time.Second)), fake(r))
		if err != nil {
			t.Fatal(err)
		}
		var kept []string
		for _, b := range out {
			kept = append(kept, b.label)
		}
		short := func(labels []string) []string {
			var s []string
			for _, l := range labels {
				if strings.Contains(l, "LLVM") {
					l = "LLVM"
				}
				s = append(s, l)
			}
			return s
		}
		if !slices.Equal(short(started), c.started) || !slices.Equal(short(kept), c.kept) || !slices.Equal(gaveUp, c.gaveUp) {
			t.Errorf("budget %v, %v spent, first build %v s: started %q, kept %q, gave up %q; want %q, %q, %q",
				c.budget, c.spent, c.first, started, kept, gaveUp, c.started, c.kept, c.gaveUp)
		}
	}
}

// A model measured before competes with its rebuilds as it stands: a
// rebuild that predicts the validation draw worse beyond chance does not
// replace it, and the report says so; one that predicts it as well stays.
func TestChooseBuildKeepsTheBaseAsItStands(t *testing.T) {
	base, err := modeldb.Embedded("portlab-znver4.yml.gz")
	if err != nil {
		t.Fatal(err)
	}
	// The rebuild dispatches 3 a cycle where the base dispatches 6.
	rebuilt := base.Clone()
	rebuilt.DispatchWidth = 3
	forms := []string{"add r64, r64", "vpaddd ymm, ymm, ymm", "imul r64, r64", "vaddpd ymm, ymm, ymm", "shl r64, imm8"}
	drawBy := func(m *modeldb.Model) []*modeldb.MixMeasurement {
		pred := modeldb.NewPredictor(m)
		var draw []*modeldb.MixMeasurement
		for i := 0; i < 200; i++ {
			parts := []modeldb.MixPart{{Form: forms[i%5], Count: 2 + i%7}, {Form: forms[(i/5+1+i)%5], Count: 3 + i%4}}
			if parts[0].Form == parts[1].Form {
				parts = parts[:1]
			}
			pr, err := pred.Predict(parts)
			if err != nil {
				t.Fatal(err)
			}
			draw = append(draw, &modeldb.MixMeasurement{Parts: parts, Cycles: pr.Cycles})
		}
		return draw
	}
	all := []built{{label: "B", m: rebuilt, rep: &modeldb.BuildReport{}}, {label: "B", m: base, asIs: true}}
	best, bases := chooseBuild(all, drawBy(base))
	if best != 1 || !strings.Contains(bases, "against B as it stands (100.0 % of the 200 validation mixes within 10 %): kept B as it stands (B as it stands predicts 200 of the draw within 10 %, the build from B") {
		t.Errorf("a rebuild worse than its base: kept %d, %q", best, bases)
	}
	best, bases = chooseBuild(all, drawBy(rebuilt))
	if best != 0 || !strings.Contains(bases, "built from B (100.0 % of the 200 validation mixes within 10 %), against B as it stands") || !strings.Contains(bases, ": kept the build from B (it predicts 200 of the draw within 10 %, B as it stands") {
		t.Errorf("a rebuild better than its base: kept %d, %q", best, bases)
	}
	// Within chance either way: the base as it stands stays unless the
	// rebuild predicts more of the draw, one mix more being enough. The
	// draws: mixes both predict alike, then a mixes measured as the base
	// predicts them and b as the rebuild does, of those the two predict
	// more than 25 % apart.
	byBase, byRebuilt := drawBy(base), drawBy(rebuilt)
	var alike, apart []int
	for i := range byBase {
		switch d := math.Abs(byRebuilt[i].Cycles-byBase[i].Cycles) / byBase[i].Cycles; {
		case d < 0.01:
			alike = append(alike, i)
		case d > 0.25:
			apart = append(apart, i)
		}
	}
	if len(alike) < 10 || len(apart) < 7 {
		t.Fatalf("%d mixes alike and %d apart, want 10 and 7", len(alike), len(apart))
	}
	for _, c := range []struct{ a, b, want int }{{3, 3, 1}, {3, 4, 0}, {4, 3, 1}} {
		var draw []*modeldb.MixMeasurement
		for _, i := range alike {
			draw = append(draw, byBase[i])
		}
		for _, i := range apart[:c.a] {
			draw = append(draw, byBase[i])
		}
		for _, i := range apart[c.a : c.a+c.b] {
			draw = append(draw, byRebuilt[i])
		}
		if best, bases := chooseBuild(all, draw); best != c.want {
			t.Errorf("%d mixes as the base predicts them, %d as the rebuild does: kept %d, %q", c.a, c.b, best, bases)
		}
	}
	if !measuredBase(base) || measuredBase(nil) {
		t.Error("measuredBase")
	}
	if imported, err := modeldb.Embedded("llvm14-znver3.yml.gz"); err != nil || measuredBase(imported) {
		t.Errorf("an imported model counts as measured (%v)", err)
	}
}

// A measured model kept as it stands takes the operand latencies the
// run's build measured and it lacks; the base itself, which the report
// scores beside it, stays as it was.
func TestAsItStandsTakesNewLatencies(t *testing.T) {
	base, err := modeldb.Embedded("portlab-znver4.yml.gz")
	if err != nil {
		t.Fatal(err)
	}
	e, ok := base.Lookup("shl r64, cl")
	if !ok || len(e.Latencies) == 0 || slices.ContainsFunc(e.Latencies, func(l modeldb.OperandLatency) bool { return l.From == "flags" }) {
		t.Fatalf("the embedded Zen 4 model's shl r64, cl: %+v; want operand pairs, none from the flags", e)
	}
	build := base.Clone()
	b, _ := build.Lookup("shl r64, cl")
	b.Latencies = append(b.Latencies, modeldb.OperandLatency{From: "flags", To: "flags", Cycles: 0.34})
	kept, took := asItStands(base, build, "portlab characterize on h, 2026-12-02")
	if took != "; it takes the 1 operand latency of 1 form this run measured that it lacked" {
		t.Errorf("clause %q", took)
	}
	k, _ := kept.Lookup("shl r64, cl")
	if len(k.Latencies) != len(e.Latencies)+1 || k.Latencies[len(k.Latencies)-1].From != "flags" {
		t.Errorf("kept shl r64, cl: %+v", k.Latencies)
	}
	if e, _ := base.Lookup("shl r64, cl"); slices.ContainsFunc(e.Latencies, func(l modeldb.OperandLatency) bool { return l.From == "flags" }) {
		t.Error("the base itself changed")
	}
	if _, took := asItStands(base, base, "x"); took != "" {
		t.Errorf("nothing to take: clause %q", took)
	}
}

// TestKeptCandidateTakesLoadsWhereTheyPredictMore: a measured base whose
// add from memory drifted onto the vector pipes competes with its load on
// its register form's ports where that predicts more of the validation
// draw, as it stands otherwise; the base itself never changes.
func TestKeptCandidateTakesLoadsWhereTheyPredictMore(t *testing.T) {
	pp := func(groups ...[]string) modeldb.PortPressure {
		var out modeldb.PortPressure
		for _, g := range groups {
			out = append(out, modeldb.PortUse{Cycles: 1, Ports: g})
		}
		return out
	}
	alu, fp, ld := []string{"ALU0", "ALU1"}, []string{"FP0", "FP1"}, []string{"LD0", "LD1"}
	base := &modeldb.Model{Name: "kept", ISA: "x86", DispatchWidth: 8, Ports: []string{"ALU0", "ALU1", "FP0", "FP1", "LD0", "LD1"},
		Provenance: &modeldb.Provenance{Source: modeldb.SourceMeasured}}
	for _, e := range []*modeldb.Entry{
		{Form: "mov r64, m64", PortPressure: pp(ld)},
		{Form: "add r64, r64", PortPressure: pp(alu)},
		{Form: "vaddpd ymm, ymm, ymm", PortPressure: pp(fp)},
		{Form: "add r64, m64", PortPressure: pp(fp, ld)},
	} {
		e.Uops, e.Latency, e.Throughput = float64(len(e.PortPressure)), 1, 0.5
		base.Put(e)
	}
	base.Reindex()
	mix := func(cycles float64) []*modeldb.MixMeasurement {
		return []*modeldb.MixMeasurement{{Parts: []modeldb.MixPart{{Form: "add r64, m64", Count: 4}, {Form: "vaddpd ymm, ymm, ymm", Count: 4}}, Cycles: cycles, Random: true}}
	}
	// The adds apart from the vector adds: 2 cycles, what the rule predicts.
	b := keptCandidate(base, nil, mix(2))
	if !b.asIs || b.loads != 1 || b.m == base {
		t.Fatalf("measured 2 cycles: asIs %v, loads %d, the base itself %v", b.asIs, b.loads, b.m == base)
	}
	if e, _ := b.m.Lookup("add r64, m64"); modeldb.FormatPressure(e.PortPressure) != modeldb.FormatPressure(pp(alu, ld)) {
		t.Errorf("add r64, m64 on %s", modeldb.FormatPressure(e.PortPressure))
	}
	if want := `"kept" as it stands (its 1 load on its register form's ports)`; b.name() != want {
		t.Errorf("name %q, want %q", b.name(), want)
	}
	if e, _ := base.Lookup("add r64, m64"); modeldb.FormatPressure(e.PortPressure) != modeldb.FormatPressure(pp(fp, ld)) {
		t.Error("the base itself changed")
	}
	// The adds on the vector pipes after all: 4 cycles, the base as it stands.
	b = keptCandidate(base, nil, mix(4))
	if b.m != base || b.loads != 0 || b.name() != `"kept" as it stands` {
		t.Errorf("measured 4 cycles: loads %d, the base itself %v, name %q", b.loads, b.m == base, b.name())
	}
}
