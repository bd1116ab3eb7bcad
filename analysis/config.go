package analysis

import (
	"fmt"
	"sort"
	"strings"

	"portlab/analysis/pipeline"
	"portlab/modeldb"
)

// Options are the simulation's parameters. Zero values take the model's
// numbers (and, where the model has none, the defaults below); the
// command line overrides them as llvm-mca's flags do.
type Options struct {
	Iterations int // default 100
	// DispatchWidth overrides the model's dispatched_uops_per_cycle
	// (llvm-mca -dispatch).
	DispatchWidth int
	// RetireWidth overrides retired_uops_per_cycle (0: the model's, which
	// may be unlimited).
	RetireWidth int
	// ROBSize overrides the reorder buffer size (micro-ops).
	ROBSize int
	// SchedulerSize overrides every scheduler's size (a unified scheduler
	// of this size when the model has none).
	SchedulerSize int
	// RegisterFileSize limits the physical registers of all register
	// files together (llvm-mca -register-file-size).
	RegisterFileSize int
	// LoadQueue and StoreQueue override the queue sizes (llvm-mca -lqueue,
	// -squeue); negative makes them unlimited.
	LoadQueue, StoreQueue int
	// MayAlias orders loads after older stores and stores after older
	// memory operations' execution (llvm-mca -noalias=false). By default
	// loads and stores do not alias, as in llvm-mca.
	MayAlias bool
	// MaxMovesEliminated limits move elimination per cycle (0 unlimited,
	// negative disables it).
	MaxMovesEliminated int
	// PartialWrites overrides how partial register writes depend on the
	// old value (PartialMerge, PartialOrder, PartialNone; "" picks by
	// model).
	PartialWrites string
}

// Defaults where the model gives no number.
const (
	DefaultIterations    = 100
	DefaultDispatchWidth = 4
	DefaultROBSize       = 224
)

// Config derives the simulated core from the model and the options. The
// returned notes say which numbers are defaults rather than the model's.
func Config(m *modeldb.Model, opt Options) (pipeline.Config, []string, error) {
	var notes []string
	cfg := pipeline.Config{
		Units:              m.Ports,
		DispatchWidth:      m.DispatchWidth,
		RetireWidth:        m.RetireWidth,
		ROBSize:            m.ROBSize,
		LoadQueue:          m.LoadQueue,
		StoreQueue:         m.StoreQueue,
		NumRegs:            numUnits,
		NoAlias:            !opt.MayAlias,
		TotalRegisters:     opt.RegisterFileSize,
		MaxMovesEliminated: opt.MaxMovesEliminated,
	}
	cfg.StoreCommit = storeCommitOf(m)
	if opt.DispatchWidth > 0 {
		cfg.DispatchWidth = opt.DispatchWidth
	}
	if cfg.DispatchWidth <= 0 {
		cfg.DispatchWidth = DefaultDispatchWidth
		notes = append(notes, fmt.Sprintf("the model gives no dispatch width: %d assumed (--dispatch sets it)", DefaultDispatchWidth))
	}
	if opt.RetireWidth > 0 {
		cfg.RetireWidth = opt.RetireWidth
	}
	if opt.ROBSize > 0 {
		cfg.ROBSize = opt.ROBSize
	}
	if cfg.ROBSize <= 0 {
		cfg.ROBSize = DefaultROBSize
		notes = append(notes, fmt.Sprintf("the model gives no reorder buffer size: %d assumed (--rob-size sets it)", DefaultROBSize))
	}
	switch {
	case opt.LoadQueue > 0:
		cfg.LoadQueue = opt.LoadQueue
	case opt.LoadQueue < 0:
		cfg.LoadQueue = 0
	}
	switch {
	case opt.StoreQueue > 0:
		cfg.StoreQueue = opt.StoreQueue
	case opt.StoreQueue < 0:
		cfg.StoreQueue = 0
	}
	all := uint64(0)
	for i := range m.Ports {
		all |= 1 << i
	}
	// Schedulers: per port group, else one unified scheduler.
	if len(m.Schedulers) > 0 {
		names := make([]string, 0, len(m.Schedulers))
		for n := range m.Schedulers {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			mask := schedulerPorts(m.Ports, n)
			if mask == 0 {
				notes = append(notes, fmt.Sprintf("scheduler %q names no port of the model: ignored (name it by port prefix, like ALU for ALU0..ALU3, or list ports: \"0,1,5\")", n))
				continue
			}
			size := m.Schedulers[n]
			if opt.SchedulerSize > 0 {
				size = opt.SchedulerSize
			}
			if size > 0 {
				cfg.Schedulers = append(cfg.Schedulers, pipeline.Buffer{Name: n, Units: mask, Size: size})
			}
		}
	} else if size := m.SchedulerSize; size > 0 || opt.SchedulerSize > 0 {
		if opt.SchedulerSize > 0 {
			size = opt.SchedulerSize
		}
		cfg.Schedulers = []pipeline.Buffer{{Name: "unified", Units: all, Size: size}}
	}
	// Register files.
	cfg.RegFile = make([]int, numUnits)
	for i := range cfg.RegFile {
		cfg.RegFile[i] = -1
	}
	if len(m.RegisterFiles) > 0 {
		names := make([]string, 0, len(m.RegisterFiles))
		for n := range m.RegisterFiles {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			units := registerClassUnits(n)
			if units == nil {
				notes = append(notes, fmt.Sprintf("register file %q: unknown register class (gpr, vec, k or flags) ignored", n))
				continue
			}
			fi := len(cfg.RegisterFiles)
			cfg.RegisterFiles = append(cfg.RegisterFiles, pipeline.RegisterFile{Name: n, Size: m.RegisterFiles[n]})
			for _, u := range units {
				cfg.RegFile[u] = fi
			}
		}
	}
	if err := cfg.Validate(); err != nil {
		return cfg, notes, err
	}
	return cfg, notes, nil
}

// schedulerPorts returns the ports a scheduler name stands for: a list of
// port names ("0,1,5", "ALU0 ALU1"), the ports whose names start with it
// ("ALU" for ALU0..ALU3), a port's name, or a string of one-character
// port names ("0156", OSACA style).
func schedulerPorts(ports []string, name string) uint64 {
	idx := map[string]int{}
	for i, p := range ports {
		idx[p] = i
	}
	var mask uint64
	if fs := strings.FieldsFunc(name, func(r rune) bool { return r == ',' || r == ' ' || r == '+' || r == '|' }); len(fs) > 1 {
		for _, f := range fs {
			i, ok := idx[f]
			if !ok {
				return 0
			}
			mask |= 1 << i
		}
		return mask
	}
	if i, ok := idx[name]; ok {
		return 1 << i
	}
	for i, p := range ports {
		if strings.HasPrefix(p, name) && len(p) > len(name) {
			mask |= 1 << i
		}
	}
	if mask != 0 {
		return mask
	}
	for _, c := range strings.TrimPrefix(name, "p") {
		i, ok := idx[string(c)]
		if !ok {
			return 0
		}
		mask |= 1 << i
	}
	return mask
}
