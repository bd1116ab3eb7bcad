package input

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func regionSummary(rs []*Region) string {
	var parts []string
	for _, r := range rs {
		var ins []string
		for _, in := range r.Insts {
			ins = append(ins, in.Mnemonic)
		}
		parts = append(parts, fmt.Sprintf("%s:[%s]", r.Label(), strings.Join(ins, " ")))
	}
	return strings.Join(parts, " ")
}

func TestRegions(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{
		{"no markers", "addq $1, %rax\nimulq %rbx, %rbx\n", "anonymous:[add imul]"},
		{"one region", "nop\n# LLVM-MCA-BEGIN\naddq $1, %rax\n# LLVM-MCA-END\nnop\n", "anonymous:[add]"},
		{"named", "# LLVM-MCA-BEGIN a\naddq $1, %rax\n# LLVM-MCA-END a\n# LLVM-MCA-BEGIN b\nimulq %rbx, %rbx\n# LLVM-MCA-END b\n",
			"a:[add] b:[imul]"},
		{"nested", "# LLVM-MCA-BEGIN outer\naddq $1, %rax\n# LLVM-MCA-BEGIN inner\nimulq %rbx, %rbx\n# LLVM-MCA-END inner\nsubq $1, %rcx\n# LLVM-MCA-END outer\n",
			"outer:[add imul sub] inner:[imul]"},
		{"overlapping", "# LLVM-MCA-BEGIN a\naddq $1, %rax\n# LLVM-MCA-BEGIN b\nimulq %rbx, %rbx\n# LLVM-MCA-END a\nsubq $1, %rcx\n# LLVM-MCA-END b\n",
			"a:[add imul] b:[imul sub]"},
		{"anonymous end closes the only region", "# LLVM-MCA-BEGIN x\naddq $1, %rax\n# LLVM-MCA-END\nnop\n", "x:[add]"},
		{"no end runs to the end", "nop\n# LLVM-MCA-BEGIN tail\naddq $1, %rax\nimulq %rbx, %rbx\n", "tail:[add imul]"},
		{"end of the default region", "addq $1, %rax\n# LLVM-MCA-END\nimulq %rbx, %rbx\n", "anonymous:[add]"},
		{"intel syntax", ".intel_syntax noprefix\n# LLVM-MCA-BEGIN k\nadd rax, 1\nmov rbx, qword ptr [rdi]\n# LLVM-MCA-END\n", "k:[add mov]"},
		{"osaca markers", "nop\n# OSACA-BEGIN\naddq $1, %rax\n# OSACA-END\nnop\n", "anonymous:[add]"},
		{"iaca markers", "nop\nmovl $111, %ebx\n.byte 100,103,144\naddq $1, %rax\nmovl $222, %ebx\n.byte 0x64\n.byte 0x67\n.byte 0x90\nnop\n", "anonymous:[add]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rs, err := Assembly("k.s", []byte(tt.src), nil)
			if err != nil {
				t.Fatal(err)
			}
			if got := regionSummary(rs); got != tt.want {
				t.Errorf("got %s, want %s", got, tt.want)
			}
		})
	}
}

func TestRegionErrors(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{
		{"same name", "# LLVM-MCA-BEGIN a\nnop\n# LLVM-MCA-BEGIN a\nnop\n", "k.s:3:1: overlapping regions cannot have the same name"},
		{"two anonymous", "# LLVM-MCA-BEGIN\nnop\n# LLVM-MCA-BEGIN\nnop\n", "k.s:3:1: found multiple overlapping anonymous regions"},
		{"bad end", "# LLVM-MCA-BEGIN a\nnop\n# LLVM-MCA-END b\n", `k.s:3:1: found an invalid region end directive: no active region named "b"`},
		{"unknown instruction", "addq $1, %rax\nfrobnicate %rax\n", "k.s:2:"},
		{"empty", "# just a comment\n", "no assembly instructions"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Assembly("k.s", []byte(tt.src), nil)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want %q", err, tt.want)
			}
		})
	}
}

func TestEmptyRegionWarns(t *testing.T) {
	var warns []string
	rs, err := Assembly("k.s", []byte("# LLVM-MCA-BEGIN e\n# LLVM-MCA-END e\n# LLVM-MCA-BEGIN f\nnop\n# LLVM-MCA-END f\n"), func(s string) { warns = append(warns, s) })
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) != 1 || rs[0].Name != "f" || len(warns) != 1 || !strings.Contains(warns[0], `"e" has no instructions`) {
		t.Errorf("regions %s, warnings %q", regionSummary(rs), warns)
	}
}

func TestHex(t *testing.T) {
	src := "hex,throughput\n4801d8,1.00\n\n# comment\n48 01 d8 48 ff c9\n0x48,0x01,0xd8\n"
	rs, err := Hex("blocks.csv", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if got := regionSummary(rs); got != "line 2:[add] line 5:[add dec] line 6:[add]" {
		t.Errorf("got %s", got)
	}
	if _, err := Hex("b.csv", []byte("4801d8\n4801d\n")); err == nil || !strings.Contains(err.Error(), "b.csv:2") {
		t.Errorf("odd hex: error %v", err)
	}
	if _, err := Hex("b.csv", []byte("4801d8\nffff\n")); err == nil || !strings.Contains(err.Error(), "b.csv:2") {
		t.Errorf("undecodable: error %v", err)
	}
}

func TestCodeIACAMarkers(t *testing.T) {
	code := []byte{0x90}
	code = append(code, iacaStart...)
	code = append(code, 0x48, 0x01, 0xd8) // add rax, rbx
	code = append(code, iacaEnd...)
	code = append(code, 0xc3)
	r, err := Code("x", code, 0x1000)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Insts) != 1 || r.Insts[0].Mnemonic != "add" || r.Addr != 0x1000+1+uint64(len(iacaStart)) {
		t.Errorf("got %s at %#x", regionSummary([]*Region{r}), r.Addr)
	}
}

// TestELF assembles an object with a .mca_code_regions section (and links
// it) with GNU binutils, then reads its regions, a symbol and a range.
func TestELF(t *testing.T) {
	as, err := exec.LookPath("as")
	if err != nil {
		t.Skip("GNU as not installed")
	}
	dir := t.TempDir()
	src := `
	.text
	.globl kernel
	.type kernel, @function
kernel:
	nop
.Lbegin:
	addq %rbx, %rax
	imulq %rcx, %rcx
.Lend:
	ret
	.size kernel, .-kernel
	.globl other
	.type other, @function
other:
	movl $111, %ebx
	.byte 0x64, 0x67, 0x90
	subq $1, %rdx
	movl $222, %ebx
	.byte 0x64, 0x67, 0x90
	ret
	.size other, .-other
	.section .mca_code_regions,"",@progbits
	.quad 7
	.quad .Lbegin
	.quad .Lend - .Lbegin
`
	s := filepath.Join(dir, "k.s")
	o := filepath.Join(dir, "k.o")
	if err := os.WriteFile(s, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(as, "--64", "-o", o, s).CombinedOutput(); err != nil {
		t.Fatalf("as: %v\n%s", err, out)
	}
	obj, err := os.ReadFile(o)
	if err != nil {
		t.Fatal(err)
	}
	check := func(what string, rs []*Region, err error, want string) {
		t.Helper()
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		if got := regionSummary(rs); got != want {
			t.Errorf("%s: got %s, want %s", what, got, want)
		}
	}
	rs, err := Read("k.o", obj, Options{}, nil)
	check("object regions", rs, err, "region 7 (kernel+0x1):[add imul]")
	rs, err = Read("k.o", obj, Options{Symbol: "kernel"}, nil)
	check("object symbol", rs, err, "kernel:[nop add imul ret]")
	rs, err = Read("k.o", obj, Options{Symbol: "other"}, nil)
	check("object symbol with IACA markers", rs, err, "other:[sub]")
	rs, err = Read("k.o", obj, Options{Range: "1:8"}, nil)
	check("object range", rs, err, "kernel+0x1:[add imul]")
	if _, err := Read("k.o", obj, Options{Symbol: "kern"}, nil); err == nil || !strings.Contains(err.Error(), "similar: kernel") {
		t.Errorf("unknown symbol: %v", err)
	}

	// Linked: the records hold virtual addresses.
	ld, err := exec.LookPath("ld")
	if err != nil {
		return
	}
	exe := filepath.Join(dir, "k")
	if out, err := exec.Command(ld, "-e", "kernel", "-o", exe, o).CombinedOutput(); err != nil {
		t.Logf("ld: %v\n%s (skipping the executable)", err, out)
		return
	}
	bin, err := os.ReadFile(exe)
	if err != nil {
		t.Fatal(err)
	}
	rs, err = Read("k", bin, Options{}, nil)
	check("executable regions", rs, err, "region 7 (kernel+0x1):[add imul]")
	rs, err = Read("k", bin, Options{Symbol: "kernel"}, nil)
	check("executable symbol", rs, err, "kernel:[nop add imul ret]")
	start := rs[0].Addr
	rs, err = Read("k", bin, Options{Range: fmt.Sprintf("%#x:%#x", start+1, start+8)}, nil)
	check("executable range", rs, err, "kernel+0x1:[add imul]")
}
