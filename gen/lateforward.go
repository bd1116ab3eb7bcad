package gen

import (
	"fmt"

	"portlab/isa"
	"portlab/modeldb"
)

// KindLateForward is a vpaddd accumulator chain of one vector width,
// alone or fed by vpmaddwd (Bench.Operands: modeldb.LateForwardAlone or
// LateForwardFed). On the Emerald Rapids guest the fed zmm chain advanced
// every 3.00 cycles and the ymm one every 1.64, both 1.00 alone: a
// one-cycle vector op reading a multiply-class result directly is late
// (modeldb.Model.LateForwarding). Neither form's own latency or
// throughput can show it.
const KindLateForward = modeldb.LateForwardKind

// lateForwardForms are the chains' forms: the accumulator of each width.
var lateForwardForms = map[string]string{
	"vpaddd xmm, xmm, xmm": "xmm",
	"vpaddd ymm, ymm, ymm": "ymm",
	"vpaddd zmm, zmm, zmm": "zmm",
}

// LateForwardBenches returns, for vpaddd of one vector width without a
// mask, the three late-forwarding chains (KindLateForward): two links a
// copy, each beside an independent vpmaddwd of the same width; fed, each
// link reads that vpmaddwd's result, alone it reads a register nothing
// writes. Both put the same work on the same ports. The third, beside
// two vpmaddwd a link whose results it does not read, measures the
// delay of one-cycle results beside multi-cycle work
// (modeldb.Model.BesideMulticycleDelay). Nil for other forms.
func LateForwardBenches(f *isa.Form) []*Bench {
	w, ok := lateForwardForms[f.Name()]
	if !ok {
		return nil
	}
	r := func(n int) string { return fmt.Sprintf("%s%d", w, n) }
	var out []*Bench
	for _, chain := range []string{modeldb.LateForwardAlone, modeldb.LateForwardFed, modeldb.LateForwardBeside2} {
		var lines []string
		for k, prod := range []int{2, 3} {
			src := prod
			if chain != modeldb.LateForwardFed {
				src = 6 + k // never written: the chain does not wait for vpmaddwd
			}
			lines = append(lines, fmt.Sprintf("vpmaddwd %s, %s, %s", r(prod), r(4), r(5)))
			if chain == modeldb.LateForwardBeside2 {
				lines = append(lines, fmt.Sprintf("vpmaddwd %s, %s, %s", r(10+k), r(4), r(5)))
			}
			lines = append(lines, fmt.Sprintf("vpaddd %s, %s, %s", r(1), r(1), r(src)))
		}
		how := map[string]string{modeldb.LateForwardAlone: "each beside a vpmaddwd (alone)", modeldb.LateForwardFed: "each beside a vpmaddwd (each link reads its result)",
			modeldb.LateForwardBeside2: "each beside two vpmaddwd whose results it does not read"}[chain]
		s := newSnippet(f, "late forwarding "+chain, fmt.Sprintf("late forwarding, %s: a %s accumulator chain of vpaddd, two links a copy, %s",
			w, w, how), lines, 2)
		out = append(out, &Bench{Form: f, Kind: KindLateForward, Operands: chain, Snippet: s, Mode: "latency"})
	}
	return out
}
