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
	return For(tries, 0, first, limit, fn)
}

// For is Do that also goes on after tries calls while budget, counted from
// the first call, leaves room for the next pause: a call that ends past
// the budget is the last.
func For(tries int, budget, first, limit time.Duration, fn func(try int) bool) bool {
	start := time.Now()
	pause := first
	for k := 0; ; k++ {
		if k > 0 {
			if k >= tries && time.Since(start)+pause > budget {
				return false
			}
			time.Sleep(pause)
			pause = min(2*pause, limit)
		}
		if fn(k) {
			return true
		}
	}
}

// Measuring is Do with the pauses measuring tests use: 100 ms first, at
// most 2 s (about 10 s of waiting over 8 tries).
func Measuring(tries int, fn func(try int) bool) bool {
	return Do(tries, 100*time.Millisecond, 2*time.Second, fn)
}

// Patience is how long Patiently keeps trying. On the Zen 3 guest
// (AuthenticAMD-19-1-1), 2026-11-28, its neighbour kept a stream of six
// loads off its 0.333 cycles for 4.3 s at a stretch over two minutes of
// back-to-back measurements (74 % of them off), and for all 8 tries of
// Measuring, 7.5 s, in one test run.
const Patience = time.Minute

// Patiently is Measuring for checks that take a second or two a call at
// most: at least tries calls, and more while Patience lasts. A quiet host pays
// nothing for it; only a check that keeps failing waits the minute.
func Patiently(tries int, fn func(try int) bool) bool {
	return For(tries, Patience, 100*time.Millisecond, 2*time.Second, fn)
}
