package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"portlab/internal/spin"
	"portlab/measure"
	"portlab/perf"
)

func init() {
	register(&command{name: "noise", summary: "measure this host's noise for a few seconds and say whether measuring now is sound", run: runNoise})
}

// noiseReport is `portlab noise --json`.
type noiseReport struct {
	Host       string               `json:"host"`
	Microarch  string               `json:"microarch"`
	CPU        int                  `json:"cpu"`
	CPUs       []noiseCPU           `json:"cpus"`
	Quiet      *measure.NoiseReport `json:"report"`
	SpinnerCPU int                  `json:"spinner_cpu,omitempty"`
	Spinner    *measure.NoiseReport `json:"with_spinner,omitempty"`
	Sibling    *bool                `json:"spinner_is_sibling,omitempty"`
}

// noiseCPU is how a CPU fared in the check: its jobs, and the share of
// their repetitions that ran beside a busy sibling.
type noiseCPU struct {
	CPU  int     `json:"cpu"`
	Jobs int     `json:"jobs"`
	Busy float64 `json:"busy"`
}

func runNoise(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("noise", stderr)
	cpu := fs.Int("cpu", -1, cpuFlagHelp)
	dur := fs.Duration("duration", 3*time.Second, "how long to measure (at least two rounds)")
	spinner := fs.Bool("spinner", false, "measure again with a busy loop on another CPU: shows whether that CPU shares a core with the measuring one (SMT sibling)")
	asJSON := fs.Bool("json", false, "print JSON instead of text")
	record := fs.String("record", "", "write the raw repetitions of every benchmark of the check, with its known value, to this file (one JSON line each; see docs/method.md)")
	if err := parseNoArgs(fs, args); err != nil {
		return err
	}
	if *dur <= 0 {
		return usageError{fmt.Sprintf("--duration %v: want a positive duration", *dur)}
	}
	eng, info, err := measure.NewHostEngine(*cpu)
	if err != nil {
		return err
	}
	defer eng.Close()
	if *spinner {
		// The busy loop runs on another CPU for the whole check: the
		// engine stays where it starts.
		eng.SetCPUs([]int{eng.CPU()})
	}
	rep := noiseReport{Host: info.Signature(), Microarch: info.Microarch, CPU: eng.CPU()}
	note := "portlab noise"
	if *spinner {
		note += " --spinner"
	}
	finishRecording, err := startRecording(eng, info, *record, true, note, stderr)
	if err != nil {
		return err
	}
	if eng.Recorder != nil {
		eng.Recorder.Known = map[string]float64{}
		for _, c := range measure.Canonicals(info.Microarch) {
			if c.Known > 0 {
				eng.Recorder.Known[c.Name] = c.Known
			}
		}
	}
	check := func(label string) (*measure.NoiseReport, error) {
		// Progress in milliseconds of the duration asked for.
		prog := newProgress(stderr, label, int(dur.Milliseconds()))
		r, err := eng.NoiseCheck(*dur, func(round int, el time.Duration) {
			prog.update(min(int(el.Milliseconds()), int(dur.Milliseconds())), fmt.Sprintf("round %d", round))
		})
		prog.done()
		return r, err
	}
	if rep.Quiet, err = check("noise"); err != nil {
		finishRecording(err)
		return err
	}
	if *spinner {
		other := spin.Other(eng.CPU())
		if other < 0 {
			return fmt.Errorf("--spinner: this process may run on no CPU but the measuring one (%d)", eng.CPU())
		}
		s, err := spin.Start(other)
		if err != nil {
			return err
		}
		rep.SpinnerCPU = other
		rep.Spinner, err = check("noise beside a spinner")
		s.Stop()
		if err != nil {
			finishRecording(err)
			return err
		}
		sib := spinnerSlows(rep.Quiet, rep.Spinner)
		rep.Sibling = &sib
	}
	if err := finishRecording(nil); err != nil {
		return err
	}
	for _, c := range eng.CPUs() {
		if n := eng.Stats.JobsOn[c]; n > 0 {
			rep.CPUs = append(rep.CPUs, noiseCPU{CPU: c, Jobs: n, Busy: eng.Stats.BusyOn[c] / float64(n)})
		}
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(rep)
	}
	byCPU := ""
	if cpus := eng.CPUs(); len(cpus) == 1 {
		fmt.Fprintf(stdout, "%s (%s), measuring on CPU %d\n\n", info.Microarch, info.Signature(), rep.CPU)
	} else {
		fmt.Fprintf(stdout, "%s (%s), measuring on CPUs %s, moving to the next after a job beside a busy sibling\n\n", info.Microarch, info.Signature(), cpuList(cpus))
		var parts []string
		for _, c := range rep.CPUs {
			parts = append(parts, fmt.Sprintf("CPU %d %.0f%% of %d jobs", c.CPU, 100*c.Busy, c.Jobs))
		}
		byCPU = fmt.Sprintf("repetitions beside a busy sibling by CPU: %s; moved %d times", strings.Join(parts, ", "), eng.Stats.Moves)
	}
	writeNoise(stdout, rep.Quiet, byCPU)
	if rep.Spinner != nil {
		fmt.Fprintf(stdout, "\nwith a busy loop on CPU %d:\n\n", rep.SpinnerCPU)
		writeNoise(stdout, rep.Spinner, "")
		if *rep.Sibling {
			fmt.Fprintf(stdout, "\nCPU %d shares a core with CPU %d (the busy loop slowed throughput-bound code): keep it idle while measuring.\n", rep.SpinnerCPU, rep.CPU)
		} else {
			fmt.Fprintf(stdout, "\nCPU %d does not slow CPU %d: not an SMT sibling as far as this check can tell.\n", rep.SpinnerCPU, rep.CPU)
		}
	}
	return nil
}

// spinnerSlows reports whether a spinner slowed the throughput canary
// (the adds' stream, or the canary's typical repetition) by 3 % or more.
func spinnerSlows(quiet, spun *measure.NoiseReport) bool {
	canon := measure.Canonicals("") // the modes alone
	for i, row := range spun.Rows {
		if canon[i].Mode != "latency" && row.Median > quiet.Rows[i].Median*(1+perf.SiblingSlack) {
			return true
		}
	}
	return spun.Sibling > quiet.Sibling+perf.SiblingSlack
}

func writeNoise(w io.Writer, r *measure.NoiseReport, byCPU string) {
	fmt.Fprintf(w, "%-26s %8s %9s %8s %9s %8s %11s\n", "benchmark", "known", "measured", "spread", "converged", "off >1%", "repetitions")
	for _, row := range r.Rows {
		known := "-"
		if row.Known > 0 {
			known = fmt.Sprintf("%.3f", row.Known)
		}
		fmt.Fprintf(w, "%-26s %8s %9.4f %7.2f%% %5d/%-3d %8d %11.0f\n", row.Name, known, row.Median, 100*row.Spread, row.Converged, len(row.Values), row.Outliers, row.Reps)
	}
	fmt.Fprintf(w, "\n%d rounds in %v; %.0f%% of repetitions disturbed; throughput canary slowed %.1f%% in the typical benchmark, %.1f%% at most; core clock moved %.1f%%\n",
		r.Rounds, r.Duration.Round(100*time.Millisecond), 100*r.Disturbed, 100*r.Sibling, 100*r.SiblingMax, 100*r.Clock)
	if byCPU != "" {
		fmt.Fprintln(w, byCPU)
	}
	fmt.Fprintln(w, "spread: the middle 80 % of the rounds; off >1%: converged rounds more than 1 % from the median")
	fmt.Fprintln(w, r.Verdict)
}
