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

// StoreCommitBenches returns, for mov m64, r64, the two store-commit
// streams (KindStoreCommit): 16 independent stores a copy, 8 bytes apart
// (two lines a copy) and 64 bytes apart (16 lines); nil for other forms.
func StoreCommitBenches(f *isa.Form) []*Bench {
	if f.Name() != storeCommitForm {
		return nil
	}
	srcs := []string{"rax", "rcx", "rdx", "rbx"}
	var out []*Bench
	for _, c := range []struct {
		operands string
		stride   int
	}{{StoreCommitSameLine, 8}, {StoreCommitLinesApart, 64}} {
		var lines []string
		for k := 0; k < 16; k++ {
			lines = append(lines, fmt.Sprintf("mov qword ptr [%s+%d], %s", memBase, 2048+c.stride*k, srcs[k%len(srcs)]))
		}
		s := newSnippet(f, "store commit "+c.operands, fmt.Sprintf("store commit of %s: 16 independent stores per copy, %d bytes apart", f.Name(), c.stride), lines, 16)
		out = append(out, &Bench{Form: f, Kind: KindStoreCommit, Operands: c.operands, Snippet: s, Mode: "inverse_throughput"})
	}
	return out
}
