// Package sweep owns host sweeps: it selects instruction forms, has package
// gen turn them into benchmarks, measures them with package measure in
// batches (one assembler run per batch, one worker), derives per-form
// properties (idioms, move elimination) and helper subtractions, and appends
// the results to a file that an interrupted sweep resumes from. It also
// splits sweeps into shards and merges shard files.
package sweep

import (
	"bufio"
	"cmp"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"os"
	"slices"
	"sort"
	"strings"
	"time"

	"portlab/gen"
	"portlab/isa"
	"portlab/measure"
	"portlab/results"
)

// Options control a sweep.
type Options struct {
	Forms      []*isa.Form
	Latency    bool
	Throughput bool
	Ports      bool
	// Probes are the forms ports mode mixes every form with (default
	// DefaultProbes, those the host runs).
	Probes []string
	// RandomMixes is how many random mixes of MixForms (at least, at most;
	// zero: DefaultMixForms) forms to measure, drawn from MixSeed among the
	// forms with a measured throughput: a model's validation set.
	RandomMixes int
	MixForms    [2]int
	MixSeed     int64
	// FitMixes makes the random mixes a model's training set instead
	// (result kind fit-mix, which model build fits; draw them with
	// another seed than the validation set's).
	FitMixes bool
	// Out is the results file: appended to batch by batch; with Resume,
	// benchmarks already in it are skipped. "" keeps results in memory only.
	Out    string
	Resume bool
	// Lean keeps in memory only what the sweep needs of each result once
	// it is in Out (results.Benchmark.Slim): the results read back to
	// resume, and Summary.Results. For runs that go on over one file for
	// long: characterize's fit step holds every result before it, 924 MB
	// whole on the Zen 4 guest, 231 MB slim.
	Lean bool
	// Shard i of n (0-based): the sweep measures only the forms of its
	// shard (see AssignShards). Shards are cut from Forms before the host
	// filter (Has), so give the same Forms on every host of a fleet (the
	// catalog's matches, not only the host's) and each form lands in the
	// same shard everywhere.
	Shard, Shards int
	Measure       measure.Options
	// BatchForms is how many forms are assembled and measured per batch
	// (default 128: about two seconds of work, results appended after
	// each). The engine measures a batch's other groups while a disturbed
	// one waits for its retry; the last retries of a batch wait alone, so
	// small batches waste time in noisy stretches.
	BatchForms int
	// LoadOpPasses is how many passes measure the throughput of vector
	// forms that read memory (measure.Options.Passes, the median pass
	// kept; 0 or 1: one). On this project's hosts such code runs 8-20 %
	// slower in stretches that no canary sees; with memory slots within
	// 256 bytes three passes raised two Zen 4 sweeps' agreement from
	// 96.2 % to 97.0 % of forms (the CLI's default is 3).
	LoadOpPasses int
	// VectorPasses is the same for the throughput of vector forms without
	// a memory source (0 or 1: one): Zen 4 shuffles settle into different
	// steady states from job to job (unpcklps xmm, xmm: 0.37-0.41).
	VectorPasses int
	// MemoryPasses is the same for the throughput of integer forms that
	// read or write memory, the fastest converged pass kept
	// (measure.Options.FastestPass; 0 or 1: one): on the Zen 3 guest
	// load-op and read-modify-write streams settle into levels of their
	// own with every canary clear (adc m16, imm8: 0.56, 0.63 or 1.1
	// cycles), and the median of three passes flips between them. The
	// store-commit streams (gen.KindStoreCommit) are measured the same
	// way: 16 stores over two lines read 0.50 cycles a store there in a C
	// harness and 0.55-0.77 in stretches that no canary sees.
	MemoryPasses int
	// MemoryRounds is how many rounds those benchmarks (keepsFastest) are
	// measured in, MemoryPasses passes each: the first in the form's
	// batch, the others at the end of the sweep (before the second
	// chances), each result appended and the fastest converged kept
	// (results.CompareClean). The slow levels last seconds to minutes,
	// longer than the passes of one round are apart: on the Zen 3 guest
	// two runs of 138 such forms agreed on 43-54 % of them with three
	// passes, 47-62 % with six, and 69-72 % with three passes in each of
	// two runs a minute apart. 0 or 1: one round.
	MemoryRounds int
	// MaxPasses gives the forms measured in several passes whose passes
	// disagree by more than 2 % more passes, up to MaxPasses in all
	// (measure.Options.MaxPasses; off by default: on Zen 4 the load-op
	// forms that differ between sweeps read one value in every pass of a
	// sweep, so more passes did not raise the agreement).
	MaxPasses int
	// NoisyRounds is how many times results that came out noisy (fewer
	// than half of their repetitions clean) are measured again at the end
	// of the sweep (default 2; negative: never), each round after a pause
	// of NoisyPause (default 2 s).
	NoisyRounds int
	NoisyPause  time.Duration
	// NoisyBudget, with the default NoisyRounds, gives the results still
	// noisy after the two default rounds more rounds, up to MaxNoisyRounds
	// in all, while the sweep (from its start) and the next round, timed
	// as the last one, fit in it and the last round made at least a tenth
	// of what it measured converge (0: two rounds). `portlab bench` sets
	// 10 minutes.
	NoisyBudget time.Duration
	// NoisyUntil, when set, ends the second chances at that time: on a
	// host whose neighbour keeps most results noisy, measuring them all
	// again costs as much as the sweep and gains little.
	NoisyUntil time.Time
	// KeepNoisy makes a resumed sweep take the noisy results it finds as
	// done instead of measuring them again (a time budget that already
	// gave them their second chances).
	KeepNoisy bool
	// MeasureNoisyKind, with KeepNoisy, is a result kind whose noisy
	// results a resumed sweep measures again all the same (characterize:
	// the validation draw, judged by the sweep's rule after the looser
	// one priced the mixes).
	MeasureNoisyKind string
	// AgainKind and AgainRound, resuming: the results of that kind are
	// measured once more, as round AgainRound (Extra.Round), unless a
	// result of the benchmark already has that round (characterize's
	// second round of its validation draw, minutes after the first; the
	// draw's results keep the fastest, results.KeepFastest).
	AgainKind  string
	AgainRound int
	// Progress is called after every batch.
	Progress func(done, total int, current string)
	// Stop, when set, is asked after every batch whether to stop: Run then
	// returns ErrStopped, with everything measured so far in Out (a
	// resumed sweep goes on from there). A time budget uses it.
	Stop func() bool
	// Host identifies the machine in results: CPUName (LLVM's name),
	// HostSig (the CPU type, hostcpu.Info.Signature) and HostInfo (written
	// on every result; see HostInfo). Has filters Forms to those the host
	// runs (nil: all of them).
	CPUName, HostSig string
	HostInfo         *results.HostInfo
	Has              func(feature string) bool
}

// ErrStopped is what Run returns when Options.Stop asked it to stop.
var ErrStopped = errors.New("sweep stopped before its end")

// stopped asks Options.Stop.
func (o Options) stopped() bool { return o.Stop != nil && o.Stop() }

// formCost is FormCost in the sweep's modes.
func (o Options) formCost(f *isa.Form) float64 {
	m := CostModes{Latency: o.Latency, Throughput: o.Throughput}
	if o.Ports {
		m.Probes = len(o.Probes)
		if m.Probes == 0 {
			m.Probes = len(DefaultProbes)
		}
	}
	return FormCost(f, m)
}

// supported returns the forms the host runs.
func supported(forms []*isa.Form, has func(string) bool) []*isa.Form {
	var out []*isa.Form
	for _, f := range forms {
		if f.Supported(has) {
			out = append(out, f)
		}
	}
	return out
}

// Summary reports what a sweep did.
type Summary struct {
	Forms        int // forms in this shard
	Benchmarks   int // benchmarks measured now
	Skipped      int // already in the results file (resume)
	Errors       int // benchmarks that failed to measure
	Unmeasurable int // forms recorded with a reason instead of measured
	ErrorForms   []string
	// Remeasured counts the noisy results measured again at the end of the
	// sweep, StillNoisy those that were noisy every time.
	Remeasured, StillNoisy int
	// NoisyRoundsRun counts the rounds of second chances that ran.
	NoisyRoundsRun int
	Elapsed        time.Duration
	// SecondChances is the part of Elapsed spent measuring noisy results
	// again; Engine where the engine's time went.
	SecondChances time.Duration
	// LateMeasured counts the results of the later memory rounds
	// (Options.MemoryRounds), LateRounds the time they took.
	LateMeasured int
	LateRounds   time.Duration
	Engine       measure.EngineStats
	Results      []*results.Benchmark // everything written by this run

	noisy []pending // benchmarks whose latest result is noisy
	late  []pending // benchmarks for the later memory rounds
}

// pending is a benchmark to measure again, with the helper latencies its
// result subtracts; round is the first later memory round it needs (2
// and up).
type pending struct {
	bench   *gen.Bench
	helpers map[string]float64
	round   int
}

// noteNoisy remembers the benchmarks whose results are noisy (fewer than
// half of their repetitions clean), for the sweep's second chance.
func (s *Summary) noteNoisy(benches []*gen.Bench, res []*results.Benchmark, helpers map[string]float64) {
	for i, r := range res {
		if r.Error == "" && r.Noisy() {
			s.noisy = append(s.noisy, pending{bench: benches[i], helpers: helpers})
		}
	}
}

// DefaultProbes are forms of well-known ports used in port-conflict mixes.
var DefaultProbes = []string{
	"add r64, r64", "imul r64, r64", "shl r64, imm8", "lea r64, m",
	"mov r64, m64", "mov m64, r64", "vmovups ymm, m256",
	"vaddpd ymm, ymm, ymm", "vmulpd ymm, ymm, ymm", "vpaddd ymm, ymm, ymm", "vpshufb ymm, ymm, ymm",
	"vpermd ymm, ymm, ymm", "vdivpd ymm, ymm, ymm",
}

// Select returns the forms matching globs (all forms when none), keeping
// those the host can run when has is non-nil, sorted by name.
func Select(globs []string, has func(string) bool) ([]*isa.Form, error) {
	var forms []*isa.Form
	seen := map[string]bool{}
	if len(globs) == 0 {
		globs = []string{"*"}
	}
	for _, g := range globs {
		fs, err := isa.Match(g)
		if err != nil {
			return nil, err
		}
		if len(fs) == 0 {
			return nil, fmt.Errorf("no form matches %q", g)
		}
		for _, f := range fs {
			if seen[f.Name()] || (has != nil && !f.Supported(has)) {
				continue
			}
			seen[f.Name()] = true
			forms = append(forms, f)
		}
	}
	sort.Slice(forms, func(i, j int) bool { return forms[i].Name() < forms[j].Name() })
	return forms, nil
}

// Exclude returns forms without those matching any of globs (a glob that
// matches no form of the catalog is an error: a typo would otherwise
// exclude nothing, silently).
func Exclude(forms []*isa.Form, globs []string) ([]*isa.Form, error) {
	drop := map[string]bool{}
	for _, g := range globs {
		fs, err := isa.Match(g)
		if err != nil {
			return nil, err
		}
		if len(fs) == 0 {
			return nil, fmt.Errorf("--exclude %q: no form matches", g)
		}
		for _, f := range fs {
			drop[f.Name()] = true
		}
	}
	var out []*isa.Form
	for _, f := range forms {
		if !drop[f.Name()] {
			out = append(out, f)
		}
	}
	return out, nil
}

// benchID is the content key of a generated benchmark: its form, kind,
// operand pair and source.
func benchID(b *gen.Bench) string {
	return measure.ContentID(b.Kind+"|"+b.Operands+b.Addressing+"|"+formName(b), b.Snippet.Source, nil)
}

func formName(b *gen.Bench) string {
	if b.Form == nil {
		return ""
	}
	return b.Form.Name()
}

// measuredTimes are the forms' measured reciprocal throughputs and the
// latencies of chains through their destination registers, as a sweep
// collects them (mixes size their counts and register pools by them).
type measuredTimes struct {
	tp, lat map[string]float64
	ownPair map[string]bool    // lat holds the destination's own pair
	memLat  map[string]float64 // a read-modify-write form's chain through memory (mem->mem)
	destLat map[string]float64 // the stream over one destination register (gen.KindDestChain)
	seen    map[string]bool    // benchmark IDs noted
}

func newMeasuredTimes() *measuredTimes {
	return &measuredTimes{tp: map[string]float64{}, lat: map[string]float64{}, ownPair: map[string]bool{}, memLat: map[string]float64{}, destLat: map[string]float64{}, seen: map[string]bool{}}
}

// forMixes returns the times gen.MixNTimed sizes mixes by (nil before
// any latency was measured: register pools then split evenly).
func (t *measuredTimes) forMixes() gen.FormTimes {
	if len(t.lat) == 0 && len(t.memLat) == 0 {
		return nil
	}
	out := make(gen.FormTimes, len(t.tp))
	for f, v := range t.tp {
		out[f] = gen.FormTime{Latency: t.lat[f], Throughput: v, MemoryLatency: t.memLat[f], DestLatency: t.destLat[f]}
	}
	return out
}

// note takes the throughputs and latencies of results. A form's chain
// latency is its destination's own pair (0->0), else its shortest pair:
// not a memory operand's, which holds the load (8 cycles for crc32 r32,
// m16 against 3 through the register). Of a benchmark measured more than
// once only the first measurement counts: a sweep draws and sizes its
// mixes before its second chances, and a resumed sweep, reading them all
// back, must draw the same mixes (measured again otherwise, under another
// benchmark ID, while the ones already measured are left behind).
func (t *measuredTimes) note(bs []*results.Benchmark) {
	for _, b := range bs {
		x := b.Portlab
		if x == nil || b.Error != "" {
			continue
		}
		if x.ID != "" {
			if t.seen[x.ID] {
				continue
			}
			t.seen[x.ID] = true
		}
		switch x.Kind {
		case gen.KindThroughput:
			t.tp[x.Form] = x.Median
		case gen.KindDestChain:
			t.destLat[x.Form] = x.Median
		case gen.KindLatency:
			switch {
			case x.Operands == "mem->mem":
				t.memLat[x.Form] = x.Median
			case x.Operands == "0->0":
				t.lat[x.Form], t.ownPair[x.Form] = x.Median, true
			case t.ownPair[x.Form]:
			case t.lat[x.Form] == 0 || x.Median < t.lat[x.Form]:
				t.lat[x.Form] = x.Median
			}
		}
	}
}

// HostRuns reports whether a host with the features has runs a benchmark
// of a form it supports: the latency chains beside 512-bit work load zmm
// registers (AVX-512F), the zmm late-forwarding chain's vpmaddwd needs
// AVX512BW where vpaddd zmm needs only F, the mask-write streams'
// compare into a mask from xmm registers AVX512VL where korw needs only F,
// and a domain chain needs its partner's features (vpaddd ymm: AVX2,
// beside an AVX-only form).
func HostRuns(b *gen.Bench, has func(string) bool) bool {
	switch {
	case b.Kind == gen.KindLatency512:
		return has("avx512f")
	case b.Kind == gen.KindLateForward && strings.Contains(b.Form.Name(), "zmm"):
		return has("avx512bw")
	case b.Kind == gen.KindMaskWrites:
		return has("avx512vl") // vpcmpeqd k, xmm, xmm
	case b.Kind == gen.KindDomain:
		p := gen.DomainPartnerOf(b)
		if p == nil {
			return false
		}
		for _, feat := range p.Features {
			if !has(feat) {
				return false
			}
		}
	}
	return true
}

// Run sweeps the forms.
func Run(eng *measure.Engine, o Options) (*Summary, error) {
	start := time.Now()
	if o.BatchForms <= 0 {
		o.BatchForms = 128
	}
	if o.Measure.Group == 0 {
		o.Measure.Group = 8
	}
	forms := o.Forms
	if o.Shards > 1 {
		if o.Shard < 0 || o.Shard >= o.Shards {
			return nil, fmt.Errorf("shard %d/%d: want 0 <= i < n", o.Shard, o.Shards)
		}
		forms = ShardFormsByCost(forms, o.Shard, o.Shards, o.formCost)
	}
	if o.Has != nil {
		forms = supported(forms, o.Has)
	}
	sum := &Summary{Forms: len(forms)}
	done := map[string]bool{}
	rounds := map[string]int{} // the last memory round a result of the benchmark is from (resume)
	var prior []*results.Benchmark
	times := newMeasuredTimes() // for ports mode and mixes
	if o.Out != "" {
		if o.Resume {
			var err error
			prior, err = loadForResume(o.Out)
			if err != nil {
				return nil, err
			}
			if o.Lean {
				for _, b := range prior {
					b.Slim()
				}
			}
			// Mixes are sized by each benchmark's first measurement, in
			// file order (measuredTimes.note).
			times.note(prior)
			for _, b := range prior {
				if x := b.Portlab; x != nil && x.ID != "" {
					rounds[x.ID] = max(rounds[x.ID], x.Round, 1)
				}
			}
			// Of a benchmark measured more than once (a noisy result and
			// its re-measurement) only the cleanest counts from here on.
			prior = results.Cleanest(prior)
			// A benchmark whose cleanest result is noisy is measured
			// again: resuming finishes the work, noise included.
			for _, b := range prior {
				keep := o.KeepNoisy && (o.MeasureNoisyKind == "" || b.Portlab == nil || b.Portlab.Kind != o.MeasureNoisyKind)
				if b.Portlab != nil && b.Portlab.ID != "" && (keep || !b.Noisy()) {
					done[b.Portlab.ID] = true
				}
				if x := b.Portlab; x != nil && o.AgainKind != "" && x.Kind == o.AgainKind && rounds[x.ID] < o.AgainRound {
					done[x.ID] = false
				}
			}
		} else if _, err := os.Stat(o.Out); err == nil {
			return nil, fmt.Errorf("%s exists: use --resume to continue that sweep, or another -o", o.Out)
		}
	}
	w := &appender{path: o.Out, slim: o.Lean}

	total := len(forms)
	// A batch is generated one ahead of its measurement, so that the
	// engine can assemble it while it waits out the previous batch's
	// retries (warmer).
	build := func(lo int) (batch []*gen.Bench, out []*results.Benchmark) {
		hi := min(lo+o.BatchForms, len(forms))
		for _, f := range forms[lo:hi] {
			if why := gen.Unmeasurable(f); why != "" {
				id := measure.ContentID("unmeasurable|"+f.Name(), "", nil)
				if done[id] {
					sum.Skipped++
					continue
				}
				out = append(out, unmeasurable(f, why, id, o))
				sum.Unmeasurable++
				continue
			}
			bs, err := gen.Generate(f)
			if err != nil {
				out = append(out, genError(f, err, o))
				sum.Errors++
				sum.ErrorForms = append(sum.ErrorForms, f.Name())
				continue
			}
			for _, b := range bs {
				if !kindSelected(b.Kind, o.Latency, o.Throughput) {
					continue
				}
				if o.Has != nil && !HostRuns(b, o.Has) {
					continue
				}
				if id := benchID(b); done[id] {
					sum.Skipped++
					if keepsFastest(b) && rounds[id] < o.MemoryRounds {
						sum.late = append(sum.late, pending{bench: b, round: rounds[id] + 1})
					}
					continue
				}
				batch = append(batch, b)
			}
		}
		return batch, out
	}
	var batch []*gen.Bench
	var out []*results.Benchmark
	if len(forms) > 0 {
		batch, out = build(0)
	}
	// The helper round trips (latency chains across register classes
	// subtract half of them) are measured in the first batch's schedule,
	// and its results converted once they are known.
	helpers, helperTodo := priorHelpers(o, prior, sum)
	if len(forms) == 0 {
		if err := recordHelpers(o, helperTodo, measureRaw(eng, o, helperTodo, nil), helpers, w, sum); err != nil {
			return nil, err
		}
	}
	for lo := 0; lo < len(forms); lo += o.BatchForms {
		hi := min(lo+o.BatchForms, len(forms))
		var nextBatch []*gen.Bench
		var nextOut []*results.Benchmark
		if hi < len(forms) {
			nextBatch, nextOut = build(hi)
		}
		var pre []*gen.Bench
		if lo == 0 {
			pre = helperTodo
		}
		ms := measureRaw(eng, o, append(slices.Clip(pre), batch...), newWarmer(eng, o, nextBatch))
		if lo == 0 {
			if err := recordHelpers(o, helperTodo, ms[:len(pre)], helpers, w, sum); err != nil {
				return nil, err
			}
		}
		res := convert(o, batch, ms[len(pre):], helpers)
		sum.noteNoisy(batch, res, helpers)
		if o.MemoryRounds > 1 {
			for i, b := range batch {
				if keepsFastest(b) && res[i].Error == "" {
					sum.late = append(sum.late, pending{bench: b, round: 2})
				}
			}
		}
		for _, r := range res {
			if r.Error != "" {
				sum.Errors++
				sum.ErrorForms = append(sum.ErrorForms, r.Portlab.Form)
			}
		}
		times.note(res)
		annotateProperties(append(prior, res...), res)
		out = append(out, res...)
		sum.Benchmarks += len(res)
		if err := w.append(out); err != nil {
			return nil, err
		}
		sum.Results = append(sum.Results, out...)
		if o.Progress != nil {
			o.Progress(hi, total, forms[hi-1].Name())
		}
		if o.stopped() {
			return nil, ErrStopped
		}
		batch, out = nextBatch, nextOut
	}
	if o.Ports {
		if err := runPorts(eng, o, forms, times, done, w, sum); err != nil {
			return nil, err
		}
	}
	if o.RandomMixes > 0 {
		if err := runRandomMixes(eng, o, forms, times, done, w, sum); err != nil {
			return nil, err
		}
	}
	late := time.Now()
	if err := lateRounds(eng, o, prior, w, sum); err != nil {
		return nil, err
	}
	sum.LateRounds = time.Since(late)
	again := time.Now()
	if err := remeasureNoisy(eng, o, prior, w, sum, start); err != nil {
		return nil, err
	}
	sum.SecondChances = time.Since(again)
	sum.Elapsed = time.Since(start)
	sum.Engine = eng.Stats
	return sum, nil
}

// lateRounds measures the benchmarks in sum.late in the later memory
// rounds (Options.MemoryRounds), each round after the last, in chunks;
// every result is appended (Extra.Round), and a benchmark that converges
// in a later round is no longer noisy. No chunk starts past o.NoisyUntil.
func lateRounds(eng *measure.Engine, o Options, prior []*results.Benchmark, w *appender, sum *Summary) error {
	if len(sum.late) == 0 {
		return nil
	}
	converged := map[string]bool{}
rounds:
	for r := 2; r <= o.MemoryRounds; r++ {
		var todo []pending
		for _, p := range sum.late {
			if p.round <= r {
				todo = append(todo, p)
			}
		}
		what := fmt.Sprintf("memory forms: round %d of %d", r, o.MemoryRounds)
		if o.Progress != nil {
			o.Progress(0, len(todo), fmt.Sprintf("%s, %d benchmarks", what, len(todo)))
		}
		for lo := 0; lo < len(todo); lo += noisyChunk {
			if !o.NoisyUntil.IsZero() && time.Now().After(o.NoisyUntil) {
				break rounds
			}
			var benches []*gen.Bench
			for _, p := range todo[lo:min(lo+noisyChunk, len(todo))] {
				benches = append(benches, p.bench)
			}
			// Throughputs and store streams: no helper latency to subtract.
			out := measureBenches(eng, o, benches, nil, nil)
			for _, b := range out {
				b.Portlab.Round = r
				if b.Error == "" && !b.Noisy() {
					converged[b.Portlab.ID] = true
				}
			}
			annotateProperties(append(slices.Clip(prior), sum.Results...), out)
			sum.LateMeasured += len(out)
			sum.Results = append(sum.Results, out...)
			if err := w.append(out); err != nil {
				return err
			}
			if o.Progress != nil {
				o.Progress(lo+len(benches), len(todo), what)
			}
			if o.stopped() {
				return ErrStopped
			}
		}
	}
	sum.noisy = slices.DeleteFunc(sum.noisy, func(p pending) bool { return converged[benchID(p.bench)] })
	return nil
}

// noisyChunk is how many noisy benchmarks remeasureNoisy measures between
// progress reports.
const noisyChunk = 256

// remeasureNoisy gives the benchmarks whose results were noisy a second
// chance, minutes after the first: on this project's KVM guests a
// neighbour disturbs every repetition for seconds to minutes at a time,
// longer than the engine's own retries wait. Up to o.NoisyRounds rounds
// (default 2, and more within o.NoisyBudget: moreRounds), each after a
// pause of o.NoisyPause (default 2 s); new results are appended beside the
// old, and readers keep the cleanest of each (results.Cleanest). start is
// when the sweep began.
func remeasureNoisy(eng *measure.Engine, o Options, prior []*results.Benchmark, w *appender, sum *Summary, start time.Time) error {
	rounds, pause := o.NoisyRounds, o.NoisyPause
	budgeted := rounds == 0 && o.NoisyBudget > 0
	if rounds == 0 {
		rounds = 2
	}
	if pause <= 0 {
		pause = 2 * time.Second
	}
	var last time.Duration // the last round's time
	lastConverged := 1.0   // the share of its benchmarks it made converge
	for round := 0; len(sum.noisy) > 0; round++ {
		if round >= rounds && !(budgeted && moreRounds(round, time.Since(start), last, lastConverged, o.NoisyBudget)) {
			break
		}
		if !o.NoisyUntil.IsZero() && time.Now().Add(pause).After(o.NoisyUntil) {
			break // no round starts that its pause alone would take past NoisyUntil
		}
		todo := sum.noisy
		sum.noisy = nil
		began := time.Now()
		of := fmt.Sprint(rounds)
		if budgeted {
			of = fmt.Sprintf("%d or more", rounds)
		}
		if o.Progress != nil {
			o.Progress(0, len(todo), fmt.Sprintf("noisy results: measuring %d again (round %d of %s)", len(todo), round+1, of))
		}
		time.Sleep(pause)
		// The main pass's benchmarks subtract its helper latencies (one
		// map for the whole run); mixes subtract none. Measured in chunks,
		// each appended and reported as progress.
		done := 0
		for _, subtract := range []bool{true, false} {
			var batch []*gen.Bench
			var helpers map[string]float64
			for _, p := range todo {
				if (p.helpers != nil) == subtract {
					batch = append(batch, p.bench)
					helpers = p.helpers
				}
			}
			for lo := 0; lo < len(batch); lo += noisyChunk {
				chunk := batch[lo:min(lo+noisyChunk, len(batch))]
				res := measureBenches(eng, o, chunk, helpers, nil)
				sum.noteNoisy(chunk, res, helpers)
				annotateProperties(append(slices.Clip(prior), sum.Results...), res)
				sum.Remeasured += len(res)
				sum.Results = append(sum.Results, res...)
				if err := w.append(res); err != nil {
					return err
				}
				done += len(chunk)
				if o.Progress != nil {
					o.Progress(done, len(todo), fmt.Sprintf("noisy results measured again (round %d of %s)", round+1, of))
				}
				if o.stopped() {
					return ErrStopped
				}
				if !o.NoisyUntil.IsZero() && time.Now().After(o.NoisyUntil) {
					sum.StillNoisy = len(sum.noisy) + len(todo) - done
					return nil
				}
			}
		}
		last = time.Since(began)
		lastConverged = 1 - float64(len(sum.noisy))/float64(len(todo))
		sum.NoisyRoundsRun++
	}
	sum.StillNoisy = len(sum.noisy)
	return nil
}

// MaxNoisyRounds is the most rounds of second chances a sweep with a
// NoisyBudget gives its noisy results.
const MaxNoisyRounds = 6

// moreRounds decides whether a sweep with a budget gives its noisy
// results another round (round counts from 0): fewer than MaxNoisyRounds
// so far, the sweep's elapsed time and the next round, timed as the last
// one, within the budget, and the last round made at least a tenth of
// what it measured converge. On the Zen 3 guest with its neighbour
// disturbing 98 % of repetitions (2026-11-28) rounds 3 and 4 of two full
// sweeps took 50-59 s and converged 65-72 % of 1,310-1,395 noisy results,
// rounds 5 and 6 took 31-33 s and 28-40 % of the rest, and the two sweeps'
// agreement rose from 67.2 % of forms to 79.0 % and 81.0 %.
func moreRounds(round int, elapsed, last time.Duration, lastConverged float64, budget time.Duration) bool {
	return round < MaxNoisyRounds && elapsed+last <= budget && lastConverged >= 0.1
}

func baseResult(o Options, f *isa.Form, kind string) *results.Benchmark {
	name := ""
	if f != nil {
		name = f.Name()
	}
	return &results.Benchmark{
		Mode:       "latency",
		Key:        results.Key{Instructions: []string{}, RegisterInitialValues: []string{}},
		CPUName:    o.CPUName,
		LLVMTriple: "x86_64-unknown-linux-gnu",
		Portlab:    &results.Extra{Form: name, Kind: kind, Host: o.HostSig, HostInfo: o.HostInfo, Date: time.Now().UTC().Format(time.RFC3339)},
	}
}

func unmeasurable(f *isa.Form, why, id string, o Options) *results.Benchmark {
	b := baseResult(o, f, "unmeasurable")
	b.Portlab.ID = id
	b.Portlab.Unmeasurable = why
	b.Info = fmt.Sprintf("%s not measured: %s", f.Name(), why)
	return b
}

func genError(f *isa.Form, err error, o Options) *results.Benchmark {
	b := baseResult(o, f, "error")
	b.Error = err.Error()
	return b
}

// call is one set of a batch's snippets that share their options (the
// mode, and the passes vector throughputs get): one measure.Call.
type call struct {
	idx   []int // into the batch's benchmarks
	snips []*measure.Snippet
	opts  measure.Options
}

// calls splits a batch's benchmarks into engine calls, latency first.
func calls(o Options, benches []*gen.Bench) []call {
	type options struct {
		mode    string
		passes  int
		fastest int // 1: keep the fastest converged pass (an int, to order keys)
	}
	groups := map[options][]int{}
	for i, b := range benches {
		key := options{mode: b.Mode, passes: 1}
		switch {
		case keepsFastest(b):
			key.passes, key.fastest = max(1, o.MemoryPasses), 1
		case b.Mode != "inverse_throughput" || b.Kind != gen.KindThroughput || b.Form == nil:
		case vectorLoadOp(b):
			key.passes = max(1, o.LoadOpPasses)
		case isVector(b.Form):
			key.passes = max(1, o.VectorPasses)
		}
		groups[key] = append(groups[key], i)
	}
	// latency sorts before inverse_throughput: latency first.
	keys := slices.SortedFunc(maps.Keys(groups), func(a, b options) int {
		return cmp.Or(cmp.Compare(b.mode, a.mode), cmp.Compare(a.passes, b.passes), cmp.Compare(a.fastest, b.fastest))
	})
	var out []call
	for _, key := range keys {
		c := call{idx: groups[key], opts: o.Measure}
		c.opts.Mode, c.opts.Passes = key.mode, key.passes
		c.opts.FastestPass = key.fastest == 1 && key.passes > 1
		if key.passes > 1 {
			c.opts.MaxPasses = o.MaxPasses
		}
		for _, i := range c.idx {
			c.snips = append(c.snips, benches[i].Snippet)
		}
		out = append(out, c)
	}
	return out
}

// measureBenches measures generated benchmarks and converts them to results,
// subtracting helper latencies. next, when given, is the batch to measure
// after this one: it is assembled while the engine waits out retries'
// back-offs (measure.Options.Idle).
func measureBenches(eng *measure.Engine, o Options, benches []*gen.Bench, helpers map[string]float64, next *warmer) []*results.Benchmark {
	return convert(o, benches, measureRaw(eng, o, benches, next), helpers)
}

// convert turns measurements of benchmarks into results, subtracting
// helper latencies.
func convert(o Options, benches []*gen.Bench, ms []*measure.Measurement, helpers map[string]float64) []*results.Benchmark {
	var out []*results.Benchmark
	for i, b := range benches {
		out = append(out, toResult(b, ms[i], o, helpers))
	}
	return out
}

// measureRaw measures generated benchmarks in one schedule (see
// measureBenches).
func measureRaw(eng *measure.Engine, o Options, benches []*gen.Bench, next *warmer) []*measure.Measurement {
	if len(benches) == 0 {
		return nil
	}
	ms := make([]*measure.Measurement, len(benches))
	cs := calls(o, benches)
	mcs := make([]measure.Call, len(cs))
	for k, c := range cs {
		mcs[k] = measure.Call{Snippets: c.snips, Opts: c.opts}
	}
	if next != nil {
		mcs[0].Opts.Idle = next.idle
	}
	// One schedule for the batch: a retry of one call waits behind the
	// others' work, not alone at the end of each.
	for k, res := range eng.MeasureCalls(mcs, nil) {
		for j, m := range res {
			ms[cs[k].idx[j]] = m
		}
	}
	return ms
}

// A warmer assembles as many snippets at a time as fit in the wait left,
// at the cost per snippet its earlier chunks took: fewer runs of GNU as
// (a few milliseconds each to start) where waits are long, little overrun
// where they are short. At least warmMin, at most warmMax a run.
const (
	warmMin = 4
	warmMax = 64
)

// warmer assembles a batch ahead of its measurement, a chunk at a time, in
// the engine's idle moments (Engine.Warm): on a noisy host a sweep spends
// about as long waiting out retries' back-offs as assembling, and GNU as
// must not run beside a measurement (the second CPU may be the measuring
// one's SMT sibling).
type warmer struct {
	eng   *measure.Engine
	calls []call
	c, k  int           // the next snippet: calls[c].snips[k]
	cost  time.Duration // per snippet, from the chunks so far (0: none yet)
}

func newWarmer(eng *measure.Engine, o Options, benches []*gen.Bench) *warmer {
	if len(benches) == 0 {
		return nil
	}
	return &warmer{eng: eng, calls: calls(o, benches)}
}

// idle assembles chunks until the time given or the end of the batch.
func (w *warmer) idle(until time.Time) {
	for w.c < len(w.calls) {
		left := time.Until(until)
		if left <= 0 {
			return
		}
		n := warmMin
		if w.cost > 0 {
			n = min(max(int(left/w.cost), warmMin), warmMax)
		}
		c := w.calls[w.c]
		hi := min(w.k+n, len(c.snips))
		opts := c.opts
		opts.Idle = nil
		start := time.Now()
		w.eng.Warm(c.snips[w.k:hi], opts)
		w.cost = time.Since(start) / time.Duration(hi-w.k)
		w.k = hi
		if w.k == len(c.snips) {
			w.c, w.k = w.c+1, 0
		}
	}
}

// isVector reports whether a form has a vector, mask or MMX register
// operand.
func isVector(f *isa.Form) bool {
	if vector, _ := vectorOperands(f); vector {
		return true
	}
	for _, op := range f.Operands {
		if op.Kind == isa.KindK || op.Kind == isa.KindMM {
			return true
		}
	}
	return false
}

// vectorLoadOp reports whether b measures the throughput of a vector form
// that reads memory (the forms LoadOpPasses measures several times).
func vectorLoadOp(b *gen.Bench) bool {
	if b.Kind != gen.KindThroughput || b.Form == nil {
		return false
	}
	vector, _ := vectorOperands(b.Form)
	for _, op := range b.Form.Operands {
		if vector && op.Kind.IsMemory() && op.Kind != isa.KindM && op.Access&isa.Read != 0 {
			return true
		}
	}
	return false
}

// keepsFastest reports whether b is one of the benchmarks measured in
// MemoryPasses passes and MemoryRounds rounds whose fastest converged
// measurement is kept: the throughputs of integer forms that touch memory
// and the store-commit streams.
func keepsFastest(b *gen.Bench) bool {
	if b.Kind == gen.KindStoreCommit {
		return true
	}
	return b.Kind == gen.KindThroughput && b.Mode == "inverse_throughput" && b.Form != nil &&
		!vectorLoadOp(b) && !isVector(b.Form) && touchesMemory(b.Form)
}

// touchesMemory reports whether a form has a memory operand it reads or
// writes (not lea's address).
func touchesMemory(f *isa.Form) bool {
	for _, op := range f.Operands {
		if op.Kind.IsMemory() && op.Kind != isa.KindM && op.Access&(isa.Read|isa.Write|isa.CondWrite) != 0 {
			return true
		}
	}
	return false
}

func toResult(b *gen.Bench, m *measure.Measurement, o Options, helpers map[string]float64) *results.Benchmark {
	r := m.Benchmark(o.CPUName, o.HostSig)
	x := r.Portlab
	x.HostInfo = o.HostInfo
	x.ID = benchID(b)
	x.Form = formName(b)
	x.Kind = b.Kind
	x.Operands = b.Operands
	x.Addressing = b.Addressing
	x.Mix = b.Mix
	if keepsFastest(b) || b.Kind == gen.KindRandomMix {
		x.Keep = results.KeepFastest
	}
	if o.AgainKind != "" && b.Kind == o.AgainKind {
		x.Round = o.AgainRound
	}
	r.Info = b.Snippet.Info
	if m.Err != nil || b.Helper == "" {
		return r
	}
	sub := b.HelperFixed
	x.Helper = b.Helper
	if b.HelperKey != "" {
		rt, ok := helpers[b.HelperKey]
		if !ok {
			r.Error = fmt.Sprintf("helper %q was not calibrated", b.HelperKey)
			r.Measurements = nil
			return r
		}
		sub += rt / 2
		what := "half the measured round trip " + b.HelperKey
		if b.HelperFixed > 0 {
			what = fmt.Sprintf("%g and %s", b.HelperFixed, what)
		}
		x.Helper += fmt.Sprintf(" (assumed %.3f cycles: %s)", sub, what)
	}
	x.Subtracted = round(sub)
	for _, v := range r.Measurements {
		if v.Value < sub/2 {
			// Less than half of what the helpers alone take: the chain
			// does not hold. On the Zen 4 guest vpconflictd ymm, m32bcst,
			// its destination moved to the next load's index, ran 1.48
			// cycles a link, where the move and the and alone take 4.
			// A link a little below its helpers is not that: noise only
			// adds time, and a helper's calibration read slow makes a
			// near-free form's latency come out below 0 (read as 0).
			r.Error = fmt.Sprintf("the chain ran %.3f cycles a link, less than half the %.3f its helpers were assumed to take (%s): it does not hold", v.Value, sub, x.Helper)
			r.Measurements = nil
			return r
		}
	}
	for k := range r.Measurements {
		r.Measurements[k].Value = round(max(r.Measurements[k].Value-sub, 0))
		r.Measurements[k].PerSnippetValue = round(max(r.Measurements[k].PerSnippetValue-sub, 0))
	}
	x.Median, x.Min, x.Max = round(x.Median-sub), round(x.Min-sub), round(x.Max-sub)
	return r
}

func round(v float64) float64 { return math.Round(v*1e5) / 1e5 }

// priorHelpers returns the cross-class helper round trips a resumed file
// holds, and the helper benchmarks still to measure on this host.
func priorHelpers(o Options, prior []*results.Benchmark, sum *Summary) (map[string]float64, []*gen.Bench) {
	out := map[string]float64{}
	if !o.Latency {
		return out, nil
	}
	for _, b := range prior {
		if b.Portlab != nil && b.Portlab.Kind == gen.KindHelperRoundTrip && b.Error == "" && !b.Noisy() {
			out[b.Portlab.Operands] = b.Portlab.Median
		}
	}
	var todo []*gen.Bench
	hb := gen.HelperBenches()
	keys := make([]string, 0, len(hb))
	for k := range hb {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if _, ok := out[k]; ok {
			sum.Skipped++
			continue
		}
		if o.Has != nil && slices.ContainsFunc(gen.HelperFeatures[k], func(f string) bool { return !o.Has(f) }) {
			continue
		}
		todo = append(todo, hb[k])
	}
	return out, todo
}

// recordHelpers records the helper round trips (todo, measured as ms)
// into helpers and the sweep's file.
func recordHelpers(o Options, todo []*gen.Bench, ms []*measure.Measurement, helpers map[string]float64, w *appender, sum *Summary) error {
	res := convert(o, todo, ms, nil)
	for _, r := range res {
		if r.Error == "" {
			helpers[r.Portlab.Operands] = r.Portlab.Median
		}
	}
	if err := w.append(res); err != nil {
		return err
	}
	sum.Results = append(sum.Results, res...)
	return nil
}

// annotateProperties derives idiom and move-elimination properties from the
// idiom benchmarks of the forms in res and records them on every result of
// those forms.
func annotateProperties(all, res []*results.Benchmark) {
	type info struct{ tp, idiomLat, idiomTP, moveLat float64 }
	forms := map[string]*info{}
	get := func(f string) *info {
		if forms[f] == nil {
			forms[f] = &info{tp: -1, idiomLat: -1, idiomTP: -1, moveLat: -1}
		}
		return forms[f]
	}
	for _, b := range all {
		if b.Portlab == nil || b.Error != "" || len(b.Measurements) == 0 {
			continue
		}
		in := get(b.Portlab.Form)
		switch b.Portlab.Kind {
		case gen.KindThroughput:
			in.tp = b.Portlab.Median
		case gen.KindIdiomLatency:
			in.idiomLat = b.Portlab.Median
		case gen.KindIdiomTP:
			in.idiomTP = b.Portlab.Median
		case gen.KindMoveLatency:
			in.moveLat = b.Portlab.Median
		}
	}
	for _, b := range res {
		if b.Portlab == nil {
			continue
		}
		in := forms[b.Portlab.Form]
		if in == nil {
			continue
		}
		f, _ := isa.Lookup(b.Portlab.Form)
		var props []string
		if in.idiomLat >= 0 && in.idiomLat < 0.5 {
			props = append(props, "dependency-breaking")
			if in.tp > 0 && in.idiomTP >= 0 && in.idiomTP < 0.9*in.tp {
				if f != nil && strings.HasPrefix(strings.TrimPrefix(f.Mnemonic, "v"), "pcmpeq") {
					props = append(props, "ones-idiom")
				} else {
					props = append(props, "zero-idiom")
				}
			}
		}
		if in.moveLat >= 0 && in.moveLat < 0.5 {
			props = append(props, "move-eliminated")
		}
		b.Portlab.Props = props
	}
}

// appender appends complete result documents to the sweep's file, one
// write per batch (loadForResume drops a torn last document); with slim
// it then drops what only the file's readers need of them (Options.Lean).
type appender struct {
	path string
	slim bool
}

func (a *appender) append(bs []*results.Benchmark) error {
	if a.path == "" || len(bs) == 0 {
		return nil
	}
	if a.slim {
		defer func() {
			for _, b := range bs {
				b.Slim()
			}
		}()
	}
	data, err := results.Marshal(bs)
	if err != nil {
		return err
	}
	f, err := os.OpenFile(a.path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// loadForResume reads a results file for resuming, truncating a document
// torn by an interrupted write (everything after the last "...\n"). The
// file is read from its end for that, then parsed as a stream: it is
// never held whole in memory.
func loadForResume(path string) ([]*results.Benchmark, error) {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	keep, err := results.CompleteLength(f, st.Size())
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	if keep != st.Size() {
		if err := f.Truncate(keep); err != nil {
			return nil, err
		}
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return nil, err
	}
	return results.ParseReader(path, io.LimitReader(f, keep))
}

// WriteSummary prints a short account of a sweep.
func WriteSummary(w io.Writer, s *Summary) {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "%d forms, %d benchmarks measured in %v", s.Forms, s.Benchmarks, s.Elapsed.Round(time.Second))
	if s.Skipped > 0 {
		fmt.Fprintf(bw, ", %d already done", s.Skipped)
	}
	fmt.Fprintf(bw, ", %d unmeasurable (recorded with reasons), %d errors\n", s.Unmeasurable, s.Errors)
	if s.LateMeasured > 0 {
		fmt.Fprintf(bw, "%d results of memory forms measured again in later rounds (%v); the fastest converged of each kept\n", s.LateMeasured, s.LateRounds.Round(time.Second))
	}
	if s.Remeasured > 0 {
		fmt.Fprintf(bw, "%d noisy results measured again at the end (%v, %d rounds); %d still noisy (their warnings say so)\n", s.Remeasured, s.SecondChances.Round(time.Second), s.NoisyRoundsRun, s.StillNoisy)
	}
	if s.Engine.Jobs > 0 {
		fmt.Fprintf(bw, "%v\n", s.Engine)
	}
	bw.Flush()
}
