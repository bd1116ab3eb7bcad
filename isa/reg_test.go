package isa

import "testing"

func TestRegByName(t *testing.T) {
	tests := []struct {
		name  string
		want  Reg
		class RegClass
		width int
		num   int
	}{
		{"rax", RAX, ClassGPR, 64, 0},
		{"R15", R15, ClassGPR, 64, 15},
		{"r8d", GPR(8, 32), ClassGPR, 32, 8},
		{"r9w", GPR(9, 16), ClassGPR, 16, 9},
		{"r10b", GPR(10, 8), ClassGPR, 8, 10},
		{"r10l", GPR(10, 8), ClassGPR, 8, 10},
		{"sil", SIL, ClassGPR, 8, 6},
		{"ah", AH, ClassGPR, 8, 0},
		{"bh", BH, ClassGPR, 8, 3},
		{"eip", EIP, ClassIP, 32, 0},
		{"rip", RIP, ClassIP, 64, 0},
		{"fs", FS, ClassSeg, 16, 4},
		{"xmm31", VecReg(31, 128), ClassXMM, 128, 31},
		{"ymm16", VecReg(16, 256), ClassYMM, 256, 16},
		{"zmm7", VecReg(7, 512), ClassZMM, 512, 7},
		{"k7", KReg(7), ClassK, 64, 7},
		{"mm3", MM0 + 3, ClassMM, 64, 3},
		{"st(2)", ST0 + 2, ClassST, 80, 2},
		{"st", ST0, ClassST, 80, 0},
		{"st(1)", ST0 + 1, ClassST, 80, 1},
		{"cr8", regCR + 8, ClassCR, 64, 8},
		{"dr7", regDR + 7, ClassDR, 64, 7},
		{"bnd3", regBND + 3, ClassBND, 128, 3},
	}
	for _, tt := range tests {
		r, ok := RegByName(tt.name)
		if !ok || r != tt.want {
			t.Errorf("RegByName(%q) = %v, %v; want %v", tt.name, r, ok, tt.want)
			continue
		}
		if r.Class() != tt.class || r.Width() != tt.width || r.Num() != tt.num {
			t.Errorf("%s: class %v width %d num %d; want %v %d %d", tt.name, r.Class(), r.Width(), r.Num(), tt.class, tt.width, tt.num)
		}
	}
	for _, bad := range []string{"ymm32", "k8", "r16", "xmm", "st(8)", "eflags", ""} {
		if r, ok := RegByName(bad); ok {
			t.Errorf("RegByName(%q) = %v, want not found", bad, r)
		}
	}
}

func TestRegNamesRoundTrip(t *testing.T) {
	n := 0
	for r := Reg(1); r < regN; r++ {
		if !r.Valid() {
			t.Fatalf("Reg(%d) not valid", r)
		}
		got, ok := RegByName(r.Name())
		if !ok || got != r {
			t.Errorf("RegByName(%q) = %v, %v; want %v", r.Name(), got, ok, r)
		}
		n++
	}
	// 16 each of 64/32/16/8-bit GPRs, 4 high bytes, rip/eip, 6 segment,
	// 96 vector, 8 k, 8 mm, 8 st, 16 cr, 16 dr, 4 bnd.
	if n != 64+4+2+6+96+8+8+8+16+16+4 {
		t.Errorf("%d registers", n)
	}
	if RegNone.Valid() || RegNone.Name() != "" || RegNone.String() != "none" {
		t.Errorf("RegNone: valid %v name %q string %q", RegNone.Valid(), RegNone.Name(), RegNone.String())
	}
}

func TestRegParentAndWrites(t *testing.T) {
	tests := []struct {
		r            Reg
		parent       Reg
		zeroExt      bool
		mergesLegacy bool
		mergesVEX    bool
	}{
		{RAX, RAX, true, false, false},
		{EAX, RAX, true, false, false},
		{AX, RAX, false, true, true},
		{AL, RAX, false, true, true},
		{AH, RAX, false, true, true},
		{GPR(13, 32), R13, true, false, false},
		{SIL, RSI, false, true, true},
		{VecReg(3, 128), VecReg(3, 512), false, true, false},
		{VecReg(20, 256), VecReg(20, 512), false, false, false},
		{VecReg(5, 512), VecReg(5, 512), false, false, false},
		{EIP, RIP, false, false, false},
		{KReg(3), KReg(3), false, false, false},
	}
	for _, tt := range tests {
		if got := tt.r.Parent(); got != tt.parent {
			t.Errorf("%v.Parent() = %v, want %v", tt.r, got, tt.parent)
		}
		if got := tt.r.WriteZeroExtends(); got != tt.zeroExt {
			t.Errorf("%v.WriteZeroExtends() = %v", tt.r, got)
		}
		if got := tt.r.WriteMerges(Legacy); got != tt.mergesLegacy {
			t.Errorf("%v.WriteMerges(Legacy) = %v", tt.r, got)
		}
		if got := tt.r.WriteMerges(VEX); got != tt.mergesVEX {
			t.Errorf("%v.WriteMerges(VEX) = %v", tt.r, got)
		}
	}
	if !AH.IsHighByte() || AL.IsHighByte() || SPL.IsHighByte() {
		t.Error("IsHighByte wrong")
	}
}

func TestRegKind(t *testing.T) {
	tests := map[Reg]Kind{
		RAX: KindR64, ECX: KindR32, DX: KindR16, BL: KindR8, AH: KindR8, VecReg(1, 128): KindXMM,
		VecReg(1, 256): KindYMM, VecReg(30, 512): KindZMM, KReg(1): KindK, MM0: KindMM, ST0 + 3: KindST,
		GS: KindSreg, regCR: "cr", regBND: "bnd",
	}
	for r, want := range tests {
		if got := r.Kind(); got != want {
			t.Errorf("%v.Kind() = %q, want %q", r, got, want)
		}
	}
	if GPR(16, 64) != RegNone || GPR(3, 12) != RegNone || VecReg(32, 128) != RegNone || KReg(8) != RegNone {
		t.Error("out-of-range constructors must give RegNone")
	}
}
