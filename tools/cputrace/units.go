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
)

//go:embed harness/units.c
var unitsC string

// The units trace (-units): which units a neighbour takes that portlab's
// integer-add canary does not see, and what the vector and load canaries
// see of it (docs/method.md, "Three throughput canaries"). harness/units.c
// runs chunks of an add chain and seven streams on one CPU; a stream is
// slow in a chunk when its cycles an instruction, against the chunk's own
// chain, are more than slowAbove above its quiet rate (the third
// percentile over the trace).
var unitNames = []string{"add", "por", "ld", "vpand", "ldop", "ld96", "rmw"}

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
	chunks    int
	quiet     map[string]float64
	slow      map[string]float64
	given     map[string][3]float64 // adds; adds and its canary; all three
	givenN    map[string][3]int
	skipped   []string // streams the host could not run
	unitNames []string
}

func analyzeUnits(t *unitsTrace) unitsReport {
	r := unitsReport{quiet: map[string]float64{}, slow: map[string]float64{}, given: map[string][3]float64{}, givenN: map[string][3]int{}}
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
	slow := map[string][]bool{}
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
		n := 0
		for _, x := range cpi {
			slow[name] = append(slow[name], x > q*(1+slowAbove))
			if x > q*(1+slowAbove) {
				n++
			}
		}
		r.slow[name] = float64(n) / float64(len(cpi))
	}
	for name, canary := range unitCanary {
		if slow[name] == nil {
			continue
		}
		var g [3]float64
		var gn [3]int
		for k := range ok {
			clear := [3]bool{!slow["add"][k], !slow["add"][k] && !slow[canary][k], !slow["add"][k] && !slow["por"][k] && !slow["ld"][k]}
			for j := range 3 {
				if clear[j] {
					gn[j]++
					if slow[name][k] {
						g[j]++
					}
				}
			}
		}
		for j := range 3 {
			if gn[j] > 0 {
				g[j] /= float64(gn[j])
			}
		}
		r.given[name], r.givenN[name] = g, gn
	}
	return r
}

func (r unitsReport) write(w io.Writer) {
	fmt.Fprintf(w, "%d chunks with the chain uninterrupted; a stream is slow when more than %.0f %% above its quiet rate\n\n", r.chunks, 100*slowAbove)
	fmt.Fprintf(w, "%-6s %12s %6s %16s %22s %22s\n", "stream", "quiet c/i", "slow", "adds clear", "adds + its canary", "all three canaries")
	for _, name := range r.unitNames {
		line := fmt.Sprintf("%-6s %12.4f %5.1f%%", name, r.quiet[name], 100*r.slow[name])
		if g, ok := r.given[name]; ok {
			n := r.givenN[name]
			line += fmt.Sprintf(" %7.1f%% of %6d %13.1f%% of %6d %13.1f%% of %6d", 100*g[0], n[0], 100*g[1], n[1], 100*g[2], n[2])
		}
		fmt.Fprintln(w, line)
	}
	if len(r.skipped) > 0 {
		fmt.Fprintf(w, "\nnot run on this host: %s\n", strings.Join(r.skipped, ", "))
	}
	fmt.Fprintln(w, "\nadd, por, ld: portlab's three throughput canaries; vpand, ldop, ld96, rmw: snippets they judge (its canary: por for vpand, ld for the others)")
}

// runUnits builds and runs harness/units.c on one CPU for dur.
func runUnits(dur time.Duration, cpu int, out io.Writer) error {
	if dur <= 0 {
		return fmt.Errorf("-duration %v: want a positive duration", dur)
	}
	bin, cleanup, err := buildC("units", unitsC)
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
	fmt.Fprintf(out, "CPU %d, %v\n", cpu, dur)
	analyzeUnits(t).write(out)
	return nil
}
