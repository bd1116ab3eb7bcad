package sweep

import (
	"fmt"
	"math/rand"
	"slices"
	"strings"

	"portlab/gen"
	"portlab/isa"
	"portlab/measure"
)

// Random mixes: the validation set of a built model. Port-conflict mixes
// pair every form with a probe; a model fitted to those should also
// predict mixes it never saw, of any 2-4 forms. runRandomMixes measures
// o.RandomMixes such mixes, drawn from o.MixSeed so that the same seed
// gives the same mixes (and a resumed run skips the measured ones).

// DefaultMixForms is how many forms a random mix has, at least and at most.
var DefaultMixForms = [2]int{2, 4}

// RandomMixes draws n mixes of lo-hi distinct forms among those with a
// measured throughput (tp), counts chosen so that each form alone would
// take about as long as the others (gen.MixCountsN). Left out: forms bound
// by the memory system or microcode (see memorySystemBound,
// maxMixThroughput), and legacy-SSE vector forms together with VEX/EVEX
// ones. Forms that cannot be mixed, and sets of forms drawn before, are
// drawn again; the draw depends only on seed, the forms and tp. kind is the benchmarks' kind: gen.KindRandomMix
// (a validation set) or gen.KindFitMix (a training set).
func RandomMixes(forms []*isa.Form, tp map[string]float64, times gen.FormTimes, n int, lo, hi int, seed int64, kind string) []*gen.Bench {
	var pool []*isa.Form
	for _, f := range forms {
		if t := tp[f.Name()]; t > 0 && t <= maxMixThroughput && gen.Unmeasurable(f) == "" && !memorySystemBound(f) && !ownAddressing(f) {
			pool = append(pool, f)
		}
	}
	if len(pool) < 2 || n <= 0 {
		return nil
	}
	lo, hi = max(2, lo), max(lo, hi)
	hi = min(hi, len(pool))
	lo = min(lo, hi)
	rng := rand.New(rand.NewSource(seed))
	var out []*gen.Bench
	drawn := map[string]bool{}
	for tries := 0; len(out) < n && tries < 20*n; tries++ {
		k := lo + rng.Intn(hi-lo+1)
		pick := make([]*isa.Form, 0, k)
		tps := make([]float64, 0, k)
		seen := map[int]bool{}
		vec := vectorNone
		for draws := 0; len(pick) < k && draws < 100; draws++ {
			i := rng.Intn(len(pool))
			v := vectorEncoding(pool[i])
			if seen[i] || (vec != vectorNone && v != vectorNone && v != vec) {
				continue
			}
			seen[i] = true
			if v != vectorNone {
				vec = v
			}
			pick = append(pick, pool[i])
			tps = append(tps, tp[pool[i].Name()])
		}
		if len(pick) < k {
			continue
		}
		// The same forms in another order are the same mix (the counts
		// follow from the forms): draw again rather than measure it twice.
		names := make([]string, len(pick))
		for i, f := range pick {
			names[i] = f.Name()
		}
		slices.Sort(names)
		if key := strings.Join(names, "\x00"); drawn[key] {
			continue
		} else {
			drawn[key] = true
		}
		b, err := gen.MixNTimed(pick, gen.MixCountsN(tps), times)
		if err != nil {
			continue
		}
		b.Kind = kind
		out = append(out, b)
	}
	return out
}

// maxMixThroughput leaves microcoded and serialising forms (over 50
// cycles each) out of random mixes: their cost is their own, not a port's.
const maxMixThroughput = 50

// memorySystemBound reports forms whose throughput is the memory system's,
// not a port's: non-temporal stores and cache-line flushes and write-backs.
func memorySystemBound(f *isa.Form) bool {
	m := f.Mnemonic
	return strings.Contains(m, "movnt") || strings.HasPrefix(m, "clflush") || m == "clwb" || m == "clzero" || m == "maskmovq" || strings.HasSuffix(m, "maskmovdqu")
}

// ownAddressing reports forms whose memory a mix of several forms does not
// set up: string instructions (through rsi and rdi) and absolute moffs
// addresses. Drawn into random mixes they faulted (`repe cmpsb`, `rep
// lodsq`, `mov al, moffs64` on the Zen 4 guest, 2026-11-25); alone, their
// own benchmarks point them at the scratch buffer.
func ownAddressing(f *isa.Form) bool {
	if f.Has(isa.AttrString) {
		return true
	}
	for _, op := range f.Operands {
		if op.Kind == isa.KindMoffs {
			return true
		}
	}
	return false
}

// Vector encodings a random mix keeps apart: legacy-SSE code after VEX or
// EVEX code pays SSE/AVX transitions (thousands of cycles here), which no
// compiler emits and no port model predicts.
const (
	vectorNone = iota
	vectorLegacy
	vectorAVX
)

// vectorEncoding says whether f is a legacy-SSE or a VEX/EVEX vector form
// (general-purpose, x87 and MMX forms mix with either).
func vectorEncoding(f *isa.Form) int {
	if vector, _ := vectorOperands(f); vector && f.Encoding == isa.Legacy {
		return vectorLegacy
	} else if vector || f.Encoding == isa.VEX || f.Encoding == isa.EVEX {
		return vectorAVX
	}
	return vectorNone
}

// runRandomMixes measures the random mixes the options ask for.
func runRandomMixes(eng *measure.Engine, o Options, forms []*isa.Form, mt *measuredTimes, done map[string]bool, w *appender, sum *Summary) error {
	tp := mt.tp
	lo, hi := o.MixForms[0], o.MixForms[1]
	if lo == 0 && hi == 0 {
		lo, hi = DefaultMixForms[0], DefaultMixForms[1]
	}
	kind, what := gen.KindRandomMix, "random mixes"
	if o.FitMixes {
		kind, what = gen.KindFitMix, "fit mixes"
	}
	drawn := RandomMixes(forms, tp, mt.forMixes(), o.RandomMixes, lo, hi, o.MixSeed, kind)
	if len(drawn) == 0 {
		return fmt.Errorf("%s: no mix of %d-%d forms can be drawn from the %d selected forms (they need a measured throughput, at most %d cycles, and must not be bound by the memory system)", what, lo, hi, len(forms), maxMixThroughput)
	}
	var todo []*gen.Bench
	for _, b := range drawn {
		if done[benchID(b)] {
			sum.Skipped++
			continue
		}
		todo = append(todo, b)
	}
	for start := 0; start < len(todo); start += mixBatch {
		batch := todo[start:min(start+mixBatch, len(todo))]
		next := todo[min(start+mixBatch, len(todo)):min(start+2*mixBatch, len(todo))]
		if err := measureAndAppend(eng, o, batch, next, w, sum); err != nil {
			return err
		}
		// Measured: its snippets go (the noisy ones wait in sum.noisy),
		// rather than all of a draw's to its end.
		n := len(batch)
		clear(batch)
		if o.Progress != nil {
			o.Progress(start+n, len(todo), what)
		}
		if o.stopped() {
			return ErrStopped
		}
	}
	return nil
}
