package sweep

import (
	"fmt"
	"sort"
	"strings"

	"portlab/measure"
	"portlab/results"
)

// resultKey identifies a result for merging: the machine it was measured on
// (results.Benchmark.Node, "" when unknown) and portlab's content ID, or
// for results without one (llvm-exegesis's) the mode, instructions and
// set-up. The same benchmark measured on two machines is two results; the
// same shard merged twice is one.
func resultKey(b *results.Benchmark) string {
	id := ""
	if b.Portlab != nil && b.Portlab.ID != "" {
		id = b.Portlab.ID
	} else {
		id = measure.ContentID(b.Mode, strings.Join(b.Key.Instructions, "\n"), append(b.Key.RegisterInitialValues, b.Key.Config))
	}
	return b.Node() + "\x00" + id
}

// TypeGroup is the merged results of one CPU type.
type TypeGroup struct {
	// Type is the CPU signature ("GenuineIntel-6-a7-1"), "" for results
	// that name none (llvm-exegesis's).
	Type string
	// Nodes are the machines the results came from, sorted ("" is left
	// out: results that do not name theirs).
	Nodes   []string
	Results []*results.Benchmark
}

// Merged is the outcome of MergeGroups.
type Merged struct {
	Groups     []*TypeGroup // by Type
	Duplicates int          // results dropped as already merged
}

// Types returns the CPU types merged, with their result counts and
// machines: "GenuineIntel-6-a7-1 (2 nodes, 4180 results)".
func (m *Merged) Types() []string {
	var out []string
	for _, g := range m.Groups {
		name := g.Type
		if name == "" {
			name = "unknown CPU type"
		}
		nodes := ""
		if len(g.Nodes) > 0 {
			nodes = fmt.Sprintf("%d %s, ", len(g.Nodes), plural(len(g.Nodes), "node", "nodes"))
		}
		out = append(out, fmt.Sprintf("%s (%s%d results)", name, nodes, len(g.Results)))
	}
	return out
}

// All returns every merged result, group by group.
func (m *Merged) All() []*results.Benchmark {
	var out []*results.Benchmark
	for _, g := range m.Groups {
		out = append(out, g.Results...)
	}
	return out
}

// typed counts the groups with a CPU type.
func (m *Merged) typed() int {
	n := 0
	for _, g := range m.Groups {
		if g.Type != "" {
			n++
		}
	}
	return n
}

// MergeGroups joins result files and groups them by CPU type
// (results.Benchmark.CPUType). A result already merged (the same machine
// and content ID, as when a shard is merged twice) is kept once, the first
// seen, so merging is idempotent. Each group is sorted by form, kind,
// operand pair, ID and machine, so the output does not depend on the order
// of the parts.
func MergeGroups(parts [][]*results.Benchmark) *Merged {
	type place struct {
		g *TypeGroup
		i int
	}
	seen := map[string]place{}
	groups := map[string]*TypeGroup{}
	nodes := map[string]map[string]bool{}
	m := &Merged{}
	for _, part := range parts {
		for _, b := range part {
			k := resultKey(b)
			if at, ok := seen[k]; ok {
				// A sweep re-measures noisy results: the cleanest stays.
				m.Duplicates++
				// Only a strictly cleaner one: merging a merge with
				// its parts again must change nothing.
				if results.CompareClean(b, at.g.Results[at.i]) > 0 {
					at.g.Results[at.i] = b
				}
				continue
			}
			t := b.CPUType()
			g := groups[t]
			if g == nil {
				g = &TypeGroup{Type: t}
				groups[t] = g
				nodes[t] = map[string]bool{}
				m.Groups = append(m.Groups, g)
			}
			seen[k] = place{g, len(g.Results)}
			g.Results = append(g.Results, b)
			if n := b.Node(); n != "" {
				nodes[t][n] = true
			}
		}
	}
	// Results of no type (llvm-exegesis's) go with the one typed group when
	// there is exactly one: they cannot be told apart from it.
	if un := groups[""]; un != nil && len(groups) == 2 {
		for t, g := range groups {
			if t != "" {
				g.Results = append(g.Results, un.Results...)
			}
		}
		delete(groups, "")
		m.Groups = nil
		for _, g := range groups {
			m.Groups = append(m.Groups, g)
		}
	}
	sort.Slice(m.Groups, func(i, j int) bool { return m.Groups[i].Type < m.Groups[j].Type })
	for _, g := range m.Groups {
		for n := range nodes[g.Type] {
			g.Nodes = append(g.Nodes, n)
		}
		sort.Strings(g.Nodes)
		sort.SliceStable(g.Results, func(i, j int) bool { return sortKey(g.Results[i]) < sortKey(g.Results[j]) })
	}
	return m
}

// Merge joins result files: duplicates (the same benchmark measured twice
// on one machine, as when a shard is merged twice) are kept once, the first
// seen. Results from different CPU types are refused unless allowMixed,
// since one model must not silently mix them; the error names the types
// (MergeGroups splits them instead). With allowMixed the result holds the
// types one after the other.
func Merge(parts [][]*results.Benchmark, allowMixed bool) ([]*results.Benchmark, error) {
	m := MergeGroups(parts)
	if err := m.CheckOneType(allowMixed); err != nil {
		return nil, err
	}
	return m.All(), nil
}

// CheckOneType returns an error naming the CPU types when the merge holds
// more than one and allowMixed is false.
func (m *Merged) CheckOneType(allowMixed bool) error {
	if n := m.typed(); n > 1 && !allowMixed {
		return fmt.Errorf("results come from %d CPU types: %s; merge each type separately (--split DIR writes one file per type), or pass --allow-mixed", n, strings.Join(m.Types(), ", "))
	}
	return nil
}

func sortKey(b *results.Benchmark) string {
	if b.Portlab != nil {
		return b.Portlab.Form + "\x00" + b.Portlab.Kind + "\x00" + b.Portlab.Operands + "\x00" + b.Portlab.ID + "\x00" + b.Node()
	}
	return strings.Join(b.Key.Instructions, "\n")
}

// TypeFileName is a file name for a CPU type's results: the signature
// with characters other than letters, digits, '-', '_' and '.' replaced
// ("unknown" for results of no type).
func TypeFileName(cpuType string) string {
	if cpuType == "" {
		return "unknown.yaml"
	}
	b := []byte(cpuType)
	for i, c := range b {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.') {
			b[i] = '_'
		}
	}
	return string(b) + ".yaml"
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
