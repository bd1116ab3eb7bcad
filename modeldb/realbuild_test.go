package modeldb

import (
	"math"
	"strings"
	"testing"

	"portlab/isa"
	"portlab/results"
)

// fpPortKind says how a CPU's FP adder relates to its FP multiplier, by
// the results' LLVM CPU name (cpu_name) and CPUID signature (host):
//
//   - "zen": AMD Zen, the adds on their own FP pipes and the multiplies and
//     FMAs on two others (vaddpd and vmulpd on disjoint ports);
//   - "golden-cove": Intel's Golden Cove and its successors (Alder Lake's
//     P-cores to Granite Rapids), FMA and multiply on ports 0 and 1, the
//     fast adder on ports 1 and 5: vaddpd shares part of vmulpd's ports
//     (measured on a Granite Rapids-class guest: vfmadd231pd ymm with
//     vmulpd ymm 1:1 takes 2.00x the disjoint-port time, with vaddpd ymm
//     1.34x, the 4/3 of two ports out of three);
//   - "" for other CPUs, whose relation the tests do not assume.
func fpPortKind(cpuName, host string) string {
	cpu := strings.ToLower(cpuName)
	switch {
	case strings.HasPrefix(cpu, "znver"), strings.HasPrefix(host, "AuthenticAMD"):
		return "zen"
	}
	switch cpu {
	case "alderlake", "raptorlake", "meteorlake", "sapphirerapids", "emeraldrapids", "graniterapids":
		return "golden-cove"
	}
	return ""
}

// checkFPPorts asserts the FP trio's port relations for the CPU class:
// vfmadd231pd ymm on exactly vmulpd ymm's ports on every CPU; vaddpd ymm
// disjoint from vmulpd ymm on Zen; on Golden-Cove-class cores vaddpd ymm
// sharing at most part of vmulpd ymm's ports (never the same set).
func checkFPPorts(t *testing.T, m *Model, cpuName, host string) {
	t.Helper()
	add, mul, fma := portSet(t, m, "vaddpd ymm, ymm, ymm"), portSet(t, m, "vmulpd ymm, ymm, ymm"), portSet(t, m, "vfmadd231pd ymm, ymm, ymm")
	if len(mul) == 0 || !sameSet(fma, mul) {
		t.Errorf("vfmadd231pd ymm on %v, vmulpd ymm on %v: want the same ports", sortedKeys(fma), sortedKeys(mul))
	}
	switch kind := fpPortKind(cpuName, host); kind {
	case "zen":
		if len(add) == 0 || !disjoint(add, mul) {
			t.Errorf("%s (%s): vaddpd ymm on %v, vmulpd ymm on %v: want disjoint ports", cpuName, kind, sortedKeys(add), sortedKeys(mul))
		}
	case "golden-cove":
		if len(add) == 0 || sameSet(add, mul) {
			t.Errorf("%s (%s): vaddpd ymm on %v, vmulpd ymm on %v: want at most part of the same ports", cpuName, kind, sortedKeys(add), sortedKeys(mul))
		}
	}
}

// realSubsets are subsets of real sweeps (testdata/models): the
// throughput and operand latencies of 29 forms (the FP add/mul/FMA trio
// and their single-precision and integer-vector neighbours, integer ALU,
// shift, multiply, bit-count and cmov forms, GPR and ymm loads and stores,
// a load-op form) and every port-conflict mix among them, each built from
// the LLVM model the host's embedded model was built from.
var realSubsets = []struct {
	file, base, kind string
	mixes            int
	// storeRoundTrip is the range of the store/reload round trip the
	// subset measured (model header store_to_load_forward_latency).
	storeRoundTrip [2]float64
	// Held-out mixes predicted within 10 %: of vector forms only, and all.
	vectorWithin, allWithin float64
}{
	// Granite Rapids renames memory: a store and its reload, chained, run
	// two pairs a cycle. Its integer and memory mixes show what no optimal port
	// balancing reproduces (2 popcnt + 10 add r64 take 3.59 cycles where
	// any mapping consistent with add's own 4.7 per cycle allows at most
	// 3.0: the allocator's port choice is not optimal), and 8 probes do
	// not pin down every store port, so over all held-out mixes the bar is
	// 80 %. (Mix counts: 12 GNR and 13 Zen 4 mixes of the subsets were
	// measured again in other counts after generator changes; only the
	// newer count is collected, see supersedeCounts.)
	{"real-graniterapids-subset.yaml", "llvm14-sapphirerapids.yml.gz", "golden-cove", 196, [2]float64{0.25, 0.75}, 0.9, 0.8},
	// Zen 4 renames memory too: a store and its reload, chained, run a
	// pair a cycle (with an add in the chain the pair adds nothing). The vector mixes the
	// fit misses put vpermpd ymm (two 128-bit lanes crossed) beside adds
	// and shuffles: 5.0 cycles measured where its ports allow 3.5.
	{"real-znver4-subset.yaml", "llvm14-znver3.yml.gz", "zen", 235, [2]float64{0.5, 1.5}, 0.8, 0.85},
}

// TestModelBuildRealSubset builds a model from each real subset (30 % of
// the mixes held out) and checks the FP ports against what the host's
// mixes show, imul against add, the header facts, and the mixes held out
// of the fit.
func TestModelBuildRealSubset(t *testing.T) {
	for _, c := range realSubsets {
		t.Run(c.kind, func(t *testing.T) {
			bs, err := results.ReadFile("../testdata/models/" + c.file)
			if err != nil {
				t.Fatal(err)
			}
			cpuName := ""
			for _, b := range bs {
				if b.CPUName != "" {
					cpuName = b.CPUName
					break
				}
			}
			ms := CollectMeasurements(bs, CollectOptions{})
			if len(ms.Hosts) != 1 || fpPortKind(cpuName, ms.Hosts[0]) != c.kind || len(ms.Forms) != 29 || len(ms.Mixes) != c.mixes {
				t.Fatalf("cpu %q, hosts %v, %d forms, %d mixes", cpuName, ms.Hosts, len(ms.Forms), len(ms.Mixes))
			}
			base, err := Embedded(c.base)
			if err != nil {
				t.Fatal(err)
			}
			m, rep, err := Build(ms, BuildOptions{Base: base, LLVMCPU: cpuName, HoldOut: 0.3, Now: fixedNow})
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s", rep.Summary(5))
			for _, f := range []string{"vaddpd ymm, ymm, ymm", "vmulpd ymm, ymm, ymm", "vfmadd231pd ymm, ymm, ymm", "add r64, r64", "imul r64, r64", "mov r64, m64", "mov m64, r64"} {
				e, _ := m.Lookup(f)
				t.Logf("%-28s %s", f, FormatPressure(e.PortPressure))
			}
			checkFPPorts(t, m, cpuName, ms.Hosts[0])
			// Header facts of a measured model: fused memory uops, and
			// the store round trip.
			if rt := m.StoreToLoadForwardLatency; !m.MicroFusion || rt < c.storeRoundTrip[0] || rt > c.storeRoundTrip[1] {
				t.Errorf("micro_fusion %v, store_to_load_forward_latency %v (the subset measured %v cycles)", m.MicroFusion, rt, c.storeRoundTrip)
			}
			// The single-precision forms behave as the double ones.
			if !sameSet(portSet(t, m, "vfmadd231ps ymm, ymm, ymm"), portSet(t, m, "vmulpd ymm, ymm, ymm")) {
				t.Errorf("vfmadd231ps ymm on %v", sortedKeys(portSet(t, m, "vfmadd231ps ymm, ymm, ymm")))
			}
			// Integer: imul on ALU ports add uses, one a cycle. (Loads are
			// not checked: in the subsets loads mixed with ALU or vector
			// forms can run below the dispatch width, and the fit may
			// explain that by loads sharing ALU ports; on the full sweeps
			// they get three ports of their own.)
			alu, imul := portSet(t, m, "add r64, r64"), portSet(t, m, "imul r64, r64")
			e, _ := m.Lookup("imul r64, r64")
			onALU := len(imul) > 0 && len(imul) < len(alu)
			for p := range imul {
				onALU = onALU && alu[p]
			}
			if !onALU || math.Abs(e.Throughput-1) > 0.02 {
				t.Errorf("imul r64 on %s (%.3f cycles), add r64 on %v: want some of add's ports, one imul a cycle", FormatPressure(e.PortPressure), e.Throughput, sortedKeys(alu))
			}
			// The mixes held out of the fit.
			r := EvaluateMixMeasurements(m, rep.HeldOut, 0.10)
			t.Logf("held out: %s", r.Summary(8))
			var vec []*MixMeasurement
			for _, mx := range rep.HeldOut {
				if allVector(mx) {
					vec = append(vec, mx)
				}
			}
			rv := EvaluateMixMeasurements(m, vec, 0.10)
			t.Logf("held out, vector forms only: %s", rv.Summary(3))
			if rv.N < 8 || rv.Fraction() < c.vectorWithin {
				t.Errorf("%d of %d held-out mixes of vector forms predicted within 10%%, want %.0f%%", rv.Within, rv.N, 100*c.vectorWithin)
			}
			if r.N < 30 || r.Fraction() < c.allWithin {
				t.Errorf("%d of %d held-out mixes predicted within 10%%, want %.0f%%", r.Within, r.N, 100*c.allWithin)
			}
		})
	}
}

// allVector reports whether every form of a mix works on vector
// registers only (xmm, ymm, zmm and immediates).
func allVector(mx *MixMeasurement) bool {
	for _, pt := range mx.Parts {
		f, ok := isa.Lookup(pt.Form)
		if !ok {
			return false
		}
		for _, op := range f.Operands {
			k := string(op.Kind)
			if !op.Kind.IsImmediate() && !strings.HasPrefix(k, "xmm") && !strings.HasPrefix(k, "ymm") && !strings.HasPrefix(k, "zmm") {
				return false
			}
		}
	}
	return true
}

// TestInferMemoChangesNothing builds the same models with the inference's
// memo on, off, and bounded so tightly that classes keep none between
// their fits: it may only save work.
func TestInferMemoChangesNothing(t *testing.T) {
	bs, err := results.ReadFile("../testdata/models/real-graniterapids-subset.yaml")
	if err != nil {
		t.Fatal(err)
	}
	real := CollectMeasurements(bs, CollectOptions{})
	base, err := Embedded("llvm14-sapphirerapids.yml.gz")
	if err != nil {
		t.Fatal(err)
	}
	synth := synthMeasurements(t, loadTruth(t), 0.03, 1)
	for _, c := range []struct {
		name string
		ms   *Measurements
		base *Model
	}{{"real subset, base", real, base}, {"real subset, abstract", real, nil}, {"synthetic, abstract", synth, nil}} {
		var out [3][]byte
		dropped := 0
		for i, opt := range []InferOptions{{}, {noMemo: true}, {MemoBytes: 64 << 10, memoDropped: &dropped}} {
			m, _, err := Build(c.ms, BuildOptions{Base: c.base, HoldOut: 0.2, Now: fixedNow, Infer: opt})
			if err != nil {
				t.Fatal(err)
			}
			if out[i], err = m.Marshal(); err != nil {
				t.Fatal(err)
			}
		}
		if string(out[0]) != string(out[1]) {
			t.Errorf("%s: the memo changed the model", c.name)
		}
		if string(out[0]) != string(out[2]) {
			t.Errorf("%s: bounding the memo changed the model", c.name)
		}
		if dropped == 0 {
			t.Errorf("%s: a memo bound of 64 KiB never dropped a class's memo", c.name)
		}
	}
}
