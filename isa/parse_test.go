package isa

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

// parseOne parses a single instruction (with the given syntax directive) and
// fails the test unless there is exactly one.
func parseOne(t *testing.T, syntax, text string) *Inst {
	t.Helper()
	src := text + "\n"
	if syntax != "" {
		src = syntax + "\n" + src
	}
	f, err := Parse("t.s", []byte(src))
	if err != nil {
		t.Fatalf("Parse(%q): %v", text, err)
	}
	ins := f.Insts()
	if len(ins) != 1 {
		t.Fatalf("Parse(%q): %d instructions", text, len(ins))
	}
	return ins[0]
}

func formName(in *Inst) string {
	if in.Form == nil {
		return "<nil>"
	}
	return in.Form.Name()
}

func TestParseATTOperands(t *testing.T) {
	tests := []struct {
		text     string
		mnemonic string
		form     string
		args     []InstOperand // Pos is not compared
	}{
		{"addq $1, 8(%rax,%rbx,4)", "add", "add m64, imm8", []InstOperand{
			MemOp(InstMem{Base: RAX, Index: RBX, Scale: 4, Disp: 8, Size: 64}), ImmOp(1)}},
		{"movq %fs:0x28, %rax", "mov", "mov r64, m64", []InstOperand{
			RegOp(RAX), MemOp(InstMem{Segment: FS, Scale: 1, Disp: 0x28, Size: 64})}},
		{"leaq sym+16(%rip), %rdi", "lea", "lea r64, m", []InstOperand{
			RegOp(RDI), MemOp(InstMem{Base: RIP, Scale: 1, Disp: 16, Symbol: "sym"})}},
		{"movzbl (%rsi), %eax", "movzx", "movzx r32, m8", []InstOperand{
			RegOp(EAX), MemOp(InstMem{Base: RSI, Scale: 1, Size: 8})}},
		{"movslq %eax, %rdx", "movsxd", "movsxd r64, r32", []InstOperand{RegOp(RDX), RegOp(EAX)}},
		{"cvtsi2sdq %r9, %xmm3", "cvtsi2sd", "cvtsi2sd xmm, r64", []InstOperand{RegOp(VecReg(3, 128)), RegOp(R9)}},
		{"vfmadd231pd -32(%rdi,%rcx,8), %ymm1, %ymm0", "vfmadd231pd", "vfmadd231pd ymm, ymm, m256", []InstOperand{
			RegOp(VecReg(0, 256)), RegOp(VecReg(1, 256)), MemOp(InstMem{Base: RDI, Index: RCX, Scale: 8, Disp: -32, Size: 256})}},
		{"shlq %cl, %r11", "shl", "shl r64, cl", []InstOperand{RegOp(R11), RegOp(CL)}},
		{"movabsq $0x1122334455667788, %rax", "mov", "mov r64, imm64", []InstOperand{RegOp(RAX), ImmOp(0x1122334455667788)}},
		{"fldl 8(%rsp)", "fld", "fld m64", []InstOperand{MemOp(InstMem{Base: RSP, Scale: 1, Disp: 8, Size: 64})}},
		{"fdivr %st, %st(1)", "fdiv", "fdiv st, st(0)", []InstOperand{RegOp(ST0 + 1), RegOp(ST0)}},
		{"movq %rax, %xmm0", "movq", "movq xmm, r64", []InstOperand{RegOp(X0), RegOp(RAX)}},
		{"movq %rax, %rbx", "mov", "mov r64, r64", []InstOperand{RegOp(RBX), RegOp(RAX)}},
		{"pushq $-1", "push", "push imm8", []InstOperand{ImmOp(-1)}},
		{"movl $sym+4, %eax", "mov", "mov r32, imm32", []InstOperand{RegOp(EAX), {Type: OpImm, Imm: 4, Symbol: "sym"}}},
		{"movq (,%rcx,8), %rax", "mov", "mov r64, m64", []InstOperand{RegOp(RAX), MemOp(InstMem{Index: RCX, Scale: 8, Size: 64})}},
		{"movl 0x1000, %eax", "mov", "mov r32, m32", []InstOperand{RegOp(EAX), MemOp(InstMem{Scale: 1, Disp: 0x1000, Size: 32})}},
		{"enter $16, $0", "enter", "enter imm16, imm8", []InstOperand{ImmOp(16), ImmOp(0)}},
		{"vpgatherdd (%rax,%zmm1,4), %zmm0{%k1}", "vpgatherdd", "", []InstOperand{
			RegOp(VecReg(0, 512)), MemOp(InstMem{Base: RAX, Index: VecReg(1, 512), Scale: 4})}},
	}
	for _, tt := range tests {
		in := parseOne(t, ".att_syntax", tt.text)
		if in.Mnemonic != tt.mnemonic || (tt.form != "" && formName(in) != tt.form) {
			t.Errorf("%q: mnemonic %q form %q; want %q %q", tt.text, in.Mnemonic, formName(in), tt.mnemonic, tt.form)
		}
		if in.SourceMnemonic != strings.Fields(tt.text)[0] || in.Syntax != SyntaxATT {
			t.Errorf("%q: SourceMnemonic %q Syntax %v", tt.text, in.SourceMnemonic, in.Syntax)
		}
		got := stripPos(in.Args)
		if !reflect.DeepEqual(got, tt.args) {
			t.Errorf("%q: args\n got %+v\nwant %+v", tt.text, got, tt.args)
		}
	}
}

func stripPos(args []InstOperand) []InstOperand {
	out := make([]InstOperand, len(args))
	for i, a := range args {
		a.Pos = Pos{}
		out[i] = a
	}
	return out
}

func TestParseIntelOperands(t *testing.T) {
	tests := []struct {
		text string
		form string
		args []InstOperand
	}{
		{"vfmadd231pd ymm0, ymm1, ymmword ptr [rdi+rcx*8-32]", "vfmadd231pd ymm, ymm, m256", []InstOperand{
			RegOp(VecReg(0, 256)), RegOp(VecReg(1, 256)), MemOp(InstMem{Base: RDI, Index: RCX, Scale: 8, Disp: -32, Size: 256})}},
		{"mov rax, qword ptr fs:[0x28]", "mov r64, m64", []InstOperand{
			RegOp(RAX), MemOp(InstMem{Segment: FS, Scale: 1, Disp: 0x28, Size: 64})}},
		{"lea rax, [rip + sym]", "lea r64, m", []InstOperand{RegOp(RAX), MemOp(InstMem{Base: RIP, Scale: 1, Symbol: "sym"})}},
		{"mov eax, 0FFh", "mov r32, imm32", []InstOperand{RegOp(EAX), ImmOp(255)}},
		{"mov eax, 0b101", "mov r32, imm32", []InstOperand{RegOp(EAX), ImmOp(5)}},
		{"add rax, -0x10", "add r64, imm8", []InstOperand{RegOp(RAX), ImmOp(-16)}},
		{"add rax, 010", "add r64, imm8", []InstOperand{RegOp(RAX), ImmOp(8)}},
		{"add rax, (1 << 4) | 3", "add r64, imm8", []InstOperand{RegOp(RAX), ImmOp(19)}},
		{"mov rcx, [rbx+rdx]", "mov r64, m64", []InstOperand{RegOp(RCX), MemOp(InstMem{Base: RBX, Index: RDX, Scale: 1, Size: 64})}},
		{"mov rcx, [8*rdx+0x10]", "mov r64, m64", []InstOperand{RegOp(RCX), MemOp(InstMem{Index: RDX, Scale: 8, Disp: 16, Size: 64})}},
		{"movsx eax, byte ptr [rsi]", "movsx r32, m8", []InstOperand{RegOp(EAX), MemOp(InstMem{Base: RSI, Scale: 1, Size: 8})}},
		{"add [rax], rbx", "add m64, r64", []InstOperand{MemOp(InstMem{Base: RAX, Scale: 1, Size: 64}), RegOp(RBX)}},
		{"fadd st, st(3)", "fadd st(0), st", []InstOperand{RegOp(ST0), RegOp(ST0 + 3)}},
		{"mov eax, offset sym", "mov r32, imm32", []InstOperand{RegOp(EAX), {Type: OpImm, Symbol: "sym"}}},
		{"mov eax, sym", "mov r32, m32", []InstOperand{RegOp(EAX), MemOp(InstMem{Scale: 1, Symbol: "sym", Size: 32})}},
		{"mov rax, 8[rbp]", "mov r64, m64", []InstOperand{RegOp(RAX), MemOp(InstMem{Base: RBP, Scale: 1, Disp: 8, Size: 64})}},
		{"movabs rax, 1", "mov r64, imm64", []InstOperand{RegOp(RAX), ImmOp(1)}},
		{"mov %rax, %rbx", "mov r64, r64", []InstOperand{RegOp(RAX), RegOp(RBX)}},
	}
	for _, tt := range tests {
		in := parseOne(t, ".intel_syntax noprefix", tt.text)
		if formName(in) != tt.form {
			_, err := in.ResolveForm()
			t.Errorf("%q: form %q (%v), want %q", tt.text, formName(in), err, tt.form)
		}
		if got := stripPos(in.Args); !reflect.DeepEqual(got, tt.args) {
			t.Errorf("%q: args\n got %+v\nwant %+v", tt.text, got, tt.args)
		}
	}
}

func TestParseAVX512Decorations(t *testing.T) {
	tests := []struct {
		syntax, text string
		form         string
		mask         Reg
		zeroing      bool
		rounding     Rounding
		bcast        int
	}{
		{".att_syntax", "vaddpd (%rax){1to8}, %zmm1, %zmm0{%k1}{z}", "vaddpd zmm {k}{z}, zmm, m64bcst", KReg(1), true, RoundNone, 8},
		{".intel_syntax noprefix", "vaddpd zmm0 {k1}{z}, zmm1, qword ptr [rax]{1to8}", "vaddpd zmm {k}{z}, zmm, m64bcst", KReg(1), true, RoundNone, 8},
		{".intel_syntax noprefix", "vaddpd zmm0{k1}, zmm1, [rax]{1to8}", "vaddpd zmm {k}, zmm, m64bcst", KReg(1), false, RoundNone, 8},
		{".att_syntax", "vaddpd {rn-sae}, %zmm2, %zmm1, %zmm0", "vaddpd zmm, zmm, zmm", RegNone, false, RoundNearest, 0},
		{".intel_syntax noprefix", "vaddpd zmm0, zmm1, zmm2, {rz-sae}", "vaddpd zmm, zmm, zmm", RegNone, false, RoundZero, 0},
		{".intel_syntax noprefix", "vaddpd zmm0, zmm1, zmm2{rd-sae}", "vaddpd zmm, zmm, zmm", RegNone, false, RoundDown, 0},
		{".intel_syntax noprefix", "vcmppd k1{k2}, zmm1, zmm2, {sae}, 3", "vcmppd k {k}, zmm, zmm, imm8", KReg(2), false, RoundSAE, 0},
		{".att_syntax", "vcmppd $3, {sae}, %zmm2, %zmm1, %k1{%k2}", "vcmppd k {k}, zmm, zmm, imm8", KReg(2), false, RoundSAE, 0},
		{".att_syntax", "vaddps %xmm2, %xmm1, %xmm0", "vaddps xmm, xmm, xmm", RegNone, false, RoundNone, 0},
		{".att_syntax", "{evex} vaddps %xmm2, %xmm1, %xmm0", "{evex} vaddps xmm, xmm, xmm", RegNone, false, RoundNone, 0},
		{".att_syntax", "vaddps %xmm18, %xmm1, %xmm0", "{evex} vaddps xmm, xmm, xmm", RegNone, false, RoundNone, 0},
		{".intel_syntax noprefix", "vaddps ymm0 {k3}, ymm1, ymm2", "vaddps ymm {k}, ymm, ymm", KReg(3), false, RoundNone, 0},
	}
	for _, tt := range tests {
		in := parseOne(t, tt.syntax, tt.text)
		if formName(in) != tt.form {
			_, err := in.ResolveForm()
			t.Errorf("%q: form %q (%v), want %q", tt.text, formName(in), err, tt.form)
		}
		if in.Mask != tt.mask || in.Zeroing != tt.zeroing || in.Rounding != tt.rounding {
			t.Errorf("%q: mask %v zeroing %v rounding %v", tt.text, in.Mask, in.Zeroing, in.Rounding)
		}
		bc := 0
		for _, a := range in.Args {
			if a.Type == OpMem {
				bc = a.Mem.Broadcast
			}
		}
		if bc != tt.bcast {
			t.Errorf("%q: broadcast %d, want %d", tt.text, bc, tt.bcast)
		}
	}
}

func TestParseBranchesAndPrefixes(t *testing.T) {
	tests := []struct {
		syntax, text string
		form         string
		prefix       Prefix
		arg          InstOperand
	}{
		{".att_syntax", "jne 1b", "jne rel8", 0, InstOperand{Type: OpLabel, Symbol: "1b"}},
		{".att_syntax", "jz .Lloop", "je rel8", 0, InstOperand{Type: OpLabel, Symbol: ".Lloop"}},
		{".att_syntax", "{disp32} jmp foo", "jmp rel32", PrefixDisp32, InstOperand{Type: OpLabel, Symbol: "foo"}},
		{".att_syntax", "call foo@PLT", "call rel32", 0, InstOperand{Type: OpLabel, Symbol: "foo@PLT"}},
		{".att_syntax", "jmp *%rax", "jmp r64", 0, InstOperand{Type: OpReg, Reg: RAX, Indirect: true}},
		{".att_syntax", "call *8(%rax)", "call m64", 0, InstOperand{Type: OpMem, Mem: InstMem{Base: RAX, Scale: 1, Disp: 8, Size: 64}, Indirect: true}},
		{".intel_syntax noprefix", "jmp rax", "jmp r64", 0, InstOperand{Type: OpReg, Reg: RAX}},
		{".intel_syntax noprefix", "jmp qword ptr [rax]", "jmp m64", 0, InstOperand{Type: OpMem, Mem: InstMem{Base: RAX, Scale: 1, Size: 64}}},
		{".intel_syntax noprefix", "jb 2f", "jb rel8", 0, InstOperand{Type: OpLabel, Symbol: "2f"}},
		{".att_syntax", "lock; incl (%rax)", "inc m32", PrefixLock, InstOperand{Type: OpMem, Mem: InstMem{Base: RAX, Scale: 1, Size: 32}}},
		{".att_syntax", "lock xaddq %rax, (%rbx)", "xadd m64, r64", PrefixLock, InstOperand{Type: OpMem, Mem: InstMem{Base: RBX, Scale: 1, Size: 64}}},
	}
	for _, tt := range tests {
		in := parseOne(t, tt.syntax, tt.text)
		if formName(in) != tt.form || in.Prefix != tt.prefix {
			_, err := in.ResolveForm()
			t.Errorf("%q: form %q prefix %v (%v), want %q %v", tt.text, formName(in), in.Prefix, err, tt.form, tt.prefix)
		}
		a := in.Args[0]
		a.Pos = Pos{}
		if !reflect.DeepEqual(a, tt.arg) {
			t.Errorf("%q: arg %+v, want %+v", tt.text, a, tt.arg)
		}
	}
	// rep string instructions map to the rep forms
	for _, text := range []string{"rep movsb", "rep; movsb"} {
		in := parseOne(t, ".att_syntax", text)
		if formName(in) != "rep movsb" || in.Prefix != 0 || in.Pos.Col != 1 {
			t.Errorf("%q: form %q prefix %v col %d", text, formName(in), in.Prefix, in.Pos.Col)
		}
	}
}

func TestParseStatements(t *testing.T) {
	src := `# LLVM-MCA-BEGIN loop
	.p2align 4, 0x90
	.globl	kernel
kernel:
1:	addq $1, %rax   # trailing
	# LLVM-EXEGESIS-DEFREG RAX 0x10

	n = 5
	subq $1, %rcx; jne 1b /* block */
a: b: nop
/* multi
   line */ nop
	# LLVM-MCA-END
`
	f, err := Parse("k.s", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	type stmt struct {
		kind      StmtKind
		line, col int
		text      string
	}
	var got []stmt
	for _, s := range f.Stmts {
		x := stmt{s.Kind, s.Pos.Line, s.Pos.Col, ""}
		switch s.Kind {
		case StmtComment:
			x.text = s.Comment
		case StmtLabel:
			x.text = s.Label
		case StmtDirective:
			x.text = s.Directive + "|" + s.Args
		case StmtInst:
			x.text = s.Inst.Intel()
		}
		got = append(got, x)
	}
	want := []stmt{
		{StmtComment, 1, 1, "LLVM-MCA-BEGIN loop"},
		{StmtDirective, 2, 2, ".p2align|4, 0x90"},
		{StmtDirective, 3, 2, ".globl|kernel"},
		{StmtLabel, 4, 1, "kernel"},
		{StmtLabel, 5, 1, "1"},
		{StmtInst, 5, 4, "add rax, 1"},
		{StmtComment, 5, 20, "trailing"},
		{StmtComment, 6, 2, "LLVM-EXEGESIS-DEFREG RAX 0x10"},
		{StmtBlank, 7, 1, ""},
		{StmtDirective, 8, 2, "=|n = 5"},
		{StmtInst, 9, 2, "sub rcx, 1"},
		{StmtInst, 9, 17, "jne 1b"},
		{StmtComment, 9, 24, "block"},
		{StmtLabel, 10, 1, "a"},
		{StmtLabel, 10, 4, "b"},
		{StmtInst, 10, 7, "nop"},
		{StmtComment, 11, 1, "multi\n   line"},
		{StmtInst, 12, 12, "nop"},
		{StmtComment, 13, 2, "LLVM-MCA-END"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("statements:\n got %v\nwant %v", got, want)
	}
	if f.Syntax != SyntaxATT || f.Name != "k.s" {
		t.Errorf("file syntax %v name %q", f.Syntax, f.Name)
	}
	if n := len(f.Insts()); n != 5 {
		t.Errorf("%d instructions", n)
	}
}

func TestParseSyntaxDetection(t *testing.T) {
	tests := []struct {
		src  string
		want Syntax
	}{
		{"addq $1, %rax\n", SyntaxATT},
		{"add rax, 1\n", SyntaxIntel},
		{"# comment\nloop:\n\tnop\n\tvaddpd ymm0, ymm1, ymmword ptr [rdi]\n", SyntaxIntel},
		{"nop\nret\n", SyntaxATT},
		{".intel_syntax noprefix\nnop\n", SyntaxIntel},
		{"jmp foo\nmov %eax, %ebx\n", SyntaxATT},
		{"inc dword ptr [rax]\n", SyntaxIntel},
	}
	for _, tt := range tests {
		f, err := Parse("d.s", []byte(tt.src))
		if err != nil {
			t.Errorf("%q: %v", tt.src, err)
			continue
		}
		if f.Syntax != tt.want {
			t.Errorf("%q: syntax %v, want %v", tt.src, f.Syntax, tt.want)
		}
	}
	// A directive switches mid-file; ';' is a comment in Intel syntax.
	src := "addq $1, %rax\n.intel_syntax noprefix\nadd rax, 1 ; one\n.att_syntax prefix\nsubq $2, %rbx; nop\n"
	f, err := Parse("m.s", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var forms []string
	var syn []Syntax
	for _, in := range f.Insts() {
		forms = append(forms, formName(in))
		syn = append(syn, in.Syntax)
	}
	wantForms := []string{"add r64, imm8", "add r64, imm8", "sub r64, imm8", "nop"}
	wantSyn := []Syntax{SyntaxATT, SyntaxIntel, SyntaxATT, SyntaxATT}
	if !reflect.DeepEqual(forms, wantForms) || !reflect.DeepEqual(syn, wantSyn) {
		t.Errorf("forms %v syntaxes %v", forms, syn)
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		src  string
		want string
	}{
		{"\tvaddpd %ymm32, %ymm1, %ymm2\n", `k.s:1:9: unknown register "%ymm32"`},
		{"nop\n  addq $1, (%rax,%rbx,3)\n", `k.s:2:23: scale must be 1, 2, 4 or 8, not "3"`},
		{".intel_syntax noprefix\nmov rax, [rax+rbx*3]\n", `k.s:2:19: scale must be 1, 2, 4 or 8, not "3"`},
		{".intel_syntax noprefix\nvaddpd zmm0, zmm1{k1}, zmm2\n", `k.s:2:18: mask only allowed on the destination operand`},
		{"vaddpd %zmm2, %zmm1, %zmm0{%k0}\n", `k.s:1:28: k0 cannot be a write mask`},
		{"vaddpd %zmm2, %zmm1, %zmm0{%k9}\n", `k.s:1:28: unknown register "%k9"`},
		{"vaddpd %zmm2, %zmm1, %zmm0{%rax}\n", `k.s:1:28: mask must be a k register, not "%rax"`},
		{"addq $1, (%rax\n", `k.s:1:10: unbalanced "("`},
		{"movq $, %rax\n", `k.s:1:7: missing expression`},
		{".intel_syntax noprefix\nadd rax,\n", `k.s:2:9: missing operand`},
		{".intel_syntax noprefix\nmov eax, $1\n", `k.s:2:10: unexpected "$" in Intel syntax`},
		{".intel_syntax noprefix\nmov xmm32, eax\n", `k.s:2:5: unknown register "xmm32"`},
		{"movq (%rax,%rsp,2), %rbx\n", `k.s:1:12: bad index register "%rsp"`},
		{"movq (%ax), %rbx\n", `k.s:1:7: bad base register "%ax"`},
		{"vaddpd (%rax){1to3}, %zmm1, %zmm0\n", `k.s:1:14: bad broadcast "{1to3}"`},
		{"vaddpd {rx-sae}, %zmm2, %zmm1, %zmm0\n", `k.s:1:8: unknown rounding operand "{rx-sae}"`},
		{"{evx} vaddpd %zmm2, %zmm1, %zmm0\n", `k.s:1:1: unknown pseudo-prefix "{evx}"`},
		{"nop\n/* open\n", `k.s:2:1: unterminated /* comment`},
		{"lock\n", `k.s:1:1: prefix without instruction`},
		{"movl $1/0, %eax\n", `k.s:1:8: division by zero`},
		{"movl $0x, %eax\n", `k.s:1:7: bad number "0x"`},
		{"mov%eax, %ebx\n", `k.s:1:1: bad mnemonic "mov%eax"`},
		{"movq %rax:8(%rbx), %rcx\n", `k.s:1:6: segment override with "%rax", not a segment register`},
		{".intel_syntax noprefix\nmov rax, [rax] junk\n", `k.s:2:16: unexpected "junk" after "]"`},
	}
	for _, tt := range tests {
		_, err := Parse("k.s", []byte(tt.src))
		if err == nil {
			t.Errorf("%q: no error, want %s", tt.src, tt.want)
			continue
		}
		var pe ParseErrors
		if !errors.As(err, &pe) || len(pe) != 1 {
			t.Errorf("%q: error %v (%T), want one ParseError", tt.src, err, err)
			continue
		}
		if got := pe[0].Error(); got != tt.want {
			t.Errorf("%q:\n got %s\nwant %s", tt.src, got, tt.want)
		}
	}
	// Errors are collected; the good lines are kept.
	f, err := Parse("k.s", []byte("addq $1, %xmm99\nnop\nmovq (%rax, %rbx\n"))
	var pe ParseErrors
	if !errors.As(err, &pe) || len(pe) != 2 {
		t.Fatalf("error %v", err)
	}
	if want := `k.s:1:10: unknown register "%xmm99" (and 1 more errors)`; err.Error() != want {
		t.Errorf("got %q, want %q", err.Error(), want)
	}
	var pe0 *ParseError
	if !errors.As(err, &pe0) || pe0.Line != 1 || pe0.Col != 10 || pe0.File != "k.s" {
		t.Errorf("errors.As first error: %+v", pe0)
	}
	if len(f.Insts()) != 1 || f.Insts()[0].Mnemonic != "nop" {
		t.Errorf("kept instructions: %v", f.Insts())
	}
}

func TestResolveForm(t *testing.T) {
	tests := []struct {
		syntax, text string
		want         string // form name or error text
	}{
		{"intel", "add rax, 1", "add r64, imm8"},
		{"intel", "add rax, 127", "add r64, imm8"},
		{"intel", "add rax, 128", "add rax, imm32"},
		{"intel", "add rcx, 200", "add r64, imm32"},
		{"intel", "add rcx, -128", "add r64, imm8"},
		{"intel", "add al, 200", "add al, imm8"},
		{"intel", "add cl, 255", "add r8, imm8"},
		{"intel", "add eax, 0xffffffff", "add eax, imm32"},
		{"intel", "and ecx, 0xffffffff", "and r32, imm32"},
		{"intel", "mov rax, -1", "mov r64, imm32"},
		{"intel", "mov rax, 0x100000000", "mov r64, imm64"},
		{"intel", "mov ecx, 0xffffffff", "mov r32, imm32"},
		{"intel", "shl rax, 1", "shl r64, 1"},
		{"intel", "shl rax, 200", "shl r64, imm8"},
		{"intel", "imul rax, rbx, 1000", "imul r64, r64, imm32"},
		{"intel", "int 3", "int 3"},
		{"intel", "int 0x80", "int imm8"},
		{"intel", "push 4096", "push imm32"},
		{"intel", "pushw 4096", "push imm16"},
		{"intel", "xchg rax, rcx", "xchg r64, r64"},
		{"intel", "xchg rcx, rax", "xchg r64, rax"},
		{"intel", "pshufd xmm0, xmm1, 0xff", "pshufd xmm, xmm, imm8"},
		{"intel", "blendvps xmm1, xmm2, xmm0", "blendvps xmm, xmm, xmm0"},
		{"intel", "jz 1f", "je rel8"},
		{"intel", "vaddpd xmm0, xmm1, xmm2", "vaddpd xmm, xmm, xmm"},
		{"intel", "{evex} vaddpd xmm0, xmm1, xmm2", "{evex} vaddpd xmm, xmm, xmm"},
		{"intel", "vaddpd xmm16, xmm1, xmm2", "{evex} vaddpd xmm, xmm, xmm"},
		{"intel", "vcvtpd2ps xmm0, ymmword ptr [rax]", "vcvtpd2ps xmm, m256"},
		{"att", "vcvtpd2psy (%rax), %xmm0", "vcvtpd2ps xmm, m256"},
		{"att", "vcvtpd2psx (%rax), %xmm0", "vcvtpd2ps xmm, m128"},
		{"att", "addq $1, (%rax)", "add m64, imm8"},
		{"att", "addl $100000, (%rax)", "add m32, imm32"},
		{"att", "fiaddl (%rax)", "fiadd m32"},
		{"att", "fildll (%rax)", "fild m64"},
		{"att", "cvttss2siq 8(%rdi), %rbx", "cvttss2si r64, m32"},
		{"att", "lcallq *(%rdi)", "call m16:64"},
		{"intel", "inc [rax]", `t.s:2:1: ambiguous operand size for "inc" (m): add a size ("qword ptr" or an AT&T suffix); candidates: inc m16; inc m32; inc m64; inc m8`},
		{"intel", "vcvtpd2ps xmm0, [rax]", `t.s:2:1: ambiguous operand size for "vcvtpd2ps" (xmm, m): add a size ("qword ptr" or an AT&T suffix); candidates: vcvtpd2ps xmm, m128; vcvtpd2ps xmm, m256`},
		{"intel", "vaddpd zmm0, zmm1, rax", `t.s:2:1: no form of "vaddpd" takes (zmm, zmm, r64); candidates: `},
		{"intel", "vaddpd ymm0, ymm1, ymm2, {rn-sae}", `t.s:2:1: no form of "vaddpd" takes (ymm, ymm, ymm); candidates: `},
		{"att", "frobnicate %rax", `t.s:2:1: unknown instruction "frobnicate"`},
	}
	for _, tt := range tests {
		hdr := ".intel_syntax noprefix"
		if tt.syntax == "att" {
			hdr = ".att_syntax"
		}
		in := parseOne(t, hdr, tt.text)
		in.Form = nil
		f, err := in.ResolveForm()
		var got string
		if err != nil {
			got = err.Error()
			var fe *FormError
			if !errors.As(err, &fe) {
				t.Errorf("%q: error %T, want *FormError", tt.text, err)
			}
		} else {
			got = f.Name()
			if in.Form != f || in.Mnemonic != f.Mnemonic {
				t.Errorf("%q: Form %v Mnemonic %q not set", tt.text, in.Form, in.Mnemonic)
			}
		}
		if strings.HasSuffix(tt.want, "candidates: ") {
			if !strings.HasPrefix(got, tt.want) {
				t.Errorf("%q:\n got %s\nwant prefix %s", tt.text, got, tt.want)
			}
		} else if got != tt.want {
			t.Errorf("%q:\n got %s\nwant %s", tt.text, got, tt.want)
		}
	}
}

func TestFileResolveForms(t *testing.T) {
	f, err := Parse("r.s", []byte(".intel_syntax noprefix\nadd rax, 1\ninc [rbx]\nbogus rax\n"))
	if err != nil {
		t.Fatal(err)
	}
	err = f.ResolveForms()
	var pe ParseErrors
	if !errors.As(err, &pe) || len(pe) != 2 {
		t.Fatalf("ResolveForms: %v", err)
	}
	if pe[0].Line != 3 || pe[1].Line != 4 || pe[1].Msg != `unknown instruction "bogus"` {
		t.Errorf("errors: %v; %v", pe[0], pe[1])
	}
}
