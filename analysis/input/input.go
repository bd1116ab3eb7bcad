// Package input turns what a user hands to 'portlab analyze' into code
// regions: lists of instructions to analyse one by one. It is a package of
// its own because finding the code (region markers in assembly text,
// IACA/OSACA byte markers, ELF sections, symbols and address ranges, hex
// blocks) is the parser side of the analyser, as OSACA keeps its parser
// apart from its semantics: package analysis only sees regions.
//
// Regions follow llvm-mca's rules: '# LLVM-MCA-BEGIN [name]' starts a
// region and '# LLVM-MCA-END [name]' ends the named one (an anonymous END
// ends the only open region); regions may nest and overlap; a region
// without an END runs to the end of the file; no marker at all makes the
// whole file one anonymous region. Where a file has no LLVM-MCA markers,
// OSACA's '# OSACA-BEGIN' / '# OSACA-END' comments and IACA's byte markers
// (mov $111, %ebx; .byte 0x64, 0x67, 0x90 to start, mov $222, %ebx and the
// same bytes to end) delimit the kernel, in text and in machine code.
package input

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"

	"portlab/isa"
)

// Region is one piece of code to analyse.
type Region struct {
	// Name is the region's name ("" for an anonymous region).
	Name string
	// File is the input the region comes from; Pos where it starts (for
	// assembly), Addr the address of its first byte (for machine code).
	File string
	Pos  isa.Pos
	Addr uint64
	// Insts are the region's instructions, mapped to catalog forms.
	Insts []*isa.Inst
	// Syntax is the syntax of the source text (SyntaxUnknown for machine
	// code, which is printed in AT&T syntax).
	Syntax isa.Syntax
	// Code is the machine code of a region read from bytes.
	Code []byte
}

// Label names the region in reports: its name, else "anonymous".
func (r *Region) Label() string {
	if r.Name != "" {
		return r.Name
	}
	return "anonymous"
}

// Options select how a file is read.
type Options struct {
	// Hex reads the file as hex-encoded machine code, one block per line
	// (BHive style: "4801d8c3", optionally "48 01 d8", and a CSV line's
	// first field).
	Hex bool
	// Symbol selects an ELF function by name.
	Symbol string
	// Range selects ELF code by address: "START:END" (END exclusive),
	// numbers in C syntax (0x401000:0x401040).
	Range string
}

// Read splits a file into regions: ELF objects and executables (by their
// magic number), hex blocks (opt.Hex), or assembly text. Warnings (empty
// regions skipped) go to warn, which may be nil.
func Read(name string, data []byte, opt Options, warn func(string)) ([]*Region, error) {
	if warn == nil {
		warn = func(string) {}
	}
	if bytes.HasPrefix(data, []byte("\x7fELF")) {
		return ELF(name, data, opt, warn)
	}
	if opt.Symbol != "" || opt.Range != "" {
		return nil, fmt.Errorf("%s: --symbol and --range need an ELF object or executable", name)
	}
	if opt.Hex {
		return Hex(name, data)
	}
	return Assembly(name, data, warn)
}

// Assembly parses assembly text and returns its regions. Instructions that
// do not parse or map to no catalog form are errors naming file:line:col.
func Assembly(name string, src []byte, warn func(string)) ([]*Region, error) {
	if warn == nil {
		warn = func(string) {}
	}
	f, err := isa.Parse(name, src)
	if err != nil {
		return nil, err
	}
	if err := f.ResolveForms(); err != nil {
		return nil, err
	}
	regs, err := mcaRegions(f)
	if err != nil {
		return nil, err
	}
	if regs == nil {
		regs, err = markerRegions(f)
		if err != nil {
			return nil, err
		}
	}
	if regs == nil {
		regs = []*Region{{File: name, Insts: f.Insts(), Syntax: f.Syntax}}
		if len(regs[0].Insts) > 0 {
			regs[0].Pos = regs[0].Insts[0].Pos
		}
	}
	var out []*Region
	for _, r := range regs {
		if len(r.Insts) == 0 {
			warn(fmt.Sprintf("%s: region %q has no instructions; skipped", r.Pos, r.Label()))
			continue
		}
		out = append(out, r)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no assembly instructions found", name)
	}
	return out, nil
}

// mcaRegions applies LLVM-MCA-BEGIN/END markers; nil when there are none.
func mcaRegions(f *isa.File) ([]*Region, error) {
	var regions []*Region
	var spans [][2]int // statement index range per region (end exclusive; -1 open)
	active := map[string]int{}
	found := false
	var errs isa.ParseErrors
	for i, s := range f.Stmts {
		if s.Kind != isa.StmtComment {
			continue
		}
		c := strings.TrimLeft(s.Comment, " \t")
		switch {
		case strings.HasPrefix(c, "LLVM-MCA-END"):
			found = true
			nm := strings.TrimSpace(strings.TrimPrefix(c, "LLVM-MCA-END"))
			if nm == "" && len(active) == 0 && len(regions) == 0 {
				// The end of the default region: the file up to here.
				regions = append(regions, &Region{File: f.Name, Pos: isa.Pos{File: f.Name, Line: 1, Col: 1}, Syntax: f.Syntax})
				spans = append(spans, [2]int{0, i})
				continue
			}
			if nm == "" && len(active) == 1 {
				for k, ri := range active {
					spans[ri][1] = i
					delete(active, k)
				}
				continue
			}
			ri, ok := active[nm]
			if !ok {
				msg := "found an invalid region end directive: no active anonymous region"
				if nm != "" {
					msg = fmt.Sprintf("found an invalid region end directive: no active region named %q", nm)
				}
				errs = append(errs, &isa.ParseError{File: s.Pos.File, Line: s.Pos.Line, Col: s.Pos.Col, Msg: msg})
				continue
			}
			spans[ri][1] = i
			delete(active, nm)
		case strings.HasPrefix(c, "LLVM-MCA-BEGIN"):
			found = true
			nm := strings.TrimSpace(strings.TrimPrefix(c, "LLVM-MCA-BEGIN"))
			if ri, ok := active[nm]; ok {
				msg := fmt.Sprintf("overlapping regions cannot have the same name (region %q begins at %s)", nm, regions[ri].Pos)
				if nm == "" {
					msg = fmt.Sprintf("found multiple overlapping anonymous regions (the previous one begins at %s)", regions[ri].Pos)
				}
				errs = append(errs, &isa.ParseError{File: s.Pos.File, Line: s.Pos.Line, Col: s.Pos.Col, Msg: msg})
				continue
			}
			active[nm] = len(regions)
			regions = append(regions, &Region{Name: nm, File: f.Name, Pos: s.Pos, Syntax: f.Syntax})
			spans = append(spans, [2]int{i, -1})
		}
	}
	if len(errs) > 0 {
		return nil, errs
	}
	if !found {
		return nil, nil
	}
	for ri, r := range regions {
		lo, hi := spans[ri][0], spans[ri][1]
		if hi < 0 {
			hi = len(f.Stmts)
		}
		for _, s := range f.Stmts[lo:hi] {
			if s.Kind == isa.StmtInst {
				r.Insts = append(r.Insts, s.Inst)
			}
		}
		if len(r.Insts) > 0 {
			r.Syntax = r.Insts[0].Syntax
		}
	}
	return regions, nil
}

// IACA's markers as machine code: mov ebx, 111 (222) then fs addr32 nop.
var (
	iacaStart = []byte{0xbb, 0x6f, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90}
	iacaEnd   = []byte{0xbb, 0xde, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90}
	markBytes = []byte{0x64, 0x67, 0x90}
)

// markerRegions applies OSACA comments and IACA byte markers in text; nil
// when there are none.
func markerRegions(f *isa.File) ([]*Region, error) {
	var regions []*Region
	var cur *Region
	begin := func(pos isa.Pos, name string) {
		cur = &Region{Name: name, File: f.Name, Pos: pos, Syntax: f.Syntax}
		regions = append(regions, cur)
	}
	stmts := f.Stmts
	for i := 0; i < len(stmts); i++ {
		s := stmts[i]
		switch s.Kind {
		case isa.StmtComment:
			c := strings.TrimSpace(s.Comment)
			switch {
			case strings.HasPrefix(c, "OSACA-BEGIN"):
				begin(s.Pos, strings.TrimSpace(strings.TrimPrefix(c, "OSACA-BEGIN")))
			case strings.HasPrefix(c, "OSACA-END"):
				cur = nil
			}
		case isa.StmtInst:
			if v, ok := iacaMov(s.Inst); ok {
				if n, ok := markerBytesAfter(stmts, i+1); ok {
					switch v {
					case 111:
						begin(s.Pos, "")
					case 222:
						cur = nil
					}
					i = n - 1
					continue
				}
			}
			if cur != nil {
				cur.Insts = append(cur.Insts, s.Inst)
			}
		}
	}
	if len(regions) == 0 {
		return nil, nil
	}
	for i, r := range regions {
		if r.Name == "" && len(regions) > 1 {
			r.Name = "kernel " + strconv.Itoa(i)
		}
	}
	return regions, nil
}

// iacaMov reports whether in is "mov ebx, 111" or "mov ebx, 222".
func iacaMov(in *isa.Inst) (int64, bool) {
	if in.Mnemonic != "mov" || len(in.Args) != 2 || in.Args[0].Type != isa.OpReg || in.Args[0].Reg != isa.EBX ||
		in.Args[1].Type != isa.OpImm || in.Args[1].Symbol != "" {
		return 0, false
	}
	v := in.Args[1].Imm
	return v, v == 111 || v == 222
}

// markerBytesAfter reports whether the statements from i on are .byte
// directives spelling 0x64 0x67 0x90, and the index after them.
func markerBytesAfter(stmts []isa.Stmt, i int) (int, bool) {
	var got []byte
	for ; i < len(stmts) && len(got) < len(markBytes); i++ {
		s := stmts[i]
		if s.Kind == isa.StmtComment || s.Kind == isa.StmtBlank {
			continue
		}
		if s.Kind != isa.StmtDirective || s.Directive != ".byte" {
			return 0, false
		}
		for _, a := range strings.Split(s.Args, ",") {
			v, err := strconv.ParseInt(strings.TrimSpace(a), 0, 64)
			if err != nil || v < 0 || v > 255 {
				return 0, false
			}
			got = append(got, byte(v))
		}
	}
	return i, bytes.Equal(got, markBytes)
}

// Hex reads hex-encoded blocks, one per line. Blank lines and lines
// starting with '#' are skipped; a CSV line's first field is the block
// (BHive: "4801d8,97.00"); a header line that is not hex is skipped.
func Hex(name string, data []byte) ([]*Region, error) {
	var out []*Region
	for i, line := range strings.Split(string(data), "\n") {
		block, ok, err := HexLine(line)
		if err != nil {
			if i == 0 {
				continue // a CSV header
			}
			return nil, fmt.Errorf("%s:%d: %v", name, i+1, err)
		}
		if !ok {
			continue
		}
		r, err := Code(fmt.Sprintf("%s:%d", name, i+1), block, 0)
		if err != nil {
			return nil, err
		}
		r.File = name
		r.Pos = isa.Pos{File: name, Line: i + 1, Col: 1}
		r.Name = "line " + strconv.Itoa(i+1)
		out = append(out, r)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no hex blocks", name)
	}
	return out, nil
}

// HexLine extracts the machine code of one line of a hex file: ok is
// false for blank and comment lines.
func HexLine(line string) (code []byte, ok bool, err error) {
	line = strings.TrimSpace(line)
	if line == "" || strings.HasPrefix(line, "#") || strings.HasPrefix(line, "//") {
		return nil, false, nil
	}
	// A CSV line's first field is the block ("4801d8,1.00"), unless the
	// line spells bytes one by one ("0x48, 0x01" or "\x48\x01").
	if !strings.Contains(line, "0x") && !strings.Contains(line, "0X") && !strings.Contains(line, `\x`) {
		if i := strings.IndexAny(line, ",;\t"); i >= 0 {
			line = line[:i]
		}
	}
	code, err = DecodeHex(line)
	if err != nil {
		return nil, false, err
	}
	if len(code) == 0 {
		return nil, false, nil
	}
	return code, true, nil
}

// DecodeHex decodes "4801d8", "48 01 d8", "0x48,0x01" or "\x48\x01".
func DecodeHex(s string) ([]byte, error) {
	s = strings.TrimSpace(s)
	if isPlainHex(s) {
		if len(s)%2 != 0 {
			return nil, fmt.Errorf("odd number of hex digits in %q", abbrev(s))
		}
		return hex.DecodeString(s)
	}
	r := strings.NewReplacer("0x", " ", "0X", " ", `\x`, " ", ",", " ", ";", " ")
	var out []byte
	for _, f := range strings.Fields(r.Replace(s)) {
		if !isPlainHex(f) {
			return nil, fmt.Errorf("not hex: %q", abbrev(f))
		}
		if len(f)%2 != 0 {
			f = "0" + f
		}
		b, err := hex.DecodeString(f)
		if err != nil {
			return nil, err
		}
		out = append(out, b...)
	}
	return out, nil
}

func isPlainHex(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return true
}

func abbrev(s string) string {
	if len(s) > 40 {
		return s[:37] + "..."
	}
	return s
}

// Code decodes machine code at addr into a region. IACA markers in the
// bytes delimit the region when present.
func Code(name string, code []byte, addr uint64) (*Region, error) {
	if i := bytes.Index(code, iacaStart); i >= 0 {
		rest := code[i+len(iacaStart):]
		start := addr + uint64(i+len(iacaStart))
		if j := bytes.Index(rest, iacaEnd); j >= 0 {
			rest = rest[:j]
		}
		code, addr = rest, start
	}
	insts, err := isa.Decode(code, addr)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	for _, in := range insts {
		if in.Form == nil {
			if _, err := in.ResolveForm(); err != nil {
				return nil, fmt.Errorf("%s: address %#x: %v", name, in.Addr, err)
			}
		}
	}
	return &Region{Name: name, File: name, Addr: addr, Insts: insts, Code: code}, nil
}
