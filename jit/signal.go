package jit

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// The worker replaces the Go runtime's handlers for fault signals: a fault
// in JIT'd code runs on a private stack the Go runtime cannot unwind, so its
// own handler dies with an unhelpful traceback. Ours writes a binary crash
// record (signal, code, data address, PC) to stderr and exits with status
// crashExitCode; Runner.crashed decodes it.

// jitSignalHandler is the handler itself (signal_amd64.s); never called from Go.
func jitSignalHandler()

// signalHandlerAddr returns jitSignalHandler's entry address.
func signalHandlerAddr() uintptr

const crashExitCode = 77

var crashMagic = []byte("PTLCRASH")

type kernelSigaction struct {
	handler  uintptr
	flags    uint64
	restorer uintptr
	mask     uint64
}

func installSignalHandlers() error {
	act := kernelSigaction{
		handler: signalHandlerAddr(),
		// x86-64 kernels refuse to build a signal frame without SA_RESTORER;
		// the handler never returns, so the restorer is never used.
		flags:    0x4 /* SA_SIGINFO */ | 0x08000000 /* SA_ONSTACK */ | 0x04000000, /* SA_RESTORER */
		restorer: signalHandlerAddr(),
	}
	for _, sig := range []syscall.Signal{unix.SIGSEGV, unix.SIGILL, unix.SIGFPE, unix.SIGBUS, unix.SIGTRAP} {
		_, _, errno := unix.RawSyscall6(unix.SYS_RT_SIGACTION, uintptr(sig), uintptr(unsafe.Pointer(&act)), 0, 8, 0, 0)
		if errno != 0 {
			return fmt.Errorf("installing handler for %v: %v", sig, errno)
		}
	}
	return nil
}

// parseCrashRecord finds a crash record in the worker's stderr.
func parseCrashRecord(stderr []byte) (sig syscall.Signal, code int, addr, pc uint64, ok bool) {
	i := bytes.Index(stderr, crashMagic)
	if i < 0 || len(stderr)-i < 40 {
		return 0, 0, 0, 0, false
	}
	r := stderr[i+8 : i+40]
	sig = syscall.Signal(binary.LittleEndian.Uint64(r[0:]))
	code = int(int32(binary.LittleEndian.Uint64(r[8:])))
	addr = binary.LittleEndian.Uint64(r[16:])
	pc = binary.LittleEndian.Uint64(r[24:])
	return sig, code, addr, pc, true
}
