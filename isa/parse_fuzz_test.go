package isa

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

// FuzzParse feeds random source text to Parse: it must not panic, every
// error must point into the input, and what parses must print and parse
// again without panicking.
func FuzzParse(f *testing.F) {
	f.Add("addq $1, %rax\n")
	f.Add(".intel_syntax noprefix\nvaddpd zmm0 {k1}{z}, zmm1, qword ptr [rax]{1to8}\n")
	f.Fuzz(func(t *testing.T, src string) {
		file, err := Parse("fuzz.s", []byte(src))
		if file == nil {
			t.Fatal("nil File")
		}
		lines := strings.Split(src, "\n")
		if err != nil {
			var pe ParseErrors
			if !errors.As(err, &pe) || len(pe) == 0 {
				t.Fatalf("error %v (%T), want ParseErrors", err, err)
			}
			for _, e := range pe {
				if e.File != "fuzz.s" || e.Line < 1 || e.Line > len(lines) {
					t.Fatalf("error %v: line outside the input (%d lines)", e, len(lines))
				}
				l := strings.TrimSuffix(lines[e.Line-1], "\r")
				if e.Col < 1 || e.Col > len(l)+1 {
					t.Fatalf("error %v: column outside line %q", e, l)
				}
			}
		}
		for _, s := range file.Stmts {
			if s.Pos.Line < 1 || s.Pos.Line > len(lines) {
				t.Fatalf("statement %+v outside the input", s)
			}
			if s.Kind != StmtInst {
				continue
			}
			in := s.Inst
			intel, att := in.Intel(), in.ATT()
			_, _ = in.ResolveForm()
			// Printed text parses again without panicking.
			_, _ = Parse("again.s", []byte(".intel_syntax noprefix\n"+intel+"\n"))
			_, _ = Parse("again.s", []byte(".att_syntax\n"+att+"\n"))
		}
	})
}

// FuzzDecode feeds random bytes to Decode: it must not panic, must account
// for every byte up to the error, and must report the error's offset and
// bytes correctly.
func FuzzDecode(f *testing.F) {
	f.Add([]byte{0x48, 0x83, 0xc0, 0x01})
	f.Add([]byte{0x62, 0xf1, 0xf5, 0xd9, 0x58, 0x00})
	f.Fuzz(func(t *testing.T, code []byte) {
		ins, err := Decode(code, 0x1000)
		off := 0
		for _, in := range ins {
			if in.Len < 1 || in.Len > 15 || off+in.Len > len(code) {
				t.Fatalf("instruction %v: bad length %d at offset %d of %d", in, in.Len, off, len(code))
			}
			if in.Addr != 0x1000+uint64(off) || !bytes.Equal(in.Bytes, code[off:off+in.Len]) {
				t.Fatalf("instruction %v: Addr %#x Bytes % x at offset %d", in, in.Addr, in.Bytes, off)
			}
			_, _ = in.Intel(), in.ATT()
			off += in.Len
		}
		if err == nil {
			if off != len(code) {
				t.Fatalf("decoded %d of %d bytes without error", off, len(code))
			}
			return
		}
		var de *DecodeError
		if !errors.As(err, &de) {
			t.Fatalf("error %v (%T), want *DecodeError", err, err)
		}
		if de.Offset != off || de.Addr != 0x1000+uint64(off) || !bytes.HasPrefix(code[off:], de.Bytes) || len(de.Bytes) == 0 {
			t.Fatalf("DecodeError %+v after %d decoded bytes of % x", de, off, code)
		}
	})
}
