package validate

import (
	"bytes"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"portlab/analysis/input"
	"portlab/internal/browsertest"
)

// fixed predicts every kernel at a factor of its measured cycles, so that
// some predictions are more than 10 % off.
type fixed struct {
	name string
	meas []Measured
}

func (f *fixed) Name() string { return f.name }

func (f *fixed) Predict(ks []*Kernel) []Prediction {
	out := make([]Prediction, len(ks))
	for i := range ks {
		out[i] = Prediction{Cycles: 1 + f.meas[i].Cycles*(0.8+0.05*float64(i%9))}
	}
	return out
}

// htmlReport builds the report of the project's kernels with made-up
// measurements (nothing is measured) and two predictors with long names,
// as portlab's own are, one kernel not measured.
func htmlReport(t *testing.T) (*Report, string) {
	t.Helper()
	files, _ := filepath.Glob("../testdata/kernels/*.s")
	ks, err := Load(files, input.Options{})
	if err != nil {
		t.Fatal(err)
	}
	meas := make([]Measured, len(ks))
	for i := range ks {
		meas[i] = Measured{Cycles: 0.5 + float64(i*i%97), Clean: 21, Reps: 21}
	}
	meas[3] = Measured{Err: errors.New("triad_zmm.s:4:2: vfmadd231pd zmm, zmm, zmm needs avx512f, which this host lacks")}
	// A kernel whose two loop lengths disagreed in every pass: its cell
	// carries the second length's value.
	meas[5].Passes, meas[5].PassAgree = []float64{meas[5].Cycles, meas[5].Cycles}, []bool{false, false}
	meas[5].Copies, meas[5].LongerCopies, meas[5].Longer = 15, 23, meas[5].Cycles*1.05
	preds := []Predictor{&fixed{"portlab measured by portlab on a Granite Rapids-class KVM guest (GenuineIntel-6-a7-1)", meas},
		&fixed{"llvm-mca -mcpu=sapphirerapids", meas}}
	r := Build(ks, meas, preds, "graniterapids (GenuineIntel-6-ad-1)")
	r.Date = "2025-11-20T10:00:00Z"
	r.Command = "portlab validate --html v.html testdata/kernels/*.s"
	var b bytes.Buffer
	if err := WriteHTML(&b, r); err != nil {
		t.Fatal(err)
	}
	return r, b.String()
}

func TestHTMLFiguresSayWhereTheyComeFrom(t *testing.T) {
	_, page := htmlReport(t)
	for _, want := range []string{"$ portlab validate --html v.html", "measured 2025-11-20T10:00:00Z", "graniterapids (GenuineIntel-6-ad-1)",
		"predicted cycles / iteration", "Not measured", "needs avx512f, which this host lacks", `<span class="len" title="`} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	// Each of the two figures carries the host and the command.
	if n := strings.Count(page, "$ portlab validate --html v.html"); n < 3 {
		t.Errorf("the command appears %d times (header and two figures)", n)
	}
}

// TestHTMLInChromium renders the report in headless Chromium and fails on
// text of a figure outside it or overlapping (long predictor names).
func TestHTMLInChromium(t *testing.T) {
	_, page := htmlReport(t)
	browsertest.Check(t, []byte(page), "", 2)
}
