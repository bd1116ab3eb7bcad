package cluster

import (
	"fmt"
	"html"
	"math"
	"sort"
	"strings"
	"unicode/utf8"

	"portlab/internal/figure"
)

// axis maps data values to pixels, linearly or logarithmically.
type axis struct {
	lo, hi   float64 // data range (positive when log)
	log      bool
	p0, p1   float64 // pixel range
	floorPix float64 // where values <= 0 go on a log axis
}

func newAxis(vals []float64, p0, p1 float64, allowLog bool) axis {
	lo, hi := math.Inf(1), math.Inf(-1)
	minPos := math.Inf(1)
	for _, v := range vals {
		lo, hi = math.Min(lo, v), math.Max(hi, v)
		if v > 0 {
			minPos = math.Min(minPos, v)
		}
	}
	if math.IsInf(lo, 0) {
		lo, hi = 0, 1
	}
	a := axis{p0: p0, p1: p1}
	if allowLog && !math.IsInf(minPos, 0) && hi/minPos >= 8 {
		a.log = true
		a.lo = math.Pow(10, math.Floor(math.Log10(minPos)*4)/4)
		a.hi = math.Pow(10, math.Ceil(math.Log10(hi)*4)/4)
		if a.hi <= a.lo {
			a.hi = a.lo * 10
		}
		a.floorPix = p0
		return a
	}
	lo = math.Min(lo, 0)
	if hi <= lo {
		hi = lo + 1
	}
	span := hi - lo
	step := figure.NiceStep(span / 5)
	a.lo = math.Floor(lo/step) * step
	a.hi = math.Ceil((hi+span*0.04)/step) * step
	return a
}

func (a axis) px(v float64) float64 {
	if a.log {
		if v <= 0 {
			return a.floorPix
		}
		v = math.Max(v, a.lo)
		t := (math.Log10(v) - math.Log10(a.lo)) / (math.Log10(a.hi) - math.Log10(a.lo))
		return a.p0 + t*(a.p1-a.p0)
	}
	t := (v - a.lo) / (a.hi - a.lo)
	return a.p0 + t*(a.p1-a.p0)
}

// ticks returns tick values: 1-2-5 decades on a log axis, even steps
// otherwise.
func (a axis) ticks() []float64 {
	var out []float64
	if a.log {
		for e := math.Floor(math.Log10(a.lo)); e <= math.Ceil(math.Log10(a.hi)); e++ {
			for _, m := range []float64{1, 2, 5} {
				v := m * math.Pow(10, e)
				if v >= a.lo*0.999 && v <= a.hi*1.001 {
					out = append(out, v)
				}
			}
		}
		return out
	}
	step := figure.NiceStep((a.hi - a.lo) / 5)
	for v := a.lo; v <= a.hi+step*1e-9; v += step {
		out = append(out, math.Round(v/step)*step)
	}
	return out
}

// inRange reports whether v lies within the axis.
func (a axis) inRange(v float64) bool { return v >= a.lo-1e-12 && v <= a.hi+1e-12 }

func tickLabel(v float64) string {
	if v != 0 && (math.Abs(v) < 0.01 || math.Abs(v) >= 1e5) {
		return fmt.Sprintf("%.0e", v)
	}
	return num(v)
}

func esc(s string) string { return html.EscapeString(s) }

// monoWidth estimates the width in pixels of s set in a monospace font of
// size px (an advance of 0.6 em in DejaVu Sans Mono, Menlo and SF Mono,
// 0.55 em in Consolas; 0.62 leaves room).
func monoWidth(s string, px float64) float64 {
	return float64(utf8.RuneCountInString(s)) * px * 0.62
}

// caption is what a figure says of its origin, drawn under it so that the
// figure carries it when copied on its own.
type caption struct {
	about   string // host, dates, model
	command string // the command that reproduces the figure
}

// captionPx is the caption's font size (class cap, monospace).
const captionPx = 9.5

// lines returns the caption's lines for a figure width pixels wide.
func (c caption) lines(width float64) []string {
	n := int(width / (captionPx * 0.62))
	out := figure.Words(c.about, n)
	if c.command != "" {
		out = append(out, figure.Words("$ "+c.command, n)...)
	}
	return out
}

// captionLineH is the caption's line height in pixels.
const captionLineH = 12

// svg draws lines (from lines) with the first baseline at y.
func captionSVG(lines []string, x, y float64) string {
	var b strings.Builder
	for i, l := range lines {
		fmt.Fprintf(&b, `<text class="cap" x="%.0f" y="%.0f">%s</text>`, x, y+float64(i*captionLineH), esc(l))
	}
	return b.String()
}

// scatterPoint is one form's measured value against the model's.
type scatterPoint struct {
	model, measured float64
	bad             bool
	title, href     string
}

// scatterSVG draws measured (y) against model (x) with the y = x line and
// the ±eps band, both axes on the same scale (log when the values span
// more than a factor of 8), and under it the caption.
func scatterSVG(id, title string, pts []scatterPoint, eps float64, cap caption) string {
	const w, plotH = 440, 380
	const ml, mr, mt, mb = 58, 16, 30, 46
	capLines := cap.lines(w - 16)
	h := plotH + len(capLines)*captionLineH + 6
	var vals []float64
	for _, p := range pts {
		vals = append(vals, p.model, p.measured)
	}
	x := newAxis(vals, ml, w-mr, true)
	y := x
	y.p0, y.p1 = plotH-mb, mt
	y.floorPix = plotH - mb
	var b strings.Builder
	fmt.Fprintf(&b, `<svg class="plot" viewBox="0 0 %d %d" role="img" aria-labelledby="%s-t"><title id="%s-t">%s</title>`, w, h, id, id, esc(title))
	fmt.Fprintf(&b, `<defs><clipPath id="%s-clip"><rect x="%d" y="%d" width="%d" height="%d"/></clipPath></defs>`, id, ml, mt, w-ml-mr, plotH-mt-mb)
	fmt.Fprintf(&b, `<text class="ptitle" x="%d" y="18">%s</text>`, ml, esc(title))
	// Grid and ticks.
	for _, t := range x.ticks() {
		px, py := x.px(t), y.px(t)
		fmt.Fprintf(&b, `<line class="grid" x1="%.1f" y1="%d" x2="%.1f" y2="%d"/>`, px, mt, px, plotH-mb)
		fmt.Fprintf(&b, `<line class="grid" x1="%d" y1="%.1f" x2="%d" y2="%.1f"/>`, ml, py, w-mr, py)
		fmt.Fprintf(&b, `<text class="tick" x="%.1f" y="%d" text-anchor="middle">%s</text>`, px, plotH-mb+16, tickLabel(t))
		fmt.Fprintf(&b, `<text class="tick" x="%d" y="%.1f" text-anchor="end" dominant-baseline="middle">%s</text>`, ml-6, py, tickLabel(t))
	}
	fmt.Fprintf(&b, `<rect class="frame" x="%d" y="%d" width="%d" height="%d"/>`, ml, mt, w-ml-mr, plotH-mt-mb)
	scale := "linear"
	if x.log {
		scale = "log"
	}
	fmt.Fprintf(&b, `<text class="alabel" x="%d" y="%d" text-anchor="middle">model (cycles, %s)</text>`, (ml+w-mr)/2, plotH-12, scale)
	fmt.Fprintf(&b, `<text class="alabel" transform="translate(14 %d) rotate(-90)" text-anchor="middle">measured (cycles, %s)</text>`, (mt+plotH-mb)/2, scale)
	b.WriteString(captionSVG(capLines, 8, plotH+4))
	// The ±eps band and y = x, sampled so that they bend on a log axis.
	fmt.Fprintf(&b, `<g clip-path="url(#%s-clip)">`, id)
	var upper, lower []string
	const n = 64
	for i := 0; i <= n; i++ {
		var v float64
		if x.log {
			v = x.lo * math.Pow(x.hi/x.lo, float64(i)/n)
		} else {
			v = x.lo + (x.hi-x.lo)*float64(i)/n
		}
		upper = append(upper, fmt.Sprintf("%.1f,%.1f", x.px(v), y.px(v+eps)))
		lo := v - eps
		py := y.px(lo)
		if x.log && lo <= 0 {
			py = float64(plotH - mb + 4)
		}
		lower = append(lower, fmt.Sprintf("%.1f,%.1f", x.px(v), py))
	}
	for i, j := 0, len(lower)-1; i < j; i, j = i+1, j-1 {
		lower[i], lower[j] = lower[j], lower[i]
	}
	fmt.Fprintf(&b, `<polygon class="band" points="%s %s"><title>±%s cycles (inconsistency epsilon)</title></polygon>`, strings.Join(upper, " "), strings.Join(lower, " "), num(eps))
	fmt.Fprintf(&b, `<line class="diag" x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f"/>`, x.px(x.lo), y.px(x.lo), x.px(x.hi), y.px(x.hi))
	// Forms at the same spot share one dot, sized by their number;
	// matching dots first, mismatches on top.
	type spot struct {
		px, py, r float64
		bad       bool
		zero      bool
		titles    []string
		href      string
		label     bool
	}
	var spots []*spot
	at := map[[3]int]*spot{}
	for _, p := range pts {
		px, py := x.px(p.model), y.px(p.measured)
		k := [3]int{int(math.Round(px)), int(math.Round(py)), 0}
		if p.bad {
			k[2] = 1
		}
		sp, ok := at[k]
		if !ok {
			sp = &spot{px: px, py: py, bad: p.bad, href: p.href, zero: x.log && (p.model <= 0 || p.measured <= 0)}
			at[k] = sp
			spots = append(spots, sp)
		}
		sp.titles = append(sp.titles, p.title)
	}
	sort.SliceStable(spots, func(i, j int) bool { return !spots[i].bad && spots[j].bad })
	// Counts are written beside the dots of several forms, the largest
	// first, where they overlap neither another count nor the frame.
	byCount := append([]*spot(nil), spots...)
	sort.SliceStable(byCount, func(i, j int) bool { return len(byCount[i].titles) > len(byCount[j].titles) })
	type box struct{ x0, y0, x1, y1 float64 }
	var placed []box
	for _, sp := range byCount {
		sp.r = math.Min(3.5+1.6*math.Sqrt(float64(len(sp.titles)-1)), 11)
		if len(sp.titles) < 2 {
			continue
		}
		bx := box{sp.px + sp.r + 1, sp.py - sp.r - 6, sp.px + sp.r + 3 + 5.6*float64(len(fmt.Sprint(len(sp.titles)))), sp.py - sp.r + 4}
		if bx.x1 > w-mr || bx.y0 < mt {
			continue
		}
		free := true
		for _, o := range placed {
			if bx.x0 < o.x1 && o.x0 < bx.x1 && bx.y0 < o.y1 && o.y0 < bx.y1 {
				free = false
				break
			}
		}
		if free {
			placed = append(placed, bx)
			sp.label = true
		}
	}
	var counts strings.Builder
	for _, sp := range spots {
		cls := "pt ok"
		if sp.bad {
			cls = "pt bad"
		}
		title := strings.Join(sp.titles, "\n")
		if len(sp.titles) > 12 {
			title = strings.Join(sp.titles[:12], "\n") + fmt.Sprintf("\n… and %d more", len(sp.titles)-12)
		}
		if len(sp.titles) > 1 {
			title = fmt.Sprintf("%d forms here:\n", len(sp.titles)) + title
		}
		shape := fmt.Sprintf(`<circle class="%s" cx="%.1f" cy="%.1f" r="%.1f"><title>%s</title></circle>`, cls, sp.px, sp.py, sp.r, esc(title))
		if sp.zero {
			shape = fmt.Sprintf(`<rect class="%s" x="%.1f" y="%.1f" width="7" height="7"><title>%s (a zero value, drawn at the axis)</title></rect>`, cls, sp.px-3.5, sp.py-3.5, esc(title))
		}
		if sp.label {
			fmt.Fprintf(&counts, `<text class="cnt" x="%.1f" y="%.1f">%d</text>`, sp.px+sp.r+2, sp.py-sp.r+2, len(sp.titles))
		}
		if sp.href != "" {
			fmt.Fprintf(&b, `<a href="%s">%s</a>`, esc(sp.href), shape)
		} else {
			b.WriteString(shape)
		}
	}
	// The counts go over every dot, so that none is hidden.
	b.WriteString(counts.String())
	b.WriteString(`</g></svg>`)
	return b.String()
}

// mapRow is one row of the cluster map: a cluster, or the noise.
type mapRow struct {
	label    string
	unstable bool
	noise    bool
	color    int
	id       int
	vals     []float64
	names    []string // each point's form and origin
}

// rlabelPx is the font size of the cluster map's row labels (class
// rlabel, monospace).
const rlabelPx = 10.5

// clusterMapSVG draws each cluster as a row of its points along the value
// axis (log when the values span more than a factor of 8). Points of a row
// less than two pixels apart share one dot, larger by their number, whose
// tooltip names them; the left margin fits the longest row label.
func clusterMapSVG(id, title string, rows []mapRow, cap caption) string {
	const w = 1200
	const mr, mt, mb = 24, 30, 40
	ml := 120
	for _, r := range rows {
		ml = max(ml, int(math.Ceil(monoWidth(r.label, rlabelPx)))+16)
	}
	rowH := 16.0
	if len(rows) > 40 {
		rowH = 11
	}
	plotH := mt + mb + int(math.Ceil(rowH*float64(len(rows))))
	capLines := cap.lines(w - 16)
	h := plotH + len(capLines)*captionLineH + 6
	var vals []float64
	for _, r := range rows {
		vals = append(vals, r.vals...)
	}
	x := newAxis(vals, float64(ml), w-mr, true)
	var b strings.Builder
	fmt.Fprintf(&b, `<svg class="plot map" viewBox="0 0 %d %d" role="img" aria-labelledby="%s-t"><title id="%s-t">%s</title>`, w, h, id, id, esc(title))
	fmt.Fprintf(&b, `<text class="ptitle" x="%d" y="18">%s</text>`, ml, esc(title))
	for _, t := range x.ticks() {
		px := x.px(t)
		fmt.Fprintf(&b, `<line class="grid" x1="%.1f" y1="%d" x2="%.1f" y2="%d"/>`, px, mt, px, plotH-mb)
		fmt.Fprintf(&b, `<text class="tick" x="%.1f" y="%d" text-anchor="middle">%s</text>`, px, plotH-mb+16, tickLabel(t))
	}
	scale := "linear"
	if x.log {
		scale = "log"
	}
	fmt.Fprintf(&b, `<text class="alabel" x="%d" y="%d" text-anchor="middle">measured value (cycles, %s)</text>`, (ml+w-mr)/2, plotH-8, scale)
	b.WriteString(captionSVG(capLines, 8, float64(plotH+4)))
	for i, r := range rows {
		cy := float64(mt) + rowH*(float64(i)+0.5)
		if i%2 == 0 {
			fmt.Fprintf(&b, `<rect class="stripe" x="%d" y="%.1f" width="%d" height="%.1f"/>`, ml, cy-rowH/2, w-ml-mr, rowH)
		}
		cls := fmt.Sprintf("c%d", r.color%10)
		what := fmt.Sprintf("cluster %d", r.id)
		switch {
		case r.noise:
			cls = "noise"
			what = "noise"
		case r.unstable:
			cls += " unstable"
			what += " (unstable)"
		}
		fmt.Fprintf(&b, `<text class="rlabel" x="%d" y="%.1f" text-anchor="end" dominant-baseline="middle">%s</text>`, ml-8, cy, esc(r.label))
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, v := range r.vals {
			lo, hi = math.Min(lo, v), math.Max(hi, v)
		}
		if !r.noise && len(r.vals) > 1 && hi > lo {
			fmt.Fprintf(&b, `<line class="span %s" x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f"/>`, cls, x.px(lo), cy, x.px(hi), cy)
		}
		type bin struct {
			sum, lo, hi float64
			idx         []int
		}
		bins := map[int]*bin{}
		var keys []int
		for k, v := range r.vals {
			key := int(math.Floor(x.px(v) / 2))
			bn, ok := bins[key]
			if !ok {
				bn = &bin{lo: v, hi: v}
				bins[key] = bn
				keys = append(keys, key)
			}
			bn.sum += x.px(v)
			bn.lo, bn.hi = math.Min(bn.lo, v), math.Max(bn.hi, v)
			bn.idx = append(bn.idx, k)
		}
		sort.Ints(keys)
		base := math.Min(4, rowH/2-1)
		for _, key := range keys {
			bn := bins[key]
			n := len(bn.idx)
			rad := math.Min(base+0.6*math.Log2(float64(n)), rowH/2-0.5)
			var t strings.Builder
			if n == 1 {
				fmt.Fprintf(&t, "%s: %s = %s", what, r.names[bn.idx[0]], num(r.vals[bn.idx[0]]))
			} else {
				rng := num(bn.lo)
				if bn.hi > bn.lo {
					rng += "–" + num(bn.hi)
				}
				fmt.Fprintf(&t, "%s: %d points at %s cycles", what, n, rng)
				for j, k := range bn.idx {
					if j == 8 {
						fmt.Fprintf(&t, "\n… and %d more", n-8)
						break
					}
					fmt.Fprintf(&t, "\n%s = %s", r.names[k], num(r.vals[k]))
				}
			}
			fmt.Fprintf(&b, `<circle class="mp %s" cx="%.1f" cy="%.1f" r="%.1f"><title>%s</title></circle>`, cls, bn.sum/float64(n), cy, rad, esc(t.String()))
		}
	}
	b.WriteString(`</svg>`)
	return b.String()
}
