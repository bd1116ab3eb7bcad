package modeldb

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"portlab/isa"
)

// LoadsFromRegisterForms gives every form that only reads its one memory
// operand (a load folded into an operation: vfmadd231ps xmm, xmm, m128;
// add r64, m64; cmp m32, imm8) its register form's ports beside its own
// load part, where both forms are in m and include accepts them (nil:
// every form). Its load part is the groups of its PortPressure on the
// ports the plain load of its operand's class uses (mov r64, m64; movups
// xmm, m128; vmovups ymm, m256; vmovups zmm, m512; movq mm, m64) and on
// none of the register form's; the rest, its operation, the register
// form's mapping replaces. Beside 512-bit work the same holds with the
// register form's PortPressure512; where the register form has none,
// neither has the memory form. Moves and broadcasts from memory
// (pureLoad) keep their entries, the load being their whole operation,
// and so does a form with no group on the load ports, one whose register
// form has no ports, and one whose composition would run more than
// loadsFromRegisterSlack off its measured throughput. It returns how many
// entries it changed, each noted in its provenance.
//
// Fitted to their own mixes, memory forms drift: a characterize run gives
// most of them three or four random mixes and no probe, and the fit took
// what those few mixes allowed. On the Zen 5 guest (AuthenticAMD-1a-2-1,
// 2026-12-02) the embedded model had vfmadd132ps xmm, xmm, m128 on two
// integer ALU groups and vrndscaless xmm {k}{z}, xmm, m32, imm8 on the FMA
// pipes beside its own; with this rule 2,396 of its loads changed and it
// predicted its validation draw 69.5 % within 10 % instead of 64.5 %, a
// fresh draw 67.8 % instead of 63.5 % (docs/benchmarks.md).
func (m *Model) LoadsFromRegisterForms(include func(form string) bool) int {
	return m.loadsFromRegisterForms(include, nil)
}

// loadsFromRegisterForms is LoadsFromRegisterForms where refuse, when
// set, may keep an entry from its composition (pp, pp512).
func (m *Model) loadsFromRegisterForms(include func(form string) bool, refuse func(e *Entry, pp, pp512 PortPressure) bool) int {
	// portsOf is the set of ports a pressure names.
	portsOf := func(pp PortPressure) map[string]bool {
		out := map[string]bool{}
		for _, u := range pp {
			for _, p := range u.Ports {
				out[p] = true
			}
		}
		return out
	}
	// loadPart is the groups of pp within load's ports and none of op's.
	loadPart := func(pp PortPressure, load, op map[string]bool) PortPressure {
		var out PortPressure
		for _, u := range pp {
			if len(u.Ports) > 0 && !slices.ContainsFunc(u.Ports, func(p string) bool { return !load[p] || op[p] }) {
				out = append(out, PortUse{Cycles: u.Cycles, Ports: slices.Clone(u.Ports)})
			}
		}
		return out
	}
	changed := 0
	for _, e := range m.Forms {
		if include != nil && !include(e.Form) {
			continue
		}
		f, ok := isa.Lookup(e.Form)
		if !ok {
			continue
		}
		mi := memoryOperand(f)
		if mi < 0 || !onlyReads(f, mi) || pureLoad(f) {
			continue
		}
		rf, class := registerCounterpart(f, mi, func(n string) bool {
			_, ok := m.Lookup(n)
			return ok && (include == nil || include(n))
		})
		if rf == nil {
			continue
		}
		r, _ := m.Lookup(rf.Name())
		pl, ok := m.Lookup(loadForms[class])
		if !ok || len(r.PortPressure) == 0 {
			continue
		}
		loadPorts, opPorts := portsOf(pl.PortPressure), portsOf(r.PortPressure)
		load := loadPart(e.PortPressure, loadPorts, opPorts)
		if len(load) == 0 {
			continue
		}
		pp := append(clonePressure(r.PortPressure), load...)
		var pp512 PortPressure
		if len(r.PortPressure512) > 0 {
			own := e.PortPressure512
			if len(own) == 0 {
				own = e.PortPressure
			}
			pp512 = append(clonePressure(r.PortPressure512), loadPart(own, loadPorts, portsOf(r.PortPressure512))...)
		}
		if samePressure(pp, e.PortPressure) && samePressure(pp512, e.PortPressure512) {
			continue
		}
		// The composition must run as fast as the form alone did: a
		// memory form can be cheaper than its register form (on the
		// Granite Rapids guest vcvtps2pd ymm, m128 and vpsraw ymm, ymm,
		// m128 leave out the register forms' port-5 uop, the load doing
		// its work), or take a uop more.
		if b, err := Balance(m.Ports, pp); err != nil || e.Throughput > 0 && math.Abs(b.Cycles-e.Throughput) > loadsFromRegisterSlack*e.Throughput {
			continue
		}
		if refuse != nil && refuse(e, pp, pp512) {
			continue
		}
		if e.Provenance != nil {
			note := fmt.Sprintf("port_pressure %s -> %s: %s's ports and its own load part", FormatPressure(e.PortPressure), FormatPressure(pp), rf.Name())
			if e.Provenance.Note != "" {
				note = e.Provenance.Note + "; " + note
			}
			e.Provenance.Note = note
		}
		e.PortPressure, e.PortPressure512 = pp, pp512
		changed++
	}
	return changed
}

// pureLoad says whether f's operation is its load alone: a move or a
// broadcast from memory (mov r64, m64; vmovdqu8 ymm {k}, m256;
// vpbroadcastd zmm, m32; lddqu xmm, m128), whose register forms are a
// register move or a shuffle the load does not need.
func pureLoad(f *isa.Form) bool {
	mn := f.Mnemonic
	return strings.HasPrefix(mn, "mov") || strings.HasPrefix(mn, "vmov") || strings.HasPrefix(mn, "kmov") ||
		strings.Contains(mn, "broadcast") || mn == "lddqu" || mn == "vlddqu"
}

// loadsFromRegisterSlack is how far, relative to a memory form's measured
// throughput, the bound of its register form's ports plus its load part
// may be for LoadsFromRegisterForms to apply.
const loadsFromRegisterSlack = 0.10

// onlyReads says whether f reads its operand i and never writes it.
func onlyReads(f *isa.Form, i int) bool {
	a := f.Operands[i].Access
	return a&isa.Read != 0 && a&(isa.Write|isa.CondWrite) == 0
}

// loadsFromRegisterForms: the builder's pass over the measured forms
// (LoadsFromRegisterForms).
func (b *builder) loadsFromRegisterForms(r *Pass) error {
	measured := make(map[string]bool, len(b.names))
	for _, n := range b.names {
		measured[n] = true
	}
	var plain []string
	for _, n := range loadForms {
		if measured[n] {
			plain = append(plain, n)
		}
	}
	if len(plain) == 0 {
		r.Evidence = "no plain load measured: the load ports are unknown"
		return nil
	}
	sort.Strings(plain)
	// A form's probe mixes, made to show its ports, refuse a composition
	// that mispredicts one of them by more than the tolerance where its
	// fitted mapping did better (its few random mixes do not).
	refused := 0
	refuse := func(e *Entry, pp, pp512 PortPressure) bool {
		mixes := b.probeMixesOf[e.Form]
		if len(mixes) == 0 {
			return false
		}
		worst := func() float64 {
			predict := BoundPredictor(b.m)
			w := 0.0
			for _, k := range mixes {
				mx := b.fitMixes[k]
				pr, err := predict(mx)
				if err != nil || mx.Cycles <= 0 {
					continue
				}
				w = max(w, math.Abs(pr.Cycles-mx.Cycles)/mx.Cycles)
			}
			return w
		}
		fitted := worst()
		old, old512 := e.PortPressure, e.PortPressure512
		e.PortPressure, e.PortPressure512 = pp, pp512
		composed := worst()
		e.PortPressure, e.PortPressure512 = old, old512
		if composed > loadsFromRegisterSlack && composed > fitted {
			refused++
			return true
		}
		return false
	}
	n := b.m.loadsFromRegisterForms(func(form string) bool { return measured[form] }, refuse)
	r.Evidence = fmt.Sprintf("the load ports are those of %s", strings.Join(plain, "; "))
	switch {
	case refused == 1:
		r.Evidence += "; 1 form's probe mixes refused its register form's ports"
	case refused > 1:
		r.Evidence += fmt.Sprintf("; %d forms' probe mixes refused their register forms' ports", refused)
	}
	if n == 0 {
		r.Evidence += ": no other measured load's operation differed from its register form's"
		return nil
	}
	r.Applied = true
	if n == 1 {
		r.Changes = append(r.Changes, "1 form that reads memory takes its register form's ports beside its own load part")
	} else {
		r.Changes = append(r.Changes, fmt.Sprintf("%d forms that read memory take their register forms' ports beside their own load parts", n))
	}
	return nil
}
