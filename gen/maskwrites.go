package gen

import (
	"fmt"

	"portlab/isa"
	"portlab/modeldb"
)

// KindMaskWrites is a stream of writes to the mask registers
// (Bench.Operands: one of modeldb's MaskWrites streams): korw alone, a
// compare into a mask alone, the two in turn, and the same with the
// 512-bit compare. On the Zen 4 guest the compare runs on the multiply
// pipes and korw on the add pipes, yet in turn they take the sum of their
// times (modeldb.MaskWritesKind). The streams hang off korw k, k, k, so
// that a sweep of AVX-512 forms measures them once.
const KindMaskWrites = modeldb.MaskWritesKind

// MaskWriteBenches returns, for korw k, k, k, the mask-write streams: 16
// instructions a copy, their destinations alternating between k2 and k3,
// korw reading k4 and k5, the compares xmm0/zmm0 and xmm1/zmm1 (written by
// nothing), so that every instruction is independent. Nil for other
// forms.
func MaskWriteBenches(f *isa.Form) []*Bench {
	if f.Name() != modeldb.MaskWritesLogicForm {
		return nil
	}
	logic := func(k int) string { return fmt.Sprintf("korw k%d, k4, k5", 2+k%2) }
	compare := func(w string) func(int) string {
		return func(k int) string { return fmt.Sprintf("vpcmpeqd k%d, %s0, %s1", 2+k%2, w, w) }
	}
	// inTurn alternates a compare and korw.
	inTurn := func(cmp func(int) string) func(int) string {
		return func(k int) string {
			if k%2 == 0 {
				return cmp(k)
			}
			return logic(k)
		}
	}
	var out []*Bench
	for _, c := range []struct {
		operands string
		at       func(int) string
	}{
		{modeldb.MaskWritesLogic, logic},
		{modeldb.MaskWritesCompare, compare("xmm")},
		{modeldb.MaskWritesPair, inTurn(compare("xmm"))},
		{modeldb.MaskWritesCompareZMM, compare("zmm")},
		{modeldb.MaskWritesPairZMM, inTurn(compare("zmm"))},
	} {
		var lines []string
		for k := 0; k < 16; k++ {
			lines = append(lines, c.at(k))
		}
		s := newSnippet(f, "mask writes "+c.operands, fmt.Sprintf("mask writes, %s: 16 independent instructions per copy", c.operands), lines, 16)
		out = append(out, &Bench{Form: f, Kind: KindMaskWrites, Operands: c.operands, Snippet: s, Mode: "inverse_throughput"})
	}
	return out
}
