package modeldb

import (
	"fmt"

	"math"
	"portlab/isa"
	"strings"
)

// One-cycle vector work beside multi-cycle vector work. On the Zen 3
// guest (AuthenticAMD-19-1-1, 2026-11-28) a chain of one-cycle vpaddd
// runs slower than its latency while independent vector work of three
// cycles or more issues beside it, work whose results the chain never
// reads: two links a copy beside two vpmaddwd a copy (one a link) ran
// at 2.00 or 2.71 cycles by process, beside four (two a link) at
// 3.05-3.08 every time, beside one at 2.00; beside one-cycle vpand or
// vpshufd at 2.00 (testdata/experiments/one_cycle_chains.s). No port
// or latency of either form says it. The model keeps, per vector width,
// the delay a link measured beside two vpmaddwd a link
// (Model.BesideMulticycleDelay), and the analyzer gives a block's
// one-cycle vector instructions the share of it its rate of such work
// calls for (BesideShare), as a fraction of a cycle on their results.

// BesideMinLatency is the execution latency from which vector work
// counts as multi-cycle beside a one-cycle chain: the chains ran slow
// beside three-cycle vpsadbw, vpmuludq, vmulps, vaddps and vcvtdq2ps and
// at their latency beside one-cycle vpand and vpshufd.
const BesideMinLatency = 3

// besideShows is how many cycles a link, beyond its uncertainty, the
// chain beside two vpmaddwd a link must run over its own bound (the
// vpaddd latency, or the vpmaddwd's port time where longer) for the
// delay to count: converged chains agree within a few hundredths of a
// cycle, the Zen 3 guest's delay is half a cycle.
const besideShows = 0.1

// BesideShare is the share of a width's BesideMulticycleDelay a block
// gets at rate, its vector instructions of BesideMinLatency cycles or
// more per cycle: none at half an instruction a cycle or less, all of it
// at two (where the delay is measured) or more, and between, a curve
// that rises fast and flattens, 1 - ((2 - rate)/1.5)^2. On the Zen 3
// guest the chains ran at their latency beside one such instruction
// every other link (rate 0.5); beside one a link (rate 1) at 1.27
// (vmulps, vaddps, vcvtdq2ps) to 1.36 (vpsadbw, vpmuludq, vpmaddwd) a
// link, now and then at 1.00 in a whole process; at rate 1.5
// (psadbw_sum_sse) at 1.45, at rate 2 at 1.53-1.55. With its delay of
// 0.55 the curve gives 1.00, 1.31, 1.49 and 1.55.
func BesideShare(rate float64) float64 {
	if rate <= 0.5 {
		return 0
	}
	if rate >= 2 {
		return 1
	}
	x := (2 - rate) / 1.5
	return 1 - x*x
}

// besideDelayOf derives the delay per width from the chains beside two
// vpmaddwd a link: the cycles a link beyond bound[w] (the chain's own
// bound; 1 where not given), where that is at least besideShows beyond
// the chain's uncertainty, to the hundredth and at most a cycle; nil
// where no width shows it.
func besideDelayOf(runs map[string]*LateForwardRun, bound map[string]float64) map[string]float64 {
	var out map[string]float64
	for w, r := range runs {
		if r == nil || r.Beside2 <= 0 {
			continue
		}
		b := bound[w]
		if b <= 0 {
			b = 1
		}
		d := r.Beside2 - b
		if d-r.Beside2Uncertainty < besideShows {
			continue
		}
		if out == nil {
			out = map[string]float64{}
		}
		out[w] = math.Min(1, math.Round(d*100)/100)
	}
	return out
}

// besideDelayText is the header as model diff and the build report
// print it ("xmm +0.53, ymm +0.54"; "" for none).
func besideDelayText(m map[string]float64) string {
	return keyedText(m, func(d float64) string { return fmt.Sprintf("+%.2f", d) })
}

func validateBesideDelay(m map[string]float64) error {
	return checkKeyed("beside_multicycle_delay", "width", m, LateForwardWidths, 0, 1, func(d float64) string { return fmt.Sprintf("%g cycles", d) })
}

// besideMulticycle sets the delay of one-cycle vector results beside
// multi-cycle vector work, per width, from the chains beside two
// vpmaddwd a link.
func (b *builder) besideMulticycle(r *Pass) error {
	runs := b.ms.LateForward
	bound := map[string]float64{}
	var seen []string
	for _, w := range LateForwardWidths {
		x := runs[w]
		if x == nil || x.Beside2 <= 0 {
			continue
		}
		lat := 1.0
		if e, ok := b.m.Lookup(fmt.Sprintf("vpaddd %s, %s, %s", w, w, w)); ok && e.Latency > 0 {
			lat = e.Latency
		}
		ports := 0.0
		if e, ok := b.m.Lookup(fmt.Sprintf("vpmaddwd %s, %s, %s", w, w, w)); ok {
			ports = 2 * e.Throughput
		}
		bound[w] = math.Max(lat, ports)
		seen = append(seen, fmt.Sprintf("%s %.2f +- %.2f cycles a link beside two vpmaddwd (its bound %.2f)", w, x.Beside2, x.Beside2Uncertainty, bound[w]))
	}
	if len(seen) == 0 {
		r.Evidence = "chains beside two vpmaddwd a link not measured"
		if len(b.m.BesideMulticycleDelay) > 0 {
			r.Evidence += ": the base's beside_multicycle_delay stays (" + besideDelayText(b.m.BesideMulticycleDelay) + ")"
		}
		return nil
	}
	r.Evidence = "vpaddd chains: " + strings.Join(seen, "; ")
	d := besideDelayOf(runs, bound)
	b.m.BesideMulticycleDelay = d
	if len(d) > 0 {
		r.Applied = true
		r.Changes = append(r.Changes, "beside_multicycle_delay: "+besideDelayText(d))
	}
	return nil
}

// besideOf says what the model's beside_multicycle_delay does to entry e
// (model show), "" where nothing: the rule takes one-cycle vector
// register forms (analysis/beside.go).
func (m *Model) besideOf(e *Entry) string {
	if len(m.BesideMulticycleDelay) == 0 || math.Round(e.Latency) != 1 {
		return ""
	}
	f, ok := isa.Lookup(e.Form)
	if !ok || f.HasMemory() {
		return ""
	}
	d := m.BesideMulticycleDelay[VectorDest(f)]
	if d <= 0 {
		return ""
	}
	return fmt.Sprintf("up to +%s cycle(s) on its result beside independent vector work of %d cycles or more (all of it from 2 such instructions a cycle, none at 0.5; the model's beside_multicycle_delay)", FormatNum(d), BesideMinLatency)
}
