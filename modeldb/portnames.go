package modeldb

import (
	"cmp"
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// PortMatch is an abstract port of a model built from no base and the
// port of a reference model it was named after: the forms that use
// either (Jaccard index of the two sets of forms, over the forms both
// models have) and how many use both.
type PortMatch struct {
	Port, Ref string
	Jaccard   float64
	Both      int
}

// portNameMinJaccard is how alike the forms on an abstract port and on a
// reference port must be for the first to take the second's name, and
// portNameMinForms how many forms must use both: below either, which
// reference port it is is not evident and it keeps its abstract name.
// From no base on the Zen 4 guest (against LLVM 14's znver3) the ports
// named had indexes of 0.38-0.73, hundreds of forms on both; the best
// left was 0.27 (the port vaddpd ymm takes beside FPP2, against FPP3),
// the ports the fit opened for a few forms 0.07 or less.
const (
	portNameMinJaccard = 0.35
	portNameMinForms   = 3
)

// MatchPorts names the ports of m after those of ref where the forms on
// them show which is which: for every pair (port of m, port of ref), the
// Jaccard index of the forms that use the one and those that use the
// other, over the forms both models have; the pairs are taken best
// first, each port at most once, while the index is at least
// portNameMinJaccard and portNameMinForms forms use both. It returns the
// pairs taken, in m's port order.
func MatchPorts(m, ref *Model) []PortMatch {
	idx := map[string]int{}
	for i, p := range m.Ports {
		idx[p] = i
	}
	refIdx := map[string]int{}
	for i, p := range ref.Ports {
		refIdx[p] = i
	}
	on := make([]int, len(m.Ports))
	onRef := make([]int, len(ref.Ports))
	both := make([][]int, len(m.Ports))
	for i := range both {
		both[i] = make([]int, len(ref.Ports))
	}
	portsOf := func(pp PortPressure, idx map[string]int) []int {
		seen := map[int]bool{}
		var out []int
		for _, u := range pp {
			for _, p := range u.Ports {
				if i, ok := idx[p]; ok && !seen[i] {
					seen[i] = true
					out = append(out, i)
				}
			}
		}
		return out
	}
	for _, e := range m.Forms {
		re, ok := ref.Lookup(e.Form)
		if !ok {
			continue
		}
		a, r := portsOf(e.PortPressure, idx), portsOf(re.PortPressure, refIdx)
		if len(a) == 0 || len(r) == 0 {
			continue
		}
		for _, i := range a {
			on[i]++
			for _, j := range r {
				both[i][j]++
			}
		}
		for _, j := range r {
			onRef[j]++
		}
	}
	var pairs []PortMatch
	for i := range m.Ports {
		for j := range ref.Ports {
			n := both[i][j]
			if n < portNameMinForms {
				continue
			}
			jac := float64(n) / float64(on[i]+onRef[j]-n)
			if jac >= portNameMinJaccard {
				pairs = append(pairs, PortMatch{Port: m.Ports[i], Ref: ref.Ports[j], Jaccard: jac, Both: n})
			}
		}
	}
	slices.SortStableFunc(pairs, func(a, b PortMatch) int {
		if c := cmp.Compare(b.Jaccard, a.Jaccard); c != 0 {
			return c
		}
		if c := cmp.Compare(b.Both, a.Both); c != 0 {
			return c
		}
		if c := cmp.Compare(idx[a.Port], idx[b.Port]); c != 0 {
			return c
		}
		return cmp.Compare(refIdx[a.Ref], refIdx[b.Ref])
	})
	usedPort, usedRef := map[string]bool{}, map[string]bool{}
	var out []PortMatch
	for _, pm := range pairs {
		if usedPort[pm.Port] || usedRef[pm.Ref] {
			continue
		}
		usedPort[pm.Port], usedRef[pm.Ref] = true, true
		out = append(out, pm)
	}
	slices.SortFunc(out, func(a, b PortMatch) int { return cmp.Compare(idx[a.Port], idx[b.Port]) })
	return out
}

// RenamePorts renames m's ports (old name to new) everywhere the model
// names them: its port list, the load and store defaults and rules, and
// every entry's port pressure (beside 512-bit work and per address shape
// too). A new name must not be a port m keeps.
func (m *Model) RenamePorts(to map[string]string) error {
	if len(to) == 0 {
		return nil
	}
	final := map[string]bool{}
	for _, p := range m.Ports {
		n := p
		if r, ok := to[p]; ok {
			n = r
		}
		if final[n] {
			return fmt.Errorf("renaming ports: two ports would be named %q", n)
		}
		final[n] = true
	}
	ren := func(pp PortPressure) PortPressure {
		if pp == nil {
			return nil
		}
		out := make(PortPressure, len(pp))
		for i, u := range pp {
			ports := make([]string, len(u.Ports))
			for k, p := range u.Ports {
				if r, ok := to[p]; ok {
					p = r
				}
				ports[k] = p
			}
			out[i] = PortUse{Cycles: u.Cycles, Ports: ports}
		}
		return out
	}
	for i, p := range m.Ports {
		if r, ok := to[p]; ok {
			m.Ports[i] = r
		}
	}
	m.LoadPorts, m.StorePorts = ren(m.LoadPorts), ren(m.StorePorts)
	for i := range m.LoadThroughput {
		m.LoadThroughput[i].PortPressure = ren(m.LoadThroughput[i].PortPressure)
	}
	for i := range m.StoreThroughput {
		m.StoreThroughput[i].PortPressure = ren(m.StoreThroughput[i].PortPressure)
	}
	for _, e := range m.Forms {
		e.PortPressure = ren(e.PortPressure)
		e.PortPressure512 = ren(e.PortPressure512)
		for k := range e.Addressing {
			e.Addressing[k].PortPressure = ren(e.Addressing[k].PortPressure)
		}
	}
	return nil
}

// abstractPort is the name a build from no base gives a port it opens.
var abstractPort = regexp.MustCompile(`\bP[0-9]+\b`)

// renameAbstract rewrites the abstract port names in a report's text.
func renameAbstract(s string, to map[string]string) string {
	if !strings.Contains(s, "P") {
		return s
	}
	return abstractPort.ReplaceAllStringFunc(s, func(p string) string {
		if r, ok := to[p]; ok {
			return r
		}
		return p
	})
}
