package modeldb

import (
	"math"
	"slices"
	"strings"
	"testing"

	"portlab/results"
)

// clusterModel is a model of two clusters (Zen-like: integer ALUs, vector
// pipes, load ports both use) or of shared ports (Intel-like: vector work
// on ports the integer work uses too).
func clusterModel(t *testing.T, shared bool) *Model {
	t.Helper()
	pp := func(ports ...string) PortPressure { return PortPressure{{Cycles: 1, Ports: ports}} }
	m := &Model{Name: "ref", ISA: "x86", DispatchWidth: 6, Ports: []string{"ALU0", "ALU1", "FP0", "FP1", "LD"}}
	m.Put(&Entry{Form: "add r64, r64", Uops: 1, Latency: 1, Throughput: 0.5, PortPressure: pp("ALU0", "ALU1")})
	m.Put(&Entry{Form: "imul r64, r64", Uops: 1, Latency: 3, Throughput: 1, PortPressure: pp("ALU1")})
	vec := pp("FP0", "FP1")
	if shared {
		vec = pp("ALU0", "ALU1") // Intel's ports 0, 1 and 5: vector and integer work alike
	}
	m.Put(&Entry{Form: "vaddpd ymm, ymm, ymm", Uops: 1, Latency: 3, Throughput: 0.5, PortPressure: vec})
	m.Put(&Entry{Form: "vpaddd ymm, ymm, ymm", Uops: 1, Latency: 1, Throughput: 0.5, PortPressure: vec})
	// Memory forms use the load port whatever their registers.
	m.Put(&Entry{Form: "mov r64, m64", Uops: 1, Latency: 4, Throughput: 1, PortPressure: pp("LD"), Flags: []string{FlagMayLoad}})
	m.Put(&Entry{Form: "vmovdqa ymm, m256", Uops: 1, Latency: 5, Throughput: 1, PortPressure: pp("LD"), Flags: []string{FlagMayLoad}})
	m.Reindex()
	return m
}

// clusterResult is a throughput result of form.
func clusterResult(id, form string, tp float64) *results.Benchmark {
	return &results.Benchmark{Mode: "inverse_throughput", Measurements: []results.Measurement{{Key: "inverse_throughput", Value: tp}},
		Portlab: &results.Extra{ID: id, Form: form, Kind: "throughput", Median: tp, Reps: 5, Clean: 5, Host: "h"}}
}

// clusterMix is a port-conflict mix result of cycles a copy.
func clusterMix(id string, parts []results.MixPart, cycles float64) *results.Benchmark {
	n := 0
	for _, p := range parts {
		n += p.Count
	}
	return &results.Benchmark{Mode: "inverse_throughput", Measurements: []results.Measurement{{Key: "inverse_throughput", Value: cycles / float64(n), PerSnippetValue: cycles}},
		Portlab: &results.Extra{ID: id, Kind: "ports", Median: cycles / float64(n), Reps: 5, Clean: 5, Host: "h", Mix: parts}}
}

// The clusters of a reference: ports only integer register forms use and
// ports only vector register forms use, memory ports in neither; none
// where the vector forms share a port with the integer ones.
func TestClusterPorts(t *testing.T) {
	ports := []string{"ALU0", "ALU1", "FP0", "FP1", "LD", "new0"}
	ints, vecs := clusterPorts(clusterModel(t, false), ports)
	if ints != 0b11 || vecs != 0b1100 {
		t.Errorf("clusters %b and %b, want ALU0 ALU1 (11) and FP0 FP1 (1100)", ints, vecs)
	}
	if ints, vecs := clusterPorts(clusterModel(t, true), ports); ints != 0 || vecs != 0 {
		t.Errorf("shared ports: clusters %b and %b, want none", ints, vecs)
	}
	if ints, vecs := clusterPorts(nil, ports); ints != 0 || vecs != 0 {
		t.Error("no reference: clusters")
	}
}

// TestBuildKeepsClustersApart: a base that puts a vector form on an
// integer ALU as well as the vector pipes (as the Zen 4 fit did with
// vexpandpd), with measurements that mapping explains, keeps it where the
// reference shares its ports between the kinds of work, and gets a
// mapping within the vector cluster where the reference keeps the
// clusters apart; the pass says what it kept apart.
func TestBuildKeepsClustersApart(t *testing.T) {
	base := clusterModel(t, false)
	base.Name = "base"
	e, _ := base.Lookup("vpaddd ymm, ymm, ymm")
	e.PortPressure = PortPressure{{Cycles: 1, Ports: []string{"ALU1", "FP0", "FP1"}}}
	e.Throughput = 1.0 / 3
	// What the base's mapping predicts: three vpaddd a cycle over ALU1,
	// FP0 and FP1, beside adds (ALU0, ALU1), imuls (ALU1) and vaddpd
	// (FP0, FP1).
	bs := []*results.Benchmark{
		clusterResult("a", "add r64, r64", 0.5), clusterResult("i", "imul r64, r64", 1), clusterResult("v", "vaddpd ymm, ymm, ymm", 0.5), clusterResult("p", "vpaddd ymm, ymm, ymm", 1.0/3),
		clusterMix("m1", []results.MixPart{{Form: "vpaddd ymm, ymm, ymm", Count: 8}, {Form: "add r64, r64", Count: 8}}, 4),
		clusterMix("m2", []results.MixPart{{Form: "vpaddd ymm, ymm, ymm", Count: 8}, {Form: "imul r64, r64", Count: 8}}, 8),
		clusterMix("m3", []results.MixPart{{Form: "vpaddd ymm, ymm, ymm", Count: 8}, {Form: "vaddpd ymm, ymm, ymm", Count: 8}}, 16.0/3),
	}
	for _, shared := range []bool{true, false} {
		ms := CollectMeasurements(bs, CollectOptions{})
		m, rep, err := Build(ms, BuildOptions{Base: base, Clusters: clusterModel(t, shared), Now: fixedNow})
		if err != nil {
			t.Fatal(err)
		}
		got, _ := m.Lookup("vpaddd ymm, ymm, ymm")
		onALU := strings.Contains(FormatPressure(got.PortPressure), "ALU")
		if shared {
			wantPass(t, rep, "clusters", false, "its vector register forms share ports with its integer ones")
			if !onALU {
				t.Errorf("shared ports: vpaddd ymm, ymm, ymm on %s, want the base's ALU1, FP0, FP1", FormatPressure(got.PortPressure))
			}
			continue
		}
		wantPass(t, rep, "clusters", true, "keeps integer ports p[ALU0,ALU1] and vector ports p[FP0,FP1] apart")
		if onALU {
			t.Errorf("two clusters: vpaddd ymm, ymm, ymm on %s, a group across them", FormatPressure(got.PortPressure))
		}
	}
}

// TestBuildKeepsRegisterFormsInTheirCluster: mixes that no mapping
// within the clusters explains (adds that slow a vector stream as if
// they ran on its pipes, and imuls that do not slow the adds) are
// explained, where the reference shares its ports, by register forms
// on the other kind's ports or on the load port (the fit puts imul r64,
// r64 on the load port and vaddpd on the ALUs: what it once did with
// adc r64, imm8 and mov r64, r64 on the Zen 4 guest); where the
// reference keeps two clusters every register form stays on its own
// cluster's ports, and the pass says so.
func TestBuildKeepsRegisterFormsInTheirCluster(t *testing.T) {
	base := clusterModel(t, false)
	base.Name = "base"
	// 8 adds beside 16 vaddpd take 12 cycles, as if the adds took the
	// vector pipes (8 on the ALUs); beside imul and loads they cost
	// nothing.
	bs := []*results.Benchmark{
		clusterResult("a", "add r64, r64", 0.5), clusterResult("i", "imul r64, r64", 1), clusterResult("v", "vaddpd ymm, ymm, ymm", 0.5), clusterResult("l", "mov r64, m64", 1),
		clusterMix("m1", []results.MixPart{{Form: "add r64, r64", Count: 8}, {Form: "vaddpd ymm, ymm, ymm", Count: 16}}, 12),
		clusterMix("m2", []results.MixPart{{Form: "add r64, r64", Count: 8}, {Form: "imul r64, r64", Count: 4}}, 4),
		clusterMix("m3", []results.MixPart{{Form: "add r64, r64", Count: 8}, {Form: "mov r64, m64", Count: 4}}, 4),
	}
	outside := func(m *Model) []string {
		var out []string
		for form, own := range map[string]string{"add r64, r64": "ALU", "imul r64, r64": "ALU", "vaddpd ymm, ymm, ymm": "FP"} {
			e, _ := m.Lookup(form)
			for _, u := range e.PortPressure {
				for _, port := range u.Ports {
					if !strings.HasPrefix(port, own) {
						out = append(out, form+" on "+FormatPressure(e.PortPressure))
					}
				}
			}
		}
		return out
	}
	for _, shared := range []bool{false, true} {
		ms := CollectMeasurements(bs, CollectOptions{})
		m, rep, err := Build(ms, BuildOptions{Base: base, Clusters: clusterModel(t, shared), Now: fixedNow})
		if err != nil {
			t.Fatal(err)
		}
		out := outside(m)
		if shared {
			if len(out) == 0 {
				t.Error("shared ports: every register form on its own kind's ports; the mixes want one elsewhere")
			}
			continue
		}
		if len(out) > 0 {
			t.Errorf("two clusters: %s", strings.Join(out, "; "))
		}
		p := passOf(t, rep, "clusters")
		if !p.Applied || !slices.ContainsFunc(p.Changes, func(c string) bool { return strings.Contains(c, "integer register forms keep to the integer ports") }) {
			t.Errorf("pass clusters: applied %v, changes %q: want the register forms' rule", p.Applied, p.Changes)
		}
	}
}

// The register domain of a form: general registers alone (fixed ones,
// shift counts and immediates included) are integer work, vector or MMX
// registers alone (a write mask included) vector work; a memory form
// takes its data's side (an integer one needs a register, an immediate or
// the flags); mask register operands, both kinds, x87, and a vector form
// that writes the flags are neither.
func TestRegisterDomain(t *testing.T) {
	for form, want := range map[string]regDomain{
		"add r64, r64":             domainInteger,
		"adc al, imm8":             domainInteger,
		"rcl r64, cl":              domainInteger,
		"ror r32, 1":               domainInteger,
		"vaddpd ymm, ymm, ymm":     domainVector,
		"paddb mm, mm":             domainVector,
		"vpermq zmm, zmm, imm8":    domainVector,
		"ptest xmm, xmm":           domainNone,
		"movq r64, xmm":            domainNone,
		"add r64, m64":             domainIntegerMemory,
		"adc m32, imm8":            domainIntegerMemory,
		"mov m64, r64":             domainIntegerMemory,
		"inc m32":                  domainIntegerMemory,
		"vaddps ymm, ymm, m256":    domainVectorMemory,
		"movd m32, xmm":            domainVectorMemory,
		"vaddpd zmm, zmm, m64bcst": domainVectorMemory,
		"ptest xmm, m128":          domainNone,
		"movbe r64, m64":           domainIntegerMemory,
		"pinsrd xmm, m32, imm8":    domainVectorMemory,
		"fld m32":                  domainNone,
		"clflush m8":               domainNone,
		"prefetcht0 m8":            domainNone,
		"ldmxcsr m32":              domainNone,
		"vaddpd zmm {k}, zmm, zmm": domainVector,
		"kandw k, k, k":            domainNone,
		"no such form":             domainNone,
	} {
		if got := registerDomain(form); got != want {
			t.Errorf("%s: domain %d, want %d", form, got, want)
		}
	}
}

// A memory form keeps its work on its data's cluster: 4 add r64, m64
// beside 8 vaddpd take 6 cycles, as if the adds took the vector pipes (4
// on the load port, 4 on the vector pipes apart). With two clusters the
// adds stay off the vector pipes and the mix stays unexplained; with the
// ports shared (no clusters) the fit explains it, which shows the mix asks
// for sharing.
func TestBuildKeepsMemoryFormsInTheirCluster(t *testing.T) {
	base := clusterModel(t, false)
	base.Name = "base"
	base.Put(&Entry{Form: "add r64, m64", Uops: 1, Latency: 5, Throughput: 1, Flags: []string{FlagMayLoad},
		PortPressure: PortPressure{{Cycles: 1, Ports: []string{"ALU0", "ALU1"}}, {Cycles: 1, Ports: []string{"LD"}}}})
	m1 := []results.MixPart{{Form: "add r64, m64", Count: 4}, {Form: "vaddpd ymm, ymm, ymm", Count: 8}}
	bs := []*results.Benchmark{
		clusterResult("a", "add r64, r64", 0.5), clusterResult("i", "imul r64, r64", 1), clusterResult("v", "vaddpd ymm, ymm, ymm", 0.5),
		clusterResult("l", "mov r64, m64", 1), clusterResult("am", "add r64, m64", 1),
		clusterMix("m1", m1, 6),
		clusterMix("m2", []results.MixPart{{Form: "add r64, m64", Count: 4}, {Form: "imul r64, r64", Count: 4}}, 4),
		clusterMix("m3", []results.MixPart{{Form: "add r64, m64", Count: 4}, {Form: "add r64, r64", Count: 8}}, 4),
	}
	on := func(m *Model, form, prefix string) bool {
		e, _ := m.Lookup(form)
		for _, u := range e.PortPressure {
			for _, port := range u.Ports {
				if strings.HasPrefix(port, prefix) {
					return true
				}
			}
		}
		return false
	}
	for _, shared := range []bool{false, true} {
		ms := CollectMeasurements(bs, CollectOptions{})
		m, rep, err := Build(ms, BuildOptions{Base: base, Clusters: clusterModel(t, shared), Now: fixedNow})
		if err != nil {
			t.Fatal(err)
		}
		pr, err := NewPredictor(m).Predict(m1)
		if err != nil {
			t.Fatal(err)
		}
		e, _ := m.Lookup("add r64, m64")
		if shared {
			if math.Abs(pr.Cycles-6)/6 > 0.1 {
				t.Errorf("no clusters: the mix predicted %.2f cycles for 6 (add r64, m64 on %s)", pr.Cycles, FormatPressure(e.PortPressure))
			}
			continue
		}
		if on(m, "add r64, m64", "FP") || on(m, "vaddpd ymm, ymm, ymm", "ALU") {
			t.Errorf("two clusters: add r64, m64 on %s, a vector pipe", FormatPressure(e.PortPressure))
		}
		if math.Abs(pr.Cycles-4) > 0.01 {
			t.Errorf("two clusters: the mix predicted %.2f cycles, want 4 (the adds apart from the vector pipes)", pr.Cycles)
		}
		p := passOf(t, rep, "clusters")
		if !slices.ContainsFunc(p.Changes, func(c string) bool {
			return strings.Contains(c, "memory forms of general registers keep off the vector ports")
		}) {
			t.Errorf("pass clusters: changes %q: want the memory forms' rule", p.Changes)
		}
	}
}
