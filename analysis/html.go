package analysis

import (
	"fmt"
	"html/template"
	"io"
	"math"
	"strings"
	"time"
)

// WriteHTML writes a self-contained HTML report (no scripts, styles or
// images from the network): per region the summary, the static analysis,
// the instructions with their port pressure, the port pressure drawn as
// bars (simulated and optimal) and the timeline drawn as an SVG Gantt
// chart.
func WriteHTML(w io.Writer, reports []*Report, inputs []string) error {
	type region struct {
		Title    string
		Rows     [][2]string
		Notes    []string
		Table    template.HTML
		Pressure template.HTML
		Timeline template.HTML
		Chains   []string
	}
	data := struct {
		Title     string
		Model     string
		Generated string
		Regions   []region
	}{
		Title:     "portlab analyze: " + strings.Join(inputs, ", "),
		Generated: time.Now().Format("2006-01-02 15:04:05"),
	}
	for i, r := range reports {
		k := r.Kernel
		data.Model = k.Model.Label()
		reg := region{Title: fmt.Sprintf("[%d] %s", i, k.Region.Label())}
		if k.Region.Pos.IsValid() {
			reg.Title += " (" + k.Region.Pos.String() + ")"
		}
		s := r.Static
		if r.Simulated {
			reg.Rows = append(reg.Rows,
				[2]string{"Simulated", fmt.Sprintf("%s cycles/iteration (%d cycles for %d iterations)", fmt2(r.CyclesPerIteration()), r.Result.Cycles, r.Iterations)},
				[2]string{"IPC", fmt2(float64(r.Result.Instructions) / math.Max(1, float64(r.Result.Cycles)))},
				[2]string{"uOps per cycle", fmt2(float64(r.Result.Uops) / math.Max(1, float64(r.Result.Cycles)))})
		}
		reg.Rows = append(reg.Rows,
			[2]string{"Static bound", fmt.Sprintf("%s cycles/iteration: %s", fmt2(s.Bound), s.Bottleneck)},
			[2]string{"Port bound", fmt.Sprintf("%s (busiest: %s)", fmt2(s.PortBound), strings.Join(s.Busiest, ", "))},
			[2]string{"Dispatch bound", fmt.Sprintf("%s (%d uOps, %d per cycle)", fmt2(s.DispatchBound), s.Uops, s.DispatchWidth)},
			[2]string{"Loop-carried bound", fmt2(s.LCDBound)},
			[2]string{"Store commit bound", storeCommitText(s)},
			[2]string{"Critical path", fmt.Sprintf("%s cycles through one iteration", fmt2(s.CriticalPathLatency))},
			[2]string{"Dispatch width / ROB", fmt.Sprintf("%d / %d", r.Config.DispatchWidth, r.Config.ROBSize)})
		reg.Notes = r.Notes
		for _, c := range s.Chains {
			reg.Chains = append(reg.Chains, fmt.Sprintf("%s cycles/iteration: %s", fmt2(c.Latency/float64(c.Iterations)), c.Describe(k)))
		}
		reg.Table = htmlTable(r)
		reg.Pressure = pressureSVG(r)
		reg.Timeline = timelineSVG(r)
		data.Regions = append(data.Regions, reg)
	}
	return htmlTmpl.Execute(w, data)
}

var htmlTmpl = template.Must(template.New("report").Parse(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{{.Title}}</title>
<style>
body{font-family:system-ui,-apple-system,Segoe UI,sans-serif;margin:1.5em;color:#222;max-width:1400px}
h1{font-size:1.3em} h2{font-size:1.1em;margin-top:2em;border-bottom:1px solid #ccc}
table{border-collapse:collapse;font-size:13px} td,th{padding:2px 6px;border:1px solid #ddd;text-align:right}
td.l,th.l{text-align:left} td.asm{font-family:ui-monospace,monospace;text-align:left;white-space:pre}
table.kv td{border:none;text-align:left} table.kv td:first-child{color:#555;padding-right:1em}
.note{color:#8a5a00} .mark{font-weight:bold;color:#b00}
svg{font-family:ui-monospace,monospace;font-size:11px} .legend span{display:inline-block;margin-right:1em}
.sw{display:inline-block;width:12px;height:12px;vertical-align:middle;margin-right:4px}
</style></head><body>
<h1>{{.Title}}</h1>
<p>Model: {{.Model}} &middot; generated {{.Generated}} by portlab analyze</p>
{{range .Regions}}
<h2>{{.Title}}</h2>
<table class="kv">{{range .Rows}}<tr><td>{{index . 0}}</td><td>{{index . 1}}</td></tr>{{end}}</table>
{{range .Notes}}<p class="note">note: {{.}}</p>{{end}}
<h3>Instructions and port pressure (optimal balancing, cycles per iteration)</h3>
{{.Table}}
{{if .Chains}}<h3>Loop-carried dependencies</h3><ul>{{range .Chains}}<li>{{.}}</li>{{end}}</ul>{{end}}
<h3>Port pressure</h3>
{{.Pressure}}
{{if .Timeline}}<h3>Timeline</h3>
<p class="legend"><span><i class="sw" style="background:#ddd"></i>dispatched, waiting</span><span><i class="sw" style="background:#f4b942"></i>ready, waiting for a port</span><span><i class="sw" style="background:#3b7dd8"></i>executing</span><span><i class="sw" style="background:#b9d3b0"></i>executed, waiting to retire</span></p>
{{.Timeline}}{{end}}
{{end}}
</body></html>
`))

func esc(s string) string { return template.HTMLEscapeString(s) }

// htmlTable renders the instructions with their numbers and a heat map of
// their static port pressure.
func htmlTable(r *Report) template.HTML {
	k, s := r.Kernel, r.Static
	var b strings.Builder
	b.WriteString(`<table><tr><th>#</th><th class="l">instruction</th><th>uOps</th><th>lat</th><th>rthr</th><th>ld</th><th>st</th><th>CP</th><th>LCD</th>`)
	for _, p := range k.Ports {
		fmt.Fprintf(&b, "<th>%s</th>", esc(p))
	}
	b.WriteString(`<th class="l">note</th></tr>`)
	onCP, onLCD := map[int]bool{}, map[int]bool{}
	for _, i := range s.CriticalPath {
		onCP[i] = true
	}
	if len(s.Chains) > 0 {
		for _, i := range s.Chains[0].Instrs {
			onLCD[i] = true
		}
	}
	maxP := 0.0
	for i := range s.PerInstr {
		for _, v := range s.PerInstr[i] {
			maxP = math.Max(maxP, v)
		}
	}
	cell := func(v float64) string {
		if v < 0.005 {
			return "<td></td>"
		}
		a := 0.15 + 0.85*v/math.Max(maxP, 1e-9)
		return fmt.Sprintf(`<td style="background:rgba(59,125,216,%.2f)">%s</td>`, a*0.6, fmt2(v))
	}
	mark := func(on bool) string {
		if on {
			return `<span class="mark">&#x2715;</span>`
		}
		return ""
	}
	yes := func(on bool) string {
		if on {
			return "*"
		}
		return ""
	}
	for i, x := range k.Instrs {
		fmt.Fprintf(&b, `<tr><td>%d</td><td class="asm">%s</td><td>%d</td><td>%d</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td>`,
			i, esc(strings.ReplaceAll(x.Text, "\t", " ")), x.Uops, x.Latency, fmt2(x.RThroughput), yes(x.MayLoad), yes(x.MayStore), mark(onCP[i]), mark(onLCD[i]))
		for p := range k.Ports {
			b.WriteString(cell(s.PerInstr[i][p]))
		}
		note := x.Idiom
		if x.Derived != "" {
			note = strings.TrimSpace(note + " derived: " + x.Derived)
		}
		fmt.Fprintf(&b, `<td class="l">%s</td></tr>`, esc(note))
	}
	b.WriteString(`<tr><th></th><th class="l">total</th><td colspan="7"></td>`)
	for p := range k.Ports {
		fmt.Fprintf(&b, "<th>%s</th>", fmt2(s.Total[p]))
	}
	b.WriteString("<td></td></tr></table>")
	return template.HTML(b.String())
}

func findView[T View](r *Report) T {
	var zero T
	for _, v := range r.Views {
		if t, ok := v.(T); ok {
			return t
		}
	}
	return zero
}

// pressureSVG draws per port the optimal static load and, when simulated,
// the simulated load per iteration, with the bound as a line.
func pressureSVG(r *Report) template.HTML {
	k, s := r.Kernel, r.Static
	pv := findView[*pressureView](r)
	np := len(k.Ports)
	if np == 0 {
		return ""
	}
	const barW, gap, h, left, top = 14, 14, 180, 40, 20
	maxV := math.Max(s.Bound, 1e-9)
	for p := 0; p < np; p++ {
		maxV = math.Max(maxV, s.Total[p])
		if pv != nil {
			maxV = math.Max(maxV, pv.perIteration(pv.n, p))
		}
	}
	maxV *= 1.1
	width := max(left+np*(2*barW+gap)+20, 560)
	y := func(v float64) float64 { return top + h - h*v/maxV }
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" role="img" aria-label="port pressure">`, width, h+top+40)
	// Axis and grid.
	for i := 0; i <= 4; i++ {
		v := maxV * float64(i) / 4
		fmt.Fprintf(&b, `<line x1="%d" x2="%d" y1="%.1f" y2="%.1f" stroke="#eee"/><text x="%d" y="%.1f" text-anchor="end">%s</text>`,
			left, width-10, y(v), y(v), left-4, y(v)+4, fmt2(v))
	}
	for p := 0; p < np; p++ {
		x := left + p*(2*barW+gap) + gap/2
		st := s.Total[p]
		fmt.Fprintf(&b, `<rect x="%d" y="%.1f" width="%d" height="%.1f" fill="#8fb3e8"><title>%s optimal: %s cycles/iteration</title></rect>`,
			x, y(st), barW, top+h-y(st), esc(k.Ports[p]), fmt2(st))
		if pv != nil {
			sv := pv.perIteration(pv.n, p)
			fmt.Fprintf(&b, `<rect x="%d" y="%.1f" width="%d" height="%.1f" fill="#3b7dd8"><title>%s simulated: %s cycles/iteration</title></rect>`,
				x+barW, y(sv), barW, top+h-y(sv), esc(k.Ports[p]), fmt2(sv))
		}
		fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="middle">%s</text>`, x+barW, top+h+14, esc(k.Ports[p]))
	}
	fmt.Fprintf(&b, `<line x1="%d" x2="%d" y1="%.1f" y2="%.1f" stroke="#c00" stroke-dasharray="4 3"/><text x="%d" y="%.1f" fill="#c00">bound %s</text>`,
		left, width-10, y(s.Bound), y(s.Bound), left+4, y(s.Bound)-3, fmt2(s.Bound))
	if r.Simulated {
		c := r.CyclesPerIteration()
		fmt.Fprintf(&b, `<line x1="%d" x2="%d" y1="%.1f" y2="%.1f" stroke="#080" stroke-dasharray="2 2"/><text x="%d" y="%.1f" fill="#080" text-anchor="end">simulated %s</text>`,
			left, width-10, y(c), y(c), width-12, y(c)-3, fmt2(c))
	}
	fmt.Fprintf(&b, `<text x="%d" y="%d">light: optimal balancing (static) &#183; dark: simulated &#183; cycles per iteration</text>`, left, top+h+32)
	b.WriteString("</svg>")
	return template.HTML(b.String())
}

// timelineSVG draws the timeline view's instructions as bars over cycles.
func timelineSVG(r *Report) template.HTML {
	tv := findView[*timelineView](r)
	if tv == nil || len(tv.entries) == 0 {
		return ""
	}
	last := 0
	n := 0
	for _, t := range tv.entries {
		if t.dispatched < 0 || (t.retired == 0 && t.executed != 0) {
			break
		}
		last = max(last, t.retired)
		n++
	}
	if n == 0 {
		return ""
	}
	const rowH, left, top = 14, 330, 24
	cw := math.Max(4, math.Min(16, 900/float64(last+1)))
	width := left + int(cw*float64(last+2)) + 10
	height := top + n*rowH + 10
	x := func(c int) float64 { return left + cw*float64(c) }
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" role="img" aria-label="timeline">`, width, height)
	for c := 0; c <= last+1; c++ {
		if c%5 == 0 {
			fmt.Fprintf(&b, `<line x1="%.1f" x2="%.1f" y1="%d" y2="%d" stroke="#eee"/><text x="%.1f" y="%d">%d</text>`, x(c), x(c), top-4, height, x(c)+1, top-8, c)
		}
	}
	for i := 0; i < n; i++ {
		t := tv.entries[i]
		it, si := i/tv.n, i%tv.n
		yy := top + i*rowH
		if si == 0 && it > 0 {
			fmt.Fprintf(&b, `<line x1="0" x2="%d" y1="%d" y2="%d" stroke="#ccc"/>`, width, yy, yy)
		}
		txt := strings.ReplaceAll(r.instText(si), "\t", " ")
		if len(txt) > 44 {
			txt = txt[:43] + "…"
		}
		fmt.Fprintf(&b, `<text x="2" y="%d">[%d,%d] %s</text>`, yy+rowH-3, it, si, esc(txt))
		seg := func(from, to int, color, what string) {
			if to <= from {
				return
			}
			fmt.Fprintf(&b, `<rect x="%.1f" y="%d" width="%.1f" height="%d" fill="%s"><title>[%d,%d] %s: cycles %d-%d</title></rect>`,
				x(from), yy+2, x(to)-x(from), rowH-4, color, it, si, what, from, to-1)
		}
		ready := t.ready
		if ready < t.dispatched {
			ready = t.dispatched
		}
		seg(t.dispatched, ready+1, "#ddd", "dispatched, waiting for inputs")
		seg(ready+1, t.issued, "#f4b942", "ready, waiting for a port")
		if t.executed > t.issued {
			seg(t.issued, t.executed, "#3b7dd8", "executing")
		} else {
			seg(t.issued, t.issued+1, "#3b7dd8", "executed at issue")
		}
		seg(t.executed+1, t.retired, "#b9d3b0", "waiting to retire")
		fmt.Fprintf(&b, `<text x="%.1f" y="%d" fill="#060">R</text>`, x(t.retired)+1, yy+rowH-3)
	}
	b.WriteString("</svg>")
	return template.HTML(b.String())
}

// storeCommitText is the store commit bound as the HTML report says it.
func storeCommitText(s *Static) string {
	if s.StoreCommit == "" {
		return "none (the model has no store commit rule)"
	}
	return fmt.Sprintf("%s (%s)", fmt2(s.StoreCommitBound), s.StoreCommit)
}
