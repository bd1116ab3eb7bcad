package modeldb

import (
	"encoding/hex"
	"fmt"
	"math"
	"strings"
	"testing"
)

// Machine code for the store-commit tests.
func movStore(disp int) string { // mov qword ptr [rdi+disp], rax
	return fmt.Sprintf("488987%02x%02x%02x%02x", disp&0xff, disp>>8&0xff, disp>>16&0xff, disp>>24&0xff)
}

const (
	addRdi8    = "4883c708"         // add rdi, 8
	pushRax    = "50"               // push rax
	addRaxRax  = "4801c0"           // add rax, rax
	vmovupsYmm = "c5fc118700080000" // vmovups ymmword ptr [rdi+2048], ymm0
)

func stores(disps ...int) string {
	var b strings.Builder
	for _, d := range disps {
		b.WriteString(movStore(d))
	}
	return b.String()
}

// A mix's stores commit by the lines they write: consecutive stores to
// one line pair up (Zen 3 and Golden Cove: one line a cycle, two stores of
// it), stores a line apart take a cycle each, a store crossing a line
// writes two, and a store whose address the copy moves pairs with none.
func TestMixStoreCommitCycles(t *testing.T) {
	sc := &StoreCommit{LinesPerCycle: 1, StoresPerLine: 2}
	for _, c := range []struct {
		name, code string
		want       float64
	}{
		{"eight stores to one line", stores(2048, 2056, 2064, 2072, 2080, 2088, 2096, 2104), 4},
		{"eight stores a line apart", stores(2048, 2112, 2176, 2240, 2304, 2368, 2432, 2496), 8},
		{"two lines alternating", stores(2048, 2112, 2056, 2120, 2064, 2128, 2072, 2136), 8},
		{"register work between stores to one line", movStore(2048) + addRaxRax + movStore(2056) + addRaxRax, 1},
		{"a store crossing a line", movStore(2044), 2},
		{"the copy moves the address register", stores(2048, 2056) + addRdi8, 2},
		{"push", pushRax + pushRax, 2},
		{"a 32-byte store and a 64-bit store to its line", vmovupsYmm + movStore(2080), 1},
		{"no stores", addRaxRax + addRaxRax, 0},
	} {
		mx := &MixMeasurement{Code: c.code}
		if got := mx.StoreCommitCycles(sc); math.Abs(got-c.want) > 1e-9 {
			t.Errorf("%s: %.3f cycles a copy, want %.3f", c.name, got, c.want)
		}
	}
	// A mix's parts say whether it stores at all; one without a storing
	// form is not decoded.
	code := stores(2048, 2112, 2176, 2240, 2304, 2368, 2432, 2496)
	withStores := &MixMeasurement{Parts: []MixPart{{Form: "mov m64, r64", Count: 8}}, Code: code}
	registers := &MixMeasurement{Parts: []MixPart{{Form: "add r64, r64", Count: 8}}, Code: code}
	if got := withStores.StoreCommitCycles(sc); got != 8 {
		t.Errorf("eight stores a line apart, named by the parts: %v cycles, want 8", got)
	}
	if got := registers.StoreCommitCycles(sc); got != 0 {
		t.Errorf("a mix of register forms: %v commit cycles, want 0", got)
	}
	eight := &MixMeasurement{Code: code}
	if got := eight.StoreCommitCycles(nil); got != 0 {
		t.Errorf("without a store commit: %v cycles, want 0", got)
	}
	if got := eight.StoreCommitCycles(&StoreCommit{LinesPerCycle: 2, StoresPerLine: 2}); got != 4 {
		t.Errorf("two lines a cycle: %v cycles for eight lines, want 4", got)
	}
	for _, code := range []string{"", "zz", "0f0b0f"} {
		if got := (&MixMeasurement{Code: code}).StoreCommitCycles(sc); got != 0 {
			t.Errorf("code %q: %v cycles, want 0 (unknown)", code, got)
		}
	}
	if _, err := hex.DecodeString(vmovupsYmm); err != nil {
		t.Fatal(err)
	}
}

// commitBoundMixes are mixes of eight stores a line apart with other
// forms, measured as the truth's bound or the stores' commit (one line a
// cycle), whichever is slower: what the Zen 3 guest showed (32 add m64,
// imm8 and 24 mov m64, r64 a copy: 48.0 cycles, ports for about 28).
func commitBoundMixes(t *testing.T, truth *Model) []*MixMeasurement {
	t.Helper()
	pred := NewPredictor(truth)
	var out []*MixMeasurement
	for _, other := range []string{"add r64, r64", "shl r64, imm8", "imul r64, r64", "mov r64, m64", "vaddpd ymm, ymm, ymm", "vmulpd ymm, ymm, ymm"} {
		for _, n := range []int{2, 4} {
			parts := []MixPart{{Form: "mov m64, r64", Count: 8}, {Form: other, Count: n}}
			pr, err := pred.Predict(parts)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, &MixMeasurement{Parts: parts, Cycles: max(pr.Cycles, 8), Random: true,
				Code: stores(2048, 2112, 2176, 2240, 2304, 2368, 2432, 2496)})
		}
	}
	return out
}

// The fit counts a mix's store commit as a floor: mixes whose stores
// wrote more lines than the core commits are fitted (not left out as
// slower than their forms one after another) and leave the store's ports
// as the truth has them (and the bound predicts them), where without the
// floor the fit takes the commit for a port conflict.
func TestBuildFitsStoreCommitAsAFloor(t *testing.T) {
	truth := loadTruth(t)
	build := func(withCode bool) (*Model, *BuildReport) {
		ms := synthMeasurements(t, truth, 0, 1)
		ms.StoreCommitSameLine, ms.StoreCommitLinesApart = 0.5, 1.0
		for _, mx := range commitBoundMixes(t, truth) {
			if !withCode {
				mx.Code = ""
			}
			ms.Mixes = append(ms.Mixes, mx)
		}
		m, rep, err := Build(ms, BuildOptions{Base: truth.Clone(), Now: fixedNow})
		if err != nil {
			t.Fatal(err)
		}
		return m, rep
	}
	storeErr := func(rep *BuildReport) float64 {
		for _, f := range rep.Fits {
			if f.Form == "mov m64, r64" {
				return f.Error
			}
		}
		t.Fatal("no fit of mov m64, r64")
		return 0
	}
	m, rep := build(true)
	wantPass(t, rep, "store commit", true, "stores a line apart took 1.00 cycles each")
	if n := rep.SlowerThanSerial["mov m64, r64"]; n != 0 {
		t.Errorf("%d mixes of mov m64, r64 left out as slower than their forms one after another: the commit explains them", n)
	}
	if e := storeErr(rep); e > 0.02 {
		t.Errorf("mov m64, r64 fits its mixes with error %.1f %% counting the store commit, want under 2 %%", 100*e)
	}
	if got, want := portSet(t, m, "mov m64, r64"), portSet(t, truth, "mov m64, r64"); fmt.Sprint(sortedKeys(got)) != fmt.Sprint(sortedKeys(want)) {
		t.Errorf("mov m64, r64 on %v, truth %v", sortedKeys(got), sortedKeys(want))
	}
	bound := BoundPredictor(m)
	for _, mx := range commitBoundMixes(t, truth) {
		p, err := bound(mx)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(p.Cycles-mx.Cycles) > 0.02*mx.Cycles {
			t.Errorf("%s: predicted %.2f (%s), measured %.2f", mx.Key(), p.Cycles, p.Bound, mx.Cycles)
		}
		if mx.Cycles > 8 && p.Bound == "store commit" || mx.Cycles == 8 && p.Bound != "store commit" {
			t.Errorf("%s: bound %q for %.2f cycles", mx.Key(), p.Bound, mx.Cycles)
		}
	}
	blind, repBlind := build(false)
	if e, ok := blind.Lookup("mov m64, r64"); ok {
		t.Logf("without the mixes' code: mov m64, r64 %s, fit error %.1f %%", FormatPressure(e.PortPressure), 100*storeErr(repBlind))
	}
	if repBlind.SlowerThanSerial["mov m64, r64"] == 0 {
		t.Errorf("without the mixes' code no commit-bound mix was left out as slower than its forms one after another")
	}
	if e := storeErr(repBlind); e < 0.05 {
		t.Errorf("without the mixes' code the commit-bound mixes fit within %.1f %%: the test does not tell the floor's effect", 100*e)
	}
}
