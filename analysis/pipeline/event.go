package pipeline

// InstrEventKind is what happened to an instruction.
type InstrEventKind uint8

// Instruction events, in the order an instruction goes through them.
const (
	// Dispatched: the instruction (or, for one wider than the dispatch
	// width, a further part of its micro-ops) entered the back end.
	Dispatched InstrEventKind = iota
	// Pending: every register input has a known arrival cycle.
	Pending
	// Ready: every input has arrived; the instruction waits for ports.
	Ready
	// Issued: the instruction left the scheduler for its ports.
	Issued
	// Executed: its latency has elapsed.
	Executed
	// Retired: it left the reorder buffer.
	Retired
)

var instrEventNames = [...]string{"dispatched", "pending", "ready", "issued", "executed", "retired"}

func (k InstrEventKind) String() string {
	if int(k) < len(instrEventNames) {
		return instrEventNames[k]
	}
	return "?"
}

// UnitUse is a port an issued instruction took, and for how long.
type UnitUse struct {
	Unit  int
	Ticks int64
}

// InstrEvent reports an instruction's progress. The event and the
// instruction are only valid during the call: listeners copy what they need.
type InstrEvent struct {
	Kind  InstrEventKind
	Inst  *Inst
	Cycle int
	// Uops is the micro-ops dispatched in this cycle (Dispatched).
	Uops int
	// Used lists the ports taken (Issued).
	Used []UnitUse
	// Regs is the physical registers taken (Dispatched) or freed
	// (Retired) per register file, with the total over all files last.
	Regs []int
	// Eliminated is set on the events of a move eliminated at renaming.
	Eliminated bool
}

// StallKind is why dispatch stalled.
type StallKind uint8

// Dispatch stalls, named as llvm-mca's dispatch statistics name them.
const (
	StallRegisterFile  StallKind = iota // RAT: no physical register
	StallRetireUnit                     // RCU: reorder buffer full
	StallScheduler                      // SCHEDQ: scheduler full
	StallLoadQueue                      // LQ
	StallStoreQueue                     // SQ
	StallDispatchGroup                  // GROUP: begin/end-group restriction
	NumStallKinds
)

var stallNames = [...]string{"RAT", "RCU", "SCHEDQ", "LQ", "SQ", "GROUP"}

func (k StallKind) String() string {
	if int(k) < len(stallNames) {
		return stallNames[k]
	}
	return "?"
}

// StallEvent reports that dispatch could not take Inst in Cycle. Buffers
// is the set of full schedulers for StallScheduler; Files the full register
// files (bit len(RegisterFiles) is the total limit) for StallRegisterFile.
type StallEvent struct {
	Kind    StallKind
	Inst    *Inst
	Cycle   int
	Buffers uint64
	Files   uint64
}

// PressureKind is what held instructions back in a cycle.
type PressureKind uint8

// Kinds of back-end pressure (llvm-mca's HWPressureEvent).
const (
	// PressureResources: ready instructions found their ports busy.
	PressureResources PressureKind = iota
	// PressureRegisterDeps: instructions whose ports were free waited for
	// register inputs.
	PressureRegisterDeps
	// PressureMemoryDeps: instructions whose ports were free waited for
	// older memory operations.
	PressureMemoryDeps
)

// PressureEvent is sent at the end of a cycle in which dispatch stalled on
// the scheduler or more micro-ops were dispatched than issued. Units is the
// set of busy ports for PressureResources.
type PressureEvent struct {
	Kind  PressureKind
	Cycle int
	Insts []*Inst
	Units uint64
}

// BufferEvent reports scheduler entries taken at dispatch (Reserved) or
// given back at issue.
type BufferEvent struct {
	Reserved bool
	Buffers  uint64
	Inst     *Inst
	Cycle    int
}

// Listener receives the pipeline's events. Views implement it; embed
// NopListener to receive only some events.
type Listener interface {
	CycleBegin(cycle int)
	CycleEnd(cycle int)
	InstrEvent(e *InstrEvent)
	StallEvent(e *StallEvent)
	PressureEvent(e *PressureEvent)
	BufferEvent(e *BufferEvent)
}

// NopListener ignores every event.
type NopListener struct{}

func (NopListener) CycleBegin(int)               {}
func (NopListener) CycleEnd(int)                 {}
func (NopListener) InstrEvent(*InstrEvent)       {}
func (NopListener) StallEvent(*StallEvent)       {}
func (NopListener) PressureEvent(*PressureEvent) {}
func (NopListener) BufferEvent(*BufferEvent)     {}
