package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"portlab/internal/fsutil"
	"portlab/measure"
	"portlab/results"
	"portlab/sweep"
)

type sweepFlags struct {
	globs        []string
	exclude      []string // globs of forms to leave out
	all          bool
	mode, shard  string
	probes, out  string
	resume       bool
	shards       int    // the count for --shard auto (0: from the environment)
	mixes        int    // random-mixes mode: how many
	mixForms     string // and of how many forms ("2-4")
	seed         int64
	loadOpPasses int
	vectorPasses int
	memoryPasses int
	memoryRounds int
	maxPasses    int
	noisyBudget  time.Duration
	cpu          int
	timeout      time.Duration
	record       string // --record: recordings of disturbed benchmarks
	recordAll    bool
	opts         measure.Options
}

func parseShard(s string) (int, int, error) {
	if s == "" {
		return 0, 1, nil
	}
	a, b, ok := strings.Cut(s, "/")
	i, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || n < 1 || i < 0 || i >= n {
		return 0, 0, fmt.Errorf("--shard %q: want i/n with 0 <= i < n", s)
	}
	return i, n, nil
}

// parseMixForms reads --mix-forms: "2-4" or "3".
func parseMixForms(s string) (int, int, error) {
	a, b, found := strings.Cut(s, "-")
	lo, err1 := strconv.Atoi(a)
	hi, err2 := lo, error(nil)
	if found {
		hi, err2 = strconv.Atoi(b)
	}
	if err1 != nil || err2 != nil || lo < 2 || hi < lo {
		return 0, 0, fmt.Errorf("--mix-forms %q: want N or LO-HI with 2 <= LO <= HI", s)
	}
	return lo, hi, nil
}

func runSweep(f sweepFlags, stdout, stderr io.Writer) error {
	o := sweep.Options{Resume: f.resume, Measure: f.opts, LoadOpPasses: f.loadOpPasses, VectorPasses: f.vectorPasses, MemoryPasses: f.memoryPasses, MemoryRounds: f.memoryRounds, MaxPasses: f.maxPasses, NoisyBudget: f.noisyBudget}
	modes := f.mode
	if modes == "" {
		modes = "latency,throughput"
	}
	fitOrRandom := false
	for _, m := range strings.Split(modes, ",") {
		m = strings.TrimSpace(m)
		switch m {
		case "latency":
			o.Latency = true
		case "throughput", "inverse_throughput":
			o.Throughput = true
		case "ports":
			o.Ports = true
		case "random-mixes", "fit-mixes":
			// Throughputs choose the counts (a resumed sweep has them).
			o.Throughput, o.RandomMixes = true, f.mixes
			if o.FitMixes != (m == "fit-mixes") && fitOrRandom {
				return usageError{"--mode: random-mixes (a validation set) and fit-mixes (a training set) are separate runs, with separate seeds"}
			}
			o.FitMixes, fitOrRandom = m == "fit-mixes", true
		default:
			return usageError{fmt.Sprintf("--mode: unknown mode %q (want latency, throughput, ports, random-mixes, fit-mixes)", m)}
		}
	}
	var err error
	if f.shard == "auto" {
		spec, err := sweep.AutoShard(os.Getenv, f.shards)
		if err != nil {
			return usageError{err.Error()}
		}
		o.Shard, o.Shards = spec.Index, spec.Count
		fmt.Fprintf(stderr, "shard %d/%d from %s\n", spec.Index, spec.Count, spec.Source)
	} else if f.shards != 0 {
		return usageError{"--shards goes with --shard auto (with --shard i/n the count is n)"}
	} else if o.Shard, o.Shards, err = parseShard(f.shard); err != nil {
		return usageError{err.Error()}
	}
	if o.RandomMixes > 0 {
		lo, hi, err := parseMixForms(f.mixForms)
		if err != nil {
			return usageError{err.Error()}
		}
		o.MixForms, o.MixSeed = [2]int{lo, hi}, f.seed
	}
	if f.resume && (f.out == "" || f.out == "-") {
		return usageError{"--resume needs a results file (-o FILE)"}
	}
	if f.probes != "" {
		for _, p := range strings.Split(f.probes, ";") {
			o.Probes = append(o.Probes, strings.TrimSpace(p))
		}
	}
	eng, info, err := measure.NewHostEngine(f.cpu)
	if err != nil {
		return err
	}
	defer eng.Close()
	eng.Runner.Timeout = f.timeout
	globs := f.globs
	if f.all {
		globs = nil
	}
	// Shards are cut from the catalog's matches, not the host's, so that a
	// form lands in the same shard on every host; Run keeps those the host
	// runs.
	o.Forms, err = sweep.Select(globs, nil)
	if err == nil {
		o.Forms, err = sweep.Exclude(o.Forms, f.exclude)
	}
	if err != nil {
		return err
	}
	if hosted, _ := sweep.Select(globs, info.Has); len(hosted) == 0 {
		return fmt.Errorf("no form matching %s runs on this host (%s)", strings.Join(globs, ", "), info.Microarch)
	}
	o.CPUName, o.HostSig, o.Has = info.Microarch, info.Signature(), info.Has
	o.HostInfo = sweep.HostInfo(info, sweep.NodeName(os.Getenv))
	if f.out != "-" && f.out != "" {
		o.Out = f.out
	}
	finishRecording, err := startRecording(eng, info, f.record, f.recordAll, "portlab bench --forms/--all", stderr)
	if err != nil {
		return err
	}
	prog := newProgress(stderr, "sweep", len(o.Forms))
	o.Progress = func(done, total int, cur string) {
		prog.total = total
		prog.update(done, cur)
	}
	sum, err := sweep.Run(eng, o)
	prog.done()
	if rerr := finishRecording(err); err == nil {
		err = rerr
	}
	if err != nil {
		return err
	}
	if o.Out == "" {
		if err := results.Write(stdout, sum.Results); err != nil {
			return err
		}
	}
	sweep.WriteSummary(stderr, sum)
	return nil
}

func runBenchMerge(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("bench merge", stderr)
	out := fs.String("o", "-", "merged results file ('-' = stdout); written atomically")
	allowMixed := fs.Bool("allow-mixed", false, "allow results from different CPU types in one file")
	split := fs.String("split", "", "write one merged file per CPU type into this directory (DIR/<signature>.yaml) instead of -o")
	files, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(files) == 0 {
		return usageError{"usage: portlab bench merge [-o FILE | --split DIR] [--allow-mixed] RESULTS..."}
	}
	if *split != "" && *out != "-" {
		return usageError{"give -o FILE or --split DIR, not both"}
	}
	var parts [][]*results.Benchmark
	for _, f := range files {
		bs, err := results.ReadFile(f)
		if err != nil {
			return err
		}
		parts = append(parts, bs)
	}
	m := sweep.MergeGroups(parts)
	if *split != "" {
		if err := os.MkdirAll(*split, 0o755); err != nil {
			return err
		}
		for _, g := range m.Groups {
			p := filepath.Join(*split, sweep.TypeFileName(g.Type))
			if err := results.WriteFile(p, g.Results); err != nil {
				return err
			}
			fmt.Fprintf(stderr, "%s: %d results from %s\n", p, len(g.Results), nodeList(g.Nodes))
		}
		fmt.Fprintf(stderr, "merged %d files into %d CPU types (%d duplicates dropped)\n", len(files), len(m.Groups), m.Duplicates)
		return nil
	}
	if err := m.CheckOneType(*allowMixed); err != nil {
		return err
	}
	merged := m.All()
	if *out == "-" {
		if err := results.Write(stdout, merged); err != nil {
			return err
		}
	} else if err := results.WriteFile(*out, merged); err != nil {
		return err
	}
	fmt.Fprintf(stderr, "merged %d files: %d results (%d duplicates dropped) of %s\n", len(files), len(merged), m.Duplicates, strings.Join(m.Types(), ", "))
	return nil
}

// nodeList names the machines of a merge group.
func nodeList(nodes []string) string {
	switch len(nodes) {
	case 0:
		return "unnamed machines"
	case 1:
		return "1 node (" + nodes[0] + ")"
	}
	if len(nodes) > 5 {
		return fmt.Sprintf("%d nodes (%s, ...)", len(nodes), strings.Join(nodes[:5], ", "))
	}
	return fmt.Sprintf("%d nodes (%s)", len(nodes), strings.Join(nodes, ", "))
}

func runBenchCompare(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("bench compare", stderr)
	tol := fs.Float64("tolerance", 0.01, "relative difference counted as agreement")
	worst := fs.Int("worst", 20, "list this many of the largest differences")
	htmlOut := fs.String("html", "", "also write a self-contained HTML report with a figure of the differences to this file")
	asJSON := fs.Bool("json", false, "print the comparison as JSON (every benchmark outside the tolerance, the groups that moved together) instead of the text")
	files, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(files) != 2 {
		return usageError{"usage: portlab bench compare [--tolerance 0.01] [--worst 20] [--html F] [--json] A.yaml B.yaml"}
	}
	a, err := results.ReadFile(files[0])
	if err != nil {
		return err
	}
	b, err := results.ReadFile(files[1])
	if err != nil {
		return err
	}
	ag := sweep.Compare(a, b, *tol, *worst)
	rep := sweep.CompareReport{A: files[0], B: files[1], Command: commandLine("bench compare", args), Ag: ag}
	if *htmlOut != "" {
		var buf bytes.Buffer
		if err := sweep.WriteCompareHTML(&buf, rep); err != nil {
			return err
		}
		if err := fsutil.WriteFileAtomic(*htmlOut, buf.Bytes(), 0o644); err != nil {
			return err
		}
	}
	if *asJSON {
		return sweep.WriteCompareJSON(stdout, rep)
	}
	sweep.WriteAgreement(stdout, ag)
	return nil
}
