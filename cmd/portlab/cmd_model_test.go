package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"portlab/hostcpu"
	"portlab/modeldb"
)

const (
	modelFixtures = "../../testdata/models/"
	osacaMini     = modelFixtures + "osaca-mini.yml"
	sweepResults  = modelFixtures + "sweep-results.yaml"
	synthTruth    = modelFixtures + "synthetic-zen4.yml"
)

// runModelCmd runs `portlab model ARGS...` and returns the exit code and output.
func runModelCmd(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := run(append([]string{"model"}, args...), &out, &errOut)
	return code, out.String(), errOut.String()
}

func TestModelUsage(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{nil, "missing subcommand"},
		{[]string{"frob"}, `unknown subcommand "frob"`},
		{[]string{"import"}, "import what?"},
		{[]string{"import", "csv"}, `unknown import source "csv"`},
		{[]string{"import", "llvm"}, "--mcpu is required"},
		{[]string{"import", "osaca"}, "want one OSACA file"},
		{[]string{"build"}, "want result files"},
		{[]string{"build", "x.yaml", "--holdout", "2"}, "--holdout 2: want a fraction"},
		{[]string{"build", "x.yaml", "--error-cap", "0"}, "--error-cap 0: want a relative error above 0"},
		{[]string{"build", "x.yaml", "--split-tolerance", "-1"}, "--split-tolerance -1: want a relative error"},
		{[]string{"diff", "a.yml"}, "want two models"},
		{[]string{"show"}, "want a form name or glob"},
		{[]string{"eval"}, "want result files"},
		{[]string{"import", "osaca", "--bogus"}, "flag provided but not defined: -bogus"},
	} {
		code, _, errOut := runModelCmd(t, c.args...)
		if code != 2 || !strings.Contains(errOut, c.want) {
			t.Errorf("model %v: exit %d, stderr %q, want 2 and %q", c.args, code, errOut, c.want)
		}
	}
	if code, _, errOut := runModelCmd(t, "help"); code != 0 || !strings.Contains(errOut, "import osaca FILE") {
		t.Errorf("help: exit %d: %s", code, errOut)
	}
}

func TestModelImportOSACA(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "mini.yml")
	code, stdout, stderr := runModelCmd(t, "import", "osaca", osacaMini, "-o", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stdout, "14 OSACA entries, 11 mapped to 48 catalog forms, 44 memory forms derived from register forms") ||
		!strings.Contains(stdout, `frobnicate gpr: the catalog has no mnemonic "frobnicate"`) {
		t.Errorf("report:\n%s", stdout)
	}
	m, err := modeldb.Load(out)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Forms) != 92 {
		t.Errorf("%d forms", len(m.Forms))
	}
	// Without -o the model goes to stdout and the report to stderr.
	code, stdout, stderr = runModelCmd(t, "import", "osaca", "--no-derive", osacaMini)
	if code != 0 || !strings.HasPrefix(stdout, "name: Test Core (imported from OSACA)\n") || !strings.Contains(stderr, "11 mapped to 48 catalog forms\n") {
		t.Errorf("stdout import: exit %d\n%.200s\nstderr %s", code, stdout, stderr)
	}
	if _, err := modeldb.Parse("stdout", []byte(stdout), modeldb.LoadOptions{}); err != nil {
		t.Error(err)
	}
	// The shared OSACA Zen 4 file, when present.
	if _, err := os.Stat("../../../shared/data/osaca-zen4.yml"); err == nil {
		code, stdout, stderr = runModelCmd(t, "import", "osaca", "../../../shared/data/osaca-zen4.yml", "-o", filepath.Join(dir, "zen4.yml"))
		if code != 0 || !strings.Contains(stdout, "474 OSACA entries") {
			t.Errorf("zen4: exit %d %s %s", code, stdout, stderr)
		}
	}
}

func TestModelImportLLVM(t *testing.T) {
	if _, err := exec.LookPath("llvm-mca"); err != nil {
		t.Skip("llvm-mca not installed")
	}
	out := filepath.Join(t.TempDir(), "z3.yml.gz")
	code, stdout, stderr := runModelCmd(t, "import", "llvm", "--mcpu", "znver3", "--forms", "vaddpd ymm*", "--forms", "vmulpd ymm, ymm, ymm", "--forms", "vaddpd zmm, zmm, zmm", "--compact", "-o", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stdout, "-mcpu=znver3: 3 of 13 forms imported") || !strings.Contains(stdout, "10 forms unsupported by the -mcpu scheduling model") {
		t.Errorf("report:\n%s", stdout)
	}
	m, err := modeldb.Load(out)
	if err != nil {
		t.Fatal(err)
	}
	e, ok := m.Lookup("vaddpd ymm, ymm, ymm")
	if !ok || modeldb.FormatPressure(e.PortPressure) != "1*p[FPP2,FPP3]" {
		t.Errorf("vaddpd: %+v", e)
	}
	data, _ := os.ReadFile(out)
	if data[0] != 0x1f {
		t.Error("-o *.gz not compressed")
	}
	if code, _, stderr := runModelCmd(t, "import", "llvm", "--mcpu", "pentium-z", "--forms", "add r64, r64"); code != 1 || !strings.Contains(stderr, "llvm-mca does not know this -mcpu") {
		t.Errorf("unknown cpu: exit %d %s", code, stderr)
	}
}

func TestModelBuildShowDiffEval(t *testing.T) {
	dir := t.TempDir()
	built := filepath.Join(dir, "built.yml")
	fits := filepath.Join(dir, "fits.csv")
	code, stdout, stderr := runModelCmd(t, "build", sweepResults, "-o", built, "--name", "test build", "--llvm-cpu", "znver4", "--fits", fits)
	if code != 0 {
		t.Fatalf("build: exit %d: %s", code, stderr)
	}
	if !strings.Contains(stdout, "5 measured forms in 5 classes; 10 mixes fitted, 0 held out; 8 ports") || !strings.Contains(stdout, "skipped: 1 failed benchmarks") {
		t.Errorf("build report:\n%s", stdout)
	}
	csv, _ := os.ReadFile(fits)
	if !strings.HasPrefix(string(csv), "form,class,mixes,rms_error,max_error,confidence,note\n\"add r64, r64\",0,4,0.0000,0.0000,high,\n") || strings.Count(string(csv), "\n") != 6 {
		t.Errorf("fits:\n%s", csv)
	}
	// show, with the form name in unquoted pieces
	code, stdout, stderr = runModelCmd(t, "show", "--model", built, "vfmadd231pd", "ymm,", "ymm,", "ymm")
	if code != 0 {
		t.Fatalf("show: exit %d: %s", code, stderr)
	}
	for _, want := range []string{`model "test build"`, "vfmadd231pd ymm, ymm, ymm\n", "  latency      4 cycles (0->0 4, 1->0 4)\n", "  throughput   0.5 cycles (2 per cycle)\n", "confidence high"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("show lacks %q:\n%s", want, stdout)
		}
	}
	code, stdout, _ = runModelCmd(t, "show", "--model", built, "--json", "v*pd ymm*")
	var js []modeldb.EntryJSON
	if code != 0 || json.Unmarshal([]byte(stdout), &js) != nil || len(js) != 3 || js[0].Form != "vaddpd ymm, ymm, ymm" {
		t.Errorf("show --json: exit %d\n%s", code, stdout)
	}
	if code, _, stderr := runModelCmd(t, "show", "--model", built, "vmulpd zmm, zmm, zmm"); code != 1 || !strings.Contains(stderr, `has no entry for "vmulpd zmm, zmm, zmm"`) {
		t.Errorf("show missing: exit %d %s", code, stderr)
	}
	// diff against the ground truth the fixture was written from: same
	// numbers, port names differ.
	code, stdout, stderr = runModelCmd(t, "diff", synthTruth, built, "--limit", "2")
	if code != 0 {
		t.Fatalf("diff: exit %d: %s", code, stderr)
	}
	if !strings.Contains(stdout, `+++ "test build"`) || !strings.Contains(stdout, "header ports: ALU0 ALU1") || !strings.Contains(stdout, "... and") {
		t.Errorf("diff:\n%s", stdout)
	}
	code, stdout, _ = runModelCmd(t, "diff", "--json", built, built)
	var d modeldb.ModelDiff
	if code != 0 || json.Unmarshal([]byte(stdout), &d) != nil || d.Same != 5 || len(d.Changed) != 0 {
		t.Errorf("self diff: exit %d %s", code, stdout)
	}
	// eval: the built model reproduces the fixture's mixes.
	code, stdout, stderr = runModelCmd(t, "eval", "--model", built, sweepResults)
	if code != 0 || !strings.Contains(stdout, `model "test build": 10 mixes, 10 (100.0%) predicted within 10.0%`) {
		t.Errorf("eval: exit %d\n%s%s", code, stdout, stderr)
	}
	// --simulate: the fixture's results carry no machine code, so every
	// mix gets the bound, and the report says so.
	code, stdout, stderr = runModelCmd(t, "eval", "--simulate", "--model", built, sweepResults)
	if code != 0 || !strings.Contains(stdout, "10 (100.0%) predicted within 10.0%") || !strings.Contains(stdout, "predicted by the simulation of the measured code; 10 mixes by the bottleneck bound") {
		t.Errorf("eval --simulate: exit %d\n%s%s", code, stdout, stderr)
	}
	code, stdout, _ = runModelCmd(t, "eval", "--json", "--model", synthTruth, sweepResults)
	var r modeldb.MixReport
	if code != 0 || json.Unmarshal([]byte(stdout), &r) != nil || r.N != 10 || r.Within != 10 {
		t.Errorf("eval --json: exit %d %s", code, stdout)
	}
	// --against: the fixture's truth against a copy whose vaddpd has one
	// FP adder instead of two, mix by mix.
	truth, err := os.ReadFile(synthTruth)
	if err != nil {
		t.Fatal(err)
	}
	oneAdder := filepath.Join(dir, "one-adder.yml")
	slow := strings.Replace(string(truth), "{form: 'vaddpd ymm, ymm, ymm', uops: 1, latency: 3, throughput: 0.5, port_pressure: [[1, [FP2, FP3]]]}", "{form: 'vaddpd ymm, ymm, ymm', uops: 1, latency: 3, throughput: 1, port_pressure: [[1, [FP2]]]}", 1)
	if slow == string(truth) {
		t.Fatal("the fixture's vaddpd entry moved")
	}
	if err := os.WriteFile(oneAdder, []byte(slow), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr = runModelCmd(t, "eval", "--model", synthTruth, "--against", oneAdder, sweepResults)
	if code != 0 || !strings.Contains(stdout, "of the 10 mixes both predict, 4 are within 10% by --model alone, 0 by --against alone: within chance (sign test p = 0.06; 0.05 or less would show a difference)") {
		t.Errorf("eval --against: exit %d\n%s%s", code, stdout, stderr)
	}
	code, stdout, _ = runModelCmd(t, "eval", "--json", "--model", oneAdder, "--against", synthTruth, sweepResults)
	var pr struct {
		Model, Against modeldb.MixReport
		Paired         modeldb.Paired
	}
	if code != 0 || json.Unmarshal([]byte(stdout), &pr) != nil || pr.Model.Within != 6 || pr.Against.Within != 10 || pr.Paired != (modeldb.Paired{N: 10, OnlyA: 0, OnlyB: 4, P: 0.0625}) {
		t.Errorf("eval --json --against: exit %d %+v\n%s", code, pr.Paired, stdout)
	}
	if code, _, stderr := runModelCmd(t, "eval", "--model", synthTruth, "--against", filepath.Join(dir, "none.yml"), sweepResults); code != 1 || !strings.Contains(stderr, "none.yml") {
		t.Errorf("eval --against a missing model: exit %d %s", code, stderr)
	}
	// check
	code, stdout, _ = runModelCmd(t, "check", built, synthTruth)
	if code != 0 || !strings.Contains(stdout, "built.yml: ok, 5 forms, 8 ports") {
		t.Errorf("check: exit %d %s", code, stdout)
	}
	if code, _, stderr := runModelCmd(t, "check", osacaMini); code != 1 || !strings.Contains(stderr, "this looks like an OSACA file") {
		t.Errorf("check OSACA file: exit %d %s", code, stderr)
	}
	// build with a base: corrections recorded in the report.
	code, stdout, stderr = runModelCmd(t, "build", sweepResults, "--base", synthTruth, "-o", filepath.Join(dir, "based.yml"))
	if code != 0 || !strings.Contains(stdout, "13 ports: ALU0 ALU1") {
		t.Errorf("build --base: exit %d\n%s%s", code, stdout, stderr)
	}
}

func TestModelImportExegesis(t *testing.T) {
	out := filepath.Join(t.TempDir(), "x.yml")
	code, stdout, stderr := runModelCmd(t, "import", "exegesis", sweepResults, "-o", out)
	if code != 0 || !strings.Contains(stdout, "5 forms from 23 results in 1 files") {
		t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
	}
	m, err := modeldb.Load(out)
	if err != nil || len(m.Forms) != 5 {
		t.Fatalf("%v %v", m, err)
	}
}

func TestModelList(t *testing.T) {
	code, stdout, stderr := runModelCmd(t, "list")
	if code != 0 || !strings.Contains(stdout, "llvm14-znver3.yml.gz") || !strings.Contains(stdout, "znver3") {
		t.Errorf("list: exit %d\n%s%s", code, stdout, stderr)
	}
	code, stdout, _ = runModelCmd(t, "show", "--model", "znver3", "add r64, r64")
	if code != 0 || !strings.Contains(stdout, "1*p[ALU0,ALU1,ALU2,ALU3]") {
		t.Errorf("show embedded: exit %d\n%s", code, stdout)
	}
}

func TestModelEvalMixSet(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := run([]string{"model", "eval", "--mixes", "some", "x.yaml"}, &stdout, &stderr); code != 2 || !strings.Contains(stderr.String(), `--mixes "some": want all, ports or random`) {
		t.Errorf("exit %d, stderr %q", code, stderr.String())
	}
	stdout.Reset()
	stderr.Reset()
	// The fixture has port mixes only: asking for the random ones says so.
	if code := run([]string{"model", "eval", "--model", "../../testdata/models/synthetic-zen4.yml", "--mixes", "random", "../../testdata/models/sweep-results.yaml"}, &stdout, &stderr); code != 1 || !strings.Contains(stderr.String(), "no random mixes in") {
		t.Errorf("exit %d, stderr %q", code, stderr.String())
	}
}

// The model characterize installs for this host's signature is what
// "host" means, and model list shows it.
func TestHostModelIsTheUsersOwn(t *testing.T) {
	info, err := hostcpu.Detect()
	if err != nil {
		t.Skip(err)
	}
	t.Setenv("PORTLAB_MODEL_DIR", t.TempDir())
	m, err := modeldb.Embedded("llvm14-znver3.yml.gz")
	if err != nil {
		t.Fatal(err)
	}
	m.Name = "this host's own"
	path, _ := modeldb.UserModelPath(info.Signature())
	if err := m.SaveWith(path, modeldb.MarshalOptions{Compact: true}); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runModelCmd(t, "show", "add r64, r64")
	if code != 0 || !strings.Contains(stdout, "1*p[ALU0,ALU1,ALU2,ALU3]") || !strings.Contains(stderr, path) {
		t.Errorf("show with the host's model: exit %d\n%s%s", code, stdout, stderr)
	}
	code, stdout, _ = runModelCmd(t, "list")
	if code != 0 || !strings.Contains(stdout, filepath.Base(path)) || !strings.Contains(stdout, "this host's own") {
		t.Errorf("list: exit %d\n%s", code, stdout)
	}
}
