package measure

import (
	"slices"
	"testing"
	"time"
)

// A disturbed group is retried after the other groups, not back to back,
// and the engine sleeps only when nothing else is left to measure.
func TestRetriesWaitBehindOtherGroups(t *testing.T) {
	e := &Engine{}
	o := Options{MaxRetries: 4, RetryBackoff: 20 * time.Millisecond}
	names := map[*groupRun]string{}
	var groups []*groupRun
	for _, n := range []string{"a", "b", "c"} {
		g := &groupRun{}
		names[g] = n
		groups = append(groups, g)
	}
	wants := map[string]int{"a": 2, "c": 3} // jobs until enough clean repetitions
	var order, finished []string
	attempt := func(g *groupRun) (bool, []*groupRun) {
		time.Sleep(15 * time.Millisecond) // a job
		g.attempt++
		order = append(order, names[g])
		return g.attempt < wants[names[g]], nil
	}
	e.runGroups(groups, o, attempt, func(g *groupRun) { finished = append(finished, names[g]) })
	// a (0-15 ms) is ready again at 35 ms: b runs (15-30), c (30-45), then
	// a (ready), then c (ready at 65 ms: the engine waits about 20 ms), and
	// c's second retry after 40 ms more.
	if want := []string{"a", "b", "c", "a", "c", "c"}; !slices.Equal(order, want) {
		t.Errorf("jobs ran in order %v, want %v", order, want)
	}
	if want := []string{"b", "a", "c"}; !slices.Equal(finished, want) {
		t.Errorf("groups finished in order %v, want %v", finished, want)
	}
	if e.Stats.Retries != 3 {
		t.Errorf("%d retries counted, want 3", e.Stats.Retries)
	}
	// The sleeps: before c's first retry (ready 20 ms after its job, a's
	// retry took 15 of them: none if a busy host stretched that job) and
	// its second (40 ms after its retry, less the microseconds between).
	if w := e.Stats.Waiting; w < 35*time.Millisecond || w > 200*time.Millisecond {
		t.Errorf("waited %v before retries, want about 45 ms", w)
	}
}
