package hostcpu

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"syscall"
	"testing"
)

func withOpener(t *testing.T, f func() (func() error, error)) {
	t.Helper()
	old := openCyclesEvent
	openCyclesEvent = f
	t.Cleanup(func() { openCyclesEvent = old })
}

func TestProbeSuccessCloses(t *testing.T) {
	closed := 0
	withOpener(t, func() (func() error, error) {
		return func() error { closed++; return nil }, nil
	})
	p := ProbeCycleCounter()
	want := CycleProbe{Available: true, Message: "hardware counters available (perf_event_open cycles succeeded); measurements use hardware cycles"}
	if p != want {
		t.Errorf("probe = %+v, want %+v", p, want)
	}
	if closed != 1 {
		t.Errorf("event closed %d times, want 1", closed)
	}
	if got := p.Source(); got != "hardware counters (perf_event cycles)" {
		t.Errorf("Source = %q", got)
	}
}

func TestProbeFailures(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("errno names are Linux's")
	}
	dir := t.TempDir()
	paranoid := filepath.Join(dir, "perf_event_paranoid")
	if err := os.WriteFile(paranoid, []byte("3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	oldPath := paranoidPath
	t.Cleanup(func() { paranoidPath = oldPath })

	tests := []struct {
		err      error
		paranoid string
		want     CycleProbe
		source   string
	}{
		{syscall.ENOENT, paranoid, CycleProbe{Errno: "ENOENT",
			Message: "hardware counters unavailable (perf_event_open cycles: ENOENT); measurements use the calibrated TSC"},
			"calibrated TSC — perf_event_open cycles failed: ENOENT"},
		{syscall.EACCES, paranoid, CycleProbe{Errno: "EACCES",
			Message: "hardware counters not permitted (perf_event_open cycles: EACCES; kernel.perf_event_paranoid is 3; counting your own threads needs 2 or lower, or CAP_PERFMON); measurements use the calibrated TSC"},
			"calibrated TSC — perf_event_open cycles failed: EACCES"},
		{syscall.EPERM, paranoid, CycleProbe{Errno: "EPERM",
			Message: "hardware counters not permitted (perf_event_open cycles: EPERM; kernel.perf_event_paranoid is 3; counting your own threads needs 2 or lower, or CAP_PERFMON); measurements use the calibrated TSC"},
			"calibrated TSC — perf_event_open cycles failed: EPERM"},
		{syscall.EACCES, filepath.Join(dir, "missing"), CycleProbe{Errno: "EACCES",
			Message: "hardware counters not permitted (perf_event_open cycles: EACCES; kernel.perf_event_paranoid unreadable; counting your own threads needs it at 2 or lower, or CAP_PERFMON); measurements use the calibrated TSC"},
			"calibrated TSC — perf_event_open cycles failed: EACCES"},
		{syscall.EOPNOTSUPP, paranoid, CycleProbe{Errno: "EOPNOTSUPP",
			Message: "hardware counters not supported (perf_event_open cycles: EOPNOTSUPP; the PMU cannot count cycles for this thread); measurements use the calibrated TSC"},
			"calibrated TSC — perf_event_open cycles failed: EOPNOTSUPP"},
		{syscall.ENODEV, paranoid, CycleProbe{Errno: "ENODEV",
			Message: "hardware counters unavailable (perf_event_open cycles: ENODEV); measurements use the calibrated TSC"},
			"calibrated TSC — perf_event_open cycles failed: ENODEV"},
		{errors.New("perf_event_open needs Linux"), paranoid, CycleProbe{Error: "perf_event_open needs Linux",
			Message: "hardware counters unavailable (perf_event_open cycles: perf_event_open needs Linux); measurements use the calibrated TSC"},
			"calibrated TSC — perf_event_open cycles failed: perf_event_open needs Linux"},
	}
	for _, tc := range tests {
		paranoidPath = tc.paranoid
		err := tc.err
		withOpener(t, func() (func() error, error) { return nil, err })
		p := ProbeCycleCounter()
		if p != tc.want {
			t.Errorf("%v:\n got %+v\nwant %+v", tc.err, p, tc.want)
		}
		if got := p.Source(); got != tc.source {
			t.Errorf("%v: Source = %q, want %q", tc.err, got, tc.source)
		}
	}
}

// TestProbeThisHost runs the real probe. On the project's KVM guests there
// is no PMU and the probe fails with ENOENT; elsewhere it may succeed.
func TestProbeThisHost(t *testing.T) {
	p := ProbeCycleCounter()
	t.Logf("%+v; %s", p, p.Source())
	if p.Message == "" {
		t.Error("no message")
	}
	if !p.Available && p.Errno == "" && p.Error == "" {
		t.Error("failure without a reason")
	}
}
