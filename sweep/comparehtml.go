package sweep

import (
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"math"
	"sort"
	"strings"

	"portlab/internal/figure"
)

// CompareReport is what the HTML report of a comparison shows besides the
// agreement: the two files and the command that compared them.
type CompareReport struct {
	A, B    string // the files
	Command string
	Ag      Agreement
}

// groupColors tell the moved-together groups apart in the figure; benchmarks
// outside the tolerance in no group are grey.
var groupColors = []string{"#c0392b", "#2471a3", "#d68910", "#7d3c98", "#138d75", "#a04000", "#2e4053", "#b03a2e"}

// WriteCompareHTML writes a self-contained HTML report of a comparison of
// two sweeps: the agreement, a figure of every benchmark outside the
// tolerance (its value in the first sweep against its difference in the
// second, the moved-together groups coloured), the groups and the largest
// differences.
func WriteCompareHTML(w io.Writer, r CompareReport) error {
	type group struct {
		Index int
		Color string
		Shift
	}
	var groups []group
	for i, sh := range r.Ag.Together {
		groups = append(groups, group{i + 1, groupColors[i%len(groupColors)], sh})
	}
	return comparePage.Execute(w, struct {
		R      CompareReport
		SVG    template.HTML
		Groups []group
	}{r, compareFigure(r), groups})
}

// compareFigure plots each benchmark outside the tolerance at its value in
// sweep A (log) and its difference in sweep B (percent, clipped to the
// axis, a clipped point drawn as a triangle), over the band of the
// tolerance. The caption carries both hosts, the dates and the command.
func compareFigure(r CompareReport) template.HTML {
	ag := r.Ag
	// A value of zero or less has no place on the log axis (a latency
	// that measured nothing): such benchmarks are counted, not drawn.
	var pts []Difference
	for _, d := range ag.Outside {
		if d.A > 0 && d.B > 0 {
			pts = append(pts, d)
		}
	}
	if len(pts) == 0 {
		if len(ag.Outside) > 0 {
			return template.HTML(fmt.Sprintf("<p>%d benchmarks outside the tolerance, none with two positive values to plot</p>", len(ag.Outside)))
		}
		return template.HTML("<p>every benchmark both sweeps measured agrees within the tolerance: nothing to plot</p>")
	}
	const W, left, right, top, bottom = 760.0, 62.0, 26.0, 64.0, 342.0
	caption := fmt.Sprintf("first: %s (%s)%s; second: %s (%s)%s", r.A, orNone(ag.HostA), dates(ag.FirstA, ag.LastA), r.B, orNone(ag.HostB), dates(ag.FirstB, ag.LastB))
	if r.Command != "" {
		caption += "; " + r.Command
	}
	capLines := figure.Words(caption, int(math.Floor((W-12)/6.0)))
	H := bottom + 56 + 12*float64(len(capLines)-1) + 10
	color := map[string]string{}
	for i, sh := range ag.Together {
		for _, id := range sh.IDs {
			color[id] = groupColors[i%len(groupColors)]
		}
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	var pcts []float64
	for _, d := range pts {
		lo, hi = math.Min(lo, d.A), math.Max(hi, d.A)
		pcts = append(pcts, math.Abs(100*(d.B/d.A-1)))
	}
	// The y axis spans the differences up to their 95th percentile (at
	// least twice the tolerance, at most 100 %), the rest clipped.
	sort.Float64s(pcts)
	ymax := pcts[int(0.95*float64(len(pcts)-1))]
	ymax = math.Min(math.Max(ymax, 200*ag.Tolerance), 100)
	step := figure.NiceStep(ymax / 4)
	ymax = math.Ceil(ymax/step) * step
	l0, l1 := math.Floor(math.Log10(lo)), math.Ceil(math.Log10(hi))
	if l1 <= l0 {
		l1 = l0 + 1
	}
	sx := func(v float64) float64 { return left + (math.Log10(v)-l0)/(l1-l0)*(W-left-right) }
	sy := func(p float64) float64 { return top + (ymax-p)/(2*ymax)*(bottom-top) }
	esc := template.HTMLEscapeString
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%g" height="%g" viewBox="0 0 %g %g" role="img" aria-label="differences between two sweeps">`, W, H, W, H)
	head := fmt.Sprintf("%d benchmarks outside ±%.1f%% of %d compared", len(ag.Outside), 100*ag.Tolerance, ag.Compared)
	if n := len(ag.Outside) - len(pts); n > 0 {
		head += fmt.Sprintf(" (%d with a value of 0 not drawn)", n)
	}
	fmt.Fprintf(&b, `<text x="6" y="18" font-size="13" font-weight="600">%s</text>`, esc(head))
	legend := figure.Words("each point a benchmark: its value in the first sweep (x) and how far the second read it (y); colours: the groups that moved by one factor (table below); grey: the others; band: the tolerance; triangles: clipped at the axis", int(math.Floor((W-12)/6.4)))
	for i, l := range legend {
		fmt.Fprintf(&b, `<text x="6" y="%d" font-size="11" fill="#555">%s</text>`, 34+13*i, esc(l))
	}
	fmt.Fprintf(&b, `<rect x="%g" y="%g" width="%g" height="%g" fill="#fafafa" stroke="#ccc"/>`, left, top, W-left-right, bottom-top)
	fmt.Fprintf(&b, `<rect x="%g" y="%.1f" width="%g" height="%.1f" fill="#e3f1e3"/>`, left, sy(100*ag.Tolerance), W-left-right, sy(-100*ag.Tolerance)-sy(100*ag.Tolerance))
	for p := -ymax; p <= ymax+1e-9; p += step {
		fmt.Fprintf(&b, `<line x1="%g" y1="%.1f" x2="%g" y2="%.1f" stroke="%s"/>`, left, sy(p), W-right, sy(p), map[bool]string{true: "#999", false: "#eee"}[math.Abs(p) < 1e-9])
		label := fmt.Sprintf("%+g%%", p)
		if math.Abs(p) < 1e-9 {
			label = "0%"
		}
		fmt.Fprintf(&b, `<text x="%g" y="%.1f" font-size="11" text-anchor="end">%s</text>`, left-6, sy(p)+4, label)
	}
	for e := l0; e <= l1; e++ {
		v := math.Pow(10, e)
		fmt.Fprintf(&b, `<line x1="%.1f" y1="%g" x2="%.1f" y2="%g" stroke="#eee"/>`, sx(v), top, sx(v), bottom)
		fmt.Fprintf(&b, `<text x="%.1f" y="%g" font-size="11" text-anchor="middle">%g</text>`, sx(v), bottom+16, v)
	}
	fmt.Fprintf(&b, `<text x="%g" y="%g" font-size="12" text-anchor="middle">value in the first sweep, cycles (log)</text>`, (left+W-right)/2, bottom+34)
	fmt.Fprintf(&b, `<text x="14" y="%g" font-size="12" text-anchor="middle" transform="rotate(-90 14 %g)">second sweep against the first</text>`, (top+bottom)/2, (top+bottom)/2)
	// Grey points first, the groups' over them.
	for _, grey := range []bool{true, false} {
		for _, d := range pts {
			c, ok := color[d.ID]
			if ok == grey {
				continue
			}
			if !ok {
				c = "#999"
			}
			p := 100 * (d.B/d.A - 1)
			what := d.Kind
			if d.Operands != "" {
				what += " " + d.Operands
			}
			tip := esc(fmt.Sprintf("%s, %s: %.4g -> %.4g (%+.1f%%)", d.Form, what, d.A, d.B, p))
			x := sx(d.A)
			if math.Abs(p) > ymax {
				y, dy := sy(math.Copysign(ymax, p)), math.Copysign(-5, p)
				fmt.Fprintf(&b, `<polygon points="%.1f,%.1f %.1f,%.1f %.1f,%.1f" fill="%s"><title>%s</title></polygon>`, x, y+dy, x-4, y, x+4, y, c, tip)
				continue
			}
			fmt.Fprintf(&b, `<circle cx="%.1f" cy="%.1f" r="3" fill="%s" fill-opacity="0.75"><title>%s</title></circle>`, x, sy(p), c, tip)
		}
	}
	for i, l := range capLines {
		fmt.Fprintf(&b, `<text x="6" y="%g" font-size="10.5" fill="#555">%s</text>`, bottom+56+12*float64(i), esc(l))
	}
	b.WriteString(`</svg>`)
	return template.HTML(b.String())
}

func orNone(s string) string {
	if s == "" {
		return "host not recorded"
	}
	return s
}

func dates(first, last string) string {
	switch {
	case first == "":
		return ""
	case first == last:
		return ", " + first
	}
	return ", " + first + " to " + last
}

var comparePage = template.Must(template.New("c").Funcs(template.FuncMap{
	"pct100": func(f float64) string { return fmt.Sprintf("%.1f%%", 100*f) },
	"change": func(factor float64) string { return fmt.Sprintf("%+.1f%%", 100*(factor-1)) },
	"share": func(n, d int) string {
		if d == 0 {
			return "-"
		}
		return fmt.Sprintf("%.2f%%", 100*float64(n)/float64(d))
	},
}).Parse(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>portlab bench compare — {{.R.A}} and {{.R.B}}</title>
<style>
body{font:14px/1.45 system-ui,sans-serif;margin:24px;color:#222;max-width:1200px}
h1{font-size:20px}table{border-collapse:collapse;margin:12px 0}td,th{padding:3px 9px;border-bottom:1px solid #e5e5e5;text-align:right}
th{background:#f3f3f3}td:first-child,th:first-child{text-align:left}td.l{text-align:left}
svg{max-width:100%;height:auto;border:1px solid #e5e5e5;border-radius:6px}
p.cmd code{background:#f3f3f3;padding:2px 6px;border-radius:4px;font-size:12.5px;overflow-wrap:anywhere}
span.sw{display:inline-block;width:10px;height:10px;border-radius:5px;margin-right:6px}
</style></head><body>
<h1>portlab bench compare: two sweeps</h1>
<p>First {{.R.A}}{{with .R.Ag.HostA}} ({{.}}){{end}}{{with .R.Ag.FirstA}}, measured {{.}}{{end}}{{if ne .R.Ag.LastA .R.Ag.FirstA}} to {{.R.Ag.LastA}}{{end}}; second {{.R.B}}{{with .R.Ag.HostB}} ({{.}}){{end}}{{with .R.Ag.FirstB}}, measured {{.}}{{end}}{{if ne .R.Ag.LastB .R.Ag.FirstB}} to {{.R.Ag.LastB}}{{end}}. Benchmarks are matched by content; a form agrees when every benchmark of it both sweeps measured is within the tolerance.</p>
{{with .R.Command}}<p class="cmd"><code>$ {{.}}</code></p>{{end}}
<table>
<tr><th></th><th>agree</th><th>of</th><th>share</th></tr>
<tr><td>forms, every benchmark within {{pct100 .R.Ag.Tolerance}}</td><td>{{.R.Ag.FormsWithin}}</td><td>{{.R.Ag.FormsCompared}}</td><td>{{share .R.Ag.FormsWithin .R.Ag.FormsCompared}}</td></tr>
<tr><td>benchmarks</td><td>{{.R.Ag.Within}}</td><td>{{.R.Ag.Compared}}</td><td>{{share .R.Ag.Within .R.Ag.Compared}}</td></tr>
{{if .R.Ag.Noisy}}<tr><td>forms, none of whose benchmarks was noisy in either sweep</td><td>{{.R.Ag.QuietFormsWithin}}</td><td>{{.R.Ag.QuietForms}}</td><td>{{share .R.Ag.QuietFormsWithin .R.Ag.QuietForms}}</td></tr>{{end}}
</table>
{{.SVG}}
{{with .Groups}}<h2>Moved together</h2>
<p>Benchmarks outside the tolerance that differ by one factor: a family of forms that ran in another state of the core or host through one sweep's passes. Noise that only adds time adds a different amount to each benchmark.</p>
<table><tr><th>group</th><th>benchmarks</th><th>kind</th><th>factor</th><th>first → second (median)</th><th>family</th><th>e.g.</th></tr>
{{range $i, $g := .}}<tr><td><span class="sw" style="background:{{$g.Color}}"></span>{{$g.Index}}</td><td>{{$g.N}}</td><td class="l">{{$g.Kind}}</td><td>{{change $g.Factor}}</td><td>{{printf "%.4g" $g.A}} → {{printf "%.4g" $g.B}}</td><td class="l">{{if $g.Family}}{{$g.Shared}} {{$g.Family}}*{{else}}mixed: {{range $g.Stems}}{{.}} {{end}}{{end}}</td><td class="l">{{range $g.Examples}}{{.}}; {{end}}</td></tr>
{{end}}</table>{{end}}
{{with .R.Ag.Worst}}<h2>Largest differences</h2>
<table><tr><th>form</th><th>kind</th><th>operands</th><th>first</th><th>second</th><th>difference</th></tr>
{{range .}}<tr><td>{{.Form}}</td><td class="l">{{.Kind}}</td><td class="l">{{.Operands}}</td><td>{{printf "%.4f" .A}}</td><td>{{printf "%.4f" .B}}</td><td>{{pct100 .Rel}}</td></tr>
{{end}}</table>{{end}}
</body></html>
`))

// WriteCompareJSON writes the comparison as JSON: the figures, the hosts
// and dates, the groups that moved together and every benchmark outside
// the tolerance (largest first).
func WriteCompareJSON(w io.Writer, r CompareReport) error {
	ag := r.Ag
	out := struct {
		FileA            string         `json:"a"`
		FileB            string         `json:"b"`
		HostA            string         `json:"a_host,omitempty"`
		HostB            string         `json:"b_host,omitempty"`
		FirstA           string         `json:"a_first,omitempty"`
		LastA            string         `json:"a_last,omitempty"`
		FirstB           string         `json:"b_first,omitempty"`
		LastB            string         `json:"b_last,omitempty"`
		Command          string         `json:"command,omitempty"`
		Tolerance        float64        `json:"tolerance"`
		Compared         int            `json:"benchmarks"`
		Within           int            `json:"benchmarks_within"`
		FormsCompared    int            `json:"forms"`
		FormsWithin      int            `json:"forms_within"`
		Noisy            int            `json:"noisy"`
		QuietForms       int            `json:"quiet_forms"`
		QuietFormsWithin int            `json:"quiet_forms_within"`
		Disagreeing      map[string]int `json:"outside_by_group"`
		Together         []Shift        `json:"moved_together"`
		Outside          []Difference   `json:"outside"`
	}{r.A, r.B, ag.HostA, ag.HostB, ag.FirstA, ag.LastA, ag.FirstB, ag.LastB, r.Command, ag.Tolerance, ag.Compared, ag.Within,
		ag.FormsCompared, ag.FormsWithin, ag.Noisy, ag.QuietForms, ag.QuietFormsWithin, ag.Disagreeing,
		append([]Shift{}, ag.Together...), append([]Difference{}, ag.Outside...)}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}
