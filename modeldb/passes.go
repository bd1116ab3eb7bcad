package modeldb

import (
	"fmt"
	"math"
	"sort"
	"strings"
	"time"

	"portlab/internal/stats"
	"portlab/isa"
)

// The builder, from measurements to a model, is a fixed list of passes
// (buildPasses). Each pass names the measurement that enables its rule; a
// rule found on one host is applied on another only where that host's
// measurements show it, and every pass says in the build report
// (BuildReport.Passes) what it looked at, whether it changed the model,
// and what.

// Pass is what one pass of the builder did.
type Pass struct {
	Name string `json:"name"`
	// Rule is the pass's rule in a sentence; Needs the measurement that
	// enables it.
	Rule  string `json:"rule"`
	Needs string `json:"needs"`
	// Applied says whether the pass changed the model; Evidence is what
	// this host's measurements showed (or lacked) that decided it, and
	// Changes what it changed.
	Applied  bool     `json:"applied"`
	Evidence string   `json:"evidence"`
	Changes  []string `json:"changes,omitempty"`
}

// buildPass is a pass of the builder: its name, its rule, the measurement
// it needs, and the step, which fills in the Pass it reports.
type buildPass struct {
	name, rule, needs string
	run               func(b *builder, r *Pass) error
}

// buildPasses is the builder's pipeline, in order.
var buildPasses = []buildPass{
	{"base", "start from the base model: its ports, dispatch width, header and the entries of forms not measured",
		"a base model (--base)", (*builder).startFromBase},
	{"clusters", "a port group never joins a port that only integer register forms use with one that only vector register forms use, and a form whose operands are all general registers (or all vector registers) is mapped onto its own cluster's ports and the ports the fit adds, never onto the other cluster's or the memory ports, and a memory form whose other operands are so keeps its work to its data's cluster beside the memory ports, where the imported LLVM model nearest the host keeps two such clusters (Zen's integer and floating-point units)",
		"a base model whose ports an imported LLVM model of the host's family names", (*builder).clusters},
	{"store commit", "stores to different cache lines commit at most as fast as measured; the fit counts a mix's store commit as a floor on its cycles",
		"stores to one line and to lines apart", (*builder).storeCommit},
	{"noisy throughputs from the mixes", "a form whose throughput never converged and that ran faster in three or more of its converged mixes (and 1 % of them) than that throughput allows takes the share those mixes give it (noise only adds time; an unconverged mix can read fast)",
		"throughputs that ended noisy, and converged mixes with them", (*builder).noisyThroughputs},
	{"mixes to fit", "fit the mixes a port mapping can explain; hold out a share for validation; leave out those that ran faster than one of their forms alone or slower than their forms one after another",
		"port-conflict and fit mixes", (*builder).selectMixes},
	{"dispatch width", "the base's dispatch width stands unless more than 1 % of the mixes ran more dispatch slots a cycle than it allows (by more than 5 %) and the rate the fastest 1 % reach, rounded, predicts more of the mixes within 10 % with the base's mappings; then it is that rate",
		"a base model with a dispatch width, and mixes", (*builder).dispatchWidth},
	{"classes", "forms of one throughput and the same behaviour with every probe share one mapping; a form whose random mixes the first fit mispredicts gets a class of its own",
		"throughputs and probe mixes", (*builder).classify},
	{"memory part from the base", "a memory form the base gives no memory part takes that of the base's plain load or store of its operand's class",
		"a base model with load and store ports", (*builder).memoryDefaults},
	{"narrow loads on every load port", "forms that read 128 bits or less take every load port the plain 64-bit load needed",
		"mov r64, m64 measured faster than the base's load ports allow", (*builder).narrowLoads},
	{"vector stores apart from loads", "vector stores leave out a port group the base shares with vector loads when a store beside loads ran faster than sharing it allows",
		"mixes of a plain vector store with a plain vector load", (*builder).vectorStores},
	{"memory forms from their parts", "a memory form's fit starts from its register form plus a plain load or store, and keeps that mapping where it fits within the tolerance",
		"the register form and the plain load or store measured", (*builder).memoryHints},
	{"512-bit forms from their 256-bit forms", "a 512-bit form's fit starts from its 256-bit form's ports, scaled to its throughput, and keeps them where they fit within the tolerance",
		"the 256-bit form measured (AVX-512 hosts)", (*builder).wideHints},
	{"ports from the mixes", "each class gets the port groups that predict its mixes best, unless the base's mapping predicts every mix of the class within 10 % (then it stands); dividers stay units of their own, never joined with issue ports",
		"throughputs and mixes", (*builder).solve},
	{"ports beside 512-bit work", "narrower vector forms get the ports they use while 512-bit work runs",
		"mixes of 512-bit work with narrower vector forms (AVX-512 hosts)", (*builder).beside512},
	{"512-bit work in the fit", "the mixes of 512-bit work with narrower vector forms join the fit (every class fitted again with them, then the ports beside 512-bit work again) where that explains all the fitted mixes better than keeping them apart for a port that closes beside 512-bit work",
		"mixes of 512-bit work with narrower vector forms (AVX-512 hosts)", (*builder).crossWidthFit},
	{"entries", "every measured form gets its latencies, throughput, fitted ports, uops within its throughput, flags and provenance",
		"latencies and throughputs", (*builder).entries},
	{"memory groups by width", "a memory port group of a plain load or store is the smaller group another plain load or store uses, at the same cycles a port, in every memory form, where that predicts more of the plain loads' and stores' mixes with each other within 10 % (and all of them closer)",
		"mixes of the plain loads and stores of each width with each other", (*builder).memoryGroups},
	{"mask writes", "every form that writes a mask register takes one of the slots a cycle that writes to the mask registers share, a 512-bit form as many as its stream showed, where a compare into a mask and korw, on disjoint pipes, ran in turn at least halfway from the time those pipes allow to the sum of their times and the fitted ports do not give the pair nine tenths of its time already",
		"streams of korw, of vpcmpeqd k, xmm, xmm and of the two in turn, and of the 512-bit compare alone and with korw (AVX-512 hosts)", (*builder).maskWrites},
	{"loads from their register forms", "a form that only reads its memory operand takes its register form's ports beside its own port groups on the load ports (those the plain loads use), moves and broadcasts from memory aside: a memory form's few mixes do not outweigh its register form's mapping",
		"the plain loads and the register forms measured", (*builder).loadsFromRegisterForms},
	{"latency beside 512-bit work", "a register form whose latency beside 512-bit work differs from its own by more than 5 % keeps both; a memory form takes its register form's",
		"register forms' latency chains with a zmm load after each link (AVX-512 hosts)", (*builder).latency512},
	{"false dependencies", "a form with a write-only vector or MMX destination whose stream over one destination register ran more than 1.25 times its throughput (and a quarter cycle or more slower) waits for that destination's previous value: that stream's cycles an instance are the link",
		"each such form's throughput stream over one destination register (destination-chain)", (*builder).falseDependencies},
	{"loads and stores in the header", "the model's load ports, load latency, store ports and store-to-load forwarding latency are the plain 64-bit load's and store's; the load latency of xmm, ymm, zmm and MMX registers the load-to-use latency of their plain loads (movups xmm, m128; vmovups ymm, m256; vmovups zmm, m512; movq mm, m64)",
		"mov r64, m64 and mov m64, r64 measured; for a vector class, its plain load's load-to-use chain", (*builder).loadStoreHeader},
	{"line splits", "a load that crosses a 64-byte line takes its load ports as many times as its split stream ran slower than the plain load, per width, where 1.1 times or more",
		"plain loads, each crossing a line", (*builder).lineSplits},
	{"late forwarding", "a one-cycle vector instruction that reads a multiply-class result directly takes the extra cycles its chain showed, per vector width",
		"vpaddd accumulator chains alone and fed by vpmaddwd", (*builder).lateForwarding},
	{"one-cycle vector work beside multi-cycle work", "a one-cycle vector instruction's result takes the delay its chain showed beside two vpmaddwd a link, per vector width, scaled by a block's rate of vector work of three cycles or more",
		"vpaddd accumulator chains beside two vpmaddwd a link", (*builder).besideMulticycle},
	{"vector domains", "a vector register form whose chain with vpaddd and with vaddps of its width differ by more than half a cycle a pair beyond their latencies takes the domain it crosses to for free, and a crossing the cycles the chains showed (whole cycles, the median)",
		"each vector register form chained with vpaddd and with vaddps", (*builder).domains},
	{"load latency by address shape", "a load whose address shape ran half a cycle or more longer than base+index takes those cycles (rounded) more from its address registers",
		"mov r64, m64 chained through the index in each address shape", (*builder).loadAddress},
	{"address ports", "each lea address shape takes the port group that predicts its mixes with probes",
		"lea address shapes beside probe forms", (*builder).addressPorts},
	{"port names", "a build from no base names an abstract port after the port of the imported LLVM model nearest the host that the same forms use (the Jaccard index of the two sets of forms at least 0.35, 3 forms on both, best pairs first, each port once); the others keep their abstract names",
		"a build from no base, and an imported LLVM model of the host's family", (*builder).portNames},
}

// builder is the state the passes share.
type builder struct {
	ms    *Measurements
	opt   BuildOptions
	split map[string]bool
	date  string

	m   *Model
	rep *BuildReport
	p   *inferProblem

	// fitMixes are the mixes the ports are fitted to, crossMixes those of
	// 512-bit work beside narrower vector forms.
	fitMixes, crossMixes []*MixMeasurement
	// mixesOf: every mix a form is fitted to; probeMixesOf: only the
	// probe mixes, which decide the classes (MixMeasurement.Random);
	// crossProbesOf: a narrower vector form's probe mixes with 512-bit
	// work.
	mixesOf, probeMixesOf, crossProbesOf map[string][]int
	// commitOf is each fitted mix's store commit (StoreCommitCycles).
	commitOf map[*MixMeasurement]float64
	// names are the forms with a measured throughput or latency.
	names   []string
	classOf map[string]int
}

// build is Build with the forms of split in classes of their own: the
// passes, in order.
func build(ms *Measurements, opt BuildOptions, split map[string]bool) (*Model, *BuildReport, error) {
	// The mask-write slots are this host's measurement (the pass "mask
	// writes"), never the base's.
	opt.Base = withoutMaskWrites(opt.Base)
	b := &builder{ms: ms, opt: opt, split: split}
	for _, bp := range buildPasses {
		r := Pass{Name: bp.name, Rule: bp.rule, Needs: bp.needs}
		if opt.Infer.Progress != nil {
			opt.Infer.Progress(bp.name, 0, 0)
		}
		if err := bp.run(b, &r); err != nil {
			return nil, nil, err
		}
		if b.p != nil && b.p.stopped {
			return nil, nil, fmt.Errorf("%w (in the pass %q)", ErrBuildStopped, bp.name)
		}
		b.rep.Passes = append(b.rep.Passes, r)
	}
	sort.Slice(b.rep.Fits, func(i, j int) bool { return b.rep.Fits[i].Form < b.rep.Fits[j].Form })
	return b.m, b.rep, nil
}

// startFromBase: the model's header and provenance, and the inference
// problem's ports (the base's, or abstract ones).
func (b *builder) startFromBase(r *Pass) error {
	ms, opt := b.ms, b.opt
	now := time.Now
	if opt.Now != nil {
		now = opt.Now
	}
	b.date = now().UTC().Format("2006-01-02")
	b.rep = &BuildReport{Skipped: append([]string(nil), ms.Skipped...)}
	if opt.Base != nil {
		b.m = opt.Base.Clone()
	} else {
		b.m = &Model{ISA: "x86"}
	}
	m := b.m
	host := strings.Join(ms.Hosts, ",")
	if opt.Name != "" {
		m.Name = opt.Name
	} else if opt.Base == nil {
		m.Name = "measured on " + host
	} else {
		m.Name = strings.TrimSpace(opt.Base.Name + " corrected by measurements on " + host)
	}
	if opt.LLVMCPU == "" && opt.Base == nil && len(ms.Microarchs) == 1 {
		// From no base, the CPU the results' host named.
		opt.LLVMCPU = ms.Microarchs[0]
	}
	if opt.LLVMCPU != "" && opt.LLVMCPU != m.LLVMCPU {
		// Another CPU than the base's: its micro-architecture too.
		if opt.Base == nil || m.MicroArchitecture == opt.Base.MicroArchitecture {
			m.MicroArchitecture = ""
		}
		m.LLVMCPU = opt.LLVMCPU
	}
	if m.MicroArchitecture == "" {
		m.MicroArchitecture = m.LLVMCPU
	}
	from := opt.From
	if from == "" {
		from = "portlab model build"
		if len(opt.Sources) > 0 {
			from += " " + strings.Join(opt.Sources, " ")
		}
	}
	note := ""
	if opt.Base != nil {
		note = "started from " + opt.Base.Label()
		if opt.Base.Provenance != nil && opt.Base.Provenance.From != "" {
			note += " (" + opt.Base.Provenance.From + ")"
		}
	}
	m.Provenance = &Provenance{Source: SourceMeasured, From: from, Host: host, Date: b.date, Note: note}

	p := &inferProblem{opt: opt.Infer}
	p.opt.defaults()
	b.p = p
	if opt.Base == nil {
		p.abstract = true
		r.Evidence = "no base model: ports are abstract groups the mixes open"
		return nil
	}
	p.ports = append([]string(nil), b.m.Ports...)
	if len(p.ports) > 64 {
		return fmt.Errorf("base model %s has %d ports; inference handles up to 64", opt.Base.Label(), len(p.ports))
	}
	p.basePorts = len(p.ports)
	p.units = unitPorts(p.ports)
	if opt.Base.DispatchWidth > 0 {
		p.width, p.fixedWidth = float64(opt.Base.DispatchWidth), true
	}
	r.Applied = true
	r.Evidence = opt.Base.Label()
	r.Changes = append(r.Changes, fmt.Sprintf("%d ports, dispatch width %d, %d entries (those of forms not measured stay as they are)", len(p.ports), opt.Base.DispatchWidth, len(opt.Base.Forms)))
	return nil
}

// dispatchWidth raises a base model's dispatch width that the mixes
// contradict, counting each form's slots as the base's uops fused. LLVM
// 14 gives Zen 1 and Zen 2 a width of 4: on the Zen 4 guest 17 % of the
// mixes ran more slots a cycle than that, and its znver2 model as a base
// with width 6 gave 42.8 % of a fresh draw within 10 %, with 4 38.2 %
// (docs/models.md, "The base"). It runs before the classes, whose slots
// are the base's uops within the width.
func (b *builder) dispatchWidth(r *Pass) error {
	p, base := b.p, b.opt.Base
	if base == nil || !p.fixedWidth || p.width <= 0 {
		r.Evidence = "no base model with a dispatch width: the fit estimates it"
		return nil
	}
	slots := map[string]float64{}
	slotsOf := func(form string) float64 {
		if v, ok := slots[form]; ok {
			return v
		}
		tp := 0.0
		if fm, ok := b.ms.Forms[form]; ok {
			tp = fm.Throughput
		}
		v, _ := baseSlots(base, form, tp, p.width)
		slots[form] = v
		return v
	}
	var rates []float64
	over := 0
	for _, mixes := range [][]*MixMeasurement{b.fitMixes, b.crossMixes} {
		for _, mx := range mixes {
			if mx.Cycles <= 0 {
				continue
			}
			u := mx.Overhead
			for _, pt := range mx.Parts {
				u += float64(pt.Count) * slotsOf(pt.Form)
			}
			rate := u / mx.Cycles
			rates = append(rates, rate)
			if rate > p.width*1.05 {
				over++
			}
		}
	}
	share := float64(over) / float64(max(1, len(rates)))
	r.Evidence = fmt.Sprintf("%d mixes: %.1f %% ran more dispatch slots a cycle than the base's width %s allows", len(rates), 100*share, FormatNum(p.width))
	if len(rates) == 0 || share <= 0.01 {
		return nil
	}
	w := fastestOnePercent(rates)
	if w <= p.width {
		return nil
	}
	// A few forms whose base uops are too many read as mixes faster than
	// the width, and a wider dispatch loosens the bound of every mix:
	// the raised width must predict the mixes better with the base's own
	// mappings. On a Zen 4 guest without AVX-512 (AuthenticAMD-19-11-1,
	// 2026-11-30) 1.3 % of 93,229 mixes ran faster than the embedded
	// model's 6 a cycle, and 7 left 58.2 % of 95,959 mixes within 10 %
	// where 6 left 63.0 % (the build with 7 put 58.8 % of the validation
	// draw within 10 %, with 6 65.8 %).
	kept, raised := widthWithin(base, []int{int(p.width), int(w)}, append(append([]*MixMeasurement(nil), b.fitMixes...), b.crossMixes...))
	r.Evidence += fmt.Sprintf("; with the base's mappings %s a cycle puts %s of them within 10 %%, %s %s", FormatNum(w), pct(raised), FormatNum(p.width), pct(kept))
	if raised.Within*kept.N <= kept.Within*raised.N {
		return nil
	}
	r.Applied = true
	r.Changes = append(r.Changes, fmt.Sprintf("dispatch width %s -> %s (the rate the fastest 1 %% of the mixes reach)", FormatNum(p.width), FormatNum(w)))
	p.baseWidth, p.overWidth, p.width = p.width, share, w
	b.m.DispatchWidth = int(w)
	return nil
}

// widthSample bounds the mixes widthWithin predicts: every k-th of them
// beyond it (a few seconds for two widths).
const widthSample = 20000

// widthWithin predicts mixes with the base's mappings at two dispatch
// widths (at most widthSample of the mixes, evenly spaced): the pass
// "dispatch width" raises the width only where that predicts more of them.
func widthWithin(base *Model, widths []int, mixes []*MixMeasurement) (kept, raised *MixReport) {
	if n := len(mixes); n > widthSample {
		sample := make([]*MixMeasurement, 0, widthSample)
		for i := 0; i < widthSample; i++ {
			sample = append(sample, mixes[i*n/widthSample])
		}
		mixes = sample
	}
	m := base.Clone()
	m.DispatchWidth = widths[0]
	kept = EvaluateMixMeasurements(m, mixes, 0.10)
	m.DispatchWidth = widths[1]
	return kept, EvaluateMixMeasurements(m, mixes, 0.10)
}

// pct is a report's share of mixes within its tolerance, in words.
func pct(r *MixReport) string { return fmt.Sprintf("%.1f %%", 100*r.Fraction()) }

// baseSlots is the dispatch slots one instance of a form takes by the
// base's uops (within what its throughput and the width allow), memory
// uops fused as the built model dispatches them, and those uops: 1 and 0
// where the base gives none.
func baseSlots(base *Model, form string, tp, width float64) (slots, uops float64) {
	if base == nil {
		return 1, 0
	}
	be, ok := base.Lookup(form)
	if !ok || be.Uops <= 0 {
		return 1, 0
	}
	uops = uopsWithin(be.Uops, tp, width)
	f, _ := isa.Lookup(form)
	return DispatchSlots(f, uops, true), uops
}

// selectMixes sorts the measured mixes into fitted, held out and
// contradicting ones (see contradicts), and the fitted ones into those of
// 512-bit work beside narrower forms and the rest.
// noisyThroughputs lowers the throughputs that never converged where
// their mixes show them faster. A mix of n instances of a form measured
// at c cycles a copy bounds the form's reciprocal throughput by c/n, noise
// only ever adding to c; a throughput the neighbour inflated leaves its
// mixes "faster than the form alone", and they would be left out of the
// fit (on the Zen 3 guest, with three of four mixes noisy, shl r64, imm8
// read 0.57 cycles for 0.50 and 1,151 of its mixes were left out). The
// mixes read are the converged ones: an unconverged mix reads fast as
// often as slow (on the same host, `add r64, r64` in 2,088 noisy mixes:
// the fastest three 0.139-0.185 cycles an add, four ALUs allowing 0.25;
// in 592 converged ones 0.242-0.243). Of their bounds the third-fastest,
// or the fastest 1 % where there are more than 300, is taken, so that a
// few mixes read fast by the canary's 3 % change nothing. A converged
// throughput is kept: its form may be limited alone by what a mix
// removes. b.ms becomes a copy; the caller's measurements are not
// changed.
func (b *builder) noisyThroughputs(r *Pass) error {
	bounds := map[string][]float64{}
	noisy := 0
	for _, fm := range b.ms.Forms {
		if fm.ThroughputNoisy && fm.Throughput > 0 {
			noisy++
		}
	}
	if noisy == 0 {
		r.Evidence = "every measured throughput converged"
		return nil
	}
	for _, mx := range b.ms.Mixes {
		if mx.Cycles <= 0 || mx.Noisy {
			continue
		}
		for _, pt := range mx.Parts {
			if fm, ok := b.ms.Forms[pt.Form]; ok && fm.ThroughputNoisy && fm.Throughput > 0 && pt.Count > 0 {
				bounds[pt.Form] = append(bounds[pt.Form], mx.Cycles/float64(pt.Count))
			}
		}
	}
	changed := map[string]float64{}
	for f, bs := range bounds {
		tp := b.ms.Forms[f].Throughput
		var faster []float64
		for _, v := range bs {
			if v < tp*(1-contradictionMargin) {
				faster = append(faster, v)
			}
		}
		k := max(noisyThroughputMixes, (len(bs)+99)/100)
		if len(faster) < k {
			continue
		}
		sort.Float64s(faster)
		changed[f] = faster[k-1]
	}
	r.Evidence = fmt.Sprintf("%d throughputs ended noisy; %d of them ran faster in %d or more of their converged mixes (and 1 %% of them)", noisy, len(changed), noisyThroughputMixes)
	if len(changed) == 0 {
		return nil
	}
	ms := *b.ms
	ms.Forms = make(map[string]*FormMeasurements, len(b.ms.Forms))
	for f, fm := range b.ms.Forms {
		if v, ok := changed[f]; ok {
			c := *fm
			c.Throughput = v
			fm = &c
		}
		ms.Forms[f] = fm
	}
	names := make([]string, 0, len(changed))
	for f := range changed {
		names = append(names, f)
	}
	sort.Slice(names, func(i, j int) bool {
		ri := changed[names[i]] / b.ms.Forms[names[i]].Throughput
		rj := changed[names[j]] / b.ms.Forms[names[j]].Throughput
		if ri != rj {
			return ri < rj
		}
		return names[i] < names[j]
	})
	ex := make([]string, 0, 3)
	for _, f := range names[:min(3, len(names))] {
		ex = append(ex, fmt.Sprintf("%s %s -> %s", f, FormatNum(b.ms.Forms[f].Throughput), FormatNum(changed[f])))
	}
	r.Applied = true
	r.Changes = append(r.Changes, fmt.Sprintf("%d throughputs lowered to the share their converged mixes give them, e.g. %s", len(changed), strings.Join(ex, "; ")))
	b.ms = &ms
	return nil
}

// noisyThroughputMixes is how many of a noisy throughput's mixes must run
// faster than it for the builder to lower it (the value is theirs at that
// rank).
const noisyThroughputMixes = 3

func (b *builder) selectMixes(r *Pass) error {
	ms, rep := b.ms, b.rep
	var fitMixes []*MixMeasurement
	b.commitOf = map[*MixMeasurement]float64{}
	for _, mx := range ms.Mixes {
		ok := mx.Cycles > 0
		for _, pt := range mx.Parts {
			if fm, found := ms.Forms[pt.Form]; !found || fm.Throughput <= 0 {
				ok = false
			}
		}
		if !ok {
			rep.Skipped = append(rep.Skipped, fmt.Sprintf("mix %s: a form has no measured throughput", mx.Key()))
			continue
		}
		commit := mx.StoreCommitCycles(b.m.StoreCommit)
		if heldOut(mx.Key(), b.opt.HoldOut) {
			rep.HeldOut = append(rep.HeldOut, mx)
			if f, slower := contradicts(mx, ms, commit); f == "" && !slower {
				rep.HeldOutExplainable = append(rep.HeldOutExplainable, mx)
			}
			continue
		}
		if f, slower := contradicts(mx, ms, commit); f != "" || slower && !isCrossWidth(mx) {
			if rep.FasterThanAlone == nil {
				rep.FasterThanAlone, rep.SlowerThanSerial = map[string]int{}, map[string]int{}
			}
			rep.Contradicting++
			if f != "" {
				rep.FasterThanAlone[f]++
			} else {
				for _, pt := range mx.Parts {
					rep.SlowerThanSerial[pt.Form]++
				}
			}
			continue
		}
		fitMixes = append(fitMixes, mx)
		b.commitOf[mx] = commit
		if mx.Random {
			rep.RandomMixesUsed++
		}
	}
	rep.MixesUsed = len(fitMixes)
	rep.fitted = fitMixes
	// Mixes of 512-bit work with narrower vector forms fit the narrower
	// forms' ports beside 512-bit work, after the ports themselves (see
	// wide512.go); the other mixes fit the ports.
	b.fitMixes, b.crossMixes = splitCrossWidth(fitMixes)
	b.mixesOf, b.probeMixesOf = map[string][]int{}, map[string][]int{}
	for i, mx := range b.fitMixes {
		for _, pt := range mx.Parts {
			b.mixesOf[pt.Form] = append(b.mixesOf[pt.Form], i)
			if !mx.Random {
				b.probeMixesOf[pt.Form] = append(b.probeMixesOf[pt.Form], i)
			}
		}
	}
	// The probe mixes of a narrower vector form with 512-bit work are part
	// of its class's signature: forms alike beside their own width may
	// part beside 512-bit work, and fit512 fits a class as one. On the
	// Granite Rapids guest multiplies and shifts both run on ports 0 and
	// 1; beside 512-bit work multiplies take ports 0 and 5, shifts port 0
	// only (8 vmulps ymm or vpmullw ymm with 4 vpermd zmm: 6 cycles; 8
	// vpslld ymm, imm8: 8). As one class, 242 forms got port 0.
	b.crossProbesOf = map[string][]int{}
	for i, mx := range b.crossMixes {
		if mx.Random {
			continue
		}
		for _, pt := range mx.Parts {
			b.crossProbesOf[pt.Form] = append(b.crossProbesOf[pt.Form], i)
		}
	}
	if len(ms.Mixes) == 0 {
		r.Evidence = "no mixes measured: the ports are the base's, scaled to the measured throughputs"
		return nil
	}
	r.Applied = true
	r.Evidence = fmt.Sprintf("%d mixes measured", len(ms.Mixes))
	r.Changes = append(r.Changes, fmt.Sprintf("%d fitted (%d drawn at random, %d of 512-bit work beside narrower forms), %d held out, %d not fitted: no port mapping explains them",
		rep.MixesUsed, rep.RandomMixesUsed, len(b.crossMixes), len(rep.HeldOut), rep.Contradicting))
	return nil
}

// classify groups the forms with a throughput into classes: one class per
// throughput (within 3 %), width and behaviour with every probe (its mix
// signature); forms never mixed, and those of b.split, are classes of
// their own.
func (b *builder) classify(r *Pass) error {
	ms, opt, p := b.ms, b.opt, b.p
	for n, fm := range ms.Forms {
		if fm.Throughput > 0 || len(fm.Latencies) > 0 {
			b.names = append(b.names, n)
		}
	}
	sort.Strings(b.names)
	b.rep.Measured = len(b.names)
	b.classOf = map[string]int{}
	byKey := map[string]int{}
	p.memPorts = p.memoryPorts(opt.Base)
	withTp, mixed, solo := 0, 0, 0
	for _, n := range b.names {
		fm := ms.Forms[n]
		if fm.Throughput <= 0 {
			continue
		}
		withTp++
		var baseUses []maskUse
		baseKey := ""
		if opt.Base != nil {
			if be, ok := opt.Base.Lookup(n); ok && len(be.PortPressure) > 0 {
				baseUses = p.compile(be.PortPressure)
				baseKey = FormatPressure(be.PortPressure)
			}
		}
		// A masked or {evex}-spelled form that was never mixed is judged
		// by the mixes of the form it is a variant of: with the same
		// throughput it joins that form's class (ports sweeps may leave
		// the variants out, `--exclude '*{k}*'`, to halve their time).
		judged := n
		if len(b.probeMixesOf[n]) == 0 {
			if u := variantOf(n); len(b.probeMixesOf[u]) > 0 {
				judged = u
			}
		}
		key := ""
		wide, narrow := formWidth(n)
		if b.split[n] {
			key = "split|" + n
		} else if len(b.probeMixesOf[judged]) > 0 {
			mixed++
			key = fmt.Sprintf("%d|%t|%t|%s|%s", int(math.Round(math.Log(fm.Throughput)/math.Log(1.03))), wide, narrow, baseKey, mixSignature(judged, b.probeMixesOf[judged], b.fitMixes, ms))
			if narrow {
				key += "|" + mixSignature(judged, b.crossProbesOf[judged], b.crossMixes, ms)
			}
		} else {
			solo++
			key = "solo|" + n
		}
		d := registerDomain(n)
		c, ok := byKey[key]
		if !ok {
			c = len(p.classes)
			byKey[key] = c
			slots, uops := baseSlots(opt.Base, n, fm.Throughput, p.width)
			oneUop := uops == 1 && len(baseUses) == 1
			// A register form has no memory part, even where a base
			// fitted before has it on a load port.
			var mem []maskUse
			if !d.register() {
				mem = p.fixedMemoryUses(baseUses, fm.Throughput)
			}
			p.classes = append(p.classes, &inferClass{base: baseUses, slots: slots, oneUop: oneUop,
				mem: mem, wide: wide, narrow: narrow})
		}
		cl := p.classes[c]
		if len(cl.forms) > 0 && d != cl.domain {
			d = domainNone
		}
		cl.domain = d
		cl.forms = append(cl.forms, n)
		b.classOf[n] = c
	}
	for _, cl := range p.classes {
		var tps []float64
		mixSet := map[int]bool{}
		for _, n := range cl.forms {
			tps = append(tps, ms.Forms[n].Throughput)
			for _, k := range b.mixesOf[n] {
				mixSet[k] = true
			}
		}
		cl.tp = stats.Median(tps)
		for _, n := range cl.forms {
			cl.overhead = max(cl.overhead, ms.Forms[n].Overhead)
		}
		for k := range mixSet {
			cl.mixes = append(cl.mixes, k)
		}
		sort.Ints(cl.mixes)
	}
	for _, mx := range b.fitMixes {
		p.mixes = append(p.mixes, b.inferMix(mx))
	}
	for _, cl := range p.classes {
		cl.variant = -1
		if c, ok := b.classOf[variantOf(cl.forms[0])]; ok && p.classes[c] != cl {
			cl.variant = c
		}
	}
	b.rep.Classes = len(p.classes)
	if withTp == 0 {
		r.Evidence = "no throughput measured"
		return nil
	}
	r.Applied = true
	r.Evidence = fmt.Sprintf("%d forms with a throughput: %d judged by their probe mixes, %d never mixed", withTp, mixed, solo)
	r.Changes = append(r.Changes, fmt.Sprintf("%d classes", len(p.classes)))
	if len(b.split) > 0 {
		r.Changes = append(r.Changes, fmt.Sprintf("%d forms in classes of their own: a first fit mispredicted their random mixes", len(b.split)))
	}
	return nil
}

// inferMix is a fitted mix as the port fit sees it: its forms' classes
// (every form of a fitted mix has a throughput, hence a class) and its
// store commit.
func (b *builder) inferMix(mx *MixMeasurement) inferMix {
	im := inferMix{y: mx.Cycles, overhead: mx.Overhead, commit: b.commitOf[mx]}
	for _, pt := range mx.Parts {
		im.parts = append(im.parts, classCount{b.classOf[pt.Form], float64(pt.Count)})
	}
	return im
}

// memoryDefaults gives memory forms the base has no memory part for the
// memory part of the base's plain load or store (defaultMemoryUses).
func (b *builder) memoryDefaults(r *Pass) error {
	p := b.p
	if b.opt.Base == nil || p.memPorts == 0 {
		r.Evidence = "no base model with load and store ports"
		return nil
	}
	r.Evidence = "the base's plain loads and stores use " + p.groupName(p.memPorts)
	n := 0
	for _, cl := range p.classes {
		if cl.mem == nil {
			cl.mem = p.defaultMemoryUses(b.opt.Base, cl.forms[0], cl.tp)
			if cl.mem != nil {
				n++
			}
		}
	}
	if n > 0 {
		r.Applied = true
		r.Changes = append(r.Changes, fmt.Sprintf("%d classes of memory forms took the memory part of the base's plain load or store", n))
	}
	return nil
}

// narrowLoads: see narrowLoadsOnEveryLoadPort.
func (b *builder) narrowLoads(r *Pass) error {
	if b.opt.Base == nil {
		r.Evidence = "no base model: no load ports to grow"
		return nil
	}
	load := loadForms["gpr"]
	group, grown, n := b.p.narrowLoadsOnEveryLoadPort(b.opt.Base)
	tp := 0.0
	if fm, ok := b.ms.Forms[load]; ok {
		tp = fm.Throughput
	}
	switch {
	case group == 0:
		r.Evidence = "the base's " + load + " has no single load port group"
	case tp <= 0:
		r.Evidence = load + " not measured"
	case grown == 0:
		r.Evidence = fmt.Sprintf("%s measured at %s cycles: the base's load ports %s suffice", load, FormatNum(round5(tp)), b.p.groupName(group))
	default:
		r.Evidence = fmt.Sprintf("%s measured at %s cycles: more than the base's load ports %s allow, which grew by %s", load, FormatNum(round5(tp)), b.p.groupName(group), b.p.groupName(grown))
		if n > 0 {
			r.Applied = true
			r.Changes = append(r.Changes, fmt.Sprintf("%d classes of forms that read 128 bits or less take %s too", n, b.p.groupName(grown)))
		}
	}
	return nil
}

// vectorStores: see calibrateStores.
func (b *builder) vectorStores(r *Pass) error {
	var n int
	var unexplained []string
	b.rep.MemoryPath, n, unexplained = b.p.calibrateStores(b.fitMixes, b.classOf)
	if n == 0 {
		r.Evidence = "no mix of a plain vector store with a plain vector load"
		return nil
	}
	r.Evidence = fmt.Sprintf("%d mixes of a plain vector store with a plain vector load", n)
	switch {
	case len(unexplained) > 0:
		// Said as it is: faster than the shared ports allow, and no
		// group left out fits; the fit's own ports for the plain forms
		// are all that is left to explain them.
		r.Evidence += fmt.Sprintf(": %d ran faster than the base's shared ports allow and no group left out of the stores predicts them (%s)",
			len(unexplained), strings.Join(unexplained[:min(len(unexplained), 2)], "; "))
	case len(b.rep.MemoryPath) == 0:
		r.Evidence += ": the base's shared ports predict them"
	}
	if len(b.rep.MemoryPath) == 0 {
		return nil
	}
	r.Applied = true
	r.Changes = append(r.Changes, b.rep.MemoryPath...)
	return nil
}

// memoryHints: a memory form's fit may start from its register form plus
// the plain load or store of its operand's class (or the 64-bit one).
func (b *builder) memoryHints(r *Pass) error {
	p, classOf := b.p, b.classOf
	n := 0
	for _, cl := range p.classes {
		f, ok := isa.Lookup(cl.forms[0])
		if !ok {
			continue
		}
		mi := memoryOperand(f)
		if mi < 0 {
			continue
		}
		rf, class := registerCounterpart(f, mi, func(n string) bool { _, ok := classOf[n]; return ok })
		if rf == nil {
			continue
		}
		h := []int{classOf[rf.Name()]}
		// The plain load or store of the operand's register class, else
		// the general-register one.
		add := func(forms map[string]string) bool {
			for _, k := range []string{class, "gpr"} {
				if c, ok := classOf[forms[k]]; ok {
					h = append(h, c)
					return true
				}
			}
			return false
		}
		acc := f.Operands[mi].Access
		okHint := true
		if acc&isa.Read != 0 {
			okHint = add(loadForms)
		}
		if acc&(isa.Write|isa.CondWrite) != 0 {
			okHint = add(storeForms) && okHint
		}
		if okHint {
			cl.hints = append(cl.hints, h)
			n++
		}
	}
	if n == 0 {
		r.Evidence = "no memory form whose register form and plain load or store were measured"
		return nil
	}
	r.Applied = true
	r.Evidence = fmt.Sprintf("%d classes of memory forms whose register form and plain load or store were measured", n)
	r.Changes = append(r.Changes, fmt.Sprintf("%d classes start their fit from register form + load or store", n))
	return nil
}

// wideHints gives every class of 512-bit forms its forms' 256-bit forms'
// classes as candidates (the same operands, ymm for zmm and m256 for m512;
// up to maxWideHints): a 512-bit form's ports are its 256-bit form's,
// scaled to its throughput, unless its mixes say otherwise. Zen 4 runs
// 512-bit work on its 256-bit pipes, each uop twice; LLVM 14's znver3, the
// base a new Zen 4 host starts from, has no AVX-512 form, and without the
// hint the fit gave their classes groups of their own: on the Zen 4 guest
// (2026-11-29) `vpabsb zmm, zmm` took 4*p[ALU0-3,Store.0,Store.1] +
// 2*p[FPP2,FPP3] where `vpaddusb xmm, xmm, xmm` took p[FPP0,FPP1] (8 of
// the one beside 4 of the other: 8.0 cycles measured, 4.0 predicted), and
// 51.0 % of 192 random mixes holding 512-bit work beside narrower forms
// fell within 10 % (73.4 % with the hint; all 400: 64.2 % and 75.5 %;
// 15,643 held-out mixes: 65.6 % and 75.9 %). Where the 512-bit form runs
// otherwise (Intel's AVX-512 cores fuse ports 0 and 1), its mixes outweigh
// the hint.
func (b *builder) wideHints(r *Pass) error {
	p := b.p
	n, wide := 0, 0
	for _, cl := range p.classes {
		if !cl.wide {
			continue
		}
		wide++
		seen := map[int]bool{}
		for _, f := range cl.forms {
			if c, ok := b.classOf[narrowCounterpart(f)]; ok && p.classes[c] != cl && !seen[c] && len(seen) < maxWideHints {
				seen[c] = true
				cl.hints = append(cl.hints, []int{c})
			}
		}
		if len(seen) > 0 {
			n++
		}
	}
	if n == 0 {
		if wide == 0 {
			r.Evidence = "no 512-bit form measured"
		} else {
			r.Evidence = fmt.Sprintf("%d classes of 512-bit forms, none whose 256-bit form was measured", wide)
		}
		return nil
	}
	r.Applied = true
	r.Evidence = fmt.Sprintf("%d of %d classes of 512-bit forms have their 256-bit form measured", n, wide)
	r.Changes = append(r.Changes, fmt.Sprintf("%d classes start their fit from their 256-bit form's ports", n))
	return nil
}

// maxWideHints bounds the 256-bit forms a class of 512-bit forms starts
// from: its forms' own, the first eight classes of them.
const maxWideHints = 8

var toNarrow = strings.NewReplacer("zmm", "ymm", "m512", "m256")

// narrowCounterpart is the 256-bit form of a 512-bit form: the same
// operands with ymm for zmm and m256 for m512 ("" when the name has
// neither).
func narrowCounterpart(name string) string {
	if cp := toNarrow.Replace(name); cp != name {
		return cp
	}
	return ""
}

// solve fits every class's ports to the mixes (infer.go).
func (b *builder) solve(r *Pass) error {
	p := b.p
	p.solve()
	if len(p.classes) == 0 {
		r.Evidence = "no throughput measured"
		return nil
	}
	r.Applied = true
	r.Evidence = fmt.Sprintf("%d classes, %d mixes", len(p.classes), len(p.mixes))
	if p.units != 0 {
		r.Evidence += "; the base's dividers " + p.groupName(p.units) + " kept apart from the issue ports"
	}
	width := "the base's"
	switch {
	case !p.fixedWidth:
		width = "the rate the fastest 1 % of the mixes and forms reach"
	case p.baseWidth > 0:
		width = fmt.Sprintf("the base's %s raised: %.1f %% of the mixes ran faster than it allows", FormatNum(p.baseWidth), 100*p.overWidth)
	}
	r.Changes = append(r.Changes, fmt.Sprintf("dispatch width %s (%s)", FormatNum(p.width), width))
	if len(p.ports) > p.basePorts && !p.abstract {
		r.Changes = append(r.Changes, fmt.Sprintf("%d ports the base lacks: %s", len(p.ports)-p.basePorts, strings.Join(p.ports[p.basePorts:], " ")))
	}
	return nil
}

// beside512 fits the narrower vector forms' ports beside 512-bit work
// (fit512), then the model's ports and dispatch width follow the fit.
func (b *builder) beside512(r *Pass) error {
	p, rep := b.p, b.rep
	rep.Beside512 = p.fit512(b.crossMixes, b.classOf)
	b.followFit()
	if len(b.crossMixes) == 0 {
		r.Evidence = "no mix of 512-bit work with narrower vector forms (no AVX-512, or not measured)"
		return nil
	}
	r.Evidence = fmt.Sprintf("%d mixes of 512-bit work with narrower vector forms", len(b.crossMixes))
	moved := 0
	for _, cl := range p.classes {
		if cl.cur512 != nil {
			moved++
		}
	}
	if moved == 0 {
		r.Evidence += ": the forms' own ports predict them"
		return nil
	}
	r.Applied = true
	r.Changes = append(r.Changes, rep.Beside512...)
	return nil
}

// followFit makes the model's ports and dispatch width those of the fit.
func (b *builder) followFit() {
	p, m, rep := b.p, b.m, b.rep
	if len(p.ports) > len(m.Ports) {
		m.Ports = append([]string(nil), p.ports...)
	}
	rep.Ports = append([]string(nil), m.Ports...)
	rep.DispatchWidth = p.width
	// Every x86 core since Core 2 and K8 dispatches a load-op form as one
	// slot (micro-fusion, macro-ops).
	m.MicroFusion = true
	if m.DispatchWidth == 0 && p.width > 0 && p.width == math.Trunc(p.width) {
		m.DispatchWidth = int(p.width)
	}
}

// crossWidthFit fits the cross-width mixes with the others and keeps
// that fit where it explains all the mixes better. The first stage fits
// mixes of one width only, so that a port 512-bit work closes to
// narrower forms (Intel's port 1) does not pull their mappings; where
// none closes, leaving those mixes out hides which ports 512-bit forms
// share with narrower ones: from no base (abstract ports) the Zen 4
// guest's 512-bit forms got ports of their own (vfmadd231pd zmm none of
// vfmadd231pd ymm's) and 42 % of a fresh draw's mixes of 512-bit work
// with narrower forms came within 10 %, and closing a port seemed to
// explain them (their error 10.5 % -> 9.8 %).
func (b *builder) crossWidthFit(r *Pass) error {
	p, rep := b.p, b.rep
	x := p.fit512Result
	if len(b.crossMixes) == 0 || x.n == 0 {
		r.Evidence = "no mix of 512-bit work with narrower vector forms (no AVX-512, or not measured)"
		return nil
	}
	var add []inferMix
	for _, mx := range b.crossMixes {
		add = append(add, b.inferMix(mx))
	}
	nOthers := len(p.mixes)
	othersA := p.errorOver(0, nOthers)
	errA := pooledRMS(othersA, nOthers, x.after, x.n)
	closedA := "no port closing"
	if x.closed >= 0 {
		closedA = "port " + p.ports[x.closed] + " closing"
	}
	snap := p.snapshot()
	besideA := rep.Beside512
	p.refitWith(add)
	othersB := p.errorOver(0, nOthers)
	besideB := p.fit512(b.crossMixes, b.classOf)
	xb := p.fit512Result
	errB := pooledRMS(othersB, nOthers, xb.after, xb.n)
	r.Evidence = fmt.Sprintf("%d cross-width mixes: apart, with %s beside 512-bit work, RMS error %s of them and %s of all fitted mixes; fitted with the others, %s and %s",
		x.n, closedA, formatPct(x.after), formatPct(errA), formatPct(xb.after), formatPct(errB))
	if errB >= errA {
		p.restore(snap)
		p.fit512Result = x
		rep.Beside512 = besideA
		r.Evidence += ": they stay apart"
		return nil
	}
	b.followFit()
	rep.Beside512 = besideB
	r.Applied = true
	r.Evidence += ": fitted with the others"
	r.Changes = append(r.Changes, fmt.Sprintf("%d mixes fitted with the %d others, every class again (RMS error of the others %s -> %s)",
		len(add), nOthers, formatPct(othersA), formatPct(othersB)))
	r.Changes = append(r.Changes, besideB...)
	return nil
}

// pooledRMS joins two RMS errors over na and nb mixes.
func pooledRMS(a float64, na int, b float64, nb int) float64 {
	if na+nb == 0 {
		return 0
	}
	return math.Sqrt((a*a*float64(na) + b*b*float64(nb)) / float64(na+nb))
}

// entries writes every measured form's entry.
func (b *builder) entries(r *Pass) error {
	ms, opt, p, m, rep := b.ms, b.opt, b.p, b.m, b.rep
	for _, n := range b.names {
		fm := ms.Forms[n]
		f, _ := isa.Lookup(n)
		var old *Entry
		if be, ok := m.Lookup(n); ok {
			old = be.Clone()
		}
		e := &Entry{Form: n}
		if old != nil {
			*e = *old.Clone()
		}
		var corr []string
		record := func(field, o, nw string) {
			if old == nil || o == nw {
				return
			}
			rep.Corrections = append(rep.Corrections, Correction{Form: n, Field: field, Old: o, New: nw})
			corr = append(corr, fmt.Sprintf("%s %s -> %s", field, o, nw))
		}
		pr := &Provenance{Source: SourceMeasured, Host: fm.Host, Date: fm.Date}
		if pr.Date == "" {
			pr.Date = b.date
		} else if len(pr.Date) > 10 {
			pr.Date = pr.Date[:10]
		}
		var notes []string
		if len(fm.Latencies) > 0 {
			e.Latencies = operandLatencies(fm.Latencies)
			nl := round5(fm.Latency())
			if old != nil {
				record("latency", FormatNum(old.Latency), FormatNum(nl))
			}
			e.Latency = nl
		} else if old != nil {
			notes = append(notes, "latency from the base model")
		}
		if fm.Throughput > 0 {
			nt := round5(fm.Throughput)
			if old != nil && math.Abs(old.Throughput-nt) > 0.01*math.Max(nt, old.Throughput) {
				record("throughput", FormatNum(old.Throughput), FormatNum(nt))
			}
			e.Throughput = nt
			if len(fm.Addressing) > 0 {
				e.Addressing = nil
				for _, shape := range isa.AddressShapes {
					if a, ok := fm.Addressing[shape]; ok {
						e.Addressing = append(e.Addressing, AddressCost{Shape: shape, Latency: round5(a.Latency), Throughput: round5(a.Throughput)})
					}
				}
			}
			c := p.classes[b.classOf[n]]
			newPP := p.pressureOf(c.cur)
			if c.cur == nil {
				newPP = PortPressure{}
			}
			if old != nil && samePressure(old.PortPressure, newPP) {
				newPP = old.PortPressure // same uses; keep the base's order
			}
			if old != nil {
				record("port_pressure", FormatPressure(old.PortPressure), FormatPressure(newPP))
			}
			e.PortPressure = newPP
			if c.cur512 != nil {
				e.PortPressure512 = p.pressureOf(c.cur512)
			} else if c.crossMixes > 0 || c.cur == nil {
				e.PortPressure512 = nil // measured beside 512-bit work: no change
			} else if len(e.PortPressure512) > 0 {
				notes = append(notes, "ports beside 512-bit work from the base model")
			}
			if e.Uops == 0 {
				// Dispatch slots as the fit counted them.
				e.Uops = c.slots
			} else if u := uopsWithin(e.Uops, fm.Throughput, p.width); u < e.Uops {
				record("uops", FormatNum(e.Uops), FormatNum(u))
				e.Uops = u
			}
			fit := FormFit{Form: n, Class: b.classOf[n], Mixes: c.evaluated, Error: c.err, MaxError: c.maxErr, Note: c.why}
			switch {
			case c.cur == nil || c.evaluated == 0:
				fit.Confidence = "low"
			case c.err > p.opt.LowConfidence:
				fit.Confidence = "low"
				fit.Note = fmt.Sprintf("ports fit the mixes poorly (error %s, worst %s)", formatPct(c.err), formatPct(c.maxErr))
			default:
				fit.Confidence = "high"
			}
			if k := rep.FasterThanAlone[n]; k > 0 {
				fit.Confidence = "low"
				why := fmt.Sprintf("ran faster in %d mixes than alone: its measured throughput is not a port bound (those mixes not fitted)", k)
				if fit.Note != "" {
					why += "; " + fit.Note
				}
				fit.Note = why
			}
			if fit.Confidence == "low" {
				rep.LowConfidence++
			}
			rep.Fits = append(rep.Fits, fit)
			pr.Confidence = fit.Confidence
			pr.FitError = math.Round(c.err*1e4) / 1e4
			if fit.Note != "" {
				notes = append(notes, fit.Note)
			} else if c.evaluated > 0 {
				notes = append(notes, fmt.Sprintf("ports inferred from %d mixes", c.evaluated))
			}
		} else if old == nil {
			notes = append(notes, "throughput not measured")
		}
		// Flags: the catalog's, the generator's findings, the base's.
		flags := map[string]bool{}
		for _, x := range e.Flags {
			flags[x] = true
		}
		if f != nil {
			for _, x := range catalogFlags(f) {
				flags[x] = true
			}
		}
		for _, x := range fm.Props {
			if knownFlags[x] {
				flags[x] = true
			}
		}
		e.Flags = nil
		for x := range flags {
			e.Flags = append(e.Flags, x)
		}
		sort.Strings(e.Flags)
		if len(corr) > 0 {
			was := "base"
			if old.Provenance != nil && old.Provenance.From != "" {
				was = old.Provenance.From
			} else if opt.Base != nil && opt.Base.Provenance != nil && opt.Base.Provenance.From != "" {
				was = opt.Base.Provenance.From
			}
			notes = append(notes, fmt.Sprintf("replaced %s (%s)", strings.Join(corr, ", "), was))
		}
		pr.Note = strings.Join(notes, "; ")
		e.Provenance = pr
		m.Put(e)
	}
	if len(b.names) == 0 {
		r.Evidence = "no form measured"
		return nil
	}
	r.Applied = true
	r.Evidence = fmt.Sprintf("%d forms measured", len(b.names))
	r.Changes = append(r.Changes, fmt.Sprintf("%d entries written, %d of them low-confidence; %d corrections to the base", len(b.names), rep.LowConfidence, len(rep.Corrections)))
	return nil
}

// latency512 gives a narrower vector register form a latency beside
// 512-bit work where its chain beside zmm loads ran more than
// latency512Margin slower than the same chain alone, and that chain is the
// entry's latency (the analyzer scales all of a form's latencies by
// Latency512 / Latency: a ratio from another chain, a one-cycle xmm pass
// of pinsrq against its general-register input, would scale the wrong
// one). A chain that ran faster beside zmm loads keeps its own latency
// (512-bit work closes ports and moves work to slower units; nothing
// known speeds a chain up). A memory form takes its register form's ratio
// when its own latency is that same chain's: its own chain beside zmm
// loads, which older sweeps measured, loads twice a link and times the
// load pipes (gen.Latency512Benches), so it is not used.
func (b *builder) latency512(r *Pass) error {
	sameChain := func(fm *FormMeasurements, pair string, latency float64) bool {
		own := fm.Latencies[pair]
		return own > 0 && latency > 0 && math.Abs(own-latency) <= latency512Margin*latency
	}
	type memoryForm struct {
		e  *Entry
		f  *isa.Form
		fm *FormMeasurements
	}
	measured, slowed, kept, derived := 0, 0, 0, 0
	var memory []memoryForm
	for _, n := range b.names {
		e, ok := b.m.Lookup(n)
		if !ok {
			continue
		}
		e.Latency512 = 0
		fm := b.ms.Forms[n]
		if f, ok := isa.Lookup(n); ok && f.HasMemory() {
			memory = append(memory, memoryForm{e, f, fm})
			continue
		}
		if fm.Latency512 <= 0 {
			continue
		}
		measured++
		ratio, pair := slowerBeside512(fm)
		if ratio > 0 {
			slowed++
			if sameChain(fm, pair, e.Latency) {
				e.Latency512 = round5(e.Latency * ratio)
				kept++
			}
		}
	}
	for _, m := range memory {
		mi := memoryOperand(m.f)
		if mi < 0 || m.e.Latency <= 0 {
			continue
		}
		rf, _ := registerCounterpart(m.f, mi, func(name string) bool {
			ratio, _ := slowerBeside512(b.ms.Forms[name])
			return ratio > 0
		})
		if rf == nil {
			continue
		}
		ratio, pair := slowerBeside512(b.ms.Forms[rf.Name()])
		if !sameChain(m.fm, pair, m.e.Latency) {
			continue // the entry's latency is another chain's (the load's)
		}
		m.e.Latency512 = round5(m.e.Latency * ratio)
		derived++
	}
	if measured == 0 {
		r.Evidence = "no latency measured beside 512-bit work (no AVX-512, or not measured)"
		return nil
	}
	r.Evidence = fmt.Sprintf("%d register forms' latencies measured beside 512-bit work, %d of them more than %.0f %% slower than the same chain alone", measured, slowed, 100*latency512Margin)
	if kept > 0 {
		r.Applied = true
		r.Changes = append(r.Changes, fmt.Sprintf("%d forms keep a latency beside 512-bit work (%d others slowed on a chain that is not their entry's latency), %d memory forms take their register form's", kept, slowed-kept, derived))
	}
	return nil
}

// slowerBeside512 is how many times slower than the same chain alone a
// form's chain ran beside zmm loads, and that chain's pair; 0 when it was
// not measured or not more than latency512Margin slower.
func slowerBeside512(fm *FormMeasurements) (float64, string) {
	if fm == nil || fm.Latency512 <= 0 {
		return 0, ""
	}
	own := fm.Latencies[fm.Latency512Pair]
	if own <= 0 || fm.Latency512 <= (1+latency512Margin)*own {
		return 0, ""
	}
	return fm.Latency512 / own, fm.Latency512Pair
}

// loadStoreHeader sets the model's load and store ports and latencies from
// the measured plain 64-bit load and store, and the load latency of each
// vector class and MMX from its plain load where measured.
func (b *builder) loadStoreHeader(r *Pass) error {
	ms, m, p := b.ms, b.m, b.p
	if c, ok := b.classOf[loadForms["gpr"]]; ok && p.classes[c].cur != nil {
		m.LoadPorts = p.pressureOf(p.classes[c].cur)
		r.Changes = append(r.Changes, "load ports "+FormatPressure(m.LoadPorts))
		if fm := ms.Forms[loadForms["gpr"]]; fm.Latency() > 0 {
			if m.LoadLatency == nil {
				m.LoadLatency = map[string]float64{}
			}
			m.LoadLatency["gpr"] = round5(fm.Latency())
			r.Changes = append(r.Changes, "load latency "+FormatNum(m.LoadLatency["gpr"]))
		}
	}
	// The vector and MMX loads' load-to-use latencies, where their
	// destinations were chained into the next load's index (gen's
	// loadChain): 6-7 cycles on the Zen 4 guest, where LLVM's znver3
	// says 8.
	for _, class := range []string{"xmm", "ymm", "zmm", "mm"} {
		if fm := ms.Forms[loadForms[class]]; fm != nil && fm.Latencies["mem->0"] > 0 {
			if m.LoadLatency == nil {
				m.LoadLatency = map[string]float64{}
			}
			m.LoadLatency[class] = round5(fm.Latencies["mem->0"])
			r.Changes = append(r.Changes, fmt.Sprintf("load latency %s %s", class, FormatNum(m.LoadLatency[class])))
		}
	}
	if c, ok := b.classOf[storeForms["gpr"]]; ok && p.classes[c].cur != nil {
		m.StorePorts = p.pressureOf(p.classes[c].cur)
		r.Changes = append(r.Changes, "store ports "+FormatPressure(m.StorePorts))
	}
	// The store's latency was measured as a round trip: the store, then a
	// reload of its address into the stored register, chained, one pair
	// per instance; the value is the pair's.
	if fm, ok := ms.Forms[storeForms["gpr"]]; ok {
		if l := fm.Latencies["1->mem"]; l > 0 {
			m.StoreToLoadForwardLatency = round5(l)
			r.Changes = append(r.Changes, "store-to-load forwarding "+FormatNum(m.StoreToLoadForwardLatency))
		}
	}
	r.Applied = len(r.Changes) > 0
	if r.Applied {
		r.Evidence = loadForms["gpr"] + ", " + storeForms["gpr"] + " and the vector loads as measured"
	} else {
		r.Evidence = "neither " + loadForms["gpr"] + " nor " + storeForms["gpr"] + " measured: the base's header values stay"
	}
	return nil
}

// storeCommit sets the store commit limit where stores to different cache
// lines ran slower than stores to one.
func (b *builder) storeCommit(r *Pass) error {
	ms := b.ms
	if sc := storeCommitOf(ms.StoreCommitSameLine, ms.StoreCommitLinesApart, ms.StoreCommitRecent); sc != nil {
		b.m.StoreCommit = sc
		line := fmt.Sprintf("stores commit %s (%.2f cycles a store to one line, %.2f a line apart)", sc, ms.StoreCommitSameLine, ms.StoreCommitLinesApart)
		b.rep.MemoryPath = append(b.rep.MemoryPath, line)
		r.Applied = true
		r.Evidence = fmt.Sprintf("stores a line apart took %.2f cycles each, to one line %.2f", ms.StoreCommitLinesApart, ms.StoreCommitSameLine)
		for _, n := range StoreCommitRecent {
			if v, ok := ms.StoreCommitRecent[n]; ok {
				r.Evidence += fmt.Sprintf(", over %d lines %.2f", n, v)
			}
		}
		r.Changes = append(r.Changes, line)
		return nil
	}
	if ms.StoreCommitLinesApart > 0 && ms.StoreCommitNoisy {
		// Noise only adds time, to one line's stores as to the others: a
		// neighbour on the store path read 0.76 cycles a store to one line
		// on the Zen 3 guest, 0.50 on a quieter day, against 1.03 a line
		// apart.
		line := fmt.Sprintf("the store-commit streams did not converge (%.2f cycles a store a line apart, %.2f to one line): too noisy to tell; no store-commit limit",
			ms.StoreCommitLinesApart, ms.StoreCommitSameLine)
		b.rep.MemoryPath = append(b.rep.MemoryPath, line)
		r.Evidence = line
		return nil
	}
	if ms.StoreCommitLinesApart > 0 {
		line := fmt.Sprintf("stores to different cache lines commit as fast as to one (%.2f and %.2f cycles a store): no store-commit limit",
			ms.StoreCommitLinesApart, ms.StoreCommitSameLine)
		b.rep.MemoryPath = append(b.rep.MemoryPath, line)
		r.Evidence = line
		return nil
	}
	r.Evidence = "store commit not measured"
	return nil
}

// lateForwarding sets the extra cycles of a one-cycle vector instruction
// fed directly by a multiply-class result, per width, where the fed chain
// ran at least half a cycle a link slower than the chain alone.
func (b *builder) lateForwarding(r *Pass) error {
	runs := b.ms.LateForward
	if len(runs) == 0 {
		r.Evidence = notMeasured("late-forwarding chains", "late_forwarding", b.m.LateForwarding)
		return nil
	}
	var seen []string
	for _, w := range LateForwardWidths {
		if x := runs[w]; x != nil {
			seen = append(seen, fmt.Sprintf("%s %.2f +- %.2f cycles a link alone, %.2f +- %.2f fed by vpmaddwd", w, x.Alone, x.AloneUncertainty, x.Fed, x.FedUncertainty))
		}
	}
	r.Evidence = "vpaddd chains: " + strings.Join(seen, "; ")
	lf := lateForwardingOf(runs)
	b.m.LateForwarding = lf
	if len(lf) > 0 {
		r.Applied = true
		r.Changes = append(r.Changes, "late_forwarding: "+extraCyclesText(lf))
	}
	return nil
}

// domains gives the measured vector register forms their domain and the
// model the cycles a round trip between the domains costs, where enough forms show one (see
// domainsOf); elsewhere the base's domains stay.
func (b *builder) domains(r *Pass) error {
	if len(b.ms.Domains) == 0 {
		r.Evidence = "domain chains not measured"
		if b.m.DomainRoundTripLatency > 0 {
			r.Evidence += fmt.Sprintf(": the base's domain_round_trip_latency stays (%d)", b.m.DomainRoundTripLatency)
		}
		return nil
	}
	results, roundTrip := domainsOf(b.ms)
	r.Evidence = fmt.Sprintf("%d forms chained with both partners: %s", len(results), domainsText(results))
	if roundTrip == 0 {
		r.Evidence += "; no round trip of a cycle or more shown by enough forms, partners included"
		return nil
	}
	b.m.DomainRoundTripLatency = roundTrip
	n := 0
	for _, x := range results {
		if e, ok := b.m.Lookup(x.Form); ok && x.Domain != "" {
			e.Domain = x.Domain
			n++
		}
	}
	r.Applied = true
	r.Changes = append(r.Changes, fmt.Sprintf("domain_round_trip_latency %d; %d forms given a domain", roundTrip, n))
	return nil
}

// notMeasured is the evidence of a header rule whose chains were not
// measured: the base's value (extra cycles by key) stays, if it has one.
func notMeasured(chains, field string, base map[string]int) string {
	if len(base) == 0 {
		return chains + " not measured"
	}
	return chains + " not measured: the base's " + field + " stays (" + extraCyclesText(base) + ")"
}

// loadAddress sets the extra cycles of loads by address shape, where a
// shape's chain ran at least half a cycle a link longer than the
// base+index one, and the pointer chase (the plain load's latency, in
// [base]) agrees with base+index: the memory forms' latencies, measured
// in one or the other, are then those of a simple address.
func (b *builder) loadAddress(r *Pass) error {
	lats := b.ms.LoadAddress
	if len(lats) == 0 {
		r.Evidence = notMeasured("load-address chains", "load_address_latency", b.m.LoadAddressLatency)
		return nil
	}
	var seen []string
	for _, s := range LoadAddressShapes {
		if v, ok := lats[s]; ok {
			seen = append(seen, fmt.Sprintf("%s %.2f", s, v))
		}
	}
	r.Evidence = "mov r64, m64 through the index, cycles a link: " + strings.Join(seen, ", ")
	ref := lats[LoadAddressReference]
	if ref <= 0 {
		r.Evidence += "; " + LoadAddressReference + " not measured"
		return nil
	}
	chase := 0.0
	if fm, ok := b.ms.Forms[loadForms["gpr"]]; ok {
		chase = fm.Latency()
		r.Evidence += fmt.Sprintf("; pointer chase [base] %.2f", chase)
	}
	if chase <= 0 || math.Abs(chase-ref) >= loadAddressShows {
		r.Evidence += "; the pointer chase and " + LoadAddressReference + " differ or the chase is not measured: the memory forms' own latencies are no common reference"
		return nil
	}
	la := loadAddressLatencyOf(lats)
	b.m.LoadAddressLatency = la
	if len(la) > 0 {
		r.Applied = true
		r.Changes = append(r.Changes, "load_address_latency: "+extraCyclesText(la))
	}
	return nil
}

// addressPorts fits the lea address shapes' ports (fitAddressPorts).
func (b *builder) addressPorts(r *Pass) error {
	b.m.SortForms()
	b.m.Reindex()
	b.rep.AddressPorts = fitAddressPorts(b.m, b.ms)
	n := 0
	for _, fm := range b.ms.Forms {
		n += len(fm.AddressMixes)
	}
	if n == 0 {
		r.Evidence = "no address shape measured beside probe forms"
		return nil
	}
	r.Evidence = fmt.Sprintf("%d mixes of address shapes with probe forms", n)
	if len(b.rep.AddressPorts) > 0 {
		r.Applied = true
		r.Changes = append(r.Changes, b.rep.AddressPorts...)
	}
	return nil
}

// operandLatencies turns measured latencies by "from->to" operand pair
// into the entry's list, in pair order, rounded as the model writes them.
func operandLatencies(lat map[string]float64) []OperandLatency {
	pairs := make([]string, 0, len(lat))
	for k := range lat {
		pairs = append(pairs, k)
	}
	sort.Strings(pairs)
	var out []OperandLatency
	for _, k := range pairs {
		if from, to, ok := strings.Cut(k, "->"); ok {
			out = append(out, OperandLatency{From: from, To: to, Cycles: round5(lat[k])})
		}
	}
	return out
}

// clusters keeps the fit's port groups within one cluster of execution
// ports where the reference (BuildOptions.Clusters, else the imported
// LLVM model nearest the model's LLVM CPU) has integer and vector register
// forms on ports that share none: the fit otherwise joined them, and on
// the Zen 4 guest 726 of 4,330 forms with vector operands alone came out
// on an integer ALU (vexpandpd ymm, ymm: 2*p[ALU3,FPP1,FPP2]). Built
// again with the rule from the same measurements (2026-11-29), that
// model predicted three random-mix draws 0.8-3.2 points better within
// 10 % and the kernels with MAPE 3.9 % instead of 4.3 %, its own fitted
// mixes as well (79.9 % against 80.1 %). Within its cluster a form of
// general registers alone (or of vector registers alone) keeps to its
// cluster's ports and the ones the fit adds (registerDomain,
// domainForbids): the fit had put adc r64, imm8 on p[FPP3,Store.0,Store.1]
// and mov r64, r64 on p[AGU0,AGU1,AGU2,FPP1,FPP3,new0], where no group
// crossed the clusters. Built with that from the measurements of two
// characterize runs on the Zen 4 guest, from three bases (2026-11-29),
// the kernels came out as close or closer every time (MAPE 4.1 -> 3.4
// %, 3.8 -> 3.8 %, 3.9 -> 3.2 %; tau-b 0.927 -> 0.940, 0.929 -> 0.933,
// 0.924 -> 0.945) and the random-mix draws moved -1.5 to +0.6 points,
// 0.5 lower on average (docs/benchmarks.md, "register forms in their
// cluster"). A memory form's work runs on its data's cluster too
// (registerDomain: add r64, m64 and adc m32, imm8 on the integer side,
// vaddps ymm, ymm, m256 and movd m32, xmm on the vector side): the embedded
// Zen 5 model had 212 memory forms of general registers on the
// floating-point pipes (adc m32, imm32 on p[FPP1,FPP2,FPP3]) and 608 of
// vector registers on an integer ALU (addpd xmm, m128 on two ALU groups
// and no FP pipe). Built again from one characterize run's measurements
// (AuthenticAMD-1a-2-1, 2026-12-02) with them kept apart, the model
// predicted its validation draw 61.0 % within 10 % instead of 59.5 %, a
// fresh draw 60.8 % instead of 59.5 %, and the kernels with MAPE 4.8 %
// instead of 5.0 %.
func (b *builder) clusters(r *Pass) error {
	if b.p.abstract {
		r.Evidence = "no base model: abstract ports"
		return nil
	}
	ref := b.reference(r)
	if ref == nil {
		return nil
	}
	b.p.intOnly, b.p.vecOnly = clusterPorts(ref, b.p.ports)
	if b.p.intOnly == 0 {
		r.Evidence = fmt.Sprintf("%s: its vector register forms share ports with its integer ones", ref.Label())
		return nil
	}
	r.Applied = true
	r.Evidence = fmt.Sprintf("%s keeps integer ports %s and vector ports %s apart", ref.Label(), b.p.groupName(b.p.intOnly), b.p.groupName(b.p.vecOnly))
	n := 0
	for _, e := range b.m.Forms {
		if uses := b.p.compile(e.PortPressure); uses != nil && b.p.crossesClusters(uses) {
			n++
		}
	}
	r.Changes = append(r.Changes, fmt.Sprintf("no port group crosses them; %d base entries whose groups do are fitted afresh where measured", n),
		"integer register forms keep to the integer ports, vector register forms to the vector ports (and the ports the fit adds), neither to the memory ports",
		"memory forms of general registers keep off the vector ports, memory forms of vector registers off the integer ports")
	return nil
}

// portNames names the abstract ports of a build from no base after the
// ports of the imported LLVM model nearest the host (MatchPorts): on the
// Zen 4 guest, from no base, 1*p[P0,P1,P2,P3] for add r64, r64 becomes
// ALU0-3 and the port only shifts and vector-to-general moves add to
// reads ALU1 or ALU2, as LLVM's znver3 has them. The ports keep what
// they do and their order (the simulator tries a group's ports in the
// model's order); only their names change, in the model and in the
// build report.
func (b *builder) portNames(r *Pass) error {
	if !b.p.abstract {
		r.Evidence = "a base model: its ports keep their names"
		return nil
	}
	ref := b.reference(r)
	if ref == nil {
		return nil
	}
	matches := MatchPorts(b.m, ref)
	if len(matches) == 0 {
		r.Evidence = fmt.Sprintf("%s: no port's forms are evidently those of one of its ports", ref.Label())
		return nil
	}
	to := map[string]string{}
	for _, pm := range matches {
		to[pm.Port] = pm.Ref
	}
	if err := b.m.RenamePorts(to); err != nil {
		r.Evidence = fmt.Sprintf("%s: %v", ref.Label(), err)
		return nil
	}
	b.rep.Ports = append([]string(nil), b.m.Ports...)
	ren := func(s string) string { return renameAbstract(s, to) }
	for i := range b.rep.Passes {
		ps := &b.rep.Passes[i]
		ps.Evidence = ren(ps.Evidence)
		for k := range ps.Changes {
			ps.Changes[k] = ren(ps.Changes[k])
		}
	}
	for _, list := range [][]string{b.rep.Beside512, b.rep.AddressPorts, b.rep.MemoryPath} {
		for k := range list {
			list[k] = ren(list[k])
		}
	}
	for k := range b.rep.Fits {
		b.rep.Fits[k].Note = ren(b.rep.Fits[k].Note)
	}
	for _, e := range b.m.Forms {
		if e.Provenance != nil {
			e.Provenance.Note = ren(e.Provenance.Note)
		}
	}
	r.Applied = true
	r.Evidence = fmt.Sprintf("%s names %d of the %d ports", ref.Label(), len(matches), len(b.m.Ports))
	for _, pm := range matches {
		r.Changes = append(r.Changes, fmt.Sprintf("%s -> %s (Jaccard index %.2f, %d forms on both)", pm.Port, pm.Ref, pm.Jaccard, pm.Both))
	}
	return nil
}

// reference is the imported LLVM model the passes "clusters" and "port
// names" go by: BuildOptions.Clusters, else the one nearest the model's
// LLVM CPU. Without one it says so in r and returns nil.
func (b *builder) reference(r *Pass) *Model {
	if b.opt.Clusters != nil {
		return b.opt.Clusters
	}
	ref := ImportedNearest(b.m.LLVMCPU)
	if ref == nil {
		r.Evidence = fmt.Sprintf("no imported LLVM model for -mcpu %q or a CPU near it", b.m.LLVMCPU)
	}
	return ref
}
