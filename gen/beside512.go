package gen

import (
	"fmt"
	"strconv"
	"strings"

	"portlab/isa"
	"portlab/modeldb"
)

// KindLatency512 is a narrower vector form's latency chain with 512-bit
// loads interleaved (Bench.Operands: the pair): Intel's AVX-512 cores
// close port 1 to 128/256-bit vector work while 512-bit uops are in
// flight, and work that moves to the FMA unit on port 0 takes its
// latency. Measured on the Granite Rapids guest (8 links): vaddss chain
// 16.00 cycles alone, 24.82 beside vmulps zmm, 24.58 beside zmm loads
// (the adds alternate between port 5's fast adder, 2 cycles, and port
// 0's FMA, 4); vmulss 24.00 and 27.96; beside ymm work unchanged.
const KindLatency512 = modeldb.Latency512Kind

// Latency512Benches returns, for a 128/256-bit vector register form, its
// first register-to-register latency chain with a zmm load after every
// link (loads only: they close port 1 without taking an execution port
// the chain could want); nil for other forms, or when the chain uses
// every zmm register the loads would need.
//
// A form with a memory operand gets none: each link of its chain loads
// too, beside the zmm load, and a one-cycle link then waits for the load
// pipes, not for the operation. On the Zen 4 guest (AuthenticAMD-19-11-1,
// 2026-11-29) `vpminud xmm, xmm, m128` read 1.37-2.00 cycles a link from
// one measurement to the next and `vpminud xmm, xmm, xmm` 1.00 in every
// one; 234 memory forms' chains differed by more than 1 % between two
// sweeps, 20 register forms'. The model builder gives a memory form its
// register form's latency beside 512-bit work (modeldb, "latency beside
// 512-bit work").
func Latency512Benches(f *isa.Form, latencies []*Bench) []*Bench {
	if !modeldb.IsNarrowVectorOp(f) || f.HasMemory() {
		return nil
	}
	for _, b := range latencies {
		if b.Kind != KindLatency || b.Helper != "" || !vectorPair(f, b.Operands) {
			continue
		}
		lines := strings.Split(strings.TrimSuffix(b.Snippet.Source, "\n"), "\n")
		var free []string
		for r := 31; r >= 16 && len(free) < 8; r-- {
			if !strings.Contains(b.Snippet.Source, fmt.Sprintf("mm%d", r)) {
				free = append(free, fmt.Sprintf("zmm%d", r))
			}
		}
		if len(free) < 8 {
			return nil
		}
		var out []string
		for k, l := range lines {
			out = append(out, l, fmt.Sprintf("vmovups %s, zmmword ptr [%s+%d]", free[k%len(free)], memBase, 64*(k%8)))
		}
		s := newSnippet(f, "latency beside 512-bit work "+b.Operands, fmt.Sprintf("latency %s of %s beside 512-bit work: its chain with a zmm load after every link", b.Operands, f.Name()), out, b.Snippet.Instructions)
		return []*Bench{{Form: f, Kind: KindLatency512, Operands: b.Operands, Snippet: s, Mode: "latency"}}
	}
	return nil
}

// vectorPair reports whether a latency pair ("1->0") runs from a vector
// register operand to another.
func vectorPair(f *isa.Form, pair string) bool {
	from, to, ok := strings.Cut(pair, "->")
	if !ok {
		return false
	}
	vec := func(s string) bool {
		i, err := strconv.Atoi(s)
		if err != nil || i < 0 || i >= len(f.Operands) {
			return false
		}
		k := f.Operands[i].Kind
		return k == isa.KindXMM || k == isa.KindYMM
	}
	return vec(from) && vec(to)
}
