package modeldb

import (
	"slices"
	"testing"
)

// withoutPort is m with port p folded into port into: gone from the
// port list and from every entry's pressure.
func withoutPort(m *Model, p, into string) *Model {
	c := m.Clone()
	c.Ports = slices.DeleteFunc(c.Ports, func(x string) bool { return x == p })
	for _, e := range c.Forms {
		for i := range e.PortPressure {
			for j, x := range e.PortPressure[i].Ports {
				if x == p {
					e.PortPressure[i].Ports[j] = into
				}
			}
			e.PortPressure[i].Ports = slices.Compact(e.PortPressure[i].Ports)
		}
	}
	c.Reindex()
	return c
}

// TestRebuildNamesNewPortsApart: a build adds the ports its base lacks
// under names no port has, so a measured model (which has some) rebuilt
// as the base of another build still loads: the first build, from a base
// without FP3, adds new0; the second, from that model less FP2, adds
// new1 beside it, not a second new0.
func TestRebuildNamesNewPortsApart(t *testing.T) {
	truth := loadTruth(t)
	ms := synthMeasurements(t, truth, 0.01, 1)
	first, _, err := Build(ms, BuildOptions{Base: withoutPort(truth, "FP3", "FP2"), Now: fixedNow})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(first.Ports, "new0") {
		t.Fatalf("the first build added no port: %v (the test shows nothing)", first.Ports)
	}
	second, _, err := Build(ms, BuildOptions{Base: withoutPort(first, "FP2", "FP1"), Now: fixedNow})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(second.Ports, "new0") || !slices.Contains(second.Ports, "new1") {
		t.Errorf("second build's ports %v, want new0 kept and new1 added", second.Ports)
	}
	seen := map[string]bool{}
	for _, p := range second.Ports {
		if seen[p] {
			t.Errorf("port %q listed twice: %v", p, second.Ports)
		}
		seen[p] = true
	}
	data, err := second.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Parse("second.yml", data, LoadOptions{}); err != nil {
		t.Errorf("the rebuilt model does not load: %v", err)
	}
}
