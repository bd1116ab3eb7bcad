package jit

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"golang.org/x/sys/unix"
)

// Two measuring processes pinned to one CPU time-share it, and both measure
// garbage without noticing (each sees the other as a slow clock). LockCPU
// makes measuring a CPU exclusive across processes: an flock on a file
// per CPU in the temporary directory, which the kernel drops when the
// holder exits, however it exits.

var cpuLocks struct {
	mu   sync.Mutex
	held map[int]*cpuLock // by CPU: this process's locks, shared by its engines
}

type cpuLock struct {
	f    *os.File
	refs int
}

// CPULockPath is the lock file of a CPU.
func CPULockPath(cpu int) string {
	return filepath.Join(os.TempDir(), fmt.Sprintf("portlab-cpu%d.lock", cpu))
}

// LockCPU takes the measuring lock of cpu, waiting while another process
// holds it; waiting, if non-nil, is told who holds it before the wait. The
// returned release gives it back (this process's engines share one lock).
func LockCPU(cpu int, waiting func(holder string)) (release func(), err error) {
	release, _, err = lockCPU(cpu, true, waiting)
	return release, err
}

// TryLockCPU takes the measuring lock of cpu if no other process holds
// it; ok is false (and release nil) when one does.
func TryLockCPU(cpu int) (release func(), ok bool, err error) {
	return lockCPU(cpu, false, nil)
}

func lockCPU(cpu int, wait bool, waiting func(holder string)) (release func(), ok bool, err error) {
	cpuLocks.mu.Lock()
	defer cpuLocks.mu.Unlock()
	if cpuLocks.held == nil {
		cpuLocks.held = map[int]*cpuLock{}
	}
	if l, ok := cpuLocks.held[cpu]; ok {
		l.refs++
		return releaser(cpu), true, nil
	}
	path := CPULockPath(cpu)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o666)
	if err != nil {
		return nil, false, fmt.Errorf("the measuring lock of CPU %d: %v", cpu, err)
	}
	if err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB); err != nil {
		if err != unix.EWOULDBLOCK {
			f.Close()
			return nil, false, fmt.Errorf("the measuring lock of CPU %d (%s): %v", cpu, path, err)
		}
		if !wait {
			f.Close()
			return nil, false, nil
		}
		if waiting != nil {
			waiting(lockHolder(path))
		}
		if err := unix.Flock(int(f.Fd()), unix.LOCK_EX); err != nil {
			f.Close()
			return nil, false, fmt.Errorf("the measuring lock of CPU %d (%s): %v", cpu, path, err)
		}
	}
	// Say who holds it, for the next one to wait.
	if err := f.Truncate(0); err == nil {
		_, _ = f.WriteAt([]byte(fmt.Sprintf("%d %s\n", os.Getpid(), strings.Join(os.Args, " "))), 0)
	}
	cpuLocks.held[cpu] = &cpuLock{f: f, refs: 1}
	return releaser(cpu), true, nil
}

func releaser(cpu int) func() {
	var once sync.Once
	return func() {
		once.Do(func() {
			cpuLocks.mu.Lock()
			defer cpuLocks.mu.Unlock()
			l := cpuLocks.held[cpu]
			if l == nil {
				return
			}
			if l.refs--; l.refs == 0 {
				l.f.Close() // drops the flock
				delete(cpuLocks.held, cpu)
			}
		})
	}
}

// lockHolder reads who holds a lock file ("pid 123: portlab bench --all").
func lockHolder(path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return "another process"
	}
	pid, cmd, _ := strings.Cut(strings.TrimSpace(string(b)), " ")
	if _, err := strconv.Atoi(pid); err != nil {
		return "another process"
	}
	return fmt.Sprintf("pid %s: %s", pid, cmd)
}
