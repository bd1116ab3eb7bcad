package modeldb

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
)

// Ports by address shape. lea runs some address shapes slower than others
// (Granite Rapids: [base+index*s] three a cycle, [base+index] five): not
// more cycles on the same ports but fewer ports. The sweep times each
// shape beside probe forms of known ports (gen.KindAddressPorts: 8 lea
// and 8 of a shift, the multiplier, a vector ALU form, an ALU form); the
// build gives the shape one uop on the group of k = 1/throughput ports,
// from the issue ports the probes use, that predicts those mixes best.
// Measured on the guest: 8 lea r, [rbx+rcx*4] with 8 shl r, 3 took 5.33
// cycles (the lea shares both of the shift's ports 0 and 6), with 8
// vpaddd ymm 3.20 (16 uops on 5 ports: two of its 3 are not the vector
// ALU ports 0, 1, 5).

// addressFitTolerance is the RMS relative error over a shape's mixes up to
// which its best group is kept; a worse fit leaves the shape's ports the
// form's, scaled (and the report says so).
const addressFitTolerance = 0.10

// fitAddressPorts sets AddressCost.PortPressure for the shapes measured
// beside probes and returns a line per form for the build report.
func fitAddressPorts(m *Model, ms *Measurements) []string {
	var out []string
	names := make([]string, 0, len(ms.Forms))
	for n, fm := range ms.Forms {
		if len(fm.AddressMixes) > 0 {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	for _, n := range names {
		e, ok := m.Lookup(n)
		if !ok || len(e.Addressing) == 0 {
			continue
		}
		var got, poor []string
		for i := range e.Addressing {
			a := &e.Addressing[i]
			var mixes []AddressMix
			for _, am := range ms.Forms[n].AddressMixes {
				if am.Shape == a.Shape {
					mixes = append(mixes, am)
				}
			}
			group, rms, ok := bestAddressGroup(m, a.Throughput, mixes)
			switch {
			case !ok:
				continue
			case rms > addressFitTolerance:
				poor = append(poor, fmt.Sprintf("%s (%s)", a.Shape, formatPct(rms)))
				continue
			}
			a.PortPressure = PortPressure{{Cycles: round5(a.Throughput * float64(len(group))), Ports: group}}
			got = append(got, fmt.Sprintf("%s p[%s] (%s)", a.Shape, strings.Join(group, ","), formatPct(rms)))
		}
		if len(got) > 0 {
			out = append(out, n+": "+strings.Join(got, "; "))
		}
		if len(poor) > 0 {
			out = append(out, n+": no port group explains "+strings.Join(poor, ", ")+": ports scaled from the form's")
		}
	}
	return out
}

// bestAddressGroup returns the group of issue ports (from those the mixes'
// probes use) that, as one uop running at tp, predicts the mixes best,
// and its RMS relative error; false without mixes or probes in the model.
func bestAddressGroup(m *Model, tp float64, mixes []AddressMix) ([]string, float64, bool) {
	if tp <= 0 || len(mixes) == 0 {
		return nil, 0, false
	}
	var pool []string
	probes := map[string]*Entry{}
	for _, am := range mixes {
		e, ok := m.Lookup(am.Probe)
		if !ok || len(e.PortPressure) == 0 {
			return nil, 0, false
		}
		probes[am.Probe] = e
		for _, u := range e.PortPressure {
			for _, q := range u.Ports {
				if !slices.Contains(pool, q) {
					pool = append(pool, q)
				}
			}
		}
	}
	sort.Slice(pool, func(i, j int) bool { return slices.Index(m.Ports, pool[i]) < slices.Index(m.Ports, pool[j]) })
	k := int(math.Round(1 / tp))
	if k < 1 || k > len(pool) || len(pool) > 16 {
		return nil, 0, false
	}
	var best []string
	bestErr := math.Inf(1)
	for _, group := range subsets(pool, k) {
		sum := 0.0
		for _, am := range mixes {
			pe := probes[am.Probe]
			uses := []PortUse{{Cycles: tp * float64(k*am.Count), Ports: group}}
			for _, u := range pe.PortPressure {
				uses = append(uses, PortUse{Cycles: u.Cycles * float64(am.ProbeCount), Ports: u.Ports})
			}
			bal, err := Balance(m.Ports, uses)
			if err != nil {
				return nil, 0, false
			}
			pred := max(bal.Cycles, float64(am.Count)*tp, float64(am.ProbeCount)*pe.Throughput)
			e := (pred - am.Cycles) / am.Cycles
			sum += e * e
		}
		if rms := math.Sqrt(sum / float64(len(mixes))); rms < bestErr-1e-9 {
			best, bestErr = group, rms
		}
	}
	return best, bestErr, best != nil
}

// subsets returns the k-element subsets of s, in order.
func subsets(s []string, k int) [][]string {
	var out [][]string
	var rec func(start int, cur []string)
	rec = func(start int, cur []string) {
		if len(cur) == k {
			out = append(out, append([]string(nil), cur...))
			return
		}
		for i := start; i <= len(s)-(k-len(cur)); i++ {
			rec(i+1, append(cur, s[i]))
		}
	}
	rec(0, nil)
	return out
}
