package modeldb

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"portlab/internal/stats"
	"portlab/isa"
)

// Line splits: a load that crosses a 64-byte cache line takes more of the
// load ports than one within a line. On the Zen 3 guest
// (AuthenticAMD-19-1-1, 2026-11-28) four independent loads a copy, each
// crossing a line, took exactly twice the cycles of the same loads
// within lines, at every width (`mov r64`, `movups xmm`, `vmovups ymm`;
// testdata/experiments/line_splits.s). The forms' own throughput streams
// stay within lines and cannot show it. The model keeps, per access
// class, how many times its load ports a split load takes
// (Model.LoadLineSplit), measured by the line-split streams
// (LineSplitKind), and the analyzer gives a load those ports in the
// iterations where its address crosses a line. A store that crosses a
// line writes two lines, which the store commit counts (analysis
// package, pipeline.StoreLine).

// LineSplitKind is the result kind of the line-split streams
// (gen.LineSplitBenches): eight independent plain loads a copy, each
// crossing a line (Operands LineSplitLoad).
const LineSplitKind = "line-split"

// LineSplitLoad is the line-split streams' operands.
const LineSplitLoad = "load"

// LineSplitForms are the plain loads the line-split streams measure, by
// form, with the access class (gpr, xmm, ymm, zmm) and bytes.
var LineSplitForms = map[string]LineSplitForm{
	"mov r64, m64":      {"gpr", 8},
	"movups xmm, m128":  {"xmm", 16},
	"vmovups ymm, m256": {"ymm", 32},
	"vmovups zmm, m512": {"zmm", 64},
}

// LineSplitPlainLoad is the plain load of an access class that the
// line-split streams measure ("vmovups ymm, m256"); "" for none.
func LineSplitPlainLoad(class string) string {
	for form, lf := range LineSplitForms {
		if lf.Class == class {
			return form
		}
	}
	return ""
}

// LineSplitForm is a plain load's access class and bytes.
type LineSplitForm struct {
	Class string
	Bytes int
}

// LineSplitClass is the access class of a memory operand of the given
// bytes: gpr up to 8, then xmm, ymm, zmm; "" for none.
func LineSplitClass(bytes int) string {
	switch {
	case bytes <= 0:
		return ""
	case bytes <= 8:
		return "gpr"
	case bytes <= 16:
		return "xmm"
	case bytes <= 32:
		return "ymm"
	case bytes <= 64:
		return "zmm"
	}
	return ""
}

// MemoryBytes is how many bytes a memory operand kind accesses (0 for
// untyped memory, lea's m, and far pointers).
func MemoryBytes(k isa.Kind) int {
	switch k {
	case isa.KindM8:
		return 1
	case isa.KindM16, isa.KindM16B:
		return 2
	case isa.KindM32, isa.KindM32B:
		return 4
	case isa.KindM64, isa.KindM64B:
		return 8
	case isa.KindM80:
		return 10
	case isa.KindM128:
		return 16
	case isa.KindM256:
		return 32
	case isa.KindM512:
		return 64
	}
	return 0
}

// LineSplitRun is one stream's cycles a load and its uncertainty, and
// whether that came from converged results.
type LineSplitRun struct {
	Cycles, Uncertainty float64
	Converged           bool
}

// lineSplitValue is one result of a line-split stream.
type lineSplitValue struct {
	cycles, uncertainty float64
	converged           bool
}

// lineSplitRunOf sums up a stream's results: the median of the
// converged ones, else the fastest (noise only adds time; on the Zen 3
// guest the gpr stream never converged with the neighbour busy and read
// 0.69-1.02 cycles a load over six results, where kernels of the same
// loads ran at 0.665 every time).
func lineSplitRunOf(vals []lineSplitValue) *LineSplitRun {
	var conv, unc []float64
	fastest := -1
	for i, v := range vals {
		if v.converged {
			conv = append(conv, v.cycles)
			unc = append(unc, v.uncertainty)
		}
		if fastest < 0 || v.cycles < vals[fastest].cycles {
			fastest = i
		}
	}
	if len(conv) > 0 {
		return &LineSplitRun{Cycles: stats.Median(conv), Uncertainty: stats.Median(unc), Converged: true}
	}
	if fastest < 0 {
		return nil
	}
	return &LineSplitRun{Cycles: vals[fastest].cycles, Uncertainty: vals[fastest].uncertainty}
}

// lineSplitShows is how many times the plain access's throughput, beyond
// the stream's uncertainty, a split stream must take for splits to
// count: converged streams agree within a percent or two, the Zen 3
// guest's splits take twice.
const lineSplitShows = 1.1

// lineSplitOf derives the factor per class: the split
// stream's cycles per access over the plain form's measured throughput
// (plain, by header key), where at least lineSplitShows beyond the
// stream's uncertainty, to the hundredth, at most 8; nil where none
// shows.
func lineSplitOf(runs map[string]*LineSplitRun, plain map[string]float64) map[string]float64 {
	var out map[string]float64
	for key, r := range runs {
		p := plain[key]
		if r == nil || r.Cycles <= 0 || p <= 0 || (r.Cycles-r.Uncertainty)/p < lineSplitShows {
			continue
		}
		if out == nil {
			out = map[string]float64{}
		}
		out[key] = math.Min(8, math.Round(r.Cycles/p*100)/100)
	}
	return out
}

// lineSplitText is the header as model diff and the build report print
// it ("xmm x2.00, ymm x2.00"; "" for none).
func lineSplitText(m map[string]float64) string {
	return keyedText(m, func(x float64) string { return fmt.Sprintf("x%.2f", x) })
}

func validateLineSplit(m map[string]float64) error {
	return checkKeyed("load_line_split", "class", m, []string{"gpr", "xmm", "ymm", "zmm"}, 1, 8, func(f float64) string { return fmt.Sprintf("x%g", f) })
}

// lineSplits sets how much more of the load ports a line-crossing load
// takes, per class, from the line-split streams against the plain
// loads' throughputs.
func (b *builder) lineSplits(r *Pass) error {
	runs := b.ms.LineSplit
	if len(runs) == 0 {
		r.Evidence = "line-split streams not measured"
		if len(b.m.LoadLineSplit) > 0 {
			r.Evidence += ": the base's load_line_split stays (" + lineSplitText(b.m.LoadLineSplit) + ")"
		}
		return nil
	}
	plain := map[string]float64{}
	var seen []string
	for _, form := range slices.Sorted(maps.Keys(LineSplitForms)) {
		key := LineSplitForms[form].Class
		run := runs[key]
		if run == nil {
			continue
		}
		if e, ok := b.m.Lookup(form); ok {
			plain[key] = e.Throughput
		}
		how := ""
		if !run.Converged {
			how = " (none converged: the fastest)"
		}
		seen = append(seen, fmt.Sprintf("%s %.3f +- %.3f cycles a load split%s, %.3f within a line", key, run.Cycles, run.Uncertainty, how, plain[key]))
	}
	r.Evidence = "line-split streams: " + strings.Join(seen, "; ")
	ls := lineSplitOf(runs, plain)
	b.m.LoadLineSplit = ls
	if len(ls) > 0 {
		r.Applied = true
		r.Changes = append(r.Changes, "load_line_split: "+lineSplitText(ls))
	}
	return nil
}

// lineSplitOf says what the model's load_line_split does to entry e
// (model show), "" where nothing: a form that reads memory, by its
// operand's class.
func (m *Model) lineSplitOf(e *Entry) string {
	if len(m.LoadLineSplit) == 0 {
		return ""
	}
	f, ok := isa.Lookup(e.Form)
	if !ok || f.Mnemonic == "lea" {
		return ""
	}
	for _, o := range f.Operands {
		if !o.Kind.IsMemory() || o.Access&isa.Read == 0 || o.Kind.IsBroadcast() {
			continue
		}
		class := LineSplitClass(MemoryBytes(o.Kind))
		if x := m.LoadLineSplit[class]; x > 1 {
			return fmt.Sprintf("where its %d bytes cross a 64-byte line, it takes the load ports of %s %s times (the model's load_line_split)", MemoryBytes(o.Kind), LineSplitPlainLoad(class), FormatNum(x))
		}
	}
	return ""
}
