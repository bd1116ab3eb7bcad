package analysis

import (
	"math"
	"strings"
	"testing"

	"portlab/analysis/input"
)

func kernelOf(t *testing.T, src string) *Kernel {
	t.Helper()
	regs, err := input.Assembly("k.s", []byte(src), nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err := NewBuilder(handcore(t))
	if err != nil {
		t.Fatal(err)
	}
	k, err := b.Kernel(regs[0])
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-6 }

func TestStaticPortBalancing(t *testing.T) {
	// Three imuls can only use A1; three adds may use any ALU. The optimum
	// puts the adds on A0, A2, A3: A1 carries 3 cycles, the bound.
	k := kernelOf(t, "imulq %rbx, %rax\nimulq %rbx, %rcx\nimulq %rbx, %rdx\naddq $1, %r8\naddq $1, %r9\naddq $1, %r10\n")
	s, err := k.Analyze(4)
	if err != nil {
		t.Fatal(err)
	}
	if !near(s.PortBound, 3) || strings.Join(s.Busiest, ",") != "A1" {
		t.Errorf("port bound %v on %v, want 3 on A1", s.PortBound, s.Busiest)
	}
	a1 := 1
	for i := 3; i < 6; i++ {
		if s.PerInstr[i][a1] > 1e-6 {
			t.Errorf("add %d has %v cycles on A1 in the optimal balancing", i, s.PerInstr[i][a1])
		}
		sum := 0.0
		for _, v := range s.PerInstr[i] {
			sum += v
		}
		if !near(sum, 1) {
			t.Errorf("add %d: pressure sums to %v, want 1", i, sum)
		}
	}
	if !near(s.Total[0]+s.Total[2]+s.Total[3], 3) || !near(s.Total[a1], 3) {
		t.Errorf("totals %v", s.Total)
	}
	if s.Bottleneck != "ports A1" || !near(s.Bound, 3) {
		t.Errorf("bound %v (%s), want 3 (ports A1)", s.Bound, s.Bottleneck)
	}
}

func TestStaticBounds(t *testing.T) {
	tests := []struct {
		name, src  string
		bound      float64
		bottleneck string
		lcd        float64
	}{
		// Five adds and two branches on four ALUs (the branches on A0/A3): 7/4.
		{"ports", "addq $1, %rax\naddq $1, %rbx\naddq $1, %rcx\naddq $1, %rdx\naddq $1, %rsi\njne .L\njne .L\n", 1.75, "ports A0, A1, A2, A3", 1},
		// Four chains of latency 3 on two ports: the chains bound at 3.
		{"accumulators", "vaddpd %ymm4, %ymm0, %ymm0\nvaddpd %ymm4, %ymm1, %ymm1\nvaddpd %ymm4, %ymm2, %ymm2\nvaddpd %ymm4, %ymm3, %ymm3\n", 3, "loop-carried dependency [0 -> 0] through ymm0", 3},
		// Six 1-uop nops: no ports, dispatch 6/4.
		{"dispatch", "nop\nnop\nnop\nnop\nnop\nnop\n", 1.5, "dispatch (6 uops at 4 per cycle)", 0},
		// The divider: a throughput of 8 that the D port shows too.
		{"divider", "vdivpd %ymm1, %ymm2, %ymm3\n", 8, "ports D", 0},
		// A cycle over two iterations: rax <- rbx <- rcx <- rax, latency
		// 9 in two iterations.
		{"two iterations", "popcntq %rbx, %rax\npopcntq %rcx, %rbx\npopcntq %rax, %rcx\n", 4.5, "loop-carried dependency", 4.5},
		// The load-op's register source is read 5 cycles late: 3 a turn.
		{"load-op", "vaddpd (%rdi), %ymm0, %ymm0\n", 3, "loop-carried dependency [0 -> 0] through ymm0", 3},
		// A zero idiom cuts the chain.
		{"zero idiom", "vaddpd %ymm1, %ymm0, %ymm0\nvxorpd %ymm0, %ymm0, %ymm0\n", 0.5, "ports F0, F1", 0},
		// Store then load of the same address: through memory (1) and rax (4).
		{"memory", "movq %rax, (%rdi)\nmovq (%rdi), %rax\n", 5, "loop-carried dependency [0 -> 1 -> 0] through [rdi], rax", 5},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			k := kernelOf(t, tt.src)
			s, err := k.Analyze(4)
			if err != nil {
				t.Fatal(err)
			}
			if !near(s.Bound, tt.bound) || s.Bottleneck != tt.bottleneck || !near(s.LCDBound, tt.lcd) {
				t.Errorf("bound %v (%s), LCD %v; want %v (%s), LCD %v", s.Bound, s.Bottleneck, s.LCDBound, tt.bound, tt.bottleneck, tt.lcd)
			}
		})
	}
}

func TestStaticCriticalPathAndChains(t *testing.T) {
	// load (4) -> add (1) -> add chain on rbx.
	k := kernelOf(t, "movq (%rdi), %rax\naddq %rax, %rbx\naddq $8, %rdi\n")
	s, err := k.Analyze(4)
	if err != nil {
		t.Fatal(err)
	}
	if !near(s.CriticalPathLatency, 5) || len(s.CriticalPath) != 2 || s.CriticalPath[0] != 0 || s.CriticalPath[1] != 1 {
		t.Errorf("critical path %v (%v cycles), want [0 1] (5)", s.CriticalPath, s.CriticalPathLatency)
	}
	// Chains: rbx through 1, rdi through 2 -> 0 -> ... no: the load reads
	// rdi (written by 2 in the last iteration) but writes rax, so rdi's
	// chain is 2 alone; rbx's is 1 alone.
	var got []string
	for _, c := range s.Chains {
		got = append(got, c.Describe(k))
	}
	want := "[1 -> 1] through rbx; [2 -> 2] through rdi"
	if strings.Join(got, "; ") != want {
		t.Errorf("chains %q, want %q", strings.Join(got, "; "), want)
	}
}

// TestStaticAgreesWithSimulation checks that the simulated cycles per
// iteration approach the static bound on kernels where the bound is
// reachable.
func TestStaticAgreesWithSimulation(t *testing.T) {
	for _, src := range []string{
		"popcntq %rbx, %rax\npopcntq %rcx, %rbx\npopcntq %rax, %rcx\n",
		"vaddpd %ymm4, %ymm0, %ymm0\nvaddpd %ymm4, %ymm1, %ymm1\nvaddpd %ymm4, %ymm2, %ymm2\nvaddpd %ymm4, %ymm3, %ymm3\n",
		"imulq %rbx, %rax\nimulq %rbx, %rcx\nimulq %rbx, %rdx\naddq $1, %r8\naddq $1, %r9\naddq $1, %r10\n",
	} {
		k := kernelOf(t, src)
		r, err := Analyze(k, Options{Iterations: 1000}, Views{})
		if err != nil {
			t.Fatal(err)
		}
		if got := r.CyclesPerIteration(); math.Abs(got-r.Static.Bound) > 0.02*r.Static.Bound {
			t.Errorf("%q: simulated %.3f cycles/iteration, static bound %.3f", src, got, r.Static.Bound)
		}
	}
}
