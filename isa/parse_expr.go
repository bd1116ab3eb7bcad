package isa

import (
	"math/bits"
	"strconv"
)

// exprValue is the value of an assembly expression: a constant plus at most
// one symbol added with coefficient +1 ("sym+8", "1b", "foo@PLT").
type exprValue struct {
	val int64
	sym string
}

// exprParser evaluates the constant expressions that appear in operands:
// numbers (decimal, 0x hex, 0b binary, leading-0 octal as GNU as reads it,
// h-suffixed hex in Intel syntax), character-free symbols, unary - + ~,
// binary * / % << >> + - & | ^ with C precedence, and parentheses.
type exprParser struct {
	s     string
	i     int
	base  int // column of s[0] (1-based)
	intel bool
	err   *exprErr
	// regHook, when set, is consulted for identifiers; it returns true if the
	// identifier is a register, which is an error inside an expression.
	depth int
}

type exprErr struct {
	col int
	msg string
}

func (p *exprParser) fail(at int, msg string) {
	if p.err == nil {
		p.err = &exprErr{p.base + at, msg}
	}
}

func (p *exprParser) skipSpace() {
	for p.i < len(p.s) && (p.s[p.i] == ' ' || p.s[p.i] == '\t') {
		p.i++
	}
}

// parseExpr parses the whole of s as an expression.
func parseExpr(s string, col int, intel bool) (exprValue, *exprErr) {
	p := &exprParser{s: s, base: col, intel: intel}
	v := p.binary(0)
	p.skipSpace()
	if p.err == nil && p.i < len(p.s) {
		p.fail(p.i, "unexpected "+quoteToken(p.s[p.i:])+" in expression")
	}
	return v, p.err
}

var binPrec = map[string]int{
	"|": 1, "^": 2, "&": 3, "<<": 4, ">>": 4, "+": 5, "-": 5, "*": 6, "/": 6, "%": 6,
}

func (p *exprParser) peekOp() string {
	p.skipSpace()
	if p.i >= len(p.s) {
		return ""
	}
	if p.i+1 < len(p.s) {
		if two := p.s[p.i : p.i+2]; two == "<<" || two == ">>" {
			return two
		}
	}
	switch c := p.s[p.i]; c {
	case '|', '^', '&', '+', '-', '*', '/', '%':
		return string(c)
	}
	return ""
}

func (p *exprParser) binary(minPrec int) exprValue {
	lhs := p.unary()
	for p.err == nil {
		op := p.peekOp()
		prec, ok := binPrec[op]
		if !ok || prec <= minPrec {
			return lhs
		}
		opAt := p.i
		p.i += len(op)
		rhs := p.binary(prec)
		if p.err != nil {
			return lhs
		}
		lhs = p.apply(op, opAt, lhs, rhs)
	}
	return lhs
}

func (p *exprParser) apply(op string, at int, a, b exprValue) exprValue {
	switch op {
	case "+":
		if a.sym != "" && b.sym != "" {
			p.fail(at, "cannot add two symbols")
			return a
		}
		if a.sym == "" {
			a.sym = b.sym
		}
		a.val += b.val
		return a
	case "-":
		if b.sym != "" {
			if a.sym == b.sym {
				return exprValue{val: a.val - b.val}
			}
			p.fail(at, "cannot subtract symbol "+strconv.Quote(b.sym))
			return a
		}
		a.val -= b.val
		return a
	}
	if a.sym != "" || b.sym != "" {
		p.fail(at, "operator "+strconv.Quote(op)+" needs constant operands")
		return a
	}
	x, y := a.val, b.val
	switch op {
	case "*":
		x *= y
	case "/", "%":
		if y == 0 {
			p.fail(at, "division by zero")
			return a
		}
		if y == -1 {
			// avoid the MinInt64 / -1 trap
			if op == "/" {
				x = -x
			} else {
				x = 0
			}
		} else if op == "/" {
			x /= y
		} else {
			x %= y
		}
	case "<<":
		if y < 0 || y > 63 {
			x = 0
		} else {
			x <<= uint(y)
		}
	case ">>":
		if y < 0 || y > 63 {
			x = 0
		} else {
			x >>= uint(y)
		}
	case "&":
		x &= y
	case "|":
		x |= y
	case "^":
		x ^= y
	}
	return exprValue{val: x}
}

func (p *exprParser) unary() exprValue {
	p.skipSpace()
	if p.i >= len(p.s) {
		p.fail(p.i, "missing expression")
		return exprValue{}
	}
	if p.depth > 100 {
		p.fail(p.i, "expression too deeply nested")
		return exprValue{}
	}
	switch c := p.s[p.i]; {
	case c == '-' || c == '+' || c == '~':
		at := p.i
		p.i++
		p.depth++
		v := p.unary()
		p.depth--
		if c == '+' {
			return v
		}
		if v.sym != "" {
			p.fail(at, "cannot negate symbol "+strconv.Quote(v.sym))
			return v
		}
		if c == '-' {
			v.val = -v.val
		} else {
			v.val = ^v.val
		}
		return v
	case c == '(':
		at := p.i
		p.i++
		p.depth++
		v := p.binary(0)
		p.depth--
		p.skipSpace()
		if p.i >= len(p.s) || p.s[p.i] != ')' {
			p.fail(at, "unbalanced \"(\"")
			return v
		}
		p.i++
		return v
	case c >= '0' && c <= '9':
		return p.number()
	case isIdentStart(c):
		at := p.i
		for p.i < len(p.s) && isIdentChar(p.s[p.i]) {
			p.i++
		}
		id := p.s[at:p.i]
		if _, ok := RegByName(id); ok || looksLikeRegister(id) {
			p.fail(at, "register "+strconv.Quote(id)+" in expression")
		}
		return exprValue{sym: id}
	}
	p.fail(p.i, "unexpected "+quoteToken(p.s[p.i:])+" in expression")
	return exprValue{}
}

// number parses a numeric literal or a local label reference ("1b", "2f").
func (p *exprParser) number() exprValue {
	at := p.i
	for p.i < len(p.s) && isIdentChar(p.s[p.i]) {
		p.i++
	}
	tok := p.s[at:p.i]
	v, sym, ok := parseNumber(tok, p.intel)
	if !ok {
		p.fail(at, "bad number "+strconv.Quote(tok))
	}
	return exprValue{val: v, sym: sym}
}

// parseNumber reads a numeric token. Local label references (digits followed
// by b or f) come back as sym.
func parseNumber(tok string, intel bool) (v int64, sym string, ok bool) {
	if tok == "" {
		return 0, "", false
	}
	n := len(tok)
	allDigits := func(s string, base int) bool {
		if s == "" {
			return false
		}
		for i := 0; i < len(s); i++ {
			c := lowerASCIIByte(s[i])
			var d int
			switch {
			case c >= '0' && c <= '9':
				d = int(c - '0')
			case c >= 'a' && c <= 'f':
				d = int(c-'a') + 10
			case c == '_':
				continue
			default:
				return false
			}
			if d >= base {
				return false
			}
		}
		return true
	}
	parse := func(s string, base int) (int64, bool) {
		var x uint64
		digits := 0
		for i := 0; i < len(s); i++ {
			c := lowerASCIIByte(s[i])
			if c == '_' {
				continue
			}
			var d uint64
			if c <= '9' {
				d = uint64(c - '0')
			} else {
				d = uint64(c-'a') + 10
			}
			hi, lo := bits.Mul64(x, uint64(base))
			if hi != 0 {
				return 0, false
			}
			var carry uint64
			x, carry = bits.Add64(lo, d, 0)
			if carry != 0 {
				return 0, false
			}
			digits++
		}
		return int64(x), digits > 0
	}
	switch {
	case n > 2 && tok[0] == '0' && (tok[1] == 'x' || tok[1] == 'X'):
		if !allDigits(tok[2:], 16) {
			return 0, "", false
		}
		v, ok = parse(tok[2:], 16)
		return v, "", ok
	case n > 2 && tok[0] == '0' && (tok[1] == 'b' || tok[1] == 'B') && allDigits(tok[2:], 2):
		v, ok = parse(tok[2:], 2)
		return v, "", ok
	case n >= 2 && (tok[n-1] == 'b' || tok[n-1] == 'f' || tok[n-1] == 'B' || tok[n-1] == 'F') && allDigits(tok[:n-1], 10):
		return 0, lowerASCII(tok), true
	case intel && n >= 2 && (tok[n-1] == 'h' || tok[n-1] == 'H') && allDigits(tok[:n-1], 16):
		v, ok = parse(tok[:n-1], 16)
		return v, "", ok
	case n > 1 && tok[0] == '0' && allDigits(tok, 8):
		v, ok = parse(tok[1:], 8)
		return v, "", ok
	case allDigits(tok, 10):
		v, ok = parse(tok, 10)
		return v, "", ok
	}
	return 0, "", false
}

func lowerASCIIByte(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

func isIdentStart(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c == '.'
}

func isIdentChar(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '.' || c == '$' || c == '@'
}

// looksLikeRegister reports whether an identifier is spelled like a register
// that does not exist (xmm32, k8, r16, ymm99): such names are reported as
// unknown registers rather than taken for symbols.
func looksLikeRegister(id string) bool {
	s := lowerASCII(id)
	for _, p := range []string{"xmm", "ymm", "zmm", "mm", "k", "r", "st"} {
		if len(s) > len(p) && s[:len(p)] == p {
			rest := s[len(p):]
			i := 0
			for i < len(rest) && rest[i] >= '0' && rest[i] <= '9' {
				i++
			}
			if i == 0 {
				continue
			}
			suf := rest[i:]
			if suf == "" || (p == "r" && (suf == "d" || suf == "w" || suf == "b" || suf == "l")) {
				return true
			}
		}
	}
	return false
}

// quoteToken quotes the token at the start of s for an error message.
func quoteToken(s string) string {
	end := 0
	for end < len(s) && s[end] != ' ' && s[end] != '\t' && s[end] != ',' {
		end++
		if end >= 24 {
			break
		}
	}
	if end == 0 && len(s) > 0 {
		end = 1
	}
	return strconv.Quote(s[:end])
}
