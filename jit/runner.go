package jit

import (
	"bufio"
	"bytes"
	"encoding/gob"
	"errors"
	"fmt"
	"golang.org/x/sys/unix"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Runner owns a persistent worker subprocess (this binary re-executing itself,
// see MaybeRunWorker) that runs jobs pinned to one CPU. A job whose code
// faults or hangs kills the worker; the runner reports a *CrashError and
// starts a fresh worker for the next job.
type Runner struct {
	CPU     int           // CPU the worker is pinned to; -1 = not pinned
	Timeout time.Duration // per job
	Exe     string        // binary to run; default os.Executable()

	cmd    *exec.Cmd
	stdin  io.WriteCloser
	enc    *gob.Encoder
	dec    *gob.Decoder
	stderr *lockedBuffer
	done   chan struct{} // closed when the worker process has exited
	state  *os.ProcessState

	// Restarts counts workers replaced after a crash or timeout.
	Restarts int
	// moved is set when CPU changed while a worker ran: its next job
	// carries the move.
	moved bool
}

// MoveTo makes cpu the worker's CPU from the next job on: this process's
// threads leave it (moveOffCPU), and a running worker moves its
// measuring thread there before that job, its other threads off it. A
// runner that is not pinned (CPU < 0) stays unpinned.
func (r *Runner) MoveTo(cpu int) {
	if r.CPU < 0 || cpu < 0 || cpu == r.CPU {
		return
	}
	r.CPU = cpu
	moveOffCPU(cpu)
	r.moved = r.cmd != nil
}

// DefaultCPU is the highest-numbered CPU this process may run on (its
// affinity mask, which a cpuset or a pinned container narrows), of a
// performance core on a hybrid part: the measuring thread's home unless
// told otherwise.
func DefaultCPU() int {
	cpus := AllowedCPUs()
	if len(cpus) == 0 {
		return runtime.NumCPU() - 1
	}
	return defaultCPU("/sys", cpus)
}

// defaultCPU picks the highest of cpus, among the performance cores where
// sysfs lists them (/sys/devices/cpu_core/cpus, on hybrid Intel parts,
// whose highest-numbered CPUs are usually efficiency cores: the model
// portlab names is the performance core's).
func defaultCPU(sys string, cpus []int) int {
	if b, err := os.ReadFile(filepath.Join(sys, "devices", "cpu_core", "cpus")); err == nil {
		if perf, err := ParseCPUList(strings.TrimSpace(string(b))); err == nil {
			for i := len(cpus) - 1; i >= 0; i-- {
				if slices.Contains(perf, cpus[i]) {
					return cpus[i]
				}
			}
		}
	}
	return cpus[len(cpus)-1]
}

// AllowedCPUs lists the CPUs in this process's affinity mask as it was at
// start, ascending (a Runner later moves the process's own threads off its
// measuring CPU; see moveOffCPU).
func AllowedCPUs() []int { return slices.Clone(startCPUs) }

// startCPUs is the process's affinity mask at start.
var startCPUs = threadCPUs(0)

// cpuSet is the affinity mask of cpus.
func cpuSet(cpus ...int) *unix.CPUSet {
	var set unix.CPUSet
	for _, c := range cpus {
		set.Set(c)
	}
	return &set
}

// threadCPUs lists the CPUs in thread tid's affinity mask (0: the calling
// thread), ascending.
func threadCPUs(tid int) []int {
	var set unix.CPUSet
	if err := unix.SchedGetaffinity(tid, &set); err != nil {
		return nil
	}
	var out []int
	for c := 0; c < 1024; c++ {
		if set.IsSet(c) {
			out = append(out, c)
		}
	}
	return out
}

// moveOffCPU moves every thread of this process onto the CPUs of its
// start-up mask other than cpu, so that nothing of the measuring process
// but the worker's measuring thread is scheduled there: not the Go
// runtime's threads, not the next batch being assembled, not GNU as. On
// this project's KVM guests a sweep whose parent process shared the
// measuring CPU had context switches in a fifth of its measurements. A
// worker started afterwards inherits the narrowed mask, so its own runtime
// threads stay off cpu too; it pins its measuring thread back onto cpu. A
// process allowed no other CPU is left as it is.
func moveOffCPU(cpu int) { moveThreadsOff(startCPUs, cpu, 0) }

// RestoreCPUs moves every thread of this process back onto its start-up
// mask, undoing moveOffCPU, for work that measures nothing (a model
// build) and should have every CPU again. The next worker to start moves
// them off its CPU once more.
func RestoreCPUs() { moveThreadsOff(startCPUs, -1, 0) }

// startAs starts GNU as with this process's start-up mask, the measuring
// CPU among them: a child inherits the mask of the thread that starts
// it, and this process's threads are kept off the measuring CPU
// (moveOffCPU), which would leave a batch's runs of as one CPU fewer.
// The engine assembles only between jobs, so the measuring CPU is idle.
func startAs(cmd *exec.Cmd) error {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	prev := threadCPUs(0)
	if len(prev) == 0 || len(startCPUs) == 0 || unix.SchedSetaffinity(0, cpuSet(startCPUs...)) != nil {
		return cmd.Start()
	}
	err := cmd.Start()
	_ = unix.SchedSetaffinity(0, cpuSet(prev...)) // as in moveOffCPU: a failure costs quiet only
	return err
}

// moveThreadsOff moves every thread of this process but keep (a thread
// ID; 0 keeps none) onto the CPUs of cpus other than cpu; with no other
// CPU it leaves them as they are.
func moveThreadsOff(cpus []int, cpu, keep int) {
	others := slices.DeleteFunc(slices.Clone(cpus), func(c int) bool { return c == cpu })
	if len(others) == 0 {
		return
	}
	set := cpuSet(others...)
	tasks, err := os.ReadDir("/proc/self/task")
	if err != nil {
		return
	}
	for _, t := range tasks {
		if tid, err := strconv.Atoi(t.Name()); err == nil && tid != keep {
			// A thread that has just exited (ESRCH) needs nothing; any
			// other failure leaves that thread where it was, which only
			// costs quiet.
			_ = unix.SchedSetaffinity(tid, set)
		}
	}
}

// NewRunner returns a runner pinned to cpu (DefaultCPU when cpu < 0 is not
// wanted, pass -1 only to leave the worker unpinned).
func NewRunner(cpu int) *Runner {
	return &Runner{CPU: cpu, Timeout: 2 * time.Second}
}

type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.b.Len() > 1<<20 {
		return len(p), nil
	}
	return l.b.Write(p)
}

func (l *lockedBuffer) Bytes() []byte {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]byte(nil), l.b.Bytes()...)
}

func (r *Runner) start() error {
	exe := r.Exe
	if exe == "" {
		var err error
		if exe, err = os.Executable(); err != nil {
			return fmt.Errorf("locating own binary for the worker: %v", err)
		}
	}
	if r.CPU >= 0 {
		moveOffCPU(r.CPU)
	}
	cmd := exec.Command(exe)
	env := os.Environ()
	env = append(env, envWorker+"=1", envCPU+"="+strconv.Itoa(r.CPU),
		"GODEBUG=asyncpreemptoff=1", "GOGC=off", "GOMAXPROCS=1", "GOTRACEBACK=single")
	cmd.Env = env
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	r.stderr = &lockedBuffer{}
	cmd.Stderr = r.stderr
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("starting worker: %v", err)
	}
	r.cmd, r.stdin = cmd, stdin
	r.enc = gob.NewEncoder(stdin)
	r.dec = gob.NewDecoder(bufio.NewReader(stdout))
	r.done = make(chan struct{})
	r.state = nil
	go func(cmd *exec.Cmd, done chan struct{}) {
		cmd.Wait()
		close(done)
	}(cmd, r.done)
	return nil
}

// PID is the process ID of the running worker, 0 when none runs (the
// next job starts one).
func (r *Runner) PID() int {
	if r.cmd == nil || r.cmd.Process == nil {
		return 0
	}
	return r.cmd.Process.Pid
}

// Close stops the worker.
func (r *Runner) Close() {
	if r.cmd == nil {
		return
	}
	r.stdin.Close()
	select {
	case <-r.done:
	case <-time.After(time.Second):
		r.cmd.Process.Kill()
		<-r.done
	}
	r.cmd = nil
}

func (r *Runner) kill() {
	if r.cmd == nil {
		return
	}
	r.cmd.Process.Kill()
	<-r.done
	r.cmd = nil
	r.Restarts++
}

// CrashError describes a job whose code killed the worker or ran too long.
type CrashError struct {
	Signal   string        // "SIGSEGV", "SIGILL", "SIGFPE", "SIGBUS", "SIGTRAP", or "" for a timeout or exit
	Timeout  time.Duration // set when the job was killed for running too long
	PC       uint64        // faulting instruction address (0 if unknown)
	Addr     uint64        // faulting data address for SIGSEGV/SIGBUS
	HasAddr  bool
	Offset   int    // PC - code base, or -1 when the PC is outside the job's code
	Bytes    []byte // code bytes at the PC (up to 15)
	Code     int    // si_code of the signal
	ExitCode int    // when the worker exited without a signal
	Detail   string // worker stderr summary
	// Where is filled by the caller that knows the source (e.g. "snippet.s:3: vdivpd ...").
	Where string
}

func (e *CrashError) Error() string {
	var b strings.Builder
	switch {
	case e.Timeout > 0:
		fmt.Fprintf(&b, "timed out after %v (the snippet did not finish: an endless loop?)", e.Timeout)
	case e.Signal != "":
		b.WriteString(e.Signal)
		switch e.Signal {
		case "SIGILL":
			b.WriteString(" (illegal instruction)")
		case "SIGSEGV":
			b.WriteString(" (invalid memory access)")
		case "SIGFPE":
			b.WriteString(" (arithmetic exception: divide by zero or quotient overflow)")
		case "SIGBUS":
			b.WriteString(" (bus error)")
		case "SIGTRAP":
			b.WriteString(" (trap)")
		}
		if e.PC != 0 {
			fmt.Fprintf(&b, " at pc %#x", e.PC)
			if e.Offset >= 0 {
				fmt.Fprintf(&b, " (code+%#x)", e.Offset)
			}
		}
		if e.HasAddr && (e.Signal == "SIGSEGV" || e.Signal == "SIGBUS") {
			fmt.Fprintf(&b, ", address %#x", e.Addr)
		}
		if len(e.Bytes) > 0 {
			fmt.Fprintf(&b, ", bytes % x", e.Bytes)
		}
	default:
		fmt.Fprintf(&b, "worker exited with status %d", e.ExitCode)
		if e.Detail != "" {
			fmt.Fprintf(&b, ": %s", e.Detail)
		}
	}
	if e.Where != "" {
		fmt.Fprintf(&b, "; at %s", e.Where)
	}
	return b.String()
}

// Run sends job to the worker (starting one if needed) and waits for its
// result. On a crash or timeout it returns a *CrashError, and the next Run
// starts a fresh worker.
func (r *Runner) Run(job *Job) (*Result, error) {
	// The worker measures on one CPU and this process waits on the other,
	// an SMT sibling on this project's hosts, where a garbage collection
	// would take load ports and cache bandwidth from the snippet. Turning
	// the collector off waits for a cycle in progress to finish and starts
	// none until the result is in. (On the Granite Rapids guest the
	// 512-bit load-op streams that read 0.58 instead of 0.50 cycles in
	// some jobs did so as often with it: that is not this.)
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	if r.cmd == nil {
		if err := r.start(); err != nil {
			return nil, err
		}
		r.moved = false
	}
	job.Move, job.CPU = r.moved, r.CPU
	r.moved = false
	type reply struct {
		msg message
		err error
	}
	replies := make(chan reply, 2)
	go func(dec *gob.Decoder) {
		for i := 0; i < 2; i++ {
			var m message
			err := dec.Decode(&m)
			replies <- reply{m, err}
			if err != nil || m.Result != nil {
				return
			}
		}
	}(r.dec)
	if err := r.enc.Encode(job); err != nil {
		return nil, r.crashed(0, 0)
	}
	timeout := r.Timeout
	if timeout <= 0 {
		timeout = 2 * time.Second
	}
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	var base uint64
	for {
		select {
		case rep := <-replies:
			if rep.err != nil {
				return nil, r.crashed(base, 0)
			}
			if rep.msg.Result != nil {
				if rep.msg.Result.Err != "" {
					return rep.msg.Result, errors.New(rep.msg.Result.Err)
				}
				return rep.msg.Result, nil
			}
			base = rep.msg.Base
		case <-timer.C:
			return nil, r.crashed(base, timeout)
		}
	}
}

// crashed collects what is known about the worker's death, kills it if
// still alive, and returns the error.
func (r *Runner) crashed(base uint64, timeout time.Duration) error {
	e := &CrashError{Offset: -1, Timeout: timeout}
	if timeout == 0 {
		select {
		case <-r.done:
		case <-time.After(time.Second):
		}
	}
	cmd := r.cmd
	r.kill()
	if timeout > 0 {
		return e
	}
	raw := r.stderr.Bytes()
	if sig, code, addr, pc, ok := parseCrashRecord(raw); ok {
		e.Signal = signalName(sig)
		e.PC = pc
		e.Addr, e.HasAddr = addr, sig == syscall.SIGSEGV || sig == syscall.SIGBUS
		e.Code = code
		if sig == syscall.SIGTRAP && code == 0x80 && pc > 0 {
			e.PC-- // int3: the kernel reports the address after the trap
		}
	} else if cmd.ProcessState != nil {
		if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); ok {
			if ws.Signaled() && ws.Signal() != syscall.SIGKILL {
				e.Signal = signalName(ws.Signal())
			} else if ws.Exited() {
				e.ExitCode = ws.ExitStatus()
			}
		}
		first, _, _ := strings.Cut(strings.TrimSpace(string(raw)), "\n")
		e.Detail = first
	}
	e.Offset = -1
	if base != 0 && e.PC >= base {
		e.Offset = int(e.PC - base)
	}
	return &crashAt{CrashError: e, base: base}
}

// crashAt carries the code base so that Locate can read bytes from the job.
type crashAt struct {
	*CrashError
	base uint64
}

func (c *crashAt) Unwrap() error { return c.CrashError }

// AsCrash returns the crash error in err, filling in the faulting bytes from
// job's code.
func AsCrash(err error, job *Job) (*CrashError, bool) {
	var ca *crashAt
	if errors.As(err, &ca) {
		e := ca.CrashError
		if job != nil && e.Offset >= 0 && e.Offset < len(job.Code) && len(e.Bytes) == 0 {
			end := e.Offset + 15
			if end > len(job.Code) {
				end = len(job.Code)
			}
			e.Bytes = append([]byte(nil), job.Code[e.Offset:end]...)
		}
		return e, true
	}
	var ce *CrashError
	if errors.As(err, &ce) {
		return ce, true
	}
	return nil, false
}

func signalName(s syscall.Signal) string {
	switch s {
	case syscall.SIGSEGV:
		return "SIGSEGV"
	case syscall.SIGILL:
		return "SIGILL"
	case syscall.SIGFPE:
		return "SIGFPE"
	case syscall.SIGBUS:
		return "SIGBUS"
	case syscall.SIGTRAP:
		return "SIGTRAP"
	}
	return s.String()
}
