package measure

import (
	"cmp"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"portlab/jit"
	"portlab/perf"
)

// Bodies of the calibration chain and the canaries. The calibration chain
// is `add r64, r64` (latency 1 on every x86 core); the latency canary is
// `imul r64, r64` (latency 3 on every x86-64 core since Core 2 and K10); the
// throughput canary is twelve independent register adds (ALU-port bound;
// not `add r, imm`, whose chains some cores fold at rename at a rate that
// varies: 6 to 8 a cycle here, which poisoned the baseline). Twelve, not
// eight: with eight chains on five ALUs (Emerald Rapids guest, 2026-11-26)
// the canary ran at 0.211 cycles an add and jittered by a few percent with
// the scheduler's port choices alone, which read as a busy sibling in 70-77 %
// of repetitions; twelve chains run at the ports' 0.200 and move only when
// something takes the ports (`portlab noise`: the typical slowdown fell from
// 3.4-4.9 % to 0.0-0.3 %).
const (
	calibBody    = "add rax, rcx"
	latCanary    = "imul rax, rcx"
	tpCanaryBody = "add rax, rcx\nadd rbx, rcx\nadd rdx, rcx\nadd rsi, rcx\nadd rdi, rcx\nadd r8, rcx\nadd r9, rcx\nadd r10, rcx\nadd r11, rcx\nadd r12, rcx\nadd r13, rcx\nadd r14, rcx"
	calibCopies  = 128
	latCopies    = 64
	tpCopies     = 16 // 192 adds
	tpCanaryAdds = 12 // the adds in tpCanaryBody
)

// The vector and load canaries: what a sibling takes that the adds do not
// show. Twelve independent `por xmm` (SSE2, every x86-64 core; bound by
// the vector ALUs) and twelve loads of one line of the stack (bound by
// the load ports; the stack is mapped in every frame and nothing stores
// there meanwhile). The vector canary judges snippets that name vector,
// MMX or x87 registers, the load canary snippets that touch memory
// (judgedBy); both are measured in every job. On the Zen 3 guest
// (2026-11-28, `go run ./tools/cputrace -units`), in 20 us chunks where
// the adds ran clear, twelve vpand ymm ran more than 3 % slow in 3-44 %
// of them and twelve loads over 96 bytes in 9-24 %; with the matching
// canary clear as well, 2-6 % and 9-14 %.
const (
	vecCanaryBody = "por xmm0, xmm15\npor xmm1, xmm15\npor xmm2, xmm15\npor xmm3, xmm15\npor xmm4, xmm15\npor xmm5, xmm15\npor xmm6, xmm15\npor xmm7, xmm15\npor xmm8, xmm15\npor xmm9, xmm15\npor xmm10, xmm15\npor xmm11, xmm15"
	ldCanaryBody  = "mov rax, [rsp]\nmov rbx, [rsp+8]\nmov rcx, [rsp+16]\nmov rdx, [rsp+24]\nmov rsi, [rsp]\nmov rdi, [rsp+8]\nmov r8, [rsp+16]\nmov r9, [rsp+24]\nmov r10, [rsp]\nmov r11, [rsp+8]\nmov r12, [rsp+16]\nmov r13, [rsp+24]"
	vecCopies     = 16 // 192 por
	ldCopies      = 16 // 192 loads
	canaryInstrs  = 12 // the instructions in each of the two bodies
)

// Shared functions at the start of every job: the calibration chain and the
// canaries at two lengths each. Their loop-count groups are 0 to
// sharedGroups-1; snippet k of a job uses group sharedGroups+k.
const (
	fCalibN = iota
	fCalib2N
	fLatN
	fLat2N
	fTpN
	fTp2N
	fVecN
	fVec2N
	fLdN
	fLd2N
	nShared
	sharedGroups = nShared / 2
)

// sharedFrame is the frame of the calibration and canary functions: legacy
// vector set-up after vzeroupper, loop counter in r15 (their bodies do not
// touch it), and the licence warm-up of the job's snippets (Frame.Warm).
func (e *Engine) sharedFrame(warm int) jit.Frame {
	has := e.has()
	return jit.Frame{LoopReg: "r15", HasAVX: has("avx"), MXCSR: true, Warm: warm}
}

func (e *Engine) has() func(string) bool {
	if e.Host.Has == nil {
		return func(string) bool { return false }
	}
	return e.Host.Has
}

func (e *Engine) sharedUnits(warm int) []*jit.Unit {
	f := e.sharedFrame(warm)
	mk := func(body string, copies int) *jit.Unit {
		return &jit.Unit{Name: "portlab calibration", Source: jit.HarnessSource(f, body, false, copies)}
	}
	return []*jit.Unit{
		mk(calibBody, calibCopies), mk(calibBody, 2*calibCopies),
		mk(latCanary, latCopies), mk(latCanary, 2*latCopies),
		mk(tpCanaryBody, tpCopies), mk(tpCanaryBody, 2*tpCopies),
		mk(vecCanaryBody, vecCopies), mk(vecCanaryBody, 2*vecCopies),
		mk(ldCanaryBody, ldCopies), mk(ldCanaryBody, 2*ldCopies),
	}
}

// prepared is a snippet turned into assembler units.
type prepared struct {
	s      *Snippet
	frame  jit.Frame
	probe  *jit.Unit
	units  []*jit.Unit // the snippet's harness functions
	roles  []role
	objs   []*jit.Object
	pobj   *jit.Object
	copies int
	instrs int
	err    error
	init   jit.Init
	region []jit.Region
	// vec and mem: the vector and the load canary judge the snippet
	// (judgedBy).
	vec, mem bool
}

type role struct {
	name string // "snip-n", "snip-2n", "loop-n", "loop-2n"
	mult uint64
	loop bool // min mode's loop variant (its own count group)
}

func (e *Engine) frameFor(s *Snippet, loopReg string) jit.Frame {
	has := e.has()
	f := jit.Frame{LoopReg: loopReg, HasAVX: has("avx"), MXCSR: true}
	w := jit.VectorWidth(s.Source)
	if w == 64 && !has("avx512f") {
		w = 32
	}
	if (w == 32 || w == 16) && !has("avx") {
		w = 0
	}
	f.VecWidth = w
	f.MMX = jit.UsesMMX(s.Source)
	if w == 32 || w == 64 {
		// 256- and 512-bit code may move the core to a slower licence:
		// the whole job runs in it (Frame.Warm).
		f.Warm = w
	}
	if has("avx512f") && w == 64 {
		f.Masks = true
		f.MasksQ = has("avx512bw")
	}
	return f
}

func (e *Engine) prepare(s *Snippet) *prepared {
	p := &prepared{s: s}
	loopReg := s.LoopReg
	if loopReg == "" {
		var err error
		if loopReg, err = jit.PickLoopRegister(s.Source); err != nil {
			p.err = fmt.Errorf("%s: %v", s.Name, err)
			return p
		}
	}
	p.frame = e.frameFor(s, loopReg)
	p.vec, p.mem = judgedBy(s.Source, s.ATT)
	if s.ResetPointers {
		// Address registers go back to their start every loop iteration,
		// so pointer increments cannot run away; not those the snippet
		// loads from memory (an index chain through memory), nor those
		// only lea and nop name (no access): resetting them would cut a
		// chain and let loop iterations overlap.
		bases, indexes := memRegisters(memoryAccesses(s.Source), s.ATT)
		loaded := loadedRegisters(s.Source, s.ATT)
		for _, r := range append(sortedKeys(bases), sortedKeys(indexes)...) {
			if !loaded[r] {
				p.frame.Reset = append(p.frame.Reset, r)
			}
		}
	}
	lines := strings.Count(strings.TrimRight(s.Source, "\n"), "\n") + 1
	p.probe = &jit.Unit{Name: s.Name, Source: jit.ProbeSource(s.Source), ATT: s.ATT,
		LineOffset: s.LineOffset, Marks: jit.ProbeMarks(lines)}
	return p
}

// addHarness sizes the bodies once the probe has assembled and adds the
// snippet's harness functions.
func (e *Engine) addHarness(p *prepared, probe *jit.Object, o Options) {
	s := p.s
	p.pobj = probe
	p.instrs = s.Instructions
	srcLines := strings.Split(strings.TrimRight(s.Source, "\n"), "\n")
	if p.instrs == 0 {
		marks := jit.ProbeMarks(len(srcLines))
		for i := range srcLines {
			if probe.Marks[marks[i+1]] > probe.Marks[marks[i]] && !isDirectiveLine(srcLines[i]) {
				p.instrs++
			}
		}
	}
	if len(probe.Code) == 0 || p.instrs == 0 {
		p.err = fmt.Errorf("%s: snippet assembles to no instructions", s.Name)
		return
	}
	p.copies = (o.MinInstructions + p.instrs - 1) / p.instrs
	if s.longer {
		p.copies = max(p.copies+1, (3*p.copies+1)/2)
	}
	marks := []string{"__portlab_body" + jit.UnitToken, "__portlab_bodyend" + jit.UnitToken}
	add := func(name, src string, mult uint64, loop bool) {
		p.units = append(p.units, &jit.Unit{Name: s.Name, Source: src, LineOffset: s.LineOffset, Marks: marks})
		p.roles = append(p.roles, role{name: name, mult: mult, loop: loop})
	}
	switch o.Repetition {
	case Loop, MiddleHalfLoop:
		add("snip-n", jit.HarnessSource(p.frame, s.Source, s.ATT, 1), uint64(p.copies), false)
		add("snip-2n", jit.HarnessSource(p.frame, s.Source, s.ATT, 1), uint64(2*p.copies), false)
	default:
		add("snip-n", jit.HarnessSource(p.frame, s.Source, s.ATT, p.copies), 1, false)
		add("snip-2n", jit.HarnessSource(p.frame, s.Source, s.ATT, 2*p.copies), 1, false)
		if o.Repetition == Min {
			add("loop-n", jit.HarnessSource(p.frame, s.Source, s.ATT, 1), uint64(p.copies), true)
			add("loop-2n", jit.HarnessSource(p.frame, s.Source, s.ATT, 1), uint64(2*p.copies), true)
		}
	}
}

var directiveLine = regexp.MustCompile(`^\s*(?:[A-Za-z_.$0-9]+:\s*)*\.`)

func isDirectiveLine(l string) bool { return directiveLine.MatchString(l) }

// assemble turns snippets into assembled harness functions: each
// snippet's probe in one assembler run, then every harness function and
// the calibration and canary functions of each licence warm-up the
// snippets use in a second. sharedOf maps a warm-up to its shared
// functions. o must have its defaults.
func (e *Engine) assemble(snips []*Snippet, o Options) (preps []*prepared, sharedOf map[int][]*jit.Object) {
	preps = make([]*prepared, len(snips))
	var probes []*jit.Unit
	var probeOf []int
	for i, s := range snips {
		preps[i] = e.prepare(s)
		if preps[i].err == nil {
			probes = append(probes, preps[i].probe)
			probeOf = append(probeOf, i)
		}
	}
	asmStart := time.Now()
	objs, errs := e.Asm.Assemble(probes)
	// A set of calibration and canary functions per licence warm-up
	// (Frame.Warm) the snippets use: a job runs its snippets'.
	var warms []int
	for _, p := range preps {
		if !slices.Contains(warms, p.frame.Warm) {
			warms = append(warms, p.frame.Warm)
		}
	}
	var shared []*jit.Unit
	for _, w := range warms {
		shared = append(shared, e.sharedUnits(w)...)
	}
	units := append([]*jit.Unit(nil), shared...)
	var owner []int
	for k, i := range probeOf {
		if errs[k] != nil {
			preps[i].err = errs[k]
			continue
		}
		e.addHarness(preps[i], objs[k], o)
		if preps[i].err != nil {
			continue
		}
		if err := e.setup(preps[i], o, &preps[i].init, &preps[i].region); err != nil {
			preps[i].err = err
			continue
		}
		for _, u := range preps[i].units {
			units = append(units, u)
			owner = append(owner, i)
		}
	}
	uobjs, uerrs := e.Asm.Assemble(units)
	e.Stats.Assembling += time.Since(asmStart)
	for k := range shared {
		if uerrs[k] != nil { // our own code: only a broken assembler gets here
			for _, p := range preps {
				if p.err == nil {
					p.err = fmt.Errorf("assembling the calibration code: %v", uerrs[k])
				}
			}
		}
	}
	sharedOf = map[int][]*jit.Object{}
	for k, w := range warms {
		sharedOf[w] = uobjs[k*nShared : (k+1)*nShared]
	}
	for k, i := range owner {
		u := k + len(shared)
		if uerrs[u] != nil && preps[i].err == nil {
			preps[i].err = uerrs[u]
		}
		preps[i].objs = append(preps[i].objs, uobjs[u])
	}
	return preps, sharedOf
}

// Warm assembles snippets as MeasureAll would with the same options,
// without measuring them: the objects land in the assembler's cache, and a
// later MeasureAll of the same snippets only looks them up. Sweeps warm
// the next batch while the engine waits out a retry's back-off
// (Options.Idle), so that the assembler never runs beside a measurement.
func (e *Engine) Warm(snips []*Snippet, o Options) {
	if !e.referenced() {
		rs, ro := referenceCall(o)
		ro.defaults(e.Host.TSCHz)
		e.assemble(rs[:1], ro)
	}
	o.defaults(e.Host.TSCHz)
	e.assemble(snips, o)
}

// MeasureAll measures snippets in order: it assembles them in two batched
// assembler runs and times them in jobs of up to o.Group snippets. progress,
// if non-nil, is called as snippets finish.
func (e *Engine) MeasureAll(snips []*Snippet, o Options, progress func(done int, m *Measurement)) []*Measurement {
	return e.MeasureCalls([]Call{{Snippets: snips, Opts: o}}, progress)[0]
}

// Call is a set of snippets to measure with one set of options.
type Call struct {
	Snippets []*Snippet
	Opts     Options
}

// MeasureCalls measures several calls in one schedule: the groups of every
// call, and of every pass of a call with Options.Passes > 1, share one
// queue, so a disturbed group's retry waits behind the other calls' work
// and the engine sleeps only when nothing of any call is left (one wait at
// the end of a sweep's batch rather than one per call and pass). Each pass
// runs in a worker process of its own (passRunner), started afresh for
// the call. The calls' Idle and RetryBackoff are the first call's.
// progress, if non-nil, is called as snippets' final measurements are
// known.
func (e *Engine) MeasureCalls(calls []Call, progress func(done int, m *Measurement)) [][]*Measurement {
	out := make([][]*Measurement, len(calls))
	if len(calls) == 0 {
		return out
	}
	done := 0
	final := func(c, i int, m *Measurement) {
		out[c][i] = m
		done++
		if progress != nil {
			progress(done, m)
		}
	}
	sched := calls[0].Opts
	sched.defaults(e.Host.TSCHz)
	e.establishReference(sched)
	var groups []*groupRun
	passes := make([][][]*Measurement, len(calls)) // multi-pass calls: per snippet, per pass
	measured := make([][]*Snippet, len(calls))     // multi-pass calls: the snippets, twins included
	maxPass := 0
	for c, call := range calls {
		o := call.Opts
		o.defaults(e.Host.TSCHz)
		np := max(1, o.Passes)
		one := o
		one.Passes = 1
		out[c] = make([]*Measurement, len(call.Snippets))
		snips := call.Snippets
		if np > 1 {
			if o.LengthCheck {
				snips = withLongerTwins(snips)
			}
			measured[c] = snips
			passes[c] = make([][]*Measurement, len(snips))
			for i := range snips {
				passes[c][i] = make([]*Measurement, np)
			}
			maxPass = max(maxPass, np-1)
		}
		preps, sharedOf := e.assemble(snips, one)
		for pass := range np {
			finish := func(i int, m *Measurement) {
				if np == 1 {
					final(c, i, m)
					return
				}
				passes[c][i][pass] = m // by pass: a snippet and its twin stay aligned
			}
			for _, g := range e.groupsOf(preps, sharedOf, one, finish) {
				g.pass = pass
				groups = append(groups, g)
			}
		}
	}
	// Fresh workers for the passes: the main one (pass 0) and the others.
	if maxPass > 0 {
		for pass := range maxPass + 1 {
			e.passRunner(pass).Close()
		}
	}
	e.runGroups(groups, sched, func(g *groupRun) (bool, []*groupRun) { return e.attempt(g, g.o) }, func(g *groupRun) {
		for k, m := range g.ms {
			g.finish(g.index[k], m)
		}
	})
	e.rejudge()
	for c, call := range calls {
		if passes[c] == nil {
			continue
		}
		snips := measured[c]
		for i, ps := range passes[c] {
			for p, m := range ps {
				if m == nil {
					ps[p] = &Measurement{Snippet: snips[i], Err: fmt.Errorf("%s: not measured in pass %d", snips[i].Name, p+1)}
				}
			}
		}
		ms := e.morePasses(snips, call.Opts, passes[c])
		for i, m := range ms {
			final(c, i, m)
		}
	}
	return out
}

// groupsOf turns one pass over prepared snippets into groups of up to
// o.Group snippets that share a job; a snippet that could not be prepared
// is finished at once with its error.
func (e *Engine) groupsOf(preps []*prepared, sharedOf map[int][]*jit.Object, o Options, finish func(i int, m *Measurement)) []*groupRun {
	newM := func(p *prepared) *Measurement {
		m := &Measurement{Snippet: p.s, Mode: o.Mode, Repetition: o.Repetition, Instructions: p.instrs,
			Copies: p.copies, LoopRegister: p.frame.LoopReg, RepsPerJob: o.Reps}
		if p.pobj != nil {
			m.Code = p.pobj.Code
		}
		return m
	}
	var group []int
	var groups []*groupRun
	flush := func() {
		if len(group) == 0 {
			return
		}
		ms := make([]*Measurement, len(group))
		ps := make([]*prepared, len(group))
		for k, i := range group {
			ps[k] = preps[i]
			ms[k] = newM(preps[i])
		}
		g := newGroupRun(ps, ms, sharedOf[ps[0].frame.Warm])
		g.o, g.finish, g.index = o, finish, slices.Clone(group)
		groups = append(groups, g)
		group = group[:0]
	}
	for i, p := range preps {
		if p.err != nil {
			flush()
			m := newM(p)
			m.Err = p.err
			finish(i, m)
			continue
		}
		alone := p.s.SnippetAddr != 0 || len(p.region) > 0
		if len(group) > 0 && (alone || len(group) >= o.Group || !sameScratch(&preps[group[0]].init, &p.init) || preps[group[0]].frame.Warm != p.frame.Warm) {
			flush()
		}
		group = append(group, i)
		if alone {
			flush()
		}
	}
	flush()
	return groups
}

// passRunner is the worker of a pass: the engine's own for the first, a
// worker of its own, on the same CPU, for each further one (started when
// first needed, one job at a time like the first: they never run at
// once).
func (e *Engine) passRunner(pass int) *jit.Runner {
	if pass == 0 {
		return e.Runner
	}
	for len(e.passRunners) < pass {
		r := jit.NewRunner(e.CPU())
		r.Timeout, r.Exe = e.Runner.Timeout, e.Runner.Exe
		e.passRunners = append(e.passRunners, r)
	}
	return e.passRunners[pass-1]
}

// morePasses finishes a call measured in o.Passes passes (passes: per
// snippet, the measurement of every pass so far): the snippets whose
// passes disagree get more passes, up to o.MaxPasses, and each snippet
// keeps its median pass (by cycles; the lower middle one of an even
// count), with every pass's value recorded and a warning when they differ
// by more than 1 %. The median, not the fastest: a pass can also read too
// fast (its calibration caught in a slower clock than the code), and the
// fastest of several would seek those out.
func (e *Engine) morePasses(snips []*Snippet, o Options, passes [][]*Measurement) []*Measurement {
	one := o
	one.Passes = 1
	spread := o.PassSpread
	if spread <= 0 {
		spread = 0.02
	}
	// Under LengthCheck snips come in pairs: a snippet, then its twin at
	// the longer length.
	step := 1
	if o.LengthCheck {
		step = 2
	}
	// Snippets whose passes disagree get more passes, a round over all of
	// them at a time (as the first passes, so a slow stretch of the host
	// does not land on one snippet's passes only).
	for n := o.Passes; n < o.MaxPasses; n++ {
		var again []int
		for i := 0; i < len(snips); i += step {
			if step == 1 {
				if passSpread(passes[i]) > spread {
					again = append(again, i)
				}
				continue
			}
			agree, _, _ := lengthsAgree(passes[i], passes[i+1], spread)
			if len(agree) < 2 || passSpread(agree) > spread {
				again = append(again, i, i+1)
			}
		}
		if len(again) == 0 {
			break
		}
		sub := make([]*Snippet, len(again))
		for k, i := range again {
			sub[k] = snips[i]
		}
		e.Runner.Close()
		for k, m := range e.MeasureAll(sub, one, nil) {
			passes[again[k]] = append(passes[again[k]], m)
		}
	}
	out := make([]*Measurement, 0, len(snips)/step)
	for i := 0; i < len(snips); i += step {
		var ok []*Measurement
		for _, m := range passes[i] {
			if m.Err == nil {
				ok = append(ok, m)
			}
		}
		if len(ok) == 0 {
			out = append(out, passes[i][0]) // failed in every pass: the first error
			continue
		}
		if step == 1 {
			out = append(out, keptPass(ok, o))
			continue
		}
		out = append(out, keptOfLengths(passes[i], passes[i+1], ok, o, spread))
	}
	return out
}

// keptPass is the pass of several (none failed) that the options keep.
func keptPass(ok []*Measurement, o Options) *Measurement {
	switch {
	case o.FastestPass:
		return fastestPass(ok)
	case o.LowerQuartilePass:
		return quantilePass(ok, 4, false, "the lower quartile")
	}
	return medianPass(ok)
}

// withLongerTwins returns snips with each followed by its twin at the
// longer body length (Options.LengthCheck).
func withLongerTwins(snips []*Snippet) []*Snippet {
	out := make([]*Snippet, 0, 2*len(snips))
	for _, s := range snips {
		t := *s
		t.longer = true
		out = append(out, s, &t)
	}
	return out
}

// passRecord lists every pass's median (per instruction) and worker.
func passRecord(ok []*Measurement) (meds []float64, workers []int) {
	for _, m := range ok {
		meds, workers = append(meds, m.PerInstr.Median), append(workers, m.Worker)
	}
	return meds, workers
}

// fastestPass is the measurement of several passes (none failed) that
// Options.FastestPass keeps: the fastest converged pass, or the median
// pass where none converged, its warnings saying how far the passes
// spread.
func fastestPass(ok []*Measurement) *Measurement {
	var best *Measurement
	for _, m := range ok {
		if m.Converged && (best == nil || m.PerSnippet.Median < best.PerSnippet.Median) {
			best = m
		}
	}
	if best == nil {
		return medianPass(ok)
	}
	meds, workers := passRecord(ok)
	best.PassMedians, best.PassWorkers = meds, workers
	if lo, hi := slices.Min(meds), slices.Max(meds); lo > 0 && hi/lo > 1.01 {
		best.Warnings = append(best.Warnings, fmt.Sprintf("%d passes read %s cycles per instruction: kept the fastest that converged", len(meds), formatValues(meds)))
	}
	return best
}

// medianPass is the measurement of several passes (none failed): the
// median pass, its warnings saying how far the passes spread. Where two
// or more passes converged and others did not, the median of the
// converged ones: an unconverged pass is one a neighbour held down
// throughout (mostly slower, sometimes faster where a shorter length
// never reached its floor), and with it in the median a result whose
// converged passes agree read as noisy and went back for a second
// chance. Of two, the faster. One converged pass alone does not decide:
// the passes are there for slow states of one process that no canary
// sees.
func medianPass(ok []*Measurement) *Measurement {
	return quantilePass(ok, 2, true, "the median")
}

// quantilePass is the pass at index (n-1)/div of the pool sorted fastest
// first (div 2: the median, 4: the lower quartile), which its warning
// calls what. The pool is every pass, or with convergedPool the converged
// ones where two or more converged and others did not (medianPass). The
// lower quartile takes every pass: kernels seldom converge under a busy
// neighbour, and on the Zen 3 guest (2026-11-29, four runs of the 57
// kernels) the lower quartile of every pass put the model's MAPE at
// 4.43-4.60 %, of the converged pool at 3.95-5.76 %.
func quantilePass(ok []*Measurement, div int, convergedPool bool, what string) *Measurement {
	meds, workers := passRecord(ok)
	var conv []*Measurement
	for _, m := range ok {
		if m.Converged {
			conv = append(conv, m)
		}
	}
	pool := ok
	if convergedPool && len(conv) >= 2 && len(conv) < len(ok) {
		pool = conv
	}
	slices.SortStableFunc(pool, func(a, b *Measurement) int { return cmp.Compare(a.PerSnippet.Median, b.PerSnippet.Median) })
	best := pool[(len(pool)-1)/div]
	best.PassMedians, best.PassWorkers = meds, workers
	lo, hi := slices.Min(meds), slices.Max(meds)
	if lo > 0 && hi/lo > 1.01 {
		kept := "kept " + what
		if len(pool) < len(ok) {
			kept = fmt.Sprintf("kept %s of the %d that converged", what, len(pool))
		}
		best.Warnings = append(best.Warnings, fmt.Sprintf("%d passes read %s cycles per instruction: %s", len(meds), formatValues(meds), kept))
	}
	return best
}

// passSpread is how far the slowest pass median of a snippet lies above
// the fastest, relative (0 with fewer than two good passes).
func passSpread(ms []*Measurement) float64 {
	lo, hi := math.Inf(1), 0.0
	n := 0
	for _, m := range ms {
		if m.Err != nil || m.PerSnippet.Median <= 0 {
			continue
		}
		n++
		lo, hi = min(lo, m.PerSnippet.Median), max(hi, m.PerSnippet.Median)
	}
	if n < 2 {
		return 0
	}
	return hi/lo - 1
}

func formatValues(vs []float64) string {
	parts := make([]string, len(vs))
	for i, v := range vs {
		parts[i] = strconv.FormatFloat(v, 'f', 4, 64)
	}
	return strings.Join(parts, ", ")
}

// sameScratch reports whether two snippets want the same scratch memory
// (a job has one scratch buffer).
func sameScratch(a, b *jit.Init) bool {
	return a.ScratchSelf == b.ScratchSelf && string(a.ScratchFill) == string(b.ScratchFill)
}

// Measure measures one snippet.
func (e *Engine) Measure(s *Snippet, o Options) *Measurement {
	return e.MeasureAll([]*Snippet{s}, o, nil)[0]
}

// jobLayout records where each snippet's functions sit in a job.
type jobLayout struct {
	job   *jit.Job
	funcs [][]int // per snippet: function indices by role
}

func (e *Engine) buildJob(ps []*prepared, shared []*jit.Object, o Options) *jobLayout {
	job := &jit.Job{Reps: o.Reps, Calls: o.Calls, TargetTicks: o.TargetTicks, Counters: true,
		CacheCounters: o.CacheCounters, Scratch: 1 << 20, CodeAddr: ps[0].s.SnippetAddr, TailIters: tailIters}
	job.Init = ps[0].init
	job.Regions = ps[0].region
	addFunc := func(obj *jit.Object, group int, mult uint64, init int) int {
		for len(job.Code)%64 != 0 {
			job.Code = append(job.Code, 0xcc)
		}
		job.Funcs = append(job.Funcs, jit.Func{Offset: len(job.Code), Group: group, Mult: mult, Init: init})
		job.Code = append(job.Code, obj.Code...)
		return len(job.Funcs) - 1
	}
	for k, obj := range shared {
		addFunc(obj, k/2, 1, 0)
	}
	l := &jobLayout{job: job}
	for k, p := range ps {
		job.Inits = append(job.Inits, p.init)
		var idx []int
		for r, obj := range p.objs {
			g := sharedGroups + k
			if p.roles[r].loop {
				g = sharedGroups + len(ps) + k
			}
			idx = append(idx, addFunc(obj, g, p.roles[r].mult, k+1))
		}
		l.funcs = append(l.funcs, idx)
	}
	// Calibration before and after the measured functions, so drift within a
	// repetition shows up as disagreement between the two.
	job.Schedule = []int{fCalibN, fCalib2N}
	for _, idx := range l.funcs {
		job.Schedule = append(job.Schedule, idx...)
	}
	job.Schedule = append(job.Schedule, fLatN, fLat2N, fTpN, fTp2N, fVecN, fVec2N, fLdN, fLd2N, fCalibN, fCalib2N)
	return l
}

// groupRun is one group of snippets timed in one job, with the
// repetitions its attempts have gathered so far.
type groupRun struct {
	ps      []*prepared
	ms      []*Measurement
	shared  []*jit.Object
	l       *jobLayout
	reps    [][]perf.Timing
	layout  []perf.Layout
	clock   perf.Clock
	attempt int       // jobs run so far
	readyAt time.Time // a retry waits until then
	cpu     int       // the CPU its last job ran on
	// fixed holds the loop counts of the first job, per snippet and
	// function, and of the shared functions, once a group has been
	// split: its rebuilt job keeps them (see attempt).
	fixed       [][]uint64
	sharedFixed []uint64
	// final marks the part of a group that converged while the rest runs
	// again: runGroups completes it at once.
	final bool
	// o are the options of the group's call, pass the pass it belongs to
	// (its worker: Engine.passRunner); finish takes each snippet's
	// measurement with its index in the call (index, per snippet).
	o      Options
	pass   int
	finish func(i int, m *Measurement)
	index  []int
}

func newGroupRun(ps []*prepared, ms []*Measurement, shared []*jit.Object) *groupRun {
	return &groupRun{ps: ps, ms: ms, shared: shared, reps: make([][]perf.Timing, len(ps)), layout: make([]perf.Layout, len(ps))}
}

// sub is a group of some of g's snippets (positions ks), with their
// repetitions so far, the same call, pass and shared functions, and no
// job yet.
func (g *groupRun) sub(ks []int) *groupRun {
	n := &groupRun{shared: g.shared, clock: g.clock, attempt: g.attempt, o: g.o, pass: g.pass, finish: g.finish, sharedFixed: g.sharedFixed}
	for _, k := range ks {
		n.ps, n.ms = append(n.ps, g.ps[k]), append(n.ms, g.ms[k])
		n.reps, n.layout = append(n.reps, g.reps[k]), append(n.layout, g.layout[k])
		if g.index != nil {
			n.index = append(n.index, g.index[k])
		}
		if g.fixed != nil {
			n.fixed = append(n.fixed, g.fixed[k])
		}
	}
	return n
}

// keep makes g hold only the snippets at positions ks (g.sub's), its job
// to be built again.
func (g *groupRun) keep(ks []int) {
	n := g.sub(ks)
	g.ps, g.ms, g.reps, g.layout, g.index, g.fixed = n.ps, n.ms, n.reps, n.layout, n.index, n.fixed
	g.l = nil
}

// runGroups times groups of snippets, one job per attempt. A group whose
// repetitions were mostly disturbed is run again (up to o.MaxRetries
// times), but not at once: on these KVM guests a neighbour's burst
// disturbs every repetition for tens to hundreds of milliseconds, and a
// job re-run back to back lands in the same burst. A retry that will run
// on another CPU than the group's last job (the engine moved after a
// busy job, Engine.SetCPUs) is ready at once: the other core's neighbour
// keeps its own time. The retry waits at
// least o.RetryBackoff (doubled per further retry) and the other groups
// are measured meanwhile, so the wait costs no time unless nothing else
// is left; then o.Idle, when set, gets the wait first. attempt runs one
// job of a group (Engine.attempt; tests fake it); finish is called as each
// group completes.
func (e *Engine) runGroups(groups []*groupRun, o Options, attempt func(*groupRun) (again bool, spawned []*groupRun), finish func(g *groupRun)) {
	queue := groups
	var waiting []*groupRun // by readyAt
	for len(queue) > 0 || len(waiting) > 0 {
		var g *groupRun
		if len(waiting) > 0 && (len(queue) == 0 || !time.Now().Before(waiting[0].readyAt)) {
			g, waiting = waiting[0], waiting[1:]
			if o.pastDeadline(time.Now()) || o.pastDeadline(g.readyAt) {
				// Its retry would start after the deadline: it ends
				// with the jobs it has run.
				e.Stats.Cut += len(g.ps)
				e.complete(g, g.o)
				g.l, g.reps = nil, nil
				finish(g)
				continue
			}
			if o.Idle != nil && time.Now().Before(g.readyAt) {
				o.Idle(g.readyAt)
			}
			if d := time.Until(g.readyAt); d > 0 {
				time.Sleep(d)
				e.Stats.Waiting += d
			}
			e.Stats.Retries++
		} else {
			g, queue = queue[0], queue[1:]
		}
		again, spawned := attempt(g)
		// Groups split off after a crash go first, in order; the
		// converged part of a group that runs again is done.
		var fresh []*groupRun
		for _, s := range spawned {
			if !s.final {
				fresh = append(fresh, s)
				continue
			}
			e.complete(s, s.o)
			s.l, s.reps = nil, nil
			finish(s)
		}
		queue = append(fresh, queue...)
		switch {
		case again:
			g.readyAt = time.Now()
			if len(e.cpus) <= 1 || e.CPU() == g.cpu {
				// Back on the same core: wait out the neighbour's burst.
				// (On another core the neighbour comes and goes on its
				// own: the retry is ready at once.)
				g.readyAt = g.readyAt.Add(o.RetryBackoff << (g.attempt - 1))
			}
			at, _ := slices.BinarySearchFunc(waiting, g.readyAt, func(w *groupRun, t time.Time) int { return w.readyAt.Compare(t) })
			waiting = slices.Insert(waiting, at, g)
		case len(spawned) == 0 || len(g.ps) > 0:
			// Finished, or a crash left only its culprit here (after a
			// hang that could not be pinned, every snippet is spawned).
			e.complete(g, g.o)
			g.l, g.reps = nil, nil
			finish(g)
		}
	}
}

// attempt runs one job of a group. It says whether the group wants
// another attempt (too few clean repetitions so far). A crash is pinned
// on the snippet whose code faulted, and the others are returned as a new
// group to time without it; a hang that cannot be pinned returns every
// snippet as a group of its own. The group itself then keeps only the
// snippets whose result is final (the culprit), if any.
func (e *Engine) attempt(g *groupRun, o Options) (again bool, spawned []*groupRun) {
	e.layOut(g, o)
	runner := e.passRunner(g.pass)
	cpu := e.CPU()
	runner.MoveTo(cpu)
	runStart := time.Now()
	res, err := runner.Run(g.l.job)
	e.Stats.Running += time.Since(runStart)
	e.Stats.Jobs++
	if res != nil && res.CPU >= 0 {
		cpu = res.CPU // where the kernel says it ran
	}
	g.cpu = cpu
	g.attempt++
	for _, m := range g.ms {
		m.Worker = runner.PID()
	}
	if err != nil {
		ce, ok := jit.AsCrash(err, g.l.job)
		if !ok {
			for _, m := range g.ms {
				m.Err = err
			}
			return false, nil
		}
		if len(g.ps) == 1 {
			ce.Where = locate(g.ps[0], g.l, 0, ce)
			g.ms[0].Err = ce
			return false, nil
		}
		culprit := e.culprit(g.l, ce)
		// The groups split off start afresh: a crash is the first job.
		fresh := func(ks []int) *groupRun {
			n := g.sub(ks)
			n.attempt, n.clock, n.fixed, n.sharedFixed = 0, perf.Clock{}, nil, nil
			for k := range n.reps {
				n.reps[k], n.layout[k] = nil, perf.Layout{}
			}
			return n
		}
		if culprit < 0 {
			for k := range g.ps {
				spawned = append(spawned, fresh([]int{k}))
			}
			g.keep(nil)
			return false, spawned
		}
		ce.Where = locate(g.ps[culprit], g.l, culprit, ce)
		g.ms[culprit].Err = ce
		var rest []int
		for k := range g.ps {
			if k != culprit {
				rest = append(rest, k)
			}
		}
		spawned = []*groupRun{fresh(rest)}
		g.keep([]int{culprit})
		return false, spawned
	}
	if o.CacheCounters {
		note, vals := validation(res)
		for _, m := range g.ms {
			m.ValidationNote = note
			if len(g.ps) == 1 {
				m.Validation = vals
			} else if vals != nil {
				m.ValidationNote = "validation counters cover a whole job: measure with Group 1"
			}
		}
	}
	if g.attempt == 1 {
		// Later jobs of the group keep the first one's loop counts, so
		// that their points stay comparable (an overhead per call divided
		// by another count would shift a floor).
		for f := range g.l.job.Funcs {
			g.l.job.Funcs[f].FixedCount = res.Counts[g.l.job.Funcs[f].Group]
		}
	}
	conv := make([]bool, len(g.ps))
	nconv := 0
	var vec, mem bool // some snippet of the job is judged by the canary
	for _, p := range g.ps {
		vec, mem = vec || p.vec, mem || p.mem
	}
	for k, p := range g.ps {
		var ts []perf.Timing
		ts, g.layout[k], g.clock = interpret(p, g.l, k, res, o)
		g.reps[k] = append(g.reps[k], ts...)
		if k == 0 {
			// The job's canaries, all three, count toward the run's
			// references; the ones that judge its snippets say whether
			// it ran beside a busy sibling.
			e.refs.Note(allCanaries(g.layout[k], true, true).Estimate(ts))
			e.afterJob(cpu, allCanaries(g.layout[k], vec, mem).BusyShare(ts, e.refs.Values()))
		}
		est := g.layout[k].Estimate(g.reps[k])
		if conv[k] = e.converged(est, p, o); conv[k] {
			nconv++
		}
	}
	if g.attempt < o.MinJobs {
		return true, nil
	}
	if nconv == len(g.ps) || g.attempt > o.MaxRetries {
		return false, nil
	}
	if nconv == 0 {
		return true, nil
	}
	return true, []*groupRun{g.split(conv)}
}

// allCanaries returns l with the vector canary (vec) and the load canary
// (mem) judging it as well (interpret: those that judge a snippet).
func allCanaries(l perf.Layout, vec, mem bool) perf.Layout {
	if vec {
		l.VecSpan = vecCopies * canaryInstrs
	}
	if mem {
		l.LdSpan = ldCopies * canaryInstrs
	}
	return l
}

// layOut builds a group's job when it first runs (a call's jobs are not
// all held at once), and again after a split, with the first job's loop
// counts.
func (e *Engine) layOut(g *groupRun, o Options) {
	if g.l != nil {
		return
	}
	g.l = e.buildJob(g.ps, g.shared, o)
	if g.fixed == nil {
		return
	}
	for f := range nShared {
		g.l.job.Funcs[f].FixedCount = g.sharedFixed[f]
	}
	for k, idx := range g.l.funcs {
		for r, f := range idx {
			g.l.job.Funcs[f].FixedCount = g.fixed[k][r]
		}
	}
}

// split takes the converged snippets out of a group that runs again: they
// are returned as a final group, and the others stay, in a job of their
// own (built at the next attempt) with the first job's loop counts. A
// retry then costs what its unconverged snippets take, not the whole
// group's time.
func (g *groupRun) split(conv []bool) *groupRun {
	if g.fixed == nil {
		g.sharedFixed = make([]uint64, nShared)
		for f := range nShared {
			g.sharedFixed[f] = g.l.job.Funcs[f].FixedCount
		}
		g.fixed = make([][]uint64, len(g.ps))
		for k, idx := range g.l.funcs {
			for _, f := range idx {
				g.fixed[k] = append(g.fixed[k], g.l.job.Funcs[f].FixedCount)
			}
		}
	}
	var yes, no []int
	for k, c := range conv {
		if c {
			yes = append(yes, k)
		} else {
			no = append(no, k)
		}
	}
	done := g.sub(yes)
	done.final = true
	g.keep(no)
	return done
}

// Reference warm-up (establishReference): the jobs a run's throughput
// canary reference needs before the engine's judgements against it are
// final (rejudge holds earlier ones to the grown reference), and the most
// time the warm-up may take to get them.
const (
	referenceNotes  = 8
	referenceBudget = time.Second
)

// provisional is an estimate that converged against a young reference.
type provisional struct {
	m *Measurement
	p *prepared
	o Options
}

// rejudge judges the estimates that converged before the run's canary
// reference had referenceNotes jobs behind each canary again, against
// the reference as it is now (grown by every job of the call): those whose
// canaries are off it are not converged after all, and a sweep measures
// them again with its noisy results. A young reference is the warm-up's
// when its budget ran out first (a second, or a quarter of the time left
// to Options.Deadline), and it can be far off: on the Zen 3 guest with its
// neighbour disturbing 70-99 % of repetitions (2026-11-29) one of `portlab
// quick`'s calls judged 16 estimates against an add canary of 0.497
// cycles from two jobs, where the call's later jobs put it at 0.249.
func (e *Engine) rejudge() {
	refs := e.refs.Values()
	for _, pv := range e.provisional {
		m := pv.m
		if !m.Converged || m.Estimate.CanaryClear(refs) {
			continue
		}
		m.Converged = false
		m.Warnings = append(m.Warnings, "judged again once the run's canary reference had grown: "+notConverged(m.Estimate, pv.p, pv.o, refs))
		e.Stats.Rejudged++
	}
	e.provisional = nil
}

// establishReference measures the throughput canary's own twelve adds,
// eight snippets a round in jobs of their own, until the run's canary
// reference has counted referenceNotes jobs or referenceBudget has
// passed (a quarter of the time left, before Options.Deadline), before
// the engine's first measurement. Without it a run's first estimates are
// judged against a reference of two jobs, or none: with the Emerald
// Rapids guest's neighbour at its busiest (2026-11-27) a sweep's helper
// round trips converged with the canary at 0.117 and 0.340 cycles an add
// (0.200 quiet) and read 3.957-3.968 cycles for 3.998, and the first
// batch's results were judged against references of 0.253 and 0.313. On
// a quiet host it is one round of eight one-job measurements.
func (e *Engine) establishReference(o Options) {
	if e.referencing || e.referenced() {
		return
	}
	e.referencing = true
	defer func() { e.referencing = false }()
	snips, ro := referenceCall(o)
	start, jobs := time.Now(), e.Stats.Jobs
	budget := referenceBudget
	if !o.Deadline.IsZero() {
		budget = min(budget, time.Until(o.Deadline)/4)
	}
	for !e.referenced() && time.Since(start) < budget {
		e.MeasureAll(snips, ro, nil)
	}
	e.Stats.Reference += time.Since(start)
	e.Stats.ReferenceJobs += e.Stats.Jobs - jobs
}

// referenced reports whether each of the three throughput canaries has
// referenceNotes jobs behind its reference.
func (e *Engine) referenced() bool {
	return e.refs.Tp.Notes() >= referenceNotes && e.refs.Vec.Notes() >= referenceNotes && e.refs.Ld.Notes() >= referenceNotes
}

// referenceCall is what establishReference measures: the canary's adds,
// eight times, one snippet a job.
func referenceCall(o Options) ([]*Snippet, Options) {
	s, err := ParseSnippet("throughput canary", tpCanaryBody)
	if err != nil {
		panic(err) // a constant without annotations
	}
	snips := make([]*Snippet, 8)
	for i := range snips {
		snips[i] = s
	}
	// No retries: a job counts toward the reference whether it is a
	// snippet's first or its fifth, and a retry waits its back-off first
	// (20-160 ms), which with eight snippets a round all disturbed left
	// the engine asleep and ran the warm-up past its budget.
	return snips, Options{Mode: "inverse_throughput", Group: 1, NoFTZ: o.NoFTZ, RetryBackoff: o.RetryBackoff, MaxRetries: -1}
}

// converged reports whether a snippet's estimate is as sure as the options
// ask: its uncertainty within o.RelTol of the value (or o.AbsTol cycles per
// instruction), and its throughput canary not slower than this engine's
// reference by more than perf.SiblingSlack (a neighbour busy throughout the
// snippet's jobs leaves floors that agree with each other and are all
// slow: only a reference from a quieter moment shows it).
func (e *Engine) converged(est perf.Estimate, p *prepared, o Options) bool {
	return est.Converged(o.RelTol, o.AbsTol*float64(p.instrs)) && est.CanaryClear(e.refs.Values())
}

// complete turns a finished group's repetitions into its measurements.
func (e *Engine) complete(g *groupRun, o Options) {
	for k, p := range g.ps {
		m := g.ms[k]
		if m.Err != nil {
			continue
		}
		m.Clock = g.clock
		est := g.layout[k].Estimate(g.reps[k])
		m.Estimate = est
		m.Timings, m.Layout = g.reps[k], g.layout[k]
		m.PerSnippet = perf.Stats{Median: est.Value, Min: est.Values.Min, Max: est.Values.Max, N: est.Reps}
		m.PerInstr = m.PerSnippet.Scale(1 / float64(p.instrs))
		m.Uncertainty = est.Uncertainty / float64(p.instrs)
		m.Converged = e.converged(est, p, o)
		if m.Converged && !e.referencing && !e.referenced() {
			e.provisional = append(e.provisional, provisional{m, p, o})
		}
		m.Canaries = perf.Canaries{Latency: est.LatCanary, Throughput: est.TpCanary, Vector: est.VecCanary, Load: est.LdCanary}
		m.Reps, m.Clean = est.Reps, est.Reps-est.Disturbed
		m.Clock.CyclesPerTick = est.CyclesPerTick
		if !m.Converged {
			m.Warnings = append(m.Warnings, notConverged(est, p, o, e.refs.Values()))
		}
		if f := m.Clock.FrequencyFactor; f > 1.02 || (f > 0 && f < 0.98) {
			m.Warnings = append(m.Warnings, fmt.Sprintf("the frequency probe after this snippet read %.3fx the calibration's ticks per cycle: a clock change (or a busy SMT sibling) may skew it by that much", f))
		}
		if !e.referencing {
			e.Recorder.record(m, e.refs.Values())
		}
	}
}

// notConverged says why an estimate is less sure than asked.
func notConverged(est perf.Estimate, p *prepared, o Options, refs perf.References) string {
	per := float64(p.instrs)
	msg := fmt.Sprintf("not converged after %d repetitions: %.4f ± %.4f cycles per instruction (wanted ± %.4f; %.0f%% of repetitions disturbed, throughput canary %+.1f%% in the typical one)",
		est.Reps, est.Value/per, est.Uncertainty/per, math.Max(o.RelTol*math.Abs(est.Value), o.AbsTol*per)/per, 100*est.DisturbedShare(), 100*est.Sibling)
	if slow := est.SlowCanaries(refs); len(slow) > 0 {
		msg += fmt.Sprintf("; the throughput canaries off this run's quiet moments (cycles an instruction): %s: a busy SMT sibling throughout", strings.Join(slow, ", "))
	}
	if d := math.Abs(est.LatCanary/perf.LatCanaryExpected - 1); d > 0.01 {
		msg += fmt.Sprintf("; the latency canary reads %.3f (want %.0f): the clock conversion is off by %.1f%%", est.LatCanary, perf.LatCanaryExpected, 100*d)
	}
	return msg
}

// validation summarises the cache validation counters of a job.
func validation(res *jit.Result) (string, map[string]float64) {
	if res.CacheMisses == nil {
		note := res.CacheErr
		if note == "" {
			note = "validation counters unavailable"
		}
		return note, nil
	}
	names := []string{"l1d-read-misses", "llc-read-misses", "dtlb-read-misses"}
	out := map[string]float64{}
	for k, n := range names {
		var v []float64
		for _, r := range res.CacheMisses {
			v = append(v, float64(r[k]))
		}
		out[n] = perf.NewStats(v).Median
	}
	return "", out
}

// culprit returns the snippet whose function holds the crash, or -1.
func (e *Engine) culprit(l *jobLayout, ce *jit.CrashError) int {
	if ce.Offset < 0 {
		return -1
	}
	fn := -1
	for k, f := range l.job.Funcs {
		if f.Offset <= ce.Offset {
			fn = k
		}
	}
	for s, idx := range l.funcs {
		for _, f := range idx {
			if f == fn {
				return s
			}
		}
	}
	return -1
}

// tailIters sizes the frequency probe: 250 x 64 dependent adds, 16,000
// cycles (about 4 us), long enough that the TSC's 10 ns steps leave it
// within 0.2%.
const tailIters = 250

// freqThreshold is the clock change below which no correction is applied:
// the probe's own noise is about this size.
const freqThreshold = 0.004

// clockFactors returns, per function, its frequency probe against the
// calibration functions' probe (ticks per cycle relative to the
// calibration): the fewest ticks over all repetitions of each, since an
// interruption only ever adds ticks while a clock change shifts them all.
// Factors within the probe's noise are 1.
func clockFactors(job *jit.Job, res *jit.Result) map[int]float64 {
	out := map[int]float64{}
	if res.Tail == nil || res.Cycles != nil {
		return out
	}
	fewest := map[int]uint64{}
	for _, tails := range res.Tail {
		for pos, f := range job.Schedule {
			if t := tails[pos]; t > 0 && (fewest[f] == 0 || t < fewest[f]) {
				fewest[f] = t
			}
		}
	}
	base := fewest[fCalibN]
	if t := fewest[fCalib2N]; t > 0 && (base == 0 || t < base) {
		base = t
	}
	if base == 0 {
		return out
	}
	for f, t := range fewest {
		c := float64(t) / float64(base)
		if c > 1-freqThreshold && c < 1+freqThreshold {
			c = 1
		}
		out[f] = c
	}
	return out
}

// interpret turns one job's raw ticks into per-repetition timings of
// snippet k (perf.Timing: every point per loop count of its group) and the
// layout that turns them into cycles.
func interpret(p *prepared, l *jobLayout, k int, res *jit.Result, o Options) ([]perf.Timing, perf.Layout, perf.Clock) {
	job := l.job
	first, last := map[int]int{}, map[int]int{}
	for pos, f := range job.Schedule {
		if _, ok := first[f]; !ok {
			first[f] = pos
		}
		last[f] = pos
	}
	per := func(f int) float64 { return float64(res.Counts[job.Funcs[f].Group]) }
	clock := perf.Clock{Source: perf.CalibratedTSC, HardwareErr: res.CounterErr}
	useHW := res.Cycles != nil
	if useHW {
		clock.Source = perf.HardwareCycles
	}
	fs := l.funcs[k] // snip-n, snip-2n[, loop-n, loop-2n]
	// The frequency probe is reported, not applied: with AVX-512 jobs kept
	// in one licence (Frame.Warm) it reads 1 on a quiet machine, and a
	// busy SMT sibling moves it without any change of clock (it then made
	// 4-cycle FMAs read 3.7). A factor off 1 becomes a warning instead.
	factor := clockFactors(job, res)
	clock.FrequencyFactor = 1
	if c, ok := factor[fs[0]]; ok {
		clock.FrequencyFactor = c
	}
	lay := allCanaries(perf.Layout{CalibSpan: calibCopies, LatSpan: latCopies, TpSpan: tpCopies * tpCanaryAdds, Hardware: useHW}, p.vec, p.mem)
	// A point's count is its group's; the spans say how many copies the
	// functions run per count (Func.Mult).
	mult := func(f int) float64 { return float64(job.Funcs[f].Mult) }
	switch o.Repetition {
	case MiddleHalfDuplicate:
		lay.Span, lay.Differential = float64(p.copies), true
	case MiddleHalfLoop:
		lay.Span, lay.Differential = mult(fs[1])-mult(fs[0]), true
	case Duplicate:
		lay.Span = float64(p.copies)
	case Loop:
		lay.Span = mult(fs[0])
	case Min:
		lay.Span, lay.AltSpan = float64(p.copies), mult(fs[2])
	}
	var ts []perf.Timing
	for r := range res.Ticks {
		t := res.Ticks[r]
		at := func(pos, f int) float64 { return float64(t[pos]) / per(f) }
		val := at
		if useHW {
			cy := res.Cycles[r]
			val = func(pos, f int) float64 { return float64(cy[pos]) / per(f) }
		}
		var x perf.Timing
		x.Calib[0] = [2]float64{at(first[fCalibN], fCalibN), at(first[fCalib2N], fCalib2N)}
		x.Calib[1] = [2]float64{at(last[fCalibN], fCalibN), at(last[fCalib2N], fCalib2N)}
		x.Lat = [2]float64{val(first[fLatN], fLatN), val(first[fLat2N], fLat2N)}
		x.Tp = [2]float64{val(first[fTpN], fTpN), val(first[fTp2N], fTp2N)}
		// Every job measures the vector and load canaries: those that do
		// not judge the snippet still count toward the run's references.
		x.Vec = [2]float64{val(first[fVecN], fVecN), val(first[fVec2N], fVec2N)}
		x.Ld = [2]float64{val(first[fLdN], fLdN), val(first[fLd2N], fLd2N)}
		x.Snip[0] = val(first[fs[0]], fs[0])
		if lay.Differential {
			x.Snip[1] = val(first[fs[1]], fs[1])
		}
		if o.Repetition == Min {
			x.Alt = val(first[fs[2]], fs[2])
		}
		if res.ContextSwitches != nil {
			x.ContextSwitches, x.Migrations = res.ContextSwitches[r], res.Migrations[r]
		}
		ts = append(ts, x)
	}
	return ts, lay, clock
}

// locate names the source line a crash happened at, when the PC is inside a
// copy of snippet k's body.
func locate(p *prepared, l *jobLayout, k int, ce *jit.CrashError) string {
	probe := p.pobj
	if ce.Offset < 0 || probe == nil || len(probe.Code) == 0 {
		return ""
	}
	for r, fi := range l.funcs[k] {
		f := l.job.Funcs[fi]
		obj := p.objs[r]
		if ce.Offset < f.Offset || ce.Offset >= f.Offset+len(obj.Code) {
			continue
		}
		bs, ok1 := obj.Marks["__portlab_body"+jit.UnitToken]
		be, ok2 := obj.Marks["__portlab_bodyend"+jit.UnitToken]
		off := ce.Offset - f.Offset
		if !ok1 || !ok2 || off < bs || off >= be {
			return "harness code of " + p.s.Name
		}
		within := (off - bs) % len(probe.Code)
		lines := strings.Split(strings.TrimRight(p.s.Source, "\n"), "\n")
		marks := jit.ProbeMarks(len(lines))
		for i := range lines {
			if o, ok := probe.Marks[marks[i]]; ok && o <= within && probe.Marks[marks[i+1]] > within {
				return fmt.Sprintf("%s:%d: %s", p.s.Name, i+1+p.s.LineOffset, strings.TrimSpace(lines[i]))
			}
		}
		return p.s.Name
	}
	return ""
}
