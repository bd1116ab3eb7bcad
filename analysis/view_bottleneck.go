package analysis

import (
	"fmt"
	"io"
	"math/bits"
	"sort"
	"strings"

	"portlab/analysis/pipeline"
)

// bottleneckView is llvm-mca's bottleneck analysis: the share of cycles in
// which back-end pressure grew because of busy ports or data
// dependencies, the ports involved, and the critical sequence of
// instructions the simulation found (the dependencies that delayed
// instructions most, followed back until they close a loop).
type bottleneckView struct {
	pipeline.NopListener
	k      *Kernel
	n      int
	cycles int
	seen   bool // dispatch stalled at least once

	res, reg, mem         bool // this cycle
	pressureCycles        int
	resCycles, regCycles  int
	memCycles, dataCycles int
	perPort               []int

	edges map[depKey]*depStat
	execs []int
}

type depKind uint8

const (
	depRegister depKind = iota
	depMemory
	depResource
)

type depKey struct {
	from, to int
	kind     depKind
	carried  bool
	what     uint64 // register unit, or port set
}

type depStat struct {
	count int
	cost  int
}

func newBottleneckView(k *Kernel) *bottleneckView {
	return &bottleneckView{k: k, n: len(k.Instrs), perPort: make([]int, len(k.Ports)),
		edges: map[depKey]*depStat{}, execs: make([]int, len(k.Instrs))}
}

func (*bottleneckView) Name() string { return "BottleneckAnalysis" }

func (v *bottleneckView) StallEvent(*pipeline.StallEvent) { v.seen = true }

func (v *bottleneckView) PressureEvent(e *pipeline.PressureEvent) {
	switch e.Kind {
	case pipeline.PressureResources:
		v.res = true
		for m := e.Units; m != 0; m &= m - 1 {
			if p := bits.TrailingZeros64(m); p < len(v.perPort) {
				v.perPort[p]++
			}
		}
	case pipeline.PressureRegisterDeps:
		v.reg = true
	case pipeline.PressureMemoryDeps:
		v.mem = true
	}
}

func (v *bottleneckView) CycleEnd(int) {
	v.cycles++
	data := v.reg || v.mem
	if !v.res && !data {
		return
	}
	v.pressureCycles++
	if v.reg {
		v.regCycles++
	}
	if v.mem {
		v.memCycles++
	}
	if data {
		v.dataCycles++
	}
	if v.res {
		v.resCycles++
	}
	v.res, v.reg, v.mem = false, false, false
}

func (v *bottleneckView) add(k depKey, cost int) {
	s := v.edges[k]
	if s == nil {
		s = &depStat{}
		v.edges[k] = s
	}
	s.count++
	s.cost += cost
}

func (v *bottleneckView) InstrEvent(e *pipeline.InstrEvent) {
	if e.Kind != pipeline.Issued || e.Eliminated {
		return
	}
	in := e.Inst
	v.execs[in.Pos]++
	if prod, reg, cyc, ok := in.CriticalRegister(); ok && cyc > 1 {
		v.add(depKey{from: prod % v.n, to: in.Pos, kind: depRegister, carried: prod/v.n != in.Iteration, what: uint64(reg)}, cyc-1)
	}
	if m := in.CriticalMemory(); m >= 0 && in.ReadyAt > in.DispatchedAt+1 {
		v.add(depKey{from: m % v.n, to: in.Pos, kind: depMemory, carried: m/v.n != in.Iteration}, in.ReadyAt-in.DispatchedAt-1)
	}
	if units, from := in.CriticalResources(); units != 0 && in.IssuedAt > in.ReadyAt {
		k := depKey{from: in.Pos, to: in.Pos, kind: depResource, what: units}
		if from >= 0 {
			k.from, k.carried = from%v.n, from/v.n != in.Iteration
		}
		v.add(k, in.IssuedAt-in.ReadyAt)
	}
}

func pct(n, d int) string {
	if d == 0 {
		return "0.00"
	}
	return fmt2(float64(n) * 100 / float64(d))
}

func (v *bottleneckView) PrintText(w io.Writer, r *Report) {
	var sb strings.Builder
	// Not llvm-mca's: stores held at retirement by the store commit
	// (model store_commit), which back-end pressure does not show.
	notes := ""
	if held := r.Result.CommitHeld; held > 0 && r.Static != nil {
		notes = fmt.Sprintf("\nStore commit held stores back from retiring in [ %s%% ] of cycles (model store_commit: %s)\n", pct(held, r.Result.Cycles), r.Static.StoreCommit)
	}
	// Not llvm-mca's either: instructions held to their form's own
	// throughput where their ports would run them faster (ownLimit).
	if held := r.Result.OwnHeld; held > 0 {
		notes += fmt.Sprintf("\nForms' own throughput held ready instructions back in [ %s%% ] of cycles (%s)\n", pct(held, r.Result.Cycles), strings.Join(r.ownLimited(), ", "))
	}
	if !v.seen || v.pressureCycles == 0 {
		sb.WriteString("\n\nNo resource or data dependency bottlenecks discovered.\n")
		sb.WriteString(notes)
		io.WriteString(w, sb.String())
		return
	}
	fmt.Fprintf(&sb, "\n\nCycles with backend pressure increase [ %s%% ]", pct(v.pressureCycles, v.cycles))
	fmt.Fprintf(&sb, "\nThroughput Bottlenecks: \n  Resource Pressure       [ %s%% ]", pct(v.resCycles, v.cycles))
	for p, c := range v.perPort {
		if c > 0 {
			fmt.Fprintf(&sb, "\n  - %s  [ %s%% ]", v.k.Ports[p], pct(c, v.cycles))
		}
	}
	fmt.Fprintf(&sb, "\n  Data Dependencies:      [ %s%% ]", pct(v.dataCycles, v.cycles))
	fmt.Fprintf(&sb, "\n  - Register Dependencies [ %s%% ]", pct(v.regCycles, v.cycles))
	fmt.Fprintf(&sb, "\n  - Memory Dependencies   [ %s%% ]\n", pct(v.memCycles, v.cycles))
	sb.WriteString(notes)
	seq := v.criticalSequence()
	if len(seq) > 0 {
		sb.WriteString("\nCritical sequence based on the simulation:\n\n")
		sb.WriteString("              Instruction                                 Dependency Information\n")
		line := func(prefix string, i int, info string) {
			start := sb.Len()
			fmt.Fprintf(&sb, "%s%d.", prefix, i)
			padTo(&sb, start, 14)
			sb.WriteString(r.instText(i))
			if info != "" {
				padTo(&sb, start, 56)
				sb.WriteString("## " + info)
			}
			sb.WriteString("\n")
		}
		first := seq[0].from
		line(" +----< ", first, "")
		for _, e := range seq {
			lo := e.from + 1
			if e.carried || e.to <= e.from {
				for i := e.from + 1; i < v.n; i++ {
					line(" |      ", i, "")
				}
				sb.WriteString(" |\n |    < loop carried > \n |\n")
				lo = 0
			}
			for i := lo; i < e.to; i++ {
				line(" |      ", i, "")
			}
			line(" +----> ", e.to, v.describe(e))
		}
	}
	io.WriteString(w, sb.String())
}

func (v *bottleneckView) describe(k depKey) string {
	s := v.edges[k]
	prob := 0
	if v.execs[k.to] > 0 {
		prob = 100 * s.count / v.execs[k.to]
	}
	switch k.kind {
	case depRegister:
		return "REGISTER dependency:  %" + v.k.Instrs[k.from].regName(int(k.what))
	case depMemory:
		return fmt.Sprintf("MEMORY dependency [ probability: %d%% ]", prob)
	}
	var ports []string
	for m := k.what; m != 0; m &= m - 1 {
		if p := bits.TrailingZeros64(m); p < len(v.k.Ports) {
			ports = append(ports, v.k.Ports[p])
		}
	}
	return fmt.Sprintf("RESOURCE interference:  %s [ probability: %d%% ]", strings.Join(ports, ", "), prob)
}

// criticalSequence follows, from the instruction delayed most, the
// dependency that delayed each instruction most, back until it meets an
// instruction again; it returns the edges in program order of the chain.
func (v *bottleneckView) criticalSequence() []depKey {
	if len(v.edges) == 0 {
		return nil
	}
	// Heaviest incoming data dependency per instruction.
	best := map[int]depKey{}
	delay := make([]int, v.n)
	keys := make([]depKey, 0, len(v.edges))
	for k := range v.edges {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		a, b := keys[i], keys[j]
		if a.to != b.to {
			return a.to < b.to
		}
		if a.from != b.from {
			return a.from < b.from
		}
		if a.kind != b.kind {
			return a.kind < b.kind
		}
		return a.what < b.what
	})
	for _, k := range keys {
		s := v.edges[k]
		delay[k.to] += s.cost
		if k.kind == depResource && k.from == k.to && !k.carried {
			continue // no other instruction to follow
		}
		if b, ok := best[k.to]; !ok || s.cost > v.edges[b].cost {
			best[k.to] = k
		}
	}
	start := -1
	for i, d := range delay {
		if _, ok := best[i]; ok && (start < 0 || d > delay[start]) {
			start = i
		}
	}
	if start < 0 {
		return nil
	}
	var chain []depKey
	visited := map[int]int{}
	for cur := start; ; {
		if at, ok := visited[cur]; ok {
			chain = chain[at:]
			break
		}
		e, ok := best[cur]
		if !ok {
			break
		}
		visited[cur] = len(chain)
		chain = append(chain, e)
		cur = e.from
		if len(chain) > v.n {
			break
		}
	}
	// Reverse into program order, and add the resource interference of
	// each instruction where it is the larger cause.
	for i, j := 0, len(chain)-1; i < j; i, j = i+1, j-1 {
		chain[i], chain[j] = chain[j], chain[i]
	}
	return chain
}

func (v *bottleneckView) JSON(r *Report) any {
	ports := map[string]float64{}
	for p, c := range v.perPort {
		if c > 0 {
			ports[v.k.Ports[p]] = float64(c) / float64(max(v.cycles, 1))
		}
	}
	var seq []map[string]any
	for _, e := range v.criticalSequence() {
		seq = append(seq, map[string]any{"From": e.from, "To": e.to, "LoopCarried": e.carried, "Dependency": v.describe(e)})
	}
	return map[string]any{
		"Cycles": v.cycles, "PressureIncreaseCycles": v.pressureCycles, "ResourcePressureCycles": v.resCycles,
		"DataDependencyCycles": v.dataCycles, "RegisterDependencyCycles": v.regCycles, "MemoryDependencyCycles": v.memCycles,
		"PortPressure": ports, "CriticalSequence": seq, "StoreCommitHeldCycles": r.Result.CommitHeld,
		"OwnThroughputHeldCycles": r.Result.OwnHeld,
	}
}

// ownLimited names the kernel's forms held to their own throughput
// (pipeline.InstrDesc.Own), each once, in kernel order.
func (r *Report) ownLimited() []string {
	seen := map[string]bool{}
	var out []string
	for _, x := range r.Kernel.Instrs {
		if x.Form != nil && x.Desc.Own > 0 && !seen[x.Form.Name()] {
			seen[x.Form.Name()] = true
			out = append(out, fmt.Sprintf("%s at %s cycles", x.Form.Name(), fmt2(x.RThroughput)))
		}
	}
	return out
}
