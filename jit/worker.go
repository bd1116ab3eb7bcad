package jit

import (
	"bufio"
	"encoding/gob"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"slices"
	"strconv"
	"unsafe"

	"golang.org/x/sys/unix"

	"portlab/perf"
)

// Environment variables that turn a process into a worker.
const (
	envWorker = "PORTLAB_JIT_WORKER"
	envCPU    = "PORTLAB_JIT_CPU"
)

// MaybeRunWorker turns the current process into a JIT worker when it was
// started as one by a Runner (the binary re-executing itself), and never
// returns in that case. Call it first thing in main (and in TestMain of
// packages whose tests run snippets).
func MaybeRunWorker() {
	if os.Getenv(envWorker) != "1" {
		return
	}
	cpu, err := strconv.Atoi(os.Getenv(envCPU))
	if err != nil {
		cpu = -1
	}
	os.Exit(workerMain(cpu, os.Stdin, os.Stdout))
}

func workerMain(cpu int, in io.Reader, out io.Writer) int {
	runtime.LockOSThread()
	debug.SetGCPercent(-1)
	if cpu >= 0 {
		if err := unix.SchedSetaffinity(0, cpuSet(cpu)); err != nil {
			fmt.Fprintf(os.Stderr, "portlab worker: pinning to cpu %d: %v\n", cpu, err)
			return 3
		}
	}
	// Linux hands out AMX tile state only on request; without it the first
	// tile instruction faults. Harmless where AMX is absent (EINVAL).
	const archReqXcompPerm, xfeatureXtiledata = 0x1023, 18
	unix.Syscall(unix.SYS_ARCH_PRCTL, archReqXcompPerm, xfeatureXtiledata, 0)
	if err := installSignalHandlers(); err != nil {
		fmt.Fprintf(os.Stderr, "portlab worker: %v\n", err)
		return 3
	}
	w := &worker{cpu: cpu, cpus: AllowedCPUs()}
	if cpu >= 0 && !slices.Contains(w.cpus, cpu) {
		// The process started with its parent's mask, which leaves out the
		// measuring CPU (moveOffCPU).
		w.cpus = append(w.cpus, cpu)
		slices.Sort(w.cpus)
	}
	defer w.close()
	dec := gob.NewDecoder(bufio.NewReader(in))
	bw := bufio.NewWriter(out)
	enc := gob.NewEncoder(bw)
	for {
		var job Job
		if err := dec.Decode(&job); err != nil {
			if err == io.EOF {
				return 0
			}
			fmt.Fprintf(os.Stderr, "portlab worker: reading job: %v\n", err)
			return 3
		}
		var res *Result
		if err := w.moveTo(job); err != nil {
			res = &Result{Err: err.Error()}
		} else {
			res = w.run(&job, func(base uint64) {
				enc.Encode(message{Base: base})
				bw.Flush()
			})
		}
		if err := enc.Encode(message{Result: res}); err != nil {
			return 3
		}
		if err := bw.Flush(); err != nil {
			return 3
		}
		w.collectBetweenJobs()
	}
}

// workerGCEvery is how many bytes a worker allocates between collections.
// The worker runs with the collector off, so that it never runs while a
// snippet is timed, and collects between jobs instead. Without that it
// never freed anything: in a 4 GiB control group on the Zen 4 guest the
// kernel killed a 30-minute characterize run in its build step, its report
// listing a second portlab process of 1.8 GB beside the main one, which
// only a worker that had run the measuring steps' 200,000 jobs can be (a
// resumed build step, starting none, ran in 2.1 GB alone).
const workerGCEvery = 64 << 20

// collectBetweenJobs collects the worker's garbage once it has allocated
// workerGCEvery bytes since the last time.
func (w *worker) collectBetweenJobs() {
	allocs := []metrics.Sample{{Name: "/gc/heap/allocs:bytes"}}
	metrics.Read(allocs)
	if now := allocs[0].Value.Uint64(); gcDue(now, w.lastCollected) {
		runtime.GC()
		w.lastCollected = now
	}
}

// gcDue says whether a worker that has allocated allocs bytes in all, and
// had allocated last at its last collection, should collect now.
func gcDue(allocs, last uint64) bool { return allocs-last >= workerGCEvery }

type worker struct {
	cpu            int   // the measuring thread's CPU (-1: not pinned)
	cpus           []int // the CPUs this worker may use, the measuring one included
	counters       *perf.Counters
	cacheCounters  bool // counters were opened with the cache group
	cacheErr       string
	hwErr, swErr   string
	countersOpened bool
	stack          []byte
	ctx            []byte
	lastCollected  uint64 // bytes allocated in all at the last collection
}

// moveTo carries out a job's move (Job.Move): it pins the measuring
// thread (the calling one, locked to its goroutine) to the job's CPU and
// the worker's other threads (the Go runtime's) to its other CPUs, as the
// runner started it on its first CPU.
func (w *worker) moveTo(job Job) error {
	cpu := job.CPU
	if !job.Move || cpu == w.cpu {
		return nil
	}
	if err := unix.SchedSetaffinity(0, cpuSet(cpu)); err != nil {
		return fmt.Errorf("moving the worker to CPU %d: %v", cpu, err)
	}
	w.cpu = cpu
	moveThreadsOff(w.cpus, cpu, unix.Gettid())
	return nil
}

func (w *worker) close() {
	if w.counters != nil {
		w.counters.Close()
	}
}

func mmapAnon(size int, prot int) ([]byte, error) {
	return unix.Mmap(-1, 0, size, prot, unix.MAP_PRIVATE|unix.MAP_ANONYMOUS)
}

func mmapFixed(addr uint64, size int) ([]byte, error) {
	// The hint is an address outside the Go heap; reinterpret it rather
	// than convert (a uintptr-to-pointer conversion go vet rightly distrusts).
	hint := *(*unsafe.Pointer)(unsafe.Pointer(&addr))
	p, err := unix.MmapPtr(-1, 0, hint, uintptr(size),
		unix.PROT_READ|unix.PROT_WRITE, unix.MAP_PRIVATE|unix.MAP_ANONYMOUS|unix.MAP_FIXED_NOREPLACE)
	if err != nil {
		return nil, err
	}
	if uint64(uintptr(p)) != addr {
		unix.MunmapPtr(p, uintptr(size))
		return nil, fmt.Errorf("kernel placed the mapping at %#x", uintptr(p))
	}
	return unsafe.Slice((*byte)(p), size), nil
}

func munmapFixed(b []byte) {
	unix.MunmapPtr(unsafe.Pointer(&b[0]), uintptr(len(b)))
}

const pageSize = 4096

func roundPage(n int) int { return (n + pageSize - 1) &^ (pageSize - 1) }

// touchPages gives every page of an anonymous mapping its own physical
// page by writing to it. Reading an untouched page maps the kernel's
// shared zero page, so every page of a read-only buffer would alias one
// physical page: on AMD cores (the L1D's linear-address way predictor)
// loads then miss L1 whenever they move to another page, and a stream over
// 8 KiB ran at two cycles a line instead of two lines a cycle (measured on
// Zen 4). (The loop this replaces, b[i] |= 0, compiled to nothing.)
func touchPages(b []byte) {
	for i := 0; i < len(b); i += pageSize {
		b[i] = 0
	}
}

func fill(dst, pattern []byte) {
	if len(pattern) == 0 {
		return
	}
	for i := 0; i < len(dst); i += len(pattern) {
		copy(dst[i:], pattern)
	}
}

func (w *worker) run(job *Job, announce func(base uint64)) *Result {
	res := &Result{}
	fail := func(format string, args ...any) *Result {
		res.Err = fmt.Sprintf(format, args...)
		return res
	}
	if len(job.Code) == 0 || len(job.Funcs) == 0 || len(job.Schedule) == 0 || job.Reps <= 0 || job.Calls <= 0 {
		return fail("empty job")
	}
	for _, f := range job.Funcs {
		if f.Offset < 0 || f.Offset >= len(job.Code) || f.Mult == 0 {
			return fail("bad function entry %d", f.Offset)
		}
	}
	if w.stack == nil {
		var err error
		if w.stack, err = mmapAnon(1<<20, unix.PROT_READ|unix.PROT_WRITE); err != nil {
			return fail("mapping stack: %v", err)
		}
		if w.ctx, err = mmapAnon(roundPage(ctxSize), unix.PROT_READ|unix.PROT_WRITE); err != nil {
			return fail("mapping context: %v", err)
		}
	}
	if job.Counters && (!w.countersOpened || (job.CacheCounters && !w.cacheCounters)) {
		if w.counters != nil {
			w.counters.Close()
		}
		w.countersOpened, w.cacheCounters = true, job.CacheCounters
		w.hwErr, w.swErr = "", ""
		c, err := perf.OpenCounters(perf.CounterOptions{Hardware: true, Software: true, Cache: job.CacheCounters})
		if err != nil {
			w.swErr = err.Error()
			w.hwErr = err.Error()
		} else {
			w.counters = c
			if c.HardwareErr != nil {
				w.hwErr = c.HardwareErr.Error()
			}
			if job.CacheCounters && c.CacheErr != nil {
				w.cacheErr = c.CacheErr.Error()
			}
		}
	}
	res.CounterErr, res.SoftwareErr = w.hwErr, w.swErr
	if job.CacheCounters {
		res.CacheErr = w.cacheErr
		if w.hwErr != "" {
			res.CacheErr = w.hwErr
		}
	}

	// Code: written while writable, then made executable and read-only (W^X).
	var code []byte
	var err error
	codeSize := roundPage(len(job.Code))
	if job.CodeAddr != 0 {
		if job.CodeAddr%pageSize != 0 {
			return fail("snippet address %#x is not page aligned", job.CodeAddr)
		}
		code, err = mmapFixed(job.CodeAddr, codeSize)
		if err != nil {
			return fail("mapping code at %#x: %v", job.CodeAddr, err)
		}
		defer munmapFixed(code)
	} else {
		code, err = mmapAnon(codeSize, unix.PROT_READ|unix.PROT_WRITE)
		if err != nil {
			return fail("mapping code: %v", err)
		}
		defer unix.Munmap(code)
	}
	copy(code, job.Code)
	if err := unix.Mprotect(code, unix.PROT_READ|unix.PROT_EXEC); err != nil {
		return fail("making code executable: %v", err)
	}
	base := uint64(uintptr(unsafe.Pointer(&code[0])))

	scratchSize := job.Scratch
	if scratchSize <= 0 {
		scratchSize = 1 << 16
	}
	scratch, err := mmapAnon(roundPage(scratchSize)+pageSize, unix.PROT_READ|unix.PROT_WRITE)
	if err != nil {
		return fail("mapping scratch: %v", err)
	}
	defer unix.Munmap(scratch)
	touchPages(scratch)
	fill(scratch, job.Init.ScratchFill)
	if job.Init.ScratchSelf {
		sb := uint64(uintptr(unsafe.Pointer(&scratch[0])))
		for i := 0; i+8 <= len(scratch); i += 8 {
			put64(scratch[i:], sb)
		}
	}
	for _, r := range job.Regions {
		m, err := mmapFixed(r.Addr, roundPage(r.Size))
		if err != nil {
			return fail("mapping memory %q at %#x: %v", r.Name, r.Addr, err)
		}
		defer munmapFixed(m)
		fill(m, r.Fill)
	}

	ctx := w.ctx
	for i := range ctx {
		ctx[i] = 0
	}
	sbase := uint64(uintptr(unsafe.Pointer(&scratch[0])))
	loaded := -1
	load := func(k int) {
		if k == loaded {
			return
		}
		loaded = k
		in := &job.Init
		if k > 0 {
			in = &job.Inits[k-1]
		}
		for i := 0; i < 16; i++ {
			v := in.GPR[i]
			if in.GPRScratch[i] {
				v += sbase
			}
			put64(ctx[ctxGPR+8*i:], v)
		}
		for i := 0; i < 8; i++ {
			put64(ctx[ctxK+8*i:], in.K[i])
		}
		for i := 0; i < 32; i++ {
			copy(ctx[ctxVec+64*i:], in.Vec[i][:])
		}
		put32(ctx[ctxMXCSR:], in.MXCSR)
	}
	for _, f := range job.Funcs {
		if f.Init < 0 || f.Init > len(job.Inits) {
			return fail("function at %d: no machine state %d", f.Offset, f.Init)
		}
	}
	load(0)
	top := uint64(uintptr(unsafe.Pointer(&w.stack[0]))) + uint64(len(w.stack)) - 256
	top &^= 63
	put64(ctx[ctxStackTop:], top)
	// The frequency probe runs only in the timed loop below: the calls
	// that size the loop counts and warm up discard it.
	put64(ctx[ctxTailIters:], 0)

	announce(base)

	ctxp := unsafe.Pointer(&ctx[0])
	call := func(f Func, count uint64) uint64 {
		load(f.Init)
		put64(ctx[ctxLoopCount:], count)
		callJIT(unsafe.Pointer(&code[f.Offset]), ctxp)
		return get64(ctx[ctxTEnd:]) - get64(ctx[ctxTStart:])
	}

	// Loop counts: one per group, so that the group's slowest function takes
	// about TargetTicks per call. A first call with count 1 also warms up
	// caches and, for a faulting snippet, crashes before anything is timed.
	groups := 0
	for _, f := range job.Funcs {
		if f.Group+1 > groups {
			groups = f.Group + 1
		}
	}
	res.Counts = make([]uint64, groups)
	longest := make([]uint64, groups)
	for _, f := range job.Funcs {
		if f.FixedCount != 0 {
			res.Counts[f.Group] = f.FixedCount
			continue
		}
		best := ^uint64(0)
		for k := 0; k < 3; k++ {
			if t := call(f, f.Mult); t < best {
				best = t
			}
		}
		if best > longest[f.Group] {
			longest[f.Group] = best
		}
	}
	for g := range res.Counts {
		if res.Counts[g] != 0 {
			continue
		}
		c := uint64(1)
		if longest[g] > 0 && job.TargetTicks > longest[g] {
			c = job.TargetTicks / longest[g]
		}
		res.Counts[g] = c
	}
	// Warm-up at full length.
	for _, f := range job.Funcs {
		call(f, res.Counts[f.Group]*f.Mult)
	}

	useHW := job.Counters && w.counters != nil && w.counters.HasHardware()
	useSW := job.Counters && w.counters != nil && w.counters.HasSoftware()
	useCache := useHW && job.CacheCounters && w.counters.HasCache()
	res.Ticks = make([][]uint64, job.Reps)
	if job.TailIters > 0 {
		res.Tail = make([][]uint64, job.Reps)
	}
	if useHW {
		res.Cycles = make([][]uint64, job.Reps)
		res.Instructions = make([][]uint64, job.Reps)
	}
	if useSW {
		res.ContextSwitches = make([]uint64, job.Reps)
		res.Migrations = make([]uint64, job.Reps)
	}
	if useCache {
		res.CacheMisses = make([][3]uint64, job.Reps)
	}
	var s0, s1, c0, c1 perf.Sample
	for rep := 0; rep < job.Reps; rep++ {
		if useSW || useCache {
			w.counters.Read(&s0)
		}
		ticks := make([]uint64, len(job.Schedule))
		tails := make([]uint64, len(job.Schedule))
		var cycles, instrs []uint64
		if useHW {
			cycles = make([]uint64, len(job.Schedule))
			instrs = make([]uint64, len(job.Schedule))
		}
		for pos, fi := range job.Schedule {
			f := job.Funcs[fi]
			count := res.Counts[f.Group] * f.Mult
			best, bestCyc, bestIns := ^uint64(0), ^uint64(0), uint64(0)
			for k := 0; k < job.Calls; k++ {
				// The frequency probe runs after the point's last call
				// only: its floor over the repetitions is what is read
				// (measure.clockFactors), and after every call it took a
				// fifth of the measuring time.
				probe := job.TailIters > 0 && k == job.Calls-1
				iters := uint64(0)
				if probe {
					iters = job.TailIters
				}
				put64(ctx[ctxTailIters:], iters)
				if useHW {
					w.counters.Read(&c0)
				}
				t := call(f, count)
				if probe {
					tails[pos] = get64(ctx[ctxTailTicks:])
				}
				if useHW {
					w.counters.Read(&c1)
					d := c1.Sub(c0)
					if d.Cycles < bestCyc {
						bestCyc, bestIns = d.Cycles, d.Instructions
					}
				}
				if t < best {
					best = t
				}
			}
			ticks[pos] = best
			if useHW {
				cycles[pos], instrs[pos] = bestCyc, bestIns
			}
		}
		res.Ticks[rep] = ticks
		if res.Tail != nil {
			res.Tail[rep] = tails
		}
		if useHW {
			res.Cycles[rep], res.Instructions[rep] = cycles, instrs
		}
		if useSW || useCache {
			w.counters.Read(&s1)
			d := s1.Sub(s0)
			if useSW {
				res.ContextSwitches[rep], res.Migrations[rep] = d.ContextSwitches, d.Migrations
			}
			if useCache {
				res.CacheMisses[rep] = [3]uint64{d.L1DMisses, d.LLCMisses, d.DTLBMisses}
			}
		}
	}
	res.CodeBase = base
	res.CPU = currentCPU()
	return res
}

// currentCPU is the CPU the calling thread runs on (getcpu), -1 if the
// kernel does not say.
func currentCPU() int {
	var cpu uint32
	if _, _, errno := unix.RawSyscall(unix.SYS_GETCPU, uintptr(unsafe.Pointer(&cpu)), 0, 0); errno != 0 {
		return -1
	}
	return int(cpu)
}

func put64(b []byte, v uint64) {
	for i := 0; i < 8; i++ {
		b[i] = byte(v >> (8 * i))
	}
}

func put32(b []byte, v uint32) {
	for i := 0; i < 4; i++ {
		b[i] = byte(v >> (8 * i))
	}
}

func get64(b []byte) uint64 {
	var v uint64
	for i := 0; i < 8; i++ {
		v |= uint64(b[i]) << (8 * i)
	}
	return v
}
