package perf

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sync"

	"portlab/internal/fsutil"
)

// Baseline remembers, per host, the fastest throughput canary seen: the
// value of a quiet machine. It lives in the user cache directory and only
// ever moves down, so a run on a busy machine cannot spoil it.
type Baseline struct {
	path  string
	mu    sync.Mutex
	TpMin float64 `json:"throughput_canary_min"`
	dirty bool
	// recent are this run's accepted observations: a new minimum needs two
	// of them (one job whose clock went wrong cannot set it).
	recent []float64
}

// LoadBaseline reads the baseline of the host with signature sig ("" path
// when the cache directory is unknown: an in-memory baseline).
func LoadBaseline(sig string) *Baseline {
	b := &Baseline{}
	dir, err := os.UserCacheDir()
	if err != nil || sig == "" {
		return b
	}
	// v2: the canary of register adds (v1 files hold add-immediate values).
	b.path = filepath.Join(dir, "portlab", "baseline-v2-"+sig+".json")
	if data, err := os.ReadFile(b.path); err == nil {
		json.Unmarshal(data, b)
	}
	return b
}

// MinPlausibleTpCanary is the fastest the throughput canary (eight
// independent adds) can run on any x86 core: no core renames more than
// eight instructions a cycle. A smaller value is a measurement gone wrong
// and must never become the baseline (it would mark every repetition
// disturbed from then on).
const MinPlausibleTpCanary = 0.125

// Get returns the quiet throughput-canary value (0 if unknown).
func (b *Baseline) Get() float64 {
	if b == nil {
		return 0
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.TpMin < MinPlausibleTpCanary {
		return 0
	}
	return b.TpMin
}

// Observe records a job's median throughput canary over its clean
// repetitions, with the median latency canary of the same repetitions: a
// job whose latency canary is more than 1 % off its known value had its
// clock wrong, and its throughput canary is not evidence. A new minimum
// takes two observations at or below it, so that one bad job cannot poison
// the baseline (which would then mark every repetition disturbed: it
// happened twice on these machines).
func (b *Baseline) Observe(tp, lat float64) {
	if b == nil || tp < MinPlausibleTpCanary || math.Abs(lat-LatCanaryExpected) > 0.01*LatCanaryExpected {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.recent = append(b.recent, tp)
	if len(b.recent) > 32 {
		b.recent = b.recent[1:]
	}
	if len(b.recent) < 2 {
		return
	}
	sorted := slices.Clone(b.recent)
	slices.Sort(sorted)
	candidate := sorted[1] // the second smallest: confirmed by another job
	if b.TpMin < MinPlausibleTpCanary || candidate < b.TpMin {
		b.TpMin = candidate
		b.dirty = true
	}
}

// Save writes the baseline back if it changed.
func (b *Baseline) Save() error {
	if b == nil || b.path == "" {
		return nil
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if !b.dirty {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(b.path), 0o755); err != nil {
		return err
	}
	data, _ := json.Marshal(b)
	b.dirty = false
	return fsutil.WriteFileAtomic(b.path, data, 0o644)
}
