package modeldb

import (
	"strings"
	"testing"

	"portlab/results"
)

// TestFitAddressPorts: lea's slower shapes get the group of ports their
// mixes with probes of known ports show (the guest: [base+index*s] on
// ports 0, 6 and 10, three a cycle; [base+index] on all five ALU ports);
// mixes no group explains leave the shape's ports scaled, and the report
// says so. The mixes come from CollectMeasurements, as a sweep's results.
func TestFitAddressPorts(t *testing.T) {
	pp := func(ports ...string) PortPressure { return PortPressure{{Cycles: 1, Ports: ports}} }
	m := &Model{Name: "alu", ISA: "x86", DispatchWidth: 6, Ports: []string{"0", "1", "5", "6", "10"}}
	m.Put(&Entry{Form: "shl r64, imm8", Uops: 1, Latency: 1, Throughput: 0.5, PortPressure: pp("0", "6")})
	m.Put(&Entry{Form: "imul r64, r64", Uops: 1, Latency: 3, Throughput: 1, PortPressure: pp("1")})
	m.Put(&Entry{Form: "paddd xmm, xmm", Uops: 1, Latency: 1, Throughput: 1.0 / 3, PortPressure: pp("0", "1", "5")})
	m.Put(&Entry{Form: "add r64, r64", Uops: 1, Latency: 1, Throughput: 0.2, PortPressure: pp("0", "1", "5", "6", "10")})
	m.Put(&Entry{Form: "lea r64, m", Uops: 1, Latency: 1, Throughput: 0.2, PortPressure: pp("0", "1", "5", "6", "10"),
		Addressing: []AddressCost{{Shape: "base+index", Latency: 1, Throughput: 0.2}, {Shape: "base+index*s", Latency: 2, Throughput: 1.0 / 3}, {Shape: "index*s+disp", Latency: 2, Throughput: 1.0 / 3}}})
	m.Reindex()
	res := func(shape, probe string, cycles float64) *results.Benchmark {
		return &results.Benchmark{Mode: "inverse_throughput", Measurements: []results.Measurement{{Key: "inverse_throughput", Value: cycles / 16, PerSnippetValue: cycles}},
			Portlab: &results.Extra{ID: shape + probe, Form: "lea r64, m", Kind: AddressPortsKind, Addressing: shape, Median: cycles / 16, Reps: 5, Clean: 5, Host: "h",
				Mix: []results.MixPart{{Form: "lea r64, m", Count: 8}, {Form: probe, Count: 8}}}}
	}
	// Measured on the guest (cycles per copy of 8 + 8).
	var bs []*results.Benchmark
	for _, c := range []struct {
		shape                 string
		shl, imul, paddd, add float64
	}{
		{"base+index", 4.03, 8.00, 3.19, 3.20},
		{"base+index*s", 5.33, 8.00, 3.20, 3.28},
		{"index*s+disp", 8.5, 4.0, 9.0, 2.0}, // nothing like any group
	} {
		bs = append(bs, res(c.shape, "shl r64, imm8", c.shl), res(c.shape, "imul r64, r64", c.imul), res(c.shape, "paddd xmm, xmm", c.paddd), res(c.shape, "add r64, r64", c.add))
	}
	ms := CollectMeasurements(bs, CollectOptions{})
	if n := len(ms.Forms["lea r64, m"].AddressMixes); n != 12 || len(ms.Mixes) != 0 {
		t.Fatalf("collected %d address mixes and %d form mixes, want 12 and 0", n, len(ms.Mixes))
	}
	report := fitAddressPorts(m, ms)
	e, _ := m.Lookup("lea r64, m")
	want := map[string]string{"base+index": "1*p[0,1,5,6,10]", "base+index*s": "1*p[0,6,10]", "index*s+disp": ""}
	for _, a := range e.Addressing {
		got := ""
		if len(a.PortPressure) > 0 {
			got = FormatPressure(a.PortPressure)
		}
		if got != want[a.Shape] {
			t.Errorf("%s: ports %q, want %q", a.Shape, got, want[a.Shape])
		}
	}
	if joined := strings.Join(report, "\n"); !strings.Contains(joined, "base+index*s p[0,6,10]") || !strings.Contains(joined, "no port group explains index*s+disp") {
		t.Errorf("report:\n%s", joined)
	}
	// As the builder's pass: applied on the evidence of the 12 mixes.
	b := &builder{ms: ms, m: m, rep: &BuildReport{}}
	var r Pass
	if err := b.addressPorts(&r); err != nil {
		t.Fatal(err)
	}
	if !r.Applied || !strings.Contains(r.Evidence, "12 mixes of address shapes with probe forms") || len(r.Changes) != len(report) {
		t.Errorf("address ports pass: applied %v, %q, changes %q", r.Applied, r.Evidence, r.Changes)
	}
	// The shape's ports survive writing and reading; an unknown port in
	// them is an error naming the file and line.
	back := roundTrip(t, m, "alu.yml")
	be, _ := back.Lookup("lea r64, m")
	if a, ok := be.ForShape("base+index*s"); !ok || FormatPressure(a.PortPressure) != "1*p[0,6,10]" {
		t.Errorf("read back %+v", a)
	}
	if c := be.Clone(); &c.Addressing[1].PortPressure[0] == &be.Addressing[1].PortPressure[0] {
		t.Error("Clone shares a shape's ports")
	}
	src := "name: x\nisa: x86\nports: ['0']\ninstruction_forms:\n  - {form: \"lea r64, m\", uops: 1, latency: 1, throughput: 0.2, port_pressure: [[1, '0']], addressing: [{shape: 'base+index*s', latency: 2, throughput: 0.33, port_pressure: [[1, '7']]}]}\n"
	if _, err := Parse("bad.yml", []byte(src), LoadOptions{}); err == nil || !strings.Contains(err.Error(), "bad.yml:5") || !strings.Contains(err.Error(), `unknown port "7"`) {
		t.Errorf("unknown port in a shape's ports: error %v", err)
	}
}
