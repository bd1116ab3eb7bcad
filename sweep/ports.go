package sweep

import (
	"portlab/gen"
	"portlab/isa"
	"portlab/measure"
	"portlab/results"
)

// runPorts measures port-conflict mixes of every form with every probe. It
// needs the singleton throughputs (measured now, resumed, or measured here
// for probes outside the sweep).
func runPorts(eng *measure.Engine, o Options, forms []*isa.Form, tp map[string]float64, done map[string]bool, w *appender, sum *Summary) error {
	names := o.Probes
	if len(names) == 0 {
		names = DefaultProbes
	}
	var probes []*isa.Form
	for _, n := range names {
		p, ok := isa.Lookup(n)
		if !ok || (o.Has != nil && !p.Supported(o.Has)) || gen.Unmeasurable(p) != "" {
			continue
		}
		probes = append(probes, p)
	}
	// Probe throughputs not known yet.
	var need []*gen.Bench
	for _, p := range probes {
		if _, ok := tp[p.Name()]; ok {
			continue
		}
		b, err := gen.Throughput(p)
		if err != nil {
			continue
		}
		need = append(need, b)
	}
	res := measureBenches(eng, o, need, nil)
	for _, r := range res {
		if r.Error == "" {
			tp[r.Portlab.Form] = r.Portlab.Median
		}
	}
	if err := w.append(res); err != nil {
		return err
	}
	sum.Results = append(sum.Results, res...)
	sum.Benchmarks += len(res)

	var batch []*gen.Bench
	flush := func() error {
		res := measureBenches(eng, o, batch, nil)
		for _, r := range res {
			if r.Error != "" {
				sum.Errors++
				sum.ErrorForms = append(sum.ErrorForms, r.Portlab.Form)
			}
		}
		sum.Benchmarks += len(res)
		sum.Results = append(sum.Results, res...)
		batch = batch[:0]
		return w.append(res)
	}
	for i, f := range forms {
		tf, ok := tp[f.Name()]
		if !ok || gen.Unmeasurable(f) != "" {
			continue
		}
		for _, p := range probes {
			if p.Name() == f.Name() {
				continue
			}
			a, b := gen.MixCounts(tf, tp[p.Name()])
			mb, err := gen.Mix(f, p, a, b)
			if err != nil {
				continue
			}
			if done[benchID(mb)] {
				sum.Skipped++
				continue
			}
			batch = append(batch, mb)
		}
		if len(batch) >= 64 || i == len(forms)-1 {
			if err := flush(); err != nil {
				return err
			}
			if o.Progress != nil {
				o.Progress(i+1, len(forms), "ports: "+f.Name())
			}
		}
	}
	if len(batch) > 0 {
		return flush()
	}
	return nil
}

// MixPrediction is what two forms on disjoint ports would take (the slower
// alone) and on shared ports (the sum), for reading a mix result.
func MixPrediction(r *results.Benchmark, tp map[string]float64) (disjoint, shared float64) {
	if r.Portlab == nil {
		return 0, 0
	}
	for _, p := range r.Portlab.Mix {
		t := float64(p.Count) * tp[p.Form]
		shared += t
		if t > disjoint {
			disjoint = t
		}
	}
	return disjoint, shared
}
