package analysis

import (
	"fmt"
	"io"
	"math"
	"sort"
	"strings"

	"portlab/analysis/pipeline"
)

// summaryView is llvm-mca's summary: iterations, instructions, cycles,
// uops, dispatch width, uops per cycle, IPC, block reciprocal throughput.
type summaryView struct{}

func (*summaryView) Name() string { return "SummaryView" }

func (*summaryView) PrintText(w io.Writer, r *Report) {
	res := r.Result
	upc, ipc := 0.0, 0.0
	if res.Cycles > 0 {
		upc = float64(res.Uops) / float64(res.Cycles)
		ipc = float64(res.Instructions) / float64(res.Cycles)
	}
	fmt.Fprintf(w, "Iterations:        %d\n", r.Iterations)
	fmt.Fprintf(w, "Instructions:      %d\n", res.Instructions)
	fmt.Fprintf(w, "Total Cycles:      %d\n", res.Cycles)
	fmt.Fprintf(w, "Total uOps:        %d\n\n", res.Uops)
	fmt.Fprintf(w, "Dispatch Width:    %d\n", r.Config.DispatchWidth)
	fmt.Fprintf(w, "uOps Per Cycle:    %s\n", fmt2(upc))
	fmt.Fprintf(w, "IPC:               %s\n", fmt2(ipc))
	fmt.Fprintf(w, "Block RThroughput: %s\n", fmt1(r.BlockRThroughput()))
}

func (*summaryView) JSON(r *Report) any {
	res := r.Result
	m := map[string]any{
		"Iterations": r.Iterations, "Instructions": res.Instructions, "TotalCycles": res.Cycles,
		"TotaluOps": res.Uops, "DispatchWidth": r.Config.DispatchWidth,
		"BlockRThroughput": r.BlockRThroughput(), "CyclesPerIteration": r.CyclesPerIteration(),
	}
	if res.Cycles > 0 {
		m["uOpsPerCycle"] = float64(res.Uops) / float64(res.Cycles)
		m["IPC"] = float64(res.Instructions) / float64(res.Cycles)
	}
	return m
}

// instructionInfoView is llvm-mca's instruction info: uops, latency,
// reciprocal throughput, may load, may store, side effects, encoding.
type instructionInfoView struct{ encoding bool }

func (*instructionInfoView) Name() string { return "InstructionInfoView" }

func (v *instructionInfoView) PrintText(w io.Writer, r *Report) {
	var sb strings.Builder
	sb.WriteString("\n\nInstruction Info:\n")
	sb.WriteString("[1]: #uOps\n[2]: Latency\n[3]: RThroughput\n[4]: MayLoad\n[5]: MayStore\n[6]: HasSideEffects (U)\n")
	if v.encoding {
		sb.WriteString("[7]: Encoding Size\n")
		sb.WriteString("\n[1]    [2]    [3]    [4]    [5]    [6]    [7]    Encodings:                    Instructions:\n")
	} else {
		sb.WriteString("\n[1]    [2]    [3]    [4]    [5]    [6]    Instructions:\n")
	}
	for _, x := range r.Kernel.Instrs {
		fmt.Fprintf(&sb, " %d    ", x.Uops)
		switch {
		case x.Uops < 10:
			sb.WriteString("  ")
		case x.Uops < 100:
			sb.WriteString(" ")
		}
		fmt.Fprintf(&sb, "%d   ", x.Latency)
		switch {
		case x.Latency < 10:
			sb.WriteString("  ")
		case x.Latency < 100:
			sb.WriteString(" ")
		}
		if x.RThroughput > 0 || x.Entry != nil {
			rt := x.RThroughput
			if x.Idiom == "zero idiom" {
				rt = 0
			}
			fmt.Fprintf(&sb, "%.2f ", rt)
			switch {
			case rt < 10:
				sb.WriteString("  ")
			case rt < 100:
				sb.WriteString(" ")
			}
		} else {
			sb.WriteString(" -     ")
		}
		sb.WriteString(star(x.MayLoad))
		sb.WriteString(star(x.MayStore))
		if x.SideEffects {
			sb.WriteString(" U ")
		} else {
			sb.WriteString("   ")
		}
		if v.encoding {
			n := len(x.Encoding)
			if n < 10 {
				fmt.Fprintf(&sb, " %d     ", n)
			} else {
				fmt.Fprintf(&sb, " %d    ", n)
			}
			start := sb.Len()
			if x.Encoding == nil {
				sb.WriteString("?")
			}
			for _, b := range x.Encoding {
				fmt.Fprintf(&sb, "%02x ", b)
			}
			padTo(&sb, start, 30)
		}
		sb.WriteString(x.Text)
		sb.WriteByte('\n')
	}
	io.WriteString(w, sb.String())
}

func star(b bool) string {
	if b {
		return " *     "
	}
	return "       "
}

func (v *instructionInfoView) JSON(r *Report) any {
	var list []map[string]any
	for i, x := range r.Kernel.Instrs {
		e := map[string]any{
			"Instruction": i, "NumMicroOpcodes": x.Uops, "Latency": x.Latency, "RThroughput": x.RThroughput,
			"mayLoad": x.MayLoad, "mayStore": x.MayStore, "hasUnmodeledSideEffects": x.SideEffects,
			"Form": x.Form.Name(),
		}
		if x.Idiom != "" {
			e["Idiom"] = x.Idiom
		}
		if x.Derived != "" {
			e["DerivedFrom"] = x.Derived
		}
		if v.encoding && x.Encoding != nil {
			e["Encoding"] = fmt.Sprintf("% x", x.Encoding)
		}
		list = append(list, e)
	}
	return map[string]any{"InstructionList": list}
}

// pressureView is llvm-mca's resource pressure: the cycles each port was
// busy, per iteration and per instruction, from the issue events.
type pressureView struct {
	pipeline.NopListener
	n     int
	usage [][]float64 // per instruction, per port, in ticks
	execs int
}

func newPressureView(k *Kernel) *pressureView {
	v := &pressureView{n: len(k.Instrs)}
	v.usage = make([][]float64, len(k.Instrs))
	for i := range v.usage {
		v.usage[i] = make([]float64, len(k.Ports))
	}
	return v
}

func (*pressureView) Name() string { return "ResourcePressureView" }

func (v *pressureView) InstrEvent(e *pipeline.InstrEvent) {
	if e.Kind != pipeline.Issued {
		return
	}
	for _, u := range e.Used {
		v.usage[e.Inst.Pos][u.Unit] += float64(u.Ticks)
	}
	if e.Inst.Iteration+1 > v.execs {
		v.execs = e.Inst.Iteration + 1
	}
}

// perIteration returns instruction i's cycles on port p per iteration
// (i == n: all instructions).
func (v *pressureView) perIteration(i, p int) float64 {
	if v.execs == 0 {
		return 0
	}
	if i == v.n {
		s := 0.0
		for j := 0; j < v.n; j++ {
			s += v.usage[j][p]
		}
		return s / pipeline.Scale / float64(v.execs)
	}
	return v.usage[i][p] / pipeline.Scale / float64(v.execs)
}

func printResources(sb *strings.Builder, ports []string) {
	sb.WriteString("\n\nResources:\n")
	for i, p := range ports {
		fmt.Fprintf(sb, "[%d]", i)
		if i < 10 {
			sb.WriteString("   ")
		} else {
			sb.WriteString("  ")
		}
		sb.WriteString("- " + p + "\n")
	}
}

func printColumnNames(sb *strings.Builder, n int) {
	start := lineStart(sb)
	for i := 0; i < n; i++ {
		fmt.Fprintf(sb, "[%d]", i)
		padTo(sb, start, (i+1)*7)
	}
}

func lineStart(sb *strings.Builder) int {
	s := sb.String()
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		return i + 1
	}
	return 0
}

func printPressureCell(sb *strings.Builder, start int, v float64, col int) {
	if v < 0.005 {
		sb.WriteString(" - ")
	} else {
		sb.WriteString(fmt2(v))
	}
	padTo(sb, start, col)
}

func (v *pressureView) PrintText(w io.Writer, r *Report) {
	var sb strings.Builder
	ports := r.Kernel.Ports
	printResources(&sb, ports)
	sb.WriteString("\n\nResource pressure per iteration:\n")
	printColumnNames(&sb, len(ports))
	sb.WriteString("\n")
	start := sb.Len()
	for p := range ports {
		printPressureCell(&sb, start, v.perIteration(v.n, p), (p+1)*7)
	}
	sb.WriteString("\n\nResource pressure by instruction:\n")
	printColumnNames(&sb, len(ports))
	sb.WriteString("Instructions:\n")
	for i := 0; i < v.n; i++ {
		start := sb.Len()
		for p := range ports {
			printPressureCell(&sb, start, v.perIteration(i, p), (p+1)*7)
		}
		sb.WriteString(r.instText(i) + "\n")
	}
	io.WriteString(w, sb.String())
}

func (v *pressureView) JSON(r *Report) any {
	var info []map[string]any
	for i := 0; i <= v.n; i++ {
		for p := range r.Kernel.Ports {
			if u := v.perIteration(i, p); u > 0 {
				info = append(info, map[string]any{"InstructionIndex": i, "ResourceIndex": p, "ResourceUsage": u})
			}
		}
	}
	return map[string]any{"ResourcePressureInfo": info}
}

// instructionTablesView prints each instruction's port pressure from the
// model, without simulation (llvm-mca -instruction-tables).
type instructionTablesView struct{}

func (*instructionTablesView) Name() string { return "InstructionTablesView" }

func (*instructionTablesView) PrintText(w io.Writer, r *Report) {
	var sb strings.Builder
	k := r.Kernel
	printResources(&sb, k.Ports)
	sb.WriteString("\n\nResource pressure per iteration:\n")
	printColumnNames(&sb, len(k.Ports))
	sb.WriteString("\n")
	start := sb.Len()
	for p := range k.Ports {
		printPressureCell(&sb, start, r.Static.Total[p], (p+1)*7)
	}
	sb.WriteString("\n\nResource pressure by instruction:\n")
	printColumnNames(&sb, len(k.Ports))
	sb.WriteString("Instructions:\n")
	for i := range k.Instrs {
		start := sb.Len()
		for p := range k.Ports {
			printPressureCell(&sb, start, r.Static.PerInstr[i][p], (p+1)*7)
		}
		sb.WriteString(k.Instrs[i].Text + "\n")
	}
	io.WriteString(w, sb.String())
}

func (*instructionTablesView) JSON(r *Report) any {
	var info []map[string]any
	for i := range r.Kernel.Instrs {
		for p := range r.Kernel.Ports {
			if u := r.Static.PerInstr[i][p]; u > 0 {
				info = append(info, map[string]any{"InstructionIndex": i, "ResourceIndex": p, "ResourceUsage": u})
			}
		}
	}
	return map[string]any{"ResourcePressureInfo": info}
}

// timelineView is llvm-mca's timeline: per instruction of the first
// iterations, the cycles it was dispatched (D), waited (=), executed (e,
// E), waited to retire (-) and retired (R); and the average wait times.
type timelineView struct {
	pipeline.NopListener
	n, maxIters, maxCycles int
	entries                []tlEntry
	last                   int
	wait                   []waitEntry
}

type tlEntry struct {
	dispatched, ready, issued, executed, retired int
}

type waitEntry struct {
	inQueue, whileReady, afterWB int
}

func newTimelineView(k *Kernel, iters, cycles int) *timelineView {
	v := &timelineView{n: len(k.Instrs), maxIters: iters, maxCycles: cycles}
	v.entries = make([]tlEntry, iters*len(k.Instrs))
	for i := range v.entries {
		v.entries[i].dispatched = -1
	}
	v.wait = make([]waitEntry, len(k.Instrs))
	return v
}

func (*timelineView) Name() string { return "TimelineView" }

func (v *timelineView) InstrEvent(e *pipeline.InstrEvent) {
	idx := e.Inst.Index
	if idx >= len(v.entries) {
		return
	}
	t := &v.entries[idx]
	c := e.Cycle
	switch e.Kind {
	case pipeline.Retired:
		if c < v.maxCycles {
			t.retired = c // else left at 0: the display stops before it
		}
		w := &v.wait[idx%v.n]
		w.inQueue += t.issued - t.dispatched
		w.whileReady += t.issued - t.ready
		if c > t.executed {
			w.afterWB += c - 1 - t.executed
		}
	case pipeline.Ready:
		t.ready = c
	case pipeline.Issued:
		t.issued = c
	case pipeline.Executed:
		t.executed = c
	case pipeline.Dispatched:
		if t.dispatched == -1 {
			t.dispatched = c
		}
	default:
		return
	}
	if c < v.maxCycles {
		v.last = max(v.last, c)
	}
}

func (v *timelineView) PrintText(w io.Writer, r *Report) {
	var sb strings.Builder
	sb.WriteString("\n\nTimeline view:\n")
	if v.last >= 10 {
		sb.WriteString("          ")
		for i := 0; i <= v.last; i++ {
			if (i/10)&1 == 0 {
				sb.WriteByte(' ')
			} else {
				fmt.Fprintf(&sb, "%d", i%10)
			}
		}
		sb.WriteByte('\n')
	}
	sb.WriteString("Index     ")
	for i := 0; i <= v.last; i++ {
		if (i/10)&1 == 0 {
			fmt.Fprintf(&sb, "%d", i%10)
		} else {
			sb.WriteByte(' ')
		}
	}
	sb.WriteByte('\n')
	for idx, t := range v.entries {
		it, si := idx/v.n, idx%v.n
		if t.retired == 0 && t.executed != 0 || t.dispatched < 0 {
			sb.WriteString("Truncated display due to cycle limit\n")
			break
		}
		if idx == 0 {
			sb.WriteByte('\n')
		}
		start := sb.Len()
		fmt.Fprintf(&sb, "[%d,%d]", it, si)
		padTo(&sb, start, 10)
		for i := 0; i < t.dispatched; i++ {
			if i%5 == 0 {
				sb.WriteByte('.')
			} else {
				sb.WriteByte(' ')
			}
		}
		sb.WriteByte('D')
		if t.dispatched != t.executed {
			for i := t.dispatched + 1; i < t.issued; i++ {
				sb.WriteByte('=')
			}
			if t.issued == t.executed {
				sb.WriteByte('E')
			} else {
				if t.dispatched != t.issued {
					sb.WriteByte('e')
				}
				for i := t.issued + 1; i < t.executed; i++ {
					sb.WriteByte('e')
				}
				sb.WriteByte('E')
			}
		}
		for i := t.executed + 1; i < t.retired; i++ {
			sb.WriteByte('-')
		}
		if t.executed < t.retired {
			sb.WriteByte('R')
		}
		for i := t.retired + 1; i <= v.last; i++ {
			if i%5 == 0 || i == v.last {
				sb.WriteByte('.')
			} else {
				sb.WriteByte(' ')
			}
		}
		sb.WriteString("   " + r.instText(si) + "\n")
	}
	// Average wait times.
	sb.WriteString("\n\nAverage Wait times (based on the timeline view):\n" +
		"[0]: Executions\n" +
		"[1]: Average time spent waiting in a scheduler's queue\n" +
		"[2]: Average time spent waiting in a scheduler's queue while ready\n" +
		"[3]: Average time elapsed from WB until retire stage\n\n" +
		"      [0]    [1]    [2]    [3]\n")
	execs := len(v.entries) / max(v.n, 1)
	row := func(label string, we waitEntry, div int) {
		start := sb.Len()
		sb.WriteString(label)
		padTo(&sb, start, 7)
		fmt.Fprintf(&sb, "%d", execs)
		padTo(&sb, start, 13)
		d := float64(max(div, 1))
		sb.WriteString(fmt1(float64(we.inQueue) / d))
		padTo(&sb, start, 20)
		sb.WriteString(fmt1(float64(we.whileReady) / d))
		padTo(&sb, start, 27)
		sb.WriteString(fmt1(float64(we.afterWB) / d))
		padTo(&sb, start, 34)
	}
	var tot waitEntry
	for i, we := range v.wait {
		row(fmt.Sprintf("%d.", i), we, execs)
		sb.WriteString("   " + r.instText(i) + "\n")
		tot.inQueue += we.inQueue
		tot.whileReady += we.whileReady
		tot.afterWB += we.afterWB
	}
	if v.n != 1 {
		row("", tot, len(v.entries))
		sb.WriteString("   <total>\n")
	}
	io.WriteString(w, sb.String())
}

func (v *timelineView) JSON(r *Report) any {
	var info []map[string]any
	for _, t := range v.entries {
		info = append(info, map[string]any{"CycleDispatched": t.dispatched, "CycleReady": t.ready,
			"CycleIssued": t.issued, "CycleExecuted": t.executed, "CycleRetired": t.retired})
	}
	return map[string]any{"TimelineInfo": info}
}

// histogram prints llvm-mca's "[# x], [# cycles]" tables.
func histogram(sb *strings.Builder, h map[int]int, cycles int, sep func(k int) string, rounded bool) {
	keys := make([]int, 0, len(h))
	for k := range h {
		keys = append(keys, k)
	}
	sort.Ints(keys)
	for _, k := range keys {
		p := float64(h[k]) / float64(max(cycles, 1)) * 100
		if rounded {
			// llvm-mca rounds the dispatch histogram's share first.
			p = math.Floor(p*10+0.5) / 10
		}
		fmt.Fprintf(sb, " %d%s%d  (%.1f%%)\n", k, sep(k), h[k], p)
	}
}

// dispatchStats is llvm-mca's dispatch statistics: stall cycles by cause
// and the micro-ops dispatched per cycle.
type dispatchStats struct {
	pipeline.NopListener
	stalls     [pipeline.NumStallKinds]int
	dispatched int
	perCycle   map[int]int
	cycles     int
}

func newDispatchStats() *dispatchStats { return &dispatchStats{perCycle: map[int]int{}} }

func (*dispatchStats) Name() string { return "DispatchStatistics" }

func (v *dispatchStats) InstrEvent(e *pipeline.InstrEvent) {
	if e.Kind == pipeline.Dispatched {
		v.dispatched += e.Uops
	}
}
func (v *dispatchStats) StallEvent(e *pipeline.StallEvent) { v.stalls[e.Kind]++ }
func (v *dispatchStats) CycleEnd(int) {
	v.perCycle[v.dispatched]++
	v.dispatched = 0
	v.cycles++
}

func (v *dispatchStats) PrintText(w io.Writer, r *Report) {
	var sb strings.Builder
	st := func(n int) string {
		if n == 0 {
			return "0"
		}
		return fmt.Sprintf("%d  (%.1f%%)", n, float64(n)/float64(max(v.cycles, 1))*100)
	}
	sb.WriteString("\n\nDynamic Dispatch Stall Cycles:\n")
	sb.WriteString("RAT     - Register unavailable:                      " + st(v.stalls[pipeline.StallRegisterFile]))
	sb.WriteString("\nRCU     - Retire tokens unavailable:                 " + st(v.stalls[pipeline.StallRetireUnit]))
	sb.WriteString("\nSCHEDQ  - Scheduler full:                            " + st(v.stalls[pipeline.StallScheduler]))
	sb.WriteString("\nLQ      - Load queue full:                           " + st(v.stalls[pipeline.StallLoadQueue]))
	sb.WriteString("\nSQ      - Store queue full:                          " + st(v.stalls[pipeline.StallStoreQueue]))
	sb.WriteString("\nGROUP   - Static restrictions on the dispatch group: " + st(v.stalls[pipeline.StallDispatchGroup]))
	sb.WriteString("\nUSH     - Uncategorised Structural Hazard:           0\n")
	sb.WriteString("\n\nDispatch Logic - number of cycles where we saw N micro opcodes dispatched:\n[# dispatched], [# cycles]\n")
	histogram(&sb, v.perCycle, v.cycles, func(int) string { return ",              " }, true)
	io.WriteString(w, sb.String())
}

func (v *dispatchStats) JSON(r *Report) any {
	m := map[string]any{}
	for k := pipeline.StallKind(0); k < pipeline.NumStallKinds; k++ {
		m[k.String()] = v.stalls[k]
	}
	m["USH"] = 0
	hist := map[string]int{}
	for k, c := range v.perCycle {
		hist[fmt.Sprint(k)] = c
	}
	m["DispatchedPerCycle"] = hist
	return m
}

// schedulerStats is llvm-mca's scheduler statistics: micro-ops issued per
// cycle and the schedulers' occupancy.
type schedulerStats struct {
	pipeline.NopListener
	cfg      *pipeline.Config
	issued   int
	perCycle map[int]int
	cycles   int
	inUse    []int
	sum      []int
	maxUsed  []int
}

func newSchedulerStats(cfg *pipeline.Config) *schedulerStats {
	n := len(cfg.Schedulers)
	return &schedulerStats{cfg: cfg, perCycle: map[int]int{}, inUse: make([]int, n), sum: make([]int, n), maxUsed: make([]int, n)}
}

func (*schedulerStats) Name() string { return "SchedulerStatistics" }

func (v *schedulerStats) InstrEvent(e *pipeline.InstrEvent) {
	if e.Kind == pipeline.Issued {
		v.issued += e.Inst.Desc().Uops
	}
}

func (v *schedulerStats) BufferEvent(e *pipeline.BufferEvent) {
	for i := range v.inUse {
		if e.Buffers&(1<<i) == 0 {
			continue
		}
		if e.Reserved {
			v.inUse[i]++
			v.maxUsed[i] = max(v.maxUsed[i], v.inUse[i])
		} else {
			v.inUse[i]--
		}
	}
}

func (v *schedulerStats) CycleEnd(int) {
	v.perCycle[v.issued]++
	v.issued = 0
	v.cycles++
	for i := range v.inUse {
		v.sum[i] += v.inUse[i]
	}
}

func (v *schedulerStats) PrintText(w io.Writer, r *Report) {
	var sb strings.Builder
	sb.WriteString("\n\nSchedulers - number of cycles where we saw N micro opcodes issued:\n[# issued], [# cycles]\n")
	histogram(&sb, v.perCycle, v.cycles, func(int) string { return ",          " }, false)
	sb.WriteString("\nScheduler's queue usage:\n")
	used := false
	for _, m := range v.maxUsed {
		if m > 0 {
			used = true
		}
	}
	if !used {
		sb.WriteString("No scheduler resources used.\n")
		io.WriteString(w, sb.String())
		return
	}
	sb.WriteString("[1] Resource name.\n[2] Average number of used buffer entries.\n[3] Maximum number of used buffer entries.\n[4] Total number of buffer entries.\n\n [1]            [2]        [3]        [4]\n")
	for i, b := range v.cfg.Schedulers {
		start := sb.Len()
		sb.WriteString(b.Name)
		padTo(&sb, start, 17)
		fmt.Fprintf(&sb, "%d", int(float64(v.sum[i])/float64(max(v.cycles, 1))+0.05))
		padTo(&sb, start, 28)
		fmt.Fprintf(&sb, "%d", v.maxUsed[i])
		padTo(&sb, start, 39)
		fmt.Fprintf(&sb, "%d\n", b.Size)
	}
	io.WriteString(w, sb.String())
}

func (v *schedulerStats) JSON(r *Report) any {
	hist := map[string]int{}
	for k, c := range v.perCycle {
		hist[fmt.Sprint(k)] = c
	}
	var qs []map[string]any
	for i, b := range v.cfg.Schedulers {
		qs = append(qs, map[string]any{"Name": b.Name, "AverageUsed": float64(v.sum[i]) / float64(max(v.cycles, 1)),
			"MaxUsed": v.maxUsed[i], "Size": b.Size})
	}
	return map[string]any{"IssuedPerCycle": hist, "Queues": qs}
}

// retireStats is llvm-mca's retire control unit statistics.
type retireStats struct {
	pipeline.NopListener
	cfg              *pipeline.Config
	retired          int
	perCycle         map[int]int
	cycles           int
	inUse, sum, maxU int
}

func newRetireStats(cfg *pipeline.Config) *retireStats {
	return &retireStats{cfg: cfg, perCycle: map[int]int{}}
}

func (*retireStats) Name() string { return "RetireControlUnitStatistics" }

func (v *retireStats) InstrEvent(e *pipeline.InstrEvent) {
	switch e.Kind {
	case pipeline.Dispatched:
		v.inUse += e.Uops
	case pipeline.Retired:
		v.inUse -= e.Inst.Desc().Uops
		v.retired++
	}
}

func (v *retireStats) CycleEnd(int) {
	v.perCycle[v.retired]++
	v.retired = 0
	v.cycles++
	v.sum += v.inUse
	v.maxU = max(v.maxU, v.inUse)
}

func (v *retireStats) PrintText(w io.Writer, r *Report) {
	var sb strings.Builder
	sb.WriteString("\n\nRetire Control Unit - number of cycles where we saw N instructions retired:\n[# retired], [# cycles]\n")
	histogram(&sb, v.perCycle, v.cycles, func(k int) string {
		if k < 10 {
			return ",           "
		}
		return ",          "
	}, false)
	total := v.cfg.ROBSize
	avg := v.sum / max(v.cycles, 1)
	fmt.Fprintf(&sb, "\nTotal ROB Entries:                %d", total)
	fmt.Fprintf(&sb, "\nMax Used ROB Entries:             %d  ( %s%% )", v.maxU, fmt1(float64(v.maxU)/float64(total)*100))
	fmt.Fprintf(&sb, "\nAverage Used ROB Entries per cy:  %d  ( %s%% )\n", avg, fmt1(float64(avg)/float64(total)*100))
	io.WriteString(w, sb.String())
}

func (v *retireStats) JSON(r *Report) any {
	hist := map[string]int{}
	for k, c := range v.perCycle {
		hist[fmt.Sprint(k)] = c
	}
	return map[string]any{"RetiredPerCycle": hist, "ROBSize": v.cfg.ROBSize, "MaxUsedROBEntries": v.maxU,
		"AverageUsedROBEntries": float64(v.sum) / float64(max(v.cycles, 1))}
}

// registerFileStats is llvm-mca's register file statistics, plus move
// elimination.
type registerFileStats struct {
	pipeline.NopListener
	cfg                *pipeline.Config
	total, cur, maxU   []int // per file, the total last
	candidates, elim   int
	elimCycle, maxElim int
	lastCycle          int
}

func newRegisterFileStats(cfg *pipeline.Config) *registerFileStats {
	n := len(cfg.RegisterFiles) + 1
	return &registerFileStats{cfg: cfg, total: make([]int, n), cur: make([]int, n), maxU: make([]int, n)}
}

func (*registerFileStats) Name() string { return "RegisterFileStatistics" }

func (v *registerFileStats) InstrEvent(e *pipeline.InstrEvent) {
	switch e.Kind {
	case pipeline.Dispatched:
		if e.Inst.DispatchedAt != e.Cycle {
			return // a later part of a wide instruction
		}
		if e.Inst.Desc().OptimizableMove {
			v.candidates++
			if e.Eliminated {
				v.elim++
				if e.Cycle != v.lastCycle {
					v.elimCycle, v.lastCycle = 0, e.Cycle
				}
				v.elimCycle++
				v.maxElim = max(v.maxElim, v.elimCycle)
			}
		}
		for i, n := range e.Regs {
			v.total[i] += n
			v.cur[i] += n
			v.maxU[i] = max(v.maxU[i], v.cur[i])
		}
	case pipeline.Retired:
		for i, n := range e.Regs {
			v.cur[i] -= n
		}
	}
}

func (v *registerFileStats) PrintText(w io.Writer, r *Report) {
	var sb strings.Builder
	all := len(v.total) - 1
	sb.WriteString("\n\nRegister File statistics:")
	fmt.Fprintf(&sb, "\nTotal number of mappings created:    %d", v.total[all])
	fmt.Fprintf(&sb, "\nMax number of mappings used:         %d\n", v.maxU[all])
	if v.cfg.TotalRegisters > 0 {
		fmt.Fprintf(&sb, "Number of physical registers:        %d\n", v.cfg.TotalRegisters)
	}
	for i, f := range v.cfg.RegisterFiles {
		fmt.Fprintf(&sb, "\n*  Register File #%d -- %s:", i+1, f.Name)
		sb.WriteString("\n   Number of physical registers:     ")
		if f.Size == 0 {
			sb.WriteString("unbounded")
		} else {
			fmt.Fprintf(&sb, "%d", f.Size)
		}
		fmt.Fprintf(&sb, "\n   Total number of mappings created: %d", v.total[i])
		fmt.Fprintf(&sb, "\n   Max number of mappings used:      %d\n", v.maxU[i])
	}
	if v.candidates > 0 {
		fmt.Fprintf(&sb, "\n   Number of optimizable moves:      %d", v.candidates)
		fmt.Fprintf(&sb, "\n   Number of moves eliminated:       %d  (%s%%)", v.elim, fmt1(float64(v.elim)/float64(v.candidates)*100))
		fmt.Fprintf(&sb, "\n   Max moves eliminated per cycle:   %d\n", v.maxElim)
	}
	io.WriteString(w, sb.String())
}

func (v *registerFileStats) JSON(r *Report) any {
	all := len(v.total) - 1
	var files []map[string]any
	for i, f := range v.cfg.RegisterFiles {
		files = append(files, map[string]any{"Name": f.Name, "Size": f.Size, "Mappings": v.total[i], "MaxUsed": v.maxU[i]})
	}
	return map[string]any{"Mappings": v.total[all], "MaxUsed": v.maxU[all], "Files": files,
		"MoveCandidates": v.candidates, "MovesEliminated": v.elim}
}
