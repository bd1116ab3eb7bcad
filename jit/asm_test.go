package jit

import (
	"bytes"
	"fmt"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

func needAs(t *testing.T) {
	if _, err := exec.LookPath("as"); err != nil {
		t.Skip("GNU as not installed")
	}
}

func TestAssembleBatchIsolatesErrors(t *testing.T) {
	needAs(t)
	a := &Assembler{Path: "as"} // no disk cache
	units := []*Unit{
		{Name: "good.s", Source: "add rax, rcx\nimul rax, rax"},
		{Name: "bad.s", Source: "add rax, rcx\nfrobnicate rax\n", LineOffset: 10},
		{Name: "att.s", Source: "addq %rcx, %rax", ATT: true},
		{Name: "labels.s", Source: "mark" + UnitToken + ": nop\njmp mark" + UnitToken, Marks: []string{"mark" + UnitToken}},
		{Name: "labels2.s", Source: "mark" + UnitToken + ": nop\nnop\njmp mark" + UnitToken},
	}
	objs, errs := a.Assemble(units)
	if errs[0] != nil || !bytes.Equal(objs[0].Code, []byte{0x48, 0x01, 0xc8, 0x48, 0x0f, 0xaf, 0xc0}) {
		t.Errorf("good.s: % x %v", objs[0].Code, errs[0])
	}
	if errs[1] == nil || !strings.HasPrefix(errs[1].Error(), "bad.s:12: no such instruction") {
		t.Errorf("bad.s: want an error at line 12, got %v", errs[1])
	}
	if errs[2] != nil || !bytes.Equal(objs[2].Code, []byte{0x48, 0x01, 0xc8}) {
		t.Errorf("att.s: % x %v", objs[2].Code, errs[2])
	}
	if errs[3] != nil || objs[3].Marks["mark"+UnitToken] != 0 || len(objs[3].Code) != 3 {
		t.Errorf("labels.s: %+v %v", objs[3], errs[3])
	}
	if errs[4] != nil {
		t.Errorf("same label in two units: %v", errs[4])
	}
}

func TestAssembleRejectsExternalReferences(t *testing.T) {
	needAs(t)
	a := &Assembler{Path: "as"}
	_, err := a.AssembleOne(&Unit{Name: "ext.s", Source: "call somewhere_else"})
	if err == nil || !strings.Contains(err.Error(), "relocation") {
		t.Errorf("want a relocation error, got %v", err)
	}
}

func TestAssemblerDiskCache(t *testing.T) {
	needAs(t)
	dir := t.TempDir()
	a := &Assembler{Path: "as", CacheDir: dir}
	u := &Unit{Name: "c.s", Source: "vaddpd ymm0, ymm1, ymm2", Marks: nil}
	o1, err := a.AssembleOne(u)
	if err != nil {
		t.Fatal(err)
	}
	// A fresh assembler with a broken `as` path must be served from disk.
	b := &Assembler{Path: "as", CacheDir: dir}
	b.init()
	b.Path = "/nonexistent/as"
	o2, err := b.AssembleOne(u)
	if err != nil || !bytes.Equal(o1.Code, o2.Code) {
		t.Fatalf("cache miss: %v", err)
	}
}

// The in-process cache keeps at most MemoryBytes of machine code, the
// oldest objects leaving first; what left it comes back from the disk
// cache without running as, and equal.
func TestAssemblerMemoryBound(t *testing.T) {
	needAs(t)
	const bound = 600 // a few objects: each is counted with its marks and headers (objectBytes)
	a := &Assembler{Path: "as", CacheDir: t.TempDir(), MemoryBytes: bound}
	var units []*Unit
	for i := range 40 {
		units = append(units, &Unit{Name: fmt.Sprintf("u%d.s", i), Source: fmt.Sprintf("add rax, %d\nimul rax, rcx", 1000+i)})
	}
	first, errs := a.Assemble(units)
	for i, err := range errs {
		if err != nil {
			t.Fatalf("%s: %v", units[i].Name, err)
		}
	}
	if a.held > bound || len(a.memory) != len(a.order) || len(a.memory) < 2 || len(a.memory) >= len(units) {
		t.Errorf("in memory: %d objects, %d bytes, %d keys in order; want at most %d bytes, some but not all of the %d", len(a.memory), a.held, len(a.order), bound, len(units))
	}
	held := 0
	for _, o := range a.memory {
		held += objectBytes(o)
	}
	if held != a.held {
		t.Errorf("the cache counts %d bytes, its objects hold %d", a.held, held)
	}
	runs := a.Runs()
	again, errs := a.Assemble(units)
	for i := range units {
		if errs[i] != nil || !bytes.Equal(first[i].Code, again[i].Code) {
			t.Errorf("%s again: % x, %v; first % x", units[i].Name, again[i].Code, errs[i], first[i].Code)
		}
	}
	if a.Runs() != runs {
		t.Errorf("as ran %d more times: the objects the memory dropped should come from disk", a.Runs()-runs)
	}
	if a.held > bound {
		t.Errorf("%d bytes in memory after the second pass, bound %d", a.held, bound)
	}
}

func TestObjectEncoding(t *testing.T) {
	o := &Object{Code: []byte{1, 2, 3}, Marks: map[string]int{"a": 1, "bb": 2}}
	got, ok := decodeObject(encodeObject(o))
	if !ok || !bytes.Equal(got.Code, o.Code) || got.Marks["a"] != 1 || got.Marks["bb"] != 2 {
		t.Fatalf("round trip: %+v %v", got, ok)
	}
	if _, ok := decodeObject([]byte{9, 0, 0, 0, 1}); ok {
		t.Error("truncated object accepted")
	}
}

func TestMentionedRegistersAndLoopRegister(t *testing.T) {
	got := MentionedGPRs("add r8d, eax\nmov cl, [rsi+r9*4] # r10 in a comment\naddq %r11w, %bx")
	for _, r := range []string{"r8", "rax", "rcx", "rsi", "r9", "r11", "rbx"} {
		if !got[r] {
			t.Errorf("%s not found in %v", r, got)
		}
	}
	if got["r10"] {
		t.Error("register in a comment counted")
	}
	r, err := PickLoopRegister("add r8, r9\nadd r10, r11")
	if err != nil || r != "r12" {
		t.Errorf("loop register %q %v, want r12", r, err)
	}
	all := "add rax, rbx\nadd rcx, rdx\nadd rsi, rdi\nadd rbp, r8\nadd r9, r10\nadd r11, r12\nadd r13, r14\nadd r15, rax"
	if _, err := PickLoopRegister(all); err == nil {
		t.Error("no error when every register is used")
	}
}

func TestVectorWidth(t *testing.T) {
	cases := map[string]int{
		"mulsd xmm0, xmm1":                      0,
		"vmulsd xmm0, xmm0, xmm1":               16,
		"vaddpd ymm0, ymm1, ymm2":               32,
		"vaddpd zmm0, zmm1, zmm2":               64,
		"vaddpd xmm17, xmm1, xmm2":              64,
		"vaddpd ymm0 {k1}, ymm1, ymm2":          64,
		"# zmm0 in a comment\naddps xmm0, xmm1": 0,
	}
	for src, want := range cases {
		if got := VectorWidth(src); got != want {
			t.Errorf("%q: width %d, want %d", src, got, want)
		}
	}
}

func TestUsesMMX(t *testing.T) {
	for src, want := range map[string]bool{
		"paddd mm0, mm6":                   true,
		"paddq %mm1, %mm2":                 true,
		"movq mm7, rax":                    true,
		"paddd xmm0, xmm6":                 false,
		"vpaddd ymm0, ymm1, ymm2":          false,
		"movq %xmm1, %rax":                 false,
		"# mm0 in a comment\nadd rax, rbx": false,
	} {
		if got := UsesMMX(src); got != want {
			t.Errorf("UsesMMX(%q) = %v, want %v", src, got, want)
		}
	}
}

// A large batch runs in several processes of as at once and assembles to
// what one process gives, the errors still on their own units.
func TestAssembleInParallel(t *testing.T) {
	needAs(t)
	var units []*Unit
	for i := range 5 * minSplit {
		src := fmt.Sprintf("mark%s: add rax, %d\nimul rcx, rdx, %d", UnitToken, i, i)
		if i == 77 {
			src = "frobnicate rax"
		}
		units = append(units, &Unit{Name: fmt.Sprintf("u%d.s", i), Source: src, Marks: []string{"mark" + UnitToken}})
	}
	one := &Assembler{Path: "as", Parallel: 1}
	three := &Assembler{Path: "as", Parallel: 3}
	want, werrs := one.Assemble(units)
	got, gerrs := three.Assemble(units)
	if one.Runs() != 2 || three.Runs() != 4 {
		t.Errorf("runs of as: %d and %d, want 2 (one failed, one again) and 4 (three, one again)", one.Runs(), three.Runs())
	}
	for i := range units {
		if (werrs[i] == nil) != (gerrs[i] == nil) || (i == 77) != (gerrs[i] != nil) {
			t.Fatalf("unit %d: errors %v and %v", i, werrs[i], gerrs[i])
		}
		if i != 77 && (!bytes.Equal(want[i].Code, got[i].Code) || want[i].Marks["mark"+UnitToken] != got[i].Marks["mark"+UnitToken]) {
			t.Fatalf("unit %d: % x and % x", i, want[i].Code, got[i].Code)
		}
	}
	if parts := three.parts(make([]int, minSplit+1)); len(parts) != 1 {
		t.Errorf("%d parts for %d units, want 1 (at least %d a run)", len(parts), minSplit+1, minSplit)
	}
}

// GNU as runs with the process's start-up mask, the measuring CPU among
// them, though this process's threads keep off it.
func TestAsRunsOnEveryCPU(t *testing.T) {
	cpus := AllowedCPUs()
	if len(cpus) < 2 {
		t.Skipf("this process may run on %v only", cpus)
	}
	moveOffCPU(DefaultCPU())
	if slices.Contains(threadCPUs(0), DefaultCPU()) {
		t.Fatalf("this thread may still run on CPU %d", DefaultCPU())
	}
	cmd := exec.Command("grep", "Cpus_allowed_list", "/proc/self/status")
	var out bytes.Buffer
	cmd.Stdout = &out
	if err := startAs(cmd); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatal(err)
	}
	_, list, _ := strings.Cut(strings.TrimSpace(out.String()), ":")
	got, err := ParseCPUList(strings.TrimSpace(list))
	if err != nil || !slices.Equal(got, cpus) {
		t.Errorf("the child may run on %v (%v), want %v", got, err, cpus)
	}
	if slices.Contains(threadCPUs(0), DefaultCPU()) {
		t.Errorf("a thread of this process may run on the measuring CPU %d after starting the child", DefaultCPU())
	}
}
