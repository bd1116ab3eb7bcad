// Package spin keeps a CPU busy with the kind of work a neighbour on a
// shared host does: integer arithmetic, scalar floating point, loads and
// stores over an L1-sized buffer. portlab's noise check and its tests run
// it beside the measuring CPU to see what a busy neighbour does to the
// numbers (nothing, when that CPU is not the measuring CPU's SMT sibling;
// throughput-bound code slows when it is).
package spin

import (
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"

	"golang.org/x/sys/unix"
)

// Spinner is a goroutine locked to its thread, pinned to one CPU, busy
// until Stop.
type Spinner struct {
	CPU  int
	stop atomic.Bool
	done sync.WaitGroup
	// Rounds counts the spinner's work loops (each a few thousand
	// instructions), so a caller can tell that it ran.
	Rounds atomic.Uint64
}

// Start pins a busy goroutine to cpu.
func Start(cpu int) (*Spinner, error) {
	if cpu < 0 || cpu >= runtime.NumCPU() {
		return nil, fmt.Errorf("spinner: CPU %d does not exist (this machine has %d)", cpu, runtime.NumCPU())
	}
	s := &Spinner{CPU: cpu}
	ready := make(chan error, 1)
	s.done.Add(1)
	go func() {
		defer s.done.Done()
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		var set unix.CPUSet
		set.Set(cpu)
		if err := unix.SchedSetaffinity(0, &set); err != nil {
			ready <- fmt.Errorf("spinner: pinning to CPU %d: %v", cpu, err)
			return
		}
		ready <- nil
		s.spin()
	}()
	if err := <-ready; err != nil {
		s.done.Wait()
		return nil, err
	}
	return s, nil
}

// Stop ends the spinner and waits for it.
func (s *Spinner) Stop() {
	s.stop.Store(true)
	s.done.Wait()
}

// sink keeps the compiler from dropping the work.
var sink atomic.Uint64

func (s *Spinner) spin() {
	buf := make([]uint64, 2048) // 16 KiB: stays in L1
	a, b, c := uint64(1), uint64(3), uint64(7)
	x, y := 1.0, 1.0000001
	for !s.stop.Load() {
		for i := range buf {
			a += buf[i] ^ b
			b += a >> 3
			c ^= a + b
			buf[(i*7)&(len(buf)-1)] = c
			x = x*y + 1e-9
		}
		s.Rounds.Add(1)
	}
	sink.Add(a + b + c + uint64(x))
}

// Other returns a CPU other than cpu that this process may run on, or -1.
func Other(cpu int) int {
	var set unix.CPUSet
	if err := unix.SchedGetaffinity(0, &set); err != nil {
		return -1
	}
	for c := range runtime.NumCPU() {
		if c != cpu && set.IsSet(c) {
			return c
		}
	}
	return -1
}
