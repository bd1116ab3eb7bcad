package main

import (
	"bufio"
	_ "embed"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"portlab/hostcpu"
)

//go:embed harness/units.c
var unitsC string

// The units trace (-units): which units a neighbour takes that portlab's
// integer-add canary does not see, and what the vector and load canaries
// see of it (docs/method.md, "Three throughput canaries"). harness/units.c
// runs chunks of an add chain and eight streams on one CPU; a stream is
// slow in a chunk when its cycles an instruction, against the chunk's own
// chain, are more than slowAbove above its quiet rate (the third
// percentile over the trace). The eighth, win, is a window canary: two
// chains of 40 imul r64, r64 that overlap only while the core keeps three
// quarters of its reorder buffer in flight (windowNops). On the Zen 3
// guest it reads one of two levels, about 167 and 270-290 cycles an
// iteration, and the read-modify-write stream's slow level comes with its
// slow one (docs/method.md, "The window canary").
var unitNames = []string{"add", "por", "ld", "vpand", "ldop", "ld96", "rmw", "win"}

// unitCanary is the canary beside the adds that judges each snippet
// stream in portlab (measure.judgedBy).
var unitCanary = map[string]string{"vpand": "por", "ldop": "ld", "ld96": "ld", "rmw": "ld"}

type unitsTrace struct {
	instrs []float64 // the chain's, then each stream's
	chunks [][]float64
}

func parseUnits(r io.Reader) (*unitsTrace, error) {
	t := &unitsTrace{}
	sc := bufio.NewScanner(r)
	line := 0
	want := 1 + len(unitNames)
	for sc.Scan() {
		line++
		f := strings.Fields(sc.Text())
		if line == 1 {
			if len(f) != want+1 || f[0] != "instructions" {
				return nil, fmt.Errorf("units line 1: %q, want instructions and %d counts", sc.Text(), want)
			}
			f = f[1:]
		}
		if len(f) != want {
			return nil, fmt.Errorf("units line %d: %q, want %d numbers", line, sc.Text(), want)
		}
		v := make([]float64, want)
		for i, s := range f {
			x, err := strconv.ParseFloat(s, 64)
			if err != nil || x < 0 {
				return nil, fmt.Errorf("units line %d: %q: not a count", line, s)
			}
			v[i] = x
		}
		if line == 1 {
			t.instrs = v
			continue
		}
		if v[0] <= 0 {
			return nil, fmt.Errorf("units line %d: no chain", line)
		}
		t.chunks = append(t.chunks, v)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(t.chunks) == 0 {
		return nil, errors.New("units: no chunks")
	}
	return t, nil
}

// unitsReport is what a units trace says: per stream its quiet rate and
// slow share over the chunks whose chain ran uninterrupted, and per
// snippet stream its slow share among the chunks where the adds, the
// adds and its canary, and all three canaries ran clear.
type unitsReport struct {
	chunks int
	quiet  map[string]float64
	slow   map[string]float64
	given  map[string][4]float64 // adds; adds and its canary; all three; all three and the window canary
	givenN map[string][4]int
	// level and givenLevel are slow and given at levelAbove: a stream at
	// another level, not a few percent slow.
	level      map[string]float64
	givenLevel map[string][4]float64
	skipped    []string // streams the host could not run
	unitNames  []string
}

func analyzeUnits(t *unitsTrace) unitsReport {
	r := unitsReport{quiet: map[string]float64{}, slow: map[string]float64{}, given: map[string][4]float64{}, givenN: map[string][4]int{},
		level: map[string]float64{}, givenLevel: map[string][4]float64{}}
	minChain := math.Inf(1)
	for _, c := range t.chunks {
		minChain = math.Min(minChain, c[0])
	}
	var ok [][]float64
	for _, c := range t.chunks {
		if c[0] <= minChain*(1+chainAbove) {
			ok = append(ok, c)
		}
	}
	r.chunks = len(ok)
	slow, level := map[string][]bool{}, map[string][]bool{}
	for i, name := range unitNames {
		var cpi []float64
		for _, c := range ok {
			cpi = append(cpi, c[1+i]*t.instrs[0]/c[0]/t.instrs[1+i])
		}
		s := slices.Clone(cpi)
		slices.Sort(s)
		q := s[len(s)*3/100]
		if q <= 0 {
			r.skipped = append(r.skipped, name)
			continue
		}
		r.unitNames = append(r.unitNames, name)
		r.quiet[name] = q
		n, nl := 0, 0
		for _, x := range cpi {
			slow[name] = append(slow[name], x > q*(1+slowAbove))
			level[name] = append(level[name], x > q*(1+levelAbove))
			if x > q*(1+slowAbove) {
				n++
			}
			if x > q*(1+levelAbove) {
				nl++
			}
		}
		r.slow[name] = float64(n) / float64(len(cpi))
		r.level[name] = float64(nl) / float64(len(cpi))
	}
	for name, canary := range unitCanary {
		if slow[name] == nil {
			continue
		}
		var g, gl [4]float64
		var gn [4]int
		for k := range ok {
			all3 := !slow["add"][k] && !slow["por"][k] && !slow["ld"][k]
			clear := [4]bool{!slow["add"][k], !slow["add"][k] && !slow[canary][k], all3, all3 && (level["win"] == nil || !level["win"][k])}
			for j := range 4 {
				if clear[j] {
					gn[j]++
					if slow[name][k] {
						g[j]++
					}
					if level[name][k] {
						gl[j]++
					}
				}
			}
		}
		for j := range 4 {
			if gn[j] > 0 {
				g[j] /= float64(gn[j])
				gl[j] /= float64(gn[j])
			}
		}
		r.given[name], r.givenN[name], r.givenLevel[name] = g, gn, gl
	}
	return r
}

func (r unitsReport) write(w io.Writer) {
	fmt.Fprintf(w, "%d chunks with the chain uninterrupted; a stream is slow when more than %.0f %% above its quiet rate, at another level when more than %.0f %%\n", r.chunks, 100*slowAbove, 100*levelAbove)
	fmt.Fprintf(w, "(a canary clear: not slow; the window canary clear: not at another level)\n\n")
	for _, tab := range []struct {
		title string
		share map[string]float64
		given map[string][4]float64
	}{{"slow", r.slow, r.given}, {"at another level", r.level, r.givenLevel}} {
		fmt.Fprintf(w, "%s:\n%-6s %12s %7s %16s %22s %22s %22s\n", tab.title, "stream", "quiet c/i", "share", "adds clear", "adds + its canary", "all three canaries", "three + window canary")
		for _, name := range r.unitNames {
			line := fmt.Sprintf("%-6s %12.4f %6.1f%%", name, r.quiet[name], 100*tab.share[name])
			if g, ok := tab.given[name]; ok {
				n := r.givenN[name]
				line += fmt.Sprintf(" %7.1f%% of %6d %13.1f%% of %6d %13.1f%% of %6d %13.1f%% of %6d", 100*g[0], n[0], 100*g[1], n[1], 100*g[2], n[2], 100*g[3], n[3])
			}
			fmt.Fprintln(w, line)
		}
		fmt.Fprintln(w)
	}
	if len(r.skipped) > 0 {
		fmt.Fprintf(w, "\nnot run on this host: %s\n", strings.Join(r.skipped, ", "))
	}
	fmt.Fprintln(w, "add, por, ld: portlab's three throughput canaries; vpand, ldop, ld96, rmw: snippets they judge (its canary: por for vpand, ld for the others);")
	fmt.Fprintln(w, "win: the window canary, two imul chains that overlap only with three quarters of the reorder buffer in flight (c/i: cycles an imul)")
}

// robEntries is the reorder buffer of the cores portlab names (entries,
// from the vendors' optimization guides), which sizes the window canary.
var robEntries = map[string]int{
	"znver1": 192, "znver2": 224, "znver3": 256, "znver4": 320, "znver5": 448,
	"haswell": 192, "broadwell": 192, "skylake": 224, "skylake-avx512": 224, "cascadelake": 224, "cooperlake": 224,
	"icelake-client": 352, "icelake-server": 352, "tigerlake": 352,
	"alderlake": 512, "sapphirerapids": 512, "emeraldrapids": 512, "graniterapids": 512,
}

// windowNops is the nops after each of the window canary's two chains of
// 40: the chains overlap when 80 + nops instructions fit in the window,
// three quarters of a reorder buffer of rob entries (256 where the core is
// not in robEntries).
func windowNops(rob int) int {
	if rob <= 0 {
		rob = 256
	}
	return max(3*rob/4-80, 0)
}

// runUnits builds and runs harness/units.c on one CPU for dur.
func runUnits(dur time.Duration, cpu int, out io.Writer) error {
	if dur <= 0 {
		return fmt.Errorf("-duration %v: want a positive duration", dur)
	}
	rob := 0
	if info, err := hostcpu.Detect(); err == nil {
		rob = robEntries[info.Microarch]
	}
	bin, cleanup, err := buildC("units", unitsC, fmt.Sprintf("-DWIN_NOPS=%d", windowNops(rob)))
	if err != nil {
		return err
	}
	defer cleanup()
	cmd, stdout, err := startHarness(bin, strconv.FormatFloat(dur.Seconds(), 'f', 3, 64), strconv.Itoa(cpu))
	if err != nil {
		return err
	}
	t, perr := parseUnits(stdout)
	if err := cmd.Wait(); err != nil {
		return fmt.Errorf("units: %v", err)
	}
	if perr != nil {
		return perr
	}
	robText := fmt.Sprintf("a reorder buffer of %d entries", rob)
	if rob == 0 {
		robText = "a core of unknown reorder buffer, taken as 256 entries"
	}
	fmt.Fprintf(out, "CPU %d, %v; the window canary's chains %d instructions apart (%s)\n", cpu, dur, 40+windowNops(rob), robText)
	analyzeUnits(t).write(out)
	return nil
}
