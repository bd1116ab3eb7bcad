package jit

// Job is one measurement's worth of work for the worker: machine code holding
// one or more harness functions, the machine state they start from, and a
// schedule of calls repeated Reps times. One round trip serves a measurement.
type Job struct {
	Code     []byte
	CodeAddr uint64 // fixed address for the code (LLVM-EXEGESIS-SNIPPET-ADDRESS); 0 = anywhere
	Funcs    []Func
	// Init is the machine state functions start from; Func.Init selects
	// one of Inits instead (jobs that time several snippets).
	Init    Init
	Inits   []Init
	Regions []Region // memory at fixed addresses (LLVM-EXEGESIS-MEM-MAP)
	Scratch int      // scratch buffer size in bytes (zeroed, page-touched)

	Reps  int // repetitions of the schedule
	Calls int // calls per point; the point keeps the fewest ticks
	// TargetTicks is the TSC window each point aims for; the worker picks one
	// loop count per group so its longest function's call takes about this long.
	TargetTicks uint64
	Schedule    []int // function indices, run in this order in every repetition
	// TailIters is the length of the frequency probe a harness function
	// runs after its timed body, in the last of a point's calls
	// (iterations of TailAdds adds; 0 = skip).
	TailIters uint64
	// Counters asks for hardware cycle counts per point (when the host has
	// them) and software counters (context switches, migrations) per repetition.
	Counters bool
	// CacheCounters adds the validation counters (L1d, LLC and dTLB read
	// misses per repetition), as llvm-exegesis's --validation-counter does.
	CacheCounters bool
	// Move asks the worker to move its measuring thread onto CPU before
	// the job, and its other threads off it (Runner.MoveTo).
	Move bool
	CPU  int
}

// Func is one harness function in Job.Code.
type Func struct {
	Offset int    // entry point within Code
	Group  int    // functions of a group share one loop count
	Mult   uint64 // the function's loop count is the group's count times Mult
	// FixedCount, when non-zero, is used as the group count (no calibration).
	FixedCount uint64
	// Init is 1 + the index into Job.Inits of this function's machine
	// state; 0 means Job.Init.
	Init int
}

// Init is the machine state harness functions load before the timed loop.
type Init struct {
	GPR        [16]uint64 // by x86 register number (RSP ignored)
	GPRScratch [16]bool   // the value is an offset into the scratch buffer
	K          [8]uint64
	Vec        [32][64]byte
	MXCSR      uint32
	// ScratchFill is repeated over the scratch buffer (nil: zeros). Only
	// Job.Init's is used: the scratch buffer is shared by the job.
	ScratchFill []byte
	// ScratchSelf fills every 8-byte word of the scratch buffer with the
	// buffer's own address (after ScratchFill), so pointer-chasing loads
	// (mov rax, [rax]) stay inside it. Only Job.Init's is used.
	ScratchSelf bool
}

// Region is memory mapped at a fixed address and filled with a pattern.
type Region struct {
	Name string
	Addr uint64
	Size int
	Fill []byte
}

// Result is the worker's answer to a Job.
type Result struct {
	CodeBase uint64
	Counts   []uint64   // loop count per group
	Ticks    [][]uint64 // [rep][schedule position]: fewest TSC ticks over Calls calls
	// Tail is the frequency probe's ticks after the point's last call
	// ([rep][schedule position]; nil when TailIters is 0).
	Tail   [][]uint64
	Cycles [][]uint64 // [rep][schedule position]: fewest hardware cycles (nil without counters)
	// Instructions retired in the call that had the fewest cycles.
	Instructions [][]uint64
	// CacheMisses per repetition: L1d read misses, LLC read misses, dTLB
	// read misses (nil unless asked for and available).
	CacheMisses [][3]uint64
	CacheErr    string // why the cache counters are missing
	// Per repetition software counter deltas (nil when unavailable).
	ContextSwitches []uint64
	Migrations      []uint64
	CounterErr      string // why hardware counters were not used
	SoftwareErr     string // why software counters were not used
	Err             string // a failure that is not a crash (bad job, mmap failure)
	CPU             int    // the CPU the job ran on, as the kernel says at its end (-1: unknown)
}

// message is what the worker sends: first the code base (before running
// anything, so a crash can be located), then the result.
type message struct {
	Base   uint64
	Result *Result
}
