package modeldb

import (
	"slices"
	"strings"
	"testing"

	"portlab/results"
)

// TestStoreCommitFromMeasurements: the build derives the rule from the two
// streams, and only when lines apart are slower.
func TestStoreCommitFromMeasurements(t *testing.T) {
	if sc := storeCommitOf(0.50, 1.00058, nil); sc == nil || *sc != (StoreCommit{LinesPerCycle: 1, StoresPerLine: 2}) {
		t.Errorf("0.50 and 1.00 cycles a store: %v, want 1 line a cycle, 2 a line", sc)
	}
	if sc := storeCommitOf(0.5, 0.52, nil); sc != nil {
		t.Errorf("lines apart as fast as one line: %v, want none", sc)
	}
	if sc := storeCommitOf(0, 1, nil); sc != nil {
		t.Errorf("one stream missing: %v, want none", sc)
	}
	// The Zen 5 guest: 16 stores over 4, 8 and 12 lines at the same-line
	// rate, over 16 a line a cycle.
	zen5 := map[int]float64{4: 0.49927, 8: 0.49941, 12: 0.50038}
	if sc := storeCommitOf(0.5, 1.04192, zen5); sc == nil || *sc != (StoreCommit{LinesPerCycle: 1, StoresPerLine: 2, RecentLines: 12}) {
		t.Errorf("Zen 5's streams: %v, want a line a cycle, 2 a line, 12 recent lines", sc)
	}
	// A Golden Cove-class core: eight lines already a line a cycle; a gap
	// in the streams stops the count.
	if sc := storeCommitOf(0.5, 1.0, map[int]float64{4: 0.5, 8: 1.0, 12: 1.0}); sc == nil || sc.RecentLines != 4 {
		t.Errorf("4 lines fast, 8 slow: %v, want 4 recent lines", sc)
	}
	if sc := storeCommitOf(0.5, 1.0, map[int]float64{8: 0.5, 12: 0.5}); sc == nil || sc.RecentLines != 0 {
		t.Errorf("the 4-line stream missing: %v, want no recent lines", sc)
	}
}

// TestStoreCommitRecentLinesRoundTrip: recent_lines is written where set
// (TestStoreCommitRoundTrip: not otherwise) and read back.
func TestStoreCommitRecentLinesRoundTrip(t *testing.T) {
	_, back := storeCommitRoundTrip(t, StoreCommit{LinesPerCycle: 1, StoresPerLine: 2, RecentLines: 12},
		"store_commit: {lines_per_cycle: 1, recent_lines: 12, stores_per_line: 2}")
	if got := back.StoreCommit.String(); !strings.Contains(got, "one of the 12 lines written last") {
		t.Errorf("in words: %q", got)
	}
}

// TestStoreCommitRoundTrip: the header survives writing and reading, and
// bad values are errors naming the file and line.
// storeCommitRoundTrip writes a model with sc, checks the text holds
// written, reads it back and checks sc survived.
func storeCommitRoundTrip(t *testing.T, sc StoreCommit, written string) (m, back *Model) {
	t.Helper()
	m = &Model{Name: "x", ISA: "x86", Ports: []string{"0"}, StoreCommit: &sc}
	data, err := m.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), written) {
		t.Errorf("written:\n%s", data)
	}
	back, err = Parse("x.yml", data, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if back.StoreCommit == nil || *back.StoreCommit != sc {
		t.Errorf("read back %v, want %v", back.StoreCommit, sc)
	}
	return m, back
}

func TestStoreCommitRoundTrip(t *testing.T) {
	m, _ := storeCommitRoundTrip(t, StoreCommit{LinesPerCycle: 1, StoresPerLine: 2}, "store_commit: {lines_per_cycle: 1, stores_per_line: 2}")
	if c := m.Clone(); c.StoreCommit == m.StoreCommit || *c.StoreCommit != *m.StoreCommit {
		t.Errorf("Clone shares or loses the store commit: %v", c.StoreCommit)
	}
	plain := &Model{Name: "x", ISA: "x86", Ports: []string{"0"}}
	d := Diff(plain, m, DiffOptions{})
	if len(d.Header) != 1 || d.Header[0].Field != "store_commit" || d.Header[0].B != "1 cache line(s) a cycle, up to 2 store(s) to one line" {
		t.Errorf("diff header %+v, want the store commit added", d.Header)
	}
	for _, c := range []struct{ yaml, want string }{
		{"store_commit: {lines_per_cycle: 0, stores_per_line: 2}", "must be at least 1"},
		{"store_commit: {lines_per_cycle: 1, per_line: 2}", `unknown key "per_line"`},
		{"store_commit: {lines_per_cycle: 1, stores_per_line: 2, recent_lines: -1}", "recent_lines: negative value -1"},
	} {
		src := "name: x\nisa: x86\nports: ['0']\n" + c.yaml + "\ninstruction_forms: []\n"
		_, err := Parse("bad.yml", []byte(src), LoadOptions{})
		if err == nil || !strings.Contains(err.Error(), "bad.yml:4") || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want bad.yml:4 and %q", c.yaml, err, c.want)
		}
	}
}

// TestBuildMeasuresStoreCommit: the store-commit streams of a sweep reach
// the built model's header; without them it has none.
func TestBuildMeasuresStoreCommit(t *testing.T) {
	res := func(id, kind, operands string, v float64) *results.Benchmark {
		return &results.Benchmark{Mode: "inverse_throughput", Measurements: []results.Measurement{{Key: "inverse_throughput", Value: v, PerSnippetValue: 16 * v}},
			Portlab: &results.Extra{ID: id, Form: "mov m64, r64", Kind: kind, Operands: operands, Median: v, Reps: 5, Clean: 5, Host: "h", Date: "2026-11-26T09:00:00Z"}}
	}
	bs := []*results.Benchmark{
		res("tp", "throughput", "", 0.5),
		res("same", StoreCommitKind, "same-line", 0.5),
		res("apart", StoreCommitKind, "lines-apart", 1.0006),
	}
	ms := CollectMeasurements(bs, CollectOptions{})
	if ms.StoreCommitSameLine != 0.5 || ms.StoreCommitLinesApart != 1.0006 {
		t.Fatalf("collected %v and %v cycles a store, want 0.5 and 1.0006", ms.StoreCommitSameLine, ms.StoreCommitLinesApart)
	}
	if tp := ms.Forms["mov m64, r64"].Throughput; tp != 0.5 {
		t.Errorf("the streams changed the form's throughput: %v", tp)
	}
	m, rep, err := Build(ms, BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if m.StoreCommit == nil || *m.StoreCommit != (StoreCommit{LinesPerCycle: 1, StoresPerLine: 2}) {
		t.Errorf("built store_commit %v, want 1 line a cycle, 2 stores a line", m.StoreCommit)
	}
	if !strings.Contains(rep.Summary(3), "stores commit 1 cache line(s) a cycle") {
		t.Errorf("the report does not say it:\n%s", rep.Summary(3))
	}
	wantPass(t, rep, "store commit", true, "stores a line apart took 1.00 cycles each")
	// The streams over fewer lines set recent_lines: 4 and 8 lines at the
	// same-line rate, 12 at a line a cycle.
	recent := append(slices.Clone(bs), res("r4", StoreCommitKind, "lines-apart-4", 0.5), res("r8", StoreCommitKind, "lines-apart-8", 0.51), res("r12", StoreCommitKind, "lines-apart-12", 1.0))
	mr, repr, err := Build(CollectMeasurements(recent, CollectOptions{}), BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if mr.StoreCommit == nil || mr.StoreCommit.RecentLines != 8 {
		t.Errorf("built store_commit %v with the 4-, 8- and 12-line streams, want 8 recent lines", mr.StoreCommit)
	}
	wantPass(t, repr, "store commit", true, "over 8 lines 0.51, over 12 lines 1.00")
	m2, rep2, err := Build(CollectMeasurements(bs[:1], CollectOptions{}), BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if m2.StoreCommit != nil {
		t.Errorf("store_commit %v without the streams", m2.StoreCommit)
	}
	wantPass(t, rep2, "store commit", false, "not measured")
	// Streams that never converged, too close to tell apart (a neighbour
	// on the store path: 0.76 to one line where a quiet core reads 0.50):
	// the report says they were too noisy, not that there is no limit.
	no := false
	noisy := []*results.Benchmark{bs[0], res("same", StoreCommitKind, "same-line", 0.76), res("apart", StoreCommitKind, "lines-apart", 1.03)}
	for _, b := range noisy[1:] {
		b.Portlab.Converged = &no
	}
	ms3 := CollectMeasurements(noisy, CollectOptions{})
	if !ms3.StoreCommitNoisy || ms.StoreCommitNoisy {
		t.Errorf("StoreCommitNoisy %v for streams that never converged, %v for clean ones", ms3.StoreCommitNoisy, ms.StoreCommitNoisy)
	}
	m3, rep3, err := Build(ms3, BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if m3.StoreCommit != nil {
		t.Errorf("store_commit %v from streams too close to tell", m3.StoreCommit)
	}
	wantPass(t, rep3, "store commit", false, "did not converge (1.03 cycles a store a line apart, 0.76 to one line): too noisy to tell")
}
