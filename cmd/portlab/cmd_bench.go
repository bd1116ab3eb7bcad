package main

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"portlab/measure"
	"portlab/results"
)

func init() {
	register(&command{name: "bench", summary: "measure snippet files or sweep instruction forms; write exegesis YAML ('bench merge' joins shards)", run: runBench})
}

// stringList is a repeatable string flag.
type stringList []string

func (s *stringList) String() string     { return strings.Join(*s, ",") }
func (s *stringList) Set(v string) error { *s = append(*s, v); return nil }

// maxSnippetPasses bounds bench --passes: each pass is a worker process
// of its own and a full measurement of every snippet.
const maxSnippetPasses = 32

func runBench(args []string, stdout, stderr io.Writer) error {
	if len(args) > 0 && args[0] == "merge" {
		return runBenchMerge(args[1:], stdout, stderr)
	}
	if len(args) > 0 && args[0] == "compare" {
		return runBenchCompare(args[1:], stdout, stderr)
	}
	fs := newFlagSet("bench", stderr)
	var snippetFiles, formGlobs stringList
	fs.Var(&snippetFiles, "snippets-file", "snippet file (llvm-exegesis annotations honoured); '-' reads stdin; repeatable")
	fs.Var(&formGlobs, "forms", "sweep the forms matching this glob ('vfmadd*pd ymm*'); repeatable")
	all := fs.Bool("all", false, "sweep every form the host can run")
	var excludeGlobs stringList
	fs.Var(&excludeGlobs, "exclude", "sweeps: leave out the forms matching this glob ('*{k}*' leaves out masked forms); repeatable")
	mode := fs.String("mode", "", "snippets: latency or throughput (default latency); sweeps: a list of latency,throughput,ports,random-mixes,fit-mixes (default latency,throughput)")
	resume := fs.Bool("resume", false, "sweeps: continue the sweep in -o, skipping what it already holds")
	shard := fs.String("shard", "", "sweeps: measure only shard i of n ('i/n', 0-based), or 'auto' inside a Slurm job array or Kubernetes Indexed Job")
	shards := fs.Int("shards", 0, "sweeps with --shard auto: the shard count (Kubernetes Indexed Jobs: the Job's completions; or set PORTLAB_SHARDS)")
	probes := fs.String("probes", "", "ports mode: probe forms separated by semicolons (default: a set of well-known ones)")
	mixes := fs.Int("mixes", 200, "random-mixes and fit-mixes modes: how many random mixes to measure (random-mixes: a model's validation set, model build never fits them; fit-mixes: a training set it fits)")
	mixForms := fs.String("mix-forms", "2-4", "random-mixes and fit-mixes modes: forms per mix, N or LO-HI")
	seed := fs.Int64("seed", 1, "random-mixes and fit-mixes modes: the draw's seed (the same seed draws the same mixes; give a training set another seed than the validation set)")
	loadOpPasses := fs.Int("load-op-passes", 3, "sweeps: measure the throughput of vector forms that read memory in this many passes and keep the median")
	vectorPasses := fs.Int("vector-passes", 1, "sweeps: the same for the throughput of the other vector forms")
	memoryPasses := fs.Int("memory-passes", 3, "sweeps: measure the throughput of integer forms that touch memory (and the store-commit streams) in this many passes and keep the fastest that converged")
	memoryRounds := fs.Int("memory-rounds", 2, "sweeps: measure those in this many rounds of --memory-passes passes, the first in the form's batch, the others at the end of the sweep, and keep the fastest converged of all")
	noisyBudget := fs.Duration("noisy-budget", 10*time.Minute, "sweeps: results still noisy after two rounds of second chances get more rounds (up to 6) while the sweep fits in this (0: two rounds)")
	maxPasses := fs.Int("max-passes", 0, "sweeps: forms measured in several passes whose passes disagree by more than 2 % get more, up to this many in all (0: none)")
	passes := fs.Int("passes", 1, "snippets: measure every snippet in this many passes, each in a worker process of its own, keep the lower-quartile pass and list every pass's value (pass_medians), with a warning where they differ: for code that settles into a steady state of its own per process")
	rep := fs.String("repetition-mode", "middle-half-duplicate", "duplicate, loop, min, middle-half-duplicate or middle-half-loop")
	minInstr := fs.Int("min-instructions", 128, "instructions in the short timed body (the long one has twice as many)")
	cpu := fs.Int("cpu", -1, cpuFlagHelp)
	reps := fs.Int("repetitions", 11, "repetitions of the schedule per job (more jobs run until the estimate converges)")
	minJobs := fs.Int("min-jobs", 0, "run every benchmark in at least this many jobs before judging whether it converged (with --record: recordings that replay the engine's decision job by job; see docs/method.md)")
	record := fs.String("record", "", recordFlagHelp)
	recordAll := fs.Bool("record-all", false, "with --record: record every benchmark, not only the disturbed ones")
	out := fs.String("o", "-", "output file ('-' = stdout); written atomically")
	noFTZ := fs.Bool("no-ftz", false, "leave MXCSR flush-to-zero / denormals-are-zero off")
	validate := fs.Bool("validation-counters", false, "snippets: also count L1d, LLC and dTLB read misses (needs hardware counters)")
	timeout := fs.Duration("timeout", 2*time.Second, "time limit for one measurement; a snippet that runs longer is reported as hanging")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: portlab bench --snippets-file FILE|- [flags]           time snippet files")
		fmt.Fprintln(stderr, "       portlab bench --forms GLOB|--all [-o FILE] [flags]  sweep instruction forms")
		fmt.Fprintln(stderr, "       portlab bench merge [-o FILE] RESULTS...            join shard files")
		fmt.Fprintln(stderr, "       portlab bench compare A B                          agreement of two sweeps")
		fs.PrintDefaults()
	}
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usageError{fmt.Sprintf("unexpected argument %q (snippet files go after --snippets-file)", pos[0])}
	}
	sweeping := *all || len(formGlobs) > 0
	switch {
	case sweeping && len(snippetFiles) > 0:
		return usageError{"give either --snippets-file or --forms/--all, not both"}
	case !sweeping && len(snippetFiles) == 0:
		return usageError{"nothing to measure: give --snippets-file FILE, --forms GLOB or --all"}
	case !sweeping && (*resume || *shard != "" || *shards != 0 || len(excludeGlobs) > 0):
		return usageError{"--resume, --shard, --shards and --exclude apply to sweeps (--forms/--all)"}
	case sweeping && *passes != 1:
		return usageError{"--passes applies to snippet files; sweeps take --load-op-passes, --vector-passes and --memory-passes"}
	case *passes < 1 || *passes > maxSnippetPasses:
		return usageError{fmt.Sprintf("--passes %d: want 1 to %d", *passes, maxSnippetPasses)}
	}
	repetition, err := measure.ParseRepetition(*rep)
	if err != nil {
		return usageError{err.Error()}
	}
	if *minJobs < 0 || *minJobs > 64 {
		return usageError{fmt.Sprintf("--min-jobs %d: want 0 to 64", *minJobs)}
	}
	if *memoryRounds < 0 || *memoryRounds > 8 {
		return usageError{fmt.Sprintf("--memory-rounds %d: want 0 to 8", *memoryRounds)}
	}
	if sweeping {
		return runSweep(sweepFlags{globs: formGlobs, exclude: excludeGlobs, all: *all, mode: *mode, resume: *resume, shard: *shard, shards: *shards, probes: *probes,
			mixes: *mixes, mixForms: *mixForms, seed: *seed, loadOpPasses: *loadOpPasses, vectorPasses: *vectorPasses, memoryPasses: *memoryPasses, memoryRounds: *memoryRounds, maxPasses: *maxPasses, noisyBudget: *noisyBudget,
			out: *out, cpu: *cpu, timeout: *timeout, record: *record, recordAll: *recordAll, opts: measure.Options{Repetition: repetition, MinInstructions: *minInstr, Reps: *reps, MinJobs: *minJobs, NoFTZ: *noFTZ}}, stdout, stderr)
	}
	if *mode == "" {
		*mode = "latency"
	}
	if _, err := measure.ResultKey(*mode); err != nil {
		return usageError{err.Error()}
	}
	var snips []*measure.Snippet
	for _, f := range snippetFiles {
		var data []byte
		name := f
		if f == "-" {
			data, err = io.ReadAll(os.Stdin)
			name = "<stdin>"
		} else {
			data, err = os.ReadFile(f)
		}
		if err != nil {
			return err
		}
		s, err := measure.ParseSnippet(name, string(data))
		if err != nil {
			return err
		}
		snips = append(snips, s)
	}
	eng, info, err := measure.NewHostEngine(*cpu)
	if err != nil {
		return err
	}
	defer eng.Close()
	eng.Runner.Timeout = *timeout
	opts := measure.Options{Mode: *mode, Repetition: repetition, MinInstructions: *minInstr, Reps: *reps, MinJobs: *minJobs, NoFTZ: *noFTZ, CacheCounters: *validate,
		Passes: *passes, LowerQuartilePass: *passes > 1}
	if opts.Mode == "throughput" {
		opts.Mode = "inverse_throughput"
	}
	finishRecording, err := startRecording(eng, info, *record, *recordAll, "portlab bench --snippets-file", stderr)
	if err != nil {
		return err
	}
	prog := newProgress(stderr, "bench", len(snips))
	ms := eng.MeasureAll(snips, opts, func(done int, m *measure.Measurement) { prog.update(done, m.Snippet.Name) })
	prog.done()
	if err := finishRecording(nil); err != nil {
		return err
	}
	var bs []*results.Benchmark
	failed := 0
	for _, m := range ms {
		if m.Err != nil {
			failed++
			fmt.Fprintf(stderr, "portlab bench: %s: %v\n", m.Snippet.Name, m.Err)
		}
		for _, w := range m.Warnings {
			fmt.Fprintf(stderr, "portlab bench: %s: warning: %s\n", m.Snippet.Name, w)
		}
		bs = append(bs, m.Benchmark(info.Microarch, info.Signature()))
	}
	if *out == "-" {
		if err := results.Write(stdout, bs); err != nil {
			return err
		}
	} else if err := results.WriteFile(*out, bs); err != nil {
		return err
	}
	if failed > 0 {
		return fmt.Errorf("%d of %d snippet(s) could not be measured", failed, len(ms))
	}
	return nil
}
