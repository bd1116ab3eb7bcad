package sweep

import (
	"math"
	"sort"
	"strings"

	"portlab/gen"
	"portlab/isa"
)

// CostModes says which benchmarks a sweep emits per form, for FormCost:
// the generator's latency benchmarks, its throughput benchmarks, and in
// ports mode one mix per probe.
type CostModes struct {
	Latency, Throughput bool
	// Probes is the number of probe forms each form is mixed with in ports
	// mode (0 without ports mode).
	Probes int
}

// DefaultCostModes are the modes of a default sweep (latency and throughput).
var DefaultCostModes = CostModes{Latency: true, Throughput: true}

// Cost model, in units of one ordinary benchmark (about 30 ms on a KVM
// guest: 21 repetitions of a few 15-20 us timed calls plus assembling).
const (
	formOverhead       = 0.1  // generating, batching, the summary line
	unmeasurableCost   = 0.05 // recorded with its reason, never run
	generatorErrorCost = 0.05 // recorded with the error, never run
)

// benchWeight is the relative time one benchmark of f takes. The engine
// sizes every timed call to about 15 us, so an instruction's latency does
// not change the time as long as one body (128 and 256 copies) fits in
// that window: divisions and square roots (20-100 cycles) cost what an
// add costs (measured: vdiv* latency benchmarks 33 ms each, vadd* 34 ms).
// Only instructions of hundreds of cycles and more outgrow the window, or
// disturb the repetitions enough to be retried; their weights were
// measured on a Granite Rapids KVM guest (per benchmark, relative to the
// vpor* forms): cpuid 25 (a VM exit each), rdseed 4.5, rdrand 2, movnti 4,
// other non-temporal stores 2, clflush/clflushopt 3, xsave* 2.3, rep
// string instructions 1.5.
func benchWeight(f *isa.Form) float64 {
	m := f.Mnemonic
	base := m
	if i := strings.LastIndexByte(m, ' '); i >= 0 { // "rep movsq"
		base = m[i+1:]
	}
	storesToMemory := len(f.Operands) > 0 && f.Operands[0].Kind.IsMemory()
	switch {
	case f.Has(isa.AttrSerializing):
		return 25
	case base == "rdseed":
		return 4
	case base == "movnti":
		return 4
	case base == "clflush" || base == "clflushopt" || base == "clwb":
		return 3
	case base == "rdrand":
		return 2
	case strings.HasPrefix(base, "xsave") || strings.HasPrefix(base, "fxsave") ||
		strings.HasPrefix(base, "xrstor") || strings.HasPrefix(base, "fxrstor"):
		return 2
	case (strings.HasPrefix(base, "movnt") || strings.HasPrefix(base, "vmovnt")) && storesToMemory,
		strings.HasSuffix(base, "maskmovdqu"), base == "maskmovq":
		return 2
	case f.Has(isa.AttrRep):
		return 1.5
	}
	return 1
}

// FormCost estimates how long a sweep spends on form f, in units of one
// ordinary benchmark: the benchmarks the generator emits for f in the
// given modes (latency chains per operand pair, throughput, idiom and
// move-elimination variants; one mix per probe in ports mode), each
// weighted by benchWeight, plus a small per-form overhead. It depends on
// the form alone, never on the host, so every host computes the same
// shards.
func FormCost(f *isa.Form, m CostModes) float64 {
	if gen.Unmeasurable(f) != "" {
		return unmeasurableCost
	}
	bs, err := gen.Generate(f)
	if err != nil {
		return generatorErrorCost
	}
	n := 0
	for _, b := range bs {
		if kindSelected(b.Kind, m.Latency, m.Throughput) {
			n++
		}
	}
	n += m.Probes
	return formOverhead + float64(n)*benchWeight(f)
}

// kindSelected reports whether a benchmark kind runs in a sweep with the
// given modes (as Run filters them).
func kindSelected(kind string, latency, throughput bool) bool {
	switch kind {
	case gen.KindLatency, gen.KindIdiomLatency, gen.KindMoveLatency, gen.KindAddressLatency, gen.KindLoadAddress, gen.KindLatency512, gen.KindLateForward, gen.KindDomain:
		return latency
	case gen.KindThroughput, gen.KindDestChain, gen.KindIdiomTP, gen.KindAddressTP, gen.KindAddressPorts, gen.KindStoreCommit, gen.KindMaskWrites:
		return throughput
	}
	return true
}

// Shard is one shard of a sweep: its forms in name order and their total
// estimated cost.
type Shard struct {
	Forms []*isa.Form
	Cost  float64
}

// AssignShards splits forms into n shards balanced by cost, so that every
// host of a fleet gets the same shards and each host's share of them is
// balanced too, whichever CPUID features it has:
//
//   - Forms are grouped by their CPUID feature set (a host runs all forms
//     of a group or none), the groups taken by decreasing total cost.
//   - Within a group, forms are taken by decreasing cost (ties by name),
//     each given to the shard with the least cost of that group so far,
//     ties to the shard with the least cost overall, then the lowest index
//     (a greedy longest-processing-time assignment per group).
//
// So a host without AVX-512 still finds its forms spread evenly, and small
// groups fill the shards that are behind. The assignment depends only on
// the set of forms and their costs, not on their order; costs are rounded
// to thousandths of a benchmark and summed as integers, so floating-point
// summation cannot change it either.
func AssignShards(forms []*isa.Form, n int, cost func(*isa.Form) float64) []Shard {
	if n < 1 {
		n = 1
	}
	type item struct {
		f    *isa.Form
		name string
		c    int64
	}
	type group struct {
		key   string
		items []item
		total int64
	}
	groups := map[string]*group{}
	seen := map[string]bool{}
	for _, f := range forms {
		name := f.Name()
		if seen[name] {
			continue
		}
		seen[name] = true
		feats := append([]string(nil), f.Features...)
		sort.Strings(feats)
		key := strings.Join(feats, ",")
		g := groups[key]
		if g == nil {
			g = &group{key: key}
			groups[key] = g
		}
		it := item{f, name, int64(math.Round(cost(f) * 1000))}
		g.items = append(g.items, it)
		g.total += it.c
	}
	order := make([]*group, 0, len(groups))
	for _, g := range groups {
		order = append(order, g)
		sort.Slice(g.items, func(a, b int) bool {
			if g.items[a].c != g.items[b].c {
				return g.items[a].c > g.items[b].c
			}
			return g.items[a].name < g.items[b].name
		})
	}
	sort.Slice(order, func(a, b int) bool {
		if order[a].total != order[b].total {
			return order[a].total > order[b].total
		}
		return order[a].key < order[b].key
	})
	loads := make([]int64, n)
	groupLoads := make([]int64, n)
	shards := make([]Shard, n)
	for _, g := range order {
		clear(groupLoads)
		for _, it := range g.items {
			k := 0
			for j := 1; j < n; j++ {
				if groupLoads[j] < groupLoads[k] || groupLoads[j] == groupLoads[k] && loads[j] < loads[k] {
					k = j
				}
			}
			groupLoads[k] += it.c
			loads[k] += it.c
			shards[k].Forms = append(shards[k].Forms, it.f)
		}
	}
	for k := range shards {
		s := shards[k].Forms
		sort.Slice(s, func(a, b int) bool { return s[a].Name() < s[b].Name() })
		shards[k].Cost = float64(loads[k]) / 1000
	}
	return shards
}

// ShardFormsByCost returns the forms of shard i of n (0-based), balanced by
// cost as AssignShards does, in name order.
func ShardFormsByCost(forms []*isa.Form, i, n int, cost func(*isa.Form) float64) []*isa.Form {
	if i < 0 || i >= n {
		return nil
	}
	return AssignShards(forms, n, cost)[i].Forms
}

// ShardForms returns shard i of n (0-based) of a default sweep (latency and
// throughput), balanced by FormCost; see AssignShards.
func ShardForms(forms []*isa.Form, i, n int) []*isa.Form {
	return ShardFormsByCost(forms, i, n, func(f *isa.Form) float64 { return FormCost(f, DefaultCostModes) })
}
