//go:build amd64 && linux

package hostcpu

import (
	"fmt"
	"syscall"
	"unsafe"
)

// callCode calls the machine code at addr with RAX zero and returns RAX.
// The code must end in RET and may clobber RAX, RCX, RDX and XMM1.
func callCode(addr uintptr) uint64

// runInstructionProbe executes feature's probe instruction
// (instructionProbes) and returns RAX after it. An instruction the CPU or
// the kernel does not allow raises SIGILL, which the Go runtime does not
// recover from: callers run it in a child process.
func runInstructionProbe(feature string) (uint64, error) {
	p, ok := instructionProbes[feature]
	if !ok {
		return 0, fmt.Errorf("no instruction probe for feature %q", feature)
	}
	page, err := syscall.Mmap(-1, 0, 4096, syscall.PROT_READ|syscall.PROT_WRITE|syscall.PROT_EXEC, syscall.MAP_PRIVATE|syscall.MAP_ANON)
	if err != nil {
		return 0, fmt.Errorf("probe %s: %w: mmap: %v", feature, errNoExecMemory, err)
	}
	defer syscall.Munmap(page)
	n := copy(page, p.code)
	page[n] = 0xc3 // ret
	return callCode(uintptr(unsafe.Pointer(&page[0]))), nil
}
