package hostcpu

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"syscall"
)

// CycleProbe says whether hardware cycle counters can be opened for the
// calling thread, and therefore which clock measurements will use.
type CycleProbe struct {
	Available bool   `json:"available"`
	Errno     string `json:"errno,omitempty"` // perf_event_open's errno name, e.g. "ENOENT"
	Error     string `json:"error,omitempty"` // the error text when it was not an errno
	Message   string `json:"message"`         // one line for people, with the consequence
}

// Source names the cycle source measurements use: "hardware counters
// (perf_event cycles)" or "calibrated TSC — perf_event_open cycles failed:
// ENOENT".
func (p CycleProbe) Source() string {
	if p.Available {
		return "hardware counters (perf_event cycles)"
	}
	why := p.Errno
	if why == "" {
		why = p.Error
	}
	return "calibrated TSC — perf_event_open cycles failed: " + why
}

// openCyclesEvent test-opens a hardware cycles counter for the calling
// thread (pid 0, cpu -1, user space only) and returns a function closing
// it. A variable so tests can fake each outcome.
var openCyclesEvent = openCyclesPerfEvent

// ProbeCycleCounter opens a hardware cycles perf_event for the calling
// thread (PERF_TYPE_HARDWARE / PERF_COUNT_HW_CPU_CYCLES, exclude_kernel,
// exclude_hv), closes it again, and reports the outcome. In KVM guests
// without a virtual PMU it fails with ENOENT.
func ProbeCycleCounter() CycleProbe {
	closeFn, err := openCyclesEvent()
	if err == nil {
		if closeFn != nil {
			_ = closeFn()
		}
		return CycleProbe{Available: true, Message: "hardware counters available (perf_event_open cycles succeeded); measurements use hardware cycles"}
	}
	return probeFailure(err)
}

// probeFailure explains a failed cycles open.
func probeFailure(err error) CycleProbe {
	const tail = "; measurements use the calibrated TSC"
	var errno syscall.Errno
	if !errors.As(err, &errno) {
		return CycleProbe{Error: err.Error(), Message: "hardware counters unavailable (perf_event_open cycles: " + err.Error() + ")" + tail}
	}
	p := CycleProbe{Errno: ErrnoName(errno)}
	switch errno {
	case syscall.EACCES, syscall.EPERM:
		p.Message = "hardware counters not permitted (perf_event_open cycles: " + p.Errno + "; " + paranoidHint() + ")" + tail
	case syscall.EOPNOTSUPP:
		p.Message = "hardware counters not supported (perf_event_open cycles: " + p.Errno + "; the PMU cannot count cycles for this thread)" + tail
	default:
		p.Message = "hardware counters unavailable (perf_event_open cycles: " + p.Errno + ")" + tail
	}
	return p
}

// paranoidHint explains kernel.perf_event_paranoid's part in a denial.
func paranoidHint() string {
	b, err := os.ReadFile(paranoidPath)
	if err != nil {
		return "kernel.perf_event_paranoid unreadable; counting your own threads needs it at 2 or lower, or CAP_PERFMON"
	}
	v := strings.TrimSpace(string(b))
	return fmt.Sprintf("kernel.perf_event_paranoid is %s; counting your own threads needs 2 or lower, or CAP_PERFMON", v)
}

// ErrnoName returns the symbolic name of errno as the kernel headers spell
// it ("ENOENT", "EOPNOTSUPP"), or "errno N" when it has none.
func ErrnoName(errno syscall.Errno) string {
	if name := errnoName(errno); name != "" {
		return name
	}
	return fmt.Sprintf("errno %d", int(errno))
}
