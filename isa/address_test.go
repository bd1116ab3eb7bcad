package isa

import "testing"

func TestAddressShape(t *testing.T) {
	for _, c := range []struct {
		src, want string
	}{
		{"lea rax, [rbx+8]", "base+disp"},
		{"lea rax, [rbx+rcx]", "base+index"},
		{"lea rax, [rbx+rcx*1]", "base+index"},
		{"lea rax, [rbx+rcx*4]", "base+index*s"},
		{"lea rax, [rbx+rcx+7]", "base+index+disp"},
		{"lea rax, [rax+rax*2+7]", "base+index*s+disp"},
		{"lea rax, [rcx*8+16]", "index*s+disp"},
		{"lea rax, [rbx]", "base"},
		{"lea rax, [rip+0x10]", "rip+disp"},
	} {
		f, err := Parse("t.s", []byte(".intel_syntax noprefix\n"+c.src+"\n"))
		if err != nil {
			t.Fatalf("%s: %v", c.src, err)
		}
		var got string
		for _, a := range f.Insts()[0].Args {
			if a.Type == OpMem {
				got = a.Mem.Shape()
			}
		}
		if got != c.want {
			t.Errorf("%s: shape %q, want %q", c.src, got, c.want)
		}
	}
	for _, s := range append(AddressShapes, "rip+disp", "base", "index*s") {
		if !ValidAddressShape(s) {
			t.Errorf("%q is not a valid shape", s)
		}
	}
	for _, s := range []string{"", "disp+base", "base+base", "index*8"} {
		if ValidAddressShape(s) {
			t.Errorf("%q is a valid shape", s)
		}
	}
	if got := (MemRef{Base: "rdi", Index: "rax", Scale: 2, Disp: 8}).Shape(); got != "base+index*s+disp" {
		t.Errorf("MemRef shape %q", got)
	}
}
