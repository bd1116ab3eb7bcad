package cluster

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"
	"time"

	"portlab/modeldb"
	"portlab/results"
)

const handModel = "testdata/handmade-model.yml"

func loadModel(t testing.TB, path string) *modeldb.Model {
	t.Helper()
	m, err := modeldb.LoadFile(path, modeldb.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// analyze clusters the two exegesis fixtures and checks them against the
// hand-made model.
func analyze(t testing.TB, opts AnalysisOptions) (*Report, *Clustering, *modeldb.Model) {
	t.Helper()
	m := loadModel(t, handModel)
	pts := load(t, latencyFixture, throughputFixture)
	if miss := Resolve(pts, m); !reflect.DeepEqual(miss, []string{}) && len(miss) != 0 {
		t.Errorf("unresolved opcodes %v", miss)
	}
	c, err := Run(pts, Options{})
	if err != nil {
		t.Fatal(err)
	}
	opts.Generated = time.Date(2025, 11, 21, 12, 0, 0, 0, time.UTC)
	return Analyze(c, m, opts), c, m
}

func classNames(cs []*ClassReport) []string {
	var out []string
	for _, c := range cs {
		out = append(out, c.Class)
	}
	return out
}

func TestInconsistenciesAgainstHandMadeModel(t *testing.T) {
	r, _, _ := analyze(t, AnalysisOptions{})
	// Worst first: the model's reciprocal throughput 1 for vmaxpd and the
	// ymm FMA where the measurement is 0.5 (50 %), the load's throughput
	// 0.5 measured 0.333 (33 %) and latency 5 measured 4.03, cvtsd2si
	// measured once (a noise point) at 6.9 against 6, lea at 1.104 against
	// 1 (just beyond epsilon 0.1).
	want := []string{"lat 1 · rthr 1 · uops 1 · 1*FP0", "WriteFMAY", "WriteLoad", "WriteCvtSD2I", "WriteLEA"}
	if got := classNames(r.Inconsistencies); !reflect.DeepEqual(got, want) {
		t.Fatalf("inconsistent classes %q, want %q", got, want)
	}
	if got := classNames(r.Consistent); !reflect.DeepEqual(got, []string{"WriteALU", "WriteFAdd64Y", "WriteIMul64Reg", "WriteShiftCL"}) {
		t.Errorf("consistent classes %q", got)
	}
	// shl is unstable (points at 1 and at 2 cycles): compared by its median,
	// but not flagged, since some of its points agree with the model's 1.
	shl := r.Consistent[3].Forms[0].Measures[0]
	if !shl.Unstable || shl.Mismatch || shl.Measured != 1.9987 || shl.Points != 5 || !reflect.DeepEqual(shl.Clusters, []string{"4"}) {
		t.Errorf("shl: %+v", shl)
	}
	vmax := r.Inconsistencies[0]
	if vmax.NamedClass || len(vmax.Forms) != 1 || vmax.Forms[0].Form != "vmaxpd ymm, ymm, ymm" ||
		!reflect.DeepEqual(vmax.Unmeasured, []string{"vminpd ymm, ymm, ymm"}) {
		t.Errorf("vmaxpd class: %+v", vmax)
	}
	fma := r.Inconsistencies[1]
	if !fma.NamedClass || !reflect.DeepEqual(fma.Unmeasured, []string{"vfmadd213pd ymm, ymm, ymm"}) {
		t.Errorf("FMA class: named %v unmeasured %v", fma.NamedClass, fma.Unmeasured)
	}
	f := fma.Forms[0]
	if f.Form != "vfmadd231pd ymm, ymm, ymm" || !reflect.DeepEqual(f.Opcodes, []string{"VFMADD231PDYr"}) || len(f.Measures) != 1 {
		t.Fatalf("FMA form: %+v", f)
	}
	m := f.Measures[0]
	if m.Key != "inverse_throughput" || m.Points != 3 || math.Abs(m.Measured-0.50083) > 1e-4 || *m.Model != 1 ||
		!m.Mismatch || math.Abs(m.RelError-0.49917) > 1e-4 || !reflect.DeepEqual(m.Clusters, []string{"5"}) {
		t.Errorf("FMA throughput: %+v", m)
	}
	if fma.Model == nil || fma.Model.Ports != "2*[FP0,FP1]" || fma.Model.Throughput != 1 {
		t.Errorf("FMA class model %+v", fma.Model)
	}
	if !strings.Contains(f.Snippet, "vfmadd231pd %ymm8,%ymm0,%ymm0") {
		t.Errorf("FMA snippet:\n%s", f.Snippet)
	}

	load := r.Inconsistencies[2]
	var lat, tp *Comparison
	for _, c := range load.Forms[0].Measures {
		switch c.Key {
		case "latency":
			lat = c
		case "inverse_throughput":
			tp = c
		}
	}
	if lat == nil || tp == nil || !lat.Mismatch || !tp.Mismatch || math.Abs(lat.Measured-4.032) > 1e-3 || *lat.Model != 5 || *tp.Model != 0.5 {
		t.Errorf("load: latency %+v throughput %+v", lat, tp)
	}
	// Exegesis's view: each cluster's part of the class, centroid against
	// the model.
	if len(load.Clusters) != 2 || load.Clusters[0].Cluster != "3" || load.Clusters[0].Match || load.Clusters[1].Cluster != "6" ||
		math.Abs(load.Clusters[1].Distance-0.1662) > 1e-3 {
		for _, c := range load.Clusters {
			t.Logf("%+v", c)
		}
		t.Errorf("load clusters wrong")
	}
	cvt := r.Inconsistencies[3].Forms[0].Measures[0]
	if !cvt.NoiseOnly || cvt.Measured != 6.9 || !reflect.DeepEqual(cvt.Clusters, []string{"[noise]"}) {
		t.Errorf("cvtsd2si: %+v", cvt)
	}
	// imul's noise outlier (3.481) is left out: its clustered points agree.
	for _, cr := range r.Consistent {
		if cr.Class == "WriteIMul64Reg" {
			for _, c := range cr.Forms[0].Measures {
				if c.Key == "latency" && (c.Points != 2 || c.Mismatch) {
					t.Errorf("imul latency: %+v", c)
				}
			}
		}
	}
	if len(r.NotInModel) != 1 || r.NotInModel[0].Form != "popcnt r64, r64" {
		t.Errorf("not in model: %+v", r.NotInModel)
	}
	s := r.Summary
	want2 := Summary{Points: 38, Opcodes: 16, Forms: 12, Clusters: 7, UnstableClusters: 1, Noise: 2, Errors: 1,
		Classes: 9, InconsistentClasses: 5, InconsistentForms: 5, FormsChecked: 10, NotInModel: 1}
	if s != want2 {
		t.Errorf("summary %+v\nwant    %+v", s, want2)
	}
	if len(r.Unstable) != 1 || r.Unstable[0].Opcodes[0] != "shl r64, cl" || len(r.Unstable[0].Members) != 5 {
		t.Errorf("unstable: %+v", r.Unstable)
	}
	if r.Meta.Model != "hand-made Zen 3 subset" || r.Meta.ModelCPU != "znver3" || r.Meta.CPU != "znver3" || r.Meta.Generated != "2025-11-21T12:00:00Z" {
		t.Errorf("meta %+v", r.Meta)
	}
}

// With --analysis-display-unstable-clusters only the unstable clusters are
// compared (exegesis's semantics): shl's points, spread over 1 and 2 cycles.
func TestDisplayUnstable(t *testing.T) {
	r, _, _ := analyze(t, AnalysisOptions{DisplayUnstable: true})
	if got := classNames(r.Inconsistencies); !reflect.DeepEqual(got, []string{"WriteShiftCL"}) {
		t.Fatalf("inconsistent %q", got)
	}
	if len(r.Consistent) != 0 || r.Inconsistencies[0].Forms[0].Measures[0].Points != 5 {
		t.Errorf("%+v", r.Inconsistencies[0].Forms[0].Measures[0])
	}
}

func TestInconsistencyEpsilon(t *testing.T) {
	r, _, _ := analyze(t, AnalysisOptions{Epsilon: 0.2})
	// lea (0.104 off) agrees at 0.2; the load's throughput (0.166) too.
	want := []string{"lat 1 · rthr 1 · uops 1 · 1*FP0", "WriteFMAY", "WriteLoad", "WriteCvtSD2I"}
	if got := classNames(r.Inconsistencies); !reflect.DeepEqual(got, want) {
		t.Errorf("inconsistent %q, want %q", got, want)
	}
	for _, c := range r.Inconsistencies[2].Forms[0].Measures {
		if c.Key == "inverse_throughput" && c.Mismatch {
			t.Errorf("load throughput flagged at epsilon 0.2")
		}
	}
}

func TestNoModel(t *testing.T) {
	pts := load(t, latencyFixture)
	Resolve(pts, nil)
	c, _ := Run(pts, Options{})
	r := Analyze(c, nil, AnalysisOptions{})
	if len(r.Inconsistencies)+len(r.Consistent)+len(r.NotInModel) != 0 || r.Summary.Clusters != 4 || len(r.Noise) != 2 {
		t.Errorf("%+v", r.Summary)
	}
}

func TestOperandPairLatenciesAndPortlabResults(t *testing.T) {
	m, err := modeldb.Parse("pair.yml", []byte(`name: pairs
isa: x86
ports: ['0', '1', '2', '3']
instruction_forms:
  - form: vfmadd231pd ymm, ymm, ymm
    uops: 1
    latency: 5
    latencies: [{from: '1', to: '0', cycles: 5}, {from: '2', to: '0', cycles: 4}]
    throughput: 0.5
    port_pressure: [[1, '01']]
`), modeldb.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	pts := load(t, "testdata/portlab-results.yaml")
	Resolve(pts, m)
	c, err := Run(pts, Options{MinPoints: 1})
	if err != nil {
		t.Fatal(err)
	}
	r := Analyze(c, m, AnalysisOptions{})
	if len(r.Inconsistencies) != 1 {
		t.Fatalf("%d inconsistencies", len(r.Inconsistencies))
	}
	f := r.Inconsistencies[0].Forms[0]
	got := map[string]bool{}
	for _, c := range f.Measures {
		got[c.Key+" "+c.Config] = c.Mismatch
	}
	want := map[string]bool{"latency operands 1->0": true, "latency operands 2->0": false, "inverse_throughput ": false}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("mismatches %v, want %v", got, want)
	}
	if !strings.HasPrefix(f.Snippet, "vfmadd231pd ymm0, ymm0, ymm1") {
		t.Errorf("snippet %q", f.Snippet)
	}
	if r.Meta.Host != "AuthenticAMD-25-97-2" || r.Meta.Clock != "calibrated-tsc" || !strings.Contains(r.Meta.Measured, "2025-11-20T10:00:00Z") {
		t.Errorf("meta %+v", r.Meta)
	}
	if len(r.Errors) != 1 || !strings.Contains(r.Errors[0].Error, "privileged") {
		t.Errorf("errors %+v", r.Errors)
	}
	// The mix and the helper chain have no form: they are clustered but
	// compared with nothing.
	if len(r.NotInModel) != 0 {
		t.Errorf("not in model %+v", r.NotInModel)
	}
	if p := pts[5]; !p.Aux || p.Form != "" || p.Opcode != "helper: vmovq-gpr-xmm" || c.Of[5] != 0 {
		t.Errorf("helper point: %+v in %v", p, c.Of[5])
	}
	// Correcting fixes the pair and the largest latency.
	m2, corr := Correct(m, r.Inconsistencies)
	e, _ := m2.Lookup("vfmadd231pd ymm, ymm, ymm")
	if e.Latency != 4 || e.Latencies[0].Cycles != 4 || len(corr) != 1 || corr[0].Field != "latency 1->0" {
		t.Errorf("corrected %+v %+v", e, corr)
	}
}

func TestJSONRoundTripAndCorrection(t *testing.T) {
	r, _, m := analyze(t, AnalysisOptions{})
	var buf bytes.Buffer
	if err := WriteJSON(&buf, r); err != nil {
		t.Fatal(err)
	}
	var generic map[string]any
	if err := json.Unmarshal(buf.Bytes(), &generic); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"meta", "summary", "inconsistencies", "consistent", "not_in_model", "unstable", "clusters", "noise", "errors"} {
		if _, ok := generic[k]; !ok {
			t.Errorf("JSON lacks %q", k)
		}
	}
	first := generic["inconsistencies"].([]any)[0].(map[string]any)
	meas := first["forms"].([]any)[0].(map[string]any)["measurements"].([]any)[0].(map[string]any)
	for _, k := range []string{"mode", "key", "measured", "model", "abs_error", "relative_error", "mismatch", "clusters", "points"} {
		if _, ok := meas[k]; !ok {
			t.Errorf("measurement JSON lacks %q: %v", k, meas)
		}
	}
	back, err := ParseReport("r.json", buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back.Inconsistencies, r.Inconsistencies) {
		t.Errorf("round trip changed the inconsistencies")
	}
	if _, err := ParseReport("x.json", []byte(`{"a": 1}`)); err == nil {
		t.Errorf("a foreign JSON file was accepted")
	}

	m2, corr := Correct(m, back.Inconsistencies)
	got := map[string]float64{}
	for _, c := range corr {
		got[c.Form+" "+c.Field] = c.New
	}
	want := map[string]float64{
		"vmaxpd ymm, ymm, ymm throughput":      0.5,
		"vfmadd231pd ymm, ymm, ymm throughput": 0.5,
		"vfmadd213pd ymm, ymm, ymm throughput": 0.5, // inferred: same named class
		"mov r64, m64 latency":                 4,
		"mov r64, m64 throughput":              0.3333,
		"cvtsd2si r64, xmm latency":            6.9,
		"lea r64, m latency":                   1.1,
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("corrections %v\nwant %v", got, want)
	}
	e, _ := m2.Lookup("vfmadd231pd ymm, ymm, ymm")
	if e.Throughput != 0.5 || e.Provenance == nil || e.Provenance.Source != modeldb.SourceMeasured ||
		!strings.Contains(e.Provenance.Note, "throughput 1 -> 0.5") || !strings.Contains(e.Provenance.Note, "implies reciprocal throughput 1") {
		t.Errorf("corrected entry %+v %+v", e, e.Provenance)
	}
	inf, _ := m2.Lookup("vfmadd213pd ymm, ymm, ymm")
	if inf.Provenance == nil || inf.Provenance.Source != modeldb.SourceInferred {
		t.Errorf("inferred entry %+v", inf.Provenance)
	}
	// vminpd shares only values with vmaxpd, not a class name: untouched.
	if e, _ := m2.Lookup("vminpd ymm, ymm, ymm"); e.Throughput != 1 || e.Provenance != nil {
		t.Errorf("vminpd changed: %+v", e)
	}
	// The base model is untouched.
	if e, _ := m.Lookup("vfmadd231pd ymm, ymm, ymm"); e.Throughput != 1 || e.Provenance != nil {
		t.Errorf("base model changed: %+v", e)
	}
	if CorrectModel(m, nil).Forms[0] == m.Forms[0] {
		t.Errorf("CorrectModel shares entries with the base")
	}
	// The corrected model writes and reads back.
	data, err := m2.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := modeldb.Parse("corrected.yml", data, modeldb.LoadOptions{}); err != nil {
		t.Errorf("corrected model does not read back: %v", err)
	}
	// A second pass over the corrected model finds nothing left to fix.
	pts := load(t, latencyFixture, throughputFixture)
	Resolve(pts, m2)
	c, _ := Run(pts, Options{})
	if r2 := Analyze(c, m2, AnalysisOptions{}); len(r2.Inconsistencies) != 0 {
		t.Errorf("after correction: %q still inconsistent", classNames(r2.Inconsistencies))
	}
}

// Uops results (exegesis's uops mode) compare NumMicroOps with the uop
// count and port keys with the idealised port pressure.
func TestUopsMode(t *testing.T) {
	m := loadModel(t, handModel)
	b := []*results.Benchmark{{Mode: "uops", Key: results.Key{Instructions: []string{"VFMADD231PDYr YMM0 YMM0 YMM1 YMM2"}},
		Measurements: []results.Measurement{{Key: "NumMicroOps", Value: 1.01}, {Key: "FP0", Value: 0.5}, {Key: "FP1", Value: 0.5}, {Key: "Zn3Misc", Value: 0}}}}
	pts := FromBenchmarks("uops.yaml", b)
	Resolve(pts, m)
	c, _ := Run(pts, Options{MinPoints: 1})
	r := Analyze(c, m, AnalysisOptions{})
	if len(r.Inconsistencies) != 1 {
		t.Fatalf("%d inconsistencies", len(r.Inconsistencies))
	}
	got := map[string]string{}
	for _, c := range r.Inconsistencies[0].Forms[0].Measures {
		mv := "none"
		if c.Model != nil {
			mv = num(*c.Model)
		}
		got[c.Key] = fmt.Sprintf("%s %v", mv, c.Mismatch)
	}
	// The model's 2 cycles over FP0 and FP1 are 1 per port; measured 0.5.
	want := map[string]string{"NumMicroOps": "1 false", "FP0": "1 true", "FP1": "1 true", "Zn3Misc": "none false"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

func TestSnap(t *testing.T) {
	for in, want := range map[float64]float64{3.0011: 3, 0.5012: 0.5, 0.3346: 0.3333, 13.47: 13.5, 1.3: 1.3, 6.9: 6.9, 0.2507: 0.25, 1.104: 1.1, 0: 0} {
		if got := Snap(in); got != want {
			t.Errorf("Snap(%v) = %v, want %v", in, got, want)
		}
	}
}
