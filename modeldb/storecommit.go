package modeldb

import (
	"fmt"
	"math"

	"portlab/analysis/pipeline"
)

// StoreCommit is how a core writes retired stores to its L1 cache, in
// program order: in one cycle the stores of at most LinesPerCycle cache
// lines (64 bytes), at most StoresPerLine of each, consecutive stores
// only. Golden Cove-class cores commit two stores a cycle when they share
// a line and one otherwise (LinesPerCycle 1, StoresPerLine 2): measured on
// the Granite Rapids guest, 16 stores 8 bytes apart take 0.50 cycles each,
// 64 bytes apart 1.00 (gen.KindStoreCommit). The port model cannot say
// this: the same store form runs at either rate by where it writes.
//
// RecentLines, where not 0, is how many of the lines written last a store
// may write again without a line's slot: on the Zen 5 guest 16 stores a
// copy over 4, 8 or 12 lines ran at 0.50 cycles a store (the store
// ports' rate, as to one line), over 16 lines 1.04 (a line a cycle), so
// a loop rewriting eight lines runs at two stores a cycle where a Golden
// Cove-class core takes one.
type StoreCommit struct {
	LinesPerCycle int `yaml:"lines_per_cycle"`
	StoresPerLine int `yaml:"stores_per_line"`
	RecentLines   int `yaml:"recent_lines,omitempty"`
}

func (sc *StoreCommit) validate() error {
	if sc.LinesPerCycle < 1 || sc.StoresPerLine < 1 {
		return fmt.Errorf("store_commit: lines_per_cycle %d and stores_per_line %d must be at least 1", sc.LinesPerCycle, sc.StoresPerLine)
	}
	if sc.RecentLines < 0 {
		return fmt.Errorf("store_commit: recent_lines %d must not be negative", sc.RecentLines)
	}
	return nil
}

// String says it in words.
func (sc *StoreCommit) String() string {
	s := fmt.Sprintf("%d cache line(s) a cycle, up to %d store(s) to one line", sc.LinesPerCycle, sc.StoresPerLine)
	if sc.RecentLines > 0 {
		s += fmt.Sprintf("; a store to one of the %d lines written last takes no line", sc.RecentLines)
	}
	return s
}

// Pipeline is the store commit as the pipeline simulator takes it.
func (sc *StoreCommit) Pipeline() pipeline.StoreCommit {
	if sc == nil {
		return pipeline.StoreCommit{}
	}
	return pipeline.StoreCommit{LinesPerCycle: sc.LinesPerCycle, StoresPerLine: sc.StoresPerLine, RecentLines: sc.RecentLines}
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
// ports) or either is missing. recent holds the streams over fewer lines
// (StoreCommitRecent: cycles a store by line count): RecentLines is the
// most lines of those that ran, with every stream over fewer, within 10 %
// of the same-line rate.
func storeCommitOf(sameLine, linesApart float64, recent map[int]float64) *StoreCommit {
	if sameLine <= 0 || linesApart <= 0 || linesApart < 1.5*sameLine {
		return nil
	}
	lines := max(1, int(math.Round(1/linesApart)))
	per := max(1, int(math.Round(1/(sameLine*float64(lines)))))
	sc := &StoreCommit{LinesPerCycle: lines, StoresPerLine: per}
	for _, n := range StoreCommitRecent {
		v, ok := recent[n]
		if !ok || v <= 0 || v > 1.1*sameLine {
			break
		}
		sc.RecentLines = n
	}
	return sc
}

// StoreCommitRecent are the line counts of the streams that write 16
// stores a copy over fewer lines than the lines-apart stream's 16
// (StoreCommitRecentStream names them).
var StoreCommitRecent = []int{4, 8, 12}

// StoreCommitRecentStream is the operands of the stream over n lines.
func StoreCommitRecentStream(n int) string { return fmt.Sprintf("lines-apart-%d", n) }

// StoreCommitKind is the result kind of the store-commit streams
// (gen.StoreCommitBenches), whose operands name the stream.
const StoreCommitKind = "store-commit"

// The two store-commit streams.
const (
	StoreCommitSameLine   = "same-line"   // consecutive stores share a line
	StoreCommitLinesApart = "lines-apart" // every store a line of its own
)
