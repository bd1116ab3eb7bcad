package isa

import "strings"

// AddressShapes are the address shapes portlab measures lea in: which of
// base, index (scaled or not) and displacement an address has. Cores
// differ by shape (Zen 4: a three-component lea, base+index+disp, takes 2
// cycles and runs two a cycle; the others 1 cycle, four a cycle).
var AddressShapes = []string{"base+disp", "base+index", "base+index*s", "base+index+disp", "base+index*s+disp", "index*s+disp"}

// AddressShape names the shape of an address: its components joined by
// '+', in the order base, index (index*s when scaled by 2, 4 or 8), disp.
// A symbol counts as a displacement. "" for an address with no component.
func AddressShape(base, index bool, scale int, disp bool) string {
	var parts []string
	if base {
		parts = append(parts, "base")
	}
	if index {
		if scale > 1 {
			parts = append(parts, "index*s")
		} else {
			parts = append(parts, "index")
		}
	}
	if disp {
		parts = append(parts, "disp")
	}
	return strings.Join(parts, "+")
}

// Shape is the address shape of a decoded or parsed memory operand (see
// AddressShape); rip-relative addresses are "rip+disp".
func (m InstMem) Shape() string {
	if m.Base == RIP || m.Base == EIP {
		return "rip+disp"
	}
	return AddressShape(m.Base != RegNone, m.Index != RegNone, m.Scale, m.Disp != 0 || m.Symbol != "")
}

// Shape is the address shape of a memory operand to instantiate.
func (m MemRef) Shape() string {
	if m.Base == "rip" {
		return "rip+disp"
	}
	return AddressShape(m.Base != "", m.Index != "", m.Scale, m.Disp != 0)
}

// ValidAddressShape tells whether s is a shape AddressShape or Shape can
// return.
func ValidAddressShape(s string) bool {
	if s == "rip+disp" {
		return true
	}
	for _, base := range []bool{true, false} {
		for _, scale := range []int{0, 1, 2} {
			for _, disp := range []bool{true, false} {
				if s != "" && s == AddressShape(base, scale > 0, scale, disp) {
					return true
				}
			}
		}
	}
	return false
}
