package analysis

import (
	"fmt"

	"portlab/analysis/pipeline"
	"portlab/isa"
	"portlab/modeldb"
)

// Store commit: cores write retired stores to the cache in order, some
// only one cache line a cycle (model store_commit; Golden Cove-class
// cores: two stores a cycle only when consecutive ones share a line). How
// fast a kernel's stores commit depends on where they write, so each
// store gets its line: a region per address expression (base, index and
// scale registers), the displacement, and what constant increments of
// those registers (add r, imm; sub; inc; dec; lea r, [r+imm]) add before
// it in the iteration and over a whole one (push and call store below
// rsp, which they and pop and ret move by 8). Regions are assumed to start
// on a line; a store whose address register is written any other way
// (a load, a multiply) has an unknown line: it pairs with none.

// storeCommitOf is the model's store commit as the simulator takes it
// (the zero value, no limit, when the model has none).
func storeCommitOf(m *modeldb.Model) pipeline.StoreCommit {
	return m.StoreCommit.Pipeline()
}

// storeLines sets the store line (pipeline.InstrDesc.Line) of every store
// of the kernel, when the model has a store commit.
func (b *Builder) storeLines(k *Kernel) {
	if b.Model.StoreCommit == nil {
		return
	}
	regions := map[string]int{}
	for j := range k.Instrs {
		x := k.Instrs[j]
		if !x.MayStore || x.Desc.NoCommit {
			continue
		}
		mem, ok := storeOperand(x)
		if !ok {
			continue
		}
		offset, stride, key, known := k.addressPattern(j, mem)
		if !known {
			continue
		}
		region, ok := regions[key]
		if !ok {
			region = len(regions)
			regions[key] = region
		}
		x.Desc.Line = pipeline.StoreLine{Known: true, Region: region, Offset: offset, Stride: stride, Bytes: modeldb.AccessBytes(x.Form, isa.Write|isa.CondWrite)}
		if n, period := splitsOf(offset, stride, x.Desc.Line.Bytes); n > 0 {
			k.Notes = append(k.Notes, fmt.Sprintf("%s crosses a cache line in %d of every %d iterations: it writes two lines there (the model's store_commit)", oneLine(x.Text), n, period))
		}
	}
}

// splitsOf counts the iterations of one period of an access's address
// pattern (the line offset repeats every 64/gcd(stride, 64) iterations)
// in which its bytes cross into the next line.
func splitsOf(offset, stride int64, bytes int) (n, period int) {
	s := stride % pipeline.LineBytes
	if s < 0 {
		s += pipeline.LineBytes
	}
	period = 1
	if s != 0 {
		period = int(pipeline.LineBytes / gcd(s, pipeline.LineBytes))
	}
	for i := 0; i < period; i++ {
		if pipeline.CrossesLine(offset, stride, bytes, i) {
			n++
		}
	}
	return n, period
}

func gcd(a, b int64) int64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// addressPattern places the address of memory operand mem of instruction
// j: the region (a key per address expression: base, index and scale
// registers), the offset from the region's start in the first iteration
// (the displacement and what constant increments add before j) and what
// a whole iteration adds; false when an address register is written any
// other way.
func (k *Kernel) addressPattern(j int, mem isa.InstMem) (offset, stride int64, key string, ok bool) {
	offset = mem.Disp
	for _, r := range []struct {
		reg   isa.Reg
		scale int64
	}{{mem.Base, 1}, {mem.Index, int64(max(mem.Scale, 1))}} {
		if !r.reg.Valid() || r.reg == isa.RIP {
			continue
		}
		before, total, ok := k.increments(r.reg, j)
		if !ok {
			return 0, 0, "", false
		}
		offset += before * r.scale
		stride += total * r.scale
	}
	return offset, stride, fmt.Sprintf("%v|%v|%d", mem.Base, mem.Index, mem.Scale), true
}

// loadSplits gives every load whose bytes cross a 64-byte line in some
// iterations (regions assumed to start on a line, as for the store
// commit) the model's load_line_split for its access class: in those
// iterations it takes the ports of its class's plain load
// (modeldb.LineSplitPlainLoad, what the split streams were measured
// against) that many times less once more (pipeline.InstrDesc.LoadSplit).
func (b *Builder) loadSplits(k *Kernel) {
	ls := b.Model.LoadLineSplit
	if len(ls) == 0 {
		return
	}
	for j, x := range k.Instrs {
		if !x.MayLoad || x.Form == nil || x.Form.Mnemonic == "lea" {
			continue
		}
		mem, ok := x.Inst.Memory()
		bytes := modeldb.AccessBytes(x.Form, isa.Read)
		if !ok || bytes == 0 {
			continue
		}
		class := modeldb.LineSplitClass(bytes)
		f := ls[class]
		if f <= 1 {
			continue
		}
		offset, stride, _, ok := k.addressPattern(j, mem)
		if !ok {
			continue
		}
		n, period := splitsOf(offset, stride, bytes)
		if n == 0 {
			continue
		}
		plain, ok := b.Model.Lookup(modeldb.LineSplitPlainLoad(class))
		if !ok {
			continue
		}
		var more modeldb.PortPressure
		for _, u := range plain.PortPressure {
			more = append(more, modeldb.PortUse{Cycles: u.Cycles * (f - 1), Ports: u.Ports})
		}
		uses, err := b.compileUses(x.Form.Name(), more)
		if err != nil || len(uses) == 0 {
			continue
		}
		x.Desc.LoadSplit = &pipeline.LoadSplit{Offset: offset, Stride: stride, Bytes: bytes, Uses: uses}
		k.Notes = append(k.Notes, fmt.Sprintf("%s crosses a cache line in %d of every %d iterations: it takes its load ports %.2f times there (the model's load_line_split)",
			oneLine(x.Text), n, period, f))
	}
}

// storeOperand returns the memory operand a store writes: its only
// explicit one, or for push and call the stack slot below rsp; false for
// other implicit ones (string stores).
func storeOperand(x *Instr) (isa.InstMem, bool) {
	if x.Form != nil && (x.Form.Mnemonic == "push" || x.Form.Mnemonic == "call") {
		return isa.InstMem{Base: isa.RSP, Scale: 1, Disp: -8}, true
	}
	out, ok := x.Inst.Memory()
	return out, ok && x.Form != nil && x.Form.Mnemonic != "lea"
}

// increments returns what constant increments of register r add to it
// before instruction j in an iteration and over a whole one; false when an
// instruction writes r otherwise.
func (k *Kernel) increments(r isa.Reg, j int) (before, total int64, ok bool) {
	u := regUnit(r)
	for i := range k.Instrs {
		x := k.Instrs[i]
		if !writesUnit(&x.Desc, u) {
			continue
		}
		d, ok := constantIncrement(x.Inst, r)
		if !ok {
			return 0, 0, false
		}
		total += d
		if i < j {
			before += d
		}
	}
	return before, total, true
}

// constantIncrement returns what in adds to register r when it is add r,
// imm; sub r, imm; inc r; dec r; or lea r, [r+disp] on r's full width;
// or, for rsp, a push, pop, call or ret (8 bytes each).
func constantIncrement(in *isa.Inst, r isa.Reg) (int64, bool) {
	if r == isa.RSP {
		switch in.Mnemonic {
		case "push", "call":
			return -8, true
		case "pop", "ret":
			return 8, true
		}
	}
	if len(in.Args) == 0 || in.Args[0].Type != isa.OpReg || in.Args[0].Reg != r {
		return 0, false
	}
	switch {
	case in.Mnemonic == "add" && len(in.Args) == 2 && in.Args[1].Type == isa.OpImm:
		return in.Args[1].Imm, true
	case in.Mnemonic == "sub" && len(in.Args) == 2 && in.Args[1].Type == isa.OpImm:
		return -in.Args[1].Imm, true
	case in.Mnemonic == "inc" && len(in.Args) == 1:
		return 1, true
	case in.Mnemonic == "dec" && len(in.Args) == 1:
		return -1, true
	case in.Mnemonic == "lea" && len(in.Args) == 2 && in.Args[1].Type == isa.OpMem:
		m := in.Args[1].Mem
		if m.Base == r && !m.Index.Valid() {
			return m.Disp, true
		}
	}
	return 0, false
}
