package isa

//go:generate go run ./internal/gencatalog

import (
	"runtime/debug"
	"sort"
	"strings"
	"sync"
)

// csvForm is one row of the generated table (zcatalog_table.go).
type csvForm struct {
	name     string // canonical name
	gnu      string // AT&T mnemonic
	opcode   string // encoding text
	access   string // "rw,r"
	features string // "avx,fma"
	size     uint16 // operand size in bits, 0 when the table gives none
}

// catalog is built once, on first use.
var catalog struct {
	once    sync.Once
	all     []*Form            // sorted by name
	byName  map[string]*Form   // canonical name -> form
	byMnem  map[string][]*Form // mnemonic -> forms, sorted by name
	aliases map[string]string  // alternative mnemonic -> catalog mnemonic
	stats   CatalogStats
}

// CatalogStats counts what went into the catalog.
type CatalogStats struct {
	Table      int // forms from golang.org/x/arch's x86 table
	Extra      int // forms added in code besides EVEX (rep-prefixed string operations)
	EVEX       int // EVEX forms generated in code
	EVEXDups   int // generated EVEX forms dropped because another form has the same name
	Total      int
	ByEncoding map[Encoding]int
}

// Stats reports how the catalog was assembled.
func Stats() CatalogStats {
	buildCatalog()
	s := catalog.stats
	s.ByEncoding = map[Encoding]int{}
	for e, n := range catalog.stats.ByEncoding {
		s.ByEncoding[e] = n
	}
	return s
}

// All returns every form in the catalog, sorted by name. The slice is shared:
// callers must not modify it or the forms.
func All() []*Form {
	buildCatalog()
	return catalog.all
}

// Lookup returns the form with the given name. It accepts the canonical
// name (Form.Name) and is lenient about case, spacing around commas and
// masks, and alternative mnemonics the x86 table lists ("cmovc" for "cmovb",
// "sal" for "shl").
func Lookup(name string) (*Form, bool) {
	buildCatalog()
	n := NormalizeName(name)
	if f, ok := catalog.byName[n]; ok {
		return f, true
	}
	prefix, mn, rest := splitFormName(n)
	if c, ok := catalog.aliases[mn]; ok {
		f, ok := catalog.byName[prefix+c+rest]
		return f, ok
	}
	return nil, false
}

// ByMnemonic returns the forms of a mnemonic (Intel spelling, any case; an
// alternative mnemonic such as "jz" gives the forms of "je"), sorted by name.
func ByMnemonic(m string) []*Form {
	buildCatalog()
	m = strings.ToLower(strings.Join(strings.Fields(m), " "))
	if fs, ok := catalog.byMnem[m]; ok {
		return fs
	}
	if c, ok := catalog.aliases[m]; ok {
		return catalog.byMnem[c]
	}
	return nil
}

// Match returns the forms whose canonical names match the glob, sorted by
// name. The glob syntax is path.Match's, except that '*' also matches spaces
// and commas, so "vfmadd*pd ymm*" and "vfmadd231pd *" work; matching ignores
// case and spacing like Lookup. A glob with metacharacters that does not
// itself start with "{evex}" also matches "{evex} "-prefixed names as if the
// prefix were absent, so "vfmadd231pd *" includes "{evex} vfmadd231pd ymm,
// ymm, ymm"; a glob without metacharacters matches exactly one name. A
// malformed glob is an error naming it.
func Match(glob string) ([]*Form, error) {
	g, err := compileGlob(glob)
	if err != nil {
		return nil, err
	}
	buildCatalog()
	var out []*Form
	for _, f := range catalog.all {
		if g.match(f.Name()) {
			out = append(out, f)
		}
	}
	return out, nil
}

// Supported reports whether a CPU with the given features can execute the
// form: every feature in f.Features must be present.
func (f *Form) Supported(has func(feature string) bool) bool {
	for _, feat := range f.Features {
		if !has(feat) {
			return false
		}
	}
	return true
}

// MissingFeatures returns the features of f that has reports absent, in
// f.Features order; nil when the form is supported.
func (f *Form) MissingFeatures(has func(feature string) bool) []string {
	var missing []string
	for _, feat := range f.Features {
		if !has(feat) {
			missing = append(missing, feat)
		}
	}
	return missing
}

// NormalizeName rewrites a form name to canonical spelling: lower case,
// single spaces, ", " between operands, " {k}" / " {k}{z}" after a masked
// operand, "{evex} " before the mnemonic.
func NormalizeName(s string) string {
	s = strings.ToLower(strings.TrimSpace(s))
	var b strings.Builder
	b.Grow(len(s) + 8)
	prefix := ""
	if strings.HasPrefix(s, "{evex}") {
		prefix = "{evex} "
		s = strings.TrimSpace(s[len("{evex}"):])
	}
	b.WriteString(prefix)
	// Mnemonic: up to the first space, except for the rep prefixes, which
	// are part of the mnemonic ("rep movsb").
	fields := strings.Fields(s)
	if len(fields) == 0 {
		return strings.TrimSpace(prefix)
	}
	mn := fields[0]
	rest := strings.TrimSpace(strings.TrimPrefix(s, mn))
	if isRepPrefix(mn) && rest != "" {
		f2 := strings.Fields(rest)
		mn += " " + f2[0]
		rest = strings.TrimSpace(strings.TrimPrefix(rest, f2[0]))
	}
	b.WriteString(mn)
	if rest == "" {
		return b.String()
	}
	for i, op := range strings.Split(rest, ",") {
		if i == 0 {
			b.WriteByte(' ')
		} else {
			b.WriteString(", ")
		}
		b.WriteString(normalizeOperand(op))
	}
	return b.String()
}

func isRepPrefix(s string) bool {
	return s == "rep" || s == "repe" || s == "repz" || s == "repne" || s == "repnz"
}

// normalizeOperand spells one operand kind canonically: "zmm{k}{z}" and
// "zmm {k} {z}" become "zmm {k}{z}".
func normalizeOperand(op string) string {
	op = strings.Join(strings.Fields(op), "")
	if i := strings.IndexByte(op, '{'); i > 0 {
		return op[:i] + " " + op[i:]
	}
	return op
}

// splitFormName splits a normalized name into the "{evex} " prefix, the
// mnemonic and the rest (starting with the space before the operands).
func splitFormName(n string) (prefix, mnemonic, rest string) {
	if strings.HasPrefix(n, "{evex} ") {
		prefix, n = "{evex} ", n[len("{evex} "):]
	}
	if i := strings.IndexByte(n, ' '); i >= 0 {
		if isRepPrefix(n[:i]) {
			if j := strings.IndexByte(n[i+1:], ' '); j >= 0 {
				return prefix, n[:i+1+j], n[i+1+j:]
			}
			return prefix, n, ""
		}
		return prefix, n[:i], n[i:]
	}
	return prefix, n, ""
}

func buildCatalog() { catalog.once.Do(build) }

func build() {
	// Building allocates some 100k small objects that all stay live: a
	// collection in the middle would only scan them (a third of the time).
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	var forms []*Form
	for i := range csvForms {
		forms = append(forms, formFromCSV(&csvForms[i]))
	}
	catalog.stats.Table = len(forms)
	extra := extraForms()
	catalog.stats.Extra = len(extra)
	forms = append(forms, extra...)

	byName := make(map[string]*Form, len(forms)*4)
	for _, f := range forms {
		byName[f.Name()] = f
	}
	ev, dups := evexForms(byName)
	catalog.stats.EVEX = len(ev)
	catalog.stats.EVEXDups = dups
	forms = append(forms, ev...)

	type named struct {
		name string
		f    *Form
	}
	sorted := make([]named, len(forms))
	for i, f := range forms {
		applyOverrides(f)
		f.Attrs |= classify(f)
		f.name = ""
		f.name = f.Name()
		sorted[i] = named{f.name, f}
	}
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].name < sorted[j].name })
	catalog.all = make([]*Form, len(sorted))
	catalog.byName = make(map[string]*Form, len(forms))
	catalog.byMnem = map[string][]*Form{}
	catalog.stats.ByEncoding = map[Encoding]int{}
	for i, n := range sorted {
		f := n.f
		catalog.all[i] = f
		catalog.byName[n.name] = f
		catalog.byMnem[f.Mnemonic] = append(catalog.byMnem[f.Mnemonic], f)
		catalog.stats.ByEncoding[f.Encoding]++
	}
	catalog.stats.Total = len(forms)
	catalog.aliases = make(map[string]string, len(csvAliases))
	for a, c := range csvAliases {
		catalog.aliases[a] = c
	}
}

// formFromCSV builds a form from a table row (access and features as the
// table gives them; overrides come later).
func formFromCSV(r *csvForm) *Form {
	_, mn, rest := splitFormName(r.name)
	f := &Form{Mnemonic: mn, Opcode: r.opcode, GNU: r.gnu}
	if strings.HasPrefix(r.opcode, "VEX.") {
		f.Encoding = VEX
	}
	var acc []string
	if r.access != "" {
		acc = strings.Split(r.access, ",")
	}
	if rest != "" {
		for i, k := range strings.Split(strings.TrimSpace(rest), ", ") {
			op := Operand{Kind: Kind(k)}
			if i < len(acc) {
				op.Access = parseAccess(acc[i])
			}
			f.Operands = append(f.Operands, op)
		}
	}
	if r.features != "" {
		f.Features = strings.Split(r.features, ",")
	}
	return f
}

// parseAccess parses "r", "w", "rw", "cw", "rcw".
func parseAccess(s string) Access {
	var a Access
	if strings.HasPrefix(s, "r") {
		a |= Read
		s = s[1:]
	}
	switch s {
	case "w":
		a |= Write
	case "cw":
		a |= CondWrite
	}
	return a
}

// Prepare builds the catalog now (it is otherwise built on first use);
// callers that know they will need it can start it early on another core.
func Prepare() { buildCatalog() }
