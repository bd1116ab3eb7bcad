package cluster

import (
	"bytes"
	"fmt"
	"math/rand"
	"os"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"portlab/results"
)

const latencyFixture = "../testdata/exegesis/cluster-latency.yaml"
const throughputFixture = "../testdata/exegesis/cluster-throughput.yaml"

func load(t testing.TB, files ...string) []*Point {
	t.Helper()
	pts, err := Load(files...)
	if err != nil {
		t.Fatal(err)
	}
	return pts
}

// docs turns point indices into 1-based document numbers.
func docs(pts []*Point, idx []int) []int {
	out := []int{}
	for _, i := range idx {
		out = append(out, pts[i].Doc)
	}
	return out
}

// The fixture is written by hand in llvm-exegesis's format. llvm-exegesis 14
// (-mode=analysis -analysis-clusters-output-file=-) clusters it exactly so:
// points are visited in order; ADD64rr at 1.0027 starts cluster 0 and pulls
// in every point near 1 cycle, LEA64r at 1.104 as a border point (only one
// point within 0.1 of it, but that one is core); IMUL64rr and VADDPDYrr
// near 3 form cluster 1; the IMUL64rr outlier at 3.481 and the lone
// CVTSD2SI64rr at 6.9 are noise; SHL64rCL at 2.0 forms cluster 2 and MOV64rm
// cluster 3; DIV64r failed (error). SHL64rCL then has points in clusters 0
// and 2, so stabilisation moves all five to a new unstable cluster 4
// (cluster 0's first, in their order there), leaving cluster 2 empty.
func TestExegesisFixtureClustersAsExegesis(t *testing.T) {
	pts := load(t, latencyFixture)
	c, err := Run(pts, Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		docs     []int
		unstable bool
	}{
		{[]int{1, 3, 4, 11, 20, 21}, false}, // ADD64rr, XOR32rr, LEA64r (border)
		{[]int{2, 5, 7, 14}, false},         // IMUL64rr, VADDPDYrr
		{[]int{}, false},                    // SHL64rCL at 2 cycles, emptied by stabilisation
		{[]int{17, 18, 19}, false},          // MOV64rm
		{[]int{6, 15, 10, 13, 16}, true},    // SHL64rCL, unstable
	}
	if len(c.Clusters) != len(want) {
		t.Fatalf("%d clusters, want %d", len(c.Clusters), len(want))
	}
	for i, w := range want {
		cl := c.Clusters[i]
		if got := docs(pts, cl.Points); !reflect.DeepEqual(got, w.docs) || cl.Unstable != w.unstable || cl.ID != ID(i) {
			t.Errorf("cluster %d: points %v unstable %v, want %v %v", i, got, cl.Unstable, w.docs, w.unstable)
		}
	}
	if got := c.Clusters[4].From; !reflect.DeepEqual(got, []ID{0, 2}) {
		t.Errorf("unstable cluster from %v, want [0 2]", got)
	}
	if got := docs(pts, c.Noise); !reflect.DeepEqual(got, []int{9, 12}) {
		t.Errorf("noise %v, want [9 12]", got)
	}
	if got := docs(pts, c.Errors); !reflect.DeepEqual(got, []int{8}) {
		t.Errorf("errors %v, want [8]", got)
	}
	if c.Of[20] != 0 || c.Of[8] != Noise || c.Of[7] != Error {
		t.Errorf("Of: LEA %v, CVTSD2SI %v, DIV %v", c.Of[20], c.Of[8], c.Of[7])
	}
	if got := c.NonEmpty(); got != 4 {
		t.Errorf("NonEmpty = %d, want 4", got)
	}
}

// The CSV is llvm-exegesis's: same header, ids, row order and blank lines
// (two after every cluster, the emptied cluster 2 included); opcode_name
// holds the opcode where exegesis prints the disassembled snippet.
func TestCSVLayoutIsExegesis(t *testing.T) {
	pts := load(t, latencyFixture)
	c, err := Run(pts, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := WriteCSV(&buf, c, nil); err != nil {
		t.Fatal(err)
	}
	want := `cluster_id,opcode_name,config,sched_class,latency
0,ADD64rr,,,1.0027
0,ADD64rr,,,1.00
0,XOR32rr,,,1.0012
0,ADD64rr,,,1.0011
0,XOR32rr,,,1.0003
0,LEA64r,,,1.104


1,IMUL64rr,,,3.0011
1,IMUL64rr,,,3.025
1,VADDPDYrr,,,3.0003
1,VADDPDYrr,,,3.0105




3,MOV64rm,,,4.005
3,MOV64rm,,,4.09
3,MOV64rm,,,4.001


4,SHL64rCL,,,1.0051
4,SHL64rCL,,,1.0008
4,SHL64rCL,,,2.0012
4,SHL64rCL,,,2.053
4,SHL64rCL,,,1.9987


`
	if buf.String() != want {
		t.Errorf("CSV:\n%s\nwant:\n%s", buf.String(), want)
	}
}

func TestCSVEscapingAndNumbers(t *testing.T) {
	for in, want := range map[string]string{"add r64, r64": `"add r64, r64"`, `a"b`: `"a""b"`, "plain": "plain"} {
		if got := csvEscape(in); got != want {
			t.Errorf("csvEscape(%q) = %q, want %q", in, got, want)
		}
	}
	for in, want := range map[float64]string{1: "1.00", 90: "90.00", 0.33333: "0.33333", 1.0027: "1.0027", 4.09: "4.09", 0.5: "0.50"} {
		if got := csvNum(in); got != want {
			t.Errorf("csvNum(%v) = %q, want %q", in, got, want)
		}
	}
}

// Naive clustering: one cluster per opcode, in order of first appearance,
// unstable unless every point is within epsilon/2 of the centroid.
func TestNaiveClustering(t *testing.T) {
	pts := load(t, latencyFixture)
	c, err := Run(pts, Options{Algorithm: Naive})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	var order []string
	for _, cl := range c.Clusters {
		op := pts[cl.Points[0]].Opcode
		for _, i := range cl.Points {
			if pts[i].Opcode != op {
				t.Errorf("cluster %d mixes %s and %s", cl.ID, op, pts[i].Opcode)
			}
		}
		got[op] = cl.Unstable
		order = append(order, op)
	}
	wantOrder := []string{"ADD64rr", "IMUL64rr", "XOR32rr", "SHL64rCL", "VADDPDYrr", "CVTSD2SI64rr", "MOV64rm", "LEA64r"}
	if !reflect.DeepEqual(order, wantOrder) {
		t.Errorf("order %v, want %v", order, wantOrder)
	}
	want := map[string]bool{"ADD64rr": false, "IMUL64rr": true, "XOR32rr": false, "SHL64rCL": true, "VADDPDYrr": false,
		"CVTSD2SI64rr": false, "MOV64rm": true, "LEA64r": false} // MOV64rm: 4.09 is 0.058 from the mean 4.032
	if !reflect.DeepEqual(got, want) {
		t.Errorf("unstable flags %v, want %v", got, want)
	}
	if len(c.Noise) != 0 || len(c.Errors) != 1 {
		t.Errorf("noise %v errors %v", c.Noise, c.Errors)
	}
}

func pointsOf(vals ...[]float64) []*Point {
	var out []*Point
	for i, v := range vals {
		keys := make([]string, len(v))
		for d := range keys {
			keys[d] = fmt.Sprintf("k%d", d)
		}
		out = append(out, &Point{Doc: i + 1, Opcode: fmt.Sprintf("OP%d", i), Mode: "latency", Keys: keys, Values: v})
	}
	return out
}

// Epsilon is inclusive, as in exegesis's analysis-epsilons test: 90 and 100
// cycles are one cluster at epsilon 10 and two at 9 (numpoints 1).
func TestEpsilonIsInclusive(t *testing.T) {
	for eps, want := range map[float64]int{10: 1, 9: 2} {
		c, err := Run(pointsOf([]float64{90}, []float64{100}), Options{Epsilon: eps, MinPoints: 1})
		if err != nil {
			t.Fatal(err)
		}
		if c.NonEmpty() != want {
			t.Errorf("epsilon %v: %d clusters, want %d", eps, c.NonEmpty(), want)
		}
	}
}

func TestMixedModesArePartitioned(t *testing.T) {
	pts := load(t, latencyFixture, throughputFixture)
	c, err := Run(pts, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, cl := range c.Clusters {
		for _, i := range cl.Points {
			if pts[i].Mode != cl.Mode {
				t.Errorf("cluster %d (%s) holds a %s point", cl.ID, cl.Mode, pts[i].Mode)
			}
		}
	}
	// The latency file's clusters keep their ids; the throughput file's
	// follow: ymm FP ops at 0.5, ALU ops and loads at 0.25-0.33 (within
	// 0.1 of each other), imul at 1.
	if len(c.Clusters) != 8 {
		t.Fatalf("%d clusters, want 8", len(c.Clusters))
	}
	want := map[ID][]int{5: {1, 2, 3, 5, 8, 9, 12, 16}, 6: {4, 7, 10, 11, 13, 15}, 7: {6, 14, 17}}
	for id, w := range want {
		var got []int
		for _, i := range c.Clusters[id].Points {
			got = append(got, pts[i].Doc)
		}
		if !reflect.DeepEqual(got, w) || pts[c.Clusters[id].Points[0]].Mode != "inverse_throughput" {
			t.Errorf("cluster %d: docs %v, want %v", id, got, w)
		}
	}
}

func TestRunRejectsBadOptions(t *testing.T) {
	pts := pointsOf([]float64{1})
	for _, o := range []Options{{Epsilon: -1}, {MinPoints: -2}, {Algorithm: "kmeans"}} {
		if _, err := Run(pts, o); err == nil {
			t.Errorf("%+v: no error", o)
		}
	}
}

func TestErrorPoints(t *testing.T) {
	b := []*results.Benchmark{
		{Mode: "latency", Key: results.Key{Instructions: []string{"ADD64rr RAX RAX RDX"}}, Error: "boom"},
		{Mode: "latency", Key: results.Key{Instructions: []string{"ADD64rr RAX RAX RDX"}}},
		{Mode: "latency", Key: results.Key{Instructions: []string{"ADD64rr RAX RAX RDX"}}, Portlab: &results.Extra{Unmeasurable: "privileged"},
			Measurements: []results.Measurement{{Key: "latency", Value: 1}}},
	}
	pts := FromBenchmarks("x.yaml", b)
	c, err := Run(pts, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Errors) != 3 || pts[1].Err != "no measurement" || !strings.Contains(pts[2].Err, "privileged") {
		t.Errorf("errors %v: %q %q %q", c.Errors, pts[0].Err, pts[1].Err, pts[2].Err)
	}
}

// refDBSCAN is llvm-exegesis's algorithm written plainly (quadratic range
// queries, an insertion-ordered set as the work list), to check Run against.
func refDBSCAN(pts []*Point, eps float64, minPts int) [][]int {
	n := len(pts)
	const undef, noise = -1, -2
	of := make([]int, n)
	for i := range of {
		of[i] = undef
	}
	eps2 := eps * eps
	query := func(q int) []int {
		var out []int
		for p := 0; p < n; p++ {
			if p != q && dist2(pts[p].Values, pts[q].Values) <= eps2 {
				out = append(out, p)
			}
		}
		return out
	}
	var clusters [][]int
	for p := 0; p < n; p++ {
		if of[p] != undef {
			continue
		}
		nb := query(p)
		if len(nb)+1 < minPts {
			of[p] = noise
			continue
		}
		id := len(clusters)
		clusters = append(clusters, []int{p})
		of[p] = id
		var list []int
		inList := map[int]bool{}
		push := func(xs []int) {
			for _, x := range xs {
				if !inList[x] {
					inList[x] = true
					list = append(list, x)
				}
			}
		}
		push(nb)
		for len(list) > 0 {
			q := list[0]
			list = list[1:]
			delete(inList, q)
			if of[q] == noise {
				of[q] = id
				clusters[id] = append(clusters[id], q)
				continue
			}
			if of[q] != undef {
				continue
			}
			of[q] = id
			clusters[id] = append(clusters[id], q)
			if nb := query(q); len(nb)+1 >= minPts {
				push(nb)
			}
		}
	}
	return clusters
}

func TestDBSCANMatchesReference(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for trial := 0; trial < 60; trial++ {
		dims := 1 + trial%3
		n := 20 + rng.Intn(300)
		centers := 1 + rng.Intn(6)
		var vals [][]float64
		for i := 0; i < n; i++ {
			c := rng.Intn(centers)
			v := make([]float64, dims)
			for d := range v {
				v[d] = float64(c) + rng.NormFloat64()*0.06
				if rng.Intn(10) == 0 {
					v[d] = rng.Float64() * float64(centers)
				}
				if rng.Intn(7) == 0 {
					v[d] = float64(c) // exact duplicates
				}
			}
			vals = append(vals, v)
		}
		pts := pointsOf(vals...)
		for i, p := range pts {
			p.Opcode = fmt.Sprintf("OP%d", i) // no stabilisation
		}
		eps := []float64{0.05, 0.1, 0.2}[trial%3]
		minPts := 1 + trial%5
		c, err := Run(pts, Options{Epsilon: eps, MinPoints: minPts})
		if err != nil {
			t.Fatal(err)
		}
		want := refDBSCAN(pts, eps, minPts)
		var got [][]int
		for _, cl := range c.Clusters {
			got = append(got, cl.Points)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("trial %d (n %d, dims %d, eps %v, minPts %d): clusters differ from the reference\n got %v\nwant %v", trial, n, dims, eps, minPts, got, want)
		}
	}
}

// tenThousand returns 10,000 latency points: 500 opcodes measured 20 times
// each, around a few hundred distinct values with noise (the realistic
// case), or all within epsilon of each other (dense: the worst case for a
// scan-based DBSCAN).
func tenThousand(dense bool) []*Point {
	rng := rand.New(rand.NewSource(7))
	pts := make([]*Point, 0, 10000)
	for i := 0; i < 10000; i++ {
		op := i % 500
		v := 0.25 * float64(1+op%120)
		if dense {
			v = 1 + rng.Float64()*0.05
		} else {
			v *= 1 + rng.NormFloat64()*0.004
		}
		pts = append(pts, &Point{Doc: i + 1, Opcode: fmt.Sprintf("OP%d", op), Mode: "latency", Keys: []string{"latency"}, Values: []float64{v}})
	}
	return pts
}

func TestTenThousandPointsUnderTwoSeconds(t *testing.T) {
	for _, dense := range []bool{false, true} {
		pts := tenThousand(dense)
		start := time.Now()
		c, err := Run(pts, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if d := time.Since(start); d > 2*time.Second {
			t.Errorf("dense=%v: clustering 10,000 points took %v, want < 2 s", dense, d)
		}
		if dense && (c.NonEmpty() != 1 || len(c.Clusters[0].Points) != 10000) {
			t.Errorf("dense: %d clusters", c.NonEmpty())
		}
	}
}

// BenchmarkDBSCAN clusters 10,000 points: spread over many values, all
// within epsilon (the densest case), and all within epsilon in 3
// dimensions (uops mode with port keys), where the slab scan is quadratic.
func BenchmarkDBSCAN(b *testing.B) {
	dense3 := tenThousand(true)
	for i, p := range dense3 {
		p.Keys = []string{"NumMicroOps", "p0", "p1"}
		p.Values = []float64{p.Values[0], 0.5 + 0.01*float64(i%5), 0.5}
	}
	b.Run("10k-dense-3d", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if _, err := Run(dense3, Options{}); err != nil {
				b.Fatal(err)
			}
		}
	})
	for _, dense := range []bool{false, true} {
		name := "10k-spread"
		if dense {
			name = "10k-dense"
		}
		pts := tenThousand(dense)
		b.Run(name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if _, err := Run(pts, Options{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func TestDisassembleFoldsRepeats(t *testing.T) {
	got := disassemble("4801D04801D04801D04801D0C3")
	if got != "add %rdx,%rax  # ×4\nretq" {
		t.Errorf("got %q", got)
	}
	if got := disassemble("ZZ"); got != "ZZ" {
		t.Errorf("bad hex: %q", got)
	}
	lines := foldRuns([]string{"a", "b", "a", "b", "a", "b", "c"})
	if want := []string{"a", "b  # these 2 ×3", "c"}; !reflect.DeepEqual(lines, want) {
		t.Errorf("foldRuns = %q, want %q", lines, want)
	}
}

func TestLoadNamesTheFile(t *testing.T) {
	_, err := Load("no-such-file.yaml")
	if err == nil || !strings.Contains(err.Error(), "no-such-file.yaml") {
		t.Errorf("err = %v", err)
	}
	dir := t.TempDir()
	p := dir + "/bad.yaml"
	os.WriteFile(p, []byte("---\nfoo: 1\n"), 0o644)
	if _, err := Load(p); err == nil || !strings.Contains(err.Error(), "bad.yaml") {
		t.Errorf("err = %v", err)
	}
}

func TestUnstableOpcodes(t *testing.T) {
	pts := load(t, latencyFixture)
	c, _ := Run(pts, Options{})
	u := c.UnstableOpcodes()
	var ops []string
	for _, cl := range u {
		ops = append(ops, pts[cl.Points[0]].Opcode)
	}
	sort.Strings(ops)
	if !reflect.DeepEqual(ops, []string{"SHL64rCL"}) {
		t.Errorf("unstable %v", ops)
	}
}
