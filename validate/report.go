package validate

import (
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"math"
	"sort"
	"strings"
	"text/tabwriter"

	"portlab/internal/figure"
)

// WriteText prints the per-kernel table and the scores.
func WriteText(w io.Writer, r *Report) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', tabwriter.AlignRight)
	head := "kernel\tmeasured\t"
	for _, p := range r.Predictors {
		head += shortName(p) + "\terr\t"
	}
	fmt.Fprintln(tw, head)
	for _, row := range r.Rows {
		line := row.Kernel + "\t"
		if row.Measured.Err != nil {
			line += "error\t"
		} else {
			line += fmt.Sprintf("%.2f\t", row.Measured.Cycles)
		}
		for _, p := range r.Predictors {
			pr := row.Predictions[p]
			switch {
			case pr.Err != nil:
				line += "-\t-\t"
			case row.Measured.Err != nil || row.Measured.Cycles <= 0:
				line += fmt.Sprintf("%.2f\t-\t", pr.Cycles)
			default:
				line += fmt.Sprintf("%.2f\t%+.0f%%\t", pr.Cycles, 100*(pr.Cycles-row.Measured.Cycles)/row.Measured.Cycles)
			}
		}
		fmt.Fprintln(tw, line)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(w)
	for _, row := range r.Rows {
		if row.Measured.Err != nil {
			fmt.Fprintf(w, "%s: not measured: %v\n", row.Kernel, row.Measured.Err)
		}
	}
	for _, row := range r.Rows {
		if lo, hi, wide := row.Measured.Spread(); wide && row.Measured.Err == nil {
			fmt.Fprintf(w, "%s: its %d passes read %.2f-%.2f cycles, the one kept (the lower quartile, %.2f) %.0f%% above the fastest: %s\n",
				row.Kernel, len(row.Measured.Passes), lo, hi, row.Measured.Cycles, 100*(row.Measured.Cycles/lo-1), row.Measured.spreadCause())
		}
	}
	var split []string
	for _, row := range r.Rows {
		if n, _, _ := row.Measured.Disagreed(); n > 0 {
			split = append(split, fmt.Sprintf("%s %d/%d", row.Kernel, n, len(row.Measured.Passes)))
		}
	}
	if len(split) > 0 {
		fmt.Fprintf(w, "passes not used, their two loop lengths more than 2%% apart and no function of theirs alone off the line of the other three: %s\n", strings.Join(split, ", "))
	}
	for _, row := range r.Rows {
		if m := row.Measured; m.LengthDependent() {
			fmt.Fprintf(w, "%s: %.2f cycles an iteration at %d copies, %.2f at %d, in each of its %d passes: its steady state depends on the loop's length (the shorter kept)\n",
				row.Kernel, m.Cycles, m.Copies, m.Longer, m.LongerCopies, len(m.Passes))
		}
	}
	fmt.Fprintf(w, "\n%-40s %5s %8s %8s %6s %8s  %s\n", "predictor", "n", "MAPE", "median", "tau", "<=10%", "worst")
	for _, s := range r.Scores {
		fmt.Fprintf(w, "%-40s %5d %7.1f%% %7.1f%% %6.3f %7d  %s\n", s.Predictor, s.N, s.MAPE, s.Median, s.Tau, s.Within10, strings.Join(s.Worst, ", "))
		if s.Failed > 0 {
			fmt.Fprintf(w, "%-40s %d kernels it could not predict\n", "", s.Failed)
		}
	}
	return nil
}

func shortName(p string) string {
	if i := strings.IndexByte(p, ' '); i > 0 && len(p) > 24 {
		return p[:i]
	}
	return p
}

// jsonReport is the --json layout.
type jsonReport struct {
	Host    string      `json:"host"`
	Date    string      `json:"date,omitempty"`
	Command string      `json:"command,omitempty"`
	Kernels []jsonRow   `json:"kernels"`
	Scores  []jsonScore `json:"scores"`
}

type jsonRow struct {
	Kernel   string    `json:"kernel"`
	Measured *float64  `json:"measured_cycles"`
	Error    string    `json:"error,omitempty"`
	Clean    int       `json:"clean_repetitions"`
	Passes   []float64 `json:"passes,omitempty"` // cycles per iteration of each pass
	// The second body length (Measured.Longer): its copies and cycles
	// per iteration, and how many passes read both lengths alike.
	Copies        int                       `json:"copies,omitempty"`
	LongerCopies  int                       `json:"longer_copies,omitempty"`
	LongerCycles  float64                   `json:"longer_cycles,omitempty"`
	LengthsAgreed int                       `json:"passes_lengths_agree"`
	PassAgree     []bool                    `json:"pass_lengths_agree,omitempty"` // by pass, as passes: the pass is used
	Fitted        []float64                 `json:"pass_used_cycles,omitempty"`   // by pass: the value a used pass gave (0: not used)
	Predictions   map[string]jsonPrediction `json:"predictions"`
}

type jsonPrediction struct {
	Cycles     *float64 `json:"cycles"`
	ErrorPct   *float64 `json:"error_percent,omitempty"`
	Bottleneck string   `json:"bottleneck,omitempty"`
	Error      string   `json:"error,omitempty"`
}

type jsonScore struct {
	Predictor string   `json:"predictor"`
	N         int      `json:"kernels"`
	Failed    int      `json:"failed"`
	MAPE      float64  `json:"mape_percent"`
	Median    float64  `json:"median_ape_percent"`
	Tau       float64  `json:"kendall_tau"`
	Within10  int      `json:"within_10_percent"`
	Worst     []string `json:"worst"`
}

// WriteJSON writes the report as JSON.
func WriteJSON(w io.Writer, r *Report) error {
	out := jsonReport{Host: r.Host, Date: r.Date, Command: r.Command}
	for _, row := range r.Rows {
		jr := jsonRow{Kernel: row.Kernel, Clean: row.Measured.Clean, Predictions: map[string]jsonPrediction{}}
		if row.Measured.Err != nil {
			jr.Error = row.Measured.Err.Error()
		} else {
			v := row.Measured.Cycles
			jr.Measured = &v
			jr.Passes = row.Measured.Passes
			jr.Copies, jr.LongerCopies, jr.LongerCycles, jr.LengthsAgreed = row.Measured.Copies, row.Measured.LongerCopies, row.Measured.Longer, row.Measured.Used()
			jr.PassAgree, jr.Fitted = row.Measured.PassAgree, row.Measured.Fitted
		}
		for _, p := range r.Predictors {
			pr := row.Predictions[p]
			jp := jsonPrediction{Bottleneck: pr.Bottleneck}
			if pr.Err != nil {
				jp.Error = pr.Err.Error()
			} else {
				c := pr.Cycles
				jp.Cycles = &c
				if jr.Measured != nil && *jr.Measured > 0 {
					e := 100 * (c - *jr.Measured) / *jr.Measured
					jp.ErrorPct = &e
				}
			}
			jr.Predictions[p] = jp
		}
		out.Kernels = append(out.Kernels, jr)
	}
	for _, s := range r.Scores {
		out.Scores = append(out.Scores, jsonScore{s.Predictor, s.N, s.Failed, s.MAPE, s.Median, s.Tau, s.Within10, s.Worst})
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// scatter draws measured (x) against predicted (y) cycles on log axes, with
// the y = x line and a ±10% band, titled with the predictor and captioned
// with the host, the date and the command.
func scatter(r *Report, pred string) template.HTML {
	const W, pad = 440.0, 50.0
	type pt struct {
		x, y   float64
		k      string
		lo, hi float64 // the kernel's fastest and slowest pass (0: one pass)
	}
	var pts []pt
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, row := range r.Rows {
		p := row.Predictions[pred]
		if row.Measured.Err != nil || p.Err != nil || row.Measured.Cycles <= 0 || p.Cycles <= 0 {
			continue
		}
		q := pt{x: row.Measured.Cycles, y: p.Cycles, k: row.Kernel}
		q.lo, q.hi, _ = row.Measured.Spread()
		pts = append(pts, q)
		lo = math.Min(lo, math.Min(row.Measured.Cycles, p.Cycles))
		hi = math.Max(hi, math.Max(row.Measured.Cycles, p.Cycles))
		if q.lo > 0 {
			lo, hi = math.Min(lo, q.lo), math.Max(hi, q.hi)
		}
	}
	if len(pts) == 0 {
		return template.HTML("<p>no kernel predicted</p>")
	}
	// The title (the predictor) and the legend are wrapped to the width
	// (13 px bold and 11 px sans-serif: about 7.8 and 6.4 px a character).
	title := figure.Words(pred, int(math.Floor((W-12)/7.8)))
	legend := figure.Words(fmt.Sprintf("%d kernels · green line: predicted = measured, band ±10%% · red: off by more than 10%% · grey bars: a kernel's passes, fastest to slowest", len(pts)), int(math.Floor((W-12)/6.4)))
	top := 18 + 16*float64(len(title)) + 13*float64(len(legend)-1) + 14 // below the legend and clear of the top tick label
	// The axes run between 1-2-5 steps around the values.
	steps := func(e float64) []float64 { return []float64{math.Pow(10, e), 2 * math.Pow(10, e), 5 * math.Pow(10, e)} }
	a, z := 0.0, 0.0
	for e := math.Floor(math.Log10(lo)); ; e-- {
		if v := steps(e); v[0] <= lo*0.9 {
			a = v[0]
			for _, s := range v {
				if s <= lo*0.9 {
					a = s
				}
			}
			break
		}
	}
	for e := math.Floor(math.Log10(hi)); ; e++ {
		done := false
		for _, s := range append(steps(e), 10*math.Pow(10, e)) {
			if s >= hi*1.1 {
				z, done = s, true
				break
			}
		}
		if done {
			break
		}
	}
	l0, l1 := math.Log10(a), math.Log10(z)
	x0, x1, y1 := pad, W-16.0, top
	y0 := y1 + (x1 - x0)
	sx := func(v float64) float64 { return x0 + (math.Log10(v)-l0)/(l1-l0)*(x1-x0) }
	sy := func(v float64) float64 { return y0 - (math.Log10(v)-l0)/(l1-l0)*(y0-y1) }
	capLines := r.caption(W - 12)
	H := y0 + 46 + float64(len(capLines))*12
	esc := template.HTMLEscapeString
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%g" height="%g" viewBox="0 0 %g %g" role="img" aria-label="measured vs predicted, %s">`, W, H, W, H, esc(pred))
	for i, l := range title {
		fmt.Fprintf(&b, `<text x="6" y="%d" font-size="13" font-weight="600">%s</text>`, 18+16*i, esc(l))
	}
	for i, l := range legend {
		fmt.Fprintf(&b, `<text x="6" y="%d" font-size="11" fill="#555">%s</text>`, 18+16*len(title)+13*i, esc(l))
	}
	fmt.Fprintf(&b, `<rect x="%g" y="%g" width="%g" height="%g" fill="#fafafa" stroke="#ccc"/>`, x0, y1, x1-x0, y0-y1)
	fmt.Fprintf(&b, `<polygon points="%g,%g %g,%g %g,%g %g,%g" fill="#e3f1e3"/>`, sx(a), sy(a*1.1), sx(z/1.1), sy(z), sx(z), sy(z/1.1), sx(a*1.1), sy(a))
	fmt.Fprintf(&b, `<line x1="%g" y1="%g" x2="%g" y2="%g" stroke="#2a7" stroke-width="1.5"/>`, sx(a), sy(a), sx(z), sy(z))
	for e := math.Floor(l0); e <= l1; e++ {
		ticks := steps(e)
		if l1-l0 > 4 {
			ticks = ticks[:1] // decades only, where 1-2-5 would crowd
		}
		for _, v := range ticks {
			if v < a*0.999 || v > z*1.001 {
				continue
			}
			fmt.Fprintf(&b, `<line x1="%.1f" y1="%g" x2="%.1f" y2="%g" stroke="#eee"/><line x1="%g" y1="%.1f" x2="%g" y2="%.1f" stroke="#eee"/>`, sx(v), y1, sx(v), y0, x0, sy(v), x1, sy(v))
			fmt.Fprintf(&b, `<text x="%.1f" y="%g" font-size="11" text-anchor="middle">%g</text>`, sx(v), y0+16, v)
			fmt.Fprintf(&b, `<text x="%g" y="%.1f" font-size="11" text-anchor="end">%g</text>`, x0-6, sy(v)+4, v)
		}
	}
	fmt.Fprintf(&b, `<text x="%g" y="%g" font-size="12" text-anchor="middle">measured cycles / iteration (log)</text>`, (x0+x1)/2, y0+34)
	fmt.Fprintf(&b, `<text x="14" y="%g" font-size="12" text-anchor="middle" transform="rotate(-90 14 %g)">predicted cycles / iteration (log)</text>`, (y0+y1)/2, (y0+y1)/2)
	for i, l := range capLines {
		fmt.Fprintf(&b, `<text x="6" y="%g" font-size="9.5" font-family="ui-monospace,monospace" fill="#666">%s</text>`, y0+52+float64(i*12), esc(l))
	}
	for _, p := range pts {
		if p.lo > 0 && p.hi > p.lo {
			fmt.Fprintf(&b, `<line class="passes" x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#999" stroke-width="1.5"/>`, sx(p.lo), sy(p.y), sx(p.hi), sy(p.y))
		}
	}
	for _, p := range pts {
		col := "#1f6fb2"
		if APE(p.y, p.x) > 10 {
			col = "#c0392b"
		}
		passes := ""
		if p.lo > 0 {
			passes = fmt.Sprintf("; passes %.2f-%.2f", p.lo, p.hi)
		}
		fmt.Fprintf(&b, `<circle cx="%.1f" cy="%.1f" r="4" fill="%s" fill-opacity="0.8"><title>%s: measured %.2f, predicted %.2f (%+.0f%%)%s</title></circle>`,
			sx(p.x), sy(p.y), col, esc(p.k), p.x, p.y, 100*(p.y-p.x)/p.x, passes)
	}
	b.WriteString(`</svg>`)
	return template.HTML(b.String())
}

// caption is what every figure says of its origin: the host, the date of
// the measurement and the command, in lines that fit width pixels.
func (r *Report) caption(width float64) []string {
	n := int(width / (9.5 * 0.62))
	about := "host " + r.Host
	if r.Date != "" {
		about += " · measured " + r.Date
	}
	lines := figure.Words(about, n)
	if r.Command != "" {
		lines = append(lines, figure.Words("$ "+r.Command, n)...)
	}
	return lines
}

var page = template.Must(template.New("v").Funcs(template.FuncMap{
	"pct": func(p Prediction, m Measured) string {
		if p.Err != nil || m.Err != nil || m.Cycles <= 0 {
			return "-"
		}
		return fmt.Sprintf("%+.1f%%", 100*(p.Cycles-m.Cycles)/m.Cycles)
	},
	"lengthNote": func(m Measured) string {
		return fmt.Sprintf("%.2f cycles an iteration at %d copies, %.2f at %d, in every pass: the steady state depends on the loop's length; the shorter is kept", m.Cycles, m.Copies, m.Longer, m.LongerCopies)
	},
	"bad": func(p Prediction, m Measured) bool {
		return p.Err == nil && m.Err == nil && m.Cycles > 0 && APE(p.Cycles, m.Cycles) > 10
	},
}).Parse(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>portlab validate — {{.R.Host}}</title>
<style>
body{font:14px/1.45 system-ui,sans-serif;margin:24px;color:#222;max-width:1200px}
h1{font-size:20px}table{border-collapse:collapse;margin:12px 0}td,th{padding:3px 9px;border-bottom:1px solid #e5e5e5;text-align:right}
th{background:#f3f3f3;cursor:pointer}td:first-child,th:first-child{text-align:left}.bad{color:#c0392b;font-weight:600}
.plots{display:flex;flex-wrap:wrap;gap:18px}.plots svg{max-width:100%;height:auto;border:1px solid #e5e5e5;border-radius:6px}
p.cmd code{background:#f3f3f3;padding:2px 6px;border-radius:4px;font-size:12.5px;overflow-wrap:anywhere}
td.err{color:#8a5a00;text-align:left;font-size:12.5px} td.nw{white-space:nowrap} span.len{color:#8a5a00;font-size:12px}
</style></head><body>
<h1>portlab validate: measured kernels vs predictions</h1>
<p>Host {{.R.Host}}{{with .R.Date}}, measured {{.}}{{end}}. Cycles per iteration; measured on the host (differential timing of the block at two lengths, in several passes, each in a worker process of its own; the lower-quartile pass kept, the grey bars spanning the passes). Every kernel is timed at two loop lengths in each pass; where they disagree by more than 2 %, the pass gives the value of the pair whose line the other loop lies on, or is not used, and a kernel with no pass used shows the longer length's value beside its own.</p>
{{with .R.Command}}<p class="cmd"><code>$ {{.}}</code></p>{{end}}
<h2>Scores</h2>
<table><tr><th>predictor</th><th>kernels</th><th>MAPE</th><th>median APE</th><th>Kendall τ</th><th>within 10%</th><th>could not predict</th><th>worst</th></tr>
{{range .R.Scores}}<tr><td>{{.Predictor}}</td><td>{{.N}}</td><td>{{printf "%.1f%%" .MAPE}}</td><td>{{printf "%.1f%%" .Median}}</td><td>{{printf "%.3f" .Tau}}</td><td>{{.Within10}}</td><td>{{.Failed}}</td><td style="text-align:left">{{range .Worst}}{{.}} {{end}}</td></tr>{{end}}
</table>
<div class="plots">{{range .Plots}}<div class="plot">{{.SVG}}</div>{{end}}</div>
<h2>Kernels</h2>
<table id="k"><tr><th>kernel</th><th>measured</th>{{range .R.Predictors}}<th>{{.}}</th><th>error</th>{{end}}</tr>
{{range $row := .R.Rows}}<tr><td>{{$row.Kernel}}</td><td class="nw"{{with $row.Measured.Err}} title="{{.}}"{{end}}>{{if $row.Measured.Err}}not measured{{else}}{{printf "%.2f" $row.Measured.Cycles}}{{if $row.Measured.LengthDependent}} <span class="len" title="{{lengthNote $row.Measured}}">(length: {{printf "%.2f" $row.Measured.Longer}})</span>{{end}}{{end}}</td>
{{range $p := $.R.Predictors}}{{with index $row.Predictions $p}}<td>{{if .Err}}-{{else}}{{printf "%.2f" .Cycles}}{{end}}</td><td class="{{if bad . $row.Measured}}bad{{end}}">{{pct . $row.Measured}}</td>{{end}}{{end}}</tr>
{{end}}</table>
{{with .Unmeasured}}<h2>Not measured</h2>
<table>{{range .}}<tr><td>{{.Kernel}}</td><td class="err">{{.Measured.Err}}</td></tr>{{end}}</table>{{end}}
<script>
document.querySelectorAll('#k th').forEach(function(th, col){th.addEventListener('click', function(){
 var t=document.getElementById('k'), rows=Array.prototype.slice.call(t.rows,1);
 var dir = th.dataset.dir === 'up' ? -1 : 1; th.dataset.dir = dir === 1 ? 'up' : 'down';
 rows.sort(function(a,b){var x=a.cells[col].textContent, y=b.cells[col].textContent, fx=parseFloat(x), fy=parseFloat(y);
  if(!isNaN(fx)&&!isNaN(fy)) return dir*(fx-fy); return dir*x.localeCompare(y);});
 rows.forEach(function(r){t.appendChild(r);});});});
</script>
</body></html>
`))

// WriteHTML writes a self-contained HTML report with one scatter plot per
// predictor, each carrying the host, the date and the command, and the
// kernels that could not be measured with the reason.
func WriteHTML(w io.Writer, r *Report) error {
	type plot struct {
		Name string
		SVG  template.HTML
	}
	var plots []plot
	names := append([]string(nil), r.Predictors...)
	sort.Strings(names)
	for _, p := range names {
		plots = append(plots, plot{p, scatter(r, p)})
	}
	var unmeasured []*Row
	for _, row := range r.Rows {
		if row.Measured.Err != nil {
			unmeasured = append(unmeasured, row)
		}
	}
	return page.Execute(w, struct {
		R          *Report
		Plots      []plot
		Unmeasured []*Row
	}{r, plots, unmeasured})
}
