package gen

import (
	"fmt"

	"portlab/isa"
	"portlab/modeldb"
)

// KindDomain is a chain of a vector register form with vpaddd or vaddps
// (vaddpd for double forms) of its width (Bench.Operands:
// modeldb.DomainInt, DomainFP; modeldb.DomainPartnerFor), two pairs a
// copy: on the Zen 3 guest vaddps with vshufps ran at 6.0 cycles a pair
// where their latencies give 4, vaddps with vmulps at their 6, vandps with
// vpaddd at 4 for 2. What a pair takes beyond the two latencies says on
// which side of a domain crossing the form sits (modeldb.DomainKind).
const KindDomain = modeldb.DomainKind

// DomainBenches returns the two domain chains of a vector register form
// (modeldb.DomainChainOperand): the form's result feeds the partner,
// whose result feeds the form's chained operand (register 0; the
// destination, where it is not that operand, is register 2, so that no
// instance moves a register onto itself); every other register operand
// is one register nothing writes. Nil for other forms and where the
// catalog lacks the partner.
func DomainBenches(f *isa.Form) []*Bench {
	i, ok := modeldb.DomainChainOperand(f)
	if !ok {
		return nil
	}
	legacy := f.Encoding == isa.Legacy
	regs := make([]string, len(f.Operands))
	for k, op := range f.Operands {
		if op.Kind == f.Operands[0].Kind {
			regs[k] = "1"
		}
	}
	// Through the destination where it is the chained operand; else
	// from register 0 into register 2, which the partner reads into 0.
	fed := "0"
	if i != 0 {
		fed = "2"
	}
	regs[0], regs[i] = fed, "0"
	own, err := instance(f, regs, 0)
	if err != nil {
		return nil
	}
	var out []*Bench
	for _, d := range []string{modeldb.DomainInt, modeldb.DomainFP} {
		name := modeldb.DomainPartnerFor(f, d)
		pf, ok := isa.Lookup(name)
		if !ok {
			return nil
		}
		pregs := []string{"0", fed, "1"}
		if legacy {
			pregs = []string{"0", fed}
			if i == 0 {
				pregs[1] = "1"
			}
		}
		partner, err := instance(pf, pregs, 0)
		if err != nil {
			return nil
		}
		lines := []string{own, partner, own, partner}
		info := fmt.Sprintf("domain chain of %s with %s: two pairs a copy, each feeding the other", f.Name(), name)
		s := newSnippet(f, "domain "+d, info, lines, 2)
		if err := prepareFor(s, pf); err != nil {
			return nil
		}
		out = append(out, &Bench{Form: f, Kind: KindDomain, Operands: d, Snippet: s, Mode: "latency"})
	}
	return out
}

// DomainPartnerOf is the partner form of a domain chain (nil for other
// benchmarks): what a host must run besides the form.
func DomainPartnerOf(b *Bench) *isa.Form {
	if b.Kind != KindDomain {
		return nil
	}
	f, _ := isa.Lookup(modeldb.DomainPartnerFor(b.Form, b.Operands))
	return f
}
