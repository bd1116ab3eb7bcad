package hostcpu

import "errors"

// errNoExecMemory is a probe that could not map memory to run its
// instruction in (a kernel that refuses writable executable pages).
var errNoExecMemory = errors.New("no executable memory for the probe")

// instructionProbe is one instruction of a feature, run with RAX zero, and
// what RAX holds after it where the instruction did what the feature says
// (where a CPU without the feature would run the same bytes as another
// instruction: lzcnt's encoding is bsr with a prefix).
type instructionProbe struct {
	code    []byte
	rax     uint64
	checked bool // rax is checked
}

// instructionProbes are the features a kernel has been seen to leave out of
// /proc/cpuinfo although CPUID reports them and user space runs their
// instructions: on a paravirtualised guest whose kernel reads a CPUID the
// hypervisor masks while user code executes CPUID on the host's CPU (a
// Zen 5 guest: fsgsbase, abm (lzcnt), sse4a).
var instructionProbes = map[string]instructionProbe{
	"lzcnt":    {code: []byte{0xf3, 0x48, 0x0f, 0xbd, 0xc0}, rax: 64, checked: true},                   // lzcnt rax, rax: 64 leading zeros of 0 (bsr leaves rax)
	"sse4a":    {code: []byte{0x66, 0x0f, 0x78, 0xc1, 0x00, 0x00}},                                     // extrq xmm1, 0, 0
	"fsgsbase": {code: []byte{0xf3, 0x48, 0x0f, 0xae, 0xc1}},                                           // rdfsbase rcx
	"popcnt":   {code: []byte{0x48, 0xff, 0xc8, 0xf3, 0x48, 0x0f, 0xb8, 0xc0}, rax: 64, checked: true}, // dec rax; popcnt rax, rax
}
