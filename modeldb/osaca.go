package modeldb

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"gopkg.in/yaml.v3"

	"portlab/isa"
)

// OSACAOptions control ImportOSACA.
type OSACAOptions struct {
	// DeriveMemory adds memory forms the file lacks but OSACA would derive
	// at analysis time: the register form's entry plus the load (store)
	// port pressure and load latency of the file's header. Such entries
	// are marked inferred.
	DeriveMemory bool
}

// OSACAReport says what an OSACA import mapped.
type OSACAReport struct {
	File    string
	Entries int // instruction forms in the file
	Mapped  int // entries mapped to at least one catalog form
	Forms   int // catalog forms imported directly
	Derived int // memory forms derived from a register form (DeriveMemory)
	// Conflicts counts catalog forms more than one entry matched; the most
	// specific entry (then the first) won.
	Conflicts int
	Unmapped  []UnmappedEntry
}

// UnmappedEntry is an OSACA entry no catalog form matched.
type UnmappedEntry struct {
	Line   int
	Form   string // OSACA name and operands, AT&T order
	Reason string
}

// Summary renders the report in a few lines, with up to n unmapped examples.
func (r *OSACAReport) Summary(n int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %d OSACA entries, %d mapped to %d catalog forms", r.File, r.Entries, r.Mapped, r.Forms)
	if r.Derived > 0 {
		fmt.Fprintf(&b, ", %d memory forms derived from register forms", r.Derived)
	}
	if r.Conflicts > 0 {
		fmt.Fprintf(&b, ", %d forms matched by several entries (most specific kept)", r.Conflicts)
	}
	b.WriteString("\n")
	if len(r.Unmapped) > 0 {
		fmt.Fprintf(&b, "%d entries not mapped to any catalog form:\n", len(r.Unmapped))
		for i, u := range r.Unmapped {
			if i == n {
				fmt.Fprintf(&b, "  ... and %d more\n", len(r.Unmapped)-n)
				break
			}
			fmt.Fprintf(&b, "  %s:%d: %s: %s\n", r.File, u.Line, u.Form, u.Reason)
		}
	}
	return b.String()
}

// ImportOSACA reads an OSACA machine file (AT&T operand order, name
// lists, operand classes) and maps every entry to each catalog form it
// describes: a gpr register matches r8/r16/r32/r64 and fixed registers,
// a memory operand matches the mnemonic's memory kinds (broadcasts only
// when the entry says so), an immediate imm8/16/32/64, an identifier a
// branch target, mask: true a masked EVEX destination ({k} and {k}{z},
// only {k}{z} with zeroing: true), and a VEX entry also matches the
// {evex} form with the same operands. The header (ports, load latency,
// load/store port pressure, widths) is kept. Entries no form matches are
// listed in the report, not dropped silently.
func ImportOSACA(path string, opt OSACAOptions) (*Model, *OSACAReport, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, err
	}
	return ParseOSACA(path, data, opt)
}

type osacaEntry struct {
	line      int
	names     []string
	ops       []OSACAOperand
	latency   float64
	tp        float64
	uops      float64
	pp        PortPressure
	badReason string
}

// ParseOSACA is ImportOSACA on file contents; name is used in messages and
// in the provenance ("osaca:<base name>").
func ParseOSACA(name string, data []byte, opt OSACAOptions) (*Model, *OSACAReport, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, nil, yamlError(name, err)
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return nil, nil, fmt.Errorf("%s: not an OSACA machine file (want a mapping with ports and instruction_forms)", name)
	}
	p := &parser{file: name, m: &Model{}}
	formsNode := p.model(doc.Content[0])
	if len(p.problems) > 0 {
		return nil, nil, &LoadError{File: name, Problems: p.problems}
	}
	m := p.m
	if formsNode == nil || formsNode.Kind != yaml.SequenceNode {
		return nil, nil, fmt.Errorf("%s: no instruction_forms list", name)
	}
	from := "osaca:" + filepath.Base(name)
	if v, ok := m.Extra["osaca_version"]; ok {
		from += fmt.Sprintf(" (OSACA %v)", v)
	}
	m.Provenance = &Provenance{Source: SourceImported, From: from, Date: time.Now().UTC().Format("2006-01-02")}
	if m.Name == "" {
		m.Name = strings.TrimSpace(m.MicroArchitecture + " (imported from OSACA)")
	}
	rep := &OSACAReport{File: name}

	var entries []*osacaEntry
	for _, item := range formsNode.Content {
		rep.Entries++
		e := parseOSACAEntry(item, p.portSet)
		entries = append(entries, e)
	}

	type match struct {
		entry *osacaEntry
		score int
	}
	best := map[*isa.Form]match{}
	var order []*isa.Form
	for _, e := range entries {
		if e.badReason != "" {
			rep.Unmapped = append(rep.Unmapped, UnmappedEntry{Line: e.line, Form: osacaString(e), Reason: e.badReason})
			continue
		}
		n := 0
		var reasons []string
		for _, nm := range e.names {
			cands := osacaCandidates(nm)
			if len(cands) == 0 {
				reasons = append(reasons, fmt.Sprintf("the catalog has no mnemonic %q", nm))
				continue
			}
			found := false
			for _, f := range cands {
				score, ok := matchOSACA(f, e.ops)
				if !ok {
					continue
				}
				found = true
				n++
				old, seen := best[f]
				if !seen {
					order = append(order, f)
					best[f] = match{e, score}
				} else {
					if old.entry != e {
						rep.Conflicts++
					}
					if score > old.score {
						best[f] = match{e, score}
					}
				}
			}
			if !found {
				reasons = append(reasons, fmt.Sprintf("no catalog form of %q has operands (%s)", nm, opsString(e.ops)))
			}
		}
		if n == 0 {
			if len(reasons) == 0 {
				reasons = []string{"no name"}
			}
			rep.Unmapped = append(rep.Unmapped, UnmappedEntry{Line: e.line, Form: osacaString(e), Reason: strings.Join(reasons, "; ")})
			continue
		}
		rep.Mapped++
	}
	for _, f := range order {
		e := best[f].entry
		m.Forms = append(m.Forms, &Entry{
			Form:         f.Name(),
			Uops:         e.uops,
			Latency:      e.latency,
			Throughput:   e.tp,
			PortPressure: clonePressure(e.pp),
			Flags:        catalogFlags(f),
		})
	}
	rep.Forms = len(m.Forms)
	m.Reindex()
	if opt.DeriveMemory {
		rep.Derived = deriveMemoryForms(m, from)
	}
	m.SortForms()
	m.Reindex()
	return m, rep, nil
}

func osacaString(e *osacaEntry) string {
	return OSACAForm{Name: strings.Join(e.names, "|"), Operands: e.ops}.String()
}

func opsString(ops []OSACAOperand) string {
	parts := make([]string, len(ops))
	for i, o := range ops {
		parts[i] = o.String()
	}
	return strings.Join(parts, ", ")
}

func parseOSACAEntry(item *yaml.Node, ports map[string]bool) *osacaEntry {
	e := &osacaEntry{line: item.Line}
	if item.Kind != yaml.MappingNode {
		e.badReason = "not a mapping"
		return e
	}
	p := &parser{file: "", m: &Model{}}
	for i := 0; i+1 < len(item.Content); i += 2 {
		k, v := item.Content[i].Value, item.Content[i+1]
		switch k {
		case "name":
			switch v.Kind {
			case yaml.ScalarNode:
				e.names = []string{strings.ToLower(v.Value)}
			case yaml.SequenceNode:
				for _, x := range v.Content {
					e.names = append(e.names, strings.ToLower(x.Value))
				}
			}
		case "operands":
			if v.Kind == yaml.SequenceNode {
				for _, o := range v.Content {
					op, err := decodeOSACAOperand(o)
					if err != nil {
						e.badReason = err.Error()
					}
					e.ops = append(e.ops, op)
				}
			}
		case "latency":
			e.latency = p.num(v, k)
		case "throughput":
			e.tp = p.num(v, k)
		case "uops":
			e.uops = p.num(v, k)
		case "port_pressure":
			e.pp = p.pressure(v, k)
		}
	}
	if len(p.problems) > 0 && e.badReason == "" {
		e.badReason = p.problems[0].Msg
	}
	for _, u := range e.pp {
		for _, q := range u.Ports {
			if !ports[q] && e.badReason == "" {
				e.badReason = fmt.Sprintf("unknown port %q", q)
			}
		}
	}
	if len(e.names) == 0 && e.badReason == "" {
		e.badReason = "entry without a name"
	}
	return e
}

var gnuIndex struct {
	once sync.Once
	m    map[string][]*isa.Form
}

// osacaCandidates returns the catalog forms an OSACA mnemonic may name:
// the Intel mnemonic's forms and the forms whose AT&T mnemonic it is
// ("addq", "vcvtsi2sdl").
func osacaCandidates(name string) []*isa.Form {
	gnuIndex.once.Do(func() {
		gnuIndex.m = map[string][]*isa.Form{}
		for _, f := range isa.All() {
			if f.GNU != "" && f.GNU != f.Mnemonic {
				gnuIndex.m[f.GNU] = append(gnuIndex.m[f.GNU], f)
			}
		}
	})
	seen := map[*isa.Form]bool{}
	var out []*isa.Form
	if a, ok := osacaAliases[name]; ok {
		for _, f := range isa.ByMnemonic(a.mnemonic) {
			if a.keep(f) && !seen[f] {
				seen[f] = true
				out = append(out, f)
			}
		}
	}
	for _, f := range isa.ByMnemonic(name) {
		if !seen[f] {
			seen[f] = true
			out = append(out, f)
		}
	}
	for _, f := range gnuIndex.m[name] {
		if !seen[f] {
			seen[f] = true
			out = append(out, f)
		}
	}
	return out
}

// osacaAlias maps an AT&T mnemonic OSACA uses to the Intel mnemonic's
// forms it covers.
type osacaAlias struct {
	mnemonic string
	keep     func(*isa.Form) bool
}

// sourceKind keeps forms whose last (source) operand has one of the kinds.
func sourceKind(kinds ...isa.Kind) func(*isa.Form) bool {
	return func(f *isa.Form) bool {
		if len(f.Operands) == 0 {
			return false
		}
		k := f.Operands[len(f.Operands)-1].Kind
		for _, x := range kinds {
			if k == x {
				return true
			}
		}
		return false
	}
}

// osacaAliases are AT&T mnemonics without an Intel twin of the same name:
// the sign/zero extensions (movsbl -> movsx r32, r8; OSACA drops the
// destination suffix) and movabs.
var osacaAliases = map[string]osacaAlias{
	"movsb":  {"movsx", sourceKind(isa.KindR8, isa.KindM8)},
	"movsw":  {"movsx", sourceKind(isa.KindR16, isa.KindM16)},
	"movsl":  {"movsxd", sourceKind(isa.KindR32, isa.KindM32)},
	"movslq": {"movsxd", sourceKind(isa.KindR32, isa.KindM32)},
	"movzb":  {"movzx", sourceKind(isa.KindR8, isa.KindM8)},
	"movzw":  {"movzx", sourceKind(isa.KindR16, isa.KindM16)},
	"movabs": {"mov", func(f *isa.Form) bool {
		for _, op := range f.Operands {
			if op.Kind == isa.KindImm64 || op.Kind == isa.KindMoffs {
				return true
			}
		}
		return false
	}},
}

var gprKinds = map[isa.Kind]bool{isa.KindR8: true, isa.KindR16: true, isa.KindR32: true, isa.KindR64: true}

// isFixedGPR reports whether a kind is a fixed general register ("al", "cl", "rax").
func isFixedGPR(k isa.Kind) bool {
	return !gprKinds[k] && gprWidth(string(k)) != ""
}

// gprWidth returns the register kind of a general register name ("eax" -> r32).
func gprWidth(r string) isa.Kind {
	switch r {
	case "al", "bl", "cl", "dl", "ah", "bh", "ch", "dh", "sil", "dil", "spl", "bpl":
		return isa.KindR8
	case "ax", "bx", "cx", "dx", "si", "di", "sp", "bp":
		return isa.KindR16
	case "eax", "ebx", "ecx", "edx", "esi", "edi", "esp", "ebp":
		return isa.KindR32
	case "rax", "rbx", "rcx", "rdx", "rsi", "rdi", "rsp", "rbp":
		return isa.KindR64
	}
	if strings.HasPrefix(r, "r") && len(r) > 1 && r[1] >= '0' && r[1] <= '9' {
		switch r[len(r)-1] {
		case 'b':
			return isa.KindR8
		case 'w':
			return isa.KindR16
		case 'd':
			return isa.KindR32
		}
		return isa.KindR64
	}
	return ""
}

// matchOSACA reports whether an OSACA operand list (AT&T order) describes
// the form, and how specifically (higher is more specific).
func matchOSACA(f *isa.Form, ops []OSACAOperand) (int, bool) {
	fops := f.Operands
	if len(ops) == len(fops)-1 && len(fops) > 0 && fops[len(fops)-1].Kind == isa.KindConst1 {
		// AT&T writes a shift by one without its count ("shl %rax").
		fops = fops[:len(fops)-1]
	}
	if len(ops) != len(fops) {
		return 0, false
	}
	score := 0
	n := len(ops)
	for i, o := range ops {
		j := n - 1 - i
		if f.Mnemonic == "enter" {
			j = i
		}
		s, ok := matchOperand(o, fops[j])
		if !ok {
			return 0, false
		}
		score += s
	}
	if f.EVEXPrefix {
		// An OSACA entry names the instruction, not its encoding; prefer the
		// VEX form when both exist (they score alike otherwise).
		score--
	}
	return score, true
}

func matchOperand(o OSACAOperand, op isa.Operand) (int, bool) {
	k := op.Kind
	switch o.Class {
	case "memory":
		if !k.IsMemory() || k.IsBroadcast() != o.Broadcast {
			return 0, false
		}
		return 2, true
	case "immediate":
		if !k.IsImmediate() {
			return 0, false
		}
		return 2, true
	case "identifier":
		if k != isa.KindRel8 && k != isa.KindRel32 && k != "rel16" {
			return 0, false
		}
		return 2, true
	case "register":
	default:
		return 0, false
	}
	if k.IsMemory() || k.IsImmediate() || k == isa.KindRel8 || k == isa.KindRel32 {
		return 0, false
	}
	if o.Mask != op.Masked || (o.Zeroing && !op.Zeroing) {
		return 0, false
	}
	score := 0
	if o.Mask {
		score++
		if o.Zeroing == op.Zeroing {
			score++
		}
	}
	switch name := o.Name; name {
	case "*", "":
		return score + 1, true
	case "gpr":
		if gprKinds[k] || isFixedGPR(k) {
			return score + 2, true
		}
	case "xmm", "ymm", "zmm", "k", "mm", "st":
		if string(k) == name || (name == "xmm" && k == "xmm0") {
			return score + 2, true
		}
	default:
		if string(k) == name {
			return score + 3, true
		}
		if w := gprWidth(name); w != "" && k == w {
			return score + 1, true
		}
	}
	return 0, false
}

// catalogFlags returns the flags the catalog knows: may-load and may-store
// from how the form touches memory (MemAccessOf), serializing from the
// form's attributes.
func catalogFlags(f *isa.Form) []string {
	var out []string
	acc := MemAccessOf(f)
	load, store := acc.Loads(), acc.Stores()
	if load {
		out = append(out, FlagMayLoad)
	}
	if store {
		out = append(out, FlagMayStore)
	}
	if f.Has(isa.AttrSerializing) {
		out = append(out, FlagSerializing)
	}
	return out
}

func clonePressure(pp PortPressure) PortPressure {
	if pp == nil {
		return PortPressure{}
	}
	out := make(PortPressure, len(pp))
	for i, u := range pp {
		out[i] = PortUse{Cycles: u.Cycles, Ports: append([]string(nil), u.Ports...)}
	}
	return out
}

// registerCounterpart returns the catalog form with the memory operand at
// index i replaced by a register of the same width, and the register
// class used ("gpr", "xmm", ...), among those accepted by has.
func registerCounterpart(f *isa.Form, i int, has func(string) bool) (*isa.Form, string) {
	k := f.Operands[i].Kind
	var kinds []isa.Kind
	switch k {
	case isa.KindM8:
		kinds = []isa.Kind{isa.KindR8}
	case isa.KindM16:
		kinds = []isa.Kind{isa.KindR16, isa.KindXMM}
	case isa.KindM32:
		kinds = []isa.Kind{isa.KindR32, isa.KindXMM}
	case isa.KindM64:
		kinds = []isa.Kind{isa.KindR64, isa.KindXMM, isa.KindMM}
	case isa.KindM128:
		kinds = []isa.Kind{isa.KindXMM}
	case isa.KindM256:
		kinds = []isa.Kind{isa.KindYMM}
	case isa.KindM512:
		kinds = []isa.Kind{isa.KindZMM}
	case isa.KindM16B, isa.KindM32B, isa.KindM64B:
		// A broadcast stands for a full vector of the destination's width.
		for _, op := range f.Operands {
			if op.Kind == isa.KindXMM || op.Kind == isa.KindYMM || op.Kind == isa.KindZMM {
				kinds = []isa.Kind{op.Kind}
				break
			}
		}
	}
	for _, rk := range kinds {
		name := f.WithKind(i, rk).Name()
		if !has(name) {
			continue
		}
		rf, ok := isa.Lookup(name)
		if !ok {
			continue
		}
		class := string(rk)
		if gprKinds[rk] {
			class = "gpr"
		}
		return rf, class
	}
	return nil, ""
}

// MemoryPressure returns the load (store) port pressure for a register
// class: the matching rule, else the "*" rule, else the default.
func MemoryPressure(rules []MemoryRule, def PortPressure, class string) PortPressure {
	for _, r := range rules {
		if r.Class == class {
			return r.PortPressure
		}
	}
	for _, r := range rules {
		if r.Class == "*" {
			return r.PortPressure
		}
	}
	return def
}

// deriveMemoryForms adds, for catalog forms with one memory operand the
// model lacks, the register form's entry plus a load (and/or store), as
// OSACA does when it meets such a form. It returns how many it added.
func deriveMemoryForms(m *Model, from string) int {
	added := 0
	var newEntries []*Entry
	for _, f := range isa.All() {
		if _, ok := m.Lookup(f.Name()); ok {
			continue
		}
		mi := -1
		for i, op := range f.Operands {
			if op.Kind.IsMemory() {
				if mi >= 0 {
					mi = -2
					break
				}
				mi = i
			}
		}
		if mi < 0 || f.Operands[mi].Kind == isa.KindM || f.Operands[mi].Kind == isa.KindMoffs {
			continue
		}
		rf, class := registerCounterpart(f, mi, func(n string) bool { _, ok := m.Lookup(n); return ok })
		if rf == nil {
			continue
		}
		re, _ := m.Lookup(rf.Name())
		acc := f.Operands[mi].Access
		load := acc&isa.Read != 0
		store := acc&(isa.Write|isa.CondWrite) != 0
		pp := clonePressure(re.PortPressure)
		lat := re.Latency
		uops := re.Uops
		var what []string
		if load {
			lp := MemoryPressure(m.LoadThroughput, m.LoadPorts, class)
			if len(lp) == 0 {
				continue
			}
			pp = append(pp, clonePressure(lp)...)
			if ll, ok := m.LoadLatency[class]; ok {
				lat += ll
			}
			if uops > 0 && !m.HiddenLoads {
				uops++
			}
			what = append(what, "load")
		}
		if store {
			sp := MemoryPressure(m.StoreThroughput, m.StorePorts, class)
			if len(sp) == 0 {
				continue
			}
			pp = append(pp, clonePressure(sp)...)
			if uops > 0 {
				uops++
			}
			what = append(what, "store")
		}
		tp := re.Throughput
		if t := pressureBound(m, pp); t > tp {
			tp = t
		}
		newEntries = append(newEntries, &Entry{
			Form: f.Name(), Uops: uops, Latency: lat, Throughput: tp, PortPressure: pp,
			Flags: catalogFlags(f),
			Provenance: &Provenance{Source: SourceInferred, From: from,
				Note: fmt.Sprintf("derived as OSACA does: %q + %s", rf.Name(), strings.Join(what, " + "))},
		})
		added++
	}
	for _, e := range newEntries {
		m.Put(e)
	}
	return added
}

// pressureBound is the throughput bound a port pressure alone imposes.
func pressureBound(m *Model, pp PortPressure) float64 {
	b, err := Balance(m.Ports, pp)
	if err != nil {
		return 0
	}
	return b.Cycles
}
