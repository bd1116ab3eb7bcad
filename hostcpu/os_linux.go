package hostcpu

import (
	"os"
	"strings"

	"golang.org/x/sys/unix"
)

// Files read by Detect; variables so tests can point them elsewhere.
var (
	clockSourcePath = "/sys/devices/system/clocksource/clocksource0/current_clocksource"
	cpuinfoPath     = "/proc/cpuinfo"
	paranoidPath    = "/proc/sys/kernel/perf_event_paranoid"
)

// readClockSource returns the kernel's current clocksource, "" if unknown.
func readClockSource() string {
	b, err := os.ReadFile(clockSourcePath)
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(b))
}

// kernelRelease returns uname -r.
func kernelRelease() string {
	var u unix.Utsname
	if err := unix.Uname(&u); err != nil {
		return ""
	}
	return unix.ByteSliceToString(u.Release[:])
}

// readMicrocode returns the first "microcode" value in /proc/cpuinfo.
func readMicrocode() string {
	b, err := os.ReadFile(cpuinfoPath)
	if err != nil {
		return ""
	}
	return cpuinfoField(b, "microcode")
}

// readKernelHidden returns the features of info whose /proc/cpuinfo flag
// is missing; nil where /proc/cpuinfo has no flags line.
func readKernelHidden(info *Info) []string {
	b, err := os.ReadFile(cpuinfoPath)
	if err != nil {
		return nil
	}
	return kernelHidden(info, b)
}

// machineMemory is the machine's memory in bytes (0: unknown).
func machineMemory() uint64 {
	var si unix.Sysinfo_t
	if err := unix.Sysinfo(&si); err != nil {
		return 0
	}
	return uint64(si.Totalram) * uint64(si.Unit)
}
