//go:build !amd64

package hostcpu

import "time"

// haveCPUID reports whether this build can execute CPUID.
const haveCPUID = false

func cpuid(leaf, subleaf uint32) (eax, ebx, ecx, edx uint32) { return 0, 0, 0, 0 }

func xgetbv0() (eax, edx uint32) { return 0, 0 }

func measureTSC(d time.Duration) int64 { return 0 }
