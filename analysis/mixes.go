package analysis

import (
	"encoding/hex"

	"portlab/analysis/input"
	"portlab/modeldb"
)

// MixSimulatorName is how reports name MixSimulator's predictions.
const MixSimulatorName = "simulation of the measured code"

// MixSimulator predicts measured mixes the way portlab validate predicts a
// kernel: one copy of the mix's machine code as it was measured
// (modeldb.MixMeasurement.Code) simulated with model m to its steady
// state. What the code adds to its forms' ports counts as it did on the
// core: the resets of forms that read what they write, the register
// chains a mix's instances form, and where its stores write (the store
// commit). A mix whose results carry no code, or whose code the model
// cannot simulate, gets the model's bottleneck bound, marked Fallback.
// The predictor is not safe for concurrent use.
func MixSimulator(m *modeldb.Model) (modeldb.MixPredictor, error) {
	bt, err := NewBatch(m, Options{})
	if err != nil {
		return nil, err
	}
	bound := modeldb.BoundPredictor(m)
	simulate := func(mx *modeldb.MixMeasurement) (modeldb.MixPrediction, bool) {
		code, err := hex.DecodeString(mx.Code)
		if mx.Code == "" || err != nil {
			return modeldb.MixPrediction{}, false
		}
		r, err := input.Code("mix", code, 0)
		if err != nil {
			return modeldb.MixPrediction{}, false
		}
		pr, err := bt.PredictSteadyState(r.Insts)
		if err != nil || pr.CyclesPerIteration <= 0 {
			return modeldb.MixPrediction{}, false
		}
		what := "simulated"
		if _, bn, err := bt.Static(r.Insts); err == nil {
			what += "; static bound: " + bn
		}
		return modeldb.MixPrediction{Cycles: pr.CyclesPerIteration, Bound: what}, true
	}
	return func(mx *modeldb.MixMeasurement) (modeldb.MixPrediction, error) {
		if p, ok := simulate(mx); ok {
			return p, nil
		}
		p, err := bound(mx)
		p.Fallback = true
		return p, err
	}, nil
}
