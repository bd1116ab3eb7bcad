package sweep

import (
	"path/filepath"
	"strings"
	"testing"

	"portlab/results"
)

func res(id, form, cpuType, node string, v float64) *results.Benchmark {
	b := &results.Benchmark{Mode: "latency", Measurements: []results.Measurement{{Key: "latency", Value: v}},
		Portlab: &results.Extra{ID: id, Form: form, Kind: "latency", Host: cpuType}}
	if node != "" {
		parts := strings.Split(cpuType, "-")
		b.Portlab.HostInfo = &results.HostInfo{Node: node, Vendor: parts[0]}
	}
	return b
}

func keys(bs []*results.Benchmark) string {
	var out []string
	for _, b := range bs {
		out = append(out, b.Portlab.ID+"@"+b.Node())
	}
	return strings.Join(out, " ")
}

// Merging is idempotent: a shard merged twice, or merged into a merge that
// already holds it, changes nothing; the order of the parts does not
// matter either.
func TestMergeIdempotent(t *testing.T) {
	const intel = "GenuineIntel-6-a7-1"
	a := []*results.Benchmark{res("a1", "add r64, r64", intel, "n1", 1), res("a2", "imul r64, r64", intel, "n1", 3)}
	b := []*results.Benchmark{res("b1", "vaddpd ymm, ymm, ymm", intel, "n2", 3)}
	once, err := Merge([][]*results.Benchmark{a, b}, false)
	if err != nil {
		t.Fatal(err)
	}
	for _, parts := range [][][]*results.Benchmark{
		{a, b, a},
		{b, a},
		{once, a},
		{once, once, b},
	} {
		got, err := Merge(parts, false)
		if err != nil {
			t.Fatal(err)
		}
		if keys(got) != keys(once) {
			t.Errorf("merge changed:\n got %s\nwant %s", keys(got), keys(once))
		}
	}
	m := MergeGroups([][]*results.Benchmark{a, a, b})
	if m.Duplicates != 2 {
		t.Errorf("%d duplicates, want 2", m.Duplicates)
	}
	// The merged file reads back and merges to itself.
	p := filepath.Join(t.TempDir(), "merged.yaml")
	if err := results.WriteFile(p, once); err != nil {
		t.Fatal(err)
	}
	back, err := results.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	again, _ := Merge([][]*results.Benchmark{back, a, b}, false)
	if keys(again) != keys(once) {
		t.Errorf("merged file + parts: %s, want %s", keys(again), keys(once))
	}
}

// One benchmark measured on two machines of one CPU type is two results
// (model build compares them); merge groups results per CPU type and
// refuses to mix types, naming them.
func TestMergeGroupsByCPUType(t *testing.T) {
	const intel, amd = "GenuineIntel-6-a7-1", "AuthenticAMD-19-11-1"
	n1 := []*results.Benchmark{res("x", "add r64, r64", intel, "n1", 1)}
	n2 := []*results.Benchmark{res("x", "add r64, r64", intel, "n2", 1.01)}
	z := []*results.Benchmark{res("x", "add r64, r64", amd, "z1", 1), res("y", "imul r64, r64", amd, "z1", 3)}
	exe := []*results.Benchmark{{Mode: "latency", Key: results.Key{Instructions: []string{"ADD64rr RAX RAX RAX"}}}}

	same, err := Merge([][]*results.Benchmark{n1, n2, n1}, false)
	if err != nil || keys(same) != "x@n1 x@n2" {
		t.Errorf("two machines of one type: %q %v", keys(same), err)
	}
	_, err = Merge([][]*results.Benchmark{n1, z}, false)
	if err == nil || !strings.Contains(err.Error(), "2 CPU types") || !strings.Contains(err.Error(), intel) || !strings.Contains(err.Error(), amd) {
		t.Errorf("mixed types: %v", err)
	}
	if mixed, err := Merge([][]*results.Benchmark{z, n1}, true); err != nil || len(mixed) != 3 || mixed[0].CPUType() != amd {
		t.Errorf("--allow-mixed: %v, %d results", err, len(mixed))
	}
	m := MergeGroups([][]*results.Benchmark{n1, z, n2})
	if len(m.Groups) != 2 || m.Groups[0].Type != amd || m.Groups[1].Type != intel {
		t.Fatalf("groups %v", m.Types())
	}
	if strings.Join(m.Groups[1].Nodes, ",") != "n1,n2" || len(m.Groups[1].Results) != 2 {
		t.Errorf("intel group: nodes %v, %d results", m.Groups[1].Nodes, len(m.Groups[1].Results))
	}
	if got := m.Types()[1]; got != intel+" (2 nodes, 2 results)" {
		t.Errorf("type summary %q", got)
	}
	// llvm-exegesis's results (no type) go with the one typed group.
	m = MergeGroups([][]*results.Benchmark{n1, exe})
	if len(m.Groups) != 1 || len(m.Groups[0].Results) != 2 || m.CheckOneType(false) != nil {
		t.Errorf("untyped results with one type: %v", m.Types())
	}
	if got := TypeFileName("Genuine Intel/6-a7-1"); got != "Genuine_Intel_6-a7-1.yaml" {
		t.Errorf("TypeFileName: %q", got)
	}
}

// Every result a sweep writes carries the host's description.
func TestRunWritesHostInfo(t *testing.T) {
	e, h := hostEngine(t)
	forms, err := Select([]string{"add r64, r64", "push r64"}, h.Has)
	if err != nil {
		t.Fatal(err)
	}
	o := options(h)
	o.Forms = forms
	o.HostInfo = HostInfo(h, "test-node")
	sum, err := Run(e, o)
	if err != nil {
		t.Fatal(err)
	}
	if len(sum.Results) < 3 {
		t.Fatalf("%d results", len(sum.Results))
	}
	for _, b := range sum.Results {
		hi := b.Portlab.HostInfo
		if hi == nil || hi.Node != "test-node" || hi.Signature() != h.Signature() || hi.Kernel != h.Kernel || hi.ClockSource != h.ClockSource {
			t.Fatalf("%s %s: host info %+v, want %s on test-node", b.Portlab.Form, b.Portlab.Kind, hi, h.Signature())
		}
		if b.CPUType() != h.Signature() {
			t.Errorf("CPU type %q, want %q", b.CPUType(), h.Signature())
		}
	}
}
