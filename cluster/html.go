package cluster

import (
	"bytes"
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"math"
	"sort"
	"strings"
)

//go:embed report/report.tmpl
var reportTmpl string

//go:embed report/report.css
var reportCSS string

//go:embed report/report.js
var reportJS string

// errorTrap is the first script of the page: it records script errors in
// the html element's data-js-errors attribute, where a headless browser's
// DOM dump (and the report's own banner) can see them.
const errorTrap = `(function(){var d=document.documentElement;function rec(m){var o=d.getAttribute('data-js-errors')||'';d.setAttribute('data-js-errors',o+(o?' | ':'')+m);}
window.addEventListener('error',function(e){rec((e.message||'error')+(e.filename?' @'+e.filename+':'+e.lineno:''));});
window.addEventListener('unhandledrejection',function(e){rec('unhandled rejection: '+(e.reason&&e.reason.message||e.reason));});
var ce=console.error;console.error=function(){rec(Array.prototype.join.call(arguments,' '));return ce.apply(console,arguments);};})();`

// WriteHTML writes the report as one self-contained HTML page: inline CSS,
// JavaScript and SVG, nothing fetched from the network.
func WriteHTML(w io.Writer, r *Report, c *Clustering) error {
	v := buildView(r, c)
	t, err := template.New("report").Funcs(template.FuncMap{
		"num":         num,
		"pct":         pct,
		"sval":        func(v float64) string { return fmt.Sprintf("%.6g", v) },
		"join":        strings.Join,
		"inc":         func(i int) int { return i + 1 },
		"measureName": measureName,
		"signed": func(v float64) string {
			if v > 0 {
				return "+" + num(v)
			}
			return num(v)
		},
		"barw": func(rel float64) template.CSS {
			return template.CSS(fmt.Sprintf("width:%.0f%%", math.Min(100, rel*100)))
		},
		"first": func(vs []float64) string {
			if len(vs) == 0 {
				return ""
			}
			return fmt.Sprintf("%.6g", vs[0])
		},
		"pnums": func(vs []*float64) string {
			var s []string
			for _, v := range vs {
				if v == nil {
					s = append(s, "—")
				} else {
					s = append(s, num(*v))
				}
			}
			return strings.Join(s, ", ")
		},
		"nums": func(vs []float64) string {
			var s []string
			for _, v := range vs {
				s = append(s, num(v))
			}
			return strings.Join(s, ", ")
		},
	}).Parse(reportTmpl)
	if err != nil {
		return fmt.Errorf("report template: %v", err)
	}
	var buf bytes.Buffer
	if err := t.Execute(&buf, v); err != nil {
		return fmt.Errorf("report template: %v", err)
	}
	_, err = w.Write(buf.Bytes())
	return err
}

func pct(v float64) string {
	switch {
	case v >= 10:
		return fmt.Sprintf("%.0f×", v+1)
	case v >= 0.995:
		return fmt.Sprintf("%.0f %%", v*100)
	case v >= 0.1:
		return fmt.Sprintf("%.0f %%", v*100)
	}
	return fmt.Sprintf("%.1f %%", v*100)
}

type view struct {
	R          *Report
	Title      string
	HasModel   bool
	CSS        template.CSS
	JS         template.JS
	Trap       template.JS
	Scatter    []template.HTML
	Maps       []template.HTML
	Rows       []*mismatchRow
	Classes    []*classView
	Consistent []*classView
	NotInModel []*formView
	Unstable   []*unstableView
}

type mismatchRow struct {
	Form, Class, Anchor, Measure, Config, Ports, Clusters string
	Measured, Model, Abs, Rel                             float64
	Bad, Noise, Unstable                                  bool
	Mode                                                  string
}

type classView struct {
	*ClassReport
	Anchor string
	Rank   int
	Forms  []*formView
}

type cell struct {
	Text  string
	Sort  float64
	Class string // "bad", "good" or ""
	Title string
}

type formView struct {
	*FormResult
	Lat, LatModel, Tp, TpModel, Uops, UopsModel cell
	Others                                      []string
	Clusters                                    string
}

type unstableView struct {
	*ClusterSummary
	Label  string
	Values string
	From   string
}

func buildView(r *Report, c *Clustering) *view {
	v := &view{R: r, HasModel: r.Meta.Model != "" || len(r.Inconsistencies)+len(r.Consistent) > 0,
		CSS: template.CSS(reportCSS), JS: template.JS(reportJS), Trap: template.JS(errorTrap)}
	v.Title = "portlab cluster report"
	if v.HasModel {
		v.Title = "Where the model disagrees with the silicon"
	}
	for i, cr := range r.Inconsistencies {
		cv := &classView{ClassReport: cr, Anchor: fmt.Sprintf("class-%d", i+1), Rank: i + 1}
		for _, f := range cr.Forms {
			fv := newFormView(f)
			cv.Forms = append(cv.Forms, fv)
			for _, m := range f.Measures {
				if m.Model == nil {
					continue
				}
				v.Rows = append(v.Rows, &mismatchRow{Form: f.Form, Class: cr.Class, Anchor: cv.Anchor,
					Measure: shortMeasure(m.Key), Mode: m.Mode, Config: m.Config, Ports: modelPorts(f.Model),
					Clusters: strings.Join(m.Clusters, " "), Measured: m.Measured, Model: *m.Model,
					Abs: m.AbsError, Rel: m.RelError, Bad: m.Mismatch, Noise: m.NoiseOnly, Unstable: m.Unstable})
			}
		}
		v.Classes = append(v.Classes, cv)
	}
	sort.SliceStable(v.Rows, func(i, j int) bool {
		a, b := v.Rows[i], v.Rows[j]
		if a.Bad != b.Bad {
			return a.Bad
		}
		return a.Rel > b.Rel
	})
	for i, cr := range r.Consistent {
		cv := &classView{ClassReport: cr, Anchor: fmt.Sprintf("ok-%d", i+1)}
		for _, f := range cr.Forms {
			cv.Forms = append(cv.Forms, newFormView(f))
		}
		v.Consistent = append(v.Consistent, cv)
	}
	for _, f := range r.NotInModel {
		v.NotInModel = append(v.NotInModel, newFormView(f))
	}
	for _, u := range r.Unstable {
		uv := &unstableView{ClusterSummary: u, Label: strings.Join(u.Opcodes, ", ")}
		var vals, from []string
		for _, m := range u.Members {
			vals = append(vals, fmt.Sprintf("%s (%s)", joinNums(m.Values), m.Where))
		}
		for _, f := range u.From {
			from = append(from, fmt.Sprint(f))
		}
		uv.Values = strings.Join(vals, "; ")
		uv.From = strings.Join(from, ", ")
		v.Unstable = append(v.Unstable, uv)
	}
	v.Scatter = scatterPlots(r)
	if c != nil {
		v.Maps = clusterMaps(r, c)
	}
	return v
}

// shortMeasure names a measurement key for a table cell.
func shortMeasure(key string) string {
	if key == "inverse_throughput" {
		return "recip. throughput"
	}
	return measureName(key)
}

func joinNums(vs []float64) string {
	var s []string
	for _, v := range vs {
		s = append(s, num(v))
	}
	return strings.Join(s, ", ")
}

func modelPorts(m *ModelValues) string {
	if m == nil {
		return ""
	}
	return m.Ports
}

func newFormView(f *FormResult) *formView {
	fv := &formView{FormResult: f}
	ids := newSet()
	set := func(meas, model *cell, cs []*Comparison) {
		var mt, mo []string
		bad, good := false, false
		for _, c := range cs {
			t := num(c.Measured)
			if c.Points > 1 && c.Max-c.Min > 0 {
				t += fmt.Sprintf(" [%s–%s]", num(c.Min), num(c.Max))
			}
			if c.Config != "" && len(cs) > 1 {
				t = c.Config + ": " + t
			}
			if c.NoiseOnly {
				t += " ⁿ"
			}
			if c.Unstable {
				t += " ⚠"
			}
			mt = append(mt, t)
			if c.Model != nil {
				mo = append(mo, num(*c.Model))
				if c.Mismatch {
					bad = true
				} else {
					good = true
				}
			} else {
				mo = append(mo, "—")
			}
			for _, id := range c.Clusters {
				ids.add(id)
			}
		}
		if len(cs) == 0 {
			meas.Text, model.Text = "", ""
			meas.Sort, model.Sort = math.Inf(-1), math.Inf(-1)
			return
		}
		meas.Text, model.Text = strings.Join(mt, "\n"), strings.Join(mo, "\n")
		meas.Sort = cs[0].Measured
		if cs[0].Model != nil {
			model.Sort = *cs[0].Model
		}
		switch {
		case bad:
			meas.Class, model.Class = "bad", "bad"
			meas.Title = fmt.Sprintf("off by %s cycles (%s)", num(cs[0].AbsError), pct(cs[0].RelError))
		case good:
			meas.Class, model.Class = "good", "good"
		}
		if cs[0].NoiseOnly {
			meas.Title = strings.TrimSpace(meas.Title + " measured by noise points only")
		}
		if cs[0].Unstable {
			meas.Title = strings.TrimSpace(meas.Title + " unstable: the median of points in several clusters")
		}
	}
	var lat, tp, uops []*Comparison
	for _, c := range f.Measures {
		switch fieldOf(c) {
		case "throughput":
			tp = append(tp, c)
		case "uops":
			uops = append(uops, c)
		case "":
			m := "—"
			if c.Model != nil {
				m = num(*c.Model)
			}
			fv.Others = append(fv.Others, fmt.Sprintf("%s %s (model %s)", c.Key, num(c.Measured), m))
		default:
			lat = append(lat, c)
		}
	}
	set(&fv.Lat, &fv.LatModel, lat)
	set(&fv.Tp, &fv.TpModel, tp)
	set(&fv.Uops, &fv.UopsModel, uops)
	if f.Model != nil {
		if len(lat) == 0 {
			fv.LatModel = cell{Text: num(f.Model.Latency), Sort: f.Model.Latency, Title: "not measured", Class: "muted"}
		}
		if len(tp) == 0 && f.Model.Throughput > 0 {
			fv.TpModel = cell{Text: num(f.Model.Throughput), Sort: f.Model.Throughput, Title: "not measured", Class: "muted"}
		}
		if len(uops) == 0 && f.Model.Uops > 0 {
			fv.UopsModel = cell{Text: num(f.Model.Uops), Sort: f.Model.Uops, Title: "not measured", Class: "muted"}
		}
	}
	fv.Clusters = strings.Join(ids.list, " ")
	return fv
}

// scatterPlots draws measured against model for latency and reciprocal
// throughput over every checked form.
func scatterPlots(r *Report) []template.HTML {
	type group struct {
		title string
		pts   []scatterPoint
	}
	groups := map[string]*group{
		"latency":    {title: "Latency: measured vs model"},
		"throughput": {title: "Reciprocal throughput: measured vs model"},
		"uops":       {title: "Uops: measured vs model"},
	}
	add := func(cr *ClassReport, anchor string) {
		for _, f := range cr.Forms {
			for _, m := range f.Measures {
				field := fieldOf(m)
				if strings.HasPrefix(field, "latency") {
					field = "latency"
				}
				g := groups[field]
				if g == nil || m.Model == nil {
					continue
				}
				t := fmt.Sprintf("%s — %s: measured %s, model %s", f.Form, measureName(m.Key), num(m.Measured), num(*m.Model))
				if m.Config != "" {
					t += " (" + m.Config + ")"
				}
				if m.Mismatch {
					t += fmt.Sprintf(", off by %s", pct(m.RelError))
				}
				g.pts = append(g.pts, scatterPoint{model: *m.Model, measured: m.Measured, bad: m.Mismatch, title: t, href: "#" + anchor})
			}
		}
	}
	for i, cr := range r.Inconsistencies {
		add(cr, fmt.Sprintf("class-%d", i+1))
	}
	for _, cr := range r.Consistent {
		add(cr, "consistent")
	}
	var out []template.HTML
	for _, k := range []string{"latency", "throughput", "uops"} {
		g := groups[k]
		if len(g.pts) == 0 {
			continue
		}
		out = append(out, template.HTML(scatterSVG("sc-"+k, g.title, g.pts, r.Meta.IncEps)))
	}
	return out
}

// clusterMaps draws one cluster map per measurement kind.
func clusterMaps(r *Report, c *Clustering) []template.HTML {
	type part struct {
		mode, key string
		rows      []mapRow
		noise     mapRow
	}
	parts := map[string]*part{}
	var order []string
	partOf := func(p *Point) *part {
		sig := p.signature()
		pt, ok := parts[sig]
		if !ok {
			pt = &part{mode: p.Mode, key: p.Keys[0], noise: mapRow{label: "noise", noise: true}}
			parts[sig] = pt
			order = append(order, sig)
		}
		return pt
	}
	for _, cl := range c.Clusters {
		if len(cl.Points) == 0 {
			continue
		}
		pt := partOf(c.Points[cl.Points[0]])
		row := mapRow{unstable: cl.Unstable, color: int(cl.ID)}
		labels := newSet()
		for _, i := range cl.Points {
			p := c.Points[i]
			row.vals = append(row.vals, p.Values[0])
			row.titles = append(row.titles, fmt.Sprintf("cluster %d: %s = %s (%s)", cl.ID, p.Label(), num(p.Values[0]), p.Where()))
			labels.add(p.Label())
		}
		mean, _, _ := Centroid(c.Points, cl.Points)
		name := labels.list[0]
		if r := []rune(name); len(r) > 24 {
			name = string(r[:23]) + "…"
		}
		if len(labels.list) > 1 {
			name += fmt.Sprintf(" +%d", len(labels.list)-1)
		}
		row.label = fmt.Sprintf("#%d %s · %s", cl.ID, name, num(mean[0]))
		if cl.Unstable {
			row.label = fmt.Sprintf("#%d ⚠ %s · unstable", cl.ID, name)
		}
		pt.rows = append(pt.rows, row)
	}
	for _, i := range c.Noise {
		p := c.Points[i]
		pt := partOf(p)
		pt.noise.vals = append(pt.noise.vals, p.Values[0])
		pt.noise.titles = append(pt.noise.titles, fmt.Sprintf("noise: %s = %s (%s)", p.Label(), num(p.Values[0]), p.Where()))
	}
	var out []template.HTML
	for k, sig := range order {
		pt := parts[sig]
		sort.SliceStable(pt.rows, func(i, j int) bool { return mean(pt.rows[i].vals) < mean(pt.rows[j].vals) })
		rows := pt.rows
		what := pt.mode
		if pt.key != pt.mode {
			what += " (" + pt.key + ")"
		}
		title := fmt.Sprintf("Cluster map — %s, %d clusters", what, len(rows))
		const maxRows = 80
		if len(rows) > maxRows {
			sort.SliceStable(rows, func(i, j int) bool { return len(rows[i].vals) > len(rows[j].vals) })
			rows = rows[:maxRows]
			sort.SliceStable(rows, func(i, j int) bool { return mean(rows[i].vals) < mean(rows[j].vals) })
			title += fmt.Sprintf(" (the %d largest shown)", maxRows)
		}
		if len(pt.noise.vals) > 0 {
			pt.noise.label = fmt.Sprintf("noise · %d points", len(pt.noise.vals))
			rows = append(rows, pt.noise)
		}
		out = append(out, template.HTML(clusterMapSVG(fmt.Sprintf("map-%d", k), title, rows)))
	}
	return out
}
