package modeldb

import (
	"fmt"
	"sort"
	"strings"

	"portlab/internal/stats"
	"portlab/isa"
)

// A model's misses gather by how a mix touches memory: on the Zen 3 guest
// a model fitted without the store commit predicted its own register-only
// and load mixes without bias and mixes of read-modify-writes with stores
// 38 % too fast (median), which pointed at the commit. MixReport.ByMemory
// says it for every report.

// MemAccess is how a form touches memory, as bits (MemLoad, MemStore,
// MemRMW).
type MemAccess uint8

// The accesses.
const (
	MemLoad  MemAccess = 1 << iota // reads a memory operand
	MemStore                       // writes one
	MemRMW                         // reads and writes the same one
)

// Loads and Stores say whether the form reads or writes data in memory,
// read-modify-writes included.
func (a MemAccess) Loads() bool  { return a&(MemLoad|MemRMW) != 0 }
func (a MemAccess) Stores() bool { return a&(MemStore|MemRMW) != 0 }

// MemAccessOf returns how the form touches memory: a typed memory
// operand it reads (load), writes (store) or both (read-modify-write);
// push, call and enter store, pop, ret and leave load, string
// instructions load and store. Untyped memory operands (lea, nop, hint
// instructions' addresses) are no access.
func MemAccessOf(f *isa.Form) MemAccess {
	a := operandAccess(f)
	if f.Has(isa.AttrStack) || f.Has(isa.AttrString) {
		switch f.Mnemonic {
		case "push", "call", "pushf", "pushfq", "enter":
			a |= MemStore
		case "pop", "ret", "popf", "popfq", "leave":
			a |= MemLoad
		default:
			a |= MemLoad | MemStore
		}
	}
	return a
}

// operandAccess is how the form's typed memory operands are accessed
// (MemAccessOf without the stack and string instructions' implicit
// accesses).
func operandAccess(f *isa.Form) MemAccess {
	var a MemAccess
	for _, op := range f.Operands {
		if !op.Kind.IsMemory() || op.Kind == isa.KindM {
			continue
		}
		r, w := op.Access&isa.Read != 0, op.Access&(isa.Write|isa.CondWrite) != 0
		switch {
		case r && w:
			a |= MemRMW
		case w:
			a |= MemStore
		case r:
			a |= MemLoad
		}
	}
	return a
}

// AccessBytes is how many bytes a form's memory operand with the given
// access (isa.Read, or isa.Write|isa.CondWrite) covers: 0 for none,
// untyped memory and broadcasts; push and call write 8.
func AccessBytes(f *isa.Form, acc isa.Access) int {
	if f == nil {
		return 0
	}
	if acc&isa.Write != 0 && (f.Mnemonic == "push" || f.Mnemonic == "call") {
		return 8
	}
	for _, o := range f.Operands {
		if o.Kind.IsMemory() && o.Access&acc != 0 && !o.Kind.IsBroadcast() {
			if bytes := MemoryBytes(o.Kind); bytes > 0 {
				return bytes
			}
		}
	}
	return 0
}

// memoryAccess is MemAccessOf by form name: 0 for forms the catalog
// lacks.
func memoryAccess(form string) MemAccess {
	f, ok := isa.Lookup(form)
	if !ok {
		return 0
	}
	return MemAccessOf(f)
}

// memoryKindName names a mix's memory accesses: "registers only", or the
// kinds it holds ("loads + read-modify-writes").
func memoryKindName(a MemAccess) string {
	if a == 0 {
		return "registers only"
	}
	var kinds []string
	for _, k := range []struct {
		bit  MemAccess
		name string
	}{{MemLoad, "loads"}, {MemStore, "stores"}, {MemRMW, "read-modify-writes"}} {
		if a&k.bit != 0 {
			kinds = append(kinds, k.name)
		}
	}
	return strings.Join(kinds, " + ")
}

// GroupScore is how a report's mixes of one group (a memory kind, a
// bound) were predicted.
type GroupScore struct {
	Group  string // "registers only", "loads + stores", "ports", ...
	N      int
	Within int
	// Median is the median signed relative error (negative: predicted
	// faster than measured).
	Median float64
}

// byMemory scores the report's mixes by memory kind, the most numerous
// kind first.
func byMemory(mixes []MixResult, tolerance float64) []GroupScore {
	cache := map[string]MemAccess{}
	return scoreGroups(mixes, tolerance, func(m MixResult) string {
		var a MemAccess
		for _, p := range m.Parts {
			fa, ok := cache[p.Form]
			if !ok {
				fa = memoryAccess(p.Form)
				cache[p.Form] = fa
			}
			a |= fa
		}
		return memoryKindName(a)
	})
}

// Register domains: a model can fit one side of a core and not the other.
// On the Zen 4 guest the embedded model predicts its own fitted mixes of
// FP/vector forms alone within 10 % at 82.4 %, of both at 76.9 % and of
// integer forms alone at 68.4 %, where the integer ALUs' assignment
// departs from the optimal balancing (testdata/experiments/alu_binding.s).
// MixReport.ByDomain says it for every report.

// vectorForm reports whether a form has a vector, mask, MMX or x87
// register operand (its work runs in the FP/vector unit); memory and
// general-purpose operands do not count.
func vectorForm(f *isa.Form) bool {
	for _, op := range f.Operands {
		switch op.Kind {
		case isa.KindXMM, isa.KindYMM, isa.KindZMM, isa.KindK, isa.KindMM, isa.KindST:
			return true
		}
	}
	return false
}

// byDomain scores the report's mixes by the register domains of their
// forms: "integer only", "FP/vector only", "integer and FP/vector" (forms the
// catalog lacks count as integer).
func byDomain(mixes []MixResult, tolerance float64) []GroupScore {
	cache := map[string]bool{}
	return scoreGroups(mixes, tolerance, func(m MixResult) string {
		vec, integer := false, false
		for _, p := range m.Parts {
			v, ok := cache[p.Form]
			if !ok {
				if f, found := isa.Lookup(p.Form); found {
					v = vectorForm(f)
				}
				cache[p.Form] = v
			}
			vec, integer = vec || v, integer || !v
		}
		switch {
		case vec && integer:
			return "integer and FP/vector"
		case vec:
			return "FP/vector only"
		}
		return "integer only"
	})
}

// byBound scores the report's mixes by what bounds their prediction (for
// a simulation, the static bound of its code), the most numerous first.
func byBound(mixes []MixResult, tolerance float64) []GroupScore {
	return scoreGroups(mixes, tolerance, func(m MixResult) string { return boundClass(m.Bound) })
}

// boundClass names a prediction's bound without its ports or form:
// "ports", "dispatch", "a form's throughput", "store commit", ...
func boundClass(bound string) string {
	if _, static, ok := strings.Cut(bound, "static bound: "); ok {
		bound = static
	}
	for _, c := range []struct{ prefix, class string }{
		{"ports", "ports"}, {"dispatch", "dispatch"}, {"throughput of", "a form's throughput"},
		{"store commit", "store commit"}, {"loop-carried", "a loop-carried chain"},
	} {
		if strings.HasPrefix(bound, c.prefix) {
			return c.class
		}
	}
	if bound == "" {
		return "unknown"
	}
	return bound
}

// scoreGroups scores the mixes by the group each belongs to, the most
// numerous group first.
func scoreGroups(mixes []MixResult, tolerance float64, group func(MixResult) string) []GroupScore {
	errs := map[string][]float64{}
	within := map[string]int{}
	for _, m := range mixes {
		k := group(m)
		errs[k] = append(errs[k], m.Error)
		if m.Error <= tolerance && m.Error >= -tolerance {
			within[k]++
		}
	}
	out := make([]GroupScore, 0, len(errs))
	for k, es := range errs {
		out = append(out, GroupScore{Group: k, N: len(es), Within: within[k], Median: stats.Median(es)})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].N != out[j].N {
			return out[i].N > out[j].N
		}
		return out[i].Group < out[j].Group
	})
	return out
}

// groupLine renders the scores on one line after the title ("" with one
// group or none).
func groupLine(title string, scores []GroupScore) string {
	if len(scores) < 2 {
		return ""
	}
	parts := make([]string, len(scores))
	for i, s := range scores {
		parts[i] = fmt.Sprintf("%s %d (%.1f%% within, median %+.1f%%)", s.Group, s.N, 100*float64(s.Within)/float64(s.N), 100*s.Median)
	}
	return title + ": " + strings.Join(parts, "; ")
}
