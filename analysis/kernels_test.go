package analysis

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"portlab/analysis/input"
	"portlab/isa"
	"portlab/modeldb"
)

const kernelDir = "../testdata/kernels/analysis"

// expectation is one "# expect: key=value ..." line of a kernel file.
type expectation struct {
	line   int
	region string
	opts   map[string]string
	cycles int
}

func readExpectations(t *testing.T, path string) []expectation {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []expectation
	for i, l := range strings.Split(string(data), "\n") {
		l = strings.TrimSpace(l)
		rest, ok := strings.CutPrefix(l, "# expect:")
		if !ok {
			continue
		}
		e := expectation{line: i + 1, opts: map[string]string{}, cycles: -1}
		for _, f := range strings.Fields(rest) {
			k, v, ok := strings.Cut(f, "=")
			if !ok {
				t.Fatalf("%s:%d: %q is not key=value", path, i+1, f)
			}
			switch k {
			case "cycles":
				e.cycles, err = strconv.Atoi(v)
				if err != nil {
					t.Fatalf("%s:%d: cycles=%q", path, i+1, v)
				}
			case "region":
				e.region = v
			default:
				e.opts[k] = v
			}
		}
		if e.cycles < 0 {
			t.Fatalf("%s:%d: no cycles=", path, i+1)
		}
		out = append(out, e)
	}
	return out
}

// options turns an expectation's options into analysis options.
func (e expectation) options(t *testing.T) Options {
	t.Helper()
	opt := Options{}
	num := func(v string) int {
		n, err := strconv.Atoi(v)
		if err != nil {
			t.Fatalf("line %d: %q is not a number", e.line, v)
		}
		return n
	}
	for k, v := range e.opts {
		switch k {
		case "iterations":
			opt.Iterations = num(v)
		case "dispatch":
			opt.DispatchWidth = num(v)
		case "retire-width":
			opt.RetireWidth = num(v)
		case "rob-size":
			opt.ROBSize = num(v)
		case "scheduler-size":
			opt.SchedulerSize = num(v)
		case "noalias":
			opt.MayAlias = v == "false"
		case "partial-writes":
			opt.PartialWrites = v
		default:
			t.Fatalf("line %d: unknown option %q", e.line, k)
		}
	}
	return opt
}

func kernelFiles(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(kernelDir, "k*.s"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no kernels in %s: %v", kernelDir, err)
	}
	sort.Strings(files)
	return files
}

func pickRegion(t *testing.T, regs []*input.Region, name, file string, line int) *input.Region {
	t.Helper()
	if name == "" {
		if len(regs) != 1 {
			t.Fatalf("%s:%d: %d regions: name one with region=", file, line, len(regs))
		}
		return regs[0]
	}
	for _, r := range regs {
		if r.Name == name {
			return r
		}
	}
	t.Fatalf("%s:%d: no region %q", file, line, name)
	return nil
}

func handcore(t testing.TB) *modeldb.Model {
	t.Helper()
	m, err := modeldb.Load(filepath.Join(kernelDir, "models", "handcore.yml"))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestHandDerivedKernels checks the simulator against cycle counts
// derived by hand in each kernel's comments, on the hand-made core.
func TestHandDerivedKernels(t *testing.T) {
	m := handcore(t)
	n := 0
	for _, f := range kernelFiles(t) {
		exps := readExpectations(t, f)
		if len(exps) == 0 {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		regs, err := input.Assembly(filepath.Base(f), src, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range exps {
			n++
			r := pickRegion(t, regs, e.region, f, e.line)
			b, err := NewBuilder(m)
			if err != nil {
				t.Fatal(err)
			}
			opt := e.options(t)
			if opt.PartialWrites != "" {
				b.PartialWrites = opt.PartialWrites
			}
			k, err := b.Kernel(r)
			if err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			rep, err := Analyze(k, opt, Views{})
			if err != nil {
				t.Fatalf("%s:%d: %v", f, e.line, err)
			}
			if rep.Result.Cycles != e.cycles {
				t.Errorf("%s:%d: %d cycles, derived by hand: %d", filepath.Base(f), e.line, rep.Result.Cycles, e.cycles)
			}
		}
	}
	if n < 20 {
		t.Errorf("only %d hand-derived expectations; the suite needs at least 20 kernels", n)
	}
}

// llvmMCA14 returns llvm-mca, skipping the test when it is missing or not
// LLVM 14 (the comparisons are calibrated on its rules and output).
func llvmMCA14(t *testing.T) string {
	t.Helper()
	mca, err := exec.LookPath("llvm-mca")
	if err != nil {
		t.Skip("llvm-mca not installed")
	}
	out, err := exec.Command(mca, "--version").Output()
	if err != nil || !strings.Contains(string(out), "LLVM version 14.") {
		t.Skipf("llvm-mca is not LLVM 14 (%s)", firstLine(string(out)))
	}
	return mca
}

func firstLine(s string) string {
	for _, l := range strings.Split(s, "\n") {
		if strings.TrimSpace(l) != "" {
			return strings.TrimSpace(l)
		}
	}
	return ""
}

var reTotalCycles = regexp.MustCompile(`Total Cycles:\s+(\d+)`)

// TestAgainstLLVMMCA runs every kernel through llvm-mca and through
// portlab with the same numbers (LLVM's model for the CPU, imported from
// llvm-mca) and checks that the simulated cycles agree.
func TestAgainstLLVMMCA(t *testing.T) {
	mca := llvmMCA14(t)
	if testing.Short() {
		t.Skip("runs llvm-mca many times")
	}
	type job struct {
		file string
		r    *input.Region
		e    expectation
	}
	var jobs []job
	var forms []*isa.Form
	seen := map[*isa.Form]bool{}
	for _, f := range kernelFiles(t) {
		src, _ := os.ReadFile(f)
		regs, err := input.Assembly(filepath.Base(f), src, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range readExpectations(t, f) {
			if _, ok := e.opts["retire-width"]; ok {
				continue // llvm-mca has no such flag
			}
			if v, ok := e.opts["partial-writes"]; ok && v != PartialNone {
				continue // portlab's own knob
			}
			r := pickRegion(t, regs, e.region, f, e.line)
			jobs = append(jobs, job{f, r, e})
			for _, in := range r.Insts {
				if !seen[in.Form] {
					seen[in.Form] = true
					forms = append(forms, in.Form)
				}
			}
		}
	}
	for _, cpu := range []string{"skylake", "haswell", "znver3"} {
		t.Run(cpu, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			m, _, _, err := LLVMModel(ctx, cpu, forms)
			if err != nil {
				t.Fatal(err)
			}
			agree := 0
			for _, j := range jobs {
				b, err := NewBuilder(m)
				if err != nil {
					t.Fatal(err)
				}
				k, err := b.Kernel(j.r)
				if err != nil {
					t.Fatal(err)
				}
				opt := j.e.options(t)
				rep, err := Analyze(k, opt, Views{})
				if err != nil {
					t.Fatal(err)
				}
				var src strings.Builder
				for _, in := range j.r.Insts {
					src.WriteString(in.ATT() + "\n")
				}
				args := []string{"-mtriple=x86_64-unknown-linux-gnu", "-mcpu=" + cpu, "-iterations=" + strconv.Itoa(rep.Iterations)}
				if opt.DispatchWidth > 0 {
					args = append(args, "-dispatch="+strconv.Itoa(opt.DispatchWidth))
				}
				if opt.MayAlias {
					args = append(args, "-noalias=false")
				}
				cmd := exec.CommandContext(ctx, mca, append(args, "-")...)
				cmd.Stdin = strings.NewReader(src.String())
				var out, errb bytes.Buffer
				cmd.Stdout, cmd.Stderr = &out, &errb
				if err := cmd.Run(); err != nil {
					t.Fatalf("%s: llvm-mca: %v: %s", j.file, err, errb.String())
				}
				mm := reTotalCycles.FindStringSubmatch(out.String())
				if mm == nil {
					t.Fatalf("%s: no cycles in llvm-mca's output", j.file)
				}
				want, _ := strconv.Atoi(mm[1])
				where := fmt.Sprintf("%s:%d", filepath.Base(j.file), j.e.line)
				if rep.Result.Cycles != want {
					t.Errorf("%s: portlab %d cycles, llvm-mca -mcpu=%s %d", where, rep.Result.Cycles, cpu, want)
				} else {
					agree++
				}
			}
			t.Logf("-mcpu=%s: %d of %d kernels agree exactly", cpu, agree, len(jobs))
		})
	}
}

var reHexImm = regexp.MustCompile(`\$0x[0-9a-f]+`)

// TestViewsMatchLLVMMCA compares the text of the views that llvm-mca
// also prints (summary, timeline, statistics) with llvm-mca's, on the
// kernels, with LLVM's Skylake numbers.
func TestViewsMatchLLVMMCA(t *testing.T) {
	mca := llvmMCA14(t)
	if testing.Short() {
		t.Skip("runs llvm-mca many times")
	}
	norm := func(s string) string {
		s = reHexImm.ReplaceAllStringFunc(s, func(h string) string {
			v, _ := strconv.ParseInt(h[3:], 16, 64)
			return "$" + strconv.FormatInt(v, 10)
		})
		s = strings.ReplaceAll(s, "SKLPortAny  ", "unified     ")
		var out []string
		for _, l := range strings.Split(s, "\n") {
			// The block throughput is the LP optimum here, llvm-mca's
			// per-resource estimate there; the resource names differ.
			if strings.HasPrefix(l, "Block RThroughput") || strings.HasPrefix(l, "Resources:") {
				continue
			}
			out = append(out, l)
		}
		return strings.Join(out, "\n")
	}
	section := func(s, from string, to ...string) string {
		i := strings.Index(s, from)
		if i < 0 {
			return ""
		}
		s = s[i:]
		for _, t := range to {
			if j := strings.Index(s[len(from):], t); j >= 0 {
				s = s[:len(from)+j]
			}
		}
		return strings.TrimRight(s, "\n")
	}
	var forms []*isa.Form
	seen := map[*isa.Form]bool{}
	type kern struct {
		name string
		r    *input.Region
	}
	var ks []kern
	for _, f := range kernelFiles(t) {
		src, _ := os.ReadFile(f)
		regs, err := input.Assembly(filepath.Base(f), src, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range regs {
			ks = append(ks, kern{filepath.Base(f) + ":" + r.Label(), r})
			for _, in := range r.Insts {
				if !seen[in.Form] {
					seen[in.Form] = true
					forms = append(forms, in.Form)
				}
			}
		}
	}
	m, _, _, err := LLVMModel(context.Background(), "skylake", forms)
	if err != nil {
		t.Fatal(err)
	}
	v := DefaultViews()
	v.Static, v.InstructionInfo, v.ResourcePressure = false, false, false
	v.Timeline = true
	v.AllStats()
	for _, k := range ks {
		b, _ := NewBuilder(m)
		kk, err := b.Kernel(k.r)
		if err != nil {
			t.Fatal(err)
		}
		kk.Name = ""
		rep, err := Analyze(kk, Options{}, v)
		if err != nil {
			t.Fatal(err)
		}
		var ours bytes.Buffer
		PrintText(&ours, []*Report{rep})
		var src strings.Builder
		for _, in := range k.r.Insts {
			src.WriteString(strings.TrimSpace(in.Text) + "\n")
		}
		if k.r.Syntax == isa.SyntaxIntel {
			src.Reset()
			src.WriteString(".intel_syntax noprefix\n")
			for _, in := range k.r.Insts {
				src.WriteString(in.Text + "\n")
			}
		}
		cmd := exec.Command(mca, "-mtriple=x86_64-unknown-linux-gnu", "-mcpu=skylake", "-timeline", "-all-stats",
			"-instruction-info=false", "-resource-pressure=false", "-register-file-stats=false", "-")
		cmd.Stdin = strings.NewReader(src.String())
		theirs, err := cmd.Output()
		if err != nil {
			t.Fatalf("%s: llvm-mca: %v", k.name, err)
		}
		for _, sec := range []string{"Iterations:", "Dynamic Dispatch", "Timeline view:"} {
			ends := []string{"Dynamic Dispatch", "Register File", "Resources:", "Timeline view:"}
			a := norm(section(ours.String(), sec, ends...))
			b := norm(section(string(theirs), sec, ends...))
			if a == "" || len(strings.Split(a, "\n")) < 5 {
				t.Errorf("%s: %q section missing:\n%s", k.name, sec, a)
			}
			if a != b {
				t.Errorf("%s: %q section differs\nportlab:\n%s\nllvm-mca:\n%s", k.name, sec, a, b)
			}
		}
	}
}
