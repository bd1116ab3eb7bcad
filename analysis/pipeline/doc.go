// Package pipeline is portlab's cycle-level model of an out-of-order x86
// core, built after llvm-mca's library: a Pipeline is a list of stages
// (entry, dispatch, execute, retire) over shared hardware units (the retire
// control unit, the register file, the scheduler with its resource manager
// and its load/store unit), and every report is a Listener that receives
// the pipeline's events. Adding a view touches no stage.
//
// It is a package of its own, apart from package analysis, because it knows
// nothing about instruction sets or model files: it simulates InstrDescs
// (micro-ops, latency, port uses, register reads and writes, memory flags)
// that package analysis builds from parsed instructions and a machine model.
// That keeps the timing rules in one place that tests can drive with
// hand-written descriptors whose cycle counts are derived by hand.
//
// # Timing rules
//
// They are those of llvm-mca 14, so that the same numbers give the same
// cycles:
//
//   - A cycle starts with the stages' CycleStart, last stage first: retire,
//     then execute (instructions whose latency has elapsed finish, ports
//     are released, waiting instructions become ready, ready instructions
//     issue), then dispatch. Then the entry stage hands instructions to
//     dispatch while dispatch accepts them.
//   - Dispatch takes up to DispatchWidth micro-ops a cycle, whole
//     instructions only; an instruction with more micro-ops than the width
//     waits for an empty cycle and spills into the following ones. It
//     needs a reorder-buffer entry per micro-op (at least one), a
//     physical register per register write, an entry in every scheduler
//     (buffer) its ports belong to, and a load (store) queue entry for a
//     load (store); a missing resource stalls dispatch and is reported.
//   - An instruction dispatched in cycle d issues at d+1 at the earliest;
//     zero-latency instructions that use no port (zero idioms) and
//     eliminated moves complete at dispatch. Among ready instructions
//     the scheduler picks by rank (source index minus the number of
//     dependent readers, older first on ties) any whose ports are free
//     and whose own limit (InstrDesc.Own) is: instructions of one own
//     limit issue OwnTicks apart at least, kept in ticks as port uses
//     are. There is no other limit on issues per cycle.
//   - A port use of c cycles keeps the chosen port busy for c cycles
//     (fractional cycles are kept exactly, in 1/Scale cycle ticks: two
//     half-cycle uses share a cycle). Among the free ports of a group the
//     choice rotates, highest port index first, as llvm-mca's default
//     resource strategy does.
//   - A result written with latency L by an instruction issued at c is
//     available at c+L; a read with read-advance A may issue at c+L-A.
//     An instruction issued at c with latency L has executed at c+L and
//     retires at c+L+1 at the earliest, in order, RetireWidth a cycle
//     (0 = unlimited), freeing its reorder-buffer entries, physical
//     registers and queue entries.
//   - Not llvm-mca's: with Config.StoreCommit set, a store retires only
//     within its cycle's commit budget (the stores of LinesPerCycle cache
//     lines, StoresPerLine consecutive ones of each, by InstrDesc.Line);
//     Result.CommitHeld counts the cycles a store waited for it.
//   - The load/store unit orders memory operations as llvm-mca's does: a
//     store issues after the older store and the older loads have issued
//     and, unless NoAlias is set, have executed; a load waits for the
//     older store to execute unless NoAlias is set; loads with no store
//     between them form a group that may issue in any order. Barriers
//     (fences) order everything behind them.
package pipeline
