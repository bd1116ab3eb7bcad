package measure

import (
	"errors"
	"fmt"
	"io"
	"math"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"portlab/hostcpu"
	"portlab/internal/retry"
	"portlab/jit"
	"portlab/perf"
)

var (
	engineOnce sync.Once
	testEngine *Engine
	testInfo   *hostcpu.Info
	engineErr  error
)

// hostEngine returns the shared engine, or skips when the host cannot
// measure (no GNU as, not amd64).
func hostEngine(t testing.TB) (*Engine, *hostcpu.Info) {
	t.Helper()
	if _, err := exec.LookPath("as"); err != nil {
		t.Skip("GNU as not installed: cannot assemble snippets")
	}
	engineOnce.Do(func() { testEngine, testInfo, engineErr = NewHostEngine(-1) })
	if engineErr != nil {
		t.Fatalf("engine: %v", engineErr)
	}
	return testEngine, testInfo
}

func snippet(t testing.TB, src string) *Snippet {
	t.Helper()
	s, err := ParseSnippet("test.s", src)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// measureWithin measures src and checks the per-instruction median is within
// tol (relative) of want. A run that misses is re-measured after growing
// pauses for up to a minute (retry.Patiently): the host sometimes disturbs
// whole runs for seconds (DESIGN.md), and a disturbance only ever makes a
// value wrong, never right by chance.
func measureWithin(t *testing.T, e *Engine, s *Snippet, o Options, want, tol float64) {
	t.Helper()
	measureBetween(t, e, s, o, want, want, tol)
}

// measureBetween is measureWithin for a value known as a band: the median
// must lie in [lo(1-tol), hi(1+tol)].
func measureBetween(t *testing.T, e *Engine, s *Snippet, o Options, lo, hi, tol float64) {
	t.Helper()
	want := fmt.Sprintf("%.3f", lo)
	if hi != lo {
		want += fmt.Sprintf("-%.3f", hi)
	}
	var got []float64
	ok := retry.Patiently(8, func(try int) bool {
		m := e.Measure(s, o)
		if m.Err != nil {
			t.Fatalf("%q: %v", s.Source, m.Err)
		}
		v := m.PerInstr.Median
		got = append(got, v)
		if v < lo*(1-tol) || v > hi*(1+tol) {
			return false
		}
		t.Logf("%-50q %.4f (want %s ±%.0f%%) clean %d/%d, try %d", strings.ReplaceAll(s.Source, "\n", "; "), v, want, tol*100, m.Clean, m.Reps, try+1)
		return true
	})
	if !ok {
		t.Errorf("%q: got %v cycles/instruction in %d runs, want %s ±%.0f%%", s.Source, got, len(got), want, tol*100)
	}
}

// coreClass groups LLVM cpu names by the core whose published numbers the
// tests use (Agner Fog, uops.info).
func coreClass(uarch string) string {
	switch uarch {
	case "znver5":
		return "zen5"
	case "znver4":
		return "zen4"
	case "znver3", "znver2":
		return "zen3"
	case "alderlake", "raptorlake", "sapphirerapids", "emeraldrapids", "graniterapids", "meteorlake", "arrowlake", "lunarlake":
		return "goldencove"
	case "skylake", "skylake-avx512", "cascadelake", "cooperlake", "icelake-client", "icelake-server", "tigerlake", "rocketlake", "cannonlake":
		return "skylake"
	}
	return ""
}

// Universal values: true on every x86-64 core portlab supports.
var universal = []struct {
	name string
	src  string
	want float64
}{
	{"add latency", "add rax, rax", 1},
	{"imul latency", "imul rax, rax", 3},
	{"add (AT&T) latency", "addq %rcx, %rax", 1},
}

// imulChains4 is four independent imul chains, the snippet several tests
// time as a throughput.
const imulChains4 = "imul rcx, rax\nimul rdx, rax\nimul rbx, rax\nimul rsi, rax"

// imulChains is the cycles per instruction of n independent chains of
// imul r64, r64 on the host's core (uarch): imulStream's value where the
// tests know the core's class, else every value one to four multipliers
// would give.
func imulChains(n int, uarch string) []float64 {
	if coreClass(uarch) != "" {
		return []float64{imulStream(n, uarch)}
	}
	var out []float64
	for k := 1; k <= 4; k++ {
		if v := max(3/float64(n), 1/float64(k)); !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	return out
}

// nearOne reports whether v lies within tol (relative) of one of wants.
func nearOne(v float64, wants []float64, tol float64) bool {
	for _, w := range wants {
		if math.Abs(v-w) <= tol*w {
			return true
		}
	}
	return false
}

func TestUniversalNumbers(t *testing.T) {
	e, info := hostEngine(t)
	for _, c := range universal {
		t.Run(c.name, func(t *testing.T) {
			measureWithin(t, e, snippet(t, c.src), Options{}, c.want, 0.03)
		})
	}
	// Four imul chains: 1 cycle each behind one multiplier, 3/4 (their
	// latency) behind more.
	t.Run("imul throughput", func(t *testing.T) {
		wants := imulChains(4, info.Microarch)
		var got []float64
		ok := retry.Patiently(8, func(int) bool {
			m := e.Measure(snippet(t, imulChains4), Options{})
			if m.Err != nil {
				t.Fatal(m.Err)
			}
			got = append(got, m.PerInstr.Median)
			return nearOne(m.PerInstr.Median, wants, 0.03)
		})
		if !ok {
			t.Errorf("four imul chains: got %v cycles/instruction in %d runs, want one of %v ±3%%", got, len(got), wants)
		}
	})
}

func TestCoreNumbers(t *testing.T) {
	e, info := hostEngine(t)
	class := coreClass(info.Microarch)
	if class == "" {
		t.Skipf("no published reference numbers for %s in this test", info.Microarch)
	}
	// Published latencies/throughputs (Agner Fog's instruction tables,
	// uops.info, AMD's Zen 5 optimization guide): vaddpd ymm latency is 3
	// on Zen 3/4, 4 on Skylake, 2 on Golden Cove (its dedicated FADD
	// units) and Zen 5; the load-to-use latency of a simple [base] address
	// is 4 on Zen and Skylake, 5 on Golden Cove; Zen 5 loads four integer
	// registers a cycle, Zen 3/4 and Golden Cove three, Skylake two.
	lat := map[string]map[string]float64{
		"zen5":       {"vaddpd": 2, "load": 4},
		"zen4":       {"vaddpd": 3, "load": 4},
		"zen3":       {"vaddpd": 3, "load": 4},
		"goldencove": {"vaddpd": 2, "load": 5},
		"skylake":    {"vaddpd": 4, "load": 4},
	}[class]
	loads := map[string]float64{"zen5": 0.25, "zen4": 1.0 / 3, "zen3": 1.0 / 3, "goldencove": 1.0 / 3, "skylake": 0.5}[class]
	// Two stores a cycle is the published figure everywhere here. Zen 3
	// guests (family 0x19 model 1) differ by host: one sustained 0.55-0.58
	// cycles per store for four stores into one cache line, run after run
	// (measured 2026-11-24), another 0.50 (2026-11-26, its two vCPUs not SMT
	// siblings), so that class is held to the band both hosts showed.
	storesLo, storesHi := 0.5, 0.5
	if class == "zen3" {
		storesHi = 0.57
	}
	t.Run("vaddpd ymm latency", func(t *testing.T) {
		if !info.Has("avx") {
			t.Skip("host lacks avx")
		}
		measureWithin(t, e, snippet(t, "vaddpd ymm0, ymm0, ymm1"), Options{}, lat["vaddpd"], 0.03)
	})
	t.Run("vaddpd ymm throughput", func(t *testing.T) {
		if !info.Has("avx") {
			t.Skip("host lacks avx")
		}
		var b strings.Builder
		for i := 2; i < 14; i++ {
			b.WriteString("vaddpd ymm" + itoa(i) + ", ymm1, ymm1\n")
		}
		measureWithin(t, e, snippet(t, b.String()), Options{Mode: "inverse_throughput"}, 0.5, 0.03)
	})
	t.Run("load-to-use latency", func(t *testing.T) {
		s := snippet(t, "mov rax, [rax]")
		s.ScratchSelf = true
		measureWithin(t, e, s, Options{}, lat["load"], 0.03)
	})
	t.Run("load throughput", func(t *testing.T) {
		measureWithin(t, e, snippet(t, "mov rcx, [rdi]\nmov rdx, [rdi+8]\nmov rbx, [rdi+16]\nmov rsi, [rdi+24]\nmov r9, [rdi+32]\nmov r10, [rdi+40]"),
			Options{Mode: "inverse_throughput"}, loads, 0.03)
	})
	t.Run("store throughput", func(t *testing.T) {
		measureBetween(t, e, snippet(t, "mov [rdi], rax\nmov [rdi+8], rax\nmov [rdi+16], rax\nmov [rdi+24], rax"),
			Options{Mode: "inverse_throughput"}, storesLo, storesHi, 0.03)
	})
}

func itoa(i int) string {
	const d = "0123456789"
	if i < 10 {
		return d[i : i+1]
	}
	return d[i/10:i/10+1] + d[i%10:i%10+1]
}

func TestRepetitionModes(t *testing.T) {
	e, _ := hostEngine(t)
	// A latency-bound chain is insensitive to loop overhead in every mode
	// but plain duplicate/loop, which include the harness's fixed cost; the
	// differential modes must give the exact latency.
	for _, mode := range []Repetition{MiddleHalfDuplicate, MiddleHalfLoop, Min} {
		t.Run(string(mode), func(t *testing.T) {
			measureWithin(t, e, snippet(t, "imul rax, rax\nimul rax, rax"), Options{Repetition: mode}, 3, 0.03)
		})
	}
	t.Run("duplicate includes overhead", func(t *testing.T) {
		m := e.Measure(snippet(t, "imul rax, rax"), Options{Repetition: Duplicate})
		if m.Err != nil {
			t.Fatal(m.Err)
		}
		// T(n)/n counts the harness once per loop iteration: at or above the
		// true latency, and not far above with 128 copies. Below by no more
		// than the 3 % the differential modes are allowed: the calibrated
		// TSC's cycles per tick move with a busy neighbour (2.966 read on
		// the Zen 3 guest, 2026-11-28, against a bound of 2.97).
		if v := m.PerInstr.Median; v < 3*(1-0.03) || v > 3.5 {
			t.Errorf("duplicate mode: %.3f cycles, want in [2.91, 3.5]", v)
		}
	})
}

func TestRepeatability(t *testing.T) {
	e, _ := hostEngine(t)
	s := snippet(t, "vaddpd xmm0, xmm0, xmm1\nimul rax, rax")
	if !testInfo.Has("avx") {
		s = snippet(t, "imul rax, rax\nadd rax, rcx")
	}
	tries := 0
	ok := retry.Patiently(8, func(int) bool {
		tries++
		a := e.Measure(s, Options{})
		b := e.Measure(s, Options{})
		if a.Err != nil || b.Err != nil {
			t.Fatal(a.Err, b.Err)
		}
		d := math.Abs(a.PerSnippet.Median-b.PerSnippet.Median) / a.PerSnippet.Median
		if d > 0.01 {
			return false
		}
		t.Logf("two runs: %.4f and %.4f (%.2f%% apart)", a.PerSnippet.Median, b.PerSnippet.Median, 100*d)
		return true
	})
	if !ok {
		t.Errorf("two runs never agreed within 1%% in %d tries", tries)
	}
}

func TestCrashesAreReportedAndTheNextSnippetRuns(t *testing.T) {
	e, _ := hostEngine(t)
	old := e.Runner.Timeout
	e.Runner.Timeout = 300e6 // 300 ms
	defer func() { e.Runner.Timeout = old }()
	cases := []struct {
		src  string
		want []string
	}{
		{"add rax, rax\nud2", []string{"SIGILL", "bytes 0f 0b", "test.s:2: ud2"}},
		{"mov rax, [0x1234]", []string{"SIGSEGV", "address 0x1234", "test.s:1"}},
		{"xor ecx, ecx\ndiv rcx", []string{"SIGFPE", "test.s:2: div rcx"}},
		{"jmp .", []string{"timed out after 300ms"}},
	}
	var snips []*Snippet
	for _, c := range cases {
		snips = append(snips, snippet(t, c.src), snippet(t, "add rax, rax"))
	}
	ms := e.MeasureAll(snips, Options{}, nil)
	for i, c := range cases {
		bad, good := ms[2*i], ms[2*i+1]
		if bad.Err == nil {
			t.Errorf("%q: no error", c.src)
		} else {
			msg := bad.Err.Error()
			for _, w := range c.want {
				if !strings.Contains(msg, w) {
					t.Errorf("%q: error %q lacks %q", c.src, msg, w)
				}
			}
			if _, ok := jit.AsCrash(bad.Err, nil); !ok {
				t.Errorf("%q: error is not a crash: %v", c.src, bad.Err)
			}
		}
		if good.Err != nil || math.Abs(good.PerInstr.Median-1) > 0.05 {
			t.Errorf("snippet after %q: %v, %.3f cycles (want 1)", c.src, good.Err, good.PerInstr.Median)
		}
	}
}

func TestAssemblyErrorNamesTheLine(t *testing.T) {
	e, _ := hostEngine(t)
	m := e.Measure(snippet(t, "add rax, rax\nvaddpd ymm0, ymm1\n"), Options{})
	if m.Err == nil || !strings.HasPrefix(m.Err.Error(), "test.s:2: ") {
		t.Fatalf("want an error at test.s:2, got %v", m.Err)
	}
}

// Snippets timed together in one job (sweeps) give the same numbers as
// alone, and a crash in the middle of a group is pinned on its snippet.
func TestGroupedJobs(t *testing.T) {
	e, info := hostEngine(t)
	srcs := []string{"add rax, rax", "imul rax, rax", "add rax, rax\nud2", imulChains4, "xor ecx, ecx\ndiv rcx", "add rcx, rcx\nadd rcx, rcx"}
	want := [][]float64{{1}, {3}, nil, imulChains(4, info.Microarch), nil, {1}}
	ok := retry.Patiently(6, func(try int) bool {
		var snips []*Snippet
		for _, s := range srcs {
			snips = append(snips, snippet(t, s))
		}
		ms := e.MeasureAll(snips, Options{Group: 4}, nil)
		bad := 0
		for i, m := range ms {
			if want[i] == nil {
				if m.Err == nil {
					t.Fatalf("%q: no crash reported", srcs[i])
				}
				if !strings.Contains(m.Err.Error(), "test.s:") {
					t.Errorf("%q: crash not located: %v", srcs[i], m.Err)
				}
				continue
			}
			if m.Err != nil {
				t.Fatalf("%q: %v", srcs[i], m.Err)
			}
			if !nearOne(m.PerInstr.Median, want[i], 0.03) {
				bad++
				t.Logf("%q: %.3f, want one of %v (try %d)", srcs[i], m.PerInstr.Median, want[i], try+1)
			}
		}
		return bad == 0
	})
	if !ok {
		t.Error("grouped measurements missed their values in 6 tries")
	}
}

// TestPasses measures snippets in several passes: every pass's value is
// kept, the measurement is their median, a crash is reported once.
func TestPasses(t *testing.T) {
	e, _ := hostEngine(t)
	srcs := []string{"add rax, rax", "imul rax, rax", "add rax, rax\nud2"}
	var snips []*Snippet
	for _, s := range srcs {
		snips = append(snips, snippet(t, s))
	}
	done := 0
	ms := e.MeasureAll(snips, Options{Passes: 3, Group: 2}, func(n int, _ *Measurement) { done = n })
	if done != len(srcs) {
		t.Errorf("progress reached %d of %d", done, len(srcs))
	}
	if ms[2].Err == nil || len(ms[2].PassMedians) != 0 {
		t.Errorf("the crashing snippet: err %v, passes %v", ms[2].Err, ms[2].PassMedians)
	}
	for i, m := range ms[:2] {
		if m.Err != nil {
			t.Fatalf("%q: %v", srcs[i], m.Err)
		}
		if len(m.PassMedians) != 3 {
			t.Fatalf("%q: %d pass values, want 3", srcs[i], len(m.PassMedians))
		}
		if w := m.PassWorkers; len(w) != 3 || w[0] == 0 || w[0] == w[1] || w[1] == w[2] || w[0] == w[2] {
			t.Errorf("%q: passes ran in workers %v, want three distinct processes", srcs[i], w)
		}
		below, above := 0, 0
		for _, v := range m.PassMedians {
			if v < m.PerInstr.Median {
				below++
			} else if v > m.PerInstr.Median {
				above++
			}
		}
		// The median of the three, or (medianPass) of the two that
		// converged where the third did not: then a converged pass.
		if !slices.Contains(m.PassMedians, m.PerInstr.Median) {
			t.Errorf("%q: kept %.4f, none of the passes %v", srcs[i], m.PerInstr.Median, m.PassMedians)
		} else if (below > 1 || above > 1) && !m.Converged {
			t.Errorf("%q: kept %.4f, neither the median of %v nor a converged pass", srcs[i], m.PerInstr.Median, m.PassMedians)
		}
		if r := m.Benchmark("test", "test").Portlab; len(r.PassMedians) != 3 {
			t.Errorf("%q: the result lost the pass values: %v", srcs[i], r.PassMedians)
		}
	}
}

// TestMaxPasses: snippets whose passes disagree get more passes, up to
// MaxPasses, and the measurement is the median of them all.
func TestMaxPasses(t *testing.T) {
	mk := func(vs ...float64) []*Measurement {
		var out []*Measurement
		for _, v := range vs {
			m := &Measurement{}
			m.PerSnippet.Median = v
			out = append(out, m)
		}
		return out
	}
	if s := passSpread(mk(2, 2.1, 2.05)); math.Abs(s-0.05) > 1e-12 {
		t.Errorf("spread of 2, 2.1, 2.05 = %v, want 0.05", s)
	}
	failed := mk(1, 3)
	failed[1].Err = errors.New("crash")
	if s := passSpread(failed); s != 0 {
		t.Errorf("one good pass: spread %v, want 0", s)
	}
	e, _ := hostEngine(t)
	snips := []*Snippet{snippet(t, "add rax, rax"), snippet(t, "imul rax, rax")}
	// Any disagreement beyond rounding counts: both get the extra passes
	// unless their two passes read the same value (to 1e-12: the values
	// are ratios of integer TSC counts, whose last bit can differ).
	ms := e.MeasureAll(snips, Options{Passes: 2, MaxPasses: 4, PassSpread: 1e-12}, nil)
	for i, m := range ms {
		if m.Err != nil {
			t.Fatal(m.Err)
		}
		switch n := len(m.PassMedians); {
		case n == 4:
		case n == 2 && math.Abs(m.PassMedians[0]/m.PassMedians[1]-1) <= 1e-12:
		default:
			t.Errorf("snippet %d: %d passes %v, want 4 (or 2 within 1e-12)", i, n, m.PassMedians)
		}
	}
	// Passes that agree within PassSpread are not repeated.
	ms = e.MeasureAll(snips[:1], Options{Passes: 2, MaxPasses: 4, PassSpread: 0.5}, nil)
	if n := len(ms[0].PassMedians); n != 2 {
		t.Errorf("an add chain's passes within 50 %%: %d passes, want 2", n)
	}
}

// throughputInFreshWorkers measures the throughput of s in n fresh worker
// processes, one each, and reports whether any of them was noisy: fewer
// than half of its repetitions clean, or an estimate the engine did not
// call converged (its uncertainty, or a throughput canary slower than the
// run's quiet one: a busy sibling throughout).
func throughputInFreshWorkers(t *testing.T, e *Engine, s *Snippet, n int) (vals []float64, noisy bool) {
	t.Helper()
	for w := 0; w < n; w++ {
		e.Runner.Close() // a fresh worker process
		m := e.Measure(s, Options{Mode: "inverse_throughput"})
		if m.Err != nil {
			t.Fatal(m.Err)
		}
		noisy = noisy || 2*m.Clean < m.Reps || !m.Converged
		vals = append(vals, m.PerInstr.Median)
	}
	return vals, noisy
}

// TestMMXRegistersInitialised: a stream of independent paddd mm, mm ran
// at 1.50 cycles an instruction (0.50 expected: two ports) in a quarter
// to a half of the processes that measured it on the Granite Rapids
// guest, and in every worker of such a process, until the harness
// initialised mm0-mm7 (after emms) for snippets that use them. A stream
// of independent 1-cycle adds can never be slower than their chain: in
// eight fresh workers it must take at most a cycle an instruction. A try
// whose repetitions were mostly disturbed passes when it reads fast enough
// (noise only adds time) and is repeated when it reads slow.
func TestMMXRegistersInitialised(t *testing.T) {
	e, _ := hostEngine(t)
	var src strings.Builder
	for i := 0; i < 6; i++ {
		fmt.Fprintf(&src, "paddd mm%d, mm6\n", i)
	}
	s := snippet(t, src.String())
	for try := 0; try < 8; try++ {
		vals, noisy := throughputInFreshWorkers(t, e, s, 8)
		hi := slices.Max(vals)
		if hi <= 1.05 {
			// Noise only adds time: a disturbed try that reads fast enough
			// is as good as a clean one.
			t.Logf("eight workers: %.3f-%.3f cycles (disturbed: %v)", slices.Min(vals), hi, noisy)
			return
		}
		if !noisy {
			t.Fatalf("paddd mm throughput in eight fresh workers: %v: slower than its 1-cycle chain", vals)
		}
		time.Sleep(time.Duration(100<<try) * time.Millisecond)
	}
	t.Skip("every try was disturbed and read slow: the machine is too noisy to judge")
}

// Vector FP code may move the core to a slower frequency licence. Timed
// against a calibration chain run in another licence, FMA streams with a
// memory operand read 0.54-0.59 cycles instead of their port bound (two
// FMAs a cycle: 0.50 for ymm on every FMA host portlab supports, for zmm
// on Golden Cove server cores) in a third to
// four fifths of the jobs on the Granite Rapids guest, with most of their
// repetitions clean, until every function of a 256- or 512-bit job
// started with the same sustained warm-up (jit.Frame.Warm). Each try
// measures in six fresh workers and every one must read the port bound.
// A try with a noisy job (fewer than half of its repetitions clean, or not
// converged) is repeated after a pause; the test fails when two tries that were not
// noisy missed.
func TestVectorLoadOpsInOneLicence(t *testing.T) {
	e, info := hostEngine(t)
	if !info.Has("fma") {
		t.Skip("host lacks fma")
	}
	// Twelve independent FMAs (latency 4, two a cycle) over memory slots
	// within 128 bytes.
	stream := func(operands string, stride, slots int) string {
		var b strings.Builder
		for k := 0; k < 12; k++ {
			fmt.Fprintf(&b, "vfmadd231ps "+operands+"\n", k, stride*(k%slots))
		}
		return b.String()
	}
	cases := []struct{ name, src string }{
		{"vfmadd231ps ymm, ymm, m256", stream("ymm%d, ymm14, ymmword ptr [rdi+%d]", 32, 4)},
	}
	if info.Has("avx512f") && coreClass(info.Microarch) == "goldencove" {
		// Two 512-bit FMA units (Zen 4 double-pumps one: 1.0 a cycle).
		cases = append(cases, struct{ name, src string }{
			"vfmadd231ps zmm, zmm, m32bcst", stream("zmm%d, zmm14, dword ptr [rdi+%d]{1to16}", 8, 16)})
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := snippet(t, c.src)
			var last []float64
			misses := 0
			ok := retry.Measuring(8, func(int) bool {
				var noisy bool
				last, noisy = throughputInFreshWorkers(t, e, s, 6)
				if slices.Max(last) <= 0.5*1.03 && slices.Min(last) >= 0.5*0.97 {
					return true
				}
				if !noisy {
					misses++
					t.Logf("a try without noisy jobs read %.3f", last)
				} else {
					t.Logf("a try with noisy jobs read %.3f", last)
				}
				return misses == 2 // stop: judged
			})
			switch {
			case misses == 2:
				t.Fatalf("throughput in six fresh workers, last try: %.3f: want every one within 3%% of 0.50", last)
			case !ok:
				t.Skip("the tries were noisy: the machine is too disturbed to judge")
			}
			t.Logf("six workers: %.3f-%.3f cycles", slices.Min(last), slices.Max(last))
		})
	}
}

// Calls measured together keep their own options and results: each
// measurement in its call's slot and mode, a crash confined to its
// snippet, the passes of a multi-pass call in distinct workers, and
// progress counting every final measurement once.
func TestMeasureCallsShareOneSchedule(t *testing.T) {
	e, info := hostEngine(t)
	imulWants := imulChains(6, info.Microarch)
	lat := []*Snippet{snippet(t, "add rax, rax"), snippet(t, "add rax, rax\nud2")}
	tp := []*Snippet{snippet(t, "imul rbx, rcx\nimul rsi, rcx\nimul rdi, rcx\nimul r8, rcx\nimul r9, rcx\nimul r10, rcx")}
	var out [][]*Measurement
	ok := retry.Patiently(8, func(int) bool {
		done := 0
		out = e.MeasureCalls([]Call{
			{Snippets: lat, Opts: Options{Mode: "latency", Group: 2}},
			{Snippets: tp, Opts: Options{Mode: "inverse_throughput", Passes: 3}},
		}, func(n int, _ *Measurement) { done = n })
		if done != 3 {
			t.Fatalf("progress reached %d of 3", done)
		}
		if len(out) != 2 || len(out[0]) != 2 || len(out[1]) != 1 {
			t.Fatalf("results shaped %d calls, want 2 of 2 and 1", len(out))
		}
		if out[0][1].Err == nil {
			t.Fatal("the crashing snippet measured without an error")
		}
		add, imul := out[0][0], out[1][0]
		if add.Err != nil || imul.Err != nil {
			t.Fatalf("errors: %v, %v", add.Err, imul.Err)
		}
		if add.Mode != "latency" || imul.Mode != "inverse_throughput" {
			t.Fatalf("modes %q and %q, want each call's own", add.Mode, imul.Mode)
		}
		if w := imul.PassWorkers; len(w) != 3 || w[0] == w[1] || w[1] == w[2] || w[0] == w[2] {
			t.Fatalf("passes ran in workers %v, want three distinct processes", w)
		}
		return math.Abs(add.PerInstr.Median-1) <= 0.02 && nearOne(imul.PerInstr.Median, imulWants, 0.02)
	})
	if !ok {
		t.Errorf("add latency %.4f, imul throughput %.4f after every try: want 1 and one of %v within 2 %%", out[0][0].PerInstr.Median, out[1][0].PerInstr.Median, imulWants)
	}
}

// A run's first estimate is judged against a canary reference of several
// jobs: before its first snippet the engine measures the canary's own
// adds until the reference has counted referenceNotes jobs (or its budget
// is spent), and records none of those measurements.
func TestReferenceBeforeTheFirstEstimate(t *testing.T) {
	var buf strings.Builder
	e := recordingEngine(t, &buf)
	start := time.Now()
	ms := e.MeasureAll([]*Snippet{snippet(t, "add rax, rax")}, Options{}, nil)
	took := time.Since(start)
	if ms[0].Err != nil {
		t.Fatal(ms[0].Err)
	}
	if !e.referenced() && took < referenceBudget {
		t.Errorf("the references counted %d, %d and %d jobs in %v; want %d each, or the warm-up's whole budget", e.refs.Tp.Notes(), e.refs.Vec.Notes(), e.refs.Ld.Notes(), took, referenceNotes)
	}
	if e.Recorder.Written != 1 {
		t.Errorf("%d measurements recorded, want the snippet's alone", e.Recorder.Written)
	}
	if s := e.Stats; s.ReferenceJobs < referenceNotes || s.ReferenceJobs >= s.Jobs || s.Reference <= 0 || s.Reference > took || !strings.Contains(s.String(), "the canary reference took") {
		t.Errorf("stats %+v (%q): want the warm-up's %d jobs or more, and its time, counted apart", s, s.String(), referenceNotes)
	}
}

// Past Options.Deadline no retry starts: every snippet keeps its first
// job, those that wanted another are counted as cut and end unconverged,
// and the canary reference's warm-up, which may take a quarter of the
// time left, takes none.
func TestDeadlineEndsRetries(t *testing.T) {
	base, _ := hostEngine(t)
	e := &Engine{Asm: base.Asm, Runner: jit.NewRunner(jit.DefaultCPU()), Host: base.Host}
	t.Cleanup(func() { e.Runner.Close() })
	// A tolerance no estimate meets: without the deadline each would run
	// 1+MaxRetries jobs.
	o := Options{Reps: 5, MaxRetries: 4, Group: 1, RelTol: 1e-12, AbsTol: 1e-15, Deadline: time.Now()}
	ms := e.MeasureAll([]*Snippet{snippet(t, "add rax, rax"), snippet(t, "imul rax, rax")}, o, nil)
	cut := 0
	for _, m := range ms {
		if m.Err != nil {
			t.Fatal(m.Err)
		}
		if m.Reps != o.Reps {
			t.Errorf("%q: %d repetitions, want one job's %d", m.Snippet.Source, m.Reps, o.Reps)
		}
		if !m.Converged {
			cut++
		}
	}
	if s := e.Stats; s.Cut != cut || s.Retries != 0 || s.ReferenceJobs != 0 || s.Jobs != len(ms) {
		t.Errorf("stats %+v: want %d estimates cut, no retry, no warm-up job, %d jobs", s, cut, len(ms))
	}
	if cut > 0 && !strings.Contains(e.Stats.String(), "stopped at the time budget") {
		t.Errorf("stats line %q does not say that estimates were cut", e.Stats.String())
	}
}

// An estimate that converged while the canary reference was young is
// judged again against the reference the run grew: off it by more than
// perf.SiblingSlack, it is not converged after all and says why.
func TestRejudgeAgainstTheGrownReference(t *testing.T) {
	e := &Engine{}
	for range referenceNotes {
		e.refs.Note(perf.Estimate{TpCanary: 0.25, LatCanary: perf.LatCanaryExpected, Reps: 11})
	}
	slow := &Measurement{Converged: true, Estimate: perf.Estimate{Value: 12, TpCanary: 0.30, LatCanary: perf.LatCanaryExpected, Reps: 11}}
	right := &Measurement{Converged: true, Estimate: perf.Estimate{Value: 12, TpCanary: 0.252, LatCanary: perf.LatCanaryExpected, Reps: 11}}
	p := &prepared{instrs: 12}
	e.provisional = []provisional{{slow, p, Options{RelTol: 0.005, AbsTol: 0.002}}, {right, p, Options{RelTol: 0.005, AbsTol: 0.002}}}
	e.rejudge()
	if slow.Converged || len(slow.Warnings) != 1 || !strings.Contains(slow.Warnings[0], "judged again") || !strings.Contains(slow.Warnings[0], "integer adds 0.300 for 0.250") {
		t.Errorf("the estimate with its canary 20 %% slow: converged %v, warnings %q", slow.Converged, slow.Warnings)
	}
	if !right.Converged || len(right.Warnings) != 0 {
		t.Errorf("the estimate with its canary right: converged %v, warnings %q", right.Converged, right.Warnings)
	}
	if e.Stats.Rejudged != 1 || len(e.provisional) != 0 || !strings.Contains(e.Stats.String(), "1 estimates judged again") {
		t.Errorf("stats %+v, %d left provisional: want one rejudged, none left", e.Stats, len(e.provisional))
	}
}

// With MinJobs every benchmark runs that many jobs before its convergence
// is judged (more only while it has not converged, up to 1+MaxRetries),
// and its recording holds every repetition of them, with the measured
// code.
func TestMinJobsRecordsEveryJob(t *testing.T) {
	var buf strings.Builder
	e := recordingEngine(t, &buf)
	o := Options{Reps: 5, MinJobs: 3, MaxRetries: 4, Group: 2}
	ms := e.MeasureAll([]*Snippet{snippet(t, "add rax, rax"), snippet(t, "imul rax, rax")}, o, nil)
	for _, m := range ms {
		if m.Err != nil {
			t.Fatal(m.Err)
		}
		if m.Reps%o.Reps != 0 || m.Reps < o.MinJobs*o.Reps || m.Reps > (1+o.MaxRetries)*o.Reps {
			t.Errorf("%q: %d repetitions; want %d jobs of %d at least, %d at most", m.Snippet.Source, m.Reps, o.MinJobs, o.Reps, 1+o.MaxRetries)
		}
	}
	recs, err := perf.DecodeRecordings(strings.NewReader(buf.String()), "the recording")
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != len(ms) {
		t.Fatalf("%d recordings, want %d", len(recs), len(ms))
	}
	// Recordings come in the order the benchmarks complete.
	for _, m := range ms {
		i := slices.IndexFunc(recs, func(r *perf.Recording) bool { return r.Source == m.Snippet.Source })
		if i < 0 {
			t.Errorf("no recording of %q", m.Snippet.Source)
		} else if len(recs[i].Timings) != m.Reps {
			t.Errorf("recording of %q: %d timings, want %d", m.Snippet.Source, len(recs[i].Timings), m.Reps)
		}
	}
}

// recordingEngine is a fresh engine (its own worker, no canary reference
// yet) that records every benchmark into w.
func recordingEngine(t *testing.T, w io.Writer) *Engine {
	base, _ := hostEngine(t)
	e := &Engine{Asm: base.Asm, Runner: jit.NewRunner(jit.DefaultCPU()), Host: base.Host,
		Recorder: &Recorder{W: w, All: true}}
	t.Cleanup(func() { e.Runner.Close() })
	return e
}

// An engine with several CPUs stays on one while its jobs run quiet and
// moves to the next, round, after a job whose repetitions mostly ran
// beside a busy sibling. A job runs where the engine is, as the kernel
// says.
func TestEngineMovesAfterABusyJob(t *testing.T) {
	base, _ := hostEngine(t)
	e := &Engine{Asm: base.Asm, Runner: jit.NewRunner(jit.DefaultCPU()), Host: base.Host}
	t.Cleanup(func() { e.Runner.Close() })
	e.SetCPUs([]int{5, 6, 7})
	for _, c := range []struct {
		busy float64
		want int
	}{{0.2, 5}, {0.5, 5}, {0.9, 6}, {0, 6}, {1, 7}, {0.6, 5}} {
		e.afterJob(e.CPU(), c.busy)
		if e.CPU() != c.want {
			t.Fatalf("after a job %.0f %% busy: CPU %d, want %d", 100*c.busy, e.CPU(), c.want)
		}
	}
	if e.Stats.Moves != 3 || e.Stats.JobsOn[5] != 3 || e.Stats.JobsOn[6] != 2 {
		t.Errorf("stats %+v: want 3 moves, 3 jobs on CPU 5 and 2 on 6", e.Stats)
	}

	cpus := jit.AllowedCPUs()
	if len(cpus) < 2 {
		t.Skipf("this process may run on %v only: nowhere to move", cpus)
	}
	a, b := jit.DefaultCPU(), cpus[0]
	e.Stats = EngineStats{}
	e.SetCPUs([]int{a, b})
	s := snippet(t, "add rax, rcx")
	o := Options{Mode: "latency", MaxRetries: -1}
	if m := e.Measure(s, o); m.Err != nil {
		t.Fatal(m.Err)
	}
	if e.Stats.JobsOn[a] == 0 {
		t.Errorf("jobs by CPU %v: want the first on %d", e.Stats.JobsOn, a)
	}
	e.SetCPUs([]int{b, a})
	if m := e.Measure(s, o); m.Err != nil {
		t.Fatal(m.Err)
	}
	if e.Stats.JobsOn[b] == 0 {
		t.Errorf("jobs by CPU %v: want the next on %d", e.Stats.JobsOn, b)
	}
	if !strings.Contains(e.Stats.String(), fmt.Sprintf("on CPU %d", b)) {
		t.Errorf("stats line %q does not say where the jobs ran", e.Stats.String())
	}
}

// Unpinned, the host engine measures on the default CPU and at most one
// more of its kind on another core, one no other process measures on;
// pinned, on that CPU alone.
func TestHostEngineCPUs(t *testing.T) {
	e, _ := hostEngine(t)
	cpus := e.CPUs()
	if cpus[0] != jit.DefaultCPU() || e.CPU() != cpus[0] && e.Stats.Moves == 0 {
		t.Errorf("CPUs %v, now %d: want to start on the default CPU %d", cpus, e.CPU(), jit.DefaultCPU())
	}
	// Those of the kind missing are measured on by another process.
	same := jit.SameCoreCPUs(jit.DefaultCPU(), jit.AllowedCPUs())
	for _, c := range cpus {
		if !slices.Contains(same, c) {
			t.Errorf("CPU %d of %v is not among the process's CPUs of the default one's kind, %v", c, cpus, same)
		}
	}
	if len(cpus) > MoveCPUs {
		t.Errorf("CPUs %v: more than %d", cpus, MoveCPUs)
	}
	for _, c := range cpus[1:] {
		if slices.Contains(jit.SMTSiblings(cpus[0]), c) {
			t.Errorf("CPU %d shares a core with CPU %d (%v)", c, cpus[0], jit.SMTSiblings(cpus[0]))
		}
	}
	t.Logf("measuring on CPUs %v of %v", cpus, same)
	other := jit.AllowedCPUs()[0]
	p, _, err := NewHostEngine(other)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if got := p.CPUs(); !slices.Equal(got, []int{other}) {
		t.Errorf("pinned to %d: CPUs %v", other, got)
	}
}

// Of five passes the lower quartile is the second fastest, the median the
// third; the median from the converged passes where two or more converged
// and others did not, the lower quartile from every pass; the warning says
// which was kept.
func TestLowerQuartilePass(t *testing.T) {
	passes := func(vals []float64, conv []bool) []*Measurement {
		var ms []*Measurement
		for i, v := range vals {
			ms = append(ms, &Measurement{PerSnippet: perf.Stats{Median: v}, PerInstr: perf.Stats{Median: v}, Converged: conv[i], Worker: i})
		}
		return ms
	}
	all := []bool{true, true, true, true, true}
	vals := []float64{3.3, 2.2, 2.5, 2.3, 3.1}
	if m := quantilePass(passes(vals, all), 4, false, "the lower quartile"); m.PerSnippet.Median != 2.3 || len(m.PassMedians) != 5 ||
		len(m.Warnings) != 1 || !strings.Contains(m.Warnings[0], "kept the lower quartile") {
		t.Errorf("lower quartile: %v, passes %v, warnings %q; want 2.3 of five", m.PerSnippet.Median, m.PassMedians, m.Warnings)
	}
	if m := medianPass(passes(vals, all)); m.PerSnippet.Median != 2.5 {
		t.Errorf("median: %v, want 2.5", m.PerSnippet.Median)
	}
	// 2.2 and 2.3 did not converge: the median's pool is 2.5, 3.1, 3.3;
	// the lower quartile's is every pass.
	part := []bool{true, false, true, false, true}
	if m := medianPass(passes(vals, part)); m.PerSnippet.Median != 3.1 || !strings.Contains(m.Warnings[0], "kept the median of the 3 that converged") {
		t.Errorf("median of the converged: %v (%q), want 3.1", m.PerSnippet.Median, m.Warnings)
	}
	if m := quantilePass(passes(vals, part), 4, false, "the lower quartile"); m.PerSnippet.Median != 2.3 {
		t.Errorf("lower quartile of every pass: %v, want 2.3", m.PerSnippet.Median)
	}
}
