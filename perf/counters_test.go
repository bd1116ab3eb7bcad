package perf

import (
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// fakeEvent is one event the fake kernel opened.
type fakeEvent struct {
	attr   unix.PerfEventAttr
	group  int // leader fd, or -1
	value  uint64
	closed bool
}

// fakeCounterSys is a kernel whose perf_event_open fails with a chosen
// errno per event type/config, and whose counters hold set values.
type fakeCounterSys struct {
	fail     map[[2]uint64]error // {type, config} -> error
	events   map[int]*fakeEvent
	next     int
	enabled  []int
	enabledT uint64 // time enabled reported by group reads
	runningT uint64
}

func newFakeSys() *fakeCounterSys {
	return &fakeCounterSys{fail: map[[2]uint64]error{}, events: map[int]*fakeEvent{}, next: 100, enabledT: 1000, runningT: 1000}
}

func (f *fakeCounterSys) failType(typ uint32, err error) {
	for _, ev := range append([]counterEvent{evCycles, evInstructions, evContextSwitches, evMigrations}, evCache...) {
		if ev.typ == typ {
			f.fail[[2]uint64{uint64(ev.typ), ev.config}] = err
		}
	}
}

func (f *fakeCounterSys) open(attr *unix.PerfEventAttr, groupFd int) (int, error) {
	if err := f.fail[[2]uint64{uint64(attr.Type), attr.Config}]; err != nil {
		return -1, err
	}
	fd := f.next
	f.next++
	f.events[fd] = &fakeEvent{attr: *attr, group: groupFd}
	return fd, nil
}

func (f *fakeCounterSys) enableGroup(leader int) error {
	f.enabled = append(f.enabled, leader)
	return nil
}

// members returns the open events of leader's group, leader first, in
// opening order.
func (f *fakeCounterSys) members(leader int) []*fakeEvent {
	out := []*fakeEvent{f.events[leader]}
	for fd := leader + 1; fd < f.next; fd++ {
		if e := f.events[fd]; e != nil && !e.closed && e.group == leader {
			out = append(out, e)
		}
	}
	return out
}

func (f *fakeCounterSys) read(fd int, p []byte) (int, error) {
	e := f.events[fd]
	if e == nil || e.closed {
		return 0, unix.EBADF
	}
	if e.attr.Read_format&unix.PERF_FORMAT_GROUP == 0 {
		return 0, unix.EINVAL
	}
	ms := f.members(fd)
	le := binary.NativeEndian
	le.PutUint64(p, uint64(len(ms)))
	off := 8
	if e.attr.Read_format&unix.PERF_FORMAT_TOTAL_TIME_ENABLED != 0 {
		le.PutUint64(p[8:], f.enabledT)
		le.PutUint64(p[16:], f.runningT)
		off = 24
	}
	for i, m := range ms {
		le.PutUint64(p[off+8*i:], m.value)
	}
	return off + 8*len(ms), nil
}

func (f *fakeCounterSys) close(fd int) error {
	e := f.events[fd]
	if e == nil || e.closed {
		return unix.EBADF
	}
	e.closed = true
	return nil
}

func (f *fakeCounterSys) openCount() int {
	n := 0
	for _, e := range f.events {
		if !e.closed {
			n++
		}
	}
	return n
}

// set gives every open event of config cfg the value v.
func (f *fakeCounterSys) set(typ uint32, cfg uint64, v uint64) {
	for _, e := range f.events {
		if !e.closed && e.attr.Type == typ && e.attr.Config == cfg {
			e.value = v
		}
	}
}

func withFakeSys(t *testing.T, f *fakeCounterSys) {
	t.Helper()
	old := perfCounterSys
	perfCounterSys = f
	t.Cleanup(func() { perfCounterSys = old })
}

func TestCountersAllAvailable(t *testing.T) {
	f := newFakeSys()
	withFakeSys(t, f)
	c, err := OpenCounters(CounterOptions{Hardware: true, Cache: true, Software: true})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if c.HardwareErr != nil || c.CacheErr != nil {
		t.Fatalf("errors: %v / %v", c.HardwareErr, c.CacheErr)
	}
	wantEvents := []string{"cycles", "instructions", "L1d read misses", "LLC read misses", "dTLB read misses", "context-switches", "cpu-migrations"}
	if !reflect.DeepEqual(c.Events(), wantEvents) {
		t.Errorf("Events = %q", c.Events())
	}
	// Attributes: hardware user-only, software counting kernel-side
	// switches, leaders disabled until the group is enabled.
	for fd, e := range f.events {
		a := e.attr
		leader := e.group == -1
		if (a.Bits&unix.PerfBitDisabled != 0) != leader {
			t.Errorf("fd %d (%d/%d): disabled bit %v, leader %v", fd, a.Type, a.Config, a.Bits&unix.PerfBitDisabled != 0, leader)
		}
		user := a.Bits&unix.PerfBitExcludeKernel != 0 && a.Bits&unix.PerfBitExcludeHv != 0
		if software := a.Type == unix.PERF_TYPE_SOFTWARE; user == software {
			t.Errorf("fd %d (%d/%d): exclude_kernel/hv %v for software=%v", fd, a.Type, a.Config, user, software)
		}
		if a.Read_format&unix.PERF_FORMAT_GROUP == 0 {
			t.Errorf("fd %d: no PERF_FORMAT_GROUP", fd)
		}
	}
	if len(f.enabled) != 2 {
		t.Errorf("enabled groups %v, want 2 leaders", f.enabled)
	}
	if wantL1 := uint64(unix.PERF_COUNT_HW_CACHE_L1D | unix.PERF_COUNT_HW_CACHE_OP_READ<<8 | unix.PERF_COUNT_HW_CACHE_RESULT_MISS<<16); evCache[0].config != wantL1 {
		t.Errorf("L1d config %#x, want %#x", evCache[0].config, wantL1)
	}

	f.set(unix.PERF_TYPE_HARDWARE, unix.PERF_COUNT_HW_CPU_CYCLES, 1000)
	f.set(unix.PERF_TYPE_HARDWARE, unix.PERF_COUNT_HW_INSTRUCTIONS, 3000)
	f.set(unix.PERF_TYPE_HW_CACHE, evCache[0].config, 7)
	f.set(unix.PERF_TYPE_HW_CACHE, evCache[1].config, 8)
	f.set(unix.PERF_TYPE_HW_CACHE, evCache[2].config, 9)
	f.set(unix.PERF_TYPE_SOFTWARE, unix.PERF_COUNT_SW_CONTEXT_SWITCHES, 2)
	f.set(unix.PERF_TYPE_SOFTWARE, unix.PERF_COUNT_SW_CPU_MIGRATIONS, 1)
	var a, b Sample
	if err := c.Read(&a); err != nil {
		t.Fatal(err)
	}
	want := Sample{Cycles: 1000, Instructions: 3000, L1DMisses: 7, LLCMisses: 8, DTLBMisses: 9, ContextSwitches: 2, Migrations: 1,
		HasHardware: true, HasCache: true, HasSoftware: true, TimeEnabled: 1000, TimeRunning: 1000}
	if a != want {
		t.Errorf("Read = %+v\nwant %+v", a, want)
	}
	f.set(unix.PERF_TYPE_HARDWARE, unix.PERF_COUNT_HW_CPU_CYCLES, 1500)
	f.set(unix.PERF_TYPE_HARDWARE, unix.PERF_COUNT_HW_INSTRUCTIONS, 4000)
	f.enabledT, f.runningT = 3000, 2500
	if err := c.Read(&b); err != nil {
		t.Fatal(err)
	}
	d := b.Sub(a)
	if d.Cycles != 500 || d.Instructions != 1000 || d.ContextSwitches != 0 || d.Migrations != 0 || !d.HasHardware {
		t.Errorf("Sub = %+v", d)
	}
	if !d.Multiplexed() || d.Disturbed() {
		t.Errorf("delta: Multiplexed %v (want true: 1500 of 2000 ns running), Disturbed %v", d.Multiplexed(), d.Disturbed())
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	if f.openCount() != 0 {
		t.Errorf("%d events left open after Close", f.openCount())
	}
	if err := c.Read(&a); err == nil {
		t.Error("Read after Close succeeded")
	}
	if err := c.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
}

func TestCountersHardwareENOENTFallsBack(t *testing.T) {
	f := newFakeSys()
	f.failType(unix.PERF_TYPE_HARDWARE, unix.ENOENT)
	f.failType(unix.PERF_TYPE_HW_CACHE, unix.ENOENT)
	withFakeSys(t, f)
	c, err := OpenCounters(CounterOptions{Hardware: true, Cache: true, Software: true})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if got, want := errString(c.HardwareErr), "perf_event_open cycles: ENOENT (no such file or directory)"; got != want {
		t.Errorf("HardwareErr = %q, want %q", got, want)
	}
	if !errors.Is(c.HardwareErr, unix.ENOENT) {
		t.Error("HardwareErr does not wrap ENOENT")
	}
	var oe *OpenError
	if !errors.As(c.HardwareErr, &oe) || oe.Event != "cycles" {
		t.Errorf("HardwareErr is not an *OpenError for cycles: %#v", c.HardwareErr)
	}
	if got, want := errString(c.CacheErr), "cache counters need hardware counters: perf_event_open cycles: ENOENT (no such file or directory)"; got != want {
		t.Errorf("CacheErr = %q, want %q", got, want)
	}
	if c.HasHardware() || c.HasCache() || !c.HasSoftware() {
		t.Errorf("Has: hw %v cache %v sw %v", c.HasHardware(), c.HasCache(), c.HasSoftware())
	}
	if !reflect.DeepEqual(c.Events(), []string{"context-switches", "cpu-migrations"}) {
		t.Errorf("Events = %q", c.Events())
	}
	f.set(unix.PERF_TYPE_SOFTWARE, unix.PERF_COUNT_SW_CONTEXT_SWITCHES, 4)
	var s Sample
	if err := c.Read(&s); err != nil {
		t.Fatal(err)
	}
	if s.HasHardware || s.Cycles != 0 || !s.HasSoftware || s.ContextSwitches != 4 || s.Multiplexed() || !s.Disturbed() {
		t.Errorf("Read = %+v", s)
	}
}

func TestCountersInstructionsFailClosesCycles(t *testing.T) {
	f := newFakeSys()
	f.fail[[2]uint64{unix.PERF_TYPE_HARDWARE, unix.PERF_COUNT_HW_INSTRUCTIONS}] = unix.EOPNOTSUPP
	withFakeSys(t, f)
	c, err := OpenCounters(CounterOptions{Hardware: true, Software: true})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if got, want := errString(c.HardwareErr), "perf_event_open instructions: EOPNOTSUPP (operation not supported)"; got != want {
		t.Errorf("HardwareErr = %q, want %q", got, want)
	}
	if c.CacheErr != nil {
		t.Errorf("CacheErr = %v without Cache", c.CacheErr)
	}
	if f.openCount() != 2 {
		t.Errorf("%d events open, want the 2 software ones (cycles closed again)", f.openCount())
	}
}

func TestCountersCacheAllOrNothing(t *testing.T) {
	f := newFakeSys()
	f.fail[[2]uint64{unix.PERF_TYPE_HW_CACHE, evCache[1].config}] = unix.ENOENT // AMD has no LLC event
	withFakeSys(t, f)
	c, err := OpenCounters(CounterOptions{Cache: true})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if c.HardwareErr != nil || !c.HasHardware() || c.HasCache() || c.HasSoftware() {
		t.Errorf("hw err %v, has hw %v cache %v sw %v", c.HardwareErr, c.HasHardware(), c.HasCache(), c.HasSoftware())
	}
	if got, want := errString(c.CacheErr), "perf_event_open LLC read misses: ENOENT (no such file or directory)"; got != want {
		t.Errorf("CacheErr = %q, want %q", got, want)
	}
	if !reflect.DeepEqual(c.Events(), []string{"cycles", "instructions"}) {
		t.Errorf("Events = %q", c.Events())
	}
	var s Sample
	if err := c.Read(&s); err != nil {
		t.Fatal(err)
	}
	if !s.HasHardware || s.HasCache || s.HasSoftware {
		t.Errorf("Read = %+v", s)
	}
}

func TestCountersPermissionHint(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "paranoid")
	if err := os.WriteFile(p, []byte("3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	old := perfParanoidPath
	t.Cleanup(func() { perfParanoidPath = old })

	for _, tc := range []struct {
		errno unix.Errno
		path  string
		want  string
	}{
		{unix.EACCES, p, "perf_event_open cycles: EACCES (permission denied; kernel.perf_event_paranoid is 3; counting your own threads needs 2 or lower, or CAP_PERFMON)"},
		{unix.EPERM, p, "perf_event_open cycles: EPERM (operation not permitted; kernel.perf_event_paranoid is 3; counting your own threads needs 2 or lower, or CAP_PERFMON)"},
		{unix.EACCES, filepath.Join(dir, "missing"), "perf_event_open cycles: EACCES (permission denied; kernel.perf_event_paranoid unreadable; counting your own threads needs it at 2 or lower, or CAP_PERFMON)"},
	} {
		perfParanoidPath = tc.path
		f := newFakeSys()
		f.failType(unix.PERF_TYPE_HARDWARE, tc.errno)
		withFakeSys(t, f)
		c, err := OpenCounters(CounterOptions{Hardware: true, Software: true})
		if err != nil {
			t.Fatal(err)
		}
		if got := errString(c.HardwareErr); got != tc.want {
			t.Errorf("HardwareErr = %q\nwant %q", got, tc.want)
		}
		c.Close()
	}
}

func TestCountersOpenFailures(t *testing.T) {
	// Only hardware asked for, and it fails: an error, nothing left open.
	f := newFakeSys()
	f.failType(unix.PERF_TYPE_HARDWARE, unix.ENOENT)
	withFakeSys(t, f)
	if _, err := OpenCounters(CounterOptions{Hardware: true}); err == nil ||
		err.Error() != "perf: hardware counters: perf_event_open cycles: ENOENT (no such file or directory)" {
		t.Errorf("hardware-only open: err = %v", err)
	}
	// Software fails: an error, hardware closed again.
	f = newFakeSys()
	f.fail[[2]uint64{unix.PERF_TYPE_SOFTWARE, unix.PERF_COUNT_SW_CPU_MIGRATIONS}] = unix.EMFILE
	withFakeSys(t, f)
	if _, err := OpenCounters(CounterOptions{Hardware: true, Software: true}); err == nil ||
		err.Error() != "perf: software counters: perf_event_open cpu-migrations: EMFILE (too many open files)" {
		t.Errorf("software failure: err = %v", err)
	}
	if f.openCount() != 0 {
		t.Errorf("%d events left open", f.openCount())
	}
	if _, err := OpenCounters(CounterOptions{}); err == nil {
		t.Error("OpenCounters with nothing requested succeeded")
	}
}

func errString(err error) string {
	if err == nil {
		return "<nil>"
	}
	return err.Error()
}

// TestCountersSoftwareReal opens the real software counters on this host
// and checks that sleeping on a locked thread counts context switches.
func TestCountersSoftwareReal(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	c, err := OpenCounters(CounterOptions{Hardware: true, Software: true})
	if err != nil {
		t.Fatalf("OpenCounters: %v", err)
	}
	defer c.Close()
	t.Logf("hardware: %v; events %q", c.HardwareErr, c.Events())
	if !c.HasSoftware() {
		t.Fatal("no software counters")
	}
	var before, after Sample
	if err := c.Read(&before); err != nil {
		t.Fatal(err)
	}
	const sleeps = 20
	for i := 0; i < sleeps; i++ {
		time.Sleep(200 * time.Microsecond) // blocks the locked thread: a context switch
		runtime.Gosched()
	}
	if err := c.Read(&after); err != nil {
		t.Fatal(err)
	}
	d := after.Sub(before)
	t.Logf("delta: %+v", d)
	if d.ContextSwitches < sleeps/2 {
		t.Errorf("context switches rose by %d over %d sleeps", d.ContextSwitches, sleeps)
	}
	if !d.Disturbed() {
		t.Error("delta not Disturbed")
	}
	if c.HasHardware() {
		if d.Cycles == 0 || d.Instructions == 0 {
			t.Errorf("hardware counters did not move: %+v", d)
		}
	} else if !errors.Is(c.HardwareErr, unix.ENOENT) && !errors.Is(c.HardwareErr, unix.EACCES) &&
		!errors.Is(c.HardwareErr, unix.EPERM) && !errors.Is(c.HardwareErr, unix.EOPNOTSUPP) {
		t.Logf("hardware counters failed unusually: %v", c.HardwareErr)
	}
}

// BenchmarkCountersRead times one Read of every counter the host offers
// (software only in a PMU-less KVM guest).
func BenchmarkCountersRead(b *testing.B) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	c, err := OpenCounters(CounterOptions{Hardware: true, Software: true})
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	b.ReportAllocs()
	var s Sample
	for b.Loop() {
		if err := c.Read(&s); err != nil {
			b.Fatal(err)
		}
	}
}
