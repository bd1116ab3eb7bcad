package isa

import "strings"

// Attr is a set of properties of a form that decide whether and how it can
// be benchmarked in a user-mode snippet. The catalog keeps every form valid
// in 64-bit mode and marks them; what to do with the marks is the snippet
// generator's decision.
type Attr uint16

// Form attributes.
const (
	// AttrPrivileged: faults at CPL 3 (or needs IOPL, or a CR4 bit the OS
	// normally leaves clear): hlt, cli, in/out, mov to/from cr/dr, rdmsr, ...
	AttrPrivileged Attr = 1 << iota
	// AttrBranch: transfers control: jmp, jcc, call, ret, loop, jrcxz,
	// iret, int, syscall, xbegin, xabort, ...
	AttrBranch
	// AttrSerializing: architecturally serializing (cpuid, iret, writes to
	// control registers, wrmsr, invd, ...).
	AttrSerializing
	// AttrStack: reads or writes memory through rsp (push, pop, call, ret,
	// enter, leave, pushf, popf).
	AttrStack
	// AttrX87: an x87 floating-point instruction.
	AttrX87
	// AttrMMX: uses MMX registers (and so switches the x87 unit to MMX state).
	AttrMMX
	// AttrString: a string instruction (movs, stos, lods, cmps, scas, ins,
	// outs), addressing memory through rsi/rdi.
	AttrString
	// AttrRep: carries a rep/repe/repne prefix: iterates rcx times.
	AttrRep
	// AttrSystem: touches segmentation or other system state a snippet must
	// not change: segment registers, far pointers, fs/gs base writes,
	// sysenter/syscall, descriptor-table stores, lar/lsl/verr/verw.
	AttrSystem
	// AttrTrap: always raises an exception (ud2, int, int3, int1).
	AttrTrap
	// AttrTSX: transactional-memory control (xbegin, xend, xabort); xend
	// faults outside a transaction.
	AttrTSX
)

var attrNames = []string{"privileged", "branch", "serializing", "stack", "x87", "mmx", "string", "rep", "system", "trap", "tsx"}

// String renders the set as e.g. "branch|stack".
func (a Attr) String() string {
	var parts []string
	for i, n := range attrNames {
		if a&(1<<i) != 0 {
			parts = append(parts, n)
		}
	}
	return strings.Join(parts, "|")
}

// Has reports whether the form has all attributes in a.
func (f *Form) Has(a Attr) bool { return f.Attrs&a == a }

// Runnable reports whether the form can run inside a straight-line user-mode
// snippet: it neither faults at CPL 3, nor leaves the snippet, nor changes
// segmentation or transactional state. Stack, string, x87 and MMX forms are
// runnable (they need set-up, not exclusion).
func (f *Form) Runnable() bool {
	return f.Attrs&(AttrPrivileged|AttrBranch|AttrSystem|AttrTrap|AttrTSX) == 0
}

// Sets of mnemonics by attribute.
var (
	privilegedMnemonics = setOf("clts", "cli", "sti", "hlt", "invd", "wbinvd", "invlpg", "invpcid",
		"lgdt", "lidt", "lldt", "ltr", "lmsw", "rdmsr", "wrmsr", "rdpmc", "swapgs", "sysexit", "sysret",
		"rsm", "in", "out", "insb", "insw", "insd", "outsb", "outsw", "outsd", "xsetbv", "xrstors",
		"xrstors64", "xsaves", "xsaves64", "monitor", "mwait", "clac", "stac",
		// Fault under UMIP, which current kernels enable.
		"sgdt", "sidt", "sldt", "smsw", "str")
	branchMnemonics = setOf("jmp", "call", "ret", "retf", "loop", "loope", "loopne", "jrcxz", "jecxz",
		"iret", "iretd", "iretq", "int", "int1", "syscall", "sysenter", "sysexit", "sysret",
		"xbegin", "xabort", "ja", "jae", "jb", "jbe", "je", "jg", "jge", "jl", "jle", "jne", "jno",
		"jnp", "jns", "jo", "jp", "js")
	serializingMnemonics = setOf("cpuid", "iret", "iretd", "iretq", "rsm", "lgdt", "lidt", "lldt",
		"ltr", "wrmsr", "invd", "wbinvd", "invlpg", "invpcid", "xsetbv", "lmsw", "clts")
	stackMnemonics = setOf("push", "pop", "pushf", "pushfq", "popf", "popfq", "call", "ret", "retf",
		"enter", "leave", "iret", "iretd", "iretq", "int")
	stringMnemonics = setOf("movsb", "movsw", "movsd", "movsq", "stosb", "stosw", "stosd", "stosq",
		"lodsb", "lodsw", "lodsd", "lodsq", "cmpsb", "cmpsw", "cmpsd", "cmpsq", "scasb", "scasw",
		"scasd", "scasq", "insb", "insw", "insd", "outsb", "outsw", "outsd")
	systemMnemonics = setOf("lfs", "lgs", "lss", "wrfsbase", "wrgsbase", "rdfsbase", "rdgsbase",
		"sysenter", "syscall", "swapgs", "lar", "lsl", "verr", "verw", "sgdt", "sidt", "sldt", "str")
	trapMnemonics = setOf("ud2", "int", "int1")
	tsxMnemonics  = setOf("xbegin", "xend", "xabort")
)

func setOf(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}

// classify computes a form's attributes from its mnemonic and operands.
func classify(f *Form) Attr {
	var a Attr
	mn := f.Mnemonic
	base := mn
	if i := strings.IndexByte(mn, ' '); i >= 0 {
		a |= AttrRep
		base = mn[i+1:]
	}
	if privilegedMnemonics[base] {
		a |= AttrPrivileged
	}
	if branchMnemonics[base] {
		a |= AttrBranch
	}
	if serializingMnemonics[base] {
		a |= AttrSerializing
	}
	if stackMnemonics[base] {
		a |= AttrStack
	}
	if systemMnemonics[base] {
		a |= AttrSystem
	}
	if trapMnemonics[base] {
		a |= AttrTrap
	}
	if tsxMnemonics[base] {
		a |= AttrTSX
	}
	// The string mnemonics movsd and cmpsd are also SSE2 mnemonics with operands.
	if stringMnemonics[base] && len(f.Operands) == 0 {
		a |= AttrString
	}
	for _, op := range f.Operands {
		switch op.Kind {
		case KindMM:
			a |= AttrMMX
		case "cr", "cr8", "dr":
			a |= AttrPrivileged | AttrSerializing
		case KindSreg, "fs", "gs", "m16:16", "m16:32", "m16:64":
			a |= AttrSystem
		}
	}
	for _, feat := range f.Features {
		if feat == "x87" {
			a |= AttrX87
		}
	}
	if mn == "fwait" || mn == "emms" {
		if mn == "fwait" {
			a |= AttrX87
		} else {
			a |= AttrMMX
		}
	}
	return a
}
