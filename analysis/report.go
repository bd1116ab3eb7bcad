package analysis

import (
	"fmt"
	"io"
	"math"
	"strings"

	"portlab/analysis/pipeline"
)

// Views selects the reports of an analysis, as llvm-mca's view flags do.
type Views struct {
	Summary          bool // -summary-view (default on)
	Static           bool // portlab's static analysis (default on)
	InstructionInfo  bool // -instruction-info (default on)
	ResourcePressure bool // -resource-pressure (default on)
	Timeline         bool // -timeline
	// TimelineMaxIterations and TimelineMaxCycles bound the timeline (10
	// and 80 by default, as in llvm-mca).
	TimelineMaxIterations int
	TimelineMaxCycles     int
	Bottleneck            bool // -bottleneck-analysis
	DispatchStats         bool // -dispatch-stats
	SchedulerStats        bool // -scheduler-stats
	RetireStats           bool // -retire-stats
	RegisterFileStats     bool // -register-file-stats
	ShowEncoding          bool // -show-encoding
	// InstructionTables prints the instruction info and each instruction's
	// resource pressure from the model alone, without simulating
	// (-instruction-tables).
	InstructionTables bool
}

// DefaultViews are llvm-mca's defaults plus the static analysis.
func DefaultViews() Views {
	return Views{Summary: true, Static: true, InstructionInfo: true, ResourcePressure: true,
		TimelineMaxIterations: 10, TimelineMaxCycles: 80}
}

// AllViews turns every view on (-all-views).
func (v *Views) AllViews() {
	v.Summary, v.Static, v.InstructionInfo, v.ResourcePressure, v.Timeline, v.Bottleneck = true, true, true, true, true, true
	v.AllStats()
}

// AllStats turns the statistics views on (-all-stats).
func (v *Views) AllStats() {
	v.DispatchStats, v.SchedulerStats, v.RetireStats, v.RegisterFileStats = true, true, true, true
}

// View is one report about a region. Views that need the simulation also
// implement pipeline.Listener; they are registered before the run and
// learn everything from the pipeline's events.
type View interface {
	// Name is the view's key in JSON output ("SummaryView").
	Name() string
	// PrintText writes the view as llvm-mca would (portlab's own views in
	// the same style).
	PrintText(w io.Writer, r *Report)
	// JSON returns the view's JSON value.
	JSON(r *Report) any
}

// Report is the analysis of one region.
type Report struct {
	Index      int
	Kernel     *Kernel
	Static     *Static
	Config     pipeline.Config
	Iterations int
	// Result is the simulation's outcome (zero for instruction tables).
	Result    pipeline.Result
	Simulated bool
	Views     []View
	Notes     []string
}

// CyclesPerIteration is the simulated cycles divided by the iterations.
func (r *Report) CyclesPerIteration() float64 {
	if r.Iterations == 0 {
		return 0
	}
	return float64(r.Result.Cycles) / float64(r.Iterations)
}

// BlockRThroughput is llvm-mca's block reciprocal throughput: the larger
// of the dispatch bound and the port bound (here the optimal balancing).
func (r *Report) BlockRThroughput() float64 {
	return math.Max(r.Static.PortBound, r.Static.DispatchBound)
}

// Analyze runs the static analysis and, unless the views ask for
// instruction tables only, the simulation, with the selected views
// listening.
func Analyze(k *Kernel, opt Options, v Views) (*Report, error) {
	cfg, notes, err := Config(k.Model, opt)
	if err != nil {
		return nil, err
	}
	iters := opt.Iterations
	if iters <= 0 {
		iters = DefaultIterations
	}
	st, err := k.Analyze(cfg.DispatchWidth)
	if err != nil {
		return nil, err
	}
	r := &Report{Kernel: k, Static: st, Config: cfg, Iterations: iters, Notes: append(append([]string(nil), k.Notes...), notes...)}
	if v.InstructionTables {
		r.Iterations = 0
		r.Views = append(r.Views, &instructionInfoView{encoding: v.ShowEncoding}, &instructionTablesView{})
		if v.Static {
			r.Views = append(r.Views, &staticView{})
		}
		return r, nil
	}
	if v.Summary {
		r.Views = append(r.Views, &summaryView{})
	}
	if v.Static {
		r.Views = append(r.Views, &staticView{})
	}
	if v.Bottleneck {
		r.Views = append(r.Views, newBottleneckView(k))
	}
	if v.InstructionInfo {
		r.Views = append(r.Views, &instructionInfoView{encoding: v.ShowEncoding})
	}
	if v.DispatchStats {
		r.Views = append(r.Views, newDispatchStats())
	}
	if v.SchedulerStats {
		r.Views = append(r.Views, newSchedulerStats(&cfg))
	}
	if v.RetireStats {
		r.Views = append(r.Views, newRetireStats(&cfg))
	}
	if v.RegisterFileStats {
		r.Views = append(r.Views, newRegisterFileStats(&cfg))
	}
	if v.ResourcePressure {
		r.Views = append(r.Views, newPressureView(k))
	}
	if v.Timeline {
		mi, mc := v.TimelineMaxIterations, v.TimelineMaxCycles
		if mi <= 0 {
			mi = 10
		}
		if mc <= 0 {
			mc = 80
		}
		r.Views = append(r.Views, newTimelineView(k, min(mi, iters), mc))
	}
	p, err := pipeline.New(cfg)
	if err != nil {
		return nil, err
	}
	for _, view := range r.Views {
		if l, ok := view.(pipeline.Listener); ok {
			p.AddListener(l)
		}
	}
	block := make([]*pipeline.InstrDesc, len(k.Instrs))
	for i, x := range k.Instrs {
		block[i] = &x.Desc
	}
	res, err := p.Run(block, iters)
	if err != nil {
		return nil, fmt.Errorf("region %q: %v", k.Region.Label(), err)
	}
	r.Result = res
	r.Simulated = true
	return r, nil
}

// PrintText writes the reports as llvm-mca does: each region's views in
// turn, with a region header when there are several or they are named.
func PrintText(w io.Writer, reports []*Report) {
	named := len(reports) > 1
	for _, r := range reports {
		if r.Kernel.Name != "" {
			named = true
		}
	}
	for i, r := range reports {
		if named {
			if i > 0 {
				fmt.Fprint(w, "\n")
			}
			fmt.Fprintf(w, "\n[%d] Code Region", i)
			if r.Kernel.Name != "" {
				fmt.Fprintf(w, " - %s", r.Kernel.Name)
			}
			fmt.Fprint(w, "\n\n")
		}
		for _, n := range r.Notes {
			fmt.Fprintf(w, "note: %s\n", n)
		}
		if len(r.Notes) > 0 {
			fmt.Fprint(w, "\n")
		}
		for _, v := range r.Views {
			v.PrintText(w, r)
		}
	}
}

// instText returns the text of instruction i.
func (r *Report) instText(i int) string { return r.Kernel.Instrs[i].Text }

// pad appends spaces to b until it is col bytes past start.
func padTo(sb *strings.Builder, start, col int) {
	for sb.Len()-start < col {
		sb.WriteByte(' ')
	}
}

// fmt2 renders a value as llvm-mca's "%.2f" of the value rounded to
// hundredths.
func fmt2(v float64) string { return fmt.Sprintf("%.2f", math.Floor(v*100+0.5)/100) }
func fmt1(v float64) string { return fmt.Sprintf("%.1f", math.Floor(v*10+0.5)/10) }
