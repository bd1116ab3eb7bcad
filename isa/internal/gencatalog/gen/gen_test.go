package gen

import (
	"bytes"
	"os"
	"strings"
	"testing"
)

// csvPath locates x86.v0.2.csv or skips the test.
func csvPath(t *testing.T) string {
	t.Helper()
	p, err := LocateCSV()
	if err != nil {
		t.Skipf("x86.v0.2.csv not found: %v", err)
	}
	return p
}

func parse(t *testing.T) *Table {
	t.Helper()
	f, err := os.Open(csvPath(t))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tab, err := Parse(f)
	if err != nil {
		t.Fatal(err)
	}
	return tab
}

// TestCommittedTableIsCurrent regenerates zcatalog_table.go in-process and
// compares it byte for byte with the committed file.
func TestCommittedTableIsCurrent(t *testing.T) {
	f, err := os.Open(csvPath(t))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	src, _, err := Generate(f)
	if err != nil {
		t.Fatal(err)
	}
	committed, err := os.ReadFile("../../../zcatalog_table.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(src, committed) {
		t.Fatal("isa/zcatalog_table.go is stale: run go generate ./isa")
	}
	if len(src) > 1<<20 {
		t.Errorf("generated table is %d bytes, want < 1 MB", len(src))
	}
}

// TestStats pins what the generator does to the table's rows, so that a
// change in the data or the rules shows up here.
func TestStats(t *testing.T) {
	tab := parse(t)
	st := tab.Stats
	want := Stats{Rows: 2258, Not64: 94, Pseudo: 220, Unsupported: 1, Forms: 3188, Aliases: 44}
	if st.Rows != want.Rows || st.Not64 != want.Not64 || st.Pseudo != want.Pseudo ||
		st.Unsupported != want.Unsupported || st.Forms != want.Forms || st.Aliases != want.Aliases {
		t.Errorf("stats = %+v, want %+v", st, want)
	}
	if len(st.Duplicates) != 111 {
		t.Errorf("%d duplicate names dropped, want 111", len(st.Duplicates))
	}
	if len(st.Dropped) != len(dropForms) {
		t.Errorf("dropped %v, want every form of dropForms", st.Dropped)
	}
	if st.Expanded-len(st.Duplicates)-len(st.Dropped) != st.Forms {
		t.Errorf("expanded %d - duplicates %d - dropped %d != forms %d", st.Expanded, len(st.Duplicates), len(st.Dropped), st.Forms)
	}
	dups := strings.Join(st.Duplicates, "\n")
	for _, name := range []string{"add r64, r64", "mov r32, imm32", "movaps xmm, xmm", "movq xmm, m64", "jmp rel32", "pop r64"} {
		if !strings.Contains("\n"+dups+"\n", "\n"+name+"\n") {
			t.Errorf("%q not among the duplicates", name)
		}
	}
}

// TestDuplicateChoice checks that, of several encodings with one name, the
// one GNU as emits is kept.
func TestDuplicateChoice(t *testing.T) {
	tab := parse(t)
	rows := map[string]Row{}
	for _, r := range tab.Rows {
		rows[r.Name] = r
	}
	for name, opcode := range map[string]string{
		"add r64, r64":    "REX.W 01 /r",
		"mov r32, imm32":  "B8+rd id",
		"mov r64, r64":    "REX.W 89 /r",
		"movaps xmm, xmm": "0F 28 /r",
		"movq xmm, m64":   "F3 0F 7E /r",
		"movq m64, xmm":   "66 0F D6 /r",
		"pop r64":         "58+rd",
		"mov r16, sreg":   "8C /r",
		"leave":           "C9",
	} {
		r, ok := rows[name]
		if !ok {
			t.Errorf("%q missing", name)
			continue
		}
		if r.Opcode != opcode {
			t.Errorf("%q: opcode %q, want %q", name, r.Opcode, opcode)
		}
	}
}

func TestRows(t *testing.T) {
	tab := parse(t)
	rows := map[string]Row{}
	for _, r := range tab.Rows {
		rows[r.Name] = r
	}
	for _, c := range []struct{ name, gnu, access, features string }{
		{"add r64, r64", "addq", "rw,r", ""},
		{"adc al, imm8", "adcb", "rw,r", ""},
		{"shl r64, cl", "shlq", "rw,r", ""},
		{"shl r64, 1", "shlq", "rw,r", ""},
		{"vfmadd231pd ymm, ymm, m256", "vfmadd231pd", "rw,r,r", "fma"},
		{"blendvps xmm, xmm, xmm0", "blendvps", "rw,r,r", "sse4_1"},
		{"aesenc xmm, m128", "aesenc", "rw,r", "aes"},
		{"vaesenc xmm, xmm, xmm", "vaesenc", "w,r,r", "aes,avx"},
		{"vpclmulqdq xmm, xmm, xmm, imm8", "vpclmulqdq", "w,r,r,r", "avx,pclmulqdq"},
		{"cmovb r64, m64", "cmovbq", "rw,r", "cmov"},
		{"popcnt r64, r64", "popcntq", "w,r", "popcnt"},
		{"crc32 r64, m8", "crc32b", "rw,r", "sse4_2"},
		{"fadd st(0), st", "fadd", "rw,r", "x87"},
		{"paddb mm, m64", "paddb", "rw,r", "mmx"},
		{"lzcnt r32, r32", "lzcntl", "w,r", "lzcnt"},
		{"mov rax, moffs64", "movabsq", "w,r", ""},
		{"mov r64, imm64", "movabsq", "w,r", ""},
		{"push r64", "pushq", "r", ""},
		{"enter imm16, imm8", "enterq", "r,r", ""},
		{"int1", "int1", "", ""},
		{"xtest", "xtest", "", "rtm"},
	} {
		r, ok := rows[c.name]
		if !ok {
			t.Errorf("%q missing", c.name)
			continue
		}
		if r.GNU != c.gnu || r.Access != c.access || r.Features != c.features {
			t.Errorf("%q: gnu %q access %q features %q, want %q %q %q", c.name, r.GNU, r.Access, r.Features, c.gnu, c.access, c.features)
		}
	}
	for _, name := range []string{"prefetchwt1 m8", "lock", "sal r64, cl", "cmovc r64, r64", "bswap r16", "ud1", "adc r64, r/m64"} {
		if _, ok := rows[name]; ok {
			t.Errorf("%q should not be in the table", name)
		}
	}
	if tab.Aliases["cmovc"] != "cmovb" || tab.Aliases["sal"] != "shl" || tab.Aliases["jz"] != "je" {
		t.Errorf("aliases: cmovc=%q sal=%q jz=%q", tab.Aliases["cmovc"], tab.Aliases["sal"], tab.Aliases["jz"])
	}
}

func TestOperandKinds(t *testing.T) {
	for in, want := range map[string]string{
		"r/m64": "r64 m64", "xmm2/m128": "xmm m128", "ymm2/m256": "ymm m256", "mm2/m64": "mm m64",
		"xmm2/m32": "xmm m32", "r32/m16": "r32 m16", "r32/m8": "r32 m8", "CL": "cl", "1": "1",
		"<XMM0>": "xmm0", "ST(i)": "st", "m32fp": "m32", "m80bcd": "m80", "moffs8": "moffs64",
		"imm8u": "imm8", "xmmIH": "xmm", "r64V": "r64", "m512byte": "m",
	} {
		ks, err := operandKinds(in)
		if err != nil {
			t.Errorf("%q: %v", in, err)
			continue
		}
		if got := strings.Join(ks, " "); got != want {
			t.Errorf("%q -> %q, want %q", in, got, want)
		}
	}
	for _, bad := range []string{"r/m", "zmm1", "xmm2/q99", ""} {
		if _, err := operandKinds(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

func TestParseBadInput(t *testing.T) {
	for _, in := range []string{
		`"FOO zmm1","FOO","foo","00","V","V","","","w","",""` + "\n",
		`"FOO r/m64","FOO","foo","00","V","V","WHATEVER","","w","",""` + "\n",
		`"FOO r/m64, r64","FOO","foo","00","V","V","","","w","",""` + "\n",
		`"unterminated` + "\n",
		`"FOO","FOO"` + "\n",
	} {
		if _, err := Parse(strings.NewReader(in)); err == nil {
			t.Errorf("Parse(%q): no error", in)
		}
	}
}

func TestGNUMnemonic(t *testing.T) {
	for in, want := range map[string]string{
		"adcq": "adcq", "pushw/pushl/pushq": "pushq", "callq*": "callq", "mov{l/w}": "movl",
		"-/pushl/pushq": "pushq", "movb/movb/movabsb": "movabsb",
	} {
		if got := gnuMnemonic(in); got != want {
			t.Errorf("gnuMnemonic(%q) = %q, want %q", in, got, want)
		}
	}
}
