package measure

import (
	"fmt"
	"math/big"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"portlab/jit"
)

// Snippet is assembly to be timed, with its machine set-up. Its set-up
// annotations are llvm-exegesis's, so snippet files written for exegesis run
// unchanged:
//
//	# LLVM-EXEGESIS-DEFREG <reg> <hex value>
//	# LLVM-EXEGESIS-LIVEIN <reg>               (reg holds the scratch buffer's address)
//	# LLVM-EXEGESIS-MEM-DEF <name> <size> <hex value>
//	# LLVM-EXEGESIS-MEM-MAP <name> <hex address>
//	# LLVM-EXEGESIS-SNIPPET-ADDRESS <hex address>
//	# LLVM-EXEGESIS-LOOP-REGISTER <reg>
type Snippet struct {
	Name   string // file name, or a description such as a form name
	Source string // assembly text, annotations included (they are comments)
	ATT    bool   // Source starts in AT&T syntax
	// LineOffset is the line of Source's first line in Name, minus one.
	LineOffset int

	DefRegs     map[string]*big.Int // upper-case register name -> value
	LiveIns     []string            // registers holding the scratch buffer address
	MemDefs     map[string]MemDef
	MemMaps     []MemMap
	SnippetAddr uint64
	LoopReg     string // lower-case 64-bit register, "" = pick one

	// Set-up hints from the snippet generator (not exegesis annotations).
	ScratchSelf bool // fill scratch memory with its own address (pointer chases)
	// VectorFill, when set, is the byte pattern every vector register starts
	// with instead of 1.0 in the element type (e.g. all ones for the
	// sign-bit masks of vmaskmov).
	VectorFill []byte
	// ResetPointers reloads the registers the snippet uses as memory base or
	// index at every loop iteration (kernels that advance pointers).
	ResetPointers bool
	// ScratchFill is repeated over the scratch memory (nil: zeros), e.g. to
	// give divisions from memory a non-zero divisor.
	ScratchFill []byte
	// Info says what the snippet measures; copied to the result.
	Info string
	// longer marks the engine's twin of a snippet under
	// Options.LengthCheck: its bodies have half as many copies again.
	longer bool
	// Instructions is the number of instructions in one copy of the snippet;
	// 0 = count them from the assembled code.
	Instructions int
}

// MemDef is an LLVM-EXEGESIS-MEM-DEF: size bytes filled with Value repeated.
type MemDef struct {
	Size  int
	Value []byte // little-endian bytes of the hex value
}

// MemMap is an LLVM-EXEGESIS-MEM-MAP: a MemDef mapped at an address.
type MemMap struct {
	Name string
	Addr uint64
}

var annotation = regexp.MustCompile(`^\s*#\s*LLVM-EXEGESIS-([A-Z-]+)\s*(.*)$`)

// SnippetError is a problem in a snippet file, with its position.
type SnippetError struct {
	File string
	Line int
	Msg  string
}

func (e *SnippetError) Error() string { return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg) }

// ParseSnippet reads a snippet file: assembly with exegesis annotations.
// Syntax is detected from the text (AT&T when it uses %registers or $imm
// without an .intel_syntax directive first).
func ParseSnippet(name, src string) (*Snippet, error) {
	s := &Snippet{Name: name, Source: src, DefRegs: map[string]*big.Int{}, MemDefs: map[string]MemDef{}}
	s.ATT = looksATT(src)
	for i, line := range strings.Split(src, "\n") {
		m := annotation.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		errf := func(format string, args ...any) error {
			return &SnippetError{File: name, Line: i + 1, Msg: fmt.Sprintf(format, args...)}
		}
		args := strings.Fields(m[2])
		switch m[1] {
		case "DEFREG":
			if len(args) != 2 {
				return nil, errf("LLVM-EXEGESIS-DEFREG wants a register and a hex value, got %q", m[2])
			}
			reg := strings.ToUpper(strings.TrimPrefix(args[0], "%"))
			if !knownRegister(reg) {
				return nil, errf("LLVM-EXEGESIS-DEFREG: unknown register %q", args[0])
			}
			v, ok := new(big.Int).SetString(strings.TrimPrefix(strings.ToLower(args[1]), "0x"), 16)
			if !ok {
				return nil, errf("LLVM-EXEGESIS-DEFREG %s: bad hex value %q", args[0], args[1])
			}
			s.DefRegs[reg] = v
		case "LIVEIN":
			if len(args) != 1 || jit.GPRNumber(strings.ToLower(args[0])) < 0 {
				return nil, errf("LLVM-EXEGESIS-LIVEIN wants one 64-bit general register, got %q", m[2])
			}
			s.LiveIns = append(s.LiveIns, strings.ToLower(strings.TrimPrefix(args[0], "%")))
		case "MEM-DEF":
			if len(args) != 3 {
				return nil, errf("LLVM-EXEGESIS-MEM-DEF wants a name, a size and a hex value, got %q", m[2])
			}
			size, err := strconv.Atoi(args[1])
			if err != nil || size <= 0 || size > 1<<30 {
				return nil, errf("LLVM-EXEGESIS-MEM-DEF %s: bad size %q", args[0], args[1])
			}
			v, ok := new(big.Int).SetString(strings.TrimPrefix(strings.ToLower(args[2]), "0x"), 16)
			if !ok {
				return nil, errf("LLVM-EXEGESIS-MEM-DEF %s: bad hex value %q", args[0], args[2])
			}
			// As exegesis does, the value is as wide as its hex digits: "2a" is
			// one byte, "0000000030000000" eight.
			digits := len(strings.TrimPrefix(strings.ToLower(args[2]), "0x"))
			s.MemDefs[args[0]] = MemDef{Size: size, Value: leBytes(v, (digits+1)/2)}
		case "MEM-MAP":
			if len(args) != 2 {
				return nil, errf("LLVM-EXEGESIS-MEM-MAP wants a name and a hex address, got %q", m[2])
			}
			if _, ok := s.MemDefs[args[0]]; !ok {
				return nil, errf("LLVM-EXEGESIS-MEM-MAP: memory %q is not defined (LLVM-EXEGESIS-MEM-DEF must come first)", args[0])
			}
			addr, err := strconv.ParseUint(strings.TrimPrefix(strings.ToLower(args[1]), "0x"), 16, 64)
			if err != nil || addr%4096 != 0 || addr == 0 {
				return nil, errf("LLVM-EXEGESIS-MEM-MAP %s: address %q must be a non-zero page-aligned hex value", args[0], args[1])
			}
			s.MemMaps = append(s.MemMaps, MemMap{Name: args[0], Addr: addr})
		case "SNIPPET-ADDRESS":
			if len(args) != 1 {
				return nil, errf("LLVM-EXEGESIS-SNIPPET-ADDRESS wants one hex address")
			}
			addr, err := strconv.ParseUint(strings.TrimPrefix(strings.ToLower(args[0]), "0x"), 16, 64)
			if err != nil || addr%4096 != 0 || addr == 0 {
				return nil, errf("LLVM-EXEGESIS-SNIPPET-ADDRESS: %q must be a non-zero page-aligned hex address", args[0])
			}
			s.SnippetAddr = addr
		case "LOOP-REGISTER":
			if len(args) != 1 || jit.GPRNumber(strings.ToLower(args[0])) < 0 || strings.EqualFold(args[0], "rsp") {
				return nil, errf("LLVM-EXEGESIS-LOOP-REGISTER wants a 64-bit general register, got %q", m[2])
			}
			s.LoopReg = strings.ToLower(strings.TrimPrefix(args[0], "%"))
		default:
			return nil, errf("unknown annotation LLVM-EXEGESIS-%s", m[1])
		}
	}
	if strings.TrimSpace(stripAll(src)) == "" {
		return nil, &SnippetError{File: name, Line: 1, Msg: "snippet has no instructions"}
	}
	return s, nil
}

// leBytes returns v's little-endian bytes, at least n of them.
func leBytes(v *big.Int, n int) []byte {
	be := v.Bytes()
	out := make([]byte, len(be))
	for i, b := range be {
		out[len(be)-1-i] = b
	}
	for len(out) < n {
		out = append(out, 0)
	}
	if len(out) == 0 {
		out = []byte{0}
	}
	return out
}

var (
	attHint   = regexp.MustCompile(`%[a-z]|\$[-0-9a-zA-Z_]`)
	intelHint = regexp.MustCompile(`(?i)\bptr\b|^\s*\.intel_syntax`)
)

func looksATT(src string) bool {
	for _, l := range strings.Split(stripAll(src), "\n") {
		t := strings.TrimSpace(l)
		if strings.HasPrefix(t, ".intel_syntax") {
			return false
		}
		if strings.HasPrefix(t, ".att_syntax") {
			return true
		}
		if attHint.MatchString(t) {
			return true
		}
		if intelHint.MatchString(t) {
			return false
		}
	}
	return false
}

// stripAll removes comments and blank lines.
func stripAll(src string) string {
	var b strings.Builder
	for _, l := range strings.Split(src, "\n") {
		if i := strings.IndexByte(l, '#'); i >= 0 {
			l = l[:i]
		}
		if strings.TrimSpace(l) != "" {
			b.WriteString(l)
			b.WriteByte('\n')
		}
	}
	return b.String()
}

var vecReg = regexp.MustCompile(`^([XYZ])MM([0-9]|[12][0-9]|3[01])$`)
var maskReg = regexp.MustCompile(`^K[0-7]$`)

func knownRegister(r string) bool {
	return jit.GPRNumber(strings.ToLower(r)) >= 0 || vecReg.MatchString(r) || maskReg.MatchString(r) || r == "MXCSR"
}

// sortedDefRegs returns the DEFREG register names in order (for stable output).
func (s *Snippet) sortedDefRegs() []string {
	var names []string
	for n := range s.DefRegs {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// RegisterInitialValues renders the register set-up as exegesis does in its
// result key ("RAX=0x10").
func (s *Snippet) RegisterInitialValues() []string {
	var out []string
	for _, n := range s.sortedDefRegs() {
		out = append(out, fmt.Sprintf("%s=0x%s", n, s.DefRegs[n].Text(16)))
	}
	for _, r := range s.LiveIns {
		out = append(out, strings.ToUpper(r)+"=scratch")
	}
	return out
}
