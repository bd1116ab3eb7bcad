package analysis

import (
	"fmt"
	"html/template"
	"io"
	"math"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"portlab/internal/figure"
	"portlab/modeldb"
)

// WriteHTML writes a self-contained HTML report (no scripts, styles or
// images from the network): per region the summary, the static analysis,
// the instructions with their port pressure, the port pressure drawn as
// bars (simulated and optimal) and the timeline drawn as an SVG Gantt
// chart. command is the command line that reproduces the report; the
// header and every figure give it with the model and the date.
func WriteHTML(w io.Writer, reports []*Report, inputs []string, command string) error {
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
		Origin    string
		Generated string
		Command   string
		Regions   []region
	}{
		Title:     "portlab analyze: " + strings.Join(inputs, ", "),
		Generated: time.Now().Format("2006-01-02 15:04:05 MST"),
		Command:   command,
	}
	for i, r := range reports {
		k := r.Kernel
		data.Model, data.Origin = modelLabel(k.Model)
		cap := figureCaption{about: "model " + data.Model, command: command}
		if data.Origin != "" {
			cap.about += " · " + data.Origin
		}
		cap.about += " · generated " + data.Generated
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
		reg.Pressure = pressureSVG(r, cap)
		reg.Timeline = timelineSVG(r, cap)
		data.Regions = append(data.Regions, reg)
	}
	return htmlTmpl.Execute(w, data)
}

// modelLabel names a model for the report, with its microarchitecture,
// and says where its numbers come from: the host and date it was measured
// on, or what it was imported from.
func modelLabel(m *modeldb.Model) (label, origin string) {
	label = strings.Trim(m.Label(), `"`)
	var arch []string
	for _, a := range []string{m.MicroArchitecture, m.LLVMCPU} {
		if a != "" && !strings.Contains(label, a) && !slices.Contains(arch, a) {
			arch = append(arch, a)
		}
	}
	if len(arch) > 0 {
		label += " (" + strings.Join(arch, ", ") + ")"
	}
	if p := m.Provenance; p != nil {
		switch {
		case p.Host != "":
			origin = "measured on " + p.Host
			if p.Date != "" {
				origin += " " + p.Date
			}
		case p.From != "":
			origin = p.Source + " from " + p.From
		}
	}
	return label, origin
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
svg{font-family:ui-monospace,monospace;font-size:11px;max-width:100%;height:auto} .legend span{display:inline-block;margin-right:1em}
svg .cap{font-size:9.5px;fill:#666} svg .alabel{font-family:system-ui,sans-serif;font-size:11.5px;fill:#555}
p.cmd code{background:#f3f3f3;padding:2px 6px;border-radius:4px;font-size:12.5px;overflow-wrap:anywhere}
.sw{display:inline-block;width:12px;height:12px;vertical-align:middle;margin-right:4px}
</style></head><body>
<h1>{{.Title}}</h1>
<p>Model: {{.Model}}{{with .Origin}} &middot; {{.}}{{end}} &middot; generated {{.Generated}} by portlab analyze (a static analysis and simulation: nothing measured)</p>
{{with .Command}}<p class="cmd"><code>$ {{.}}</code></p>{{end}}
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
// the simulated load per iteration, with the bound (and the simulated
// cycles) as lines labelled in the right margin, and the caption under
// it.
func pressureSVG(r *Report, cap figureCaption) template.HTML {
	k, s := r.Kernel, r.Static
	pv := findView[*pressureView](r)
	np := len(k.Ports)
	if np == 0 {
		return ""
	}
	const barW, gap, h, left, top, right = 14, 14, 180, 54, 20, 120
	slot := 2*barW + gap
	maxV := math.Max(s.Bound, 1e-9)
	if r.Simulated {
		maxV = math.Max(maxV, r.CyclesPerIteration())
	}
	maxLabel := 0.0
	for p := 0; p < np; p++ {
		maxV = math.Max(maxV, s.Total[p])
		if pv != nil {
			maxV = math.Max(maxV, pv.perIteration(pv.n, p))
		}
		maxLabel = math.Max(maxLabel, monoWidth(k.Ports[p], 11))
	}
	step := figure.NiceStep(maxV * 1.05 / 4)
	maxV = math.Ceil(maxV*1.05/step) * step
	// Port names wider than their slot are written slanted.
	slant := maxLabel > float64(slot-4)
	labelH := 16.0
	if slant {
		labelH = maxLabel*math.Sin(math.Pi/4) + 14
	}
	plotW := max(np*slot+20, 420)
	width := left + plotW + right
	capLines := cap.lines(float64(width - 8))
	height := top + h + int(labelH) + 22 + len(capLines)*captionLineH
	y := func(v float64) float64 { return top + h - h*v/maxV }
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" role="img" aria-label="port pressure">`, width, height, width, height)
	// Axis and grid.
	for v := 0.0; v <= maxV+step/1e6; v += step {
		fmt.Fprintf(&b, `<line x1="%d" x2="%d" y1="%.1f" y2="%.1f" stroke="#eee"/><text x="%d" y="%.1f" text-anchor="end">%s</text>`,
			left, left+plotW, y(v), y(v), left-4, y(v)+4, trimNum(v))
	}
	fmt.Fprintf(&b, `<text class="alabel" transform="translate(14 %d) rotate(-90)" text-anchor="middle">cycles per iteration</text>`, top+h/2)
	for p := 0; p < np; p++ {
		x := left + p*slot + gap/2
		st := s.Total[p]
		fmt.Fprintf(&b, `<rect x="%d" y="%.1f" width="%d" height="%.1f" fill="#8fb3e8"><title>%s optimal: %s cycles/iteration</title></rect>`,
			x, y(st), barW, top+h-y(st), esc(k.Ports[p]), fmt2(st))
		if pv != nil {
			sv := pv.perIteration(pv.n, p)
			fmt.Fprintf(&b, `<rect x="%d" y="%.1f" width="%d" height="%.1f" fill="#3b7dd8"><title>%s simulated: %s cycles/iteration</title></rect>`,
				x+barW, y(sv), barW, top+h-y(sv), esc(k.Ports[p]), fmt2(sv))
		}
		if slant {
			fmt.Fprintf(&b, `<text transform="translate(%d %d) rotate(-45)" text-anchor="end">%s</text>`, x+barW+4, top+h+10, esc(k.Ports[p]))
		} else {
			fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="middle">%s</text>`, x+barW, top+h+14, esc(k.Ports[p]))
		}
	}
	// The lines' labels sit in the right margin, moved apart when the
	// values are close.
	by, sy := y(s.Bound), 0.0
	fmt.Fprintf(&b, `<line x1="%d" x2="%d" y1="%.1f" y2="%.1f" stroke="#c00" stroke-dasharray="4 3"/>`, left, left+plotW, by, by)
	if r.Simulated {
		sy = y(r.CyclesPerIteration())
		fmt.Fprintf(&b, `<line x1="%d" x2="%d" y1="%.1f" y2="%.1f" stroke="#080" stroke-dasharray="2 2"/>`, left, left+plotW, sy, sy)
	}
	bl, sl := by+4, sy+4
	if r.Simulated && math.Abs(bl-sl) < 12 {
		mid := (bl + sl) / 2
		if sy <= by {
			sl, bl = mid-6, mid+6
		} else {
			sl, bl = mid+6, mid-6
		}
	}
	fmt.Fprintf(&b, `<text x="%d" y="%.1f" fill="#c00">bound %s</text>`, left+plotW+6, bl, fmt2(s.Bound))
	if r.Simulated {
		fmt.Fprintf(&b, `<text x="%d" y="%.1f" fill="#080">simulated %s</text>`, left+plotW+6, sl, fmt2(r.CyclesPerIteration()))
	}
	ly := top + h + int(labelH) + 10
	fmt.Fprintf(&b, `<text x="%d" y="%d">light: optimal balancing (static) &#183; dark: simulated &#183; cycles per iteration</text>`, left, ly)
	b.WriteString(captionSVG(capLines, 4, float64(ly+captionLineH+2)))
	b.WriteString("</svg>")
	return template.HTML(b.String())
}

// trimNum prints an axis value with no trailing zeros.
func trimNum(v float64) string {
	t := strings.TrimRight(strings.TrimRight(fmt.Sprintf("%.3f", v), "0"), ".")
	if t == "-0" {
		return "0"
	}
	return t
}

// monoWidth estimates the width in pixels of s set in a monospace font of
// size px (an advance of 0.6 em; 0.62 leaves room).
func monoWidth(s string, px float64) float64 {
	return float64(utf8.RuneCountInString(s)) * px * 0.62
}

// figureCaption is what a figure says of its origin: the model and the
// date, and the command that reproduces it.
type figureCaption struct {
	about, command string
}

const (
	captionPx    = 9.5 // the caption's font size (class cap, monospace)
	captionLineH = 12
)

// lines breaks the caption into lines that fit width pixels.
func (c figureCaption) lines(width float64) []string {
	n := int(width / (captionPx * 0.62))
	out := figure.Words(c.about, n)
	if c.command != "" {
		out = append(out, figure.Words("$ "+c.command, n)...)
	}
	return out
}

func captionSVG(lines []string, x, y float64) string {
	var b strings.Builder
	for i, l := range lines {
		fmt.Fprintf(&b, `<text class="cap" x="%.0f" y="%.0f">%s</text>`, x, y+float64(i*captionLineH), esc(l))
	}
	return b.String()
}

// timelineSVG draws the timeline view's instructions as bars over cycles.
func timelineSVG(r *Report, cap figureCaption) template.HTML {
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
	// The left margin fits the longest instruction label (up to 64
	// characters; longer ones are cut with an ellipsis).
	const rowH, top, maxText = 14, 40, 64
	labels := make([]string, n)
	leftW := 0.0
	for i := 0; i < n; i++ {
		it, si := i/tv.n, i%tv.n
		txt := strings.ReplaceAll(r.instText(si), "\t", " ")
		if rs := []rune(txt); len(rs) > maxText {
			txt = string(rs[:maxText-1]) + "…"
		}
		labels[i] = fmt.Sprintf("[%d,%d] %s", it, si, txt)
		leftW = math.Max(leftW, monoWidth(labels[i], 11))
	}
	left := float64(int(leftW) + 12)
	cw := math.Max(4, math.Min(16, 900/float64(last+1)))
	plotW := int(cw * float64(last+2))
	width := int(left) + plotW + 24
	capLines := cap.lines(float64(max(width, 480) - 8))
	width = max(width, 480)
	bottom := top + n*rowH + 6
	height := bottom + 8 + len(capLines)*captionLineH
	x := func(c int) float64 { return left + cw*float64(c) }
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" role="img" aria-label="timeline">`, width, height, width, height)
	fmt.Fprintf(&b, `<text class="alabel" x="%.1f" y="12">cycle</text>`, left)
	for c := 0; c <= last+1; c++ {
		if c%5 == 0 {
			fmt.Fprintf(&b, `<line x1="%.1f" x2="%.1f" y1="%d" y2="%d" stroke="#eee"/><text x="%.1f" y="%d">%d</text>`, x(c), x(c), top-4, bottom, x(c)+1, top-8, c)
		}
	}
	b.WriteString(captionSVG(capLines, 4, float64(bottom+8+8)))
	for i := 0; i < n; i++ {
		t := tv.entries[i]
		it, si := i/tv.n, i%tv.n
		yy := top + i*rowH
		if si == 0 && it > 0 {
			fmt.Fprintf(&b, `<line x1="0" x2="%d" y1="%d" y2="%d" stroke="#ccc"/>`, width-20, yy, yy)
		}
		fmt.Fprintf(&b, `<text x="2" y="%d">%s</text>`, yy+rowH-3, esc(labels[i]))
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
