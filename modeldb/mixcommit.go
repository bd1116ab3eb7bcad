package modeldb

import (
	"encoding/hex"
	"fmt"

	"portlab/analysis/pipeline"
	"portlab/isa"
)

// A mix whose stores write more cache lines than the core commits runs at
// the commit's rate, whatever its ports allow: on the Zen 3 guest 32 `add
// m64, imm8` and 24 `mov m64, r64` a copy (one line a cycle, two stores
// of one line at most) took 48.0 cycles against ports for about 28. The
// bound the fit and BoundPredictor use counts it as a floor next to the
// dispatch width and the forms' own throughputs; where the stores write
// comes from the mix's machine code as measured (MixMeasurement.Code).

// mixStoreLines returns the cache lines one copy of machine code writes,
// in program order, as the store commit counts them: a region per
// address expression (base, index and scale registers) at its
// displacement. A store whose address register the copy writes, and a
// push or call (which move rsp), has an unknown line: it pairs with no
// other store. ok is false when the code is empty or does not decode.
func mixStoreLines(code []byte) (lines []pipeline.StoreLine, ok bool) {
	insts, err := isa.Decode(code, 0)
	if err != nil || len(insts) == 0 {
		return nil, false
	}
	var written [16]bool // general-purpose registers the copy writes, by number
	for _, in := range insts {
		if in.Form == nil {
			continue
		}
		for i, op := range in.Form.Operands {
			if i < len(in.Args) && in.Args[i].Type == isa.OpReg && op.Access&(isa.Write|isa.CondWrite) != 0 {
				if n := gprNum(in.Args[i].Reg); n >= 0 {
					written[n] = true
				}
			}
		}
		for _, name := range in.Form.ImplicitWrites {
			if r, ok := isa.RegByName(name); ok {
				if n := gprNum(r); n >= 0 {
					written[n] = true
				}
			}
		}
	}
	moved := func(r isa.Reg) bool { n := gprNum(r); return n >= 0 && written[n] }
	regions := map[string]int{}
	for _, in := range insts {
		f := in.Form
		if f == nil || !MemAccessOf(f).Stores() {
			continue
		}
		mem, explicit := in.Memory()
		if !explicit || f.Mnemonic == "push" || f.Mnemonic == "call" ||
			moved(mem.Base) || moved(mem.Index) || mem.Base == isa.RIP {
			lines = append(lines, pipeline.StoreLine{})
			continue
		}
		key := fmt.Sprintf("%v+%v*%d", mem.Base, mem.Index, mem.Scale)
		region, seen := regions[key]
		if !seen {
			region = len(regions)
			regions[key] = region
		}
		lines = append(lines, pipeline.StoreLine{Known: true, Region: region, Offset: mem.Disp, Bytes: AccessBytes(f, isa.Write|isa.CondWrite)})
	}
	return lines, true
}

// gprNum is r's number when it is a general-purpose register, else -1.
func gprNum(r isa.Reg) int {
	if r.Valid() && r.IsGPR() && r.Num() < 16 {
		return r.Num()
	}
	return -1
}

// mixCommitIterations is how many copies the store commit bound of a mix
// runs over (enough for a steady state of any line pattern a copy has).
const mixCommitIterations = 16

// StoreCommitCycles returns the cycles a copy of the mix's stores take to
// commit under sc in steady state: 0 without a store commit, without
// stores, or when the results carry no machine code for the mix.
func (m *MixMeasurement) StoreCommitCycles(sc *StoreCommit) float64 {
	if sc == nil || m.Code == "" {
		return 0
	}
	// Decoding is the cost (0.2-0.4 ms a mix of 100-200 instructions; a
	// characterize build fits some 85,000 mixes): a mix none of whose
	// forms stores has no commit, and is not decoded.
	stores := len(m.Parts) == 0
	for _, p := range m.Parts {
		stores = stores || memoryAccess(p.Form).Stores()
	}
	if !stores {
		return 0
	}
	code, err := hex.DecodeString(m.Code)
	if err != nil {
		return 0
	}
	lines, ok := mixStoreLines(code)
	if !ok {
		return 0
	}
	return sc.Pipeline().CyclesPerIteration(lines, mixCommitIterations)
}
