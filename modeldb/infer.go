package modeldb

import (
	"cmp"
	"errors"
	"fmt"
	"maps"
	"math"
	"math/bits"
	"runtime/debug"
	"slices"
	"sort"
	"strconv"
	"strings"

	"portlab/isa"
)

// Port inference: which ports each form's uops may use, from measured
// reciprocal throughputs of forms alone (singletons) and of port-conflict
// mixes. This is the problem PMEvo and Palmed solve; portlab's method:
//
//   - A mapping gives each form a list of uses [cycles, port group]; its
//     predicted cost for a mix is the balancing optimum of balance.go
//     (the LP of PMEvo: min over uop assignments of the busiest port's
//     load), at least each form's own count * throughput.
//   - Forms with the same singleton throughput, the same mix partners and
//     the same mix results within a few percent form one class and share
//     one mapping (a sweep of 2-3k forms has far fewer classes).
//   - Each class's candidate mappings are: one use over any group of the
//     vocabulary (the groups other classes use, their subsets and unions,
//     single ports; never a divider joined with issue ports, see
//     unitPorts), two uses (the best one-use groups plus another group;
//     for a form the base model has as one uop only when it is vector
//     work, no one-use mapping fits its mixes within
//     InferOptions.LowConfidence, and two uses at least halve the error),
//     the base model's mapping, and for memory forms the register form's
//     mapping plus a load's (store's). Every candidate is scaled so that it
//     predicts the measured singleton throughput exactly; its error is the
//     RMS relative error over the class's mixes, each mix's error counted
//     up to InferOptions.ErrorCap.
//   - Among the candidates whose error is within a tolerance of the best,
//     the smallest mapping wins: the base mapping when it fits (no
//     correction without evidence), then the base mapping grown by ports
//     the base lacks (below), then a composed mapping: a memory form's
//     register form plus a load (store), a 512-bit form's 256-bit form
//     (on the Zen 4 guest, from LLVM 14's znver3, the first: 74.5 % of a
//     fresh draw of 400 random mixes within 10 % against 73.0 %, 67.4 %
//     of 14,552 held-out mixes against 65.3 %; the second: passes.go,
//     wideHints), then fewer uses, no sub-cycle uses, fewer new ports,
//     fewer cycles and ports. Classes are placed in turn
//     (most-connected first), the worst fits are refitted first (refine)
//     until no refit changes a mapping or the whole mapping comes back to
//     a state it was in (coordinate descent can cycle between mappings of
//     equal merit; on a full sweep it did so for 50,000 refits, most of
//     the build's time), then full passes refit every class until nothing
//     changes (at most MaxPasses).
//   - Without a base model the ports are abstract (P0, P1, ...): a class
//     may open new ports when no existing group explains its mixes. With
//     one, a class whose base mapping would need uses of less than a cycle
//     to reach its measured throughput (the base describes an older core
//     with fewer ports of the kind, e.g. LLVM 14's sapphirerapids model,
//     four ALUs and two load ports, for a core with five and three) may
//     grow a group of it by one or two new ports (named new0, new1, ...),
//     or by new ports another class already grew the same group by.
//   - Every mix prediction of a candidate is memoised until a class of
//     the mix changes mapping (infermemo.go): a refit costs what changed
//     since the last one, not every mix again.
//
// Build leaves out of the fit the mixes that no port mapping can explain:
// those that ran faster than one of their forms alone, or slower than
// their forms one after another (see contradicts in build.go).
//
// Limits: the fit only sees what mixes reveal. A form never mixed with a
// form sharing one of its ports keeps whatever port set explains its
// throughput (marked low-confidence), ports used only by one class cannot
// be told apart, and equivalent port sets in abstract mode are named by
// the order classes were fitted in. Coordinate descent finds a local
// optimum; the fit error per class says how good it is.

// InferOptions tune port inference.
type InferOptions struct {
	// Tolerance is how much worse (absolute RMS relative error) than the
	// best candidate a smaller mapping may fit and still win (default
	// 0.005; on the Granite Rapids guest, with the error cap, 0.02 put
	// 84.4 % of 1,000 random validation mixes within 10 %, 0.01 87.4 %,
	// 0.005 and 0.0025 89.3 %).
	Tolerance float64
	// ErrorCap bounds what one mix adds to a fit error (the RMS of the
	// mixes' relative errors, each counted as at most ErrorCap; default
	// 0.12): a mix no port mapping explains (a front-end or memory limit
	// the bottleneck model lacks) counts as a miss, not as a pull on the
	// class's mapping that grows with its error. On the Granite Rapids
	// guest, plain RMS (no cap) put 87.3 % of 1,000 random validation
	// mixes within 10 %, a cap of 0.20 88.3 %, 0.12 88.5 %, 0.10 88.5 %.
	ErrorCap float64
	// LowConfidence is the fit error above which a form is marked
	// low-confidence (default 0.05).
	LowConfidence float64
	// MaxPasses bounds the coordinate-descent passes (default 6).
	MaxPasses int
	// MaxPorts caps the ports abstract inference may open (default 32).
	MaxPorts int
	// SplitTolerance, when above 0, is the relative error of a fitted
	// random mix beyond which Build fits its forms again in classes of
	// their own. Off by default: on a synthetic core with poor probes it
	// recovers what the probes hide (TestBuildFitsRandomMixes), but on the
	// Granite Rapids guest, with 23,000 fit mixes, splitting at 10 % put
	// 5,800 forms in classes of their own and the random validation mixes
	// fell to 70.0 % within 10 % (84.5 % without splitting, 78.5 % without
	// fit mixes): a class of one fits its own few mixes and nothing else.
	SplitTolerance float64
	// Progress, when set, hears how the fit goes: what it does, and how
	// many of how many classes it has placed or refitted.
	Progress func(what string, done, total int)
	// Stop, when set, is asked before each class is fitted; once it says
	// true the fit places nothing more and Build returns ErrBuildStopped
	// (a run out of time gives up a build rather than its budget).
	Stop func() bool
	// MemoBytes bounds what the fit's memo (each class's candidate
	// mappings' predictions of its mixes, kept between the class's fits so
	// that a refit recomputes only the mixes that changed) may hold once a
	// class is fitted: past it, the class just fitted keeps none. 0: a
	// quarter of the Go runtime's soft memory limit (GOMEMLIMIT, or what
	// characterize and model build set), no bound where none is set. The
	// memo only saves work: the model is the same at any bound. On the
	// Zen 4 guest the build from no base held 2.8 GB in it of a 3.6 GB
	// live heap, and a 4 GiB control group killed the run.
	MemoBytes int64
	// noMemo turns the memo off (tests: it must change no result).
	noMemo bool
	// memoDropped, when set, counts the fits after which a class kept no
	// memo (tests: MemoBytes took effect).
	memoDropped *int
}

// Defaults of InferOptions (model build's flags show them).
const (
	DefaultTolerance     = 0.005
	DefaultErrorCap      = 0.12
	DefaultLowConfidence = 0.05
)

func (o *InferOptions) defaults() {
	if o.Tolerance <= 0 {
		o.Tolerance = DefaultTolerance
	}
	if o.LowConfidence <= 0 {
		o.LowConfidence = DefaultLowConfidence
	}
	if o.ErrorCap <= 0 {
		o.ErrorCap = DefaultErrorCap
	}
	if o.MaxPasses <= 0 {
		o.MaxPasses = 6
	}
	if o.MaxPorts <= 0 || o.MaxPorts > 64 {
		o.MaxPorts = 32
	}
	if o.MemoBytes <= 0 {
		o.MemoBytes = math.MaxInt64
		if l := debug.SetMemoryLimit(-1); l < math.MaxInt64 {
			o.MemoBytes = l / 4
		}
	}
}

type classCount struct {
	c int
	n float64
}

type inferMix struct {
	parts []classCount
	y     float64
	// overhead is the dispatch slots per copy of instructions that are
	// not the parts' (MixMeasurement.Overhead).
	overhead float64
	// commit is the cycles a copy's stores take to commit
	// (MixMeasurement.StoreCommitCycles), a floor no mapping changes.
	commit float64
}

type inferClass struct {
	forms []string
	tp    float64
	base  []maskUse // the base model's mapping (unscaled), nil when none
	cur   []maskUse // current mapping, nil when unassigned
	mixes []int
	// hints are classes whose mappings together make a candidate (a memory
	// form: its register form and a load or store; a 512-bit form: its
	// 256-bit form).
	hints [][]int
	// slots is the dispatch slots one instance takes (macro-ops, fused
	// uops): the base model's uops, else 1.
	slots float64
	// overhead is the dispatch slots per instance the singleton's snippet
	// spent on other instructions (FormMeasurements.Overhead).
	overhead float64
	// oneUop says the base model has the form as one uop on one port
	// group: its candidates have one use (a second use would be a second
	// uop, which the fit would invent to explain what is not a port
	// conflict, such as this host's dispatch and allocation limits).
	// Vector forms whose one-use fit is poor (over LowConfidence) may
	// have two when that halves the error (secondUopGain): LLVM 14's
	// sapphirerapids has vcvtqq2ps ymm, zmm as one uop on p05, the
	// Granite Rapids guest runs one on port 0 and one on port 5 (13.4 %
	// fit error with one use, 5.0 % with two). General-purpose forms
	// keep one: given the chance, the fit gave popcnt r64 and imul r64
	// a second uop to explain mixes their register chains slowed.
	oneUop bool
	// mem is the base model's memory part of a form that loads or stores
	// (its uses of the load and store ports, see memoryPorts): every
	// candidate keeps it as it is and varies the rest. nil for register
	// forms, without a base, and where the base's memory path alone is
	// slower than the form was measured.
	mem []maskUse
	// variant is the class of the form this class's forms are a masked or
	// {evex} variant of (variantOf), -1 when none: a class without mixes
	// takes its mapping.
	variant int
	// wide says the class's forms are 512-bit work, narrow that they are
	// 128/256-bit vector work (Is512BitOp, IsNarrowVectorOp); cur512 is a
	// narrow class's mapping beside 512-bit work (nil: cur), fitted by
	// fit512 from its crossMixes cross-width mixes.
	wide, narrow bool
	// domain is the register domain all the class's forms keep to
	// (registerDomain): a candidate never maps an integer class onto
	// vector ports, a vector class onto integer ones, or either onto the
	// memory ports (domainForbids).
	domain     regDomain
	cur512     []maskUse
	crossMixes int
	// results
	err, maxErr float64
	evaluated   int // mixes the error is over
	why         string
}

type inferProblem struct {
	// stopped: opt.Stop said true; nothing more is fitted.
	stopped  bool
	ports    []string
	abstract bool
	// basePorts is how many ports the base model has: with a base, ports
	// the fit opens are named new0, new1, ...
	basePorts int
	// width is the dispatch width (uops per cycle) predictions respect; 0
	// for none. fixedWidth says it came from the base model; otherwise
	// solve estimates it from the measurements.
	width      float64
	fixedWidth bool
	// baseWidth is the base model's width where the mixes showed more
	// (the pass "dispatch width" raised it), 0 otherwise; overWidth the
	// share of the mixes that ran faster than it allows.
	baseWidth, overWidth float64
	// units are the base model's ports that are execution units behind
	// an issue port rather than issue ports (LLVM's Divider and FPDivider,
	// see unitPorts): a candidate never groups one with other ports.
	units uint64
	// intOnly and vecOnly are the base's ports of two clusters that share
	// no port (clusterPorts): a candidate group never holds one of each.
	intOnly, vecOnly uint64
	// memPorts are the base model's memory ports (memoryPorts): the
	// memory forms' fixed part uses them, nothing else a candidate has.
	memPorts uint64
	// memGrown maps a base memory port group the measured rate outgrew to
	// the new ports it was grown by (fixedMemoryUses), so that every form
	// grows it by the same ones.
	memGrown map[uint64]uint64
	partners [][]int // per class: the classes it shares a mix with
	// fit512Result is what the last fit512 found.
	fit512Result fit512Result
	classes      []*inferClass
	mixes        []inferMix
	opt          InferOptions
	buf          []maskUse
	// state hashes every class's mapping (a sum of per-class hashes, kept
	// by setCur), to tell when the descent comes back to where it was.
	state uint64
	memo  // see infermemo.go
}

// candidate is a mapping under consideration.
type candidate struct {
	uses   []maskUse
	isBase bool
	isCur  bool
	// fromBase marks the base mapping with a group grown by ports the
	// base lacks: the least correction of a base with too few ports.
	fromBase bool
	// composed marks a mapping made of other classes' (inferClass.hints):
	// a memory form's register form plus a plain load or store, a 512-bit
	// form's 256-bit form. Within the tolerance it wins over other
	// mappings that are not the base's.
	composed bool
	// floor marks a mapping whose ports alone run faster than the measured
	// throughput: something else (the form's own bound) limits it.
	floor bool
	fresh int // new ports it opens (abstract mode)
	// second marks a candidate of more than one use for a class the base
	// model has as one uop (inferClass.oneUop).
	second bool
	// group is the first port group the candidate was made of (before a
	// memory form's fixed memory part was added).
	group  uint64
	shared int // ports it takes that other classes already use
	err    float64
	maxErr float64
	n      int
	done   bool // evaluated
}

// subCycle reports whether a use takes less than a cycle (impossible: a
// port runs at most one uop a cycle).
func (c *candidate) subCycle() bool {
	sub, _, _, _ := c.key()
	return sub == 1
}

func (c *candidate) key() (sub, nUses int, cycles float64, ports int) {
	for _, u := range c.uses {
		if u.cycles < 0.95 {
			sub = 1
		}
		cycles += u.cycles
		ports += bits.OnesCount64(u.mask)
	}
	return sub, len(c.uses), math.Round(cycles*20) / 20, ports
}

// byErr orders candidates by error.
func byErr(a, b *candidate) int { return cmp.Compare(a.err, b.err) }

// smaller reports whether a is preferred to b when both fit well enough:
// the base mapping (no correction without evidence); the base mapping
// grown by ports the base lacks; a composed mapping (a memory form's
// register form plus a plain load or store, a 512-bit form's 256-bit
// form: nothing else, unless the mixes show otherwise); no sub-cycle uses;
// throughput explained by ports; fewer uses; then, for a class's first
// mapping in abstract mode, fewer ports shared with other classes (no
// sharing without evidence) and otherwise the current mapping (no churn);
// fewer new ports, fewer cycles, fewer ports, lower error.
func smaller(a, b *candidate, first bool) bool {
	if a.isBase != b.isBase {
		return a.isBase
	}
	if a.fromBase != b.fromBase {
		return a.fromBase
	}
	if a.composed != b.composed {
		return a.composed
	}
	as, an, ac, ap := a.key()
	bs, bn, bc, bp := b.key()
	switch {
	case as != bs:
		return as < bs
	case a.floor != b.floor:
		return !a.floor
	case an != bn:
		return an < bn
	}
	if first {
		if a.shared != b.shared {
			return a.shared < b.shared
		}
	} else if a.isCur != b.isCur {
		return a.isCur
	}
	switch {
	case a.fresh != b.fresh:
		return a.fresh < b.fresh
	case ac != bc:
		return ac < bc
	case ap != bp:
		return ap < bp
	}
	return a.err < b.err-1e-12
}

// choose picks a class's mapping from its evaluated candidates: the base
// mapping where it predicts every mix of the class within baseStands (a
// closer fit of a class's few mixes is no evidence against it), else the
// smallest (smaller) of those whose error is at most limit (the best
// error plus InferOptions.Tolerance); nil when none is.
func choose(cands []*candidate, limit float64, first bool) *candidate {
	for _, cd := range cands {
		if cd.isBase && cd.n > 0 && cd.maxErr <= baseStands {
			return cd
		}
	}
	var win *candidate
	for _, cd := range cands {
		if cd.err > limit {
			continue
		}
		if win == nil || smaller(cd, win, first) {
			win = cd
		}
	}
	return win
}

// baseStands is the relative error within which the base mapping
// predicts every mix of a class and stands. A class fitted to the random
// mixes its forms were drawn into has three or four of them in a
// 30-minute characterize run, and a mapping closer by the fit error
// moved 2,850 of the Zen 5 guest's 11,705 measured forms from the
// embedded model's mappings; built again from the same measurements with
// the base standing (AuthenticAMD-1a-2-1, 2026-12-02), the model
// predicted its validation draw 62.5 % within 10 % instead of 61.0 % and
// a fresh draw 61.3 % instead of 60.8 %.
const baseStands = 0.10

// scaleTo scales a mapping so that its singleton bound equals tp. When a
// unit (a divider, unitPorts) sets the bound, and still would at tp, only
// the unit's cycles scale: a divide is one uop on an issue port and a number of cycles on
// the divider that its operands decide (LLVM 14's sapphirerapids has
// vdivpd ymm at 5*FPDivider+1*p0; measured 8 cycles, scaling both would
// make it 1.6*p0, which its mixes with port-0 forms refuse, and the fit
// would drop the divider for 1*p0+1*p05: two divides in parallel).
func (p *inferProblem) scaleTo(uses []maskUse, tp float64) []maskUse {
	if len(uses) == 0 || tp <= 0 {
		return nil
	}
	p.buf = append(p.buf[:0], uses...)
	b := bottleneck(p.buf)
	if b <= 0 {
		return nil
	}
	// The units alone when they set the bound and still do at tp.
	onlyUnits := false
	if p.units != 0 {
		p.buf = p.buf[:0]
		var ports []maskUse
		for _, u := range uses {
			if u.mask&^p.units == 0 {
				p.buf = append(p.buf, u)
			} else {
				ports = append(ports, u)
			}
		}
		onlyUnits = len(p.buf) > 0 && bottleneck(p.buf) >= b*(1-1e-9) && (len(ports) == 0 || bottleneck(ports) <= tp)
	}
	s := tp / b
	out := make([]maskUse, 0, len(uses))
	for _, u := range uses {
		if onlyUnits && u.mask&^p.units != 0 {
			out = append(out, u)
			continue
		}
		out = append(out, maskUse{u.mask, u.cycles * s})
	}
	out = mergeUses(out)
	sortUses(out)
	return out
}

func sortUses(us []maskUse) {
	sort.Slice(us, func(i, j int) bool {
		if bits.TrailingZeros64(us[i].mask) != bits.TrailingZeros64(us[j].mask) {
			return bits.TrailingZeros64(us[i].mask) < bits.TrailingZeros64(us[j].mask)
		}
		return us[i].mask < us[j].mask
	})
}

// predict returns the predicted cycles of mix k with class c mapped to
// cand (nil: its current mapping); ok is false when a part has no mapping.
func (p *inferProblem) predict(k int, c int, cand []maskUse) (float64, bool) {
	mx := &p.mixes[k]
	p.buf = p.buf[:0]
	floor, uops := mx.commit, mx.overhead
	for _, part := range mx.parts {
		uses := p.classes[part.c].cur
		if part.c == c {
			uses = cand
		}
		if uses == nil {
			return 0, false
		}
		for _, u := range uses {
			p.buf = append(p.buf, maskUse{u.mask, u.cycles * part.n})
		}
		floor = max(floor, part.n*p.classes[part.c].tp)
		uops += part.n * p.classes[part.c].slots
	}
	if p.width > 0 {
		floor = max(floor, uops/p.width)
	}
	return max(bottleneck(p.buf), floor), true
}

// estimateWidth returns the dispatch width the measurements show: the
// rate of dispatch slots per cycle (each instance taking its class's
// slots) that the fastest 1 % of the mixes and forms alone reach (the
// fastest one among fewer than a hundred), rounded to a whole number. The
// largest rate of all would follow the few mixes that run faster than
// dispatch (nops, eliminated moves): from no base, the Zen 4 guest's
// mixes read 12 a cycle at most and 6, its dispatch width, at the 99th
// percentile, and the build with 6 predicted 58.8 % of a fresh draw
// within 10 % where the one with 12 predicted 53.0 % (before the pass
// "512-bit work in the fit"; docs/benchmarks.md, "Bases").
func (p *inferProblem) estimateWidth() float64 {
	var rates []float64
	for _, cl := range p.classes {
		if cl.tp > 0 {
			rates = append(rates, (cl.slots+cl.overhead)/cl.tp)
		}
	}
	for _, mx := range p.mixes {
		u := mx.overhead
		for _, part := range mx.parts {
			u += part.n * p.classes[part.c].slots
		}
		if mx.y > 0 {
			rates = append(rates, u/mx.y)
		}
	}
	if len(rates) == 0 {
		return 0
	}
	return max(1, fastestOnePercent(rates))
}

// fastestOnePercent is the rate the fastest 1 % of rates reach (the
// fastest among fewer than a hundred), rounded to a whole number: a
// dispatch width the measurements show (estimateWidth, the pass
// "dispatch width"). It sorts rates, which must not be empty.
func fastestOnePercent(rates []float64) float64 {
	sort.Float64s(rates)
	k := int(math.Ceil(0.01 * float64(len(rates))))
	return math.Round(rates[len(rates)-k])
}

// evaluate sets cand's error over class c's evaluable mixes.
func (p *inferProblem) evaluate(c int, cand *candidate) {
	p.evaluateOn(c, cand, nil)
}

// evaluateOn sets cand's error over the mixes of class c at the given
// positions of its mix list (nil: all of them, else its subsample). With
// the memo on, only predictions the memo lacks are made.
func (p *inferProblem) evaluateOn(c int, cand *candidate, sample []int) {
	if p.on {
		vec := p.memoized(c, cand.uses, sample)
		cand.err, cand.maxErr, cand.n, cand.done = vec.err, vec.maxErr, vec.n, true
		return
	}
	cl := p.classes[c]
	n := len(cl.mixes)
	if sample != nil {
		n = len(sample)
	}
	sum, mx := 0.0, 0.0
	cnt := 0
	for j := 0; j < n; j++ {
		k := cl.mixes[j]
		if sample != nil {
			k = cl.mixes[sample[j]]
		}
		pred, ok := p.predict(k, c, cand.uses)
		if !ok {
			continue
		}
		e := (pred - p.mixes[k].y) / p.mixes[k].y
		sum += p.mixLoss(e)
		mx = max(mx, math.Abs(e))
		cnt++
	}
	cand.n = cnt
	cand.done = true
	cand.maxErr = mx
	if cnt == 0 {
		cand.err = 0
		return
	}
	cand.err = math.Sqrt(sum / float64(cnt))
}

// vocabulary returns the port groups class c's candidates are built
// from: the groups its mix partners use (most used first), their subsets,
// unions, intersections and differences, every other class's groups, and
// single ports. used are the partners' groups.
func (p *inferProblem) vocabularyOf(c int) (all, used []uint64) {
	count := map[uint64]int{}
	var order []uint64
	note := func(m uint64) {
		if m == 0 {
			return
		}
		if _, ok := count[m]; !ok {
			order = append(order, m)
		}
		count[m]++
	}
	cl := p.classes[c]
	for _, u := range cl.cur {
		note(u.mask)
	}
	for _, u := range cl.base {
		note(u.mask)
	}
	for _, o := range p.partners[c] {
		for _, u := range p.classes[o].cur {
			note(u.mask)
		}
	}
	for _, h := range cl.hints {
		for _, o := range h {
			for _, u := range p.classes[o].cur {
				note(u.mask)
			}
		}
	}
	sort.SliceStable(order, func(i, j int) bool { return count[order[i]] > count[order[j]] })
	used = order
	seen := map[uint64]bool{}
	add := func(m uint64) {
		if m != 0 && !seen[m] && !p.mixesUnits(m) {
			seen[m] = true
			all = append(all, m)
		}
	}
	for _, m := range used {
		add(m)
	}
	for _, m := range p.allGroups() {
		add(m)
	}
	for i := range p.ports {
		add(1 << i)
	}
	for _, m := range used {
		n := bits.OnesCount64(m)
		if n <= 6 {
			idx := maskBits(m)
			for s := 1; s < 1<<n; s++ {
				var sub uint64
				for j, b := range idx {
					if s&(1<<j) != 0 {
						sub |= 1 << b
					}
				}
				add(sub)
			}
		} else {
			for _, b := range maskBits(m) {
				add(m &^ (1 << b))
			}
		}
	}
	pair := used
	if len(pair) > maxPairGroups {
		pair = pair[:maxPairGroups]
	}
	for i, a := range pair {
		for _, b := range pair[i+1:] {
			add(a | b)
			add(a & b)
			add(a &^ b)
			add(b &^ a)
		}
	}
	return all, used
}

// secondUopGain is how much a two-use mapping of a form the base model
// has as one uop must cut the best one-use fit error by (to at most this
// fraction of it) to be considered.
const secondUopGain = 0.5

// maxPairGroups caps the groups whose unions and differences join the
// vocabulary (the most used ones).
const maxPairGroups = 40

// subsampleSize is how many of a class's mixes rank its candidates
// before the best are scored on all of them.
const subsampleSize = 48

func maskBits(m uint64) []int {
	var out []int
	for ; m != 0; m &= m - 1 {
		out = append(out, bits.TrailingZeros64(m))
	}
	return out
}

func equalUses(a, b []maskUse) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].mask != b[i].mask || math.Abs(a[i].cycles-b[i].cycles) > 1e-6*math.Max(1, a[i].cycles) {
			return false
		}
	}
	return true
}

// fitClass chooses class c's mapping given the others; it reports
// whether the mapping changed.
func (p *inferProblem) fitClass(c int) bool {
	if p.halted() {
		return false
	}
	cl := p.classes[c]
	p.serial++
	if p.on {
		defer p.pruneMemo(c)
	}
	vocab, used := p.vocabulary(c)
	// Ports of the classes c was mixed with: sharing them needs evidence.
	var tested uint64
	for _, o := range p.partners[c] {
		for _, u := range p.classes[o].cur {
			tested |= u.mask
		}
	}
	var cands []*candidate
	forbidden := p.domainForbids(cl.domain)
	add := func(cd *candidate) bool {
		if p.crossesClusters(cd.uses) {
			return false
		}
		if len(cd.uses) > 0 {
			cd.group = cd.uses[0].mask
		}
		if cl.mem != nil {
			if cd.uses = p.withMemory(cl, cd.uses, cd.floor); cd.uses == nil {
				return false
			}
		}
		var all uint64
		for _, u := range cd.uses {
			all |= u.mask
		}
		if all&forbidden != 0 {
			return false
		}
		cd.shared = bits.OnesCount64(all & tested)
		cd.second = cl.oneUop && len(cd.uses) > 1
		cands = append(cands, cd)
		return true
	}
	// addScaled adds a mapping scaled to the measured throughput and, when
	// its ports alone allow a faster rate at whole cycles, that variant too.
	addScaled := func(uses []maskUse, isBase, isCur bool, fresh int) {
		if s := p.scaleTo(uses, cl.tp); s != nil {
			add(&candidate{uses: s, isBase: isBase, isCur: isCur, fresh: fresh})
		}
		if isBase || isCur {
			return
		}
		whole := make([]maskUse, len(uses))
		for i, u := range uses {
			whole[i] = maskUse{u.mask, math.Max(1, math.Round(u.cycles))}
		}
		p.buf = append(p.buf[:0], whole...)
		if b := bottleneck(p.buf); b > 0 && b < cl.tp*0.97 {
			add(&candidate{uses: whole, floor: true, fresh: fresh})
		}
	}
	if cl.base != nil {
		addScaled(cl.base, true, false, 0)
	}
	if cl.cur != nil {
		cur := append([]maskUse(nil), cl.cur...)
		add(&candidate{uses: cur, isCur: true, floor: p.floorOnly(cur, cl.tp)})
	}
	for _, h := range cl.hints {
		var uses []maskUse
		ok := true
		for _, hc := range h {
			if p.classes[hc].cur == nil {
				ok = false
				break
			}
			uses = append(uses, p.classes[hc].cur...)
		}
		if ok {
			n0 := len(cands)
			addScaled(uses, false, false, 0)
			for _, cd := range cands[n0:] {
				cd.composed = true
			}
		}
	}
	nports := len(p.ports)
	nBefore := len(cands)
	var one []*candidate
	for _, g := range vocab {
		one = append(one, &candidate{uses: []maskUse{{g, cl.tp * float64(bits.OnesCount64(g))}}})
	}
	if p.abstract {
		for k := 1; k <= 8 && nports+k <= p.opt.MaxPorts; k++ {
			fresh := ((uint64(1) << k) - 1) << nports
			one = append(one, &candidate{uses: []maskUse{{fresh, cl.tp * float64(k)}}, fresh: k})
			if k <= 2 {
				for _, g := range used {
					m := g | fresh
					one = append(one, &candidate{uses: []maskUse{{m, cl.tp * float64(bits.OnesCount64(m))}}, fresh: k})
				}
			}
		}
	}
	if !p.abstract && cl.base != nil {
		p.growBase(c, vocab, addScaled)
		for _, cd := range cands[nBefore:] {
			cd.fromBase = true
		}
	}
	// Whole-cycle variants of single groups whose ports are faster than the form.
	for _, g := range vocab {
		if n := float64(bits.OnesCount64(g)); 1/n < cl.tp*0.97 {
			one = append(one, &candidate{uses: []maskUse{{g, 1}}, floor: true})
		}
	}
	// Rank on a subsample of the mixes when there are many (positions in
	// the class's mix list; nil: all).
	var sample []int
	if len(cl.mixes) > subsampleSize {
		sample = make([]int, 0, subsampleSize)
		step := float64(len(cl.mixes)) / subsampleSize
		for i := 0; i < subsampleSize; i++ {
			sample = append(sample, int(float64(i)*step))
		}
	}
	full := sample == nil
	kept := one[:0]
	for _, cd := range one {
		if !add(cd) {
			continue
		}
		kept = append(kept, cd)
		p.evaluateOn(c, cd, sample)
		cd.done = full
	}
	one = kept
	bestOne := math.Inf(1)
	for _, cd := range one {
		bestOne = min(bestOne, cd.err)
	}
	if len(cl.mixes) > 0 && (!cl.oneUop || (bestOne > p.opt.LowConfidence && (cl.wide || cl.narrow))) {
		// Two uses: the best single groups, each with another group.
		slices.SortStableFunc(one, byErr)
		top := one
		if len(top) > 8 {
			top = top[:8]
		}
		second := append([]uint64(nil), used...)
		for i := range p.ports {
			second = append(second, 1<<i)
		}
		for _, a := range top {
			if a.fresh > 0 {
				continue
			}
			for _, g := range second {
				if g == a.group {
					continue
				}
				for _, ratio := range []float64{1, 2} {
					addScaled([]maskUse{{a.group, 1}, {g, ratio}}, false, false, 0)
				}
			}
		}
	}
	if !full {
		// Score the best-ranked candidates (and the base, current and
		// composed ones) on every mix; drop the rest.
		for _, cd := range cands {
			if !cd.done && cd.n == 0 {
				p.evaluateOn(c, cd, sample)
				cd.done = false
			}
		}
		slices.SortStableFunc(cands, byErr)
		kept := cands[:0]
		for i, cd := range cands {
			if i < 24 || cd.isBase || cd.isCur || cd.composed {
				kept = append(kept, cd)
			}
		}
		cands = kept
		for _, cd := range cands {
			cd.done = false
		}
	}
	// A port runs at most one uop a cycle: uses of less than a cycle are
	// impossible, kept only when nothing else explains the throughput.
	physical := cands[:0:0]
	for _, cd := range cands {
		if sub, _, _, _ := cd.key(); sub == 0 {
			physical = append(physical, cd)
		}
	}
	if len(physical) > 0 {
		cands = physical
	}
	best, bestOneUse, bestSecond := math.Inf(1), math.Inf(1), math.Inf(1)
	for _, cd := range cands {
		if !cd.done {
			p.evaluate(c, cd)
		}
		if cd.second {
			bestSecond = min(bestSecond, cd.err)
		} else {
			bestOneUse = min(bestOneUse, cd.err)
		}
	}
	// A second uop the base model lacks needs strong evidence: it must
	// at least halve the error of the best mapping without one (else
	// it is the fit explaining a chain or a front-end limit by a uop:
	// popcnt r64 got a second one on the Granite Rapids guest).
	if bestSecond > bestOneUse*secondUopGain {
		kept := cands[:0]
		for _, cd := range cands {
			if !cd.second {
				kept = append(kept, cd)
			}
		}
		cands = kept
	}
	for _, cd := range cands {
		best = min(best, cd.err)
	}
	win := choose(cands, best+p.opt.Tolerance, cl.cur == nil)
	if win == nil {
		return false
	}
	if win.fresh > 0 {
		for i := 0; i < win.fresh; i++ {
			if p.abstract {
				p.ports = append(p.ports, "P"+strconv.Itoa(len(p.ports)))
			} else {
				p.ports = append(p.ports, freshPortName(p.ports))
			}
		}
	}
	uses := append([]maskUse(nil), win.uses...)
	sortUses(uses)
	changed := !equalUses(uses, cl.cur)
	p.setCur(c, uses)
	return changed
}

// memoryPorts returns the ports the base model's plain loads and stores
// use (load and store pipes, address generation, the FP load/store data
// path): the memory system, which mixes of a form with a few probes
// cannot map (the probes load and store general registers only), and
// which random mixes of memory forms show is shared as the base has it
// (two ymm loads a cycle on Zen 4 whatever the operation).
func (p *inferProblem) memoryPorts(base *Model) uint64 {
	if base == nil {
		return 0
	}
	ports := func(names ...string) uint64 {
		var mask uint64
		for _, n := range names {
			if e, ok := base.Lookup(n); ok {
				for _, u := range p.compile(e.PortPressure) {
					mask |= u.mask
				}
			}
		}
		return mask
	}
	var mem uint64
	for _, forms := range []map[string]string{loadForms, storeForms} {
		for _, n := range forms {
			mem |= ports(n)
		}
	}
	// Not the execution ports some of them also take (LLVM's
	// sapphirerapids has vmovups zmm, m512 on p015 besides the load ports).
	return mem &^ ports(registerForms...)
}

// registerForms run on execution ports only: the ports their base mappings
// use are not memory ports.
var registerForms = []string{"add r64, r64", "imul r64, r64", "shl r64, imm8", "vaddpd ymm, ymm, ymm",
	"vmulpd ymm, ymm, ymm", "vpaddd ymm, ymm, ymm", "vpshufb ymm, ymm, ymm", "vaddpd zmm, zmm, zmm"}

// fixedMemoryUses splits a base mapping's memory part off (uses of the
// memory ports) for a form measured at tp cycles: nil when the mapping
// has none. A part that alone would run slower than measured (the base's
// memory path is slower than this host's: LLVM's znver3 stores take two
// cycles of a store port, Zen 4 stores two a cycle) is scaled to the
// measured throughput.
func (p *inferProblem) fixedMemoryUses(base []maskUse, tp float64) []maskUse {
	var mem []maskUse
	for _, u := range base {
		if u.mask&p.memPorts != 0 {
			mem = append(mem, u)
		}
	}
	if len(mem) == 0 {
		return nil
	}
	p.buf = append(p.buf[:0], mem...)
	if bottleneck(p.buf) > tp*1.03 {
		// The base's memory ports are too few for the measured rate (LLVM
		// 14's sapphirerapids has two load ports and one store-data port,
		// Granite Rapids three and two): scaled, its uses would take less
		// than a cycle a uop, which no port can. Each group too small is
		// grown by new memory ports instead, the same ones for every form.
		return p.growMemory(mem, tp)
	}
	sortUses(mem)
	return mem
}

// growMemory returns the memory uses with every group grown by as many
// new ports as the measured reciprocal throughput tp needs (a group of n
// ports runs n uops a cycle), nil when a group would need more than two
// or the model has no room for ports.
func (p *inferProblem) growMemory(mem []maskUse, tp float64) []maskUse {
	if p.abstract {
		return p.scaleTo(mem, tp)
	}
	if p.memGrown == nil {
		p.memGrown = map[uint64]uint64{}
	}
	out := make([]maskUse, 0, len(mem))
	for _, u := range mem {
		have := bits.OnesCount64(u.mask)
		need := int(math.Ceil(u.cycles/(tp*1.03) - 1e-9))
		if need <= have {
			out = append(out, u)
			continue
		}
		extra := need - have
		if extra > 2 {
			return nil
		}
		grown := p.memGrown[u.mask]
		for bits.OnesCount64(grown) < extra {
			if len(p.ports) >= 64 {
				return nil
			}
			bit := uint64(1) << len(p.ports)
			p.ports = append(p.ports, freshPortName(p.ports))
			grown |= bit
			p.memPorts |= bit
		}
		p.memGrown[u.mask] = grown
		m := u.mask
		for _, b := range maskBits(grown)[:extra] {
			m |= 1 << b
		}
		out = append(out, maskUse{m, u.cycles})
	}
	out = mergeUses(out)
	sortUses(out)
	return out
}

// withMemory makes a candidate of a memory form: its uses of other ports
// (scaled to the measured throughput, unless it is a whole-cycle floor
// variant or the memory part alone accounts for the throughput: then a uop
// a use) with the class's fixed memory part. A form whose base mapping
// is all memory (a plain load or store) keeps that part scaled to its
// throughput. nil: the candidate has nothing but memory uses, and the form
// has more.
func (p *inferProblem) withMemory(cl *inferClass, uses []maskUse, floor bool) []maskUse {
	var rest []maskUse
	for _, u := range uses {
		if u.mask&p.memPorts == 0 {
			rest = append(rest, u)
		}
	}
	if len(rest) == 0 {
		for _, u := range cl.base {
			if u.mask&p.memPorts == 0 {
				return nil
			}
		}
		return p.scaleTo(cl.mem, cl.tp)
	}
	p.buf = append(p.buf[:0], cl.mem...)
	switch {
	case floor:
	case bottleneck(p.buf) >= cl.tp*0.97:
		// The memory part is what bounds the form alone: the rest is a
		// uop a use, only the mixes tell more.
		for i := range rest {
			rest[i].cycles = 1
		}
		if p.buf = append(p.buf[:0], rest...); bottleneck(p.buf) > cl.tp {
			rest = p.scaleTo(rest, cl.tp)
		}
	default:
		if rest = p.scaleTo(rest, cl.tp); rest == nil {
			return nil
		}
	}
	out := append(append([]maskUse(nil), rest...), cl.mem...)
	out = mergeUses(out)
	sortUses(out)
	return out
}

// growBase adds, for a class whose base mapping needs uses of less than
// a cycle to reach its measured throughput (the base has too few ports of
// the kind: a newer core's fifth ALU or third load port), the base
// mapping with one group grown: by the new ports another class already
// grew it by (a group of the vocabulary that is the base group plus new
// ports), or by one or two new ports.
func (p *inferProblem) growBase(c int, vocab []uint64, addScaled func([]maskUse, bool, bool, int)) {
	cl := p.classes[c]
	s := p.scaleTo(cl.base, cl.tp)
	if s == nil || !(&candidate{uses: s}).subCycle() {
		return
	}
	var newPorts uint64
	for i := p.basePorts; i < len(p.ports) && i < 64; i++ {
		newPorts |= 1 << i
	}
	nports := len(p.ports)
	for i, u := range cl.base {
		if u.mask&p.units != 0 {
			continue // a unit is not grown by issue ports
		}
		grow := func(m uint64, fresh int) {
			grown := append([]maskUse(nil), cl.base...)
			grown[i].mask = m
			addScaled(grown, false, false, fresh)
		}
		for _, g := range vocab {
			if g != u.mask && g&u.mask == u.mask && (g&^u.mask)&^newPorts == 0 {
				grow(g, 0)
			}
		}
		for k := 1; k <= 2 && nports+k <= p.opt.MaxPorts; k++ {
			grow(u.mask|((uint64(1)<<k)-1)<<nports, k)
		}
	}
}

// unitPorts returns the ports of a base model that name an execution
// unit rather than an issue port: LLVM's Intel models list the dividers
// (Divider, FPDivider) beside the numbered ports, and no port group of
// theirs joins a divider with a port.
func unitPorts(ports []string) uint64 {
	var m uint64
	for i, name := range ports {
		if i < 64 && strings.Contains(strings.ToLower(name), "div") {
			m |= 1 << i
		}
	}
	return m
}

// mixesUnits reports whether a port group joins a unit (unitPorts) with
// other ports: no core issues a uop to "the divider or port 5".
func (p *inferProblem) mixesUnits(m uint64) bool {
	return m&p.units != 0 && m&^p.units != 0 || m&p.intOnly != 0 && m&p.vecOnly != 0
}

// crossesClusters reports whether a mapping has a group that mixes units
// or clusters (mixesUnits): no candidate may.
func (p *inferProblem) crossesClusters(uses []maskUse) bool {
	for _, u := range uses {
		if p.mixesUnits(u.mask) {
			return true
		}
	}
	return false
}

// floorOnly reports whether a mapping's ports alone run faster than tp.
func (p *inferProblem) floorOnly(uses []maskUse, tp float64) bool {
	p.buf = append(p.buf[:0], uses...)
	return bottleneck(p.buf) < tp*0.97
}

// solve runs coordinate descent over the classes.
func (p *inferProblem) solve() {
	p.opt.defaults()
	order := make([]int, len(p.classes))
	for i := range order {
		order[i] = i
	}
	partners := p.linkPartners()
	// Most-connected first (the probes every form was mixed with); among
	// those, the widest port groups first (lowest throughput): they lay
	// out the ports that narrower groups are then carved from.
	maxPartners := 1
	for _, n := range partners {
		maxPartners = max(maxPartners, n)
	}
	bucket := func(c int) int { return partners[c] * 4 / maxPartners }
	orderBy := func(wideFirst bool) []int {
		o := append([]int(nil), order...)
		sort.SliceStable(o, func(a, b int) bool {
			ca, cb := o[a], o[b]
			if bucket(ca) != bucket(cb) {
				return bucket(ca) > bucket(cb)
			}
			if p.classes[ca].tp != p.classes[cb].tp {
				return (p.classes[ca].tp < p.classes[cb].tp) == wideFirst
			}
			return partners[ca] > partners[cb]
		})
		return o
	}
	if !p.fixedWidth && len(p.mixes) > 0 {
		// Mixes of cheap forms run into the dispatch width, which no port
		// mapping explains: estimate it before fitting.
		p.width = p.estimateWidth()
	}
	// Coordinate descent finds a local optimum that depends on the order
	// classes are placed in: in abstract mode, try the widest groups first
	// and then the narrowest first, and keep the better fit.
	startPorts := append([]string(nil), p.ports...)
	type state struct {
		ports []string
		cur   [][]maskUse
		err   float64
	}
	var best *state
	tries := []bool{true}
	if p.abstract {
		tries = append(tries, false)
	}
	for _, wideFirst := range tries {
		p.ports = append([]string(nil), startPorts...)
		p.memo = memo{}
		for c := range p.classes {
			p.setCur(c, nil)
		}
		if !p.opt.noMemo {
			p.resetMemo()
		}
		p.descendFrom(orderBy(wideFirst), bucket)
		st := &state{ports: append([]string(nil), p.ports...), err: p.totalError()}
		for _, cl := range p.classes {
			st.cur = append(st.cur, cl.cur)
		}
		if best == nil || st.err < best.err {
			best = st
		}
	}
	p.ports = best.ports
	for i := range p.classes {
		p.setCur(i, best.cur[i])
	}
	// Classes without mixes: the base mapping scaled to the measured
	// throughput, else the composition of their hints, else nothing.
	for c, cl := range p.classes {
		if len(cl.mixes) > 0 {
			continue
		}
		switch {
		case cl.base != nil:
			p.setCur(c, p.scaleTo(cl.base, cl.tp))
			cl.why = "no port-conflict measurements: ports from the base model"
		case cl.variant >= 0 && p.classes[cl.variant].cur != nil:
			v := p.classes[cl.variant]
			p.setCur(c, p.scaleTo(v.cur, cl.tp))
			cl.why = fmt.Sprintf("no port-conflict measurements: ports of %s (the form it is a variant of), scaled to its throughput", v.forms[0])
		default:
			for _, h := range cl.hints {
				var uses []maskUse
				ok := true
				for _, hc := range h {
					if p.classes[hc].cur == nil {
						ok = false
						break
					}
					uses = append(uses, p.classes[hc].cur...)
				}
				if ok {
					p.setCur(c, p.scaleTo(uses, cl.tp))
					cl.why = "no port-conflict measurements: ports of its register form plus a load or store"
					if len(h) == 1 {
						cl.why = fmt.Sprintf("no port-conflict measurements: ports of %s, scaled to its throughput", p.classes[h[0]].forms[0])
					}
					break
				}
			}
			if cl.cur == nil {
				cl.why = "no port-conflict measurements and no base model: ports unknown"
			}
		}
	}
	p.finalErrors()
	p.memo = memo{} // off
}

// linkPartners sets every class's mix partners (p.partners) and returns
// how many each has.
func (p *inferProblem) linkPartners() []int {
	partners := make([]int, len(p.classes))
	p.partners = make([][]int, len(p.classes))
	for i, cl := range p.classes {
		seen := map[int]bool{}
		for _, k := range cl.mixes {
			for _, pt := range p.mixes[k].parts {
				if pt.c != i && !seen[pt.c] {
					seen[pt.c] = true
					p.partners[i] = append(p.partners[i], pt.c)
				}
			}
		}
		partners[i] = len(seen)
	}
	return partners
}

// finalErrors sets every class's fit error over its mixes.
func (p *inferProblem) finalErrors() {
	for c, cl := range p.classes {
		cl.err, cl.maxErr, cl.evaluated = 0, 0, 0
		if cl.cur != nil {
			cl.err, cl.maxErr, cl.evaluated = p.plainError(c)
		}
	}
}

// fitSnapshot is the fit's state after solve and fit512 (snapshot).
type fitSnapshot struct {
	ports       []string
	nMixes      int
	cur, cur512 [][]maskUse
	nClassMixes []int
	why         []string
	crossMixes  []int
	memPorts    uint64
	memGrown    map[uint64]uint64
}

// snapshot saves the fit's state for restore.
func (p *inferProblem) snapshot() *fitSnapshot {
	s := &fitSnapshot{ports: append([]string(nil), p.ports...), nMixes: len(p.mixes), memPorts: p.memPorts, memGrown: maps.Clone(p.memGrown)}
	for _, cl := range p.classes {
		s.cur = append(s.cur, cl.cur)
		s.cur512 = append(s.cur512, cl.cur512)
		s.nClassMixes = append(s.nClassMixes, len(cl.mixes))
		s.why = append(s.why, cl.why)
		s.crossMixes = append(s.crossMixes, cl.crossMixes)
	}
	return s
}

// restore returns the fit to a snapshot: its ports, mixes and mappings.
func (p *inferProblem) restore(s *fitSnapshot) {
	p.ports = s.ports
	p.memPorts, p.memGrown = s.memPorts, s.memGrown
	p.mixes = p.mixes[:s.nMixes]
	for c, cl := range p.classes {
		p.setCur(c, s.cur[c])
		cl.cur512 = s.cur512[c]
		cl.mixes = cl.mixes[:s.nClassMixes[c]]
		cl.why = s.why[c]
		cl.crossMixes = s.crossMixes[c]
	}
	p.linkPartners()
	p.finalErrors()
}

// refitWith makes mixes part of the fit after solve: each joins its
// classes' mix lists, and every class is fitted again from its current
// mapping (the worst fits first, then full passes until nothing changes),
// its ports beside 512-bit work (cur512) dropped.
func (p *inferProblem) refitWith(mixes []inferMix) {
	p.opt.defaults()
	for _, mx := range mixes {
		k := len(p.mixes)
		p.mixes = append(p.mixes, mx)
		for _, pt := range mx.parts {
			if cl := p.classes[pt.c]; len(cl.mixes) == 0 || cl.mixes[len(cl.mixes)-1] != k {
				if len(cl.mixes) == 0 {
					cl.why = ""
				}
				cl.mixes = append(cl.mixes, k)
			}
		}
	}
	p.linkPartners()
	for _, cl := range p.classes {
		cl.cur512 = nil
	}
	if !p.opt.noMemo {
		p.resetMemo()
	}
	order := make([]int, len(p.classes))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return len(p.partners[order[a]]) > len(p.partners[order[b]]) })
	p.refitAll(order, "refitting with 512-bit work")
	p.finalErrors()
	p.memo = memo{} // off
}

// descendFrom places every class in the given order, refits the worst
// fits first, then runs full passes until nothing changes.
func (p *inferProblem) descendFrom(order []int, bucket func(int) int) {
	for c, cl := range p.classes {
		if cl.base != nil {
			p.setCur(c, p.scaleTo(cl.base, cl.tp))
		}
	}
	var core []int
	for i, c := range order {
		p.progress("placing port mappings", i, len(order))
		cl := p.classes[c]
		if cl.cur != nil || len(cl.mixes) == 0 {
			continue
		}
		p.fitClass(c)
		if bucket(c) >= 3 {
			// A core class: refit the core placed so far, which may now
			// see evidence it lacked when it was placed.
			for _, o := range core {
				p.fitClass(o)
			}
			core = append(core, c)
		}
	}
	p.refitAll(order, "refitting")
}

// refitAll refits the worst fits first (refine), then every class in
// order, in full passes until nothing changes (at most MaxPasses); what
// names the passes in the progress.
func (p *inferProblem) refitAll(order []int, what string) {
	p.progress("refining the worst fits", 0, 0)
	p.refine()
	for pass := 0; pass < p.opt.MaxPasses; pass++ {
		changed := false
		for i, c := range order {
			p.progress(fmt.Sprintf("%s, round %d", what, pass+1), i, len(order))
			if len(p.classes[c].mixes) > 0 && p.fitClass(c) {
				changed = true
			}
		}
		if !changed && pass > 0 {
			break
		}
	}
}

// halted reports whether opt.Stop said to stop (it is not asked again).
func (p *inferProblem) halted() bool {
	if !p.stopped && p.opt.Stop != nil && p.opt.Stop() {
		p.stopped = true
	}
	return p.stopped
}

// ErrBuildStopped is Build's error when InferOptions.Stop stopped the fit.
var ErrBuildStopped = errors.New("model build stopped before the fit was done")

// progress tells opt.Progress what the fit does, every 64 classes.
func (p *inferProblem) progress(what string, done, total int) {
	if p.opt.Progress != nil && done%64 == 0 {
		p.opt.Progress(what, done, total)
	}
}

// totalError is the RMS relative error over all mixes (mixLoss).
func (p *inferProblem) totalError() float64 {
	return p.errorOver(0, len(p.mixes))
}

// errorOver is the RMS relative error over mixes from..to-1 (mixLoss).
func (p *inferProblem) errorOver(from, to int) float64 {
	sum, n := 0.0, 0
	for k := from; k < to; k++ {
		pred, ok := p.curPred(k)
		if !ok {
			continue
		}
		e := (pred - p.mixes[k].y) / p.mixes[k].y
		sum += p.mixLoss(e)
		n++
	}
	if n == 0 {
		return 0
	}
	return math.Sqrt(sum / float64(n))
}

// refine refits the worst-fitting class first, again and again: a wrong
// starting mapping (a base model's mistake) is corrected where the
// evidence against it is strongest, instead of its neighbours moving
// around it.
func (p *inferProblem) refine() {
	neighbours := make([][]int, len(p.classes))
	for c, cl := range p.classes {
		seen := map[int]bool{c: true}
		for _, k := range cl.mixes {
			for _, pt := range p.mixes[k].parts {
				if !seen[pt.c] {
					seen[pt.c] = true
					neighbours[c] = append(neighbours[c], pt.c)
				}
			}
		}
	}
	errs := make([]float64, len(p.classes))
	errOf := func(c int) float64 {
		cl := p.classes[c]
		if cl.cur == nil || len(cl.mixes) == 0 {
			return 0
		}
		err, _, _ := p.curError(c)
		return err
	}
	for c := range p.classes {
		errs[c] = errOf(c)
	}
	tried := make([]bool, len(p.classes))
	visited := map[uint64]bool{p.state: true}
	limit := p.opt.MaxPasses * len(p.classes)
	for step := 0; step < limit; step++ {
		worst, werr := -1, p.opt.Tolerance/2
		for c, e := range errs {
			if !tried[c] && e > werr {
				worst, werr = c, e
			}
		}
		if worst < 0 {
			return
		}
		if !p.fitClass(worst) {
			tried[worst] = true
			continue
		}
		if visited[p.state] {
			// Back where it was: the descent goes round in circles.
			return
		}
		visited[p.state] = true
		errs[worst] = errOf(worst)
		tried[worst] = false
		for _, n := range neighbours[worst] {
			errs[n] = errOf(n)
			tried[n] = false
		}
	}
}

// pressureOf renders a mapping as port pressure.
func (p *inferProblem) pressureOf(uses []maskUse) PortPressure {
	pp := PortPressure{}
	for _, u := range uses {
		var ports []string
		for _, b := range maskBits(u.mask) {
			if b < len(p.ports) {
				ports = append(ports, p.ports[b])
			}
		}
		pp = append(pp, PortUse{Cycles: roundCycles(u.cycles), Ports: ports})
	}
	return pp
}

// groupName renders a port group as p[A,B].
func (p *inferProblem) groupName(mask uint64) string {
	var ports []string
	for _, b := range maskBits(mask) {
		if b < len(p.ports) {
			ports = append(ports, p.ports[b])
		}
	}
	return "p[" + strings.Join(ports, ",") + "]"
}

// roundCycles snaps inferred cycles to a clean value when within 2 %
// (measurements carry noise; 0.98 cycles is 1 cycle).
func roundCycles(c float64) float64 {
	for _, d := range []float64{1, 2, 3, 4} {
		if r := math.Round(c*d) / d; r > 0 && math.Abs(r-c) <= 0.02*r {
			return r
		}
	}
	return math.Round(c*1e4) / 1e4
}

// compile turns port pressure into masks over p.ports (nil when a port is unknown).
func (p *inferProblem) compile(pp PortPressure) []maskUse {
	idx := map[string]int{}
	for i, q := range p.ports {
		idx[q] = i
	}
	var out []maskUse
	for _, u := range pp {
		var m uint64
		for _, q := range u.Ports {
			i, ok := idx[q]
			if !ok || i >= 64 {
				return nil
			}
			m |= 1 << i
		}
		out = append(out, maskUse{m, u.Cycles})
	}
	out = mergeUses(out)
	sortUses(out)
	return out
}

// FormatPressure renders port pressure for people: "1*p01+2*p5" when all
// port names are one character, else "1*p[FP0,FP1]+1*p[LSU.0,LSU.1]".
func FormatPressure(pp PortPressure) string {
	if len(pp) == 0 {
		return "-"
	}
	short := true
	for _, u := range pp {
		for _, q := range u.Ports {
			if len(q) != 1 {
				short = false
			}
		}
	}
	parts := make([]string, len(pp))
	for i, u := range pp {
		if short {
			parts[i] = fmt.Sprintf("%s*p%s", FormatNum(u.Cycles), strings.Join(u.Ports, ""))
		} else {
			parts[i] = fmt.Sprintf("%s*p[%s]", FormatNum(u.Cycles), strings.Join(u.Ports, ","))
		}
	}
	return strings.Join(parts, "+")
}

// mixLoss is what one mix's relative prediction error e adds to a fit
// error: e squared, at most ErrorCap squared. (Huber's loss, linear
// beyond the cap, did worse: 88.2 % of the Granite Rapids guest's 1,000
// validation mixes within 10 %, the cap 89.3 %.)
func (p *inferProblem) mixLoss(e float64) float64 {
	c := p.opt.ErrorCap
	return min(e*e, c*c)
}

// freshPortName names a port the build adds: the first of new0, new1, ...
// that no port has yet (a measured base model, rebuilt, already has some).
func freshPortName(ports []string) string {
	for k := 0; ; k++ {
		name := "new" + strconv.Itoa(k)
		if !slices.Contains(ports, name) {
			return name
		}
	}
}

// clusterPorts returns, of ports, those a reference model has only
// integer register forms use (intOnly) and only vector register forms
// use (vecOnly): two clusters of execution ports that share none (Zen's
// integer and floating-point units). Forms that touch memory do not
// count (their load and store ports serve both), nor forms with operands
// of both kinds; a port neither kind uses is in neither. A reference
// whose vector forms use integer ports too (Intel's ports 0, 1 and 5)
// gives no clusters.
func clusterPorts(ref *Model, ports []string) (intOnly, vecOnly uint64) {
	if ref == nil {
		return 0, 0
	}
	idx := map[string]int{}
	for i, p := range ports {
		if i < 64 {
			idx[p] = i
		}
	}
	var ints, vecs uint64
	for _, e := range ref.Forms {
		f, ok := isa.Lookup(e.Form)
		if !ok || f.HasMemory() || e.HasFlag(FlagMayLoad) || e.HasFlag(FlagMayStore) || len(f.ImplicitReads)+len(f.ImplicitWrites) > 0 {
			continue
		}
		gpr, vec := false, false
		for _, op := range f.Operands {
			switch op.Kind {
			case isa.KindR8, isa.KindR16, isa.KindR32, isa.KindR64:
				gpr = true
			case isa.KindXMM, isa.KindYMM, isa.KindZMM, isa.KindMM, isa.KindK:
				vec = true
			}
		}
		if gpr == vec {
			continue
		}
		var m uint64
		for _, u := range e.PortPressure {
			for _, p := range u.Ports {
				if i, ok := idx[p]; ok {
					m |= 1 << i
				}
			}
		}
		if gpr {
			ints |= m
		} else {
			vecs |= m
		}
	}
	if ints&^vecs == 0 || vecs&^ints == 0 {
		return 0, 0
	}
	return ints &^ vecs, vecs &^ ints
}

// regDomain is the cluster of execution ports a form's work belongs to:
// that of its registers, or for a memory form that of the data it loads
// or stores.
type regDomain int

const (
	domainNone    regDomain = iota // both kinds, mask register operands, x87, a vector form's implicit operands or flags
	domainInteger                  // general registers (and their implicit ones, flags) only
	domainVector                   // vector or MMX registers only (a write mask included)
	// domainIntegerMemory is a memory form whose other operands are
	// general registers and immediates (add r64, m64; adc m32, imm8;
	// mov m64, r64), domainVectorMemory one whose other operands are
	// vector or MMX registers and immediates and that reads and writes
	// nothing implicitly (vaddps ymm, ymm, m256; movd m32, xmm): their
	// work runs on their data's cluster, beside the memory ports.
	domainIntegerMemory
	domainVectorMemory
)

// registerDomain is the domain of the form named n: integer for a form
// whose operands are general registers and immediates, vector for one
// whose operands are vector or MMX registers and immediates (masked or
// not) and that reads and writes nothing implicitly, flags included (a
// vector form writing the flags, ptest, crosses to the integer side);
// the memory domain of the same kind for a memory form whose other
// operands are so (an integer one needs a general register, an
// immediate or the flags: prefetches, cache-line flushes and ldmxcsr
// belong to neither); none otherwise, and for x87 forms, which run on
// the floating-point side whatever their operands.
func registerDomain(n string) regDomain {
	f, ok := isa.Lookup(n)
	if !ok || f.Attrs&isa.AttrX87 != 0 {
		return domainNone
	}
	gpr, vec, imm, mem := false, false, false, false
	for _, op := range f.Operands {
		switch op.Kind {
		case isa.KindR8, isa.KindR16, isa.KindR32, isa.KindR64, "al", "ax", "eax", "rax", "cl", "dx":
			gpr = true
		case isa.KindXMM, isa.KindYMM, isa.KindZMM, isa.KindMM, "xmm0":
			vec = true
		case isa.KindImm8, isa.KindImm16, isa.KindImm32, isa.KindImm64, isa.KindConst1:
			imm = true
		default:
			if !op.Kind.IsMemory() {
				return domainNone
			}
			mem = true
		}
	}
	flags := f.FlagsRead|f.FlagsWritten|f.FlagsUndefined != 0
	switch {
	case vec && !gpr && len(f.ImplicitReads)+len(f.ImplicitWrites) == 0 && !flags:
		if mem {
			return domainVectorMemory
		}
		return domainVector
	case vec:
		return domainNone
	case !mem && gpr:
		return domainInteger
	case mem && (gpr || imm || flags):
		return domainIntegerMemory
	}
	return domainNone
}

// register reports whether d is the domain of a register form (no
// memory part).
func (d regDomain) register() bool { return d == domainInteger || d == domainVector }

// domainForbids is the ports a class of domain d may not use: the other
// cluster's (clusterPorts), and for a register form the memory ports
// (memoryPorts); none where the base gives no clusters.
func (p *inferProblem) domainForbids(d regDomain) uint64 {
	if p.intOnly == 0 || p.vecOnly == 0 {
		return 0
	}
	switch d {
	case domainInteger:
		return p.vecOnly | p.memPorts
	case domainVector:
		return p.intOnly | p.memPorts
	case domainIntegerMemory:
		return p.vecOnly
	case domainVectorMemory:
		return p.intOnly
	}
	return 0
}
