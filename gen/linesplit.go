package gen

import (
	"fmt"

	"portlab/isa"
	"portlab/modeldb"
)

// KindLineSplit is a stream of plain loads that each cross a 64-byte
// cache line (Bench.Operands: modeldb.LineSplitLoad). On the Zen 3 guest
// every split load of any width took twice the cycles of one within a
// line; the form's own throughput stream stays within lines and cannot
// show it (modeldb.Model.LoadLineSplit).
const KindLineSplit = modeldb.LineSplitKind

// lineSplitRegs are the registers the streams load into.
var lineSplitRegs = map[string][]string{
	"gpr": {"rax", "rcx", "rdx", "rbx", "rsi", "r8", "r9", "r10"},
	"xmm": {"xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7"},
	"ymm": {"ymm0", "ymm1", "ymm2", "ymm3", "ymm4", "ymm5", "ymm6", "ymm7"},
	"zmm": {"zmm0", "zmm1", "zmm2", "zmm3", "zmm4", "zmm5", "zmm6", "zmm7"},
}

// lineSplitSize is the Intel size keyword of each class's access.
var lineSplitSize = map[string]string{"gpr": "qword", "xmm": "xmmword", "ymm": "ymmword", "zmm": "zmmword"}

// LineSplitBenches returns, for a plain load of modeldb.LineSplitForms,
// its line-split stream (KindLineSplit): eight independent loads a copy,
// one a line, each starting half its width before the line's end, so
// that it crosses into the next; nil for other forms.
func LineSplitBenches(f *isa.Form) []*Bench {
	lf, ok := modeldb.LineSplitForms[f.Name()]
	if !ok {
		return nil
	}
	regs := lineSplitRegs[lf.Class]
	var lines []string
	for k := 0; k < 8; k++ {
		mem := fmt.Sprintf("%s ptr [%s+%d]", lineSplitSize[lf.Class], memBase, 2048+64*k+64-lf.Bytes/2)
		lines = append(lines, fmt.Sprintf("%s %s, %s", f.Mnemonic, regs[k], mem))
	}
	s := newSnippet(f, "line split load", fmt.Sprintf("line splits of %s: 8 independent loads per copy, each crossing a 64-byte line (%d bytes before its end)",
		f.Name(), lf.Bytes/2), lines, 8)
	return []*Bench{{Form: f, Kind: KindLineSplit, Operands: modeldb.LineSplitLoad, Snippet: s, Mode: "inverse_throughput"}}
}
