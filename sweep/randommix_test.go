package sweep

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"portlab/gen"
	"portlab/isa"
	"portlab/modeldb"
	"portlab/results"
)

func TestRandomMixes(t *testing.T) {
	var forms []*isa.Form
	tp := map[string]float64{}
	for i, n := range []string{"add r64, r64", "imul r64, r64", "vaddpd ymm, ymm, ymm", "vmulpd ymm, ymm, ymm",
		"mov r64, m64", "vpshufb ymm, ymm, ymm", "shl r64, imm8", "vdivpd ymm, ymm, ymm", "popcnt r64, r64", "hlt",
		"rep lodsq", "mov al, moffs64"} {
		f, ok := isa.Lookup(n)
		if !ok {
			t.Fatalf("%q not in the catalog", n)
		}
		forms = append(forms, f)
		if i != 8 { // popcnt: no measured throughput, never drawn
			tp[n] = 0.25 * float64(i+1)
		}
	}
	a := RandomMixes(forms, tp, nil, 50, 2, 4, 7, gen.KindRandomMix)
	b := RandomMixes(forms, tp, nil, 50, 2, 4, 7, gen.KindRandomMix)
	c := RandomMixes(forms, tp, nil, 50, 2, 4, 8, gen.KindRandomMix)
	if len(a) != 50 || len(b) != 50 {
		t.Fatalf("%d and %d mixes, want 50", len(a), len(b))
	}
	same := 0
	sizes := map[int]int{}
	sets := map[string]bool{}
	for i := range a {
		if benchID(a[i]) != benchID(b[i]) {
			t.Fatalf("mix %d differs between two draws with one seed", i)
		}
		if benchID(a[i]) == benchID(c[i]) {
			same++
		}
		if a[i].Kind != gen.KindRandomMix {
			t.Errorf("mix %d has kind %q", i, a[i].Kind)
		}
		sizes[len(a[i].Mix)]++
		var set []string
		for _, p := range a[i].Mix {
			set = append(set, p.Form)
		}
		slices.Sort(set)
		if key := strings.Join(set, "; "); sets[key] {
			t.Errorf("mix %d: the forms %s were drawn before (in another order: the same mix)", i, key)
		} else {
			sets[key] = true
		}
		seen := map[string]bool{}
		for _, p := range a[i].Mix {
			if seen[p.Form] || p.Form == "popcnt r64, r64" || p.Form == "hlt" || p.Form == "rep lodsq" || p.Form == "mov al, moffs64" {
				t.Errorf("mix %d: %v (repeated, unmeasured or unmeasurable form, or one that addresses memory on its own)", i, a[i].Mix)
			}
			seen[p.Form] = true
		}
	}
	if same == len(a) {
		t.Error("another seed drew the same mixes")
	}
	if sizes[2] == 0 || sizes[3] == 0 || sizes[4] == 0 || sizes[2]+sizes[3]+sizes[4] != 50 {
		t.Errorf("mix sizes %v, want 2, 3 and 4 forms", sizes)
	}
	// Legacy-SSE and VEX vector forms never share a mix; non-temporal
	// stores and microcoded forms are never drawn.
	var vforms []*isa.Form
	vtp := map[string]float64{}
	for _, n := range []string{"addps xmm, xmm", "mulps xmm, xmm", "vaddps ymm, ymm, ymm", "vmulps ymm, ymm, ymm", "add r64, r64", "imul r64, r64", "movntps m128, xmm", "cpuid"} {
		f, ok := isa.Lookup(n)
		if !ok {
			t.Fatalf("%q not in the catalog", n)
		}
		vforms = append(vforms, f)
		vtp[n] = 0.5
	}
	vtp["cpuid"] = 100
	for _, b := range RandomMixes(vforms, vtp, nil, 60, 2, 4, 11, gen.KindRandomMix) {
		legacy, avx := false, false
		for _, p := range b.Mix {
			f, _ := isa.Lookup(p.Form)
			switch vectorEncoding(f) {
			case vectorLegacy:
				legacy = true
			case vectorAVX:
				avx = true
			}
			if p.Form == "movntps m128, xmm" || p.Form == "cpuid" {
				t.Errorf("drew %q: %v", p.Form, b.Mix)
			}
		}
		if legacy && avx {
			t.Errorf("a mix of legacy-SSE and VEX forms: %v", b.Mix)
		}
	}
	if gen.KindRandomMix != modeldb.RandomMixKind {
		t.Errorf("gen says %q, modeldb reads %q", gen.KindRandomMix, modeldb.RandomMixKind)
	}
}

func TestVectorLoadOp(t *testing.T) {
	for name, want := range map[string]bool{
		"vfmadd231ps zmm, zmm, m32bcst": true,
		"vaddpd ymm, ymm, m256":         true,
		"addps xmm, m128":               true,
		"vmovups ymm, m256":             true,
		"vmovups m256, ymm":             false, // a store
		"vaddpd ymm, ymm, ymm":          false,
		"add r64, m64":                  false,
		"lea r64, m":                    false,
	} {
		f, ok := isa.Lookup(name)
		if !ok {
			t.Fatalf("%q not in the catalog", name)
		}
		b, err := gen.Throughput(f)
		if err != nil {
			t.Fatal(err)
		}
		if got := vectorLoadOp(b); got != want {
			t.Errorf("vectorLoadOp(%q) = %v, want %v", name, got, want)
		}
	}
}

// TestRunRandomMixes measures random mixes in a sweep: they come after the
// throughputs they are drawn from, carry their kind and parts, and a
// resumed run with the same seed measures nothing again.
func TestRunRandomMixes(t *testing.T) {
	e, h := hostEngine(t)
	forms, err := Select([]string{"add r64, r64", "imul r64, r64", "shl r64, imm8", "mov r64, m64"}, h.Has)
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "mixes.yaml")
	o := options(h)
	o.Forms, o.Throughput, o.Latency, o.RandomMixes, o.MixSeed, o.Out = forms, true, false, 5, 3, out
	sum, err := Run(e, o)
	if err != nil {
		t.Fatal(err)
	}
	// A busy neighbour makes some noisy: the sweep measures those again
	// and keeps both, so count benchmarks, not results.
	mixes := 0
	for _, b := range results.Cleanest(sum.Results) {
		if b.Portlab.Kind != gen.KindRandomMix {
			continue
		}
		mixes++
		if b.Error != "" || len(b.Portlab.Mix) < 2 || b.Portlab.Median <= 0 {
			t.Errorf("mix %v: error %q, median %v", b.Portlab.Mix, b.Error, b.Portlab.Median)
		}
	}
	if mixes != 5 {
		t.Fatalf("%d random mixes measured, want 5", mixes)
	}
	// Resuming measures again only what stayed noisy (a busy neighbour).
	prior, err := results.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	noisy := 0
	for _, b := range results.Cleanest(prior) {
		if b.Noisy() {
			noisy++
		}
	}
	o.Resume = true
	sum, err = Run(e, o)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Benchmarks != noisy {
		t.Errorf("the resumed run measured %d benchmarks again, want the %d noisy ones", sum.Benchmarks, noisy)
	}

	// The same draw as a training set: kind fit-mix, which model build
	// fits and model eval --mixes random leaves alone.
	o.FitMixes, o.MixSeed, o.RandomMixes = true, 4, 3
	sum, err = Run(e, o)
	if err != nil {
		t.Fatal(err)
	}
	fit := 0
	for _, b := range results.Cleanest(sum.Results) {
		if b.Portlab.Kind == gen.KindFitMix && len(b.Portlab.Mix) >= 2 && b.Error == "" {
			fit++
		}
	}
	if fit != 3 {
		t.Errorf("%d fit mixes measured, want 3", fit)
	}
	all, err := results.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	ms := modeldb.CollectMeasurements(results.Cleanest(all), modeldb.CollectOptions{})
	random := 0
	for _, mx := range ms.Mixes {
		if mx.Random {
			random++
		}
	}
	// A fit mix of the same forms as a validation mix is not fitted (four
	// forms make only eleven sets, so the two draws may share some).
	shared := 0
	for _, why := range ms.Skipped {
		var n int
		if _, err := fmt.Sscanf(why, "%d fit-mix results equal to a random-mix", &n); err == nil {
			shared = n
		}
	}
	if random+shared != 3 || random == 0 || len(ms.RandomMixes) != 5 {
		t.Errorf("collected %d fit mixes (%d more equal to validation mixes) and %d validation mixes, want 3 in all and 5", random, shared, len(ms.RandomMixes))
	}
}

// TestLoadOpPasses: with LoadOpPasses a sweep measures the throughput of
// vector load-op forms in that many passes, with VectorPasses the other
// vector (and mask-register) forms' throughputs, with MemoryPasses the
// integer forms' that touch memory (the fastest converged pass kept), and
// nothing else.
func TestLoadOpPasses(t *testing.T) {
	e, h := hostEngine(t)
	forms, err := Select([]string{"vaddps xmm, xmm, m128", "vaddps xmm, xmm, xmm", "kandw k, k, k", "add r64, r64", "add r64, m64", "mov m64, r64"}, h.Has)
	if err != nil {
		t.Fatal(err)
	}
	o := options(h)
	o.Forms, o.LoadOpPasses, o.VectorPasses, o.MemoryPasses = forms, 3, 2, 2
	// Forms measured in passes whose passes disagree at all get up to 5.
	o.MaxPasses, o.Measure.PassSpread = 5, 1e-12
	sum, err := Run(e, o)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, b := range sum.Results {
		x := b.Portlab
		want := 0
		if x.Kind == gen.KindThroughput {
			switch x.Form {
			case "vaddps xmm, xmm, m128":
				want = 3
			case "vaddps xmm, xmm, xmm", "kandw k, k, k", "add r64, m64", "mov m64, r64":
				want = 2
			}
			seen[x.Form] = true
		}
		if x.Kind == gen.KindStoreCommit {
			want = 2 // as the memory forms: the fastest converged pass kept
			seen[x.Kind+" "+x.Operands] = true
		}
		n := len(x.PassMedians)
		switch {
		case want == 0 && n == 0, want > 0 && n == 5:
		case want > 0 && n == want && slices.Min(x.PassMedians) == slices.Max(x.PassMedians):
		default:
			t.Errorf("%s %s %s: %d pass values %v, want %d (5 where they disagree)", x.Form, x.Kind, x.Operands, n, x.PassMedians, want)
		}
		if (x.Form == "add r64, m64" && x.Kind == gen.KindThroughput || x.Kind == gen.KindStoreCommit) && x.Converged != nil && *x.Converged && n > 0 {
			// The kept pass is a converged one, none of which was faster.
			if x.Median < slices.Min(x.PassMedians)-1e-4 || x.Median > slices.Max(x.PassMedians)+1e-4 {
				t.Errorf("%s %s: kept %v outside its passes %v", x.Form, x.Kind, x.Median, x.PassMedians)
			}
		}
	}
	for _, f := range forms {
		if !seen[f.Name()] {
			t.Errorf("no throughput result for %s", f.Name())
		}
	}
	for _, c := range []string{gen.StoreCommitSameLine, gen.StoreCommitLinesApart, "lines-apart-8"} {
		if !seen[gen.KindStoreCommit+" "+c] {
			t.Errorf("no %s stream", c)
		}
	}
}

// A random-mix sweep that cannot draw a mix says why instead of measuring
// nothing.
func TestRunRandomMixesNothingToDraw(t *testing.T) {
	e, h := hostEngine(t)
	forms, err := Select([]string{"movntps m128, xmm"}, h.Has)
	if err != nil {
		t.Fatal(err)
	}
	o := options(h)
	o.Forms, o.Latency, o.RandomMixes = forms, false, 5
	if _, err := Run(e, o); err == nil || !strings.Contains(err.Error(), "no mix of 2-4 forms can be drawn from the 1 selected forms") {
		t.Errorf("err = %v", err)
	}
}

// A form's chain latency for sizing a mix's register pools is the one
// through its destination (0->0), not a memory operand's (which holds the
// load), whatever order the results come in.
func TestMeasuredTimesChainLatency(t *testing.T) {
	res := func(form, kind, pair string, v float64) *results.Benchmark {
		return &results.Benchmark{Portlab: &results.Extra{Form: form, Kind: kind, Operands: pair, Median: v}}
	}
	for _, order := range [][]int{{0, 1, 2, 3, 4}, {4, 3, 2, 1, 0}} {
		all := []*results.Benchmark{
			res("crc32 r32, m16", gen.KindLatency, "1->0", 8),
			res("crc32 r32, m16", gen.KindLatency, "0->0", 3),
			res("crc32 r32, m16", gen.KindThroughput, "", 1),
			res("mov r16, m16", gen.KindLatency, "1->0", 5),
			res("mov r16, m16", gen.KindLatency, "mem->0", 6),
		}
		var bs []*results.Benchmark
		for _, i := range order {
			bs = append(bs, all[i])
		}
		times := newMeasuredTimes()
		times.note(bs)
		if got := times.lat["crc32 r32, m16"]; got != 3 {
			t.Errorf("order %v: crc32 r32, m16 chain latency %v, want 3 (0->0)", order, got)
		}
		if got := times.lat["mov r16, m16"]; got != 5 {
			t.Errorf("order %v: mov r16, m16 chain latency %v, want the shortest pair, 5", order, got)
		}
		if times.tp["crc32 r32, m16"] != 1 {
			t.Errorf("order %v: throughput %v", order, times.tp["crc32 r32, m16"])
		}
	}
}

// Of a benchmark measured more than once (a second chance, a resumed
// sweep's re-measurement) the first measurement sizes mixes, so that a
// resumed sweep draws the mixes the interrupted one drew.
func TestMeasuredTimesKeepTheFirstMeasurement(t *testing.T) {
	tp := func(id string, v float64) *results.Benchmark {
		return &results.Benchmark{Portlab: &results.Extra{ID: id, Form: "imul r64, r64", Kind: gen.KindThroughput, Median: v}}
	}
	times := newMeasuredTimes()
	times.note([]*results.Benchmark{tp("a", 1.08)})
	times.note([]*results.Benchmark{tp("a", 1.00)}) // the same benchmark again
	if got := times.tp["imul r64, r64"]; got != 1.08 {
		t.Errorf("throughput %v after a second measurement, want the first, 1.08", got)
	}
	times.note([]*results.Benchmark{tp("b", 1.00)}) // another benchmark of the form
	if got := times.tp["imul r64, r64"]; got != 1.00 {
		t.Errorf("throughput %v after another benchmark, want 1.00", got)
	}
}

// A resumed sweep that keeps noisy results (KeepNoisy) measures the
// noisy results of MeasureNoisyKind again all the same, and no others:
// characterize judges its model by a validation draw measured again by
// the sweep's rule where the looser rule left it noisy.
func TestResumeMeasuresTheNoisyKindAgain(t *testing.T) {
	e, h := hostEngine(t)
	forms, err := Select([]string{"add r64, r64", "imul r64, r64", "shl r64, imm8"}, h.Has)
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "mixes.yaml")
	o := options(h)
	o.Forms, o.Throughput, o.Latency, o.RandomMixes, o.MixSeed, o.Out = forms, true, false, 3, 5, out
	o.NoisyRounds = -1
	if _, err := Run(e, o); err != nil {
		t.Fatal(err)
	}
	// Every result noisy, as a busy neighbour can leave them.
	prior, err := results.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	no := false
	mixes := map[string]bool{}
	for _, b := range prior {
		b.Portlab.Converged = &no
		if b.Portlab.Kind == gen.KindRandomMix {
			mixes[b.Portlab.ID] = true
		}
	}
	if len(mixes) != 3 {
		t.Fatalf("%d random mixes measured, want 3", len(mixes))
	}
	if err := results.WriteFile(out, prior); err != nil {
		t.Fatal(err)
	}
	o.Resume, o.KeepNoisy = true, true
	sum, err := Run(e, o)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Benchmarks != 0 {
		t.Errorf("KeepNoisy alone: %d benchmarks measured again, want none", sum.Benchmarks)
	}
	o.MeasureNoisyKind = gen.KindRandomMix
	sum, err = Run(e, o)
	if err != nil {
		t.Fatal(err)
	}
	again := map[string]bool{}
	for _, b := range sum.Results {
		if b.Portlab.Kind != gen.KindRandomMix || !mixes[b.Portlab.ID] {
			t.Errorf("measured again: %s %q (%s), want only the three random mixes", b.Portlab.Kind, b.Portlab.Form, b.Portlab.ID)
		}
		again[b.Portlab.ID] = true
	}
	if sum.Benchmarks != 3 || len(again) != 3 {
		t.Errorf("%d benchmarks (%d random mixes) measured again, want the 3 noisy random mixes", sum.Benchmarks, len(again))
	}
}

// The memory forms' throughputs and the store-commit streams get later
// rounds at the end of the sweep (MemoryRounds), appended as round 2 and
// marked to keep the fastest converged; other benchmarks get none. A sweep
// resumed with more rounds measures only the rounds it lacks.
func TestMemoryRounds(t *testing.T) {
	e, h := hostEngine(t)
	forms, err := Select([]string{"add r64, m64", "mov m64, r64", "add r64, r64"}, h.Has)
	if err != nil {
		t.Fatal(err)
	}
	o := options(h)
	o.Forms, o.Latency, o.MemoryPasses, o.KeepNoisy = forms, false, 1, true
	o.Out = filepath.Join(t.TempDir(), "r.yaml")
	o.NoisyRounds = -1
	sum, err := Run(e, o)
	if err != nil {
		t.Fatal(err)
	}
	if sum.LateMeasured != 0 || sum.Benchmarks == 0 {
		t.Fatalf("one round: %d benchmarks, %d results in later rounds", sum.Benchmarks, sum.LateMeasured)
	}
	t.Logf("one round: %d benchmarks", sum.Benchmarks)
	fastest := map[string]bool{} // benchmark IDs that keep the fastest
	for _, r := range sum.Results {
		x := r.Portlab
		want := x.Kind == gen.KindStoreCommit || x.Kind == gen.KindThroughput && x.Form != "add r64, r64"
		if (x.Keep == results.KeepFastest) != want {
			t.Errorf("%s %s %s: keep %q", x.Form, x.Kind, x.Operands, x.Keep)
		}
		if want {
			fastest[x.ID] = true
		}
	}
	// mov m64, r64 and add r64, m64 (their throughputs in every addressing
	// the generator measures) and the two store-commit streams.
	if len(fastest) < 4 {
		t.Fatalf("%d benchmarks keep the fastest, want at least 4", len(fastest))
	}
	o.Resume, o.MemoryRounds = true, 2
	sum, err = Run(e, o)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Benchmarks != 0 || sum.LateMeasured != len(fastest) {
		t.Errorf("resumed with two rounds: %d benchmarks measured, %d in the later round; want 0 and %d", sum.Benchmarks, sum.LateMeasured, len(fastest))
	}
	for _, r := range sum.Results {
		if x := r.Portlab; !fastest[x.ID] || x.Round != 2 || x.Keep != results.KeepFastest {
			t.Errorf("later round: %s %s %s round %d keep %q", x.Form, x.Kind, x.Operands, x.Round, x.Keep)
		}
	}
	all, err := results.ReadFile(o.Out)
	if err != nil {
		t.Fatal(err)
	}
	byID := map[string][]*results.Benchmark{}
	for _, r := range all {
		byID[r.Portlab.ID] = append(byID[r.Portlab.ID], r)
	}
	for _, kept := range results.Cleanest(all) {
		rs := byID[kept.Portlab.ID]
		if !fastest[kept.Portlab.ID] {
			continue
		}
		if len(rs) != 2 {
			t.Errorf("%s %s: %d results in the file, want 2", kept.Portlab.Form, kept.Portlab.Kind, len(rs))
		}
		// The kept one is the faster of the converged ones.
		for _, r := range rs {
			if !r.Noisy() && !kept.Noisy() && r.Portlab.Median < kept.Portlab.Median {
				t.Errorf("%s %s: kept %.4f over the converged %.4f", kept.Portlab.Form, kept.Portlab.Kind, kept.Portlab.Median, r.Portlab.Median)
			}
		}
	}
	// Resumed once more: nothing left to measure.
	sum, err = Run(e, o)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Benchmarks != 0 || sum.LateMeasured != 0 {
		t.Errorf("resumed a finished sweep: %d benchmarks, %d in later rounds", sum.Benchmarks, sum.LateMeasured)
	}
}

// A form's stream over one destination (gen.KindDestChain) reaches the
// times mixes are sized by.
func TestMeasuredTimesCarryTheDestinationChain(t *testing.T) {
	res := func(id, kind string, v float64) *results.Benchmark {
		return &results.Benchmark{Portlab: &results.Extra{ID: id, Form: "vexpandpd ymm, ymm", Kind: kind, Operands: "1->0", Median: v}}
	}
	times := newMeasuredTimes()
	times.note([]*results.Benchmark{res("l", gen.KindLatency, 4), res("t", gen.KindThroughput, 0.667), res("d", gen.KindDestChain, 4.0)})
	got := times.forMixes()["vexpandpd ymm, ymm"]
	if got.DestLatency != 4 || got.Throughput != 0.667 || got.Latency != 4 {
		t.Errorf("times %+v, want latency 4, throughput 0.667, destination chain 4", got)
	}
}
