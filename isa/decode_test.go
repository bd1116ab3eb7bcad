package isa

import (
	"errors"
	"reflect"
	"testing"
)

func TestDecode(t *testing.T) {
	tests := []struct {
		code    []byte
		intel   string
		form    string
		decoder decoderKind
	}{
		// legacy: the form follows the encoding, not just the operands
		{[]byte{0x48, 0x83, 0xc0, 0x01}, "add rax, 1", "add r64, imm8", decX86asm},
		{[]byte{0x48, 0x81, 0xc0, 0x01, 0, 0, 0}, "add rax, 1", "add r64, imm32", decX86asm},
		{[]byte{0x48, 0x05, 0x78, 0x56, 0x34, 0x12}, "add rax, 0x12345678", "add rax, imm32", decX86asm},
		{[]byte{0x04, 0xc8}, "add al, 0xc8", "add al, imm8", decX86asm},
		{[]byte{0x64, 0x48, 0x8b, 0x04, 0x25, 0x28, 0, 0, 0}, "mov rax, qword ptr fs:[0x28]", "mov r64, m64", decX86asm},
		{[]byte{0xff, 0x15, 0x10, 0, 0, 0}, "call qword ptr [rip+0x10]", "call m64", decX86asm},
		{[]byte{0xa1, 0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11}, "movabs eax, dword ptr [0x1122334455667788]", "mov eax, moffs64", decX86asm},
		{[]byte{0xf0, 0x48, 0x0f, 0xc1, 0x03}, "lock xadd qword ptr [rbx], rax", "xadd m64, r64", decX86asm},
		{[]byte{0xf3, 0x48, 0xab}, "rep stosq", "rep stosq", decX86asm},
		{[]byte{0xf2, 0x0f, 0x38, 0xf0, 0x06}, "crc32 eax, byte ptr [rsi]", "crc32 r32, m8", decX86asm},
		// x86asm ignores REX.W on adcx: decoded from the catalog
		{[]byte{0x66, 0x48, 0x0f, 0x38, 0xf6, 0xc1}, "adcx rax, rcx", "adcx r64, r64", decCatalog},
		// fwait-prefixed x87 control: one instruction, not two
		{[]byte{0x9b, 0xdb, 0xe2}, "fclex", "fclex", decCatalog},
		// VEX, portlab's decoder: operand roles from the catalog
		{[]byte{0xc4, 0xe2, 0xf0, 0xf7, 0xc3}, "bextr rax, rbx, rcx", "bextr r64, r64, r64", decVEX},
		{[]byte{0xc4, 0xe2, 0xf1, 0xf7, 0x43, 0x08}, "shlx rax, qword ptr [rbx+8], rcx", "shlx r64, m64, r64", decVEX},
		{[]byte{0xc4, 0xe2, 0xf8, 0xf3, 0xdb}, "blsi rax, rbx", "blsi r64, r64", decVEX},
		{[]byte{0xc4, 0xe2, 0xf5, 0xb8, 0xc2}, "vfmadd231pd ymm0, ymm1, ymm2", "vfmadd231pd ymm, ymm, ymm", decVEX},
		{[]byte{0xc5, 0xf5, 0x58, 0x44, 0x24, 0x08}, "vaddpd ymm0, ymm1, ymmword ptr [rsp+8]", "vaddpd ymm, ymm, m256", decVEX},
		{[]byte{0xc4, 0xe3, 0x71, 0x4b, 0xc2, 0x30}, "vblendvpd xmm0, xmm1, xmm2, xmm3", "vblendvpd xmm, xmm, xmm, xmm", decVEX},
		{[]byte{0xc4, 0xe2, 0x71, 0x2f, 0x17}, "vmaskmovpd xmmword ptr [rdi], xmm1, xmm2", "vmaskmovpd m128, xmm, xmm", decVEX},
		{[]byte{0xc5, 0xe1, 0x72, 0xf4, 0x05}, "vpslld xmm3, xmm4, 5", "vpslld xmm, xmm, imm8", decVEX},
		{[]byte{0xc4, 0xe1, 0xf9, 0x7e, 0xcb}, "vmovq rbx, xmm1", "vmovq r64, xmm", decVEX},
		{[]byte{0xc5, 0xeb, 0x10, 0xcb}, "vmovsd xmm1, xmm2, xmm3", "vmovsd xmm, xmm, xmm", decVEX},
		{[]byte{0xc4, 0xe1, 0x71, 0x58, 0xc2}, "{vex3} vaddpd xmm0, xmm1, xmm2", "vaddpd xmm, xmm, xmm", decVEX},
		// EVEX (no catalog opcode strings yet): x86asm, mapped by kinds
		{[]byte{0x62, 0xf1, 0xf5, 0x48, 0x58, 0x40, 0x01}, "vaddpd zmm0, zmm1, zmmword ptr [rax+0x40]", "vaddpd zmm, zmm, m512", decX86asm},
		{[]byte{0x62, 0xf1, 0xf5, 0xd9, 0x58, 0x00}, "vaddpd zmm0{k1}{z}, zmm1, qword ptr [rax]{1to8}", "vaddpd zmm {k}{z}, zmm, m64bcst", decX86asm},
		{[]byte{0x62, 0xe1, 0xf5, 0x7a, 0x58, 0xca}, "vaddpd zmm17{k2}, zmm1, zmm2, {rz-sae}", "vaddpd zmm {k}, zmm, zmm", decX86asm},
		{[]byte{0x62, 0xf1, 0x7e, 0x08, 0xe6, 0xca}, "{evex} vcvtdq2pd xmm1, xmm2", "{evex} vcvtdq2pd xmm, xmm", decX86asm},
	}
	for _, tt := range tests {
		ins, err := Decode(tt.code, 0x1000)
		if err != nil || len(ins) != 1 {
			t.Errorf("% x: %d instructions, error %v", tt.code, len(ins), err)
			continue
		}
		in := ins[0]
		if got := in.Intel(); got != tt.intel {
			t.Errorf("% x: %q, want %q", tt.code, got, tt.intel)
		}
		if formName(in) != tt.form || in.decoder != tt.decoder {
			t.Errorf("% x: form %q by %v, want %q by %v", tt.code, formName(in), in.decoder, tt.form, tt.decoder)
		}
		if in.Len != len(tt.code) || !reflect.DeepEqual(in.Bytes, tt.code) || in.Addr != 0x1000 {
			t.Errorf("% x: Len %d Bytes % x Addr %#x", tt.code, in.Len, in.Bytes, in.Addr)
		}
	}
}

func TestDecodeStream(t *testing.T) {
	code := []byte{
		0x48, 0xff, 0xc1, // inc rcx
		0x48, 0x39, 0xf1, // cmp rcx, rsi
		0x75, 0xf8, // jne -8 (back to inc)
		0x0f, 0x85, 0xf2, 0xff, 0xff, 0xff, // jne rel32 to the start
		0xc3, // ret
	}
	ins, err := Decode(code, 0x400000)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	var addrs []uint64
	for _, in := range ins {
		got = append(got, in.Intel()+" | "+formName(in))
		addrs = append(addrs, in.Addr)
	}
	want := []string{
		"inc rcx | inc r64",
		"cmp rcx, rsi | cmp r64, r64",
		"jne 0x400000 | jne rel8",
		"{disp32} jne 0x400000 | jne rel32",
		"ret | ret",
	}
	if !reflect.DeepEqual(got, want) || !reflect.DeepEqual(addrs, []uint64{0x400000, 0x400003, 0x400006, 0x400008, 0x40000e}) {
		t.Errorf("got %q at %#x", got, addrs)
	}
	if a := ins[2].Args[0]; a.Type != OpLabel || a.Imm != 0x400000 || a.Symbol != "" {
		t.Errorf("branch target %+v", a)
	}
}

func TestDecodeErrors(t *testing.T) {
	ins, err := Decode([]byte{0x90, 0x90, 0x48, 0x83}, 0x1000)
	if len(ins) != 2 {
		t.Errorf("%d instructions before the error", len(ins))
	}
	var de *DecodeError
	if !errors.As(err, &de) {
		t.Fatalf("error %v (%T)", err, err)
	}
	if de.Offset != 2 || de.Addr != 0x1002 || !reflect.DeepEqual(de.Bytes, []byte{0x48, 0x83}) {
		t.Errorf("DecodeError %+v", de)
	}
	if want := "offset 0x2 (address 0x1002): truncated instruction: 48 83"; err.Error() != want {
		t.Errorf("error %q, want %q", err.Error(), want)
	}
	for _, code := range [][]byte{
		{0x62},                         // truncated EVEX
		{0xc4, 0xe2},                   // truncated VEX
		{0x62, 0xf9, 0xf5, 0x48, 0x58}, // reserved EVEX bit
		{0x0f, 0xff},                   // ud0 without ModRM
		{0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x90}, // too long
	} {
		if ins, err := Decode(code, 0); err == nil {
			t.Errorf("% x: decoded %v, want an error", code, ins)
		} else if !errors.As(err, &de) || de.Offset != 0 {
			t.Errorf("% x: error %v", code, err)
		}
	}
}

// TestDecodeEVEXOwn checks portlab's EVEX decoder on forms that carry EVEX
// opcode strings (the catalog does not give them yet, so they are made here):
// masks, zeroing, broadcast with disp8*N, embedded rounding, registers 16-31
// and VSIB.
func TestDecodeEVEXOwn(t *testing.T) {
	zmm := func(masked, zeroing bool) Operand { return Operand{Kind: KindZMM, Masked: masked, Zeroing: zeroing} }
	op := func(k Kind) Operand { return Operand{Kind: k} }
	const enc = "EVEX.NDS.512.66.0F.W1 58 /r"
	forms := []*Form{
		{Mnemonic: "vaddpd", Encoding: EVEX, Opcode: enc, Operands: []Operand{zmm(false, false), op(KindZMM), op(KindZMM)}},
		{Mnemonic: "vaddpd", Encoding: EVEX, Opcode: enc, Operands: []Operand{zmm(true, false), op(KindZMM), op(KindZMM)}},
		{Mnemonic: "vaddpd", Encoding: EVEX, Opcode: enc, Operands: []Operand{zmm(true, true), op(KindZMM), op(KindZMM)}},
		{Mnemonic: "vaddpd", Encoding: EVEX, Opcode: enc, Operands: []Operand{zmm(false, false), op(KindZMM), op(KindM512)}},
		{Mnemonic: "vaddpd", Encoding: EVEX, Opcode: enc, Operands: []Operand{zmm(true, true), op(KindZMM), op(KindM64B)}},
		{Mnemonic: "vpgatherdd", Encoding: EVEX, Opcode: "EVEX.512.66.0F38.W0 90 /vsib", Operands: []Operand{zmm(true, false), op("vm32z")}},
	}
	tabs := newDecTables(forms)
	tests := []struct {
		code  []byte
		intel string
		form  *Form
		check func(in *Inst) bool
	}{
		{[]byte{0x62, 0xf1, 0xf5, 0x48, 0x58, 0x40, 0x01}, "vaddpd zmm0, zmm1, zmmword ptr [rax+0x40]", forms[3], nil},
		{[]byte{0x62, 0xf1, 0xf5, 0xd9, 0x58, 0x40, 0x01}, "vaddpd zmm0{k1}{z}, zmm1, qword ptr [rax+8]{1to8}", forms[4],
			func(in *Inst) bool {
				return in.Mask == KReg(1) && in.Zeroing && in.Args[2].Mem.Broadcast == 8 && in.Args[2].Mem.Size == 64
			}},
		{[]byte{0x62, 0xe1, 0xf5, 0x7a, 0x58, 0xca}, "vaddpd zmm17{k2}, zmm1, zmm2, {rz-sae}", forms[1],
			func(in *Inst) bool { return in.Rounding == RoundZero && in.Args[0].Reg == VecReg(17, 512) }},
		{[]byte{0x62, 0x61, 0xd5, 0x40, 0x58, 0xc2}, "vaddpd zmm24, zmm21, zmm2", forms[0], nil},
		{[]byte{0x62, 0xf2, 0x7d, 0x49, 0x90, 0x44, 0x90, 0x02}, "vpgatherdd zmm0{k1}, dword ptr [rax+zmm2*4+8]", forms[5], nil},
		{[]byte{0x62, 0xd2, 0x7d, 0x41, 0x90, 0x6c, 0x90, 0x40}, "vpgatherdd zmm5{k1}, dword ptr [r8+zmm18*4+0x100]", forms[5], nil},
	}
	for _, tt := range tests {
		pre, _ := scanPrefixes(tt.code)
		in, err := decodeVEX(tabs, tt.code, 0, pre)
		if err != nil {
			t.Errorf("% x: %v", tt.code, err)
			continue
		}
		if got := in.Intel(); got != tt.intel || in.Form != tt.form || in.decoder != decVEX || in.Len != len(tt.code) {
			t.Errorf("% x: %q (form %q, by %v, len %d), want %q", tt.code, got, formName(in), in.decoder, in.Len, tt.intel)
		}
		if tt.check != nil && !tt.check(in) {
			t.Errorf("% x: fields %+v", tt.code, in)
		}
	}
}

func TestParseEncSpec(t *testing.T) {
	tests := []struct {
		s    string
		want encSpec
	}{
		{"VEX.NDS.256.66.0F38.W1 B8 /r", encSpec{vex: true, mmap: 2, pp: 1, l: 1, w: 1, opcode: []byte{0xb8}, digit: -1}},
		{"VEX.NDD.128.66.0F.WIG 72 /6 ib", encSpec{vex: true, mmap: 1, pp: 1, l: 0, w: -1, opcode: []byte{0x72}, digit: 6, imm: 1}},
		{"VEX.NDS.128.66.0F3A.W0 4B /r /is4", encSpec{vex: true, mmap: 3, pp: 1, l: 0, w: 0, opcode: []byte{0x4b}, digit: -1, is4: true}},
		{"EVEX.512.66.0F38.W1 B8 /r", encSpec{evex: true, mmap: 2, pp: 1, l: 2, w: 1, opcode: []byte{0xb8}, digit: -1}},
		{"VEX.LIG.F2.0F.WIG 58 /r", encSpec{vex: true, mmap: 1, pp: 3, l: -1, w: -1, opcode: []byte{0x58}, digit: -1}},
		{"REX.W 81 /0 id", encSpec{rexW: true, opcode: []byte{0x81}, digit: 0, imm: 4, l: -1, w: -1}},
		{"F2 REX.W 0F 2A /r", encSpec{prefixes: []byte{0xf2}, rexW: true, opcode: []byte{0x0f, 0x2a}, digit: -1, l: -1, w: -1}},
		{"REX.W B8+rd io", encSpec{rexW: true, opcode: []byte{0xb8}, plusReg: true, digit: -2, imm: 8, l: -1, w: -1}},
		{"0F 85 cd", encSpec{opcode: []byte{0x0f, 0x85}, digit: -2, rel: 4, l: -1, w: -1}},
		{"9B DB E2", encSpec{opcode: []byte{0x9b, 0xdb, 0xe2}, digit: -2, l: -1, w: -1}},
		{"F3 90", encSpec{prefixes: []byte{0xf3}, opcode: []byte{0x90}, digit: -2, l: -1, w: -1}},
	}
	for _, tt := range tests {
		got, ok := parseEncSpec(tt.s)
		if !ok || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("parseEncSpec(%q) = %+v, %v\nwant %+v", tt.s, got, ok, tt.want)
		}
	}
	for _, bad := range []string{"", "VEX.999.0F 58 /r", "XYZ", "VEX.128.66.WIG 58 /r"} {
		if _, ok := parseEncSpec(bad); ok {
			t.Errorf("parseEncSpec(%q) accepted", bad)
		}
	}
}
