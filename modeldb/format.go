package modeldb

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"portlab/internal/fsutil"
	"portlab/isa"
)

// The file format is OSACA's machine file with portlab's additions:
//
//	name: Zen 4 (measured on KVM guest)        # portlab
//	micro_architecture: AMD Zen4               # OSACA
//	llvm_cpu: znver4                           # portlab
//	provenance: {source: measured, host: ..., date: ...}
//	dispatched_uops_per_cycle: 6               # OSACA
//	load_latency: {gpr: 4, ymm: 7}             # OSACA
//	load_throughput_default: [[1, '23']]       # OSACA
//	ports: ['0', '1', '2', '3', '4', '5']      # OSACA
//	instruction_forms:
//	  - form: vfmadd231pd ymm, ymm, m256       # portlab: the key
//	    name: vfmadd231pd                      # OSACA: mnemonic and AT&T-order
//	    operands: [{class: memory, ...}, ...]  #   operands, derived from form
//	    uops: 2
//	    latency: 11                            # the largest pair
//	    latencies: [{from: '2', to: '0', cycles: 11}]
//	    throughput: 0.5                        # cycles per instruction
//	    port_pressure: [[1, '01'], [1, '23']]  # OSACA: [cycles, ports]
//	    flags: [may-load]
//	    provenance: {source: measured, confidence: high, fit_error: 0.01}
//
// A port group is written as one string when every port of the model has a
// one-character name ('015' is ports 0, 1, 5, as in OSACA), else as a list
// (['FP0', 'FP1']). Entries without provenance inherit the model's.
// Unknown top-level keys are kept (Model.Extra); unknown entry keys are
// errors (a typo must not vanish).

// OSACAForm is an instruction form as OSACA names it: a mnemonic and
// operand classes in AT&T order.
type OSACAForm struct {
	Name     string
	Operands []OSACAOperand
}

// OSACAOperand is one operand of an OSACA instruction form.
type OSACAOperand struct {
	// Class is "register", "memory", "immediate" or "identifier".
	Class string
	// Name is the register class of a register operand ("gpr", "xmm",
	// "ymm", "zmm", "k", "mm", "*") or a register ("cl", "rax").
	Name string
	// Mask and Zeroing mark an EVEX destination with an opmask ({k}) and
	// zeroing ({z}).
	Mask    bool
	Zeroing bool
	// Broadcast marks an embedded-broadcast memory operand ({1toN}).
	Broadcast bool
	// Imd is the immediate type ("int", "double").
	Imd string
}

// String renders the operand compactly ("ymm", "mem", "imm", "zmm{k}").
func (o OSACAOperand) String() string {
	switch o.Class {
	case "register":
		s := o.Name
		if o.Mask {
			s += "{k}"
		}
		if o.Zeroing {
			s += "{z}"
		}
		return s
	case "memory":
		if o.Broadcast {
			return "mem{bcst}"
		}
		return "mem"
	case "immediate":
		return "imm"
	case "identifier":
		return "label"
	}
	return o.Class
}

// String renders the form as "vfmadd231pd mem, ymm, ymm" (AT&T order).
func (f OSACAForm) String() string {
	ops := make([]string, len(f.Operands))
	for i, o := range f.Operands {
		ops[i] = o.String()
	}
	if len(ops) == 0 {
		return f.Name
	}
	return f.Name + " " + strings.Join(ops, ", ")
}

// MemoryRule is OSACA's port pressure of a load (store) by the register
// class of its destination (source).
type MemoryRule struct {
	Class        string // "gpr", "xmm", "ymm", "zmm", "mm" or "*"
	PortPressure PortPressure
}

// LoadOptions control how a model file is read.
type LoadOptions struct {
	// Lenient keeps entries whose forms the catalog lacks (models written
	// by other tools, or for a newer catalog), reporting them through Warn
	// instead of failing.
	Lenient bool
	// Warn receives warnings; nil discards them.
	Warn func(msg string)
}

// Problem is one thing wrong with a model file.
type Problem struct {
	Line  int    // 1-based line in the file, 0 when unknown
	Entry int    // 1-based index in instruction_forms, 0 for the header
	Form  string // the entry's form as written
	Msg   string
}

// LoadError lists what is wrong with a model file.
type LoadError struct {
	File     string
	Problems []Problem
}

// maxListedProblems caps how many problems an error message spells out.
const maxListedProblems = 20

func (p Problem) format(file string) string {
	var b strings.Builder
	b.WriteString(file)
	if p.Line > 0 {
		fmt.Fprintf(&b, ":%d", p.Line)
	}
	b.WriteString(": ")
	if p.Entry > 0 {
		fmt.Fprintf(&b, "entry %d", p.Entry)
		if p.Form != "" {
			fmt.Fprintf(&b, " (form %q)", p.Form)
		}
		b.WriteString(": ")
	}
	b.WriteString(p.Msg)
	return b.String()
}

// Error lists the problems, one per line, at most maxListedProblems.
func (e *LoadError) Error() string {
	var lines []string
	for i, p := range e.Problems {
		if i == maxListedProblems {
			lines = append(lines, fmt.Sprintf("... and %d more problems", len(e.Problems)-i))
			break
		}
		lines = append(lines, p.format(e.File))
	}
	return strings.Join(lines, "\n")
}

// Load reads and validates a model file strictly: every form must be in
// the catalog.
func Load(path string) (*Model, error) { return LoadFile(path, LoadOptions{}) }

// LoadFile reads and validates a model file. Files ending in .gz, or
// starting with the gzip magic, are decompressed.
func LoadFile(path string, opt LoadOptions) (*Model, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Parse(path, data, opt)
}

// Parse reads and validates a model from YAML text; name is used in errors.
// Form names are canonicalised ("vaddpd ymm,ymm,ymm" becomes "vaddpd ymm,
// ymm, ymm"). It reports unknown ports, negative numbers, duplicate forms,
// forms the catalog lacks (warnings when opt.Lenient), unknown keys and
// flags, and operand latencies naming operands the form does not have.
func Parse(name string, data []byte, opt LoadOptions) (*Model, error) {
	data, err := gunzipIfNeeded(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, yamlError(name, err)
	}
	p := &parser{file: name, opt: opt, m: &Model{}}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) == 0 {
		return nil, fmt.Errorf("%s: empty model file", name)
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		return nil, fmt.Errorf("%s:%d: a model is a mapping (ports, instruction_forms, ...), not a %s", name, root.Line, kindName(root))
	}
	forms := p.model(root)
	p.entries(forms)
	if len(p.problems) > 0 {
		return nil, &LoadError{File: name, Problems: p.problems}
	}
	p.m.Reindex()
	return p.m, nil
}

// gunzipIfNeeded decompresses gzip data (by its magic number).
func gunzipIfNeeded(data []byte) ([]byte, error) {
	if len(data) < 2 || data[0] != 0x1f || data[1] != 0x8b {
		return data, nil
	}
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	return io.ReadAll(zr)
}

func cleanYAMLErr(err error) string { return strings.TrimPrefix(err.Error(), "yaml: ") }

// yamlError names the file and line of a YAML syntax error:
// "model.yml:12: mapping values are not allowed in this context".
func yamlError(name string, err error) error {
	s := cleanYAMLErr(err)
	if rest, ok := strings.CutPrefix(s, "line "); ok {
		if i := strings.Index(rest, ": "); i > 0 {
			return fmt.Errorf("%s:%s: %s", name, rest[:i], rest[i+2:])
		}
	}
	return fmt.Errorf("%s: %s", name, s)
}

func kindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "mapping"
	case yaml.SequenceNode:
		return "list"
	case yaml.ScalarNode:
		return "scalar"
	case yaml.AliasNode:
		return "alias"
	}
	return "document"
}

type parser struct {
	file     string
	opt      LoadOptions
	m        *Model
	problems []Problem
	portSet  map[string]bool
	// entry context
	entry int
	form  string
}

func (p *parser) errorf(n *yaml.Node, format string, args ...any) {
	line := 0
	if n != nil {
		line = n.Line
	}
	p.problems = append(p.problems, Problem{Line: line, Entry: p.entry, Form: p.form, Msg: fmt.Sprintf(format, args...)})
}

func (p *parser) warnf(n *yaml.Node, format string, args ...any) {
	if p.opt.Warn == nil {
		return
	}
	line := 0
	if n != nil {
		line = n.Line
	}
	p.opt.Warn(Problem{Line: line, Entry: p.entry, Form: p.form, Msg: fmt.Sprintf(format, args...)}.format(p.file))
}

func isNull(n *yaml.Node) bool {
	return n == nil || (n.Kind == yaml.ScalarNode && (n.Tag == "!!null" || n.Value == "~" || (n.Value == "" && n.Style == 0)))
}

func (p *parser) str(n *yaml.Node, key string) string {
	if isNull(n) {
		return ""
	}
	if n.Kind != yaml.ScalarNode {
		p.errorf(n, "%s: want a string, got a %s", key, kindName(n))
		return ""
	}
	return n.Value
}

// num reads a number; null is 0. Negative numbers are errors unless
// allowNeg.
func (p *parser) num(n *yaml.Node, key string) float64 {
	if isNull(n) {
		return 0
	}
	if n.Kind != yaml.ScalarNode {
		p.errorf(n, "%s: want a number, got a %s", key, kindName(n))
		return 0
	}
	v, err := strconv.ParseFloat(strings.TrimSpace(n.Value), 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		p.errorf(n, "%s: %q is not a number", key, n.Value)
		return 0
	}
	if v < 0 {
		p.errorf(n, "%s: negative value %v", key, v)
		return 0
	}
	return v
}

// addressing reads an entry's per-address-shape costs:
// [{shape: 'base+index+disp', latency: 2, throughput: 0.5}, ...], each
// with its port_pressure where measured.
func (p *parser) addressing(v *yaml.Node, ports map[string]bool) []AddressCost {
	var out []AddressCost
	p.listOfMaps(v, "addressing", "{shape, latency, throughput, port_pressure}", func(n *yaml.Node, fields map[string]*yaml.Node) {
		a := AddressCost{Shape: p.str(fields["shape"], "addressing.shape"),
			Latency: p.num(fields["latency"], "addressing.latency"), Throughput: p.num(fields["throughput"], "addressing.throughput")}
		if pp := fields["port_pressure"]; pp != nil {
			a.PortPressure = p.pressure(pp, "addressing.port_pressure")
			p.knownPorts(pp, "addressing.port_pressure", a.PortPressure, ports)
		}
		if !isa.ValidAddressShape(a.Shape) {
			p.errorf(n, "addressing: %q is not an address shape (base, index or index*s, disp joined by '+', or rip+disp)", a.Shape)
			return
		}
		out = append(out, a)
	})
	return out
}

// knownPorts reports every port of pp the model lacks, at node v.
func (p *parser) knownPorts(v *yaml.Node, key string, pp PortPressure, ports map[string]bool) {
	for _, u := range pp {
		for _, q := range u.Ports {
			if !ports[q] {
				p.errorf(v, "%s: unknown port %q (model ports: %s)", key, q, strings.Join(p.m.Ports, " "))
			}
		}
	}
}

// listOfMaps reads a list of flat mappings with the keys named in want
// ("{from, to, cycles}"): each element's fields go to each (missing ones
// nil, which str and num read as empty); unknown keys and elements of
// another kind are errors naming the list.
func (p *parser) listOfMaps(v *yaml.Node, list, want string, each func(elem *yaml.Node, fields map[string]*yaml.Node)) {
	if isNull(v) {
		return
	}
	if v.Kind != yaml.SequenceNode {
		p.errorf(v, "%s: want a list of %s", list, want)
		return
	}
	keys := strings.Split(strings.Trim(want, "{}"), ", ")
	for _, n := range v.Content {
		if n.Kind != yaml.MappingNode {
			p.errorf(n, "%s: each element is %s", list, want)
			continue
		}
		fields := map[string]*yaml.Node{}
		for j := 0; j+1 < len(n.Content); j += 2 {
			k := n.Content[j].Value
			if !slices.Contains(keys, k) {
				p.errorf(n.Content[j], "%s: unknown key %q", list, k)
				continue
			}
			fields[k] = n.Content[j+1]
		}
		each(n, fields)
	}
}

func (p *parser) integer(n *yaml.Node, key string) int {
	v := p.num(n, key)
	if v != math.Trunc(v) {
		p.errorf(n, "%s: want a whole number, got %v", key, v)
	}
	return int(v)
}

func (p *parser) boolean(n *yaml.Node, key string) bool {
	if isNull(n) {
		return false
	}
	var b bool
	if err := n.Decode(&b); err != nil {
		p.errorf(n, "%s: want true or false, got %q", key, n.Value)
	}
	return b
}

func (p *parser) intMap(n *yaml.Node, key string) map[string]int {
	if isNull(n) {
		return nil
	}
	if n.Kind != yaml.MappingNode {
		p.errorf(n, "%s: want a mapping, got a %s", key, kindName(n))
		return nil
	}
	out := map[string]int{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		out[n.Content[i].Value] = p.integer(n.Content[i+1], key+"."+n.Content[i].Value)
	}
	return out
}

// storeCommit reads store_commit: {lines_per_cycle: N, stores_per_line: M,
// recent_lines: K} (recent_lines optional).
func (p *parser) storeCommit(n *yaml.Node, key string) *StoreCommit {
	v := p.intMap(n, key)
	if v == nil {
		return nil
	}
	for k := range v {
		if k != "lines_per_cycle" && k != "stores_per_line" && k != "recent_lines" {
			p.errorf(n, "%s: unknown key %q (want lines_per_cycle, stores_per_line and recent_lines)", key, k)
			return nil
		}
	}
	sc := &StoreCommit{LinesPerCycle: v["lines_per_cycle"], StoresPerLine: v["stores_per_line"], RecentLines: v["recent_lines"]}
	if err := sc.validate(); err != nil {
		p.errorf(n, "%v", err)
		return nil
	}
	return sc
}

func (p *parser) floatMap(n *yaml.Node, key string) map[string]float64 {
	if isNull(n) {
		return nil
	}
	if n.Kind != yaml.MappingNode {
		p.errorf(n, "%s: want a mapping, got a %s", key, kindName(n))
		return nil
	}
	out := map[string]float64{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if isNull(n.Content[i+1]) {
			continue
		}
		out[n.Content[i].Value] = p.num(n.Content[i+1], key+"."+n.Content[i].Value)
	}
	return out
}

// pressure reads OSACA port pressure: [[cycles, '015'], [cycles, ['1D', '3D']]].
func (p *parser) pressure(n *yaml.Node, key string) PortPressure {
	if isNull(n) {
		return nil
	}
	if n.Kind != yaml.SequenceNode {
		p.errorf(n, "%s: want a list of [cycles, ports], got a %s", key, kindName(n))
		return nil
	}
	pp := PortPressure{}
	for _, u := range n.Content {
		if u.Kind != yaml.SequenceNode || len(u.Content) != 2 {
			p.errorf(u, "%s: each element is [cycles, ports]", key)
			continue
		}
		c := p.num(u.Content[0], key+" cycles")
		var ports []string
		pn := u.Content[1]
		switch pn.Kind {
		case yaml.ScalarNode:
			// OSACA: every character is a port.
			for _, r := range pn.Value {
				ports = append(ports, string(r))
			}
		case yaml.SequenceNode:
			for _, x := range pn.Content {
				if x.Kind != yaml.ScalarNode {
					p.errorf(x, "%s: port names are strings", key)
					continue
				}
				ports = append(ports, x.Value)
			}
		default:
			p.errorf(pn, "%s: ports are a string ('015') or a list (['1D', '3D'])", key)
		}
		if len(ports) == 0 {
			p.errorf(pn, "%s: empty port group", key)
			continue
		}
		pp = append(pp, PortUse{Cycles: c, Ports: ports})
	}
	return pp
}

func (p *parser) memoryRules(n *yaml.Node, key, classKey string) []MemoryRule {
	if isNull(n) {
		return nil
	}
	if n.Kind != yaml.SequenceNode {
		p.errorf(n, "%s: want a list, got a %s", key, kindName(n))
		return nil
	}
	var out []MemoryRule
	for _, r := range n.Content {
		if r.Kind != yaml.MappingNode {
			p.errorf(r, "%s: each rule is a mapping", key)
			continue
		}
		var mr MemoryRule
		for i := 0; i+1 < len(r.Content); i += 2 {
			k, v := r.Content[i].Value, r.Content[i+1]
			switch k {
			case classKey:
				mr.Class = p.str(v, key+"."+k)
			case "port_pressure":
				mr.PortPressure = p.pressure(v, key+".port_pressure")
			case "base", "index", "offset", "scale":
				// OSACA's addressing wildcards; portlab keeps "*" only.
			default:
				p.errorf(r.Content[i], "%s: unknown key %q", key, k)
			}
		}
		out = append(out, mr)
	}
	return out
}

// model reads the header keys and returns the instruction_forms node.
func (p *parser) model(root *yaml.Node) *yaml.Node {
	m := p.m
	var forms *yaml.Node
	seen := map[string]int{}
	for i := 0; i+1 < len(root.Content); i += 2 {
		kn, v := root.Content[i], root.Content[i+1]
		k := kn.Value
		if l, dup := seen[k]; dup {
			p.errorf(kn, "duplicate key %q (first at line %d)", k, l)
			continue
		}
		seen[k] = kn.Line
		switch k {
		case "name":
			m.Name = p.str(v, k)
		case "micro_architecture":
			m.MicroArchitecture = p.str(v, k)
		case "arch_code":
			m.ArchCode = p.str(v, k)
		case "isa":
			m.ISA = p.str(v, k)
		case "llvm_cpu":
			m.LLVMCPU = p.str(v, k)
		case "dispatched_uops_per_cycle":
			m.DispatchWidth = p.integer(v, k)
		case "issue_width":
			m.IssueWidth = p.integer(v, k)
		case "retired_uops_per_cycle", "retired_uOps_per_cycle":
			m.RetireWidth = p.integer(v, k)
		case "ROB_size":
			m.ROBSize = p.integer(v, k)
		case "scheduler_size":
			m.SchedulerSize = p.integer(v, k)
		case "schedulers":
			m.Schedulers = p.intMap(v, k)
		case "load_queue_size":
			m.LoadQueue = p.integer(v, k)
		case "store_queue_size":
			m.StoreQueue = p.integer(v, k)
		case "register_files":
			m.RegisterFiles = p.intMap(v, k)
		case "load_latency":
			m.LoadLatency = p.floatMap(v, k)
		case "load_throughput_default":
			m.LoadPorts = p.pressure(v, k)
		case "store_throughput_default":
			m.StorePorts = p.pressure(v, k)
		case "load_throughput":
			m.LoadThroughput = p.memoryRules(v, k, "dst")
		case "store_throughput":
			m.StoreThroughput = p.memoryRules(v, k, "src")
		case "store_to_load_forward_latency":
			m.StoreToLoadForwardLatency = p.num(v, k)
		case "store_commit":
			m.StoreCommit = p.storeCommit(v, k)
		case "late_forwarding":
			if lf := p.intMap(v, k); lf != nil {
				if err := validateLateForwarding(lf); err != nil {
					p.errorf(v, "%v", err)
				} else {
					m.LateForwarding = lf
				}
			}
		case "load_line_split":
			if ls := p.floatMap(v, k); ls != nil {
				if err := validateLineSplit(ls); err != nil {
					p.errorf(v, "%v", err)
				} else {
					m.LoadLineSplit = ls
				}
			}
		case "beside_multicycle_delay":
			if bd := p.floatMap(v, k); bd != nil {
				if err := validateBesideDelay(bd); err != nil {
					p.errorf(v, "%v", err)
				} else {
					m.BesideMulticycleDelay = bd
				}
			}
		case "load_address_latency":
			if la := p.intMap(v, k); la != nil {
				if err := validateLoadAddressLatency(la); err != nil {
					p.errorf(v, "%v", err)
				} else {
					m.LoadAddressLatency = la
				}
			}
		case "domain_round_trip_latency":
			if c := p.integer(v, k); c < 0 || c > 32 {
				p.errorf(v, "domain_round_trip_latency: %d cycles, want 0 to 32", c)
			} else {
				m.DomainRoundTripLatency = c
			}
		case "domain_crossing_latency":
			// Older files: the cycles of a crossing each way, that is half
			// a round trip.
			if c := p.integer(v, k); c < 0 || c > 16 {
				p.errorf(v, "domain_crossing_latency: %d cycles, want 0 to 16", c)
			} else if m.DomainRoundTripLatency == 0 {
				m.DomainRoundTripLatency = 2 * c
			}
		case "hidden_loads":
			m.HiddenLoads = p.boolean(v, k)
		case "micro_fusion":
			m.MicroFusion = p.boolean(v, k)
		case "ports":
			if v.Kind != yaml.SequenceNode {
				p.errorf(v, "ports: want a list of port names")
				break
			}
			for _, x := range v.Content {
				if x.Kind != yaml.ScalarNode || x.Value == "" {
					p.errorf(x, "ports: port names are non-empty strings")
					continue
				}
				m.Ports = append(m.Ports, x.Value)
			}
		case "port_model_scheme":
			m.PortModelScheme = p.str(v, k)
		case "provenance":
			m.Provenance = p.provenance(v)
		case "instruction_forms":
			forms = v
		default:
			var x any
			if err := v.Decode(&x); err != nil {
				p.errorf(v, "%s: %v", k, cleanYAMLErr(err))
				break
			}
			if m.Extra == nil {
				m.Extra = map[string]any{}
			}
			m.Extra[k] = x
		}
	}
	portSet := map[string]bool{}
	for _, q := range m.Ports {
		if portSet[q] {
			p.errorf(root, "ports: port %q listed twice", q)
		}
		portSet[q] = true
	}
	p.checkPorts(root, "load_throughput_default", m.LoadPorts, portSet)
	p.checkPorts(root, "store_throughput_default", m.StorePorts, portSet)
	for _, r := range m.LoadThroughput {
		p.checkPorts(root, "load_throughput", r.PortPressure, portSet)
	}
	for _, r := range m.StoreThroughput {
		p.checkPorts(root, "store_throughput", r.PortPressure, portSet)
	}
	p.portSet = portSet
	return forms
}

// entries reads instruction_forms.
func (p *parser) entries(forms *yaml.Node) {
	m, portSet := p.m, p.portSet
	if forms == nil || isNull(forms) {
		return
	}
	if forms.Kind != yaml.SequenceNode {
		p.errorf(forms, "instruction_forms: want a list of entries")
		return
	}
	firstLine := map[string]int{}
	osacaHinted := false
	for i, item := range forms.Content {
		p.entry, p.form = i+1, ""
		e, ok := p.entryNode(item, portSet)
		if !ok {
			if !osacaHinted && item.Kind == yaml.MappingNode && hasKey(item, "name") && !hasKey(item, "form") {
				osacaHinted = true
				p.errorf(item, "no \"form\" key: this looks like an OSACA file; import it with 'portlab model import osaca %s'", p.file)
				// One hint is enough: the other entries have the same shape.
				p.entry, p.form = 0, ""
				return
			}
			continue
		}
		if l, dup := firstLine[e.Form]; dup {
			p.errorf(item, "duplicate form %q (first at line %d)", e.Form, l)
			continue
		}
		firstLine[e.Form] = item.Line
		m.Forms = append(m.Forms, e)
	}
	p.entry, p.form = 0, ""
}

func hasKey(n *yaml.Node, k string) bool {
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == k {
			return true
		}
	}
	return false
}

func (p *parser) checkPorts(n *yaml.Node, key string, pp PortPressure, ports map[string]bool) {
	for _, u := range pp {
		for _, q := range u.Ports {
			if !ports[q] {
				p.errorf(n, "%s: unknown port %q (model ports: %s)", key, q, strings.Join(p.m.Ports, " "))
			}
		}
	}
}

var knownFlags = map[string]bool{
	FlagZeroIdiom: true, FlagOnesIdiom: true, FlagDepBreaking: true, FlagMoveEliminated: true,
	FlagSerializing: true, FlagMayLoad: true, FlagMayStore: true,
}

func (p *parser) provenance(n *yaml.Node) *Provenance {
	if isNull(n) {
		return nil
	}
	if n.Kind != yaml.MappingNode {
		p.errorf(n, "provenance: want a mapping, got a %s", kindName(n))
		return nil
	}
	pr := &Provenance{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i].Value, n.Content[i+1]
		switch k {
		case "source":
			pr.Source = p.str(v, "provenance.source")
			switch pr.Source {
			case SourceMeasured, SourceImported, SourceInferred, "":
			default:
				p.errorf(v, "provenance.source: %q is not one of measured, imported, inferred", pr.Source)
			}
		case "from":
			pr.From = p.str(v, "provenance.from")
		case "host":
			pr.Host = p.str(v, "provenance.host")
		case "date":
			pr.Date = p.str(v, "provenance.date")
		case "confidence":
			pr.Confidence = p.str(v, "provenance.confidence")
			if pr.Confidence != "" && pr.Confidence != "high" && pr.Confidence != "low" {
				p.errorf(v, "provenance.confidence: %q is not high or low", pr.Confidence)
			}
		case "fit_error":
			pr.FitError = p.num(v, "provenance.fit_error")
		case "note":
			pr.Note = p.str(v, "provenance.note")
		default:
			p.errorf(n.Content[i], "provenance: unknown key %q", k)
		}
	}
	return pr
}

func (p *parser) osacaOperands(n *yaml.Node) []OSACAOperand {
	if isNull(n) {
		return nil
	}
	if n.Kind != yaml.SequenceNode {
		p.errorf(n, "operands: want a list")
		return nil
	}
	var out []OSACAOperand
	for _, o := range n.Content {
		op, err := decodeOSACAOperand(o)
		if err != nil {
			p.errorf(o, "operands: %v", err)
			continue
		}
		out = append(out, op)
	}
	return out
}

// decodeOSACAOperand reads one OSACA operand mapping.
func decodeOSACAOperand(o *yaml.Node) (OSACAOperand, error) {
	var op OSACAOperand
	if o.Kind != yaml.MappingNode {
		return op, fmt.Errorf("each operand is a mapping with a class")
	}
	for i := 0; i+1 < len(o.Content); i += 2 {
		k, v := o.Content[i].Value, o.Content[i+1]
		switch k {
		case "class":
			op.Class = v.Value
		case "name":
			op.Name = strings.ToLower(v.Value)
		case "mask":
			op.Mask = strings.EqualFold(v.Value, "true")
		case "zeroing":
			op.Zeroing = strings.EqualFold(v.Value, "true")
		case "broadcast":
			op.Broadcast = !isNull(v) && !strings.EqualFold(v.Value, "false")
		case "imd":
			op.Imd = v.Value
		}
	}
	switch op.Class {
	case "register", "memory", "immediate", "identifier":
	case "":
		return op, fmt.Errorf("operand without a class")
	default:
		return op, fmt.Errorf("unknown operand class %q", op.Class)
	}
	return op, nil
}

func (p *parser) entryNode(n *yaml.Node, ports map[string]bool) (*Entry, bool) {
	if n.Kind != yaml.MappingNode {
		p.errorf(n, "an entry is a mapping (form, latency, throughput, port_pressure, ...), not a %s", kindName(n))
		return nil, false
	}
	e := &Entry{}
	var formNode, latsNode, fdNode *yaml.Node
	var osaca OSACAForm
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == "form" {
			formNode = n.Content[i+1]
			p.form = formNode.Value
		}
	}
	if formNode == nil {
		return nil, false
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		kn, v := n.Content[i], n.Content[i+1]
		switch k := kn.Value; k {
		case "form":
		case "name":
			if v.Kind == yaml.ScalarNode {
				osaca.Name = v.Value
			}
		case "operands":
			osaca.Operands = p.osacaOperands(v)
		case "class":
			e.Class = p.str(v, k)
		case "uops":
			e.Uops = p.num(v, k)
		case "latency_beside_512bit":
			e.Latency512 = p.num(v, k)
		case "false_dependency":
			e.FalseDependency = p.num(v, k)
			fdNode = v
		case "domain":
			d := p.str(v, k)
			if err := validateDomain(d); err != nil {
				p.errorf(v, "%v", err)
			} else {
				e.Domain = d
			}
		case "latency":
			e.Latency = p.num(v, k)
		case "latencies":
			latsNode = v
			p.listOfMaps(v, "latencies", "{from, to, cycles}", func(l *yaml.Node, fields map[string]*yaml.Node) {
				ol := OperandLatency{From: p.str(fields["from"], "latencies.from"), To: p.str(fields["to"], "latencies.to"),
					Cycles: p.num(fields["cycles"], "latencies.cycles")}
				if ol.From == "" || ol.To == "" {
					p.errorf(l, "latencies: from and to are required")
					return
				}
				e.Latencies = append(e.Latencies, ol)
			})
		case "throughput":
			e.Throughput = p.num(v, k)
		case "addressing":
			e.Addressing = p.addressing(v, ports)
		case "port_pressure", "port_pressure_beside_512bit":
			pp := p.pressure(v, k)
			p.knownPorts(v, k, pp, ports)
			if k == "port_pressure" {
				e.PortPressure = pp
			} else {
				e.PortPressure512 = pp
			}
		case "flags":
			if isNull(v) {
				break
			}
			if v.Kind != yaml.SequenceNode {
				p.errorf(v, "flags: want a list")
				break
			}
			for _, f := range v.Content {
				if !knownFlags[f.Value] {
					p.errorf(f, "flags: unknown flag %q (known: %s)", f.Value, strings.Join(sortedKeys(knownFlags), ", "))
					continue
				}
				e.Flags = append(e.Flags, f.Value)
			}
		case "provenance":
			e.Provenance = p.provenance(v)
		default:
			p.errorf(kn, "unknown key %q", k)
		}
	}
	name := formNode.Value
	f, ok := isa.Lookup(name)
	switch {
	case ok:
		e.Form = f.Name()
	case p.opt.Lenient:
		e.Form = isa.NormalizeName(name)
		p.warnf(formNode, "form not in the catalog (kept): %s", formHint(name))
		if osaca.Name != "" {
			o := osaca
			e.OSACA = &o
		}
	default:
		p.errorf(formNode, "unknown instruction form: %s (load with --lenient to keep forms the catalog lacks)", formHint(name))
		return e, true
	}
	if ok && e.FalseDependency > 0 && len(FalseDependencyOperands(f)) == 0 {
		p.errorf(fdNode, "false_dependency: %q has no write-only vector or MMX destination to wait for", e.Form)
	}
	if ok && latsNode != nil {
		for _, l := range e.Latencies {
			for _, ref := range []string{l.From, l.To} {
				if msg := checkOperandRef(f, ref); msg != "" {
					p.errorf(latsNode, "latencies: %s", msg)
				}
			}
		}
	}
	return e, true
}

func sortedKeys(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// checkOperandRef checks an operand reference of an operand latency: an
// operand index, "mem", "flags", or a register the form uses implicitly.
func checkOperandRef(f *isa.Form, ref string) string {
	if i, err := strconv.Atoi(ref); err == nil {
		if i < 0 || i >= len(f.Operands) {
			return fmt.Sprintf("operand %d does not exist (the form has %d operands, numbered from 0)", i, len(f.Operands))
		}
		return ""
	}
	switch ref {
	case "mem", "flags", "same":
		return ""
	}
	// A register may be named by any width of it ("rax" for the al of
	// "adc al, imm8" or the ax of "cbw": portlab's latency benchmarks name
	// the 64-bit register).
	fam := isa.RegFamily(ref)
	for _, r := range append(append([]string(nil), f.ImplicitReads...), f.ImplicitWrites...) {
		if r == ref || isa.RegFamily(r) == fam {
			return ""
		}
	}
	for _, op := range f.Operands {
		if string(op.Kind) == ref || isa.RegFamily(string(op.Kind)) == fam {
			return ""
		}
	}
	return fmt.Sprintf("operand %q is neither an operand index, mem, flags nor an implicit register of the form", ref)
}

// formHint explains an unknown form name: the forms of its mnemonic that
// are closest, or that the mnemonic is unknown.
func formHint(name string) string {
	n := isa.NormalizeName(name)
	mn := n
	if i := strings.IndexByte(n, ' '); i >= 0 {
		mn = n[:i]
	}
	if mn == "{evex}" {
		rest := strings.TrimPrefix(n, "{evex} ")
		mn = rest
		if i := strings.IndexByte(rest, ' '); i >= 0 {
			mn = rest[:i]
		}
	}
	forms := isa.ByMnemonic(mn)
	if len(forms) == 0 {
		return fmt.Sprintf("%q (the catalog has no mnemonic %q)", name, mn)
	}
	type cand struct {
		name string
		d    int
	}
	var cs []cand
	for _, f := range forms {
		cs = append(cs, cand{f.Name(), editDistance(n, f.Name())})
	}
	sort.SliceStable(cs, func(i, j int) bool { return cs[i].d < cs[j].d })
	var names []string
	for i := 0; i < len(cs) && i < 3; i++ {
		names = append(names, fmt.Sprintf("%q", cs[i].name))
	}
	return fmt.Sprintf("%q (did you mean %s?)", name, strings.Join(names, " or "))
}

// editDistance is the Levenshtein distance of two strings.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			c := prev[j-1]
			if a[i-1] != b[j-1] {
				c++
			}
			c = min(c, prev[j]+1, cur[j-1]+1)
			cur[j] = c
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// ---- writing ----

// MarshalOptions control how a model is written.
type MarshalOptions struct {
	// Compact leaves out each entry's OSACA name and operands (portlab
	// derives them from the form): half the size and parse time, but OSACA
	// cannot read the file.
	Compact bool
}

// Marshal renders the model as YAML: the header, then one entry per form,
// sorted by name, each with its OSACA name and operands so OSACA can read
// the file too.
func (m *Model) Marshal() ([]byte, error) { return m.MarshalWith(MarshalOptions{}) }

// MarshalWith renders the model as YAML with options.
func (m *Model) MarshalWith(opt MarshalOptions) ([]byte, error) {
	root := &yaml.Node{Kind: yaml.MappingNode}
	add := func(k string, v *yaml.Node) {
		root.Content = append(root.Content, strNode(k), v)
	}
	addStr := func(k, v string) {
		if v != "" {
			add(k, strNode(v))
		}
	}
	addInt := func(k string, v int) {
		if v != 0 {
			add(k, numNode(float64(v)))
		}
	}
	short := true
	for _, q := range m.Ports {
		if len(q) != 1 {
			short = false
		}
	}
	addStr("name", m.Name)
	addStr("micro_architecture", m.MicroArchitecture)
	addStr("arch_code", m.ArchCode)
	isaName := m.ISA
	if isaName == "" {
		isaName = "x86"
	}
	addStr("isa", isaName)
	addStr("llvm_cpu", m.LLVMCPU)
	if m.Provenance != nil {
		add("provenance", provenanceNode(m.Provenance))
	}
	addInt("dispatched_uops_per_cycle", m.DispatchWidth)
	addInt("issue_width", m.IssueWidth)
	addInt("retired_uops_per_cycle", m.RetireWidth)
	addInt("ROB_size", m.ROBSize)
	addInt("scheduler_size", m.SchedulerSize)
	if len(m.Schedulers) > 0 {
		add("schedulers", intMapNode(m.Schedulers))
	}
	addInt("load_queue_size", m.LoadQueue)
	addInt("store_queue_size", m.StoreQueue)
	if len(m.RegisterFiles) > 0 {
		add("register_files", intMapNode(m.RegisterFiles))
	}
	if m.HiddenLoads {
		add("hidden_loads", &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: "true"})
	}
	if len(m.LoadLatency) > 0 {
		n := &yaml.Node{Kind: yaml.MappingNode, Style: yaml.FlowStyle}
		for _, k := range sortedFloatKeys(m.LoadLatency) {
			n.Content = append(n.Content, strNode(k), numNode(m.LoadLatency[k]))
		}
		add("load_latency", n)
	}
	if len(m.LoadThroughput) > 0 {
		add("load_throughput", memoryRulesNode(m.LoadThroughput, "dst", short))
	}
	if len(m.LoadPorts) > 0 {
		add("load_throughput_default", m.LoadPorts.nodeStyle(short))
	}
	if len(m.StoreThroughput) > 0 {
		add("store_throughput", memoryRulesNode(m.StoreThroughput, "src", short))
	}
	if len(m.StorePorts) > 0 {
		add("store_throughput_default", m.StorePorts.nodeStyle(short))
	}
	if m.StoreToLoadForwardLatency != 0 {
		add("store_to_load_forward_latency", numNode(m.StoreToLoadForwardLatency))
	}
	if sc := m.StoreCommit; sc != nil {
		v := map[string]int{"lines_per_cycle": sc.LinesPerCycle, "stores_per_line": sc.StoresPerLine}
		if sc.RecentLines > 0 {
			v["recent_lines"] = sc.RecentLines
		}
		add("store_commit", intMapNode(v))
	}
	if len(m.LateForwarding) > 0 {
		add("late_forwarding", intMapNode(m.LateForwarding))
	}
	if len(m.LoadLineSplit) > 0 {
		n := &yaml.Node{Kind: yaml.MappingNode, Style: yaml.FlowStyle}
		for _, k := range sortedFloatKeys(m.LoadLineSplit) {
			n.Content = append(n.Content, strNode(k), numNode(m.LoadLineSplit[k]))
		}
		add("load_line_split", n)
	}
	if len(m.BesideMulticycleDelay) > 0 {
		n := &yaml.Node{Kind: yaml.MappingNode, Style: yaml.FlowStyle}
		for _, k := range sortedFloatKeys(m.BesideMulticycleDelay) {
			n.Content = append(n.Content, strNode(k), numNode(m.BesideMulticycleDelay[k]))
		}
		add("beside_multicycle_delay", n)
	}
	if len(m.LoadAddressLatency) > 0 {
		add("load_address_latency", intMapNode(m.LoadAddressLatency))
	}
	if m.DomainRoundTripLatency > 0 {
		add("domain_round_trip_latency", &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: strconv.Itoa(m.DomainRoundTripLatency)})
	}
	if m.MicroFusion {
		add("micro_fusion", &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: "true"})
	}
	var extra []string
	for k := range m.Extra {
		extra = append(extra, k)
	}
	sort.Strings(extra)
	for _, k := range extra {
		var n yaml.Node
		if err := n.Encode(m.Extra[k]); err != nil {
			return nil, fmt.Errorf("key %s: %v", k, err)
		}
		add(k, &n)
	}
	ports := &yaml.Node{Kind: yaml.SequenceNode, Style: yaml.FlowStyle}
	for _, q := range m.Ports {
		ports.Content = append(ports.Content, quoted(q))
	}
	add("ports", ports)
	if m.PortModelScheme != "" {
		add("port_model_scheme", &yaml.Node{Kind: yaml.ScalarNode, Style: yaml.LiteralStyle, Value: strings.TrimRight(m.PortModelScheme, "\n") + "\n"})
	}
	forms := &yaml.Node{Kind: yaml.SequenceNode}
	entries := append([]*Entry(nil), m.Forms...)
	sort.SliceStable(entries, func(i, j int) bool { return entries[i].Form < entries[j].Form })
	for _, e := range entries {
		forms.Content = append(forms.Content, e.node(short, !opt.Compact))
	}
	add("instruction_forms", forms)

	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(&yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{root}}); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// Save writes the model atomically; a path ending in .gz is compressed.
func (m *Model) Save(path string) error { return m.SaveWith(path, MarshalOptions{}) }

// SaveWith writes the model atomically with options; a path ending in .gz
// is compressed.
func (m *Model) SaveWith(path string, opt MarshalOptions) error {
	data, err := m.MarshalWith(opt)
	if err != nil {
		return err
	}
	if strings.HasSuffix(path, ".gz") {
		var buf bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
		zw.Write(data)
		if err := zw.Close(); err != nil {
			return err
		}
		data = buf.Bytes()
	}
	return fsutil.WriteFileAtomic(path, data, 0o644)
}

// MarshalYAML renders port pressure as OSACA does.
func (pp PortPressure) MarshalYAML() (any, error) { return pp.node(), nil }

// UnmarshalYAML reads OSACA port pressure.
func (pp *PortPressure) UnmarshalYAML(n *yaml.Node) error {
	p := &parser{file: "port_pressure", m: &Model{}}
	*pp = p.pressure(n, "port_pressure")
	if len(p.problems) > 0 {
		return fmt.Errorf("line %d: %s", p.problems[0].Line, p.problems[0].Msg)
	}
	return nil
}

func (pp PortPressure) node() *yaml.Node { return pp.nodeStyle(true) }

// nodeStyle renders port pressure; strings says whether groups of
// single-character ports may be written as one string (only when every
// port of the model has a one-character name, so '13' cannot be misread
// as port 13).
func (pp PortPressure) nodeStyle(strings bool) *yaml.Node {
	n := &yaml.Node{Kind: yaml.SequenceNode, Style: yaml.FlowStyle}
	for _, u := range pp {
		pair := &yaml.Node{Kind: yaml.SequenceNode, Style: yaml.FlowStyle}
		pair.Content = append(pair.Content, numNode(u.Cycles), portGroupNode(u.Ports, strings))
		n.Content = append(n.Content, pair)
	}
	return n
}

// portGroupNode writes a group of single-character ports as one string
// ('015'), others as a list (['1D', '3D']), as OSACA does.
func portGroupNode(ports []string, allowString bool) *yaml.Node {
	single := allowString
	for _, q := range ports {
		if len(q) != 1 {
			single = false
		}
	}
	if single {
		return quoted(strings.Join(ports, ""))
	}
	n := &yaml.Node{Kind: yaml.SequenceNode, Style: yaml.FlowStyle}
	for _, q := range ports {
		n.Content = append(n.Content, quoted(q))
	}
	return n
}

func (e *Entry) node(short, osaca bool) *yaml.Node {
	n := &yaml.Node{Kind: yaml.MappingNode}
	add := func(k string, v *yaml.Node) { n.Content = append(n.Content, strNode(k), v) }
	add("form", strNode(e.Form))
	if of, ok := e.osacaForm(); ok && osaca {
		add("name", strNode(of.Name))
		ops := &yaml.Node{Kind: yaml.SequenceNode, Style: yaml.FlowStyle}
		for _, o := range of.Operands {
			ops.Content = append(ops.Content, osacaOperandNode(o))
		}
		add("operands", ops)
	}
	if e.Class != "" {
		add("class", strNode(e.Class))
	}
	add("uops", numNode(e.Uops))
	add("latency", numNode(e.Latency))
	if e.Latency512 > 0 {
		add("latency_beside_512bit", numNode(e.Latency512))
	}
	if e.FalseDependency > 0 {
		add("false_dependency", numNode(e.FalseDependency))
	}
	if e.Domain != "" {
		add("domain", strNode(e.Domain))
	}
	// flowList renders a list of flat mappings on one line each.
	flowList := func(key string, n int, elem func(i int) []*yaml.Node) {
		if n == 0 {
			return
		}
		list := &yaml.Node{Kind: yaml.SequenceNode, Style: yaml.FlowStyle}
		for i := 0; i < n; i++ {
			list.Content = append(list.Content, &yaml.Node{Kind: yaml.MappingNode, Style: yaml.FlowStyle, Content: elem(i)})
		}
		add(key, list)
	}
	flowList("latencies", len(e.Latencies), func(i int) []*yaml.Node {
		l := e.Latencies[i]
		return []*yaml.Node{strNode("from"), quoted(l.From), strNode("to"), quoted(l.To), strNode("cycles"), numNode(l.Cycles)}
	})
	add("throughput", numNode(e.Throughput))
	add("port_pressure", e.PortPressure.nodeStyle(short))
	if len(e.PortPressure512) > 0 {
		add("port_pressure_beside_512bit", e.PortPressure512.nodeStyle(short))
	}
	flowList("addressing", len(e.Addressing), func(i int) []*yaml.Node {
		a := e.Addressing[i]
		out := []*yaml.Node{strNode("shape"), quoted(a.Shape), strNode("latency"), numNode(a.Latency), strNode("throughput"), numNode(a.Throughput)}
		if len(a.PortPressure) > 0 {
			out = append(out, strNode("port_pressure"), a.PortPressure.nodeStyle(short))
		}
		return out
	})
	if len(e.Flags) > 0 {
		fl := &yaml.Node{Kind: yaml.SequenceNode, Style: yaml.FlowStyle}
		for _, f := range e.Flags {
			fl.Content = append(fl.Content, strNode(f))
		}
		add("flags", fl)
	}
	if e.Provenance != nil {
		add("provenance", provenanceNode(e.Provenance))
	}
	return n
}

// osacaForm returns the entry's OSACA name and operands: derived from the
// catalog form, or as read for forms the catalog lacks.
func (e *Entry) osacaForm() (OSACAForm, bool) {
	if f, ok := isa.Lookup(e.Form); ok {
		return OSACAFormOf(f), true
	}
	if e.OSACA != nil {
		return *e.OSACA, true
	}
	return OSACAForm{}, false
}

// OSACAFormOf renders a catalog form as OSACA names it: the Intel mnemonic
// and the operands in AT&T order (sources first).
func OSACAFormOf(f *isa.Form) OSACAForm {
	of := OSACAForm{Name: f.Mnemonic}
	n := len(f.Operands)
	for i := range f.Operands {
		j := n - 1 - i
		if f.Mnemonic == "enter" {
			j = i
		}
		op := f.Operands[j]
		of.Operands = append(of.Operands, osacaOperandOf(op))
	}
	return of
}

func osacaOperandOf(op isa.Operand) OSACAOperand {
	k := op.Kind
	switch {
	case k.IsMemory():
		return OSACAOperand{Class: "memory", Broadcast: k.IsBroadcast()}
	case k.IsImmediate():
		return OSACAOperand{Class: "immediate", Imd: "int"}
	case k == isa.KindRel8 || k == isa.KindRel32 || k == "rel16":
		return OSACAOperand{Class: "identifier"}
	case k == isa.KindR8 || k == isa.KindR16 || k == isa.KindR32 || k == isa.KindR64:
		return OSACAOperand{Class: "register", Name: "gpr"}
	case k == isa.KindXMM || k == isa.KindYMM || k == isa.KindZMM:
		return OSACAOperand{Class: "register", Name: string(k), Mask: op.Masked, Zeroing: op.Zeroing}
	case k == "xmm0":
		return OSACAOperand{Class: "register", Name: "xmm"}
	}
	return OSACAOperand{Class: "register", Name: string(k), Mask: op.Masked, Zeroing: op.Zeroing}
}

func osacaOperandNode(o OSACAOperand) *yaml.Node {
	n := &yaml.Node{Kind: yaml.MappingNode, Style: yaml.FlowStyle}
	add := func(k string, v *yaml.Node) { n.Content = append(n.Content, strNode(k), v) }
	add("class", strNode(o.Class))
	switch o.Class {
	case "register":
		add("name", quotedIfNeeded(o.Name))
		if o.Mask {
			add("mask", &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: "true"})
		}
		if o.Zeroing {
			add("zeroing", &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: "true"})
		}
	case "memory":
		for _, k := range []string{"base", "offset", "index", "scale"} {
			add(k, quoted("*"))
		}
		if o.Broadcast {
			add("broadcast", &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: "true"})
		}
	case "immediate":
		imd := o.Imd
		if imd == "" {
			imd = "int"
		}
		add("imd", strNode(imd))
	}
	return n
}

func memoryRulesNode(rules []MemoryRule, classKey string, short bool) *yaml.Node {
	n := &yaml.Node{Kind: yaml.SequenceNode}
	for _, r := range rules {
		m := &yaml.Node{Kind: yaml.MappingNode, Style: yaml.FlowStyle}
		m.Content = append(m.Content, strNode(classKey), quotedIfNeeded(r.Class))
		for _, k := range []string{"base", "index", "offset", "scale"} {
			m.Content = append(m.Content, strNode(k), quoted("*"))
		}
		m.Content = append(m.Content, strNode("port_pressure"), r.PortPressure.nodeStyle(short))
		n.Content = append(n.Content, m)
	}
	return n
}

func provenanceNode(p *Provenance) *yaml.Node {
	n := &yaml.Node{Kind: yaml.MappingNode, Style: yaml.FlowStyle}
	add := func(k, v string) {
		if v != "" {
			n.Content = append(n.Content, strNode(k), strNode(v))
		}
	}
	add("source", p.Source)
	add("from", p.From)
	add("host", p.Host)
	add("date", p.Date)
	add("confidence", p.Confidence)
	if p.FitError != 0 {
		n.Content = append(n.Content, strNode("fit_error"), numNode(p.FitError))
	}
	add("note", p.Note)
	return n
}

func intMapNode(m map[string]int) *yaml.Node {
	n := &yaml.Node{Kind: yaml.MappingNode, Style: yaml.FlowStyle}
	var keys []string
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		n.Content = append(n.Content, strNode(k), numNode(float64(m[k])))
	}
	return n
}

func sortedFloatKeys(m map[string]float64) []string {
	var keys []string
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func strNode(s string) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s}
}

func quoted(s string) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Style: yaml.SingleQuotedStyle, Value: s}
}

// quotedIfNeeded quotes names YAML would otherwise read as something else
// ('*' is an alias marker).
func quotedIfNeeded(s string) *yaml.Node {
	if s == "" || strings.ContainsAny(s, "*&!{}[],:#'\"") {
		return quoted(s)
	}
	return strNode(s)
}

// numNode writes a number rounded to 5 decimals (the precision results
// carry), without a trailing ".0".
func numNode(v float64) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Value: FormatNum(v)}
}

// FormatNum renders a cycle count rounded to 5 decimals, shortest form.
func FormatNum(v float64) string {
	r := math.Round(v*1e5) / 1e5
	if r == 0 {
		r = 0 // no "-0"
	}
	return strconv.FormatFloat(r, 'f', -1, 64)
}
