//go:build !(amd64 && linux)

package hostcpu

import (
	"fmt"
	"runtime"
)

func runInstructionProbe(feature string) (uint64, error) {
	return 0, fmt.Errorf("instruction probes run on linux/amd64, not %s/%s", runtime.GOOS, runtime.GOARCH)
}
