package cluster

import (
	"fmt"
	"math"
	"sort"
	"strings"
	"time"

	"portlab/internal/stats"
	"portlab/modeldb"
	"portlab/results"
)

// AnalysisOptions configures Analyze.
type AnalysisOptions struct {
	// Epsilon is the inconsistency epsilon: the largest distance, in cycles,
	// between a measurement and the model that still counts as agreement.
	// Default 0.1, as exegesis.
	Epsilon float64
	// DisplayUnstable analyses the unstable clusters instead of the stable
	// ones (exegesis's --analysis-display-unstable-clusters).
	DisplayUnstable bool
	// Files, Filter and Generated are recorded in the report's header.
	Files     []string
	Filter    string
	Generated time.Time
	// ModelName overrides the model's name in the header ("llvm-mca
	// -mcpu=znver3").
	ModelName string
	// Command is the command line that reproduces the report, recorded in
	// the header and under every figure.
	Command string
}

// Report is everything Analyze found; the JSON output is this structure.
type Report struct {
	Meta    Meta    `json:"meta"`
	Summary Summary `json:"summary"`
	// Inconsistencies are the classes whose measurements disagree with the
	// model, the most wrong (largest relative error) first.
	Inconsistencies []*ClassReport `json:"inconsistencies"`
	// Consistent are the classes checked and found in agreement.
	Consistent []*ClassReport `json:"consistent"`
	// NotInModel are measured forms the model has no entry for (or that
	// could not be resolved to a form).
	NotInModel []*FormResult `json:"not_in_model"`
	// Unstable are the unstable clusters: an opcode whose points fell into
	// several clusters.
	Unstable []*ClusterSummary `json:"unstable"`
	Clusters []*ClusterSummary `json:"clusters"`
	Noise    []*PointRef       `json:"noise"`
	Errors   []*PointRef       `json:"errors"`
}

// Meta is the report's header.
type Meta struct {
	Generated string `json:"generated"`
	Host      string `json:"host,omitempty"`
	// HostCPU is the measured machines' CPU brand and microarchitecture
	// ("Intel(R) Xeon(R) Platinum 8480+ (sapphirerapids)"), from the
	// host_info portlab writes on every result of a sweep.
	HostCPU   string   `json:"host_cpu,omitempty"`
	CPU       string   `json:"cpu,omitempty"`
	Triple    string   `json:"triple,omitempty"`
	Model     string   `json:"model,omitempty"`
	ModelCPU  string   `json:"model_cpu,omitempty"`
	Files     []string `json:"files,omitempty"`
	Measured  string   `json:"measured,omitempty"` // date range of portlab results
	Clock     string   `json:"clock,omitempty"`    // clocks portlab used
	Algorithm string   `json:"clustering"`
	Epsilon   float64  `json:"clustering_epsilon"`
	MinPoints int      `json:"numpoints"`
	IncEps    float64  `json:"inconsistency_epsilon"`
	Unstable  bool     `json:"display_unstable_clusters"`
	Filter    string   `json:"filter,omitempty"`
	Command   string   `json:"command,omitempty"`
}

// Summary counts what the report covers.
type Summary struct {
	Points              int `json:"points"`
	Opcodes             int `json:"opcodes"`
	Forms               int `json:"forms"`
	Clusters            int `json:"clusters"`
	UnstableClusters    int `json:"unstable_clusters"`
	Noise               int `json:"noise_points"`
	Errors              int `json:"error_points"`
	Classes             int `json:"classes_checked"`
	InconsistentClasses int `json:"inconsistent_classes"`
	InconsistentForms   int `json:"inconsistent_forms"`
	FormsChecked        int `json:"forms_checked"`
	NotInModel          int `json:"forms_not_in_model"`
}

// ClassReport is one model class checked against the measurements.
type ClassReport struct {
	// Class names the class: the model's class name, or for entries without
	// one the values they share ("lat 3 · rthr 0.5 · 1*p01").
	Class      string `json:"class"`
	NamedClass bool   `json:"named_class"`
	// Model is the class's values when all its entries agree on them.
	Model *ModelValues `json:"model,omitempty"`
	// Inconsistent is set when some comparison is further than epsilon
	// from the model.
	Inconsistent bool `json:"inconsistent"`
	// RelError and AbsError are the worst mismatch's errors; Worst
	// describes it.
	RelError float64 `json:"relative_error"`
	AbsError float64 `json:"abs_error"`
	Worst    string  `json:"worst,omitempty"`
	// Forms are the measured forms of the class, mismatching ones first.
	Forms []*FormResult `json:"forms"`
	// Clusters are the class's points bucketed by cluster, with each
	// bucket's centroid compared with the model (exegesis's view).
	Clusters []*ClassCluster `json:"clusters"`
	// Unmeasured are the class's forms the results do not cover.
	Unmeasured []string `json:"unmeasured_forms,omitempty"`
}

// ModelValues are a model entry's values.
type ModelValues struct {
	Latency    float64 `json:"latency"`
	Throughput float64 `json:"throughput"`
	Uops       float64 `json:"uops"`
	Ports      string  `json:"ports"`
	Class      string  `json:"class,omitempty"`
	Source     string  `json:"source,omitempty"`
}

// FormResult is one measured form compared with its model entry.
type FormResult struct {
	Form     string        `json:"form"`
	Opcodes  []string      `json:"opcodes,omitempty"` // exegesis opcodes measured, when not the form itself
	Model    *ModelValues  `json:"model,omitempty"`
	Measures []*Comparison `json:"measurements"`
	Mismatch bool          `json:"mismatch"`
	RelError float64       `json:"relative_error"`
	AbsError float64       `json:"abs_error"`
	Memory   bool          `json:"memory_operand"`
	Snippet  string        `json:"snippet,omitempty"`
	Points   []string      `json:"points"` // file#doc of each point
}

// Comparison is one measured quantity of a form against the model.
type Comparison struct {
	Mode   string `json:"mode"`
	Key    string `json:"key"`
	Config string `json:"config,omitempty"`
	// Measured is the mean of the form's points in a stable cluster, else
	// the median of its points in unstable clusters, else the median of
	// its noise points.
	Measured  float64 `json:"measured"`
	Min       float64 `json:"min"`
	Max       float64 `json:"max"`
	Points    int     `json:"points"`
	NoiseOnly bool    `json:"noise_only,omitempty"`
	// Unstable is set when the form's points are in an unstable cluster;
	// such a comparison is a mismatch only when the model is more than
	// epsilon outside the range of the points.
	Unstable bool     `json:"unstable,omitempty"`
	Clusters []string `json:"clusters"`
	// Model is the model's value, nil when the model has none.
	Model    *float64 `json:"model"`
	AbsError float64  `json:"abs_error"`      // measured - model
	RelError float64  `json:"relative_error"` // |measured - model| / model (model 0: / 1 cycle)
	Mismatch bool     `json:"mismatch"`
}

// ClassCluster is the part of one cluster that belongs to one class.
type ClassCluster struct {
	Cluster  string     `json:"cluster"`
	Unstable bool       `json:"unstable,omitempty"`
	Mode     string     `json:"mode"`
	Keys     []string   `json:"keys"`
	Forms    []string   `json:"forms"`
	Points   int        `json:"points"`
	Centroid []float64  `json:"centroid"`
	Min      []float64  `json:"min"`
	Max      []float64  `json:"max"`
	Model    []*float64 `json:"model"`
	Distance float64    `json:"distance"`
	Match    bool       `json:"match"`
}

// ClusterSummary describes one valid cluster.
type ClusterSummary struct {
	ID       int         `json:"id"`
	Unstable bool        `json:"unstable,omitempty"`
	From     []int       `json:"from,omitempty"`
	Mode     string      `json:"mode"`
	Keys     []string    `json:"keys"`
	Points   int         `json:"points"`
	Centroid []float64   `json:"centroid"`
	Min      []float64   `json:"min"`
	Max      []float64   `json:"max"`
	Opcodes  []string    `json:"opcodes"`
	Members  []*PointRef `json:"members,omitempty"`
}

// PointRef is one point, for the noise, error and unstable lists.
type PointRef struct {
	Where   string    `json:"where"`
	Opcode  string    `json:"opcode"`
	Form    string    `json:"form,omitempty"`
	Config  string    `json:"config,omitempty"`
	Mode    string    `json:"mode"`
	Keys    []string  `json:"keys,omitempty"`
	Values  []float64 `json:"values,omitempty"`
	Error   string    `json:"error,omitempty"`
	Cluster string    `json:"cluster"`
}

func ref(c *Clustering, i int) *PointRef {
	p := c.Points[i]
	return &PointRef{Where: p.Where(), Opcode: p.Opcode, Form: p.Form, Config: p.Config, Mode: p.Mode,
		Keys: p.Keys, Values: p.Values, Error: p.Err, Cluster: c.Of[i].String()}
}

// Analyze compares the clustering with the model (m may be nil: the report
// then covers the clustering only) and returns the report.
func Analyze(c *Clustering, m *modeldb.Model, opts AnalysisOptions) *Report {
	if opts.Epsilon == 0 {
		opts.Epsilon = 0.1
	}
	if opts.Generated.IsZero() {
		opts.Generated = time.Now()
	}
	r := &Report{Inconsistencies: []*ClassReport{}, Consistent: []*ClassReport{}, NotInModel: []*FormResult{},
		Unstable: []*ClusterSummary{}, Clusters: []*ClusterSummary{}, Noise: []*PointRef{}, Errors: []*PointRef{}}
	r.Meta = meta(c, m, opts)
	a := &analyzer{c: c, m: m, eps: opts.Epsilon, unstable: opts.DisplayUnstable}
	a.run(r)
	return r
}

func meta(c *Clustering, m *modeldb.Model, opts AnalysisOptions) Meta {
	mt := Meta{Generated: opts.Generated.UTC().Format(time.RFC3339), Files: opts.Files,
		Algorithm: string(c.Options.Algorithm), Epsilon: c.Options.Epsilon, MinPoints: c.Options.MinPoints,
		IncEps: opts.Epsilon, Unstable: opts.DisplayUnstable, Filter: opts.Filter, Command: opts.Command}
	hosts, machines, cpus, triples, clocks := newSet(), newSet(), newSet(), newSet(), newSet()
	var first, last string
	for _, p := range c.Points {
		b := p.Bench
		if b == nil {
			continue
		}
		cpus.add(b.CPUName)
		triples.add(b.LLVMTriple)
		if x := b.Portlab; x != nil {
			hosts.add(x.Host)
			clocks.add(x.Clock)
			if h := x.HostInfo; h != nil {
				machines.add(hostCPU(h))
			}
			if x.Date != "" {
				if first == "" || x.Date < first {
					first = x.Date
				}
				if x.Date > last {
					last = x.Date
				}
			}
		}
	}
	mt.Host, mt.HostCPU, mt.CPU, mt.Triple, mt.Clock = hosts.join(), machines.join(), cpus.join(), triples.join(), clocks.join()
	if first != "" {
		mt.Measured = first
		if last != first {
			mt.Measured += " … " + last
		}
	}
	if m != nil {
		mt.Model = m.Name
		if mt.Model == "" {
			mt.Model = m.MicroArchitecture
		}
		mt.ModelCPU = m.LLVMCPU
	}
	if opts.ModelName != "" {
		mt.Model = opts.ModelName
	}
	return mt
}

// hostCPU names a machine's CPU for people: its brand string and the
// microarchitecture portlab decided on.
func hostCPU(h *results.HostInfo) string {
	switch {
	case h.Brand != "" && h.Microarch != "":
		return h.Brand + " (" + h.Microarch + ")"
	case h.Brand != "":
		return h.Brand
	}
	return h.Microarch
}

type strset struct {
	seen map[string]bool
	list []string
}

func newSet() *strset { return &strset{seen: map[string]bool{}} }

func (s *strset) add(v string) {
	if v != "" && !s.seen[v] {
		s.seen[v] = true
		s.list = append(s.list, v)
	}
}

func (s *strset) join() string { return strings.Join(s.list, ", ") }

type analyzer struct {
	c        *Clustering
	m        *modeldb.Model
	eps      float64
	unstable bool
}

// displayed reports whether point i belongs to a displayed cluster: a
// stable one, or with DisplayUnstable an unstable one (exegesis's choice).
// Only displayed clusters make up the per-cluster view of a class.
func (a *analyzer) displayed(i int) bool {
	id := a.c.Of[i]
	return id.Valid() && a.c.Clusters[id].Unstable == a.unstable
}

// compared reports whether point i takes part in its form's comparison
// with the model. Stable clusters are displayed by default, but then the
// noise points and the forms in unstable clusters are compared too (each
// form with its own entry), so that no measured form drops out of the
// check unseen; with DisplayUnstable only the unstable clusters' points are.
func (a *analyzer) compared(i int) bool {
	id := a.c.Of[i]
	switch {
	case id.Valid():
		return !a.unstable || a.c.Clusters[id].Unstable
	case id == Noise:
		return !a.unstable
	}
	return false
}

func (a *analyzer) lookup(form string) *modeldb.Entry {
	if a.m == nil || form == "" {
		return nil
	}
	if e, ok := a.m.Lookup(form); ok {
		return e
	}
	return nil
}

// classKey groups entries: by class name, else by the values the model
// gives them.
func classKey(e *modeldb.Entry) (key, name string, named bool) {
	if e.Class != "" {
		return "class\x00" + e.Class, e.Class, true
	}
	pp := portString(e.PortPressure)
	name = fmt.Sprintf("lat %s · rthr %s · uops %s · %s", num(e.Latency), num(e.Throughput), num(e.Uops), orDash(pp))
	return "values\x00" + name, name, false
}

func orDash(s string) string {
	if s == "" {
		return "no ports"
	}
	return s
}

// portString renders port pressure in a canonical order, OSACA-style:
// "1*p0123" when port names are single characters, else "1*[FP0,FP1]".
func portString(pp modeldb.PortPressure) string {
	parts := make([]string, 0, len(pp))
	for _, u := range pp {
		ports := append([]string(nil), u.Ports...)
		sort.Strings(ports)
		short := true
		for _, p := range ports {
			if len(p) != 1 {
				short = false
			}
		}
		switch {
		case short:
			parts = append(parts, fmt.Sprintf("%s*p%s", num(u.Cycles), strings.Join(ports, "")))
		case len(ports) == 1:
			parts = append(parts, fmt.Sprintf("%s*%s", num(u.Cycles), ports[0]))
		default:
			parts = append(parts, fmt.Sprintf("%s*[%s]", num(u.Cycles), strings.Join(ports, ",")))
		}
	}
	sort.Strings(parts)
	return strings.Join(parts, "+")
}

// num formats a value compactly: up to 4 decimals, trailing zeros dropped.
func num(v float64) string {
	s := fmt.Sprintf("%.4f", v)
	s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	if s == "-0" {
		s = "0"
	}
	return s
}

func modelValues(e *modeldb.Entry) *ModelValues {
	mv := &ModelValues{Latency: e.Latency, Throughput: e.Throughput, Uops: e.Uops, Ports: portString(e.PortPressure), Class: e.Class}
	if p := e.Provenance; p != nil {
		mv.Source = p.Source
		if p.From != "" {
			mv.Source += " (" + p.From + ")"
		}
	}
	return mv
}

// modelValue returns the model's value for one measurement key of a point.
func (a *analyzer) modelValue(e *modeldb.Entry, p *Point, key string) (float64, bool) {
	switch strings.ToLower(key) {
	case "latency":
		if _, pair, ok := strings.Cut(p.Config, "operands "); ok {
			pair = strings.Fields(pair)[0]
			if from, to, ok := strings.Cut(pair, "->"); ok {
				for _, l := range e.Latencies {
					if l.From == from && l.To == to {
						return l.Cycles, true
					}
				}
			}
		}
		return e.Latency, true
	case "inverse_throughput", "throughput":
		return e.Throughput, e.Throughput > 0
	case "nummicroops", "uops":
		return e.Uops, e.Uops > 0
	}
	// A port key: the idealised pressure on that port.
	port, ok := a.portOf(key)
	if !ok {
		return 0, false
	}
	v := 0.0
	for _, u := range e.PortPressure {
		for _, q := range u.Ports {
			if q == port {
				v += u.Cycles / float64(len(u.Ports))
			}
		}
	}
	return v, true
}

// portOf maps a uops measurement key to a model port: the port itself,
// or the key with a "port"/"p" prefix or a vendor prefix dropped
// ("SKLPort0", "Zn3ALU0" are left unmatched unless the model names them).
func (a *analyzer) portOf(key string) (string, bool) {
	if a.m == nil {
		return "", false
	}
	if a.m.HasPort(key) {
		return key, true
	}
	l := strings.ToLower(key)
	for _, pre := range []string{"port", "p"} {
		if strings.HasPrefix(l, pre) && a.m.HasPort(key[len(pre):]) {
			return key[len(pre):], true
		}
	}
	return "", false
}

func relErr(measured, model float64) float64 {
	d := math.Abs(measured - model)
	if model > 0 {
		return d / model
	}
	return d
}

type formAcc struct {
	res    *FormResult
	entry  *modeldb.Entry
	byMeas map[string][]int // mode\x00config -> points
	order  []string
	opc    *strset
	points []int
}

type classAcc struct {
	key, name string
	named     bool
	forms     map[string]*formAcc
	order     []string
	buckets   map[ID][]int
	bOrder    []ID
}

func (a *analyzer) run(r *Report) {
	c := a.c
	s := &r.Summary
	s.Points = len(c.Points)
	opcodes, forms := newSet(), newSet()
	for _, p := range c.Points {
		opcodes.add(p.Opcode + "\x00" + p.Mode)
		forms.add(p.Label())
	}
	s.Opcodes, s.Forms = len(opcodes.list), len(forms.list)
	s.Noise, s.Errors = len(c.Noise), len(c.Errors)
	for _, i := range c.Noise {
		r.Noise = append(r.Noise, ref(c, i))
	}
	for _, i := range c.Errors {
		r.Errors = append(r.Errors, ref(c, i))
	}
	for _, cl := range c.Clusters {
		if len(cl.Points) == 0 {
			continue
		}
		cs := a.clusterSummary(cl)
		r.Clusters = append(r.Clusters, cs)
		s.Clusters++
		if cl.Unstable {
			s.UnstableClusters++
			r.Unstable = append(r.Unstable, cs)
		}
	}

	classes := map[string]*classAcc{}
	var classOrder []string
	notIn := map[string]*formAcc{}
	var notInOrder []string
	for i, p := range c.Points {
		if p.Err != "" || p.Aux || !a.compared(i) {
			continue
		}
		e := a.lookup(p.Form)
		if e == nil {
			if a.m == nil {
				continue
			}
			lbl := p.Label()
			fa, ok := notIn[lbl]
			if !ok {
				fa = newFormAcc(lbl, nil, p)
				notIn[lbl] = fa
				notInOrder = append(notInOrder, lbl)
			}
			fa.addPoint(i, p)
			continue
		}
		key, name, named := classKey(e)
		ca, ok := classes[key]
		if !ok {
			ca = &classAcc{key: key, name: name, named: named, forms: map[string]*formAcc{}, buckets: map[ID][]int{}}
			classes[key] = ca
			classOrder = append(classOrder, key)
		}
		fa, ok := ca.forms[e.Form]
		if !ok {
			fa = newFormAcc(e.Form, e, p)
			ca.forms[e.Form] = fa
			ca.order = append(ca.order, e.Form)
		}
		fa.addPoint(i, p)
		if id := c.Of[i]; a.displayed(i) {
			if _, ok := ca.buckets[id]; !ok {
				ca.bOrder = append(ca.bOrder, id)
			}
			ca.buckets[id] = append(ca.buckets[id], i)
		}
	}

	// Unmeasured members of each class.
	members := map[string][]string{}
	if a.m != nil {
		for _, e := range a.m.Forms {
			k, _, _ := classKey(e)
			if _, ok := classes[k]; ok {
				members[k] = append(members[k], e.Form)
			}
		}
	}

	for _, k := range classOrder {
		cr := a.checkClass(classes[k], members[k])
		s.Classes++
		s.FormsChecked += len(cr.Forms)
		if cr.Inconsistent {
			r.Inconsistencies = append(r.Inconsistencies, cr)
			s.InconsistentClasses++
			for _, f := range cr.Forms {
				if f.Mismatch {
					s.InconsistentForms++
				}
			}
		} else {
			r.Consistent = append(r.Consistent, cr)
		}
	}
	sort.SliceStable(r.Inconsistencies, func(i, j int) bool {
		a, b := r.Inconsistencies[i], r.Inconsistencies[j]
		if a.RelError != b.RelError {
			return a.RelError > b.RelError
		}
		if math.Abs(a.AbsError) != math.Abs(b.AbsError) {
			return math.Abs(a.AbsError) > math.Abs(b.AbsError)
		}
		return a.Class < b.Class
	})
	sort.SliceStable(r.Consistent, func(i, j int) bool { return r.Consistent[i].Class < r.Consistent[j].Class })
	for _, l := range notInOrder {
		fa := notIn[l]
		a.finishForm(fa)
		r.NotInModel = append(r.NotInModel, fa.res)
	}
	sort.SliceStable(r.NotInModel, func(i, j int) bool { return r.NotInModel[i].Form < r.NotInModel[j].Form })
	s.NotInModel = len(r.NotInModel)
}

func newFormAcc(form string, e *modeldb.Entry, p *Point) *formAcc {
	fa := &formAcc{entry: e, byMeas: map[string][]int{}, opc: newSet()}
	fa.res = &FormResult{Form: form, Memory: p.Memory, Snippet: p.Snippet(), Measures: []*Comparison{}}
	if e != nil {
		fa.res.Model = modelValues(e)
	}
	return fa
}

func (fa *formAcc) addPoint(i int, p *Point) {
	k := p.Mode + "\x00" + p.Config + "\x00" + strings.Join(p.Keys, "\x00")
	if _, ok := fa.byMeas[k]; !ok {
		fa.order = append(fa.order, k)
	}
	fa.byMeas[k] = append(fa.byMeas[k], i)
	fa.points = append(fa.points, i)
	if p.Opcode != fa.res.Form {
		fa.opc.add(p.Opcode)
	}
	fa.res.Points = append(fa.res.Points, p.Where())
}

// finishForm computes a form's comparisons.
func (a *analyzer) finishForm(fa *formAcc) {
	c := a.c
	res := fa.res
	res.Opcodes = fa.opc.list
	for _, k := range fa.order {
		idx := fa.byMeas[k]
		var stable, unstable, noise []int
		for _, i := range idx {
			switch id := c.Of[i]; {
			case id.Valid() && c.Clusters[id].Unstable:
				unstable = append(unstable, i)
			case id.Valid():
				stable = append(stable, i)
			default:
				noise = append(noise, i)
			}
		}
		// A form in a stable cluster is measured by that cluster's points
		// (its noise points are outliers); an unstable one by the median of
		// its clustered points; one with noise points only, by their median.
		use := stable
		switch {
		case len(unstable) > 0:
			use = append(append([]int(nil), unstable...), stable...)
		case len(stable) == 0:
			use = noise
		}
		p0 := c.Points[use[0]]
		ids := newSet()
		for _, i := range use {
			ids.add(c.Of[i].String())
		}
		for d, key := range p0.Keys {
			vals := make([]float64, len(use))
			for n, i := range use {
				vals[n] = c.Points[i].Values[d]
			}
			cmp := &Comparison{Mode: p0.Mode, Key: key, Config: p0.Config, Points: len(use),
				NoiseOnly: len(stable)+len(unstable) == 0, Unstable: len(unstable) > 0, Clusters: ids.list}
			cmp.Min, cmp.Max = minMax(vals)
			if cmp.NoiseOnly || cmp.Unstable {
				cmp.Measured = stats.Median(vals)
			} else {
				cmp.Measured = mean(vals)
			}
			if fa.entry != nil {
				if mv, ok := a.modelValue(fa.entry, p0, key); ok {
					mv := mv
					cmp.Model = &mv
					cmp.AbsError = cmp.Measured - mv
					cmp.RelError = relErr(cmp.Measured, mv)
					cmp.Mismatch = math.Abs(cmp.AbsError) > a.eps
					if cmp.Unstable {
						// Only when no measurement supports the model.
						cmp.Mismatch = mv < cmp.Min-a.eps || mv > cmp.Max+a.eps
					}
				}
			}
			res.Measures = append(res.Measures, cmp)
			if cmp.Mismatch {
				res.Mismatch = true
				if cmp.RelError > res.RelError || (cmp.RelError == res.RelError && math.Abs(cmp.AbsError) > math.Abs(res.AbsError)) {
					res.RelError, res.AbsError = cmp.RelError, cmp.AbsError
				}
			}
		}
	}
}

func (a *analyzer) checkClass(ca *classAcc, members []string) *ClassReport {
	c := a.c
	cr := &ClassReport{Class: ca.name, NamedClass: ca.named, Forms: []*FormResult{}, Clusters: []*ClassCluster{}}
	measured := map[string]bool{}
	var entries []*modeldb.Entry
	for _, f := range ca.order {
		fa := ca.forms[f]
		a.finishForm(fa)
		cr.Forms = append(cr.Forms, fa.res)
		measured[f] = true
		entries = append(entries, fa.entry)
	}
	for _, f := range members {
		if !measured[f] {
			cr.Unmeasured = append(cr.Unmeasured, f)
		}
	}
	if uniform(entries) {
		cr.Model = modelValues(entries[0])
	}
	for _, f := range cr.Forms {
		if f.Mismatch {
			cr.Inconsistent = true
			if f.RelError > cr.RelError || (f.RelError == cr.RelError && math.Abs(f.AbsError) > math.Abs(cr.AbsError)) {
				cr.RelError, cr.AbsError = f.RelError, f.AbsError
				for _, m := range f.Measures {
					if m.Mismatch && m.RelError == f.RelError {
						cr.Worst = fmt.Sprintf("%s: %s %s measured, model %s", f.Form, measureName(m.Key), num(m.Measured), num(*m.Model))
						break
					}
				}
			}
		}
	}
	// Exegesis's view: the class's points in each cluster, centroid
	// against the model.
	for _, id := range ca.bOrder {
		idx := ca.buckets[id]
		p0 := c.Points[idx[0]]
		cc := &ClassCluster{Cluster: id.String(), Unstable: c.Clusters[id].Unstable, Mode: p0.Mode, Keys: p0.Keys, Points: len(idx)}
		fs := newSet()
		for _, i := range idx {
			fs.add(c.Points[i].Label())
		}
		cc.Forms = fs.list
		cc.Centroid, cc.Min, cc.Max = Centroid(c.Points, idx)
		cc.Model = make([]*float64, len(p0.Keys))
		d2 := 0.0
		have := false
		for d, key := range p0.Keys {
			sum, n := 0.0, 0
			for _, i := range idx {
				p := c.Points[i]
				if e := a.lookup(p.Form); e != nil {
					if v, ok := a.modelValue(e, p, key); ok {
						sum += v
						n++
					}
				}
			}
			if n == len(idx) {
				v := sum / float64(n)
				cc.Model[d] = &v
				diff := cc.Centroid[d] - v
				d2 += diff * diff
				have = true
			}
		}
		cc.Distance = math.Sqrt(d2)
		cc.Match = !have || d2 <= a.eps*a.eps
		if !cc.Match {
			cr.Inconsistent = true
			if cr.Worst == "" {
				cr.Worst = fmt.Sprintf("cluster %s: centroid %.4g cycles from the model", cc.Cluster, cc.Distance)
			}
		}
		cr.Clusters = append(cr.Clusters, cc)
	}
	sort.SliceStable(cr.Forms, func(i, j int) bool {
		a, b := cr.Forms[i], cr.Forms[j]
		if a.Mismatch != b.Mismatch {
			return a.Mismatch
		}
		if a.RelError != b.RelError {
			return a.RelError > b.RelError
		}
		return a.Form < b.Form
	})
	return cr
}

// measureName is a measurement key for people.
func measureName(key string) string {
	switch key {
	case "inverse_throughput":
		return "reciprocal throughput"
	case "NumMicroOps":
		return "uops"
	}
	return key
}

func uniform(es []*modeldb.Entry) bool {
	if len(es) == 0 {
		return false
	}
	a := es[0]
	for _, b := range es[1:] {
		if a.Latency != b.Latency || a.Throughput != b.Throughput || a.Uops != b.Uops || portString(a.PortPressure) != portString(b.PortPressure) {
			return false
		}
	}
	return true
}

func (a *analyzer) clusterSummary(cl *Cluster) *ClusterSummary {
	c := a.c
	cs := &ClusterSummary{ID: int(cl.ID), Unstable: cl.Unstable, Mode: cl.Mode, Keys: cl.Keys, Points: len(cl.Points)}
	for _, f := range cl.From {
		cs.From = append(cs.From, int(f))
	}
	cs.Centroid, cs.Min, cs.Max = Centroid(c.Points, cl.Points)
	ops := newSet()
	for _, i := range cl.Points {
		ops.add(c.Points[i].Label())
		if cl.Unstable {
			cs.Members = append(cs.Members, ref(c, i))
		}
	}
	cs.Opcodes = ops.list
	return cs
}

func mean(v []float64) float64 {
	s := 0.0
	for _, x := range v {
		s += x
	}
	return s / float64(len(v))
}

func minMax(v []float64) (float64, float64) {
	lo, hi := v[0], v[0]
	for _, x := range v[1:] {
		lo, hi = math.Min(lo, x), math.Max(hi, x)
	}
	return lo, hi
}
