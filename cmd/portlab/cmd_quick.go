package main

import (
	"fmt"
	"io"
	"time"

	"portlab/isa"
	"portlab/measure"
	"portlab/sweep"
)

func init() {
	register(&command{name: "quick", summary: "characterise this host in under a minute: a table of representative forms", run: runQuick})
}

func runQuick(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("quick", stderr)
	cpu := fs.Int("cpu", -1, cpuFlagHelp)
	out := fs.String("o", "", "also write the results (exegesis YAML) to this file")
	record := fs.String("record", "", recordFlagHelp)
	budget := fs.Duration("budget", QuickBudget, "measuring time from the start: no benchmark gets another job after it (those that needed one are marked noisy); 0: as many jobs as the engine's retries allow")
	if err := parseNoArgs(fs, args); err != nil {
		return err
	}
	if *budget < 0 {
		return fmt.Errorf("quick: --budget %v: want a positive duration or 0", *budget)
	}
	began := time.Now()
	eng, info, err := measure.NewHostEngine(*cpu)
	if err != nil {
		return err
	}
	defer eng.Close()
	finishRecording, err := startRecording(eng, info, *record, false, "portlab quick", stderr)
	if err != nil {
		return err
	}
	var forms []*isa.Form
	for _, n := range sweep.QuickForms {
		if f, ok := isa.Lookup(n); ok && f.Supported(info.Has) {
			forms = append(forms, f)
		}
	}
	// A short pause before a second chance: a sweep's 2 s would be most
	// of the table's time on a noisy host. The retries keep the engine's
	// pauses (20 ms, doubling): retried at once, a benchmark lands in the
	// same burst of the neighbour and ends unconverged (31 of 170 with
	// 5 ms pauses on the noisy Zen 4 guest).
	o := sweep.Options{Forms: forms, Latency: true, Throughput: true, CPUName: info.Microarch, HostSig: info.Signature(), Has: info.Has, Out: *out,
		NoisyPause: 100 * time.Millisecond}
	if *budget > 0 {
		o.Measure.Deadline = began.Add(*budget)
		o.NoisyUntil = o.Measure.Deadline
	}
	prog := newProgress(stderr, "quick", len(forms))
	o.Progress = func(done, total int, cur string) { prog.update(done, cur) }
	start := time.Now()
	sum, err := sweep.Run(eng, o)
	prog.done()
	if rerr := finishRecording(err); err == nil {
		err = rerr
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s (%s), %s; %d forms in %v, cycles from the %s\n", info.Microarch, info.Brand, info.Signature(),
		len(forms), time.Since(start).Round(time.Millisecond), clockName(sum))
	fmt.Fprintf(stdout, "%s\n\n", eng.Stats)
	if err := sweep.WriteTable(stdout, sweep.Summarize(sum.Results)); err != nil {
		return err
	}
	if line := sweep.NoiseLine(sum.Results); line != "" {
		fmt.Fprintf(stdout, "\n%s\n", line)
	}
	if eng.Stats.Cut > 0 {
		fmt.Fprintf(stdout, "%d benchmarks wanted more jobs than the %v budget allowed: a larger --budget (0: none) gives them the engine's retries, or measure again when the host is quieter (`portlab noise`)\n", eng.Stats.Cut, *budget)
	}
	return nil
}

// QuickBudget is quick's default measuring time (--budget, from the
// command's start; 0: none, the engine's retries decide). A budget bounds
// the table's time on a noisy host at a price in accuracy: on the Zen 3
// guest with its neighbour disturbing 70-99 % of repetitions (2026-11-29,
// eight runs of each in turn) --budget 3s took 1.9-3.3 s and put 16-34
// of the 35 throughputs within 2 % of the runs' medians, the engine's own
// retries 3.2-8.3 s and 29-35 (docs/benchmarks.md, "Speed").
const QuickBudget = 0

func clockName(s *sweep.Summary) string {
	for _, r := range s.Results {
		if r.Portlab != nil && r.Portlab.Clock != "" {
			if r.Portlab.Clock == "hw-cycles" {
				return "hardware cycle counter"
			}
			return fmt.Sprintf("TSC calibrated in every repetition (%.3f core cycles per tick at the fastest clock)", r.Portlab.CyclesPerTick)
		}
	}
	return "calibrated TSC"
}
