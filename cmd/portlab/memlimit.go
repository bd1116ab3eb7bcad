package main

import (
	"fmt"
	"os"
	"runtime/debug"

	"portlab/hostcpu"
)

// softMemoryLimit asks the garbage collector to work harder as the heap
// nears half of the memory portlab may use rather than let it grow to
// twice what is live (GOGC's default), for the commands that hold a
// sweep's results and fit models to them. On the Zen 4 guest (24 GiB) a
// `characterize --budget 30m` run peaked at 18.9 GB resident, its Go
// heap at about twice its live heap; on a 16 GiB host that would not fit.
// The memory portlab may use is the machine's, or less where its control
// group (a container's `--memory`, a systemd unit's MemoryMax) sets a
// smaller limit (hostcpu.UsableMemory). GOMEMLIMIT, when set, decides
// instead; where neither size can be read the runtime's default stays.
func softMemoryLimit() {
	usable, _ := hostcpu.UsableMemory()
	if limit := memoryLimitFor(os.Getenv("GOMEMLIMIT"), usable); limit > 0 {
		debug.SetMemoryLimit(limit)
	}
}

// memoryLimitFor is the soft limit for total usable bytes (0: unknown),
// given GOMEMLIMIT's value env: half of total; none when GOMEMLIMIT is
// set or total is unknown.
func memoryLimitFor(env string, total uint64) int64 {
	if env != "" || total == 0 {
		return 0
	}
	return int64(total / 2)
}

// smallestTestedMemory is the least memory a whole `characterize` run
// was seen to finish in: a 4 GiB control group on the Zen 4 guest
// (docs/benchmarks.md, "Memory").
const smallestTestedMemory = 4 << 30

// memoryNote warns, for characterize, where this process may use less
// memory (usable bytes, of the machine's total) than a run was seen to
// finish in, an eighth allowed for what a machine of that size keeps
// for its kernel; "" where it may use enough or the size is unknown.
func memoryNote(usable, total uint64) string {
	if usable == 0 || usable >= smallestTestedMemory-smallestTestedMemory/8 {
		return ""
	}
	where := "the machine's memory"
	if usable < total {
		where = "its control group's limit"
	}
	return fmt.Sprintf("%s of memory for this run (%s), less than the %s a run was seen to finish in: the measurements and the fit may outgrow it, and the kernel kill the run (--resume then goes on from what it measured)",
		formatBytes(usable), where, formatBytes(smallestTestedMemory))
}
