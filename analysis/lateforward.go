package analysis

import (
	"fmt"
	"strings"

	"portlab/modeldb"
)

// lateForward gives a one-cycle vector instruction that reads a result of
// a multiply-class vector instruction (modeldb.LateForwardMinLatency
// cycles or more of execution) directly the model's late-forwarding
// cycles on its own results (modeldb.Model.LateForwarding), by its
// width; beside 512-bit work the zmm delay, which is what a ymm chain
// showed there. Only the link that reads the producer is late: an
// instruction in between hides it.
func (b *Builder) lateForward(k *Kernel) {
	lf := b.Model.LateForwarding
	if len(lf) == 0 {
		return
	}
	wide := false
	for _, x := range k.Instrs {
		if x.Idiom == "" && modeldb.Is512BitOp(x.Form) {
			wide = true
			break
		}
	}
	extra := make([]int, len(k.Instrs))
	from := make([]int, len(k.Instrs))
	for i, x := range k.Instrs {
		w := modeldb.VectorDest(x.Form)
		if w == "" || x.Idiom != "" || x.MayLoad || x.MayStore || x.Latency != 1 {
			continue
		}
		if wide {
			w = "zmm"
		}
		e := lf[w]
		if e <= 0 {
			continue
		}
		for _, r := range x.Desc.Reads {
			if p, _, ok := k.lastWriter(r.Reg, i); ok && p != i && b.multiplyClass(k.Instrs[p]) {
				extra[i], from[i] = e, p
				break
			}
		}
	}
	for i, e := range extra {
		if e == 0 {
			continue
		}
		x := k.Instrs[i]
		k.Notes = append(k.Notes, fmt.Sprintf("%s reads the result of %s directly: %d cycle(s) later (the model's late_forwarding)", oneLine(x.Text), oneLine(k.Instrs[from[i]].Text), e))
		x.Latency += e
		x.Desc.Latency += e
		for w := range x.Desc.Writes {
			x.Desc.Writes[w].Latency += e
		}
	}
}

// multiplyClass reports whether x is vector work of at least
// modeldb.LateForwardMinLatency cycles of execution (a load-op form
// counts its register form's latency).
func (b *Builder) multiplyClass(x *Instr) bool {
	return b.vectorWorkOf(x, modeldb.LateForwardMinLatency)
}

// vectorWorkOf reports whether x is vector work of at least minLatency
// cycles of execution (a load-op form counts its register form's
// latency).
func (b *Builder) vectorWorkOf(x *Instr, minLatency int) bool {
	if x.Idiom != "" || modeldb.VectorDest(x.Form) == "" {
		return false
	}
	lat := x.Latency
	if x.MayLoad {
		reg, _, _ := b.registerCounterpart(x.Form)
		if reg == nil {
			return false
		}
		lat = int(reg.Latency + 0.5)
	}
	return lat >= minLatency
}

// oneLine is an instruction's text with its tabs as spaces.
func oneLine(s string) string { return strings.ReplaceAll(s, "\t", " ") }
