package input

import (
	"bytes"
	"debug/elf"
	"encoding/binary"
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// ELF reads the code regions of an ELF object file or executable:
//   - with opt.Symbol, the function of that name;
//   - with opt.Range, the code between two addresses (section offsets in
//     a relocatable object's first executable section);
//   - else the records of the .mca_code_regions section: three 64-bit
//     words each, region id, start address and size in bytes (in an
//     object file the start is relocated against a code symbol);
//   - else IACA byte markers in the executable sections.
func ELF(name string, data []byte, opt Options, warn func(string)) ([]*Region, error) {
	f, err := elf.NewFile(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	defer f.Close()
	if f.Class != elf.ELFCLASS64 || f.Machine != elf.EM_X86_64 {
		return nil, fmt.Errorf("%s: not an x86-64 ELF file (%v, %v)", name, f.Class, f.Machine)
	}
	e := &elfFile{name: name, f: f, rel: f.Type == elf.ET_REL}
	switch {
	case opt.Symbol != "":
		r, err := e.symbol(opt.Symbol)
		if err != nil {
			return nil, err
		}
		return []*Region{r}, nil
	case opt.Range != "":
		r, err := e.addrRange(opt.Range)
		if err != nil {
			return nil, err
		}
		return []*Region{r}, nil
	}
	if sec := f.Section(".mca_code_regions"); sec != nil {
		return e.mcaRegions(sec)
	}
	var out []*Region
	for _, sec := range f.Sections {
		if sec.Flags&elf.SHF_EXECINSTR == 0 || sec.Type != elf.SHT_PROGBITS {
			continue
		}
		code, err := sec.Data()
		if err != nil {
			continue
		}
		base := sec.Addr
		for off := 0; ; {
			i := bytes.Index(code[off:], iacaStart)
			if i < 0 {
				break
			}
			r, err := Code(fmt.Sprintf("%s:%s+%#x", name, sec.Name, off+i), code[off+i:], base+uint64(off+i))
			if err != nil {
				return nil, err
			}
			r.File = name
			r.Name = e.symbolAt(sec, base+uint64(off+i))
			out = append(out, r)
			off += i + len(iacaStart)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no .mca_code_regions section and no IACA markers: name the code with --symbol NAME or --range START:END", name)
	}
	return out, nil
}

type elfFile struct {
	name string
	f    *elf.File
	rel  bool
	syms []elf.Symbol
}

func (e *elfFile) symbols() []elf.Symbol {
	if e.syms == nil {
		s, _ := e.f.Symbols()
		d, _ := e.f.DynamicSymbols()
		e.syms = append(s, d...)
		if e.syms == nil {
			e.syms = []elf.Symbol{}
		}
	}
	return e.syms
}

// symbolAt names the function containing addr in sec ("main+0x10"), or
// "" when there is none.
func (e *elfFile) symbolAt(sec *elf.Section, addr uint64) string {
	best := ""
	var bestVal uint64
	for _, s := range e.symbols() {
		if elf.ST_TYPE(s.Info) != elf.STT_FUNC || int(s.Section) >= len(e.f.Sections) || e.f.Sections[s.Section] != sec {
			continue
		}
		if s.Value <= addr && (s.Size == 0 || addr < s.Value+s.Size) && (best == "" || s.Value > bestVal) {
			best, bestVal = s.Name, s.Value
		}
	}
	if best != "" && addr != bestVal {
		best += fmt.Sprintf("+%#x", addr-bestVal)
	}
	return best
}

// bytesAt returns the bytes of sec from addr (a virtual address, or a
// section offset in an object file) for size bytes.
func (e *elfFile) bytesAt(sec *elf.Section, addr, size uint64) ([]byte, error) {
	data, err := sec.Data()
	if err != nil {
		return nil, fmt.Errorf("%s: section %s: %v", e.name, sec.Name, err)
	}
	off := addr - sec.Addr
	if e.rel {
		off = addr
	}
	if off > uint64(len(data)) || size > uint64(len(data))-off {
		return nil, fmt.Errorf("%s: %#x+%d is outside section %s", e.name, addr, size, sec.Name)
	}
	return data[off : off+size], nil
}

// sectionAt returns the executable section holding addr (executables).
func (e *elfFile) sectionAt(addr uint64) *elf.Section {
	for _, s := range e.f.Sections {
		if s.Flags&elf.SHF_EXECINSTR != 0 && s.Flags&elf.SHF_ALLOC != 0 && addr >= s.Addr && addr < s.Addr+s.Size {
			return s
		}
	}
	return nil
}

func (e *elfFile) firstText() *elf.Section {
	if s := e.f.Section(".text"); s != nil && s.Size > 0 {
		return s
	}
	for _, s := range e.f.Sections {
		if s.Flags&elf.SHF_EXECINSTR != 0 && s.Size > 0 {
			return s
		}
	}
	return nil
}

func (e *elfFile) region(name string, sec *elf.Section, addr, size uint64) (*Region, error) {
	code, err := e.bytesAt(sec, addr, size)
	if err != nil {
		return nil, err
	}
	r, err := Code(fmt.Sprintf("%s:%s", e.name, name), code, addr)
	if err != nil {
		return nil, err
	}
	r.File = e.name
	r.Name = name
	return r, nil
}

func (e *elfFile) symbol(name string) (*Region, error) {
	var cands []string
	for _, s := range e.symbols() {
		if s.Name != name {
			if elf.ST_TYPE(s.Info) == elf.STT_FUNC && strings.Contains(s.Name, name) {
				cands = append(cands, s.Name)
			}
			continue
		}
		if s.Section == elf.SHN_UNDEF || int(s.Section) >= len(e.f.Sections) {
			return nil, fmt.Errorf("%s: symbol %q is not defined in this file", e.name, name)
		}
		sec := e.f.Sections[s.Section]
		size := s.Size
		if size == 0 {
			// Up to the next symbol in the section, or its end.
			end := sec.Size
			if !e.rel {
				end += sec.Addr
			}
			for _, o := range e.symbols() {
				if o.Section == s.Section && o.Value > s.Value && o.Value < end {
					end = o.Value
				}
			}
			size = end - s.Value
		}
		return e.region(name, sec, s.Value, size)
	}
	msg := fmt.Sprintf("%s: no symbol %q", e.name, name)
	if len(cands) > 0 {
		sort.Strings(cands)
		if len(cands) > 5 {
			cands = cands[:5]
		}
		msg += "; similar: " + strings.Join(cands, ", ")
	}
	return nil, fmt.Errorf("%s", msg)
}

func (e *elfFile) addrRange(spec string) (*Region, error) {
	a, b, ok := strings.Cut(spec, ":")
	if !ok {
		return nil, fmt.Errorf("--range %q: want START:END", spec)
	}
	start, err1 := strconv.ParseUint(strings.TrimSpace(a), 0, 64)
	end, err2 := strconv.ParseUint(strings.TrimSpace(b), 0, 64)
	if err1 != nil || err2 != nil || end <= start {
		return nil, fmt.Errorf("--range %q: want START:END with START < END (numbers like 0x401000)", spec)
	}
	var sec *elf.Section
	if e.rel {
		sec = e.firstText()
	} else {
		sec = e.sectionAt(start)
	}
	if sec == nil {
		return nil, fmt.Errorf("%s: no executable section holds address %#x", e.name, start)
	}
	name := e.symbolAt(sec, start)
	if name == "" {
		name = fmt.Sprintf("%#x-%#x", start, end)
	}
	return e.region(name, sec, start, end-start)
}

// mcaRegions reads the (id, start, size) records of .mca_code_regions.
func (e *elfFile) mcaRegions(sec *elf.Section) ([]*Region, error) {
	data, err := sec.Data()
	if err != nil {
		return nil, fmt.Errorf("%s: .mca_code_regions: %v", e.name, err)
	}
	if len(data)%24 != 0 {
		return nil, fmt.Errorf("%s: .mca_code_regions is %d bytes, not a whole number of 24-byte (id, start, size) records", e.name, len(data))
	}
	// In an object file the start words are relocations against code.
	type target struct {
		sec *elf.Section
		val uint64
	}
	relocs := map[uint64]target{}
	if e.rel {
		syms, _ := e.f.Symbols()
		for _, rs := range e.f.Sections {
			if rs.Type != elf.SHT_RELA || int(rs.Info) >= len(e.f.Sections) || e.f.Sections[rs.Info] != sec {
				continue
			}
			rd, err := rs.Data()
			if err != nil {
				return nil, fmt.Errorf("%s: %s: %v", e.name, rs.Name, err)
			}
			for i := 0; i+24 <= len(rd); i += 24 {
				off := binary.LittleEndian.Uint64(rd[i:])
				info := binary.LittleEndian.Uint64(rd[i+8:])
				add := int64(binary.LittleEndian.Uint64(rd[i+16:]))
				si := int(info >> 32)
				if si == 0 || si > len(syms) {
					continue
				}
				s := syms[si-1]
				if int(s.Section) >= len(e.f.Sections) {
					continue
				}
				relocs[off] = target{e.f.Sections[s.Section], uint64(int64(s.Value) + add)}
			}
		}
	}
	var out []*Region
	for i := 0; i < len(data); i += 24 {
		id := binary.LittleEndian.Uint64(data[i:])
		start := binary.LittleEndian.Uint64(data[i+8:])
		size := binary.LittleEndian.Uint64(data[i+16:])
		var code *elf.Section
		if e.rel {
			t, ok := relocs[uint64(i+8)]
			if !ok {
				return nil, fmt.Errorf("%s: .mca_code_regions record %d: start is not relocated against code", e.name, i/24)
			}
			code, start = t.sec, t.val+start
		} else {
			code = e.sectionAt(start)
			if code == nil {
				return nil, fmt.Errorf("%s: .mca_code_regions record %d: no code at %#x", e.name, i/24, start)
			}
		}
		if size == 0 {
			continue
		}
		name := "region " + strconv.FormatUint(id, 10)
		if s := e.symbolAt(code, start); s != "" {
			name += " (" + s + ")"
		}
		r, err := e.region(name, code, start, size)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: .mca_code_regions has no regions", e.name)
	}
	return out, nil
}
