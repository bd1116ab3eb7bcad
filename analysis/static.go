package analysis

import (
	"fmt"
	"math"
	"math/bits"
	"portlab/analysis/pipeline"
	"sort"
	"strings"

	"portlab/isa"
	"portlab/modeldb"
)

// Static is the OSACA-style analysis of one kernel iteration in steady
// state, without simulation.
type Static struct {
	Ports []string
	// PerInstr[i][p] is instruction i's pressure on port p in an optimal
	// balancing of all uops over their allowed ports; Total[p] sums it.
	PerInstr [][]float64
	Total    []float64
	// PortBound is the busiest port's load in that balancing (modeldb's
	// LP); Busiest lists the ports that carry it.
	PortBound float64
	Busiest   []string
	// Uops per iteration (dispatch slots: fused loads count once) and
	// DispatchBound = Uops / dispatch width.
	Uops          int
	DispatchWidth int
	DispatchBound float64
	// FormBound is the largest reciprocal throughput of one form times its
	// count (unpipelined units the ports do not show); FormBoundOf names it.
	FormBound   float64
	FormBoundOf string
	// StoreCommitBound is the cycles per iteration the stores take to
	// commit to the cache (model store_commit: consecutive stores to one
	// line go together), 0 without the rule or stores; StoreCommit says
	// the rule.
	StoreCommitBound float64
	StoreCommit      string
	// CriticalPath is the longest dependency path through one iteration
	// (instruction indexes) and its latency.
	CriticalPath        []int
	CriticalPathLatency float64
	// Chains are the loop-carried dependency chains, longest first;
	// LCDBound is the largest latency per iteration of any dependency
	// cycle (exact maximum cycle ratio over chains spanning any number of
	// iterations).
	Chains   []Chain
	LCDBound float64
	// Bound is max(PortBound, DispatchBound, FormBound, StoreCommitBound,
	// LCDBound): the
	// predicted cycles per iteration; Bottleneck names what sets it.
	Bound      float64
	Bottleneck string
}

// Chain is a dependency chain from an instruction to the same instruction
// Iterations iterations later.
type Chain struct {
	Instrs     []int    // instructions along the chain
	Via        []string // what each instruction passes to the next ("ymm0", "[rdi]")
	Latency    float64  // cycles around the chain
	Iterations int
}

// depEdge is a dependency from instruction From to To, Dist iterations
// later, taking Weight cycles.
type depEdge struct {
	From, To int
	Dist     int
	Weight   float64
	Via      string
}

// Dependencies returns the kernel's dependency graph: register
// dependencies (a read depends on the last earlier write of its register,
// in this iteration or, when there is none, the previous one; the weight
// is the writer's latency minus the read's advance) and memory
// dependencies between a store and a later load of the same address
// expression whose registers do not change in between (weight: the
// store's latency plus whatever store-to-load forwarding adds to a load).
func (k *Kernel) Dependencies() []depEdge {
	var edges []depEdge
	writeLat := func(i, u int) int {
		x := k.Instrs[i]
		if x.Desc.OptimizableMove {
			return 0
		}
		l := 0
		for _, w := range x.Desc.Writes {
			if w.Reg == u {
				l = max(l, w.Latency)
			}
		}
		return l
	}
	for j, x := range k.Instrs {
		if x.Desc.IndependentReads {
			continue
		}
		seen := map[int]bool{}
		for _, r := range x.Desc.Reads {
			i, dist, ok := k.lastWriter(r.Reg, j)
			if !ok {
				continue
			}
			w := float64(max(0, writeLat(i, r.Reg)-r.Advance))
			key := i*2 + dist
			if seen[key] {
				// Keep the heaviest edge between two instructions.
				for e := range edges {
					if edges[e].From == i && edges[e].To == j && edges[e].Dist == dist && w > edges[e].Weight {
						edges[e].Weight = w
						edges[e].Via = k.Instrs[i].regName(r.Reg)
					}
				}
				continue
			}
			seen[key] = true
			edges = append(edges, depEdge{From: i, To: j, Dist: dist, Weight: w, Via: k.Instrs[i].regName(r.Reg)})
		}
	}
	// Memory: a store then a load of the same address, unless the builder
	// made that a register dependency through a memory unit (found above).
	if k.readsMemoryUnits() {
		return edges
	}
	fwd := k.Model.StoreToLoadForwardLatency
	for j, ld := range k.Instrs {
		i, dist, ok := k.forwardingStore(j)
		if !ok {
			continue
		}
		extra := 0.0
		if fwd > 0 {
			extra = math.Max(0, fwd-float64(ld.Latency))
		}
		edges = append(edges, depEdge{From: i, To: j, Dist: dist, Weight: float64(k.Instrs[i].Latency) + extra, Via: "[" + memText(ld) + "]"})
	}
	return edges
}

func memText(x *Instr) string {
	for _, a := range x.Inst.Args {
		if a.Type == isa.OpMem {
			var parts []string
			if a.Mem.Symbol != "" {
				parts = append(parts, a.Mem.Symbol)
			}
			if a.Mem.Base.Valid() {
				parts = append(parts, a.Mem.Base.Name())
			}
			if a.Mem.Index.Valid() {
				parts = append(parts, fmt.Sprintf("%s*%d", a.Mem.Index.Name(), a.Mem.Scale))
			}
			if a.Mem.Disp != 0 || len(parts) == 0 {
				parts = append(parts, fmt.Sprint(a.Mem.Disp))
			}
			return strings.ReplaceAll(strings.Join(parts, "+"), "+-", "-")
		}
	}
	return "mem"
}

// Analyze runs the static analysis with the given dispatch width.
// storeCommitIterations is how many iterations the store commit bound
// counts over: lines that advance with the iteration (a pointer stepping
// 32 bytes) pair stores of different iterations.
const storeCommitIterations = 64

func (k *Kernel) Analyze(dispatchWidth int) (*Static, error) {
	s := &Static{Ports: k.Ports, DispatchWidth: dispatchWidth}
	n := len(k.Instrs)
	np := len(k.Ports)
	// Port pressure: the LP optimum over all uses, then a split per
	// instruction consistent with it.
	var uses []modeldb.PortUse
	for _, x := range k.Instrs {
		uses = append(uses, x.Pressure...)
		s.Uops += x.Desc.Uops
	}
	bal, err := modeldb.Balance(k.Ports, uses)
	if err != nil {
		return nil, err
	}
	s.PortBound = bal.Cycles
	s.Busiest = bal.Bottleneck
	s.Total = make([]float64, np)
	for i, p := range k.Ports {
		s.Total[i] = bal.Loads[p]
	}
	s.PerInstr = splitPressure(k, s.Total)
	if dispatchWidth > 0 {
		s.DispatchBound = float64(s.Uops) / float64(dispatchWidth)
	}
	perForm := map[string]float64{}
	for _, x := range k.Instrs {
		if x.Idiom == "zero idiom" {
			continue
		}
		perForm[x.Form.Name()] += x.RThroughput
	}
	for f, t := range perForm {
		if t > s.FormBound || (t == s.FormBound && f < s.FormBoundOf) {
			s.FormBound, s.FormBoundOf = t, f
		}
	}
	if sc := k.Model.StoreCommit; sc != nil {
		var lines []pipeline.StoreLine
		for _, x := range k.Instrs {
			if x.MayStore && !x.Desc.NoCommit {
				lines = append(lines, x.Desc.Line)
			}
		}
		s.StoreCommit = sc.String()
		s.StoreCommitBound = storeCommitOf(k.Model).CyclesPerIteration(lines, storeCommitIterations)
	}
	edges := k.Dependencies()
	s.criticalPath(k, edges)
	s.chains(k, edges)
	s.LCDBound = maxCycleRatio(n, edges)

	s.Bound, s.Bottleneck = s.PortBound, "ports "+strings.Join(s.Busiest, ", ")
	if len(s.Busiest) == 0 {
		s.Bottleneck = "ports"
	}
	if s.DispatchBound > s.Bound*(1+1e-9) {
		s.Bound, s.Bottleneck = s.DispatchBound, fmt.Sprintf("dispatch (%d uops at %d per cycle)", s.Uops, dispatchWidth)
	}
	if s.FormBound > s.Bound*(1+1e-9) {
		s.Bound, s.Bottleneck = s.FormBound, "throughput of "+s.FormBoundOf
	}
	if s.StoreCommitBound > s.Bound*(1+1e-9) {
		s.Bound, s.Bottleneck = s.StoreCommitBound, "store commit ("+s.StoreCommit+")"
	}
	if s.LCDBound > s.Bound*(1+1e-9) {
		s.Bound = s.LCDBound
		s.Bottleneck = "loop-carried dependency"
		if len(s.Chains) > 0 && math.Abs(s.Chains[0].Latency/float64(s.Chains[0].Iterations)-s.LCDBound) < 1e-9 {
			s.Bottleneck += " " + s.Chains[0].Describe(k)
		}
	}
	return s, nil
}

// Describe renders a chain as "3 -> 5 -> 3 via ymm0, ymm1".
func (c Chain) Describe(k *Kernel) string {
	var ids []string
	for _, i := range c.Instrs {
		ids = append(ids, fmt.Sprint(i))
	}
	ids = append(ids, fmt.Sprint(c.Instrs[0]))
	via := map[string]bool{}
	var vs []string
	for _, v := range c.Via {
		if !via[v] {
			via[v] = true
			vs = append(vs, v)
		}
	}
	return fmt.Sprintf("[%s] through %s", strings.Join(ids, " -> "), strings.Join(vs, ", "))
}

// splitPressure divides the port pressure among ports and instructions
// for display: the busiest ports carry the optimum that modeldb.Balance
// computes, and the rest is spread as evenly as it can be (the
// lexicographically smallest loads: repeatedly the densest set of ports,
// that is the union of groups whose uses need the most cycles per port,
// takes its share and leaves). A small max-flow then finds how much of
// each group goes to each port, and each instruction gets its share of
// its groups. When the uses fall into more groups than can be enumerated,
// the loads are the optimum modeldb.Balance returns (total is that).
func splitPressure(k *Kernel, total []float64) [][]float64 {
	np := len(k.Ports)
	idx := map[string]int{}
	for i, p := range k.Ports {
		idx[p] = i
	}
	type group struct {
		mask   uint64
		cycles float64
	}
	var groups []group
	gi := map[uint64]int{}
	masks := make([][]uint64, len(k.Instrs))
	for i, x := range k.Instrs {
		for _, u := range x.Pressure {
			var m uint64
			for _, p := range u.Ports {
				if j, ok := idx[p]; ok && j < 64 {
					m |= 1 << j
				}
			}
			masks[i] = append(masks[i], m)
			if m == 0 || u.Cycles <= 0 {
				continue
			}
			g, ok := gi[m]
			if !ok {
				g = len(groups)
				gi[m] = g
				groups = append(groups, group{mask: m})
			}
			groups[g].cycles += u.Cycles
		}
	}
	loads := append([]float64(nil), total...)
	if len(groups) <= 14 {
		loads = make([]float64, np)
		alive := make([]bool, len(groups))
		for i := range alive {
			alive[i] = true
		}
		var ports uint64 // ports already settled
		for {
			best, bestSet := -1.0, uint64(0)
			var live []int
			for i := range groups {
				if alive[i] {
					live = append(live, i)
				}
			}
			if len(live) == 0 {
				break
			}
			for sub := 1; sub < 1<<len(live); sub++ {
				var u uint64
				for j, g := range live {
					if sub&(1<<j) != 0 {
						u |= groups[g].mask &^ ports
					}
				}
				if u == 0 {
					continue
				}
				sum := 0.0
				for _, g := range live {
					if m := groups[g].mask &^ ports; m&^u == 0 {
						sum += groups[g].cycles
					}
				}
				if d := sum / float64(bits.OnesCount64(u)); d > best+1e-12 || (math.Abs(d-best) <= 1e-12 && bits.OnesCount64(u) > bits.OnesCount64(bestSet)) {
					best, bestSet = d, u
				}
			}
			if bestSet == 0 {
				break
			}
			for m := bestSet; m != 0; m &= m - 1 {
				loads[bits.TrailingZeros64(m)] = best
			}
			ports |= bestSet
			for _, g := range live {
				if groups[g].mask&^ports == 0 {
					alive[g] = false
				}
			}
		}
	}
	// How much of each group goes to each port: a flow from groups to
	// ports with the loads as capacities.
	gshare := make([][]float64, len(groups))
	{
		n := len(groups) + np + 2
		src, sink := n-2, n-1
		capm := make([][]float64, n)
		for i := range capm {
			capm[i] = make([]float64, n)
		}
		for g, gr := range groups {
			capm[src][g] = gr.cycles
			for m := gr.mask; m != 0; m &= m - 1 {
				capm[g][len(groups)+bits.TrailingZeros64(m)] = math.Inf(1)
			}
		}
		for p := 0; p < np; p++ {
			capm[len(groups)+p][sink] = loads[p] * (1 + 1e-12)
		}
		flow := make([][]float64, n)
		for i := range flow {
			flow[i] = make([]float64, n)
		}
		prev := make([]int, n)
		for {
			for i := range prev {
				prev[i] = -1
			}
			prev[src] = src
			q := []int{src}
			for len(q) > 0 && prev[sink] < 0 {
				v := q[0]
				q = q[1:]
				for w := 0; w < n; w++ {
					if prev[w] < 0 && capm[v][w]-flow[v][w] > 1e-12 {
						prev[w] = v
						q = append(q, w)
					}
				}
			}
			if prev[sink] < 0 {
				break
			}
			aug := math.Inf(1)
			for w := sink; w != src; w = prev[w] {
				aug = math.Min(aug, capm[prev[w]][w]-flow[prev[w]][w])
			}
			for w := sink; w != src; w = prev[w] {
				flow[prev[w]][w] += aug
				flow[w][prev[w]] -= aug
			}
		}
		for g := range groups {
			gshare[g] = make([]float64, np)
			for p := 0; p < np; p++ {
				gshare[g][p] = math.Max(0, flow[g][len(groups)+p])
			}
		}
	}
	out := make([][]float64, len(k.Instrs))
	for i, x := range k.Instrs {
		out[i] = make([]float64, np)
		for j, u := range x.Pressure {
			m := masks[i][j]
			if m == 0 || u.Cycles <= 0 {
				continue
			}
			g := gi[m]
			for p, v := range gshare[g] {
				out[i][p] += v * u.Cycles / groups[g].cycles
			}
		}
	}
	for p := range total {
		total[p] = 0
		for i := range out {
			total[p] += out[i][p]
		}
	}
	return out
}

// criticalPath finds the longest dependency path through one iteration:
// the time from the iteration's start until each instruction has its
// inputs, plus its latency.
func (s *Static) criticalPath(k *Kernel, edges []depEdge) {
	n := len(k.Instrs)
	dist := make([]float64, n)
	prev := make([]int, n)
	for i := range prev {
		prev[i] = -1
	}
	in := make([][]depEdge, n)
	for _, e := range edges {
		if e.Dist == 0 {
			in[e.To] = append(in[e.To], e)
		}
	}
	for j := 0; j < n; j++ {
		for _, e := range in[j] {
			if d := dist[e.From] + e.Weight; d > dist[j] || (d == dist[j] && prev[j] < 0 && d > 0) {
				dist[j], prev[j] = d, e.From
			}
		}
	}
	best, end := -1.0, -1
	for j := 0; j < n; j++ {
		if t := dist[j] + float64(k.Instrs[j].Latency); t > best {
			best, end = t, j
		}
	}
	if end < 0 {
		return
	}
	s.CriticalPathLatency = best
	for j := end; j >= 0; j = prev[j] {
		s.CriticalPath = append([]int{j}, s.CriticalPath...)
	}
}

// chains finds, for every instruction, the longest dependency path to
// itself one iteration later, and keeps the distinct ones.
func (s *Static) chains(k *Kernel, edges []depEdge) {
	n := len(k.Instrs)
	out := make([][]depEdge, n)
	for _, e := range edges {
		out[e.From] = append(out[e.From], e)
	}
	// Nodes of the two-iteration unrolling: i (iteration 0), n+i (1).
	seen := map[string]int{}
	for src := 0; src < n; src++ {
		dist := make([]float64, 2*n)
		prev := make([]int, 2*n)
		via := make([]string, 2*n)
		for i := range dist {
			dist[i] = math.Inf(-1)
			prev[i] = -1
		}
		dist[src] = 0
		for v := src; v < n+src; v++ {
			if math.IsInf(dist[v], -1) {
				continue
			}
			it, i := v/n, v%n
			for _, e := range out[i] {
				w := (it+e.Dist)*n + e.To
				if w > n+src || (it+e.Dist) > 1 {
					continue
				}
				if d := dist[v] + e.Weight; d > dist[w] {
					dist[w], prev[w], via[w] = d, v, e.Via
				}
			}
		}
		t := n + src
		if math.IsInf(dist[t], -1) {
			continue
		}
		var c Chain
		c.Latency, c.Iterations = dist[t], 1
		for v := t; v != src; v = prev[v] {
			c.Instrs = append([]int{prev[v] % n}, c.Instrs...)
			c.Via = append([]string{via[v]}, c.Via...)
		}
		// Rotate so that the chain starts at its first instruction.
		lo := 0
		for i, x := range c.Instrs {
			if x < c.Instrs[lo] {
				lo = i
			}
		}
		c.Instrs = append(c.Instrs[lo:], c.Instrs[:lo]...)
		c.Via = append(c.Via[lo:], c.Via[:lo]...)
		key := fmt.Sprint(c.Instrs)
		if j, ok := seen[key]; ok {
			if c.Latency > s.Chains[j].Latency {
				s.Chains[j] = c
			}
			continue
		}
		seen[key] = len(s.Chains)
		s.Chains = append(s.Chains, c)
	}
	sort.SliceStable(s.Chains, func(i, j int) bool {
		if s.Chains[i].Latency != s.Chains[j].Latency {
			return s.Chains[i].Latency > s.Chains[j].Latency
		}
		return s.Chains[i].Instrs[0] < s.Chains[j].Instrs[0]
	})
}

// maxCycleRatio returns the largest latency per iteration of any cycle of
// the dependency graph (weight over iteration distance), found by
// bisection with Bellman-Ford and made exact from the cycle it finds.
func maxCycleRatio(n int, edges []depEdge) float64 {
	hasCarried := false
	hi := 0.0
	for _, e := range edges {
		if e.Dist > 0 {
			hasCarried = true
		}
		hi += e.Weight
	}
	if !hasCarried || n == 0 {
		return 0
	}
	// positive reports whether some cycle has weight - lambda*dist > 0,
	// and returns the nodes of one such cycle.
	positive := func(lambda float64) (bool, []depEdge) {
		d := make([]float64, n)
		pe := make([]int, n)
		for i := range pe {
			pe[i] = -1
		}
		last := -1
		for it := 0; it < n; it++ {
			last = -1
			for ei, e := range edges {
				w := e.Weight - lambda*float64(e.Dist)
				if d[e.From]+w > d[e.To]+1e-12 {
					d[e.To] = d[e.From] + w
					pe[e.To] = ei
					last = e.To
				}
			}
			if last < 0 {
				return false, nil
			}
		}
		// last is on or behind a positive cycle: walk back n steps.
		v := last
		for i := 0; i < n; i++ {
			v = edges[pe[v]].From
		}
		var cyc []depEdge
		for u := v; ; {
			e := edges[pe[u]]
			cyc = append(cyc, e)
			u = e.From
			if u == v || len(cyc) > n {
				break
			}
		}
		return true, cyc
	}
	lo := 0.0
	hi += 1
	var best []depEdge
	for it := 0; it < 60 && hi-lo > 1e-9; it++ {
		mid := (lo + hi) / 2
		ok, cyc := positive(mid)
		if ok {
			lo = mid
			best = cyc
		} else {
			hi = mid
		}
	}
	if best == nil {
		if ok, cyc := positive(0); ok {
			best = cyc
		} else {
			return 0
		}
	}
	w, d := 0.0, 0
	for _, e := range best {
		w += e.Weight
		d += e.Dist
	}
	if d == 0 {
		return lo
	}
	return math.Max(w/float64(d), lo)
}
