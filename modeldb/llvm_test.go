package modeldb

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"portlab/isa"
)

func TestLLVMPortNames(t *testing.T) {
	for _, c := range []struct{ in, want []string }{
		{[]string{"Zn3AGU0", "Zn3ALU0", "Zn3FPP45.\x00", "Zn3FPP45.\x01", "Zn3LSU.\x02"}, []string{"AGU0", "ALU0", "FPP45.0", "FPP45.1", "LSU.2"}},
		{[]string{"SKLDivider", "SKLFPDivider", "SKLPort0", "SKLPort1"}, []string{"Divider", "FPDivider", "0", "1"}},
		{[]string{"ICXPort0", "ICXPort10"}, []string{"0", "10"}},
		{[]string{"Only"}, []string{"Only"}},
	} {
		got := llvmPortNames(c.in)
		if strings.Join(got, " ") != strings.Join(c.want, " ") {
			t.Errorf("llvmPortNames(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	for p, fam := range map[string]string{"ALU3": "ALU", "LSU.1": "LSU", "5": "", "FPP45.0": "FPP", "Divider": "Divider"} {
		if got := portFamily(p); got != fam {
			t.Errorf("portFamily(%q) = %q, want %q", p, got, fam)
		}
	}
	for v, want := range map[float64]float64{0.33: 1.0 / 3, 0.6667: 2.0 / 3, 0.5: 0.5, 1.749: 1.75, 1.74: 1.74, 0.123456: 0.125, 0.1111: 0.1111} {
		if got := snap(v); got != want {
			t.Errorf("snap(%v) = %v, want %v", v, got, want)
		}
	}
}

// TestDecompose checks how per-unit loads become port groups, on loads
// shaped like llvm-mca's for Skylake.
func TestDecompose(t *testing.T) {
	ports := []string{"0", "1", "2", "3", "4", "5", "6", "7"}
	d := newDecomposer(ports)
	load := func(m map[string]float64) []float64 {
		v := make([]float64, len(ports))
		for p, x := range m {
			v[portIndex(ports, p)] = x
		}
		return v
	}
	// Groups single-cycle uses show: p0156 (add), p06 (cmov), p15 (lea),
	// p23 (load), p237 (store address), p01 (FP).
	for _, l := range []map[string]float64{
		{"0": .25, "1": .25, "5": .25, "6": .25},
		{"0": .5, "6": .5},
		{"1": .5, "5": .5},
		{"2": .5, "3": .5},
		{"2": 1.0 / 3, "3": 1.0 / 3, "7": 1.0 / 3, "4": 1},
		{"0": .5, "1": .5},
	} {
		d.learn(load(l))
	}
	for _, c := range []struct {
		loads map[string]float64
		want  string
	}{
		{map[string]float64{"0": .25, "1": .25, "5": .25, "6": .25}, "1*p0156"},
		// a store: address group and data port
		{map[string]float64{"2": 1.0 / 3, "3": 1.0 / 3, "7": 1.0 / 3, "4": 1}, "1*p237+1*p4"},
		// FMA with a load: two groups that happen to load their ports alike
		{map[string]float64{"0": .5, "1": .5, "2": .5, "3": .5}, "1*p01+1*p23"},
		// adc m64, r64: 2*p06 and the store data port at one level, split
		{map[string]float64{"0": 1, "6": 1, "4": 1, "1": .5, "5": .5, "2": 2.0 / 3, "3": 2.0 / 3, "7": 2.0 / 3}, "2*p06+1*p15+2*p237+1*p4"},
		// a single port
		{map[string]float64{"1": 1}, "1*p1"},
	} {
		if got := FormatPressure(d.decompose(load(c.loads))); got != c.want {
			t.Errorf("decompose(%v) = %s, want %s", c.loads, got, c.want)
		}
	}
}

func needLLVMMCA(t *testing.T) {
	t.Helper()
	if _, err := FindLLVMMCA(""); err != nil {
		t.Skip(err)
	}
}

func formsNamed(t *testing.T, names ...string) []*isa.Form {
	var fs []*isa.Form
	for _, n := range names {
		fs = append(fs, mustForm(t, n))
	}
	return fs
}

func TestImportLLVMForms(t *testing.T) {
	needLLVMMCA(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	forms := formsNamed(t, "vaddpd ymm, ymm, ymm", "vmulpd ymm, ymm, ymm", "vfmadd231pd ymm, ymm, ymm",
		"vaddpd ymm, ymm, m256", "add r64, r64", "imul r64, r64", "mov r64, m64", "mov m64, r64",
		"vaddpd zmm, zmm, zmm", "vaddpd zmm {k}, zmm, zmm", "bndcl bnd, r64")
	m, rep, err := ImportLLVM(ctx, LLVMOptions{MCPU: "znver3", Forms: forms})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%s", rep.Summary(5))
	if rep.MCPU != "znver3" || rep.Forms != 11 || rep.Imported != 8 || len(rep.Unsupported) != 2 || len(rep.Rejected) != 1 {
		t.Errorf("report: %+v", rep)
	}
	if !strings.HasPrefix(rep.Unsupported[0].Reason, "needs avx512f") {
		t.Errorf("unsupported reason %q", rep.Unsupported[0].Reason)
	}
	if rep.Rejected[0].Form != "bndcl bnd, r64" || !strings.Contains(rep.Rejected[0].Reason, "invalid register name") {
		t.Errorf("rejected %+v", rep.Rejected[0])
	}
	if m.LLVMCPU != "znver3" || m.DispatchWidth != 6 || !m.HasPort("FPP2") || !m.HasPort("LSU.0") {
		t.Errorf("header: cpu %q width %d ports %v", m.LLVMCPU, m.DispatchWidth, m.Ports)
	}
	if !strings.HasPrefix(m.Provenance.From, "llvm-mca 14") && !strings.HasPrefix(m.Provenance.From, "llvm-mca ") {
		t.Errorf("provenance %+v", m.Provenance)
	}
	// LLVM 14's znver3 numbers.
	type want struct {
		lat, tp, uops float64
		pp            string
	}
	for form, w := range map[string]want{
		"vaddpd ymm, ymm, ymm": {3, 0.5, 1, "1*p[FPP2,FPP3]"},
		"vmulpd ymm, ymm, ymm": {3, 0.5, 1, "1*p[FPP0,FPP1]"},
		"add r64, r64":         {1, 0.25, 1, "1*p[ALU0,ALU1,ALU2,ALU3]"},
		"imul r64, r64":        {3, 1, 1, "1*p[ALU1]"},
		"mov r64, m64":         {5, 1.0 / 3, 1, "1*p[AGU0,AGU1,AGU2]+1*p[LSU.0,LSU.1,LSU.2]+1*p[Load.0,Load.1,Load.2]"},
		// LLVM 14 charges FP loads to FPP45, not the AGUs
		"vaddpd ymm, ymm, m256": {10, 0.5, 1, "1*p[FPP2,FPP3]+1*p[FPP45.0,FPP45.1]+1*p[LSU.0,LSU.1,LSU.2]+1*p[Load.0,Load.1,Load.2]"},
	} {
		e, ok := m.Lookup(form)
		if !ok {
			t.Errorf("%q not imported", form)
			continue
		}
		if e.Latency != w.lat || e.Throughput != w.tp || e.Uops != w.uops || FormatPressure(e.PortPressure) != w.pp {
			t.Errorf("%q: lat %v tp %v uops %v ports %s, want %v %v %v %s", form, e.Latency, e.Throughput, e.Uops, FormatPressure(e.PortPressure), w.lat, w.tp, w.uops, w.pp)
		}
	}
	if e, _ := m.Lookup("mov r64, m64"); !e.HasFlag(FlagMayLoad) {
		t.Error("load lacks may-load")
	}
	if e, _ := m.Lookup("mov m64, r64"); !e.HasFlag(FlagMayStore) {
		t.Error("store lacks may-store")
	}
	if FormatPressure(m.LoadPorts) == "-" || m.LoadLatency["gpr"] != 5 {
		t.Errorf("load defaults: %s, %v", FormatPressure(m.LoadPorts), m.LoadLatency)
	}
	// The imported model validates after a round trip, and predicts like llvm-mca alone.
	data, err := m.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Parse("znver3.yml", data, LoadOptions{}); err != nil {
		t.Fatal(err)
	}
	for _, e := range m.Forms {
		if got := PredictThroughput(m, []MixPart{{Form: e.Form, Count: 1}}); got < e.Throughput*0.999 {
			t.Errorf("%q: predicted alone %v, llvm-mca's RThroughput %v", e.Form, got, e.Throughput)
		}
	}
}

// TestImportLLVMZnver3Catalog imports the whole catalog for znver3 (the
// issue's acceptance test): every non-AVX-512 form llvm-mca assembles.
func TestImportLLVMZnver3Catalog(t *testing.T) {
	needLLVMMCA(t)
	if testing.Short() {
		t.Skip("-short")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	m, rep, err := ImportLLVM(ctx, LLVMOptions{MCPU: "znver3"})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%s", rep.Summary(3))
	if rep.Imported < 3200 || rep.Imported != len(m.Forms) {
		t.Errorf("imported %d forms (model %d)", rep.Imported, len(m.Forms))
	}
	if rep.Imported+len(rep.Rejected)+len(rep.Unsupported) != rep.Forms {
		t.Errorf("%d imported + %d rejected + %d unsupported != %d forms", rep.Imported, len(rep.Rejected), len(rep.Unsupported), rep.Forms)
	}
	for _, u := range rep.Unsupported {
		if !strings.Contains(u.Reason, "avx512") {
			t.Errorf("znver3 rejects %q for %q, not AVX-512", u.Form, u.Reason)
			break
		}
	}
	if len(rep.Rejected) > 100 {
		t.Errorf("%d forms rejected by the assembler", len(rep.Rejected))
	}
	// znver3's model marks AVX-512 unsupported (LLVM 14 still simulates
	// some AVX-512 extensions it does not list, such as VBMI2).
	for _, f := range []string{"vaddpd zmm, zmm, zmm", "vfmadd231pd zmm, zmm, zmm", "vaddpd ymm {k}, ymm, ymm"} {
		if _, ok := m.Lookup(f); ok {
			t.Errorf("znver3 model has AVX-512 form %q", f)
		}
	}
	for _, f := range []string{"vaddpd ymm, ymm, ymm", "vfmadd231pd ymm, ymm, m256", "add r64, r64", "vpshufb ymm, ymm, ymm"} {
		if _, ok := m.Lookup(f); !ok {
			t.Errorf("znver3 model lacks %q", f)
		}
	}
}

func TestImportLLVMHostAndUnknown(t *testing.T) {
	needLLVMMCA(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	forms := formsNamed(t, "add r64, r64", "vaddpd ymm, ymm, ymm")
	// Without portlab's name for the core, llvm-mca's own choice, which an
	// LLVM older than the core cannot make (it names the host "(unknown)").
	mca, err := FindLLVMMCA("")
	if err != nil {
		t.Fatal(err)
	}
	_, llvmHost, err := llvmVersion(ctx, mca)
	if err != nil {
		t.Fatal(err)
	}
	m, rep, err := ImportLLVM(ctx, LLVMOptions{MCPU: "host", Forms: forms})
	switch {
	case !namesHost(llvmHost):
		if !errors.Is(err, ErrUnknownCPU) || !strings.Contains(err.Error(), "pass -mcpu") {
			t.Errorf("host import where llvm-mca names the host %q: %v, want an error asking for -mcpu", llvmHost, err)
		}
	case err != nil:
		t.Fatal(err)
	case rep.MCPU != llvmHost || !strings.Contains(rep.Note, "llvm-mca's choice") || len(m.Forms) != 2:
		t.Errorf("host import: cpu %q (llvm-mca names %q) note %q, %d forms", rep.MCPU, llvmHost, rep.Note, len(m.Forms))
	}
	// With it: the core where llvm-mca models it, else the nearest core
	// it models (LLVM 14 on a Zen 5: znver3).
	for _, c := range []struct {
		uarch string
		want  []string
	}{{"znver3", []string{"znver3"}}, {"znver5", []string{"znver5", "znver4", "znver3"}}, {"emeraldrapids", []string{"emeraldrapids", "sapphirerapids"}}} {
		m, rep, err := ImportLLVM(ctx, LLVMOptions{MCPU: "host", HostUarch: c.uarch, Forms: forms})
		if err != nil {
			t.Errorf("host import as %s: %v", c.uarch, err)
			continue
		}
		if !slices.Contains(c.want, rep.MCPU) || len(m.Forms) != 2 {
			t.Errorf("host import as %s: cpu %q (want one of %v), %d forms", c.uarch, rep.MCPU, c.want, len(m.Forms))
		}
		if rep.MCPU != c.uarch && !strings.Contains(rep.Note, "nearest core it models") {
			t.Errorf("host import as %s took %s, note %q", c.uarch, rep.MCPU, rep.Note)
		}
	}
	_, _, err = ImportLLVM(ctx, LLVMOptions{MCPU: "pentium-z", Forms: formsNamed(t, "add r64, r64")})
	if !errors.Is(err, ErrUnknownCPU) {
		t.Errorf("unknown CPU: %v", err)
	}
}
