package measure

import (
	"fmt"
	"os"
	"slices"

	"portlab/hostcpu"
	"portlab/jit"
)

// MoveCPUs is the most CPUs a host engine measures on when not pinned:
// the default CPU and one more. Two CPUs on two cores came within
// 0.6-3.4 points of the quietest choice in hindsight on the traces of
// docs/benchmarks.md ("Moving between CPUs"), and a process that holds
// the locks of more leaves fewer to others measuring beside it.
const MoveCPUs = 2

// NewHostEngine returns an engine for this machine: GNU as from PATH with
// the on-disk cache, the host's features and TSC frequency, and a worker
// pinned to cpu. With cpu < 0 the engine starts on jit.DefaultCPU() and
// also measures on the highest CPU of the process's mask that has the
// same kind of core (jit.SameCoreCPUs), is on another physical core (not
// an SMT sibling) and that no other portlab process measures on, one at a
// time, moving on after a job beside a busy sibling (Engine.SetCPUs).
func NewHostEngine(cpu int) (*Engine, *hostcpu.Info, error) {
	info, err := hostcpu.Detect()
	if err != nil {
		return nil, nil, err
	}
	pinned := cpu >= 0
	if !pinned {
		cpu = jit.DefaultCPU()
	}
	allowed := jit.AllowedCPUs()
	if len(allowed) > 0 && !slices.Contains(allowed, cpu) {
		return nil, nil, fmt.Errorf("--cpu %d: this process may run on CPUs %v only", cpu, allowed)
	}
	asm := jit.NewAssembler()
	if _, err := asm.Version(); err != nil {
		return nil, nil, err
	}
	// One measuring process per CPU: two would time-share it and both
	// measure garbage.
	unlock, err := jit.LockCPU(cpu, func(holder string) {
		fmt.Fprintf(os.Stderr, "portlab: CPU %d is measuring for %s; waiting for it to finish (--cpu picks another CPU)\n", cpu, holder)
	})
	if err != nil {
		return nil, nil, err
	}
	cpus, unlocks := []int{cpu}, []func(){unlock}
	release := func() {
		for _, u := range unlocks {
			u()
		}
	}
	if !pinned {
		same := jit.SameCoreCPUs(cpu, allowed)
		siblings := jit.SMTSiblings(cpu)
		for i := len(same) - 1; i >= 0 && len(cpus) < MoveCPUs; i-- {
			c := same[i]
			if slices.Contains(siblings, c) {
				continue // the same core, the same neighbour
			}
			unlockC, ok, err := jit.TryLockCPU(c)
			if err != nil {
				release()
				return nil, nil, err
			}
			if ok {
				cpus, unlocks = append(cpus, c), append(unlocks, unlockC)
			}
		}
	}
	e := &Engine{Asm: asm, Runner: jit.NewRunner(cpu), Host: Host{Has: info.Has, TSCHz: float64(info.TSCHz), CPU: info.Microarch},
		unlock: release}
	e.SetCPUs(cpus)
	return e, info, nil
}
