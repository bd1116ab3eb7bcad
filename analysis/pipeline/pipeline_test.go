package pipeline

import (
	"testing"
)

// skl is a Skylake-like core: ports 0-7, 4 ALUs on 0156, dispatch 6.
func skl() Config {
	return Config{
		Units:         []string{"0", "1", "2", "3", "4", "5", "6", "7"},
		DispatchWidth: 6,
		ROBSize:       224,
		Schedulers:    []Buffer{{Name: "RS", Units: 0xff, Size: 60}},
		NumRegs:       16,
	}
}

const p0156 = 1<<0 | 1<<1 | 1<<5 | 1<<6

func alu(dst, src int) *InstrDesc {
	d := &InstrDesc{Uops: 1, Latency: 1, Uses: []Use{{Units: p0156, Ticks: Scale}}}
	d.Writes = []Write{{Reg: dst, Latency: 1}}
	d.Reads = []Read{{Reg: dst}}
	if src >= 0 {
		d.Reads = append(d.Reads, Read{Reg: src})
	}
	return d
}

func run(t *testing.T, cfg Config, block []*InstrDesc, iters int, ls ...Listener) Result {
	t.Helper()
	p, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range ls {
		p.AddListener(l)
	}
	r, err := p.Run(block, iters)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestChain(t *testing.T) {
	// add $1, %rax: each iteration waits for the previous one. Iteration
	// k issues at 1+k, the last (k=99) at 100, executes at 101 and
	// retires at 102: 103 cycles (llvm-mca -mcpu=skylake says 103).
	if r := run(t, skl(), []*InstrDesc{alu(0, -1)}, 100); r.Cycles != 103 {
		t.Errorf("chain: %d cycles, want 103", r.Cycles)
	}
}

func TestFourALUs(t *testing.T) {
	// Five independent adds a cycle on four ALUs: 500 uops at 4 a cycle
	// issue in cycles 1..125, the last executes at 126, retires at 127:
	// 128 cycles (llvm-mca -mcpu=skylake says 128).
	var b []*InstrDesc
	for i := 0; i < 5; i++ {
		b = append(b, alu(i, -1))
	}
	if r := run(t, skl(), b, 100); r.Cycles != 128 {
		t.Errorf("5 adds: %d cycles, want 128", r.Cycles)
	}
}

type recorder struct {
	NopListener
	ev []InstrEvent
}

func (r *recorder) InstrEvent(e *InstrEvent) { r.ev = append(r.ev, *e) }

func TestEventsOrder(t *testing.T) {
	rec := &recorder{}
	run(t, skl(), []*InstrDesc{alu(0, -1)}, 2, rec)
	// Iteration 0: D0, pending+ready at 0, issued 1, executed 2, retired 3.
	want := map[InstrEventKind][2]int{Dispatched: {0, 0}, Issued: {1, 2}, Executed: {2, 3}, Retired: {3, 4}}
	got := map[InstrEventKind][2]int{}
	for _, e := range rec.ev {
		v := got[e.Kind]
		v[e.Inst.Iteration] = e.Cycle
		got[e.Kind] = v
	}
	for k, w := range want {
		if got[k] != w {
			t.Errorf("%v: cycles %v, want %v", k, got[k], w)
		}
	}
}

type stalls struct {
	NopListener
	n [NumStallKinds]int
}

func (s *stalls) StallEvent(e *StallEvent) { s.n[e.Kind]++ }

func TestRegisterFileStall(t *testing.T) {
	// Two physical registers for an add chain: an add holds its register
	// until it retires. Adds 2m and 2m+1 dispatch at 3m and 3m+1 (when the
	// adds two before retire) and retire at 3m+3 and 3m+4: add 9 retires at
	// 16, 17 cycles in all.
	cfg := skl()
	cfg.TotalRegisters = 2
	st := &stalls{}
	if r := run(t, cfg, []*InstrDesc{alu(0, -1)}, 10, st); r.Cycles != 17 {
		t.Errorf("%d cycles, want 17", r.Cycles)
	}
	if st.n[StallRegisterFile] == 0 {
		t.Errorf("no register file stalls reported")
	}
}

func TestLoadQueueStall(t *testing.T) {
	// One load queue entry, held until retirement: load k dispatches when
	// load k-1 retires (6k), issues at 6k+1, executes at 6k+5, retires at
	// 6k+6: three loads take 19 cycles.
	cfg := skl()
	cfg.LoadQueue = 1
	ld := &InstrDesc{Uops: 1, Latency: 4, Uses: []Use{{Units: 1<<2 | 1<<3, Ticks: Scale}}, MayLoad: true,
		Writes: []Write{{Reg: 1, Latency: 4}}}
	st := &stalls{}
	if r := run(t, cfg, []*InstrDesc{ld}, 3, st); r.Cycles != 19 {
		t.Errorf("%d cycles, want 19", r.Cycles)
	}
	if st.n[StallLoadQueue] == 0 {
		t.Errorf("no load queue stalls reported")
	}
}

func TestSchedulerStall(t *testing.T) {
	// A one-entry scheduler: an instruction dispatches in the cycle the
	// one before it issues, so instruction j dispatches at j, issues at
	// j+1 and retires at j+3; 20 instructions take 23 cycles.
	cfg := skl()
	cfg.Schedulers = []Buffer{{Name: "one", Units: 0xff, Size: 1}}
	st := &stalls{}
	if r := run(t, cfg, []*InstrDesc{alu(0, -1), alu(1, -1)}, 10, st); r.Cycles != 23 {
		t.Errorf("%d cycles, want 23", r.Cycles)
	}
	if st.n[StallScheduler] == 0 {
		t.Errorf("no scheduler stalls reported")
	}
}

func TestWideInstructionDispatch(t *testing.T) {
	// Six uOps through a dispatch width of 4: dispatched in two events, 4
	// and 2 uOps, in consecutive cycles.
	wide := &InstrDesc{Uops: 6, Latency: 1, Uses: []Use{{Units: 1, Ticks: Scale}}}
	rec := &recorder{}
	cfg := skl()
	cfg.DispatchWidth = 4
	run(t, cfg, []*InstrDesc{wide}, 1, rec)
	var parts []int
	for _, e := range rec.ev {
		if e.Kind == Dispatched {
			parts = append(parts, e.Uops, e.Cycle)
		}
	}
	if len(parts) != 4 || parts[0] != 4 || parts[1] != 0 || parts[2] != 2 || parts[3] != 1 {
		t.Errorf("dispatch events (uops, cycle): %v, want [4 0 2 1]", parts)
	}
}

func TestFractionalPortUse(t *testing.T) {
	// Half-cycle uses share a port: two issue a cycle on one port.
	half := &InstrDesc{Uops: 1, Latency: 1, Uses: []Use{{Units: 1, Ticks: Scale / 2}}}
	var b []*InstrDesc
	for i := 0; i < 4; i++ {
		b = append(b, half)
	}
	// 400 instructions, two a cycle on port 0 from cycle 1: the last two
	// issue at 200, execute at 201, retire at 202: 203 cycles.
	if r := run(t, skl(), b, 100); r.Cycles != 203 {
		t.Errorf("%d cycles, want 203", r.Cycles)
	}
}

func TestMoveEliminationLimit(t *testing.T) {
	// A move per instruction, at most one eliminated a cycle: of the four
	// dispatched each cycle one is eliminated, the other three execute.
	mv := &InstrDesc{Uops: 1, Latency: 1, Uses: []Use{{Units: p0156, Ticks: Scale}}, OptimizableMove: true,
		Reads: []Read{{Reg: 1}}, Writes: []Write{{Reg: 2, Latency: 1}}}
	cfg := skl()
	cfg.DispatchWidth = 4
	cfg.MaxMovesEliminated = 1
	rec := &recorder{}
	run(t, cfg, []*InstrDesc{mv}, 8, rec)
	elim := 0
	for _, e := range rec.ev {
		if e.Kind == Dispatched && e.Eliminated {
			elim++
		}
	}
	if elim != 2 {
		t.Errorf("%d moves eliminated in 2 dispatch cycles, want 2", elim)
	}
}

// TestStoreCommit: stores on two store-data ports retire two a cycle
// when consecutive ones share a line and one a cycle otherwise (Golden
// Cove's commit, measured on the Granite Rapids guest); a line that
// advances with the iteration pairs a store with the next iteration's.
func TestStoreCommit(t *testing.T) {
	store := func(line StoreLine) *InstrDesc {
		return &InstrDesc{Uops: 1, Latency: 1, Uses: []Use{{Units: 1<<4 | 1<<7, Ticks: Scale}}, MayStore: true, Line: line}
	}
	cfg := skl()
	cfg.NoAlias = true
	cfg.StoreCommit = StoreCommit{LinesPerCycle: 1, StoresPerLine: 2}
	block := func(line func(i int) StoreLine) []*InstrDesc {
		var b []*InstrDesc
		for i := 0; i < 8; i++ {
			b = append(b, store(line(i)))
		}
		return b
	}
	unlimited := skl()
	unlimited.NoAlias = true
	const iters = 200
	for _, c := range []struct {
		name  string
		cfg   Config
		block []*InstrDesc
		perIt float64
	}{
		{"8 bytes apart, one line", cfg, block(func(i int) StoreLine { return StoreLine{Known: true, Offset: int64(8 * i)} }), 4},
		{"64 bytes apart", cfg, block(func(i int) StoreLine { return StoreLine{Known: true, Offset: int64(64 * i)} }), 8},
		{"two regions, alternating", cfg, block(func(i int) StoreLine { return StoreLine{Known: true, Region: i % 2} }), 8},
		{"unknown lines", cfg, block(func(i int) StoreLine { return StoreLine{} }), 8},
		{"no commit limit", unlimited, block(func(i int) StoreLine { return StoreLine{Known: true, Offset: int64(64 * i)} }), 4},
		// One 32-byte store an iteration, the pointer advancing 32: two
		// iterations fill a line.
		{"advancing", cfg, []*InstrDesc{store(StoreLine{Known: true, Stride: 32})}, 0.5},
		// Stores that cross into the next line write both on their own
		// (the Zen 3 guest: four 32-byte stores 48 bytes into
		// consecutive lines, 8.00 cycles a copy).
		{"8 split stores", cfg, block(func(i int) StoreLine { return StoreLine{Known: true, Offset: int64(64*i + 48), Bytes: 32} }), 16},
		{"8 stores within lines", cfg, block(func(i int) StoreLine { return StoreLine{Known: true, Offset: int64(64*i + 32), Bytes: 32} }), 8},
		{"a store split every other iteration", cfg, []*InstrDesc{store(StoreLine{Known: true, Offset: 4, Stride: 32, Bytes: 32})}, 1.5},
	} {
		r := run(t, c.cfg, c.block, iters)
		if got := float64(r.Cycles) / iters; got < c.perIt || got > c.perIt*1.05+0.05 {
			t.Errorf("%s: %.2f cycles an iteration, want %.2f", c.name, got, c.perIt)
		}
	}
	bad := cfg
	bad.StoreCommit = StoreCommit{LinesPerCycle: 1}
	if _, err := New(bad); err == nil {
		t.Error("a store commit of 1 line a cycle and 0 stores a line was accepted")
	}
}

// TestStoreCommitCyclesPerIteration: the static count of the same rule.
func TestStoreCommitCyclesPerIteration(t *testing.T) {
	gc := StoreCommit{LinesPerCycle: 1, StoresPerLine: 2}
	at := func(offsets ...int64) []StoreLine {
		var out []StoreLine
		for _, o := range offsets {
			out = append(out, StoreLine{Known: true, Offset: o})
		}
		return out
	}
	for _, c := range []struct {
		name  string
		sc    StoreCommit
		lines []StoreLine
		want  float64
	}{
		{"8 to one line", gc, at(0, 8, 16, 24, 32, 40, 48, 56), 4},
		{"8 a line apart", gc, at(0, 64, 128, 192, 256, 320, 384, 448), 8},
		{"runs of 3, 2, 1", gc, at(0, 8, 16, 64, 72, 128), 4},
		{"unknown", gc, []StoreLine{{}, {}, {}}, 3},
		{"advancing 32 a store", gc, []StoreLine{{Known: true, Stride: 32}}, 0.5},
		{"two lines a cycle", StoreCommit{LinesPerCycle: 2, StoresPerLine: 1}, at(0, 64, 128, 192), 2},
		{"split, each alone", gc, []StoreLine{{Known: true, Offset: 48, Bytes: 32}, {Known: true, Offset: 112, Bytes: 32}}, 4},
		{"split among stores to its lines", gc, []StoreLine{{Known: true, Offset: 0, Bytes: 8}, {Known: true, Offset: 60, Bytes: 8}, {Known: true, Offset: 72, Bytes: 8}}, 4},
		{"split, two lines a cycle", StoreCommit{LinesPerCycle: 2, StoresPerLine: 2}, []StoreLine{{Known: true, Offset: 60, Bytes: 8}}, 1},
		{"no limit", StoreCommit{}, at(0, 64), 0},
		// Zen 5: eight lines written again and again take no line; 16
		// lines a line a cycle; eight lines advancing 512 bytes an
		// iteration are new lines each time.
		{"8 lines again, 12 recent", StoreCommit{LinesPerCycle: 1, StoresPerLine: 2, RecentLines: 12}, at(0, 64, 128, 192, 256, 320, 384, 448), 0.125},
		{"16 lines again, 12 recent", StoreCommit{LinesPerCycle: 1, StoresPerLine: 2, RecentLines: 12}, at(0, 64, 128, 192, 256, 320, 384, 448, 512, 576, 640, 704, 768, 832, 896, 960), 16},
		{"8 new lines an iteration, 12 recent", StoreCommit{LinesPerCycle: 1, StoresPerLine: 2, RecentLines: 12}, []StoreLine{{Known: true, Stride: 512}, {Known: true, Offset: 64, Stride: 512}, {Known: true, Offset: 128, Stride: 512}, {Known: true, Offset: 192, Stride: 512}}, 4},
	} {
		if got := c.sc.CyclesPerIteration(c.lines, 64); got != c.want {
			t.Errorf("%s: %.3f cycles an iteration, want %.3f", c.name, got, c.want)
		}
	}
}

// TestExtraLatency: a one-cycle chain whose results are 0.36 of a cycle
// late on average runs 1.36 cycles a link in steady state (the
// difference of 200 and 100 iterations), the late cycles spread over the
// iterations; an independent stream with the same fraction keeps its
// port-bound rate; out of range fractions are an error.
func TestExtraLatency(t *testing.T) {
	steady := func(b []*InstrDesc) float64 {
		return float64(run(t, skl(), b, 200).Cycles-run(t, skl(), b, 100).Cycles) / 100
	}
	d := alu(0, -1)
	d.ExtraLatency = 0.36
	if got := steady([]*InstrDesc{d}); got != 1.36 {
		t.Errorf("chain with 0.36 extra: %.2f cycles a link, want 1.36", got)
	}
	d.ExtraLatency = 1
	if got := steady([]*InstrDesc{d}); got != 2 {
		t.Errorf("chain with 1 extra: %.2f cycles a link, want 2", got)
	}
	var b []*InstrDesc
	for i := 0; i < 8; i++ {
		x := &InstrDesc{Uops: 1, Latency: 1, Uses: []Use{{Units: p0156, Ticks: Scale}}, Writes: []Write{{Reg: i, Latency: 1}}, ExtraLatency: 0.5}
		b = append(b, x)
	}
	if got := steady(b); got != 2 {
		t.Errorf("8 independent adds with 0.5 extra: %.2f cycles an iteration, want 2 (four ALUs)", got)
	}
	p, err := New(skl())
	if err != nil {
		t.Fatal(err)
	}
	bad := alu(0, -1)
	bad.ExtraLatency = 1.5
	if _, err := p.Run([]*InstrDesc{bad}, 10); err == nil {
		t.Error("extra latency 1.5: no error")
	}
}

// TestLoadSplit: a load that crosses a line in some iterations takes its
// split uses as well there: four loads a copy on two load ports, every
// one split (uses doubled) 4 cycles a copy, none 2; of two loads, one
// split every other iteration (stride 32 from 48: 48, 80, 112, ...),
// 2.5 uses an iteration on two ports. A split load keeps its latency.
func TestLoadSplit(t *testing.T) {
	const p23 = 1<<2 | 1<<3
	load := func(dst int, split *LoadSplit) *InstrDesc {
		return &InstrDesc{Uops: 1, Latency: 5, Uses: []Use{{Units: p23, Ticks: Scale}}, MayLoad: true, Writes: []Write{{Reg: dst, Latency: 5}}, LoadSplit: split}
	}
	cfg := skl()
	cfg.NoAlias = true
	steady := func(b []*InstrDesc) float64 {
		return float64(run(t, cfg, b, 400).Cycles-run(t, cfg, b, 200).Cycles) / 200
	}
	more := []Use{{Units: p23, Ticks: Scale}}
	var all, none []*InstrDesc
	for i := 0; i < 4; i++ {
		all = append(all, load(i, &LoadSplit{Offset: int64(64*i + 48), Bytes: 32, Uses: more}))
		none = append(none, load(i, &LoadSplit{Offset: int64(64*i + 32), Bytes: 32, Uses: more}))
	}
	for _, c := range []struct {
		name  string
		block []*InstrDesc
		want  float64
	}{
		{"every load split", all, 4},
		{"none split", none, 2},
		{"one split every other iteration", []*InstrDesc{load(0, &LoadSplit{Offset: 48, Stride: 32, Bytes: 32, Uses: more}), load(1, nil)}, 1.25},
	} {
		if got := steady(c.block); got != c.want {
			t.Errorf("%s: %.3f cycles an iteration, want %.2f", c.name, got, c.want)
		}
	}
	if got := steady([]*InstrDesc{{Uops: 1, Latency: 5, Uses: []Use{{Units: p23, Ticks: Scale}}, MayLoad: true, Reads: []Read{{Reg: 0}}, Writes: []Write{{Reg: 0, Latency: 5}}, LoadSplit: &LoadSplit{Offset: 60, Bytes: 8, Uses: more}}}); got != 5 {
		t.Errorf("a split pointer chase: %.2f cycles a link, want its latency 5", got)
	}
}

// An own limit spaces the instructions that share it by its ticks
// whatever their ports allow: four independent one-cycle instructions
// on the four ALUs, each held to six cycles, take 24 cycles an
// iteration, to 4.5 cycles 18; without the limit 1, and another own
// limit does not wait for the first.
func TestOwnLimit(t *testing.T) {
	block := func(own int, ticks int64, other bool) []*InstrDesc {
		var b []*InstrDesc
		for i := 0; i < 4; i++ {
			d := alu(i, -1)
			d.Reads = nil // independent: write-only
			d.Own, d.OwnTicks = own, ticks
			if other && i%2 == 1 {
				d.Own = own + 1
			}
			b = append(b, d)
		}
		return b
	}
	for _, c := range []struct {
		own   int
		ticks int64
		other bool
		want  float64
	}{
		{1, 6 * Scale, false, 24}, {1, 9 * Scale / 2, false, 18}, {0, 6 * Scale, false, 1}, {1, 6 * Scale, true, 12},
	} {
		r := run(t, skl(), block(c.own, c.ticks, c.other), 200)
		if per := float64(r.Cycles) / 200; per < c.want*0.98 || per > c.want*1.02+0.05 {
			t.Errorf("own %d, %d ticks, two limits %v: %.2f cycles an iteration, want %v", c.own, c.ticks, c.other, per, c.want)
		}
	}
}
