package modeldb

import (
	"math"
	"strings"
	"testing"
)

// Forms touch memory as their operands say: a load reads its memory
// operand, a store writes it, a read-modify-write does both; push stores,
// pop loads; lea, untyped memory and forms the catalog lacks touch none.
func TestMemAccessOfForms(t *testing.T) {
	for _, c := range []struct {
		form string
		want MemAccess
	}{
		{"add r64, r64", 0},
		{"mov r64, m64", MemLoad},
		{"vfmadd231ps ymm, ymm, m256", MemLoad},
		{"mov m64, r64", MemStore},
		{"vmovups m256, ymm", MemStore},
		{"add m64, imm8", MemRMW},
		{"push r64", MemStore},
		{"pop r64", MemLoad},
		{"lea r64, m", 0},
		{"no such form", 0},
	} {
		if got := memoryAccess(c.form); got != c.want {
			t.Errorf("%s: access %b, want %b", c.form, got, c.want)
		}
	}
	if got := memoryKindName(MemLoad | MemRMW); got != "loads + read-modify-writes" {
		t.Errorf("loads and read-modify-writes named %q", got)
	}
}

// A report scores its mixes by memory kind, the most numerous first, with
// each kind's share within the tolerance and its median signed error, and
// says so on one line of its summary.
func TestMixReportByMemory(t *testing.T) {
	mixes := []MixResult{
		scoredMix(10, 10, "add r64, r64", "imul r64, r64"),
		scoredMix(10, 10.5, "add r64, r64", "shl r64, imm8"),
		scoredMix(10, 12, "add r64, r64", "mov r64, m64"),
		scoredMix(10, 6, "add m64, imm8", "mov m64, r64"),
		scoredMix(10, 7, "mov m64, r64", "add m64, imm8", "imul r64, r64"),
		scoredMix(10, 9.5, "mov m64, r64", "add m64, imm8"),
	}
	got := byMemory(mixes, 0.10)
	want := []GroupScore{
		{Group: "stores + read-modify-writes", N: 3, Within: 1, Median: -0.3},
		{Group: "registers only", N: 2, Within: 2, Median: 0.025},
		{Group: "loads", N: 1, Within: 0, Median: 0.2},
	}
	checkScores(t, got, want)
	line := groupLine("by memory access", got)
	for _, s := range []string{"by memory access: stores + read-modify-writes 3 (33.3% within, median -30.0%)", "registers only 2 (100.0% within, median +2.5%)", "loads 1 (0.0% within, median +20.0%)"} {
		if !strings.Contains(line, s) {
			t.Errorf("summary line %q lacks %q", line, s)
		}
	}
	if l := groupLine("by memory access", got[:1]); l != "" {
		t.Errorf("one kind gave a line: %q", l)
	}
}

// Predictions group by their bound without its ports or form; a
// simulation by its code's static bound.
func TestMixReportByBound(t *testing.T) {
	for bound, want := range map[string]string{
		"ports":                       "ports",
		"dispatch":                    "dispatch",
		"throughput of imul r64, r64": "a form's throughput",
		"store commit":                "store commit",
		"simulated; static bound: ports ALU1, ALU2":                                                     "ports",
		"simulated; static bound: dispatch (36 uops at 6 per cycle)":                                    "dispatch",
		"simulated; static bound: store commit (1 cache line(s) a cycle, up to 2 store(s) to one line)": "store commit",
		"": "unknown",
	} {
		if got := boundClass(bound); got != want {
			t.Errorf("bound %q: class %q, want %q", bound, got, want)
		}
	}
	mixes := []MixResult{{Bound: "ports", Error: 0.05}, {Bound: "ports", Error: -0.2}, {Bound: "throughput of div r64", Error: 0}}
	got := byBound(mixes, 0.10)
	if len(got) != 2 || got[0].Group != "ports" || got[0].N != 2 || got[0].Within != 1 || math.Abs(got[0].Median+0.075) > 1e-9 || got[1] != (GroupScore{Group: "a form's throughput", N: 1, Within: 1}) {
		t.Errorf("by bound %+v", got)
	}
	if line := groupLine("by bound", got); !strings.Contains(line, "by bound: ports 2 (50.0% within, median -7.5%); a form's throughput 1 (100.0% within, median +0.0%)") {
		t.Errorf("summary line %q", line)
	}
}

// Mixes are scored by their forms' register domains: a model can fit one
// unit of a core and not the other.
func TestMixReportByDomain(t *testing.T) {
	mixes := []MixResult{
		scoredMix(10, 13, "add r64, r64", "imul r64, r64"),
		scoredMix(10, 10, "lea r64, m", "mov r64, m64"),
		scoredMix(10, 10, "vaddpd ymm, ymm, ymm", "vmovups ymm, m256"), // a vector load is vector work
		scoredMix(10, 10.2, "kandw k, k, k", "paddb mm, mm", "fadd st, st(0)"),
		scoredMix(10, 8, "vmovd xmm, r32", "add r64, r64"),
		scoredMix(10, 10, "vpbroadcastd zmm, r32", "shl r64, imm8"),
		scoredMix(10, 10, "cvtsi2sd xmm, r64", "no such form"),
	}
	got := byDomain(mixes, 0.10)
	want := []GroupScore{
		{Group: "integer and FP/vector", N: 3, Within: 2, Median: 0},
		{Group: "FP/vector only", N: 2, Within: 2, Median: 0.01},
		{Group: "integer only", N: 2, Within: 1, Median: 0.15},
	}
	checkScores(t, got, want)
	r := &MixReport{N: len(mixes), Tolerance: 0.10, Mixes: mixes, ByDomain: got}
	if line := r.Summary(0); !strings.Contains(line, "by register domain: integer and FP/vector 3 (66.7% within, median +0.0%); FP/vector only 2 (100.0% within, median +1.0%); integer only 2 (50.0% within, median +15.0%)") {
		t.Errorf("summary lacks the domains:\n%s", line)
	}
}

// scoredMix is a scored mix of four of each form.
func scoredMix(measured, predicted float64, forms ...string) MixResult {
	var parts []MixPart
	for _, f := range forms {
		parts = append(parts, MixPart{Form: f, Count: 4})
	}
	return MixResult{Parts: parts, Measured: measured, Predicted: predicted, Error: (predicted - measured) / measured}
}

// checkScores compares group scores, medians to 1e-9.
func checkScores(t *testing.T, got, want []GroupScore) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("scores %+v, want %+v", got, want)
	}
	for i := range want {
		g, w := got[i], want[i]
		if g.Group != w.Group || g.N != w.N || g.Within != w.Within || math.Abs(g.Median-w.Median) > 1e-9 {
			t.Errorf("score %d: %+v, want %+v", i, g, w)
		}
	}
}
