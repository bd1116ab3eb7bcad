package analysis

import (
	"slices"

	"portlab/analysis/pipeline"
	"portlab/isa"
)

// Memory dependencies: a load of the address a store just wrote gets its
// value from the store (store-to-load forwarding, or memory renaming on
// cores that track a stack slot like a register).

// link adds what depends on the whole block to its instructions: ports
// beside 512-bit work, late forwarding from multiply-class work, reads
// across vector domains, one-cycle vector results beside multi-cycle
// vector work, stores
// feeding loads, where stores write (for the
// store commit), folded values read as data.
func (b *Builder) link(k *Kernel) {
	b.beside512(k)
	b.lateForward(k)
	b.domainCrossings(k)
	b.forwardMemory(k)
	b.storeLines(k)
	b.loadSplits(k)
	if !b.builtinIdioms {
		k.materialiseFolded()
	}
	b.besideMulticycle(k)
}

// forwardingStore returns the store a load at j reads from: the nearest
// earlier store, in this iteration (dist 0) or the previous one (dist 1),
// to the same address expression, when the address registers do not
// change in between. Stores to another expression are assumed not to
// alias (llvm-mca's --noalias default).
func (k *Kernel) forwardingStore(j int) (i, dist int, ok bool) {
	n := len(k.Instrs)
	ld := k.Instrs[j]
	if !ld.MayLoad || ld.memKey == "" {
		return 0, 0, false
	}
	for step := 1; step <= n; step++ {
		i := ((j-step)%n + n) % n
		st := k.Instrs[i]
		if !st.MayStore || st.Desc.NoCommit || st.memKey != ld.memKey {
			continue
		}
		dist := 0
		if i >= j {
			dist = 1
		}
		var changed bool
		if dist == 0 {
			changed = k.addressWritten(ld, i, j)
		} else {
			changed = k.addressWritten(ld, 0, n)
		}
		return i, dist, !changed
	}
	return 0, 0, false
}

// addressWritten reports whether an instruction in [lo, hi) writes one of
// x's address registers.
func (k *Kernel) addressWritten(x *Instr, lo, hi int) bool {
	for _, u := range addressUnits(x) {
		for i := lo; i < hi; i++ {
			if writesUnit(&k.Instrs[i].Desc, u) {
				return true
			}
		}
	}
	return false
}

// addressUnits lists the register units x's memory operand reads.
func addressUnits(x *Instr) []int {
	var out []int
	for _, a := range x.Inst.Args {
		if a.Type != isa.OpMem {
			continue
		}
		for _, r := range []int{regUnit(a.Mem.Base), regUnit(a.Mem.Index)} {
			if r >= 0 {
				out = append(out, r)
			}
		}
	}
	return out
}

// forwardMemory turns each store-then-load pair of one address into a
// register dependency through a memory unit, when the model gives the
// core's store-to-load round trip (store_to_load_forward_latency: a store
// and the reload of its value, chained, per link). The store writes the
// unit when it issues, with its data; the load's results are ready the
// round trip after that, plus whatever its operation adds to the loaded
// value. A store whose own round trip was measured (its entry's latency
// to memory: vector stores reloaded by their own class, longer than a
// general register's on the Zen 3 guest) takes that one instead. A round
// trip of a cycle or less is a core that renames memory: the pairs ran as
// fast as a store and a load issue, and the reload costs nothing
// (store_forward_chain measured 2.00 for two links on the Granite Rapids
// guest, the adds' two cycles). Models without the figure (llvm-mca's)
// keep llvm-mca's behaviour: loads do not wait for stores' data.
func (b *Builder) forwardMemory(k *Kernel) {
	fwd := b.Model.StoreToLoadForwardLatency
	if fwd <= 0 {
		return
	}
	slots := map[string]int{}
	slotOf := func(key string) (int, bool) {
		slot, ok := slots[key]
		if !ok {
			if len(slots) == unitCarry-unitMem {
				return 0, false
			}
			slot = len(slots)
			slots[key] = slot
		}
		return unitMem + slot, true
	}
	for j, ld := range k.Instrs {
		if ld.MayStore {
			if ld.MayLoad {
				b.chainReadModifyWrite(k, j, fwd, slotOf)
			}
			continue
		}
		i, _, ok := k.forwardingStore(j)
		if !ok {
			continue
		}
		u, ok := slotOf(ld.memKey)
		if !ok {
			continue
		}
		through := forwardCycles(b.storeRoundTrip(k.Instrs[i].Form, fwd))
		st := &k.Instrs[i].Desc
		if !writesUnit(st, u) {
			st.Writes = append(st.Writes, pipeline.Write{Reg: u})
		}
		// The loaded part of each result's latency becomes the forwarding.
		loadPart := b.loadAdvance(ld.Form, ld.Latency)
		for w := range ld.Desc.Writes {
			ld.Desc.Writes[w].Latency = max(0, ld.Desc.Writes[w].Latency-loadPart) + through
		}
		ld.Desc.Reads = append(ld.Desc.Reads, pipeline.Read{Reg: u})
	}
}

// chainReadModifyWrite links a read-modify-write at j to the store it
// reads from (forwardingStore: an earlier one to the same address, or
// itself an iteration before): it waits for that store's memory unit and
// writes the unit itself, ready its measured latency from memory to
// memory after it issues (else the round trip fwd and a cycle). Code
// that updates one address every iteration (a counter in memory) runs at
// that chain's pace, not its ports': on the Zen 3 guest four `add
// qword ptr [rdx+8*i], 1` an iteration ran at 6.6 cycles, the model's
// `add m64, imm8` latency 6.13 (`portlab validate --no-peers
// testdata/experiments/memory_mixes.s`), where the ports allow 2.00. A
// plain store it reads from is ready when it issues (the store's part of
// the round trip is not counted there).
func (b *Builder) chainReadModifyWrite(k *Kernel, j int, fwd float64, slotOf func(string) (int, bool)) {
	rmw := k.Instrs[j]
	if rmw.memKey == "" {
		return
	}
	i, _, ok := k.forwardingStore(j)
	if !ok {
		return
	}
	u, ok := slotOf(rmw.memKey)
	if !ok {
		return
	}
	lat := fwd + 1
	if rmw.Form != nil {
		if e, ok := lookupEntry(b.Model, rmw.Form.Name()); ok {
			for _, l := range e.Latencies {
				if l.From == "mem" && l.To == "mem" && l.Cycles > 0 {
					lat = l.Cycles
				}
			}
		}
	}
	// Its own write: the chain's link (raised, where an earlier read-
	// modify-write of the address gave it a plain store's write already).
	c := max(1, roundCycles(lat))
	found := false
	for w := range rmw.Desc.Writes {
		if rmw.Desc.Writes[w].Reg == u {
			rmw.Desc.Writes[w].Latency = max(rmw.Desc.Writes[w].Latency, c)
			found = true
		}
	}
	if !found {
		rmw.Desc.Writes = append(rmw.Desc.Writes, pipeline.Write{Reg: u, Latency: c})
	}
	if st := &k.Instrs[i].Desc; !writesUnit(st, u) {
		st.Writes = append(st.Writes, pipeline.Write{Reg: u})
	}
	rmw.Desc.Reads = append(rmw.Desc.Reads, pipeline.Read{Reg: u})
}

// storeRoundTrip is the store-to-load round trip of store form f: its
// entry's measured latency from a register to memory, else the model's
// fwd.
func (b *Builder) storeRoundTrip(f *isa.Form, fwd float64) float64 {
	if f == nil {
		return fwd
	}
	e, ok := lookupEntry(b.Model, f.Name())
	if !ok {
		return fwd
	}
	for _, l := range e.Latencies {
		if l.To == "mem" && l.From != "mem" && l.Cycles > 0 {
			return l.Cycles
		}
	}
	return fwd
}

// forwardCycles is how long after a store issues a reload of its address
// has the stored value, for a measured round trip fwd: the round trip
// itself (a chain of mov [rdi], rax; mov rax, [rdi] pairs ran at 6.0
// cycles a pair on the Zen 3 guest, whose model says 5.97), or nothing
// where the core renames memory (fwd under 1.5: a pair a cycle or more).
func forwardCycles(fwd float64) int {
	if c := roundCycles(fwd); c >= 2 {
		return c
	}
	return 0
}

// lastWriter returns the instruction that last wrote unit u before
// instruction before: in this iteration (dist 0) or, when none does, the
// previous one (dist 1).
func (k *Kernel) lastWriter(u, before int) (i, dist int, ok bool) {
	for i := before - 1; i >= 0; i-- {
		if writesUnit(&k.Instrs[i].Desc, u) {
			return i, 0, true
		}
	}
	for i := len(k.Instrs) - 1; i >= before; i-- {
		if writesUnit(&k.Instrs[i].Desc, u) {
			return i, 1, true
		}
	}
	return 0, 0, false
}

// readsMemoryUnits reports whether forwardMemory linked a store to a load.
func (k *Kernel) readsMemoryUnits() bool {
	for _, x := range k.Instrs {
		for _, r := range x.Desc.Reads {
			if r.Reg >= unitMem && r.Reg < unitCarry {
				return true
			}
		}
	}
	return false
}

func writesUnit(d *pipeline.InstrDesc, u int) bool {
	for _, w := range d.Writes {
		if w.Reg == u {
			return true
		}
	}
	return false
}

// materialiseFolded makes a value that renaming computed (a chain of
// add r, imm or inc whose measured latency rounds to 0: the core folds
// the immediates at rename) cost a cycle where an execution unit reads it
// as data: a store's data, an ALU operand. Other folded operations and
// address generation take the folded value as it is (measured: add rax, 8
// feeding [rdx+rax] runs at load throughput).
func (k *Kernel) materialiseFolded() {
	folded := func(x *Instr) bool {
		// Not a store: its write of a memory unit (forwardMemory) takes
		// the store's latency, which a measured round trip of memory
		// renaming can round to 0 (0.5 cycles a pair on Granite Rapids).
		return x.Latency == 0 && x.Idiom == "" && len(x.Desc.Writes) > 0 && !x.Desc.MayLoad && !x.Desc.MayStore
	}
	for j, x := range k.Instrs {
		if folded(x) || x.Desc.IndependentReads || x.Idiom != "" {
			continue
		}
		addr := addressUnits(x)
		for r := range x.Desc.Reads {
			rd := &x.Desc.Reads[r]
			if rd.Reg < 0 || rd.Reg >= unitMem && rd.Reg < unitCarry || slices.Contains(addr, rd.Reg) {
				continue
			}
			if i, _, ok := k.lastWriter(rd.Reg, j); ok && folded(k.Instrs[i]) {
				rd.Advance = min(rd.Advance, -1)
			}
		}
	}
}
