package isa

import (
	"fmt"
	"regexp"
	"strings"
)

// glob is a compiled form-name pattern.
type glob struct {
	literal string // set when the pattern has no metacharacters
	re      *regexp.Regexp
	// evexToo: the pattern does not start with "{evex}", so it also matches
	// prefixed names without their prefix ("vaddpd xmm*" matches
	// "{evex} vaddpd xmm, xmm, xmm").
	evexToo bool
}

func (g *glob) match(name string) bool {
	if g.re == nil {
		return name == g.literal
	}
	if g.re.MatchString(name) {
		return true
	}
	return g.evexToo && strings.HasPrefix(name, "{evex} ") && g.re.MatchString(name[len("{evex} "):])
}

// compileGlob compiles a pattern with path.Match's syntax ('*', '?',
// '[...]' with '^' or '!' negation and ranges, '\' escapes), where '*' and
// '?' also match spaces and commas. The pattern is normalized like a form
// name first, so case and spacing do not matter.
func compileGlob(pattern string) (*glob, error) {
	p := NormalizeName(pattern)
	if p == "" {
		return nil, fmt.Errorf("glob %q: empty pattern", pattern)
	}
	if !strings.ContainsAny(p, `*?[\`) {
		return &glob{literal: p}, nil
	}
	var b strings.Builder
	b.WriteString("^")
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch c {
		case '*':
			b.WriteString(".*")
		case '?':
			b.WriteString(".")
		case '\\':
			if i+1 >= len(p) {
				return nil, fmt.Errorf("glob %q: trailing backslash", pattern)
			}
			i++
			b.WriteString(regexp.QuoteMeta(p[i : i+1]))
		case '[':
			end, class, err := globClass(p, i)
			if err != nil {
				return nil, fmt.Errorf("glob %q: %v", pattern, err)
			}
			b.WriteString(class)
			i = end
		default:
			b.WriteString(regexp.QuoteMeta(p[i : i+1]))
		}
	}
	b.WriteString("$")
	re, err := regexp.Compile(b.String())
	if err != nil {
		return nil, fmt.Errorf("glob %q: %v", pattern, err)
	}
	return &glob{re: re, evexToo: !strings.HasPrefix(p, "{")}, nil
}

// globClass translates the character class starting at p[start] == '[' and
// returns the index of its closing ']'.
func globClass(p string, start int) (end int, class string, err error) {
	var b strings.Builder
	b.WriteString("[")
	i := start + 1
	if i < len(p) && (p[i] == '^' || p[i] == '!') {
		b.WriteString("^")
		i++
	}
	n := 0
	for ; i < len(p); i++ {
		c := p[i]
		switch {
		case c == ']' && n > 0:
			b.WriteString("]")
			return i, b.String(), nil
		case c == '\\':
			if i+1 >= len(p) {
				return 0, "", fmt.Errorf("unterminated character class")
			}
			i++
			b.WriteString(regexp.QuoteMeta(p[i : i+1]))
		case c == '-' && n > 0 && i+1 < len(p) && p[i+1] != ']':
			if p[i+1] < p[i-1] {
				return 0, "", fmt.Errorf("bad range %q in character class", p[i-1:i+2])
			}
			b.WriteString("-")
		case c == '[' || c == ']':
			b.WriteString(`\` + string(c))
		default:
			b.WriteString(regexp.QuoteMeta(string(c)))
		}
		n++
	}
	return 0, "", fmt.Errorf("unterminated character class")
}
