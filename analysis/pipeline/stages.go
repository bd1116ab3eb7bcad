package pipeline

import (
	"math/bits"
	"slices"
)

// entryStage hands the instruction stream (iterations of the block) to
// dispatch, one instruction at a time.
type entryStage struct {
	p    *Pipeline
	next Stage
	seq  int   // source index of cur
	cur  *Inst // nil when the stream is exhausted
}

func (s *entryStage) reset() {
	s.seq = 0
	s.cur = nil
	s.fetch()
}

func (s *entryStage) fetch() {
	p := s.p
	n := len(p.block)
	if s.seq >= n*p.iters {
		s.cur = nil
		return
	}
	in := p.slot(s.seq)
	users := in.users[:0]
	*in = Inst{
		Index:        s.seq,
		Pos:          s.seq % n,
		Iteration:    s.seq / n,
		desc:         p.block[s.seq%n],
		state:        stFetched,
		users:        users,
		DispatchedAt: -1, ReadyAt: -1, IssuedAt: -1, ExecutedAt: -1,
		critProducer: -1, critReg: -1, critMem: -1, critResFrom: -1,
	}
	in.extra = in.desc.extraCycles(in.Iteration)
	if d := in.desc; d.split != nil && d.LoadSplit.Splits(in.Iteration) {
		in.desc = d.split
	}
	s.cur = in
}

func (s *entryStage) HasWork() bool     { return s.cur != nil }
func (s *entryStage) CycleStart() error { return nil }
func (s *entryStage) CycleEnd() error   { return nil }

// IsAvailable reports whether there is an instruction the next stage takes.
func (s *entryStage) IsAvailable(*Inst) bool {
	return s.cur != nil && s.next.IsAvailable(s.cur)
}

// Execute moves the current instruction on and fetches the next.
func (s *entryStage) Execute(*Inst) error {
	in := s.cur
	s.seq++
	s.fetch()
	return s.next.Execute(in)
}

// dispatchStage renames registers and reserves the back end's buffers,
// DispatchWidth micro-ops a cycle.
type dispatchStage struct {
	p         *Pipeline
	next      Stage
	avail     int   // micro-ops that may still dispatch this cycle
	carryOver int   // micro-ops of carried left for later cycles
	carried   *Inst // an instruction wider than the dispatch width
}

func (s *dispatchStage) reset() {
	s.avail = s.p.cfg.DispatchWidth
	s.carryOver = 0
	s.carried = nil
}

func (s *dispatchStage) HasWork() bool   { return s.carryOver > 0 }
func (s *dispatchStage) CycleEnd() error { return nil }

func (s *dispatchStage) CycleStart() error {
	w := s.p.cfg.DispatchWidth
	if s.carryOver == 0 {
		s.avail = w
		return nil
	}
	if s.carryOver >= w {
		s.avail = 0
	} else {
		s.avail = w - s.carryOver
	}
	n := w - s.avail
	s.carryOver -= n
	if s.p.emitEvents {
		e := InstrEvent{Kind: Dispatched, Inst: s.carried, Cycle: s.p.cycle, Uops: n, Regs: make([]int, len(s.p.cfg.RegisterFiles)+1)}
		s.p.instrEvent(&e)
	}
	if s.carryOver == 0 {
		s.carried = nil
	}
	return nil
}

func (s *dispatchStage) IsAvailable(in *Inst) bool {
	p := s.p
	w := p.cfg.DispatchWidth
	if min(in.desc.Uops, w) > s.avail {
		return false
	}
	if in.desc.BeginGroup && s.avail != w {
		p.stall(StallDispatchGroup, in, 0, 0)
		return false
	}
	// Every check runs (and reports its stall), as in llvm-mca.
	ok := true
	if !p.rcu.available(in.desc.robSlots) {
		p.stall(StallRetireUnit, in, 0, 0)
		ok = false
	}
	if full := p.prf.full(in.desc); full != 0 {
		p.stall(StallRegisterFile, in, 0, full)
		ok = false
	}
	if !s.next.IsAvailable(in) {
		ok = false
	}
	return ok
}

func (s *dispatchStage) Execute(in *Inst) error {
	p := s.p
	d := in.desc
	w := p.cfg.DispatchWidth
	if d.Uops > w {
		s.avail = 0
		s.carryOver = d.Uops - w
		s.carried = in
	} else {
		s.avail -= d.Uops
	}
	if d.EndGroup {
		s.avail = 0
	}
	if d.OptimizableMove && p.prf.tryEliminate(in) {
		in.eliminated = true
	}
	in.DispatchedAt = p.cycle
	if !in.eliminated && !d.IndependentReads {
		for _, r := range d.Reads {
			p.prf.addRead(p, in, r)
		}
	}
	regs := p.prf.addWrites(in)
	p.rcu.dispatch(in)
	in.state = stDispatched
	if p.emitEvents {
		e := InstrEvent{Kind: Dispatched, Inst: in, Cycle: p.cycle, Uops: min(w, d.Uops), Regs: regs, Eliminated: in.eliminated}
		p.instrEvent(&e)
	}
	return s.next.Execute(in)
}

// executeStage is the scheduler: it holds dispatched instructions until
// their inputs arrive and their ports are free, issues them, and passes
// them to retirement when their latency has elapsed.
type executeStage struct {
	p          *Pipeline
	next       Stage
	dispatched int // micro-ops dispatched to the scheduler this cycle
	issued     int // micro-ops issued this cycle

	executed []*Inst
	pending  []*Inst
	ready    []*Inst
	used     []UnitUse
	// ownHeld counts the cycles a ready instruction waited for its own
	// limit (Result.OwnHeld); ownHeldAt is the last such cycle plus one.
	ownHeld, ownHeldAt int
}

func (s *executeStage) reset() {
	s.dispatched, s.issued = 0, 0
}

func (s *executeStage) HasWork() bool { return s.p.sched.hasWork() }

func (s *executeStage) IsAvailable(in *Inst) bool {
	p := s.p
	if full := p.sched.fullBuffers(in.desc); full != 0 {
		p.sched.hadTokenStall = true
		p.stall(StallScheduler, in, full, 0)
		return false
	}
	if k, ok := p.sched.lsu.available(in.desc); !ok {
		p.sched.hadTokenStall = true
		p.stall(k, in, 0, 0)
		return false
	}
	p.sched.hadTokenStall = false
	return true
}

func (s *executeStage) CycleStart() error {
	p := s.p
	sc := &p.sched
	s.executed, s.pending, s.ready = s.executed[:0], s.pending[:0], s.ready[:0]
	sc.cycleEvent(p, &s.executed, &s.pending, &s.ready)
	s.dispatched, s.issued = 0, 0
	for _, in := range s.executed {
		p.notify(Executed, in)
		if err := s.next.Execute(in); err != nil {
			return err
		}
	}
	for _, in := range s.pending {
		p.notify(Pending, in)
	}
	for _, in := range s.ready {
		p.notify(Ready, in)
	}
	return s.issueReady()
}

// issueReady issues ready instructions by rank while their ports are free.
func (s *executeStage) issueReady() error {
	p := s.p
	sc := &p.sched
	for {
		sc.sortReady()
		restart := false
		for i := 0; i < len(sc.ready); i++ {
			in := sc.ready[i]
			if sc.res.ownBusy(in.desc) {
				if s.ownHeldAt != p.cycle+1 {
					s.ownHeld, s.ownHeldAt = s.ownHeld+1, p.cycle+1
				}
				continue
			}
			if busy := sc.res.check(in.desc); busy != 0 {
				sc.busyUnits |= busy
				in.critResources |= busy
				if h := sc.res.holder[bits.TrailingZeros64(busy&^sc.res.free|busy&-busy)]; h >= 0 {
					in.critResFrom = h
				}
				continue
			}
			copy(sc.ready[i:], sc.ready[i+1:])
			sc.ready = sc.ready[:len(sc.ready)-1]
			i--
			promoted, err := s.issue(in)
			if err != nil {
				return err
			}
			if promoted {
				restart = true
				break
			}
		}
		if !restart {
			return nil
		}
	}
}

// issue sends in to its ports; it reports whether instructions became
// ready as a result (dependents of a zero-latency result).
func (s *executeStage) issue(in *Inst) (bool, error) {
	p := s.p
	sc := &p.sched
	d := in.desc
	sc.releaseBuffers(d)
	if p.emitEvents && d.buffers != 0 {
		e := BufferEvent{Buffers: d.buffers, Inst: in, Cycle: p.cycle}
		for _, l := range p.listeners {
			l.BufferEvent(&e)
		}
	}
	s.used = sc.res.issue(d, in.Index, s.used[:0], p.emitEvents)
	s.issued += d.Uops
	in.state = stExecuting
	in.IssuedAt = p.cycle
	hadUsers := len(in.users) > 0
	for _, u := range in.users {
		u.in.unknown--
		u.in.arrive(p.cycle+max(0, u.lat-u.advance), in.Index, u.reg)
		if u.in.unknown == 0 {
			sc.wake(u.in)
		}
	}
	in.users = in.users[:0]
	memDeps := false
	if d.memop {
		memDeps = sc.lsu.onIssued(p, in)
		if memDeps {
			sc.waitDirty, sc.lsuDirty = true, true
		}
	}
	if p.emitEvents {
		e := InstrEvent{Kind: Issued, Inst: in, Cycle: p.cycle, Used: s.used}
		p.instrEvent(&e)
	}
	if d.latency+in.extra == 0 {
		in.state = stExecuted
		in.ExecutedAt = p.cycle
		if d.memop {
			sc.lsu.onExecuted(p, in)
			sc.waitDirty, sc.lsuDirty = true, true
		}
		p.notify(Executed, in)
		if err := s.next.Execute(in); err != nil {
			return false, err
		}
	} else {
		sc.issued = append(sc.issued, in)
	}
	if !hadUsers && !memDeps {
		return false, nil
	}
	s.pending, s.ready = s.pending[:0], s.ready[:0]
	sc.promoteToPending(p, &s.pending)
	sc.promoteToReady(p, &s.ready)
	for _, x := range s.pending {
		p.notify(Pending, x)
	}
	for _, x := range s.ready {
		p.notify(Ready, x)
	}
	return len(s.ready) > 0, nil
}

// Execute takes a dispatched instruction into the scheduler.
func (s *executeStage) Execute(in *Inst) error {
	p := s.p
	sc := &p.sched
	d := in.desc
	if in.eliminated {
		in.state = stExecuted
		in.ReadyAt, in.IssuedAt, in.ExecutedAt = p.cycle, p.cycle, p.cycle
		if p.emitEvents {
			p.notify(Pending, in)
			p.notify(Ready, in)
			e := InstrEvent{Kind: Issued, Inst: in, Cycle: p.cycle, Eliminated: true}
			p.instrEvent(&e)
			e = InstrEvent{Kind: Executed, Inst: in, Cycle: p.cycle, Eliminated: true}
			p.instrEvent(&e)
		}
		return s.next.Execute(in)
	}
	sc.reserveBuffers(d)
	if p.emitEvents && d.buffers != 0 {
		e := BufferEvent{Reserved: true, Buffers: d.buffers, Inst: in, Cycle: p.cycle}
		for _, l := range p.listeners {
			l.BufferEvent(&e)
		}
	}
	s.dispatched += d.Uops
	if d.memop {
		in.lsuGroup = sc.lsu.dispatch(p, in)
	}
	if in.unknown > 0 || (d.memop && !sc.lsu.isReady(in.lsuGroup)) {
		sc.addWait(in)
		return nil
	}
	if in.readyAt > p.cycle {
		sc.addPending(in)
		sc.dispatchedToPending++
		p.notify(Pending, in)
		return nil
	}
	in.state = stReady
	in.ReadyAt = p.cycle
	p.notify(Pending, in)
	p.notify(Ready, in)
	if d.zeroLatency {
		_, err := s.issue(in)
		return err
	}
	sc.ready = append(sc.ready, in)
	return nil
}

// CycleEnd reports back-end pressure for the bottleneck analysis.
func (s *executeStage) CycleEnd() error {
	p := s.p
	if !p.emitEvents {
		return nil
	}
	sc := &p.sched
	if !sc.hadTokenStall && s.dispatched <= s.issued {
		return nil
	}
	if sc.busyUnits != 0 && len(sc.ready) > 0 {
		e := PressureEvent{Kind: PressureResources, Cycle: p.cycle, Insts: append([]*Inst(nil), sc.ready...), Units: sc.busyUnits}
		for _, l := range p.listeners {
			l.PressureEvent(&e)
		}
	}
	var regDeps, memDeps []*Inst
	end := len(sc.pending) - sc.dispatchedToPending
	for _, in := range sc.pending[:max(end, 0)] {
		if sc.res.check(in.desc) != 0 || sc.res.ownBusy(in.desc) {
			continue
		}
		if in.desc.memop && sc.lsu.isPending(in.lsuGroup) {
			memDeps = append(memDeps, in)
		}
		if in.readyAt > p.cycle {
			regDeps = append(regDeps, in)
		}
	}
	if len(regDeps) > 0 {
		e := PressureEvent{Kind: PressureRegisterDeps, Cycle: p.cycle, Insts: regDeps}
		for _, l := range p.listeners {
			l.PressureEvent(&e)
		}
	}
	if len(memDeps) > 0 {
		e := PressureEvent{Kind: PressureMemoryDeps, Cycle: p.cycle, Insts: memDeps}
		for _, l := range p.listeners {
			l.PressureEvent(&e)
		}
	}
	return nil
}

// retireStage retires executed instructions in order.
type retireStage struct {
	p      *Pipeline
	commit commitBudget // this cycle's store commit
	held   int          // cycles a store waited for the commit (Result.CommitHeld)
}

// commitBudget is what a cycle's store commit has taken: lines, the
// stores of the last line, and that line; debt is the lines a store that
// crossed into the next line left for the cycles after (next).
type commitBudget struct {
	lines, run int
	known      bool
	region     int
	line       int64
	debt       int
	// recent are the distinct lines written last, most recent last
	// (StoreCommit.RecentLines of them), kept from cycle to cycle.
	recent *recentLines
}

// recentLines are the distinct lines stores wrote last, most recent last.
type recentLines struct {
	lines []lineID
}

type lineID struct {
	region int
	line   int64
}

// hit reports whether id is among the lines written last, and makes it
// the most recent.
func (r *recentLines) hit(id lineID) bool {
	if r == nil {
		return false
	}
	i := slices.Index(r.lines, id)
	if i < 0 {
		return false
	}
	r.lines = append(slices.Delete(r.lines, i, i+1), id)
	return true
}

// remember records a write of a line not among the last n written.
func (b *commitBudget) remember(id lineID, n int) {
	if b.recent == nil {
		b.recent = &recentLines{}
	}
	b.recent.lines = append(b.recent.lines, id)
	if len(b.recent.lines) > n {
		b.recent.lines = slices.Delete(b.recent.lines, 0, len(b.recent.lines)-n)
	}
}

// take reports whether a store at line l in an iteration fits the
// cycle's commit (Config.StoreCommit) and counts it. A store that
// crosses into the next line writes both lines on its own, sharing
// neither with the stores around it (on the Zen 3 guest four such
// stores a copy, each line shared with the next store, took 8.00 cycles
// at a line a cycle): it needs room for its first line in this cycle,
// and what the cycle cannot take of its second is owed by the next.
func (b *commitBudget) take(sc *StoreCommit, l StoreLine, iteration int) bool {
	if sc.LinesPerCycle == 0 {
		return true
	}
	region, line, known := l.lineOf(iteration)
	split := l.Splits(iteration)
	rewrite := sc.RecentLines > 0 && known && !split
	if rewrite && b.recent.hit(lineID{region, line}) {
		return true // a line written lately: no line of this cycle's
	}
	if split {
		if b.lines >= sc.LinesPerCycle {
			return false
		}
		*b = commitBudget{lines: b.lines + 1, debt: b.debt, recent: b.recent}
		if b.lines < sc.LinesPerCycle {
			b.lines++
		} else {
			b.debt++
		}
		return true
	}
	if b.lines > 0 && known && b.known && region == b.region && line == b.line && b.run < sc.StoresPerLine {
		b.run++
		return true
	}
	if b.lines >= sc.LinesPerCycle {
		return false
	}
	*b = commitBudget{lines: b.lines + 1, run: 1, known: known, region: region, line: line, debt: b.debt, recent: b.recent}
	if rewrite {
		b.remember(lineID{region, line}, sc.RecentLines)
	}
	return true
}

// next is the budget a new cycle starts with: the lines owed by a store
// that crossed into the next line, up to the cycle's.
func (b commitBudget) next(sc *StoreCommit) commitBudget {
	owed := min(b.debt, sc.LinesPerCycle)
	return commitBudget{lines: owed, debt: b.debt - owed, recent: b.recent}
}

func (s *retireStage) HasWork() bool             { return !s.p.rcu.empty() }
func (s *retireStage) CycleEnd() error           { return nil }
func (s *retireStage) IsAvailable(in *Inst) bool { return true }

func (s *retireStage) CycleStart() error {
	p := s.p
	p.prf.cycleStart()
	n := 0
	s.commit = s.commit.next(&p.cfg.StoreCommit)
	for !p.rcu.empty() {
		if p.cfg.RetireWidth > 0 && n == p.cfg.RetireWidth {
			break
		}
		in := p.slot(p.rcu.head)
		if in.state != stExecuted {
			break
		}
		if in.desc.MayStore && !in.desc.NoCommit && !s.commit.take(&p.cfg.StoreCommit, in.desc.Line, in.Iteration) {
			s.held++
			break
		}
		s.retireOne(in)
		n++
	}
	if n > 0 {
		p.stalled = 0
	}
	return nil
}

func (s *retireStage) retireOne(in *Inst) {
	p := s.p
	if in.desc.memop {
		p.sched.lsu.onRetired(in.desc)
	}
	freed := p.prf.removeWrites(in)
	p.rcu.retire(in)
	in.state = stRetired
	if p.emitEvents {
		e := InstrEvent{Kind: Retired, Inst: in, Cycle: p.cycle, Regs: freed}
		p.instrEvent(&e)
	}
}

// Execute records that in has executed; it retires in a later cycle.
func (s *retireStage) Execute(in *Inst) error {
	in.state = stExecuted
	if in.ExecutedAt < 0 {
		in.ExecutedAt = s.p.cycle
	}
	return nil
}
