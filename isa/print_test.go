package isa

import "testing"

func TestPrint(t *testing.T) {
	tests := []struct {
		syntax, text string
		intel, att   string
	}{
		{"att", "addq $1, (%rax)", "add qword ptr [rax], 1", "addq $1, (%rax)"},
		{"intel", "add qword ptr [rax+rbx*8-0x10], 200", "add qword ptr [rax+rbx*8-0x10], 0xc8", "addq $0xc8, -0x10(%rax,%rbx,8)"},
		{"att", "movq %fs:0x28, %rax", "mov rax, qword ptr fs:[0x28]", "movq %fs:0x28, %rax"},
		{"att", "leaq sym+8(%rip), %rdi", "lea rdi, [rip+sym+8]", "leaq sym+8(%rip), %rdi"},
		{"att", "movzbl (%rsi), %eax", "movzx eax, byte ptr [rsi]", "movzbl (%rsi), %eax"},
		{"intel", "movsx rax, word ptr [rsi]", "movsx rax, word ptr [rsi]", "movswq (%rsi), %rax"},
		{"att", "vaddpd (%rax){1to8}, %zmm1, %zmm0{%k1}{z}", "vaddpd zmm0{k1}{z}, zmm1, qword ptr [rax]{1to8}", "vaddpd (%rax){1to8}, %zmm1, %zmm0{%k1}{z}"},
		{"intel", "vcmppd k1{k2}, zmm1, zmm2, {sae}, 3", "vcmppd k1{k2}, zmm1, zmm2, {sae}, 3", "vcmppd $3, {sae}, %zmm2, %zmm1, %k1{%k2}"},
		{"att", "vaddpd {rn-sae}, %zmm2, %zmm1, %zmm0", "vaddpd zmm0, zmm1, zmm2, {rn-sae}", "vaddpd {rn-sae}, %zmm2, %zmm1, %zmm0"},
		{"intel", "vaddpd xmm0, xmm1, xmm2", "vaddpd xmm0, xmm1, xmm2", "vaddpd %xmm2, %xmm1, %xmm0"},
		{"intel", "{evex} vaddpd xmm0, xmm1, xmm2", "{evex} vaddpd xmm0, xmm1, xmm2", "{evex} vaddpd %xmm2, %xmm1, %xmm0"},
		{"att", "jmp *%rax", "jmp rax", "jmpq *%rax"},
		{"att", "jne .Lloop", "jne .Lloop", "jne .Lloop"},
		{"att", "{disp32} jne .Lloop", "{disp32} jne .Lloop", "{disp32} jne .Lloop"},
		{"att", "lock; incl (%rax)", "lock inc dword ptr [rax]", "lock incl (%rax)"},
		{"att", "rep movsb", "rep movsb", "rep movsb"},
		{"att", "fldl 8(%rsp)", "fld qword ptr [rsp+8]", "fldl 8(%rsp)"},
		{"att", "movabsq $0x1122334455667788, %rax", "movabs rax, 0x1122334455667788", "movabsq $0x1122334455667788, %rax"},
		{"att", "movl $sym+4, %eax", "mov eax, offset sym+4", "movl $sym+4, %eax"},
		{"att", "enter $16, $0", "enter 0x10, 0", "enterq $0x10, $0"},
		// no catalog form (the catalog has no gathers): printed as parsed
		{"att", "vpgatherdd (%rax,%zmm1,4), %zmm0{%k1}", "vpgatherdd zmm0{k1}, [rax+zmm1*4]", "vpgatherdd (%rax,%zmm1,4), %zmm0{%k1}"},
		{"intel", "vpgatherdd zmm0{k1}, dword ptr [rax+zmm1*4+8]", "vpgatherdd zmm0{k1}, dword ptr [rax+zmm1*4+8]", "vpgatherdd 8(%rax,%zmm1,4), %zmm0{%k1}"},
		{"intel", "pushw 4096", "pushw 0x1000", "pushw $0x1000"},
		{"intel", "grok [rax], 1", "grok [rax], 1", "grok $1, (%rax)"},
		{"intel", "grok qword ptr [rax], 1", "grok qword ptr [rax], 1", "grokq $1, (%rax)"},
	}
	for _, tt := range tests {
		hdr := ".intel_syntax noprefix"
		if tt.syntax == "att" {
			hdr = ".att_syntax"
		}
		in := parseOne(t, hdr, tt.text)
		if got := in.Intel(); got != tt.intel {
			t.Errorf("%q: Intel() = %q, want %q", tt.text, got, tt.intel)
		}
		if got := in.ATT(); got != tt.att {
			t.Errorf("%q: ATT() = %q, want %q", tt.text, got, tt.att)
		}
		if in.String() != in.Intel() {
			t.Errorf("%q: String() differs from Intel()", tt.text)
		}
		// Printing and parsing again gives the same form in both syntaxes.
		if in.Form == nil {
			continue
		}
		for _, re := range []struct{ hdr, text string }{{".intel_syntax noprefix", in.Intel()}, {".att_syntax", in.ATT()}} {
			again := parseOne(t, re.hdr, re.text)
			if again.Form != in.Form {
				t.Errorf("%q: reparsing %q gives form %q, want %q", tt.text, re.text, formName(again), formName(in))
			}
		}
	}
}
