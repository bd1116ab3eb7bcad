package cluster

import (
	"fmt"
	"html"
	"math"
	"sort"
	"strings"
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
	step := niceStep(span / 5)
	a.lo = math.Floor(lo/step) * step
	a.hi = math.Ceil((hi+span*0.04)/step) * step
	return a
}

func niceStep(raw float64) float64 {
	if raw <= 0 {
		return 1
	}
	e := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, m := range []float64{1, 2, 2.5, 5, 10} {
		if m*e >= raw {
			return m * e
		}
	}
	return 10 * e
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
	step := niceStep((a.hi - a.lo) / 5)
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

// scatterPoint is one form's measured value against the model's.
type scatterPoint struct {
	model, measured float64
	bad             bool
	title, href     string
}

// scatterSVG draws measured (y) against model (x) with the y = x line and
// the ±eps band, both axes on the same scale (log when the values span
// more than a factor of 8).
func scatterSVG(id, title string, pts []scatterPoint, eps float64) string {
	const w, h = 440, 380
	const ml, mr, mt, mb = 58, 16, 30, 46
	var vals []float64
	for _, p := range pts {
		vals = append(vals, p.model, p.measured)
	}
	x := newAxis(vals, ml, w-mr, true)
	y := x
	y.p0, y.p1 = h-mb, mt
	y.floorPix = h - mb
	var b strings.Builder
	fmt.Fprintf(&b, `<svg class="plot" viewBox="0 0 %d %d" role="img" aria-labelledby="%s-t"><title id="%s-t">%s</title>`, w, h, id, id, esc(title))
	fmt.Fprintf(&b, `<defs><clipPath id="%s-clip"><rect x="%d" y="%d" width="%d" height="%d"/></clipPath></defs>`, id, ml, mt, w-ml-mr, h-mt-mb)
	fmt.Fprintf(&b, `<text class="ptitle" x="%d" y="18">%s</text>`, ml, esc(title))
	// Grid and ticks.
	for _, t := range x.ticks() {
		px, py := x.px(t), y.px(t)
		fmt.Fprintf(&b, `<line class="grid" x1="%.1f" y1="%d" x2="%.1f" y2="%d"/>`, px, mt, px, h-mb)
		fmt.Fprintf(&b, `<line class="grid" x1="%d" y1="%.1f" x2="%d" y2="%.1f"/>`, ml, py, w-mr, py)
		fmt.Fprintf(&b, `<text class="tick" x="%.1f" y="%d" text-anchor="middle">%s</text>`, px, h-mb+16, tickLabel(t))
		fmt.Fprintf(&b, `<text class="tick" x="%d" y="%.1f" text-anchor="end" dominant-baseline="middle">%s</text>`, ml-6, py, tickLabel(t))
	}
	fmt.Fprintf(&b, `<rect class="frame" x="%d" y="%d" width="%d" height="%d"/>`, ml, mt, w-ml-mr, h-mt-mb)
	scale := "linear"
	if x.log {
		scale = "log"
	}
	fmt.Fprintf(&b, `<text class="alabel" x="%d" y="%d" text-anchor="middle">model (cycles, %s)</text>`, (ml+w-mr)/2, h-8, scale)
	fmt.Fprintf(&b, `<text class="alabel" transform="translate(14 %d) rotate(-90)" text-anchor="middle">measured (cycles)</text>`, (mt+h-mb)/2)
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
			py = float64(h - mb + 4)
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
		px, py float64
		bad    bool
		zero   bool
		titles []string
		href   string
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
	for _, sp := range spots {
		cls := "pt ok"
		if sp.bad {
			cls = "pt bad"
		}
		title := strings.Join(sp.titles, "\n")
		if len(sp.titles) > 12 {
			title = strings.Join(sp.titles[:12], "\n") + fmt.Sprintf("\n… and %d more", len(sp.titles)-12)
		}
		r := 3.5 + 1.6*math.Sqrt(float64(len(sp.titles)-1))
		r = math.Min(r, 11)
		shape := fmt.Sprintf(`<circle class="%s" cx="%.1f" cy="%.1f" r="%.1f"><title>%s</title></circle>`, cls, sp.px, sp.py, r, esc(title))
		if sp.zero {
			shape = fmt.Sprintf(`<rect class="%s" x="%.1f" y="%.1f" width="7" height="7"><title>%s (a zero value, drawn at the axis)</title></rect>`, cls, sp.px-3.5, sp.py-3.5, esc(title))
		}
		if len(sp.titles) > 1 {
			shape += fmt.Sprintf(`<text class="cnt" x="%.1f" y="%.1f">%d</text>`, sp.px+r+2, sp.py-r+2, len(sp.titles))
		}
		if sp.href != "" {
			fmt.Fprintf(&b, `<a href="%s">%s</a>`, esc(sp.href), shape)
		} else {
			b.WriteString(shape)
		}
	}
	b.WriteString(`</g></svg>`)
	return b.String()
}

// mapRow is one row of the cluster map: a cluster, or the noise.
type mapRow struct {
	label    string
	unstable bool
	noise    bool
	color    int
	vals     []float64
	titles   []string
}

// clusterMapSVG draws each cluster as a row of its points along the value
// axis (log when the values span more than a factor of 8).
func clusterMapSVG(id, title string, rows []mapRow) string {
	const w = 1200
	const ml, mr, mt, mb = 250, 24, 30, 40
	rowH := 16.0
	if len(rows) > 40 {
		rowH = 11
	}
	h := mt + mb + int(math.Ceil(rowH*float64(len(rows))))
	var vals []float64
	for _, r := range rows {
		vals = append(vals, r.vals...)
	}
	x := newAxis(vals, ml, w-mr, true)
	var b strings.Builder
	fmt.Fprintf(&b, `<svg class="plot map" viewBox="0 0 %d %d" role="img" aria-labelledby="%s-t"><title id="%s-t">%s</title>`, w, h, id, id, esc(title))
	fmt.Fprintf(&b, `<text class="ptitle" x="%d" y="18">%s</text>`, ml, esc(title))
	for _, t := range x.ticks() {
		px := x.px(t)
		fmt.Fprintf(&b, `<line class="grid" x1="%.1f" y1="%d" x2="%.1f" y2="%d"/>`, px, mt, px, h-mb)
		fmt.Fprintf(&b, `<text class="tick" x="%.1f" y="%d" text-anchor="middle">%s</text>`, px, h-mb+16, tickLabel(t))
	}
	scale := "linear"
	if x.log {
		scale = "log"
	}
	fmt.Fprintf(&b, `<text class="alabel" x="%d" y="%d" text-anchor="middle">measured value (cycles, %s)</text>`, (ml+w-mr)/2, h-8, scale)
	for i, r := range rows {
		cy := float64(mt) + rowH*(float64(i)+0.5)
		if i%2 == 0 {
			fmt.Fprintf(&b, `<rect class="stripe" x="%d" y="%.1f" width="%d" height="%.1f"/>`, ml, cy-rowH/2, w-ml-mr, rowH)
		}
		cls := fmt.Sprintf("c%d", r.color%10)
		switch {
		case r.noise:
			cls = "noise"
		case r.unstable:
			cls += " unstable"
		}
		fmt.Fprintf(&b, `<text class="rlabel" x="%d" y="%.1f" text-anchor="end" dominant-baseline="middle">%s</text>`, ml-8, cy, esc(r.label))
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, v := range r.vals {
			lo, hi = math.Min(lo, v), math.Max(hi, v)
		}
		if !r.noise && len(r.vals) > 1 && hi > lo {
			fmt.Fprintf(&b, `<line class="span %s" x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f"/>`, cls, x.px(lo), cy, x.px(hi), cy)
		}
		rad := math.Min(4, rowH/2-1)
		for k, v := range r.vals {
			fmt.Fprintf(&b, `<circle class="mp %s" cx="%.1f" cy="%.1f" r="%.1f"><title>%s</title></circle>`, cls, x.px(v), cy, rad, esc(r.titles[k]))
		}
	}
	b.WriteString(`</svg>`)
	return b.String()
}
