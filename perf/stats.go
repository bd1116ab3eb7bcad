package perf

import (
	"fmt"
	"math"
	"sort"
)

// Stats summarises a set of values.
type Stats struct {
	Median, Min, Max float64
	N                int
}

// NewStats computes the median, minimum and maximum of values.
func NewStats(values []float64) Stats {
	if len(values) == 0 {
		return Stats{Median: math.NaN(), Min: math.NaN(), Max: math.NaN()}
	}
	v := append([]float64(nil), values...)
	sort.Float64s(v)
	n := len(v)
	med := v[n/2]
	if n%2 == 0 {
		med = (v[n/2-1] + v[n/2]) / 2
	}
	return Stats{Median: med, Min: v[0], Max: v[n-1], N: n}
}

// Scale multiplies every statistic by f.
func (s Stats) Scale(f float64) Stats {
	return Stats{Median: s.Median * f, Min: s.Min * f, Max: s.Max * f, N: s.N}
}

// Spread is (max-min)/median: the relative range of the values.
func (s Stats) Spread() float64 {
	if s.Median == 0 {
		return 0
	}
	return (s.Max - s.Min) / math.Abs(s.Median)
}

func (s Stats) String() string {
	return fmt.Sprintf("%.4f [%.4f, %.4f] n=%d", s.Median, s.Min, s.Max, s.N)
}

// Source names a cycle source.
type Source string

// Cycle sources.
const (
	HardwareCycles Source = "hw-cycles"      // perf_event PERF_COUNT_HW_CPU_CYCLES
	CalibratedTSC  Source = "calibrated-tsc" // TSC ticks times core cycles per tick
)

// Clock says how cycles were counted.
type Clock struct {
	Source Source
	// CyclesPerTick is core cycles per TSC tick at the fastest clock the
	// calibration chain showed (it runs in every repetition, also when
	// hardware counters are used).
	CyclesPerTick float64
	// HardwareErr says why hardware counters were not used.
	HardwareErr string
	// FrequencyFactor is the core clock during the measured code relative
	// to the calibration chain's (ticks per cycle, as the frequency probe
	// after each function saw it); 1 when within the probe's noise. A
	// factor above 1 means a slower clock (e.g. an AVX-512 licence), and the
	// measurement was corrected for it.
	FrequencyFactor float64
}

// Canaries are the canaries of a measurement, cycles per instruction: the
// latency canary (an imul chain, LatCanaryExpected on every x86-64 core),
// the throughput canary (independent adds), and the vector and load
// canaries where they judge the measurement (0 otherwise).
type Canaries struct {
	Latency, Throughput, Vector, Load float64
}
