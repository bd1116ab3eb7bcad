package main

import (
	"os"
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

// The soft memory limit is half the machine's memory, none where
// GOMEMLIMIT is set or the memory size is unknown; on Linux the size is
// read.
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
	if totalMemory() == 0 {
		t.Error("the machine's memory size could not be read")
	}
}
