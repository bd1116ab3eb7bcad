package sweep

import (
	"slices"
	"strings"

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
	// The probes' legacy-SSE and zmm variants, for forms of those kinds.
	base := probes
	for _, f := range forms {
		for _, p := range base {
			if v := ProbeVariant(f, p); v != nil && v != p && !slices.Contains(probes, v) &&
				(o.Has == nil || v.Supported(o.Has)) && gen.Unmeasurable(v) == "" {
				probes = append(probes, v)
			}
		}
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
		err := measureAndAppend(eng, o, batch, w, sum)
		batch = batch[:0]
		return err
	}
	for i, f := range forms {
		tf, ok := tp[f.Name()]
		if !ok || gen.Unmeasurable(f) != "" {
			continue
		}
		for _, p := range base {
			if p = ProbeVariant(f, p); p == nil || p.Name() == f.Name() || !slices.Contains(probes, p) {
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

// ProbeVariant returns the probe to mix form f with: a VEX ymm probe
// becomes its legacy-SSE xmm counterpart for a legacy-SSE vector form
// (mixed with ymm code such a form pays SSE/AVX transitions, which say
// nothing about ports; nil when the probe has no legacy counterpart), and
// its zmm counterpart for a form with zmm operands (512-bit uops fuse or
// shut down vector ports that 256-bit probes would see free). Other probes
// and forms keep the probe.
func ProbeVariant(f, p *isa.Form) *isa.Form {
	name := p.Name()
	if p.Encoding != isa.VEX || !strings.Contains(name, "ymm") {
		return p
	}
	legacySSE, wide := false, false
	for _, op := range f.Operands {
		switch op.Kind {
		case isa.KindXMM:
			legacySSE = legacySSE || f.Encoding == isa.Legacy
		case isa.KindZMM, isa.KindM512:
			wide = true
		}
	}
	switch {
	case legacySSE:
		mnemonic, _, _ := strings.Cut(name, " ")
		v, ok := isa.Lookup(strings.TrimPrefix(mnemonic, "v") + " xmm, xmm")
		if !ok || v.Encoding != isa.Legacy {
			return nil
		}
		return v
	case wide:
		if v, ok := isa.Lookup(strings.ReplaceAll(name, "ymm", "zmm")); ok {
			return v
		}
	}
	return p
}

// measureAndAppend measures a batch of benchmarks, counts them and their
// errors in sum, and appends the results to the sweep's file.
func measureAndAppend(eng *measure.Engine, o Options, batch []*gen.Bench, w *appender, sum *Summary) error {
	res := measureBenches(eng, o, batch, nil)
	for _, r := range res {
		if r.Error != "" {
			sum.Errors++
			sum.ErrorForms = append(sum.ErrorForms, r.Portlab.Form)
		}
	}
	sum.Benchmarks += len(res)
	sum.Results = append(sum.Results, res...)
	return w.append(res)
}
