package validate

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
	"time"

	"portlab/analysis"
	"portlab/modeldb"
)

// Portlab predicts with portlab's simulator and a machine model.
type Portlab struct {
	Label string // e.g. "portlab (graniterapids, measured)"
	Model *modeldb.Model
	Opt   analysis.Options
}

// Name implements Predictor.
func (p *Portlab) Name() string { return p.Label }

// Predict simulates every kernel to its steady state (the difference
// of two lengths, as kernels are measured); the bottleneck comes from the
// static analysis of the same block.
func (p *Portlab) Predict(ks []*Kernel) []Prediction {
	out := make([]Prediction, len(ks))
	bt, err := analysis.NewBatch(p.Model, p.Opt)
	if err != nil {
		for i := range out {
			out[i].Err = err
		}
		return out
	}
	for i, k := range ks {
		pr, err := bt.PredictSteadyState(instsOf(k))
		if err != nil {
			out[i].Err = err
			continue
		}
		out[i].Cycles = pr.CyclesPerIteration
		if _, bottleneck, err := bt.Static(instsOf(k)); err == nil {
			out[i].Bottleneck = bottleneck
		}
	}
	return out
}

// LLVMMCA predicts with an installed llvm-mca: all kernels in one run, one
// region each, cycles per iteration in steady state (see run).
type LLVMMCA struct {
	Path       string // llvm-mca binary
	MCPU       string // -mcpu
	Iterations int
	Note       string // why this -mcpu (e.g. the nearest CPU LLVM knows)
	// Version is LLVM's major version ("19"), so that two llvm-mca of
	// different LLVM releases compared side by side keep their names
	// apart; "" when --version did not say.
	Version string
}

// Name implements Predictor: "llvm-mca 19 -mcpu=emeraldrapids".
func (l *LLVMMCA) Name() string {
	v := filepath.Base(l.Path)
	if l.Version != "" {
		v += " " + l.Version
	}
	return fmt.Sprintf("%s -mcpu=%s", v, l.MCPU)
}

var llvmVersion = regexp.MustCompile(`LLVM version (\d+)\.`)

// mcaVersion returns the LLVM major version an llvm-mca binary reports.
func mcaVersion(path string) string {
	out, _ := exec.Command(path, "--version").CombinedOutput()
	if m := llvmVersion.FindSubmatch(out); m != nil {
		return string(m[1])
	}
	return ""
}

var (
	mcaRegion = regexp.MustCompile(`(?m)^\[(\d+)\] Code Region`)
	mcaTotal  = regexp.MustCompile(`(?m)^Total Cycles:\s+(\d+)`)
)

// Predict runs llvm-mca once per kernel batch; a kernel llvm-mca rejects
// (an instruction its model lacks) is retried alone so one bad kernel does
// not sink the others.
func (l *LLVMMCA) Predict(ks []*Kernel) []Prediction {
	out := make([]Prediction, len(ks))
	all := make([]int, len(ks))
	for i := range all {
		all[i] = i
	}
	if err := l.run(ks, all, out); err != nil {
		for _, i := range all {
			if err := l.run(ks, []int{i}, out); err != nil {
				out[i].Err = err
			}
		}
	}
	return out
}

// run predicts kernels idx in one llvm-mca batch, in steady state as
// portlab's own predictions: llvm-mca run for N and for 2N iterations,
// the difference over N (Total Cycles / Iterations counts the pipeline
// filling once, which the measurements leave out).
func (l *LLVMMCA) run(ks []*Kernel, idx []int, out []Prediction) error {
	iters := l.Iterations
	if iters <= 0 {
		iters = 200
	}
	short, err := l.totals(ks, idx, iters)
	if err != nil {
		return err
	}
	long, err := l.totals(ks, idx, 2*iters)
	if err != nil {
		return err
	}
	for k, i := range idx {
		switch {
		case short[k] < 0 || long[k] < 0:
			out[i] = Prediction{Err: fmt.Errorf("llvm-mca output lacks Total Cycles")}
		default:
			out[i] = Prediction{Cycles: (long[k] - short[k]) / float64(iters)}
		}
	}
	return nil
}

// totals runs llvm-mca once over kernels idx for the given iterations and
// returns each one's Total Cycles (-1 where the output lacks it).
func (l *LLVMMCA) totals(ks []*Kernel, idx []int, iters int) ([]float64, error) {
	var src strings.Builder
	src.WriteString(".intel_syntax noprefix\n")
	for _, i := range idx {
		fmt.Fprintf(&src, "# LLVM-MCA-BEGIN k%d\n%s# LLVM-MCA-END k%d\n", i, ks[i].Source, i)
	}
	f, err := os.CreateTemp("", "portlab-mca-*.s")
	if err != nil {
		return nil, err
	}
	defer os.Remove(f.Name())
	f.WriteString(src.String())
	f.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, l.Path, "-mcpu="+l.MCPU, "-iterations="+strconv.Itoa(iters),
		"-resource-pressure=false", "-instruction-info=false", f.Name())
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(stderr.String())
		if i := strings.IndexByte(msg, '\n'); i > 0 {
			msg = msg[:i]
		}
		return nil, fmt.Errorf("llvm-mca: %v: %s", err, msg)
	}
	text := stdout.String()
	// Split the output by region headers (a single region has none).
	parts := []string{text}
	if locs := mcaRegion.FindAllStringIndex(text, -1); len(locs) > 0 {
		parts = nil
		for k, loc := range locs {
			end := len(text)
			if k+1 < len(locs) {
				end = locs[k+1][0]
			}
			parts = append(parts, text[loc[0]:end])
		}
	}
	if len(parts) != len(idx) {
		return nil, fmt.Errorf("llvm-mca printed %d regions for %d kernels", len(parts), len(idx))
	}
	out := make([]float64, len(idx))
	for k, part := range parts {
		t := mcaTotal.FindStringSubmatch(part)
		if t == nil {
			out[k] = -1
			continue
		}
		out[k], _ = strconv.ParseFloat(t[1], 64)
	}
	return out, nil
}

// llvmFallback maps CPU names LLVM 14 does not know to the nearest it does.
var llvmFallback = map[string][]string{
	"graniterapids": {"sapphirerapids", "icelake-server"}, "graniterapids-d": {"sapphirerapids"},
	"emeraldrapids": {"sapphirerapids"}, "sierraforest": {"alderlake"}, "grandridge": {"alderlake"},
	"meteorlake": {"alderlake"}, "arrowlake": {"alderlake"}, "lunarlake": {"alderlake"}, "raptorlake": {"alderlake"},
	"znver5": {"znver4", "znver3"}, "znver4": {"znver3"},
}

// FindLLVMMCA locates llvm-mca (path "" searches PATH) and picks the -mcpu
// closest to the host's LLVM cpu name that this llvm-mca knows.
func FindLLVMMCA(path, hostCPU string) (*LLVMMCA, error) {
	if path == "" {
		path = "llvm-mca"
	}
	p, err := exec.LookPath(path)
	if err != nil {
		return nil, fmt.Errorf("llvm-mca not found (%s)", path)
	}
	known := knownCPUs(p)
	l := &LLVMMCA{Path: p, MCPU: hostCPU, Version: mcaVersion(p)}
	if known[hostCPU] {
		return l, nil
	}
	for _, alt := range llvmFallback[hostCPU] {
		if known[alt] {
			l.MCPU = alt
			l.Note = fmt.Sprintf("%s does not know %s; using %s", filepath.Base(p), hostCPU, alt)
			return l, nil
		}
	}
	return nil, fmt.Errorf("%s knows no CPU close to %s", p, hostCPU)
}

// llvmDirs is where Debian and Ubuntu install versioned LLVM releases
// (apt-get install llvm-19: /usr/lib/llvm-19/bin/llvm-mca).
var llvmDirs = "/usr/lib/llvm-*/bin/llvm-mca"

// FindAllLLVMMCA returns a peer for every llvm-mca installed: the one on
// PATH and each versioned LLVM release's, one per binary (symlinks
// resolved), in order of LLVM version. errs says why a binary found was
// left out (it knows no CPU close to the host's).
func FindAllLLVMMCA(hostCPU string) (out []*LLVMMCA, errs []error) {
	var paths []string
	if p, err := exec.LookPath("llvm-mca"); err == nil {
		paths = append(paths, p)
	}
	more, _ := filepath.Glob(llvmDirs)
	paths = append(paths, more...)
	seen := map[string]bool{}
	for _, p := range paths {
		real, err := filepath.EvalSymlinks(p)
		if err != nil {
			real = p
		}
		if seen[real] {
			continue
		}
		seen[real] = true
		l, err := FindLLVMMCA(p, hostCPU)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		out = append(out, l)
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, _ := strconv.Atoi(out[i].Version)
		b, _ := strconv.Atoi(out[j].Version)
		return a < b
	})
	return out, errs
}

func knownCPUs(path string) map[string]bool {
	out, _ := exec.Command(path, "-mcpu=help", "-").CombinedOutput()
	known := map[string]bool{}
	inCPUs := false
	for _, l := range strings.Split(string(out), "\n") {
		t := strings.TrimSpace(l)
		switch {
		case strings.HasPrefix(t, "Available CPUs"):
			inCPUs = true
		case strings.HasPrefix(t, "Available features"):
			inCPUs = false
		case inCPUs && t != "":
			known[strings.Fields(t)[0]] = true
		}
	}
	return known
}
