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
	register(&command{name: "bench", summary: "measure snippets (llvm-exegesis snippet files) and write exegesis YAML", run: runBench})
}

// stringList is a repeatable string flag.
type stringList []string

func (s *stringList) String() string     { return strings.Join(*s, ",") }
func (s *stringList) Set(v string) error { *s = append(*s, v); return nil }

func runBench(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("bench", stderr)
	var snippetFiles stringList
	fs.Var(&snippetFiles, "snippets-file", "snippet file (llvm-exegesis annotations honoured); '-' reads stdin; repeatable")
	mode := fs.String("mode", "latency", "latency or throughput (exegesis: inverse_throughput)")
	rep := fs.String("repetition-mode", "middle-half-duplicate", "duplicate, loop, min, middle-half-duplicate or middle-half-loop")
	minInstr := fs.Int("min-instructions", 128, "instructions in the short timed body (the long one has twice as many)")
	cpu := fs.Int("cpu", -1, "CPU to pin the measuring worker to (default: the last CPU)")
	reps := fs.Int("repetitions", 21, "repetitions per measurement (disturbed ones are dropped and re-run)")
	out := fs.String("o", "-", "output file ('-' = stdout); written atomically")
	noFTZ := fs.Bool("no-ftz", false, "leave MXCSR flush-to-zero / denormals-are-zero off")
	timeout := fs.Duration("timeout", 2*time.Second, "time limit for one measurement; a snippet that runs longer is reported as hanging")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: portlab bench --snippets-file FILE|- [flags]")
		fs.PrintDefaults()
	}
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usageError{fmt.Sprintf("unexpected argument %q (snippet files go after --snippets-file)", pos[0])}
	}
	if len(snippetFiles) == 0 {
		return usageError{"no --snippets-file given"}
	}
	if _, err := measure.ResultKey(*mode); err != nil {
		return usageError{err.Error()}
	}
	repetition, err := measure.ParseRepetition(*rep)
	if err != nil {
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
	defer eng.Runner.Close()
	eng.Runner.Timeout = *timeout
	opts := measure.Options{Mode: *mode, Repetition: repetition, MinInstructions: *minInstr, Reps: *reps, NoFTZ: *noFTZ}
	if opts.Mode == "throughput" {
		opts.Mode = "inverse_throughput"
	}
	prog := newProgress(stderr, "bench", len(snips))
	ms := eng.MeasureAll(snips, opts, func(done int, m *measure.Measurement) { prog.update(done, m.Snippet.Name) })
	prog.done()
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
