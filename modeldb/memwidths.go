package modeldb

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"portlab/isa"
)

// Memory groups by width: the memory part of a memory form is the base's
// (the fit keeps it, see memoryPorts), and the base's plain loads and
// stores of each register class got theirs from mixes with general-
// register probes only. Mixed with each other, the plain loads and stores
// of the several widths show which of their port groups are one: on the
// Zen 5 guest (AuthenticAMD-1a-2-1, 2026-12-02) 6 vmovups zmm, m512 with
// 6 vmovups xmm, m128 took 6.0 cycles, each alone 3.0, where the embedded
// model gave the zmm load two uops of four vector load ports
// (p[FPP45.0,FPP45.1,new7,new8], grown when its base had too few) and the
// narrower loads one of two of them (p[FPP45.0,FPP45.1]), predicting 4.5.
// Every 512-bit memory form has that part: the model predicted 20 vpord
// xmm {k}{z}, xmm, m32bcst with 20 vpaddd zmm {k}, zmm, m512 in 15
// cycles for 20.

// MemoryWidthForms are the plain VEX vector loads and stores of every
// width, the 128-bit ones first: with the plain loads and stores of the
// register classes (PlainMemoryForms) the forms whose mixes with each
// other decide the pass "memory groups by width" (sweep mixes each plain
// vector load and store with them).
func MemoryWidthForms() []string {
	return []string{
		"vmovups xmm, m128", "vmovups m128, xmm",
		"vmovups ymm, m256", "vmovups m256, ymm",
		"vmovups zmm, m512", "vmovups m512, zmm",
	}
}

// A GroupMove is a memory port group that the plain loads' and stores'
// mixes with each other show to be a smaller group another plain load or
// store uses: every use of From becomes a use of To with the same cycles
// a port (Cycles * len(To) / len(From)), so that no form alone runs
// faster or slower.
type GroupMove struct {
	From, To []string
	// Form is the plain load or store whose use of From the mixes
	// decided, Like the one that uses To.
	Form, Like string
	// Within and WithinBefore count the plain memory mixes predicted
	// within memoryMixTolerance with the move and without it, of Mixes.
	Within, WithinBefore, Mixes int
}

// String is the move in words.
func (g GroupMove) String() string {
	return fmt.Sprintf("%s's p[%s] is %s's p[%s], at the same cycles a port (%d of %d mixes of plain loads and stores within %.0f %% instead of %d)",
		g.Form, strings.Join(g.From, ","), g.Like, strings.Join(g.To, ","), g.Within, g.Mixes, 100*memoryMixTolerance, g.WithinBefore)
}

// memoryMixTolerance is the relative error within which a plain memory
// mix counts as predicted.
const memoryMixTolerance = 0.10

// plainMemorySet is the plain loads and stores of the register classes
// and the memory-width forms.
func plainMemorySet() map[string]bool {
	out := map[string]bool{}
	for _, n := range PlainMemoryForms() {
		out[n] = true
	}
	for _, n := range MemoryWidthForms() {
		out[n] = true
	}
	return out
}

// PlainMemoryMixes are the converged mixes of plain loads and stores with
// each other (every part in PlainMemoryForms or MemoryWidthForms).
func PlainMemoryMixes(mixes []*MixMeasurement) []*MixMeasurement {
	set := plainMemorySet()
	var out []*MixMeasurement
	for _, mx := range mixes {
		if mx.Noisy || mx.Cycles <= 0 || len(mx.Parts) < 2 {
			continue
		}
		if !slices.ContainsFunc(mx.Parts, func(p MixPart) bool { return !set[p.Form] }) {
			out = append(out, mx)
		}
	}
	return out
}

// MemoryGroupMoves finds, one at a time, the group moves (GroupMove) that
// predict more of the plain memory mixes within memoryMixTolerance and
// with a smaller total error, the best first, until none does; each is
// tried on m's plain loads and stores as it is found, m as it was when it
// returns (MoveMemoryGroups makes them on m). A candidate moves a memory group of
// one plain load or store (a group on a memory port: on the ports of the
// plain loads and stores and on none of the execution ports of the
// register forms the base maps, see memoryPortSet) to a group of another
// that is a strict subset of it.
func (m *Model) MemoryGroupMoves(mixes []*MixMeasurement) []GroupMove {
	plain := PlainMemoryMixes(mixes)
	if len(plain) == 0 {
		return nil
	}
	set := plainMemorySet()
	var forms []string
	for n := range set {
		if _, ok := m.Lookup(n); ok {
			forms = append(forms, n)
		}
	}
	sort.Strings(forms)
	mem := m.memoryPortSet()
	score := func() (within int, total float64) {
		predict := BoundPredictor(m)
		for _, mx := range plain {
			pr, err := predict(mx)
			if err != nil {
				continue
			}
			e := math.Abs(pr.Cycles-mx.Cycles) / mx.Cycles
			if e <= memoryMixTolerance {
				within++
			}
			total += min(e, 0.5)
		}
		return within, total
	}
	var moves []GroupMove
	var undos []func()
	defer func() {
		for i := len(undos) - 1; i >= 0; i-- {
			undos[i]()
		}
	}()
	for range forms {
		w0, t0 := score()
		type cand struct {
			from, to   []string
			form, like string
		}
		var cands []cand
		seen := map[string]bool{}
		for _, x := range forms {
			ex, _ := m.Lookup(x)
			for _, u := range ex.PortPressure {
				if !onPorts(u.Ports, mem) {
					continue
				}
				for _, y := range forms {
					if y == x {
						continue
					}
					ey, _ := m.Lookup(y)
					for _, v := range ey.PortPressure {
						if len(v.Ports) >= len(u.Ports) || !subset(v.Ports, u.Ports) {
							continue
						}
						k := groupKey(u.Ports) + ">" + groupKey(v.Ports)
						if seen[k] {
							continue
						}
						seen[k] = true
						cands = append(cands, cand{u.Ports, v.Ports, x, y})
					}
				}
			}
		}
		best, bestW, bestT := -1, w0, t0
		for i, c := range cands {
			undo := m.moveGroup(forms, c.from, c.to, "")
			w, t := score()
			undo()
			if w > bestW || (w == bestW && best >= 0 && t < bestT) {
				if t < t0 {
					best, bestW, bestT = i, w, t
				}
			}
		}
		if best < 0 {
			break
		}
		c := cands[best]
		undos = append(undos, m.moveGroup(forms, c.from, c.to, ""))
		moves = append(moves, GroupMove{From: slices.Clone(c.from), To: slices.Clone(c.to), Form: c.form, Like: c.like,
			Within: bestW, WithinBefore: w0, Mixes: len(plain)})
	}
	return moves
}

// MoveMemoryGroups makes the moves on every memory form of m (those with a
// memory operand) and on the header's load and store ports, each entry's
// move noted in its provenance, and returns how many entries changed.
func (m *Model) MoveMemoryGroups(moves []GroupMove) int {
	var forms []string
	for _, e := range m.Forms {
		if f, ok := isa.Lookup(e.Form); ok && memoryOperand(f) >= 0 {
			forms = append(forms, e.Form)
		}
	}
	changed := map[string]bool{}
	for _, g := range moves {
		note := fmt.Sprintf("p[%s] -> p[%s]: %s's memory group is %s's", strings.Join(g.From, ","), strings.Join(g.To, ","), g.Form, g.Like)
		for _, n := range m.moveGroupNames(forms, g.From, g.To, note) {
			changed[n] = true
		}
		m.LoadPorts = movedPressure(m.LoadPorts, g.From, g.To)
		m.StorePorts = movedPressure(m.StorePorts, g.From, g.To)
	}
	return len(changed)
}

// moveGroup moves the group from to the group to in the entries of forms
// (with note in their provenance when not "") and returns what undoes it.
func (m *Model) moveGroup(forms []string, from, to []string, note string) (undo func()) {
	type saved struct {
		e            *Entry
		pp, pp512    PortPressure
		note         string
		hadProvenace bool
	}
	var olds []saved
	for _, n := range forms {
		e, ok := m.Lookup(n)
		if !ok || !(usesGroup(e.PortPressure, from) || usesGroup(e.PortPressure512, from)) {
			continue
		}
		s := saved{e: e, pp: e.PortPressure, pp512: e.PortPressure512}
		if e.Provenance != nil {
			s.note, s.hadProvenace = e.Provenance.Note, true
		}
		olds = append(olds, s)
		before := FormatPressure(e.PortPressure)
		e.PortPressure = movedPressure(e.PortPressure, from, to)
		if len(e.PortPressure512) > 0 {
			e.PortPressure512 = movedPressure(e.PortPressure512, from, to)
		}
		if note != "" && e.Provenance != nil {
			n := fmt.Sprintf("port_pressure %s -> %s (%s)", before, FormatPressure(e.PortPressure), note)
			if e.Provenance.Note != "" {
				n = e.Provenance.Note + "; " + n
			}
			e.Provenance.Note = n
		}
	}
	return func() {
		for _, s := range olds {
			s.e.PortPressure, s.e.PortPressure512 = s.pp, s.pp512
			if s.hadProvenace {
				s.e.Provenance.Note = s.note
			}
		}
	}
}

// moveGroupNames is moveGroup, returning the forms it changed.
func (m *Model) moveGroupNames(forms []string, from, to []string, note string) []string {
	var out []string
	for _, n := range forms {
		if e, ok := m.Lookup(n); ok && (usesGroup(e.PortPressure, from) || usesGroup(e.PortPressure512, from)) {
			out = append(out, n)
		}
	}
	m.moveGroup(out, from, to, note)
	return out
}

// movedPressure is pp with every use of the group from a use of to at the
// same cycles a port, merged with a use of to it already has.
func movedPressure(pp PortPressure, from, to []string) PortPressure {
	if !usesGroup(pp, from) {
		return pp
	}
	var out PortPressure
	for _, u := range pp {
		if groupKey(u.Ports) == groupKey(from) {
			u = PortUse{Cycles: math.Round(u.Cycles*float64(len(to))/float64(len(from))*1e5) / 1e5, Ports: slices.Clone(to)}
		} else {
			u = PortUse{Cycles: u.Cycles, Ports: slices.Clone(u.Ports)}
		}
		if i := slices.IndexFunc(out, func(o PortUse) bool { return groupKey(o.Ports) == groupKey(u.Ports) }); i >= 0 {
			out[i].Cycles += u.Cycles
			continue
		}
		out = append(out, u)
	}
	return out
}

// usesGroup says whether pp has a use of exactly the ports of g.
func usesGroup(pp PortPressure, g []string) bool {
	k := groupKey(g)
	return slices.ContainsFunc(pp, func(u PortUse) bool { return groupKey(u.Ports) == k })
}

// groupKey names a port group whatever the order of its ports.
func groupKey(ports []string) string {
	s := slices.Clone(ports)
	sort.Strings(s)
	return strings.Join(s, ",")
}

// subset says whether every port of a is in b.
func subset(a, b []string) bool {
	return !slices.ContainsFunc(a, func(p string) bool { return !slices.Contains(b, p) })
}

// onPorts says whether every port of g is in set.
func onPorts(g []string, set map[string]bool) bool {
	return len(g) > 0 && !slices.ContainsFunc(g, func(p string) bool { return !set[p] })
}

// memoryPortSet is the ports m's plain loads and stores use and the
// execution forms of registerForms do not: the memory system's.
func (m *Model) memoryPortSet() map[string]bool {
	out := map[string]bool{}
	for n := range plainMemorySet() {
		if e, ok := m.Lookup(n); ok {
			for _, u := range e.PortPressure {
				for _, p := range u.Ports {
					out[p] = true
				}
			}
		}
	}
	for _, n := range registerForms {
		if e, ok := m.Lookup(n); ok {
			for _, u := range e.PortPressure {
				for _, p := range u.Ports {
					delete(out, p)
				}
			}
		}
	}
	return out
}

// memoryGroups: the builder's pass (MemoryGroupMoves, MoveMemoryGroups).
func (b *builder) memoryGroups(r *Pass) error {
	plain := PlainMemoryMixes(b.ms.Mixes)
	if len(plain) == 0 {
		r.Evidence = "no mix of plain loads and stores with each other"
		return nil
	}
	moves := b.m.MemoryGroupMoves(b.ms.Mixes)
	if len(moves) == 0 {
		w := EvaluateMixMeasurements(b.m, plain, memoryMixTolerance).Within
		r.Evidence = fmt.Sprintf("%d mixes of plain loads and stores with each other, %d within %.0f %%: no smaller group of another plain load or store predicts more of them", len(plain), w, 100*memoryMixTolerance)
		return nil
	}
	n := b.m.MoveMemoryGroups(moves)
	r.Applied = true
	r.Evidence = fmt.Sprintf("%d mixes of plain loads and stores with each other: %d within %.0f %% with the fitted groups, %d with %d moved", len(plain), moves[0].WithinBefore, 100*memoryMixTolerance, moves[len(moves)-1].Within, len(moves))
	for _, g := range moves {
		r.Changes = append(r.Changes, g.String())
	}
	r.Changes = append(r.Changes, fmt.Sprintf("%d memory forms' entries changed", n))
	return nil
}
