package gen

import (
	"errors"
	"fmt"
	"math"
	"strings"

	"portlab/isa"
	"portlab/modeldb"
	"portlab/results"
)

// Mix returns a port-conflict benchmark: a instances of f interleaved with
// b instances of probe, each form's instances independent of each other and
// of the other form's (separate register pools). Its value per copy, set
// against the two forms' throughputs alone, says whether they compete for
// ports: two forms on disjoint ports take max(a*tpF, b*tpP); on the same
// ports, the sum.
func Mix(f, probe *isa.Form, a, b int) (*Bench, error) {
	return MixN([]*isa.Form{f, probe}, []int{a, b})
}

// MixN is Mix for any number of forms: counts[i] instances of forms[i] per
// round, interleaved evenly, every instance independent of every other.
// The benchmark belongs to forms[0].
func MixN(forms []*isa.Form, counts []int) (*Bench, error) {
	return MixNTimed(forms, counts, nil)
}

// FormTime is what a sweep measured of a form, in cycles: its reciprocal
// throughput, the latency of a chain through its destination register,
// and for a read-modify-write form the latency of a chain through its
// memory operand.
type FormTime struct {
	Latency, Throughput, MemoryLatency float64
	// DestLatency is the form's stream over one destination register
	// (KindDestChain), cycles an instance: more than its throughput when
	// the form waits for its write-only destination's previous value.
	DestLatency float64
}

// waitsForDest reports a form whose write-only destination the
// measurements show it waiting for (modeldb.WaitsForDestination: its
// stream over one destination ran more than 1.25 times its throughput,
// and a quarter of a cycle or more slower). Such a form's destination
// rotates in a mix as a chained one's does, with DestLatency as its link.
func waitsForDest(f *isa.Form, times FormTimes) bool {
	t, ok := times[f.Name()]
	return ok && !chained(f) && modeldb.WaitsForDestination(t.DestLatency, t.Throughput)
}

// chainedIn reports a form whose stream in a mix rotates over a share of
// its class's registers by need: its written registers are inputs too, or
// it waits for them all the same (waitsForDest).
func chainedIn(f *isa.Form, times FormTimes) bool {
	return chained(f) || waitsForDest(f, times)
}

// chainsIn reports a register operand of f that chains its instances in a
// mix: read and written (chainedOperand), or a vector or MMX destination
// the form waits for (waitsForDest).
func chainsIn(f *isa.Form, op isa.Operand, times FormTimes) bool {
	if chainedOperand(op) {
		return true
	}
	return renamedVector(class(op.Kind)) && writes(op) && waitsForDest(f, times)
}

// FormTimes are the forms' measured times by name: what MixNTimed sizes
// register pools and read-modify-write copies by.
type FormTimes map[string]FormTime

// MixNTimed is MixN with the forms' measured times: the forms that read
// the register they write (add r64, r64; vfmadd231pd) then split their
// register class in proportion to the chains each needs to keep up with
// the mix (count * latency / the longest count * throughput of the mix),
// not evenly. Split evenly, 40 add r64, r64 on four registers beside 8
// crc32 r32, m16 on eight took 15.8 cycles a copy on the Granite Rapids
// guest: the adds' own chains, 10 deep; on eight registers 12.9. A form
// whose latency is unknown (0) counts as latency 1; when a form has no
// throughput, or times is nil, it is MixN.
func MixNTimed(forms []*isa.Form, counts []int, times FormTimes) (*Bench, error) {
	if len(forms) < 2 || len(forms) != len(counts) {
		return nil, fmt.Errorf("a mix needs two or more forms, each with a count")
	}
	names := make([]string, len(forms))
	total := 0
	for i, x := range forms {
		names[i] = x.Name()
		if counts[i] < 1 {
			return nil, fmt.Errorf("mix of %s: counts must be positive", strings.Join(quoteAll(names), " and "))
		}
		total += counts[i]
	}
	for _, x := range forms {
		if why := Unmeasurable(x); why != "" {
			return nil, fmt.Errorf("form %q: %s", x.Name(), why)
		}
	}
	al := newAllocator(forms[0])
	// The other forms' fixed and implicit registers are off limits too.
	for _, x := range forms[1:] {
		for r := range newAllocator(x).used {
			al.used[r] = true
		}
	}
	for _, x := range forms {
		if x.Encoding == isa.EVEX {
			al.vecs = 32
		}
	}
	for _, x := range forms {
		if (x.Encoding == isa.Legacy || x.Encoding == isa.VEX) && usesVectorRegisters(x) {
			al.vecs = 16 // xmm16-31 need EVEX
		}
	}
	// Beside VEX or legacy vector forms the EVEX forms take their vector
	// registers from 16-31 (a pool of their own): sharing 0-15, 3
	// vpermi2b ymm {k}{z} beside 12 vfmsub132pd xmm got two registers,
	// a chain of two 7-cycle links a copy that the mix then measured.
	high := func(x *isa.Form) bool {
		return al.vecs == 16 && x.Encoding == isa.EVEX && usesVectorRegisters(x)
	}
	// poolKey is the pool a form's rotating registers come from: its
	// written class, "vec16" for an EVEX stream's vector registers.
	poolKey := func(x *isa.Form) string {
		if c := writtenClass(x); c != "vec" || !high(x) {
			return c
		}
		return "vec16"
	}
	// Streams are made in the order forms[1:], then forms[0] (which takes
	// what the others leave). Forms whose destinations are inputs share
	// the rotating registers of their class (evenly, or with times by
	// need: chainNeeds); the others need only two each. Given half the
	// vector pool beside `add r64, r64` (6 ymm registers), an FMA runs 1.5
	// a cycle at latency 4, and the mix reads as a port conflict what is
	// its own chains.
	var order []int
	for i := 1; i <= len(forms); i++ {
		order = append(order, i%len(forms))
	}
	need := chainNeeds(forms, counts, times)
	chainedLeft, plainLeft := map[string]int{}, map[string]int{}
	needLeft := map[string]float64{}
	for _, i := range order {
		if c := poolKey(forms[i]); chainedIn(forms[i], times) {
			chainedLeft[c]++
			if need != nil {
				needLeft[c] += need[i]
			}
		} else {
			plainLeft[c]++
		}
	}
	streams := make([]*stream, len(forms))
	for _, i := range order {
		share := 0.0
		al.high = high(forms[i])
		if c := poolKey(forms[i]); chainedIn(forms[i], times) {
			switch {
			case chainedLeft[c] > 1 && need != nil:
				// A share of what the pool has left, by need.
				wc := writtenClass(forms[i])
				share = need[i] / needLeft[c] * float64(al.free(wc)-2*plainLeft[c]) / float64(poolSize(wc, al.vecs))
				needLeft[c] -= need[i]
			case chainedLeft[c] > 1:
				share = 1 / float64(chainedLeft[c])
			case plainLeft[c] > 0:
				share = 0.85 // room for the plain forms still to come
			default:
				share = 1
			}
			chainedLeft[c]--
		} else {
			plainLeft[c]--
		}
		st, err := newStream(forms[i], al, share)
		if err != nil {
			return nil, err
		}
		st.pos = i
		streams[i] = st
	}
	al.high = false
	// Interleave evenly (Bresenham over the round's slots), repeated so
	// each copy has at least 12 instructions and each stream cycles
	// through its whole register pool within one copy (a copy shorter than
	// the pool would reuse registers and chain), a read-modify-write
	// stream through all its memory slots (rmwSlots: 8 instances of
	// sub m16, r16 per copy on 8 slots chained through store forwarding
	// and ran one a cycle beside vpmovsqd, where alone they run two).
	rmwReps := rmwRepeats(forms, counts, times)
	reps := 1
	for {
		ok := total*reps >= 12
		for i, st := range streams {
			ok = ok && counts[i]*reps >= st.k
			if chainsThroughMemory(forms[i]) {
				ok = ok && (counts[i]*reps >= rmwSlots || (rmwReps > 0 && reps >= rmwReps))
			}
		}
		if ok {
			break
		}
		reps++
	}
	// A register that takes more links of its stream's chain in a copy
	// than the others (6 instances of pmaddubsw mm over 5 registers: mm0
	// twice) makes the copy as long as that register's chain. More rounds
	// spread the links evenly; a pool too small for the chains the mix
	// needs cannot be helped, and the mix is refused: it would time a
	// chain, not the ports (6 pshufw mm, m64 with 6 pmaddubsw mm read 6.00
	// cycles a copy on the Zen 3 guest, the ports allowing 3.00).
	if c, ok := worstChain(forms, counts, streams, reps, times); ok && c.ratio > chainSlack {
		best, bestReps := c, reps
		for r := reps + 1; r <= reps*maxChainRounds; r++ {
			if d, _ := worstChain(forms, counts, streams, r, times); d.ratio < best.ratio-1e-9 {
				best, bestReps = d, r
				if d.ratio <= chainSlack {
					break
				}
			}
		}
		if best.ratio > chainSlack {
			return nil, fmt.Errorf("mix of %s: %w: %d instances of %q a copy over %d registers chain %d deep (%.2f cycles), the copy's ports %.2f",
				strings.Join(quoteAll(names), ", "), ErrChained, counts[best.form]*bestReps, names[best.form], best.regs, best.links, best.cycles, best.copy)
		}
		reps = bestReps
	}
	var lines []string
	emitted := make([]int, len(forms))
	for r := 0; r < reps; r++ {
		round := make([]int, len(forms))
		for k := 0; k < total; k++ {
			pick := -1
			for i := range forms { // the first form due by this slot
				if (k+1)*counts[i]/total > round[i] {
					pick = i
					break
				}
			}
			if pick < 0 { // else the other form furthest behind its share
				best := -1.0
				for i := len(forms) - 1; i >= 0; i-- {
					if lag := float64((k+1)*counts[i])/float64(total) - float64(round[i]); round[i] < counts[i] && lag > best {
						pick, best = i, lag
					}
					if i == 1 && pick >= 0 {
						break // forms[0] only when no other has slots left
					}
				}
			}
			st := streams[pick]
			lines = append(lines, st.resets...)
			l, err := st.line(emitted[pick])
			if err != nil {
				return nil, err
			}
			lines = append(lines, l)
			emitted[pick]++
			round[pick]++
		}
	}
	var with, label []string
	parts := make([]results.MixPart, len(forms))
	for i, x := range forms {
		if i > 0 {
			with = append(with, fmt.Sprintf("%d x %s", counts[i], x.Name()))
			label = append(label, x.Name())
		}
		parts[i] = results.MixPart{Form: x.Name(), Count: counts[i] * reps}
	}
	info := fmt.Sprintf("port-conflict mix: %d x %s with %s", counts[0], forms[0].Name(), strings.Join(with, ", "))
	s := newSnippet(forms[0], "mix with "+strings.Join(label, ", "), info, lines, total*reps)
	for _, x := range forms[1:] {
		if err := prepareFor(s, x); err != nil {
			return nil, err
		}
	}
	var name []string
	for i, x := range forms {
		name = append(name, fmt.Sprintf("%q x%d", x.Name(), counts[i]))
	}
	s.Name = "mix " + strings.Join(name, " + ")
	return &Bench{Form: forms[0], Kind: KindPorts, Snippet: s, Mode: "inverse_throughput", Mix: parts}, nil
}

// ErrChained is the error of a mix whose instances of a form cannot all
// be independent: its stream has fewer registers than the chains through
// them need to keep up with the mix.
var ErrChained = errors.New("instances would chain through their registers")

// chainSlack is how far a copy's longest register chain may exceed the
// least time of its ports: the measured latencies and throughputs it is
// computed from carry their own noise (adc r64, r64 beside add r64, r64:
// two links of 1.01 cycles a copy of 2.01).
const chainSlack = 1.02

// maxChainRounds bounds how many times the fewest rounds a mix needs are
// multiplied to spread a stream's chain links evenly over its registers.
const maxChainRounds = 4

// chainLoad is the longest register chain of a copy of a mix: the form,
// how many registers its chained operand rotates over, the most links one
// of them takes in a copy, their cycles (links x the form's latency), the
// least time of the copy (its rounds x the mix's least time) and their
// ratio.
type chainLoad struct {
	form, regs, links   int
	cycles, copy, ratio float64
}

// worstChain returns the chain load of a copy of reps rounds with the
// largest ratio of chain cycles to the copy's least time; ok is false
// without measured times (nothing to judge by).
func worstChain(forms []*isa.Form, counts []int, streams []*stream, reps int, times FormTimes) (worst chainLoad, ok bool) {
	least, ok := leastTime(forms, counts, times)
	if !ok {
		return worst, false
	}
	for i, st := range streams {
		n := counts[i] * reps
		for j, pool := range st.dsts {
			op := forms[i].Operands[j]
			if pool == nil || !chainsIn(forms[i], op, times) {
				continue
			}
			lat := chainLatency(forms[i], op, times)
			if lat <= 0 {
				continue
			}
			links := (n + len(pool) - 1) / len(pool)
			c := chainLoad{form: i, regs: len(pool), links: links, cycles: float64(links) * lat, copy: float64(reps) * least}
			c.ratio = c.cycles / c.copy
			if c.ratio > worst.ratio {
				worst = c
			}
		}
	}
	return worst, true
}

// rmwRepeats returns how many rounds a copy of a mix needs for its
// read-modify-write streams not to chain through memory from one copy to
// the next: each instance of a copy reuses the slot of the same instance
// of the copy before, so a copy must take longer than the chain through
// memory (rmwMargin times the form's measured memory latency), the round
// taking at least its longest count * throughput. 0 without times (the
// streams then cover rmwSlots slots a copy, which makes copies of hundreds
// of instructions when a read-modify-write form has a count of 1: such
// copies run from the legacy decoders and read up to 2.5 times apart in
// two sweeps).
func rmwRepeats(forms []*isa.Form, counts []int, times FormTimes) int {
	round, ok := leastTime(forms, counts, times)
	if !ok {
		return 0
	}
	chain := 0.0
	for _, x := range forms {
		if chainsThroughMemory(x) {
			l := times[x.Name()].MemoryLatency
			if l <= 0 {
				return 0
			}
			chain = max(chain, l)
		}
	}
	if chain == 0 {
		return 0
	}
	return max(1, int(math.Ceil(rmwMargin*chain/round)))
}

// rmwMargin is how much longer than a read-modify-write form's chain
// through memory a copy of a mix is made.
const rmwMargin = 2

// leastTime returns the longest count * throughput of a mix's forms: the
// least time one round of the mix can take. ok is false without a
// measured throughput for every form.
func leastTime(forms []*isa.Form, counts []int, times FormTimes) (least float64, ok bool) {
	if times == nil {
		return 0, false
	}
	for i, x := range forms {
		t, found := times[x.Name()]
		if !found || t.Throughput <= 0 {
			return 0, false
		}
		least = max(least, float64(counts[i])*t.Throughput)
	}
	return least, true
}

// chainNeeds returns, per form, the register chains it needs to keep up
// with the mix: count * latency / the longest count * throughput of the
// mix's forms (their least time together). Nil without times or when a
// form's throughput is unknown.
func chainNeeds(forms []*isa.Form, counts []int, times FormTimes) []float64 {
	least, ok := leastTime(forms, counts, times)
	if !ok {
		return nil
	}
	need := make([]float64, len(forms))
	for i, x := range forms {
		lat := 0.0
		for _, op := range x.Operands {
			if chainsIn(x, op, times) {
				lat = max(lat, chainLatency(x, op, times))
			}
		}
		if lat <= 0 {
			lat = 1
		}
		need[i] = float64(counts[i]) * lat / least
	}
	return need
}

// chainLatency is the latency of the chain through a chained register
// operand of f: for a write-only destination the form waits for, its
// stream over one destination (DestLatency); otherwise the form's
// measured latency through its destination, but
// at most a cycle for a register written in part and not read (mov r16,
// m16 chains through the merge of the register's other bytes, not through
// its load: sized by the load's 5 cycles, its stream left add r64, r64
// beside it three registers for 18 instances, a chain of 6 cycles a copy
// where the ports take 4.5).
func chainLatency(f *isa.Form, op isa.Operand, times FormTimes) float64 {
	if !chainedOperand(op) {
		return times[f.Name()].DestLatency // a destination it waits for
	}
	lat := times[f.Name()].Latency
	if !reads(op) {
		lat = min(lat, 1)
	}
	return lat
}

// writtenClass is the register class of a form's first written register
// operand ("" when it writes none): the pool its stream rotates over.
func writtenClass(f *isa.Form) string {
	for _, op := range f.Operands {
		if c := class(op.Kind); isReg(c) && writes(op) {
			return c
		}
	}
	return ""
}

// usesVectorRegisters reports whether a form names an xmm, ymm or zmm
// register operand.
func usesVectorRegisters(f *isa.Form) bool {
	for _, op := range f.Operands {
		if class(op.Kind) == "vec" {
			return true
		}
	}
	return false
}

func quoteAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = fmt.Sprintf("%q", s)
	}
	return out
}

// MixCounts picks small instance counts (a, b) for a mix of forms with
// reciprocal throughputs tpF and tpP, so that each alone would take about
// the same time: a*tpF ≈ b*tpP.
func MixCounts(tpF, tpP float64) (int, int) {
	if tpF <= 0 || tpP <= 0 {
		return 1, 1
	}
	bestA, bestB, bestErr := 1, 1, 1e9
	for a := 1; a <= 8; a++ {
		for b := 1; b <= 8; b++ {
			x, y := float64(a)*tpF, float64(b)*tpP
			e := (x - y) / (x + y)
			if e < 0 {
				e = -e
			}
			if e < bestErr-1e-9 {
				bestA, bestB, bestErr = a, b, e
			}
		}
	}
	return bestA, bestB
}

// MixCountsN picks small instance counts (1-8) for a mix of forms with
// reciprocal throughputs tps, so that each alone would take about as long
// as the slowest one once: count_i * tps[i] ≈ max(tps).
func MixCountsN(tps []float64) []int {
	slowest := 0.0
	for _, t := range tps {
		slowest = max(slowest, t)
	}
	out := make([]int, len(tps))
	for i, t := range tps {
		c := 1
		if t > 0 && slowest > 0 {
			c = int(math.Round(slowest / t))
		}
		out[i] = min(8, max(1, c))
	}
	return out
}
