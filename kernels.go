// Package portlab holds what the portlab binary carries from the
// repository's data: the validation kernels of testdata/kernels, which
// `portlab characterize` measures and predicts on any host, wherever the
// binary runs.
package portlab

import (
	"embed"
	"io/fs"
	"sort"
)

//go:embed testdata/kernels/*.s
var kernels embed.FS

// Kernels returns the validation kernels' file system and their paths in
// it (testdata/kernels/NAME.s), sorted.
func Kernels() (fs.FS, []string) {
	paths, _ := fs.Glob(kernels, "testdata/kernels/*.s")
	sort.Strings(paths)
	return kernels, paths
}
