// Command cputrace shows whether a host's CPUs are disturbed together or
// apart, and what measuring on whichever is quiet would gain: the evidence
// behind portlab's moving between CPUs (docs/method.md, "Moving between
// CPUs"). It runs a small C program (harness/trace.c, built with gcc) on every
// CPU at once for a while: chunks of an add chain (the clock) and twelve
// add streams (what a busy SMT sibling slows), about 20 us each. A chunk
// is slow when its streams, against its chain, run more than 3 % slower
// than the fastest streams against the fastest chain, or when its chain
// was interrupted. It prints, per window of time, how often each CPU was
// slow, how the CPUs' slow stretches correlate, and the share of its time
// a measurement would have run slow staying on each CPU, moving to the
// next CPU after a window more than half slow (portlab's rule), and on
// the quieter CPU of every window with hindsight.
//
//	go run ./tools/cputrace [-duration 12s] [-window 7ms] [-cpus 0,1] [-save FILE]
//	go run ./tools/cputrace -read FILE [-window 10ms]
//	go run ./tools/cputrace -units [-duration 4s] [-cpus N]
//
// -units instead runs harness/units.c on one CPU: an add chain and seven
// streams each bound by one kind of unit (portlab's three throughput
// canaries: adds, por xmm, loads of one line; and snippets they judge:
// vpand ymm, a load-op, loads and read-modify-writes over 96 bytes), and a
// window canary (two imul chains that overlap only with three quarters of
// the reorder buffer in flight), and says how often each snippet ran slow,
// or at another level, while the canaries ran clear.
//
// It keeps every CPU it traces busy: run it on an otherwise idle machine,
// never beside a measurement.
package main

import (
	"bufio"
	_ "embed"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"gonum.org/v1/gonum/stat"

	"portlab/jit"
)

//go:embed harness/trace.c
var traceC string

// slowAbove is how much slower than the quiet streams-to-chain ratio a
// chunk's may be (perf.SiblingSlack); chainAbove how much longer than the
// fastest chain a chain may take before the chunk counts as interrupted.
const (
	slowAbove  = 0.03
	chainAbove = 0.30
)

// levelAbove is how much slower than its quiet rate a units stream must
// run to be at another level: the window canary's two levels on the Zen 3
// guest are 60 % apart, the read-modify-writes' 50 %, and each spreads
// by a few percent within a level.
const levelAbove = 0.25

// moveAbove is portlab's rule (measure.MoveAbove): move on after a window
// more than half slow.
const moveAbove = 0.5

type chunk struct {
	tsc           uint64
	chain, stream float64
}

// trace is what trace.c printed: the TSC frequency and each CPU's chunks.
type trace struct {
	hz     float64
	chunks map[int][]chunk
}

func parseTrace(r io.Reader) (*trace, error) {
	t := &trace{chunks: map[int][]chunk{}}
	sc := bufio.NewScanner(r)
	line := 0
	for sc.Scan() {
		line++
		f := strings.Fields(sc.Text())
		if line == 1 {
			if len(f) != 2 || f[0] != "tsc_hz" {
				return nil, fmt.Errorf("trace line 1: %q, want tsc_hz HZ", sc.Text())
			}
			hz, err := strconv.ParseFloat(f[1], 64)
			if err != nil || hz <= 0 {
				return nil, fmt.Errorf("trace line 1: TSC frequency %q", f[1])
			}
			t.hz = hz
			continue
		}
		if len(f) != 4 {
			return nil, fmt.Errorf("trace line %d: %q, want CPU TSC CHAIN STREAM", line, sc.Text())
		}
		cpu, err1 := strconv.Atoi(f[0])
		tsc, err2 := strconv.ParseUint(f[1], 10, 64)
		chain, err3 := strconv.ParseFloat(f[2], 64)
		stream, err4 := strconv.ParseFloat(f[3], 64)
		if err := errors.Join(err1, err2, err3, err4); err != nil || chain <= 0 || stream <= 0 {
			return nil, fmt.Errorf("trace line %d: %q: not a chunk", line, sc.Text())
		}
		t.chunks[cpu] = append(t.chunks[cpu], chunk{tsc, chain, stream})
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if t.hz == 0 || len(t.chunks) == 0 {
		return nil, errors.New("trace: no chunks")
	}
	return t, nil
}

// windows returns the CPUs in order and, per CPU, the share of slow
// chunks in each window of the span all CPUs traced; a window in which a
// CPU ran no chunk at all (its thread was not scheduled) is all slow.
func (t *trace) windows(window time.Duration) ([]int, [][]float64) {
	var cpus []int
	var from, to uint64 = 0, math.MaxUint64
	for c, ch := range t.chunks {
		cpus = append(cpus, c)
		from, to = max(from, ch[0].tsc), min(to, ch[len(ch)-1].tsc)
	}
	slices.Sort(cpus)
	w := uint64(window.Seconds() * t.hz)
	if w == 0 || to <= from {
		return cpus, make([][]float64, len(cpus))
	}
	nw := int((to - from) / w)
	shares := make([][]float64, len(cpus))
	for i, c := range cpus {
		ch := t.chunks[c]
		minChain, minStream := math.Inf(1), math.Inf(1)
		for _, k := range ch {
			minChain, minStream = math.Min(minChain, k.chain), math.Min(minStream, k.stream)
		}
		quiet := minStream / minChain
		slow, all := make([]float64, nw), make([]float64, nw)
		for _, k := range ch {
			if k.tsc < from {
				continue
			}
			b := int((k.tsc - from) / w)
			if b >= nw {
				continue
			}
			all[b]++
			if k.chain > minChain*(1+chainAbove) || k.stream/k.chain > quiet*(1+slowAbove) {
				slow[b]++
			}
		}
		shares[i] = make([]float64, nw)
		for b := range nw {
			shares[i][b] = 1
			if all[b] > 0 {
				shares[i][b] = slow[b] / all[b]
			}
		}
	}
	return cpus, shares
}

// replay is the mean slow share a measurement meets: staying on each CPU,
// moving on after a window above moveAbove (starting on the last CPU, as
// portlab does), and on the quietest CPU of every window.
type replay struct {
	stay           []float64
	move, quietest float64
	moves          int
}

func replayRules(shares [][]float64) replay {
	var r replay
	if len(shares) == 0 || len(shares[0]) == 0 {
		return r
	}
	nw := len(shares[0])
	for _, s := range shares {
		r.stay = append(r.stay, stat.Mean(s, nil))
	}
	cur := len(shares) - 1
	for b := range nw {
		q := 1.0
		for _, s := range shares {
			q = math.Min(q, s[b])
		}
		r.quietest += q / float64(nw)
		r.move += shares[cur][b] / float64(nw)
		if shares[cur][b] > moveAbove {
			cur = (cur + 1) % len(shares)
			r.moves++
		}
	}
	return r
}

func report(w io.Writer, t *trace, window time.Duration) {
	cpus, shares := t.windows(window)
	if len(shares) == 0 || len(shares[0]) == 0 {
		fmt.Fprintln(w, "cputrace: the trace is shorter than one window")
		return
	}
	nw := len(shares[0])
	fmt.Fprintf(w, "%d windows of %v on CPUs %v\n\n", nw, window, cpus)
	fmt.Fprintf(w, "%-5s %9s %11s\n", "CPU", "chunks", "time slow")
	r := replayRules(shares)
	for i, c := range cpus {
		fmt.Fprintf(w, "%-5d %9d %10.1f%%\n", c, len(t.chunks[c]), 100*r.stay[i])
	}
	if len(cpus) > 1 {
		fmt.Fprintln(w)
		for i := range cpus {
			for j := i + 1; j < len(cpus); j++ {
				fmt.Fprintf(w, "correlation of CPUs %d and %d by window: %.2f\n", cpus[i], cpus[j], stat.Correlation(shares[i], shares[j], nil))
			}
		}
	}
	best := slices.Min(r.stay)
	fmt.Fprintf(w, "\ntime slow for a measurement: staying on the best CPU %.1f%%, moving after a window more than half slow %.1f%% (%d moves), on the quietest CPU of every window %.1f%%\n",
		100*best, 100*r.move, r.moves, 100*r.quietest)
}

func main() {
	dur := flag.Duration("duration", 12*time.Second, "how long to trace")
	window := flag.Duration("window", 7*time.Millisecond, "the window of time a slow share is counted over (about a portlab job)")
	cpuList := flag.String("cpus", "", "CPUs to trace, as the kernel lists them (default: every CPU this process may run on)")
	save := flag.String("save", "", "also write the raw trace to this file")
	read := flag.String("read", "", "read a trace written by -save instead of tracing")
	units := flag.Bool("units", false, "trace which units a neighbour takes on one CPU (the first of -cpus) and what portlab's three throughput canaries see of it, instead")
	flag.Parse()
	var set []string
	flag.Visit(func(f *flag.Flag) { set = append(set, f.Name) })
	err := checkFlags(*units, set)
	switch {
	case err != nil:
	case *units:
		err = unitsOn(*dur, *cpuList)
	case *read != "":
		err = replayFile(*read, *window, os.Stdout)
	default:
		err = run(*dur, *window, *cpuList, *save, os.Stdout)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "cputrace:", err)
		os.Exit(1)
	}
}

// checkFlags refuses the flags that the chosen trace would ignore: -units
// traces live with -duration and -cpus alone, -read replays with -window.
func checkFlags(units bool, set []string) error {
	allowed := map[string]bool{"duration": true, "window": true, "cpus": true, "save": true, "read": true}
	what := "the CPU trace"
	switch {
	case units:
		allowed, what = map[string]bool{"units": true, "duration": true, "cpus": true}, "-units"
	case slices.Contains(set, "read"):
		allowed, what = map[string]bool{"read": true, "window": true}, "-read"
	}
	for _, name := range set {
		if !allowed[name] {
			var ok []string
			for n := range allowed {
				ok = append(ok, "-"+n)
			}
			slices.Sort(ok)
			return fmt.Errorf("-%s does not apply to %s (it takes %s)", name, what, strings.Join(ok, ", "))
		}
	}
	return nil
}

// unitsOn runs the units trace on the first CPU of cpuList (default: the
// highest this process may run on, where portlab measures first).
func unitsOn(dur time.Duration, cpuList string) error {
	cpus, err := cpusFrom(cpuList)
	if err != nil {
		return err
	}
	if cpuList == "" {
		slices.Reverse(cpus)
	}
	if len(cpus) == 0 {
		return errors.New("no CPU to trace")
	}
	return runUnits(dur, cpus[0], os.Stdout)
}

// cpusFrom is the -cpus list, or every CPU this process may run on.
func cpusFrom(cpuList string) ([]int, error) {
	if cpuList == "" {
		return jit.AllowedCPUs(), nil
	}
	cpus, err := jit.ParseCPUList(cpuList)
	if err != nil {
		return nil, fmt.Errorf("-cpus: %v", err)
	}
	return cpus, nil
}

// startHarness starts a built harness program, its errors to ours; the
// caller reads its output from the pipe, then waits for cmd.
func startHarness(bin string, args ...string) (cmd *exec.Cmd, stdout io.ReadCloser, err error) {
	cmd = exec.Command(bin, args...)
	cmd.Stderr = os.Stderr
	if stdout, err = cmd.StdoutPipe(); err != nil {
		return nil, nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, nil, err
	}
	return cmd, stdout, nil
}

// buildC compiles a harness program with gcc in a directory of its own;
// cleanup removes it.
func buildC(name, source string, flags ...string) (bin string, cleanup func(), err error) {
	dir, err := os.MkdirTemp("", "cputrace")
	if err != nil {
		return "", nil, err
	}
	cleanup = func() { os.RemoveAll(dir) }
	src := filepath.Join(dir, name+".c")
	bin = filepath.Join(dir, name)
	if err := os.WriteFile(src, []byte(source), 0o644); err != nil {
		cleanup()
		return "", nil, err
	}
	args := append([]string{"-O2"}, flags...)
	if b, err := exec.Command("gcc", append(args, "-o", bin, src)...).CombinedOutput(); err != nil {
		cleanup()
		return "", nil, fmt.Errorf("building %s.c with gcc: %v\n%s", name, err, b)
	}
	return bin, cleanup, nil
}

// replayFile reports on a trace written by -save.
func replayFile(path string, window time.Duration, out io.Writer) error {
	if window <= 0 {
		return fmt.Errorf("-window %v: want a positive duration", window)
	}
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	t, err := parseTrace(f)
	if err != nil {
		return fmt.Errorf("%s: %v", path, err)
	}
	report(out, t, window)
	return nil
}

func run(dur, window time.Duration, cpuList, save string, out io.Writer) error {
	if dur <= 0 || window <= 0 {
		return fmt.Errorf("-duration %v, -window %v: want positive durations", dur, window)
	}
	cpus, err := cpusFrom(cpuList)
	if err != nil {
		return err
	}
	bin, cleanup, err := buildC("trace", traceC, "-pthread")
	if err != nil {
		return err
	}
	defer cleanup()
	args := []string{strconv.FormatFloat(dur.Seconds(), 'f', 3, 64)}
	for _, c := range cpus {
		args = append(args, strconv.Itoa(c))
	}
	cmd, stdout, err := startHarness(bin, args...)
	if err != nil {
		return err
	}
	var raw io.Reader = stdout
	var saved *os.File
	if save != "" {
		if saved, err = os.CreateTemp(filepath.Dir(save), filepath.Base(save)+".*"); err != nil {
			return err
		}
		defer os.Remove(saved.Name())
		defer saved.Close()
		raw = io.TeeReader(stdout, saved)
	}
	t, perr := parseTrace(raw)
	if err := cmd.Wait(); err != nil {
		return fmt.Errorf("trace: %v", err)
	}
	if perr != nil {
		return perr
	}
	if saved != nil {
		// Whole or not at all.
		if err := saved.Close(); err != nil {
			return err
		}
		if err := os.Rename(saved.Name(), save); err != nil {
			return err
		}
	}
	report(out, t, window)
	return nil
}
