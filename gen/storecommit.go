package gen

import (
	"fmt"

	"portlab/isa"
	"portlab/modeldb"
)

// KindStoreCommit measures how a core writes retired stores to the L1
// cache (Bench.Operands: StoreCommitSameLine or StoreCommitLinesApart):
// Golden Cove-class cores commit two stores a cycle only when they share a
// 64-byte line. On the Granite Rapids guest 8 `mov [rsi+64*i], rax` took
// 8.00 cycles, 8 `mov [rsi+8*i], rax` 4.00, 8 alternating between two
// lines 8.00. The form's own throughput stream fills lines in order and
// cannot show it; a loop that stores to two arrays, or 64-byte stores,
// run at the slower rate.
const KindStoreCommit = modeldb.StoreCommitKind

// The two store-commit streams.
const (
	StoreCommitSameLine   = modeldb.StoreCommitSameLine
	StoreCommitLinesApart = modeldb.StoreCommitLinesApart
)

// storeCommitForm is the store the store-commit streams are made of.
const storeCommitForm = "mov m64, r64"

// StoreCommitBenches returns, for mov m64, r64, the store-commit streams
// (KindStoreCommit): 16 independent stores a copy, 8 bytes apart (two
// lines a copy), 64 bytes apart (16 lines), and 64 bytes apart over 4, 8
// and 12 lines in turn (modeldb.StoreCommitRecent: a Zen 5 core writes
// up to 12 lines again at the store ports' rate, 16 a line a cycle); nil
// for other forms.
func StoreCommitBenches(f *isa.Form) []*Bench {
	if f.Name() != storeCommitForm {
		return nil
	}
	srcs := []string{"rax", "rcx", "rdx", "rbx"}
	type stream struct {
		operands string
		stride   int
		lines    int // the lines the 16 stores go round (0: all 16)
	}
	streams := []stream{{StoreCommitSameLine, 8, 0}, {StoreCommitLinesApart, 64, 0}}
	for _, n := range modeldb.StoreCommitRecent {
		streams = append(streams, stream{modeldb.StoreCommitRecentStream(n), 64, n})
	}
	var out []*Bench
	for _, c := range streams {
		var lines []string
		for k := 0; k < 16; k++ {
			at := k
			if c.lines > 0 {
				at = k % c.lines
			}
			lines = append(lines, fmt.Sprintf("mov qword ptr [%s+%d], %s", memBase, 2048+c.stride*at, srcs[k%len(srcs)]))
		}
		what := fmt.Sprintf("store commit of %s: 16 independent stores per copy, %d bytes apart", f.Name(), c.stride)
		if c.lines > 0 {
			what += fmt.Sprintf(" over %d lines in turn", c.lines)
		}
		s := newSnippet(f, "store commit "+c.operands, what, lines, 16)
		out = append(out, &Bench{Form: f, Kind: KindStoreCommit, Operands: c.operands, Snippet: s, Mode: "inverse_throughput"})
	}
	return out
}
