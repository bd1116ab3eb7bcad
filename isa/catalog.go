package isa

//go:generate go run ./internal/gencatalog

import (
	"runtime/debug"
	"slices"
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

// The catalog is built one mnemonic at a time, on first use: parsing a
// small file needs the forms of a handful of mnemonics (well under a
// millisecond), while building all of them takes some 15 ms. All, Match
// and Stats build every mnemonic.
var catalog struct {
	indexOnce sync.Once
	mnems     map[string]*mnemonicEntry // every mnemonic; read-only once made

	allOnce sync.Once
	all     []*Form // sorted by name
	stats   CatalogStats
}

// mnemonicEntry is one mnemonic of the catalog: where its forms come from,
// and the forms, built on first use (formsOf).
type mnemonicEntry struct {
	mnemonic string
	rows     []csvForm     // its rows of the x86 table
	extra    []*Form       // forms added in code (extraForms)
	evex     []*evexFamily // EVEX families listing it, in table order

	once     sync.Once
	forms    []*Form // sorted by name
	byName   map[string]*Form
	evexN    int // EVEX forms generated
	evexDups int // generated EVEX forms dropped (their name was taken)
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
	buildAll()
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
	buildAll()
	return catalog.all
}

// Lookup returns the form with the given name. It accepts the canonical
// name (Form.Name) and is lenient about case, spacing around commas and
// masks, and alternative mnemonics the x86 table lists ("cmovc" for "cmovb",
// "sal" for "shl").
func Lookup(name string) (*Form, bool) {
	n := NormalizeName(name)
	prefix, mn, rest := splitFormName(n)
	if e := formsOf(mn); e != nil {
		if f, ok := e.byName[n]; ok {
			return f, true
		}
	}
	if c, ok := csvAliases[mn]; ok {
		if e := formsOf(c); e != nil {
			f, ok := e.byName[prefix+c+rest]
			return f, ok
		}
	}
	return nil, false
}

// ByMnemonic returns the forms of a mnemonic (Intel spelling, any case; an
// alternative mnemonic such as "jz" gives the forms of "je"), sorted by name.
func ByMnemonic(m string) []*Form {
	m = strings.ToLower(strings.Join(strings.Fields(m), " "))
	e := formsOf(m)
	if e == nil {
		if c, ok := csvAliases[m]; ok {
			e = formsOf(c)
		}
	}
	if e == nil {
		return nil
	}
	return e.forms
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
	var out []*Form
	for _, f := range All() {
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

// mnemonicIndex returns every mnemonic of the catalog with the sources of
// its forms, made on first use without building any form.
func mnemonicIndex() map[string]*mnemonicEntry {
	catalog.indexOnce.Do(func() {
		m := make(map[string]*mnemonicEntry, 2048)
		entry := func(mn string) *mnemonicEntry {
			e := m[mn]
			if e == nil {
				e = &mnemonicEntry{mnemonic: mn}
				m[mn] = e
			}
			return e
		}
		// The table is sorted by name, so a mnemonic's rows are adjacent.
		for lo := 0; lo < len(csvForms); {
			_, mn, _ := splitFormName(csvForms[lo].name)
			hi := lo + 1
			for hi < len(csvForms) {
				if _, m2, _ := splitFormName(csvForms[hi].name); m2 != mn {
					break
				}
				hi++
			}
			e := entry(mn)
			e.rows = csvForms[lo:hi:hi]
			lo = hi
		}
		for _, f := range extraForms() {
			e := entry(f.Mnemonic)
			e.extra = append(e.extra, f)
		}
		for i := range evexFamilies {
			fm := &evexFamilies[i]
			for _, mn := range strings.Fields(fm.mnems) {
				e := entry(mn)
				e.evex = append(e.evex, fm)
			}
		}
		catalog.mnems = m
	})
	return catalog.mnems
}

// formsOf returns a mnemonic (Form.Mnemonic) with its forms built, or nil
// when the catalog has no such mnemonic.
func formsOf(mn string) *mnemonicEntry {
	e := mnemonicIndex()[mn]
	if e != nil {
		e.once.Do(e.build)
	}
	return e
}

// build builds the forms of one mnemonic: its rows of the x86 table, the
// forms added in code, and the EVEX forms of its families (evexForms),
// each with the overrides applied and classified. Names only collide
// within a mnemonic, so building one mnemonic alone gives the forms
// building the whole catalog would.
func (e *mnemonicEntry) build() {
	forms := make([]*Form, 0, len(e.rows)+len(e.extra))
	for i := range e.rows {
		forms = append(forms, formFromCSV(&e.rows[i]))
	}
	forms = append(forms, e.extra...)
	existing := make(map[string]*Form, len(forms))
	for _, f := range forms {
		existing[f.Name()] = f
	}
	ev, dups := evexForms(e.mnemonic, e.evex, existing)
	e.evexN, e.evexDups = len(ev), dups
	forms = append(forms, ev...)

	e.byName = make(map[string]*Form, len(forms))
	for _, f := range forms {
		applyOverrides(f)
		f.Attrs |= classify(f)
		f.name = ""
		f.name = f.Name()
		e.byName[f.name] = f
	}
	sort.Slice(forms, func(i, j int) bool { return forms[i].name < forms[j].name })
	e.forms = slices.Clip(forms)
}

// buildAll builds every mnemonic's forms and the sorted list of all forms.
func buildAll() {
	catalog.allOnce.Do(func() {
		// Building allocates some 100k small objects that all stay live: a
		// collection in the middle would only scan them (a third of the time).
		defer debug.SetGCPercent(debug.SetGCPercent(-1))
		st := CatalogStats{ByEncoding: map[Encoding]int{}}
		var all []*Form
		for mn := range mnemonicIndex() {
			e := formsOf(mn)
			st.Table += len(e.rows)
			st.Extra += len(e.extra)
			st.EVEX += e.evexN
			st.EVEXDups += e.evexDups
			for _, f := range e.forms {
				st.ByEncoding[f.Encoding]++
			}
			all = append(all, e.forms...)
		}
		st.Total = len(all)
		sort.Slice(all, func(i, j int) bool { return all[i].name < all[j].name })
		catalog.all, catalog.stats = all, st
	})
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
