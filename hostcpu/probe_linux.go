package hostcpu

import (
	"unsafe"

	"golang.org/x/sys/unix"
)

// openCyclesPerfEvent opens a disabled user-space cycles counter for the
// calling thread.
func openCyclesPerfEvent() (func() error, error) {
	attr := unix.PerfEventAttr{
		Type:   unix.PERF_TYPE_HARDWARE,
		Config: unix.PERF_COUNT_HW_CPU_CYCLES,
		Size:   uint32(unsafe.Sizeof(unix.PerfEventAttr{})),
		Bits:   unix.PerfBitDisabled | unix.PerfBitExcludeKernel | unix.PerfBitExcludeHv,
	}
	fd, err := unix.PerfEventOpen(&attr, 0, -1, -1, unix.PERF_FLAG_FD_CLOEXEC)
	if err != nil {
		return nil, err
	}
	return func() error { return unix.Close(fd) }, nil
}

// errnoName spells errno as the kernel headers do. ENOTSUP and EOPNOTSUPP
// share a number on Linux; perf_event_open means EOPNOTSUPP.
func errnoName(errno unix.Errno) string {
	if errno == unix.EOPNOTSUPP {
		return "EOPNOTSUPP"
	}
	return unix.ErrnoName(errno)
}
