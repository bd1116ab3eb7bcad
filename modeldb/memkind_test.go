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
	mix := func(measured, predicted float64, forms ...string) MixResult {
		var parts []MixPart
		for _, f := range forms {
			parts = append(parts, MixPart{Form: f, Count: 4})
		}
		return MixResult{Parts: parts, Measured: measured, Predicted: predicted, Error: (predicted - measured) / measured}
	}
	mixes := []MixResult{
		mix(10, 10, "add r64, r64", "imul r64, r64"),
		mix(10, 10.5, "add r64, r64", "shl r64, imm8"),
		mix(10, 12, "add r64, r64", "mov r64, m64"),
		mix(10, 6, "add m64, imm8", "mov m64, r64"),
		mix(10, 7, "mov m64, r64", "add m64, imm8", "imul r64, r64"),
		mix(10, 9.5, "mov m64, r64", "add m64, imm8"),
	}
	got := byMemory(mixes, 0.10)
	want := []MemoryKindScore{
		{Kind: "stores + read-modify-writes", N: 3, Within: 1, Median: -0.3},
		{Kind: "registers only", N: 2, Within: 2, Median: 0.025},
		{Kind: "loads", N: 1, Within: 0, Median: 0.2},
	}
	if len(got) != len(want) {
		t.Fatalf("scores %+v, want %+v", got, want)
	}
	for i := range want {
		g, w := got[i], want[i]
		if g.Kind != w.Kind || g.N != w.N || g.Within != w.Within || math.Abs(g.Median-w.Median) > 1e-9 {
			t.Errorf("score %d: %+v, want %+v", i, g, w)
		}
	}
	line := memoryLine(got)
	for _, s := range []string{"by memory access: stores + read-modify-writes 3 (33.3% within, median -30.0%)", "registers only 2 (100.0% within, median +2.5%)", "loads 1 (0.0% within, median +20.0%)"} {
		if !strings.Contains(line, s) {
			t.Errorf("summary line %q lacks %q", line, s)
		}
	}
	if l := memoryLine(got[:1]); l != "" {
		t.Errorf("one kind gave a line: %q", l)
	}
}
