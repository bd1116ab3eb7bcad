package cluster

import (
	"bytes"
	"compress/gzip"
	_ "embed"
	"encoding/base64"
	"encoding/json"
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

// DataElementID is the id of the script element that carries the report's
// data in the HTML page: the JSON report (WriteJSON's layout, without
// indentation), gzip-compressed and base64-encoded.
const DataElementID = "report-data"

// noscriptRows is how many of the worst mismatches the page lists as plain
// HTML, for readers without JavaScript.
const noscriptRows = 30

// WriteHTML writes the report as one self-contained HTML page: inline CSS,
// JavaScript and SVG, nothing fetched from the network.
//
// The header, the summary and the plots are plain HTML and SVG, readable
// without JavaScript, as is a list of the worst mismatches. The tables
// (every mismatch, the classes with their forms and snippets, noise,
// errors, clusters) are drawn by the page's script a page at a time, and a
// class's forms when it is opened, from the JSON report the page carries
// compressed (see DataElementID): a whole-host sweep, whose tables drawn as
// HTML came to tens of megabytes, makes a page of a few megabytes that a
// browser shows at once.
func WriteHTML(w io.Writer, r *Report, c *Clustering) error {
	v, err := buildView(r, c)
	if err != nil {
		return err
	}
	t, err := template.New("report").Funcs(template.FuncMap{
		"num":    num,
		"pct":    pct,
		"inc":    func(i int) int { return i + 1 },
		"signed": signed,
		"barw": func(rel float64) template.CSS {
			return template.CSS(fmt.Sprintf("width:%.0f%%", math.Min(100, rel*100)))
		},
		"size": func(n int) string {
			if n < 1e6 {
				return fmt.Sprintf("%.0f kB", math.Ceil(float64(n)/1e3))
			}
			return fmt.Sprintf("%.1f MB", float64(n)/1e6)
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
	case v >= 0.1:
		return fmt.Sprintf("%.0f %%", v*100)
	}
	return fmt.Sprintf("%.1f %%", v*100)
}

func signed(v float64) string {
	if v > 0 {
		return "+" + num(v)
	}
	return num(v)
}

type view struct {
	R        *Report
	Title    string
	HasModel bool
	CSS      template.CSS
	JS       template.JS
	Trap     template.JS
	Scatter  []template.HTML
	Maps     []template.HTML
	// DataID, Data and DataSize are the report's JSON as the page carries
	// it (gzip, base64) and its size unpacked.
	DataID   string
	Data     template.HTML // base64: nothing to escape
	DataSize int
	// Rows counts the measurements of the inconsistent classes (the
	// mismatch table's rows), Top are the worst of them.
	Rows int
	Top  []*mismatchRow
}

type mismatchRow struct {
	Form, Class, Anchor, Measure, Config, Ports, Clusters string
	Measured, Model, Abs, Rel                             float64
	Bad, Noise, Unstable                                  bool
}

func buildView(r *Report, c *Clustering) (*view, error) {
	v := &view{R: r, HasModel: r.Meta.Model != "" || len(r.Inconsistencies)+len(r.Consistent) > 0,
		CSS: template.CSS(reportCSS), JS: template.JS(reportJS), Trap: template.JS(errorTrap), DataID: DataElementID}
	v.Title = "portlab cluster report"
	if v.HasModel {
		v.Title = "Where the model disagrees with the silicon"
	}
	var rows []*mismatchRow
	for i, cr := range r.Inconsistencies {
		anchor := fmt.Sprintf("class-%d", i+1)
		for _, f := range cr.Forms {
			for _, m := range f.Measures {
				if m.Model == nil {
					continue
				}
				ports := ""
				if f.Model != nil {
					ports = f.Model.Ports
				}
				rows = append(rows, &mismatchRow{Form: f.Form, Class: cr.Class, Anchor: anchor,
					Measure: shortMeasure(m.Key), Config: m.Config, Ports: ports,
					Clusters: strings.Join(m.Clusters, " "), Measured: m.Measured, Model: *m.Model,
					Abs: m.AbsError, Rel: m.RelError, Bad: m.Mismatch, Noise: m.NoiseOnly, Unstable: m.Unstable})
			}
		}
	}
	sort.SliceStable(rows, func(i, j int) bool {
		a, b := rows[i], rows[j]
		if a.Bad != b.Bad {
			return a.Bad
		}
		return a.Rel > b.Rel
	})
	v.Rows = len(rows)
	for _, row := range rows {
		if len(v.Top) == noscriptRows || !row.Bad {
			break
		}
		v.Top = append(v.Top, row)
	}
	data, err := json.Marshal(r)
	if err != nil {
		return nil, fmt.Errorf("report data: %v", err)
	}
	v.DataSize = len(data)
	var z bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&z, gzip.BestCompression)
	zw.Write(data)
	if err := zw.Close(); err != nil {
		return nil, fmt.Errorf("report data: %v", err)
	}
	v.Data = template.HTML(base64.StdEncoding.EncodeToString(z.Bytes()))
	caption := figureCaption(r.Meta)
	v.Scatter = scatterPlots(r, caption)
	if c != nil {
		v.Maps = clusterMaps(r, c, caption)
	}
	return v, nil
}

// ReadHTMLData returns the JSON report an HTML page written by WriteHTML
// carries.
func ReadHTMLData(page []byte) ([]byte, error) {
	open := []byte(`<script type="application/gzip;base64" id="` + DataElementID + `">`)
	i := bytes.Index(page, open)
	if i < 0 {
		return nil, fmt.Errorf("no %s element in the page", DataElementID)
	}
	rest := page[i+len(open):]
	j := bytes.Index(rest, []byte("</script>"))
	if j < 0 {
		return nil, fmt.Errorf("%s element not closed", DataElementID)
	}
	z, err := base64.StdEncoding.DecodeString(string(bytes.TrimSpace(rest[:j])))
	if err != nil {
		return nil, fmt.Errorf("%s: %v", DataElementID, err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(z))
	if err != nil {
		return nil, fmt.Errorf("%s: %v", DataElementID, err)
	}
	return io.ReadAll(zr)
}

// shortMeasure names a measurement key for a table cell.
func shortMeasure(key string) string {
	if key == "inverse_throughput" {
		return "recip. throughput"
	}
	return measureName(key)
}

// figureCaption is what every figure says of its origin: the host (CPU
// signature and microarchitecture), when it was measured, the model, and
// the command that reproduces the report.
func figureCaption(m Meta) caption {
	host := m.Host
	if m.HostCPU != "" {
		host = strings.TrimPrefix(host+", "+m.HostCPU, ", ")
	}
	if host == "" {
		host = m.CPU
	}
	if host == "" {
		host = "not recorded in the results"
	}
	parts := []string{"host " + host}
	if m.Measured != "" {
		parts = append(parts, "measured "+m.Measured)
	}
	parts = append(parts, "report "+m.Generated)
	if m.Model != "" {
		parts = append(parts, "model "+m.Model)
	}
	cmd := m.Command
	if cmd == "" && len(m.Files) > 0 {
		cmd = "portlab cluster " + strings.Join(m.Files, " ")
	}
	return caption{about: strings.Join(parts, " · "), command: cmd}
}

// scatterPlots draws measured against model for latency and reciprocal
// throughput over every checked form.
func scatterPlots(r *Report, cap caption) []template.HTML {
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
	for i, cr := range r.Consistent {
		add(cr, fmt.Sprintf("ok-%d", i+1))
	}
	var out []template.HTML
	for _, k := range []string{"latency", "throughput", "uops"} {
		g := groups[k]
		if len(g.pts) == 0 {
			continue
		}
		out = append(out, template.HTML(scatterSVG("sc-"+k, g.title, g.pts, r.Meta.IncEps, cap)))
	}
	return out
}

// mapMaxRows is how many clusters a cluster map draws at most (the
// largest); the table of all clusters lists every one.
const mapMaxRows = 80

// clusterMaps draws one cluster map per measurement kind.
func clusterMaps(r *Report, c *Clustering, cap caption) []template.HTML {
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
		row := mapRow{unstable: cl.Unstable, color: int(cl.ID), id: int(cl.ID)}
		labels := newSet()
		for _, i := range cl.Points {
			p := c.Points[i]
			row.vals = append(row.vals, p.Values[0])
			row.names = append(row.names, p.Label()+" ("+p.Where()+")")
			labels.add(p.Label())
		}
		mean, _, _ := Centroid(c.Points, cl.Points)
		name := labels.list[0]
		if r := []rune(name); len(r) > 26 {
			name = string(r[:25]) + "…"
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
		pt.noise.names = append(pt.noise.names, p.Label()+" ("+p.Where()+")")
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
		if len(rows) > mapMaxRows {
			sort.SliceStable(rows, func(i, j int) bool { return len(rows[i].vals) > len(rows[j].vals) })
			rows = rows[:mapMaxRows]
			sort.SliceStable(rows, func(i, j int) bool { return mean(rows[i].vals) < mean(rows[j].vals) })
			title += fmt.Sprintf(" (the %d largest shown)", mapMaxRows)
		}
		if len(pt.noise.vals) > 0 {
			pt.noise.label = fmt.Sprintf("noise · %d points", len(pt.noise.vals))
			rows = append(rows, pt.noise)
		}
		out = append(out, template.HTML(clusterMapSVG(fmt.Sprintf("map-%d", k), title, rows, cap)))
	}
	return out
}
