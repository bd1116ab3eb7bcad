package sweep

import (
	"slices"
	"strings"

	"portlab/gen"
	"portlab/isa"
	"portlab/measure"
	"portlab/modeldb"
	"portlab/results"
)

// runPorts measures port-conflict mixes of every form with every probe. It
// needs the singleton throughputs (measured now, resumed, or measured here
// for probes outside the sweep).
func runPorts(eng *measure.Engine, o Options, forms []*isa.Form, mt *measuredTimes, done map[string]bool, w *appender, sum *Summary) error {
	tp := mt.tp
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
	// The probes' legacy-SSE and zmm variants, for forms of those kinds,
	// and the cross-width probes.
	base := probes
	for _, f := range forms {
		for _, v := range probesFor(f, base) {
			if !slices.Contains(probes, v) && (o.Has == nil || v.Supported(o.Has)) && gen.Unmeasurable(v) == "" {
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
	res := measureBenches(eng, o, need, nil, nil)
	sum.noteNoisy(need, res, nil)
	mt.note(res)
	if err := w.append(res); err != nil {
		return err
	}
	sum.Results = append(sum.Results, res...)
	sum.Benchmarks += len(res)

	times := mt.forMixes()
	// The batches are drawn up first, so that each is assembled while the
	// one before waits out its retries (warmer).
	type mixes struct {
		benches []*gen.Bench
		upto    int // forms done after this batch
	}
	var batches []mixes
	var batch []*gen.Bench
	for i, f := range forms {
		tf, ok := tp[f.Name()]
		if !ok || gen.Unmeasurable(f) != "" {
			continue
		}
		for _, p := range probesFor(f, base) {
			if p.Name() == f.Name() || !slices.Contains(probes, p) {
				continue
			}
			a, b := gen.MixCounts(tf, tp[p.Name()])
			mb, err := gen.MixNTimed([]*isa.Form{f, p}, []int{a, b}, times)
			if err != nil {
				continue
			}
			if done[benchID(mb)] {
				sum.Skipped++
				continue
			}
			batch = append(batch, mb)
		}
		if len(batch) >= mixBatch || i == len(forms)-1 {
			batches = append(batches, mixes{batch, i + 1})
			batch = nil
		}
	}
	if len(batch) > 0 {
		batches = append(batches, mixes{batch, len(forms)})
	}
	for k, b := range batches {
		var next []*gen.Bench
		if k+1 < len(batches) {
			next = batches[k+1].benches
		}
		if err := measureAndAppend(eng, o, b.benches, next, w, sum); err != nil {
			return err
		}
		// Measured: its snippets go (the noisy ones wait in sum.noisy).
		batches[k].benches = nil
		if o.Progress != nil {
			o.Progress(b.upto, len(forms), "ports: "+forms[b.upto-1].Name())
		}
		if o.stopped() {
			return ErrStopped
		}
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

// CrossWidthProbes are the extra probes of a VEX/EVEX vector form of the
// other width class: 256-bit FP probes for a form with zmm operands, 512-bit
// ones for a narrower one. With 512-bit uops in flight, Intel cores fuse
// the port-0 and port-1 vector units, so narrower forms lose port 1 beside
// zmm code: mixes of one width only never show it (random mixes of zmm and
// narrower forms were predicted within 10 % a third of the time without
// them). Where port 1's work goes then depends on the unit: on the Granite
// Rapids guest 8 vaddpd ymm beside 8 vpermd zmm (port 5 only) take 8
// cycles (the adds move to port 0), 8 vpshufb ymm beside them 16 (the
// shuffles have only port 5 left). Narrower forms are therefore also mixed
// with vpermd zmm, whose single port tells the two apart; the FP probes,
// both on ports 0 and 5 at 512 bits, cannot.
func CrossWidthProbes(f *isa.Form) []*isa.Form {
	if f.Encoding == isa.Legacy {
		return nil
	}
	vector, wide := vectorOperands(f)
	if !vector && !wide {
		return nil
	}
	names := []string{"vaddpd zmm, zmm, zmm", "vmulpd zmm, zmm, zmm", "vpermd zmm, zmm, zmm"}
	if wide {
		names = []string{"vaddpd ymm, ymm, ymm", "vmulpd ymm, ymm, ymm"}
	}
	var out []*isa.Form
	for _, n := range names {
		if p, ok := isa.Lookup(n); ok {
			out = append(out, p)
		}
	}
	return out
}

// MemoryWidthProbes are the extra probes of a plain vector load or store
// (modeldb.PlainMemoryForms), the forms whose mappings make the memory
// part of every memory form of their register class: the VEX plain loads
// and stores of the other widths, so that each width's load and store is
// seen beside the others'. The default probes show none of it: their
// vector load is a ymm one, which ProbeVariant turns into the zmm load for
// a zmm form. On the Zen 5 guest (2026-12-02) 6 vmovups xmm, m128 beside 6
// vmovups zmm, m512 took 6.0 cycles, each alone 3.0: a 512-bit load takes
// one of the two vector load pipes as a narrower one does, while the model
// fitted without these mixes spread it over four ports, two at a time, and
// predicted every mix of 512-bit and narrower vector loads too fast (20
// vpord xmm, m32bcst with 20 vpaddd zmm, m512: 15 cycles for 20). A
// legacy-SSE load or store gets the VEX.128 ones only (it is not mixed
// with code that leaves upper halves dirty; see ProbeVariant); plain
// loads and stores of general and MMX registers none.
func MemoryWidthProbes(f *isa.Form) []*isa.Form {
	name := f.Name()
	if _, plain := slices.BinarySearch(plainMemoryForms, name); !plain {
		return nil
	}
	vector, _ := vectorOperands(f)
	if !vector {
		return nil
	}
	names := memoryWidthForms
	if f.Encoding == isa.Legacy {
		names = memoryWidthForms[:2]
	}
	var out []*isa.Form
	for _, n := range names {
		if p, ok := isa.Lookup(n); ok && n != name {
			out = append(out, p)
		}
	}
	return out
}

// memoryWidthForms are the plain VEX vector loads and stores of every
// width, the 128-bit ones first (modeldb.MemoryWidthForms).
var memoryWidthForms = modeldb.MemoryWidthForms()

// plainMemoryForms is modeldb.PlainMemoryForms (sorted).
var plainMemoryForms = modeldb.PlainMemoryForms()

// probesFor lists the probes form f is mixed with: each base probe's
// variant for f (ProbeVariant), then f's cross-width probes and, for a
// plain vector load or store, its memory-width probes, each probe once.
func probesFor(f *isa.Form, base []*isa.Form) []*isa.Form {
	var out []*isa.Form
	for _, p := range base {
		if v := ProbeVariant(f, p); v != nil {
			out = append(out, v)
		}
	}
	for _, p := range append(CrossWidthProbes(f), MemoryWidthProbes(f)...) {
		if !slices.ContainsFunc(out, func(q *isa.Form) bool { return q.Name() == p.Name() }) {
			out = append(out, p)
		}
	}
	return out
}

// The probes' names at other widths.
var (
	toXMM = strings.NewReplacer("ymm", "xmm", "m256", "m128")
	toZMM = strings.NewReplacer("ymm", "zmm", "m256", "m512")
)

// ProbeVariant returns the probe to mix form f with: a VEX ymm probe
// becomes its VEX xmm counterpart for a legacy-SSE vector form (nil when
// the probe has none), and its zmm counterpart for a form with zmm
// operands (512-bit uops fuse or shut down vector ports that 256-bit
// probes would see free). Other probes and forms keep the probe.
//
// A legacy-SSE form is not mixed with ymm code (with dirty upper halves it
// pays SSE/AVX transitions, which say nothing about ports), nor with the
// probe's legacy-SSE counterpart: `mulpd xmm, xmm` reads its destination,
// and two such streams share the sixteen registers legacy code can name.
// On the Zen 4 guest 48 `pshufb xmm, xmm` beside 48 `mulpd xmm, xmm` on 6
// and 8 registers took 37.6 cycles where their ports allow 32.0 (on 8 and
// 16 registers, VEX forms reading their destination: 32.0), and beside
// `vmulpd xmm, xmm, xmm`, whose destination is write-only, 21.3 for 64
// instructions (21.3 allowed; 25.0 beside `mulpd`). VEX.128 code zeroes the
// upper halves it writes: no transition.
func ProbeVariant(f, p *isa.Form) *isa.Form {
	name := p.Name()
	if p.Encoding != isa.VEX || !strings.Contains(name, "ymm") {
		return p
	}
	vector, wide := vectorOperands(f)
	legacySSE := vector && f.Encoding == isa.Legacy
	switch {
	case legacySSE:
		if v, ok := isa.Lookup(toXMM.Replace(name)); ok && v.Encoding == isa.VEX {
			return v
		}
		return nil
	case wide:
		if v, ok := isa.Lookup(toZMM.Replace(name)); ok {
			return v
		}
	}
	return p
}

// mixBatch is how many mixes are measured per batch (see
// Options.BatchForms).
const mixBatch = 256

// measureAndAppend measures a batch of benchmarks, counts them and their
// errors in sum, and appends the results to the sweep's file. next is the
// batch to measure after it (assembled meanwhile where the engine waits;
// nil: none).
func measureAndAppend(eng *measure.Engine, o Options, batch, next []*gen.Bench, w *appender, sum *Summary) error {
	res := measureBenches(eng, o, batch, nil, newWarmer(eng, o, next))
	sum.noteNoisy(batch, res, nil)
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

// vectorOperands reports whether f has vector register operands (xmm, ymm,
// zmm) and whether it is 512 bits wide (a zmm register or an m512 operand).
func vectorOperands(f *isa.Form) (vector, wide bool) {
	for _, op := range f.Operands {
		switch op.Kind {
		case isa.KindXMM, isa.KindYMM:
			vector = true
		case isa.KindZMM:
			vector, wide = true, true
		case isa.KindM512:
			wide = true
		}
	}
	return vector, wide
}

// PortMixCount is how many port-conflict mixes ports mode measures for
// form f with the default probes the host runs (has; nil: all): what a
// time budget plans by.
func PortMixCount(f *isa.Form, has func(string) bool) int {
	var base []*isa.Form
	for _, n := range DefaultProbes {
		if p, ok := isa.Lookup(n); ok && (has == nil || p.Supported(has)) && gen.Unmeasurable(p) == "" {
			base = append(base, p)
		}
	}
	n := 0
	for _, p := range probesFor(f, base) {
		if p.Name() != f.Name() && (has == nil || p.Supported(has)) {
			n++
		}
	}
	return n
}
