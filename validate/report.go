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
	Kernels []jsonRow   `json:"kernels"`
	Scores  []jsonScore `json:"scores"`
}

type jsonRow struct {
	Kernel      string                    `json:"kernel"`
	Measured    *float64                  `json:"measured_cycles"`
	Error       string                    `json:"error,omitempty"`
	Clean       int                       `json:"clean_repetitions"`
	Predictions map[string]jsonPrediction `json:"predictions"`
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
	out := jsonReport{Host: r.Host}
	for _, row := range r.Rows {
		jr := jsonRow{Kernel: row.Kernel, Clean: row.Measured.Clean, Predictions: map[string]jsonPrediction{}}
		if row.Measured.Err != nil {
			jr.Error = row.Measured.Err.Error()
		} else {
			v := row.Measured.Cycles
			jr.Measured = &v
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
// the y = x line and a ±10% band.
func scatter(r *Report, pred string) template.HTML {
	const W, H, pad = 420.0, 420.0, 48.0
	type pt struct {
		x, y float64
		k    string
	}
	var pts []pt
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, row := range r.Rows {
		p := row.Predictions[pred]
		if row.Measured.Err != nil || p.Err != nil || row.Measured.Cycles <= 0 || p.Cycles <= 0 {
			continue
		}
		pts = append(pts, pt{row.Measured.Cycles, p.Cycles, row.Kernel})
		lo = math.Min(lo, math.Min(row.Measured.Cycles, p.Cycles))
		hi = math.Max(hi, math.Max(row.Measured.Cycles, p.Cycles))
	}
	if len(pts) == 0 {
		return template.HTML("<p>no kernel predicted</p>")
	}
	l0, l1 := math.Floor(math.Log10(lo*0.8)), math.Ceil(math.Log10(hi*1.25))
	if l1 <= l0 {
		l1 = l0 + 1
	}
	sx := func(v float64) float64 { return pad + (math.Log10(v)-l0)/(l1-l0)*(W-2*pad) }
	sy := func(v float64) float64 { return H - pad - (math.Log10(v)-l0)/(l1-l0)*(H-2*pad) }
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%g" height="%g" viewBox="0 0 %g %g" role="img" aria-label="measured vs predicted, %s">`, W, H, W, H, template.HTMLEscapeString(pred))
	fmt.Fprintf(&b, `<rect x="%g" y="%g" width="%g" height="%g" fill="#fafafa" stroke="#ccc"/>`, pad, pad, W-2*pad, H-2*pad)
	a, z := math.Pow(10, l0), math.Pow(10, l1)
	fmt.Fprintf(&b, `<polygon points="%g,%g %g,%g %g,%g %g,%g" fill="#e3f1e3"/>`, sx(a), sy(a*1.1), sx(z/1.1), sy(z), sx(z), sy(z/1.1), sx(a*1.1), sy(a))
	fmt.Fprintf(&b, `<line x1="%g" y1="%g" x2="%g" y2="%g" stroke="#2a7" stroke-width="1.5"/>`, sx(a), sy(a), sx(z), sy(z))
	for e := l0; e <= l1; e++ {
		v := math.Pow(10, e)
		fmt.Fprintf(&b, `<text x="%g" y="%g" font-size="11" text-anchor="middle">%g</text>`, sx(v), H-pad+16, v)
		fmt.Fprintf(&b, `<text x="%g" y="%g" font-size="11" text-anchor="end">%g</text>`, pad-6, sy(v)+4, v)
	}
	fmt.Fprintf(&b, `<text x="%g" y="%g" font-size="12" text-anchor="middle">measured cycles / iteration</text>`, W/2, H-8)
	fmt.Fprintf(&b, `<text x="14" y="%g" font-size="12" text-anchor="middle" transform="rotate(-90 14 %g)">predicted</text>`, H/2, H/2)
	for _, p := range pts {
		col := "#1f6fb2"
		if APE(p.y, p.x) > 10 {
			col = "#c0392b"
		}
		fmt.Fprintf(&b, `<circle cx="%.1f" cy="%.1f" r="4" fill="%s" fill-opacity="0.8"><title>%s: measured %.2f, predicted %.2f</title></circle>`,
			sx(p.x), sy(p.y), col, template.HTMLEscapeString(p.k), p.x, p.y)
	}
	b.WriteString(`</svg>`)
	return template.HTML(b.String())
}

var page = template.Must(template.New("v").Funcs(template.FuncMap{
	"pct": func(p Prediction, m Measured) string {
		if p.Err != nil || m.Err != nil || m.Cycles <= 0 {
			return "-"
		}
		return fmt.Sprintf("%+.1f%%", 100*(p.Cycles-m.Cycles)/m.Cycles)
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
.plots{display:flex;flex-wrap:wrap;gap:18px}.plot h3{font-size:14px;margin:4px 0}
</style></head><body>
<h1>portlab validate: measured kernels vs predictions</h1>
<p>Host {{.R.Host}}. Cycles per iteration; measured on the host (differential timing of the block at two lengths, median of clean repetitions).</p>
<h2>Scores</h2>
<table><tr><th>predictor</th><th>kernels</th><th>MAPE</th><th>median APE</th><th>Kendall τ</th><th>within 10%</th><th>could not predict</th><th>worst</th></tr>
{{range .R.Scores}}<tr><td>{{.Predictor}}</td><td>{{.N}}</td><td>{{printf "%.1f%%" .MAPE}}</td><td>{{printf "%.1f%%" .Median}}</td><td>{{printf "%.3f" .Tau}}</td><td>{{.Within10}}</td><td>{{.Failed}}</td><td style="text-align:left">{{range .Worst}}{{.}} {{end}}</td></tr>{{end}}
</table>
<div class="plots">{{range .Plots}}<div class="plot"><h3>{{.Name}}</h3>{{.SVG}}</div>{{end}}</div>
<h2>Kernels</h2>
<table id="k"><tr><th>kernel</th><th>measured</th>{{range .R.Predictors}}<th>{{.}}</th><th>error</th>{{end}}</tr>
{{range $row := .R.Rows}}<tr><td>{{$row.Kernel}}</td><td>{{if $row.Measured.Err}}error{{else}}{{printf "%.2f" $row.Measured.Cycles}}{{end}}</td>
{{range $p := $.R.Predictors}}{{with index $row.Predictions $p}}<td>{{if .Err}}-{{else}}{{printf "%.2f" .Cycles}}{{end}}</td><td class="{{if bad . $row.Measured}}bad{{end}}">{{pct . $row.Measured}}</td>{{end}}{{end}}</tr>
{{end}}</table>
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
// predictor.
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
	return page.Execute(w, struct {
		R     *Report
		Plots []plot
	}{r, plots})
}
