package analysis

import (
	"fmt"

	"portlab/isa"
	"portlab/modeldb"
)

// domainCrossings delays every read of a vector register written by an
// instruction of the other vector domain by its share of the model's
// domain_round_trip_latency (modeldb.DomainKind, CrossingCycles): the
// chains that measure it cross each way equally often, as every
// loop-carried chain does, so only the round trip is known, and an odd
// cycle goes to the way into the fp domain. A form's domain is its
// entry's, or for a form that loads and reads a vector register its
// register form's. Idioms, which execute nothing, have none.
func (b *Builder) domainCrossings(k *Kernel) {
	if b.Model.DomainRoundTripLatency <= 0 {
		return
	}
	dom := make([]string, len(k.Instrs))
	for i, x := range k.Instrs {
		dom[i] = b.domainOf(x)
	}
	for i, x := range k.Instrs {
		if dom[i] == "" {
			continue
		}
		c := modeldb.CrossingCycles(b.Model.DomainRoundTripLatency, dom[i])
		if c == 0 {
			continue
		}
		from := -1
		for r := range x.Desc.Reads {
			p, _, ok := k.lastWriter(x.Desc.Reads[r].Reg, i)
			if !ok || dom[p] == "" || dom[p] == dom[i] {
				continue
			}
			x.Desc.Reads[r].Advance -= c
			if from < 0 {
				from = p
			}
		}
		if from >= 0 {
			k.Notes = append(k.Notes, fmt.Sprintf("%s reads the result of %s across vector domains (%s to %s): %d cycle(s) later (its share of the model's domain_round_trip_latency, %d)",
				oneLine(x.Text), oneLine(k.Instrs[from].Text), dom[from], dom[i], c, b.Model.DomainRoundTripLatency))
		}
	}
}

// domainOf is an instruction's vector domain ("" for none).
func (b *Builder) domainOf(x *Instr) string {
	if x.Idiom != "" || x.Form == nil {
		return ""
	}
	if !x.Form.HasMemory() {
		if e, ok := lookupEntry(b.Model, x.Form.Name()); ok {
			return e.Domain
		}
		return ""
	}
	if !modeldb.ReadsMemory(x.Form) || modeldb.VectorDest(x.Form) == "" {
		return ""
	}
	vecSource := false
	for _, op := range x.Form.Operands {
		if !op.Kind.IsMemory() && op.Access&isa.Read != 0 && (op.Kind == isa.KindXMM || op.Kind == isa.KindYMM || op.Kind == isa.KindZMM) {
			vecSource = true
		}
	}
	if !vecSource {
		return "" // a load: its result comes from the load unit
	}
	if e, _, _ := b.registerCounterpart(x.Form); e != nil {
		return e.Domain
	}
	return ""
}
