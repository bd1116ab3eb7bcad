package analysis

import (
	"math"
	"strings"
	"testing"

	"portlab/modeldb"
)

// A form whose measured throughput is slower than the ports its model
// gives it is held to that throughput in the simulation, as the static
// bound holds it: four independent `div r32` with ports of a cycle and a
// throughput of 6 take 24 cycles an iteration (the Zen 4 guest measured
// 24.0 for div32_tput, where a model built there had such ports and was
// simulated at 4.0), beside adds too, which keep their ALUs; a form whose
// ports explain its throughput gets no limit, and neither does an entry
// not measured (an imported model's throughput is llvm-mca's report,
// which llvm-mca's simulation does not apply).
func TestOwnLimitHoldsAFormToItsThroughput(t *testing.T) {
	const src = `name: own-limit
isa: x86
dispatched_uops_per_cycle: 6
ports: [ALU0, ALU1, ALU2, ALU3, FP0]
instruction_forms:
  - {form: "div r32", uops: 2, latency: 14, throughput: 6, port_pressure: [[1, [ALU2]], [1, [FP0]]], provenance: {source: measured}}
  - {form: "xor r32, r32", uops: 1, latency: 1, throughput: 0.25, port_pressure: [[1, [ALU0, ALU1, ALU2, ALU3]]], flags: [zero-idiom, dependency-breaking]}
  - {form: "mov r64, r64", uops: 1, latency: 1, throughput: 0.25, port_pressure: [[1, [ALU0, ALU1, ALU2, ALU3]]]}
  - {form: "mov r32, r32", uops: 1, latency: 1, throughput: 0.25, port_pressure: [[1, [ALU0, ALU1, ALU2, ALU3]]]}
  - {form: "add r64, r64", uops: 1, latency: 1, throughput: 0.25, port_pressure: [[1, [ALU0, ALU1, ALU2, ALU3]]]}
  - {form: "imul r64, r64", uops: 1, latency: 3, throughput: 1, port_pressure: [[1, [ALU1]]], provenance: {source: measured}}
  - {form: "div r64", uops: 2, latency: 14, throughput: 6, port_pressure: [[1, [ALU2]], [1, [FP0]]]}
`
	m, err := modeldb.Parse("own.yml", []byte(src), modeldb.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	divs := strings.Repeat("mov eax, r8d\nxor edx, edx\ndiv ebx\n", 4)
	for _, c := range []struct {
		name, src string
		want      float64
	}{
		{"four divides", divs, 24},
		{"four divides and eight adds", divs + "add rsi, rcx\nadd rdi, rcx\nadd r12, rcx\nadd r13, rcx\nadd rsi, rcx\nadd rdi, rcx\nadd r12, rcx\nadd r13, rcx\n", 24},
		{"four imuls (ports explain their throughput)", "imul rsi, rcx\nimul rdi, rcx\nimul r12, rcx\nimul r13, rcx\n", 4},
		{"four divides of an entry not measured (as llvm-mca would)", strings.Repeat("mov rax, r8\nxor edx, edx\ndiv rbx\n", 4), 4},
	} {
		st, region := staticOf(t, m, c.src)
		if st.Bound < c.want-1e-9 {
			t.Errorf("%s: static bound %.2f (%s), want at least %.2f", c.name, st.Bound, st.Bottleneck, c.want)
		}
		if got := simulate(t, m, region, 400); math.Abs(got-c.want) > 0.03*c.want {
			t.Errorf("%s: simulated %.3f cycles/iteration, want %.2f", c.name, got, c.want)
		}
	}
	// The bottleneck analysis names the limit, in text and JSON.
	_, region := staticOf(t, m, divs)
	b, _ := NewBuilder(m)
	k, err := b.Kernel(region)
	if err != nil {
		t.Fatal(err)
	}
	r, err := Analyze(k, Options{Iterations: 100}, Views{Bottleneck: true})
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	PrintText(&out, []*Report{r})
	if !strings.Contains(out.String(), "Forms' own throughput held ready instructions back in [ 9") || !strings.Contains(out.String(), "(div r32 at 6.00 cycles)") {
		t.Errorf("bottleneck view:\n%s", out.String())
	}
	for _, v := range r.Views {
		if v.Name() == "BottleneckAnalysis" {
			j := v.(interface{ JSON(*Report) any }).JSON(r).(map[string]any)
			if held, _ := j["OwnThroughputHeldCycles"].(int); held < 2000 {
				t.Errorf("JSON OwnThroughputHeldCycles %v, want most of the ~2,400 cycles", j["OwnThroughputHeldCycles"])
			}
		}
	}
}
