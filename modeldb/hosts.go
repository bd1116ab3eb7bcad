package modeldb

import (
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"

	"portlab/internal/stats"
	"portlab/results"
)

// HostAgreement says how much the machines that measured a set of results
// disagree, form by form: what a model built from a fleet's merged results
// averages over. Machines are told apart by results.Benchmark.Node (the
// HostInfo sweeps write); results that name no machine count as one
// unnamed machine ("").
type HostAgreement struct {
	// Types are the CPU types (signatures) of portlab's results, sorted.
	Types []string
	// Nodes are the machines of portlab's results, sorted.
	Nodes []string
	// Quantities are the numbers measured on two machines or more, largest
	// spread first (then by form and quantity).
	Quantities []QuantityAgreement
}

// QuantityAgreement is one form's latency or throughput across machines.
type QuantityAgreement struct {
	Form string
	// Quantity is "throughput" or "latency" with its operand pair
	// ("latency 1->0").
	Quantity string
	// Values are per machine: the median of its results.
	Values           map[string]float64
	Min, Max, Median float64
	MinNode, MaxNode string
	// Spread is (Max-Min)/Median: 0.02 means the machines are 2 % apart.
	Spread float64
}

// FormSpread is a form's largest Spread over its quantities.
type FormSpread struct {
	Form   string
	Spread float64
	Worst  *QuantityAgreement
}

// CompareHosts gathers, per machine, the latencies and throughputs of the
// forms in bs (portlab's results with a form, not failed, no mixes) and
// compares the machines' medians.
func CompareHosts(bs []*results.Benchmark) *HostAgreement {
	type qkey struct{ form, quantity string }
	vals := map[qkey]map[string][]float64{}
	nodes := map[string]bool{}
	types := map[string]bool{}
	for _, b := range bs {
		x := b.Portlab
		if x == nil {
			continue
		}
		nodes[b.Node()] = true
		if t := b.CPUType(); t != "" {
			types[t] = true
		}
		if x.Form == "" || b.Error != "" || x.Unmeasurable != "" || len(x.Mix) > 0 {
			continue
		}
		q := ""
		switch x.Kind {
		case "latency":
			q = "latency"
			if x.Operands != "" {
				q += " " + x.Operands
			}
		case "throughput":
			q = "throughput"
		default:
			continue
		}
		v, _, ok := mainValue(b)
		if !ok || v <= 0 || math.IsNaN(v) || math.IsInf(v, 0) {
			continue
		}
		node := b.Node()
		k := qkey{x.Form, q}
		if vals[k] == nil {
			vals[k] = map[string][]float64{}
		}
		vals[k][node] = append(vals[k][node], v)
	}
	a := &HostAgreement{Types: sortedKeys(types), Nodes: sortedKeys(nodes)}
	for k, per := range vals {
		if len(per) < 2 {
			continue
		}
		qa := QuantityAgreement{Form: k.form, Quantity: k.quantity, Values: map[string]float64{}}
		var meds []float64
		for _, n := range keysSorted(per) {
			m := stats.Median(per[n])
			qa.Values[n] = m
			meds = append(meds, m)
			if qa.MinNode == "" || m < qa.Min {
				qa.Min, qa.MinNode = m, n
			}
			if qa.MaxNode == "" || m > qa.Max {
				qa.Max, qa.MaxNode = m, n
			}
		}
		qa.Median = stats.Median(meds)
		qa.Spread = (qa.Max - qa.Min) / qa.Median
		a.Quantities = append(a.Quantities, qa)
	}
	sort.Slice(a.Quantities, func(i, j int) bool {
		p, q := &a.Quantities[i], &a.Quantities[j]
		if p.Spread != q.Spread {
			return p.Spread > q.Spread
		}
		if p.Form != q.Form {
			return p.Form < q.Form
		}
		return p.Quantity < q.Quantity
	})
	return a
}

// Forms returns each compared form with its largest spread, largest first.
func (a *HostAgreement) Forms() []FormSpread {
	seen := map[string]bool{}
	var out []FormSpread
	for i := range a.Quantities { // already by decreasing spread
		q := &a.Quantities[i]
		if seen[q.Form] {
			continue
		}
		seen[q.Form] = true
		out = append(out, FormSpread{Form: q.Form, Spread: q.Spread, Worst: q})
	}
	return out
}

// Summary describes the agreement: the machines, the distribution of the
// per-form spread, and up to n forms whose machines disagree by more than
// tol (relative), worst first. It is empty when the results come from one
// machine.
func (a *HostAgreement) Summary(n int, tol float64) string {
	if len(a.Nodes) < 2 {
		return ""
	}
	var b strings.Builder
	names := make([]string, len(a.Nodes))
	for i, nd := range a.Nodes {
		names[i] = nodeName(nd)
	}
	fmt.Fprintf(&b, "hosts: %d machines of %s (%s)\n", len(a.Nodes), strings.Join(a.Types, ", "), strings.Join(names, ", "))
	forms := a.Forms()
	if len(forms) == 0 {
		b.WriteString("  no form was measured on two machines\n")
		return b.String()
	}
	spreads := make([]float64, len(forms))
	above := 0
	for i, f := range forms {
		spreads[len(forms)-1-i] = f.Spread // ascending
		if f.Spread > tol {
			above++
		}
	}
	fmt.Fprintf(&b, "  %d forms measured on 2+ machines; spread (max-min)/median over a form's latencies and throughput: median %s, 95th percentile %s, max %s\n",
		len(forms), formatPct(percentile(spreads, 0.5)), formatPct(percentile(spreads, 0.95)), formatPct(spreads[len(spreads)-1]))
	fmt.Fprintf(&b, "  %d forms (%s) agree within %s; %d differ by more", len(forms)-above, formatPct(float64(len(forms)-above)/float64(len(forms))), formatPct(tol), above)
	if above > 0 {
		b.WriteString(":")
	}
	b.WriteString("\n")
	for i, f := range forms {
		if i >= n || f.Spread <= tol {
			break
		}
		q := f.Worst
		fmt.Fprintf(&b, "    %-40s %-14s %s %.3f .. %s %.3f (%s)\n", f.Form, q.Quantity, nodeName(q.MinNode), q.Min, nodeName(q.MaxNode), q.Max, formatPct(q.Spread))
	}
	return b.String()
}

// WriteCSV writes every compared quantity: form, quantity, machines, min,
// max, median, spread, and the value of each machine (a column per node).
func (a *HostAgreement) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	head := []string{"form", "quantity", "machines", "min", "max", "median", "spread"}
	for _, n := range a.Nodes {
		head = append(head, nodeName(n))
	}
	cw.Write(head)
	f := func(v float64) string { return strconv.FormatFloat(v, 'f', 5, 64) }
	for _, q := range a.Quantities {
		row := []string{q.Form, q.Quantity, strconv.Itoa(len(q.Values)), f(q.Min), f(q.Max), f(q.Median), strconv.FormatFloat(q.Spread, 'f', 5, 64)}
		for _, n := range a.Nodes {
			if v, ok := q.Values[n]; ok {
				row = append(row, f(v))
			} else {
				row = append(row, "")
			}
		}
		cw.Write(row)
	}
	cw.Flush()
	return cw.Error()
}

func nodeName(n string) string {
	if n == "" {
		return "(unnamed)"
	}
	return n
}

// percentile returns the p-quantile (nearest rank) of ascending values.
func percentile(asc []float64, p float64) float64 {
	if len(asc) == 0 {
		return 0
	}
	i := int(math.Ceil(p*float64(len(asc)))) - 1
	return asc[max(0, min(i, len(asc)-1))]
}

func keysSorted[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
