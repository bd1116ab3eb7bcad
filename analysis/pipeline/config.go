package pipeline

import (
	"fmt"
	"math/bits"
)

// Config describes the simulated core.
type Config struct {
	// Units are the execution ports, at most 64; Use.Units and
	// Buffer.Units are bit sets over them.
	Units []string
	// DispatchWidth is the micro-ops dispatched per cycle (at least 1).
	DispatchWidth int
	// RetireWidth is the instructions retired per cycle; 0 is unlimited.
	RetireWidth int
	// ROBSize is the reorder buffer's size in micro-ops (at least 1).
	ROBSize int
	// Schedulers are the reservation stations: an instruction takes an
	// entry in each scheduler that serves its ports from dispatch until
	// it issues. None means unlimited.
	Schedulers []Buffer
	// LoadQueue and StoreQueue are the load and store queue sizes; 0 is
	// unlimited. Entries are held from dispatch to retirement.
	LoadQueue, StoreQueue int

	// NumRegs is the number of register units that reads and writes name.
	NumRegs int
	// RegisterFiles are the physical register files; RegFile maps each
	// register unit to its file (-1: renamed without limit). A write takes
	// a physical register of its file from dispatch to retirement.
	RegisterFiles []RegisterFile
	RegFile       []int
	// TotalRegisters limits the physical registers of all files together
	// (llvm-mca's -register-file-size); 0 is unlimited.
	TotalRegisters int
	// MaxMovesEliminated is how many moves renaming can eliminate per
	// cycle; 0 is unlimited, negative disables move elimination.
	MaxMovesEliminated int

	// NoAlias lets loads pass older stores (llvm-mca's -noalias).
	NoAlias bool

	// StoreCommit limits how fast stores leave the core; the zero value
	// sets no limit.
	StoreCommit StoreCommit
}

// StoreCommit is the rate at which a core writes retired stores to its
// cache, in program order: the stores of at most LinesPerCycle cache
// lines a cycle, at most StoresPerLine consecutive ones of each
// (InstrDesc.Line). The simulator applies it at retirement: a store
// retires only within the cycle's commit budget. Real cores commit from
// the store buffer after retirement; in steady state the throughput is
// the same, the store buffer only delays the back-pressure.
//
// RecentLines, where not 0, is how many of the distinct lines written
// last a store may write again without taking a line of the cycle's
// commit (nor a store of a line's run): the store ports alone then bound
// it.
type StoreCommit struct {
	LinesPerCycle, StoresPerLine int
	RecentLines                  int
}

// CyclesPerIteration returns the cycles an iteration's stores take to
// commit in steady state, over the given iterations of a block whose
// stores (in order) are at lines (0 with no limit).
func (sc StoreCommit) CyclesPerIteration(lines []StoreLine, iterations int) float64 {
	if sc.LinesPerCycle == 0 || len(lines) == 0 || iterations < 1 {
		return 0
	}
	cycles := 1
	var b commitBudget
	for it := 0; it < iterations; it++ {
		for _, l := range lines {
			for !b.take(&sc, l, it) {
				cycles++
				b = b.next(&sc)
			}
		}
	}
	for b.debt > 0 {
		cycles++
		b = b.next(&sc)
	}
	return float64(cycles) / float64(iterations)
}

// Buffer is a scheduler (reservation station) serving Units.
type Buffer struct {
	Name  string
	Units uint64
	Size  int
}

// RegisterFile is a physical register file; Size 0 is unlimited.
type RegisterFile struct {
	Name string
	Size int
}

func (c *Config) regFile(reg int) int {
	if reg < 0 || reg >= len(c.RegFile) {
		return -1
	}
	return c.RegFile[reg]
}

// Validate checks the configuration.
func (c *Config) Validate() error {
	if len(c.Units) > 64 {
		return fmt.Errorf("%d execution ports: the simulator handles at most 64", len(c.Units))
	}
	if c.DispatchWidth < 1 {
		return fmt.Errorf("dispatch width %d: must be at least 1", c.DispatchWidth)
	}
	if c.ROBSize < 1 {
		return fmt.Errorf("reorder buffer size %d: must be at least 1", c.ROBSize)
	}
	if c.RetireWidth < 0 || c.LoadQueue < 0 || c.StoreQueue < 0 || c.TotalRegisters < 0 {
		return fmt.Errorf("negative retire width, queue or register file size")
	}
	if c.StoreCommit.RecentLines < 0 {
		return fmt.Errorf("store commit: %d recent lines: not negative", c.StoreCommit.RecentLines)
	}
	if c.StoreCommit.LinesPerCycle < 0 || c.StoreCommit.StoresPerLine < 0 || (c.StoreCommit.LinesPerCycle > 0) != (c.StoreCommit.StoresPerLine > 0) {
		return fmt.Errorf("store commit: %d lines a cycle, %d stores a line: both positive or both zero", c.StoreCommit.LinesPerCycle, c.StoreCommit.StoresPerLine)
	}
	if len(c.Schedulers) > 64 {
		return fmt.Errorf("%d schedulers: at most 64", len(c.Schedulers))
	}
	for _, b := range c.Schedulers {
		if b.Size < 1 {
			return fmt.Errorf("scheduler %q: size %d must be at least 1", b.Name, b.Size)
		}
		if bits.Len64(b.Units) > len(c.Units) {
			return fmt.Errorf("scheduler %q serves a port beyond the %d ports", b.Name, len(c.Units))
		}
	}
	for _, f := range c.RegisterFiles {
		if f.Size < 0 {
			return fmt.Errorf("register file %q: negative size", f.Name)
		}
	}
	for r, f := range c.RegFile {
		if f >= len(c.RegisterFiles) {
			return fmt.Errorf("register unit %d maps to register file %d of %d", r, f, len(c.RegisterFiles))
		}
	}
	return nil
}
