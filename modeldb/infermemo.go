package modeldb

import (
	"encoding/binary"
	"math"
	"sort"
)

// The memo of port inference. Coordinate descent refits one class at a
// time and scores hundreds of candidate mappings on every mix of the
// class; a full sweep has thousands of classes, and the probe forms that
// every form is mixed with have thousands of mixes each. Most of that work
// repeats: a mix's prediction with class c mapped to a candidate depends
// only on the mappings of the mix's other classes, and between two fits of
// c few of those change. So every change of a mapping starts a new epoch
// and logs, for each class sharing a mix with the changed one, which of
// its mixes became stale; a memoised candidate is brought up to date by
// repredicting only those, and its error is re-summed only when one did
// change. The memo changes no result (the same predictions, summed in the
// same order), only how often they are computed.

// memo is the inference's memo; the zero value is off.
type memo struct {
	on        bool
	epoch     int
	changedAt []int // per class: the epoch its mapping last changed at
	cm        []classMemo
	serial    int // fits so far: memos a fit did not use are dropped
	keyBuf    []byte
	// mixPos is, per mix and part, the mix's position in the part's class's
	// mix list.
	mixPos [][]int
	// cur is each mix's prediction under the current mappings (NaN: a part
	// has no mapping); curOK says which are up to date.
	cur   []float64
	curOK []bool
	// groups are the distinct port groups of all classes' current and
	// base mappings in class order, as of epoch groupsAt; groupsVer
	// changes when they do.
	groups    []uint64
	groupsAt  int
	groupsVer int
	// bytes is what the candidates' predictions hold.
	bytes int64
}

// classMemo is one class's part of the memo.
type classMemo struct {
	// log lists the positions of the class's mixes that went stale, in
	// epoch order.
	log []stalePos
	// cands are the memoised candidates of the class's latest fit, by the
	// key of their mapping.
	cands map[string]*predMemo
	// sampleIdx maps a position of the class's mixes to its index in the
	// class's subsample (-1: not in it).
	sampleIdx []int
	vocab     *vocabMemo
}

type stalePos struct{ epoch, pos int }

// predMemo is one candidate mapping's predictions of a class's mixes, on
// its subsample and on all of them.
type predMemo struct {
	full, sample predVec
	used         int // the fit that last used it
}

// predVec holds predictions (NaN: not predictable) up to date as of epoch
// at, and the error they sum to.
type predVec struct {
	pred        []float64
	at          int
	err, maxErr float64
	n           int
}

// vocabMemo is a class's vocabulary as of an epoch.
type vocabMemo struct {
	at, groupsVer, ports int
	all, used            []uint64
}

// resetMemo turns the memo on, empty.
func (p *inferProblem) resetMemo() {
	p.memo = memo{
		on:        true,
		changedAt: make([]int, len(p.classes)),
		cm:        make([]classMemo, len(p.classes)),
		mixPos:    make([][]int, len(p.mixes)),
		cur:       make([]float64, len(p.mixes)),
		curOK:     make([]bool, len(p.mixes)),
		groupsAt:  -1,
	}
	for k, mx := range p.mixes {
		p.mixPos[k] = make([]int, len(mx.parts))
	}
	for c, cl := range p.classes {
		for i, k := range cl.mixes {
			for j, part := range p.mixes[k].parts {
				if part.c == c {
					p.mixPos[k][j] = i
				}
			}
		}
	}
}

// setCur sets class c's mapping; when it differs, a new epoch starts and
// the mixes it shares with other classes go stale.
func (p *inferProblem) setCur(c int, uses []maskUse) {
	cl := p.classes[c]
	same := len(uses) == len(cl.cur) && (uses == nil) == (cl.cur == nil)
	for i := 0; same && i < len(uses); i++ {
		same = uses[i] == cl.cur[i]
	}
	old := cl.cur
	cl.cur = uses
	if same {
		return
	}
	p.state += mappingHash(c, uses) - mappingHash(c, old)
	if !p.on {
		return
	}
	p.epoch++
	p.changedAt[c] = p.epoch
	for _, k := range cl.mixes {
		p.curOK[k] = false
		for j, part := range p.mixes[k].parts {
			if part.c != c {
				p.cm[part.c].log = append(p.cm[part.c].log, stalePos{p.epoch, p.mixPos[k][j]})
			}
		}
	}
}

// mappingHash hashes class c's mapping (FNV-1a).
func mappingHash(c int, uses []maskUse) uint64 {
	if uses == nil {
		return 0
	}
	h := uint64(14695981039346656037)
	word := func(v uint64) {
		for i := 0; i < 8; i++ {
			h ^= v & 0xff
			h *= 1099511628211
			v >>= 8
		}
	}
	word(uint64(c))
	for _, u := range uses {
		word(u.mask)
		word(math.Float64bits(u.cycles))
	}
	return h
}

// curPred is mix k's prediction under the current mappings (predict(k,
// -1, nil)).
func (p *inferProblem) curPred(k int) (float64, bool) {
	if !p.on {
		return p.predict(k, -1, nil)
	}
	if !p.curOK[k] {
		v, ok := p.predict(k, -1, nil)
		if !ok {
			v = math.NaN()
		}
		p.cur[k], p.curOK[k] = v, true
	}
	v := p.cur[k]
	return v, v == v
}

// memoized returns class c's up-to-date predictions of its mixes (at the
// positions in sample, or all when nil) with the candidate mapping uses.
func (p *inferProblem) memoized(c int, uses []maskUse, sample []int) *predVec {
	cl := p.classes[c]
	cm := &p.cm[c]
	b := p.keyBuf[:0]
	for _, u := range uses {
		b = binary.LittleEndian.AppendUint64(b, u.mask)
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(u.cycles))
	}
	p.keyBuf = b
	if cm.cands == nil {
		cm.cands = map[string]*predMemo{}
	}
	pm, ok := cm.cands[string(b)]
	if !ok {
		pm = &predMemo{}
		cm.cands[string(b)] = pm
	}
	pm.used = p.serial
	vec := &pm.full
	if sample != nil {
		vec = &pm.sample
		if cm.sampleIdx == nil {
			cm.sampleIdx = make([]int, len(cl.mixes))
			for i := range cm.sampleIdx {
				cm.sampleIdx[i] = -1
			}
			for j, pos := range sample {
				cm.sampleIdx[pos] = j
			}
		}
	}
	predict := func(pos int) float64 {
		v, ok := p.predict(cl.mixes[pos], c, uses)
		if !ok {
			return math.NaN()
		}
		return v
	}
	switch {
	case vec.pred == nil:
		n := len(cl.mixes)
		if sample != nil {
			n = len(sample)
		}
		vec.pred = make([]float64, n)
		p.bytes += int64(8 * n)
		for j := range vec.pred {
			pos := j
			if sample != nil {
				pos = sample[j]
			}
			vec.pred[j] = predict(pos)
		}
		p.sumErrors(c, vec, sample)
	case vec.at < p.epoch:
		stale := false
		i := sort.Search(len(cm.log), func(i int) bool { return cm.log[i].epoch > vec.at })
		for _, sp := range cm.log[i:] {
			j := sp.pos
			if sample != nil {
				if j = cm.sampleIdx[sp.pos]; j < 0 {
					continue
				}
			}
			vec.pred[j] = predict(sp.pos)
			stale = true
		}
		if stale {
			p.sumErrors(c, vec, sample)
		}
	}
	vec.at = p.epoch
	return vec
}

// sumErrors sets vec's error from its predictions (as evaluateOn sums them).
func (p *inferProblem) sumErrors(c int, vec *predVec, sample []int) {
	cl := p.classes[c]
	sum, mx := 0.0, 0.0
	cnt := 0
	for j, pred := range vec.pred {
		if pred != pred {
			continue
		}
		k := cl.mixes[j]
		if sample != nil {
			k = cl.mixes[sample[j]]
		}
		e := (pred - p.mixes[k].y) / p.mixes[k].y
		sum += p.mixLoss(e)
		mx = max(mx, math.Abs(e))
		cnt++
	}
	vec.n, vec.maxErr, vec.err = cnt, mx, 0
	if cnt > 0 {
		vec.err = math.Sqrt(sum / float64(cnt))
	}
}

// pruneMemo drops the candidates of class c the current fit did not use,
// and all of them where the memo holds more than InferOptions.MemoBytes:
// the class's next fit computes its predictions afresh. Classes are
// refitted in turn, round after round, so the classes fitted while the
// memo had room keep theirs and the others do without.
func (p *inferProblem) pruneMemo(c int) {
	for key, pm := range p.cm[c].cands {
		if pm.used != p.serial {
			p.bytes -= pm.size()
			delete(p.cm[c].cands, key)
		}
	}
	if p.bytes > p.opt.MemoBytes && len(p.cm[c].cands) > 0 {
		for _, pm := range p.cm[c].cands {
			p.bytes -= pm.size()
		}
		p.cm[c].cands = nil
		if p.opt.memoDropped != nil {
			*p.opt.memoDropped++
		}
	}
}

// size is the bytes a candidate's predictions hold.
func (pm *predMemo) size() int64 {
	return int64(8 * (len(pm.full.pred) + len(pm.sample.pred)))
}

// curError is class c's error with its current mapping (what evaluate of
// it gives), from the current predictions.
func (p *inferProblem) curError(c int) (err, maxErr float64, n int) {
	return p.curErrorBy(c, p.mixLoss)
}

// plainError is curError without the cap: the RMS of the mixes' relative
// errors, what a form's fit error reports.
func (p *inferProblem) plainError(c int) (err, maxErr float64, n int) {
	return p.curErrorBy(c, func(e float64) float64 { return e * e })
}

// curErrorBy is class c's error with its current mapping, loss giving
// what one mix's relative error adds.
func (p *inferProblem) curErrorBy(c int, loss func(float64) float64) (err, maxErr float64, n int) {
	cl := p.classes[c]
	sum := 0.0
	for _, k := range cl.mixes {
		pred, ok := p.curPred(k)
		if !ok {
			continue
		}
		e := (pred - p.mixes[k].y) / p.mixes[k].y
		sum += loss(e)
		maxErr = max(maxErr, math.Abs(e))
		n++
	}
	if n == 0 {
		return 0, maxErr, 0
	}
	return math.Sqrt(sum / float64(n)), maxErr, n
}

// allGroups returns the distinct groups of every class's current and base
// mappings, in class order.
func (p *inferProblem) allGroups() []uint64 {
	if p.on && p.groupsAt == p.epoch {
		return p.groups
	}
	seen := map[uint64]bool{}
	var out []uint64
	add := func(m uint64) {
		if m != 0 && !seen[m] {
			seen[m] = true
			out = append(out, m)
		}
	}
	for _, o := range p.classes {
		for _, u := range o.cur {
			add(u.mask)
		}
		for _, u := range o.base {
			add(u.mask)
		}
	}
	if p.on {
		if !equalMasks(out, p.groups) {
			p.groupsVer++
		}
		p.groups, p.groupsAt = out, p.epoch
	}
	return out
}

func equalMasks(a, b []uint64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// vocabulary returns class c's vocabulary (see vocabularyOf), memoised
// until the mappings it is made of change.
func (p *inferProblem) vocabulary(c int) (all, used []uint64) {
	if !p.on {
		return p.vocabularyOf(c)
	}
	p.allGroups()
	cm := &p.cm[c]
	if vm := cm.vocab; vm != nil && vm.groupsVer == p.groupsVer && vm.ports == len(p.ports) && p.changedAt[c] <= vm.at {
		fresh := true
		for _, o := range p.partners[c] {
			if p.changedAt[o] > vm.at {
				fresh = false
				break
			}
		}
		for _, h := range p.classes[c].hints {
			for _, o := range h {
				if p.changedAt[o] > vm.at {
					fresh = false
				}
			}
		}
		if fresh {
			return vm.all, vm.used
		}
	}
	all, used = p.vocabularyOf(c)
	cm.vocab = &vocabMemo{at: p.epoch, groupsVer: p.groupsVer, ports: len(p.ports), all: all, used: used}
	return all, used
}
