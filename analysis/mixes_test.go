package analysis

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"portlab/modeldb"
)

// MixSimulator predicts a mix from its machine code as measured: eight
// 8-byte stores alternating between two lines (the generator's layout of
// two store forms in one mix, [rdi+2048+8k] and [rdi+2304+8k]) commit one
// a cycle on a core whose stores to one line go two a cycle, 8 cycles a
// copy, where the two store ports alone allow 4 (the bottleneck bound
// counts the commit from the code too). A mix whose results carry no
// code gets the bound, 4 cycles, marked as such.
func TestMixSimulatorSeesTheMeasuredCode(t *testing.T) {
	m := storeCommitModel(t)
	// mov qword ptr [rdi+disp32], rax: 48 89 87 disp32.
	var code strings.Builder
	for k := 0; k < 4; k++ {
		for _, base := range []int{2048, 2304} {
			d := base + 8*k
			fmt.Fprintf(&code, "488987%02X%02X%02X%02X", d&0xff, d>>8&0xff, d>>16&0xff, d>>24&0xff)
		}
	}
	parts := []modeldb.MixPart{{Form: "mov m64, r64", Count: 8}}
	withCode := &modeldb.MixMeasurement{Parts: parts, Cycles: 8, Code: code.String()}
	noCode := &modeldb.MixMeasurement{Parts: parts, Cycles: 8}
	sim, err := MixSimulator(m)
	if err != nil {
		t.Fatal(err)
	}
	pr, err := sim(withCode)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(pr.Cycles-8) > 0.1 || pr.Fallback || !strings.Contains(pr.Bound, "store commit") {
		t.Errorf("simulated %+v, want 8 cycles a copy by the store commit", pr)
	}
	pr, err = sim(noCode)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(pr.Cycles-4) > 1e-9 || !pr.Fallback {
		t.Errorf("without code %+v, want the bound's 4 cycles, marked fallback", pr)
	}
	r := modeldb.EvaluateMixMeasurementsWith(m, []*modeldb.MixMeasurement{withCode, noCode}, 0.1, MixSimulatorName, sim)
	if r.N != 2 || r.Within != 1 || r.Fallback != 1 || r.Predictor != MixSimulatorName {
		t.Errorf("report: %d mixes, %d within, %d by the bound, predictor %q; want 2, 1, 1, %q", r.N, r.Within, r.Fallback, r.Predictor, MixSimulatorName)
	}
	if s := r.Summary(2); !strings.Contains(s, "predicted by the "+MixSimulatorName+"; 1 mixes by the bottleneck bound") {
		t.Errorf("summary does not say how the mixes were predicted:\n%s", s)
	}
	if b := modeldb.EvaluateMixMeasurements(m, []*modeldb.MixMeasurement{withCode, noCode}, 0.1); b.Within != 1 || b.Predictor != "bottleneck bound" {
		t.Errorf("the bound predicts %d of the alternating stores with and without code within 10 %% (want the one with code) or is not named (%q)", b.Within, b.Predictor)
	}
}
