package perf

import (
	"encoding/json"
	"os"
	"path/filepath"
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
}

// LoadBaseline reads the baseline of the host with signature sig ("" path
// when the cache directory is unknown: an in-memory baseline).
func LoadBaseline(sig string) *Baseline {
	b := &Baseline{}
	dir, err := os.UserCacheDir()
	if err != nil || sig == "" {
		return b
	}
	b.path = filepath.Join(dir, "portlab", "baseline-"+sig+".json")
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

// Observe records the median throughput canary of a run's clean
// repetitions.
func (b *Baseline) Observe(tp float64) {
	if b == nil || tp < MinPlausibleTpCanary {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.TpMin < MinPlausibleTpCanary || tp < b.TpMin {
		b.TpMin = tp
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
