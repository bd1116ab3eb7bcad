// Package retry owns the patience a noisy host needs: a measurement that a
// neighbour's burst disturbed is tried again after a pause that doubles
// each time, so that a retry does not land in the same burst. On this
// project's KVM guests bursts last from tens of milliseconds to a few
// seconds; measuring tests use it so that they hold there and never flake.
package retry

import "time"

// Do calls fn(0), fn(1), ... until it returns true or tries calls were
// made, pausing first before the second call and doubling the pause before
// each further one, never beyond limit. It reports whether a call
// returned true.
func Do(tries int, first, limit time.Duration, fn func(try int) bool) bool {
	pause := first
	for k := 0; k < tries; k++ {
		if k > 0 {
			time.Sleep(pause)
			pause = min(2*pause, limit)
		}
		if fn(k) {
			return true
		}
	}
	return false
}

// Measuring is Do with the pauses measuring tests use: 100 ms first, at
// most 2 s (about 10 s of waiting over 8 tries).
func Measuring(tries int, fn func(try int) bool) bool {
	return Do(tries, 100*time.Millisecond, 2*time.Second, fn)
}
