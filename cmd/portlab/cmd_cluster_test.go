package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"portlab/modeldb"
	"portlab/results"
)

const (
	clusterLat   = "../../testdata/exegesis/cluster-latency.yaml"
	clusterTp    = "../../testdata/exegesis/cluster-throughput.yaml"
	clusterModel = "../../cluster/testdata/handmade-model.yml"
)

func runClusterCmd(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := run(append([]string{"cluster"}, args...), &out, &errOut)
	return code, out.String(), errOut.String()
}

func TestClusterCommandWritesEverything(t *testing.T) {
	dir := t.TempDir()
	csv := filepath.Join(dir, "clusters.csv")
	html := filepath.Join(dir, "report.html")
	js := filepath.Join(dir, "report.json")
	corr := filepath.Join(dir, "corrected.yml")
	code, out, errOut := runClusterCmd(t, "--benchmarks-file", clusterLat, "--benchmarks-file", clusterTp, "--model", clusterModel,
		"--analysis-clusters-output-file", csv, "--analysis-inconsistencies-output-file", html, "--corrected-model-output-file", corr)
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	for _, want := range []string{"38 points", "5 of 9 classes inconsistent", "vfmadd231pd ymm, ymm, ymm", "WriteFMAY", "7 value(s) corrected"} {
		if !strings.Contains(out, want) {
			t.Errorf("summary lacks %q:\n%s", want, out)
		}
	}
	data, err := os.ReadFile(csv)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(data), "cluster_id,opcode_name,config,sched_class,latency\n0,ADD64rr,,WriteALU,1.0027\n") ||
		!strings.Contains(string(data), "cluster_id,opcode_name,config,sched_class,inverse_throughput\n5,VFMADD231PDYr,,WriteFMAY,0.5008\n") {
		t.Errorf("CSV:\n%s", data)
	}
	page, _ := os.ReadFile(html)
	if !strings.Contains(string(page), "<svg") || !strings.Contains(string(page), "cluster-latency.yaml") {
		t.Errorf("HTML report incomplete")
	}
	// The figures say which command draws them.
	if !strings.Contains(string(page), "$ portlab cluster --benchmarks-file ../../testdata/exegesis/cluster-latency.yaml") {
		t.Errorf("HTML report does not record the command")
	}
	m, err := modeldb.Load(corr)
	if err != nil {
		t.Fatal(err)
	}
	if e, ok := m.Lookup("vfmadd231pd ymm, ymm, ymm"); !ok || e.Throughput != 0.5 {
		t.Errorf("corrected model: %+v", e)
	}
	// The same run with a .json report file writes JSON.
	code, _, errOut = runClusterCmd(t, clusterLat, clusterTp, "--model", clusterModel, "--analysis-inconsistencies-output-file", js)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var r map[string]any
	data, _ = os.ReadFile(js)
	if err := json.Unmarshal(data, &r); err != nil || len(r["inconsistencies"].([]any)) != 5 {
		t.Errorf("JSON report: %v", err)
	}
	for _, f := range []string{csv, html, js, corr} {
		matches, _ := filepath.Glob(filepath.Join(dir, "."+filepath.Base(f)+".tmp-*"))
		if len(matches) > 0 {
			t.Errorf("temporary files left: %v", matches)
		}
	}
}

func TestClusterJSONOnStdout(t *testing.T) {
	code, out, errOut := runClusterCmd(t, clusterLat, clusterTp, "--model", clusterModel, "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var r struct {
		Inconsistencies []struct {
			Class string `json:"class"`
		} `json:"inconsistencies"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("stdout is not JSON: %v\n%s", err, out)
	}
	if len(r.Inconsistencies) != 5 || r.Inconsistencies[1].Class != "WriteFMAY" {
		t.Errorf("%+v", r.Inconsistencies)
	}
	if !strings.Contains(errOut, "classes inconsistent") {
		t.Errorf("the summary should go to stderr when stdout carries JSON:\n%s", errOut)
	}
}

func TestClusterExegesisFlagSpellings(t *testing.T) {
	// Single-dash flags and '-' for stdout, as exegesis users write them.
	code, out, errOut := runClusterCmd(t, "-benchmarks-file="+clusterLat, "-analysis-clusters-output-file=-",
		"-analysis-numpoints=3", "-analysis-clustering-epsilon=0.1", "-analysis-clustering=dbscan")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.HasPrefix(out, "cluster_id,opcode_name,config,sched_class,latency\n0,ADD64rr,,,1.0027\n") {
		t.Errorf("CSV on stdout:\n%s", out)
	}
	if !strings.Contains(errOut, "4 clusters (1 unstable), 2 noise, 1 errors") {
		t.Errorf("summary on stderr:\n%s", errOut)
	}
}

func TestClusterFilter(t *testing.T) {
	code, out, _ := runClusterCmd(t, clusterLat, "--filter", "mem-only", "--analysis-numpoints", "1", "--analysis-clusters-output-file", "-")
	if code != 0 {
		t.Fatal(code)
	}
	for _, l := range strings.Split(strings.TrimSpace(out), "\n")[1:] {
		if l != "" && !strings.Contains(l, "MOV64rm") && !strings.Contains(l, "LEA64r") {
			t.Errorf("mem-only kept %q", l)
		}
	}
	code, out, _ = runClusterCmd(t, clusterLat, "--analysis-filter", "reg-only", "--analysis-clusters-output-file", "-")
	if code != 0 || strings.Contains(out, "MOV64rm") || strings.Contains(out, "LEA64r") || !strings.Contains(out, "ADD64rr") {
		t.Errorf("reg-only:\n%s", out)
	}
}

func TestClusterUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{},
		{clusterLat, "--filter", "vector-only"},
		{clusterLat, "--analysis-clustering", "kmeans"},
		{clusterLat, "--analysis-clustering-epsilon", "0"},
		{clusterLat, "--analysis-numpoints", "0"},
		{clusterLat, "--model", "a.yml", "--mcpu", "znver3"},
		{clusterLat, "--corrected-model-output-file", "x.yml"},
		{clusterLat, "--json", "--analysis-clusters-output-file", "-"},
		{clusterLat, "--no-such-flag"},
	} {
		if code, _, errOut := runClusterCmd(t, args...); code != 2 {
			t.Errorf("%q: exit %d, want 2 (%s)", args, code, errOut)
		}
	}
}

func TestClusterErrorsNameTheInput(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "broken.yaml")
	os.WriteFile(bad, []byte("---\nmode: latency\nkey: [\n"), 0o644)
	for _, args := range [][]string{{bad}, {filepath.Join(dir, "missing.yaml")}, {clusterLat, "--model", filepath.Join(dir, "nomodel.yml")}} {
		code, _, errOut := runClusterCmd(t, args...)
		base := filepath.Base(args[len(args)-1])
		if code != 1 || !strings.Contains(errOut, base) {
			t.Errorf("%q: exit %d, stderr %q (want 1 and the file named)", args, code, errOut)
		}
	}
}

func TestCommandLineQuotesForTheShell(t *testing.T) {
	got := commandLine("cluster", []string{"--benchmarks-file", "my sweep.yaml", "--mcpu=sapphirerapids", "it's", "", "a/b-c_d.yaml"})
	want := `portlab cluster --benchmarks-file 'my sweep.yaml' --mcpu=sapphirerapids 'it'\''s' '' a/b-c_d.yaml`
	if got != want {
		t.Errorf("commandLine:\n got %s\nwant %s", got, want)
	}
}

// Results of a CPU whose user model exists are checked against it by
// default.
func TestClusterUsesTheUsersModel(t *testing.T) {
	bs, err := results.ReadFile(sweepResults)
	if err != nil {
		t.Fatal(err)
	}
	sig := ""
	for _, b := range bs {
		if b.Portlab != nil && b.Portlab.Host != "" {
			sig = b.Portlab.Host
			break
		}
	}
	if sig == "" {
		t.Fatalf("%s names no host", sweepResults)
	}
	t.Setenv("PORTLAB_MODEL_DIR", t.TempDir())
	m, err := modeldb.Embedded("llvm14-znver3.yml.gz")
	if err != nil {
		t.Fatal(err)
	}
	m.Name = "the results' own CPU"
	path, _ := modeldb.UserModelPath(sig)
	if err := m.SaveWith(path, modeldb.MarshalOptions{Compact: true}); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	if code := run([]string{"cluster", sweepResults, "--json"}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	if !strings.Contains(stderr.String(), path) || !strings.Contains(stdout.String(), "the results' own CPU") {
		t.Errorf("not checked against the user's model:\n%s\n%.400s", stderr.String(), stdout.String())
	}
}

// --model names an embedded model as the other commands do.
func TestClusterModelByName(t *testing.T) {
	code, out, errOut := runClusterCmd(t, clusterLat, clusterTp, "--model", "llvm14-znver3.yml.gz", "--json")
	if code != 0 || !json.Valid([]byte(out)) {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(errOut, "znver3") {
		t.Errorf("the summary does not name the embedded model:\n%s", errOut)
	}
}
