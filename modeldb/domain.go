package modeldb

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"portlab/internal/stats"
	"portlab/isa"
)

// Vector domains: on the Zen 3 guest (AuthenticAMD-19-1-1) a vector
// result going from one group of instructions to the other and back
// costs two cycles. Chains of two forms, two pairs a copy, ran at the sum
// of their latencies within a group and two cycles a pair longer between
// the groups: vaddps, vmulps and vandps on one side ("fp"), vpaddd,
// vshufps, vpshufd and vblendps on the other ("int"); vaddps with vshufps
// 12.0 cycles a copy where the latencies give 8, vandps with vpaddd 8.0
// for 4, vaddps with vmulps 12.0 for 12
// (testdata/experiments/vector_domains.s). On an Emerald Rapids guest
// (GenuineIntel-6-cf-2) a round trip costs one cycle, and vandps sits with
// the integer side. No form's own latency or throughput shows it. A chain
// crosses each way equally often, so it measures the round trip and not
// how it splits between the two directions. The domain chains
// (DomainKind) pair each vector register form with vpaddd and with
// vaddps of its width; the build gives a form the domain of the partner it
// crosses to for free (Entry.Domain) and the model the cycles a round
// trip costs (Model.DomainRoundTripLatency), and the kernel analyzer adds
// half of those cycles (CrossingCycles) to every read of a vector
// register written in the other domain.

// DomainKind is the result kind of the domain chains (gen.DomainBenches):
// a form chained with its width's vpaddd (Operands DomainInt) or vaddps
// (DomainFP), two pairs a copy; the value is cycles a pair.
const DomainKind = "domain-crossing"

// The two domains, which are also the chains' partners.
const (
	DomainInt = "int"
	DomainFP  = "fp"
)

// domainShows is how many cycles a pair the chain with one partner must
// take longer than with the other, beyond the two forms' latencies, for a
// form to get a domain: latency chains converge within a few hundredths
// of a cycle, and a round trip costs one or two cycles a pair where the
// domains exist.
const domainShows = 0.6

// minDomainForms is how many forms must get a domain, both partners
// among them, for the rule to hold on a host.
const minDomainForms = 4

// domainMaxExtra is the most cycles a pair may take beyond the two
// forms' latencies for the difference to count as a domain crossing: a
// round trip costs one or two cycles where domains exist, and a pair far
// slower shows something else (on the Emerald Rapids guest, double
// forms chained with vaddps: 8-118 cycles a pair beyond their latencies,
// data-dependent assists).
const domainMaxExtra = 4.0

// DomainPartner is the partner form of a domain chain for a form of
// vector width w ("xmm", "ymm", "zmm") in domain d, in legacy SSE for a
// legacy form (xmm only), else in VEX (EVEX for zmm); the fp partner of
// a double-precision form (double) adds doubles (addpd), of the others
// singles (addps).
func DomainPartner(w string, legacy, double bool, d string) string {
	m := map[string]string{DomainInt: "paddd", DomainFP: "addps"}[d]
	if m == "" {
		return ""
	}
	if double && d == DomainFP {
		m = "addpd"
	}
	if legacy {
		if w != "xmm" {
			return ""
		}
		return m + " xmm, xmm"
	}
	return fmt.Sprintf("v%s %s, %s, %s", m, w, w, w)
}

// DomainPartnerFor is the partner form in domain d of form f's chain
// (DomainPartner of its width, encoding and element type).
func DomainPartnerFor(f *isa.Form, d string) string {
	return DomainPartner(VectorDest(f), f.Encoding == isa.Legacy, doublePrecision(f), d)
}

// doublePrecision says whether f works on doubles by its mnemonic: a
// packed or scalar double suffix (pd, sd) on a form that is not an
// integer one (p..., vp... other than the permutes), so that vpmaxsd and
// vpdpwssd stay integer.
func doublePrecision(f *isa.Form) bool {
	m := strings.TrimPrefix(f.Mnemonic, "v")
	if strings.HasPrefix(m, "p") && !strings.HasPrefix(m, "perm") {
		return false
	}
	return strings.HasSuffix(m, "pd") || strings.HasSuffix(m, "sd")
}

// DomainChainOperand is the operand through which a domain chain runs
// for form f, and whether f takes part at all: a form with a vector
// register destination (xmm, ymm or zmm, no mask) whose operands are
// registers of that width and immediates, chained through its first
// source, or through the destination where that is its only input of
// the width. (The first source rather than a destination that is also
// read: the catalog marks some VEX destinations read, vphsubd's among
// them, and a chain through them measured nothing.)
func DomainChainOperand(f *isa.Form) (int, bool) {
	if f == nil || len(f.Operands) < 2 || VectorDest(f) == "" || f.HasMemory() {
		return 0, false
	}
	k := f.Operands[0].Kind
	if f.Operands[0].Access&isa.Write == 0 || len(f.ImplicitReads) > 0 || len(f.ImplicitWrites) > 0 {
		return 0, false
	}
	src := -1
	for i, op := range f.Operands {
		if op.Masked {
			return 0, false
		}
		switch {
		case op.Kind == k:
			if op.Access&isa.Read != 0 && (src < 0 || src == 0) {
				src = i
			}
		case op.Kind.IsImmediate():
		default:
			return 0, false
		}
	}
	return src, src >= 0
}

// domainChainKey is the latency pair of f's own chain through operand i.
func domainChainKey(i int) string { return fmt.Sprintf("%d->0", i) }

// DomainResult is what the domain chains showed for one form: the cycles
// a pair beyond the two forms' latencies with each partner.
type DomainResult struct {
	Form            string
	Int, FP         float64 // extra cycles a pair with vpaddd, with vaddps
	Domain          string  // "int", "fp" or "" (no difference)
	RoundTripCycles float64 // extra cycles a round trip: the larger extra (a pair crosses each way once)
	TooSlow         bool    // a chain took more than domainMaxExtra beyond the latencies: no domain
	Width           string  // the form's vector width (xmm, ymm, zmm)
	WidthDropped    bool    // a domain its width's partners did not bear out (not in their own domains)
}

// domainsOf derives each measured form's domain from its chains, and
// the cycles a round trip costs (the median over the forms given a
// domain, in whole cycles); nothing when fewer than minDomainForms forms
// get one, when the partners themselves do not fall in their own
// domains, or when a round trip costs less than half a cycle.
func domainsOf(ms *Measurements) (results []DomainResult, roundTrip int) {
	lat := func(name string, i int) float64 {
		fm := ms.Forms[name]
		if fm == nil {
			return 0
		}
		if l := fm.Latencies[domainChainKey(i)]; l > 0 {
			return l
		}
		return fm.Latency()
	}
	for _, name := range slices.Sorted(maps.Keys(ms.Domains)) {
		f, ok := isa.Lookup(name)
		if !ok {
			continue
		}
		i, ok := DomainChainOperand(f)
		pairs := ms.Domains[name]
		if !ok || pairs[DomainInt] <= 0 || pairs[DomainFP] <= 0 || lat(name, i) <= 0 {
			continue
		}
		extra := map[string]float64{}
		for _, d := range []string{DomainInt, DomainFP} {
			p := DomainPartnerFor(f, d)
			pf, ok := isa.Lookup(p)
			if !ok {
				break
			}
			// The partner by rule: sweeps made before double forms got the
			// addpd partner chained them with addps, whose latency is
			// addpd's on every host measured (3 on Zen 3, 2 on Emerald
			// Rapids for xmm and ymm).
			pi, _ := DomainChainOperand(pf)
			pl := lat(p, pi)
			if pl <= 0 {
				break
			}
			extra[d] = pairs[d] - lat(name, i) - pl
		}
		if len(extra) != 2 {
			continue
		}
		r := DomainResult{Form: name, Width: VectorDest(f), Int: extra[DomainInt], FP: extra[DomainFP]}
		switch {
		case max(r.Int, r.FP) > domainMaxExtra:
			r.TooSlow = true
		case max(r.Int, r.FP) < domainShows:
			// A crossing adds time: two chains that both ran at their
			// latencies or faster show none, whatever their difference
			// (on the Emerald Rapids guest vaddps zmm, whose own chain
			// alternates between 3 and 4 cycles, read 0.6 cycle faster
			// with vpaddd).
		case r.Int-r.FP >= domainShows:
			r.Domain, r.RoundTripCycles = DomainFP, r.Int
		case r.FP-r.Int >= domainShows:
			r.Domain, r.RoundTripCycles = DomainInt, r.FP
		}
		results = append(results, r)
	}
	own := map[string]string{}
	for _, r := range results {
		if r.Domain != "" {
			own[r.Form] = r.Domain
		}
	}
	// A width whose partners do not fall in their own domains shows no
	// domains: its forms get none, the other widths keep theirs.
	bad := map[string]bool{}
	for _, w := range []string{"xmm", "ymm", "zmm"} {
		for _, legacy := range []bool{false, true} {
			for _, double := range []bool{false, true} {
				pi, pf := DomainPartner(w, legacy, double, DomainInt), DomainPartner(w, legacy, double, DomainFP)
				if d, ok := own[pi]; ok && d != DomainInt {
					bad[w] = true
				}
				if d, ok := own[pf]; ok && d != DomainFP {
					bad[w] = true
				}
			}
		}
	}
	var costs []float64
	for i := range results {
		r := &results[i]
		if r.Domain != "" && bad[r.Width] {
			r.Domain, r.WidthDropped = "", true
			delete(own, r.Form)
		}
		if r.Domain != "" {
			costs = append(costs, r.RoundTripCycles)
		}
	}
	if len(costs) < minDomainForms {
		return results, 0
	}
	if own[DomainPartner("xmm", false, false, DomainInt)] == "" && own[DomainPartner("xmm", true, false, DomainInt)] == "" {
		return results, 0 // neither xmm partner measured in its domain
	}
	c := math.Round(stats.Median(costs))
	if c < 1 {
		return results, 0
	}
	return results, int(c)
}

// CrossingCycles is the share of a round trip between the vector domains
// (Model.DomainRoundTripLatency) that a read costs in domain to, the
// domain of the reading instruction: half each way, an odd cycle on the
// way into the fp domain. Chains cross each way equally often, so the
// split changes no loop-carried bound.
func CrossingCycles(roundTrip int, to string) int {
	switch to {
	case DomainFP:
		return (roundTrip + 1) / 2
	case DomainInt:
		return roundTrip / 2
	}
	return 0
}

// validateDomain checks an entry's domain.
func validateDomain(d string) error {
	if d != DomainInt && d != DomainFP {
		return fmt.Errorf("domain: %q, want %s or %s", d, DomainInt, DomainFP)
	}
	return nil
}

// domainOf says what the model's vector domains do to entry e (model
// show), "" where nothing.
func (m *Model) domainOf(e *Entry) string {
	c := m.DomainRoundTripLatency
	if c <= 0 || e.Domain == "" {
		return ""
	}
	other := map[string]string{DomainInt: DomainFP, DomainFP: DomainInt}[e.Domain]
	return fmt.Sprintf("%s: +%d cycle(s) reading a vector register written by %s-domain work, +%d for %s-domain work reading its result (the model's domain_round_trip_latency, %d)",
		e.Domain, CrossingCycles(c, e.Domain), other, CrossingCycles(c, other), other, c)
}

// domainsText summarises the forms given each domain (the build report).
func domainsText(results []DomainResult) string {
	n := map[string]int{}
	slow := 0
	dropped := map[string]int{}
	for _, r := range results {
		n[r.Domain]++
		if r.TooSlow {
			slow++
		}
		if r.WidthDropped {
			dropped[r.Width]++
		}
	}
	var parts []string
	for _, d := range []string{DomainInt, DomainFP} {
		parts = append(parts, fmt.Sprintf("%d %s", n[d], d))
	}
	s := strings.Join(parts, ", ") + fmt.Sprintf(", %d neither", n[""])
	if slow > 0 {
		s += fmt.Sprintf(" (%d of them more than %.0f cycles a pair beyond the latencies: not a crossing)", slow, domainMaxExtra)
	}
	for _, w := range slices.Sorted(maps.Keys(dropped)) {
		s += fmt.Sprintf("; %s: the partners not in their own domains, %d forms' domains dropped", w, dropped[w])
	}
	return s
}
