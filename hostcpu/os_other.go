//go:build !linux

package hostcpu

import (
	"errors"
	"syscall"
)

var paranoidPath = ""

func readClockSource() string { return "" }

func kernelRelease() string { return "" }

func readMicrocode() string { return "" }

func openCyclesPerfEvent() (func() error, error) {
	return nil, errors.New("perf_event_open needs Linux")
}

func errnoName(errno syscall.Errno) string { return "" }

func machineMemory() uint64 { return 0 }

func readKernelHidden(info *Info) []string { return nil }
