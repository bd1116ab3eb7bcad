package sweep

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"portlab/gen"
	"portlab/isa"
	"portlab/measure"
	"portlab/perf"
	"portlab/results"
)

func TestSelectAndShards(t *testing.T) {
	forms, err := Select([]string{"add r64*", "imul r64*"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(forms) < 6 {
		t.Fatalf("%d forms", len(forms))
	}
	if _, err := Select([]string{"nosuchinstruction *"}, nil); err == nil || !strings.Contains(err.Error(), "nosuchinstruction") {
		t.Errorf("unknown glob: %v", err)
	}
	seen := map[string]int{}
	for i := 0; i < 3; i++ {
		for _, f := range ShardForms(forms, i, 3) {
			seen[f.Name()]++
		}
	}
	for _, f := range forms {
		if seen[f.Name()] != 1 {
			t.Errorf("%s in %d shards", f.Name(), seen[f.Name()])
		}
	}
	// Deterministic whatever the input order.
	rev := append([]*isa.Form(nil), forms...)
	sort.Slice(rev, func(i, j int) bool { return rev[i].Name() > rev[j].Name() })
	a, b := ShardForms(forms, 1, 3), ShardForms(rev, 1, 3)
	for i := range a {
		if a[i] != b[i] {
			t.Fatal("shards depend on input order")
		}
	}
}

func ids(bs []*results.Benchmark) []string {
	var out []string
	for _, b := range results.Cleanest(bs) {
		out = append(out, b.Portlab.ID)
	}
	sort.Strings(out)
	return out
}

// A sharded sweep merged equals the unsharded sweep's set of benchmarks; an
// interrupted sweep resumes without measuring twice.
func TestShardsMergeAndResume(t *testing.T) {
	e, h := hostEngine(t)
	forms, err := Select([]string{"add r64, r64", "imul r64, r64", "xor r32, r32", "mov r64, m64", "cvttsd2si r64, xmm", "push r64"}, h.Has)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	o := options(h)
	o.Forms, o.Out = forms, filepath.Join(dir, "all.yaml")
	whole, err := Run(e, o)
	if err != nil {
		t.Fatal(err)
	}
	if whole.Unmeasurable != 1 || whole.Errors != 0 {
		t.Errorf("unmeasurable %d (push r64 expected), errors %d", whole.Unmeasurable, whole.Errors)
	}
	var parts [][]*results.Benchmark
	for i := 0; i < 3; i++ {
		so := options(h)
		so.Forms, so.Shard, so.Shards, so.Out = forms, i, 3, filepath.Join(dir, "part.yaml"+string(rune('0'+i)))
		if _, err := Run(e, so); err != nil {
			t.Fatal(err)
		}
		bs, err := results.ReadFile(so.Out)
		if err != nil {
			t.Fatal(err)
		}
		parts = append(parts, bs)
	}
	parts = append(parts, parts[1]) // merging a shard twice changes nothing
	merged, err := Merge(parts, false)
	if err != nil {
		t.Fatal(err)
	}
	all, _ := results.ReadFile(o.Out)
	if got, want := strings.Join(ids(merged), ","), strings.Join(ids(all), ","); got != want {
		t.Errorf("merged shards differ from the whole sweep:\n got %d results\nwant %d", len(merged), len(all))
	}

	// Interrupt: keep the first half of the file plus half a document.
	data, _ := os.ReadFile(o.Out)
	cut := strings.Index(string(data[len(data)/2:]), "\n...\n") + len(data)/2 + len("\n...\n")
	torn := filepath.Join(dir, "torn.yaml")
	os.WriteFile(torn, append(append([]byte{}, data[:cut]...), []byte("---\nmode: latency\nkey:\n  instr")...), 0o644)
	before, _ := results.Parse("x", data[:cut])
	// Resuming measures again what was noisy (the machine may have been).
	doneBefore := 0
	for _, b := range results.Cleanest(before) {
		if !b.Noisy() {
			doneBefore++
		}
	}
	ro := options(h)
	ro.Forms, ro.Out, ro.Resume = forms, torn, true
	sum, err := Run(e, ro)
	if err != nil {
		t.Fatal(err)
	}
	after, err := results.ReadFile(torn)
	if err != nil {
		t.Fatalf("resumed file does not parse: %v", err)
	}
	if strings.Join(ids(after), ",") != strings.Join(ids(all), ",") {
		t.Errorf("resumed sweep has %d results, the whole sweep %d", len(after), len(all))
	}
	if sum.Skipped != doneBefore {
		t.Errorf("resume skipped %d, want %d already done", sum.Skipped, doneBefore)
	}
	// Without --resume an existing file is refused.
	if _, err := Run(e, ro2(ro)); err == nil || !strings.Contains(err.Error(), "use --resume") {
		t.Errorf("existing output without resume: %v", err)
	}
}

func ro2(o Options) Options { o.Resume = false; return o }

func TestMergeRefusesMixedHosts(t *testing.T) {
	a := []*results.Benchmark{{Mode: "latency", Portlab: &results.Extra{ID: "1", Host: "GenuineIntel-6-a7-1"}}}
	b := []*results.Benchmark{{Mode: "latency", Portlab: &results.Extra{ID: "2", Host: "AuthenticAMD-19-11-1"}}}
	if _, err := Merge([][]*results.Benchmark{a, b}, false); err == nil || !strings.Contains(err.Error(), "2 CPU types") {
		t.Errorf("mixed hosts: %v", err)
	}
	if m, err := Merge([][]*results.Benchmark{a, b}, true); err != nil || len(m) != 2 {
		t.Errorf("allowed mix: %v %d", err, len(m))
	}
}

func TestExclude(t *testing.T) {
	forms, err := Select([]string{"vaddpd *"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	kept, err := Exclude(forms, []string{"*{k}*", "*bcst"})
	if err != nil {
		t.Fatal(err)
	}
	if len(kept) == 0 || len(kept) >= len(forms) {
		t.Fatalf("%d of %d vaddpd forms kept: want some, not all", len(kept), len(forms))
	}
	names := map[string]bool{}
	for _, f := range kept {
		if strings.Contains(f.Name(), "{k}") || strings.HasSuffix(f.Name(), "bcst") {
			t.Errorf("%s was to be left out", f.Name())
		}
		names[f.Name()] = true
	}
	for _, want := range []string{"vaddpd ymm, ymm, ymm", "vaddpd zmm, zmm, m512"} {
		if !names[want] {
			t.Errorf("%s left out", want)
		}
	}
	if _, err := Exclude(forms, []string{"vadpd *"}); err == nil || !strings.Contains(err.Error(), `"vadpd *"`) {
		t.Errorf("a glob that matches nothing: %v, want an error naming it", err)
	}
}

// Noisy results get a second chance: at the end of a sweep, and when a
// sweep is resumed; the cleanest result of a benchmark is the one read.
func TestNoisyResultsAreMeasuredAgain(t *testing.T) {
	e, h := hostEngine(t)
	forms, err := Select([]string{"add r64, r64"}, h.Has)
	if err != nil {
		t.Fatal(err)
	}
	o := options(h)
	o.Forms, o.Out, o.NoisyRounds = forms, filepath.Join(t.TempDir(), "s.yaml"), -1
	first, err := Run(e, o)
	if err != nil {
		t.Fatal(err)
	}
	if first.Remeasured != 0 {
		t.Errorf("NoisyRounds -1 re-measured %d results", first.Remeasured)
	}
	// Make the throughput look as if the machine had been disturbed.
	bs, err := results.ReadFile(o.Out)
	if err != nil {
		t.Fatal(err)
	}
	var tpID string
	for _, b := range bs {
		no, yes := false, true
		if b.Portlab.Kind == gen.KindThroughput {
			// A disturbed result is slow and unsure: its uncertainty is of
			// the order of its excess, so any re-measurement is cleaner.
			b.Portlab.Converged, b.Portlab.Median, b.Portlab.Uncertainty, tpID = &no, 99, 98, b.Portlab.ID
		} else if b.Noisy() {
			b.Portlab.Converged = &yes // only the doctored one is noisy
		}
	}
	if tpID == "" {
		t.Fatal("no throughput result")
	}
	if err := results.WriteFile(o.Out, bs); err != nil {
		t.Fatal(err)
	}
	// Resumed lean, as characterize runs: the results read back and the
	// new one are kept slim in memory, the file gets the new one whole.
	o.Resume, o.Lean = true, true
	again, err := Run(e, o)
	if err != nil {
		t.Fatal(err)
	}
	if again.Benchmarks != 1 || again.Results[0].Portlab.ID != tpID {
		t.Fatalf("resume measured %d benchmarks, want the noisy throughput alone", again.Benchmarks)
	}
	if r := again.Results[0]; r.Portlab.Source != "" || r.AssembledSnippet != "" || r.Portlab.HostInfo != nil || r.Portlab.Median <= 0 || r.Portlab.Form != "add r64, r64" {
		t.Errorf("lean result in memory: source %q, machine code %q, host info %v, median %v, form %q; want the text dropped, the numbers kept",
			r.Portlab.Source, r.AssembledSnippet, r.Portlab.HostInfo, r.Portlab.Median, r.Portlab.Form)
	}
	after, _ := results.ReadFile(o.Out)
	if last := after[len(after)-1]; last.Portlab.ID != tpID || last.Portlab.Source == "" || last.AssembledSnippet == "" || len(last.Key.Instructions) == 0 {
		t.Errorf("the file's last result (%s): source %q, machine code %q, %d instructions; want it whole", last.Portlab.ID, last.Portlab.Source, last.AssembledSnippet, len(last.Key.Instructions))
	}
	o.Lean = false
	for _, s := range Summarize(after) {
		if s.Form == "add r64, r64" && (s.Throughput > 1 || s.Throughput < 0.1) {
			t.Errorf("throughput read back %.3f: the noisy 99 was not replaced by its re-measurement", s.Throughput)
		}
	}

	// The end-of-sweep pass measures what came out noisy once more.
	b, err := gen.Throughput(forms[0])
	if err != nil {
		t.Fatal(err)
	}
	sum := &Summary{noisy: []pending{{bench: b}}}
	o.NoisyRounds, o.NoisyPause = 1, time.Millisecond
	var progress []string
	o.Progress = func(done, total int, current string) {
		progress = append(progress, fmt.Sprintf("%d/%d %s", done, total, current))
	}
	if err := remeasureNoisy(e, o, nil, &appender{path: o.Out}, sum, time.Now()); err != nil {
		t.Fatal(err)
	}
	// The round reports its start and its progress.
	if len(progress) != 2 || !strings.HasPrefix(progress[0], "0/1 ") || !strings.HasPrefix(progress[1], "1/1 noisy results measured again") {
		t.Errorf("progress reports %q", progress)
	}
	if sum.Remeasured != 1 || sum.NoisyRoundsRun != 1 || len(sum.Results) != 1 || sum.Results[0].Portlab.ID != benchID(b) {
		t.Errorf("re-measured %d, results %d: want the one noisy benchmark", sum.Remeasured, len(sum.Results))
	}
	if final, _ := results.ReadFile(o.Out); len(final) != len(after)+1 {
		t.Errorf("file has %d results, want %d (the re-measurement appended)", len(final), len(after)+1)
	}
}

// Rounds of second chances beyond the default two: while fewer than
// MaxNoisyRounds have run, the sweep and the next round (timed as the
// last) fit the budget, and the last round made a tenth of what it
// measured converge.
func TestMoreNoisyRounds(t *testing.T) {
	m := time.Minute
	for _, c := range []struct {
		round         int
		elapsed, last time.Duration
		converged     float64
		budget        time.Duration
		want          bool
	}{
		{2, 4 * m, m, 0.7, 10 * m, true},
		{5, 5 * m, m / 2, 0.3, 10 * m, true},
		{MaxNoisyRounds, 5 * m, m / 2, 0.3, 10 * m, false}, // six rounds ran
		{2, 9 * m, 2 * m, 0.7, 10 * m, false},              // the next round would end past the budget
		{3, 4 * m, m, 0.05, 10 * m, false},                 // the last round converged too few
	} {
		if got := moreRounds(c.round, c.elapsed, c.last, c.converged, c.budget); got != c.want {
			t.Errorf("round %d, %v elapsed, last round %v converging %.0f%%, budget %v: %v, want %v", c.round, c.elapsed, c.last, 100*c.converged, c.budget, got, c.want)
		}
	}
}

// A load-to-use chain (a vector load's destination moved to the next
// load's index) subtracts both its helpers: the fixed `and r, 0` and
// half the calibrated round trip of the move; without the calibration,
// or where the link ran faster than its helpers take, the result says so
// and keeps no value.
func TestLoadChainSubtractsBothHelpers(t *testing.T) {
	f, ok := isa.Lookup("vbroadcastss ymm, m32")
	if !ok {
		t.Fatal("no vbroadcastss ymm, m32")
	}
	bs, err := gen.Latency(f)
	if err != nil {
		t.Fatal(err)
	}
	var b *gen.Bench
	for _, x := range bs {
		if x.Operands == "mem->0" {
			b = x
		}
	}
	if b == nil {
		t.Fatal("vbroadcastss ymm, m32 has no load-to-use chain")
	}
	m := &measure.Measurement{Snippet: b.Snippet, Mode: b.Mode, PerInstr: perf.Stats{Median: 10}, PerSnippet: perf.Stats{Median: 10}}
	r := toResult(b, m, Options{}, map[string]float64{"vmovq-gpr-xmm": 6})
	if r.Error != "" || len(r.Measurements) != 1 || r.Measurements[0].Value != 6 || r.Portlab.Subtracted != 4 {
		t.Fatalf("10 cycles a link less 1 and half of 6: error %q, measurements %+v, subtracted %v", r.Error, r.Measurements, r.Portlab.Subtracted)
	}
	if !strings.Contains(r.Portlab.Helper, "vmovq rax, xmm0; and rax, 0 (assumed 4.000 cycles: 1 and half the measured round trip vmovq-gpr-xmm)") {
		t.Errorf("helper: %q", r.Portlab.Helper)
	}
	// A link under half of what its helpers take: the chain does not
	// hold; one a little under them reads as latency 0.
	m.PerInstr.Median, m.PerSnippet.Median = 1.48, 1.48
	r = toResult(b, m, Options{}, map[string]float64{"vmovq-gpr-xmm": 6})
	if !strings.Contains(r.Error, "the chain ran 1.480 cycles a link, less than half the 4.000 its helpers were assumed to take") || r.Measurements != nil {
		t.Errorf("a broken chain: error %q, measurements %+v", r.Error, r.Measurements)
	}
	m.PerInstr.Median, m.PerSnippet.Median = 2.5, 2.5
	if r = toResult(b, m, Options{}, map[string]float64{"vmovq-gpr-xmm": 6}); r.Error != "" || r.Measurements[0].Value != 0 {
		t.Errorf("a link 1.5 cycles below its helpers: error %q, measurements %+v", r.Error, r.Measurements)
	}
	m.PerInstr.Median, m.PerSnippet.Median = 10, 10
	r = toResult(b, m, Options{}, map[string]float64{})
	if !strings.Contains(r.Error, `helper "vmovq-gpr-xmm" was not calibrated`) || r.Measurements != nil {
		t.Errorf("uncalibrated: error %q, measurements %+v", r.Error, r.Measurements)
	}
}
