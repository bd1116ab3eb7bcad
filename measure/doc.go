// Package measure owns portlab's measuring method: it turns a snippet
// (assembly plus llvm-exegesis set-up annotations) into harness functions at
// two lengths, interleaves them in one worker job with the calibration chain
// and the canaries, and turns the worker's TSC ticks (or hardware cycles)
// into cycles per instruction over the clean repetitions. jit runs code,
// perf does the clock arithmetic and statistics; this package decides what
// to run and in which order.
package measure
