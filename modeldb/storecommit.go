package modeldb

import (
	"fmt"
	"math"
)

// StoreCommit is how a core writes retired stores to its L1 cache, in
// program order: in one cycle the stores of at most LinesPerCycle cache
// lines (64 bytes), at most StoresPerLine of each, consecutive stores
// only. Golden Cove-class cores commit two stores a cycle when they share
// a line and one otherwise (LinesPerCycle 1, StoresPerLine 2): measured on
// the Granite Rapids guest, 16 stores 8 bytes apart take 0.50 cycles each,
// 64 bytes apart 1.00 (gen.KindStoreCommit). The port model cannot say
// this: the same store form runs at either rate by where it writes.
type StoreCommit struct {
	LinesPerCycle int `yaml:"lines_per_cycle"`
	StoresPerLine int `yaml:"stores_per_line"`
}

func (sc *StoreCommit) validate() error {
	if sc.LinesPerCycle < 1 || sc.StoresPerLine < 1 {
		return fmt.Errorf("store_commit: lines_per_cycle %d and stores_per_line %d must be at least 1", sc.LinesPerCycle, sc.StoresPerLine)
	}
	return nil
}

// String says it in words.
func (sc *StoreCommit) String() string {
	return fmt.Sprintf("%d cache line(s) a cycle, up to %d store(s) to one line", sc.LinesPerCycle, sc.StoresPerLine)
}

// storeCommitText is sc as model diff prints it ("" for none).
func storeCommitText(sc *StoreCommit) string {
	if sc == nil {
		return ""
	}
	return sc.String()
}

// storeCommitOf derives the store commit from the two store-commit
// streams' cycles per store (same line, a line apart): nil when stores
// to different lines commit as fast as to one (no limit beyond the store
// ports) or either is missing.
func storeCommitOf(sameLine, linesApart float64) *StoreCommit {
	if sameLine <= 0 || linesApart <= 0 || linesApart < 1.5*sameLine {
		return nil
	}
	lines := max(1, int(math.Round(1/linesApart)))
	per := max(1, int(math.Round(1/(sameLine*float64(lines)))))
	return &StoreCommit{LinesPerCycle: lines, StoresPerLine: per}
}

// StoreCommitKind is the result kind of the store-commit streams
// (gen.StoreCommitBenches), whose operands name the stream.
const StoreCommitKind = "store-commit"

// The two store-commit streams.
const (
	StoreCommitSameLine   = "same-line"   // consecutive stores share a line
	StoreCommitLinesApart = "lines-apart" // every store a line of its own
)
