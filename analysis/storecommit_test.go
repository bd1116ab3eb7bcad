package analysis

import (
	"math"
	"strconv"
	"strings"
	"testing"

	"portlab/modeldb"
)

// TestStoreCommit: with the model's store commit (one line a cycle, two
// consecutive stores to it), a kernel's stores commit by where they write,
// in the static bound and the simulation alike: measured on the Granite
// Rapids guest, 8 stores a line apart 8.00 cycles, 8 to one line 4.00, 8
// alternating between two lines 8.00; a pointer stepping 32 bytes with
// one store an iteration pairs iterations. Without the rule the store
// ports alone (two) set the pace. (add r64, imm8 has latency 0 here, as
// the guest folds such chains at rename: the pointer's chain does not
// bound these loops.) A prefetch, which models flag may-store, writes no
// data and takes no commit slot.
func TestStoreCommit(t *testing.T) {
	const header = `name: gc-like
isa: x86
dispatched_uops_per_cycle: 6
ports: ['0', '1', '2', '3', '4', '7']
`
	const forms = `instruction_forms:
  - {form: "mov m64, r64", uops: 1, latency: 1, throughput: 0.5, port_pressure: [[1, '47']], flags: [may-store]}
  - {form: "vmovdqu m256, ymm", uops: 1, latency: 1, throughput: 0.5, port_pressure: [[1, '47']], flags: [may-store]}
  - {form: "add r64, imm8", uops: 1, latency: 0, throughput: 0.5, port_pressure: [[1, '01']]}
  - {form: "mov r64, m64", uops: 1, latency: 5, throughput: 0.5, port_pressure: [[1, '23']], flags: [may-load]}
  - {form: "prefetcht0 m8", uops: 1, latency: 1, throughput: 0.5, port_pressure: [[1, '23']], flags: [may-load, may-store]}
`
	with, without := withAndWithout(t, header, "store_commit: {lines_per_cycle: 1, stores_per_line: 2}\n", forms)
	stores := func(addr func(i int) string) string {
		var b strings.Builder
		for i := 0; i < 8; i++ {
			b.WriteString("mov qword ptr " + addr(i) + ", rax\n")
		}
		return b.String()
	}
	at := func(format string, step int) func(int) string {
		return func(i int) string { return strings.ReplaceAll(format, "#", strconv.Itoa(step*i)) }
	}
	for _, c := range []struct {
		name          string
		src           string
		with, without float64
	}{
		{"8 a line apart", stores(at("[rsi+#]", 64)), 8, 4},
		{"8 to one line", stores(at("[rsi+#]", 8)), 4, 4},
		{"two arrays, alternating", stores(func(i int) string { return []string{"[rsi]", "[rdi]"}[i%2] }), 8, 4},
		{"pointer stepping 32", "vmovdqu ymmword ptr [rsi+rax], ymm0\nadd rax, 32\n", 0.5, 0.5},
		{"pointer stepping 64", "vmovdqu ymmword ptr [rsi+rax], ymm0\nadd rax, 64\n", 1, 0.5},
		{"two stores, pointer stepping 64", "mov qword ptr [rsi], rbx\nmov qword ptr [rsi+8], rbx\nadd rsi, 64\n", 1, 1},
		{"address loaded", "mov qword ptr [rsi], rbx\nmov qword ptr [rsi+8], rbx\nmov rsi, qword ptr [rdx]\n", 2, 1},
		{"two arrays, pointer stepping 32", "vmovdqu ymmword ptr [rsi+rax], ymm0\nvmovdqu ymmword ptr [rdi+rax], ymm0\nadd rax, 32\n", 2, 1},
		{"prefetches between stores to one line", stores(at("[rsi+#]", 8)) + strings.Repeat("prefetcht0 byte ptr [rdx+512]\n", 8), 4, 4},
		{"increment between stores", "mov qword ptr [rsi], rbx\nadd rsi, 8\nmov qword ptr [rsi], rbx\nadd rsi, 56\n", 1, 1},
	} {
		for _, m := range []struct {
			model *modeldb.Model
			want  float64
		}{{with, c.with}, {without, c.without}} {
			s, region := staticOf(t, m.model, c.src)
			if math.Abs(s.Bound-m.want) > 1e-9 {
				t.Errorf("%s, model %s: static bound %.3f (%s), want %.2f", c.name, m.model.Name, s.Bound, s.Bottleneck, m.want)
			}
			if m.model == with && c.with > c.without && !strings.HasPrefix(s.Bottleneck, "store commit") {
				t.Errorf("%s: bottleneck %q, want the store commit", c.name, s.Bottleneck)
			}
			if got := simulate(t, m.model, region, 400); math.Abs(got-m.want) > 0.03*m.want+0.02 {
				t.Errorf("%s, model %s: simulated %.3f cycles/iteration, want %.2f", c.name, m.model.Name, got, m.want)
			}
		}
	}
}

// TestBottleneckViewNamesTheStoreCommit: stores held at retirement by
// the store commit show in the bottleneck analysis (text and JSON), which
// back-end pressure alone would not explain.
func TestBottleneckViewNamesTheStoreCommit(t *testing.T) {
	m := storeCommitModel(t)
	var src strings.Builder
	for i := 0; i < 8; i++ {
		src.WriteString("mov qword ptr [rsi+" + strconv.Itoa(64*i) + "], rax\n")
	}
	_, region := staticOf(t, m, src.String())
	b, _ := NewBuilder(m)
	k, err := b.Kernel(region)
	if err != nil {
		t.Fatal(err)
	}
	r, err := Analyze(k, Options{Iterations: 100}, Views{Bottleneck: true})
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	PrintText(&out, []*Report{r})
	if !strings.Contains(out.String(), "Store commit held stores back from retiring in [ 9") {
		t.Errorf("bottleneck view:\n%s", out.String())
	}
	found := false
	for _, v := range r.Views {
		if v.Name() == "BottleneckAnalysis" {
			found = true
			j := v.(interface{ JSON(*Report) any }).JSON(r).(map[string]any)
			if held, _ := j["StoreCommitHeldCycles"].(int); held < 700 {
				t.Errorf("JSON StoreCommitHeldCycles %v, want most of the ~800 cycles", j["StoreCommitHeldCycles"])
			}
		}
	}
	if !found {
		t.Error("no bottleneck view in the report")
	}
}

// TestStoreLinesOfPushes: pushes store below rsp, 8 bytes lower each, so
// consecutive ones share lines (8 pushes: 4 commit cycles, 4 of 8 in two
// lines); a push of memory stores to the stack, not where it loads.
func TestStoreLinesOfPushes(t *testing.T) {
	m, err := modeldb.Parse("gc.yml", []byte(`name: gc-like
isa: x86
dispatched_uops_per_cycle: 6
ports: ['0', '2', '3', '4', '7']
store_commit: {lines_per_cycle: 1, stores_per_line: 2}
instruction_forms:
  - {form: "push r64", uops: 1, latency: 1, throughput: 0.5, port_pressure: [[1, '47']], flags: [may-store]}
  - {form: "pop r64", uops: 1, latency: 1, throughput: 0.5, port_pressure: [[1, '23']], flags: [may-load]}
  - {form: "push m64", uops: 2, latency: 1, throughput: 0.5, port_pressure: [[1, '47'], [1, '23']], flags: [may-load, may-store]}
`), modeldb.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	pushes := strings.Repeat("push rbx\n", 8)
	for _, c := range []struct {
		name string
		src  string
		want float64
	}{
		{"8 pushes", pushes + strings.Repeat("pop rbx\n", 8), 4},
		{"pushes of memory a line apart", "push qword ptr [rsi]\npush qword ptr [rsi+64]\npush qword ptr [rsi+128]\npush qword ptr [rsi+192]\n" + strings.Repeat("pop rbx\n", 4), 2},
	} {
		s, _ := staticOf(t, m, c.src)
		if math.Abs(s.StoreCommitBound-c.want) > 1e-9 {
			t.Errorf("%s: store commit bound %.3f, want %.2f", c.name, s.StoreCommitBound, c.want)
		}
	}
}

// storeCommitModel is a core of two store ports whose stores commit one
// line a cycle, two consecutive stores to a line: its only form is
// mov m64, r64.
func storeCommitModel(t *testing.T) *modeldb.Model {
	t.Helper()
	m, err := modeldb.Parse("gc.yml", []byte(`name: gc-like
isa: x86
dispatched_uops_per_cycle: 6
ports: ['4', '7']
store_commit: {lines_per_cycle: 1, stores_per_line: 2}
instruction_forms:
  - {form: "mov m64, r64", uops: 1, latency: 1, throughput: 0.5, port_pressure: [[1, '47']], flags: [may-store]}
`), modeldb.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return m
}
