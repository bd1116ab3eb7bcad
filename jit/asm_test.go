package jit

import (
	"bytes"
	"os/exec"
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
