package main

import (
	"bytes"
	"encoding/json"
	"os/exec"
	"testing"
)

// `portlab noise --json` names the CPUs it measured on, each with its jobs
// and the share of their repetitions beside a busy sibling (the values
// are the host's: only their ranges are checked).
func TestNoiseReportsItsCPUs(t *testing.T) {
	if _, err := exec.LookPath("as"); err != nil {
		t.Skip("GNU as not installed")
	}
	var stdout, stderr bytes.Buffer
	if code := run([]string{"noise", "--duration", "200ms", "--json"}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	var rep noiseReport
	if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil {
		t.Fatalf("%v: %s", err, stdout.String())
	}
	if len(rep.CPUs) == 0 || rep.Quiet == nil || rep.Quiet.Rounds < 2 {
		t.Fatalf("report %s: want the CPUs and at least two rounds", stdout.String())
	}
	jobs := 0
	for _, c := range rep.CPUs {
		if c.Jobs <= 0 || c.Busy < 0 || c.Busy > 1 {
			t.Errorf("CPU %+v: want jobs and a share", c)
		}
		jobs += c.Jobs
	}
	if rep.CPUs[0].CPU != rep.CPU {
		t.Errorf("started on CPU %d, the first CPU listed is %d", rep.CPU, rep.CPUs[0].CPU)
	}
	if jobs == 0 {
		t.Error("no jobs counted")
	}
	if code := run([]string{"noise", "--duration", "0s"}, &stdout, &stderr); code != 2 {
		t.Errorf("--duration 0s: exit %d, want 2", code)
	}
}
