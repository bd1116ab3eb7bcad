package modeldb

import (
	"bytes"
	"encoding/csv"
	"math"
	"strings"
	"testing"

	"portlab/results"
)

func hostResult(node, form, kind, operands string, v float64) *results.Benchmark {
	key := "latency"
	if kind == "throughput" {
		key = "inverse_throughput"
	}
	return &results.Benchmark{
		Mode:         key,
		Measurements: []results.Measurement{{Key: key, Value: v}},
		Portlab: &results.Extra{Form: form, Kind: kind, Operands: operands, Host: "GenuineIntel-6-a7-1",
			HostInfo: &results.HostInfo{Node: node, Vendor: "GenuineIntel", Family: 6, Model: 0xa7, Stepping: 1}},
	}
}

func TestCompareHosts(t *testing.T) {
	var bs []*results.Benchmark
	for _, n := range []struct {
		node         string
		div, add, tp float64
	}{{"n1", 14, 1, 0.25}, {"n2", 15, 1, 0.25}, {"n3", 14, 1.001, 0.25}} {
		bs = append(bs,
			hostResult(n.node, "div r64", "latency", "1->0", n.div),
			hostResult(n.node, "div r64", "latency", "1->0", n.div), // repeated: the median counts once
			hostResult(n.node, "add r64, r64", "latency", "1->0", n.add),
			hostResult(n.node, "add r64, r64", "throughput", "", n.tp))
	}
	// Measured on one machine only: not compared.
	bs = append(bs, hostResult("n1", "imul r64, r64", "latency", "1->0", 3))
	// Failed results and mixes are left out.
	bad := hostResult("n2", "imul r64, r64", "latency", "1->0", 9)
	bad.Error = "SIGILL"
	bs = append(bs, bad)

	a := CompareHosts(bs)
	if strings.Join(a.Nodes, ",") != "n1,n2,n3" || strings.Join(a.Types, ",") != "GenuineIntel-6-a7-1" {
		t.Errorf("nodes %v types %v", a.Nodes, a.Types)
	}
	if len(a.Quantities) != 3 {
		t.Fatalf("%d quantities compared, want 3 (div latency, add latency and throughput)", len(a.Quantities))
	}
	q := a.Quantities[0]
	if q.Form != "div r64" || q.Quantity != "latency 1->0" || q.MinNode != "n1" || q.MaxNode != "n2" || math.Abs(q.Spread-1.0/14) > 1e-9 {
		t.Errorf("worst quantity %+v, want div r64 latency n1 14 .. n2 15 (7.1%%)", q)
	}
	forms := a.Forms()
	if len(forms) != 2 || forms[0].Form != "div r64" || forms[1].Form != "add r64, r64" || math.Abs(forms[1].Spread-0.001) > 1e-6 {
		t.Errorf("forms %+v", forms)
	}
	sum := a.Summary(10, 0.02)
	for _, want := range []string{"3 machines of GenuineIntel-6-a7-1 (n1, n2, n3)", "2 forms measured on 2+ machines", "1 forms (50.0%) agree within 2.0%; 1 differ by more:", "div r64", "n1 14.000 .. n2 15.000 (7.1%)"} {
		if !strings.Contains(sum, want) {
			t.Errorf("summary lacks %q:\n%s", want, sum)
		}
	}
	if strings.Contains(sum, "add r64, r64  ") {
		t.Errorf("summary lists a form within tolerance:\n%s", sum)
	}
	var buf bytes.Buffer
	if err := a.WriteCSV(&buf); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&buf).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 4 || strings.Join(rows[0], ",") != "form,quantity,machines,min,max,median,spread,n1,n2,n3" || rows[1][0] != "div r64" || rows[1][8] != "15.00000" {
		t.Errorf("CSV %v", rows)
	}
	// One machine: nothing to say.
	if s := CompareHosts(bs[:4]).Summary(10, 0.02); s != "" {
		t.Errorf("one machine: %q", s)
	}
}
