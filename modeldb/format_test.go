package modeldb

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

const smallModel = `name: small
micro_architecture: Test
isa: x86
llvm_cpu: znver4
dispatched_uops_per_cycle: 6
load_latency: {gpr: 4, ymm: 7}
load_throughput_default: [[1, '23']]
store_throughput_default: [[1, '4'], [1, '23']]
store_to_load_forward_latency: 1
micro_fusion: true
ports: ['0', '1', '2', '3', '4', '5']
instruction_forms:
  - form: vaddpd ymm, ymm, ymm
    uops: 1
    latency: 3
    latencies: [{from: '1', to: '0', cycles: 3}, {from: '2', to: '0', cycles: 3}]
    throughput: 0.5
    port_pressure: [[1, '01']]
    provenance: {source: measured, host: AuthenticAMD-25-61-2, date: '2025-06-01', confidence: high}
  - form: vfmadd231pd ymm,ymm,ymm
    uops: 1
    latency: 4
    throughput: 0.5
    port_pressure: [[1, '01']]
  - form: mov r64, m64
    uops: 1
    latency: 4
    throughput: 0.5
    port_pressure: [[1, '23']]
    flags: [may-load]
  - form: xor r64, r64
    uops: 1
    latency: 1
    throughput: 0.25
    port_pressure: [[1, '0145']]
    flags: [zero-idiom]
`

func mustParse(t *testing.T, text string) *Model {
	t.Helper()
	m, err := Parse("small.yml", []byte(text), LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestParseSmall(t *testing.T) {
	m := mustParse(t, smallModel)
	if len(m.Forms) != 4 || len(m.Ports) != 6 || m.DispatchWidth != 6 || m.LLVMCPU != "znver4" {
		t.Fatalf("header: %d forms, ports %v, width %d, cpu %q", len(m.Forms), m.Ports, m.DispatchWidth, m.LLVMCPU)
	}
	// Names are canonicalised.
	e, ok := m.Lookup("vfmadd231pd ymm, ymm, ymm")
	if !ok {
		t.Fatal("vfmadd231pd not found under its canonical name")
	}
	if got := FormatPressure(e.PortPressure); got != "1*p01" {
		t.Errorf("pressure %s, want 1*p01", got)
	}
	e, _ = m.Lookup("vaddpd ymm, ymm, ymm")
	if len(e.Latencies) != 2 || e.Latencies[1].From != "2" || e.Latencies[1].Cycles != 3 {
		t.Errorf("latencies %+v", e.Latencies)
	}
	if e.Provenance == nil || e.Provenance.Host != "AuthenticAMD-25-61-2" || e.Provenance.Confidence != "high" {
		t.Errorf("provenance %+v", e.Provenance)
	}
	if got := FormatPressure(m.StorePorts); got != "1*p4+1*p23" {
		t.Errorf("store ports %s", got)
	}
	if m.LoadLatency["ymm"] != 7 {
		t.Errorf("load latency %v", m.LoadLatency)
	}
	if !m.MicroFusion || m.StoreToLoadForwardLatency != 1 {
		t.Errorf("micro_fusion %v, store_to_load_forward_latency %v", m.MicroFusion, m.StoreToLoadForwardLatency)
	}
	data, err := m.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if m2 := mustParse(t, string(data)); !m2.MicroFusion {
		t.Errorf("micro_fusion lost on a round trip:\n%s", data)
	}
	if d := Diff(m, mustParse(t, strings.Replace(smallModel, "micro_fusion: true\n", "", 1)), DiffOptions{}); len(d.Header) != 1 || d.Header[0].Field != "micro_fusion" {
		t.Errorf("diff of micro_fusion: %+v", d.Header)
	}
	if x, _ := m.Lookup("xor r64, r64"); !x.HasFlag(FlagZeroIdiom) {
		t.Error("zero-idiom flag lost")
	}
}

// TestRoundTrip writes a model and reads it back unchanged.
func TestRoundTrip(t *testing.T) {
	for _, path := range []string{"../testdata/models/synthetic-zen4.yml"} {
		m, err := Load(path)
		if err != nil {
			t.Fatal(err)
		}
		data, err := m.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		m2, err := Parse("roundtrip", data, LoadOptions{})
		if err != nil {
			t.Fatalf("%s does not read back: %v\n%s", path, err, data)
		}
		d := Diff(m, m2, DiffOptions{Threshold: 1e-9})
		if len(d.Changed)+len(d.Added)+len(d.Removed)+len(d.Header) != 0 {
			var b strings.Builder
			d.WriteText(&b, 10)
			t.Errorf("%s changed on a round trip:\n%s", path, b.String())
		}
		data2, _ := m2.Marshal()
		if string(data) != string(data2) {
			t.Errorf("%s: second marshal differs", path)
		}
	}
}

func TestMarshalOSACAStyle(t *testing.T) {
	m := mustParse(t, smallModel)
	data, err := m.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	s := string(data)
	for _, want := range []string{
		"ports: ['0', '1', '2', '3', '4', '5']",
		"store_throughput_default: [[1, '4'], [1, '23']]",
		"  - form: vaddpd ymm, ymm, ymm\n    name: vaddpd\n    operands: [{class: register, name: ymm}, {class: register, name: ymm}, {class: register, name: ymm}]\n",
		"    port_pressure: [[1, '01']]\n",
		"latencies: [{from: '1', to: '0', cycles: 3}, {from: '2', to: '0', cycles: 3}]",
		"  - form: mov r64, m64\n    name: mov\n    operands: [{class: memory, base: '*', offset: '*', index: '*', scale: '*'}, {class: register, name: gpr}]\n",
		"    flags: [zero-idiom]\n",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("output lacks %q:\n%s", want, s)
		}
	}
	// With a multi-character port name, groups are lists ('13' would be port 13).
	m.Ports = append(m.Ports, "13")
	data, _ = m.Marshal()
	if !strings.Contains(string(data), "port_pressure: [[1, ['0', '1']]]") {
		t.Errorf("groups not written as lists when a port name is long:\n%s", data)
	}
}

func TestSaveGzip(t *testing.T) {
	m := mustParse(t, smallModel)
	dir := t.TempDir()
	for _, name := range []string{"m.yml", "m.yml.gz"} {
		p := filepath.Join(dir, name)
		if err := m.Save(p); err != nil {
			t.Fatal(err)
		}
		data, _ := os.ReadFile(p)
		if gz := data[0] == 0x1f && data[1] == 0x8b; gz != strings.HasSuffix(name, ".gz") {
			t.Errorf("%s: gzip %v", name, gz)
		}
		m2, err := Load(p)
		if err != nil {
			t.Fatal(err)
		}
		if len(m2.Forms) != 4 {
			t.Errorf("%s: %d forms", name, len(m2.Forms))
		}
	}
	// No temporary files are left behind.
	ents, _ := os.ReadDir(dir)
	if len(ents) != 2 {
		t.Errorf("directory holds %d files", len(ents))
	}
}

// TestValidation checks that each problem is reported with the file, the
// line and the entry.
func TestValidation(t *testing.T) {
	base := "name: bad\nports: ['0', '1', 'LD']\ninstruction_forms:\n"
	cases := []struct {
		name, body string
		want       []string
	}{
		{"unknown port", "  - form: vaddpd ymm, ymm, ymm\n    latency: 3\n    throughput: 0.5\n    port_pressure: [[1, ['0', '9']]]\n",
			[]string{`bad.yml:7: entry 1 (form "vaddpd ymm, ymm, ymm"): port_pressure: unknown port "9" (model ports: 0 1 LD)`}},
		{"negative cycles", "  - form: vaddpd ymm, ymm, ymm\n    latency: -3\n    throughput: 0.5\n    port_pressure: [[-1, ['0']]]\n",
			[]string{`bad.yml:5: entry 1 (form "vaddpd ymm, ymm, ymm"): latency: negative value -3`,
				`bad.yml:7: entry 1 (form "vaddpd ymm, ymm, ymm"): port_pressure cycles: negative value -1`}},
		{"duplicate", "  - form: vaddpd ymm, ymm, ymm\n    throughput: 0.5\n  - form: vaddpd ymm,ymm,ymm\n    throughput: 0.5\n",
			[]string{`bad.yml:6: entry 2 (form "vaddpd ymm,ymm,ymm"): duplicate form "vaddpd ymm, ymm, ymm" (first at line 4)`}},
		{"unknown form", "  - form: vaddpd ymm, ymm\n    throughput: 0.5\n",
			[]string{`bad.yml:4: entry 1 (form "vaddpd ymm, ymm"): unknown instruction form: "vaddpd ymm, ymm" (did you mean "vaddpd ymm, ymm, ymm"`, "--lenient"}},
		{"unknown mnemonic", "  - form: frob r64\n",
			[]string{`unknown instruction form: "frob r64" (the catalog has no mnemonic "frob")`}},
		{"unknown key", "  - form: add r64, r64\n    latncy: 1\n",
			[]string{`bad.yml:5: entry 1 (form "add r64, r64"): unknown key "latncy"`}},
		{"unknown flag", "  - form: add r64, r64\n    flags: [fast]\n",
			[]string{`flags: unknown flag "fast"`}},
		{"operand index", "  - form: add r64, r64\n    latencies: [{from: '2', to: '0', cycles: 1}]\n",
			[]string{`latencies: operand 2 does not exist (the form has 2 operands, numbered from 0)`}},
		{"provenance", "  - form: add r64, r64\n    provenance: {source: guessed}\n",
			[]string{`provenance.source: "guessed" is not one of measured, imported, inferred`}},
		{"not a number", "  - form: add r64, r64\n    throughput: fast\n",
			[]string{`throughput: "fast" is not a number`}},
	}
	for _, c := range cases {
		_, err := Parse("bad.yml", []byte(base+c.body), LoadOptions{})
		if err == nil {
			t.Errorf("%s: no error", c.name)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: error\n%v\nlacks\n%s", c.name, err, w)
			}
		}
	}
	// Header problems.
	_, err := Parse("h.yml", []byte("ports: ['0', '0']\nload_throughput_default: [[1, '7']]\n"), LoadOptions{})
	if err == nil || !strings.Contains(err.Error(), `ports: port "0" listed twice`) || !strings.Contains(err.Error(), `load_throughput_default: unknown port "7"`) {
		t.Errorf("header errors: %v", err)
	}
	// YAML syntax errors name the file and line.
	_, err = Parse("syntax.yml", []byte("name: x\nports: [0\n"), LoadOptions{})
	if err == nil || !regexp.MustCompile(`^syntax.yml:\d+: did not find`).MatchString(err.Error()) {
		t.Errorf("syntax error: %v", err)
	}
}

func TestLenient(t *testing.T) {
	text := "ports: ['0']\ninstruction_forms:\n  - form: vaddph zmm, zmm, zmm99\n    name: vaddph\n    operands: [{class: register, name: zmm}]\n    throughput: 1\n    port_pressure: [[1, '0']]\n"
	if _, err := Parse("foreign.yml", []byte(text), LoadOptions{}); err == nil {
		t.Fatal("strict load accepted an unknown form")
	}
	var warnings []string
	m, err := Parse("foreign.yml", []byte(text), LoadOptions{Lenient: true, Warn: func(s string) { warnings = append(warnings, s) }})
	if err != nil {
		t.Fatal(err)
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], "foreign.yml:3: entry 1") {
		t.Errorf("warnings %q", warnings)
	}
	e, ok := m.Lookup("vaddph zmm, zmm, zmm99")
	if !ok || e.OSACA == nil || e.OSACA.Name != "vaddph" {
		t.Fatalf("foreign entry %+v", e)
	}
	// Its OSACA name and operands are written back as read.
	data, _ := m.Marshal()
	if !strings.Contains(string(data), "name: vaddph\n    operands: [{class: register, name: zmm}]") {
		t.Errorf("foreign entry written as:\n%s", data)
	}
}

func TestOSACAFileHint(t *testing.T) {
	_, err := Load("../testdata/models/osaca-mini.yml")
	if err == nil || !strings.Contains(err.Error(), "this looks like an OSACA file; import it with 'portlab model import osaca") {
		t.Errorf("got %v", err)
	}
	if le, ok := err.(*LoadError); !ok || len(le.Problems) != 1 {
		t.Errorf("want exactly one problem, got %v", err)
	}
}

func TestUnknownKeysKept(t *testing.T) {
	m := mustParse(t, "osaca_version: 0.5.3\nhidden_loads: true\nports: ['0']\ncustom: {a: 1}\n")
	if !m.HiddenLoads || m.Extra["osaca_version"] != "0.5.3" {
		t.Fatalf("extra %v", m.Extra)
	}
	data, _ := m.Marshal()
	for _, want := range []string{"osaca_version: 0.5.3", "custom:", "hidden_loads: true"} {
		if !strings.Contains(string(data), want) {
			t.Errorf("lost %q:\n%s", want, data)
		}
	}
}

func TestFormatNum(t *testing.T) {
	for v, want := range map[float64]string{1: "1", 0.5: "0.5", 1.0 / 3: "0.33333", 2.000004: "2", -0.000001: "0"} {
		if got := FormatNum(v); got != want {
			t.Errorf("FormatNum(%v) = %q, want %q", v, got, want)
		}
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte(smallModel))
	f.Add([]byte("ports: ['0']\ninstruction_forms:\n  - form: add r64, r64\n    port_pressure: [[1, '0'], [2, ['0']]]\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := Parse("fuzz.yml", data, LoadOptions{Lenient: true})
		if err != nil {
			return
		}
		out, err := m.Marshal()
		if err != nil {
			t.Fatalf("marshal: %v", err)
		}
		if _, err := Parse("again.yml", out, LoadOptions{Lenient: true}); err != nil {
			t.Fatalf("a model that loaded does not load after a round trip: %v\n%s", err, out)
		}
	})
}

// roundTrip writes m and reads it back (as name), failing the test on
// either error.
func roundTrip(t *testing.T, m *Model, name string) *Model {
	t.Helper()
	data, err := m.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	back, err := Parse(name, data, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return back
}
