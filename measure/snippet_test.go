package measure

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"portlab/jit"
)

func TestParseSnippetAnnotations(t *testing.T) {
	data, err := os.ReadFile("../testdata/exegesis/setup-checks.s")
	if err != nil {
		t.Fatal(err)
	}
	s, err := ParseSnippet("setup-checks.s", string(data))
	if err != nil {
		t.Fatal(err)
	}
	if !s.ATT {
		t.Error("AT&T syntax not detected")
	}
	if got := s.DefRegs["RCX"].Text(16); got != "10" {
		t.Errorf("RCX = %s, want 10", got)
	}
	if len(s.MemMaps) != 2 || s.MemMaps[0].Addr != 0x10000000 || s.MemMaps[1].Addr != 0x10002000 {
		t.Errorf("mem maps %+v", s.MemMaps)
	}
	if d := s.MemDefs["test1"]; d.Size != 4096 || len(d.Value) != 1 || d.Value[0] != 0x2a {
		t.Errorf("mem def %+v", d)
	}
	if s.LoopReg != "r11" || s.SnippetAddr != 0x20000000 || len(s.LiveIns) != 1 || s.LiveIns[0] != "r14" {
		t.Errorf("loop %q addr %#x liveins %v", s.LoopReg, s.SnippetAddr, s.LiveIns)
	}
}

func TestParseSnippetErrors(t *testing.T) {
	cases := map[string]string{
		"# LLVM-EXEGESIS-DEFREG RQX 1\nnop":                                   "x.s:1: LLVM-EXEGESIS-DEFREG: unknown register \"RQX\"",
		"nop\n# LLVM-EXEGESIS-DEFREG RAX zz":                                  "x.s:2: LLVM-EXEGESIS-DEFREG RAX: bad hex value \"zz\"",
		"# LLVM-EXEGESIS-MEM-MAP nope 1000\nnop":                              "x.s:1: LLVM-EXEGESIS-MEM-MAP: memory \"nope\" is not defined",
		"# LLVM-EXEGESIS-MEM-DEF a 10 1\n# LLVM-EXEGESIS-MEM-MAP a 1234\nnop": "x.s:2: LLVM-EXEGESIS-MEM-MAP a: address \"1234\" must be a non-zero page-aligned hex value",
		"# LLVM-EXEGESIS-FOO 1\nnop":                                          "x.s:1: unknown annotation LLVM-EXEGESIS-FOO",
		"# just a comment\n":                                                  "x.s:1: snippet has no instructions",
		"# LLVM-EXEGESIS-LOOP-REGISTER RSP\nnop":                              "x.s:1: LLVM-EXEGESIS-LOOP-REGISTER wants a 64-bit general register",
	}
	for src, want := range cases {
		_, err := ParseSnippet("x.s", src)
		if err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%q: got %v, want %q", src, err, want)
		}
	}
}

// Snippet files written for llvm-exegesis run unchanged, and their set-up
// is honoured (setup-checks.s traps if anything is off).
func TestExegesisSnippetFilesRunUnchanged(t *testing.T) {
	e, _ := hostEngine(t)
	files, _ := filepath.Glob("../testdata/exegesis/*.s")
	if len(files) < 3 {
		t.Fatalf("fixtures missing: %v", files)
	}
	for _, f := range files {
		data, _ := os.ReadFile(f)
		s, err := ParseSnippet(filepath.Base(f), string(data))
		if err != nil {
			t.Fatal(err)
		}
		m := e.Measure(s, Options{})
		if m.Err != nil {
			t.Errorf("%s: %v", f, m.Err)
			continue
		}
		t.Logf("%s: %.3f cycles/instruction (loop register %s)", filepath.Base(f), m.PerInstr.Median, m.LoopRegister)
		switch filepath.Base(f) {
		case "setup-checks.s":
			if m.LoopRegister != "r11" {
				t.Errorf("loop register %s, want r11", m.LoopRegister)
			}
		case "latency-chain.s":
			measureWithin(t, e, s, Options{}, 3, 0.03)
		}
	}
	// Negative control: the same checks with a wrong register value trap.
	data, _ := os.ReadFile("../testdata/exegesis/setup-checks.s")
	bad := strings.Replace(string(data), "DEFREG RCX 10", "DEFREG RCX 11", 1)
	s, err := ParseSnippet("bad.s", bad)
	if err != nil {
		t.Fatal(err)
	}
	m := e.Measure(s, Options{})
	ce, ok := jit.AsCrash(m.Err, nil)
	if !ok || ce.Signal != "SIGILL" {
		t.Errorf("wrong DEFREG should trap with SIGILL, got %v", m.Err)
	}
}

func TestLoadedRegisters(t *testing.T) {
	intel := "mov rax, QWORD PTR [rdi+rax*8]\nand eax, 511\nmovzx ecx, BYTE PTR [rsi]\nmov rdx, rbx\nvmovups ymm0, [rsi]\nmov QWORD PTR [rdi], r8\n"
	att := "movq (%rdi,%rax,8), %rax\nmovzbl (%rsi), %ecx\nmovq %rbx, %rdx\nmovq %r8, (%rdi)\n"
	for name, got := range map[string]map[string]bool{"intel": loadedRegisters(intel, false), "att": loadedRegisters(att, true)} {
		if len(got) != 2 || !got["rax"] || !got["rcx"] {
			t.Errorf("%s: %v, want rax and rcx", name, got)
		}
	}
}

func TestMemoryAccesses(t *testing.T) {
	src := "lea rax, [rax+rax*2+7]\nmov rbx, QWORD PTR [rsi]\nnop DWORD PTR [rax+rax*1+0x0]\nleaq 8(%rdi), %rdi\n"
	bases, indexes := memRegisters(memoryAccesses(src), false)
	if len(bases) != 1 || !bases["rsi"] || len(indexes) != 0 {
		t.Errorf("bases %v, indexes %v: want rsi only (lea and nop access no memory)", bases, indexes)
	}
}

// The vector canary judges snippets that name vector, MMX or x87
// registers; the load canary those that touch memory, named or implied.
func TestJudgedBy(t *testing.T) {
	for _, c := range []struct {
		src      string
		att      bool
		vec, mem bool
	}{
		{"add rax, rcx\nimul rbx, rdx", false, false, false},
		{"lea rax, [rax+rax*2+7]\nnop DWORD PTR [rax+rax*1+0x0]", false, false, false},
		{"vpand ymm0, ymm12, ymm13", false, true, false},
		{"paddb mm0, mm1", false, true, false},
		{"{evex} vpaddd zmm1, zmm2, zmm3", false, true, false},
		{"fadd st, st(1)", false, true, false},
		{"add QWORD PTR [rdi+8], rax", false, false, true},
		{"vaddps ymm0, ymm1, YMMWORD PTR [rsi]", false, true, true},
		{"push rax\npop rax", false, false, true},
		{"rep movsb", false, false, true},
		{"addq %rax, 8(%rdi)", true, false, true},
		{"leaq 8(%rdi), %rdi", true, false, false},
		{"vmovdqa %ymm1, %ymm2", true, true, false},
		{"add rax, rcx # xmm0 in a comment, [rsi]", false, false, false},
	} {
		if vec, mem := judgedBy(c.src, c.att); vec != c.vec || mem != c.mem {
			t.Errorf("%q: vector %v, memory %v; want %v, %v", c.src, vec, mem, c.vec, c.mem)
		}
	}
}
