package main

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

const (
	kernels   = "../../testdata/kernels/analysis"
	handModel = "../../testdata/kernels/analysis/models/handcore.yml"
)

func runAnalyzeCmd(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := run(append([]string{"analyze"}, args...), &out, &errOut)
	return code, out.String(), errOut.String()
}

func kernel(name string) string { return filepath.Join(kernels, name) }

func TestAnalyzeDefaultViews(t *testing.T) {
	code, out, errOut := runAnalyzeCmd(t, "--model", handModel, kernel("k05_vaddpd_chain.s"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{
		"Iterations:        100\n", "Total Cycles:      303\n", "Dispatch Width:    4\n", "Block RThroughput: 0.5\n",
		"Static Analysis", "loop-carried dependency [0 -> 0] through ymm0", "Simulated:             3.03 cycles/iteration",
		"Instruction Info:", " 1      3     0.50                    vaddpd\t%ymm1, %ymm0, %ymm0\n",
		"Resource pressure per iteration:", "[7]   - F0\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "Timeline view") {
		t.Errorf("timeline printed without --timeline")
	}
}

func TestAnalyzeAllViews(t *testing.T) {
	code, out, errOut := runAnalyzeCmd(t, "--model", handModel, "--all-views", kernel("k07_mul_add.s"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"Timeline view:", "[0,0]     DeeeeER", "Average Wait times", "Dynamic Dispatch Stall Cycles:",
		"Schedulers - number of cycles where we saw N micro opcodes issued:", "Retire Control Unit", "Register File statistics:",
		"Cycles with backend pressure increase", "Scheduler's queue usage:", "unified"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

func TestAnalyzeJSONAndHTML(t *testing.T) {
	dir := t.TempDir()
	html := filepath.Join(dir, "r.html")
	code, out, errOut := runAnalyzeCmd(t, "--model", handModel, "--json", "--html", html, "--bottleneck-analysis", kernel("k23_regions.s"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var doc struct {
		CodeRegions []struct {
			Name           string
			Instructions   []string
			SummaryView    struct{ TotalCycles int }
			StaticAnalysis struct {
				Bound      float64
				Bottleneck string
			}
			BottleneckAnalysis map[string]any
		}
		TargetInfo struct {
			CPUName   string
			Resources []string
		}
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if len(doc.CodeRegions) != 4 || doc.CodeRegions[1].Name != "chain" || doc.CodeRegions[1].SummaryView.TotalCycles != 103 ||
		doc.CodeRegions[0].StaticAnalysis.Bound != 3 || doc.CodeRegions[0].BottleneckAnalysis == nil ||
		len(doc.TargetInfo.Resources) != 10 {
		t.Errorf("JSON: %+v", doc)
	}
	page, err := os.ReadFile(html)
	if err != nil {
		t.Fatal(err)
	}
	p := string(page)
	for _, want := range []string{"<!DOCTYPE html>", "<svg", "aria-label=\"timeline\"", "aria-label=\"port pressure\"", "chain", "Loop-carried",
		"$ portlab analyze --model"} {
		if !strings.Contains(p, want) {
			t.Errorf("HTML lacks %q", want)
		}
	}
	// The pictures are well-formed SVG.
	for _, svg := range regexp.MustCompile(`(?s)<svg .*?</svg>`).FindAllString(p, -1) {
		d := xml.NewDecoder(strings.NewReader(svg))
		for {
			if _, err := d.Token(); err != nil {
				if err != io.EOF {
					t.Errorf("SVG: %v", err)
				}
				break
			}
		}
	}
	// Self-contained: nothing fetched from the network.
	if m := regexp.MustCompile(`(src|href)="https?:`).FindString(p); m != "" {
		t.Errorf("HTML refers to the network: %s", m)
	}
}

func TestAnalyzeInstructionTables(t *testing.T) {
	code, out, errOut := runAnalyzeCmd(t, "--model", handModel, "--instruction-tables", kernel("k11_two_accumulators_loop.s"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if strings.Contains(out, "Total Cycles") || !strings.Contains(out, "Resource pressure by instruction:") || !strings.Contains(out, "Instruction Info:") {
		t.Errorf("instruction tables:\n%s", out)
	}
}

func TestAnalyzeBatch(t *testing.T) {
	dir := t.TempDir()
	csv := filepath.Join(dir, "b.csv")
	// add rax, 1 (a chain: 1.03 cycles/iteration at 100 iterations);
	// imul rax, rax (3.03); a bad block.
	if err := os.WriteFile(csv, []byte("hex,measured\n4883c001,1.0\n480fafc0,3.0\nffff,0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runAnalyzeCmd(t, "--batch", "--model", handModel, "--batch-scale", "100", csv)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if out != "4883c001,103\n480fafc0,303\nffff,nan\n" {
		t.Errorf("batch output:\n%s", out)
	}
	if !strings.Contains(errOut, "b.csv:4") {
		t.Errorf("the bad block is not reported: %s", errOut)
	}
	code, out, _ = runAnalyzeCmd(t, "--batch", "--batch-static", "--model", handModel, csv)
	if code != 0 || !strings.HasPrefix(out, "4883c001,1.03,1,loop-carried dependency") {
		t.Errorf("batch with static bound: %s", out)
	}
}

func TestAnalyzeHexAndOutputFile(t *testing.T) {
	dir := t.TempDir()
	hex := filepath.Join(dir, "b.hex")
	if err := os.WriteFile(hex, []byte("480fafc0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	outFile := filepath.Join(dir, "out.txt")
	code, _, errOut := runAnalyzeCmd(t, "--model", handModel, "--hex", "-o", outFile, hex)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	data, _ := os.ReadFile(outFile)
	if !strings.Contains(string(data), "Total Cycles:      303") || !strings.Contains(string(data), "imulq\t%rax, %rax") {
		t.Errorf("output file:\n%s", data)
	}
}

func TestAnalyzeErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.s")
	os.WriteFile(bad, []byte("addq $1, %rax\n  vpermpd $1, %ymm1, %ymm2\n"), 0o644)
	code, _, errOut := runAnalyzeCmd(t, "--model", handModel, bad)
	if code != 1 || !strings.Contains(errOut, "bad.s:2:3: form \"vpermpd ymm, ymm, imm8\" is not in model \"handcore\"") {
		t.Errorf("missing form: exit %d: %s", code, errOut)
	}
	parseErr := filepath.Join(dir, "parse.s")
	os.WriteFile(parseErr, []byte("addq $1, %rax\naddq %ymm99, %rax\n"), 0o644)
	if code, _, errOut := runAnalyzeCmd(t, "--model", handModel, parseErr); code != 1 || !strings.Contains(errOut, "parse.s:2:") {
		t.Errorf("parse error: exit %d: %s", code, errOut)
	}
	for _, args := range [][]string{
		{"--iterations", "0", kernel("k01_add_chain.s")},
		{"--model", handModel, "--mcpu", "skylake", kernel("k01_add_chain.s")},
		{"--dispatch", "-1", kernel("k01_add_chain.s")},
		{"--syntax", "gas", kernel("k01_add_chain.s")},
		{"--partial-writes", "maybe", kernel("k01_add_chain.s")},
		{"-", "-"},
	} {
		if code, _, errOut := runAnalyzeCmd(t, args...); code != 2 {
			t.Errorf("%v: exit %d (%s), want 2", args, code, errOut)
		}
	}
}

func TestAnalyzeOverrides(t *testing.T) {
	code, out, errOut := runAnalyzeCmd(t, "--model", handModel, "--dispatch", "2", "--static=false", "--instruction-info=false",
		"--resource-pressure=false", kernel("k02_four_alus.s"))
	if code != 0 || !strings.Contains(out, "Total Cycles:      253") || !strings.Contains(out, "Dispatch Width:    2") {
		t.Errorf("--dispatch 2: exit %d %s\n%s", code, errOut, out)
	}
	code, out, _ = runAnalyzeCmd(t, "--model", handModel, "--noalias=false", "--syntax", "intel", kernel("k12_store_load.s"))
	if code != 0 || !strings.Contains(out, "Total Cycles:      503") || !strings.Contains(out, "mov\tqword ptr [rsi], rax") {
		t.Errorf("--noalias=false --syntax intel:\n%s", out)
	}
}

func TestAnalyzeMCPU(t *testing.T) {
	if _, err := exec.LookPath("llvm-mca"); err != nil {
		t.Skip("llvm-mca not installed")
	}
	code, out, errOut := runAnalyzeCmd(t, "--mcpu", "skylake", kernel("k01_add_chain.s"))
	if code != 0 || !strings.Contains(out, "Total Cycles:      103") || !strings.Contains(out, "Dispatch Width:    6") {
		t.Errorf("exit %d %s\n%s", code, errOut, out)
	}
}

func TestAnalyzeShowEncoding(t *testing.T) {
	if _, err := exec.LookPath("as"); err != nil {
		t.Skip("GNU as not installed")
	}
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	code, out, errOut := runAnalyzeCmd(t, "--model", handModel, "--show-encoding", kernel("k11_two_accumulators_loop.s"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"[7]: Encoding Size", "48 83 c7 40 ", "48 ff c9 ", "75 "} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

// TestAnalyzeHostModel uses the host's embedded model, twice: the second
// run reads the model index the first wrote, and must print the same.
func TestAnalyzeHostModel(t *testing.T) {
	if testing.Short() {
		t.Skip("parses an embedded model")
	}
	t.Setenv("PORTLAB_CACHE_DIR", t.TempDir())
	var outs []string
	for i := 0; i < 2; i++ {
		code, out, errOut := runAnalyzeCmd(t, "--timeline", kernel("k11_two_accumulators_loop.s"))
		if code != 0 {
			if strings.Contains(errOut, "no embedded model") || strings.Contains(errOut, "host CPU is unknown") {
				t.Skip(errOut)
			}
			t.Fatalf("exit %d: %s", code, errOut)
		}
		outs = append(outs, out)
	}
	if outs[0] != outs[1] {
		t.Errorf("the indexed model prints differently:\n%s\n---\n%s", outs[0], outs[1])
	}
	if !strings.Contains(outs[0], "Total Cycles:") || !strings.Contains(outs[0], "Timeline view:") {
		t.Errorf("output:\n%s", outs[0])
	}
}

// --model takes what the other commands take: a file, an embedded model
// by file name or LLVM CPU, or host; a name that is none of them is an
// error naming it.
func TestAnalyzeModelByName(t *testing.T) {
	for _, name := range []string{"portlab-znver3.yml.gz", "znver3"} {
		code, out, errOut := runAnalyzeCmd(t, "--model", name, kernel("k01_add_chain.s"))
		if code != 0 || !strings.Contains(out, "Simulated:") {
			t.Errorf("--model %s: exit %d: %s", name, code, errOut)
		}
	}
	code, out, errOut := runAnalyzeCmd(t, "--model", "portlab-znver3.yml.gz", "--instruction-tables", kernel("k01_add_chain.s"))
	if code != 0 || !strings.Contains(out, "addq") {
		t.Errorf("--instruction-tables with an embedded model: exit %d: %s%s", code, out, errOut)
	}
	if code, _, errOut := runAnalyzeCmd(t, "--model", "no-such-model.yml", kernel("k01_add_chain.s")); code != 1 || !strings.Contains(errOut, `model "no-such-model.yml": no such file, and no embedded model`) {
		t.Errorf("unknown model: exit %d: %s", code, errOut)
	}
}
