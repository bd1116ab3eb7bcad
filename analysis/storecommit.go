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
	if sc := m.StoreCommit; sc != nil {
		return pipeline.StoreCommit{LinesPerCycle: sc.LinesPerCycle, StoresPerLine: sc.StoresPerLine}
	}
	return pipeline.StoreCommit{}
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
		offset, stride := mem.Disp, int64(0)
		known := true
		for _, r := range []struct {
			reg   isa.Reg
			scale int64
		}{{mem.Base, 1}, {mem.Index, int64(max(mem.Scale, 1))}} {
			if !r.reg.Valid() || r.reg == isa.RIP {
				continue
			}
			before, total, ok := k.increments(r.reg, j)
			if !ok {
				known = false
				break
			}
			offset += before * r.scale
			stride += total * r.scale
		}
		if !known {
			continue
		}
		key := fmt.Sprintf("%v|%v|%d", mem.Base, mem.Index, mem.Scale)
		region, ok := regions[key]
		if !ok {
			region = len(regions)
			regions[key] = region
		}
		x.Desc.Line = pipeline.StoreLine{Known: true, Region: region, Offset: offset, Stride: stride}
	}
}

// storeOperand returns the memory operand a store writes: its only
// explicit one, or for push and call the stack slot below rsp; false for
// other implicit ones (string stores).
func storeOperand(x *Instr) (isa.InstMem, bool) {
	if x.Form != nil && (x.Form.Mnemonic == "push" || x.Form.Mnemonic == "call") {
		return isa.InstMem{Base: isa.RSP, Scale: 1, Disp: -8}, true
	}
	var out isa.InstMem
	n := 0
	for _, a := range x.Inst.Args {
		if a.Type == isa.OpMem {
			out = a.Mem
			n++
		}
	}
	return out, n == 1 && x.Form != nil && x.Form.Mnemonic != "lea"
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
