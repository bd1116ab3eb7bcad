package perf

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRecordingsFromNoisyHosts runs the estimators on the raw repetitions
// of benchmarks a noisy host disturbed (testdata/noise, written by
// `portlab noise --record`), each with the value a quiet host measures.
// The floors estimator must land within 1 % of it on every recording
// whose estimate converged (the engine's rule: uncertainty within 0.5 %,
// and the throughput canary within 3 % of the run's reference), and say
// it did not converge where it is further off; the others are reported beside it (go test -run
// Recordings -v).
func TestRecordingsFromNoisyHosts(t *testing.T) {
	files, err := filepath.Glob("../testdata/noise/*.jsonl")
	if err != nil || len(files) == 0 {
		t.Fatalf("no recordings in testdata/noise (%v)", err)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%-46s %-28s %6s %8s", "recording", "benchmark", "known", "reps")
	for _, c := range candidates {
		fmt.Fprintf(&b, " %18s", c.name)
	}
	b.WriteString("\n")
	n := 0
	for _, f := range files {
		recs, err := ReadRecordings(f)
		if err != nil {
			t.Fatal(err)
		}
		for i, r := range recs {
			if r.Known == 0 {
				continue
			}
			n++
			fmt.Fprintf(&b, "%-46s %-28s %6.3f %8d", fmt.Sprintf("%s:%d", filepath.Base(f), i+1), r.Name, r.Known, len(r.Timings))
			for _, c := range candidates {
				v := c.est(r.Layout, r.Timings) / float64(r.Instructions)
				fmt.Fprintf(&b, " %9.4f (%+5.1f%%)", v, 100*(v/r.Known-1))
				if c.name != "floors" {
					continue
				}
				est := r.Layout.Estimate(r.Timings)
				conv := est.Converged(0.005, 0.002*float64(r.Instructions)) && est.CanaryClear(r.References())
				if conv && math.Abs(v/r.Known-1) > 0.01 {
					t.Errorf("%s:%d %s: floors read %.4f and call it converged, known %.4f", f, i+1, r.Name, v, r.Known)
				}
				if !conv {
					b.WriteString(" (not converged)")
				}
			}
			b.WriteString("\n")
		}
	}
	if n < 10 {
		t.Errorf("%d recordings with a known value, want at least 10", n)
	}
	t.Log("\n" + b.String())
}

// A recording file with a broken line names the file and the line.
func TestReadRecordingsNamesTheLine(t *testing.T) {
	p := filepath.Join(t.TempDir(), "r.jsonl")
	if err := writeFile(p, "{\"name\":\"x\",\"instructions\":1,\"layout\":{\"calib_span\":128,\"span\":1},\"timings\":[{}]}\n{oops\n"); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadRecordings(p); err == nil || !strings.Contains(err.Error(), "r.jsonl:2:") {
		t.Errorf("error %v, want one naming r.jsonl:2", err)
	}
}

func writeFile(p, s string) error { return os.WriteFile(p, []byte(s), 0o644) }

// ReadRecordings reads gzip-compressed files as it reads plain ones.
func TestReadRecordingsGzip(t *testing.T) {
	r := &Recording{Name: "x", Source: "add rax, rax\n", Instructions: 1, Layout: Layout{CalibSpan: 128, Span: 1},
		Timings: []Timing{{Snip: [2]float64{1, 2}}, {Snip: [2]float64{1.5, 2.5}}}}
	var plain, zipped bytes.Buffer
	zw := gzip.NewWriter(&zipped)
	for range 3 {
		if err := WriteRecording(&plain, r); err != nil {
			t.Fatal(err)
		}
		if err := WriteRecording(zw, r); err != nil {
			t.Fatal(err)
		}
	}
	zw.Close()
	dir := t.TempDir()
	for name, data := range map[string][]byte{"r.jsonl": plain.Bytes(), "r.jsonl.gz": zipped.Bytes()} {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		got, err := ReadRecordings(p)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(got) != 3 || got[2].Source != r.Source || got[2].Timings[1].Snip[1] != 2.5 {
			t.Errorf("%s: read %d recordings (%+v), want 3 like the one written", name, len(got), got)
		}
	}
	bad := filepath.Join(dir, "bad.gz")
	os.WriteFile(bad, zipped.Bytes()[:len(zipped.Bytes())/2], 0o644)
	if _, err := ReadRecordings(bad); err == nil || !strings.Contains(err.Error(), "bad.gz") {
		t.Errorf("a truncated gzip file: error %v, want one naming the file", err)
	}
}
