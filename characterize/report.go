package characterize

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"
)

// WriteText prints what a run achieved: where the model went, the
// validation draw and the kernels for the new model, its base and the
// peers, and the time per step.
func WriteText(w io.Writer, r *Report) {
	fmt.Fprintf(w, "host       %s\n", r.Host)
	fmt.Fprintf(w, "date       %s\n", r.Date)
	if r.Command != "" {
		fmt.Fprintf(w, "command    %s\n", r.Command)
	}
	fmt.Fprintf(w, "model      %s\n", r.Model)
	for _, p := range r.Installed {
		fmt.Fprintf(w, "written to %s\n", p)
	}
	if r.Base != "" {
		fmt.Fprintf(w, "base       %s\n", r.Base)
	}
	if r.Bases != "" {
		fmt.Fprintf(w, "           %s\n", r.Bases)
	}
	fmt.Fprintf(w, "time       %s of a %s budget\n", r.Elapsed, r.Budget)
	if r.Cut {
		fmt.Fprintln(w, "           the run fell behind its plan and measured fewer mixes than planned")
	}
	if p := r.Plan; p != nil {
		fmt.Fprintf(w, "plan       port-conflict mixes of %d of %d forms (%d mixes), %d fit mixes (%.1f ms a mix)\n",
			p.PortsForms, p.AllForms, p.PortMixes, p.FitMixes, 1000*p.MixSeconds)
	}
	if len(r.Mixes) > 0 {
		fmt.Fprintln(w, "\nvalidation draw (random mixes never fitted), predicted within 10 %:")
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "  model\tmixes\tbottleneck bound\tsimulated code")
		for _, m := range r.Mixes {
			fmt.Fprintf(tw, "  %s\t%d\t%.1f %%\t%.1f %%\n", m.Model, m.N, 100*m.Within, 100*m.Simulated)
		}
		tw.Flush()
		if d := r.DrawRepeat; d != nil {
			fmt.Fprintf(w, "  the draw's two rounds (before and after the mixes) agree within %.0f %% on %.1f %% of %d mixes: what the host repeats, the reach of any model's score\n", 100*d.Tolerance, 100*d.Within, d.N)
		}
		if m := r.Mixes[0]; len(m.ByMemory) > 1 {
			fmt.Fprintf(w, "  %s, simulated, by memory access:\n", m.Model)
			tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
			fmt.Fprintln(tw, "    mixes touching\tmixes\twithin 10 %\tmedian error")
			for _, k := range m.ByMemory {
				fmt.Fprintf(tw, "    %s\t%d\t%.1f %%\t%+.1f %%\n", k.Kind, k.N, 100*k.Within, 100*k.Median)
			}
			tw.Flush()
		}
	}
	if len(r.Kernels) > 0 {
		fmt.Fprintln(w, "\nkernels measured on this host:")
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "  predictor\tkernels\tMAPE\tKendall tau-b\twithin 10 %")
		for _, s := range r.Kernels {
			fmt.Fprintf(tw, "  %s\t%d\t%.1f %%\t%.3f\t%d\n", s.Predictor, s.N, s.MAPE, s.Tau, s.Within10)
		}
		tw.Flush()
	}
	fmt.Fprintln(w, "\ntime per step:")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, s := range r.Steps {
		line := fmt.Sprintf("  %s\t%v", s.Step, time.Duration(s.Seconds*float64(time.Second)).Round(time.Second))
		if s.Benchmarks > 0 {
			line += fmt.Sprintf("\t%d benchmarks", s.Benchmarks)
		} else {
			line += "\t"
		}
		if s.Note != "" {
			line += "\t" + s.Note
		}
		fmt.Fprintln(tw, line)
	}
	tw.Flush()
	if r.Build != "" {
		fmt.Fprintln(w, "\nthe build:")
		for _, l := range strings.Split(strings.TrimRight(r.Build, "\n"), "\n") {
			fmt.Fprintln(w, "  "+l)
		}
	}
}
