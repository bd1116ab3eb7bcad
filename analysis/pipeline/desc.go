package pipeline

import (
	"fmt"
	"math/bits"
)

// Scale is the number of ticks per cycle in which port occupancy is kept.
// 5040 = 7! divides evenly by every denominator from 1 to 10 (and 12, 14,
// 15, ...), so model values such as 1/3 or 0.25 cycles are exact.
const Scale = 5040

// CyclesToTicks converts cycles of port occupancy to ticks, rounding to
// the nearest tick.
func CyclesToTicks(c float64) int64 {
	if c <= 0 {
		return 0
	}
	return int64(c*Scale + 0.5)
}

// Use is one use of an execution port: the chosen port, any of Units, is
// busy for Ticks (1/Scale cycles). Units is a bit set over Config.Units.
type Use struct {
	Units uint64
	Ticks int64
}

// Read is a register input: Reg is a register unit (0 <= Reg <
// Config.NumRegs; negative means none). Advance is how many cycles after
// issue the operand is needed (llvm's ReadAdvance): a result written with
// latency L can feed the read L-Advance cycles after its producer issued.
type Read struct {
	Reg     int
	Advance int
	// Partial marks a read of part of the register (al of rax): it
	// depends on the last write of the part only, not on the full write
	// beneath a partial one (see Write.Partial).
	Partial bool
}

// Write is a register result, available Latency cycles after issue.
type Write struct {
	Reg     int
	Latency int
	// Partial marks a write of part of the register that renaming keeps
	// apart from the rest (llvm-mca's models without register files): a
	// later read of the whole register depends on this write and on the
	// last full write before it.
	Partial bool
}

// InstrDesc describes one instruction of a block for the simulator. The
// pipeline does not modify it; one InstrDesc serves every iteration.
type InstrDesc struct {
	Uops    int // micro-ops: dispatch width and reorder-buffer entries
	Latency int // cycles from issue until the instruction has executed
	Uses    []Use
	Reads   []Read
	Writes  []Write

	MayLoad, MayStore bool
	// NoCommit marks a may-store instruction that writes no data to the
	// cache (a prefetch, a fence, a model flag without a memory operand it
	// writes): it takes no store-commit slot (Config.StoreCommit).
	NoCommit                  bool
	LoadBarrier, StoreBarrier bool // fences: later loads (stores) wait for this one
	// IndependentReads marks dependency-breaking idioms (xor r, r; pcmpeqd
	// x, x): the reads do not wait for their producers.
	IndependentReads bool
	// ZeroIdiom marks an instruction whose result is known zero at
	// renaming: its writes take no physical register.
	ZeroIdiom bool
	// OptimizableMove marks a register-to-register move that renaming may
	// eliminate (Reads[0] to Writes[0]): an eliminated move uses no port,
	// no physical register and completes at dispatch.
	OptimizableMove bool
	// BeginGroup and EndGroup force the instruction to start (end) a
	// dispatch group.
	BeginGroup, EndGroup bool
	// Line is where a store writes, for the store commit
	// (Config.StoreCommit).
	Line StoreLine
	// ExtraLatency is a fraction of a cycle (0 to 1) more on every write,
	// on average over the iterations: iteration k's instance takes one
	// cycle more where floor((k+1)*ExtraLatency) > floor(k*ExtraLatency),
	// so the cycles spread evenly and N iterations add
	// floor(N*ExtraLatency). A steady state that measured 1.36 cycles a
	// link of a one-cycle chain is 1 + 0.36.
	ExtraLatency float64
	// LoadSplit, when set, is where a load reads: in the iterations in
	// which its bytes cross into the next line it takes LoadSplit.Uses as
	// well as Uses.
	LoadSplit *LoadSplit
	// Own and OwnTicks are the instruction's own limit: instructions of
	// one Own (above 0) issue OwnTicks apart at least, as a form's
	// measured throughput holds where the ports a model gives it would
	// run it faster (a divide whose mixes show the divider beside every
	// port). Own 0: no such limit.
	Own      int
	OwnTicks int64
}

// LoadSplit places a load that may cross a 64-byte line: in iteration i
// it reads Bytes bytes at byte Offset + i*Stride of its region (regions
// start on a line); where they cross into the next line, the load takes
// Uses more of the ports.
type LoadSplit struct {
	Offset, Stride int64
	Bytes          int
	Uses           []Use
}

// Splits reports whether the load crosses into the next line in an
// iteration.
func (l *LoadSplit) Splits(iteration int) bool {
	return CrossesLine(l.Offset, l.Stride, l.Bytes, iteration)
}

// StoreLine places a store for the store commit: in iteration i it writes
// Bytes bytes at byte Offset + i*Stride of address region Region (stores
// of one region whose addresses fall in one 64-byte line share the line;
// a store whose bytes cross into the next line writes both). Unknown
// (the zero value): a line of its own. Bytes 0: one line.
type StoreLine struct {
	Known          bool
	Region         int
	Offset, Stride int64
	Bytes          int
}

// LineBytes is the cache line size of StoreLine.
const LineBytes = 64

// lineOf returns the store's line in an iteration; ok is false when
// unknown.
func (l StoreLine) lineOf(iteration int) (region int, line int64, ok bool) {
	if !l.Known {
		return 0, 0, false
	}
	a := l.Offset + int64(iteration)*l.Stride
	return l.Region, floorDiv(a, LineBytes), true
}

// Splits reports whether the store crosses into the next line in an
// iteration (it then writes two lines).
func (l StoreLine) Splits(iteration int) bool {
	return l.Known && CrossesLine(l.Offset, l.Stride, l.Bytes, iteration)
}

// CrossesLine reports whether bytes at offset + iteration*stride of a
// line-aligned region cross into the next 64-byte line.
func CrossesLine(offset, stride int64, bytes, iteration int) bool {
	if bytes <= 1 {
		return false
	}
	a := offset + int64(iteration)*stride
	return floorDiv(a, LineBytes) != floorDiv(a+int64(bytes)-1, LineBytes)
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}

// cdesc is an InstrDesc compiled against a Config.
type cdesc struct {
	*InstrDesc
	uses        []Use  // merged by unit set, units first, then smaller groups
	buffers     uint64 // schedulers (Config.Schedulers) holding an entry until issue
	latency     int    // execution latency (at least every write's latency)
	zeroLatency bool   // no uses and no latency: issues at dispatch
	memop       bool
	// store: a store to the load/store unit (a store-queue entry, ordered
	// with the other memory operations): a may-store that writes data, or
	// a store barrier; not a prefetch (NoCommit).
	store    bool
	regNeed  []int // physical registers needed per register file
	robSlots int
	extra    int64  // ExtraLatency in ticks (Scale a cycle)
	split    *cdesc // the instruction in the iterations its load crosses a line (InstrDesc.LoadSplit)
}

// compile fills c from d, reusing c's slices.
func compile(cfg *Config, d *InstrDesc, c *cdesc) error {
	*c = cdesc{InstrDesc: d, uses: c.uses[:0], regNeed: c.regNeed[:0]}
	if d.Uops < 0 {
		return fmt.Errorf("negative micro-op count %d", d.Uops)
	}
	// Merge uses of the same unit set: llvm-mca has one usage per resource.
	for _, u := range d.Uses {
		if u.Units == 0 || u.Ticks <= 0 {
			continue
		}
		if bits.Len64(u.Units) > len(cfg.Units) {
			return fmt.Errorf("port use names unit %d of %d", bits.Len64(u.Units)-1, len(cfg.Units))
		}
		found := false
		for i := range c.uses {
			if c.uses[i].Units == u.Units {
				c.uses[i].Ticks += u.Ticks
				found = true
				break
			}
		}
		if !found {
			c.uses = append(c.uses, u)
		}
	}
	// Units first, then smaller groups (insertion sort: a handful of uses).
	for i := 1; i < len(c.uses); i++ {
		for j := i; j > 0 && useLess(c.uses[j], c.uses[j-1]); j-- {
			c.uses[j], c.uses[j-1] = c.uses[j-1], c.uses[j]
		}
	}
	c.latency = max(d.Latency, 0)
	for _, w := range d.Writes {
		c.latency = max(c.latency, w.Latency)
	}
	for _, r := range d.Reads {
		if r.Reg >= cfg.NumRegs {
			return fmt.Errorf("read of register unit %d of %d", r.Reg, cfg.NumRegs)
		}
	}
	for _, w := range d.Writes {
		if w.Reg >= cfg.NumRegs {
			return fmt.Errorf("write of register unit %d of %d", w.Reg, cfg.NumRegs)
		}
	}
	if d.ExtraLatency < 0 || d.ExtraLatency > 1 {
		return fmt.Errorf("extra latency %g, want 0 to 1 cycle", d.ExtraLatency)
	}
	c.extra = CyclesToTicks(d.ExtraLatency)
	c.zeroLatency = c.latency == 0 && len(c.uses) == 0 && c.extra == 0
	if ls := d.LoadSplit; ls != nil && len(ls.Uses) > 0 {
		sd := *d
		sd.LoadSplit = nil
		sd.Uses = append(append([]Use(nil), d.Uses...), ls.Uses...)
		c.split = new(cdesc)
		if err := compile(cfg, &sd, c.split); err != nil {
			return err
		}
		c.split.InstrDesc = d // events and listeners see the block's instruction
	}
	c.memop = d.MayLoad || d.MayStore
	c.store = d.MayStore && (!d.NoCommit || d.StoreBarrier)
	// A scheduler holds an entry for an instruction whose use lies within
	// its ports (llvm-mca: a buffered resource or a buffered group around
	// a used resource); when no scheduler contains a use, those that
	// share a port with it do.
	for _, u := range c.uses {
		var within, overlap uint64
		for i, b := range cfg.Schedulers {
			if b.Units&u.Units == u.Units {
				within |= 1 << i
			} else if b.Units&u.Units != 0 {
				overlap |= 1 << i
			}
		}
		if within != 0 {
			c.buffers |= within
		} else {
			c.buffers |= overlap
		}
	}
	for range cfg.RegisterFiles {
		c.regNeed = append(c.regNeed, 0)
	}
	for _, w := range d.Writes {
		if w.Reg < 0 {
			continue
		}
		if f := cfg.regFile(w.Reg); f >= 0 {
			c.regNeed[f]++
		}
	}
	c.robSlots = max(1, min(d.Uops, cfg.ROBSize))
	return nil
}

// extraCycles is the whole cycles iteration k's instance of c takes
// beyond its latency (InstrDesc.ExtraLatency).
func (c *cdesc) extraCycles(k int) int {
	if c.extra == 0 {
		return 0
	}
	return int((int64(k+1)*c.extra)/Scale - (int64(k)*c.extra)/Scale)
}

func useLess(a, b Use) bool {
	x, y := bits.OnesCount64(a.Units), bits.OnesCount64(b.Units)
	if x != y {
		return x < y
	}
	return a.Units < b.Units
}
