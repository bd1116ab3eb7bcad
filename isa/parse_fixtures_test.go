package isa

import (
	"debug/elf"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// TestFixtures parses the kernels in testdata, checks their regions and
// forms, and (when GNU as is installed) assembles them and checks that
// decoding the machine code gives the same forms in the same order.
func TestFixtures(t *testing.T) {
	tests := []struct {
		file    string
		syntax  Syntax
		region  string
		inRegs  int // instructions inside the region
		total   int
		forms   []string // forms inside the region
		comment string   // a comment the file must expose
	}{
		{"daxpy_att.s", SyntaxATT, "daxpy_loop", 6, 10, []string{
			"vmovupd ymm, m256", "vfmadd213pd ymm, ymm, m256", "vmovupd m256, ymm",
			"add r64, imm8", "cmp r64, r64", "jb rel8"}, "LLVM-EXEGESIS-DEFREG RDX 0x400"},
		{"sum_intel.s", SyntaxIntel, "sum_loop", 4, 7, []string{
			"add r64, m64", "inc r64", "cmp r64, r64", "jne rel8"}, "back edge"},
		{"avx512_att.s", SyntaxATT, "avx512", 6, 6, []string{
			"vfmadd231pd zmm {k}, zmm, m64bcst", "vaddpd zmm, zmm, zmm", "vpcmpeqd k {k}, zmm, m512",
			"vmovdqu64 m512 {k}, zmm", "kandw k, k, k", "vpternlogd zmm {k}{z}, zmm, zmm, imm8"}, ""},
	}
	_, asErr := exec.LookPath("as")
	for _, tt := range tests {
		path := filepath.Join("testdata", tt.file)
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		f, err := Parse(path, src)
		if err != nil {
			t.Errorf("%s: %v", tt.file, err)
			continue
		}
		if err := f.ResolveForms(); err != nil {
			t.Errorf("%s: %v", tt.file, err)
		}
		if f.Syntax != tt.syntax {
			t.Errorf("%s: syntax %v", tt.file, f.Syntax)
		}
		var all, region []*Inst
		in, seenComment := false, tt.comment == ""
		for _, s := range f.Stmts {
			switch s.Kind {
			case StmtComment:
				switch {
				case s.Comment == "LLVM-MCA-BEGIN "+tt.region:
					in = true
				case s.Comment == "LLVM-MCA-END":
					in = false
				case s.Comment == tt.comment:
					seenComment = true
				}
			case StmtInst:
				all = append(all, s.Inst)
				if in {
					region = append(region, s.Inst)
				}
			}
		}
		var forms []string
		for _, x := range region {
			forms = append(forms, formName(x))
		}
		if len(all) != tt.total || len(region) != tt.inRegs || !reflect.DeepEqual(forms, tt.forms) || !seenComment {
			t.Errorf("%s: %d instructions, region %q has %d: %q; comment %q seen %v", tt.file, len(all), tt.region, len(region), forms, tt.comment, seenComment)
		}
		if asErr != nil {
			continue
		}
		code := assembleFile(t, src)
		dec, err := Decode(code, 0)
		if err != nil {
			t.Errorf("%s: decode: %v", tt.file, err)
			continue
		}
		var want, got []string
		for _, x := range all {
			want = append(want, formName(x))
		}
		for _, x := range dec {
			got = append(got, formName(x))
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: decoded forms\n got %q\nwant %q", tt.file, got, want)
		}
	}
}

// assembleFile assembles a whole source file and returns its .text.
func assembleFile(t *testing.T, src []byte) []byte {
	t.Helper()
	dir := t.TempDir()
	s, o := filepath.Join(dir, "f.s"), filepath.Join(dir, "f.o")
	if err := os.WriteFile(s, src, 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("as", "--64", "-o", o, s).CombinedOutput(); err != nil {
		t.Fatalf("as: %v\n%s", err, out)
	}
	ef, err := elf.Open(o)
	if err != nil {
		t.Fatal(err)
	}
	defer ef.Close()
	data, err := ef.Section(".text").Data()
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// benchKernel returns n lines of a realistic AT&T loop kernel.
func benchKernel(n int) []byte {
	lines := []string{
		".Lloop:\tvfmadd231pd (%rdi,%rcx,8), %ymm1, %ymm0  # fma",
		"\taddq $4, %rcx",
		"\tcmpq %rsi, %rcx",
		"\tvmovupd %ymm0, 32(%rdx)",
		"\tjne .Lloop",
	}
	var b strings.Builder
	for i := 0; i < n; i++ {
		b.WriteString(lines[i%len(lines)])
		b.WriteByte('\n')
	}
	return []byte(b.String())
}

// TestParseSpeed checks that 100k lines parse (and map to forms) in well
// under a second; the bound is loose for slow CI machines.
func TestParseSpeed(t *testing.T) {
	if testing.Short() {
		t.Skip("timing test")
	}
	src := benchKernel(100000)
	if _, err := Parse("warm.s", benchKernel(10)); err != nil { // build the catalog indexes
		t.Fatal(err)
	}
	start := time.Now()
	f, err := Parse("big.s", src)
	d := time.Since(start)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(f.Insts()); n != 100000 {
		t.Fatalf("%d instructions", n)
	}
	for _, in := range f.Insts()[:5] {
		if in.Form == nil {
			t.Fatalf("%q not mapped", in.Text)
		}
	}
	t.Logf("100000 lines in %v", d)
	if d > 2*time.Second {
		t.Errorf("parsing 100000 lines took %v", d)
	}
}

func BenchmarkParse(b *testing.B) {
	src := benchKernel(10000)
	b.SetBytes(int64(len(src)))
	for i := 0; i < b.N; i++ {
		if _, err := Parse("bench.s", src); err != nil {
			b.Fatal(err)
		}
	}
}
