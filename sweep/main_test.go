package sweep

import (
	"os"
	"os/exec"
	"sync"
	"testing"

	"portlab/hostcpu"
	"portlab/jit"
	"portlab/measure"
)

func TestMain(m *testing.M) {
	jit.MaybeRunWorker()
	os.Exit(m.Run())
}

var (
	engOnce sync.Once
	eng     *measure.Engine
	host    *hostcpu.Info
	engErr  error
)

func hostEngine(t testing.TB) (*measure.Engine, *hostcpu.Info) {
	t.Helper()
	if _, err := exec.LookPath("as"); err != nil {
		t.Skip("GNU as not installed")
	}
	engOnce.Do(func() { eng, host, engErr = measure.NewHostEngine(-1) })
	if engErr != nil {
		t.Fatal(engErr)
	}
	return eng, host
}

func options(h *hostcpu.Info) Options {
	return Options{Latency: true, Throughput: true, CPUName: h.Microarch, HostSig: h.Signature(), Has: h.Has}
}
