// Package perf owns portlab's clock and the statistics of repetitions: which
// cycle source a measurement uses (hardware cycle counters through
// perf_event when the host exposes them, otherwise the TSC calibrated against
// a chain of known latency in every repetition), the software counters that
// mark disturbed repetitions, the canary checks, and the summary statistics
// of the clean repetitions. It knows nothing about instructions: callers hand
// it numbers.
package perf
