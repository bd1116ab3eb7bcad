package analysis

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"portlab/analysis/input"
	"portlab/analysis/pipeline"
	"portlab/isa"
	"portlab/modeldb"
)

// Kernel is a region resolved against a model: every instruction with its
// form, the model's entry and the descriptor the simulator runs.
type Kernel struct {
	Name   string
	Region *input.Region
	Model  *modeldb.Model
	Ports  []string
	Instrs []*Instr
	// Notes say where the analysis filled in what the model lacks.
	Notes []string
}

// Instr is one instruction of a kernel.
type Instr struct {
	Inst  *isa.Inst
	Form  *isa.Form
	Entry *modeldb.Entry
	// Derived says how an entry the model lacks was made ("vaddpd ymm,
	// ymm, ymm + load"); "" when the entry is the model's.
	Derived string
	// Idiom is "zero idiom", "dependency-breaking idiom" or "eliminable
	// move" when renaming treats this instance specially.
	Idiom string
	// Text is the instruction as reports print it.
	Text string

	Uops        int
	Latency     int
	RThroughput float64
	MayLoad     bool
	MayStore    bool
	SideEffects bool
	// Pressure is the port pressure of this instance (none for a zero
	// idiom).
	Pressure modeldb.PortPressure
	Desc     pipeline.InstrDesc
	// Encoding is the machine code, when known (decoded input, or
	// assembled for --show-encoding).
	Encoding []byte
	// AddressLate is how many cycles earlier a load needs its address
	// registers in its address shape (the model's load_address_latency).
	AddressLate int

	memKey string // the address expression of a memory operand, for static memory dependencies
}

// regName names register unit u as the instruction spells it.
func (in *Instr) regName(u int) string {
	if u >= unitMem && u < unitCarry {
		return "[" + memText(in) + "]"
	}
	for _, a := range in.Inst.Args {
		if a.Type == isa.OpReg && regUnit(a.Reg) == u {
			return a.Reg.Name()
		}
		if a.Type == isa.OpMem {
			for _, r := range []isa.Reg{a.Mem.Base, a.Mem.Index} {
				if regUnit(r) == u {
					return r.Name()
				}
			}
		}
	}
	return unitName(u, 128)
}

// Builder lowers instructions to kernel instructions with one model,
// caching what it learns per form. It is not safe for concurrent use.
type Builder struct {
	Model *modeldb.Model
	// Syntax is the syntax instructions are printed in; SyntaxUnknown
	// prints each in the syntax it was written in (AT&T for machine code).
	Syntax  isa.Syntax
	portIdx map[string]int
	cache   map[formKey]*formInfo
	// owns counts the own limits handed out (formInfo.own).
	owns int
	// builtinIdioms is set when the model marks no idiom at all (models
	// imported from llvm-mca): the idioms every x86 core since Sandy
	// Bridge and Bulldozer recognises are used instead.
	builtinIdioms bool
	// splitFlags renames the carry flag apart from the other flags, as
	// cores since Sandy Bridge and Zen do (adcx on CF and adox on OF are
	// two chains, inc leaves CF's producer alone); models imported from
	// llvm-mca keep its single flags register.
	splitFlags bool
	// PartialWrites says how a write to part of a register (al, ax, an
	// xmm register written by legacy SSE) depends on the register's
	// older value: PartialMerge, PartialOrder or PartialNone. NewBuilder
	// picks by model (see DefaultPartialWrites).
	PartialWrites string
}

// Partial-write modes.
const (
	// PartialMerge: the write merges with the old value, so it waits for
	// it like a read (what x86 cores do).
	PartialMerge = "merge"
	// PartialOrder: the write may not complete before the older write of
	// the register (llvm-mca's models with register files, Zen and
	// Jaguar).
	PartialOrder = "order"
	// PartialNone: the write does not wait for the old value, but a
	// later read of the whole register waits for both the partial write
	// and the full write beneath it (llvm-mca's models without register
	// files, the Intel cores).
	PartialNone = "none"
)

// DefaultPartialWrites returns the partial-write mode for a model: as
// llvm-mca behaves for models imported from it (order with register
// files, else none), merge for every other model.
func DefaultPartialWrites(m *modeldb.Model) string {
	imported := false
	if _, ok := m.Extra[idiomsKey]; ok {
		imported = true
	}
	if p := m.Provenance; p != nil && strings.Contains(p.From, "llvm-mca") {
		imported = true
	}
	if !imported {
		return PartialMerge
	}
	if len(m.RegisterFiles) > 0 {
		return PartialOrder
	}
	return PartialNone
}

// NewBuilder prepares kernels for model m.
func NewBuilder(m *modeldb.Model) (*Builder, error) {
	if len(m.Ports) > 64 {
		return nil, fmt.Errorf("model %s has %d ports: the simulator handles at most 64", m.Label(), len(m.Ports))
	}
	b := &Builder{Model: m, portIdx: map[string]int{}, cache: map[formKey]*formInfo{}}
	for i, p := range m.Ports {
		b.portIdx[p] = i
	}
	b.builtinIdioms = !modelMarksIdioms(m)
	b.splitFlags = !b.builtinIdioms
	b.PartialWrites = DefaultPartialWrites(m)
	return b, nil
}

// Kernel builds the kernel of a region. An instruction whose form the
// model lacks (and cannot be derived) is an error naming its position.
func (b *Builder) Kernel(r *input.Region) (*Kernel, error) {
	k := &Kernel{Name: r.Name, Region: r, Model: b.Model, Ports: b.Model.Ports}
	for _, in := range r.Insts {
		x, err := b.Instr(in)
		if err != nil {
			return nil, err
		}
		x.Text = b.text(in)
		k.Instrs = append(k.Instrs, x)
	}
	b.link(k)
	if b.builtinIdioms {
		for _, x := range k.Instrs {
			if x.Idiom != "" {
				k.Notes = append(k.Notes, "the model marks no idioms: zero and dependency-breaking idioms are portlab's built-in list (as llvm-mca's x86 models have them)")
				break
			}
		}
	}
	seen := map[string]bool{}
	for _, x := range k.Instrs {
		if x.AddressLate > 0 && !seen["address "+x.Text] {
			seen["address "+x.Text] = true
			k.Notes = append(k.Notes, fmt.Sprintf("%s: its address shape adds %d cycle(s) from the address registers (the model's load_address_latency)", oneLine(x.Text), x.AddressLate))
		}
		if x.Derived != "" && !seen[x.Derived] {
			seen[x.Derived] = true
			k.Notes = append(k.Notes, fmt.Sprintf("%q is not in the model: derived as %s", x.Form.Name(), x.Derived))
		}
	}
	k.falseDependencyNotes()
	return k, nil
}

// falseDependencyNotes names, once for each form, the instructions that
// wait for the old value of a destination they overwrite (the model's
// false_dependency), unless a zero or dependency-breaking idiom wrote
// that register last.
func (k *Kernel) falseDependencyNotes() {
	var forms []string
	regs := map[string][]string{}
	link := map[string]float64{}
	for i, x := range k.Instrs {
		if x.Entry == nil || x.Entry.FalseDependency <= 0 || x.Idiom != "" {
			continue
		}
		for _, op := range modeldb.FalseDependencyOperands(x.Form) {
			if op >= len(x.Inst.Args) || x.Inst.Args[op].Type != isa.OpReg {
				continue
			}
			r := x.Inst.Args[op].Reg
			if w, _, ok := k.lastWriter(regUnit(r), i); ok && (k.Instrs[w].Idiom == "zero idiom" || k.Instrs[w].Idiom == "dependency-breaking idiom") {
				continue
			}
			name := x.Form.Name()
			if _, ok := regs[name]; !ok {
				forms = append(forms, name)
			}
			if !slices.Contains(regs[name], r.String()) {
				regs[name] = append(regs[name], r.String())
			}
			link[name] = x.Entry.FalseDependency
		}
	}
	for _, f := range forms {
		k.Notes = append(k.Notes, fmt.Sprintf("%s waits for the old value of the destination it overwrites (%s): a false dependency, %.3g cycles a link (the model's false_dependency); a zero idiom on the register before it breaks the chain",
			f, strings.Join(regs[f], ", "), link[f]))
	}
}

// formInfo is what the model says about one form.
type formInfo struct {
	entry    *modeldb.Entry
	derived  string
	uops     int
	slots    int // dispatch and reorder-buffer slots: uops less a fused load
	latency  int
	uses     []pipeline.Use
	pressure modeldb.PortPressure
	// pressure512 and uses512 are a narrower vector form's ports beside
	// 512-bit work (modeldb.Entry.PortPressure512), nil when the same.
	pressure512 modeldb.PortPressure
	uses512     []pipeline.Use
	// wide512 says the form is 512-bit work (modeldb.Is512BitOp).
	wide512 bool
	// latency512 scales a narrower vector form's latencies beside 512-bit
	// work (modeldb.Entry.Latency512 / Latency), 0 when they stay.
	latency512 float64
	rtp        float64
	// own is the form's own limit (pipeline.InstrDesc.Own) where its
	// throughput is slower than its ports run it, 0 otherwise (ownLimit).
	own      int
	ownTicks int64
	// writeLat and readAdv hold operand latencies by operand key ("0",
	// "flags", "mem", "rax"); defaultAdv is the read-advance of register
	// sources of a load-op form without operand latencies; implicitAdv is
	// the read-advance of implicit inputs (flags, rax) the model has no
	// pair for: in a load-op form they are read with the register
	// operands, after the load (adc r64, m64: flags in -> out is 1 cycle,
	// not the 6 of the memory path).
	writeLat    map[string]int
	readAdv     map[string]int
	defaultAdv  int
	implicitAdv int
	// falseDep is the link of a chain through a write-only destination
	// the form waits for all the same (modeldb.Entry.FalseDependency), 0
	// for none; falseDepOps those destinations' operand keys.
	falseDep    int
	falseDepOps map[string]bool

	mayLoad, mayStore, sideEffects bool
	// stores: the form writes data to memory (an operand it writes, a
	// push or call, a string store), which the store commit counts;
	// mayStore may also come from the model's flags alone (prefetches).
	stores                       bool
	loadBarrier, storeBarrier    bool
	zeroIdiom, depBreaking, move bool
}

func roundCycles(v float64) int {
	if v <= 0 || math.IsNaN(v) {
		return 0
	}
	return int(math.Round(v))
}

// formKey is what a formInfo describes: a form, in one address shape
// where the model costs the form by shape (lea).
type formKey struct {
	f     *isa.Form
	shape string
}

// addressShape is the shape of an instruction's address operand (lea's
// m), "" when it has none.
func addressShape(in *isa.Inst, f *isa.Form) string {
	for i, op := range f.Operands {
		if op.Kind == isa.KindM && i < len(in.Args) && in.Args[i].Type == isa.OpMem {
			return in.Args[i].Mem.Shape()
		}
	}
	return ""
}

// inShape returns the entry as it costs the address shape: latency and
// throughput from its addressing list, port pressure the shape's where
// measured (fewer ports: Granite Rapids runs [base+index*s] on three of
// its five ALU ports), else the form's scaled to that throughput. The
// entry itself when it has no figures for the shape.
func inShape(e *modeldb.Entry, shape string) *modeldb.Entry {
	a, ok := e.ForShape(shape)
	if !ok || a.Throughput <= 0 || e.Throughput <= 0 {
		return e
	}
	c := *e
	c.Latency, c.Throughput = a.Latency, a.Throughput
	c.Latencies = nil
	for _, l := range e.Latencies {
		if l.From == "mem" {
			l.Cycles = a.Latency
		}
		c.Latencies = append(c.Latencies, l)
	}
	if len(a.PortPressure) > 0 {
		c.PortPressure = a.PortPressure
		return &c
	}
	r := a.Throughput / e.Throughput
	c.PortPressure = nil
	for _, u := range e.PortPressure {
		c.PortPressure = append(c.PortPressure, modeldb.PortUse{Cycles: u.Cycles * r, Ports: u.Ports})
	}
	return &c
}

func (b *Builder) form(f *isa.Form, shape string, pos isa.Pos) (*formInfo, error) {
	if fi, ok := b.cache[formKey{f, shape}]; ok {
		return fi, nil
	}
	m := b.Model
	name := f.Name()
	e, ok := lookupEntry(m, name)
	if ok && shape != "" {
		e = inShape(e, shape)
	}
	fi := &formInfo{}
	if !ok {
		var err error
		e, fi.derived, err = b.deriveMemoryForm(f)
		if err != nil {
			msg := fmt.Sprintf("form %q is not in model %s", name, m.Label())
			if err != errNoCounterpart {
				msg += " (" + err.Error() + ")"
			}
			if pos.IsValid() {
				return nil, fmt.Errorf("%s: %s", pos, msg)
			}
			return nil, fmt.Errorf("%s", msg)
		}
	}
	fi.entry = e
	fi.wide512 = modeldb.Is512BitOp(f)
	fi.uops = roundCycles(e.Uops)
	if e.Uops > 0 && fi.uops == 0 {
		fi.uops = 1
	}
	fi.latency = roundCycles(e.Latency)
	fi.rtp = e.Throughput
	fi.pressure = e.PortPressure
	var err error
	if fi.uses, err = b.compileUses(name, e.PortPressure); err != nil {
		return nil, err
	}
	b.ownLimit(fi, e)
	if len(e.PortPressure512) > 0 && modeldb.IsNarrowVectorOp(f) {
		fi.pressure512 = e.PortPressure512
		if fi.uses512, err = b.compileUses(name, e.PortPressure512); err != nil {
			return nil, err
		}
	}
	if e.Latency512 > 0 && e.Latency > 0 && modeldb.IsNarrowVectorOp(f) {
		fi.latency512 = e.Latency512 / e.Latency
	}
	// Memory behaviour: the form's memory operands, stack and string
	// instructions, and the model's flags.
	acc := modeldb.MemAccessOf(f)
	fi.mayLoad = acc.Loads()
	fi.mayStore, fi.stores = acc.Stores(), acc.Stores()
	// Memory uops dispatch fused with the operation they belong to: a
	// load-op form takes one slot less, a store (address and data) one
	// less, a read-modify-write two less.
	fi.slots = int(modeldb.DispatchSlots(f, float64(fi.uops), b.Model.MicroFusion))
	fi.mayLoad = fi.mayLoad || e.HasFlag(modeldb.FlagMayLoad)
	fi.mayStore = fi.mayStore || e.HasFlag(modeldb.FlagMayStore)
	fi.sideEffects = f.Has(isa.AttrSerializing) || f.Has(isa.AttrSystem) || f.Has(isa.AttrPrivileged) || e.HasFlag(modeldb.FlagSerializing)
	switch f.Mnemonic {
	case "mfence":
		fi.loadBarrier, fi.storeBarrier, fi.mayLoad, fi.mayStore = true, true, true, true
	case "lfence":
		fi.loadBarrier, fi.mayLoad = true, true
	case "sfence":
		fi.storeBarrier, fi.mayStore = true, true
	}
	if fi.sideEffects && (fi.mayLoad || fi.mayStore || f.Has(isa.AttrSerializing)) {
		fi.loadBarrier, fi.storeBarrier = fi.loadBarrier || fi.mayLoad || f.Has(isa.AttrSerializing), fi.storeBarrier || fi.mayStore || f.Has(isa.AttrSerializing)
		fi.mayLoad, fi.mayStore = true, true
	}
	// Idioms: the model's flags, else the built-in list.
	if b.builtinIdioms {
		fi.zeroIdiom, fi.depBreaking = builtinIdiom(f)
	} else {
		fi.zeroIdiom = e.HasFlag(modeldb.FlagZeroIdiom)
		fi.depBreaking = e.HasFlag(modeldb.FlagDepBreaking) || e.HasFlag(modeldb.FlagOnesIdiom)
		fi.move = e.HasFlag(modeldb.FlagMoveEliminated)
	}
	// Operand latencies.
	fi.writeLat, fi.readAdv = map[string]int{}, map[string]int{}
	// A chain from the flags to the flags (gen's flags->flags: instances
	// on registers of their own) says how long the form waits for the
	// flags it reads, not when it writes them: where the form has other
	// pairs, it is a read advance against the flags' write latency (the
	// form's latency where no other pair names the flags), so a chain
	// that ran at the ports' rate (shl r64, cl on the Zen 5 guest: 0.34
	// cycles a link) does not make the flags free to their readers.
	lats, selfFlags := e.Latencies, -1.0
	if i := slices.IndexFunc(lats, func(l modeldb.OperandLatency) bool { return l.From == "flags" && l.To == "flags" }); i >= 0 && len(lats) > 1 {
		selfFlags = lats[i].Cycles
		lats = slices.Delete(slices.Clone(lats), i, i+1)
	}
	for _, l := range lats {
		c := roundCycles(l.Cycles)
		if c > fi.writeLat[l.To] {
			fi.writeLat[l.To] = c
		}
		fi.latency = max(fi.latency, c)
	}
	advance := func(from string, wl int, cycles float64) {
		adv := max(0, wl-roundCycles(cycles))
		if old, ok := fi.readAdv[from]; !ok || adv < old {
			fi.readAdv[from] = adv
		}
	}
	for _, l := range lats {
		advance(l.From, fi.writeLat[l.To], l.Cycles)
	}
	if selfFlags >= 0 {
		wl, ok := fi.writeLat["flags"]
		if !ok {
			wl = fi.latency
		}
		advance("flags", wl, selfFlags)
	}
	if len(e.Latencies) == 0 && fi.mayLoad && f.HasMemory() {
		fi.defaultAdv = b.loadAdvance(f, fi.latency)
	}
	if fi.falseDep = roundCycles(e.FalseDependency); fi.falseDep > 0 {
		fi.falseDepOps = map[string]bool{}
		for _, i := range modeldb.FalseDependencyOperands(f) {
			fi.falseDepOps[strconv.Itoa(i)] = true
		}
	}
	fi.implicitAdv = fi.defaultAdv
	first := true
	for i, op := range f.Operands {
		if op.Kind.IsMemory() || op.Access&isa.Read == 0 {
			continue
		}
		if a, ok := fi.readAdv[strconv.Itoa(i)]; ok && (first || a < fi.implicitAdv) {
			fi.implicitAdv, first = a, false
		}
	}
	b.cache[formKey{f, shape}] = fi
	return fi, nil
}

var errNoCounterpart = fmt.Errorf("no register form to derive it from")

// registerForms returns the catalog forms of f with its memory operand
// replaced by a register of the same width, most likely first.
func registerForms(f *isa.Form) []*isa.Form {
	var out []*isa.Form
	for i, op := range f.Operands {
		if !op.Kind.IsMemory() || op.Kind == isa.KindM {
			continue
		}
		for _, k := range registerKinds(f, op.Kind) {
			if rf, ok := isa.Lookup(f.WithKind(i, k).Name()); ok {
				out = append(out, rf)
			}
		}
		break
	}
	return out
}

// registerKinds lists the register kinds that stand for memory kind k.
func registerKinds(f *isa.Form, k isa.Kind) []isa.Kind {
	switch k {
	case isa.KindM8:
		return []isa.Kind{isa.KindR8}
	case isa.KindM16:
		return []isa.Kind{isa.KindR16, isa.KindXMM}
	case isa.KindM32:
		return []isa.Kind{isa.KindR32, isa.KindXMM}
	case isa.KindM64:
		return []isa.Kind{isa.KindR64, isa.KindXMM, isa.KindMM}
	case isa.KindM128:
		return []isa.Kind{isa.KindXMM}
	case isa.KindM256:
		return []isa.Kind{isa.KindYMM}
	case isa.KindM512:
		return []isa.Kind{isa.KindZMM}
	case isa.KindM16B, isa.KindM32B, isa.KindM64B:
		for _, o := range f.Operands {
			if o.Kind == isa.KindXMM || o.Kind == isa.KindYMM || o.Kind == isa.KindZMM {
				return []isa.Kind{o.Kind}
			}
		}
	}
	return nil
}

// registerCounterpart returns the model's entry for f with its memory
// operand replaced by a register of the same width, the register class
// and the memory operand's index.
func (b *Builder) registerCounterpart(f *isa.Form) (*modeldb.Entry, string, int) {
	for i, op := range f.Operands {
		if !op.Kind.IsMemory() || op.Kind == isa.KindM {
			continue
		}
		for _, k := range registerKinds(f, op.Kind) {
			if e, ok := lookupEntry(b.Model, f.WithKind(i, k).Name()); ok {
				class := string(k)
				if strings.HasPrefix(class, "r") {
					class = "gpr"
				}
				return e, class, i
			}
		}
		return nil, "", i
	}
	return nil, "", -1
}

// loadLatency returns the model's load-to-use latency for a register
// class, or 0 when unknown.
func (b *Builder) loadLatency(class string) float64 {
	m := b.Model
	if v, ok := m.LoadLatency[class]; ok {
		return v
	}
	if class != "gpr" {
		if v, ok := m.LoadLatency["xmm"]; ok {
			return v
		}
	}
	if v, ok := m.LoadLatency["gpr"]; ok {
		return v
	}
	return 0
}

// loadAdvance is how late the register sources of a load-op form may
// arrive: the form's latency minus its register form's latency (the load
// runs first), else the load latency.
func (b *Builder) loadAdvance(f *isa.Form, lat int) int {
	e, class, _ := b.registerCounterpart(f)
	if e != nil {
		return max(0, lat-roundCycles(e.Latency))
	}
	if class == "" {
		// No register counterpart (vmovsd xmm, m64): the destination's
		// class, a vector load's where it is one.
		class = "gpr"
		if w := modeldb.VectorDest(f); w != "" {
			class = w
		}
	}
	return min(lat, roundCycles(b.loadLatency(class)))
}

// ownLimit gives a form whose measured throughput is slower than its
// ports run it an own limit: its instances issue that throughput apart,
// the floor the bottleneck bound applies too (count * throughput). A fit
// gives such ports where the mixes show the form beside everything that
// shares a port with it (on the Zen 4 guest, div r32: 1*p[ALU2]+
// 1*p[FPP1,FPP2], a cycle by the ports, 6.0 measured; four independent
// divides took 24.0 cycles, simulated without the limit 4.0).
// Only measured entries: an imported model's throughput is llvm-mca's
// report, which its own simulation does not apply either.
func (b *Builder) ownLimit(fi *formInfo, e *modeldb.Entry) {
	if len(fi.uses) == 0 || e.Throughput < 1 || e.Provenance == nil || e.Provenance.Source != modeldb.SourceMeasured {
		return
	}
	bl, err := modeldb.Balance(b.Model.Ports, e.PortPressure)
	if err != nil || e.Throughput <= bl.Cycles*(1+ownLimitMargin) {
		return
	}
	b.owns++
	fi.own, fi.ownTicks = b.owns, pipeline.CyclesToTicks(e.Throughput)
}

// ownLimitMargin is how much slower than its ports a form's throughput
// must be for an own limit.
const ownLimitMargin = 0.05

// compileUses turns port pressure into the simulator's unit uses.
func (b *Builder) compileUses(form string, pp modeldb.PortPressure) ([]pipeline.Use, error) {
	var uses []pipeline.Use
	for _, u := range pp {
		var mask uint64
		for _, p := range u.Ports {
			i, ok := b.portIdx[p]
			if !ok {
				return nil, fmt.Errorf("form %q: port %q is not one of the model's ports", form, p)
			}
			mask |= 1 << i
		}
		if t := pipeline.CyclesToTicks(u.Cycles); t > 0 && mask != 0 {
			uses = append(uses, pipeline.Use{Units: mask, Ticks: t})
		}
	}
	return uses, nil
}

// beside512 gives the narrower vector instructions of a kernel that holds
// 512-bit work their ports and latencies beside it
// (modeldb.Entry.PortPressure512, Latency512): Intel cores fuse two
// vector ports into one 512-bit unit while 512-bit uops are in flight,
// and work that moves to the FMA unit takes its latency. Idioms, which
// execute nothing, do not count.
func (b *Builder) beside512(k *Kernel) {
	wide := false
	for _, x := range k.Instrs {
		if fi := b.info(x); fi != nil && fi.wide512 && x.Idiom == "" {
			wide = true
			break
		}
	}
	if !wide {
		return
	}
	for _, x := range k.Instrs {
		fi := b.info(x)
		if fi == nil || x.Idiom != "" {
			continue
		}
		if fi.uses512 != nil {
			x.Pressure = fi.pressure512
			x.Desc.Uses = fi.uses512
		}
		if r := fi.latency512; r > 0 {
			x.Latency = roundCycles(float64(x.Latency) * r)
			x.Desc.Latency = roundCycles(float64(x.Desc.Latency) * r)
			for w := range x.Desc.Writes {
				x.Desc.Writes[w].Latency = roundCycles(float64(x.Desc.Writes[w].Latency) * r)
			}
		}
	}
}

// info returns the cached form information of a kernel instruction.
func (b *Builder) info(x *Instr) *formInfo {
	return b.cache[formKey{x.Form, addressShape(x.Inst, x.Form)}]
}

// deriveMemoryForm makes an entry for a memory form the model lacks from
// its register form plus the model's load (store) port pressure and load
// latency, as OSACA does.
func (b *Builder) deriveMemoryForm(f *isa.Form) (*modeldb.Entry, string, error) {
	if !f.HasMemory() {
		return nil, "", errNoCounterpart
	}
	reg, class, mi := b.registerCounterpart(f)
	if reg == nil {
		return nil, "", errNoCounterpart
	}
	m := b.Model
	acc := f.Operands[mi].Access
	e := &modeldb.Entry{Form: f.Name(), Uops: reg.Uops, Latency: reg.Latency, Throughput: reg.Throughput, Flags: append([]string(nil), reg.Flags...)}
	if len(modeldb.FalseDependencyOperands(f)) > 0 {
		e.FalseDependency = reg.FalseDependency // the destination's, whatever the source
	}
	e.PortPressure = append(e.PortPressure, reg.PortPressure...)
	// The memory part (below) is the same beside 512-bit work.
	reg512 := len(reg.PortPressure512) > 0
	e.PortPressure512 = append(e.PortPressure512, reg.PortPressure512...)
	how := fmt.Sprintf("%q", reg.Form)
	if acc&isa.Read != 0 {
		lp := modeldb.MemoryPressure(m.LoadThroughput, m.LoadPorts, class)
		ll := b.loadLatency(class)
		if len(lp) == 0 || ll == 0 {
			return nil, "", fmt.Errorf("the model gives no load ports and latency to derive it from %q", reg.Form)
		}
		e.PortPressure = append(e.PortPressure, lp...)
		if reg512 {
			e.PortPressure512 = append(e.PortPressure512, lp...)
		}
		e.Latency += ll
		e.Uops++
		e.Flags = append(e.Flags, modeldb.FlagMayLoad)
		how += " + load"
	}
	if acc&(isa.Write|isa.CondWrite) != 0 {
		sp := modeldb.MemoryPressure(m.StoreThroughput, m.StorePorts, class)
		if len(sp) == 0 {
			return nil, "", fmt.Errorf("the model gives no store ports to derive it from %q", reg.Form)
		}
		e.PortPressure = append(e.PortPressure, sp...)
		if reg512 {
			e.PortPressure512 = append(e.PortPressure512, sp...)
		}
		e.Uops++
		e.Flags = append(e.Flags, modeldb.FlagMayStore)
		how += " + store"
	}
	if bl, err := modeldb.Balance(m.Ports, e.PortPressure); err == nil && bl.Cycles > e.Throughput {
		e.Throughput = bl.Cycles
	}
	return e, how, nil
}

// builtinIdiom reports the idioms llvm-mca's x86 models recognise when
// their operands are one register: zero idioms (xor, sub, pxor, psub*,
// pcmpgt*, andn*: the result is zero whatever the input) and the
// dependency-breaking pcmpeq* (all ones).
func builtinIdiom(f *isa.Form) (zero, depBreak bool) {
	if f.HasMemory() {
		return false, false
	}
	mn := strings.TrimPrefix(f.Mnemonic, "v")
	switch mn {
	case "xor", "sub":
		if f.Mnemonic != mn || len(f.Operands) != 2 || (f.Operands[0].Kind != isa.KindR32 && f.Operands[0].Kind != isa.KindR64) {
			return false, false
		}
		return true, false
	case "xorps", "xorpd", "pxor", "pxord", "pxorq", "andnps", "andnpd", "pandn", "pandnd", "pandnq",
		"psubb", "psubw", "psubd", "psubq", "psubsb", "psubsw", "psubusb", "psubusw",
		"pcmpgtb", "pcmpgtw", "pcmpgtd", "pcmpgtq":
		return true, false
	case "pcmpeqb", "pcmpeqw", "pcmpeqd", "pcmpeqq":
		return false, true
	}
	return false, false
}

// Instr lowers one instruction (Kernel also sets its Text).
func (b *Builder) Instr(in *isa.Inst) (*Instr, error) {
	f := in.Form
	if f == nil {
		var err error
		if f, err = in.ResolveForm(); err != nil {
			return nil, err
		}
	}
	fi, err := b.form(f, addressShape(in, f), in.Pos)
	if err != nil {
		return nil, err
	}
	x := &Instr{Inst: in, Form: f, Entry: fi.entry, Derived: fi.derived,
		Uops: fi.uops, Latency: fi.latency, RThroughput: fi.rtp,
		MayLoad: fi.mayLoad, MayStore: fi.mayStore, SideEffects: fi.sideEffects,
		Pressure: fi.pressure, Encoding: in.Bytes}
	d := &x.Desc
	d.Uops = fi.slots
	d.Latency = fi.latency
	d.Uses = fi.uses
	d.Own, d.OwnTicks = fi.own, fi.ownTicks
	d.MayLoad, d.MayStore = fi.mayLoad, fi.mayStore
	d.NoCommit = fi.mayStore && !fi.stores
	d.LoadBarrier, d.StoreBarrier = fi.loadBarrier, fi.storeBarrier

	wlat := func(key string) int {
		if v, ok := fi.writeLat[key]; ok {
			return v
		}
		return fi.latency
	}
	adv := func(key string, regSource bool) int {
		if v, ok := fi.readAdv[key]; ok {
			return v
		}
		if regSource {
			return fi.defaultAdv
		}
		return 0
	}
	addRead := func(u, a int) {
		if u >= 0 {
			d.Reads = append(d.Reads, pipeline.Read{Reg: u, Advance: a})
		}
	}
	addWrite := func(u, l int) {
		if u >= 0 {
			d.Writes = append(d.Writes, pipeline.Write{Reg: u, Latency: l})
		}
	}
	// narrow reports whether r is a part of its register unit that a
	// write can leave apart from the rest (al, ax, xmm).
	narrow := func(r isa.Reg) bool {
		return r.IsGPR() && r.Width() < 32 || r.Class() == isa.ClassXMM
	}
	var srcRegs []isa.Reg // explicit register inputs, for idioms
	for i, a := range in.Args {
		if i >= len(f.Operands) {
			break
		}
		op := f.Operands[i]
		key := strconv.Itoa(i)
		switch a.Type {
		case isa.OpReg:
			u := regUnit(a.Reg)
			acc := op.Access
			read := acc&isa.Read != 0
			// The old value is kept where nothing is written; a compare
			// into a mask register writes all of it (the write mask
			// zeroes the bits it leaves out), and reads nothing of it:
			// on the Zen 4 guest a mix whose 11 vpcmpgtq k {k}, ymm, ymm
			// a copy alternate between k2 and k3 under k1 ran at its
			// ports' 11.0 cycles, which the simulation made 18.0 with the
			// old k2 and k3 read (at the compare's measured 2 cycles).
			if acc&isa.CondWrite != 0 || (op.Masked && op.Kind != isa.KindK && !in.Zeroing && in.Mask.Valid()) {
				read = true
			}
			// A legacy-SSE write leaves the upper lanes of its ymm/zmm
			// register alone, but cores track clean upper halves apart:
			// with PartialMerge (the hardware's behaviour) only narrow
			// general-purpose writes wait for the old value.
			merges := a.Reg.WriteMerges(f.Encoding) && (b.PartialWrites != PartialMerge || a.Reg.IsGPR())
			if acc&(isa.Write|isa.CondWrite) != 0 && !read && merges {
				// A partial write: it merges into the old value, or only
				// completes after the older write, as the mode says.
				switch b.PartialWrites {
				case PartialMerge:
					// The old value joins the operation, not the load
					// before it: a load form needs it as late as its
					// register sources, and a cycle before its result
					// at the latest (chains of movsxd ax, [rdi], mov
					// ax, [rdi] or popcnt ax, [rdi] run at 1 cycle a
					// link on Zen 3, not the load's 4-5); a register
					// form needs it at once (imul ax, cx, 3: 4 a link).
					a := 0
					if modeldb.ReadsMemory(f) {
						w := wlat(key)
						a = max(0, min(b.loadAdvance(f, w), w-1))
					}
					addRead(u, a)
				case PartialOrder:
					addRead(u, max(0, wlat(key)-1))
				}
			}
			if !read && fi.falseDepOps[key] {
				// A false dependency: the form waits for the old value
				// of a destination it overwrites, the link falseDep
				// cycles (a read that much before the write is done;
				// earlier than issue where the link is the longer).
				addRead(u, wlat(key)-fi.falseDep)
			}
			if read {
				addRead(u, adv(key, true))
				if narrow(a.Reg) {
					d.Reads[len(d.Reads)-1].Partial = true
				}
				srcRegs = append(srcRegs, a.Reg)
			}
			if acc&(isa.Write|isa.CondWrite) != 0 {
				addWrite(u, wlat(key))
				if b.PartialWrites == PartialNone && a.Reg.WriteMerges(f.Encoding) && u >= 0 {
					d.Writes[len(d.Writes)-1].Partial = true
				}
			}
		case isa.OpMem:
			// A load in a slow address shape needs its address registers
			// that many cycles earlier (the model's load_address_latency).
			late := 0
			if op.Kind != isa.KindM && op.Access&isa.Read != 0 {
				late = b.Model.LoadAddressLatency[a.Mem.Shape()]
				x.AddressLate = late
			}
			for _, r := range []isa.Reg{a.Mem.Base, a.Mem.Index} {
				if r.Valid() && r.Class() != isa.ClassIP {
					addRead(regUnit(r), adv("mem", false)-late)
				}
			}
			if op.Kind != isa.KindM {
				x.memKey = memKey(a.Mem)
			}
		}
	}
	if in.Mask.Valid() {
		addRead(regUnit(in.Mask), 0)
	}
	implicitAdv := func(key string) int {
		if v, ok := fi.readAdv[key]; ok {
			return v
		}
		return fi.implicitAdv
	}
	for _, r := range f.ImplicitReads {
		addRead(regUnitByName(r), implicitAdv(implicitKey(r)))
	}
	for _, u := range b.flagUnits(f.FlagsRead) {
		addRead(u, implicitAdv("flags"))
	}
	for _, r := range f.ImplicitWrites {
		addWrite(regUnitByName(r), wlat(implicitKey(r)))
	}
	for _, u := range b.flagUnits(f.FlagsWritten | f.FlagsUndefined) {
		addWrite(u, wlat("flags"))
	}
	// Idioms need their register inputs to be one register.
	same := len(srcRegs) >= 2 && !f.HasMemory()
	for _, r := range srcRegs {
		if r != srcRegs[0] {
			same = false
		}
	}
	switch {
	case same && fi.zeroIdiom:
		x.Idiom = "zero idiom"
		d.IndependentReads = true
		d.ZeroIdiom = true
		d.Uses = nil
		d.Latency = 0
		for i := range d.Writes {
			d.Writes[i].Latency = 0
		}
		x.Latency = 0
		x.Pressure = nil
	case same && fi.depBreaking:
		x.Idiom = "dependency-breaking idiom"
		d.IndependentReads = true
	case fi.move && len(in.Args) == 2 && in.Args[0].Type == isa.OpReg && in.Args[1].Type == isa.OpReg && !in.Mask.Valid():
		x.Idiom = "eliminable move"
		d.OptimizableMove = true
		// The move's register read and write only: flags are untouched.
		d.Reads = []pipeline.Read{{Reg: regUnit(in.Args[1].Reg)}}
		d.Writes = []pipeline.Write{{Reg: regUnit(in.Args[0].Reg), Latency: d.Latency}}
		if in.Args[0].Reg.WriteMerges(f.Encoding) {
			d.OptimizableMove = false
			x.Idiom = ""
		}
	}
	return x, nil
}

// flagUnits returns the register units of a set of flags.
func (b *Builder) flagUnits(fl isa.Flag) []int {
	switch {
	case fl == 0:
		return nil
	case !b.splitFlags:
		return []int{unitFlags}
	}
	var us []int
	if fl&isa.CF != 0 {
		us = append(us, unitCarry)
	}
	if fl&^isa.CF != 0 {
		us = append(us, unitFlags)
	}
	return us
}

// memKey renders an address for matching stores with loads.
func memKey(m isa.InstMem) string {
	var sb strings.Builder
	if m.Segment.Valid() {
		sb.WriteString(m.Segment.Name() + ":")
	}
	sb.WriteString(m.Symbol)
	sb.WriteString("[")
	sb.WriteString(m.Base.String())
	sb.WriteString("+")
	sb.WriteString(m.Index.String())
	sb.WriteString("*" + strconv.Itoa(m.Scale))
	sb.WriteString("+" + strconv.FormatInt(m.Disp, 10) + "]")
	return sb.String()
}

// text prints an instruction as reports show it: in the chosen syntax,
// else the one it was written in, mnemonic and operands separated by a tab
// as llvm-mca prints them.
func (b *Builder) text(in *isa.Inst) string {
	syn := b.Syntax
	if syn == isa.SyntaxUnknown {
		syn = in.Syntax
	}
	var s string
	switch {
	case in.Text != "" && syn == in.Syntax:
		s = strings.TrimSpace(in.Text) // as written: "$32" stays "$32"
	case syn == isa.SyntaxIntel:
		s = in.Intel()
	default:
		s = in.ATT()
	}
	// Separate the mnemonic (after any prefixes) from the operands with a tab.
	rest := s
	head := ""
	for {
		rest = strings.TrimLeft(rest, " \t")
		i := strings.IndexAny(rest, " \t")
		if i < 0 {
			return strings.TrimSpace(head + rest)
		}
		w := rest[:i]
		head += w
		rest = strings.TrimLeft(rest[i:], " \t")
		if !isPrefixWord(strings.ToLower(w)) {
			return head + "\t" + rest
		}
		head += " "
	}
}

func isPrefixWord(w string) bool {
	switch w {
	case "lock", "rep", "repe", "repz", "repne", "repnz", "data16", "addr32", "rex", "rex.w", "rex64",
		"{vex}", "{vex2}", "{vex3}", "{evex}", "notrack", "bnd", "xacquire", "xrelease", "{disp8}", "{disp32}", "{load}", "{store}":
		return true
	}
	return false
}
