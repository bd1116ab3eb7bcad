// Package modeldb owns portlab's machine model: the file format (an
// OSACA-compatible YAML superset a person can read and correct), validation,
// the embedded default models, importers (OSACA YAML, llvm-mca, llvm-exegesis
// results), building a model from measurements with port-mapping inference,
// and diffs between models. It does not simulate (package analysis does).
package modeldb

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/twmb/murmur3"
)

// Model is a machine model: the core's widths and buffers, its ports, and
// per instruction form the uops, latencies, reciprocal throughput and port
// pressure.
type Model struct {
	// Name is a human name ("Zen 4 (measured on KVM guest)").
	Name string `yaml:"name"`
	// MicroArchitecture and ArchCode follow OSACA ("AMD Zen4", "ZEN4").
	MicroArchitecture string `yaml:"micro_architecture"`
	ArchCode          string `yaml:"arch_code,omitempty"`
	ISA               string `yaml:"isa"`                // "x86"
	LLVMCPU           string `yaml:"llvm_cpu,omitempty"` // LLVM -mcpu name ("znver4")

	DispatchWidth int `yaml:"dispatched_uops_per_cycle"`
	IssueWidth    int `yaml:"issue_width,omitempty"`
	RetireWidth   int `yaml:"retired_uops_per_cycle,omitempty"`
	ROBSize       int `yaml:"ROB_size,omitempty"`
	// SchedulerSize is the total scheduler entries; Schedulers optionally
	// splits them per port group ("ALU": 96, "FP": 64).
	SchedulerSize int            `yaml:"scheduler_size,omitempty"`
	Schedulers    map[string]int `yaml:"schedulers,omitempty"`
	LoadQueue     int            `yaml:"load_queue_size,omitempty"`
	StoreQueue    int            `yaml:"store_queue_size,omitempty"`
	// RegisterFiles are physical register file sizes by class ("gpr": 224, "vec": 192).
	RegisterFiles map[string]int `yaml:"register_files,omitempty"`

	// LoadLatency is the load-to-use latency by destination register class
	// (gpr, mm, xmm, ymm, zmm), as in OSACA.
	LoadLatency map[string]float64 `yaml:"load_latency,omitempty"`
	// LoadPorts / StorePorts are the port pressure of a plain load and a
	// plain store (the AGU and data ports), added to forms with a memory operand.
	LoadPorts                 PortPressure `yaml:"load_throughput_default,omitempty"`
	StorePorts                PortPressure `yaml:"store_throughput_default,omitempty"`
	StoreToLoadForwardLatency float64      `yaml:"store_to_load_forward_latency,omitempty"`
	// StoreCommit is how retired stores are written to the cache, nil
	// when not measured (see StoreCommit).
	StoreCommit *StoreCommit `yaml:"store_commit,omitempty"`
	// LateForwarding is, per vector width (xmm, ymm, zmm), the cycles a
	// one-cycle vector instruction's result takes longer when it reads a
	// multiply-class result directly (see LateForwardKind); nil when not
	// measured or not seen.
	LateForwarding map[string]int `yaml:"late_forwarding,omitempty"`
	// BesideMulticycleDelay is, per vector width (xmm, ymm, zmm), the
	// cycles (0 to 1) a one-cycle vector instruction's result took longer
	// while independent vector work of BesideMinLatency cycles or more
	// issued beside it at two instructions a cycle (the late-forwarding
	// chain beside two vpmaddwd a link); the analyzer scales it by a
	// block's rate of such work (BesideShare). Nil when not measured or
	// not seen.
	BesideMulticycleDelay map[string]float64 `yaml:"beside_multicycle_delay,omitempty"`
	// LoadLineSplit is, per access class (gpr, xmm, ymm, zmm;
	// LineSplitClass), how many times its load ports a load that crosses
	// a 64-byte line takes (see LineSplitKind); nil when not measured or
	// not seen.
	LoadLineSplit map[string]float64 `yaml:"load_line_split,omitempty"`
	// LoadAddressLatency is, per address shape (isa.AddressShape), the
	// cycles a load takes longer from its address registers than in the
	// shape the forms' latencies were measured in (see LoadAddressKind);
	// nil when not measured or not seen.
	LoadAddressLatency map[string]int `yaml:"load_address_latency,omitempty"`
	// DomainRoundTripLatency is the cycles a vector value takes longer
	// to go from one domain to the other and back (Entry.Domain; see
	// DomainKind), half on each way (CrossingCycles); 0 when not measured
	// or not seen.
	DomainRoundTripLatency int `yaml:"domain_round_trip_latency,omitempty"`
	// MicroFusion says that a memory operand's load, and a store's
	// address and data, dispatch fused with the operation they belong to
	// (Intel micro-fusion, AMD macro-ops): they take no dispatch or
	// reorder-buffer slot of their own. Uops still counts them, as
	// llvm-mca's models do.
	MicroFusion bool `yaml:"micro_fusion,omitempty"`

	Ports           []string `yaml:"ports"`
	PortModelScheme string   `yaml:"port_model_scheme,omitempty"`

	// Provenance of the model as a whole; entries may carry their own.
	Provenance *Provenance `yaml:"provenance,omitempty"`

	Forms []*Entry `yaml:"instruction_forms"`

	// HiddenLoads, LoadThroughput and StoreThroughput are OSACA's: whether
	// loads are hidden behind other uops, and the port pressure of a load
	// (store) by destination (source) register class, which OSACA adds to a
	// register form to make a missing memory form.
	HiddenLoads     bool         `yaml:"hidden_loads,omitempty"`
	LoadThroughput  []MemoryRule `yaml:"load_throughput,omitempty"`
	StoreThroughput []MemoryRule `yaml:"store_throughput,omitempty"`
	// Extra keeps top-level keys portlab does not interpret (osaca_version,
	// ...) so that a file read and written again keeps them.
	Extra map[string]any `yaml:"-"`

	index map[uint64]*Entry // by Key(form name)
}

// Entry is one instruction form's timing.
type Entry struct {
	// Form is the canonical portlab form name ("vfmadd231pd ymm, ymm, ymm").
	Form string `yaml:"form"`
	// Class is the scheduling class this form shares with others (an LLVM
	// sched class name, or portlab's own grouping); forms of a class are
	// expected to behave identically.
	Class string `yaml:"class,omitempty"`

	Uops float64 `yaml:"uops"`
	// Latency is the largest latency over operand pairs; Latencies lists
	// them per pair when known.
	Latency   float64          `yaml:"latency"`
	Latencies []OperandLatency `yaml:"latencies,omitempty"`
	// Latency512 is a 128/256-bit vector form's latency while 512-bit
	// work is in flight, where it differs (measured: gen.KindLatency512;
	// vaddss 2 -> 3.2 cycles on the Granite Rapids guest, its adds moving
	// in part to the FMA unit); 0: the same.
	Latency512 float64 `yaml:"latency_beside_512bit,omitempty"`
	// FalseDependency is, for a form whose vector or MMX destination is
	// write-only (FalseDependencyOperands), the cycles a link of a chain
	// through that destination alone where the form waits for the
	// destination's previous value all the same (measured:
	// gen.KindDestChain; cvtpi2pd xmm, mm 3 cycles on the Zen 3 and Zen 4
	// guests, vexpandpd ymm, ymm 4 on Zen 4); 0: it does not wait.
	FalseDependency float64 `yaml:"false_dependency,omitempty"`
	// Domain is the vector domain of the form's results and inputs
	// (DomainInt, DomainFP; see DomainKind), "" for none.
	Domain string `yaml:"domain,omitempty"`
	// Throughput is the reciprocal throughput in cycles per instruction.
	Throughput   float64      `yaml:"throughput"`
	PortPressure PortPressure `yaml:"port_pressure"`
	// PortPressure512 is the port pressure of a 128/256-bit vector form
	// while 512-bit vector work is in flight beside it (see Is512BitOp):
	// Intel cores then fuse the port-0 and port-1 vector units into one
	// 512-bit unit, and what ran on port 1 runs where its kind of unit is
	// left (FP adds on port 0, shuffles on port 5 only). Empty: the same
	// as PortPressure (cores without the fusion, forms it leaves alone).
	PortPressure512 PortPressure `yaml:"port_pressure_beside_512bit,omitempty"`
	// Addressing gives latency and throughput per address shape where
	// they differ by shape (lea: see isa.AddressShapes); the entry's own
	// figures hold for the other shapes.
	Addressing []AddressCost `yaml:"addressing,omitempty"`
	Flags      []string      `yaml:"flags,omitempty"`

	Provenance *Provenance `yaml:"provenance,omitempty"`

	// OSACA is the entry's OSACA name and operands as read from a file,
	// kept for forms the catalog lacks (lenient loads) so they are written
	// back unchanged; for catalog forms they are derived from the form.
	OSACA *OSACAForm `yaml:"-"`
}

// OperandLatency is the latency from a source operand to a destination
// operand. Operands are named by their index in Intel order ("1", "2"), or
// as "flags", "mem" (address), or an implicit register ("rax").
type OperandLatency struct {
	From   string  `yaml:"from"`
	To     string  `yaml:"to"`
	Cycles float64 `yaml:"cycles"`
}

// AddressCost is a form's latency (from the address registers to the
// destination) and reciprocal throughput in one address shape, and its
// port pressure in that shape when the shape's mixes with probe forms
// were measured (nil: the form's, scaled to the shape's throughput).
type AddressCost struct {
	Shape        string       `yaml:"shape" json:"shape"`
	Latency      float64      `yaml:"latency" json:"latency"`
	Throughput   float64      `yaml:"throughput" json:"throughput"`
	PortPressure PortPressure `yaml:"port_pressure,omitempty" json:"port_pressure,omitempty"`
}

// ForShape returns the entry's cost in an address shape, if it has one.
func (e *Entry) ForShape(shape string) (AddressCost, bool) {
	for _, a := range e.Addressing {
		if a.Shape == shape {
			return a, true
		}
	}
	return AddressCost{}, false
}

// Entry flags.
const (
	FlagZeroIdiom      = "zero-idiom"
	FlagOnesIdiom      = "ones-idiom"
	FlagDepBreaking    = "dependency-breaking"
	FlagMoveEliminated = "move-eliminated"
	FlagSerializing    = "serializing"
	FlagMayLoad        = "may-load"
	FlagMayStore       = "may-store"
)

// HasFlag reports whether the entry carries flag f.
func (e *Entry) HasFlag(f string) bool {
	for _, x := range e.Flags {
		if x == f {
			return true
		}
	}
	return false
}

// PortUse is `cycles` of occupancy spread over any of Ports (a port group).
type PortUse struct {
	Cycles float64
	Ports  []string
}

// PortPressure is a list of port uses, written in YAML as OSACA does:
// [[cycles, '015'], [cycles, ['1D', '3D']]].
type PortPressure []PortUse

// Provenance says where a value came from.
type Provenance struct {
	Source string `yaml:"source"`         // "measured", "imported", "inferred"
	From   string `yaml:"from,omitempty"` // "osaca:zen4.yml", "llvm-mca 14 -mcpu=znver3", result file
	Host   string `yaml:"host,omitempty"` // CPU signature where measured
	Date   string `yaml:"date,omitempty"`
	// Confidence is "high" or "low" (a port fit that left a large error).
	Confidence string  `yaml:"confidence,omitempty"`
	FitError   float64 `yaml:"fit_error,omitempty"` // relative error of the port fit
	Note       string  `yaml:"note,omitempty"`      // e.g. what a correction replaced
}

// Provenance sources.
const (
	SourceMeasured = "measured"
	SourceImported = "imported"
	SourceInferred = "inferred"
)

// Key is the murmur3 hash of a canonical form name, the key forms are
// stored under.
func Key(form string) uint64 {
	return murmur3.Sum64([]byte(form))
}

// Lookup returns the entry for a canonical form name.
func (m *Model) Lookup(form string) (*Entry, bool) {
	if m.index == nil {
		m.Reindex()
	}
	e, ok := m.index[Key(form)]
	if ok && e.Form != form { // a hash collision: never silently wrong
		for _, x := range m.Forms {
			if x.Form == form {
				return x, true
			}
		}
		return nil, false
	}
	return e, ok
}

// Reindex rebuilds the lookup index after Forms changed.
func (m *Model) Reindex() {
	m.index = make(map[uint64]*Entry, len(m.Forms))
	for _, e := range m.Forms {
		m.index[Key(e.Form)] = e
	}
}

// Put adds or replaces an entry.
func (m *Model) Put(e *Entry) {
	if m.index == nil {
		m.Reindex()
	}
	if old, ok := m.index[Key(e.Form)]; ok && old.Form == e.Form {
		*old = *e
		return
	}
	m.Forms = append(m.Forms, e)
	m.index[Key(e.Form)] = e
}

// AddLatencies gives m's entries the operand latencies from's entry of
// the same form lists and theirs do not (a pair, from and to, they lack),
// for entries that list their pairs (an entry with one latency for every
// pair keeps it), each noted in the entry's provenance where it has one
// (what, and source: whose measurements). A model characterize keeps as
// it stands takes so the kinds of latency its run measured that the
// model lacks (the flags a form waits for, `flags->flags`), and nothing
// else from the run. It returns how many pairs it added, to how many
// forms.
func (m *Model) AddLatencies(from *Model, source string) (pairs, forms int) {
	for _, e := range m.Forms {
		f, ok := from.Lookup(e.Form)
		if !ok || len(e.Latencies) == 0 {
			continue
		}
		var added []string
		for _, l := range f.Latencies {
			if slices.ContainsFunc(e.Latencies, func(x OperandLatency) bool { return x.From == l.From && x.To == l.To }) {
				continue
			}
			e.Latencies = append(e.Latencies, l)
			e.Latency = max(e.Latency, l.Cycles)
			added = append(added, fmt.Sprintf("%s->%s %s", l.From, l.To, FormatNum(l.Cycles)))
		}
		if len(added) == 0 {
			continue
		}
		pairs += len(added)
		forms++
		if e.Provenance == nil {
			continue
		}
		note := "added latency " + strings.Join(added, ", ") + " (" + source + ")"
		if e.Provenance.Note != "" {
			note = e.Provenance.Note + "; " + note
		}
		e.Provenance.Note = note
	}
	return pairs, forms
}

// SortForms orders entries by form name (files diff cleanly).
func (m *Model) SortForms() {
	sort.Slice(m.Forms, func(i, j int) bool { return m.Forms[i].Form < m.Forms[j].Form })
}

// HasPort reports whether p is one of the model's ports.
func (m *Model) HasPort(p string) bool {
	for _, x := range m.Ports {
		if x == p {
			return true
		}
	}
	return false
}

// String renders port pressure compactly: "1*p01+2*p5".
func (pp PortPressure) String() string {
	var parts []string
	for _, u := range pp {
		parts = append(parts, fmt.Sprintf("%g*p%s", u.Cycles, strings.Join(u.Ports, "")))
	}
	return strings.Join(parts, "+")
}
