package modeldb

import (
	"math"
	"math/bits"
	"math/rand"
	"strconv"
	"testing"
)

// randomUses draws uses over n ports with whole and fractional cycles.
func randomUses(rng *rand.Rand, n, k int) []maskUse {
	var us []maskUse
	for i := 0; i < k; i++ {
		var m uint64
		for m == 0 {
			m = rng.Uint64() & (1<<n - 1)
			if rng.Intn(2) == 0 { // small groups are common
				m &= rng.Uint64()
			}
		}
		c := float64(1 + rng.Intn(4))
		if rng.Intn(3) == 0 {
			c = 0.25 + 3*rng.Float64()
		}
		us = append(us, maskUse{m, c})
	}
	return us
}

func toPortUses(us []maskUse, n int) ([]string, []PortUse) {
	ports := make([]string, n)
	for i := range ports {
		ports[i] = "p" + strconv.Itoa(i)
	}
	var pu []PortUse
	for _, u := range us {
		var names []string
		for _, b := range maskBits(u.mask) {
			names = append(names, ports[b])
		}
		pu = append(pu, PortUse{Cycles: u.cycles, Ports: names})
	}
	return ports, pu
}

// TestBottleneckAgreesWithLP checks the enumerations and the max-flow
// against gonum's simplex on random problems, some of them on two disjoint
// port sets.
func TestBottleneckAgreesWithLP(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	for trial := 0; trial < 240; trial++ {
		n := 2 + rng.Intn(12)
		k := 1 + rng.Intn(14)
		us := randomUses(rng, n, k)
		np := n
		if trial%3 == 0 { // a second component on ports of its own, as integer and vector pipes
			for _, u := range randomUses(rng, n, 1+rng.Intn(8)) {
				us = append(us, maskUse{u.mask << n, u.cycles})
			}
			np = 2 * n
		}
		ports, pu := toPortUses(us, np)
		idx := map[string]int{}
		for i, p := range ports {
			idx[p] = i
		}
		want, err := balanceLP(ports, idx, pu)
		if err != nil {
			t.Fatal(err)
		}
		merged := mergeUses(append([]maskUse(nil), us...))
		flow, loads := bottleneckFlow(merged, true)
		got := bottleneck(append([]maskUse(nil), us...))
		if math.Abs(got-want.Cycles) > 1e-6*math.Max(1, want.Cycles) || math.Abs(flow-want.Cycles) > 1e-6*math.Max(1, want.Cycles) {
			t.Fatalf("trial %d: uses %v: bottleneck %v, flow %v, LP %v", trial, us, got, flow, want.Cycles)
		}
		if len(merged) <= maxEnumGroups {
			if e := bottleneckEnum(merged); math.Abs(e-want.Cycles) > 1e-6*math.Max(1, want.Cycles) {
				t.Fatalf("trial %d: enumeration %v, LP %v", trial, e, want.Cycles)
			}
		}
		var all uint64
		for _, u := range merged {
			all |= u.mask
		}
		if k := bits.OnesCount64(all); k <= maxZetaPorts {
			if z := bottleneckZeta(merged, all, k); math.Abs(z-want.Cycles) > 1e-6*math.Max(1, want.Cycles) {
				t.Fatalf("trial %d: subset sums %v, LP %v", trial, z, want.Cycles)
			}
		}
		// The flow's assignment is feasible: loads sum to the cycles and none exceeds the optimum.
		total, sum := 0.0, 0.0
		for _, u := range us {
			total += u.cycles
		}
		for _, l := range loads {
			sum += l
			if l > flow*(1+1e-9)+1e-9 {
				t.Fatalf("trial %d: port load %v above optimum %v", trial, l, flow)
			}
		}
		if math.Abs(sum-total) > 1e-6*total {
			t.Fatalf("trial %d: assignment carries %v of %v cycles", trial, sum, total)
		}
	}
}

func TestBalance(t *testing.T) {
	ports := []string{"0", "1", "5", "6"}
	// Two uops on p01 and one on p0156: p0 and p1 take 1 each, p5/p6 half each? No:
	// optimum puts the flexible uop on p5/p6, so the bottleneck is 1.
	b, err := Balance(ports, []PortUse{{2, []string{"0", "1"}}, {1, []string{"0", "1", "5", "6"}}})
	if err != nil {
		t.Fatal(err)
	}
	if b.Cycles != 1 || len(b.Bottleneck) != 2 || b.Bottleneck[0] != "0" || b.Bottleneck[1] != "1" {
		t.Fatalf("got %+v, want 1 cycle on ports 0 and 1", b)
	}
	if math.Abs(b.Loads["5"]+b.Loads["6"]-1) > 1e-9 {
		t.Fatalf("flexible uop not on 5/6: %v", b.Loads)
	}
	// Three cycles on p0 alone dominate.
	b, _ = Balance(ports, []PortUse{{3, []string{"0"}}, {2, []string{"0", "1", "5", "6"}}})
	if b.Cycles != 3 {
		t.Fatalf("got %v, want 3", b.Cycles)
	}
	if _, err := Balance(ports, []PortUse{{1, []string{"7"}}}); err == nil {
		t.Fatal("unknown port accepted")
	}
	// Over 64 ports the LP path runs.
	many := make([]string, 70)
	for i := range many {
		many[i] = "q" + strconv.Itoa(i)
	}
	b, err = Balance(many, []PortUse{{6, []string{"q0", "q69", "q33"}}, {1, []string{"q0"}}})
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(b.Cycles-7.0/3) > 1e-9 {
		t.Fatalf("LP path: got %v, want 7/3", b.Cycles)
	}
}

func BenchmarkBottleneckMix(b *testing.B) {
	rng := rand.New(rand.NewSource(1))
	cases := make([][]maskUse, 64)
	for i := range cases {
		cases[i] = randomUses(rng, 12, 2+rng.Intn(5))
	}
	buf := make([]maskUse, 0, 16)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		buf = append(buf[:0], cases[i%len(cases)]...)
		bottleneck(buf)
	}
}

// TestBalanceLoadsLexicographic checks the even assignment on random
// problems: every load at most the optimum, the sum right, the critical
// ports at the optimum, and the result matching the LP optimum.
func TestBalanceLoadsLexicographic(t *testing.T) {
	rng := rand.New(rand.NewSource(11))
	for trial := 0; trial < 200; trial++ {
		us := randomUses(rng, 2+rng.Intn(10), 1+rng.Intn(8))
		opt, crit, loads := balanceLoads(us)
		want := bottleneck(append([]maskUse(nil), us...))
		if math.Abs(opt-want) > 1e-6*math.Max(1, want) {
			t.Fatalf("trial %d: optimum %v, want %v", trial, opt, want)
		}
		total, sum := 0.0, 0.0
		for _, u := range us {
			total += u.cycles
		}
		for p, l := range loads {
			sum += l
			if l > opt*(1+1e-6) {
				t.Fatalf("trial %d: port %d load %v above %v", trial, p, l, opt)
			}
			if crit&(1<<p) != 0 && math.Abs(l-opt) > 1e-6*math.Max(1, opt) {
				t.Fatalf("trial %d: critical port %d at %v, not %v", trial, p, l, opt)
			}
		}
		if math.Abs(sum-total) > 1e-6*total {
			t.Fatalf("trial %d: loads sum to %v, want %v (uses %v, loads %v)", trial, sum, total, us, loads)
		}
	}
}
