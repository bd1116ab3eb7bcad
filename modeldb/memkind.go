package modeldb

import (
	"fmt"
	"sort"
	"strings"

	"portlab/isa"
)

// A model's misses gather by how a mix touches memory: on the Zen 3 guest
// a model fitted without the store commit predicted its own register-only
// and load mixes without bias and mixes of read-modify-writes with stores
// 38 % too fast (median), which pointed at the commit. MixReport.ByMemory
// says it for every report.

// Memory accesses of a form, as bits.
const (
	accessLoad = 1 << iota
	accessStore
	accessRMW
)

// memoryAccess returns how the form touches memory: loads (a memory
// operand it reads), stores (one it writes), read-modify-writes (one it
// reads and writes), pushes and calls store, pops and returns load, string
// instructions load and store. 0 for register-only forms and forms the
// catalog lacks; untyped memory operands (lea, nop, prefetch hints'
// address) are no access.
func memoryAccess(form string) int {
	f, ok := isa.Lookup(form)
	if !ok {
		return 0
	}
	a := 0
	for _, op := range f.Operands {
		if !op.Kind.IsMemory() || op.Kind == isa.KindM || f.Mnemonic == "lea" {
			continue
		}
		r, w := op.Access&isa.Read != 0, op.Access&(isa.Write|isa.CondWrite) != 0
		switch {
		case r && w:
			a |= accessRMW
		case w:
			a |= accessStore
		case r:
			a |= accessLoad
		}
	}
	if f.Has(isa.AttrStack) || f.Has(isa.AttrString) {
		switch f.Mnemonic {
		case "push", "call", "pushf", "pushfq", "enter":
			a |= accessStore
		case "pop", "ret", "popf", "popfq", "leave":
			a |= accessLoad
		default:
			a |= accessLoad | accessStore
		}
	}
	return a
}

// memoryKindName names a mix's memory accesses: "registers only", or the
// kinds it holds ("loads + read-modify-writes").
func memoryKindName(a int) string {
	if a == 0 {
		return "registers only"
	}
	var kinds []string
	for _, k := range []struct {
		bit  int
		name string
	}{{accessLoad, "loads"}, {accessStore, "stores"}, {accessRMW, "read-modify-writes"}} {
		if a&k.bit != 0 {
			kinds = append(kinds, k.name)
		}
	}
	return strings.Join(kinds, " + ")
}

// MemoryKindScore is how a report's mixes of one memory kind were
// predicted.
type MemoryKindScore struct {
	Kind   string // "registers only", "loads", "loads + stores", ...
	N      int
	Within int
	// Median is the median signed relative error (negative: predicted
	// faster than measured).
	Median float64
}

// byMemory scores the report's mixes by memory kind, the most numerous
// kind first.
func byMemory(mixes []MixResult, tolerance float64) []MemoryKindScore {
	errs := map[string][]float64{}
	within := map[string]int{}
	cache := map[string]int{}
	for _, m := range mixes {
		a := 0
		for _, p := range m.Parts {
			fa, ok := cache[p.Form]
			if !ok {
				fa = memoryAccess(p.Form)
				cache[p.Form] = fa
			}
			a |= fa
		}
		k := memoryKindName(a)
		errs[k] = append(errs[k], m.Error)
		if m.Error <= tolerance && m.Error >= -tolerance {
			within[k]++
		}
	}
	out := make([]MemoryKindScore, 0, len(errs))
	for k, es := range errs {
		out = append(out, MemoryKindScore{Kind: k, N: len(es), Within: within[k], Median: median(es)})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].N != out[j].N {
			return out[i].N > out[j].N
		}
		return out[i].Kind < out[j].Kind
	})
	return out
}

// memoryLine renders the scores on one line ("" with one kind or none).
func memoryLine(scores []MemoryKindScore) string {
	if len(scores) < 2 {
		return ""
	}
	parts := make([]string, len(scores))
	for i, s := range scores {
		parts[i] = fmt.Sprintf("%s %d (%.1f%% within, median %+.1f%%)", s.Kind, s.N, 100*float64(s.Within)/float64(s.N), 100*s.Median)
	}
	return "by memory access: " + strings.Join(parts, "; ")
}
