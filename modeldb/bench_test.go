package modeldb

import (
	"math/rand"
	"testing"
)

// BenchmarkLoadEmbedded parses the largest embedded model (every catalog
// form LLVM's sapphirerapids model knows).
func BenchmarkLoadEmbedded(b *testing.B) {
	embeddedModels.once.Do(loadEmbedded)
	name, size := "", 0
	for n, d := range embeddedModels.data {
		if len(d) > size {
			name, size = n, len(d)
		}
	}
	data := embeddedModels.data[name]
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := Parse(name, data, LoadOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPredictMix predicts random mixes of 2-4 forms with the embedded
// znver3 model.
func BenchmarkPredictMix(b *testing.B) {
	m, err := Default("znver3")
	if err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewSource(1))
	mixes := make([][]MixPart, 256)
	for i := range mixes {
		for k := 0; k < 2+rng.Intn(3); k++ {
			mixes[i] = append(mixes[i], MixPart{Form: m.Forms[rng.Intn(len(m.Forms))].Form, Count: 1 + rng.Intn(4)})
		}
	}
	p := NewPredictor(m)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := p.Predict(mixes[i%len(mixes)]); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkBuildSynthetic builds a model from a synthetic sweep of 30
// forms x 11 probes.
func BenchmarkBuildSynthetic(b *testing.B) {
	truth := loadTruth(b)
	ms := synthMeasurements(b, truth, 0.01, 1)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, _, err := Build(ms, BuildOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

// TestMixValidationReport is the 200-random-mixes validation of the issue
// as a report (run with -v); TestBuildSyntheticSweep asserts it.
func TestMixValidationReport(t *testing.T) {
	if testing.Short() {
		t.Skip("-short")
	}
	truth := loadTruth(t)
	m, _, err := Build(synthMeasurements(t, truth, 0.02, 5), BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	r := EvaluateMixMeasurements(m, randomMixes(t, truth, 200, 0.02, 6), 0.10)
	t.Logf("%s", r.Summary(5))
	if r.Fraction() < 0.9 {
		t.Errorf("%d of %d mixes within 10%%", r.Within, r.N)
	}
}

// BenchmarkMixValidation reports the validation as metrics: a
// model built from a synthetic sweep (2 % noise) predicting 200 random
// mixes of 2-4 forms it was not fitted to.
func BenchmarkMixValidation(b *testing.B) {
	truth := loadTruth(b)
	ms := synthMeasurements(b, truth, 0.02, 5)
	mixes := randomMixes(b, truth, 200, 0.02, 6)
	var r *MixReport
	for i := 0; i < b.N; i++ {
		m, _, err := Build(ms, BuildOptions{})
		if err != nil {
			b.Fatal(err)
		}
		r = EvaluateMixMeasurements(m, mixes, 0.10)
	}
	b.ReportMetric(100*r.Fraction(), "%within10%")
	b.ReportMetric(100*r.MeanAbs, "%mean-abs-error")
}
