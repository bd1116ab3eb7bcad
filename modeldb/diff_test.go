package modeldb

import (
	"strings"
	"testing"
)

func TestDiff(t *testing.T) {
	a := mustParse(t, smallModel)
	b := a.Clone()
	b.Name = "changed"
	e, _ := b.Lookup("vaddpd ymm, ymm, ymm")
	e.Throughput = 1                                  // +100 %
	e.PortPressure = PortPressure{{1, []string{"0"}}} // half the load moves off port 1
	e.Latencies[1].Cycles = 4                         // 3 -> 4 on 2->0
	e, _ = b.Lookup("vfmadd231pd ymm, ymm, ymm")      // 4 -> 5: 20 %
	e.Latency = 5
	e, _ = b.Lookup("mov r64, m64") // noise below the threshold: the same
	e.Throughput = 0.502
	b.Forms = append(b.Forms[:3:3], &Entry{Form: "imul r64, r64", Latency: 3, Throughput: 1, PortPressure: PortPressure{{1, []string{"1"}}}})
	b.Reindex()
	b.DispatchWidth = 8
	d := Diff(a, b, DiffOptions{})
	if len(d.Changed) != 2 || len(d.Added) != 1 || len(d.Removed) != 1 || d.Same != 1 {
		t.Fatalf("diff: %d changed, added %v, removed %v, same %d", len(d.Changed), d.Added, d.Removed, d.Same)
	}
	if d.Changed[0].Form != "vaddpd ymm, ymm, ymm" || d.Changed[0].Size != 1 || d.Changed[1].Form != "vfmadd231pd ymm, ymm, ymm" {
		t.Errorf("order: %+v", d.Changed)
	}
	var b2 strings.Builder
	d.WriteText(&b2, 0)
	want := `--- "small"
+++ "changed"
2 forms changed, 1 added, 1 removed, 1 the same
header dispatched_uops_per_cycle: 6 -> 8

 100.0%  vaddpd ymm, ymm, ymm
         throughput     0.5 -> 1
         latency 2->0   3 -> 4
         port_pressure  1*p01 -> 1*p0
  25.0%  vfmadd231pd ymm, ymm, ymm
         latency        4 -> 5

only in "changed" (1):
  imul r64, r64

only in "small" (1):
  xor r64, r64
`
	if b2.String() != want {
		t.Errorf("diff text:\n%s\nwant:\n%s", b2.String(), want)
	}
	// Port change sizes: moving all of a form's load is 1, half of it 0.5.
	if got := portShift(a, PortPressure{{1, []string{"0", "1"}}}, PortPressure{{1, []string{"2", "3"}}}); got != 1 {
		t.Errorf("full move: %v", got)
	}
	if got := portShift(a, PortPressure{{1, []string{"0", "1"}}}, PortPressure{{1, []string{"0", "2"}}}); got != 0.5 {
		t.Errorf("half move: %v", got)
	}
	// Identical models.
	if d := Diff(a, a.Clone(), DiffOptions{}); len(d.Changed)+len(d.Added)+len(d.Removed)+len(d.Header) != 0 || d.Same != 4 {
		t.Errorf("self diff %+v", d)
	}
}
