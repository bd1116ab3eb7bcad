package jit

import (
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// TestLockCPU: engines of one process share the lock; another process
// waits until the holder lets go, and is told who holds it.
func TestLockCPU(t *testing.T) {
	if os.Getenv("PORTLAB_LOCK_CHILD") != "" {
		waited := ""
		release, err := LockCPU(9999, func(h string) { waited = h })
		if err != nil {
			os.Exit(2)
		}
		release()
		if !strings.Contains(waited, "pid ") {
			os.Exit(3)
		}
		os.Exit(0)
	}
	r1, err := LockCPU(9999, nil)
	if err != nil {
		t.Fatal(err)
	}
	r2, err := LockCPU(9999, func(string) { t.Error("a second engine of the same process waited") })
	if err != nil {
		t.Fatal(err)
	}
	r2()
	child := exec.Command(os.Args[0], "-test.run", "^TestLockCPU$")
	child.Env = append(os.Environ(), "PORTLAB_LOCK_CHILD=1")
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- child.Wait() }()
	select {
	case err := <-exited:
		t.Fatalf("the other process did not wait for the lock: %v", err)
	case <-time.After(300 * time.Millisecond):
	}
	r1() // the last engine of this process lets go
	select {
	case err := <-exited:
		if err != nil {
			t.Fatalf("the other process: %v (exit 3: it was not told who held the lock)", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the other process still waits after the lock was released")
	}
}
