package main

import (
	"os"
	"strings"
	"testing"
)

// The tests see no user models: a model `portlab characterize` installed
// on the machine running them would otherwise become their default.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "portlab-models")
	if err != nil {
		panic(err)
	}
	os.Setenv("PORTLAB_MODEL_DIR", dir)
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// The soft memory limit is half the memory portlab may use, none where
// GOMEMLIMIT is set or the memory size is unknown (hostcpu's
// TestUsableMemory reads the size).
func TestMemoryLimitFor(t *testing.T) {
	if got := memoryLimitFor("", 24<<30); got != 12<<30 {
		t.Errorf("24 GiB: limit %d, want %d", got, int64(12<<30))
	}
	if got := memoryLimitFor("8GiB", 24<<30); got != 0 {
		t.Errorf("with GOMEMLIMIT set: limit %d, want none", got)
	}
	if got := memoryLimitFor("", 0); got != 0 {
		t.Errorf("memory unknown: limit %d, want none", got)
	}
}

// characterize warns where it may use less memory than a run was seen to
// finish in, and says whose limit that is.
func TestMemoryNote(t *testing.T) {
	for _, c := range []struct {
		usable, total uint64
		want          string
	}{
		{24 << 30, 24 << 30, ""},
		{3900 << 20, 3900 << 20, ""}, // a 4 GiB machine less what its kernel keeps
		{0, 0, ""},
		{2 << 30, 24 << 30, "2.0 GiB of memory for this run (its control group's limit), less than the 4.0 GiB"},
		{3 << 30, 3 << 30, "3.0 GiB of memory for this run (the machine's memory), less than the 4.0 GiB"},
	} {
		got := memoryNote(c.usable, c.total)
		if (c.want == "") != (got == "") || !strings.HasPrefix(got, c.want) {
			t.Errorf("%d of %d: %q, want %q...", c.usable, c.total, got, c.want)
		}
	}
}
