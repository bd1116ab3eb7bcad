package characterize

import (
	"cmp"
	"math"
	"slices"
	"strings"

	"github.com/twmb/murmur3"

	"portlab/isa"
	"portlab/modeldb"
	"portlab/sweep"
)

// Plan is how a run spends its budget on mixes once the sweep, the kernels
// and the validation draw are measured. It is written to the state once
// and followed from then on, so a resumed run measures what an
// uninterrupted one would.
type Plan struct {
	// Left is the time, seconds, that was left for mixes and the build
	// when the plan was made; MixSeconds what one mix cost in the
	// validation draw (the engine's time per mix) and LoadSeconds what
	// reading the results file took.
	Left        float64 `json:"left_s"`
	MixSeconds  float64 `json:"mix_s"`
	LoadSeconds float64 `json:"load_s"`
	// PortsForms is how many forms of PortsOrder get their port-conflict
	// mixes (of AllForms), PortMixes how many mixes that is.
	PortsForms int `json:"ports_forms"`
	AllForms   int `json:"all_forms"`
	PortMixes  int `json:"port_mixes"`
	// FitMixes is the size of the fit-mix draw.
	FitMixes int `json:"fit_mixes"`
	// Revalidate is the time, seconds, kept for the validation draw's
	// second round (what its first took).
	Revalidate float64 `json:"revalidate_s,omitempty"`
}

// Planning constants. The build's cost grows with the mixes it fits, and
// with how many of them the first fit mispredicts (forms refitted in
// classes of their own): 1.4-1.9 ms a mix on the Emerald Rapids guest
// (2 min 37 s to 3 min 49 s for 109,000-119,000 mixes), 4.3-5.9 ms on
// the Zen 3 guest with the builder of 2026-11-28 (6 min 17 s for 88,452;
// 8 min 40 s and 9 min 6 s for 91,000-92,000, where a run planned at 1 ms
// a mix took 35 min 13 s of a 30-minute budget), and with the builder of
// 2026-12-02 2.6-3.2 ms there (3 min 41 s for 84,574 mixes; 4 min 36 s
// for about 86,000 with more of them noisy) and 2.5 ms on the Zen 5 guest
// (3 min 2 s for 73,015): runs planned at 4 ms ended 3.5-5.5 minutes
// inside their budgets. The plan takes 3 ms, beside half a minute for the
// forms; a build as slow as the Zen 3 guest's once were would end a
// 30-minute run about four minutes late. Port-conflict mixes get at most portsShare of the mixes while
// forms are left without any; the rest are fit mixes, up to maxFitMixes
// (the Granite Rapids model fitted 53,000).
const (
	buildFixed    = 30.0  // seconds
	buildPerMix   = 0.003 // seconds
	predictFixed  = 20.0  // seconds: llvm-mca over the kernels, evaluation, install
	portsShare    = 0.6
	maxFitMixes   = 60000
	minPlanMixSec = 0.0005
)

// MakePlan spends left seconds: mixCost is the cost of one mix, load that
// of reading the results file (paid by each of the two mix steps and the
// build), portMixes the mixes of each form in PortsOrder.
func MakePlan(left, mixCost, load float64, portMixes []int) Plan {
	mixCost = max(mixCost, minPlanMixSec)
	p := Plan{Left: left, MixSeconds: mixCost, LoadSeconds: load, AllForms: len(portMixes)}
	spend := left - buildFixed - predictFixed - 3*load
	if spend <= 0 {
		return p
	}
	total := int(spend / (mixCost + buildPerMix))
	all := 0
	for _, n := range portMixes {
		all += n
	}
	ports := total
	if all > int(portsShare*float64(total)) {
		ports = int(portsShare * float64(total))
	}
	for _, n := range portMixes {
		if p.PortMixes+n > ports {
			break
		}
		p.PortMixes += n
		p.PortsForms++
	}
	p.FitMixes = min(total-p.PortMixes, maxFitMixes)
	if p.FitMixes < 50 {
		p.FitMixes = 0 // a draw too small to fit anything
	}
	return p
}

// Seconds is what the plan's mixes and the build should take.
func (p Plan) Seconds() float64 {
	n := float64(p.PortMixes + p.FitMixes)
	return n*(p.MixSeconds+buildPerMix) + buildFixed + predictFixed + 3*p.LoadSeconds
}

// PortsOrder orders forms by what their port-conflict mixes add to a
// model, most first. First come the plain loads and stores of each
// register class (modeldb.PlainMemoryForms, tier -1): every memory form's
// fit starts from their ports, and the mix of a vector store with the
// vector load probe shows whether the two share ports (on a Zen 5 guest a
// 30-minute budget reached 2,909 of 11,712 forms, all register forms, and
// the model kept LLVM's Zen 3 memory ports: gcc_saxpy_ymm, two vector
// loads and a store an iteration, predicted 1.48 cycles where it runs in
// 1.00). Then:
//
//  0. register and immediate forms up to 256 bits: their mixes are the
//     only evidence of their ports;
//  1. the same with zmm registers (512-bit work fuses and closes vector
//     ports, so a 256-bit form's mapping says little about them);
//  2. forms with a memory operand: without mixes the build gives them
//     their register form's ports plus the load or store of their operand
//     class (modeldb's memory hints), which is mostly right;
//  3. masked and {evex}-spelled variants: without mixes the build judges
//     them by the form they are a variant of.
//
// Within a tier the forms are spread by a hash of their name, so that a
// budget that ends inside a tier leaves a sample of every kind of form
// measured rather than the first mnemonics of the alphabet.
func PortsOrder(forms []*isa.Form) []*isa.Form {
	type ranked struct {
		f    *isa.Form
		tier int
		h    uint64
	}
	rs := make([]ranked, len(forms))
	for i, f := range forms {
		rs[i] = ranked{f, portsTier(f), murmur3.Sum64([]byte(f.Name()))}
	}
	slices.SortStableFunc(rs, func(a, b ranked) int {
		if c := cmp.Compare(a.tier, b.tier); c != 0 {
			return c
		}
		return cmp.Compare(a.h, b.h)
	})
	out := make([]*isa.Form, len(rs))
	for i, r := range rs {
		out[i] = r.f
	}
	return out
}

func portsTier(f *isa.Form) int {
	name := f.Name()
	if _, plain := slices.BinarySearch(plainMemory, name); plain {
		return -1
	}
	if strings.Contains(name, "{k}") || strings.HasPrefix(name, "{") {
		return 3
	}
	wide := false
	for _, op := range f.Operands {
		switch op.Kind {
		case isa.KindZMM:
			wide = true
		}
		if op.Kind.IsMemory() && !strings.HasPrefix(name, "lea ") {
			return 2
		}
	}
	if wide {
		return 1
	}
	return 0
}

// plainMemory is modeldb.PlainMemoryForms, sorted.
var plainMemory = modeldb.PlainMemoryForms()

// portMixCounts returns the port-conflict mixes of each form.
func portMixCounts(forms []*isa.Form, has func(string) bool) []int {
	out := make([]int, len(forms))
	for i, f := range forms {
		out[i] = sweep.PortMixCount(f, has)
	}
	return out
}

// round1 rounds seconds to a tenth.
func round1(s float64) float64 { return math.Round(s*10) / 10 }
