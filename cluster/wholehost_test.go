package cluster

import (
	"fmt"
	"math"
	"math/rand"
	"strings"
	"testing"
	"time"

	"portlab/isa"
	"portlab/modeldb"
	"portlab/results"
)

// wholeHostSweep makes the results of a whole-host sweep without measuring:
// for every catalog form the model has, the reciprocal throughput and the
// latency of each operand pair the model lists, valued as the model says
// with a little scatter, and for about one form in three a factor of 0.5
// to 4 on most of its values, so that thousands of forms disagree with the
// model. Snippets are as long as a sweep's (24 instances). The points come
// back resolved against m.
func wholeHostSweep(t testing.TB, m *modeldb.Model) []*Point {
	t.Helper()
	rng := rand.New(rand.NewSource(1))
	hi := &results.HostInfo{Node: "spr-node-1", Vendor: "GenuineIntel", Family: 6, Model: 0x8f, Stepping: 8,
		Brand: "Intel(R) Xeon(R) Platinum 8480+", Microarch: "sapphirerapids", Kernel: "6.8.0", ClockSource: "tsc"}
	factors := []float64{0.5, 0.75, 1.25, 1.5, 2, 3, 4}
	var docs []*results.Benchmark
	doc := func(f *isa.Form, mode, kind, operands string, v float64) {
		var src strings.Builder
		for i := 0; i < 24; i++ {
			fmt.Fprintf(&src, "%s  # instance %d\n", f.Name(), i)
		}
		fmt.Fprintf(&src, "# %s of %s: 24 independent instances per copy\n", kind, f.Name())
		v = math.Round(v*1e5) / 1e5
		key := "latency"
		if mode == "inverse_throughput" {
			key = mode
		}
		docs = append(docs, &results.Benchmark{Mode: mode, CPUName: "sapphirerapids", LLVMTriple: "x86_64-unknown-linux-gnu",
			NumRepetitions: 21, Key: results.Key{Instructions: []string{f.Name()}},
			Measurements: []results.Measurement{{Key: key, Value: v, PerSnippetValue: v * 24}},
			Portlab: &results.Extra{Form: f.Name(), Kind: kind, Operands: operands, Source: src.String(), Syntax: "intel",
				Clock: "hw-cycles", Median: v, Min: v, Max: v, Reps: 21, Clean: 21,
				Host: hi.Signature(), HostInfo: hi, Date: "2025-11-20T10:00:00Z"}})
	}
	for _, f := range isa.All() {
		e, ok := m.Lookup(f.Name())
		if !ok {
			continue
		}
		off := rng.Float64() < 0.3
		factor := factors[rng.Intn(len(factors))]
		val := func(want float64) float64 {
			if want <= 0 {
				want = 0.25
			}
			v := want * (1 + rng.NormFloat64()*0.003)
			if off && rng.Float64() < 0.7 {
				v *= factor
			}
			return v
		}
		doc(f, "inverse_throughput", "throughput", "", val(e.Throughput))
		if len(e.Latencies) == 0 {
			doc(f, "latency", "latency", "", val(e.Latency))
		}
		for _, l := range e.Latencies {
			doc(f, "latency", "latency", l.From+"->"+l.To, val(l.Cycles))
		}
	}
	pts := FromBenchmarks("sweep.yaml", docs)
	Resolve(pts, m)
	return pts
}

// wholeHostReport clusters and analyses wholeHostSweep against LLVM 14's
// sapphirerapids model, as `portlab cluster --mcpu sapphirerapids` does.
func wholeHostReport(t testing.TB) (*Report, *Clustering) {
	t.Helper()
	m, err := modeldb.Embedded("llvm14-sapphirerapids.yml.gz")
	if err != nil {
		t.Fatal(err)
	}
	pts := wholeHostSweep(t, m)
	c, err := Run(pts, Options{})
	if err != nil {
		t.Fatal(err)
	}
	r := Analyze(c, m, AnalysisOptions{Files: []string{"sweep.yaml"}, Generated: time.Date(2025, 11, 21, 12, 0, 0, 0, time.UTC),
		Command: "portlab cluster --benchmarks-file sweep.yaml --mcpu sapphirerapids --analysis-inconsistencies-output-file r.html"})
	return r, c
}
