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
	// Recent are the latest quiet jobs' canary medians, this run's and
	// earlier runs' (kept in the file, so that short runs of one job each
	// still build a baseline): a new minimum needs ConfirmJobs of them that
	// agree.
	Recent []float64 `json:"recent_quiet_jobs,omitempty"`
}

// recentJobs is how many quiet jobs' canaries the baseline remembers.
const recentJobs = 32

// LoadBaseline reads the baseline of the host with signature sig ("" path
// when the cache directory is unknown: an in-memory baseline).
func LoadBaseline(sig string) *Baseline {
	b := &Baseline{}
	dir, err := os.UserCacheDir()
	if err != nil || sig == "" {
		return b
	}
	// v2: the canary of register adds (v1 files hold add-immediate values);
	// v3: minima confirmed by three quiet jobs (v2 files could hold a
	// value that two disturbed jobs agreed on).
	b.path = filepath.Join(dir, "portlab", "baseline-v3-"+sig+".json")
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

// Observe records a job's throughput canaries over its clean repetitions,
// with the median latency canary of the same repetitions. A job is
// evidence only when its latency canary is within 1 % of its known value
// (else its clock was wrong) and its throughput canaries agree with each
// other (interquartile range within ObserveSpread of their median: a busy
// sibling scatters them, and on these machines it scattered some jobs'
// canaries as low as 0.04 on a core whose quiet value is 0.25). A new
// minimum takes ConfirmJobs such jobs whose medians lie within 1 % of each
// other, so that neither one bad job nor a few scattered ones can poison the
// baseline (which would then mark every repetition disturbed: it happened
// three times on these machines).
func (b *Baseline) Observe(tps []float64, lat float64) {
	if b == nil || len(tps) < 5 || math.Abs(lat-LatCanaryExpected) > 0.01*LatCanaryExpected {
		return
	}
	q := slices.Clone(tps)
	slices.Sort(q)
	med, q1, q3 := quantile(q, 0.5), quantile(q, 0.25), quantile(q, 0.75)
	if med < MinPlausibleTpCanary || (q3-q1) > ObserveSpread*med {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.Recent = append(b.Recent, med)
	if len(b.Recent) > recentJobs {
		b.Recent = b.Recent[len(b.Recent)-recentJobs:]
	}
	b.dirty = true
	sorted := slices.Clone(b.Recent)
	slices.Sort(sorted)
	// The smallest value with ConfirmJobs-1 others within 1 % above it.
	for i := 0; i+ConfirmJobs-1 < len(sorted); i++ {
		if sorted[i+ConfirmJobs-1] > sorted[i]*1.01 {
			continue
		}
		candidate := sorted[i+ConfirmJobs-1]
		if b.TpMin < MinPlausibleTpCanary || candidate < b.TpMin {
			b.TpMin = candidate
		}
		return
	}
}

// ObserveSpread is the widest interquartile range (relative to the median)
// of a job's throughput canaries for the job to count as quiet evidence.
const ObserveSpread = 0.02

// ConfirmJobs is how many quiet jobs must agree (within 1 %) on a new
// baseline minimum.
const ConfirmJobs = 3

// quantile returns the q-quantile of sorted values (linear interpolation).
func quantile(sorted []float64, q float64) float64 {
	if len(sorted) == 0 {
		return math.NaN()
	}
	pos := q * float64(len(sorted)-1)
	lo := int(pos)
	if lo+1 >= len(sorted) {
		return sorted[lo]
	}
	f := pos - float64(lo)
	return sorted[lo]*(1-f) + sorted[lo+1]*f
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
