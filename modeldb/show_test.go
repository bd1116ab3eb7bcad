package modeldb

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestWriteEntry(t *testing.T) {
	m := mustParse(t, smallModel)
	es, err := m.Select("vaddpd ymm,ymm,ymm")
	if err != nil || len(es) != 1 {
		t.Fatalf("select: %v %v", es, err)
	}
	var b strings.Builder
	m.WriteEntry(&b, es[0])
	want := `vaddpd ymm, ymm, ymm
  latency      3 cycles (1->0 3, 2->0 3)
  throughput   0.5 cycles (2 per cycle)
  uops         1
  ports        1*p01
  port load    0 0.5, 1 0.5 (alone, balanced; ports bound 0.5 cycles)
  source       measured, on AuthenticAMD-25-61-2, 2025-06-01, confidence high
  example      vaddpd ymm1, ymm2, ymm3   |   vaddpd %ymm3, %ymm2, %ymm1
`
	if b.String() != want {
		t.Errorf("got:\n%s\nwant:\n%s", b.String(), want)
	}
	// Entries without provenance inherit the model's.
	m.Provenance = &Provenance{Source: SourceImported, From: "osaca:x.yml"}
	es, _ = m.Select("xor r64, r64")
	b.Reset()
	m.WriteEntry(&b, es[0])
	if !strings.Contains(b.String(), "  flags        zero-idiom\n") || !strings.Contains(b.String(), "  source       imported (osaca:x.yml)\n") {
		t.Errorf("got:\n%s", b.String())
	}
	// A latency beside 512-bit work is shown under the latency.
	e := es[0].Clone()
	e.Latency512 = 3.2
	b.Reset()
	m.WriteEntry(&b, e)
	if !strings.Contains(b.String(), "  beside zmm   latency 3.2 cycles (while 512-bit work is in flight)\n") {
		t.Errorf("got:\n%s", b.String())
	}
}

func TestSelectAndTable(t *testing.T) {
	m := mustParse(t, smallModel)
	es, err := m.Select("v*pd ymm*")
	if err != nil || len(es) != 2 || es[0].Form != "vaddpd ymm, ymm, ymm" || es[1].Form != "vfmadd231pd ymm, ymm, ymm" {
		t.Fatalf("glob: %v %v", es, err)
	}
	var b strings.Builder
	m.WriteTable(&b, es)
	want := `form                       latency  throughput  uops  ports  source
vaddpd ymm, ymm, ymm       3        0.5         1     1*p01  measured
vfmadd231pd ymm, ymm, ymm  4        0.5         1     1*p01  -
`
	if b.String() != want {
		t.Errorf("table:\n%s\nwant:\n%s", b.String(), want)
	}
	for pattern, msg := range map[string]string{
		"vmulpd ymm, ymm, ymm": `has no entry for "vmulpd ymm, ymm, ymm"`,
		"vaddpd ymm, ymm":      `unknown instruction form: "vaddpd ymm, ymm" (did you mean`,
		"vmul* zmm*":           `has none of the`,
		"frob*":                `no catalog form matches "frob*"`,
	} {
		if _, err := m.Select(pattern); err == nil || !strings.Contains(err.Error(), msg) {
			t.Errorf("Select(%q): %v, want %q", pattern, err, msg)
		}
	}
}

func TestEntryJSON(t *testing.T) {
	m := mustParse(t, smallModel)
	e, _ := m.Lookup("vaddpd ymm, ymm, ymm")
	data, err := json.Marshal(m.JSON(e))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"form":"vaddpd ymm, ymm, ymm","uops":1,"latency":3,"latencies":[{"from":"1","to":"0","cycles":3},{"from":"2","to":"0","cycles":3}],"throughput":0.5,"port_pressure":[{"cycles":1,"ports":["0","1"]}],"port_loads":{"0":0.5,"1":0.5},"provenance":{"source":"measured","host":"AuthenticAMD-25-61-2","date":"2025-06-01","confidence":"high"}}`
	if string(data) != want {
		t.Errorf("got  %s\nwant %s", data, want)
	}
}
