package modeldb

import (
	"bufio"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// readMixTSV reads measured mixes from a TSV file: cycles per copy,
// overhead per copy, and the parts as "count*form" joined by " + ";
// lines starting with # are comments.
func readMixTSV(t testing.TB, path string) []*MixMeasurement {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []*MixMeasurement
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		cols := strings.Split(line, "\t")
		if len(cols) != 3 {
			t.Fatalf("%s:%d: %d columns, want 3", path, n, len(cols))
		}
		cycles, err1 := strconv.ParseFloat(cols[0], 64)
		overhead, err2 := strconv.ParseFloat(cols[1], 64)
		if err1 != nil || err2 != nil {
			t.Fatalf("%s:%d: bad number: %v %v", path, n, err1, err2)
		}
		mx := &MixMeasurement{Cycles: cycles, Overhead: overhead}
		for _, p := range strings.Split(cols[2], " + ") {
			count, form, ok := strings.Cut(p, "*")
			c, err := strconv.Atoi(count)
			if !ok || err != nil {
				t.Fatalf("%s:%d: part %q: want count*form", path, n, p)
			}
			mx.Parts = append(mx.Parts, MixPart{Form: form, Count: c})
		}
		out = append(out, mx)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestEmbeddedGraniteRapidsPredictsMeasuredMixes: validation on real
// measurements, no host needed: the embedded Granite Rapids model against
// 1,000 random mixes measured on that host and never fitted
// (testdata/mixes; the file's header says when and how). The target is
// 90 % within 10 %: the embedded model has 906 (docs/benchmarks.md); a
// rebuilt model must not fall below it.
func TestEmbeddedGraniteRapidsPredictsMeasuredMixes(t *testing.T) {
	m, err := Embedded("portlab-graniterapids.yml.gz")
	if err != nil {
		t.Fatal(err)
	}
	mixes := readMixTSV(t, "../testdata/mixes/graniterapids-random.tsv")
	r := EvaluateMixMeasurements(m, mixes, 0.10)
	t.Logf("%s", r.Summary(5))
	if r.N != 1000 || r.Missing != 0 {
		t.Fatalf("%d mixes scored, %d with forms the model lacks (want 1,000 and 0)", r.N, r.Missing)
	}
	if r.Fraction() < 0.90 {
		t.Errorf("%d of %d measured random mixes within 10 %% (want at least 90 %%)", r.Within, r.N)
	}
}

// BenchmarkEmbeddedGraniteRapidsMixes reports the embedded Granite Rapids
// model's share of the 1,000 measured random mixes within 10 % (make
// bench) and the time to predict them.
func BenchmarkEmbeddedGraniteRapidsMixes(b *testing.B) {
	m, err := Embedded("portlab-graniterapids.yml.gz")
	if err != nil {
		b.Fatal(err)
	}
	mixes := readMixTSV(b, "../testdata/mixes/graniterapids-random.tsv")
	var r *MixReport
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r = EvaluateMixMeasurements(m, mixes, 0.10)
	}
	b.ReportMetric(100*r.Fraction(), "%within10%")
	b.ReportMetric(100*r.MeanAbs, "%mean-abs-error")
}

// TestLoadsRuleKeepsTheGraniteRapidsMixes: the rule "loads from their
// register forms" applied to the embedded Granite Rapids model, whose
// memory forms were probed one by one, still predicts at least 90 % of
// its 1,000 measured mixes within 10 % (905 with the rule, 906 without;
// without the throughput check the rule took vcvtps2pd ymm, m128, vpsraw
// ymm, ymm, m128 and cvtsi2sd xmm, m64 onto their register forms' port-5
// uop, and 873).
func TestLoadsRuleKeepsTheGraniteRapidsMixes(t *testing.T) {
	m, err := Embedded("portlab-graniterapids.yml.gz")
	if err != nil {
		t.Fatal(err)
	}
	n := m.LoadsFromRegisterForms(nil)
	for _, f := range []string{"vcvtps2pd ymm, m128", "vpsraw ymm, ymm, m128", "cvtsi2sd xmm, m64"} {
		e, ok := m.Lookup(f)
		if !ok {
			t.Fatalf("the Granite Rapids model has no %s", f)
		}
		for _, u := range e.PortPressure {
			if slices.Equal(u.Ports, []string{"5"}) {
				t.Errorf("%s on %s: its register form's port-5 uop", f, FormatPressure(e.PortPressure))
			}
		}
	}
	mixes := readMixTSV(t, "../testdata/mixes/graniterapids-random.tsv")
	r := EvaluateMixMeasurements(m, mixes, 0.10)
	t.Logf("%d loads changed; %s", n, r.Summary(3))
	if n == 0 || r.Fraction() < 0.90 {
		t.Errorf("%d loads changed, %d of %d measured random mixes within 10 %% (want some, and at least 90 %%)", n, r.Within, r.N)
	}
}
