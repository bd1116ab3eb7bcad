package modeldb

import (
	"fmt"
	"math"
	"math/bits"
	"slices"
	"sort"
	"strings"
	"time"

	"portlab/isa"
)

// BuildOptions control Build.
type BuildOptions struct {
	// Name of the model; LLVMCPU its LLVM -mcpu name (both default to the
	// base model's).
	Name    string
	LLVMCPU string
	// Base is a model to start from (imported from OSACA or LLVM): its
	// ports, its header, its entries for unmeasured forms, and each
	// measured form's starting mapping. Every change is recorded.
	Base *Model
	// HoldOut is the fraction of mixes kept out of the fit for validation
	// (chosen by a hash of the mix, so the same ones on every run); they
	// are returned in the report for EvaluateMixes.
	HoldOut float64
	// Sources name the result files, for the provenance; From, when set,
	// is the provenance's command instead ("portlab model build" and the
	// sources otherwise).
	Sources []string
	From    string
	// Clusters is the model whose clusters of execution ports a port
	// group may not cross (the "clusters" pass), and whose ports a build
	// from no base names its ports after (the "port names" pass); nil:
	// the imported LLVM model nearest the model's LLVM CPU
	// (ImportedNearest).
	Clusters *Model
	Infer    InferOptions
	// Now stamps the provenance (nil: time.Now).
	Now func() time.Time
}

// FormFit is how well a form's inferred ports explain its measurements.
type FormFit struct {
	Form  string
	Class int // forms of one class share one mapping
	// Mixes is the number of port-conflict mixes the error is over.
	Mixes int
	// Error is the RMS and MaxError the largest relative error of the
	// predicted mix throughputs.
	Error, MaxError float64
	Confidence      string // "high" or "low"
	Note            string
}

// Correction is a change Build made to a base entry.
type Correction struct {
	Form     string
	Field    string // "throughput", "latency", "port_pressure", "uops"
	Old, New string
}

// BuildReport says what Build did.
type BuildReport struct {
	Measured  int // forms with a measured throughput or latency
	Classes   int // classes of forms fitted together
	MixesUsed int // mixes used for fitting
	// RandomMixesUsed is how many of them were drawn at random (fit-mix).
	RandomMixesUsed int
	// Split are the forms fitted in classes of their own because a first
	// fit of their class mispredicted their random mixes (see Build).
	Split   []string
	fitted  []*MixMeasurement // the mixes fitted, cross-width ones included
	HeldOut []*MixMeasurement
	// HeldOutExplainable are the held-out mixes that do not contradict the
	// bottleneck model (see FasterThanAlone and SlowerThanSerial): what a
	// port mapping can be expected to predict.
	HeldOutExplainable []*MixMeasurement
	// FasterThanAlone counts, per form, the mixes that ran faster than the
	// form alone (count * its throughput): they contradict its measured
	// throughput as a port bound and are not fitted.
	FasterThanAlone map[string]int
	// SlowerThanSerial counts, per form, its mixes that ran slower than
	// their forms one after another (the sum of count * throughput): no
	// port conflict does that (an SSE/AVX transition penalty, a decoder or
	// memory-ordering stall does), so they are not fitted either.
	SlowerThanSerial map[string]int
	// Contradicting is the number of mixes of either kind (not fitted; held
	// out ones are kept in HeldOut).
	Contradicting int
	Ports         []string
	// DispatchWidth is the dispatch width the fit used: the base model's,
	// or the rate the fastest 1 % of the mixes reach (estimateWidth).
	DispatchWidth float64
	Fits          []FormFit // per measured form with a throughput
	LowConfidence int
	Corrections   []Correction
	// MemoryPath says how measured mixes of plain loads and stores changed
	// the base's memory path (see calibrateStores).
	MemoryPath []string
	// AddressPorts says which port groups the address shapes got from
	// their mixes with probe forms (see fitAddressPorts).
	AddressPorts []string
	// Beside512 says what the cross-width mixes (512-bit work beside
	// narrower vector forms) changed (see fit512).
	Beside512 []string
	Skipped   []string
	// Passes are the builder's passes in order (buildPasses): what each
	// looked at, whether it changed the model, and what.
	Passes []Pass
}

// Summary renders the report in a few lines, with up to n examples.
func (r *BuildReport) Summary(n int) string {
	var b strings.Builder
	fitted := fmt.Sprint(r.MixesUsed)
	if r.RandomMixesUsed > 0 {
		fitted += fmt.Sprintf(" (%d drawn at random)", r.RandomMixesUsed)
	}
	fmt.Fprintf(&b, "%d measured forms in %d classes; %s mixes fitted, %d held out; %d ports: %s; dispatch width %s\n",
		r.Measured, r.Classes, fitted, len(r.HeldOut), len(r.Ports), strings.Join(r.Ports, " "), FormatNum(r.DispatchWidth))
	if len(r.Split) > 0 {
		fmt.Fprintf(&b, "%d forms fitted in classes of their own: their class's first fit mispredicted their random mixes (e.g. %s)\n",
			len(r.Split), strings.Join(quoteAll(r.Split[:min(3, len(r.Split))]), ", "))
	}
	if r.Contradicting > 0 {
		fmt.Fprintf(&b, "%d mixes not fitted: no port mapping explains them", r.Contradicting)
		if n := len(r.FasterThanAlone); n > 0 {
			fmt.Fprintf(&b, "; %d ran faster than one of their forms alone (%d forms whose own throughput is not a port bound, e.g. %s)",
				sumCounts(r.FasterThanAlone), n, strings.Join(topCounts(r.FasterThanAlone, 3), "; "))
		}
		if slower := r.Contradicting - sumCounts(r.FasterThanAlone); slower > 0 {
			fmt.Fprintf(&b, "; %d ran slower than their forms one after another (most with %s)",
				slower, strings.Join(topCounts(r.SlowerThanSerial, 3), "; "))
		}
		b.WriteString("\n")
	}
	fits := append([]FormFit(nil), r.Fits...)
	sort.SliceStable(fits, func(i, j int) bool { return fits[i].Error > fits[j].Error })
	fmt.Fprintf(&b, "%d forms low-confidence", r.LowConfidence)
	if r.LowConfidence > 0 {
		b.WriteString(":")
	}
	b.WriteString("\n")
	shown := 0
	for _, f := range fits {
		if f.Confidence != "low" {
			continue
		}
		if shown == n {
			fmt.Fprintf(&b, "  ... and %d more\n", r.LowConfidence-n)
			break
		}
		fmt.Fprintf(&b, "  %-40s fit error %s over %d mixes  %s\n", f.Form, formatPct(f.Error), f.Mixes, f.Note)
		shown++
	}
	if len(r.Corrections) > 0 {
		fmt.Fprintf(&b, "%d corrections to the base model", len(r.Corrections))
		if n > 0 {
			b.WriteString(", e.g.:")
		}
		b.WriteString("\n")
		for i, c := range r.Corrections {
			if i == n {
				break
			}
			fmt.Fprintf(&b, "  %-40s %s %s -> %s\n", c.Form, c.Field, c.Old, c.New)
		}
	}
	if len(r.Passes) > 0 {
		b.WriteString("passes (+ changed the model, - did not; each with what this host's measurements showed):\n")
	}
	for _, p := range r.Passes {
		mark := "-"
		if p.Applied {
			mark = "+"
		}
		fmt.Fprintf(&b, "  %s %s: %s\n", mark, p.Name, p.Evidence)
		for i, c := range p.Changes {
			if n >= 0 && i == max(n, 1) {
				fmt.Fprintf(&b, "      ... and %d more\n", len(p.Changes)-i)
				break
			}
			fmt.Fprintf(&b, "      %s\n", c)
		}
	}
	for _, s := range r.Skipped {
		fmt.Fprintf(&b, "skipped: %s\n", s)
	}
	return b.String()
}

// PlainMemoryForms are the plain loads and stores whose mappings make the
// memory part of every memory form (the pass "memory forms from their
// parts") and whose mixes with each other show whether vector stores
// share the vector loads' ports (the pass "vector stores apart from
// loads"), sorted.
func PlainMemoryForms() []string {
	var out []string
	for _, m := range []map[string]string{loadForms, storeForms} {
		for _, f := range m {
			out = append(out, f)
		}
	}
	slices.Sort(out)
	return out
}

// loadStoreForms are the plain loads and stores whose mappings make the
// memory part of a memory form, by register class.
var (
	loadForms  = map[string]string{"gpr": "mov r64, m64", "xmm": "movups xmm, m128", "ymm": "vmovups ymm, m256", "zmm": "vmovups zmm, m512", "mm": "movq mm, m64"}
	storeForms = map[string]string{"gpr": "mov m64, r64", "xmm": "movups m128, xmm", "ymm": "vmovups m256, ymm", "zmm": "vmovups m512, zmm", "mm": "movq m64, mm"}
)

// Build makes a model from measurements: latency per operand pair and
// reciprocal throughput as measured, ports inferred from the singleton
// throughputs and the port-conflict mixes (see infer.go), every form with
// its fit error and a confidence. Mixes no port mapping can explain (see
// contradicts) are counted in the report, not fitted. With a base model,
// the result keeps the base's ports (adding any the fit opens), header and
// unmeasured entries, and each measured entry records in its provenance
// what it replaced.
//
// Forms are fitted in classes of forms that behave alike with the probes.
// Random mixes measured for fitting (fit-mix) can show that forms the
// probes could not tell apart differ: with InferOptions.SplitTolerance,
// Build then fits again with every form of a class of several whose fit
// mixes the first fit mispredicts beyond it in a class of its own
// (BuildReport.Split).
func Build(ms *Measurements, opt BuildOptions) (*Model, *BuildReport, error) {
	m, rep, err := build(ms, opt, nil)
	if err != nil {
		return nil, nil, err
	}
	if opt.Infer.SplitTolerance <= 0 {
		return m, rep, nil
	}
	split := formsToSplit(m, rep, opt.Infer.SplitTolerance)
	if len(split) == 0 {
		return m, rep, nil
	}
	m, rep, err = build(ms, opt, split)
	if err != nil {
		return nil, nil, err
	}
	for f := range split {
		rep.Split = append(rep.Split, f)
	}
	sort.Strings(rep.Split)
	return m, rep, nil
}

// formsToSplit returns the forms of classes of several forms that take
// part in a fitted random mix the model predicts more than tol off.
func formsToSplit(m *Model, rep *BuildReport, tol float64) map[string]bool {
	classSize := map[int]int{}
	classOf := map[string]int{}
	for _, f := range rep.Fits {
		classSize[f.Class]++
		classOf[f.Form] = f.Class
	}
	split := map[string]bool{}
	pred := NewPredictor(m)
	for _, mx := range rep.fitted {
		if !mx.Random {
			continue
		}
		pr, err := pred.PredictWithOverhead(mx.Parts, mx.Overhead)
		if err != nil || math.Abs(pr.Cycles-mx.Cycles) <= tol*mx.Cycles {
			continue
		}
		for _, pt := range mx.Parts {
			if c, ok := classOf[pt.Form]; ok && classSize[c] > 1 {
				split[pt.Form] = true
			}
		}
	}
	return split
}

// latency512Margin is how far (relative) a form's latency beside 512-bit
// work must be from its own for the model to keep it.
const latency512Margin = 0.05

// contradicts tells whether a mix contradicts the bottleneck model, which
// predicts at least its slowest form's own cost (count * throughput) and
// at most the sum of its forms' costs. A mix that ran faster than one of
// its forms alone (faster names that form) says the form's own
// measurement was limited by something the mix removes (a dependency
// through the flags, a microcode assist, a decoder stall); one that ran
// slower than its forms one after another (slower) hit something that is
// not a port conflict (an SSE/AVX transition penalty, a memory-ordering or
// decoder stall). Neither can be fitted by any port mapping. commit is
// the cycles the mix's stores take to commit (StoreCommitCycles): a mix
// may run that slow however its forms run alone (stores of two forms
// writing two lines in turn commit one a cycle, each form's alone two).
func contradicts(mx *MixMeasurement, ms *Measurements, commit float64) (faster string, slower bool) {
	worst, sum := 0.0, 0.0
	for _, pt := range mx.Parts {
		c := float64(pt.Count) * ms.Forms[pt.Form].Throughput
		sum += c
		if c > worst {
			worst, faster = c, pt.Form
		}
	}
	if mx.Cycles < worst*(1-contradictionMargin) {
		return faster, false
	}
	return "", mx.Cycles > max(sum, commit)*(1+contradictionMargin)
}

// contradictionMargin is how far outside the model's range a mix must be
// to count as contradicting it (well above the measurements' noise).
const contradictionMargin = 0.07

func sumCounts(m map[string]int) int {
	n := 0
	for _, k := range m {
		n += k
	}
	return n
}

// topCounts returns the n keys with the largest counts, as "key (count)".
func topCounts(m map[string]int, n int) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if m[keys[i]] != m[keys[j]] {
			return m[keys[i]] > m[keys[j]]
		}
		return keys[i] < keys[j]
	})
	if len(keys) > n {
		keys = keys[:n]
	}
	for i, k := range keys {
		keys[i] = fmt.Sprintf("%s (%d)", k, m[k])
	}
	return keys
}

func round5(v float64) float64 { return math.Round(v*1e5) / 1e5 }

// samePressure reports whether two port pressures have the same uses in
// any order (and any order of ports within a group).
func samePressure(a, b PortPressure) bool {
	key := func(pp PortPressure) string {
		var parts []string
		for _, u := range pp {
			ports := append([]string(nil), u.Ports...)
			sort.Strings(ports)
			parts = append(parts, FormatNum(u.Cycles)+"*"+strings.Join(ports, ","))
		}
		sort.Strings(parts)
		return strings.Join(parts, "+")
	}
	return key(a) == key(b)
}

// mixSignature summarises how a form behaves in its mixes: per mix, the
// partners and the measured cycles relative to the sum of the parts'
// singleton costs (1: fully serialised on shared ports).
// variantOf returns the form that n is a masked or {evex}-spelled variant
// of ("vaddpd zmm {k}{z}, zmm, zmm" and "{evex} vaddpd ymm, ymm, ymm" give
// "vaddpd zmm, zmm, zmm" and "vaddpd ymm, ymm, ymm"), or "" when n is no
// such variant.
func variantOf(n string) string {
	u := strings.TrimPrefix(n, "{evex} ")
	u = strings.Replace(u, " {k}{z}", "", 1)
	u = strings.Replace(u, " {k}", "", 1)
	if u == n {
		return ""
	}
	return u
}

func mixSignature(form string, idx []int, mixes []*MixMeasurement, ms *Measurements) string {
	var sig []string
	for _, k := range idx {
		mx := mixes[k]
		sum := 0.0
		var partners []string
		for _, pt := range mx.Parts {
			sum += float64(pt.Count) * ms.Forms[pt.Form].Throughput
			if pt.Form != form {
				partners = append(partners, fmt.Sprintf("%d*%s", pt.Count, pt.Form))
			} else {
				partners = append(partners, fmt.Sprintf("%d*self", pt.Count))
			}
		}
		sort.Strings(partners)
		r := mx.Cycles / sum
		sig = append(sig, fmt.Sprintf("%s=%d", strings.Join(partners, "+"), int(math.Round(r*40))))
	}
	sort.Strings(sig)
	return strings.Join(sig, ";")
}

// Clone returns a deep copy of the model.
func (m *Model) Clone() *Model {
	c := *m
	c.index = nil
	c.Forms = make([]*Entry, len(m.Forms))
	for i, e := range m.Forms {
		c.Forms[i] = e.Clone()
	}
	c.Ports = append([]string(nil), m.Ports...)
	if m.StoreCommit != nil {
		sc := *m.StoreCommit
		c.StoreCommit = &sc
	}
	c.LoadPorts = clonePressure(m.LoadPorts)
	c.StorePorts = clonePressure(m.StorePorts)
	if m.LoadPorts == nil {
		c.LoadPorts = nil
	}
	if m.StorePorts == nil {
		c.StorePorts = nil
	}
	if m.Provenance != nil {
		p := *m.Provenance
		c.Provenance = &p
	}
	c.LoadLatency = copyMap(m.LoadLatency)
	c.LateForwarding = copyMap(m.LateForwarding)
	c.BesideMulticycleDelay = copyMap(m.BesideMulticycleDelay)
	c.LoadLineSplit = copyMap(m.LoadLineSplit)
	c.LoadAddressLatency = copyMap(m.LoadAddressLatency)
	c.Schedulers = copyMap(m.Schedulers)
	c.RegisterFiles = copyMap(m.RegisterFiles)
	c.LoadThroughput = cloneRules(m.LoadThroughput)
	c.StoreThroughput = cloneRules(m.StoreThroughput)
	if m.Extra != nil {
		c.Extra = map[string]any{}
		for k, v := range m.Extra {
			c.Extra[k] = v
		}
	}
	c.Reindex()
	return &c
}

func cloneRules(rs []MemoryRule) []MemoryRule {
	if rs == nil {
		return nil
	}
	out := make([]MemoryRule, len(rs))
	for i, r := range rs {
		out[i] = MemoryRule{Class: r.Class, PortPressure: clonePressure(r.PortPressure)}
	}
	return out
}

func copyMap[V any](m map[string]V) map[string]V {
	if m == nil {
		return nil
	}
	out := make(map[string]V, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// Clone returns a deep copy of the entry.
func (e *Entry) Clone() *Entry {
	c := *e
	c.Latencies = append([]OperandLatency(nil), e.Latencies...)
	c.PortPressure = clonePressure(e.PortPressure)
	if e.PortPressure == nil {
		c.PortPressure = nil
	}
	if e.PortPressure512 != nil {
		c.PortPressure512 = clonePressure(e.PortPressure512)
	}
	c.Flags = append([]string(nil), e.Flags...)
	if e.Addressing != nil {
		c.Addressing = make([]AddressCost, len(e.Addressing))
		for i, a := range e.Addressing {
			if a.PortPressure != nil {
				a.PortPressure = clonePressure(a.PortPressure)
			}
			c.Addressing[i] = a
		}
	}
	if e.Provenance != nil {
		p := *e.Provenance
		c.Provenance = &p
	}
	if e.OSACA != nil {
		o := *e.OSACA
		o.Operands = append([]OSACAOperand(nil), e.OSACA.Operands...)
		c.OSACA = &o
	}
	return &c
}

// uopsWithin caps a form's uop count (from the base model) at what its
// measured throughput lets through the dispatch stage: a form that runs at
// tp cycles an instruction dispatches at most width*tp uops each (whole
// uops, with 10 % slack for timing noise). A base model imported from an
// older core can count several uops where the measured core has one: bsf
// r64 is 6 in LLVM's znver3 and runs four a cycle on Zen 4.
func uopsWithin(uops, tp, width float64) float64 {
	if tp <= 0 || width <= 0 {
		return uops
	}
	return math.Min(uops, math.Max(1, math.Floor(width*tp*1.1)))
}

// defaultMemoryUses is the memory part of a form the base model gives none:
// the memory-port uses of the base's plain load (store; both for a
// read-modify-write) of the memory operand's register class (a zmm access
// twice a ymm one where the base has no zmm forms), fitted to the form's
// throughput as fixedMemoryUses does. nil for register forms, lea, and
// operands of no known class.
func (p *inferProblem) defaultMemoryUses(base *Model, form string, tp float64) []maskUse {
	f, ok := isa.Lookup(form)
	if !ok {
		return nil
	}
	mi := memoryOperand(f)
	if mi < 0 {
		return nil
	}
	class := memoryClass(f, mi)
	part := func(forms map[string]string) []maskUse {
		scale := 1.0
		e, ok := base.Lookup(forms[class])
		if !ok && class == "zmm" {
			e, ok = base.Lookup(forms["ymm"])
			scale = 2
		}
		if !ok {
			return nil
		}
		var out []maskUse
		for _, u := range p.compile(e.PortPressure) {
			if u.mask&p.memPorts != 0 {
				out = append(out, maskUse{u.mask, u.cycles * scale})
			}
		}
		return out
	}
	var mem []maskUse
	acc := f.Operands[mi].Access
	if acc&isa.Read != 0 {
		mem = append(mem, part(loadForms)...)
	}
	if acc&(isa.Write|isa.CondWrite) != 0 {
		mem = append(mem, part(storeForms)...)
	}
	if len(mem) == 0 {
		return nil
	}
	return p.fixedMemoryUses(mergeUses(mem), tp)
}

// narrowLoadsOnEveryLoadPort gives every form that reads 128 bits or
// less (or broadcasts) the load ports the plain 64-bit load grew to
// (growMemory): the memory part comes from the base, which has two load
// ports where the host has three, and only a form whose own throughput
// needed the third got it. In random mixes such loads ran three a cycle
// (Granite Rapids guest: 54 loads of m128 and m64bcst operands in 18.2
// cycles, where two ports predicted 27); 256- and 512-bit load-ops ran
// 2-2.5 a cycle and keep theirs.
// It returns the base's load port group, the ports it grew by (0: none)
// and how many classes took them.
func (p *inferProblem) narrowLoadsOnEveryLoadPort(base *Model) (loadGroup, grown uint64, n int) {
	e, ok := base.Lookup(loadForms["gpr"])
	if !ok || len(e.PortPressure) != 1 {
		return 0, 0, 0
	}
	loadGroup = p.compile(e.PortPressure)[0].mask
	grown = p.memGrown[loadGroup]
	if grown == 0 {
		return loadGroup, 0, 0
	}
	for _, cl := range p.classes {
		f, ok := isa.Lookup(cl.forms[0])
		if !ok || !narrowRead(f) {
			continue
		}
		took := false
		for i, u := range cl.mem {
			if u.mask == loadGroup {
				cl.mem[i].mask |= grown
				took = true
			}
		}
		if took {
			n++
		}
	}
	return loadGroup, grown, n
}

// narrowRead reports whether f reads a memory operand of 128 bits or less
// (a broadcast reads one element).
func narrowRead(f *isa.Form) bool {
	mi := memoryOperand(f)
	if mi < 0 || f.Operands[mi].Access&isa.Read == 0 {
		return false
	}
	k := f.Operands[mi].Kind
	return k != isa.KindM256 && k != isa.KindM512 && k != isa.KindMoffs
}

// memoryClass names the register class whose plain load or store a memory
// operand's access is like: gpr for integer forms, xmm/ymm/zmm by the
// access's width for vector forms (a scalar or broadcast element: xmm), mm
// for MMX.
func memoryClass(f *isa.Form, mi int) string {
	vector, mmx := false, false
	for i, op := range f.Operands {
		switch {
		case i == mi:
		case op.Kind == isa.KindXMM || op.Kind == isa.KindYMM || op.Kind == isa.KindZMM:
			vector = true
		case op.Kind == isa.KindMM:
			mmx = true
		}
	}
	switch k := f.Operands[mi].Kind; {
	case k == isa.KindM256:
		return "ymm"
	case k == isa.KindM512:
		return "zmm"
	case k == isa.KindM128 || vector:
		return "xmm"
	case mmx:
		return "mm"
	}
	return "gpr"
}

// calibrateStores checks the base's memory path against measured mixes of a
// plain vector store with a plain vector load (the sweep's load probe): the
// port groups both use that the mix shows are not shared (the store ran
// beside the loads faster than sharing them allows, and leaving the fewest
// of them out of the store predicts the mix, or comes at least halfway
// from sharing's prediction to the measurement: see leaveOut; a group
// shared is one of the store's that meets one of the load's) leave the
// memory part of the vector stores of that width; a width with no mix of
// its own takes the nearest measured width's (xmm stores take ymm's).
// LLVM's znver3 sends vector stores' data through the FP load pipes
// (FPP45), where Zen 4 runs two ymm loads and a ymm store each cycle; the
// Zen 5 guest ran 8 ymm stores beside 8 ymm loads in 4.59 cycles, where
// sharing FPP45 predicts 8 and leaving it out 5.33 (three LSU pipes stay
// shared, as grouped loads and stores show: 4 ymm loads then 4 ymm stores
// ran in 2.87 cycles, the three pipes' bound 2.67, interleaved in 2.27).
//
// It also returns how many such mixes it found, and the mixes that ran
// more than 5 % faster than sharing allows where no set of groups left out
// comes close enough (a store keeps at least one of its groups), each
// said as the measurement and the base's prediction.
func (p *inferProblem) calibrateStores(mixes []*MixMeasurement, classOf map[string]int) (notes []string, found int, unexplained []string) {
	vectorLoad := map[string]bool{}
	for _, k := range []string{"xmm", "ymm", "zmm"} {
		vectorLoad[loadForms[k]] = true
	}
	scaled := func(uses []maskUse, n float64) []maskUse {
		out := make([]maskUse, len(uses))
		for i, u := range uses {
			out[i] = maskUse{u.mask, u.cycles * n}
		}
		return out
	}
	predict := func(s []maskUse, a float64, l []maskUse, b float64) float64 {
		return bottleneck(append(scaled(s, a), scaled(l, b)...))
	}
	// The groups each width's stores leave out, for the widths whose
	// plain store was measured beside plain loads.
	drops := map[string]map[uint64]bool{}
	for _, k := range []string{"xmm", "ymm", "zmm"} {
		drop := map[uint64]bool{}
		sc, ok := classOf[storeForms[k]]
		if !ok || p.classes[sc].mem == nil {
			continue
		}
		for _, mx := range mixes {
			if len(mx.Parts) != 2 {
				continue
			}
			st, ld := mx.Parts[0], mx.Parts[1]
			if ld.Form == storeForms[k] {
				st, ld = ld, st
			}
			lc, ok := classOf[ld.Form]
			if st.Form != storeForms[k] || !vectorLoad[ld.Form] || !ok || p.classes[lc].mem == nil {
				continue
			}
			found++
			drops[k] = drop
			// The store's groups less those an earlier mix left out.
			S := without(p.classes[sc].mem, func(m uint64) bool { return drop[m] })
			L := p.classes[lc].mem
			a, b := float64(st.Count), float64(ld.Count)
			pred := predict(S, a, L, b)
			if pred <= mx.Cycles*1.05 {
				continue
			}
			var shared []uint64
			for _, g := range S {
				if slices.ContainsFunc(L, func(u maskUse) bool { return u.mask&g.mask != 0 }) {
					shared = append(shared, g.mask)
				}
			}
			shareErr := (pred - mx.Cycles) / mx.Cycles
			leftOut := func(out []uint64) []maskUse {
				return without(S, func(m uint64) bool { return slices.Contains(out, m) })
			}
			out, outErr := leaveOut(shared, shareErr, func(out []uint64) (float64, bool) {
				rest := leftOut(out)
				if len(rest) == 0 {
					return 0, false // a store keeps a memory port
				}
				return math.Abs(predict(rest, a, L, b)-mx.Cycles) / mx.Cycles, true
			})
			if out != nil {
				leftPred := predict(leftOut(out), a, L, b)
				names := make([]string, len(out))
				for i, m := range out {
					drop[m] = true
					names[i] = p.groupName(m)
				}
				note := fmt.Sprintf("vector stores leave out %s: %d x %s with %d x %s took %s cycles, sharing it predicts %s",
					strings.Join(names, " and "), st.Count, st.Form, ld.Count, ld.Form, FormatNum(round5(mx.Cycles)), FormatNum(round5(pred)))
				if outErr > 0.05 {
					note += fmt.Sprintf(", leaving it out %s (%.0f %% off, the closest of as few groups left out; the rest of the gap is not a shared port)",
						FormatNum(round5(leftPred)), 100*outErr)
				}
				notes = append(notes, note)
				continue
			}
			unexplained = append(unexplained, fmt.Sprintf("%d x %s with %d x %s took %s cycles, the base's ports predict %s",
				st.Count, st.Form, ld.Count, ld.Form, FormatNum(round5(mx.Cycles)), FormatNum(round5(pred))))
		}
	}
	if len(notes) == 0 {
		return nil, found, unexplained
	}
	// A width with no mix of its own takes the nearest measured width's.
	nearest := map[string][]string{"xmm": {"xmm", "ymm", "zmm"}, "ymm": {"ymm", "xmm", "zmm"}, "zmm": {"zmm", "ymm", "xmm"}}
	for _, cl := range p.classes {
		if cl.mem == nil {
			continue
		}
		f, ok := isa.Lookup(cl.forms[0])
		if !ok || !writesVectorMemory(f) {
			continue
		}
		var drop map[uint64]bool
		for _, k := range nearest[memoryClass(f, memoryOperand(f))] {
			if d, ok := drops[k]; ok {
				drop = d
				break
			}
		}
		cl.mem = without(cl.mem, func(m uint64) bool { return drop[m] })
		if len(cl.mem) == 0 {
			cl.mem = nil
		}
	}
	return notes, found, unexplained
}

// without returns uses less those whose group drop names, in a new slice.
func without(uses []maskUse, drop func(mask uint64) bool) []maskUse {
	return slices.DeleteFunc(slices.Clone(uses), func(u maskUse) bool { return drop(u.mask) })
}

// leaveOut chooses the port groups a store leaves out of those it shares
// with a load, given how far sharing them all is from a mix (shareErr, a
// fraction): the fewest groups whose best choice (the smallest error,
// errOf's first result; errOf's second false where a set may not be left
// out) predicts the mix within 5 % or at least halves sharing's error,
// and within that size the set with the smallest error, the earliest in
// the order of the binary numbers whose bits mark them on a tie. It
// returns nil where no set does, and the chosen set's error. It tries the
// subsets of the first 12 groups at most: a store and a load share a
// handful. Halving is enough to leave groups out because the mix ran
// faster than sharing allows, which noise cannot do: what remains of the
// gap is another effect (on the Zen 5 guest the order of loads and
// stores), not evidence for sharing.
func leaveOut(groups []uint64, shareErr float64, errOf func([]uint64) (float64, bool)) ([]uint64, float64) {
	n := min(len(groups), 12)
	for size := 1; size <= n; size++ {
		var best []uint64
		bestErr := math.Inf(1)
		for mask := 1; mask < 1<<n; mask++ {
			if bits.OnesCount(uint(mask)) != size {
				continue
			}
			var out []uint64
			for i := 0; i < n; i++ {
				if mask&(1<<i) != 0 {
					out = append(out, groups[i])
				}
			}
			if e, ok := errOf(out); ok && e < bestErr {
				best, bestErr = out, e
			}
		}
		if best != nil && (bestErr <= 0.05 || bestErr <= shareErr/2) {
			return best, bestErr
		}
	}
	return nil, 0
}

// writesVectorMemory tells whether a form stores a vector register's data.
func writesVectorMemory(f *isa.Form) bool {
	i := memoryOperand(f)
	if i < 0 || f.Operands[i].Access&(isa.Write|isa.CondWrite) == 0 {
		return false
	}
	c := memoryClass(f, i)
	return c == "xmm" || c == "ymm" || c == "zmm"
}

// memoryOperand returns the index of the form's first operand that accesses
// memory (not lea's address), -1 when none does.
func memoryOperand(f *isa.Form) int {
	for i, op := range f.Operands {
		if op.Kind.IsMemory() && op.Kind != isa.KindM {
			return i
		}
	}
	return -1
}
