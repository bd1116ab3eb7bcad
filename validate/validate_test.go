package validate

import (
	"bytes"
	"errors"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"portlab/analysis/input"
	"portlab/isa"
	"portlab/modeldb"
)

func rows(meas []float64, preds map[string][]float64) []*Row {
	var out []*Row
	for i, m := range meas {
		r := &Row{Kernel: string(rune('a' + i)), Measured: Measured{Cycles: m}, Predictions: map[string]Prediction{}}
		for name, ps := range preds {
			if math.IsNaN(ps[i]) {
				r.Predictions[name] = Prediction{Err: errors.New("unsupported")}
				continue
			}
			r.Predictions[name] = Prediction{Cycles: ps[i]}
		}
		out = append(out, r)
	}
	return out
}

func TestScore(t *testing.T) {
	rs := rows([]float64{1, 2, 4, 8}, map[string][]float64{
		"exact": {1, 2, 4, 8},
		"off":   {1.1, 1.8, 4, math.NaN()},
	})
	s := score("exact", rs)
	if s.N != 4 || s.MAPE != 0 || s.Tau != 1 || s.Within10 != 4 {
		t.Errorf("exact: %+v", s)
	}
	s = score("off", rs)
	// APEs 10%, 10%, 0%: mean 6.67%; one kernel unpredicted.
	if s.N != 3 || s.Failed != 1 || math.Abs(s.MAPE-20.0/3) > 1e-9 || s.Within10 != 3 {
		t.Errorf("off: %+v", s)
	}
	if s.Tau != 1 {
		t.Errorf("ranking kept: tau %v", s.Tau)
	}
	s = score("off", rows([]float64{1, 2, 3}, map[string][]float64{"off": {3, 2, 1}}))
	if s.Tau != -1 {
		t.Errorf("reversed ranking: tau %v", s.Tau)
	}
}

// TestKendallTauB: ties in the predictions are left out of the count,
// whatever order the kernels come in (values checked with SciPy's
// kendalltau, variant b).
func TestKendallTauB(t *testing.T) {
	for _, c := range []struct {
		x, y []float64
		want float64
	}{
		{[]float64{1, 2, 3, 4, 5}, []float64{1, 3, 2, 4, 4}, 7 / math.Sqrt(90)}, // C 8, D 1, one tie in y
		{[]float64{5, 4, 3, 2, 1}, []float64{4, 4, 2, 3, 1}, 7 / math.Sqrt(90)}, // the same pairs in another order
		{[]float64{1, 2, 2, 3}, []float64{1, 2, 2, 3}, 1},                       // a tie in both is no pair
		{[]float64{1, 2, 3}, []float64{3, 2, 1}, -1},
		{[]float64{1, 2, 3}, []float64{2, 2, 2}, 0},
	} {
		if got := KendallTauB(c.x, c.y); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("tau-b(%v, %v) = %v, want %v", c.x, c.y, got, c.want)
		}
	}
}

func TestLoadKernels(t *testing.T) {
	files, _ := filepath.Glob("../testdata/kernels/*.s")
	if len(files) < 40 {
		t.Fatalf("%d kernels in testdata/kernels, want at least 40", len(files))
	}
	ks, err := Load(files, input.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(ks) != len(files) {
		t.Errorf("%d kernels from %d files (one region each expected)", len(ks), len(files))
	}
	for _, k := range ks {
		if len(k.Region.Insts) == 0 || k.Source == "" || strings.Contains(k.Name, "anonymous") {
			t.Errorf("%s: %d instructions", k.Name, len(k.Region.Insts))
		}
	}
}

// avx512 reports whether an instruction is AVX-512's: EVEX-encoded or
// naming a mask register (korw is VEX-encoded).
func avx512(in *isa.Inst) bool {
	return in.Form.Encoding == isa.EVEX || slices.ContainsFunc(in.Form.Operands, func(op isa.Operand) bool { return op.Kind == isa.KindK })
}

// TestLoadExperiments: the experiments the docs cite load as kernels,
// one per region, each named by its region and holding the instructions
// its header describes, and an embedded measured model predicts every
// one (the Zen 3 model, the Zen 4 one where a kernel holds AVX-512
// forms, which Zen 3 lacks).
func TestLoadExperiments(t *testing.T) {
	files, _ := filepath.Glob("../testdata/experiments/*.s")
	if len(files) < 3 {
		t.Fatalf("%d experiments in testdata/experiments, want at least 3", len(files))
	}
	m, err := modeldb.Embedded("portlab-znver3.yml.gz")
	if err != nil {
		t.Fatal(err)
	}
	m4, err := modeldb.Embedded("portlab-znver4.yml.gz")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		ks, err := Load([]string{f}, input.Options{})
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		if len(ks) < 2 {
			t.Errorf("%s: %d kernels, want a region each (at least 2)", f, len(ks))
		}
		zen4 := (&Portlab{Label: "znver4", Model: m4}).Predict(ks)
		for i, p := range (&Portlab{Label: "znver3", Model: m}).Predict(ks) {
			k := ks[i]
			if len(k.Region.Insts) == 0 || !strings.Contains(k.Name, ":") {
				t.Errorf("%s: %d instructions", k.Name, len(k.Region.Insts))
			}
			if p.Err != nil && slices.ContainsFunc(k.Region.Insts, avx512) {
				p = zen4[i]
			}
			if p.Err != nil || p.Cycles <= 0 {
				t.Errorf("%s: predicted %.2f cycles: %v", k.Name, p.Cycles, p.Err)
			}
		}
	}
}

func TestReports(t *testing.T) {
	r := &Report{Host: "test", Predictors: []string{"a"}, Rows: rows([]float64{1, 2}, map[string][]float64{"a": {1.5, 2}})}
	r.Scores = []Score{score("a", r.Rows)}
	var b bytes.Buffer
	if err := WriteText(&b, r); err != nil || !strings.Contains(b.String(), "+50%") {
		t.Errorf("text: %v\n%s", err, b.String())
	}
	b.Reset()
	if err := WriteJSON(&b, r); err != nil || !strings.Contains(b.String(), `"mape_percent": 25`) {
		t.Errorf("json: %v\n%s", err, b.String())
	}
	b.Reset()
	if err := WriteHTML(&b, r); err != nil || !strings.Contains(b.String(), "<svg") || !strings.Contains(b.String(), "<circle") {
		t.Errorf("html: %v", err)
	}
}

// A kernel whose kept pass is more than PassSpread above its fastest
// pass is named under the table with its range, and the JSON carries
// every pass; one whose kept pass is near its fastest is not named,
// however slow one disturbed pass read.
func TestPassesThatDisagree(t *testing.T) {
	r := &Report{Host: "test", Predictors: []string{"a"}, Rows: rows([]float64{2.5, 4}, map[string][]float64{"a": {2, 4}})}
	r.Rows[0].Measured.Passes = []float64{2.2, 2.5, 3.3}
	r.Rows[1].Measured.Passes = []float64{4, 4.6, 3.99}
	r.Scores = []Score{score("a", r.Rows)}
	if lo, hi, wide := r.Rows[0].Measured.Spread(); !wide || lo != 2.2 || hi != 3.3 {
		t.Errorf("spread %v-%v (wide %v), want 2.2-3.3, wide", lo, hi, wide)
	}
	if _, _, wide := r.Rows[1].Measured.Spread(); wide {
		t.Error("a median of 4 over passes of 3.99-4.6 called wide")
	}
	var b bytes.Buffer
	if err := WriteText(&b, r); err != nil || !strings.Contains(b.String(), "a: its 3 passes read 2.20-3.30 cycles, the one kept (the lower quartile, 2.50) 14% above the fastest: it ran slower in most passes here: a neighbour busy") || strings.Contains(b.String(), "b: its") {
		t.Errorf("text: %v\n%s", err, b.String())
	}
	b.Reset()
	if err := WriteHTML(&b, r); err != nil || strings.Count(b.String(), `<line class="passes"`) != 2 || !strings.Contains(b.String(), "passes 2.20-3.30") {
		t.Errorf("html: %v: want a bar over each kernel's passes", err)
	}
	b.Reset()
	if err := WriteJSON(&b, r); err != nil || !strings.Contains(b.String(), `"passes": [
        2.2,
        2.5,
        3.3
      ]`) {
		t.Errorf("json: %v\n%s", err, b.String())
	}
	// Where a pass read its two loop lengths apart, the spread is the
	// kernel's own steady states, not a neighbour.
	m := &r.Rows[0].Measured
	m.Passes = []float64{2.2, 2.5, 3.3, 2.9}
	m.PassAgree = []bool{true, true, true, false}
	b.Reset()
	if err := WriteText(&b, r); err != nil || !strings.Contains(b.String(), "a: its 4 passes read 2.20-3.30 cycles, the one kept (the lower quartile, 2.50) 14% above the fastest: it settles into more than one steady state here (1 of its passes read its two loop lengths apart)") || strings.Contains(b.String(), "neighbour busy") {
		t.Errorf("text with a pass apart: %v\n%s", err, b.String())
	}
}

func TestLLVMMCAPeer(t *testing.T) {
	if _, err := exec.LookPath("llvm-mca"); err != nil {
		t.Skip("llvm-mca not installed")
	}
	l, err := FindLLVMMCA("", "graniterapids")
	if err != nil {
		t.Fatal(err)
	}
	if l.MCPU != "sapphirerapids" && l.MCPU != "graniterapids" {
		t.Errorf("mcpu %q", l.MCPU)
	}
	if l.Version == "" || !strings.HasPrefix(l.Name(), "llvm-mca "+l.Version+" -mcpu=") {
		t.Errorf("version %q, name %q: want the LLVM major version in the name", l.Version, l.Name())
	}
	ks, err := Load([]string{"../testdata/kernels/imul_chain.s", "../testdata/kernels/int_add_chain.s"}, input.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ps := l.Predict(ks)
	for i, p := range ps {
		if p.Err != nil || p.Cycles <= 0 {
			t.Errorf("%s: %+v", ks[i].Name, p)
		}
	}
}

// A kernel using an instruction the host lacks is reported with the
// instruction's position, its form and the missing feature, not run.
func TestUnsupportedKernel(t *testing.T) {
	ks, err := Load([]string{"../testdata/kernels/triad_zmm.s", "../testdata/kernels/int_add_chain.s"}, input.Options{})
	if err != nil {
		t.Fatal(err)
	}
	noAVX512 := func(f string) bool { return !strings.HasPrefix(f, "avx512") }
	why := Unsupported(ks[0], noAVX512)
	for _, want := range []string{"triad_zmm.s:", "zmm", "needs avx512f", "this host lacks"} {
		if !strings.Contains(why, want) {
			t.Errorf("reason %q lacks %q", why, want)
		}
	}
	if why := Unsupported(ks[1], noAVX512); why != "" {
		t.Errorf("int_add_chain needs nothing special, got %q", why)
	}
	if why := Unsupported(ks[0], func(string) bool { return true }); why != "" {
		t.Errorf("a host with every feature runs it, got %q", why)
	}
}

// fakeMCA writes a shell script that answers --version and -mcpu=help the
// way llvm-mca does.
func fakeMCA(t *testing.T, path, version string, cpus ...string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	help := "Available CPUs for this target:\n\n"
	for _, c := range cpus {
		help += "  " + c + " - Select the " + c + " processor.\n"
	}
	help += "\nAvailable features for this target:\n\n  avx - Enable AVX instructions.\n"
	script := "#!/bin/sh\nif [ \"$1\" = --version ]; then echo 'Debian LLVM version " + version + "'; exit 0; fi\ncat <<'EOF'\n" + help + "EOF\n"
	if err := os.WriteFile(path, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
}

// Every installed llvm-mca becomes a peer named by its LLVM version, in
// version order, a symlinked duplicate once, and one that knows no CPU
// near the host's is reported, not used.
func TestFindAllLLVMMCA(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no /bin/sh")
	}
	dir := t.TempDir()
	fakeMCA(t, filepath.Join(dir, "llvm-19/bin/llvm-mca"), "19.1.7", "emeraldrapids", "sapphirerapids")
	fakeMCA(t, filepath.Join(dir, "llvm-14/bin/llvm-mca"), "14.0.6", "sapphirerapids", "skylake")
	fakeMCA(t, filepath.Join(dir, "llvm-9/bin/llvm-mca"), "9.0.1", "skylake")
	bin := filepath.Join(dir, "path")
	os.MkdirAll(bin, 0o755)
	if err := os.Symlink(filepath.Join(dir, "llvm-14/bin/llvm-mca"), filepath.Join(bin, "llvm-mca")); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+":/bin:/usr/bin")
	old := llvmDirs
	llvmDirs = filepath.Join(dir, "llvm-*/bin/llvm-mca")
	defer func() { llvmDirs = old }()
	ls, errs := FindAllLLVMMCA("emeraldrapids")
	var names []string
	for _, l := range ls {
		names = append(names, l.Name())
	}
	want := []string{"llvm-mca 14 -mcpu=sapphirerapids", "llvm-mca 19 -mcpu=emeraldrapids"}
	if !slices.Equal(names, want) {
		t.Errorf("peers %q, want %q", names, want)
	}
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), "llvm-9") || !strings.Contains(errs[0].Error(), "emeraldrapids") {
		t.Errorf("errors %v: want one naming llvm-9's binary and the host's CPU", errs)
	}
}

// A kernel measured at two loop lengths: passes whose lengths read apart
// are left out of its spread and named in one line under the table; a
// kernel whose lengths disagree in every pass is named with both values,
// in the text, the JSON and the HTML.
func TestTwoLengths(t *testing.T) {
	r := &Report{Host: "test", Predictors: []string{"p"}, Rows: rows([]float64{1.0, 2.37, 4}, map[string][]float64{"p": {1, 2, 4}})}
	a := &r.Rows[0].Measured
	a.Passes, a.PassAgree = []float64{0.84, 1.0, 0.84, 1.01, 1.16}, []bool{false, true, false, true, true}
	a.Copies, a.LongerCopies, a.Longer = 43, 65, 1.0
	b := &r.Rows[1].Measured
	b.Passes, b.PassAgree = []float64{2.37, 2.38}, []bool{false, false}
	b.Copies, b.LongerCopies, b.Longer = 15, 23, 2.49
	c := &r.Rows[2].Measured
	c.Passes, c.PassAgree = []float64{4, 4.01}, []bool{true, true}
	c.Copies, c.LongerCopies, c.Longer = 8, 12, 4
	r.Scores = []Score{score("p", r.Rows)}
	if lo, hi, wide := a.Spread(); lo != 1.0 || hi != 1.16 || wide {
		t.Errorf("spread of the agreeing passes %v-%v (wide %v), want 1.00-1.16, the kept pass at the fastest", lo, hi, wide)
	}
	// A used pass counts with the value it gave: one whose shorter pair
	// mixed states gave its intact longer pair's.
	a2 := *a
	a2.PassAgree, a2.Fitted = []bool{true, true, false, true, true}, []float64{1.0, 1.0, 0, 1.01, 1.16}
	if lo, hi, _ := a2.Spread(); lo != 1.0 || hi != 1.16 {
		t.Errorf("spread with a corrected pass %v-%v, want 1.00-1.16 (not its measured 0.84)", lo, hi)
	}
	if n, lo, hi := a.Disagreed(); n != 2 || lo != 0.84 || hi != 0.84 {
		t.Errorf("disagreed %d (%v-%v), want 2 at 0.84", n, lo, hi)
	}
	if a.LengthDependent() || !b.LengthDependent() || c.LengthDependent() {
		t.Errorf("length-dependent: %v %v %v, want only the second", a.LengthDependent(), b.LengthDependent(), c.LengthDependent())
	}
	var buf bytes.Buffer
	if err := WriteText(&buf, r); err != nil {
		t.Fatal(err)
	}
	txt := buf.String()
	for _, want := range []string{
		"passes not used, their two loop lengths more than 2% apart and no function of theirs alone off the line of the other three: a 2/5\n",
		"b: 2.37 cycles an iteration at 15 copies, 2.49 at 23, in each of its 2 passes: its steady state depends on the loop's length",
	} {
		if !strings.Contains(txt, want) {
			t.Errorf("text lacks %q:\n%s", want, txt)
		}
	}
	if strings.Contains(txt, "a: its") || strings.Contains(txt, "c: ") {
		t.Errorf("text names a kernel it should not:\n%s", txt)
	}
	buf.Reset()
	if err := WriteJSON(&buf, r); err != nil || !strings.Contains(buf.String(), `"longer_copies": 23,
      "longer_cycles": 2.49,
      "passes_lengths_agree": 0,`) {
		t.Errorf("json: %v\n%s", err, buf.String())
	}
	buf.Reset()
	if err := WriteHTML(&buf, r); err != nil || strings.Count(buf.String(), `<span class="len"`) != 1 || !strings.Contains(buf.String(), "(length: 2.49)") {
		t.Errorf("html: %v: want one length mark, on b", err)
	}
}
