// Command bench measures 'portlab analyze' against llvm-mca on the same
// basic blocks and prints the ratio: the batch rate (blocks per second on
// one core, 100 iterations each), the end-to-end time of one small file,
// and how often the two agree on the simulated cycles when portlab runs
// LLVM's own numbers (the model imported from llvm-mca).
//
// It is a command rather than a Go benchmark because it times two
// programs, builds the portlab binary it times end to end, and generates
// the block set (random 5-20 instruction blocks assembled with GNU as,
// BHive's hex CSV) when asked:
//
//	go run ./analysis/bench                  # measure with the committed blocks
//	go run ./analysis/bench -gen 2000        # regenerate the block set first
//
// The Go benchmarks in package analysis (BenchmarkBatch, BenchmarkSmallFile)
// time the same work without llvm-mca.
package main

import (
	"bytes"
	"context"
	"encoding/hex"
	"flag"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"time"

	"portlab/analysis"
	"portlab/analysis/input"
	"portlab/internal/fsutil"
	"portlab/isa"
	"portlab/jit"
	"portlab/modeldb"
)

func main() {
	blocksPath := flag.String("blocks", "testdata/kernels/analysis/bench/blocks.csv", "hex CSV of blocks (one per line)")
	gen := flag.Int("gen", 0, "generate this many random blocks into -blocks first")
	seed := flag.Int64("seed", 1, "random seed for -gen")
	mcpu := flag.String("mcpu", "skylake", "LLVM CPU whose model both tools use")
	iters := flag.Int("iterations", 100, "iterations per block")
	limit := flag.Int("n", 0, "use only the first n blocks (0: all)")
	small := flag.String("file", "testdata/kernels/analysis/daxpy.s", "small kernel file for the end-to-end time")
	flag.Parse()
	if err := run(*blocksPath, *gen, *seed, *mcpu, *iters, *limit, *small); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

func run(blocksPath string, gen int, seed int64, mcpu string, iters, limit int, small string) error {
	// Measure on one core, as the requirement says.
	runtime.GOMAXPROCS(1)
	if gen > 0 {
		if err := generate(blocksPath, gen, seed); err != nil {
			return err
		}
		fmt.Printf("wrote %d blocks to %s\n", gen, blocksPath)
	}
	blocks, err := readBlocks(blocksPath, limit)
	if err != nil {
		return err
	}
	mca, err := exec.LookPath("llvm-mca")
	if err != nil {
		fmt.Println("llvm-mca not found: portlab's numbers only")
		mca = ""
	}
	// One model for both: LLVM's, imported for every form in the blocks.
	var forms []*isa.Form
	seen := map[*isa.Form]bool{}
	for _, b := range blocks {
		for _, in := range b.insts {
			if !seen[in.Form] {
				seen[in.Form] = true
				forms = append(forms, in.Form)
			}
		}
	}
	var nInst int
	for _, b := range blocks {
		nInst += len(b.insts)
	}
	fmt.Printf("%d blocks, %.1f instructions per block on average, %d iterations, -mcpu=%s\n",
		len(blocks), float64(nInst)/float64(len(blocks)), iters, mcpu)
	var model *modeldb.Model
	if mca == "" {
		// No llvm-mca: time portlab alone with a made-up model.
		model = madeUpModel(forms)
	} else {
		t0 := time.Now()
		model, _, _, err = analysis.LLVMModel(context.Background(), mcpu, forms)
		if err != nil {
			return err
		}
		fmt.Printf("model imported from llvm-mca in %v (%d forms)\n", time.Since(t0).Round(time.Millisecond), len(model.Forms))
	}

	// portlab batch, in process.
	bt, err := analysis.NewBatch(model, analysis.Options{Iterations: iters})
	if err != nil {
		return err
	}
	ours := make([]int, len(blocks))
	for i, b := range blocks[:min(len(blocks), 50)] { // warm up
		if _, err := bt.Predict(b.insts); err != nil {
			return fmt.Errorf("block %d: %v", i, err)
		}
	}
	t0 := time.Now()
	for i, b := range blocks {
		pr, err := bt.Predict(b.insts)
		if err != nil {
			return fmt.Errorf("block %d: %v", i, err)
		}
		ours[i] = pr.Cycles
	}
	dt := time.Since(t0)
	rate := float64(len(blocks)) / dt.Seconds()
	fmt.Printf("\nportlab batch:   %8.0f blocks/s  (%.3f ms per block)\n", rate, dt.Seconds()*1000/float64(len(blocks)))
	if mca == "" {
		return nil
	}

	// llvm-mca on the same blocks: all in one run (one region per block).
	var src strings.Builder
	for i, b := range blocks {
		fmt.Fprintf(&src, "# LLVM-MCA-BEGIN b%d\n", i)
		for _, in := range b.insts {
			src.WriteString(in.ATT() + "\n")
		}
		src.WriteString("# LLVM-MCA-END\n")
	}
	t0 = time.Now()
	out, err := runMCA(mca, mcpu, iters, src.String(), "-summary-view", "-instruction-info=false", "-resource-pressure=false")
	if err != nil {
		return err
	}
	mdt := time.Since(t0)
	theirs := parseCycles(out, len(blocks))
	mrate := float64(len(blocks)) / mdt.Seconds()
	fmt.Printf("llvm-mca (one run, a region per block): %8.0f blocks/s  (%.3f ms per block)\n", mrate, mdt.Seconds()*1000/float64(len(blocks)))
	// And one process per block, as a per-block tool is used.
	nproc := min(len(blocks), 100)
	t0 = time.Now()
	for _, b := range blocks[:nproc] {
		var s strings.Builder
		for _, in := range b.insts {
			s.WriteString(in.ATT() + "\n")
		}
		if _, err := runMCA(mca, mcpu, iters, s.String()); err != nil {
			return err
		}
	}
	prate := float64(nproc) / time.Since(t0).Seconds()
	fmt.Printf("llvm-mca (a process per block, %d blocks): %8.0f blocks/s\n", nproc, prate)
	fmt.Printf("ratio portlab/llvm-mca: %.1fx (one run), %.1fx (per process)\n", rate/mrate, rate/prate)

	agree, within1 := 0, 0
	var worst []string
	for i := range blocks {
		if theirs[i] < 0 {
			continue
		}
		d := ours[i] - theirs[i]
		if d == 0 {
			agree++
		}
		if d >= -iters/100 && d <= iters/100 || abs(d)*100 <= theirs[i] {
			within1++
		} else if len(worst) < 5 {
			worst = append(worst, fmt.Sprintf("  block %d (%s): portlab %d, llvm-mca %d cycles", i, blocks[i].hex, ours[i], theirs[i]))
		}
	}
	fmt.Printf("\nagreement with llvm-mca (same numbers): %d of %d blocks exactly (%.1f%%), %d within 1%% (%.1f%%)\n",
		agree, len(blocks), 100*float64(agree)/float64(len(blocks)), within1, 100*float64(within1)/float64(len(blocks)))
	for _, w := range worst {
		fmt.Println(w)
	}

	// One small file end to end: the portlab binary with the host's
	// default model, and llvm-mca.
	if small != "" {
		if err := endToEnd(small, mca, mcpu); err != nil {
			return err
		}
	}
	return nil
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

type block struct {
	hex   string
	insts []*isa.Inst
}

func readBlocks(path string, limit int) ([]block, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	regions, err := input.Hex(path, data)
	if err != nil {
		return nil, err
	}
	if limit > 0 && len(regions) > limit {
		regions = regions[:limit]
	}
	out := make([]block, len(regions))
	for i, r := range regions {
		out[i] = block{hex: hex.EncodeToString(r.Code), insts: r.Insts}
	}
	return out, nil
}

func runMCA(mca, mcpu string, iters int, src string, extra ...string) (string, error) {
	args := append([]string{"-mtriple=x86_64-unknown-linux-gnu", "-mcpu=" + mcpu, "-iterations=" + strconv.Itoa(iters)}, extra...)
	args = append(args, "-")
	cmd := exec.Command(mca, args...)
	cmd.Stdin = strings.NewReader(src)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("llvm-mca: %v: %s", err, firstLine(errb.String()))
	}
	return out.String(), nil
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	return l
}

var reRegion = regexp.MustCompile(`(?m)^\[\d+\] Code Region - b(\d+)\s*$`)
var reCycles = regexp.MustCompile(`Total Cycles:\s+(\d+)`)

// parseCycles returns llvm-mca's total cycles per region (-1 when missing).
func parseCycles(out string, n int) []int {
	res := make([]int, n)
	for i := range res {
		res[i] = -1
	}
	locs := reRegion.FindAllStringSubmatchIndex(out, -1)
	for j, l := range locs {
		id, _ := strconv.Atoi(out[l[2]:l[3]])
		end := len(out)
		if j+1 < len(locs) {
			end = locs[j+1][0]
		}
		if m := reCycles.FindStringSubmatch(out[l[1]:end]); m != nil && id < n {
			res[id], _ = strconv.Atoi(m[1])
		}
	}
	return res
}

// endToEnd times the portlab binary and llvm-mca on one small file.
func endToEnd(file, mca, mcpu string) error {
	tmp, err := os.MkdirTemp("", "portlab-bench")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	bin := filepath.Join(tmp, "portlab")
	if out, err := exec.Command("go", "build", "-o", bin, "./cmd/portlab").CombinedOutput(); err != nil {
		return fmt.Errorf("go build: %v\n%s", err, out)
	}
	timeIt := func(name string, args ...string) (time.Duration, error) {
		var ds []time.Duration
		for i := 0; i < 12; i++ {
			t0 := time.Now()
			cmd := exec.Command(name, args...)
			var errb bytes.Buffer
			cmd.Stderr = &errb
			if err := cmd.Run(); err != nil {
				return 0, fmt.Errorf("%s: %v: %s", name, err, firstLine(errb.String()))
			}
			if i >= 2 { // the first runs fill caches (the model index)
				ds = append(ds, time.Since(t0))
			}
		}
		sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
		return ds[len(ds)/2], nil
	}
	ours, err := timeIt(bin, "analyze", file)
	if err != nil {
		return err
	}
	theirs, err := timeIt(mca, "-mcpu="+mcpu, file)
	if err != nil {
		return err
	}
	fmt.Printf("\nsmall file end to end (%s, median of 10 runs):\n", file)
	fmt.Printf("  portlab analyze (host's embedded model): %6.1f ms\n", ours.Seconds()*1000)
	fmt.Printf("  llvm-mca -mcpu=%s:                 %6.1f ms\n", mcpu, theirs.Seconds()*1000)
	fmt.Printf("  ratio llvm-mca/portlab: %.1fx\n", theirs.Seconds()/ours.Seconds())
	return nil
}

// Templates for random blocks: AT&T syntax, with G (64-bit GPR), D (its
// 32-bit half), X (xmm), Y (ymm), M (memory operand) substituted.
var templates = []string{
	"addq G, G", "subq G, G", "andq G, G", "orq G, G", "xorq G, G", "imulq G, G", "addq $7, G",
	"shlq $3, G", "sarq $2, G", "leaq 8(G,G,4), G", "movq G, G", "cmpq G, G", "testq G, G",
	"incq G", "decq G", "popcntq G, G", "addl D, D", "xorl D, D", "movl D, D", "imull $3, D, D",
	"movq M, G", "movq G, M", "addq M, G", "movl M, D", "addq $1, M",
	"vaddps Y, Y, Y", "vmulps Y, Y, Y", "vfmadd231ps Y, Y, Y", "vxorps Y, Y, Y", "vmovaps M, Y",
	"vmovaps Y, M", "vaddps M, Y, Y", "vpaddd Y, Y, Y", "vpand Y, Y, Y", "vpshufd $27, Y, Y",
	"vaddpd X, X, X", "vmulpd X, X, X", "addsd X, X", "mulsd X, X", "movapd X, X", "vsqrtpd X, X",
	"vdivps X, X, X", "vpermilps $1, Y, Y", "vperm2f128 $1, Y, Y, Y", "vcvtdq2ps Y, Y",
}

var gprs = []string{"rax", "rbx", "rcx", "rdx", "rsi", "rdi", "r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15"}
var gprs32 = map[string]string{"rax": "eax", "rbx": "ebx", "rcx": "ecx", "rdx": "edx", "rsi": "esi", "rdi": "edi",
	"r8": "r8d", "r9": "r9d", "r10": "r10d", "r11": "r11d", "r12": "r12d", "r13": "r13d", "r14": "r14d", "r15": "r15d"}

// generate writes n random blocks of 5 to 20 instructions, assembled with
// GNU as (through jit's assembler), as hex CSV.
func generate(path string, n int, seed int64) error {
	rng := rand.New(rand.NewSource(seed))
	pick := func(list []string) string { return list[rng.Intn(len(list))] }
	var units []*jit.Unit
	for i := 0; i < n; i++ {
		var b strings.Builder
		k := 5 + rng.Intn(16)
		for j := 0; j < k; j++ {
			t := pick(templates)
			var s strings.Builder
			for _, c := range t {
				switch c {
				case 'G':
					s.WriteString("%" + pick(gprs))
				case 'D':
					s.WriteString("%" + gprs32[pick(gprs)])
				case 'X':
					s.WriteString(fmt.Sprintf("%%xmm%d", rng.Intn(16)))
				case 'Y':
					s.WriteString(fmt.Sprintf("%%ymm%d", rng.Intn(16)))
				case 'M':
					s.WriteString(fmt.Sprintf("%d(%%%s)", 8*rng.Intn(16), pick(gprs)))
				default:
					s.WriteRune(c)
				}
			}
			b.WriteString(s.String() + "\n")
		}
		units = append(units, &jit.Unit{Name: fmt.Sprintf("block %d", i), Source: b.String(), ATT: true})
	}
	as := jit.NewAssembler()
	as.CacheDir = ""
	objs, errs := as.Assemble(units)
	var out bytes.Buffer
	out.WriteString("# random basic blocks for 'go run ./analysis/bench' (hex, BHive style; generated with -gen)\n")
	for i, o := range objs {
		if errs[i] != nil {
			return errs[i]
		}
		out.WriteString(hex.EncodeToString(o.Code) + "\n")
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return fsutil.WriteFileAtomic(path, out.Bytes(), 0o644)
}

// madeUpModel gives every form one uOp on one of four ports with latency
// 3 (7 and a load port for memory forms): enough to time the simulator
// where llvm-mca is missing.
func madeUpModel(forms []*isa.Form) *modeldb.Model {
	m := &modeldb.Model{Name: "made up", DispatchWidth: 4, ROBSize: 224, Ports: []string{"0", "1", "2", "3", "L0", "L1", "S"}}
	for _, f := range forms {
		e := &modeldb.Entry{Form: f.Name(), Uops: 1, Latency: 3, Throughput: 0.25,
			PortPressure: modeldb.PortPressure{{Cycles: 1, Ports: []string{"0", "1", "2", "3"}}}}
		if f.HasMemory() {
			e.Uops, e.Latency = 2, 7
			e.PortPressure = append(e.PortPressure, modeldb.PortUse{Cycles: 1, Ports: []string{"L0", "L1"}})
		}
		m.Put(e)
	}
	return m
}
