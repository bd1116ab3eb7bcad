package modeldb

import (
	"math"
	"testing"
)

// TestPredictCountsFusedSlots: with micro-fusion a load-op form takes one
// dispatch slot, not its two uops. On the Granite Rapids guest 16 movupd
// xmm, xmm with 8 xor r16, m16 measured 3.86 cycles; counting the xor's
// load as a slot of its own, 32 uops at 6 a cycle, predicted 5.33.
func TestPredictCountsFusedSlots(t *testing.T) {
	m := &Model{Name: "fused", ISA: "x86", DispatchWidth: 6, MicroFusion: true, Ports: []string{"0", "1", "5", "6", "2", "3", "v0", "v1", "v2", "v3"}}
	m.Put(&Entry{Form: "movupd xmm, xmm", Uops: 1, Throughput: 0.25, PortPressure: PortPressure{{Cycles: 1, Ports: []string{"v0", "v1", "v2", "v3"}}}})
	m.Put(&Entry{Form: "xor r16, m16", Uops: 2, Throughput: 0.5, PortPressure: PortPressure{{Cycles: 1, Ports: []string{"0", "1", "5", "6"}}, {Cycles: 1, Ports: []string{"2", "3"}}}})
	m.Put(&Entry{Form: "add m64, r64", Uops: 4, Throughput: 1, PortPressure: PortPressure{{Cycles: 1, Ports: []string{"0", "1", "5", "6"}}, {Cycles: 1, Ports: []string{"2", "3"}}}})
	m.Reindex()
	mix := []MixPart{{Form: "movupd xmm, xmm", Count: 16}, {Form: "xor r16, m16", Count: 8}}
	for _, c := range []struct {
		fusion bool
		want   float64
	}{{true, 4}, {false, 32.0 / 6}} {
		m.MicroFusion = c.fusion
		pr, err := NewPredictor(m).Predict(mix)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(pr.Cycles-c.want) > 1e-9 {
			t.Errorf("micro-fusion %v: %s predicted %.3f (%s), want %.3f", c.fusion, MixString(mix), pr.Cycles, pr.Bound, c.want)
		}
	}
	for form, want := range map[string]float64{"xor r16, m16": 1, "add m64, r64": 2, "movupd xmm, xmm": 1} {
		if got := DispatchSlots(mustForm(t, form), map[string]float64{"xor r16, m16": 2, "add m64, r64": 4, "movupd xmm, xmm": 1}[form], true); got != want {
			t.Errorf("DispatchSlots(%s) = %v, want %v", form, got, want)
		}
	}
}
