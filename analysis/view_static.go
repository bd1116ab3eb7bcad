package analysis

import (
	"fmt"
	"io"
	"strings"
)

// staticView prints the static analysis (OSACA's report): the bound and
// what sets it, the port pressure of an optimal balancing, the critical
// path and the loop-carried dependencies.
type staticView struct{}

func (*staticView) Name() string { return "StaticAnalysis" }

func (*staticView) PrintText(w io.Writer, r *Report) {
	s := r.Static
	k := r.Kernel
	var sb strings.Builder
	sb.WriteString("\n\nStatic Analysis (one iteration in steady state):\n")
	fmt.Fprintf(&sb, "Predicted bound:       %s cycles/iteration: %s\n", fmt2(s.Bound), s.Bottleneck)
	fmt.Fprintf(&sb, "  Port bound:          %s", fmt2(s.PortBound))
	if len(s.Busiest) > 0 {
		fmt.Fprintf(&sb, " (busiest: %s)", strings.Join(s.Busiest, ", "))
	}
	fmt.Fprintf(&sb, "\n  Dispatch bound:      %s (%d uOps, %d per cycle)\n", fmt2(s.DispatchBound), s.Uops, s.DispatchWidth)
	fmt.Fprintf(&sb, "  Loop-carried bound:  %s\n", fmt2(s.LCDBound))
	if s.FormBoundOf != "" {
		fmt.Fprintf(&sb, "  Throughput bound:    %s (%s)\n", fmt2(s.FormBound), s.FormBoundOf)
	}
	if s.StoreCommit != "" && s.StoreCommitBound > 0 { // the model has the rule and the kernel stores
		fmt.Fprintf(&sb, "  Store commit bound:  %s (%s)\n", fmt2(s.StoreCommitBound), s.StoreCommit)
	}
	if r.Simulated {
		fmt.Fprintf(&sb, "Simulated:             %s cycles/iteration (%d iterations)\n", fmt2(r.CyclesPerIteration()), r.Iterations)
	}
	if len(s.CriticalPath) > 0 {
		var ids []string
		for _, i := range s.CriticalPath {
			ids = append(ids, fmt.Sprint(i))
		}
		fmt.Fprintf(&sb, "Critical path:         %s cycles through one iteration: %s\n", fmt2(s.CriticalPathLatency), strings.Join(ids, " -> "))
	}
	onCP := map[int]bool{}
	for _, i := range s.CriticalPath {
		onCP[i] = true
	}
	onLCD := map[int]bool{}
	if len(s.Chains) > 0 {
		for _, i := range s.Chains[0].Instrs {
			onLCD[i] = true
		}
	}
	sb.WriteString("\nPort pressure in cycles per iteration (optimal balancing of every uOp over its ports):\n")
	printColumnNames(&sb, len(k.Ports))
	sb.WriteString("CP  LCD  Instructions:\n")
	mark := func(b bool) string {
		if b {
			return "X"
		}
		return " "
	}
	for i, x := range k.Instrs {
		start := sb.Len()
		for p := range k.Ports {
			printPressureCell(&sb, start, s.PerInstr[i][p], (p+1)*7)
		}
		fmt.Fprintf(&sb, " %s   %s   %s", mark(onCP[i]), mark(onLCD[i]), x.Text)
		if x.Idiom != "" {
			fmt.Fprintf(&sb, "   # %s", x.Idiom)
		}
		sb.WriteString("\n")
	}
	start := sb.Len()
	for p := range k.Ports {
		printPressureCell(&sb, start, s.Total[p], (p+1)*7)
	}
	sb.WriteString("          Total\n")
	if len(s.Chains) > 0 {
		sb.WriteString("\nLoop-carried dependencies (cycles per iteration, chain):\n")
		for i, c := range s.Chains {
			if i == 8 {
				fmt.Fprintf(&sb, " ... and %d more\n", len(s.Chains)-i)
				break
			}
			fmt.Fprintf(&sb, " %6s   %s\n", fmt2(c.Latency/float64(c.Iterations)), c.Describe(k))
		}
		if best := s.Chains[0].Latency / float64(s.Chains[0].Iterations); s.LCDBound > best*(1+1e-9) {
			fmt.Fprintf(&sb, " %6s   a dependency cycle spanning several iterations\n", fmt2(s.LCDBound))
		}
	} else {
		sb.WriteString("\nNo loop-carried dependencies.\n")
	}
	io.WriteString(w, sb.String())
}

func (*staticView) JSON(r *Report) any {
	s := r.Static
	var chains []map[string]any
	for _, c := range s.Chains {
		chains = append(chains, map[string]any{"Instructions": c.Instrs, "Via": c.Via, "Latency": c.Latency,
			"Iterations": c.Iterations})
	}
	var per []map[string]any
	for i := range s.PerInstr {
		for p, v := range s.PerInstr[i] {
			if v > 0 {
				per = append(per, map[string]any{"InstructionIndex": i, "ResourceIndex": p, "ResourceUsage": v})
			}
		}
	}
	return map[string]any{
		"Bound": s.Bound, "Bottleneck": s.Bottleneck, "PortBound": s.PortBound, "BusiestPorts": s.Busiest,
		"DispatchBound": s.DispatchBound, "Uops": s.Uops, "LoopCarriedBound": s.LCDBound,
		"ThroughputBound": s.FormBound, "ThroughputBoundForm": s.FormBoundOf, "StoreCommitBound": s.StoreCommitBound,
		"CriticalPath": s.CriticalPath, "CriticalPathLatency": s.CriticalPathLatency,
		"LoopCarriedDependencies": chains, "PortPressure": per, "PortPressureTotal": s.Total,
	}
}
