package main

import "portlab/jit"

// The measuring worker is this binary re-executing itself; it must become the
// worker before anything else runs.
func init() { jit.MaybeRunWorker() }
