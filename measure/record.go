package measure

import (
	"io"
	"sync"
	"time"

	"portlab/perf"
)

// Recorder writes the raw repetitions of benchmarks as perf.Recordings
// (one JSON line each): those a noisy host disturbed, or every one with
// All. The engine calls it as measurements complete.
type Recorder struct {
	W                     io.Writer
	All                   bool
	Host, Microarch, Note string
	// Known are the quiet values of benchmarks, by snippet name (cycles
	// per instruction), written into their recordings.
	Known map[string]float64

	mu      sync.Mutex
	Written int
	Err     error
}

// Noisy reports whether a measurement's repetitions show noise worth
// recording: not converged, a quarter or more of its repetitions
// disturbed, or its throughput canary typically 3 % or more above its
// floor (a busy SMT sibling).
func Noisy(m *Measurement) bool {
	return !m.Converged || m.Estimate.DisturbedShare() >= 0.25 || m.Estimate.Sibling >= perf.SiblingSlack
}

func (r *Recorder) record(m *Measurement, refs perf.References) {
	if r == nil || r.W == nil || m.Err != nil || len(m.Timings) == 0 || (!r.All && !Noisy(m)) {
		return
	}
	rec := &perf.Recording{Name: m.Snippet.Name, Source: m.Snippet.Source, Host: r.Host, Microarch: r.Microarch, Note: r.Note,
		Date: time.Now().UTC().Format(time.RFC3339), Instructions: m.Instructions, Layout: m.Layout,
		Timings: m.Timings, Estimate: m.PerInstr.Median, Known: r.Known[m.Snippet.Name], TpReference: refs.Tp, VecReference: refs.Vec, LdReference: refs.Ld}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.Err != nil {
		return
	}
	if r.Err = perf.WriteRecording(r.W, rec); r.Err == nil {
		r.Written++
	}
}
