package cluster

import (
	"fmt"
	"math"
	"sort"
	"strings"
	"time"

	"portlab/modeldb"
)

// Correction is one value CorrectModel replaced.
type Correction struct {
	Form     string  `json:"form"`
	Field    string  `json:"field"` // "latency", "latency 2->0", "throughput", "uops"
	Old      float64 `json:"old"`
	New      float64 `json:"new"`
	Measured float64 `json:"measured"` // before snapping to a round value
	Class    string  `json:"class"`
	Inferred bool    `json:"inferred,omitempty"` // an unmeasured member of the class
}

// CorrectModel returns a copy of base in which, for every inconsistent
// class, the mismatching latencies, reciprocal throughputs and uop counts
// are replaced by the measured values (snapped to a nearby round value,
// see Snap). Each changed entry's provenance becomes "measured" with a
// note of what was replaced and where it came from. When every measured
// form of a named class disagrees with the model in the same way, the
// class's unmeasured forms get the same value, marked "inferred". Port
// pressure is kept (the note says when it no longer matches the new
// throughput); base is not modified. Consistent classes in incs are
// ignored.
func CorrectModel(base *modeldb.Model, incs []*ClassReport) *modeldb.Model {
	m, _ := Correct(base, incs)
	return m
}

// Correct is CorrectModel that also lists the corrections.
func Correct(base *modeldb.Model, incs []*ClassReport) (*modeldb.Model, []Correction) {
	m := copyModel(base)
	var out []Correction
	date := time.Now().UTC().Format("2006-01-02")
	notes := map[*modeldb.Entry][]string{}
	lowConf := map[*modeldb.Entry]bool{}
	var touched []*modeldb.Entry
	note := func(e *modeldb.Entry, s string) {
		if _, ok := notes[e]; !ok {
			touched = append(touched, e)
		}
		notes[e] = append(notes[e], s)
	}
	for _, cr := range incs {
		if cr == nil || !cr.Inconsistent {
			continue
		}
		// key -> new values of the measured forms, and whether every
		// measured form with that key mismatched.
		agree := map[string][]float64{}
		allBad := map[string]bool{}
		for _, f := range cr.Forms {
			e, ok := m.Lookup(f.Form)
			if !ok {
				continue
			}
			for _, c := range f.Measures {
				field := fieldOf(c)
				if field == "" || c.Model == nil {
					continue
				}
				if _, seen := allBad[field]; !seen {
					allBad[field] = true
				}
				if !c.Mismatch {
					allBad[field] = false
					continue
				}
				v := Snap(c.Measured)
				old, ok := apply(e, field, v)
				if !ok {
					continue
				}
				agree[field] = append(agree[field], v)
				out = append(out, Correction{Form: f.Form, Field: field, Old: old, New: v, Measured: c.Measured, Class: cr.Class})
				how := fmt.Sprintf("%d point(s)", c.Points)
				if c.NoiseOnly {
					how += ", noise"
				}
				if c.Max-c.Min > 0.1*math.Max(v, 1) {
					lowConf[e] = true
					how += fmt.Sprintf(", spread %s..%s", num(c.Min), num(c.Max))
				}
				note(e, fmt.Sprintf("%s %s -> %s (measured %s, %s)", field, num(old), num(v), num(c.Measured), how))
			}
		}
		if !cr.NamedClass {
			continue
		}
		for field, vs := range agree {
			if !allBad[field] || strings.Contains(field, "->") || !agreeing(vs) {
				continue
			}
			v := Snap(mean(vs))
			for _, f := range cr.Unmeasured {
				e, ok := m.Lookup(f)
				if !ok {
					continue
				}
				old, ok := apply(e, field, v)
				if !ok || old == v {
					continue
				}
				out = append(out, Correction{Form: f, Field: field, Old: old, New: v, Measured: mean(vs), Class: cr.Class, Inferred: true})
				note(e, fmt.Sprintf("%s %s -> %s (inferred: every measured form of class %s has it)", field, num(old), num(v), cr.Class))
			}
		}
	}
	for _, e := range touched {
		prev := ""
		if p := e.Provenance; p != nil {
			prev = p.Source
			if p.From != "" {
				prev += " from " + p.From
			}
		}
		src := modeldb.SourceMeasured
		inferred := true
		for _, n := range notes[e] {
			if !strings.Contains(n, "inferred") {
				inferred = false
			}
		}
		if inferred {
			src = modeldb.SourceInferred
		}
		n := "portlab cluster: " + strings.Join(notes[e], "; ")
		if prev != "" {
			n += "; other values " + prev
		}
		if tp := impliedThroughput(e.PortPressure); tp > 0 && e.Throughput > 0 && math.Abs(tp-e.Throughput) > 0.01 {
			n += fmt.Sprintf("; port pressure %s implies reciprocal throughput %s", portString(e.PortPressure), num(tp))
		}
		conf := "high"
		if lowConf[e] {
			conf = "low"
		}
		host := ""
		if e.Provenance != nil {
			host = e.Provenance.Host
		}
		e.Provenance = &modeldb.Provenance{Source: src, From: "portlab cluster", Host: host, Date: date, Confidence: conf, Note: n}
	}
	if len(touched) > 0 {
		if m.Name != "" {
			m.Name += " (corrected from measurements)"
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Form < out[j].Form })
	return m, out
}

// fieldOf names the model field a comparison corrects, "" for none.
func fieldOf(c *Comparison) string {
	switch strings.ToLower(c.Key) {
	case "latency":
		if _, pair, ok := strings.Cut(c.Config, "operands "); ok {
			return "latency " + strings.Fields(pair)[0]
		}
		return "latency"
	case "inverse_throughput", "throughput":
		return "throughput"
	case "nummicroops", "uops":
		return "uops"
	}
	return ""
}

// apply sets a field and returns its old value.
func apply(e *modeldb.Entry, field string, v float64) (float64, bool) {
	switch {
	case field == "latency":
		old := e.Latency
		e.Latency = v
		return old, true
	case strings.HasPrefix(field, "latency "):
		from, to, _ := strings.Cut(strings.TrimPrefix(field, "latency "), "->")
		for i := range e.Latencies {
			l := &e.Latencies[i]
			if l.From == from && l.To == to {
				old := l.Cycles
				l.Cycles = v
				e.Latency = 0
				for _, x := range e.Latencies {
					e.Latency = math.Max(e.Latency, x.Cycles)
				}
				return old, true
			}
		}
		old := e.Latency
		e.Latency = v
		return old, true
	case field == "throughput":
		old := e.Throughput
		e.Throughput = v
		return old, true
	case field == "uops":
		old := e.Uops
		e.Uops = math.Max(1, math.Round(v))
		return old, true
	}
	return 0, false
}

func agreeing(vs []float64) bool {
	lo, hi := minMax(vs)
	return hi-lo <= 0.05*math.Max(hi, 1)
}

// impliedThroughput is the reciprocal throughput port pressure allows: the
// busiest port's load when each use spreads evenly over its ports (a lower
// bound; 0 without port pressure).
func impliedThroughput(pp modeldb.PortPressure) float64 {
	load := map[string]float64{}
	for _, u := range pp {
		for _, p := range u.Ports {
			load[p] += u.Cycles / float64(len(u.Ports))
		}
	}
	best := 0.0
	for _, v := range load {
		best = math.Max(best, v)
	}
	return best
}

// Snap rounds a measured value to the simple value it is meant to be when
// one is within 2 % and 0.05 cycles: whole or half cycles from 2 cycles up,
// also thirds and quarters from 1, also fifths, sixths and eighths below 1
// (0.3346 -> 0.3333, 4.032 -> 4, 13.47 -> 13.5, but 6.9 stays 6.9). Other
// values are rounded to 0.01 cycle.
func Snap(v float64) float64 {
	if v <= 0 {
		return v
	}
	dens := []float64{1, 2, 3, 4, 5, 6, 8}
	switch {
	case v >= 2:
		dens = dens[:2]
	case v >= 1:
		dens = dens[:4]
	}
	for _, d := range dens {
		s := math.Round(v*d) / d
		if s > 0 && math.Abs(s-v) <= math.Min(0.02*v, 0.05) {
			return math.Round(s*1e4) / 1e4
		}
	}
	return math.Round(v*100) / 100
}

// copyModel copies a model deeply enough that changing its entries leaves
// the original alone.
func copyModel(base *modeldb.Model) *modeldb.Model {
	m := new(modeldb.Model)
	*m = *base
	m.Forms = make([]*modeldb.Entry, len(base.Forms))
	for i, e := range base.Forms {
		c := *e
		c.Latencies = append([]modeldb.OperandLatency(nil), e.Latencies...)
		c.PortPressure = append(modeldb.PortPressure(nil), e.PortPressure...)
		c.Flags = append([]string(nil), e.Flags...)
		if e.Provenance != nil {
			p := *e.Provenance
			c.Provenance = &p
		}
		m.Forms[i] = &c
	}
	m.Reindex()
	return m
}
