package retry

import (
	"testing"
	"time"
)

func TestDoStopsAtTheFirstSuccess(t *testing.T) {
	var calls []int
	ok := Do(5, time.Millisecond, 4*time.Millisecond, func(k int) bool {
		calls = append(calls, k)
		return k == 2
	})
	if !ok || len(calls) != 3 || calls[2] != 2 {
		t.Fatalf("ok %v, calls %v: want success on the third call", ok, calls)
	}
}

func TestDoPausesLongerEachTime(t *testing.T) {
	var at []time.Time
	ok := Do(4, 10*time.Millisecond, 25*time.Millisecond, func(int) bool {
		at = append(at, time.Now())
		return false
	})
	if ok || len(at) != 4 {
		t.Fatalf("ok %v after %d calls: want false after 4", ok, len(at))
	}
	// Pauses 10, 20, then 25 ms (capped); sleeping never ends early.
	for i, want := range []time.Duration{10, 20, 25} {
		if got := at[i+1].Sub(at[i]); got < want*time.Millisecond {
			t.Errorf("pause %d: %v, want at least %v ms", i+1, got, want)
		}
	}
}
