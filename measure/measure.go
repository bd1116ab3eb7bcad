package measure

import (
	"fmt"
	"regexp"
	"sort"
	"strings"

	"portlab/jit"
	"portlab/perf"
)

// Repetition is how a snippet is repeated to fill the timed window, as in
// llvm-exegesis. The middle-half modes time the body at two lengths and take
// the difference, T(2n) - T(n), which cancels the harness's own cost.
type Repetition string

// Repetition modes.
const (
	Duplicate           Repetition = "duplicate"
	Loop                Repetition = "loop"
	Min                 Repetition = "min"
	MiddleHalfDuplicate Repetition = "middle-half-duplicate"
	MiddleHalfLoop      Repetition = "middle-half-loop"
)

// ParseRepetition accepts the exegesis names (and "middle-half" for
// middle-half-duplicate).
func ParseRepetition(s string) (Repetition, error) {
	switch Repetition(s) {
	case Duplicate, Loop, Min, MiddleHalfDuplicate, MiddleHalfLoop:
		return Repetition(s), nil
	case "middle-half":
		return MiddleHalfDuplicate, nil
	}
	return "", fmt.Errorf("unknown repetition mode %q (want duplicate, loop, min, middle-half-duplicate or middle-half-loop)", s)
}

// Options control one measurement.
type Options struct {
	Mode            string     // exegesis measurement key: "latency" or "inverse_throughput"
	Repetition      Repetition // default MiddleHalfDuplicate
	MinInstructions int        // instructions in the short body (default 128)
	Reps            int        // repetitions of the schedule (default 21)
	Calls           int        // calls per point, fewest ticks kept (default 5)
	TargetTicks     uint64     // TSC ticks per call (default ~20 us)
	MaxRetries      int        // extra jobs when too many repetitions were disturbed (default 2)
	NoFTZ           bool       // leave MXCSR's flush-to-zero/denormals-are-zero off
}

func (o *Options) defaults(tscHz float64) {
	if o.Mode == "" {
		o.Mode = "latency"
	}
	if o.Repetition == "" {
		o.Repetition = MiddleHalfDuplicate
	}
	if o.MinInstructions <= 0 {
		o.MinInstructions = 128
	}
	if o.Reps <= 0 {
		o.Reps = 21
	}
	if o.Calls <= 0 {
		o.Calls = 5
	}
	if o.TargetTicks == 0 {
		if tscHz <= 0 {
			tscHz = 2.5e9
		}
		o.TargetTicks = uint64(20e-6 * tscHz)
	}
	if o.MaxRetries < 0 {
		o.MaxRetries = 0
	} else if o.MaxRetries == 0 {
		o.MaxRetries = 2
	}
}

// Host is what the engine needs to know about the machine.
type Host struct {
	Has   func(feature string) bool
	TSCHz float64
	CPU   string // LLVM cpu name, for results
}

// Engine measures snippets: it assembles them into harness functions,
// interleaves them with the calibration chain and the canaries, runs the
// job in the worker and turns the ticks into cycles.
type Engine struct {
	Asm    *jit.Assembler
	Runner *jit.Runner
	Host   Host
}

// Measurement is the result of timing one snippet.
type Measurement struct {
	Snippet      *Snippet
	Mode         string
	Repetition   Repetition
	Instructions int        // instructions per snippet copy
	PerSnippet   perf.Stats // cycles per snippet copy over clean repetitions
	PerInstr     perf.Stats // cycles per instruction
	Clock        perf.Clock // what the cycles were counted with
	Canaries     perf.Canaries
	Reps, Clean  int
	Warnings     []string
	Code         []byte // the snippet's own bytes (one copy)
	Copies       int    // copies in the short body
	Err          error  // the snippet could not be measured (assembly error, crash, timeout)
	LoopRegister string
}

// Instruction bodies of the calibration chain and canaries. The calibration
// chain is `add r64, r64` (latency 1 on every x86 core); the latency canary
// is `imul r64, r64` (latency 3 on every x86-64 core since Core 2 and K10);
// the throughput canary is eight independent adds (ALU-port bound).
const (
	calibBody    = "add rax, rcx"
	latCanary    = "imul rax, rcx"
	tpCanaryBody = "add rbx, 1\nadd rsi, 1\nadd rdi, 1\nadd r9, 1\nadd r10, 1\nadd r11, 1\nadd r12, 1\nadd r13, 1"
	calibCopies  = 128
	latCopies    = 64
	tpCopies     = 16 // 128 adds
)

// prepared is a snippet turned into assembler units.
type prepared struct {
	s       *Snippet
	frame   jit.Frame
	units   []*jit.Unit // probe, then harness functions
	roles   []role
	copies  int
	instrs  int
	err     error
	probeIx int
}

type role struct {
	name  string // "calib-n", "snip-2n", ...
	group int
	mult  uint64
}

// Function roles in a job; the schedule refers to them by index.
const (
	rCalibN = iota
	rCalib2N
	rLatN
	rLat2N
	rTpN
	rTp2N
	rSnipN
	rSnip2N
	rLoopN  // loop-mode snippet, short trip count (min mode only)
	rLoop2N // loop-mode snippet, long trip count
)

func (e *Engine) frameFor(s *Snippet, loopReg string) jit.Frame {
	has := e.Host.Has
	if has == nil {
		has = func(string) bool { return false }
	}
	f := jit.Frame{LoopReg: loopReg, HasAVX: has("avx"), MXCSR: true}
	w := jit.VectorWidth(s.Source)
	switch {
	case w == 64 && !has("avx512f"):
		w = 32
	}
	if w == 32 && !has("avx") {
		w = 0
	}
	if w == 16 && !has("avx") {
		w = 0
	}
	f.VecWidth = w
	if has("avx512f") && w == 64 {
		f.Masks = true
		f.MasksQ = has("avx512bw")
	}
	return f
}

func (e *Engine) prepare(s *Snippet, o Options) *prepared {
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
	lines := strings.Count(strings.TrimRight(s.Source, "\n"), "\n") + 1
	p.units = append(p.units, &jit.Unit{Name: s.Name, Source: jit.ProbeSource(s.Source), ATT: s.ATT,
		LineOffset: s.LineOffset, Marks: jit.ProbeMarks(lines)})
	return p
}

// probe finishes preparation once the probe unit has assembled: it knows the
// snippet's size and can size the bodies.
func (e *Engine) addHarness(p *prepared, probe *jit.Object, o Options) {
	s := p.s
	p.instrs = s.Instructions
	lines := strings.Count(strings.TrimRight(s.Source, "\n"), "\n") + 1
	if p.instrs == 0 {
		marks := jit.ProbeMarks(lines)
		for i := 0; i < lines; i++ {
			if probe.Marks[marks[i+1]] > probe.Marks[marks[i]] && !isDirectiveLine(strings.Split(s.Source, "\n")[i]) {
				p.instrs++
			}
		}
	}
	if len(probe.Code) == 0 || p.instrs == 0 {
		p.err = fmt.Errorf("%s: snippet assembles to no instructions", s.Name)
		return
	}
	p.copies = (o.MinInstructions + p.instrs - 1) / p.instrs
	if p.copies < 1 {
		p.copies = 1
	}
	cf := p.frame
	cf.LoopReg = "r15"
	if p.frame.LoopReg == "r15" {
		cf.LoopReg = "r14"
	}
	add := func(name, src string, group int, mult uint64) {
		marks := []string{}
		if strings.HasPrefix(name, "snip") || strings.HasPrefix(name, "loop") {
			marks = []string{"__portlab_body" + jit.UnitToken, "__portlab_bodyend" + jit.UnitToken}
		}
		p.units = append(p.units, &jit.Unit{Name: s.Name, Source: src, ATT: false, LineOffset: s.LineOffset, Marks: marks})
		p.roles = append(p.roles, role{name: name, group: group, mult: mult})
	}
	add("calib-n", jit.HarnessSource(cf, calibBody, false, calibCopies), 0, 1)
	add("calib-2n", jit.HarnessSource(cf, calibBody, false, 2*calibCopies), 0, 1)
	add("lat-n", jit.HarnessSource(cf, latCanary, false, latCopies), 1, 1)
	add("lat-2n", jit.HarnessSource(cf, latCanary, false, 2*latCopies), 1, 1)
	add("tp-n", jit.HarnessSource(cf, tpCanaryBody, false, tpCopies), 2, 1)
	add("tp-2n", jit.HarnessSource(cf, tpCanaryBody, false, 2*tpCopies), 2, 1)
	switch o.Repetition {
	case Loop, MiddleHalfLoop:
		add("loop-n", jit.HarnessSource(p.frame, s.Source, s.ATT, 1), 3, uint64(p.copies))
		add("loop-2n", jit.HarnessSource(p.frame, s.Source, s.ATT, 1), 3, uint64(2*p.copies))
	default:
		add("snip-n", jit.HarnessSource(p.frame, s.Source, s.ATT, p.copies), 3, 1)
		add("snip-2n", jit.HarnessSource(p.frame, s.Source, s.ATT, 2*p.copies), 3, 1)
		if o.Repetition == Min {
			add("loop-n", jit.HarnessSource(p.frame, s.Source, s.ATT, 1), 4, uint64(p.copies))
			add("loop-2n", jit.HarnessSource(p.frame, s.Source, s.ATT, 1), 4, uint64(2*p.copies))
		}
	}
}

var directiveLine = regexp.MustCompile(`^\s*(?:[A-Za-z_.$0-9]+:\s*)*\.`)

func isDirectiveLine(l string) bool { return directiveLine.MatchString(l) }

// MeasureAll measures snippets in order, assembling them in one batch.
// progress, if non-nil, is called after each snippet.
func (e *Engine) MeasureAll(snips []*Snippet, o Options, progress func(done int, m *Measurement)) []*Measurement {
	o.defaults(e.Host.TSCHz)
	out := make([]*Measurement, len(snips))
	preps := make([]*prepared, len(snips))
	var probes []*jit.Unit
	var probeOf []int
	for i, s := range snips {
		preps[i] = e.prepare(s, o)
		if preps[i].err == nil {
			probes = append(probes, preps[i].units[0])
			probeOf = append(probeOf, i)
		}
	}
	objs, errs := e.Asm.Assemble(probes)
	var units []*jit.Unit
	var unitOwner []int
	probeObj := make([]*jit.Object, len(snips))
	for k, i := range probeOf {
		if errs[k] != nil {
			preps[i].err = errs[k]
			continue
		}
		probeObj[i] = objs[k]
		e.addHarness(preps[i], objs[k], o)
		if preps[i].err != nil {
			continue
		}
		for _, u := range preps[i].units[1:] {
			units = append(units, u)
			unitOwner = append(unitOwner, i)
		}
	}
	hobjs, herrs := e.Asm.Assemble(units)
	funcObjs := make([][]*jit.Object, len(snips))
	for k, i := range unitOwner {
		if herrs[k] != nil && preps[i].err == nil {
			preps[i].err = herrs[k]
		}
		funcObjs[i] = append(funcObjs[i], hobjs[k])
	}
	for i, s := range snips {
		p := preps[i]
		m := &Measurement{Snippet: s, Mode: o.Mode, Repetition: o.Repetition, Instructions: p.instrs,
			Copies: p.copies, LoopRegister: p.frame.LoopReg}
		if probeObj[i] != nil {
			m.Code = probeObj[i].Code
		}
		if p.err != nil {
			m.Err = p.err
		} else {
			e.run(p, funcObjs[i], probeObj[i], o, m)
		}
		out[i] = m
		if progress != nil {
			progress(i+1, m)
		}
	}
	return out
}

// Measure measures one snippet.
func (e *Engine) Measure(s *Snippet, o Options) *Measurement {
	return e.MeasureAll([]*Snippet{s}, o, nil)[0]
}

func (e *Engine) buildJob(p *prepared, objs []*jit.Object, o Options) (*jit.Job, error) {
	job := &jit.Job{Reps: o.Reps, Calls: o.Calls, TargetTicks: o.TargetTicks, Counters: true,
		CodeAddr: p.s.SnippetAddr, Scratch: 1 << 20}
	for k, obj := range objs {
		for len(job.Code)%64 != 0 {
			job.Code = append(job.Code, 0xcc)
		}
		r := p.roles[k]
		job.Funcs = append(job.Funcs, jit.Func{Offset: len(job.Code), Group: r.group, Mult: r.mult})
		job.Code = append(job.Code, obj.Code...)
	}
	// Calibration before and after the measured functions, so drift within a
	// repetition shows up as disagreement between the two.
	job.Schedule = []int{rCalibN, rCalib2N}
	for k := rSnipN; k < len(objs); k++ {
		job.Schedule = append(job.Schedule, k)
	}
	job.Schedule = append(job.Schedule, rLatN, rLat2N, rTpN, rTp2N, rCalibN, rCalib2N)
	if err := e.setup(p, o, &job.Init, job); err != nil {
		return nil, err
	}
	return job, nil
}

var (
	memIntel = regexp.MustCompile(`\[([^\]]*)\]`)
	memATT   = regexp.MustCompile(`\(\s*(%[a-z0-9]+)?\s*(?:,\s*(%[a-z0-9]+)\s*)?(?:,\s*\d+\s*)?\)`)
	regWord  = regexp.MustCompile(`(?i)\b(r(?:[89]|1[0-5])d?|[re](?:ax|bx|cx|dx|si|di|bp|sp))\b`)
)

// memRegisters finds the general registers used as base and index in src.
func memRegisters(src string, att bool) (bases, indexes map[string]bool) {
	bases, indexes = map[string]bool{}, map[string]bool{}
	text := stripAll(src)
	if att {
		for _, m := range memATT.FindAllStringSubmatch(text, -1) {
			if m[1] != "" {
				bases[gpr64(m[1][1:])] = true
			}
			if m[2] != "" {
				indexes[gpr64(m[2][1:])] = true
			}
		}
		return
	}
	for _, m := range memIntel.FindAllStringSubmatch(text, -1) {
		for _, term := range strings.FieldsFunc(m[1], func(r rune) bool { return r == '+' || r == '-' }) {
			regs := regWord.FindAllString(term, -1)
			if len(regs) == 0 {
				continue
			}
			if strings.Contains(term, "*") {
				indexes[gpr64(regs[0])] = true
			} else if len(bases) == 0 || !strings.Contains(m[1], "*") {
				bases[gpr64(regs[0])] = true
			} else {
				bases[gpr64(regs[0])] = true
			}
		}
	}
	return
}

func gpr64(r string) string {
	r = strings.ToLower(r)
	if strings.HasPrefix(r, "r") && len(r) > 1 && r[1] >= '0' && r[1] <= '9' {
		return strings.TrimRight(r, "dwb")
	}
	if len(r) == 3 && (r[0] == 'e' || r[0] == 'r') {
		return "r" + r[1:]
	}
	return r
}

// Default register values: small, odd and non-zero, so that divisors are
// non-zero, shift counts are not zero, and RDX:RAX / r never overflows.
const defaultGPR = 0x13

// setup fills the machine state: defaults first, then the snippet's own
// annotations.
func (e *Engine) setup(p *prepared, o Options, in *jit.Init, job *jit.Job) error {
	s := p.s
	for i := range in.GPR {
		in.GPR[i] = defaultGPR
	}
	in.GPR[2] = 0 // rdx: high half of dividends
	bases, indexes := memRegisters(s.Source, s.ATT)
	// Base registers point into the scratch buffer, each at its own 8 KiB
	// slot offset by a different multiple of 256 bytes, so that streams of
	// different bases never alias modulo 4 KiB. The buffer starts 64 KiB in
	// so negative displacements stay inside it.
	slot := 0
	for _, r := range sortedKeys(bases) {
		n := jit.GPRNumber(r)
		if n < 0 || n == 4 {
			continue
		}
		in.GPR[n] = uint64(64<<10 + slot*(8<<10) + slot*256)
		in.GPRScratch[n] = true
		slot++
	}
	for r := range indexes {
		if n := jit.GPRNumber(r); n >= 0 && !bases[r] {
			in.GPR[n] = 0
		}
	}
	for _, r := range s.LiveIns {
		n := jit.GPRNumber(r)
		in.GPR[n] = 0
		in.GPRScratch[n] = true
	}
	// Vector registers: 1.0 in the element type the snippet uses, so that
	// multiplies and divides stay put and nothing becomes denormal.
	pattern := vectorPattern(s.Source)
	for i := range in.Vec {
		for j := 0; j < 64; j += len(pattern) {
			copy(in.Vec[i][j:], pattern)
		}
	}
	for i := range in.K {
		in.K[i] = ^uint64(0)
	}
	in.MXCSR = 0x9fc0 // FTZ | DAZ | all exceptions masked: no denormal assists
	if o.NoFTZ {
		in.MXCSR = 0x1f80 // the default: all exceptions masked
	}
	in.ScratchSelf = s.ScratchSelf
	for _, name := range s.sortedDefRegs() {
		v := s.DefRegs[name]
		lname := strings.ToLower(name)
		switch {
		case jit.GPRNumber(lname) >= 0:
			n := jit.GPRNumber(lname)
			if n == 4 {
				return fmt.Errorf("%s: LLVM-EXEGESIS-DEFREG cannot set RSP", s.Name)
			}
			in.GPR[n] = v.Uint64()
			in.GPRScratch[n] = false
		case vecReg.MatchString(name):
			m := vecReg.FindStringSubmatch(name)
			var idx int
			fmt.Sscanf(m[2], "%d", &idx)
			b := leBytes(v, 0)
			width := map[string]int{"X": 16, "Y": 32, "Z": 64}[m[1]]
			if len(b) > width {
				return fmt.Errorf("%s: LLVM-EXEGESIS-DEFREG %s: value wider than %d bytes", s.Name, name, width)
			}
			var row [64]byte
			copy(row[:], b)
			in.Vec[idx] = row
		case maskReg.MatchString(name):
			in.K[name[1]-'0'] = v.Uint64()
		case name == "MXCSR":
			in.MXCSR = uint32(v.Uint64())
		}
	}
	for _, mm := range s.MemMaps {
		d := s.MemDefs[mm.Name]
		job.Regions = append(job.Regions, jit.Region{Name: mm.Name, Addr: mm.Addr, Size: d.Size, Fill: d.Value})
	}
	return nil
}

func sortedKeys(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

var (
	doubleOps = regexp.MustCompile(`(?im)^\s*(?:\{[a-z]+\}\s*)?v?[a-z0-9]*(?:pd|sd)\b`)
	halfOps   = regexp.MustCompile(`(?im)^\s*(?:\{[a-z]+\}\s*)?v[a-z0-9]*(?:ph|sh)\b`)
)

func vectorPattern(src string) []byte {
	text := stripAll(src)
	switch {
	case doubleOps.MatchString(text):
		return []byte{0, 0, 0, 0, 0, 0, 0xf0, 0x3f} // 1.0
	case halfOps.MatchString(text):
		return []byte{0x00, 0x3c} // 1.0 (binary16)
	}
	return []byte{0, 0, 0x80, 0x3f} // 1.0f
}

func (e *Engine) run(p *prepared, objs []*jit.Object, probe *jit.Object, o Options, m *Measurement) {
	job, err := e.buildJob(p, objs, o)
	if err != nil {
		m.Err = err
		return
	}
	var reps []perf.Rep
	var clock perf.Clock
	for attempt := 0; attempt <= o.MaxRetries; attempt++ {
		res, err := e.Runner.Run(job)
		if err != nil {
			if ce, ok := jit.AsCrash(err, job); ok {
				ce.Where = locate(p, objs, probe, job, ce)
				m.Err = ce
				return
			}
			m.Err = err
			return
		}
		newReps, c := e.interpret(p, job, res, o)
		clock = c
		reps = append(reps, newReps...)
		if perf.CountClean(reps) >= (o.Reps+1)/2 {
			break
		}
	}
	m.Clock = clock
	sum := perf.Summarize(reps)
	m.PerSnippet = sum.Value
	m.PerInstr = sum.Value.Scale(1 / float64(p.instrs))
	m.Canaries = sum.Canaries
	m.Reps, m.Clean = sum.Reps, sum.Clean
	m.Clock.CyclesPerTick = sum.CyclesPerTick
	m.Warnings = append(m.Warnings, sum.Warnings...)
}

// interpret turns one job's raw ticks into per-repetition values.
func (e *Engine) interpret(p *prepared, job *jit.Job, res *jit.Result, o Options) ([]perf.Rep, perf.Clock) {
	pos := map[int]int{} // function index -> schedule position (first occurrence)
	last := map[int]int{}
	for k, f := range job.Schedule {
		if _, ok := pos[f]; !ok {
			pos[f] = k
		}
		last[f] = k
	}
	count := func(f int) float64 {
		fn := job.Funcs[f]
		return float64(res.Counts[fn.Group] * fn.Mult)
	}
	clock := perf.Clock{Source: perf.CalibratedTSC, HardwareErr: res.CounterErr}
	useHW := res.Cycles != nil
	if useHW {
		clock.Source = perf.HardwareCycles
	}
	var reps []perf.Rep
	for r := range res.Ticks {
		t := res.Ticks[r]
		tk := func(f int) float64 { return float64(t[pos[f]]) }
		tkLast := func(f int) float64 { return float64(t[last[f]]) }
		calibPerAdd1 := (tk(rCalib2N)*1 - tk(rCalibN)) / (count(rCalibN) * calibCopies)
		calibPerAdd2 := (tkLast(rCalib2N) - tkLast(rCalibN)) / (count(rCalibN) * calibCopies)
		rep := perf.Rep{}
		rep.TicksPerCycle = (calibPerAdd1 + calibPerAdd2) / 2
		rep.CalibrationDrift = relDiff(calibPerAdd1, calibPerAdd2)
		cyc := func(diffTicks float64, f int, copies float64) float64 {
			return diffTicks / (count(f) * copies) / rep.TicksPerCycle
		}
		rep.LatCanary = cyc(tk(rLat2N)-tk(rLatN), rLatN, latCopies)
		rep.TpCanary = cyc(tk(rTp2N)-tk(rTpN), rTpN, tpCopies*8)
		var value float64
		switch o.Repetition {
		case MiddleHalfDuplicate:
			value = cyc(tk(rSnip2N)-tk(rSnipN), rSnipN, float64(p.copies))
		case MiddleHalfLoop:
			value = cyc(tk(rSnip2N)-tk(rSnipN), rSnipN, 1)
		case Duplicate:
			value = cyc(tk(rSnipN), rSnipN, float64(p.copies))
		case Loop:
			value = cyc(tk(rSnipN), rSnipN, 1)
		case Min:
			d := cyc(tk(rSnipN), rSnipN, float64(p.copies))
			l := cyc(tk(rLoopN), rLoopN, 1)
			value = d
			if l < d {
				value = l
			}
		}
		if useHW {
			cy := res.Cycles[r]
			c := func(f int) float64 { return float64(cy[pos[f]]) }
			hw := func(diff float64, f int, copies float64) float64 { return diff / (count(f) * copies) }
			rep.LatCanary = hw(c(rLat2N)-c(rLatN), rLatN, latCopies)
			rep.TpCanary = hw(c(rTp2N)-c(rTpN), rTpN, tpCopies*8)
			switch o.Repetition {
			case MiddleHalfDuplicate:
				value = hw(c(rSnip2N)-c(rSnipN), rSnipN, float64(p.copies))
			case MiddleHalfLoop:
				value = hw(c(rSnip2N)-c(rSnipN), rSnipN, 1)
			case Duplicate:
				value = hw(c(rSnipN), rSnipN, float64(p.copies))
			case Loop:
				value = hw(c(rSnipN), rSnipN, 1)
			case Min:
				value = min(hw(c(rSnipN), rSnipN, float64(p.copies)), hw(c(rLoopN), rLoopN, 1))
			}
		}
		rep.Value = value
		if res.ContextSwitches != nil {
			rep.ContextSwitches = res.ContextSwitches[r]
			rep.Migrations = res.Migrations[r]
			rep.HaveSoftware = true
		}
		reps = append(reps, rep)
	}
	perf.MarkDisturbed(reps)
	return reps, clock
}

func relDiff(a, b float64) float64 {
	if a+b == 0 {
		return 0
	}
	d := (a - b) / ((a + b) / 2)
	if d < 0 {
		d = -d
	}
	return d
}

// locate names the source line a crash happened at, when the PC is inside a
// copy of the snippet body.
func locate(p *prepared, objs []*jit.Object, probe *jit.Object, job *jit.Job, ce *jit.CrashError) string {
	if ce.Offset < 0 || probe == nil || len(probe.Code) == 0 {
		return ""
	}
	for k, f := range job.Funcs {
		if ce.Offset < f.Offset || ce.Offset >= f.Offset+len(objs[k].Code) {
			continue
		}
		bs, ok1 := objs[k].Marks["__portlab_body"+jit.UnitToken]
		be, ok2 := objs[k].Marks["__portlab_bodyend"+jit.UnitToken]
		off := ce.Offset - f.Offset
		if !ok1 || !ok2 || off < bs || off >= be {
			return "harness code of " + p.s.Name
		}
		within := (off - bs) % len(probe.Code)
		lines := strings.Split(strings.TrimRight(p.s.Source, "\n"), "\n")
		marks := jit.ProbeMarks(len(lines))
		best := -1
		for i := 0; i < len(lines); i++ {
			if o, ok := probe.Marks[marks[i]]; ok && o <= within && probe.Marks[marks[i+1]] > within {
				best = i
			}
		}
		if best >= 0 {
			return fmt.Sprintf("%s:%d: %s", p.s.Name, best+1+p.s.LineOffset, strings.TrimSpace(lines[best]))
		}
		return p.s.Name
	}
	return ""
}
