package cluster

import (
	"encoding/hex"
	"fmt"
	"strings"

	"golang.org/x/arch/x86/x86asm"
)

// disassemble renders an exegesis assembled_snippet (hex) as AT&T lines,
// runs of an identical instruction folded into one line with a count. The
// decoder knows no VEX or EVEX encodings, so it stops at the first
// instruction it cannot decode and shows the rest as hex.
func disassemble(hexBytes string) string {
	code, err := hex.DecodeString(strings.TrimSpace(hexBytes))
	if err != nil {
		return strings.TrimSpace(hexBytes)
	}
	var lines []string
	for pc := 0; pc < len(code); {
		inst, err := x86asm.Decode(code[pc:], 64)
		if err != nil || inst.Len == 0 {
			lines = append(lines, fmt.Sprintf(".hex %X  # not decoded", code[pc:]))
			break
		}
		lines = append(lines, x86asm.GNUSyntax(inst, uint64(pc), nil))
		pc += inst.Len
	}
	return strings.Join(foldRuns(lines), "\n")
}

// foldRuns folds runs of identical lines and repeated short blocks (up to 8
// lines) into "line  # ×N" / "block... # block ×N".
func foldRuns(lines []string) []string {
	var out []string
	for i := 0; i < len(lines); {
		best, bestN := 1, 1
		for period := 1; period <= 8 && i+2*period <= len(lines); period++ {
			n := 1
			for i+(n+1)*period <= len(lines) && equalBlocks(lines[i:i+period], lines[i+n*period:i+(n+1)*period]) {
				n++
			}
			if n > 1 && n*period > best*bestN {
				best, bestN = period, n
			}
		}
		if bestN == 1 {
			out = append(out, lines[i])
			i++
			continue
		}
		if best == 1 {
			out = append(out, fmt.Sprintf("%s  # ×%d", lines[i], bestN))
		} else {
			for j := 0; j < best; j++ {
				l := lines[i+j]
				if j == best-1 {
					l += fmt.Sprintf("  # these %d ×%d", best, bestN)
				}
				out = append(out, l)
			}
		}
		i += best * bestN
	}
	return out
}

func equalBlocks(a, b []string) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
