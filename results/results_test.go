package results

import (
	"bytes"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestReadExegesisFile(t *testing.T) {
	bs, err := ReadFile("../testdata/exegesis/exegesis-results.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if len(bs) != 3 {
		t.Fatalf("%d documents, want 3", len(bs))
	}
	b := bs[1]
	if b.Mode != "inverse_throughput" || len(b.Key.Instructions) != 2 || b.Key.Instructions[0] != "VADDPDYrr YMM0 YMM1 YMM2" || b.CPUName != "znver3" {
		t.Errorf("document 2: %+v", b)
	}
	m, ok := b.Value("inverse_throughput")
	if !ok || m.Value != 0.5012 || m.PerSnippetValue != 1.0024 {
		t.Errorf("measurement %+v", m)
	}
	if bs[2].Error == "" || len(bs[2].Measurements) != 0 {
		t.Errorf("error document %+v", bs[2])
	}
}

func TestRoundTrip(t *testing.T) {
	in := []*Benchmark{{
		Mode: "latency", Key: Key{Instructions: []string{"add rax, rax"}, RegisterInitialValues: []string{}},
		CPUName: "znver4", LLVMTriple: "x86_64-unknown-linux-gnu", NumRepetitions: 21,
		Measurements: []Measurement{{Key: "latency", Value: 1.0001, PerSnippetValue: 1.0001}},
		Portlab:      &Extra{Form: "add r64, r64", Clock: "calibrated-tsc", Median: 1.0001, Reps: 21, Clean: 20},
	}}
	path := filepath.Join(t.TempDir(), "r.yaml")
	if err := WriteFile(path, in); err != nil {
		t.Fatal(err)
	}
	out, err := ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(out) != 1 || out[0].Portlab.Form != "add r64, r64" || out[0].Measurements[0].Value != 1.0001 {
		t.Errorf("round trip: %+v", out[0])
	}
	data, _ := Marshal(in)
	if !strings.HasPrefix(string(data), "---\nmode: latency\n") || !strings.HasSuffix(string(data), "\n...\n") {
		t.Errorf("layout:\n%s", data)
	}
}

func TestParseErrorsNameTheDocument(t *testing.T) {
	_, err := Parse("r.yaml", []byte("---\nmode: latency\n...\n---\nmode: [\n"))
	if err == nil || !strings.HasPrefix(err.Error(), "r.yaml: document 2:") {
		t.Errorf("got %v", err)
	}
	_, err = Parse("r.yaml", []byte("---\nfoo: 1\n"))
	if err == nil || !strings.Contains(err.Error(), "has no mode") {
		t.Errorf("got %v", err)
	}
}

func TestCleanestKeepsTheCleanestResultPerThingAndHost(t *testing.T) {
	res := func(id, host string, clean int, v float64) *Benchmark {
		return &Benchmark{Measurements: []Measurement{{Key: "latency", Value: v}},
			Portlab: &Extra{ID: id, Host: host, Reps: 21, Clean: clean, Median: v}}
	}
	noisy := res("a", "h1", 2, 9)
	bs := []*Benchmark{
		noisy,
		res("b", "h1", 20, 1),
		res("a", "h2", 3, 7),  // another host: kept apart
		res("a", "h1", 19, 4), // the re-measurement
		{Measurements: []Measurement{{Key: "latency", Value: 5}}}, // llvm-exegesis: no ID
		res("b", "h1", 20, 2), // as clean: the later wins
		{Error: "crashed", Portlab: &Extra{ID: "b", Host: "h1"}},
	}
	var got []float64
	for _, b := range Cleanest(bs) {
		got = append(got, b.Measurements[0].Value)
	}
	if want := []float64{4, 2, 7, 5}; !slices.Equal(got, want) {
		t.Errorf("Cleanest kept values %v, want %v", got, want)
	}
	if !noisy.Noisy() || bs[1].Noisy() || bs[4].Noisy() {
		t.Errorf("Noisy: %v %v %v, want true false false", noisy.Noisy(), bs[1].Noisy(), bs[4].Noisy())
	}
	// Retried jobs: 12 clean of 63 repetitions (three jobs of 21) are
	// enough, 10 are not.
	retried := res("c", "h1", 12, 3)
	retried.Portlab.RepsPerJob, retried.Portlab.Reps = 21, 63
	if retried.Noisy() {
		t.Error("12 clean repetitions of three 21-repetition jobs read as noisy")
	}
	retried.Portlab.Clean = 10
	if !retried.Noisy() {
		t.Error("10 clean repetitions of three 21-repetition jobs read as clean")
	}
}

// Of converged results that keep the fastest (memory forms' throughputs),
// the smallest median wins whatever the uncertainties; a noisy result
// still loses to any converged one, and results of other benchmarks keep
// the surest.
func TestCleanestKeepsTheFastestWhereAsked(t *testing.T) {
	yes, no := true, false
	res := func(id, keep string, conv *bool, v, unc float64) *Benchmark {
		return &Benchmark{Measurements: []Measurement{{Key: "inverse_throughput", Value: v}},
			Portlab: &Extra{ID: id, Host: "h", Reps: 55, Clean: 5, Median: v, Uncertainty: unc, Converged: conv, Keep: keep}}
	}
	bs := []*Benchmark{
		res("m", KeepFastest, &yes, 0.63, 0.001),
		res("m", KeepFastest, &no, 0.50, 0.05),   // noisy: never kept over a converged one
		res("m", KeepFastest, &yes, 0.56, 0.005), // converged and faster: kept
		res("m", KeepFastest, &yes, 0.60, 0.0001),
		res("r", "", &yes, 0.25, 0.002),
		res("r", "", &yes, 0.24, 0.004), // the surer (smaller relative uncertainty) stays
		res("n", KeepFastest, &no, 0.70, 0.01),
		res("n", KeepFastest, &no, 0.62, 0.03), // all noisy: the fastest, noise only adds time
		res("s", "", &no, 0.70, 0.01),          // all noisy, the surest
		res("s", "", &no, 0.62, 0.03),
	}
	var got []float64
	for _, b := range Cleanest(bs) {
		got = append(got, b.Portlab.Median)
	}
	if want := []float64{0.56, 0.25, 0.62, 0.70}; !slices.Equal(got, want) {
		t.Errorf("Cleanest kept %v, want %v", got, want)
	}
	if c := CompareClean(bs[1], bs[0]); c >= 0 {
		t.Errorf("a noisy fast result compares %d with a converged slow one, want negative", c)
	}
}

// The end of the last whole document is found reading backwards, also
// where the marker crosses a block boundary or the file has none.
func TestCompleteLength(t *testing.T) {
	for _, at := range []int{-1, 0, 3, 1<<16 - 2, 1<<16 - 5, 1 << 16, 3<<16 + 7, 5<<16 - 5} {
		data := bytes.Repeat([]byte("x: 1\n"), 5<<16/5)
		if at >= 0 {
			copy(data[at:], docEnd)
		}
		want := int64(0)
		if i := bytes.LastIndex(data, docEnd); i >= 0 {
			want = int64(i + len(docEnd))
		}
		got, err := CompleteLength(bytes.NewReader(data), int64(len(data)))
		if err != nil || got != want {
			t.Errorf("marker at %d of %d bytes: %d, %v; want %d", at, len(data), got, err, want)
		}
	}
}
