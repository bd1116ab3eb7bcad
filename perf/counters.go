package perf

// Counters: perf_event hardware and software counters for the measuring
// worker's own thread.
//
// Layout: up to two event groups, each read with one read(2) of its leader
// (PERF_FORMAT_GROUP), so a Read costs one or two system calls and no
// allocation:
//
//   - the hardware group: cycles (leader), instructions retired, and
//     optionally the validation counters llvm-exegesis offers (L1d read
//     misses, last-level-cache read misses, dTLB read misses), user space
//     only (exclude_kernel, exclude_hv), read with time enabled/running so
//     multiplexing shows;
//   - the software group: context switches (leader) and CPU migrations.
//     These must count kernel-side events, so exclude_kernel is NOT set:
//     with it the kernel counts no context switches at all.
//
// Each group is opened disabled and enabled once as a whole; callers take
// deltas of successive Reads (Sample.Sub). The counters follow the thread
// that called OpenCounters (pid 0, cpu -1): that goroutine must stay locked
// to its OS thread (runtime.LockOSThread) for the Counters' lifetime. Read
// itself may be called from any thread.
//
// golang.org/x/sys/unix does the system calls. From
// github.com/hodgesds/perf-utils only the event encodings are used (the
// PERF_TYPE_HW_CACHE configs and the attribute size): its profilers
// allocate on every read, and its one-shot helpers lock and re-pin the
// thread, which the worker does itself.

import (
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"strings"

	perfutils "github.com/hodgesds/perf-utils"
	"golang.org/x/sys/unix"
)

// CounterOptions selects the counter groups OpenCounters opens.
type CounterOptions struct {
	// Hardware asks for cycles and instructions retired. When the host has
	// no usable PMU (KVM guests without one fail with ENOENT), Counters
	// still opens and records the reason in HardwareErr.
	Hardware bool
	// Cache adds the validation counters (L1d read misses, LLC read
	// misses, dTLB read misses) to the hardware group; implies Hardware.
	// They are all-or-nothing: if one cannot be opened, none is counted
	// and CacheErr says why.
	Cache bool
	// Software asks for context switches and CPU migrations, which mark
	// disturbed repetitions. Their failure fails OpenCounters.
	Software bool
}

// Sample is one reading of the counters, cumulative since they were
// enabled; Sub turns two readings into the counts between them.
type Sample struct {
	Cycles, Instructions             uint64
	L1DMisses, LLCMisses, DTLBMisses uint64
	ContextSwitches, Migrations      uint64

	HasHardware bool // Cycles and Instructions are counted
	HasCache    bool // L1DMisses, LLCMisses and DTLBMisses are counted
	HasSoftware bool // ContextSwitches and Migrations are counted

	// TimeEnabled and TimeRunning are the nanoseconds the hardware group
	// was enabled and actually on the PMU. Running < Enabled means the
	// kernel multiplexed the counters and the hardware counts are partial.
	TimeEnabled, TimeRunning uint64
}

// Sub returns the counts from prev to s. A group counts in the result
// only if it counted in both.
func (s Sample) Sub(prev Sample) Sample {
	return Sample{
		Cycles:          s.Cycles - prev.Cycles,
		Instructions:    s.Instructions - prev.Instructions,
		L1DMisses:       s.L1DMisses - prev.L1DMisses,
		LLCMisses:       s.LLCMisses - prev.LLCMisses,
		DTLBMisses:      s.DTLBMisses - prev.DTLBMisses,
		ContextSwitches: s.ContextSwitches - prev.ContextSwitches,
		Migrations:      s.Migrations - prev.Migrations,
		HasHardware:     s.HasHardware && prev.HasHardware,
		HasCache:        s.HasCache && prev.HasCache,
		HasSoftware:     s.HasSoftware && prev.HasSoftware,
		TimeEnabled:     s.TimeEnabled - prev.TimeEnabled,
		TimeRunning:     s.TimeRunning - prev.TimeRunning,
	}
}

// Multiplexed reports whether the hardware counters were off the PMU for
// part of the sample's time (their counts are then partial).
func (s Sample) Multiplexed() bool {
	return s.HasHardware && s.TimeRunning < s.TimeEnabled
}

// Disturbed reports whether the thread was switched out or migrated.
func (s Sample) Disturbed() bool {
	return s.HasSoftware && (s.ContextSwitches > 0 || s.Migrations > 0)
}

// OpenError is a failed perf_event_open of one event.
type OpenError struct {
	Event string // "cycles", "instructions", "L1d read misses", ...
	Err   error  // usually a unix.Errno
}

func (e *OpenError) Error() string {
	var errno unix.Errno
	if !errors.As(e.Err, &errno) {
		return "perf_event_open " + e.Event + ": " + e.Err.Error()
	}
	detail := errno.Error()
	if errno == unix.EACCES || errno == unix.EPERM {
		detail += "; " + paranoidNote()
	}
	return fmt.Sprintf("perf_event_open %s: %s (%s)", e.Event, counterErrnoName(errno), detail)
}

func (e *OpenError) Unwrap() error { return e.Err }

// perfParanoidPath is read to explain EACCES/EPERM.
var perfParanoidPath = "/proc/sys/kernel/perf_event_paranoid"

func paranoidNote() string {
	b, err := os.ReadFile(perfParanoidPath)
	if err != nil {
		return "kernel.perf_event_paranoid unreadable; counting your own threads needs it at 2 or lower, or CAP_PERFMON"
	}
	return "kernel.perf_event_paranoid is " + strings.TrimSpace(string(b)) + "; counting your own threads needs 2 or lower, or CAP_PERFMON"
}

// counterErrnoName spells errno as the kernel headers do (EOPNOTSUPP, not
// its Linux alias ENOTSUP).
func counterErrnoName(errno unix.Errno) string {
	if errno == unix.EOPNOTSUPP {
		return "EOPNOTSUPP"
	}
	if name := unix.ErrnoName(errno); name != "" {
		return name
	}
	return fmt.Sprintf("errno %d", int(errno))
}

// counterSys is the kernel interface Counters uses; tests replace it.
type counterSys interface {
	// open opens an event for the calling thread on any CPU, in the group
	// led by groupFd (-1: a new group).
	open(attr *unix.PerfEventAttr, groupFd int) (int, error)
	// enableGroup enables a group leader and its members.
	enableGroup(leader int) error
	read(fd int, p []byte) (int, error)
	close(fd int) error
}

// linuxCounterSys is the real kernel.
type linuxCounterSys struct{}

func (linuxCounterSys) open(attr *unix.PerfEventAttr, groupFd int) (int, error) {
	return unix.PerfEventOpen(attr, 0, -1, groupFd, unix.PERF_FLAG_FD_CLOEXEC)
}

func (linuxCounterSys) enableGroup(leader int) error {
	return unix.IoctlSetInt(leader, unix.PERF_EVENT_IOC_ENABLE, unix.PERF_IOC_FLAG_GROUP)
}

func (linuxCounterSys) read(fd int, p []byte) (int, error) {
	for {
		n, err := unix.Read(fd, p)
		if err != unix.EINTR {
			return n, err
		}
	}
}

func (linuxCounterSys) close(fd int) error { return unix.Close(fd) }

// perfCounterSys is the kernel interface OpenCounters uses.
var perfCounterSys counterSys = linuxCounterSys{}

// counterKind says which Sample field a group member fills.
type counterKind uint8

const (
	kindCycles counterKind = iota
	kindInstructions
	kindL1DMisses
	kindLLCMisses
	kindDTLBMisses
	kindContextSwitches
	kindMigrations
)

// counterEvent is one event Counters can open.
type counterEvent struct {
	name   string
	kind   counterKind
	typ    uint32
	config uint64
}

var (
	evCycles       = counterEvent{"cycles", kindCycles, unix.PERF_TYPE_HARDWARE, unix.PERF_COUNT_HW_CPU_CYCLES}
	evInstructions = counterEvent{"instructions", kindInstructions, unix.PERF_TYPE_HARDWARE, unix.PERF_COUNT_HW_INSTRUCTIONS}
	evCache        = []counterEvent{
		{"L1d read misses", kindL1DMisses, unix.PERF_TYPE_HW_CACHE, perfutils.L1DataReadMiss},
		{"LLC read misses", kindLLCMisses, unix.PERF_TYPE_HW_CACHE, perfutils.LLReadMiss},
		{"dTLB read misses", kindDTLBMisses, unix.PERF_TYPE_HW_CACHE, perfutils.DataTLBReadMiss},
	}
	evContextSwitches = counterEvent{"context-switches", kindContextSwitches, unix.PERF_TYPE_SOFTWARE, unix.PERF_COUNT_SW_CONTEXT_SWITCHES}
	evMigrations      = counterEvent{"cpu-migrations", kindMigrations, unix.PERF_TYPE_SOFTWARE, unix.PERF_COUNT_SW_CPU_MIGRATIONS}
)

// counterGroup is one open event group.
type counterGroup struct {
	fds   []int // fds[0] leads
	kinds []counterKind
	names []string
	timed bool // read format has time enabled and running
}

func (g *counterGroup) leader() int {
	if len(g.fds) == 0 {
		return -1
	}
	return g.fds[0]
}

// add opens ev in the group (as its disabled leader when the group is
// empty).
func (g *counterGroup) add(sys counterSys, ev counterEvent, user bool) error {
	attr := unix.PerfEventAttr{
		Type:        ev.typ,
		Config:      ev.config,
		Size:        perfutils.EventAttrSize,
		Read_format: unix.PERF_FORMAT_GROUP,
	}
	if g.timed {
		attr.Read_format |= unix.PERF_FORMAT_TOTAL_TIME_ENABLED | unix.PERF_FORMAT_TOTAL_TIME_RUNNING
	}
	if user {
		attr.Bits |= unix.PerfBitExcludeKernel | unix.PerfBitExcludeHv
	}
	if len(g.fds) == 0 {
		attr.Bits |= unix.PerfBitDisabled
	}
	fd, err := sys.open(&attr, g.leader())
	if err != nil {
		return &OpenError{Event: ev.name, Err: err}
	}
	g.fds = append(g.fds, fd)
	g.kinds = append(g.kinds, ev.kind)
	g.names = append(g.names, ev.name)
	return nil
}

// truncate closes the members from index n on.
func (g *counterGroup) truncate(sys counterSys, n int) {
	for i := len(g.fds) - 1; i >= n; i-- {
		_ = sys.close(g.fds[i])
	}
	g.fds, g.kinds, g.names = g.fds[:n], g.kinds[:n], g.names[:n]
}

// Counters reads perf_event counters of the thread that opened them. The
// zero value is not usable; call OpenCounters.
type Counters struct {
	// HardwareErr says why hardware counters are not counting (nil when
	// they are, or were not asked for). It is an *OpenError naming the
	// event and errno, e.g. "perf_event_open cycles: ENOENT (no such file
	// or directory)".
	HardwareErr error
	// CacheErr says why the cache validation counters are not counting
	// (nil when they are, or were not asked for).
	CacheErr error

	sys    counterSys
	hw, sw counterGroup
	buf    []byte
}

// OpenCounters opens the counters opts asks for, for the calling thread,
// and enables them. Hardware counters that cannot be opened are not an
// error as long as something else was asked for: the reason is kept in
// HardwareErr (and CacheErr) and the Samples say HasHardware false. The
// calling goroutine must be locked to its thread (runtime.LockOSThread).
func OpenCounters(opts CounterOptions) (*Counters, error) {
	if opts.Cache {
		opts.Hardware = true
	}
	if !opts.Hardware && !opts.Software {
		return nil, errors.New("perf: OpenCounters: no counters requested")
	}
	c := &Counters{sys: perfCounterSys}
	if opts.Hardware {
		c.openHardware(opts.Cache)
	}
	if opts.Software {
		if err := c.openSoftware(); err != nil {
			c.Close()
			return nil, fmt.Errorf("perf: software counters: %w", err)
		}
	}
	if len(c.hw.fds) == 0 && len(c.sw.fds) == 0 {
		err := c.HardwareErr
		c.Close()
		return nil, fmt.Errorf("perf: hardware counters: %w", err)
	}
	for _, g := range []*counterGroup{&c.hw, &c.sw} {
		if len(g.fds) == 0 {
			continue
		}
		if err := c.sys.enableGroup(g.leader()); err != nil {
			c.Close()
			return nil, fmt.Errorf("perf: enabling %s: %w", strings.Join(g.names, ", "), err)
		}
	}
	// nr, time enabled, time running, then one value per event.
	c.buf = make([]byte, 8*(3+len(c.hw.fds)+len(c.sw.fds)))
	return c, nil
}

// openHardware opens cycles, instructions and, if cache, the validation
// counters, recording failures in HardwareErr and CacheErr.
func (c *Counters) openHardware(cache bool) {
	c.hw.timed = true
	for _, ev := range []counterEvent{evCycles, evInstructions} {
		if err := c.hw.add(c.sys, ev, true); err != nil {
			c.hw.truncate(c.sys, 0)
			c.HardwareErr = err
			if cache {
				c.CacheErr = fmt.Errorf("cache counters need hardware counters: %w", err)
			}
			return
		}
	}
	if !cache {
		return
	}
	n := len(c.hw.fds)
	for _, ev := range evCache {
		if err := c.hw.add(c.sys, ev, true); err != nil {
			c.hw.truncate(c.sys, n)
			c.CacheErr = err
			return
		}
	}
}

// openSoftware opens context switches and migrations. They count
// kernel-side events, so they must not exclude the kernel.
func (c *Counters) openSoftware() error {
	for _, ev := range []counterEvent{evContextSwitches, evMigrations} {
		if err := c.sw.add(c.sys, ev, false); err != nil {
			c.sw.truncate(c.sys, 0)
			return err
		}
	}
	return nil
}

// HasHardware reports whether cycles and instructions are counted.
func (c *Counters) HasHardware() bool { return len(c.hw.fds) >= 2 }

// HasCache reports whether the cache validation counters are counted.
func (c *Counters) HasCache() bool { return len(c.hw.fds) == 2+len(evCache) }

// HasSoftware reports whether context switches and migrations are counted.
func (c *Counters) HasSoftware() bool { return len(c.sw.fds) == 2 }

// Events lists the open events in group order, e.g. ["cycles",
// "instructions", "context-switches", "cpu-migrations"].
func (c *Counters) Events() []string {
	out := make([]string, 0, len(c.hw.names)+len(c.sw.names))
	out = append(out, c.hw.names...)
	return append(out, c.sw.names...)
}

// Read fills dst with the counters' current totals: one read(2) per
// group, no allocation.
func (c *Counters) Read(dst *Sample) error {
	*dst = Sample{}
	if c.buf == nil {
		return errors.New("perf: Read on closed Counters")
	}
	if err := c.readGroup(&c.hw, dst); err != nil {
		return err
	}
	if err := c.readGroup(&c.sw, dst); err != nil {
		return err
	}
	dst.HasHardware = c.HasHardware()
	dst.HasCache = c.HasCache()
	dst.HasSoftware = c.HasSoftware()
	return nil
}

func (c *Counters) readGroup(g *counterGroup, dst *Sample) error {
	if len(g.fds) == 0 {
		return nil
	}
	want := 8 * (1 + len(g.fds))
	if g.timed {
		want += 16
	}
	n, err := c.sys.read(g.fds[0], c.buf[:want])
	if err != nil {
		return fmt.Errorf("perf: reading %s: %w", g.names[0], err)
	}
	if n != want {
		return fmt.Errorf("perf: reading %s: got %d bytes, want %d", g.names[0], n, want)
	}
	le := binary.NativeEndian
	if nr := le.Uint64(c.buf); nr != uint64(len(g.fds)) {
		return fmt.Errorf("perf: reading %s: group has %d events, want %d", g.names[0], nr, len(g.fds))
	}
	off := 8
	if g.timed {
		dst.TimeEnabled = le.Uint64(c.buf[8:])
		dst.TimeRunning = le.Uint64(c.buf[16:])
		off = 24
	}
	for i, k := range g.kinds {
		v := le.Uint64(c.buf[off+8*i:])
		switch k {
		case kindCycles:
			dst.Cycles = v
		case kindInstructions:
			dst.Instructions = v
		case kindL1DMisses:
			dst.L1DMisses = v
		case kindLLCMisses:
			dst.LLCMisses = v
		case kindDTLBMisses:
			dst.DTLBMisses = v
		case kindContextSwitches:
			dst.ContextSwitches = v
		case kindMigrations:
			dst.Migrations = v
		}
	}
	return nil
}

// Close closes every counter. It is safe to call more than once.
func (c *Counters) Close() error {
	var errs []error
	for _, g := range []*counterGroup{&c.hw, &c.sw} {
		// Members first, the leader last.
		for i := len(g.fds) - 1; i >= 0; i-- {
			if err := c.sys.close(g.fds[i]); err != nil {
				errs = append(errs, err)
			}
		}
		g.fds, g.kinds, g.names = nil, nil, nil
	}
	c.buf = nil
	return errors.Join(errs...)
}
