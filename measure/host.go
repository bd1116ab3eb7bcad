package measure

import (
	"fmt"
	"os"

	"portlab/hostcpu"
	"portlab/jit"
)

// NewHostEngine returns an engine for this machine: GNU as from PATH with
// the on-disk cache, a worker pinned to cpu (jit.DefaultCPU() when cpu < 0),
// and the host's features and TSC frequency.
func NewHostEngine(cpu int) (*Engine, *hostcpu.Info, error) {
	info, err := hostcpu.Detect()
	if err != nil {
		return nil, nil, err
	}
	if cpu < 0 {
		cpu = jit.DefaultCPU()
	}
	if allowed := jit.AllowedCPUs(); len(allowed) > 0 {
		ok := false
		for _, c := range allowed {
			ok = ok || c == cpu
		}
		if !ok {
			return nil, nil, fmt.Errorf("--cpu %d: this process may run on CPUs %v only", cpu, allowed)
		}
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
	r := jit.NewRunner(cpu)
	return &Engine{Asm: asm, Runner: r, Host: Host{Has: info.Has, TSCHz: float64(info.TSCHz), CPU: info.Microarch},
		unlock: unlock}, info, nil
}
