package modeldb

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"text/tabwriter"

	"portlab/isa"
)

// Select returns the model's entries for a form name or a glob
// ("vfmadd*pd ymm*"), sorted by name. A name is canonicalised first; a
// name or glob that matches nothing is an error with a hint.
func (m *Model) Select(pattern string) ([]*Entry, error) {
	if f, ok := isa.Lookup(pattern); ok {
		if e, ok := m.Lookup(f.Name()); ok {
			return []*Entry{e}, nil
		}
		return nil, fmt.Errorf("model %s has no entry for %q", m.Label(), f.Name())
	}
	if !strings.ContainsAny(pattern, "*?[") {
		if e, ok := m.Lookup(isa.NormalizeName(pattern)); ok { // a foreign form (lenient load)
			return []*Entry{e}, nil
		}
		return nil, fmt.Errorf("unknown instruction form: %s", formHint(pattern))
	}
	forms, err := isa.Match(pattern)
	if err != nil {
		return nil, err
	}
	var out []*Entry
	for _, f := range forms {
		if e, ok := m.Lookup(f.Name()); ok {
			out = append(out, e)
		}
	}
	if len(out) == 0 {
		if len(forms) == 0 {
			return nil, fmt.Errorf("no catalog form matches %q", pattern)
		}
		return nil, fmt.Errorf("model %s has none of the %d forms matching %q", m.Label(), len(forms), pattern)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Form < out[j].Form })
	return out, nil
}

// ProvenanceOf returns the entry's provenance, or the model's when the
// entry has none (entries inherit it).
func (m *Model) ProvenanceOf(e *Entry) *Provenance {
	if e.Provenance != nil {
		return e.Provenance
	}
	return m.Provenance
}

// describeProvenance renders a provenance in one line.
func describeProvenance(p *Provenance) string {
	if p == nil {
		return "-"
	}
	var parts []string
	s := p.Source
	if s == "" {
		s = "unknown"
	}
	if p.From != "" {
		s += " (" + p.From + ")"
	}
	parts = append(parts, s)
	if p.Host != "" {
		parts = append(parts, "on "+p.Host)
	}
	if p.Date != "" {
		parts = append(parts, p.Date)
	}
	if p.Confidence != "" {
		c := "confidence " + p.Confidence
		if p.FitError != 0 {
			c += ", fit error " + formatPct(p.FitError)
		}
		parts = append(parts, c)
	}
	out := strings.Join(parts, ", ")
	if p.Note != "" {
		out += ": " + p.Note
	}
	return out
}

// WriteEntry prints one entry for people: its numbers, its ports with the
// load each port carries when the form runs alone, and where it all came
// from.
func (m *Model) WriteEntry(w io.Writer, e *Entry) {
	fmt.Fprintf(w, "%s\n", e.Form)
	line := func(label, format string, args ...any) {
		fmt.Fprintf(w, "  %-12s %s\n", label, fmt.Sprintf(format, args...))
	}
	lat := FormatNum(e.Latency) + " cycles"
	if len(e.Latencies) > 0 {
		var ps []string
		for _, l := range e.Latencies {
			ps = append(ps, fmt.Sprintf("%s->%s %s", l.From, l.To, FormatNum(l.Cycles)))
		}
		lat += " (" + strings.Join(ps, ", ") + ")"
	}
	line("latency", "%s", lat)
	if e.Latency512 > 0 {
		line("beside zmm", "latency %s cycles (while 512-bit work is in flight)", FormatNum(e.Latency512))
	}
	if e.FalseDependency > 0 {
		line("false dep", "waits for its destination's previous value: %s cycles a link through it", FormatNum(e.FalseDependency))
	}
	if s := m.domainOf(e); s != "" {
		line("domain", "%s", s)
	}
	if s := m.lateForwardingOf(e); s != "" {
		line("late fwd", "%s", s)
	}
	if s := m.besideOf(e); s != "" {
		line("beside slow", "%s", s)
	}
	if s := m.loadAddressOf(e); s != "" {
		line("by address", "%s", s)
	}
	if s := m.lineSplitOf(e); s != "" {
		line("line split", "%s", s)
	}
	tp := FormatNum(e.Throughput) + " cycles"
	if e.Throughput > 0 {
		tp += fmt.Sprintf(" (%s per cycle)", FormatNum(1/e.Throughput))
	}
	line("throughput", "%s", tp)
	if len(e.Addressing) > 0 {
		var as []string
		for _, a := range e.Addressing {
			s := fmt.Sprintf("%s: latency %s, throughput %s", a.Shape, FormatNum(a.Latency), FormatNum(a.Throughput))
			if len(a.PortPressure) > 0 {
				s += ", ports " + FormatPressure(a.PortPressure)
			}
			as = append(as, s)
		}
		line("by address", "%s", strings.Join(as, "; "))
	}
	line("uops", "%s", FormatNum(e.Uops))
	line("ports", "%s", FormatPressure(e.PortPressure))
	if len(e.PortPressure) > 0 {
		if b, err := Balance(m.Ports, e.PortPressure); err == nil {
			var ls []string
			for _, p := range m.Ports {
				if v, ok := b.Loads[p]; ok {
					ls = append(ls, fmt.Sprintf("%s %s", p, FormatNum(v)))
				}
			}
			line("port load", "%s (alone, balanced; ports bound %s cycles)", strings.Join(ls, ", "), FormatNum(b.Cycles))
		}
	}
	if len(e.PortPressure512) > 0 {
		line("beside zmm", "%s (ports while 512-bit work is in flight)", FormatPressure(e.PortPressure512))
	}
	if len(e.Flags) > 0 {
		line("flags", "%s", strings.Join(e.Flags, ", "))
	}
	if e.Class != "" {
		line("class", "%s", e.Class)
	}
	line("source", "%s", describeProvenance(m.ProvenanceOf(e)))
	if f, ok := isa.Lookup(e.Form); ok {
		intel, att := f.Example()
		line("example", "%s   |   %s", intel, att)
	}
}

// WriteTable prints entries one per line.
func (m *Model) WriteTable(w io.Writer, es []*Entry) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "form\tlatency\tthroughput\tuops\tports\tsource")
	for _, e := range es {
		src := "-"
		if p := m.ProvenanceOf(e); p != nil {
			src = p.Source
			if p.Confidence == "low" {
				src += " (low confidence)"
			}
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", e.Form, FormatNum(e.Latency), FormatNum(e.Throughput), FormatNum(e.Uops), FormatPressure(e.PortPressure), src)
	}
	tw.Flush()
}

// EntryJSON is an entry as `portlab model show --json` prints it.
type EntryJSON struct {
	Form      string        `json:"form"`
	Class     string        `json:"class,omitempty"`
	Uops      float64       `json:"uops"`
	Latency   float64       `json:"latency"`
	Latencies []LatencyJSON `json:"latencies,omitempty"`
	// FalseDependency: cycles a link through a write-only destination
	// the form waits for (Entry.FalseDependency).
	FalseDependency float64       `json:"false_dependency,omitempty"`
	Throughput      float64       `json:"throughput"`
	Addressing      []AddressCost `json:"addressing,omitempty"`
	PortPressure    []PortUseJSON `json:"port_pressure"`
	// PortPressure512 is the port pressure beside 512-bit work, when it differs.
	PortPressure512 []PortUseJSON   `json:"port_pressure_beside_512bit,omitempty"`
	PortLoads       map[string]any  `json:"port_loads,omitempty"`
	Flags           []string        `json:"flags,omitempty"`
	Provenance      *ProvenanceJSON `json:"provenance,omitempty"`
}

// ProvenanceJSON is a provenance in JSON.
type ProvenanceJSON struct {
	Source     string  `json:"source"`
	From       string  `json:"from,omitempty"`
	Host       string  `json:"host,omitempty"`
	Date       string  `json:"date,omitempty"`
	Confidence string  `json:"confidence,omitempty"`
	FitError   float64 `json:"fit_error,omitempty"`
	Note       string  `json:"note,omitempty"`
}

// LatencyJSON is an operand latency in JSON.
type LatencyJSON struct {
	From   string  `json:"from"`
	To     string  `json:"to"`
	Cycles float64 `json:"cycles"`
}

// PortUseJSON is one port use in JSON.
type PortUseJSON struct {
	Cycles float64  `json:"cycles"`
	Ports  []string `json:"ports"`
}

// JSON returns the entry as printed by --json, with the port loads of the
// form running alone.
func (m *Model) JSON(e *Entry) EntryJSON {
	j := EntryJSON{Form: e.Form, Class: e.Class, Uops: e.Uops, Latency: e.Latency, FalseDependency: e.FalseDependency,
		Throughput: e.Throughput, Addressing: e.Addressing, Flags: e.Flags, PortPressure: []PortUseJSON{}}
	if p := m.ProvenanceOf(e); p != nil {
		j.Provenance = &ProvenanceJSON{p.Source, p.From, p.Host, p.Date, p.Confidence, p.FitError, p.Note}
	}
	for _, l := range e.Latencies {
		j.Latencies = append(j.Latencies, LatencyJSON{l.From, l.To, l.Cycles})
	}
	for _, u := range e.PortPressure {
		j.PortPressure = append(j.PortPressure, PortUseJSON{u.Cycles, u.Ports})
	}
	for _, u := range e.PortPressure512 {
		j.PortPressure512 = append(j.PortPressure512, PortUseJSON{u.Cycles, u.Ports})
	}
	if b, err := Balance(m.Ports, e.PortPressure); err == nil && len(b.Loads) > 0 {
		j.PortLoads = map[string]any{}
		for p, v := range b.Loads {
			j.PortLoads[p] = v
		}
	}
	return j
}
