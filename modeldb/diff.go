package modeldb

import (
	"fmt"
	"io"
	"math"
	"sort"
	"strings"
)

// DiffOptions control Diff.
type DiffOptions struct {
	// Threshold is the relative change below which two numbers count as
	// equal (default 0.01: measurement noise is not a change).
	Threshold float64
}

// FieldChange is one field that differs.
type FieldChange struct {
	Field string
	A, B  string
	// Size is how big the change is: for a number the ratio of the larger
	// to the smaller value, less one (0.5 -> 1 and 1 -> 0.5 are both 1,
	// that is 100 %; to or from 0 is 1), for ports the share of the port
	// load that moved to other ports when both models name the same
	// ports, else 1.
	Size float64
}

// EntryDiff is how one form differs.
type EntryDiff struct {
	Form    string
	Kind    string // "changed", "added" (only in B), "removed" (only in A)
	Changes []FieldChange
	Size    float64 // the largest change
}

// ModelDiff is what changed from model A to model B.
type ModelDiff struct {
	A, B    string
	Header  []FieldChange
	Changed []EntryDiff // sorted by size, largest first
	Added   []string    // forms only in B
	Removed []string    // forms only in A
	Same    int         // forms equal within the threshold
}

// Diff compares two models form by form: throughput, latency (overall
// and per operand pair), uops, port pressure and flags, and the header.
// Changed forms are sorted by the size of their largest change.
func Diff(a, b *Model, opt DiffOptions) *ModelDiff {
	if opt.Threshold <= 0 {
		opt.Threshold = 0.01
	}
	d := &ModelDiff{A: a.Label(), B: b.Label()}
	num := func(field string, x, y float64, out *[]FieldChange) {
		hi, lo := math.Max(math.Abs(x), math.Abs(y)), math.Min(math.Abs(x), math.Abs(y))
		if hi == 0 || math.Abs(y-x) <= opt.Threshold*hi {
			return
		}
		r := 1.0 // from or to nothing
		if lo > 0 {
			r = hi/lo - 1
		}
		*out = append(*out, FieldChange{field, FormatNum(x), FormatNum(y), r})
	}
	str := func(field, x, y string, out *[]FieldChange) {
		if x != y {
			*out = append(*out, FieldChange{field, orDash(x), orDash(y), 1})
		}
	}
	str("ports", strings.Join(a.Ports, " "), strings.Join(b.Ports, " "), &d.Header)
	num("dispatched_uops_per_cycle", float64(a.DispatchWidth), float64(b.DispatchWidth), &d.Header)
	str("micro_fusion", fmt.Sprint(a.MicroFusion), fmt.Sprint(b.MicroFusion), &d.Header)
	num("ROB_size", float64(a.ROBSize), float64(b.ROBSize), &d.Header)
	num("scheduler_size", float64(a.SchedulerSize), float64(b.SchedulerSize), &d.Header)
	str("load_throughput_default", FormatPressure(a.LoadPorts), FormatPressure(b.LoadPorts), &d.Header)
	str("store_throughput_default", FormatPressure(a.StorePorts), FormatPressure(b.StorePorts), &d.Header)
	num("store_to_load_forward_latency", a.StoreToLoadForwardLatency, b.StoreToLoadForwardLatency, &d.Header)
	str("store_commit", storeCommitText(a.StoreCommit), storeCommitText(b.StoreCommit), &d.Header)
	str("late_forwarding", extraCyclesText(a.LateForwarding), extraCyclesText(b.LateForwarding), &d.Header)
	str("load_line_split", lineSplitText(a.LoadLineSplit), lineSplitText(b.LoadLineSplit), &d.Header)
	str("beside_multicycle_delay", besideDelayText(a.BesideMulticycleDelay), besideDelayText(b.BesideMulticycleDelay), &d.Header)
	num("domain_round_trip_latency", float64(a.DomainRoundTripLatency), float64(b.DomainRoundTripLatency), &d.Header)
	str("load_address_latency", extraCyclesText(a.LoadAddressLatency), extraCyclesText(b.LoadAddressLatency), &d.Header)
	for _, k := range unionKeys(a.LoadLatency, b.LoadLatency) {
		num("load_latency."+k, a.LoadLatency[k], b.LoadLatency[k], &d.Header)
	}
	samePorts := strings.Join(a.Ports, " ") == strings.Join(b.Ports, " ")
	for _, ea := range a.Forms {
		eb, ok := b.Lookup(ea.Form)
		if !ok {
			d.Removed = append(d.Removed, ea.Form)
			continue
		}
		var ch []FieldChange
		num("throughput", ea.Throughput, eb.Throughput, &ch)
		num("latency", ea.Latency, eb.Latency, &ch)
		num("latency_beside_512bit", ea.Latency512, eb.Latency512, &ch)
		num("false_dependency", ea.FalseDependency, eb.FalseDependency, &ch)
		str("domain", ea.Domain, eb.Domain, &ch)
		la, lb := latencyMap(ea), latencyMap(eb)
		for _, k := range unionKeys(la, lb) {
			if _, inA := la[k]; !inA {
				continue // a pair only B knows is detail, not a change
			}
			if _, inB := lb[k]; !inB {
				continue
			}
			num("latency "+k, la[k], lb[k], &ch)
		}
		for _, aa := range ea.Addressing {
			if ab, ok := eb.ForShape(aa.Shape); ok {
				num("throughput "+aa.Shape, aa.Throughput, ab.Throughput, &ch)
				num("latency "+aa.Shape, aa.Latency, ab.Latency, &ch)
			}
		}
		num("uops", ea.Uops, eb.Uops, &ch)
		if !samePressure(ea.PortPressure, eb.PortPressure) {
			size := 1.0
			if samePorts {
				size = portShift(a, ea.PortPressure, eb.PortPressure)
			}
			if size > opt.Threshold || !samePorts {
				ch = append(ch, FieldChange{"port_pressure", FormatPressure(ea.PortPressure), FormatPressure(eb.PortPressure), size})
			}
		}
		if !samePressure(ea.PortPressure512, eb.PortPressure512) {
			ch = append(ch, FieldChange{"port_pressure_beside_512bit", orDash(FormatPressure(ea.PortPressure512)), orDash(FormatPressure(eb.PortPressure512)), 0.5})
		}
		fa, fb := strings.Join(sortedCopy(ea.Flags), ","), strings.Join(sortedCopy(eb.Flags), ",")
		if fa != fb {
			ch = append(ch, FieldChange{"flags", orDash(fa), orDash(fb), 0.5})
		}
		if len(ch) == 0 {
			d.Same++
			continue
		}
		ed := EntryDiff{Form: ea.Form, Kind: "changed", Changes: ch}
		for _, c := range ch {
			ed.Size = math.Max(ed.Size, c.Size)
		}
		d.Changed = append(d.Changed, ed)
	}
	for _, eb := range b.Forms {
		if _, ok := a.Lookup(eb.Form); !ok {
			d.Added = append(d.Added, eb.Form)
		}
	}
	sort.SliceStable(d.Changed, func(i, j int) bool {
		if d.Changed[i].Size != d.Changed[j].Size {
			return d.Changed[i].Size > d.Changed[j].Size
		}
		return d.Changed[i].Form < d.Changed[j].Form
	})
	sort.Strings(d.Added)
	sort.Strings(d.Removed)
	return d
}

// portShift is the share of a form's port load (alone, optimally
// balanced) that sits on different ports in pressure b than in a.
func portShift(m *Model, a, b PortPressure) float64 {
	ba, err1 := Balance(m.Ports, a)
	bb, err2 := Balance(m.Ports, b)
	if err1 != nil || err2 != nil {
		return 1
	}
	ta, tb := 0.0, 0.0
	for _, v := range ba.Loads {
		ta += v
	}
	for _, v := range bb.Loads {
		tb += v
	}
	if ta == 0 || tb == 0 {
		if ta == tb {
			return 0
		}
		return 1
	}
	diff := 0.0
	for _, p := range m.Ports {
		diff += math.Abs(ba.Loads[p]/ta - bb.Loads[p]/tb)
	}
	// Total load changing without moving counts too.
	return math.Max(diff/2, math.Abs(tb-ta)/math.Max(ta, tb))
}

func latencyMap(e *Entry) map[string]float64 {
	m := map[string]float64{}
	for _, l := range e.Latencies {
		m[l.From+"->"+l.To] = l.Cycles
	}
	return m
}

func unionKeys(a, b map[string]float64) []string {
	seen := map[string]bool{}
	var out []string
	for k := range a {
		if !seen[k] {
			seen[k] = true
			out = append(out, k)
		}
	}
	for k := range b {
		if !seen[k] {
			seen[k] = true
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

func sortedCopy(s []string) []string {
	c := append([]string(nil), s...)
	sort.Strings(c)
	return c
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// WriteText prints the diff for people: the header changes, then up to
// limit changed forms (0: all), largest change first, then the added and
// removed forms.
func (d *ModelDiff) WriteText(w io.Writer, limit int) {
	fmt.Fprintf(w, "--- %s\n+++ %s\n", d.A, d.B)
	fmt.Fprintf(w, "%d forms changed, %d added, %d removed, %d the same\n", len(d.Changed), len(d.Added), len(d.Removed), d.Same)
	for _, c := range d.Header {
		fmt.Fprintf(w, "header %s: %s -> %s\n", c.Field, c.A, c.B)
	}
	if len(d.Changed) > 0 {
		fmt.Fprintln(w)
	}
	for i, e := range d.Changed {
		if limit > 0 && i == limit {
			fmt.Fprintf(w, "... and %d more changed forms\n", len(d.Changed)-limit)
			break
		}
		fmt.Fprintf(w, "%6.1f%%  %s\n", 100*e.Size, e.Form)
		for _, c := range e.Changes {
			fmt.Fprintf(w, "         %-14s %s -> %s\n", c.Field, c.A, c.B)
		}
	}
	list := func(title string, fs []string) {
		if len(fs) == 0 {
			return
		}
		fmt.Fprintf(w, "\n%s (%d):\n", title, len(fs))
		for i, f := range fs {
			if limit > 0 && i == limit {
				fmt.Fprintf(w, "  ... and %d more\n", len(fs)-limit)
				break
			}
			fmt.Fprintf(w, "  %s\n", f)
		}
	}
	list("only in "+d.B, d.Added)
	list("only in "+d.A, d.Removed)
}
