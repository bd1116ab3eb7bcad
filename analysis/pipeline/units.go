package pipeline

import (
	"math"
	"math/bits"
)

// rcu is the retire control unit (reorder buffer): entries are micro-ops,
// at least one per instruction; instructions retire in order.
type rcu struct {
	cfg   *Config
	avail int
	head  int // source index of the oldest instruction not retired
	tail  int // source index of the next instruction to dispatch
}

func (r *rcu) init(cfg *Config) { r.cfg = cfg }

func (r *rcu) reset() {
	r.avail = r.cfg.ROBSize
	r.head, r.tail = 0, 0
}

func (r *rcu) available(slots int) bool { return r.avail >= slots }
func (r *rcu) empty() bool              { return r.head == r.tail }
func (r *rcu) dispatch(in *Inst) {
	r.avail -= in.desc.robSlots
	r.tail = in.Index + 1
}
func (r *rcu) retire(in *Inst) {
	r.avail += in.desc.robSlots
	r.head = in.Index + 1
}

// Used returns the reorder-buffer entries in use.
func (r *rcu) used() int { return r.cfg.ROBSize - r.avail }

// regFile renames registers: it remembers the last writer of every
// register unit, links readers to it, and counts physical registers.
type regFile struct {
	cfg       *Config
	last      []wref
	under     []wref // the full write beneath partial writes, seq -1 none
	used      []int  // per file
	totalUsed int
	moves     int // moves eliminated this cycle
	scratch   []int
}

type wref struct {
	seq     int // source index of the writer, -1 none
	lat     int
	partial bool
}

func (f *regFile) init(cfg *Config) {
	f.cfg = cfg
	f.last = make([]wref, cfg.NumRegs)
	f.under = make([]wref, cfg.NumRegs)
	f.used = make([]int, len(cfg.RegisterFiles))
}

func (f *regFile) reset() {
	for i := range f.last {
		f.last[i] = wref{seq: -1}
		f.under[i] = wref{seq: -1}
	}
	for i := range f.used {
		f.used[i] = 0
	}
	f.totalUsed = 0
	f.moves = 0
}

func (f *regFile) cycleStart() { f.moves = 0 }

// full returns the register files (bit i; bit len(files) for the total
// limit) that lack a physical register for each of d's writes.
func (f *regFile) full(d *cdesc) uint64 {
	var m uint64
	for i, rf := range f.cfg.RegisterFiles {
		need := d.regNeed[i]
		if rf.Size == 0 || need == 0 {
			continue
		}
		need = min(need, rf.Size)
		if f.used[i]+need > rf.Size {
			m |= 1 << i
		}
	}
	if t := f.cfg.TotalRegisters; t > 0 {
		need := 0
		for _, w := range d.Writes {
			if w.Reg >= 0 {
				need++
			}
		}
		need = min(need, t)
		if need > 0 && f.totalUsed+need > t {
			m |= 1 << len(f.cfg.RegisterFiles)
		}
	}
	return m
}

// addRead links a read of in to the last writer of its register (and,
// for a read of the whole register, to the full write beneath a partial
// one).
func (f *regFile) addRead(p *Pipeline, in *Inst, r Read) {
	if r.Reg < 0 {
		return
	}
	f.link(p, in, r, f.last[r.Reg])
	if !r.Partial && f.last[r.Reg].partial {
		f.link(p, in, r, f.under[r.Reg])
	}
}

func (f *regFile) link(p *Pipeline, in *Inst, r Read, w wref) {
	prod := p.live(w.seq)
	if prod == nil {
		return
	}
	if prod.state >= stExecuting {
		in.arrive(prod.IssuedAt+max(0, w.lat-r.Advance), prod.Index, r.Reg)
		return
	}
	prod.users = append(prod.users, user{in: in, lat: w.lat, advance: r.Advance, reg: r.Reg})
	prod.numUsers++
	in.unknown++
}

// arrive records that a register input of in arrives at cycle t from the
// instruction with source index producer.
func (in *Inst) arrive(t, producer, reg int) {
	if t > in.DispatchedAt+1 && (t > in.readyAt || in.critProducer < 0) {
		in.critProducer, in.critReg, in.critCycles = producer, reg, t-in.DispatchedAt
	}
	in.readyAt = max(in.readyAt, t)
}

// addWrites records in as the last writer of its registers and takes
// physical registers; it returns the registers taken per file, with the
// total last.
func (f *regFile) addWrites(in *Inst) []int {
	d := in.desc
	regs := f.zeroed()
	if in.eliminated {
		return regs
	}
	alloc := !d.ZeroIdiom
	for wi, w := range d.Writes {
		if w.Reg < 0 {
			continue
		}
		// Of two writes to one register, the slower one stays.
		dup := false
		for _, x := range d.Writes[:wi] {
			if x.Reg == w.Reg {
				dup = true
				if w.Latency > x.Latency {
					f.last[w.Reg].lat = w.Latency + in.extra
				}
			}
		}
		if !dup {
			f.record(w, in.Index, in.extra)
		}
		if alloc {
			in.hasRegs = true
			if i := f.cfg.regFile(w.Reg); i >= 0 {
				f.used[i]++
				regs[i]++
			}
			f.totalUsed++
			regs[len(regs)-1]++
		}
	}
	return regs
}

// record makes the write w of instruction seq the last of its register,
// its result extra cycles late (InstrDesc.ExtraLatency).
func (f *regFile) record(w Write, seq, extra int) {
	old := f.last[w.Reg]
	if w.Partial {
		if !old.partial {
			f.under[w.Reg] = old
		}
	} else {
		f.under[w.Reg] = wref{seq: -1}
	}
	f.last[w.Reg] = wref{seq: seq, lat: w.Latency + extra, partial: w.Partial}
}

func (f *regFile) zeroed() []int {
	n := len(f.cfg.RegisterFiles) + 1
	if cap(f.scratch) < n {
		f.scratch = make([]int, n)
	}
	regs := f.scratch[:n]
	clear(regs)
	return regs
}

// removeWrites frees in's physical registers at retirement.
func (f *regFile) removeWrites(in *Inst) []int {
	if !in.hasRegs {
		return nil
	}
	regs := f.zeroed()
	for _, w := range in.desc.Writes {
		if w.Reg < 0 {
			continue
		}
		if i := f.cfg.regFile(w.Reg); i >= 0 {
			f.used[i]--
			regs[i]++
		}
		f.totalUsed--
		regs[len(regs)-1]++
	}
	return regs
}

// tryEliminate eliminates a register move (or swap): the destination
// becomes an alias of the source's producer.
func (f *regFile) tryEliminate(in *Inst) bool {
	d := in.desc
	n := len(d.Writes)
	if f.cfg.MaxMovesEliminated < 0 || n == 0 || n > 2 || len(d.Reads) != n {
		return false
	}
	if f.cfg.MaxMovesEliminated > 0 && f.moves+n > f.cfg.MaxMovesEliminated {
		return false
	}
	for i := 0; i < n; i++ {
		r, w := d.Reads[i], d.Writes[n-1-i]
		if r.Reg < 0 || w.Reg < 0 || f.cfg.regFile(r.Reg) != f.cfg.regFile(w.Reg) {
			return false
		}
	}
	var src, und [2]wref
	for i := 0; i < n; i++ {
		src[i], und[i] = f.last[d.Reads[i].Reg], f.under[d.Reads[i].Reg]
	}
	for i := 0; i < n; i++ {
		r := d.Writes[n-1-i].Reg
		f.last[r], f.under[r] = src[i], und[i]
	}
	f.moves += n
	return true
}

// scheduler is the execute stage's state: the instructions waiting in it,
// the reservation-station buffers, the ports and the load/store unit.
type scheduler struct {
	cfg *Config
	// The wait set (some register input's arrival unknown, or memory
	// order) is kept as a count, the instructions whose last unknown
	// input became known (woken), and the memory operations in it
	// (memWait), which the load/store unit may release.
	nWait   int
	woken   []*Inst
	memWait []*Inst
	pending []*Inst // inputs arrive later
	ready   []*Inst
	issued  []*Inst

	bufAvail []int
	res      resources
	lsu      lsu

	busyUnits           uint64
	hadTokenStall       bool
	dispatchedToPending int

	// waitDirty and lsuDirty say that the load/store unit moved on (a
	// memory operation issued or executed), which may release waiting
	// and pending memory operations; pendMin is the earliest arrival
	// among pending instructions: the sets are scanned only when
	// something can have changed.
	waitDirty bool
	lsuDirty  bool
	pendMin   int
}

func (s *scheduler) init(cfg *Config) {
	s.cfg = cfg
	s.bufAvail = make([]int, len(cfg.Schedulers))
	s.res.init(cfg)
	s.lsu.cfg = cfg
}

func (s *scheduler) reset(block []*cdesc) {
	s.nWait, s.woken, s.memWait = 0, s.woken[:0], s.memWait[:0]
	s.pending, s.ready, s.issued = s.pending[:0], s.ready[:0], s.issued[:0]
	for i, b := range s.cfg.Schedulers {
		s.bufAvail[i] = b.Size
	}
	s.res.reset(block)
	s.lsu.reset()
	s.busyUnits = 0
	s.hadTokenStall = false
	s.dispatchedToPending = 0
	s.waitDirty, s.lsuDirty = false, false
	s.pendMin = int(^uint(0) >> 1)
}

// addPending puts in into the pending set.
func (s *scheduler) addPending(in *Inst) {
	in.state = stPending
	s.pending = append(s.pending, in)
	if in.desc.memop {
		s.lsuDirty = true
	}
	s.pendMin = min(s.pendMin, in.readyAt)
}

func (s *scheduler) hasWork() bool {
	return s.nWait+len(s.pending)+len(s.ready)+len(s.issued) > 0
}

// BufferUsed returns the entries in use in scheduler i.
func (s *scheduler) bufferUsed(i int) int { return s.cfg.Schedulers[i].Size - s.bufAvail[i] }

func (s *scheduler) fullBuffers(d *cdesc) uint64 {
	var m uint64
	for b := d.buffers; b != 0; b &= b - 1 {
		i := bits.TrailingZeros64(b)
		if s.bufAvail[i] == 0 {
			m |= 1 << i
		}
	}
	return m
}

func (s *scheduler) reserveBuffers(d *cdesc) {
	for b := d.buffers; b != 0; b &= b - 1 {
		s.bufAvail[bits.TrailingZeros64(b)]--
	}
}

func (s *scheduler) releaseBuffers(d *cdesc) {
	for b := d.buffers; b != 0; b &= b - 1 {
		s.bufAvail[bits.TrailingZeros64(b)]++
	}
}

// cycleEvent advances the scheduler to a new cycle: ports are released,
// instructions whose latency elapsed finish, and waiting instructions
// move on.
func (s *scheduler) cycleEvent(p *Pipeline, executed, pending, ready *[]*Inst) {
	s.res.cycleStart(p.cycle)
	kept := s.issued[:0]
	for _, in := range s.issued {
		if in.IssuedAt+in.desc.latency+in.extra > p.cycle {
			kept = append(kept, in)
			continue
		}
		in.state = stExecuted
		in.ExecutedAt = p.cycle
		if in.desc.memop {
			s.lsu.onExecuted(p, in)
			s.waitDirty, s.lsuDirty = true, true
		}
		*executed = append(*executed, in)
	}
	s.issued = kept
	s.promoteToPending(p, pending)
	s.promoteToReady(p, ready)
	s.dispatchedToPending = 0
	s.busyUnits = 0
}

// addWait puts a dispatched instruction into the wait set.
func (s *scheduler) addWait(in *Inst) {
	in.state = stDispatched
	s.nWait++
	if in.desc.memop {
		s.memWait = append(s.memWait, in)
	}
}

// wake records that a waiting instruction learnt its last input's arrival.
func (s *scheduler) wake(in *Inst) {
	if in.state == stDispatched {
		s.woken = append(s.woken, in)
	}
}

func (s *scheduler) promoteToPending(p *Pipeline, out *[]*Inst) {
	promote := func(in *Inst) {
		s.nWait--
		s.addPending(in)
		*out = append(*out, in)
	}
	for _, in := range s.woken {
		if in.state != stDispatched || in.unknown > 0 || (in.desc.memop && s.lsu.isWaiting(in.lsuGroup)) {
			continue // memory operations wait in memWait
		}
		promote(in)
	}
	s.woken = s.woken[:0]
	if !s.waitDirty {
		return
	}
	s.waitDirty = false
	kept := s.memWait[:0]
	for _, in := range s.memWait {
		if in.state != stDispatched {
			continue
		}
		if in.unknown > 0 || s.lsu.isWaiting(in.lsuGroup) {
			kept = append(kept, in)
			continue
		}
		promote(in)
	}
	s.memWait = kept
}

func (s *scheduler) promoteToReady(p *Pipeline, out *[]*Inst) {
	if p.cycle < s.pendMin && !s.lsuDirty {
		return
	}
	s.lsuDirty = false
	s.pendMin = int(^uint(0) >> 1)
	kept := s.pending[:0]
	for _, in := range s.pending {
		if in.readyAt > p.cycle || (in.desc.memop && !s.lsu.isReady(in.lsuGroup)) {
			kept = append(kept, in)
			if in.desc.memop && in.readyAt <= p.cycle {
				s.lsuDirty = true // waits for the load/store unit only
			}
			s.pendMin = min(s.pendMin, in.readyAt)
			continue
		}
		in.state = stReady
		in.ReadyAt = p.cycle
		s.ready = append(s.ready, in)
		*out = append(*out, in)
	}
	s.pending = kept
}

// sortReady orders the ready set by rank (source index minus dependent
// readers), older first among equals: llvm-mca's default scheduler
// strategy. The set is nearly sorted from one cycle to the next.
func (s *scheduler) sortReady() {
	r := s.ready
	for i := 1; i < len(r); i++ {
		x := r[i]
		kx := x.Index - x.numUsers
		j := i - 1
		for j >= 0 {
			y := r[j]
			ky := y.Index - y.numUsers
			if ky < kx || (ky == kx && y.Index < x.Index) {
				break
			}
			r[j+1] = y
			j--
		}
		r[j+1] = x
	}
}

// resources are the execution ports. busy[u] is the tick until which
// port u is taken; a port is free in a cycle while it has capacity left in
// it. Groups of ports pick a free port in rotation, highest index first.
type resources struct {
	cfg    *Config
	n      int
	busy   [64]int64
	holder [64]int // source index of the instruction that last took a unit
	free   uint64
	all    uint64
	now    int64
	groups []rrGroup
	// groupIdx maps a use's unit set to its group; groupsOf lists the
	// groups that contain a unit.
	groupIdx map[uint64]int
	groupsOf [64][]int
	// own is, per own limit (InstrDesc.Own), the tick until which it is
	// taken.
	own []int64
	// Uses per unit (for views): cycles issued on each unit.
}

type rrGroup struct {
	mask, next, removed uint64
}

// pick selects a unit among ready (llvm-mca's DefaultResourceStrategy).
func (g *rrGroup) pick(ready uint64) uint64 {
	if c := ready & g.next; c != 0 {
		c = highBit(c)
		g.next &= c | (c - 1)
		return c
	}
	g.next = g.mask ^ g.removed
	g.removed = 0
	if c := ready & g.next; c != 0 {
		c = highBit(c)
		g.next &= c | (c - 1)
		return c
	}
	g.next = g.mask
	c := highBit(ready & g.next)
	g.next &= c | (c - 1)
	return c
}

// used records that unit m became busy.
func (g *rrGroup) used(m uint64) {
	if m > g.next {
		g.removed |= m
		return
	}
	g.next &^= m
	if g.next != 0 {
		return
	}
	g.next = g.mask ^ g.removed
	g.removed = 0
}

func (r *resources) init(cfg *Config) {
	r.cfg = cfg
	r.n = len(cfg.Units)
	if r.n == 64 {
		r.all = ^uint64(0)
	} else {
		r.all = 1<<r.n - 1
	}
	r.groupIdx = map[uint64]int{}
}

func (r *resources) reset(block []*cdesc) {
	r.busy = [64]int64{}
	clear(r.own)
	for i := range r.holder {
		r.holder[i] = -1
	}
	r.free = r.all
	r.now = 0
	r.groups = r.groups[:0]
	clear(r.groupIdx)
	for i := range r.groupsOf {
		r.groupsOf[i] = r.groupsOf[i][:0]
	}
	for _, d := range block {
		for _, u := range d.uses {
			if u.Units&(u.Units-1) == 0 {
				continue
			}
			if _, ok := r.groupIdx[u.Units]; ok {
				continue
			}
			gi := len(r.groups)
			r.groupIdx[u.Units] = gi
			r.groups = append(r.groups, rrGroup{mask: u.Units, next: u.Units})
			for m := u.Units; m != 0; m &= m - 1 {
				b := bits.TrailingZeros64(m)
				r.groupsOf[b] = append(r.groupsOf[b], gi)
			}
		}
	}
}

// soonest returns the unit of set that is free soonest (lowest busy time;
// the highest unit on a tie, as check picks).
func (r *resources) soonest(set uint64) uint64 {
	var best uint64
	bestBusy := int64(math.MaxInt64)
	for m := set; m != 0; m &= m - 1 {
		unit := bits.TrailingZeros64(m)
		if r.busy[unit] <= bestBusy {
			best, bestBusy = 1<<unit, r.busy[unit]
		}
	}
	return best
}

func (r *resources) cycleStart(cycle int) {
	r.now = int64(cycle) * Scale
	lim := r.now + Scale
	free := uint64(0)
	for u := 0; u < r.n; u++ {
		if r.busy[u] < lim {
			free |= 1 << u
		}
	}
	r.free = free
}

// check returns the units found busy when d cannot issue, or 0.
func (r *resources) check(d *cdesc) uint64 {
	free := r.free
	var busy uint64
	lim := r.now + Scale
	for _, u := range d.uses {
		m := free & u.Units
		if m == 0 {
			busy |= u.Units
			continue
		}
		b := highBit(m)
		unit := bits.TrailingZeros64(b)
		if max(r.busy[unit], r.now)+u.Ticks >= lim {
			free &^= b
		}
	}
	return busy
}

// ownBusy reports whether d's own limit (InstrDesc.Own) keeps it from
// issuing in this cycle.
func (r *resources) ownBusy(d *cdesc) bool {
	return d.Own > 0 && d.Own < len(r.own) && r.own[d.Own] >= r.now+Scale
}

// issue takes d's ports for instruction idx and returns them.
func (r *resources) issue(d *cdesc, idx int, used []UnitUse, record bool) []UnitUse {
	lim := r.now + Scale
	if d.Own > 0 {
		if d.Own >= len(r.own) {
			r.own = append(r.own, make([]int64, d.Own+1-len(r.own))...)
		}
		r.own[d.Own] = max(r.own[d.Own], r.now) + d.OwnTicks
	}
	for _, u := range d.uses {
		ready := r.free & u.Units
		var b uint64
		switch {
		case u.Units&(u.Units-1) == 0:
			b = u.Units
		case ready == 0:
			// check let the instruction issue with a different choice for
			// an earlier use of it (p[0,5] then p[0]: check gave 5 to the
			// first, the round robin gave it 0): queue this use on the unit
			// of its set that frees soonest.
			b = r.soonest(u.Units)
		default:
			b = r.groups[r.groupIdx[u.Units]].pick(ready)
		}
		unit := bits.TrailingZeros64(b)
		r.holder[unit] = idx
		r.busy[unit] = max(r.busy[unit], r.now) + u.Ticks
		if r.busy[unit] >= lim {
			r.free &^= b
			for _, gi := range r.groupsOf[unit] {
				r.groups[gi].used(b)
			}
		}
		if record {
			used = append(used, UnitUse{Unit: unit, Ticks: u.Ticks})
		}
	}
	return used
}

// lsu is the load/store unit: queues and llvm-mca's memory groups.
type lsu struct {
	cfg                  *Config
	lqUsed, sqUsed       int
	groups               []memGroup // by id; 0 unused
	curLoad, curStore    int
	curLoadBar, curStBar int
}

type memGroup struct {
	numPred, numExecutingPred, numExecutedPred int
	numInst, numExecuting, numExecuted         int
	orderSucc, dataSucc                        []int
	critInst                                   int // index of the slowest issued member, -1
	critLat                                    int
}

func (g *memGroup) isWaiting() bool {
	return g.numPred > g.numExecutingPred+g.numExecutedPred
}
func (g *memGroup) isPending() bool {
	return g.numExecutingPred > 0 && g.numExecutedPred+g.numExecutingPred == g.numPred
}
func (g *memGroup) isReady() bool { return g.numExecutedPred == g.numPred }
func (g *memGroup) isExecuting() bool {
	return g.numExecuting > 0 && g.numExecuting == g.numInst-g.numExecuted
}
func (g *memGroup) isExecuted() bool { return g.numInst == g.numExecuted }

func (l *lsu) reset() {
	l.lqUsed, l.sqUsed = 0, 0
	for i := range l.groups {
		l.groups[i].orderSucc = l.groups[i].orderSucc[:0]
		l.groups[i].dataSucc = l.groups[i].dataSucc[:0]
	}
	if len(l.groups) == 0 {
		l.groups = append(l.groups, memGroup{})
	}
	l.groups = l.groups[:1]
	l.curLoad, l.curStore, l.curLoadBar, l.curStBar = 0, 0, 0, 0
}

// available reports whether d finds room in the load and store queues.
func (l *lsu) available(d *cdesc) (StallKind, bool) {
	if d.MayLoad && l.cfg.LoadQueue > 0 && l.lqUsed >= l.cfg.LoadQueue {
		return StallLoadQueue, false
	}
	if d.store && l.cfg.StoreQueue > 0 && l.sqUsed >= l.cfg.StoreQueue {
		return StallStoreQueue, false
	}
	return 0, true
}

func (l *lsu) newGroup() int {
	id := len(l.groups)
	if cap(l.groups) > id {
		l.groups = l.groups[:id+1]
		g := &l.groups[id]
		os, ds := g.orderSucc[:0], g.dataSucc[:0]
		*g = memGroup{orderSucc: os, dataSucc: ds, critInst: -1}
	} else {
		l.groups = append(l.groups, memGroup{critInst: -1})
	}
	l.groups[id].numInst = 1
	return id
}

// addSucc makes group s wait for group g: for g to execute when data,
// else to issue.
func (l *lsu) addSucc(g, s int, data bool) {
	pg := &l.groups[g]
	if !data && pg.isExecuting() {
		return
	}
	sg := &l.groups[s]
	sg.numPred++
	if pg.isExecuting() {
		sg.numExecutingPred++
	}
	if data {
		pg.dataSucc = append(pg.dataSucc, s)
	} else {
		pg.orderSucc = append(pg.orderSucc, s)
	}
}

func (l *lsu) live(id int) bool { return id > 0 && id < len(l.groups) && !l.groups[id].isExecuted() }

// dispatch assigns a memory operation to a group (llvm-mca's LSUnit).
func (l *lsu) dispatch(p *Pipeline, in *Inst) int {
	d := in.desc
	if d.MayLoad {
		l.lqUsed++
	}
	if d.store {
		l.sqUsed++
	}
	if !l.live(l.curLoad) {
		l.curLoad = 0
	}
	if !l.live(l.curStore) {
		l.curStore = 0
	}
	if !l.live(l.curLoadBar) {
		l.curLoadBar = 0
	}
	if !l.live(l.curStBar) {
		l.curStBar = 0
	}
	noAlias := l.cfg.NoAlias
	if d.store {
		id := l.newGroup()
		if dom := max(l.curLoad, l.curLoadBar); dom != 0 {
			l.addSucc(dom, id, !noAlias)
		}
		if l.curStBar != 0 {
			l.addSucc(l.curStBar, id, true)
		}
		if l.curStore != 0 && l.curStore != l.curStBar {
			l.addSucc(l.curStore, id, !noAlias)
		}
		l.curStore = id
		if d.StoreBarrier {
			l.curStBar = id
		}
		if d.MayLoad {
			l.curLoad = id
			if d.LoadBarrier {
				l.curLoadBar = id
			}
		}
		return id
	}
	dom := max(l.curLoad, l.curLoadBar)
	newGroup := d.LoadBarrier || dom == 0 || l.curLoadBar == dom || dom <= l.curStore ||
		l.groups[dom].isExecuting()
	if newGroup {
		id := l.newGroup()
		if !noAlias && l.curStore != 0 {
			l.addSucc(l.curStore, id, true)
		}
		if d.LoadBarrier {
			if dom != 0 {
				l.addSucc(dom, id, true)
			}
		} else if l.curLoadBar != 0 {
			l.addSucc(l.curLoadBar, id, true)
		}
		l.curLoad = id
		if d.LoadBarrier {
			l.curLoadBar = id
		}
		return id
	}
	l.groups[l.curLoad].numInst++
	return l.curLoad
}

func (l *lsu) isWaiting(id int) bool { return l.groups[id].isWaiting() }
func (l *lsu) isPending(id int) bool { return l.groups[id].isPending() }
func (l *lsu) isReady(id int) bool   { return l.groups[id].isReady() }

// onIssued records that in issued; it reports whether other groups may
// have become ready.
func (l *lsu) onIssued(p *Pipeline, in *Inst) bool {
	g := &l.groups[in.lsuGroup]
	g.numExecuting++
	if g.critInst < 0 || g.critLat < in.desc.latency {
		g.critInst, g.critLat = in.Index, in.desc.latency
	}
	if !g.isExecuting() {
		return false
	}
	changed := false
	for _, s := range g.orderSucc {
		sg := &l.groups[s]
		sg.numExecutingPred++
		sg.numExecutingPred--
		sg.numExecutedPred++
		changed = true
	}
	for _, s := range g.dataSucc {
		l.groups[s].numExecutingPred++
	}
	return changed
}

// onExecuted records that in executed; groups waiting for its group to
// execute are released when the whole group has.
func (l *lsu) onExecuted(p *Pipeline, in *Inst) {
	g := &l.groups[in.lsuGroup]
	g.numExecuting--
	g.numExecuted++
	if !g.isExecuted() {
		return
	}
	for _, s := range g.dataSucc {
		sg := &l.groups[s]
		sg.numExecutingPred--
		sg.numExecutedPred++
		// Remember the memory operation the successor waited for.
		_ = sg
	}
	crit := g.critInst
	for _, s := range g.dataSucc {
		l.setCrit(p, s, crit)
	}
}

// setCrit records crit as the memory operation the members of group s
// waited for (for the bottleneck analysis).
func (l *lsu) setCrit(p *Pipeline, s, crit int) {
	if !p.emitEvents {
		return
	}
	for _, in := range p.sched.memWait {
		if in.lsuGroup == s {
			in.critMem = crit
		}
	}
}

func (l *lsu) onRetired(d *cdesc) {
	if d.MayLoad {
		l.lqUsed--
	}
	if d.store {
		l.sqUsed--
	}
}
