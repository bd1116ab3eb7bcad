package main

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"portlab/perf"
	"portlab/results"
)

func TestBenchReportsCrashesAndGoesOn(t *testing.T) {
	if _, err := exec.LookPath("as"); err != nil {
		t.Skip("GNU as not installed")
	}
	dir := t.TempDir()
	files := map[string]string{
		"1-ud2.s":  "ud2\n",
		"2-good.s": "add rax, rax\n",
		"3-wild.s": "mov rax, qword ptr [0xdead000]\n",
		"4-div.s":  "xor ecx, ecx\ndiv rcx\n",
		"5-hang.s": "jmp .\n",
		"6-good.s": "imul rax, rax\n",
	}
	var args []string
	args = append(args, "bench", "--timeout", "300ms", "-o", filepath.Join(dir, "out.yaml"))
	for _, name := range []string{"1-ud2.s", "2-good.s", "3-wild.s", "4-div.s", "5-hang.s", "6-good.s"} {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(files[name]), 0o644)
		args = append(args, "--snippets-file", p)
	}
	var stdout, stderr bytes.Buffer
	code := run(args, &stdout, &stderr)
	if code != 1 {
		t.Errorf("exit code %d, want 1 (some snippets failed)", code)
	}
	bs, err := results.ReadFile(filepath.Join(dir, "out.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if len(bs) != 6 {
		t.Fatalf("%d results, want 6", len(bs))
	}
	wantErr := []string{"SIGILL", "", "SIGSEGV", "SIGFPE", "timed out after 300ms", ""}
	wantVal := []float64{0, 1, 0, 0, 0, 3}
	for i, b := range bs {
		if wantErr[i] != "" {
			if !strings.Contains(b.Error, wantErr[i]) {
				t.Errorf("result %d: error %q, want %q", i, b.Error, wantErr[i])
			}
			if !strings.Contains(stderr.String(), wantErr[i]) {
				t.Errorf("stderr lacks %q:\n%s", wantErr[i], stderr.String())
			}
			continue
		}
		m, ok := b.Value("latency")
		if b.Error != "" || !ok || m.Value < wantVal[i]*0.97 || m.Value > wantVal[i]*1.03 {
			t.Errorf("result %d: %q %+v, want %.0f cycles", i, b.Error, m, wantVal[i])
		}
		if b.Portlab == nil || b.Portlab.Clock == "" || b.Portlab.Reps == 0 {
			t.Errorf("result %d lacks the clock and repetition record: %+v", i, b.Portlab)
		}
	}
	if !strings.Contains(stderr.String(), "4 of 6 snippet(s) could not be measured") {
		t.Errorf("stderr: %s", stderr.String())
	}
}

func TestBenchUsageErrors(t *testing.T) {
	cases := map[string][]string{
		"nothing to measure":                            {"bench"},
		"unknown repetition mode":                       {"bench", "--snippets-file", "x.s", "--repetition-mode", "twice"},
		"unknown mode \"uops\"":                         {"bench", "--snippets-file", "x.s", "--mode", "uops"},
		"unexpected argument \"x.s\"":                   {"bench", "x.s"},
		"--mix-forms \"1-3\"":                           {"bench", "--forms", "add r64, r64", "--mode", "random-mixes", "--mix-forms", "1-3"},
		"--mix-forms \"4-2\"":                           {"bench", "--forms", "add r64, r64", "--mode", "random-mixes", "--mix-forms", "4-2"},
		"want latency, throughput, ports, random-mixes": {"bench", "--forms", "add r64, r64", "--mode", "mixes"},
		"separate runs, with separate seeds":            {"bench", "--forms", "add r64, r64", "--mode", "random-mixes,fit-mixes"},
		"--passes 0: want 1 to 32":                      {"bench", "--snippets-file", "x.s", "--passes", "0"},
		"--passes applies to snippet files":             {"bench", "--forms", "add r64, r64", "--passes", "3"},
	}
	for want, args := range cases {
		var stdout, stderr bytes.Buffer
		if code := run(args, &stdout, &stderr); code != 2 || !strings.Contains(stderr.String(), want) {
			t.Errorf("%v: exit %d, stderr %q, want %q", args, code, stderr.String(), want)
		}
	}
	var stdout, stderr bytes.Buffer
	if code := run([]string{"bench", "--snippets-file", "/nonexistent.s"}, &stdout, &stderr); code != 1 || !strings.Contains(stderr.String(), "/nonexistent.s") {
		t.Errorf("missing file: exit %d, %q", code, stderr.String())
	}
}

// quick takes no arguments: a stray one is named, not ignored.
func TestQuickRejectsArguments(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := run([]string{"quick", "extra"}, &stdout, &stderr); code != 2 || !strings.Contains(stderr.String(), `unexpected argument "extra"`) {
		t.Errorf("exit %d, stderr %q", code, stderr.String())
	}
}

// quick's --budget is a duration, 0 or more: a negative one is refused
// before anything is measured.
func TestQuickRejectsNegativeBudget(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := run([]string{"quick", "--budget", "-1s"}, &stdout, &stderr); code == 0 || !strings.Contains(stderr.String(), "--budget -1s") || stdout.Len() != 0 {
		t.Errorf("exit %d, stdout %q, stderr %q", code, stdout.String(), stderr.String())
	}
}

// --record FILE.gz writes the recordings gzip-compressed (perf reads them
// back either way), --min-jobs runs every benchmark in that many jobs at
// least, and a bad --min-jobs is refused before anything is measured.
func TestBenchRecordsCompressedWithMinJobs(t *testing.T) {
	if _, err := exec.LookPath("as"); err != nil {
		t.Skip("GNU as not installed")
	}
	dir := t.TempDir()
	snip := filepath.Join(dir, "imul.s")
	os.WriteFile(snip, []byte("imul rax, rax\n"), 0o644)
	rec := filepath.Join(dir, "r.jsonl.gz")
	var stdout, stderr bytes.Buffer
	if code := run([]string{"bench", "--snippets-file", snip, "--repetitions", "4", "--min-jobs", "2", "--record", rec, "--record-all", "-o", filepath.Join(dir, "out.yaml")}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	data, err := os.ReadFile(rec)
	if err != nil {
		t.Fatal(err)
	}
	if len(data) < 2 || data[0] != 0x1f || data[1] != 0x8b {
		t.Fatalf("%s is not gzip data", rec)
	}
	recs, err := perf.ReadRecordings(rec)
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 1 || recs[0].Source != "imul rax, rax\n" || len(recs[0].Timings) < 8 || len(recs[0].Timings)%4 != 0 {
		t.Fatalf("recordings %+v: want one of imul rax, rax in two jobs of four repetitions or more", recs)
	}
	stderr.Reset()
	out := filepath.Join(dir, "bad.yaml")
	if code := run([]string{"bench", "--snippets-file", snip, "--min-jobs", "-1", "-o", out}, &stdout, &stderr); code != 2 || !strings.Contains(stderr.String(), "--min-jobs -1") {
		t.Errorf("--min-jobs -1: exit %d, %q; want 2 and the flag named", code, stderr.String())
	}
	if _, err := os.Stat(out); err == nil {
		t.Errorf("%s written after a usage error", out)
	}
}

// bench --passes N measures a snippet file in N passes, keeps the
// lower-quartile pass and lists every pass's value.
func TestBenchSnippetPasses(t *testing.T) {
	if _, err := exec.LookPath("as"); err != nil {
		t.Skip("GNU as not installed")
	}
	dir := t.TempDir()
	snip := filepath.Join(dir, "add.s")
	os.WriteFile(snip, []byte("add rax, rbx\nadd rcx, rbx\nadd rdx, rbx\nadd rsi, rbx\n"), 0o644)
	out := filepath.Join(dir, "out.yaml")
	var stdout, stderr bytes.Buffer
	if code := run([]string{"bench", "--snippets-file", snip, "--mode", "throughput", "--passes", "3", "--repetitions", "4", "-o", out}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	bs, err := results.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if len(bs) != 1 || bs[0].Portlab == nil {
		t.Fatalf("%d results, want one with portlab's fields", len(bs))
	}
	x := bs[0].Portlab
	if len(x.PassMedians) != 3 {
		t.Fatalf("pass values %v: want 3", x.PassMedians)
	}
	sorted := slices.Clone(x.PassMedians)
	slices.Sort(sorted)
	// Of three passes the lower quartile is the fastest (index (3-1)/4).
	if math.Abs(x.Median-sorted[0]) > 1e-4 {
		t.Errorf("kept %v, want the lower-quartile pass of %v", x.Median, x.PassMedians)
	}
}

// bench compare --html writes the report beside the text; a file it cannot
// read is named, and no report is left behind.
func TestBenchCompareHTML(t *testing.T) {
	dir := t.TempDir()
	mk := func(v float64) []*results.Benchmark {
		var bs []*results.Benchmark
		for i, f := range []string{"vpcmpeqq k, ymm, m256", "vpcmpgtd k, ymm, m256", "vpcmpq k, ymm, m256, imm8", "vpcmpeqw k, ymm, m256", "vpcmpgtq k, ymm, m64bcst", "add r64, r64"} {
			x := v * (1 + 0.0002*float64(i))
			if f == "add r64, r64" {
				x = 0.25
			}
			bs = append(bs, &results.Benchmark{Mode: "inverse_throughput", Measurements: []results.Measurement{{Key: "inverse_throughput", Value: x}},
				Portlab: &results.Extra{ID: f, Form: f, Kind: "throughput", Median: x, Host: "AuthenticAMD-19-11-1"}})
		}
		return bs
	}
	a, b := filepath.Join(dir, "a.yaml"), filepath.Join(dir, "b.yaml")
	if err := results.WriteFile(a, mk(0.5)); err != nil {
		t.Fatal(err)
	}
	if err := results.WriteFile(b, mk(0.611)); err != nil {
		t.Fatal(err)
	}
	page := filepath.Join(dir, "c.html")
	var stdout, stderr bytes.Buffer
	if code := run([]string{"bench", "compare", "--html", page, a, b}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	if !strings.Contains(stdout.String(), "1 of 6 forms (16.67%) agree") || !strings.Contains(stdout.String(), "5 throughput benchmarks +22.") {
		t.Errorf("text:\n%s", stdout.String())
	}
	html, err := os.ReadFile(page)
	if err != nil || !strings.Contains(string(html), "<svg") || !strings.Contains(string(html), "bench compare --html") {
		t.Errorf("report %v:\n%.300s", err, html)
	}
	stdout.Reset()
	if code := run([]string{"bench", "compare", "--json", a, b}, &stdout, &stderr); code != 0 {
		t.Fatalf("--json: exit %d: %s", code, stderr.String())
	}
	var js struct {
		Forms    int `json:"forms"`
		Within   int `json:"forms_within"`
		Together []struct {
			N      int     `json:"benchmarks"`
			Family string  `json:"family"`
			Factor float64 `json:"factor"`
		} `json:"moved_together"`
		Outside []struct {
			Form string  `json:"form"`
			A    float64 `json:"a"`
			B    float64 `json:"b"`
		} `json:"outside"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &js); err != nil {
		t.Fatalf("--json: %v\n%s", err, stdout.String())
	}
	if js.Forms != 6 || js.Within != 1 || len(js.Together) != 1 || js.Together[0].N != 5 || js.Together[0].Family != "vpcmp" ||
		js.Together[0].Factor < 1.22 || js.Together[0].Factor > 1.224 || len(js.Outside) != 5 ||
		!strings.HasPrefix(js.Outside[0].Form, "vpcmp") || math.Abs(js.Outside[0].B/js.Outside[0].A-1.222) > 0.001 {
		t.Errorf("--json: %+v", js)
	}
	missing := filepath.Join(dir, "none.yaml")
	page2 := filepath.Join(dir, "d.html")
	stdout.Reset()
	stderr.Reset()
	if code := run([]string{"bench", "compare", "--html", page2, a, missing}, &stdout, &stderr); code == 0 || !strings.Contains(stderr.String(), "none.yaml") {
		t.Errorf("exit %d, stderr %q: want an error naming none.yaml", code, stderr.String())
	}
	if _, err := os.Stat(page2); err == nil {
		t.Error("a report was written for a comparison that failed")
	}
}
