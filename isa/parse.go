package isa

import (
	"fmt"
	"strconv"
	"strings"
)

// StmtKind is the kind of a source statement.
type StmtKind uint8

// Statement kinds.
const (
	StmtBlank     StmtKind = iota // an empty line
	StmtComment                   // a comment (also trailing comments of other statements, as their own Stmt)
	StmtLabel                     // "foo:" or "1:"
	StmtDirective                 // ".p2align 4", "x = 5"
	StmtInst                      // an instruction
)

// String returns "blank", "comment", "label", "directive" or "inst".
func (k StmtKind) String() string {
	switch k {
	case StmtComment:
		return "comment"
	case StmtLabel:
		return "label"
	case StmtDirective:
		return "directive"
	case StmtInst:
		return "inst"
	}
	return "blank"
}

// Stmt is one statement of a source file. A source line can hold several
// (a label, an instruction and a trailing comment); they appear in source
// order with the same Pos.Line.
type Stmt struct {
	Kind StmtKind
	Pos  Pos
	// Inst is the instruction of a StmtInst.
	Inst *Inst
	// Label is the name of a StmtLabel, without the colon ("loop", "1").
	Label string
	// Directive is the name of a StmtDirective including its dot, lower
	// case (".p2align", ".intel_syntax"), or "=" for "sym = expr"
	// assignments; Args is its argument text as written, trimmed.
	Directive string
	Args      string
	// Comment is the text of a StmtComment after its marker ("#", "//", ";"
	// in Intel syntax, "/*"), trimmed: "LLVM-MCA-BEGIN loop".
	Comment string
	// Syntax is the syntax in force at the statement.
	Syntax Syntax
}

// File is a parsed assembly source file.
type File struct {
	Name string
	// Syntax is the syntax in force at the start of the file: set by a
	// leading .intel_syntax/.att_syntax directive or detected from the first
	// instruction that tells (AT&T when nothing does).
	Syntax Syntax
	Stmts  []Stmt
}

// Insts returns the file's instructions in order.
func (f *File) Insts() []*Inst {
	var out []*Inst
	for i := range f.Stmts {
		if f.Stmts[i].Kind == StmtInst {
			out = append(out, f.Stmts[i].Inst)
		}
	}
	return out
}

// ResolveForms maps every instruction that is not mapped yet to its form and
// returns the errors (as ParseErrors positioned at each instruction) of those
// that do not map.
func (f *File) ResolveForms() error {
	var errs ParseErrors
	for _, in := range f.Insts() {
		if in.Form != nil {
			continue
		}
		if _, err := in.ResolveForm(); err != nil {
			msg := err.Error()
			if fe, ok := err.(*FormError); ok {
				msg = fe.Msg
				if len(fe.Candidates) > 0 {
					c := fe.Candidates
					if len(c) > 8 {
						c = append(c[:8:8], "...")
					}
					msg += "; candidates: " + strings.Join(c, "; ")
				}
			}
			errs = append(errs, &ParseError{File: in.Pos.File, Line: in.Pos.Line, Col: in.Pos.Col, Msg: msg})
		}
	}
	if len(errs) == 0 {
		return nil
	}
	return errs
}

// Parse parses assembly source in AT&T or Intel syntax. The syntax is taken
// from .att_syntax / .intel_syntax directives (honoured wherever they appear)
// and otherwise detected from the text: "%" registers or "$" immediates mean
// AT&T; "ptr", brackets or bare register names mean Intel.
//
// Parse keeps going after an error: it returns the statements it could
// parse and, if any line was bad, a ParseErrors listing every error with its
// position. Instructions are mapped to catalog forms where possible (Form
// stays nil where not; File.ResolveForms reports why). Parse never panics.
func Parse(filename string, src []byte) (f *File, err error) {
	p := &asmParser{file: filename}
	defer func() {
		// A bug in the parser must not take the caller down: report it as an
		// error at the line being parsed.
		if r := recover(); r != nil {
			p.errs = append(p.errs, &ParseError{File: filename, Line: max(p.line, 1), Col: 1, Msg: fmt.Sprintf("internal error: %v", r)})
			f, err = p.f, p.errs
		}
	}()
	p.f = &File{Name: filename}
	p.syntax = detectSyntax(src)
	p.f.Syntax = p.syntax
	p.f.Stmts = make([]Stmt, 0, 1+len(src)/24)
	text := string(src)
	line := 0
	for start := 0; start <= len(text); {
		end := strings.IndexByte(text[start:], '\n')
		var l string
		if end < 0 {
			l = text[start:]
			end = len(text)
		} else {
			end += start
			l = text[start:end]
		}
		line++
		if start == len(text) && l == "" {
			break // no phantom blank line after the final newline
		}
		if n := len(l); n > 0 && l[n-1] == '\r' {
			l = l[:n-1]
		}
		p.line = line
		p.parseLine(l)
		start = end + 1
	}
	if p.inBlock {
		p.errorf(p.blockLine, p.blockCol, "unterminated /* comment")
	}
	if len(p.errs) > 0 {
		return p.f, p.errs
	}
	return p.f, nil
}

type asmParser struct {
	file      string
	f         *File
	syntax    Syntax
	line      int
	errs      ParseErrors
	inBlock   bool // inside /* ... */
	blockLine int
	blockCol  int
	blockText strings.Builder
	pending   Prefix // prefixes written as a statement of their own ("rep; movsb")
	pendPos   Pos
}

const maxErrors = 1000

func (p *asmParser) errorf(line, col int, msg string) {
	if len(p.errs) >= maxErrors {
		return
	}
	if col < 1 {
		col = 1
	}
	p.errs = append(p.errs, &ParseError{File: p.file, Line: line, Col: col, Msg: msg})
}

func (p *asmParser) pos(col int) Pos { return Pos{p.file, p.line, col} }

func (p *asmParser) add(s Stmt) {
	s.Syntax = p.syntax
	p.f.Stmts = append(p.f.Stmts, s)
}

// srcSegment is a piece of a line with its 1-based starting column.
type srcSegment struct {
	text string
	col  int
}

// parseLine splits a physical line into statements and comments and parses
// them.
func (p *asmParser) parseLine(l string) {
	p.pending = 0
	if strings.TrimSpace(l) == "" && !p.inBlock {
		p.add(Stmt{Kind: StmtBlank, Pos: p.pos(1)})
		return
	}
	i := 0
	stmtStart := 0
	if p.inBlock {
		end := strings.Index(l, "*/")
		if end < 0 {
			p.blockText.WriteString("\n" + l)
			return
		}
		p.blockText.WriteString("\n" + l[:end])
		p.add(Stmt{Kind: StmtComment, Pos: Pos{p.file, p.blockLine, p.blockCol}, Comment: strings.TrimSpace(p.blockText.String())})
		p.inBlock = false
		i = end + 2
		stmtStart = i
	}
	inQuote := false
	for i < len(l) {
		c := l[i]
		if inQuote {
			if c == '\\' {
				i += 2
				continue
			}
			if c == '"' {
				inQuote = false
			}
			i++
			continue
		}
		switch {
		case c == '"':
			inQuote = true
		case c == '#' || (c == '/' && i+1 < len(l) && l[i+1] == '/') || (c == ';' && p.syntax == SyntaxIntel):
			p.statement(l[stmtStart:i], stmtStart+1)
			n := 1
			if c == '/' {
				n = 2
			}
			p.add(Stmt{Kind: StmtComment, Pos: p.pos(i + 1), Comment: strings.TrimSpace(l[i+n:])})
			return
		case c == '/' && i+1 < len(l) && l[i+1] == '*':
			p.statement(l[stmtStart:i], stmtStart+1)
			end := strings.Index(l[i+2:], "*/")
			if end < 0 {
				p.inBlock = true
				p.blockLine, p.blockCol = p.line, i+1
				p.blockText.Reset()
				p.blockText.WriteString(l[i+2:])
				return
			}
			p.add(Stmt{Kind: StmtComment, Pos: p.pos(i + 1), Comment: strings.TrimSpace(l[i+2 : i+2+end])})
			i += 2 + end + 2
			stmtStart = i
			continue
		case c == ';':
			p.statement(l[stmtStart:i], stmtStart+1)
			stmtStart = i + 1
		}
		i++
	}
	if inQuote {
		p.errorf(p.line, len(l)+1, "missing closing quote")
		return
	}
	p.statement(l[stmtStart:], stmtStart+1)
	if p.pending != 0 {
		p.errorf(p.pendPos.Line, p.pendPos.Col, "prefix without instruction")
		p.pending = 0
	}
}

func isBlankByte(c byte) bool { return c == ' ' || c == '\t' || c == '\f' || c == '\v' }

// statement parses one statement (no comments in it).
func (p *asmParser) statement(s string, col int) {
	// trim
	for len(s) > 0 && isBlankByte(s[0]) {
		s = s[1:]
		col++
	}
	for len(s) > 0 && isBlankByte(s[len(s)-1]) {
		s = s[:len(s)-1]
	}
	// labels
	for len(s) > 0 {
		n := 0
		for n < len(s) && isIdentChar(s[n]) {
			n++
		}
		if n == 0 {
			break
		}
		j := n
		for j < len(s) && isBlankByte(s[j]) {
			j++
		}
		if j >= len(s) || s[j] != ':' {
			break
		}
		name := s[:n]
		if name[0] >= '0' && name[0] <= '9' {
			for k := 0; k < len(name); k++ {
				if name[k] < '0' || name[k] > '9' {
					p.errorf(p.line, col, "bad label "+strconv.Quote(name))
					return
				}
			}
		} else if _, isReg := RegByName(name); isReg && j+1 < len(s) {
			break // "fs:[rax]"... not a label
		}
		p.add(Stmt{Kind: StmtLabel, Pos: p.pos(col), Label: name})
		j++
		for j < len(s) && isBlankByte(s[j]) {
			j++
		}
		s = s[j:]
		col += j
	}
	if s == "" {
		return
	}
	if s[0] == '.' {
		p.directive(s, col)
		return
	}
	// assignment "sym = expr"
	if n := asmIdentLen(s); n > 0 {
		j := n
		for j < len(s) && isBlankByte(s[j]) {
			j++
		}
		if j < len(s) && s[j] == '=' && (j+1 == len(s) || s[j+1] != '=') {
			p.add(Stmt{Kind: StmtDirective, Pos: p.pos(col), Directive: "=", Args: s[:n] + " = " + strings.TrimSpace(s[j+1:])})
			return
		}
	}
	p.instruction(s, col)
}

func asmIdentLen(s string) int {
	if s == "" || !isIdentStart(s[0]) {
		return 0
	}
	n := 1
	for n < len(s) && isIdentChar(s[n]) {
		n++
	}
	return n
}

func (p *asmParser) directive(s string, col int) {
	n := 1
	for n < len(s) && !isBlankByte(s[n]) {
		n++
	}
	name := lowerASCII(s[:n])
	args := strings.TrimSpace(s[n:])
	p.add(Stmt{Kind: StmtDirective, Pos: p.pos(col), Directive: name, Args: args})
	switch name {
	case ".intel_syntax":
		p.syntax = SyntaxIntel
		p.f.Stmts[len(p.f.Stmts)-1].Syntax = SyntaxIntel
	case ".att_syntax":
		p.syntax = SyntaxATT
		p.f.Stmts[len(p.f.Stmts)-1].Syntax = SyntaxATT
	}
}

// detectSyntax decides the syntax at the start of a file: from the first
// syntax directive or the first instruction that tells; AT&T otherwise.
func detectSyntax(src []byte) Syntax {
	s := string(src)
	for len(s) > 0 {
		var l string
		if i := strings.IndexByte(s, '\n'); i >= 0 {
			l, s = s[:i], s[i+1:]
		} else {
			l, s = s, ""
		}
		if i := strings.IndexAny(l, "#"); i >= 0 {
			l = l[:i]
		}
		if t := strings.TrimSpace(l); strings.HasPrefix(t, ";") {
			continue // a comment line in Intel style
		}
		if i := strings.Index(l, "//"); i >= 0 {
			l = l[:i]
		}
		if i := strings.Index(l, "/*"); i >= 0 {
			l = l[:i]
		}
		l = strings.TrimSpace(l)
		// strip labels
		for {
			n := 0
			for n < len(l) && isIdentChar(l[n]) {
				n++
			}
			if n > 0 && n < len(l) && l[n] == ':' {
				l = strings.TrimSpace(l[n+1:])
				continue
			}
			break
		}
		if l == "" {
			continue
		}
		if l[0] == '.' {
			ll := lowerASCII(l)
			if strings.HasPrefix(ll, ".intel_syntax") {
				return SyntaxIntel
			}
			if strings.HasPrefix(ll, ".att_syntax") {
				return SyntaxATT
			}
			continue
		}
		if sy := lineSyntax(l); sy != SyntaxUnknown {
			return sy
		}
	}
	return SyntaxATT
}

// lineSyntax tells the syntax of one instruction line, or SyntaxUnknown.
func lineSyntax(l string) Syntax {
	if strings.ContainsAny(l, "%$") {
		return SyntaxATT
	}
	ll := lowerASCII(l)
	if strings.Contains(ll, "[") || strings.Contains(ll, " ptr ") || strings.Contains(ll, " ptr[") {
		return SyntaxIntel
	}
	if i := strings.IndexByte(l, ';'); i >= 0 {
		ll = ll[:i]
	}
	// first word is the mnemonic (or a prefix); look for a bare register
	fields := strings.FieldsFunc(ll, func(r rune) bool { return r == ' ' || r == '\t' || r == ',' || r == '{' || r == '}' })
	for i, f := range fields {
		if i == 0 {
			continue
		}
		if _, ok := RegByName(f); ok {
			return SyntaxIntel
		}
	}
	return SyntaxUnknown
}

// instruction parses prefixes, mnemonic and operands.
func (p *asmParser) instruction(s string, col int) {
	startCol := col
	pfx := p.pending
	if pfx != 0 {
		startCol = p.pendPos.Col
	}
	i := 0
	var mn string
	mnCol := col
	for {
		for i < len(s) && isBlankByte(s[i]) {
			i++
		}
		if i >= len(s) {
			break
		}
		if s[i] == '{' {
			end := strings.IndexByte(s[i:], '}')
			if end < 0 {
				p.errorf(p.line, col+i, "missing \"}\"")
				return
			}
			tok := lowerASCII(s[i : i+end+1])
			b, ok := prefixByName[tok]
			if !ok {
				p.errorf(p.line, col+i, "unknown pseudo-prefix "+strconv.Quote(s[i:i+end+1]))
				return
			}
			pfx |= b
			i += end + 1
			continue
		}
		j := i
		for j < len(s) && (isIdentChar(s[j])) {
			j++
		}
		if j == i {
			p.errorf(p.line, col+i, "expected mnemonic, found "+quoteToken(s[i:]))
			return
		}
		word := lowerASCII(s[i:j])
		if j < len(s) && !isBlankByte(s[j]) && s[j] != '{' {
			p.errorf(p.line, col+i, "bad mnemonic "+quoteToken(s[i:]))
			return
		}
		if b, ok := prefixByName[word]; ok {
			pfx |= b
			i = j
			continue
		}
		mn, mnCol = word, col+i
		i = j
		break
	}
	if mn == "" {
		// prefixes alone: they apply to the next statement on this line
		p.pending = pfx
		p.pendPos = p.pos(startCol)
		return
	}
	p.pending = 0
	if !validMnemonic(mn) {
		p.errorf(p.line, mnCol, "bad mnemonic "+strconv.Quote(mn))
		return
	}
	in := &Inst{
		Pos:            p.pos(startCol),
		Prefix:         pfx,
		Syntax:         p.syntax,
		SourceMnemonic: mn,
		Mnemonic:       mn,
		Text:           s,
	}
	for i < len(s) && isBlankByte(s[i]) {
		i++
	}
	ops, ok := p.splitOperands(s[i:], col+i)
	if !ok {
		return
	}
	var err bool
	if p.syntax == SyntaxIntel {
		if a, ok := intelAlias[mn]; ok {
			in.Mnemonic = a
			in.absMoffs = mn == "movabs"
		}
		err = !p.intelOperands(in, ops)
	} else {
		err = !p.attOperands(in, ops)
	}
	if err {
		return
	}
	// Best effort: map to a form now.
	if catalogReady() {
		in.ResolveForm() //nolint:errcheck // unresolved instructions keep Form nil
	}
	p.add(Stmt{Kind: StmtInst, Pos: in.Pos, Inst: in})
}

func validMnemonic(m string) bool {
	if m == "" || !(m[0] >= 'a' && m[0] <= 'z') {
		return false
	}
	for i := 0; i < len(m); i++ {
		c := m[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_' || c == '.') {
			return false
		}
	}
	return true
}

// splitOperands splits at top-level commas.
func (p *asmParser) splitOperands(s string, col int) ([]srcSegment, bool) {
	if strings.TrimSpace(s) == "" {
		return nil, true
	}
	var out []srcSegment
	depth := 0
	var stack []byte
	var stackAt []int
	start := 0
	emit := func(end int) bool {
		t := s[start:end]
		c := col + start
		for len(t) > 0 && isBlankByte(t[0]) {
			t = t[1:]
			c++
		}
		for len(t) > 0 && isBlankByte(t[len(t)-1]) {
			t = t[:len(t)-1]
		}
		if t == "" {
			p.errorf(p.line, c, "missing operand")
			return false
		}
		out = append(out, srcSegment{t, c})
		return true
	}
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '(', '[', '{':
			stack = append(stack, c)
			stackAt = append(stackAt, i)
			depth++
		case ')', ']', '}':
			want := byte('(')
			if c == ']' {
				want = '['
			} else if c == '}' {
				want = '{'
			}
			if depth == 0 || stack[depth-1] != want {
				p.errorf(p.line, col+i, "unbalanced "+strconv.Quote(string(c)))
				return nil, false
			}
			stack = stack[:depth-1]
			stackAt = stackAt[:depth-1]
			depth--
		case ',':
			if depth == 0 {
				if !emit(i) {
					return nil, false
				}
				start = i + 1
			}
		}
	}
	if depth != 0 {
		p.errorf(p.line, col+stackAt[depth-1], "unbalanced "+strconv.Quote(string(stack[depth-1])))
		return nil, false
	}
	if !emit(len(s)) {
		return nil, false
	}
	return out, true
}

// opDecor holds the {...} decorations of one operand.
type opDecor struct {
	mask      Reg
	maskCol   int
	zeroing   bool
	zeroCol   int
	bcast     int
	bcastCol  int
	rounding  Rounding
	roundOnly bool // the operand is only a rounding specifier
}

var roundingByName = map[string]Rounding{
	"rn-sae": RoundNearest, "rd-sae": RoundDown, "ru-sae": RoundUp, "rz-sae": RoundZero, "sae": RoundSAE,
}

// stripDecorations removes trailing {k1} {z} {1to8} {rn-sae} decorations.
func (p *asmParser) stripDecorations(s string, col int, d *opDecor) (string, bool) {
	for len(s) > 0 && s[len(s)-1] == '}' {
		open := strings.LastIndexByte(s, '{')
		if open < 0 {
			p.errorf(p.line, col+len(s)-1, "unbalanced \"}\"")
			return "", false
		}
		inner := strings.TrimSpace(lowerASCII(s[open+1 : len(s)-1]))
		at := col + open
		switch {
		case inner == "z":
			d.zeroing, d.zeroCol = true, at
		case strings.HasPrefix(inner, "1to"):
			n, err := strconv.Atoi(inner[3:])
			if err != nil || (n != 2 && n != 4 && n != 8 && n != 16 && n != 32) {
				p.errorf(p.line, at, "bad broadcast "+strconv.Quote(s[open:]))
				return "", false
			}
			d.bcast, d.bcastCol = n, at
		case roundingByName[inner] != RoundNone:
			d.rounding = roundingByName[inner]
		default:
			name := strings.TrimPrefix(inner, "%")
			r, ok := RegByName(name)
			if !ok {
				if looksLikeRegister(name) || strings.HasPrefix(inner, "%") {
					p.errorf(p.line, at+1, "unknown register "+strconv.Quote(strings.TrimSpace(s[open+1:len(s)-1])))
				} else {
					p.errorf(p.line, at, "unknown decoration "+strconv.Quote(s[open:]))
				}
				return "", false
			}
			if r.Class() != ClassK {
				p.errorf(p.line, at+1, "mask must be a k register, not "+strconv.Quote(strings.TrimSpace(s[open+1:len(s)-1])))
				return "", false
			}
			if r == K0 {
				p.errorf(p.line, at+1, "k0 cannot be a write mask")
				return "", false
			}
			d.mask, d.maskCol = r, at
		}
		s = strings.TrimRight(s[:open], " \t")
	}
	return s, true
}

// applyDecor moves an operand's decorations to the instruction. dest says
// whether the operand is the destination (masks are allowed only there).
func (p *asmParser) applyDecor(in *Inst, op *InstOperand, d *opDecor, dest bool) bool {
	if d.rounding != RoundNone {
		if in.Rounding != RoundNone {
			p.errorf(p.line, op.Pos.Col, "more than one rounding operand")
			return false
		}
		in.Rounding = d.rounding
	}
	if d.mask != RegNone || d.zeroing {
		if !dest {
			c := d.maskCol
			if c == 0 {
				c = d.zeroCol
			}
			p.errorf(p.line, c, "mask only allowed on the destination operand")
			return false
		}
		if d.zeroing && d.mask == RegNone {
			p.errorf(p.line, d.zeroCol, "{z} without a mask register")
			return false
		}
		in.Mask, in.Zeroing = d.mask, d.zeroing
	}
	if d.bcast != 0 {
		if op.Type != OpMem {
			p.errorf(p.line, d.bcastCol, "broadcast needs a memory operand")
			return false
		}
		op.Mem.Broadcast = d.bcast
	}
	return true
}

// isBranch reports whether a mnemonic (Intel or AT&T spelling) takes a
// branch target, so that a bare symbol is a label rather than memory.
func isBranch(m string) bool {
	switch m {
	case "jmp", "jmpq", "jmpl", "call", "callq", "calll", "loop", "loope", "loopne", "loopz", "loopnz",
		"jrcxz", "jecxz", "jcxz", "xbegin":
		return true
	}
	if len(m) >= 2 && m[0] == 'j' {
		_, ok := ccCanonical[m[1:]]
		return ok
	}
	return false
}

// ccCanonical maps every condition-code spelling to its canonical one.
var ccCanonical = map[string]string{
	"o": "o", "no": "no", "b": "b", "c": "b", "nae": "b", "ae": "ae", "nb": "ae", "nc": "ae",
	"e": "e", "z": "e", "ne": "ne", "nz": "ne", "be": "be", "na": "be", "a": "a", "nbe": "a",
	"s": "s", "ns": "ns", "p": "p", "pe": "p", "np": "np", "po": "np", "l": "l", "nge": "l",
	"ge": "ge", "nl": "ge", "le": "le", "ng": "le", "g": "g", "nle": "g",
}

// ---------------------------------------------------------------- AT&T

func (p *asmParser) attOperands(in *Inst, segs []srcSegment) bool {
	branch := isBranch(in.SourceMnemonic)
	type parsed struct {
		op  InstOperand
		dec opDecor
	}
	var ops []parsed
	for _, sg := range segs {
		var d opDecor
		op, ok := p.attOperand(sg.text, sg.col, branch, &d)
		if !ok {
			return false
		}
		if d.roundOnly {
			if in.Rounding != RoundNone {
				p.errorf(p.line, sg.col, "more than one rounding operand")
				return false
			}
			in.Rounding = d.rounding
			continue
		}
		ops = append(ops, parsed{op, d})
	}
	// AT&T order is reversed, except for enter with two immediates.
	reverse := !(len(ops) == 2 && ops[0].op.Type == OpImm && ops[1].op.Type == OpImm)
	in.Args = make([]InstOperand, len(ops))
	for i := range ops {
		j := i
		if reverse {
			j = len(ops) - 1 - i
		}
		in.Args[j] = ops[i].op
	}
	for i := range ops {
		j := i
		if reverse {
			j = len(ops) - 1 - i
		}
		if !p.applyDecor(in, &in.Args[j], &ops[i].dec, j == 0) {
			return false
		}
	}
	p.attMnemonic(in)
	return true
}

// attOperand parses one AT&T operand.
func (p *asmParser) attOperand(s string, col int, branch bool, d *opDecor) (InstOperand, bool) {
	op := InstOperand{Pos: p.pos(col)}
	if s[0] == '{' {
		inner := strings.TrimSpace(lowerASCII(strings.TrimSuffix(s[1:], "}")))
		r, ok := roundingByName[inner]
		if !ok || !strings.HasSuffix(s, "}") {
			p.errorf(p.line, col, "unknown rounding operand "+strconv.Quote(s))
			return op, false
		}
		d.rounding, d.roundOnly = r, true
		return op, true
	}
	s, ok := p.stripDecorations(s, col, d)
	if !ok {
		return op, false
	}
	if s == "" {
		p.errorf(p.line, col, "missing operand")
		return op, false
	}
	if s[0] == '*' {
		op.Indirect = true
		s = strings.TrimLeft(s[1:], " \t")
		col = col + 1
		if s == "" {
			p.errorf(p.line, col, "missing operand after \"*\"")
			return op, false
		}
	}
	switch s[0] {
	case '$':
		if op.Indirect {
			p.errorf(p.line, col, "\"*\" before an immediate")
			return op, false
		}
		v, e := parseExpr(s[1:], col+1, false)
		if e != nil {
			p.errorf(p.line, e.col, e.msg)
			return op, false
		}
		op.Type, op.Imm, op.Symbol = OpImm, v.val, v.sym
		return op, true
	case '%':
		r, n, ok := p.attReg(s, col)
		if !ok {
			return op, false
		}
		rest := strings.TrimLeft(s[n:], " \t")
		if rest == "" {
			op.Type, op.Reg = OpReg, r
			return op, true
		}
		if rest[0] != ':' {
			p.errorf(p.line, col+n, "unexpected "+quoteToken(rest)+" after register")
			return op, false
		}
		if r.Class() != ClassSeg {
			p.errorf(p.line, col, "segment override with "+strconv.Quote("%"+r.Name())+", not a segment register")
			return op, false
		}
		restCol := col + len(s) - len(rest) + 1
		m, ok := p.attMem(rest[1:], restCol)
		if !ok {
			return op, false
		}
		m.Segment = r
		op.Type, op.Mem = OpMem, m
		return op, true
	}
	// memory or a branch target
	if branch && !op.Indirect && !strings.HasSuffix(s, ")") {
		v, e := parseExpr(s, col, false)
		if e != nil {
			p.errorf(p.line, e.col, e.msg)
			return op, false
		}
		op.Type, op.Imm, op.Symbol = OpLabel, v.val, v.sym
		return op, true
	}
	m, ok := p.attMem(s, col)
	if !ok {
		return op, false
	}
	op.Type, op.Mem = OpMem, m
	return op, true
}

// attReg parses "%name" (or "%st(1)") at the start of s and returns the
// register and the bytes consumed.
func (p *asmParser) attReg(s string, col int) (Reg, int, bool) {
	n := 1
	for n < len(s) && isIdentChar(s[n]) {
		n++
	}
	name := s[1:n]
	if lowerASCII(name) == "st" && n < len(s) && s[n] == '(' {
		if end := strings.IndexByte(s[n:], ')'); end >= 0 {
			name = strings.ReplaceAll(s[1:n+end+1], " ", "")
			n += end + 1
		}
	}
	r, ok := RegByName(name)
	if !ok {
		p.errorf(p.line, col, "unknown register "+strconv.Quote(s[:n]))
		return 0, 0, false
	}
	return r, n, true
}

// attMem parses "disp(base,index,scale)", "(base)", "disp" or "sym(%rip)".
func (p *asmParser) attMem(s string, col int) (InstMem, bool) {
	var m InstMem
	m.Scale = 1
	s = strings.TrimRight(s, " \t")
	lead := len(s) - len(strings.TrimLeft(s, " \t"))
	s = s[lead:]
	col += lead
	if s == "" {
		p.errorf(p.line, col, "missing memory operand")
		return m, false
	}
	disp := s
	group := ""
	groupCol := 0
	if s[len(s)-1] == ')' {
		depth := 0
		open := -1
		for i := len(s) - 1; i >= 0; i-- {
			if s[i] == ')' {
				depth++
			} else if s[i] == '(' {
				depth--
				if depth == 0 {
					open = i
					break
				}
			}
		}
		if open < 0 {
			p.errorf(p.line, col+len(s)-1, "unbalanced \")\"")
			return m, false
		}
		inner := strings.TrimSpace(s[open+1 : len(s)-1])
		if inner == "" || inner[0] == '%' || inner[0] == ',' {
			group = s[open+1 : len(s)-1]
			groupCol = col + open + 1
			disp = strings.TrimSpace(s[:open])
		}
	}
	if disp != "" {
		v, e := parseExpr(disp, col, false)
		if e != nil {
			p.errorf(p.line, e.col, e.msg)
			return m, false
		}
		m.Disp, m.Symbol = v.val, v.sym
	}
	if groupCol == 0 {
		return m, true
	}
	parts := strings.Split(group, ",")
	if len(parts) > 3 {
		p.errorf(p.line, groupCol, "too many parts in memory operand "+strconv.Quote("("+group+")"))
		return m, false
	}
	pc := groupCol
	for i, part := range parts {
		t := strings.TrimSpace(part)
		tc := pc
		if t != "" {
			tc = pc + strings.Index(part, t)
		}
		switch i {
		case 0, 1:
			if t == "" {
				break
			}
			if t[0] != '%' {
				p.errorf(p.line, tc, "expected register, found "+quoteToken(t))
				return m, false
			}
			r, n, ok := p.attReg(t, tc)
			if !ok {
				return m, false
			}
			if n != len(t) {
				p.errorf(p.line, tc+n, "unexpected "+quoteToken(t[n:]))
				return m, false
			}
			if i == 0 {
				if !p.checkBase(r, tc, "%"+r.Name()) {
					return m, false
				}
				m.Base = r
			} else {
				if !p.checkIndex(r, tc, "%"+r.Name()) {
					return m, false
				}
				m.Index = r
			}
		case 2:
			if t == "" {
				break
			}
			v, e := parseExpr(t, tc, false)
			if e != nil {
				p.errorf(p.line, e.col, e.msg)
				return m, false
			}
			if v.sym != "" || (v.val != 1 && v.val != 2 && v.val != 4 && v.val != 8) {
				p.errorf(p.line, tc, "scale must be 1, 2, 4 or 8, not "+strconv.Quote(t))
				return m, false
			}
			if m.Index == RegNone {
				p.errorf(p.line, tc, "scale without index register")
				return m, false
			}
			m.Scale = int(v.val)
		}
		pc += len(part) + 1
	}
	return m, true
}

func (p *asmParser) checkBase(r Reg, col int, text string) bool {
	if r.Class() == ClassIP || (r.IsGPR() && (r.Width() == 64 || r.Width() == 32)) {
		return true
	}
	p.errorf(p.line, col, "bad base register "+strconv.Quote(text))
	return false
}

func (p *asmParser) checkIndex(r Reg, col int, text string) bool {
	if r.IsVector() || (r.IsGPR() && (r.Width() == 64 || r.Width() == 32) && r.Num() != 4) {
		return true
	}
	p.errorf(p.line, col, "bad index register "+strconv.Quote(text))
	return false
}

// attAlias maps AT&T-only mnemonics to the Intel mnemonic and, for sign and
// zero extensions, the size of the source operand in bits (a negative size is
// the operand size of a suffixed movabs).
var attAlias = map[string]struct {
	intel string
	src   int
}{
	"cltq": {"cdqe", 0}, "cqto": {"cqo", 0}, "cwtl": {"cwde", 0}, "cltd": {"cdq", 0}, "cwtd": {"cwd", 0}, "cbtw": {"cbw", 0},
	"movabsq": {"mov", -64}, "movabs": {"mov", 0}, "movabsl": {"mov", -32}, "movabsw": {"mov", -16}, "movabsb": {"mov", -8},
	"movslq": {"movsxd", 32}, "movsbw": {"movsx", 8}, "movsbl": {"movsx", 8}, "movsbq": {"movsx", 8},
	"movswl": {"movsx", 16}, "movswq": {"movsx", 16}, "movzbw": {"movzx", 8}, "movzbl": {"movzx", 8},
	"movzbq": {"movzx", 8}, "movzwl": {"movzx", 16}, "movzwq": {"movzx", 16},
	"movsxb": {"movsx", 8}, "movsxw": {"movsx", 16}, "movzxb": {"movzx", 8}, "movzxw": {"movzx", 16},
	"movsxl": {"movsxd", 32}, "movsxdq": {"movsxd", 32},
}

// attSuffixSize returns the Intel mnemonic and operand size implied by an
// AT&T size suffix, if stripping a suffix gives a known mnemonic.
func attSuffixSize(m string, known func(string) bool) (string, int) {
	n := len(m)
	if n < 3 {
		return "", 0
	}
	if m[0] == 'f' {
		// x87 memory-operand suffixes: integer ops (fi...) s=16 l=32 ll/q=64;
		// floating-point ops s=32 l=64 t=80.
		integer := strings.HasPrefix(m, "fi")
		if integer && strings.HasSuffix(m, "ll") && known(m[:n-2]) {
			return m[:n-2], 64
		}
		if known(m[:n-1]) {
			switch m[n-1] {
			case 's':
				if integer {
					return m[:n-1], 16
				}
				return m[:n-1], 32
			case 'l':
				if integer {
					return m[:n-1], 32
				}
				return m[:n-1], 64
			case 'q':
				if integer {
					return m[:n-1], 64
				}
			case 't':
				if !integer {
					return m[:n-1], 80
				}
			}
		}
		return "", 0
	}
	var size int
	switch m[n-1] {
	case 'b':
		size = 8
	case 'w':
		size = 16
	case 'l':
		size = 32
	case 'q':
		size = 64
	case 'x':
		size = 128
	case 'y':
		size = 256
	case 'z':
		size = 512
	default:
		return "", 0
	}
	if known(m[:n-1]) {
		return m[:n-1], size
	}
	return "", 0
}

// attMnemonic sets the Intel mnemonic of an AT&T instruction and applies the
// size implied by a suffix to unsized memory operands.
func (p *asmParser) attMnemonic(in *Inst) {
	m := in.SourceMnemonic
	size := 0
	srcSize := 0
	if a, ok := attAlias[m]; ok {
		in.Mnemonic = a.intel
		in.absMoffs = strings.HasPrefix(m, "movabs")
		if a.src < 0 {
			size = -a.src
		} else {
			srcSize = a.src
		}
	} else if fs := gnuForms(m); len(fs) > 0 {
		// the catalog knows this AT&T spelling: its forms give the sizes
		in.Mnemonic = fs[0].Mnemonic
	} else if !knownMnemonic(m) {
		if intel, s := attSuffixSize(m, knownMnemonic); intel != "" {
			in.Mnemonic, size = intel, s
		}
	}
	// Unsized memory operands take the size the suffix implies.
	if in.Mnemonic == "lea" {
		return
	}
	for i := range in.Args {
		a := &in.Args[i]
		if a.Type != OpMem || a.Mem.Size != 0 || a.Mem.Broadcast != 0 {
			continue
		}
		switch {
		case srcSize != 0 && i == len(in.Args)-1:
			a.Mem.Size = srcSize
		case size != 0 && srcSize == 0:
			a.Mem.Size = size
		}
	}
}

// ---------------------------------------------------------------- Intel

// intelAlias maps mnemonics GNU as accepts in Intel syntax to the catalog's
// mnemonic (the suffix selects an operand size the operands do not show).
var intelAlias = map[string]string{
	"movabs": "mov", "retfd": "retf", "retfq": "retf", "sysexitd": "sysexit", "sysretd": "sysret",
	"iretw": "iret", "popfw": "popf", "pushfw": "pushf", "pushw": "push",
}

var sizeKeywords = map[string]int{
	"byte": 8, "word": 16, "dword": 32, "fword": 48, "qword": 64, "mmword": 64, "tbyte": 80, "tword": 80,
	"oword": 128, "xmmword": 128, "ymmword": 256, "zmmword": 512,
}

func (p *asmParser) intelOperands(in *Inst, segs []srcSegment) bool {
	branch := isBranch(in.SourceMnemonic)
	for i, sg := range segs {
		var d opDecor
		op, ok := p.intelOperand(sg.text, sg.col, branch, &d)
		if !ok {
			return false
		}
		if d.roundOnly {
			if in.Rounding != RoundNone {
				p.errorf(p.line, sg.col, "more than one rounding operand")
				return false
			}
			in.Rounding = d.rounding
			continue
		}
		in.Args = append(in.Args, op)
		if !p.applyDecor(in, &in.Args[len(in.Args)-1], &d, i == 0) {
			return false
		}
	}
	return true
}

func (p *asmParser) intelOperand(s string, col int, branch bool, d *opDecor) (InstOperand, bool) {
	op := InstOperand{Pos: p.pos(col)}
	if s[0] == '{' {
		inner := strings.TrimSpace(lowerASCII(strings.TrimSuffix(s[1:], "}")))
		r, ok := roundingByName[inner]
		if !ok || !strings.HasSuffix(s, "}") {
			p.errorf(p.line, col, "unknown rounding operand "+strconv.Quote(s))
			return op, false
		}
		d.rounding, d.roundOnly = r, true
		return op, true
	}
	if i := strings.IndexByte(s, '$'); i >= 0 {
		p.errorf(p.line, col+i, "unexpected \"$\" in Intel syntax")
		return op, false
	}
	s, ok := p.stripDecorations(s, col, d)
	if !ok {
		return op, false
	}
	if s == "" {
		p.errorf(p.line, col, "missing operand")
		return op, false
	}
	size := 0
	offset := false
	// size keyword [ptr], offset
	for {
		n := asmIdentLen(s)
		if n == 0 {
			break
		}
		w := lowerASCII(s[:n])
		if sz, ok := sizeKeywords[w]; ok && size == 0 {
			size = sz
		} else if w == "ptr" && size != 0 {
		} else if w == "offset" && !offset && size == 0 {
			offset = true
		} else {
			break
		}
		rest := strings.TrimLeft(s[n:], " \t")
		col += len(s) - len(rest)
		s = rest
		if s == "" {
			p.errorf(p.line, col, "missing operand after "+strconv.Quote(w))
			return op, false
		}
	}
	if offset {
		v, e := parseExpr(s, col, true)
		if e != nil {
			p.errorf(p.line, e.col, e.msg)
			return op, false
		}
		op.Type, op.Imm, op.Symbol = OpImm, v.val, v.sym
		return op, true
	}
	// segment override "fs:"
	var seg Reg
	if n := asmIdentLen(strings.TrimPrefix(s, "%")); n > 0 {
		k := n
		if s[0] == '%' {
			k++
		}
		if k < len(s) && s[k] == ':' {
			r, ok := RegByName(strings.TrimPrefix(s[:k], "%"))
			if ok && r.Class() == ClassSeg {
				seg = r
				rest := strings.TrimLeft(s[k+1:], " \t")
				col += len(s) - len(rest)
				s = rest
				if s == "" {
					p.errorf(p.line, col, "missing address after segment")
					return op, false
				}
			}
		}
	}
	if open := strings.IndexByte(s, '['); open >= 0 {
		m, ok := p.intelMem(s, col, open)
		if !ok {
			return op, false
		}
		if seg != RegNone {
			m.Segment = seg
		}
		m.Size = size
		op.Type, op.Mem = OpMem, m
		return op, true
	}
	if seg == RegNone && size == 0 {
		name := strings.TrimPrefix(s, "%")
		if r, ok := RegByName(name); ok {
			op.Type, op.Reg = OpReg, r
			return op, true
		}
		if looksLikeRegister(name) {
			p.errorf(p.line, col, "unknown register "+strconv.Quote(s))
			return op, false
		}
		if strings.HasPrefix(s, "%") {
			p.errorf(p.line, col, "unknown register "+strconv.Quote(s))
			return op, false
		}
	}
	v, e := parseExpr(s, col, true)
	if e != nil {
		p.errorf(p.line, e.col, e.msg)
		return op, false
	}
	switch {
	case seg != RegNone || size != 0:
		op.Type = OpMem
		op.Mem = InstMem{Segment: seg, Scale: 1, Disp: v.val, Symbol: v.sym, Size: size}
	case branch:
		op.Type, op.Imm, op.Symbol = OpLabel, v.val, v.sym
	case v.sym != "":
		// GNU as reads a bare symbol as a memory reference in Intel syntax.
		op.Type = OpMem
		op.Mem = InstMem{Scale: 1, Disp: v.val, Symbol: v.sym}
	default:
		op.Type, op.Imm = OpImm, v.val
	}
	return op, true
}

// intelMem parses "disp[base+index*scale+disp]" starting with the bracket at
// s[open].
func (p *asmParser) intelMem(s string, col, open int) (InstMem, bool) {
	m := InstMem{Scale: 1}
	if pre := strings.TrimSpace(s[:open]); pre != "" {
		v, e := parseExpr(pre, col, true)
		if e != nil {
			p.errorf(p.line, e.col, e.msg)
			return m, false
		}
		m.Disp, m.Symbol = v.val, v.sym
	}
	closeAt := strings.IndexByte(s[open:], ']')
	if closeAt < 0 {
		p.errorf(p.line, col+open, "missing \"]\"")
		return m, false
	}
	closeAt += open
	if rest := strings.TrimSpace(s[closeAt+1:]); rest != "" {
		p.errorf(p.line, col+closeAt+1+strings.Index(s[closeAt+1:], rest), "unexpected "+quoteToken(rest)+" after \"]\"")
		return m, false
	}
	inner := s[open+1 : closeAt]
	icol := col + open + 1
	// segment inside the brackets: [fs:rax]
	if n := asmIdentLen(strings.TrimLeft(inner, " \t%")); n > 0 {
		t := strings.TrimLeft(inner, " \t")
		k := n
		if t[0] == '%' {
			k++
		}
		if k < len(t) && t[k] == ':' {
			if r, ok := RegByName(strings.TrimPrefix(t[:k], "%")); ok && r.Class() == ClassSeg {
				m.Segment = r
				skip := len(inner) - len(t) + k + 1
				inner = inner[skip:]
				icol += skip
			}
		}
	}
	if strings.TrimSpace(inner) == "" {
		p.errorf(p.line, icol, "empty memory operand")
		return m, false
	}
	// split into signed terms at top-level + and -
	type term struct {
		text string
		col  int
		neg  bool
	}
	var terms []term
	depth := 0
	start := 0
	neg := false
	prevOperand := false // previous non-blank char ends an operand
	for i := 0; i <= len(inner); i++ {
		var c byte
		if i < len(inner) {
			c = inner[i]
		}
		if i == len(inner) || (depth == 0 && (c == '+' || c == '-') && prevOperand) {
			t := inner[start:i]
			tc := icol + start
			for len(t) > 0 && isBlankByte(t[0]) {
				t = t[1:]
				tc++
			}
			t = strings.TrimRight(t, " \t")
			if t == "" {
				p.errorf(p.line, tc, "missing term in memory operand")
				return m, false
			}
			terms = append(terms, term{t, tc, neg})
			neg = c == '-'
			start = i + 1
			prevOperand = false
			continue
		}
		switch c {
		case '(':
			depth++
		case ')':
			depth--
		}
		if !isBlankByte(c) {
			prevOperand = !(c == '+' || c == '-' || c == '*' || c == '(' || c == '/' || c == '<' || c == '>' || c == '&' || c == '|' || c == '^' || c == '~')
		}
	}
	for _, t := range terms {
		// reg, reg*scale, scale*reg or constant
		if star := strings.IndexByte(t.text, '*'); star >= 0 {
			a := strings.TrimSpace(t.text[:star])
			b := strings.TrimSpace(t.text[star+1:])
			ra, aok := RegByName(strings.TrimPrefix(a, "%"))
			rb, bok := RegByName(strings.TrimPrefix(b, "%"))
			if aok || bok {
				reg, sc, scCol := ra, b, t.col+strings.Index(t.text[star+1:], b)+star+1
				if bok {
					reg, sc, scCol = rb, a, t.col
				}
				if t.neg {
					p.errorf(p.line, t.col, "cannot subtract register "+strconv.Quote(reg.Name()))
					return m, false
				}
				v, e := parseExpr(sc, scCol, true)
				if e != nil {
					p.errorf(p.line, e.col, e.msg)
					return m, false
				}
				if v.sym != "" || (v.val != 1 && v.val != 2 && v.val != 4 && v.val != 8) {
					p.errorf(p.line, scCol, "scale must be 1, 2, 4 or 8, not "+strconv.Quote(sc))
					return m, false
				}
				if m.Index != RegNone {
					p.errorf(p.line, t.col, "more than one index register")
					return m, false
				}
				if !p.checkIndex(reg, t.col, reg.Name()) {
					return m, false
				}
				m.Index, m.Scale = reg, int(v.val)
				continue
			}
		}
		name := strings.TrimPrefix(t.text, "%")
		if r, ok := RegByName(name); ok {
			if t.neg {
				p.errorf(p.line, t.col, "cannot subtract register "+strconv.Quote(t.text))
				return m, false
			}
			switch {
			case m.Base == RegNone && !r.IsVector():
				if !p.checkBase(r, t.col, t.text) {
					return m, false
				}
				m.Base = r
			case m.Index == RegNone:
				if !p.checkIndex(r, t.col, t.text) {
					return m, false
				}
				m.Index = r
			default:
				p.errorf(p.line, t.col, "too many registers in memory operand")
				return m, false
			}
			continue
		}
		if looksLikeRegister(name) {
			p.errorf(p.line, t.col, "unknown register "+strconv.Quote(t.text))
			return m, false
		}
		v, e := parseExpr(t.text, t.col, true)
		if e != nil {
			p.errorf(p.line, e.col, e.msg)
			return m, false
		}
		if t.neg {
			if v.sym != "" {
				p.errorf(p.line, t.col, "cannot subtract symbol "+strconv.Quote(v.sym))
				return m, false
			}
			v.val = -v.val
		}
		if v.sym != "" {
			if m.Symbol != "" {
				p.errorf(p.line, t.col, "more than one symbol in memory operand")
				return m, false
			}
			m.Symbol = v.sym
		}
		m.Disp += v.val
	}
	return m, true
}
