package analysis_test

import (
	"fmt"
	"log"

	"portlab/analysis"
	"portlab/analysis/input"
	"portlab/modeldb"
)

// Analyse a dot-product loop on the hand-made core: the FMA's accumulator
// (latency 4, its memory operand read first) sets the pace. The last of
// 100 FMAs issues at 1+4*99 = 397 and executes at 406 (latency 9 with the
// load), retiring at 407: 408 cycles, 4.08 a iteration.
func Example() {
	m, err := modeldb.Load("../testdata/kernels/analysis/models/handcore.yml")
	if err != nil {
		log.Fatal(err)
	}
	regions, err := input.Assembly("dot.s", []byte(`
.L1:
	vmovapd	(%rdi), %ymm2
	vfmadd231pd	(%rsi), %ymm2, %ymm0
	addq	$32, %rdi
	addq	$32, %rsi
	decq	%rcx
	jne	.L1
`), nil)
	if err != nil {
		log.Fatal(err)
	}
	b, err := analysis.NewBuilder(m)
	if err != nil {
		log.Fatal(err)
	}
	k, err := b.Kernel(regions[0])
	if err != nil {
		log.Fatal(err)
	}
	r, err := analysis.Analyze(k, analysis.Options{Iterations: 100}, analysis.Views{})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("static bound: %.2f cycles/iteration (%s)\n", r.Static.Bound, r.Static.Bottleneck)
	fmt.Printf("simulated:    %.2f cycles/iteration\n", r.CyclesPerIteration())
	// Output:
	// static bound: 4.00 cycles/iteration (loop-carried dependency [1 -> 1] through ymm0)
	// simulated:    4.08 cycles/iteration
}
