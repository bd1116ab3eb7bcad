package modeldb

import (
	"fmt"
	"math"
	"math/bits"
	"sort"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/optimize/convex/lp"
)

// This file holds the port balancing every throughput prediction rests on:
// given uops that may each run on any port of a group, spread them over
// the ports so that the busiest port is as idle as possible. The least
// possible load of the busiest port is the throughput bound the ports
// impose (the "bottleneck" of OSACA and uops.info, the linear program of
// PMEvo and Palmed):
//
//	minimise T  subject to  sum_p x[u][p] = cycles[u]  for every use u
//	                         sum_u x[u][p] <= T         for every port p
//	                         x >= 0, x[u][p] = 0 when p is not in u's group
//
// By Hall's theorem its optimum is max over port sets S of (cycles of the
// uses whose group lies in S) / |S|, and S can be taken as a union of
// groups. Uses on disjoint port sets are separate problems (components);
// in each, for a few distinct groups portlab enumerates subsets of them,
// for a few ports the subsets of those, and otherwise it solves the
// parametric max-flow form of the program (Newton's method on the densest
// violated port set), which is exact and fast. Models
// with more than 64 ports fall back to gonum's simplex.

// maskUse is a port use compiled to a bit set over the model's ports.
type maskUse struct {
	mask   uint64
	cycles float64
}

// maxEnumGroups is the number of distinct groups up to which bottleneck
// enumerates unions of groups instead of running max-flow.
const maxEnumGroups = 10

// mergeUses sums the cycles of uses with the same group, drops empty ones,
// and returns the merged uses (reusing the slice).
func mergeUses(uses []maskUse) []maskUse {
	out := uses[:0]
	for _, u := range uses {
		if u.cycles <= 0 || u.mask == 0 {
			continue
		}
		found := false
		for i := range out {
			if out[i].mask == u.mask {
				out[i].cycles += u.cycles
				found = true
				break
			}
		}
		if !found {
			out = append(out, u)
		}
	}
	return out
}

// bottleneck returns the optimal busiest-port load for the uses. It merges
// and reorders uses in place.
func bottleneck(uses []maskUse) float64 {
	uses = mergeUses(uses)
	best := 0.0
	for len(uses) > 0 {
		n := component(uses)
		if t := bottleneckConnected(uses[:n]); t > best {
			best = t
		}
		uses = uses[n:]
	}
	return best
}

// component moves to the front of uses every use that shares a port,
// directly or through other uses, with the first, and returns how many
// there are. Uses on disjoint port sets do not compete: the optimum is the
// largest of their components' optima, and enumerating each component's
// unions costs 2^a + 2^b instead of 2^(a+b) (the integer and vector pipes
// of a Zen core are such components).
func component(uses []maskUse) int {
	ports := uses[0].mask
	end := 1
	for grown := true; grown; {
		grown = false
		for j := end; j < len(uses); j++ {
			if uses[j].mask&ports != 0 {
				ports |= uses[j].mask
				uses[end], uses[j] = uses[j], uses[end]
				end++
				grown = true
			}
		}
	}
	return end
}

// maxZetaPorts is the number of ports up to which bottleneck sums the
// uses over every port subset at once instead of running max-flow.
const maxZetaPorts = 12

// bottleneckConnected is bottleneck for uses that form one component. Of
// the two enumerations it takes the cheaper: subsets of the g groups (2^g
// steps) or every subset of the k ports they cover (k 2^k); with neither
// small it runs max-flow.
func bottleneckConnected(uses []maskUse) float64 {
	g := len(uses)
	if g == 1 {
		return uses[0].cycles / float64(bits.OnesCount64(uses[0].mask))
	}
	var all uint64
	for _, u := range uses {
		all |= u.mask
	}
	k := bits.OnesCount64(all)
	switch {
	case k <= maxZetaPorts && (g > maxEnumGroups || k<<k < 1<<g):
		return bottleneckZeta(uses, all, k)
	case g <= maxEnumGroups:
		return bottleneckEnum(uses)
	}
	t, _ := bottleneckFlow(uses, false)
	return t
}

// bottleneckZeta computes, for every subset S of the k ports in all, the
// cycles of the uses whose group lies in S (a sum over subsets, k 2^k
// additions), and returns the largest cycles per port. Subsets that are no
// union of groups count cycles of a smaller union over more ports, so
// they never set the maximum and need not be skipped.
func bottleneckZeta(uses []maskUse, all uint64, k int) float64 {
	var pos [64]uint8
	i := uint8(0)
	for m := all; m != 0; m &= m - 1 {
		pos[bits.TrailingZeros64(m)] = i
		i++
	}
	var small [64]float64
	var f []float64
	if k <= 6 {
		f = small[:1<<k]
	} else {
		f = make([]float64, 1<<k)
	}
	for _, u := range uses {
		var c uint
		for m := u.mask; m != 0; m &= m - 1 {
			c |= 1 << pos[bits.TrailingZeros64(m)]
		}
		f[c] += u.cycles
	}
	for b := 0; b < k; b++ {
		bit := 1 << b
		for s := range f {
			if s&bit != 0 {
				f[s] += f[s^bit]
			}
		}
	}
	best := 0.0
	for s := 1; s < len(f); s++ {
		if r := f[s] / float64(bits.OnesCount(uint(s))); r > best {
			best = r
		}
	}
	return best
}

// bottleneckEnum enumerates the subsets s of the groups: the cycles of
// the uses in s over the ports of their union bound the optimum from below,
// and the subset of every use inside the optimal port set reaches it. Each
// subset's union and cycles extend those of the subset without its lowest
// group, one step each: 2^g steps in all.
func bottleneckEnum(uses []maskUse) float64 {
	g := len(uses)
	var smallU [64]uint64
	var smallC [64]float64
	var un []uint64
	var cy []float64
	if g <= 6 {
		un, cy = smallU[:1<<g], smallC[:1<<g]
	} else {
		un, cy = make([]uint64, 1<<g), make([]float64, 1<<g)
	}
	best := 0.0
	for s := 1; s < len(un); s++ {
		i := bits.TrailingZeros(uint(s))
		prev := s &^ (1 << i)
		u, c := un[prev]|uses[i].mask, cy[prev]+uses[i].cycles
		un[s], cy[s] = u, c
		if c > best*float64(bits.OnesCount64(u)) {
			best = c / float64(bits.OnesCount64(u))
		}
	}
	return best
}

// bottleneckFlow solves the balancing problem by Newton's method over
// max-flow: with every port's capacity at the current bound T, either all
// cycles flow (T is optimal) or the minimum cut names a port set whose
// uses need more than T per port, which becomes the next T. With loads it
// also returns an optimal assignment's load per port (bit index).
func bottleneckFlow(uses []maskUse, loads bool) (float64, []float64) {
	total := 0.0
	var all uint64
	t := 0.0
	for _, u := range uses {
		total += u.cycles
		all |= u.mask
		if r := u.cycles / float64(bits.OnesCount64(u.mask)); r > t {
			t = r
		}
	}
	if r := total / float64(bits.OnesCount64(all)); r > t {
		t = r
	}
	// Nodes: 0 source, 1..n uses, n+1..n+64 ports, n+65 sink.
	n := len(uses)
	fn := newFlowNet(n + 66)
	src, sink := 0, n+65
	for iter := 0; iter < 200; iter++ {
		fn.reset()
		for i, u := range uses {
			fn.addEdge(src, 1+i, u.cycles)
			for m := u.mask; m != 0; m &= m - 1 {
				p := bits.TrailingZeros64(m)
				fn.addEdge(1+i, n+1+p, math.Inf(1))
			}
		}
		portEdge := make([]int, 64)
		for m := all; m != 0; m &= m - 1 {
			p := bits.TrailingZeros64(m)
			portEdge[p] = fn.addEdge(n+1+p, sink, t*(1+1e-12)+1e-12)
		}
		flow := fn.maxFlow(src, sink)
		if flow >= total*(1-1e-9)-1e-12 {
			var pl []float64
			if loads {
				pl = make([]float64, 64)
				for m := all; m != 0; m &= m - 1 {
					p := bits.TrailingZeros64(m)
					pl[p] = fn.flowOn(portEdge[p])
				}
			}
			return t, pl
		}
		reach := fn.reachable(src)
		sum, cnt := 0.0, 0
		for i, u := range uses {
			if reach[1+i] {
				sum += u.cycles
			}
		}
		for m := all; m != 0; m &= m - 1 {
			p := bits.TrailingZeros64(m)
			if reach[n+1+p] {
				cnt++
			}
		}
		if cnt == 0 {
			break
		}
		nt := sum / float64(cnt)
		if nt <= t*(1+1e-12) {
			// Numerical stall: the cut is tight at t.
			nt = t * (1 + 1e-9)
		}
		t = nt
	}
	return t, nil
}

// criticalSet returns the ports that carry load t in every optimal
// assignment of uses whose optimum is t: the densest port set, found as
// the source side of a minimum cut when the ports' capacity is just below t.
func criticalSet(uses []maskUse, t float64) uint64 {
	n := len(uses)
	fn := newFlowNet(n + 66)
	src, sink := 0, n+65
	var all uint64
	for i, u := range uses {
		all |= u.mask
		fn.addEdge(src, 1+i, u.cycles)
		for m := u.mask; m != 0; m &= m - 1 {
			fn.addEdge(1+i, n+1+bits.TrailingZeros64(m), math.Inf(1))
		}
	}
	for m := all; m != 0; m &= m - 1 {
		fn.addEdge(n+1+bits.TrailingZeros64(m), sink, t*(1-1e-7))
	}
	fn.maxFlow(src, sink)
	reach := fn.reachable(src)
	var crit uint64
	for m := all; m != 0; m &= m - 1 {
		p := bits.TrailingZeros64(m)
		if reach[n+1+p] {
			crit |= 1 << p
		}
	}
	return crit
}

// densest returns the optimum of uses and its critical port set: by
// enumerating unions of groups when there are few (the largest union of
// the highest ratio), else by max-flow.
func densest(uses []maskUse) (float64, uint64) {
	if len(uses) > maxEnumGroups {
		t, _ := bottleneckFlow(uses, false)
		return t, criticalSet(uses, t)
	}
	g := len(uses)
	best, bestSet := 0.0, uint64(0)
	for s := 1; s < 1<<g; s++ {
		var u uint64
		for i := 0; i < g; i++ {
			if s&(1<<i) != 0 {
				u |= uses[i].mask
			}
		}
		sum := 0.0
		for i := 0; i < g; i++ {
			if uses[i].mask&^u == 0 {
				sum += uses[i].cycles
			}
		}
		r := sum / float64(bits.OnesCount64(u))
		switch {
		case r > best*(1+1e-12):
			best, bestSet = r, u
		case r >= best*(1-1e-12):
			bestSet |= u // the union of densest sets is densest
		}
	}
	return best, bestSet
}

// balanceLoads returns the optimum, the critical ports, and the loads of
// the most even optimal assignment: the critical ports at the optimum,
// the uses that may avoid them balanced again over the other ports (the
// lexicographic min-max assignment), recursively.
func balanceLoads(uses []maskUse) (float64, uint64, []float64) {
	loads := make([]float64, 64)
	uses = mergeUses(append([]maskUse(nil), uses...))
	if len(uses) == 0 {
		return 0, 0, loads
	}
	t, crit := densest(uses)
	top := crit
	for len(uses) > 0 {
		level, s := densest(uses)
		if s == 0 {
			// Numerical corner: spread what is left evenly.
			for _, u := range uses {
				c := u.cycles / float64(bits.OnesCount64(u.mask))
				for m := u.mask; m != 0; m &= m - 1 {
					loads[bits.TrailingZeros64(m)] += c
				}
			}
			break
		}
		for m := s; m != 0; m &= m - 1 {
			loads[bits.TrailingZeros64(m)] = level
		}
		var rest []maskUse
		for _, u := range uses {
			if u.mask&^s != 0 {
				rest = append(rest, maskUse{u.mask &^ s, u.cycles})
			}
		}
		uses = mergeUses(rest)
	}
	return t, top, loads
}

// flowNet is a small Dinic max-flow network with float capacities.
type flowNet struct {
	head  []int
	to    []int
	next  []int
	cap   []float64
	orig  []float64
	level []int
	it    []int
}

func newFlowNet(n int) *flowNet {
	f := &flowNet{head: make([]int, n), level: make([]int, n), it: make([]int, n)}
	f.reset()
	return f
}

func (f *flowNet) reset() {
	for i := range f.head {
		f.head[i] = -1
	}
	f.to, f.next, f.cap, f.orig = f.to[:0], f.next[:0], f.cap[:0], f.orig[:0]
}

func (f *flowNet) addEdge(a, b int, c float64) int {
	id := len(f.to)
	f.to = append(f.to, b, a)
	f.cap = append(f.cap, c, 0)
	f.orig = append(f.orig, c, 0)
	f.next = append(f.next, f.head[a], f.head[b])
	f.head[a] = id
	f.head[b] = id + 1
	return id
}

func (f *flowNet) flowOn(e int) float64 { return f.orig[e] - f.cap[e] }

const flowEps = 1e-12

func (f *flowNet) bfs(s, t int) bool {
	for i := range f.level {
		f.level[i] = -1
	}
	q := []int{s}
	f.level[s] = 0
	for len(q) > 0 {
		v := q[0]
		q = q[1:]
		for e := f.head[v]; e >= 0; e = f.next[e] {
			if f.cap[e] > flowEps && f.level[f.to[e]] < 0 {
				f.level[f.to[e]] = f.level[v] + 1
				q = append(q, f.to[e])
			}
		}
	}
	return f.level[t] >= 0
}

func (f *flowNet) dfs(v, t int, pushed float64) float64 {
	if v == t {
		return pushed
	}
	for ; f.it[v] >= 0; f.it[v] = f.next[f.it[v]] {
		e := f.it[v]
		w := f.to[e]
		if f.cap[e] > flowEps && f.level[w] == f.level[v]+1 {
			d := f.dfs(w, t, math.Min(pushed, f.cap[e]))
			if d > flowEps {
				f.cap[e] -= d
				f.cap[e^1] += d
				return d
			}
		}
	}
	return 0
}

func (f *flowNet) maxFlow(s, t int) float64 {
	total := 0.0
	for f.bfs(s, t) {
		copy(f.it, f.head)
		for {
			d := f.dfs(s, t, math.Inf(1))
			if d <= flowEps {
				break
			}
			total += d
		}
	}
	return total
}

func (f *flowNet) reachable(s int) []bool {
	seen := make([]bool, len(f.head))
	seen[s] = true
	q := []int{s}
	for len(q) > 0 {
		v := q[0]
		q = q[1:]
		for e := f.head[v]; e >= 0; e = f.next[e] {
			if f.cap[e] > 1e-9 && !seen[f.to[e]] {
				seen[f.to[e]] = true
				q = append(q, f.to[e])
			}
		}
	}
	return seen
}

// Balanced is an optimal spreading of port uses over ports.
type Balanced struct {
	// Cycles is the load of the busiest port: the throughput bound, in
	// cycles, that the ports impose on the uses.
	Cycles float64
	// Loads is each port's load in one optimal assignment.
	Loads map[string]float64
	// Bottleneck lists the ports whose load equals Cycles, in model order.
	Bottleneck []string
}

// Balance spreads port uses over the ports (names in ports) so that the
// busiest port carries the least load, and returns that load, the ports
// every optimal assignment loads that much, and the most even optimal
// assignment (lexicographic min-max: after the bottleneck ports, the
// next busiest are as idle as possible, and so on). It is the balancing behind PredictThroughput, for
// callers that add up uses themselves (a kernel's instructions). A use
// naming a port not in ports is an error.
func Balance(ports []string, uses []PortUse) (Balanced, error) {
	idx := make(map[string]int, len(ports))
	for i, p := range ports {
		idx[p] = i
	}
	if len(ports) > 64 {
		return balanceLP(ports, idx, uses)
	}
	var mus []maskUse
	for _, u := range uses {
		var m uint64
		for _, p := range u.Ports {
			i, ok := idx[p]
			if !ok {
				return Balanced{}, fmt.Errorf("port %q is not one of the model's ports", p)
			}
			m |= 1 << i
		}
		if u.Cycles < 0 {
			return Balanced{}, fmt.Errorf("negative cycles %v on ports %v", u.Cycles, u.Ports)
		}
		mus = append(mus, maskUse{m, u.Cycles})
	}
	mus = mergeUses(mus)
	b := Balanced{Loads: map[string]float64{}}
	if len(mus) == 0 {
		return b, nil
	}
	t, crit, loads := balanceLoads(mus)
	b.Cycles = t
	for i, p := range ports {
		if loads[i] > 1e-12 {
			b.Loads[p] = loads[i]
		}
		if crit&(1<<i) != 0 {
			b.Bottleneck = append(b.Bottleneck, p)
		}
	}
	return b, nil
}

// balanceLP solves the balancing program with gonum's simplex: the general
// path for models with more than 64 ports, and the reference the faster
// paths are tested against.
func balanceLP(ports []string, idx map[string]int, uses []PortUse) (Balanced, error) {
	type varRef struct{ use, port int }
	var vars []varRef
	for ui, u := range uses {
		if u.Cycles < 0 {
			return Balanced{}, fmt.Errorf("negative cycles %v on ports %v", u.Cycles, u.Ports)
		}
		if u.Cycles == 0 {
			continue
		}
		seen := map[int]bool{}
		for _, p := range u.Ports {
			i, ok := idx[p]
			if !ok {
				return Balanced{}, fmt.Errorf("port %q is not one of the model's ports", p)
			}
			if !seen[i] {
				seen[i] = true
				vars = append(vars, varRef{ui, i})
			}
		}
	}
	b := Balanced{Loads: map[string]float64{}}
	if len(vars) == 0 {
		return b, nil
	}
	// Used uses and ports, densely numbered.
	useRow := map[int]int{}
	portRow := map[int]int{}
	for _, v := range vars {
		if _, ok := useRow[v.use]; !ok {
			useRow[v.use] = len(useRow)
		}
		if _, ok := portRow[v.port]; !ok {
			portRow[v.port] = len(portRow)
		}
	}
	nv := len(vars) + 1 // last variable is T
	c := make([]float64, nv)
	c[nv-1] = 1
	A := mat.NewDense(len(useRow), nv, nil)
	bv := make([]float64, len(useRow))
	for u, r := range useRow {
		bv[r] = uses[u].Cycles
	}
	// Gonum's general form has free variables: x >= 0 are rows of G too.
	np := len(portRow)
	G := mat.NewDense(np+len(vars), nv, nil)
	h := make([]float64, np+len(vars))
	for j, v := range vars {
		A.Set(useRow[v.use], j, 1)
		G.Set(portRow[v.port], j, 1)
		G.Set(np+j, j, -1)
	}
	for r := 0; r < np; r++ {
		G.Set(r, nv-1, -1)
	}
	cNew, aNew, bNew := lp.Convert(c, G, h, A, bv)
	opt, x, err := lp.Simplex(cNew, aNew, bNew, 1e-10, nil)
	if err != nil {
		return Balanced{}, fmt.Errorf("balancing LP: %v", err)
	}
	b.Cycles = opt
	for j, v := range vars {
		b.Loads[ports[v.port]] += x[j]
	}
	for p, l := range b.Loads {
		if l <= 1e-12 {
			delete(b.Loads, p)
		}
	}
	for _, p := range ports {
		if l, ok := b.Loads[p]; ok && l >= opt*(1-1e-6) {
			b.Bottleneck = append(b.Bottleneck, p)
		}
	}
	sort.SliceStable(b.Bottleneck, func(i, j int) bool { return idx[b.Bottleneck[i]] < idx[b.Bottleneck[j]] })
	return b, nil
}
