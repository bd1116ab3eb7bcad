//go:build amd64

package hostcpu

import "time"

// haveCPUID reports whether this build can execute CPUID.
const haveCPUID = true

// cpuid executes CPUID with EAX=leaf and ECX=subleaf.
func cpuid(leaf, subleaf uint32) (eax, ebx, ecx, edx uint32)

// xgetbv0 reads XCR0 (the OS-enabled XSAVE state components). It faults
// unless CPUID.1:ECX.OSXSAVE is set; callers must check that first.
func xgetbv0() (eax, edx uint32)

// rdtsc reads the time-stamp counter after an LFENCE.
func rdtsc() uint64

// measureTSC measures the TSC frequency against the monotonic clock over
// about d, bracketing each clock read between two TSC reads so a
// preemption between them cannot skew the result. It returns Hz rounded to
// the nearest kHz.
func measureTSC(d time.Duration) int64 {
	// A sample brackets the clock read with two TSC reads; a guest can be
	// descheduled inside the bracket (on a busy 2-vCPU KVM guest once,
	// 50 us: a 5 ms measurement 0.95 % off), so each sample is the
	// tightest bracket of several tries.
	sample := func() (uint64, time.Time) {
		var best uint64
		var mid uint64
		var at time.Time
		for try := 0; try < 16; try++ {
			a := rdtsc()
			t := time.Now()
			b := rdtsc()
			if try == 0 || b-a < best {
				best, mid, at = b-a, a+(b-a)/2, t
			}
		}
		return mid, at
	}
	c0, t0 := sample()
	time.Sleep(d)
	c1, t1 := sample()
	ns := t1.Sub(t0).Nanoseconds()
	if ns <= 0 || c1 <= c0 {
		return 0
	}
	hz := float64(c1-c0) * 1e9 / float64(ns)
	return int64(hz/1000+0.5) * 1000
}
