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
