// Package analysis predicts the throughput of kernels with a machine model
// (package modeldb): an OSACA-style static analysis and an llvm-mca-style
// cycle-level simulation, reported through views.
//
// The work is split as OSACA splits it, parser, semantics and frontend:
//
//   - analysis/input finds the code: regions of assembly text (llvm-mca's
//     markers, OSACA's and IACA's), ELF objects and executables, hex blocks.
//   - This package gives the instructions their semantics (Builder,
//     Kernel): each instruction's form, the model's entry (or one derived
//     for a memory form the model lacks: the register form plus the
//     model's load and store ports and load latency), its register reads
//     and writes (explicit, address, implicit and flags operands, by
//     register unit: rax, eax and al are one unit, xmm3 and ymm3 another),
//     the read-advance of a load-op form's register sources (its latency
//     minus its register form's), idioms (zero idioms, dependency-breaking
//     idioms and eliminable moves, from the model's flags; when a model
//     marks none, the idioms llvm-mca's x86 models know), and partial
//     register writes. That becomes a pipeline.InstrDesc.
//   - analysis/pipeline simulates descriptors cycle by cycle: a list of
//     stages over shared hardware units, llvm-mca 14's rules (see its
//     documentation), events for listeners.
//   - Views (summary, instruction info, resource pressure, timeline,
//     bottleneck analysis, dispatch/scheduler/retire/register-file
//     statistics, instruction tables, the static analysis) are listeners
//     registered before a run; adding one touches no stage. Reports print
//     as llvm-mca's text, as llvm-mca's JSON layout, or as a self-contained
//     HTML page with the timeline and the port pressure drawn in SVG.
//
// # The static model
//
// Kernel.Analyze looks at one iteration in steady state. Port pressure is
// the optimal spreading of every micro-op over the ports it may use
// (modeldb.Balance: the linear program of PMEvo and Palmed); its busiest
// port is the port bound. The dispatch bound is micro-ops over dispatch
// width; the throughput bound the largest reciprocal throughput of one
// form times its count (units a model describes by throughput only). The
// dependency graph joins each read to the last write of its register (this
// iteration, or the last) weighted by the writer's latency minus the
// read's advance, and a load to an earlier store of the same address
// expression whose registers do not change in between. Its longest path
// through an iteration is the critical path; its cycles are the
// loop-carried dependencies, and the largest latency per iteration over
// all cycles (an exact maximum cycle ratio, so a cycle spanning two
// iterations counts half) is the loop-carried bound. The bound is the
// largest of the four, and names what sets it.
//
// # What the models leave out
//
// Both models ignore the front end (decoders, the uop cache, the loop
// stream detector, taken-branch bubbles), branch prediction, caches and
// memory beyond the model's load latency, bank and alignment conflicts,
// and clock or licence changes. The simulation follows llvm-mca: a port
// use of c cycles holds one port for c cycles (two uops the model lumps
// into one use do not spread over two ports in one cycle), schedulers
// hold an entry per instruction, not per micro-op, physical registers are
// freed when their writer retires, loads and stores are only ordered (no
// store forwarding latency, no memory renaming), and an instruction's
// latency is the same for every input (the model's per-operand latencies
// become read-advances). The static analysis alone models store-to-load
// forwarding through memory (the model's store_to_load_forward_latency)
// and dependency cycles over several iterations exactly; it assumes
// optimal port assignment, which a real scheduler does not always find.
// Neither model knows instruction variants that the model keys by form
// only (llvm's three-operand LEA, per-operand zero idioms of one form).
package analysis
