package main

import (
	"bytes"
	"fmt"
	"math"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"gonum.org/v1/gonum/stat"

	"portlab/jit"
)

// Two CPUs slow in turn: staying on either meets half the windows slow,
// moving after a slow window follows the quiet one (a slow window at each
// turn), and hindsight meets none.
func TestReplayRules(t *testing.T) {
	a := []float64{1, 1, 1, 1, 0, 0, 0, 0}
	b := []float64{0, 0, 0, 0, 1, 1, 1, 1}
	r := replayRules([][]float64{a, b})
	if r.stay[0] != 0.5 || r.stay[1] != 0.5 || r.quietest != 0 {
		t.Errorf("stay %v, quietest %v: want 0.5, 0.5 and 0", r.stay, r.quietest)
	}
	// Starts on the last CPU (b, quiet), moves at window 4 to a (quiet).
	if r.move != 1.0/8 || r.moves != 1 {
		t.Errorf("moving: %.3f slow, %d moves; want 1/8 and 1", r.move, r.moves)
	}
	if c := stat.Correlation(a, b, nil); math.Abs(c+1) > 1e-12 {
		t.Errorf("correlation %v, want -1", c)
	}
}

func TestWindows(t *testing.T) {
	hz := 1e6 // a tick a microsecond
	var in strings.Builder
	fmt.Fprintf(&in, "tsc_hz %.0f\n", hz)
	for i := range 40 { // 40 chunks of 250 us on each CPU: 10 ms
		tsc := 1000 + 250*i
		// CPU 0: streams 10 % slow in the second half; CPU 1: an
		// interrupted chain in every fourth chunk.
		stream := 100.0
		if i >= 20 {
			stream = 110
		}
		fmt.Fprintf(&in, "0 %d 100 %.0f\n", tsc, stream)
		chain := 100
		if i%4 == 0 {
			chain = 200
		}
		fmt.Fprintf(&in, "1 %d %d 100\n", tsc, chain)
	}
	tr, err := parseTrace(strings.NewReader(in.String()))
	if err != nil {
		t.Fatal(err)
	}
	cpus, s := tr.windows(time.Millisecond)
	if len(cpus) != 2 || len(s[0]) != 9 {
		t.Fatalf("cpus %v, %d windows: want 2 CPUs and 9 windows of 1 ms", cpus, len(s[0]))
	}
	if s[0][0] != 0 || s[0][8] != 1 || s[1][0] != 0.25 {
		t.Errorf("shares %v: want CPU 0 quiet then slow, CPU 1 a quarter slow", s)
	}
	for _, bad := range []string{"", "tsc_hz x\n", "tsc_hz 1e9\n0 1 2\n", "tsc_hz 1e9\n0 1 0 5\n"} {
		if _, err := parseTrace(strings.NewReader(bad)); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

// The whole tool on this host, briefly, on one CPU: the trace builds,
// runs and reads back (no figure is asserted: they are the host's).
func TestTraceRuns(t *testing.T) {
	if _, err := exec.LookPath("gcc"); err != nil {
		t.Skip("gcc not installed")
	}
	var out bytes.Buffer
	cpu := jit.DefaultCPU()
	saved := filepath.Join(t.TempDir(), "trace.txt")
	if err := run(300*time.Millisecond, 10*time.Millisecond, fmt.Sprint(cpu), saved, &out); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), fmt.Sprintf("on CPUs [%d]", cpu)) || !strings.Contains(out.String(), "time slow for a measurement") {
		t.Errorf("output:\n%s", out.String())
	}
	var again bytes.Buffer
	if err := replayFile(saved, 10*time.Millisecond, &again); err != nil || again.String() != out.String() {
		t.Errorf("the saved trace reads back as\n%s(%v), want\n%s", again.String(), err, out.String())
	}
	if err := run(time.Second, 0, "", "", &out); err == nil {
		t.Error("a zero window: no error")
	}
	if err := replayFile(filepath.Join(t.TempDir(), "none"), time.Millisecond, &out); err == nil {
		t.Error("a missing trace: no error")
	}
}

// A units trace where a neighbour's vector work slows vpand and the por
// canary in a quarter of the chunks, the adds never: vpand is slow in a
// quarter of the chunks with the adds clear and in none with its canary
// clear as well; an interrupted chain's chunk is left out. In a tenth of
// the chunks the read-modify-writes run at their slow level with every
// canary clear but the window canary: slow given the three canaries
// clear, never given the window canary clear as well.
func TestUnitsReport(t *testing.T) {
	var in strings.Builder
	in.WriteString("instructions 10000 12000 12000 12000 12000 12000 12000 2400 640\n")
	// The chain: 10,000 cycles at 0.8 ticks a cycle; quiet streams at
	// 0.25, 0.25, 1/3, 0.25, 1/3, 1/3 and 0.55 cycles an instruction, the
	// window canary at 2.1 cycles an imul.
	quiet := []float64{0.25, 0.25, 1.0 / 3, 0.25, 1.0 / 3, 1.0 / 3, 0.55, 2.1}
	n := []float64{12000, 12000, 12000, 12000, 12000, 12000, 2400, 640}
	for i := range 200 {
		chain := 8000.0
		if i == 7 {
			chain = 20000 // interrupted
		}
		fmt.Fprintf(&in, "%.0f", chain)
		for k, q := range quiet {
			x := q * n[k] * 0.8
			if i%4 == 1 && (unitNames[k] == "vpand" || unitNames[k] == "por") {
				x *= 1.2
			}
			if i%10 == 2 && (unitNames[k] == "rmw" || unitNames[k] == "win") {
				x *= 1.6
			}
			fmt.Fprintf(&in, " %.0f", x)
		}
		in.WriteString("\n")
	}
	tr, err := parseUnits(strings.NewReader(in.String()))
	if err != nil {
		t.Fatal(err)
	}
	r := analyzeUnits(tr)
	if r.chunks != 199 || math.Abs(r.quiet["rmw"]-0.55) > 1e-3 || math.Abs(r.slow["vpand"]-50.0/199) > 1e-9 || r.slow["add"] != 0 {
		t.Fatalf("report %+v: want 199 chunks, rmw quiet at 0.55, vpand and por slow in 50", r)
	}
	if g := r.given["vpand"]; math.Abs(g[0]-50.0/199) > 1e-9 || g[1] != 0 || g[2] != 0 || g[3] != 0 {
		t.Errorf("vpand slow given the adds, its canary, all three, and the window canary clear: %v; want 50/199, 0, 0, 0", g)
	}
	if g, n := r.given["rmw"], r.givenN["rmw"]; math.Abs(g[2]-20.0/float64(n[2])) > 1e-9 || g[3] != 0 || n[3] != n[2]-20 {
		t.Errorf("rmw slow given all three canaries clear, and the window canary too: %v of %v; want 20 of the first, none of 20 fewer", g, n)
	}
	if g, n := r.givenLevel["rmw"], r.givenN["rmw"]; math.Abs(g[2]-20.0/float64(n[2])) > 1e-9 || g[3] != 0 || math.Abs(r.level["win"]-20.0/199) > 1e-9 {
		t.Errorf("rmw at another level given the canaries %v of %v, the window canary at another level in %.3f; want 20 given all three, none given the window canary, and 20 of 199", g, n, r.level["win"])
	}
	if g := r.givenLevel["vpand"]; g[0] != 0 {
		t.Errorf("vpand 20 %% slow counted at another level: %v", g)
	}
	var out bytes.Buffer
	r.write(&out)
	if !strings.Contains(out.String(), "vpand") || !strings.Contains(out.String(), "199 chunks") {
		t.Errorf("report:\n%s", out.String())
	}
	for _, bad := range []string{"", "instructions 1 2\n", "instructions 10000 12000 12000 12000 12000 12000 12000 2400 640\n0 1 2 3 4 5 6 7 8\n", "instructions 10000 12000 12000 12000 12000 12000 12000 2400 640\n8000 1 x 3 4 5 6 7 8\n", "instructions 10000 12000 12000 12000 12000 12000 12000 2400\n8000 1 2 3 4 5 6 7\n"} {
		if _, err := parseUnits(strings.NewReader(bad)); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

// The units trace builds and runs on this host, briefly (no figure is
// asserted: they are the host's).
func TestUnitsRuns(t *testing.T) {
	if _, err := exec.LookPath("gcc"); err != nil {
		t.Skip("gcc not installed")
	}
	var out bytes.Buffer
	if err := runUnits(200*time.Millisecond, jit.DefaultCPU(), &out); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"chunks with the chain uninterrupted", "add ", "rmw ", "win ", "the window canary's chains", "at another level:"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
	if err := runUnits(0, 0, &out); err == nil {
		t.Error("a zero duration: no error")
	}
}

// A flag the chosen trace would ignore is refused, naming it.
func TestFlagsTheTraceIgnores(t *testing.T) {
	for _, c := range []struct {
		units bool
		set   []string
		bad   string
	}{
		{true, []string{"units", "save"}, "-save"},
		{true, []string{"units", "window"}, "-window"},
		{true, []string{"units", "read"}, "-read"},
		{false, []string{"read", "cpus"}, "-cpus"},
		{false, []string{"read", "save"}, "-save"},
		{false, []string{"read", "duration"}, "-duration"},
	} {
		err := checkFlags(c.units, c.set)
		if err == nil || !strings.HasPrefix(err.Error(), c.bad+" does not apply") {
			t.Errorf("units %v, flags %v: %v, want %s refused", c.units, c.set, err, c.bad)
		}
	}
	for _, c := range []struct {
		units bool
		set   []string
	}{
		{true, []string{"units", "duration", "cpus"}},
		{false, []string{"read", "window"}},
		{false, []string{"duration", "window", "cpus", "save"}},
		{false, nil},
	} {
		if err := checkFlags(c.units, c.set); err != nil {
			t.Errorf("units %v, flags %v: %v", c.units, c.set, err)
		}
	}
}

// The window canary's chains stand three quarters of the reorder buffer
// apart: 192 instructions on Zen 3's 256 entries, 384 on Golden Cove's
// 512, and a core not in the table is taken as 256.
func TestWindowNops(t *testing.T) {
	for _, c := range []struct {
		core string
		want int
	}{{"znver3", 112}, {"graniterapids", 304}, {"znver5", 256}, {"unknown-core", 112}} {
		if got := windowNops(robEntries[c.core]); got != c.want {
			t.Errorf("%s: %d nops, want %d", c.core, got, c.want)
		}
	}
}
