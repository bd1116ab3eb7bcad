package main

import (
	"os"
	"runtime/debug"

	"golang.org/x/sys/unix"
)

// softMemoryLimit asks the garbage collector to work harder as the heap
// nears half of the machine's memory rather than let it grow to twice
// what is live (GOGC's default), for the commands that hold a sweep's
// results and fit models to them. On the Zen 4 guest (24 GiB) a
// `characterize --budget 30m` run peaked at 18.9 GB resident, its Go
// heap at about twice its live heap; on a 16 GiB host that would not fit.
// GOMEMLIMIT, when set, decides instead; a host whose memory size cannot
// be read keeps the runtime's default.
func softMemoryLimit() {
	if limit := memoryLimitFor(os.Getenv("GOMEMLIMIT"), totalMemory()); limit > 0 {
		debug.SetMemoryLimit(limit)
	}
}

// memoryLimitFor is the soft limit for a machine of total bytes (0:
// unknown), given GOMEMLIMIT's value env: half of total; none when
// GOMEMLIMIT is set or total is unknown.
func memoryLimitFor(env string, total uint64) int64 {
	if env != "" || total == 0 {
		return 0
	}
	return int64(total / 2)
}

// totalMemory is the machine's memory in bytes (0: unknown).
func totalMemory() uint64 {
	var si unix.Sysinfo_t
	if err := unix.Sysinfo(&si); err != nil {
		return 0
	}
	return uint64(si.Totalram) * uint64(si.Unit)
}
