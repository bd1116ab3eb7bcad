package modeldb

import (
	"fmt"
	"math"
	"math/bits"
	"sort"
	"strings"
)

// Ports beside 512-bit work (see wide512.go): the second stage of port
// inference. The first stage fits every class's mapping from the mixes of
// forms of one width class; the cross-width mixes (512-bit work beside a
// 128/256-bit vector form) are kept for this one, which gives each
// narrower vector class its mapping beside 512-bit work (cur512), the
// first stage's mappings held fixed. One port of the machine closes (port
// 1 on Intel's cores; which one is fitted: every port the narrower forms
// use is tried, and none wins unless closing it explains the mixes
// better). A class's candidates are then its own mapping (no change:
// preferred unless the mixes say otherwise), and that mapping without the
// closed port, or with its share moved to a port the 512-bit classes use.
// Classes with the most cross-width mixes (the probes) are fitted first,
// in passes until nothing changes. Where no port closes, the cross-width
// mixes are ordinary ones that tie 512-bit forms to the narrower forms'
// ports: the builder then fits them with the others and runs this stage
// again, keeping whichever fit explains all the mixes better (passes.go,
// crossWidthFit).

// isCrossWidth reports whether a mix holds both 512-bit work and a
// narrower vector form. Such a mix may run slower than its forms one
// after another: the narrower forms were measured alone with a port
// they lose beside 512-bit work (3 vpaddd xmm, a third of a cycle each
// on three ports, with 2 vaddpd zmm take 2.5 cycles on the two left).
func isCrossWidth(mx *MixMeasurement) bool {
	wide, narrow := false, false
	for _, pt := range mx.Parts {
		w, n := formWidth(pt.Form)
		wide, narrow = wide || w, narrow || n
	}
	return wide && narrow
}

// splitCrossWidth separates the cross-width mixes (isCrossWidth) from the
// others (same).
func splitCrossWidth(mixes []*MixMeasurement) (same, cross []*MixMeasurement) {
	for _, mx := range mixes {
		if isCrossWidth(mx) {
			cross = append(cross, mx)
		} else {
			same = append(same, mx)
		}
	}
	return same, cross
}

// fit512 fits the narrower vector classes' mappings beside 512-bit work
// from the cross-width mixes and says what changed (nil without such
// mixes). Variants never mixed take their form's mapping, scaled as their
// own was.
func (p *inferProblem) fit512(mixes []*MixMeasurement, classOf map[string]int) []string {
	type xmix struct {
		parts       []classCount
		y, overhead float64
	}
	var xs []xmix
	of := make([][]int, len(p.classes))
	for _, mx := range mixes {
		x := xmix{y: mx.Cycles, overhead: mx.Overhead}
		ok := true
		for _, pt := range mx.Parts {
			c, found := classOf[pt.Form]
			if !found {
				ok = false
				break
			}
			x.parts = append(x.parts, classCount{c, float64(pt.Count)})
		}
		if !ok || x.y <= 0 {
			continue
		}
		k := len(xs)
		xs = append(xs, x)
		for _, pt := range x.parts {
			if p.classes[pt.c].narrow && (len(of[pt.c]) == 0 || of[pt.c][len(of[pt.c])-1] != k) {
				of[pt.c] = append(of[pt.c], k)
			}
		}
	}
	p.fit512Result = fit512Result{closed: -1}
	if len(xs) == 0 {
		return nil
	}
	var buf []maskUse
	predict := func(x *xmix, c int, cand []maskUse) (float64, bool) {
		buf = buf[:0]
		floor, uops := 0.0, x.overhead
		for _, part := range x.parts {
			cl := p.classes[part.c]
			uses := cl.cur
			switch {
			case part.c == c:
				uses = cand
			case cl.narrow && cl.cur512 != nil:
				uses = cl.cur512
			}
			if uses == nil {
				return 0, false
			}
			for _, u := range uses {
				buf = append(buf, maskUse{u.mask, u.cycles * part.n})
			}
			floor = max(floor, part.n*cl.tp)
			uops += part.n * cl.slots
		}
		if p.width > 0 {
			floor = max(floor, uops/p.width)
		}
		return max(bottleneck(buf), floor), true
	}
	// rms is the RMS relative error over the mixes ks with class c mapped
	// to cand (c < 0: every class as it is).
	rms := func(ks []int, c int, cand []maskUse) (float64, int) {
		sum, n := 0.0, 0
		for _, k := range ks {
			x := &xs[k]
			v, ok := predict(x, c, cand)
			if !ok {
				continue
			}
			e := (v - x.y) / x.y
			sum += p.mixLoss(e)
			n++
		}
		if n == 0 {
			return 0, 0
		}
		return math.Sqrt(sum / float64(n)), n
	}
	all := make([]int, len(xs))
	for k := range all {
		all[k] = k
	}
	errBefore, n := rms(all, -1, nil)
	// The vector ports of 512-bit work: where narrower uops may move to.
	var widePorts uint64
	for _, cl := range p.classes {
		if cl.wide {
			for _, u := range cl.cur {
				widePorts |= u.mask
			}
		}
	}
	widePorts &^= p.memPorts
	var order []int
	for c, ks := range of {
		if len(ks) > 0 && p.classes[c].cur != nil {
			order = append(order, c)
			p.classes[c].crossMixes = len(ks)
		}
	}
	sort.SliceStable(order, func(a, b int) bool { return len(of[order[a]]) > len(of[order[b]]) })
	tol := p.opt.Tolerance
	// fitWith fits every class with port q closed beside 512-bit work and
	// returns the RMS error over all the cross-width mixes.
	fitWith := func(q int) float64 {
		for _, c := range order {
			p.classes[c].cur512 = nil
		}
		for pass := 0; pass < 4; pass++ {
			changed := false
			for _, c := range order {
				cl := p.classes[c]
				cands := candidates512(cl.cur, q, widePorts)
				errs := make([]float64, len(cands))
				best := 0
				for i, cand := range cands {
					errs[i], _ = rms(of[c], c, cand)
					if errs[i] < errs[best] {
						best = i
					}
				}
				pick := 0 // its own mapping, unless the mixes say otherwise
				if errs[0] > errs[best]+tol {
					pick = best
					for i := range cands {
						if i > 0 && errs[i] <= errs[best]+tol/4 && (portCount(cands[i]) < portCount(cands[pick]) ||
							portCount(cands[i]) == portCount(cands[pick]) && errs[i] < errs[pick]) {
							pick = i
						}
					}
				}
				var next []maskUse
				if pick > 0 {
					next = cands[pick]
				}
				if !equalUses(next, cl.cur512) {
					cl.cur512 = next
					changed = true
				}
			}
			if !changed {
				break
			}
		}
		e, _ := rms(all, -1, nil)
		return e
	}
	// The port that closes: the one whose closing explains the mixes
	// best, none unless that beats the narrower forms' own ports.
	var narrowPorts uint64
	for _, c := range order {
		for _, u := range p.classes[c].cur {
			narrowPorts |= u.mask
		}
	}
	closed, errClosed := -1, errBefore
	for _, q := range maskBits(narrowPorts &^ p.memPorts) {
		if e := fitWith(q); e < errClosed {
			closed, errClosed = q, e
		}
	}
	if closed >= 0 && errBefore > errClosed+tol {
		fitWith(closed)
	} else {
		closed = -1
		for _, c := range order {
			p.classes[c].cur512 = nil
		}
	}
	// Variants never mixed across widths take their form's mapping.
	for _, cl := range p.classes {
		if cl.crossMixes > 0 || cl.variant < 0 || !cl.narrow {
			continue
		}
		v := p.classes[cl.variant]
		if v.cur512 == nil || v.tp <= 0 {
			continue
		}
		s := cl.tp / v.tp
		for _, u := range v.cur512 {
			cl.cur512 = append(cl.cur512, maskUse{u.mask, u.cycles * s})
		}
	}
	errAfter, _ := rms(all, -1, nil)
	p.fit512Result = fit512Result{n: n, before: errBefore, after: errAfter, closed: closed}
	moved := map[string]int{}
	mixed, changedClasses := 0, 0
	for _, c := range order {
		mixed++
		cl := p.classes[c]
		if cl.cur512 == nil {
			continue
		}
		changedClasses++
		var from, to []string
		for _, u := range cl.cur {
			from = append(from, p.groupName(u.mask))
		}
		for _, u := range cl.cur512 {
			to = append(to, p.groupName(u.mask))
		}
		moved[strings.Join(from, "+")+" -> "+strings.Join(to, "+")]++
	}
	if closed < 0 {
		return []string{fmt.Sprintf("%d cross-width mixes: no port closes beside 512-bit work (RMS error of those mixes %s with the narrower forms' own ports; closing one does no better)",
			n, formatPct(errBefore))}
	}
	out := []string{fmt.Sprintf("%d cross-width mixes: port %s closes to narrower vector work; %d of %d narrower vector classes mixed with 512-bit work take other ports beside it (RMS error of those mixes %s with their own ports, %s after)",
		n, p.ports[closed], changedClasses, mixed, formatPct(errBefore), formatPct(errAfter))}
	if len(moved) > 0 {
		out = append(out, "most common: "+strings.Join(topCounts(moved, 4), "; "))
	}
	return out
}

// fit512Result is what fit512 found: over how many cross-width mixes,
// their RMS error with the narrower forms' own ports (before) and with
// the port that closes closed (after; -1: none closes, after = before).
type fit512Result struct {
	n             int
	before, after float64
	closed        int
}

// candidates512 lists the mappings a class may have beside 512-bit work
// with port q closed: its own first (q was not its to lose), then without
// q, or with q's share moved to one of the ports 512-bit work uses.
func candidates512(cur []maskUse, q int, widePorts uint64) [][]maskUse {
	out := [][]maskUse{cur}
	seen := map[string]bool{usesKey(cur): true}
	add := func(uses []maskUse) {
		if k := usesKey(uses); !seen[k] {
			seen[k] = true
			out = append(out, uses)
		}
	}
	qm := uint64(1) << q
	removed := make([]maskUse, 0, len(cur))
	ok := true
	for _, u := range cur {
		m := u.mask
		if m&qm != 0 {
			if m &^= qm; m == 0 {
				ok = false
			}
		}
		removed = append(removed, maskUse{m, u.cycles})
	}
	if ok {
		add(mergeUses(removed))
	}
	for _, r := range maskBits(widePorts &^ qm) {
		rm := uint64(1) << r
		moved := make([]maskUse, 0, len(cur))
		for _, u := range cur {
			m := u.mask
			if m&qm != 0 {
				m = m&^qm | rm
			}
			moved = append(moved, maskUse{m, u.cycles})
		}
		add(mergeUses(moved))
	}
	return out
}

func usesKey(uses []maskUse) string {
	var b strings.Builder
	for _, u := range uses {
		fmt.Fprintf(&b, "%x:%g;", u.mask, u.cycles)
	}
	return b.String()
}

// portCount is how many port slots a mapping names (a smaller mapping is
// preferred among equals).
func portCount(uses []maskUse) int {
	n := 0
	for _, u := range uses {
		n += bits.OnesCount64(u.mask)
	}
	return n
}
