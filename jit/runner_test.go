package jit

import (
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"portlab/internal/retry"
)

func job(t *testing.T, a *Assembler, body string) *Job {
	t.Helper()
	f := Frame{LoopReg: "r8", MXCSR: true}
	j := &Job{Reps: 2, Calls: 2, TargetTicks: 20000}
	for i, c := range []int{16, 32} {
		obj, err := a.AssembleOne(&Unit{Name: "t.s", Source: HarnessSource(f, body, false, c)})
		if err != nil {
			t.Fatal(err)
		}
		for len(j.Code)%64 != 0 {
			j.Code = append(j.Code, 0xcc)
		}
		j.Funcs = append(j.Funcs, Func{Offset: len(j.Code), Mult: 1})
		j.Code = append(j.Code, obj.Code...)
		j.Schedule = append(j.Schedule, i)
	}
	j.Init.MXCSR = 0x1f80
	j.Init.GPR[1] = 1
	return j
}

func TestWorkerRunsAndClassifiesCrashes(t *testing.T) {
	needAs(t)
	a := &Assembler{Path: "as"}
	r := NewRunner(DefaultCPU())
	r.Timeout = 300 * time.Millisecond
	defer r.Close()
	res, err := r.Run(job(t, a, "add rax, rcx"))
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Ticks) != 2 || res.Ticks[0][1] <= res.Ticks[0][0] || res.Counts[0] == 0 {
		t.Fatalf("ticks %v counts %v: the long body should take longer", res.Ticks, res.Counts)
	}
	cases := []struct{ body, signal, text string }{
		{"ud2", "SIGILL", "bytes 0f 0b"},
		{"mov rax, [0x10]", "SIGSEGV", "address 0x10"},
		{"xor ecx, ecx\ndiv rcx", "SIGFPE", "bytes 48 f7 f1"},
		{"int3", "SIGTRAP", ""},
		{"jmp .", "", "timed out after 300ms"},
	}
	for _, c := range cases {
		j := job(t, a, c.body)
		start := time.Now()
		_, err := r.Run(j)
		ce, ok := AsCrash(err, j)
		if !ok {
			t.Errorf("%q: not a crash: %v", c.body, err)
			continue
		}
		if ce.Signal != c.signal || !strings.Contains(ce.Error(), c.text) {
			t.Errorf("%q: got %q (signal %q)", c.body, ce.Error(), ce.Signal)
		}
		if c.signal != "" && ce.Offset < 0 {
			t.Errorf("%q: crash not located in the code: %v", c.body, ce)
		}
		t.Logf("%-24q -> %v (%v)", c.body, ce, time.Since(start).Round(time.Millisecond))
		// The next job runs on a fresh worker.
		if _, err := r.Run(job(t, a, "add rax, rcx")); err != nil {
			t.Errorf("job after %q: %v", c.body, err)
		}
	}
	if r.Restarts != len(cases) {
		t.Errorf("restarts = %d, want %d", r.Restarts, len(cases))
	}
}

func TestWorkerRejectsBadJobs(t *testing.T) {
	r := NewRunner(DefaultCPU())
	defer r.Close()
	if _, err := r.Run(&Job{}); err == nil || !strings.Contains(err.Error(), "empty job") {
		t.Errorf("empty job: %v", err)
	}
	j := &Job{Code: []byte{0xc3}, Funcs: []Func{{Offset: 0, Mult: 1}}, Schedule: []int{0}, Reps: 1, Calls: 1, CodeAddr: 0x1001}
	if _, err := r.Run(j); err == nil || !strings.Contains(err.Error(), "not page aligned") {
		t.Errorf("unaligned code address: %v", err)
	}
}

// A runner keeps its measuring CPU to the worker's measuring thread: every
// thread of this process and every other thread of the worker is moved
// onto the other CPUs. Moved to another CPU (Runner.MoveTo), the running
// worker measures there from its next job on, and the threads make way
// again.
func TestMeasuringCPUIsTheWorkersAlone(t *testing.T) {
	needAs(t)
	cpus := AllowedCPUs()
	if len(cpus) < 2 {
		t.Skipf("this process may run on %v only: nowhere to move the other threads", cpus)
	}
	cpu := DefaultCPU()
	r := NewRunner(cpu)
	defer r.Close()
	j := job(t, &Assembler{Path: "as"}, "add rax, rcx")
	check := func(cpu int) {
		t.Helper()
		res, err := r.Run(j)
		if err != nil {
			t.Fatal(err)
		}
		if res.CPU != cpu {
			t.Errorf("the job ran on CPU %d, want %d", res.CPU, cpu)
		}
		onlyCPU := 0
		for _, pid := range []int{os.Getpid(), r.cmd.Process.Pid} {
			tasks, err := os.ReadDir(fmt.Sprintf("/proc/%d/task", pid))
			if err != nil {
				t.Fatal(err)
			}
			for _, task := range tasks {
				tid, _ := strconv.Atoi(task.Name())
				mask := threadCPUs(tid)
				switch {
				case len(mask) == 1 && mask[0] == cpu && pid != os.Getpid():
					onlyCPU++
				case slices.Contains(mask, cpu):
					t.Errorf("thread %d of process %d may run on %v, the measuring CPU %d among them", tid, pid, mask, cpu)
				}
			}
		}
		if onlyCPU != 1 {
			t.Errorf("%d worker threads pinned to CPU %d, want exactly the measuring one", onlyCPU, cpu)
		}
	}
	check(cpu)
	if got := AllowedCPUs(); !slices.Equal(got, cpus) {
		t.Errorf("AllowedCPUs changed from %v to %v: it must stay the start-up mask", cpus, got)
	}
	pid := r.PID()
	other := cpus[0]
	r.MoveTo(other)
	check(other)
	r.MoveTo(cpu)
	check(cpu)
	if r.PID() != pid {
		t.Errorf("the worker was replaced (pid %d, then %d): a move must not restart it", pid, r.PID())
	}
	// Released (RestoreCPUs, for a model build), every thread of this
	// process may run on every CPU again; the next job moves them off.
	r.Close()
	RestoreCPUs()
	tasks, err := os.ReadDir("/proc/self/task")
	if err != nil {
		t.Fatal(err)
	}
	for _, task := range tasks {
		tid, _ := strconv.Atoi(task.Name())
		if mask := threadCPUs(tid); mask != nil && !slices.Equal(mask, cpus) {
			t.Errorf("released, thread %d may run on %v, want the start-up mask %v", tid, mask, cpus)
		}
	}
	check(cpu)
}

// The frequency probe runs once a point, after its last call: a job whose
// probe is far longer than its body takes about as long with three calls
// a point as with one, and every point has its probe's ticks.
func TestFrequencyProbeOncePerPoint(t *testing.T) {
	needAs(t)
	a := &Assembler{Path: "as"}
	r := NewRunner(DefaultCPU())
	defer r.Close()
	probed := func(calls int) (time.Duration, *Result) {
		j := job(t, a, "add rax, rcx")
		j.Reps, j.Calls = 4, calls
		j.TailIters = 30000 // 1.9 million dependent adds: about 0.6 ms a probe
		start := time.Now()
		res, err := r.Run(j)
		if err != nil {
			t.Fatal(err)
		}
		return time.Since(start), res
	}
	probed(1) // a warm worker
	var one, three time.Duration
	ok := retry.Patiently(8, func(int) bool {
		var res *Result
		one, _ = probed(1)
		three, res = probed(3)
		for rep, tails := range res.Tail {
			for pos, tk := range tails {
				if tk < 30000*TailAdds/8 {
					t.Fatalf("repetition %d, point %d: probe %d ticks, want about %d cycles' worth", rep, pos, tk, 30000*TailAdds)
				}
			}
		}
		return float64(three) < 1.5*float64(one)
	})
	if !ok {
		t.Errorf("three calls a point took %v, one call %v: the probe ran after every call", three, one)
	}
}

// A worker collects between jobs once it has allocated workerGCEvery
// bytes, not before.
func TestGCDue(t *testing.T) {
	if gcDue(workerGCEvery-1, 0) || !gcDue(workerGCEvery, 0) || gcDue(3*workerGCEvery, 2*workerGCEvery+1) {
		t.Error("gcDue misjudges the bytes allocated since the last collection")
	}
}
