package hostcpu

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// probeEnv names the feature whose instruction the test binary, started
// again as a child, executes (an instruction the CPU refuses kills the
// process with SIGILL).
const probeEnv = "PORTLAB_HOSTCPU_PROBE"

// undefinedProbe is a probe no CPU runs (ud2), known to the test binary
// and its children alone.
const undefinedProbe = "test-ud2"

func TestMain(m *testing.M) {
	instructionProbes[undefinedProbe] = instructionProbe{code: []byte{0x0f, 0x0b}}
	if f := os.Getenv(probeEnv); f != "" {
		rax, err := runInstructionProbe(f)
		if errors.Is(err, errNoExecMemory) {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(noExecMemoryExit)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		fmt.Println(rax)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// noExecMemoryExit is the child's exit status where it could not map
// memory to run the instruction in: the probe cannot tell.
const noExecMemoryExit = 3

// probeInChild runs feature's probe instruction in a child process and
// says why it did not run as the feature says, or nil; errNoExecMemory
// where the host would not let it run code from a page of its own.
func probeInChild(feature string) error {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), probeEnv+"="+feature)
	out, err := cmd.Output()
	if ee, ok := err.(*exec.ExitError); ok && ee.ExitCode() == noExecMemoryExit {
		return fmt.Errorf("probe of %s: %w", feature, errNoExecMemory)
	}
	if err != nil {
		msg := err.Error()
		if ee, ok := err.(*exec.ExitError); ok && len(ee.Stderr) > 0 {
			msg += ": " + strings.TrimSpace(string(ee.Stderr))
		}
		return fmt.Errorf("probe of %s: %s", feature, msg)
	}
	rax, err := strconv.ParseUint(strings.TrimSpace(string(out)), 10, 64)
	if err != nil {
		return fmt.Errorf("probe of %s printed %q", feature, out)
	}
	if p := instructionProbes[feature]; p.checked && rax != p.rax {
		return fmt.Errorf("probe of %s: rax %d after it, want %d (the bytes ran as another instruction)", feature, rax, p.rax)
	}
	return nil
}

// TestInstructionProbes runs every probe of a feature the host has: each
// instruction runs and leaves what the feature says.
func TestInstructionProbes(t *testing.T) {
	if runtime.GOOS != "linux" || runtime.GOARCH != "amd64" {
		t.Skipf("instruction probes run on linux/amd64, not %s/%s", runtime.GOOS, runtime.GOARCH)
	}
	info, err := Detect()
	if err != nil {
		t.Fatal(err)
	}
	ran := 0
	for f := range instructionProbes {
		if f == undefinedProbe || !info.Has(f) {
			continue
		}
		if err := probeInChild(f); errors.Is(err, errNoExecMemory) {
			t.Skipf("%v: this host maps no writable executable page", err)
		} else if err != nil {
			t.Error(err)
		}
		ran++
	}
	if ran == 0 {
		t.Skip("the host has none of the probed features")
	}
	// An instruction the CPU refuses kills the child, and the probe says
	// so; a probe of a feature that does not exist fails in the child.
	if err := probeInChild(undefinedProbe); err == nil || !strings.Contains(err.Error(), "illegal instruction") {
		t.Errorf("probe of ud2: %v, want the child killed by SIGILL", err)
	}
	if err := probeInChild("no-such-feature"); err == nil || !strings.Contains(err.Error(), "no instruction probe") {
		t.Errorf("probe of an unknown feature: %v", err)
	}
}
