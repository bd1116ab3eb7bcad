package modeldb

import (
	"fmt"
	"math"
	"strings"

	"portlab/isa"
	"portlab/results"
)

// MixPart is one form's share of a mix: Count instances of Form per copy.
type MixPart = results.MixPart

// Prediction is the predicted steady-state cost of one copy of a mix.
type Prediction struct {
	// Cycles is the predicted cycles per copy: the largest of the bounds below.
	Cycles float64
	// PortCycles is the bound the ports impose (optimal balancing of every
	// uop over its allowed ports).
	PortCycles float64
	// DispatchCycles is total uops / dispatch width (0 when the model has
	// no dispatch width or the entries no uop counts).
	DispatchCycles float64
	// FormCycles is the largest count * reciprocal throughput of a single
	// form of the mix: no mix runs a form faster than the form alone.
	FormCycles float64
	// Bound names what limits Cycles: "ports", "dispatch" or
	// "throughput of <form>".
	Bound string
	// Bottleneck lists the busiest ports when Bound is "ports".
	Bottleneck []string
	// Loads is each port's load per copy in the most even optimal assignment.
	Loads map[string]float64
}

// Predictor predicts mix throughputs with one model, caching each form's
// compiled port uses. It is not safe for concurrent use.
type Predictor struct {
	m        *Model
	idx      map[string]int
	cache    map[string][]maskUse // by form: port_pressure
	cache512 map[string][]maskUse // by form: port_pressure_beside_512bit
	forms    map[string]predForm  // by form name
}

// predForm is what the predictor knows of a form besides its entry.
type predForm struct {
	form         *isa.Form // nil when the catalog lacks it
	wide, narrow bool      // formWidth
}

// NewPredictor prepares predictions with m. It fails when an entry's port
// pressure names a port the model lacks.
func NewPredictor(m *Model) *Predictor {
	idx := make(map[string]int, len(m.Ports))
	for i, p := range m.Ports {
		idx[p] = i
	}
	return &Predictor{m: m, idx: idx, cache: map[string][]maskUse{}, cache512: map[string][]maskUse{}, forms: map[string]predForm{}}
}

// formOf returns the catalog form of a name and its width (formWidth), cached.
func (p *Predictor) formOf(name string) predForm {
	pf, ok := p.forms[name]
	if !ok {
		pf.form, _ = isa.Lookup(name)
		if pf.form != nil {
			pf.wide, pf.narrow = Is512BitOp(pf.form), IsNarrowVectorOp(pf.form)
		}
		p.forms[name] = pf
	}
	return pf
}

func (p *Predictor) compiled(e *Entry, beside512 bool) ([]maskUse, error) {
	cache := p.cache
	if beside512 {
		cache = p.cache512
	}
	if c, ok := cache[e.Form]; ok {
		return c, nil
	}
	var out []maskUse
	for _, u := range e.PressureBeside(beside512) {
		var m uint64
		for _, q := range u.Ports {
			i, ok := p.idx[q]
			if !ok {
				return nil, fmt.Errorf("form %q: port %q is not one of the model's ports", e.Form, q)
			}
			m |= 1 << i
		}
		out = append(out, maskUse{m, u.Cycles})
	}
	cache[e.Form] = out
	return out, nil
}

// Predict predicts the cycles one copy of the mix takes in steady state,
// with every instance independent of every other: the largest of the port
// bound (an optimal balancing of all uops over their ports, the LP of
// PMEvo and Palmed), the dispatch bound and the forms' own throughputs.
// A form the model lacks is an error naming it.
func (p *Predictor) Predict(mix []MixPart) (Prediction, error) {
	return p.PredictWithOverhead(mix, 0)
}

// PredictWithOverhead is Predict for code that holds, besides the mix,
// overhead instructions per copy that take a dispatch slot each and no
// port worth counting (the zero idioms a measured mix puts before forms
// that read what they write, MixMeasurement.Overhead). In a mix that
// holds 512-bit work, narrower vector forms take their ports beside it
// (Entry.PortPressure512).
func (p *Predictor) PredictWithOverhead(mix []MixPart, overhead float64) (Prediction, error) {
	var pr Prediction
	var uses []maskUse
	var puses []PortUse
	uops := overhead
	uopsKnown := true
	wide512 := false
	for _, part := range mix {
		if p.formOf(part.Form).wide && part.Count > 0 {
			wide512 = true
		}
	}
	for _, part := range mix {
		if part.Count <= 0 {
			continue
		}
		e, ok := p.m.Lookup(part.Form)
		if !ok {
			return pr, fmt.Errorf("form %q is not in model %s", part.Form, p.m.Label())
		}
		n := float64(part.Count)
		pf := p.formOf(part.Form)
		beside := wide512 && pf.narrow
		if len(p.m.Ports) <= 64 {
			c, err := p.compiled(e, beside)
			if err != nil {
				return pr, err
			}
			for _, u := range c {
				uses = append(uses, maskUse{u.mask, u.cycles * n})
			}
		} else {
			for _, u := range e.PressureBeside(beside) {
				puses = append(puses, PortUse{Cycles: u.Cycles * n, Ports: u.Ports})
			}
		}
		if e.Uops > 0 {
			uops += DispatchSlots(pf.form, e.Uops, p.m.MicroFusion) * n
		} else if !e.HasFlag(FlagZeroIdiom) && !e.HasFlag(FlagMoveEliminated) {
			uopsKnown = false
		}
		if t := e.Throughput * n; t > pr.FormCycles {
			pr.FormCycles = t
			if t > 0 {
				pr.Bound = "throughput of " + e.Form
			}
		}
	}
	var crit uint64
	if len(p.m.Ports) <= 64 {
		var loads []float64
		pr.PortCycles, crit, loads = balanceLoads(uses)
		pr.Loads = map[string]float64{}
		for i, q := range p.m.Ports {
			if loads[i] > 1e-12 {
				pr.Loads[q] = loads[i]
			}
		}
	} else {
		b, err := balanceLP(p.m.Ports, p.idx, puses)
		if err != nil {
			return pr, err
		}
		pr.PortCycles, pr.Loads = b.Cycles, b.Loads
	}
	if p.m.DispatchWidth > 0 && uopsKnown {
		pr.DispatchCycles = uops / float64(p.m.DispatchWidth)
	}
	pr.Cycles = pr.FormCycles
	if pr.PortCycles >= pr.Cycles*(1-1e-9) && pr.PortCycles > 0 {
		pr.Cycles, pr.Bound = pr.PortCycles, "ports"
	}
	if pr.DispatchCycles > pr.Cycles*(1+1e-9) {
		pr.Cycles, pr.Bound = pr.DispatchCycles, "dispatch"
	}
	if pr.Bound == "ports" {
		for i, q := range p.m.Ports {
			if (i < 64 && crit&(1<<i) != 0) || (len(p.m.Ports) > 64 && pr.Loads[q] >= pr.PortCycles*(1-1e-6)) {
				pr.Bottleneck = append(pr.Bottleneck, q)
			}
		}
	}
	return pr, nil
}

// PredictThroughput predicts the cycles one copy of the mix takes on the
// model (see Predictor.Predict); NaN when a form is missing from the model.
// For many predictions with one model, use a Predictor.
func PredictThroughput(m *Model, mix []MixPart) float64 {
	pr, err := NewPredictor(m).Predict(mix)
	if err != nil {
		return math.NaN()
	}
	return pr.Cycles
}

// Label names the model in messages: its name, else its LLVM CPU.
func (m *Model) Label() string {
	switch {
	case m.Name != "":
		return fmt.Sprintf("%q", m.Name)
	case m.LLVMCPU != "":
		return m.LLVMCPU
	case m.MicroArchitecture != "":
		return m.MicroArchitecture
	}
	return "(unnamed)"
}

// MixString renders a mix as "2*vaddpd ymm, ymm, ymm + 1*vmulpd ymm, ymm, ymm".
func MixString(mix []MixPart) string {
	parts := make([]string, len(mix))
	for i, p := range mix {
		parts[i] = fmt.Sprintf("%d*%s", p.Count, p.Form)
	}
	return strings.Join(parts, " + ")
}
