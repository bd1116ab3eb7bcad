// Package gen turns golang.org/x/arch's x86 instruction table (x86.v0.2.csv,
// read with x86csv) into isa's committed catalog table, zcatalog_table.go.
//
// It lives apart from the gencatalog command so that a test can regenerate
// the table in-process and compare it with the committed file. It must not
// import package isa: isa only compiles once the table exists.
//
// What the generator does to the table's rows:
//   - keeps rows valid in 64-bit mode (Mode64 "V");
//   - splits every combined operand (r/m64, xmm2/m128, mm2/m64, r32/m16, ...)
//     into a register form and a memory form, and spells every operand as one
//     of isa's operand kinds (r64, m64, xmm, imm8, al, cl, xmm0, st(0), ...);
//   - drops rows the table marks as pseudo-instructions (REX-prefixed
//     duplicates of byte forms, alternative mnemonics such as cmovc or sal,
//     bare prefixes such as lock), recording alternative mnemonics as aliases;
//   - keeps one row per form name where several encodings give the same name
//     (the one GNU as emits: no pointless REX.W, not the 16-bit-operand row,
//     then the shortest encoding), and counts the rest;
//   - drops a few forms the table gets wrong (dropForms) and corrects the
//     GNU column where GNU as spells a mnemonic differently (gnuFixes);
//   - maps the CPUID column to isa's feature names and adds the features the
//     table leaves out (cmov, popcnt, movbe, crc32's sse4_2, x87, ...).
package gen

import (
	"bytes"
	"fmt"
	"go/format"
	"io"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/arch/x86/x86csv"
)

// Stats counts what Generate did with the table's rows.
type Stats struct {
	Rows        int      // rows read
	Not64       int      // rows not valid in 64-bit mode
	Pseudo      int      // rows marked pseudo and dropped
	Unsupported int      // rows dropped because a feature has no isa name (prefetchwt1)
	Dropped     []string // forms dropped because the table gets them wrong (see dropForms)
	Expanded    int      // forms produced by splitting operands, before removing duplicates
	Duplicates  []string // form names produced more than once, one entry per dropped duplicate
	Forms       int      // forms written
	Aliases     int      // alias mnemonics written
}

// Row is one form of the generated table.
type Row struct {
	Name     string // canonical form name: "adc r64, imm8"
	GNU      string // AT&T mnemonic GNU as accepts: "adcq"
	Opcode   string // encoding text: "REX.W 83 /2 ib"
	Access   string // access per operand: "rw,r"
	Features string // comma-separated isa feature names
	DataSize int    // operand size in bits from the table (0 when none)

	pseudo   bool
	op16     bool
	uselessW bool // REX.W with no 64-bit operand: GNU as does not emit it
	line     int
	encBytes int
}

// Table is the parsed, de-duplicated table.
type Table struct {
	Header  string            // the data file's version line
	Rows    []Row             // sorted by name
	Aliases map[string]string // alternative mnemonic -> canonical mnemonic ("cmovc" -> "cmovb")
	Stats   Stats
}

// Parse reads x86.v0.2.csv from r and builds the table.
func Parse(r io.Reader) (t *Table, err error) {
	defer func() {
		// x86csv indexes the columns without checking their number.
		if e := recover(); e != nil {
			t, err = nil, fmt.Errorf("x86csv: malformed input: %v", e)
		}
	}()
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	header := ""
	for _, line := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(line, "# x86 instruction set description") {
			header = strings.TrimSpace(strings.TrimPrefix(line, "#"))
			break
		}
	}
	// x86csv's ReadAll drops read errors, so read row by row.
	var insts []*x86csv.Inst
	rd := x86csv.NewReader(bytes.NewReader(data))
	for {
		in, err := rd.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("x86csv: %v", err)
		}
		insts = append(insts, in)
	}
	t = &Table{Header: header, Aliases: map[string]string{}}
	st := &t.Stats
	var kept []Row
	var pseudo []Row
	for i, in := range insts {
		st.Rows++
		if in.Mode64 != "V" {
			st.Not64++
			continue
		}
		rows, err := expand(in, i+1)
		if err != nil {
			return nil, fmt.Errorf("row %d %q: %v", i+1, in.Intel, err)
		}
		if rows == nil {
			st.Unsupported++
			continue
		}
		if isPseudo(in) {
			st.Pseudo++
			pseudo = append(pseudo, rows...)
			continue
		}
		st.Expanded += len(rows)
		kept = append(kept, rows...)
	}

	// One row per name: the shortest encoding wins, then table order.
	byName := map[string]int{}
	var out []Row
	for _, r := range kept {
		if _, drop := dropForms[r.Name]; drop {
			st.Dropped = append(st.Dropped, r.Name)
			continue
		}
		j, ok := byName[r.Name]
		if !ok {
			byName[r.Name] = len(out)
			out = append(out, r)
			continue
		}
		st.Duplicates = append(st.Duplicates, r.Name)
		if better(r, out[j]) {
			out[j] = r
		}
	}
	sort.Strings(st.Duplicates)

	// Alternative mnemonics: a pseudo row with the same encoding and operand
	// kinds as a kept row under another mnemonic.
	type key struct{ opcode, kinds string }
	canon := map[key]string{}
	for _, r := range out {
		m, kinds := splitName(r.Name)
		canon[key{r.Opcode, kinds}] = m
	}
	conflict := map[string]bool{}
	for _, r := range pseudo {
		m, kinds := splitName(r.Name)
		c, ok := canon[key{r.Opcode, kinds}]
		if !ok || c == m {
			continue
		}
		if prev, ok := t.Aliases[m]; ok && prev != c {
			conflict[m] = true
		}
		t.Aliases[m] = c
	}
	for m := range conflict {
		delete(t.Aliases, m)
	}
	for i := range out {
		if g, ok := gnuFixes[out[i].Name]; ok {
			out[i].GNU = g
		}
	}
	sort.Strings(st.Dropped)
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	t.Rows = out
	st.Forms = len(out)
	st.Aliases = len(t.Aliases)
	return t, nil
}

// Generate reads x86.v0.2.csv from r and returns the Go source of
// zcatalog_table.go.
func Generate(r io.Reader) ([]byte, *Stats, error) {
	t, err := Parse(r)
	if err != nil {
		return nil, nil, err
	}
	src, err := t.Source()
	if err != nil {
		return nil, nil, err
	}
	return src, &t.Stats, nil
}

// Source renders the table as zcatalog_table.go.
func (t *Table) Source() ([]byte, error) {
	var b bytes.Buffer
	b.WriteString("// Code generated by isa/internal/gencatalog; DO NOT EDIT.\n")
	fmt.Fprintf(&b, "// Source: golang.org/x/arch/x86/x86.v0.2.csv (%s).\n\n", t.Header)
	b.WriteString("package isa\n\n")
	fmt.Fprintf(&b, "// csvForms holds the %d forms read from the x86 table: name, AT&T mnemonic,\n", len(t.Rows))
	b.WriteString("// opcode, access per operand, features, operand size in bits.\n")
	b.WriteString("var csvForms = [...]csvForm{\n")
	for _, r := range t.Rows {
		fmt.Fprintf(&b, "\t{%s, %s, %s, %s, %s, %d},\n",
			strconv.Quote(r.Name), strconv.Quote(r.GNU), strconv.Quote(r.Opcode),
			strconv.Quote(r.Access), strconv.Quote(r.Features), r.DataSize)
	}
	b.WriteString("}\n\n")
	b.WriteString("// csvAliases maps alternative mnemonics to the mnemonic the catalog uses.\n")
	b.WriteString("var csvAliases = map[string]string{\n")
	var names []string
	for m := range t.Aliases {
		names = append(names, m)
	}
	sort.Strings(names)
	for _, m := range names {
		fmt.Fprintf(&b, "\t%s: %s,\n", strconv.Quote(m), strconv.Quote(t.Aliases[m]))
	}
	b.WriteString("}\n")
	return format.Source(b.Bytes())
}

// keepPseudo lists rows marked pseudo that are real instructions people
// write and that no other row covers.
var keepPseudo = map[string]bool{
	"NOP": true, "PAUSE": true, "FCLEX": true, "FINIT": true, "FSAVE": true, "FSTCW": true,
	"FSTENV": true, "FSTSW": true, "SYSEXIT": true, "SYSRET": true, "MOV CR8": true,
}

func isPseudo(in *x86csv.Inst) bool {
	if in.HasTag("pseudo64") {
		return true
	}
	if !in.HasTag("pseudo") {
		return false
	}
	op := in.IntelOpcode()
	if keepPseudo[op] {
		return false
	}
	if args := in.IntelArgs(); len(args) > 0 && keepPseudo[op+" "+args[0]] {
		return false
	}
	return true
}

// better reports whether a should replace b for the same name.
func better(a, b Row) bool {
	if a.uselessW != b.uselessW {
		return !a.uselessW
	}
	if a.op16 != b.op16 {
		return !a.op16
	}
	if a.encBytes != b.encBytes {
		return a.encBytes < b.encBytes
	}
	return a.line < b.line
}

func splitName(name string) (mnemonic, kinds string) {
	if i := strings.IndexByte(name, ' '); i >= 0 {
		return name[:i], name[i+1:]
	}
	return name, ""
}

// mnemonicRename maps the table's names for far transfers to the mnemonics
// GNU as accepts in Intel syntax.
var mnemonicRename = map[string]string{
	"call_far": "call",
	"jmp_far":  "jmp",
	"ret_far":  "retf",
	"icebp":    "int1", // GNU as knows only the newer name
}

// dropForms lists forms the table gets wrong, with the reason they are left out.
var dropForms = map[string]string{
	"bswap r16":     "result undefined; GNU as rejects it",
	"mov m32, sreg": "a segment register store is always 16 bits; GNU as rejects it",
	"lsl r64, r32":  "GNU as takes lsl r64, r16/r64 only",
	"ud1":           "ud1 has ModRM operands; GNU as rejects the bare form (ud2 covers the trap)",
}

// gnuFixes corrects the GNU column's mnemonic for forms GNU as does not
// accept as spelt there.
var gnuFixes = map[string]string{
	"movsx r16, r16": "movsxw", "movsx r16, m16": "movsxw",
	"movzx r16, r16": "movzxw", "movzx r16, m16": "movzxw",
	"movsxd r16, r32": "movsxd", "movsxd r16, m32": "movsxd",
	"movsxd r32, r32": "movsxd", "movsxd r32, m32": "movsxd",
	"movbe m16, r16": "movbew", "movbe r16, m16": "movbew",
	"movbe m32, r32": "movbel", "movbe r32, m32": "movbel",
	"movbe m64, r64": "movbeq", "movbe r64, m64": "movbeq",
	"sldt m16": "sldt", "smsw m16": "smsw", "str m16": "str",
	"mov sreg, m16":   "movw",
	"int1":            "int1",
	"mov ax, moffs64": "movabsw", "mov eax, moffs64": "movabsl",
	"mov moffs64, ax": "movabsw", "mov moffs64, eax": "movabsl",
}

// expand turns one table row into its forms. It returns nil, nil for rows
// that must be left out (a feature isa has no name for).
func expand(in *x86csv.Inst, line int) ([]Row, error) {
	mn := strings.ToLower(in.IntelOpcode())
	if r, ok := mnemonicRename[mn]; ok {
		mn = r
	}
	feats, ok, err := features(in, mn)
	if err != nil || !ok {
		return nil, err
	}
	args := in.IntelArgs()
	var action []string
	if in.Action != "" {
		action = strings.Split(in.Action, ",")
	}
	if len(action) != len(args) {
		if len(args) == 0 {
			action = nil
		} else {
			return nil, fmt.Errorf("action %q does not match %d operands", in.Action, len(args))
		}
	}
	memOnly, regOnly := in.HasTag("modrm_memonly"), in.HasTag("modrm_regonly")
	alts := make([][]string, len(args))
	for i, a := range args {
		ks, err := operandKinds(a)
		if err != nil {
			return nil, err
		}
		if len(ks) > 1 && (memOnly || regOnly) {
			var f []string
			for _, k := range ks {
				if isMemKind(k) == memOnly {
					f = append(f, k)
				}
			}
			ks = f
		}
		alts[i] = ks
	}
	gnu := gnuMnemonic(in.GNUOpcode())
	size, _ := strconv.Atoi(in.DataSize)
	base := Row{
		GNU:      gnu,
		Opcode:   in.Encoding,
		Access:   strings.Join(action, ","),
		Features: strings.Join(feats, ","),
		DataSize: size,
		pseudo:   in.HasTag("pseudo") || in.HasTag("pseudo64"),
		op16:     in.HasTag("operand16") && !in.HasTag("operand32") && !in.HasTag("operand64"),
		line:     line,
		encBytes: encodedLength(in.Encoding),
	}
	var rows []Row
	var rec func(i int, kinds []string)
	rec = func(i int, kinds []string) {
		if i == len(alts) {
			r := base
			r.Name = mn
			if len(kinds) > 0 {
				r.Name += " " + strings.Join(kinds, ", ")
			}
			r.uselessW = strings.Contains(r.Opcode, "REX.W") && !strings.Contains(r.Name, "64") && !strings.Contains(r.Name, "rax")
			rows = append(rows, r)
			return
		}
		for _, k := range alts[i] {
			rec(i+1, append(kinds[:i:i], k))
		}
	}
	rec(0, nil)
	return rows, nil
}

func isMemKind(k string) bool {
	return k == "m" || strings.HasPrefix(k, "m") && len(k) > 1 && k[1] >= '0' && k[1] <= '9' || strings.HasPrefix(k, "moffs")
}

// fixedKinds spells single operands of the table as isa kinds.
var fixedKinds = map[string]string{
	"AL": "al", "AX": "ax", "EAX": "eax", "RAX": "rax", "CL": "cl", "DX": "dx",
	"<XMM0>": "xmm0", "1": "1", "3": "3", "0": "0",
	"ST(0)": "st(0)", "ST(i)": "st",
	"FS": "fs", "GS": "gs", "Sreg": "sreg",
	"CR0-CR7": "cr", "CR8": "cr8", "DR0-DR7": "dr",
	"imm8": "imm8", "imm8u": "imm8", "imm8b": "imm8", "imm16": "imm16", "imm16u": "imm16",
	"imm32": "imm32", "imm64": "imm64",
	"rel8": "rel8", "rel16": "rel16", "rel32": "rel32",
	"r8": "r8", "r16": "r16", "r32": "r32", "r64": "r64",
	"r8op": "r8", "r16op": "r16", "r32op": "r32", "r64op": "r64",
	"rmr16": "r16", "rmr32": "r32", "rmr64": "r64", "r32V": "r32", "r64V": "r64",
	"xmm1": "xmm", "xmm2": "xmm", "xmmV": "xmm", "xmmIH": "xmm",
	"ymm1": "ymm", "ymm2": "ymm", "ymmV": "ymm", "ymmIH": "ymm",
	"mm1": "mm", "mm2": "mm", "bnd1": "bnd", "bnd2": "bnd",
	"m8": "m8", "m16": "m16", "m32": "m32", "m64": "m64", "m128": "m128", "m256": "m256",
	"m16int": "m16", "m32int": "m32", "m64int": "m64", "m32fp": "m32", "m64fp": "m64",
	"m80fp": "m80", "m80dec": "m80", "m80bcd": "m80", "m2byte": "m16",
	// Untyped memory blocks (state save areas, descriptor tables): address only.
	"m": "m", "mem": "m", "mib": "m", "m512byte": "m", "m14/28byte": "m", "m94/108byte": "m", "m16&64": "m",
	"m16:16": "m16:16", "m16:32": "m16:32", "m16:64": "m16:64",
	// Every moffs is a 64-bit absolute address in 64-bit mode; the register
	// operand gives the data size.
	"moffs8": "moffs64", "moffs16": "moffs64", "moffs32": "moffs64", "moffs64": "moffs64",
}

// operandKinds returns the kinds one table operand stands for: one, or two
// for a combined register/memory operand.
func operandKinds(a string) ([]string, error) {
	if k, ok := fixedKinds[a]; ok {
		return []string{k}, nil
	}
	parts := strings.Split(a, "/")
	if len(parts) != 2 {
		return nil, fmt.Errorf("unknown operand %q", a)
	}
	mem, ok := fixedKinds[parts[1]]
	if !ok || !isMemKind(mem) {
		return nil, fmt.Errorf("unknown operand %q", a)
	}
	reg := parts[0]
	if reg == "r" {
		switch mem {
		case "m8", "m16", "m32", "m64":
			return []string{"r" + strings.TrimPrefix(mem, "m"), mem}, nil
		}
		return nil, fmt.Errorf("unknown operand %q", a)
	}
	rk, ok := fixedKinds[reg]
	if !ok || isMemKind(rk) {
		return nil, fmt.Errorf("unknown operand %q", a)
	}
	return []string{rk, mem}, nil
}

// gnuMnemonic picks the 64-bit-mode spelling from the GNU column's opcode
// ("pushw/pushl/pushq" -> "pushq", "callq*" -> "callq", "mov{l/w}" -> "movl").
func gnuMnemonic(s string) string {
	s = strings.ToLower(s)
	if i := strings.IndexByte(s, '{'); i >= 0 {
		// mov{l/w}: first alternative.
		j := strings.IndexByte(s, '}')
		alts := strings.Split(s[i+1:j], "/")
		s = s[:i] + alts[0] + s[j+1:]
	}
	if strings.Contains(s, "/") {
		alts := strings.Split(s, "/")
		s = alts[len(alts)-1]
	}
	return strings.TrimSuffix(s, "*")
}

// cpuidFeatures maps the table's CPUID column to isa feature names.
var cpuidFeatures = map[string][]string{
	"": nil, "486": nil, "Pentium": nil, "PentiumII": nil,
	"MMX": {"mmx"}, "SSE": {"sse"}, "SSE2": {"sse2"}, "SSE3": {"sse3"}, "SSSE3": {"ssse3"},
	"SSE4_1": {"sse4_1"}, "SSE4_2": {"sse4_2"}, "AVX": {"avx"}, "AVX2": {"avx2"}, "FMA": {"fma"},
	"F16C": {"f16c"}, "BMI1": {"bmi1"}, "BMI2": {"bmi2"}, "ADX": {"adx"}, "LZCNT": {"lzcnt"},
	"AES": {"aes"}, "Both AES and AVX flags": {"aes", "avx"}, "PCLMULQDQ": {"pclmulqdq"},
	"PCLMULQDQ+AVX": {"pclmulqdq", "avx"}, "SHA": {"sha_ni"}, "RDRAND": {"rdrand"},
	"RDSEED": {"rdseed"}, "FSGSBASE": {"fsgsbase"}, "RTM": {"rtm"}, "HLE": {"hle"},
	// xtest needs HLE or RTM; every CPU with HLE also has RTM enumerated.
	"HLE or RTM": {"rtm"},
	"MPX":        {"mpx"}, "XSAVEOPT": {"xsaveopt"}, "OSPKE": {"pku"}, "PRFCHW": {"prefetchw"},
	"INVPCID": {"invpcid"},
}

// unsupportedCPUID lists CPUID values isa has no feature name for; their
// rows are left out.
var unsupportedCPUID = map[string]bool{"PREFETCHWT1": true}

// mnemonicFeatures adds features the table's CPUID column leaves out.
var mnemonicFeatures = map[string][]string{
	"popcnt": {"popcnt"}, "movbe": {"movbe"}, "crc32": {"sse4_2"},
	"cmpxchg8b": {"cx8"}, "cmpxchg16b": {"cx16"}, "lahf": {"lahf_lm"}, "sahf": {"lahf_lm"},
	"clflushopt": {"clflushopt"}, "xsave": {"xsave"}, "xsave64": {"xsave"}, "xrstor": {"xsave"},
	"xrstor64": {"xsave"}, "xsavec": {"xsave"}, "xsavec64": {"xsave"}, "xsaves": {"xsave"},
	"xsaves64": {"xsave"}, "xrstors": {"xsave"}, "xrstors64": {"xsave"}, "xgetbv": {"xsave"},
	"xsetbv": {"xsave"}, "emms": {"mmx"}, "movq2dq": {"sse2"}, "movdq2q": {"sse2"},
}

// features returns the isa features of a row, or ok == false when the row
// needs a feature isa has no name for.
func features(in *x86csv.Inst, mn string) (feats []string, ok bool, err error) {
	if unsupportedCPUID[in.CPUID] {
		return nil, false, nil
	}
	base, known := cpuidFeatures[in.CPUID]
	if !known {
		return nil, false, fmt.Errorf("unknown CPUID value %q", in.CPUID)
	}
	set := map[string]bool{}
	for _, f := range base {
		set[f] = true
	}
	for _, f := range mnemonicFeatures[mn] {
		set[f] = true
	}
	if strings.HasPrefix(mn, "cmov") {
		set["cmov"] = true
	}
	if isX87(in) {
		set["x87"] = true
		if strings.HasPrefix(mn, "fcmov") || strings.HasPrefix(mn, "fcomi") || strings.HasPrefix(mn, "fucomi") {
			set["cmov"] = true
		}
	}
	var out []string
	for f := range set {
		out = append(out, f)
	}
	sort.Strings(out)
	return out, true, nil
}

// isX87 reports whether the row is an x87 instruction: escape opcodes D8-DF,
// optionally after the 9B wait prefix (fclex, finit, fsave, ...).
func isX87(in *x86csv.Inst) bool {
	f := strings.Fields(in.Encoding)
	if len(f) > 1 && f[0] == "9B" {
		f = f[1:]
	}
	if len(f) == 0 || len(f[0]) != 2 {
		return false
	}
	b, err := strconv.ParseUint(f[0], 16, 8)
	return err == nil && b >= 0xD8 && b <= 0xDF
}

// encodedLength estimates the length in bytes of an encoding text, enough to
// rank encodings of the same form: "REX.W 01 /r" -> 3, "B8+rd id" -> 5.
func encodedLength(enc string) int {
	n := 0
	for _, f := range strings.Fields(enc) {
		switch {
		case f == "REX" || f == "REX.W" || f == "REX.R" || f == "+":
			n++
		case strings.HasPrefix(f, "VEX."):
			// Two-byte VEX only for map 0F with W0/WIG.
			if strings.Contains(f, ".0F.") && !strings.HasSuffix(f, ".W1") {
				n += 2
			} else {
				n += 3
			}
		case f == "/r" || len(f) == 2 && f[0] == '/' && f[1] >= '0' && f[1] <= '7':
			n++
		case f == "ib" || f == "cb" || f == "/is4":
			n++
		case f == "iw" || f == "cw":
			n += 2
		case f == "id" || f == "cd":
			n += 4
		case f == "io" || f == "cm":
			n += 8
		default:
			if len(f) >= 2 && isHex(f[:2]) {
				n++
			}
		}
	}
	return n
}

func isHex(s string) bool {
	_, err := strconv.ParseUint(s, 16, 8)
	return err == nil
}
