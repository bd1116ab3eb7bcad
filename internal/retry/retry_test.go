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

func TestForGoesOnWhileTheBudgetLasts(t *testing.T) {
	start := time.Now()
	calls := 0
	ok := For(2, 60*time.Millisecond, 5*time.Millisecond, 10*time.Millisecond, func(int) bool {
		calls++
		return false
	})
	took := time.Since(start)
	// Pauses 5, 10, 10, ... ms: at least the two tries, then more until
	// the next pause would end past 60 ms.
	if ok || calls < 5 || took > 200*time.Millisecond {
		t.Fatalf("ok %v, %d calls in %v: want false after 5 or more calls within the 60 ms budget", ok, calls, took)
	}
	if took < 50*time.Millisecond {
		t.Fatalf("gave up after %v, before the budget's room for another pause ran out", took)
	}
}

func TestForStopsAtTheFirstSuccessAfterTheTries(t *testing.T) {
	calls := 0
	ok := For(1, time.Second, time.Millisecond, time.Millisecond, func(k int) bool {
		calls++
		return k == 3
	})
	if !ok || calls != 4 {
		t.Fatalf("ok %v after %d calls: want success on the fourth", ok, calls)
	}
}
