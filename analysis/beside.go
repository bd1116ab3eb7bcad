package analysis

import (
	"fmt"

	"portlab/modeldb"
)

// besideMulticycle gives the one-cycle vector instructions of a block
// that also runs vector work of modeldb.BesideMinLatency cycles or more
// the model's delay for their width (modeldb.Model.BesideMulticycleDelay),
// scaled by the block's rate of that work (modeldb.BesideShare: such
// instructions per cycle of the block's static bound), as a fraction of
// a cycle on their results (pipeline.InstrDesc.ExtraLatency). Only
// register forms take it; a zero idiom, an eliminable move, a load or a
// store does not, nor an instruction late forwarding already delayed.
func (b *Builder) besideMulticycle(k *Kernel) {
	delay := b.Model.BesideMulticycleDelay
	if len(delay) == 0 {
		return
	}
	slow := 0
	var fast []int
	for i, x := range k.Instrs {
		if x.Idiom != "" || modeldb.VectorDest(x.Form) == "" {
			continue
		}
		if b.vectorWorkOf(x, modeldb.BesideMinLatency) {
			slow++
			continue
		}
		if !x.MayLoad && !x.MayStore && x.Latency == 1 && delay[modeldb.VectorDest(x.Form)] > 0 {
			fast = append(fast, i)
		}
	}
	if slow == 0 || len(fast) == 0 {
		return
	}
	width := b.Model.DispatchWidth
	if width <= 0 {
		width = DefaultDispatchWidth
	}
	st, err := k.Analyze(width)
	if err != nil || st.Bound <= 0 {
		return
	}
	rate := float64(slow) / st.Bound
	share := modeldb.BesideShare(rate)
	if share <= 0 {
		return
	}
	for _, i := range fast {
		x := k.Instrs[i]
		e := min(1, share*delay[modeldb.VectorDest(x.Form)])
		if e < 0.005 {
			continue
		}
		x.Desc.ExtraLatency = e
		k.Notes = append(k.Notes, fmt.Sprintf("%s: %.2f cycle(s) later on average beside %.2f vector instructions of %d cycles or more a cycle (the model's beside_multicycle_delay)",
			oneLine(x.Text), e, rate, modeldb.BesideMinLatency))
	}
}
