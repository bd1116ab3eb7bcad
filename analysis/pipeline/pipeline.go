package pipeline

import (
	"fmt"
	"math/bits"
)

// Stage is one stage of the pipeline. Stages are chained: a stage hands an
// instruction to the next with Execute once the next IsAvailable for it.
type Stage interface {
	// HasWork reports whether the stage still holds instructions.
	HasWork() bool
	// CycleStart is called at the start of every cycle, last stage first.
	CycleStart() error
	// CycleEnd is called at the end of every cycle, first stage first.
	CycleEnd() error
	// IsAvailable reports whether the stage can take in now.
	IsAvailable(in *Inst) bool
	// Execute takes in.
	Execute(in *Inst) error
}

// instState is where an instruction is, as llvm-mca's Instruction stages.
type instState uint8

const (
	stFree       instState = iota // slot unused
	stFetched                     // waiting in the entry stage
	stDispatched                  // in the scheduler, some input's arrival unknown
	stPending                     // inputs' arrival known, not all arrived
	stReady                       // waiting for ports
	stExecuting                   // issued
	stExecuted                    // latency elapsed
	stRetired
)

// Inst is one dynamic instruction: the Pos'th instruction of the block in
// iteration Iteration. Listeners may read it during an event only: the
// pipeline reuses it for a later instruction once it has retired.
type Inst struct {
	Index     int // source index: Iteration*len(block) + Pos
	Pos       int
	Iteration int

	DispatchedAt, ReadyAt, IssuedAt, ExecutedAt int

	desc  *cdesc
	state instState

	unknown int // register inputs whose producers have not issued
	readyAt int // cycle at which the known register inputs have arrived
	users   []user
	// numUsers is llvm-mca's count of readers registered before issue,
	// which ranks ready instructions.
	numUsers int

	eliminated bool
	extra      int  // cycles beyond the latency in this iteration (InstrDesc.ExtraLatency)
	hasRegs    bool // took physical registers at dispatch
	lsuGroup   int

	critProducer, critReg, critCycles int // the register input that arrived last
	critMem                           int // index of the memory operation it waited for, -1
	critResources                     uint64
	critResFrom                       int // index of the instruction that last held a port it waited for, -1
}

type user struct {
	in      *Inst
	lat     int
	advance int
	reg     int
}

// Desc returns the instruction's descriptor.
func (in *Inst) Desc() *InstrDesc { return in.desc.InstrDesc }

// Eliminated reports whether the instruction was a move eliminated at
// renaming.
func (in *Inst) Eliminated() bool { return in.eliminated }

// CriticalRegister returns the source index of the instruction whose
// result arrived last among this one's register inputs, the register unit
// and how many cycles after dispatch it arrived; ok is false when no input
// waited.
func (in *Inst) CriticalRegister() (producer, reg, cycles int, ok bool) {
	return in.critProducer, in.critReg, in.critCycles, in.critProducer >= 0
}

// CriticalMemory returns the source index of the memory operation this one
// waited for, or -1.
func (in *Inst) CriticalMemory() int { return in.critMem }

// CriticalResources returns the ports found busy while the instruction was
// ready, and the source index of the instruction that last held one of
// them (-1 when none).
func (in *Inst) CriticalResources() (uint64, int) { return in.critResources, in.critResFrom }

// Result sums up a run.
type Result struct {
	Cycles       int
	Instructions int
	Uops         int
	// CommitHeld counts the cycles in which a store waited to retire
	// because the cycle's store commit (Config.StoreCommit) was spent.
	CommitHeld int
	// OwnHeld counts the cycles in which a ready instruction waited for
	// its own limit (InstrDesc.Own) alone.
	OwnHeld int
}

// Pipeline is the simulated core. It is reusable (Run resets it) but not
// safe for concurrent use.
type Pipeline struct {
	cfg       Config
	listeners []Listener
	stages    []Stage
	entry     *entryStage
	dispatch  *dispatchStage
	execute   *executeStage
	retire    *retireStage

	cycle int
	block []*cdesc
	store []cdesc // backing of block, reused from run to run
	iters int
	ring  []Inst
	mask  int

	rcu   rcu
	prf   regFile
	sched scheduler

	stalled    int // cycles since something retired
	emitEvents bool
}

// New returns a pipeline for the configuration.
func New(cfg Config) (*Pipeline, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	p := &Pipeline{cfg: cfg}
	p.entry = &entryStage{p: p}
	p.dispatch = &dispatchStage{p: p}
	p.execute = &executeStage{p: p}
	p.retire = &retireStage{p: p}
	p.stages = []Stage{p.entry, p.dispatch, p.execute, p.retire}
	p.entry.next, p.dispatch.next, p.execute.next = p.dispatch, p.execute, p.retire
	n := 1
	for n < cfg.ROBSize+3 {
		n <<= 1
	}
	p.ring = make([]Inst, n)
	p.mask = n - 1
	p.rcu.init(&p.cfg)
	p.prf.init(&p.cfg)
	p.sched.init(&p.cfg)
	return p, nil
}

// Config returns the pipeline's configuration.
func (p *Pipeline) Config() *Config { return &p.cfg }

// AddListener registers a listener for the events of later runs.
func (p *Pipeline) AddListener(l Listener) { p.listeners = append(p.listeners, l) }

// Cycle returns the current cycle.
func (p *Pipeline) Cycle() int { return p.cycle }

// Run simulates iterations of the block and returns the cycles it took.
func (p *Pipeline) Run(block []*InstrDesc, iterations int) (Result, error) {
	if len(block) == 0 || iterations <= 0 {
		return Result{}, nil
	}
	if err := p.reset(block, iterations); err != nil {
		return Result{}, err
	}
	for {
		if p.emitEvents {
			for _, l := range p.listeners {
				l.CycleBegin(p.cycle)
			}
		}
		if err := p.runCycle(); err != nil {
			return Result{}, err
		}
		if p.emitEvents {
			for _, l := range p.listeners {
				l.CycleEnd(p.cycle)
			}
		}
		p.cycle++
		if !p.hasWork() {
			break
		}
		p.stalled++
		if p.stalled > 1_000_000 {
			return Result{}, fmt.Errorf("simulation stalled: nothing retired for %d cycles at cycle %d", p.stalled, p.cycle)
		}
	}
	res := Result{Cycles: p.cycle, Instructions: len(block) * iterations, CommitHeld: p.retire.held, OwnHeld: p.execute.ownHeld}
	for _, d := range p.block {
		res.Uops += d.Uops * iterations
	}
	return res, nil
}

func (p *Pipeline) reset(block []*InstrDesc, iterations int) error {
	p.block = p.block[:0]
	if cap(p.store) < len(block) {
		p.store = make([]cdesc, len(block))
	}
	p.store = p.store[:len(block)]
	for i, d := range block {
		if err := compile(&p.cfg, d, &p.store[i]); err != nil {
			return fmt.Errorf("instruction %d: %v", i, err)
		}
		p.block = append(p.block, &p.store[i])
	}
	p.iters = iterations
	p.cycle = 0
	p.stalled = 0
	p.retire.held = 0
	p.execute.ownHeld, p.execute.ownHeldAt = 0, 0
	p.emitEvents = len(p.listeners) > 0
	for i := range p.ring {
		r := &p.ring[i]
		r.state = stFree
		r.Index = -1
		r.users = r.users[:0]
	}
	p.rcu.reset()
	p.prf.reset()
	all := p.block
	for _, c := range p.block {
		if c.split != nil {
			if len(all) == len(p.block) {
				all = append([]*cdesc(nil), p.block...)
			}
			all = append(all, c.split)
		}
	}
	p.sched.reset(all)
	p.entry.reset()
	p.dispatch.reset()
	p.execute.reset()
	return nil
}

func (p *Pipeline) runCycle() error {
	for i := len(p.stages) - 1; i >= 0; i-- {
		if err := p.stages[i].CycleStart(); err != nil {
			return err
		}
	}
	first := p.entry
	for first.IsAvailable(nil) {
		if err := first.Execute(nil); err != nil {
			return err
		}
	}
	for _, s := range p.stages {
		if err := s.CycleEnd(); err != nil {
			return err
		}
	}
	return nil
}

func (p *Pipeline) hasWork() bool {
	for _, s := range p.stages {
		if s.HasWork() {
			return true
		}
	}
	return false
}

// slot returns the ring slot of source index i.
func (p *Pipeline) slot(i int) *Inst { return &p.ring[i&p.mask] }

// live returns the in-flight instruction with source index i, or nil when
// it has retired.
func (p *Pipeline) live(i int) *Inst {
	if i < 0 {
		return nil
	}
	in := p.slot(i)
	if in.Index != i || in.state == stRetired || in.state == stFree {
		return nil
	}
	return in
}

func (p *Pipeline) instrEvent(e *InstrEvent) {
	for _, l := range p.listeners {
		l.InstrEvent(e)
	}
}

func (p *Pipeline) notify(kind InstrEventKind, in *Inst) {
	if !p.emitEvents {
		return
	}
	e := InstrEvent{Kind: kind, Inst: in, Cycle: p.cycle}
	p.instrEvent(&e)
}

func (p *Pipeline) stall(kind StallKind, in *Inst, bufs, files uint64) {
	if !p.emitEvents {
		return
	}
	e := StallEvent{Kind: kind, Inst: in, Cycle: p.cycle, Buffers: bufs, Files: files}
	for _, l := range p.listeners {
		l.StallEvent(&e)
	}
}

// highBit returns the highest set bit of m (m != 0).
func highBit(m uint64) uint64 { return 1 << (63 - bits.LeadingZeros64(m)) }
