package modeldb

import (
	"math"
	"strings"
	"testing"
)

func TestPredict(t *testing.T) {
	m := loadTruth(t)
	p := NewPredictor(m)
	for _, c := range []struct {
		mix        []MixPart
		cycles     float64
		bound      string
		bottleneck string
	}{
		// Alone: the ports.
		{[]MixPart{{Form: "vaddpd ymm, ymm, ymm", Count: 1}}, 0.5, "ports", "FP2 FP3"},
		// Disjoint ports: the larger of the two.
		{[]MixPart{{Form: "vaddpd ymm, ymm, ymm", Count: 2}, {Form: "vmulpd ymm, ymm, ymm", Count: 2}}, 1, "ports", "FP0 FP1 FP2 FP3"},
		// Shared ports: the sum.
		{[]MixPart{{Form: "vfmadd231pd ymm, ymm, ymm", Count: 2}, {Form: "vmulpd ymm, ymm, ymm", Count: 2}}, 2, "ports", "FP0 FP1"},
		// imul on ALU1 inside add's four ALUs: 5 cycles over 4 ports.
		{[]MixPart{{Form: "add r64, r64", Count: 4}, {Form: "imul r64, r64", Count: 1}}, 1.25, "ports", "ALU0 ALU1 ALU2 ALU3"},
		// Dispatch: 8 single-uop instructions on a 6-wide core.
		{[]MixPart{{Form: "add r64, r64", Count: 4}, {Form: "vpaddd ymm, ymm, ymm", Count: 4}}, 8.0 / 6, "dispatch", ""},
		// A form slower than its ports (vcvtdq2pd: throughput 1, ports 0.5).
		{[]MixPart{{Form: "vcvtdq2pd ymm, xmm", Count: 1}}, 1, "throughput of vcvtdq2pd ymm, xmm", ""},
		// The divider dominates.
		{[]MixPart{{Form: "vdivpd ymm, ymm, ymm", Count: 1}, {Form: "vmulpd ymm, ymm, ymm", Count: 4}}, 5, "ports", "FP1"},
	} {
		pr, err := p.Predict(c.mix)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(pr.Cycles-c.cycles) > 1e-9 || pr.Bound != c.bound || strings.Join(pr.Bottleneck, " ") != c.bottleneck {
			t.Errorf("%s: %v cycles (%s, %v), want %v (%s, %s)", MixString(c.mix), pr.Cycles, pr.Bound, pr.Bottleneck, c.cycles, c.bound, c.bottleneck)
		}
		if got := PredictThroughput(m, c.mix); got != pr.Cycles {
			t.Errorf("PredictThroughput %v != Predict %v", got, pr.Cycles)
		}
	}
	// The even assignment: vdivpd's 5 cycles pin FP1, vmulpd's 4 go to FP0.
	pr, _ := p.Predict([]MixPart{{Form: "vdivpd ymm, ymm, ymm", Count: 1}, {Form: "vmulpd ymm, ymm, ymm", Count: 4}})
	if pr.Loads["FP1"] != 5 || pr.Loads["FP0"] != 4 {
		t.Errorf("loads %v", pr.Loads)
	}
	if !math.IsNaN(PredictThroughput(m, []MixPart{{Form: "vaddph zmm, zmm, zmm", Count: 1}})) {
		t.Error("a missing form predicted")
	}
	if _, err := p.Predict([]MixPart{{Form: "vaddps zmm, zmm, zmm", Count: 1}}); err == nil || !strings.Contains(err.Error(), `form "vaddps zmm, zmm, zmm" is not in model`) {
		t.Errorf("missing form: %v", err)
	}
}

func TestPredictManyPorts(t *testing.T) {
	// Over 64 ports predictions use the LP.
	m := &Model{DispatchWidth: 4}
	for i := 0; i < 70; i++ {
		m.Ports = append(m.Ports, "q"+string(rune('A'+i/26))+string(rune('a'+i%26)))
	}
	m.Put(&Entry{Form: "add r64, r64", Uops: 1, Throughput: 0.5, PortPressure: PortPressure{{1, []string{m.Ports[0], m.Ports[69]}}}})
	m.Put(&Entry{Form: "imul r64, r64", Uops: 1, Throughput: 1, PortPressure: PortPressure{{1, []string{m.Ports[69]}}}})
	if got := PredictThroughput(m, []MixPart{{Form: "add r64, r64", Count: 2}, {Form: "imul r64, r64", Count: 2}}); math.Abs(got-2) > 1e-9 {
		t.Errorf("got %v, want 2", got)
	}
}
