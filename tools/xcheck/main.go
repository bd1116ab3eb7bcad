// Command xcheck is an independent cross-check of portlab's measurements:
// it times the same instruction sequences with its own harness — a small
// C runtime and generated GNU assembly built by gcc, nothing of portlab's
// engine, estimator or JIT — and reports how far portlab's values are
// from its own.
//
//	go run ./tools/xcheck forms   [flags] RESULTS.yaml       rows of a portlab bench sweep
//	go run ./tools/xcheck kernels [flags] VALIDATE.json KERNEL.s...  portlab validate --json
//
// Its method (differential timing of back-to-back batches, the calibration
// chain interleaved, the minimum per process, the median over processes)
// and its machine state (the set-up rules of testdata/kernels/README.md) are
// written down in docs/method.md, "The independent cross-check".
package main

import (
	"bufio"
	"bytes"
	_ "embed"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"portlab/internal/fsutil"
)

//go:embed harness/runtime.c
var runtimeC string

// A bench is one instruction sequence to time and what portlab read for it.
type bench struct {
	Name   string `json:"name"`
	Mode   string `json:"mode,omitempty"`
	Source string `json:"-"`
	ATT    bool   `json:"-"`
	Copies int    `json:"copies"`
	Reset  bool   `json:"-"` // kernels: pointers go back to their start every iteration
	// Scratch are registers the snippet's key sets to the scratch buffer
	// ("RSI=scratch": string forms, xlatb), which no operand names.
	Scratch []int   `json:"-"`
	Portlab float64 `json:"portlab"`
	// Filled in by the run.
	Values []float64 `json:"xcheck_processes,omitempty"`
	XCheck float64   `json:"xcheck"`
	Spread float64   `json:"xcheck_spread_percent"` // (max - min) / median over the processes
	Diff   float64   `json:"diff_percent"`          // portlab against xcheck
	Err    string    `json:"error,omitempty"`
	// Kernels: the second length's value in each process, how many
	// processes took it (their shorter pair off the line of the other
	// three functions) and in how many the lengths disagreed with no
	// function alone to blame (the shorter pair's value kept).
	Longer     []float64 `json:"xcheck_longer_processes,omitempty"`
	TookLonger int       `json:"processes_took_longer,omitempty"`
	Apart      int       `json:"processes_lengths_apart,omitempty"`
}

type options struct {
	processes, batches, sample, cpu int
	out                             string
	keep                            string
}

func main() {
	if len(os.Args) < 2 {
		usage()
	}
	cmd := os.Args[1]
	fs := flag.NewFlagSet("xcheck "+cmd, flag.ExitOnError)
	var o options
	fs.IntVar(&o.processes, "processes", 7, "processes to run the harness in (the median of their values is kept)")
	fs.IntVar(&o.batches, "batches", 0, "back-to-back batches per benchmark and process (the minimum of each timing is kept; default 300 for forms, 3000 for kernels)")
	fs.IntVar(&o.sample, "sample", 200, "forms: at most this many rows, spread evenly over the file (0: all)")
	fs.IntVar(&o.cpu, "cpu", runtime.NumCPU()-1, "CPU to pin the harness to (portlab's default: the last one)")
	fs.StringVar(&o.out, "o", "", "also write the report as JSON to this file")
	fs.StringVar(&o.keep, "keep", "", "build the harness in this directory and keep it (default: a temporary one)")
	fs.Parse(os.Args[2:])
	if o.batches <= 0 {
		o.batches = defaultBatches[cmd]
	}
	var bs []*bench
	var err error
	switch cmd {
	case "forms":
		if fs.NArg() != 1 {
			usage()
		}
		bs, err = readSweep(fs.Arg(0), o.sample)
	case "kernels":
		if fs.NArg() < 2 {
			usage()
		}
		bs, err = readKernels(fs.Arg(0), fs.Args()[1:])
	case "mixes":
		if fs.NArg() != 1 {
			usage()
		}
		bs, err = readMixes(fs.Arg(0), o.sample)
	default:
		usage()
	}
	if err == nil && len(bs) == 0 {
		err = errors.New("nothing to time: no rows with a measured value")
	}
	if err == nil {
		err = run(bs, o, os.Stderr)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "xcheck:", err)
		os.Exit(1)
	}
	rep := summarize(bs, strings.Join(append([]string{"go run ./tools/xcheck"}, os.Args[1:]...), " "))
	rep.print(os.Stdout)
	if o.out != "" {
		if err := writeJSON(o.out, rep); err != nil {
			fmt.Fprintln(os.Stderr, "xcheck:", err)
			os.Exit(1)
		}
	}
}

// defaultBatches are the batches per benchmark and process by mode.
// Kernels take ten times the forms' 300: on the Emerald Rapids guest with
// its neighbour busy (2026-11-27) 300 batches (a few milliseconds a
// benchmark) fell inside one burst of the neighbour in most processes,
// which then spread by a median 4.39 % (12 of 69 kernels within 1 %);
// 3000 spread by 0.54 % (40 of 69), a minute for the 69 kernels.
var defaultBatches = map[string]int{"forms": 300, "mixes": 300, "kernels": 3000}

func usage() {
	fmt.Fprintln(os.Stderr, `usage: go run ./tools/xcheck forms [flags] RESULTS.yaml
       go run ./tools/xcheck mixes [flags] RESULTS.yaml
       go run ./tools/xcheck kernels [flags] VALIDATE.json KERNEL.s...
flags (after the mode): -processes 7 -batches 300|3000 -sample 200 -cpu N -o REPORT.json -keep DIR`)
	os.Exit(2)
}

// sweepRow is what xcheck reads of a portlab bench result (one YAML document).
type sweepRow struct {
	Mode string `yaml:"mode"`
	Key  struct {
		RegisterInitialValues []string `yaml:"register_initial_values"`
	} `yaml:"key"`
	Error        string `yaml:"error"`
	Measurements []struct {
		Key        string  `yaml:"key"`
		PerSnippet float64 `yaml:"per_snippet_value"`
	} `yaml:"measurements"`
	Portlab struct {
		Form      string `yaml:"form"`
		Operands  string `yaml:"operands"`
		Kind      string `yaml:"kind"`
		Source    string `yaml:"source"`
		Syntax    string `yaml:"syntax"`
		Copies    int    `yaml:"copies"`
		Converged *bool  `yaml:"converged"`
		Mix       []struct {
			Form  string `yaml:"form"`
			Count int    `yaml:"count"`
		} `yaml:"mix"`
		// Subtracted is what portlab took off the snippet's cycles for a
		// helper that closes the chain (its value is the form's alone).
		Subtracted float64 `yaml:"subtracted"`
	} `yaml:"portlab"`
}

// readSweep reads the rows of a sweep that have a source and a converged
// value, and keeps at most sample of them, spread evenly over the file.
func readSweep(path string, sample int) ([]*bench, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	dec := yaml.NewDecoder(bufio.NewReaderSize(f, 1<<20))
	var all []*bench
	seen := map[string]bool{}
	for doc := 1; ; doc++ {
		var r sweepRow
		if err := dec.Decode(&r); err == io.EOF {
			break
		} else if err != nil {
			return nil, fmt.Errorf("%s: document %d: %v", path, doc, err)
		}
		p := r.Portlab
		if r.Error != "" || p.Source == "" || len(r.Measurements) == 0 || (p.Converged != nil && !*p.Converged) || len(p.Mix) > 0 {
			continue
		}
		if r.Mode != "latency" && r.Mode != "inverse_throughput" {
			continue
		}
		name := fmt.Sprintf("%s | %s", p.Form, r.Mode)
		if p.Form == "" {
			name = fmt.Sprintf("%s | %s", firstLine(p.Source), r.Mode)
		}
		if p.Operands != "" {
			name += " | " + p.Operands
		}
		for seen[name] {
			name += "'"
		}
		seen[name] = true
		b := &bench{Name: name, Mode: r.Mode, Source: p.Source, ATT: p.Syntax == "att",
			Copies: max(p.Copies, 1), Portlab: r.Measurements[0].PerSnippet + p.Subtracted}
		for _, v := range r.Key.RegisterInitialValues {
			if reg, val, ok := strings.Cut(v, "="); ok && val == "scratch" {
				if n := gpr(reg); n >= 0 {
					b.Scratch = append(b.Scratch, n)
				}
			}
		}
		all = append(all, b)
	}
	return spread(all, sample), nil
}

// readMixes reads the random mixes of a sweep (kind random-mix, the
// validation draws of characterize and bench --mode random-mixes), one
// row per mix named by its parts as portlab model eval names them
// ("12*vpavgw ymm, ymm, ymm + 24*vpaddb ymm, ymm, ymm"), with portlab's
// fastest converged measurement of it (the fastest of all where none
// converged), and keeps at most sample of them, spread evenly.
func readMixes(path string, sample int) ([]*bench, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	dec := yaml.NewDecoder(bufio.NewReaderSize(f, 1<<20))
	byName := map[string]*bench{}
	conv := map[string]bool{}
	var order []string
	for doc := 1; ; doc++ {
		var r sweepRow
		if err := dec.Decode(&r); err == io.EOF {
			break
		} else if err != nil {
			return nil, fmt.Errorf("%s: document %d: %v", path, doc, err)
		}
		p := r.Portlab
		if p.Kind != "random-mix" || r.Error != "" || p.Source == "" || len(r.Measurements) == 0 || len(p.Mix) == 0 {
			continue
		}
		var parts []string
		for _, m := range p.Mix {
			parts = append(parts, fmt.Sprintf("%d*%s", m.Count, m.Form))
		}
		name := strings.Join(parts, " + ")
		v := r.Measurements[0].PerSnippet
		c := p.Converged == nil || *p.Converged
		old := byName[name]
		if old == nil {
			order = append(order, name)
		} else if (conv[name] && !c) || (conv[name] == c && old.Portlab <= v) {
			continue
		}
		b := &bench{Name: name, Mode: r.Mode, Source: p.Source, ATT: p.Syntax == "att", Copies: max(p.Copies, 1), Portlab: v}
		for _, rv := range r.Key.RegisterInitialValues {
			if reg, val, ok := strings.Cut(rv, "="); ok && val == "scratch" {
				if n := gpr(reg); n >= 0 {
					b.Scratch = append(b.Scratch, n)
				}
			}
		}
		byName[name], conv[name] = b, c
	}
	var all []*bench
	for _, n := range order {
		all = append(all, byName[n])
	}
	return spread(all, sample), nil
}

// spread returns at most n of bs (all when n is 0 or more than there
// are), spread evenly over them.
func spread(bs []*bench, n int) []*bench {
	if n <= 0 || len(bs) <= n {
		return bs
	}
	picked := make([]*bench, 0, n)
	for i := range n {
		picked = append(picked, bs[i*len(bs)/n])
	}
	return picked
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	return l
}

// readKernels reads portlab validate's JSON report and the kernel files
// whose measured cycles it holds.
func readKernels(report string, files []string) ([]*bench, error) {
	data, err := os.ReadFile(report)
	if err != nil {
		return nil, err
	}
	var rep struct {
		Kernels []struct {
			Kernel   string   `json:"kernel"`
			Measured *float64 `json:"measured_cycles"`
		} `json:"kernels"`
	}
	if err := json.Unmarshal(data, &rep); err != nil {
		return nil, fmt.Errorf("%s: %v", report, err)
	}
	measured := map[string]float64{}
	for _, k := range rep.Kernels {
		if k.Measured != nil {
			measured[k.Kernel] = *k.Measured
		}
	}
	var out []*bench
	for _, path := range files {
		name, body, att, err := readKernel(path)
		if err != nil {
			return nil, err
		}
		v, ok := measured[name]
		if !ok {
			continue // not measured by portlab on this host (a feature missing)
		}
		n := countInstructions(body)
		out = append(out, &bench{Name: name, Source: body, ATT: att, Copies: max(1, (128+n-1)/n), Reset: true, Portlab: v})
	}
	return out, nil
}

// readKernel returns a kernel file's name, its body between the
// LLVM-MCA-BEGIN and LLVM-MCA-END markers, and whether it is AT&T syntax.
func readKernel(path string) (name, body string, att bool, err error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return "", "", false, err
	}
	att = true
	in := false
	var b strings.Builder
	for i, line := range strings.Split(string(data), "\n") {
		t := strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(t, ".intel_syntax"):
			att = false
		case strings.HasPrefix(t, "# LLVM-MCA-BEGIN"):
			name, in = strings.TrimSpace(strings.TrimPrefix(t, "# LLVM-MCA-BEGIN")), true
		case strings.HasPrefix(t, "# LLVM-MCA-END"):
			in = false
		case in:
			b.WriteString(line + "\n")
		case t != "" && !strings.HasPrefix(t, "#"):
			return "", "", false, fmt.Errorf("%s:%d:1: code outside the LLVM-MCA-BEGIN/END region", path, i+1)
		}
	}
	if name == "" || b.Len() == 0 {
		return "", "", false, fmt.Errorf("%s:1:1: no LLVM-MCA-BEGIN NAME region", path)
	}
	return name, b.String(), att, nil
}

// instructionLines returns the lines of src that are instructions: no
// comments, labels or directives.
func instructionLines(src string) []string {
	var out []string
	for _, l := range strings.Split(src, "\n") {
		if i := strings.IndexByte(l, '#'); i >= 0 {
			l = l[:i]
		}
		l = strings.TrimSpace(l)
		for {
			i := strings.IndexByte(l, ':')
			if i < 0 || strings.ContainsAny(l[:i], " \t[(,") {
				break
			}
			l = strings.TrimSpace(l[i+1:]) // a label
		}
		if l == "" || strings.HasPrefix(l, ".") {
			continue
		}
		out = append(out, l)
	}
	return out
}

func countInstructions(src string) int { return max(1, len(instructionLines(src))) }

// Registers: the 64-bit name of every general-register spelling.
var gprNames = []string{"rax", "rcx", "rdx", "rbx", "rsp", "rbp", "rsi", "rdi", "r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15"}

var gprAlias = func() map[string]int {
	m := map[string]int{}
	legacy := [][]string{{"eax", "ax", "al", "ah"}, {"ecx", "cx", "cl", "ch"}, {"edx", "dx", "dl", "dh"}, {"ebx", "bx", "bl", "bh"},
		{"esp", "sp", "spl"}, {"ebp", "bp", "bpl"}, {"esi", "si", "sil"}, {"edi", "di", "dil"}}
	for i, n := range gprNames {
		m[n] = i
		if i < 8 {
			for _, a := range legacy[i] {
				m[a] = i
			}
		} else {
			for _, suf := range []string{"d", "w", "b"} {
				m[n+suf] = i
			}
		}
	}
	return m
}()

var wordRe = regexp.MustCompile(`[a-z][a-z0-9]*`)

// gpr returns the register number a word names, or -1.
func gpr(word string) int {
	if n, ok := gprAlias[strings.ToLower(strings.TrimPrefix(word, "%"))]; ok {
		return n
	}
	return -1
}

var (
	intelMem = regexp.MustCompile(`\[([^\]]*)\]`)
	attMem   = regexp.MustCompile(`\(\s*(%[a-z0-9]+)?\s*(?:,\s*(%[a-z0-9]+)\s*)?(?:,\s*\d+\s*)?\)`)
)

// addressRegisters returns the base and index registers of the memory
// operands in the lines (register numbers).
func addressRegisters(lines []string, att bool) (bases, indexes map[int]bool) {
	bases, indexes = map[int]bool{}, map[int]bool{}
	for _, l := range lines {
		l = strings.ToLower(l)
		if att {
			for _, m := range attMem.FindAllStringSubmatch(l, -1) {
				if r := gpr(m[1]); r >= 0 {
					bases[r] = true
				}
				if r := gpr(m[2]); r >= 0 {
					indexes[r] = true
				}
			}
			continue
		}
		for _, m := range intelMem.FindAllStringSubmatch(l, -1) {
			base := false
			for _, term := range strings.FieldsFunc(m[1], func(c rune) bool { return c == '+' || c == '-' }) {
				r := -1
				for _, w := range wordRe.FindAllString(term, -1) {
					if r = gpr(w); r >= 0 {
						break
					}
				}
				if r < 0 {
					continue
				}
				if strings.Contains(term, "*") || base {
					indexes[r] = true
					continue
				}
				bases[r], base = true, true
			}
		}
	}
	return bases, indexes
}

// mnemonic returns an instruction line's mnemonic, after prefixes.
func mnemonic(line string) string {
	for _, f := range strings.Fields(strings.ToLower(line)) {
		switch {
		case strings.HasPrefix(f, "{"), f == "lock", f == "rep", f == "repe", f == "repz", f == "repne", f == "repnz", f == "data16", f == "rex", f == "rex.w":
			continue
		}
		return strings.TrimRight(f, ",")
	}
	return ""
}

// chaseRegisters returns the registers a mov loads from an address based
// on themselves (mov rax, [rax]: a pointer chase).
func chaseRegisters(lines []string, att bool) []int {
	var out []int
	for _, l := range lines {
		dst, src, ok := movOperands(l, att)
		if !ok || !strings.ContainsAny(src, "[(") {
			continue
		}
		r := gpr(strings.TrimSpace(dst))
		if bases, _ := addressRegisters([]string{src}, att); r >= 0 && bases[r] && !slices.Contains(out, r) {
			out = append(out, r)
		}
	}
	return out
}

// movOperands splits a mov's operands into destination and source.
func movOperands(l string, att bool) (dst, src string, ok bool) {
	m := mnemonic(l)
	if !strings.HasPrefix(m, "mov") {
		return "", "", false
	}
	ops := strings.TrimSpace(l[strings.Index(strings.ToLower(l), m)+len(m):])
	if att {
		i := strings.LastIndex(ops, ",")
		if i < 0 {
			return "", "", false
		}
		return strings.TrimSpace(ops[i+1:]), ops[:i], true
	}
	first, rest, ok := strings.Cut(ops, ",")
	return strings.TrimSpace(first), rest, ok
}

// resetRegisters: the kernels' pointers that go back to their start every
// loop iteration — the address registers of real accesses (not lea, not
// nop), except those a mov loads from memory (an index chain through
// memory: a reset would cut it).
func resetRegisters(lines []string, att bool) []int {
	var access []string
	loaded := map[int]bool{}
	for _, l := range lines {
		m := mnemonic(l)
		if strings.HasPrefix(m, "lea") || strings.HasPrefix(m, "nop") {
			continue
		}
		access = append(access, l)
		if dst, src, ok := movOperands(l, att); ok && strings.ContainsAny(src, "[(") {
			if r := gpr(dst); r >= 0 {
				loaded[r] = true
			}
		}
	}
	bases, indexes := addressRegisters(access, att)
	var out []int
	for r := 0; r < 16; r++ {
		if (bases[r] || indexes[r]) && !loaded[r] && r != 4 {
			out = append(out, r)
		}
	}
	return out
}

// hostFlags reads the CPU feature flags of /proc/cpuinfo.
func hostFlags() map[string]bool {
	out := map[string]bool{}
	data, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return out
	}
	for _, l := range strings.Split(string(data), "\n") {
		if k, v, ok := strings.Cut(l, ":"); ok && strings.TrimSpace(k) == "flags" {
			for _, f := range strings.Fields(v) {
				out[f] = true
			}
			return out
		}
	}
	return out
}

var (
	zmmRe = regexp.MustCompile(`\bzmm\d|\b[xy]mm(1[6-9]|2\d|3[01])\b|\bk[1-7]\b|\{1to\d+\}`)
	ymmRe = regexp.MustCompile(`\bymm\d`)
	mmxRe = regexp.MustCompile(`\bmm[0-7]\b`)
	// extRegRe[r] matches any spelling of r8-r15 (r12, r12d, r12w, r12b):
	// the loop counter is one the body does not name.
	extRegRe = func() map[int]*regexp.Regexp {
		m := map[int]*regexp.Regexp{}
		for r := 8; r < 16; r++ {
			m[r] = regexp.MustCompile(`\b` + gprNames[r] + `[dwb]?\b`)
		}
		return m
	}()
	divRe = regexp.MustCompile(`^i?div[bwlq]?$`)
)

// fills returns the scratch fill and vector pattern a body needs (the
// runtime's struct bench): portlab's generator sets the same ones. Fill 1:
// bytes 0x13 under a memory divisor; 2: MXCSR images under ldmxcsr. Pattern
// 3: bytes 0xff for maskmov's mask (1.0 would mask every element off);
// else 1.0 as double (a mnemonic ending in pd/sd), half (v...ph/sh) or
// float.
func fills(lines []string) (fill, pattern int) {
	for _, l := range lines {
		switch m := mnemonic(l); {
		case divRe.MatchString(m) && strings.ContainsAny(l, "[("):
			fill = 1
		case m == "ldmxcsr" || m == "vldmxcsr":
			fill = 2
		}
	}
	for _, l := range lines {
		switch m := mnemonic(l); {
		case strings.Contains(m, "maskmov"):
			return fill, 3
		case pattern != 1 && (strings.HasSuffix(m, "pd") || strings.HasSuffix(m, "sd")):
			pattern = 1
		case pattern == 0 && strings.HasPrefix(m, "v") && (strings.HasSuffix(m, "ph") || strings.HasSuffix(m, "sh")):
			pattern = 2
		}
	}
	return fill, pattern
}

// longerCopies is a kernel's second length: half as many copies again,
// at least one more.
func longerCopies(n int) int { return max(n+1, (3*n+1)/2) }

// scratchAddr is where the runtime maps its scratch buffer (XC_SCRATCH in
// runtime.c): a fixed address, so that the values pointer resets load are
// known when bench.S is written.
const scratchAddr = 0x200000000000

// resetTo is a register a kernel's loop sets back to its start value.
type resetTo struct {
	reg   int
	value uint64
}

// Context offsets (struct ctx in runtime.c).
const (
	ctxGPR   = 0
	ctxVec   = 128
	ctxMask  = 128 + 32*64
	ctxMXCSR = ctxMask + 64
)

// generate writes bench.S: the calibration chain and, per benchmark, its
// functions at N and 2N copies and its row in the table the runtime reads.
func generate(bs []*bench, flags map[string]bool) string {
	var b strings.Builder
	w := func(format string, args ...any) { fmt.Fprintf(&b, format+"\n", args...) }
	w(".intel_syntax noprefix")
	w(".text")
	const calCopies = 256
	calBody := "add rax, rcx"
	fn(w, "xc_cal_n", "xc_cal_n_loop", calBody, false, calCopies, nil, "", -1, flags, false)
	fn(w, "xc_cal_n2", "xc_cal_n2_loop", calBody, false, 2*calCopies, nil, "", -1, flags, false)
	var table []string
	for i, bn := range bs {
		lines := instructionLines(bn.Source)
		bases, indexes := addressRegisters(lines, bn.ATT)
		if slices.ContainsFunc(lines, func(l string) bool { m := mnemonic(l); return m == "maskmovq" || strings.HasSuffix(m, "maskmovdqu") }) {
			bases[7] = true // maskmov stores to [rdi], implicitly
		}
		for _, r := range bn.Scratch {
			bases[r] = true // implicit pointers (string forms, xlatb): the key says which
		}
		var baseMask, zeroMask uint64 = 0, 1 << 2 // rdx: the high half of dividends
		offs := make([]int, 16)
		slot := 0
		for _, r := range sortedByName(bases) {
			if r == 4 {
				continue
			}
			baseMask |= 1 << r
			offs[r] = 64<<10 + slot*(8<<10) + slot*256
			slot++
		}
		for r := range indexes {
			if !bases[r] {
				zeroMask |= 1 << r
			}
		}
		// A pointer chase (mov r, [r...]): the register starts at the
		// buffer's first word and every word holds its own address.
		self := 0
		for _, r := range chaseRegisters(lines, bn.ATT) {
			offs[r], self = 0, 1
		}
		// Kernels' pointers go back to their start every iteration through
		// a chain of two loads, as the kernel set-up rules say
		// (testdata/kernels/README.md): a pointer to the benchmark's
		// reset table, then the value. How soon the next iteration's
		// addresses are known moves store-bound streams by up to 18 %
		// (docs/method.md, "Pointer resets").
		var reset []resetTo
		if bn.Reset {
			for _, r := range resetRegisters(lines, bn.ATT) {
				v := uint64(0)
				if baseMask>>r&1 == 1 {
					v = scratchAddr + uint64(offs[r])
				}
				reset = append(reset, resetTo{r, v})
			}
		}
		low := strings.ToLower(strings.Join(lines, "\n"))
		counter := -1
		for _, r := range []int{15, 14, 13, 12, 11, 10, 9, 8} {
			if !extRegRe[r].MatchString(low) {
				counter = r
				break
			}
		}
		w("# benchmark %d: %s", i, strings.ReplaceAll(bn.Name, "\n", " "))
		if len(reset) > 0 {
			// In .data, at the same place modulo 4 KiB in every process
			// (unlike the stack, whose address varies).
			w(".pushsection .data")
			w(".p2align 6")
			w("xr%d_ptr: .quad xr%d_values", i, i)
			w("xr%d_values:", i)
			for _, r := range reset {
				w(".quad %d", r.value)
			}
			w(".popsection")
		}
		resets := fmt.Sprintf("xr%d", i)
		fn(w, fmt.Sprintf("xb%d_n", i), fmt.Sprintf("xb%d_n_loop", i), bn.Source, bn.ATT, bn.Copies, reset, resets, counter, flags, true)
		fn(w, fmt.Sprintf("xb%d_n2", i), fmt.Sprintf("xb%d_n2_loop", i), bn.Source, bn.ATT, 2*bn.Copies, reset, resets, counter, flags, true)
		// Kernels: a second pair at half as many copies again, so that a
		// function that settled into another steady state than the other
		// three shows (runtime.c: the line its pair does not lie on).
		longer := "0, 0, 0"
		if bn.Reset {
			lc := longerCopies(bn.Copies)
			fn(w, fmt.Sprintf("xb%d_l", i), fmt.Sprintf("xb%d_l_loop", i), bn.Source, bn.ATT, lc, reset, resets, counter, flags, true)
			fn(w, fmt.Sprintf("xb%d_l2", i), fmt.Sprintf("xb%d_l2_loop", i), bn.Source, bn.ATT, 2*lc, reset, resets, counter, flags, true)
			longer = fmt.Sprintf("xb%d_l, xb%d_l2, %d", i, i, lc)
		}
		var offText []string
		for _, o := range offs {
			offText = append(offText, strconv.Itoa(o))
		}
		fill, pattern := fills(lines)
		table = append(table, fmt.Sprintf(".quad xs%d, xb%d_n, xb%d_n2, %d, %d, %s, %d, %d, %d, %d, %s", i, i, i, bn.Copies, baseMask, strings.Join(offText, ", "), zeroMask, pattern, self, fill, longer))
	}
	w(".section .rodata")
	for i, bn := range bs {
		w("xs%d: .asciz %s", i, strconv.Quote(bn.Name))
	}
	w(".data")
	w(".p2align 3")
	w(".globl xc_benches, xc_count, xc_cal_copies")
	w("xc_count: .quad %d", len(bs))
	w("xc_cal_copies: .quad %d", calCopies)
	w("xc_benches:")
	for _, t := range table {
		w("%s", t)
	}
	w(".section .note.GNU-stack,\"\",@progbits")
	return b.String()
}

func sortedByName(m map[int]bool) []int {
	var rs []int
	for r := range m {
		rs = append(rs, r)
	}
	sort.Slice(rs, func(i, j int) bool { return gprNames[rs[i]] < gprNames[rs[j]] })
	return rs
}

// fn writes one timed function: uint64_t f(struct ctx *c, uint64_t loops)
// returns the TSC ticks of loops iterations of copies bodies. It loads the
// machine state from the context before the loop (inside the timed region:
// the same cost at N and 2N copies cancels in the difference), counts the
// loop in counter (a register the body does not name) or, where the body
// names all of r8-r15, in a stack slot.
func fn(w func(string, ...any), name, loop, body string, att bool, copies int, reset []resetTo, table string, counter int, flags map[string]bool, state bool) {
	low := strings.ToLower(body)
	width := 16
	switch {
	case zmmRe.MatchString(low) && flags["avx512f"]:
		width = 64
	case ymmRe.MatchString(low) && flags["avx"]:
		width = 32
	}
	mmx := mmxRe.MatchString(low)
	w(".globl %s", name)
	w(".p2align 6")
	w("%s:", name)
	for _, r := range []string{"rbx", "rbp", "r12", "r13", "r14", "r15"} {
		w("push %s", r)
	}
	// [rsp]: loops left, [rsp+8]: start ticks, [rsp+16]: the context.
	w("sub rsp, 24")
	w("mov [rsp], rsi")
	w("mov [rsp+16], rdi")
	w("ldmxcsr [rdi+%d]", ctxMXCSR)
	if state {
		if flags["avx"] {
			w("vzeroupper")
		}
		regs := 16
		if width == 64 {
			regs = 32
		}
		for i := 0; i < regs; i++ {
			switch width {
			case 64:
				w("vmovdqu64 zmm%d, [rdi+%d]", i, ctxVec+64*i)
			case 32:
				w("vmovdqu ymm%d, [rdi+%d]", i, ctxVec+64*i)
			default:
				w("movdqu xmm%d, [rdi+%d]", i, ctxVec+64*i)
			}
		}
		if mmx {
			w("emms")
			for i := 0; i < 8; i++ {
				w("movq mm%d, [rdi+%d]", i, ctxVec+64*i)
			}
		}
		if flags["avx512f"] {
			for i := 1; i < 8; i++ {
				if flags["avx512bw"] {
					w("kmovq k%d, [rdi+%d]", i, ctxMask+8*i)
				} else {
					w("kmovw k%d, [rdi+%d]", i, ctxMask+8*i)
				}
			}
		}
	}
	w("lfence")
	w("rdtsc")
	w("shl rdx, 32")
	w("or rax, rdx")
	w("mov [rsp+8], rax")
	w("mov rax, [rsp+16]")
	for r := 1; r < 16; r++ {
		if r == 4 || r == counter {
			continue
		}
		w("mov %s, [rax+%d]", gprNames[r], ctxGPR+8*r)
	}
	if counter >= 0 {
		w("mov %s, [rsp]", gprNames[counter])
	}
	w("mov rax, [rax]")
	w(".p2align 6")
	w("%s:", loop)
	for k, r := range reset {
		// Two dependent loads (about ten cycles), flags untouched.
		w("mov %s, [rip+%s_ptr]", gprNames[r.reg], table)
		w("mov %s, [%s+%d]", gprNames[r.reg], gprNames[r.reg], 8*k)
	}
	if att {
		w(".att_syntax prefix")
	}
	w(".rept %d", copies)
	w("%s", strings.TrimRight(body, "\n"))
	w(".endr")
	w(".intel_syntax noprefix")
	if counter >= 0 {
		w("dec %s", gprNames[counter])
	} else {
		w("dec qword ptr [rsp]")
	}
	w("jnz %s", loop)
	w("lfence")
	w("rdtsc")
	w("shl rdx, 32")
	w("or rax, rdx")
	w("sub rax, [rsp+8]")
	if mmx {
		w("emms")
	}
	if flags["avx"] {
		w("vzeroupper")
	}
	w("add rsp, 24")
	for _, r := range []string{"r15", "r14", "r13", "r12", "rbp", "rbx"} {
		w("pop %s", r)
	}
	w("ret")
}

var asmErr = regexp.MustCompile(`bench\.S:(\d+): (?:Error|Fatal error): (.*)`)

// build writes and compiles the harness in dir. Benchmarks whose bodies
// the assembler rejects get the assembler's message as their error and are
// left out; the rest are built again.
func build(dir string, bs []*bench, flags map[string]bool, log io.Writer) ([]*bench, error) {
	if err := os.WriteFile(filepath.Join(dir, "runtime.c"), []byte(runtimeC), 0o644); err != nil {
		return nil, err
	}
	live := slices.Clone(bs)
	for attempt := 0; attempt < 5; attempt++ {
		src := generate(live, flags)
		if err := os.WriteFile(filepath.Join(dir, "bench.S"), []byte(src), 0o644); err != nil {
			return nil, err
		}
		cmd := exec.Command("gcc", "-O2", "-o", "xcheck", "runtime.c", "bench.S", "-lm")
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		if err == nil {
			return live, nil
		}
		// Map the assembler's line numbers back to benchmarks.
		lines := strings.Split(src, "\n")
		bad := map[int]string{}
		for _, m := range asmErr.FindAllStringSubmatch(string(out), -1) {
			n, _ := strconv.Atoi(m[1])
			for l := min(n, len(lines)) - 1; l >= 0; l-- {
				var k int
				if _, e := fmt.Sscanf(lines[l], "# benchmark %d:", &k); e == nil {
					if _, ok := bad[k]; !ok {
						bad[k] = m[2]
					}
					break
				}
			}
		}
		if len(bad) == 0 {
			return nil, fmt.Errorf("gcc: %v\n%s", err, out)
		}
		var keep []*bench
		for k, bn := range live {
			if why, ok := bad[k]; ok {
				bn.Err = "does not assemble: " + why
				fmt.Fprintf(log, "xcheck: %s: %s\n", bn.Name, bn.Err)
				continue
			}
			keep = append(keep, bn)
		}
		live = keep
		if len(live) == 0 {
			return nil, errors.New("no benchmark assembles")
		}
	}
	return nil, errors.New("the harness still does not assemble after dropping the benchmarks the assembler named")
}

// run builds the harness and runs it in o.processes processes, one after
// the other, keeping each benchmark's median over them.
func run(bs []*bench, o options, log io.Writer) error {
	if _, err := exec.LookPath("gcc"); err != nil {
		return errors.New("gcc not found: the harness is C and GNU assembly (apt-get install gcc)")
	}
	dir := o.keep
	if dir == "" {
		d, err := os.MkdirTemp("", "xcheck")
		if err != nil {
			return err
		}
		defer os.RemoveAll(d)
		dir = d
	} else if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	live, err := build(dir, bs, hostFlags(), log)
	if err != nil {
		return err
	}
	byName := map[string]*bench{}
	for _, b := range live {
		byName[b.Name] = b
	}
	start := time.Now()
	for p := 0; p < o.processes; p++ {
		cmd := exec.Command(filepath.Join(dir, "xcheck"), "-cpu", strconv.Itoa(o.cpu), "-batches", strconv.Itoa(o.batches))
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			return fmt.Errorf("harness process %d: %v: %s", p+1, err, strings.TrimSpace(stderr.String()))
		}
		for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
			f := strings.Split(line, "\t")
			b := byName[f[0]]
			if b == nil || len(f) < 3 {
				continue
			}
			if f[1] == "error" {
				b.Err = f[2]
				continue
			}
			v, err := strconv.ParseFloat(f[1], 64)
			if err == nil {
				b.Values = append(b.Values, v)
			}
			// Kernels: the second length's value, and which pair gave
			// the value (runtime.c).
			if len(f) >= 6 {
				if l, err := strconv.ParseFloat(f[4], 64); err == nil && l > 0 {
					b.Longer = append(b.Longer, l)
				}
				switch f[5] {
				case "longer":
					b.TookLonger++
				case "apart":
					b.Apart++
				}
			}
		}
		fmt.Fprintf(log, "\rxcheck: process %d of %d done (%v)   ", p+1, o.processes, time.Since(start).Round(time.Second))
	}
	fmt.Fprintln(log)
	for _, b := range live {
		if b.Err != "" || len(b.Values) == 0 {
			if b.Err == "" {
				b.Err = "no value"
			}
			continue
		}
		b.XCheck = median(b.Values)
		b.Spread = 100 * (slices.Max(b.Values) - slices.Min(b.Values)) / b.XCheck
		b.Diff = 100 * (b.Portlab/b.XCheck - 1)
	}
	return nil
}

func median(v []float64) float64 {
	s := slices.Clone(v)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// report is the comparison's outcome.
type report struct {
	Host    string   `json:"host"`
	Brand   string   `json:"brand"`
	Date    string   `json:"date"`
	Command string   `json:"command"`
	Rows    int      `json:"rows"`
	Failed  int      `json:"failed"`
	Within  []within `json:"within"`
	// Steady: the same over the rows xcheck itself repeats within 1 %
	// (its processes' spread): where the independent value is sure.
	Steady     []within `json:"within_where_xcheck_is_steady"`
	SelfSpread struct {
		Median  float64 `json:"median_percent"`
		Within1 int     `json:"within_1_percent"`
	} `json:"xcheck_repeatability"`
	Benches []*bench `json:"benchmarks"`
}

type within struct {
	Percent float64 `json:"percent"`
	Rows    int     `json:"rows"`
}

func summarize(bs []*bench, command string) *report {
	r := &report{Date: time.Now().UTC().Format("2006-01-02"), Command: command, Benches: bs}
	r.Host, r.Brand = hostSignature()
	var ok []*bench
	var spreads []float64
	for _, b := range bs {
		if b.Err != "" {
			r.Failed++
			continue
		}
		ok = append(ok, b)
		spreads = append(spreads, b.Spread)
		if b.Spread <= 1 {
			r.SelfSpread.Within1++
		}
	}
	r.Rows = len(ok)
	for _, p := range []float64{1, 2, 3, 5} {
		n := 0
		for _, b := range ok {
			if math.Abs(b.Diff) <= p {
				n++
			}
		}
		r.Within = append(r.Within, within{p, n})
		n = 0
		for _, b := range ok {
			if b.Spread <= 1 && math.Abs(b.Diff) <= p {
				n++
			}
		}
		r.Steady = append(r.Steady, within{p, n})
	}
	if len(spreads) > 0 {
		r.SelfSpread.Median = median(spreads)
	}
	return r
}

func (r *report) print(out io.Writer) {
	bs := slices.Clone(r.Benches)
	sort.SliceStable(bs, func(i, j int) bool {
		if (bs[i].Err == "") != (bs[j].Err == "") {
			return bs[i].Err == ""
		}
		return math.Abs(bs[i].Diff) > math.Abs(bs[j].Diff)
	})
	fmt.Fprintf(out, "xcheck on %s (%s), %s\n", r.Host, r.Brand, r.Date)
	fmt.Fprintf(out, "%-60s %10s %10s %8s %8s\n", "benchmark (cycles per snippet copy)", "portlab", "xcheck", "diff", "spread")
	for _, b := range bs {
		if b.Err != "" {
			fmt.Fprintf(out, "%-60s %10.4f %10s  %s\n", trim(b.Name, 60), b.Portlab, "-", b.Err)
			continue
		}
		fmt.Fprintf(out, "%-60s %10.4f %10.4f %+7.2f%% %7.2f%%\n", trim(b.Name, 60), b.Portlab, b.XCheck, b.Diff, b.Spread)
	}
	fmt.Fprintf(out, "\n%d rows compared (%d not timed by xcheck)\n", r.Rows, r.Failed)
	for _, w := range r.Within {
		fmt.Fprintf(out, "  portlab within %g %% of xcheck: %d (%.1f %%)\n", w.Percent, w.Rows, pct(w.Rows, r.Rows))
	}
	fmt.Fprintf(out, "  xcheck's own spread over its processes: median %.2f %%, within 1 %% on %d (%.1f %%)\n",
		r.SelfSpread.Median, r.SelfSpread.Within1, pct(r.SelfSpread.Within1, r.Rows))
	for _, w := range r.Steady {
		fmt.Fprintf(out, "  where xcheck is steady, within %g %%: %d of %d (%.1f %%)\n", w.Percent, w.Rows, r.SelfSpread.Within1, pct(w.Rows, r.SelfSpread.Within1))
	}
	fmt.Fprintf(out, "  command: %s\n", r.Command)
}

func pct(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return 100 * float64(a) / float64(b)
}

func trim(s string, n int) string {
	s = strings.ReplaceAll(s, "\n", "; ")
	if len(s) > n {
		return s[:n-1] + "…"
	}
	return s
}

// hostSignature reads vendor-family-model-stepping (hex) and the brand
// from /proc/cpuinfo, in portlab cpu's spelling.
func hostSignature() (sig, brand string) {
	data, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return "unknown", ""
	}
	kv := map[string]string{}
	for _, l := range strings.Split(string(data), "\n") {
		if l == "" {
			break
		}
		if k, v, ok := strings.Cut(l, ":"); ok {
			kv[strings.TrimSpace(k)] = strings.TrimSpace(v)
		}
	}
	hex := func(k string) string {
		n, err := strconv.Atoi(kv[k])
		if err != nil {
			return "?"
		}
		return strconv.FormatInt(int64(n), 16)
	}
	return fmt.Sprintf("%s-%s-%s-%s", kv["vendor_id"], hex("cpu family"), hex("model"), hex("stepping")), kv["model name"]
}

// writeJSON writes v to path atomically (no partial file on failure).
func writeJSON(path string, v any) error {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	return fsutil.WriteFileAtomic(path, append(data, '\n'), 0o644)
}
