package main

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"portlab/hostcpu"
)

func TestCPUJSON(t *testing.T) {
	info, err := hostcpu.Detect()
	if err != nil {
		t.Skip(err)
	}
	var out, errOut bytes.Buffer
	if code := run([]string{"cpu", "--json"}, &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	var got struct {
		Vendor          string   `json:"vendor"`
		Family          int      `json:"family"`
		Model           int      `json:"model"`
		Stepping        int      `json:"stepping"`
		Microarch       string   `json:"microarch"`
		MicroarchSource string   `json:"microarch_source"`
		Hypervisor      bool     `json:"hypervisor"`
		Features        []string `json:"features"`
		TSCHz           int64    `json:"tsc_hz"`
		TSCSource       string   `json:"tsc_source"`
		Signature       string   `json:"signature"`
		CycleCounter    struct {
			Available bool   `json:"available"`
			Errno     string `json:"errno"`
			Message   string `json:"message"`
		} `json:"cycle_counter"`
		CycleSource string `json:"cycle_source"`
	}
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	if got.Vendor != info.Vendor || got.Family != info.Family || got.Model != info.Model || got.Stepping != info.Stepping {
		t.Errorf("identity %s %d %d %d, Detect says %s %d %d %d", got.Vendor, got.Family, got.Model, got.Stepping,
			info.Vendor, info.Family, info.Model, info.Stepping)
	}
	if got.Microarch != info.Microarch || got.MicroarchSource != info.MicroarchSource || got.Signature != info.Signature() {
		t.Errorf("microarch %q (%s) signature %q", got.Microarch, got.MicroarchSource, got.Signature)
	}
	if !reflect.DeepEqual(got.Features, info.Features) {
		t.Errorf("features %q, Detect says %q", got.Features, info.Features)
	}
	if got.TSCHz != info.TSCHz || got.TSCSource == "" {
		t.Errorf("tsc %d (%s)", got.TSCHz, got.TSCSource)
	}
	probe := hostcpu.ProbeCycleCounter()
	if got.CycleSource != probe.Source() || got.CycleCounter.Available != probe.Available ||
		got.CycleCounter.Errno != probe.Errno || got.CycleCounter.Message != probe.Message {
		t.Errorf("cycle source %q %+v, probe says %q %+v", got.CycleSource, got.CycleCounter, probe.Source(), probe)
	}
	if !got.CycleCounter.Available && !strings.HasPrefix(got.CycleSource, "calibrated TSC — perf_event_open cycles failed: ") {
		t.Errorf("cycle source = %q", got.CycleSource)
	}
}

func TestCPUText(t *testing.T) {
	info, err := hostcpu.Detect()
	if err != nil {
		t.Skip(err)
	}
	var out, errOut bytes.Buffer
	if code := run([]string{"cpu"}, &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	text := out.String()
	for _, want := range []string{
		"vendor         " + info.Vendor + "\n",
		"signature      " + info.Signature() + "\n",
		"microarch      " + info.Microarch + "\n",
		"  decided by   " + info.MicroarchSource + "\n",
		"cycle source   " + hostcpu.ProbeCycleCounter().Source() + "\n",
		"kernel         " + info.Kernel + "\n",
		"tsc            " + hostcpu.FormatHz(info.TSCHz) + " (" + info.TSCSource + ")\n",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("output lacks %q:\n%s", want, text)
		}
	}
	// Every feature is printed, the block wrapped at 80 columns.
	lines := strings.Split(text, "\n")
	start := -1
	for k, l := range lines {
		if strings.HasPrefix(l, "features (") {
			start = k
			break
		}
	}
	if start < 0 {
		t.Fatalf("no features line:\n%s", text)
	}
	var printed []string
	for k := start; k < len(lines); k++ {
		l := lines[k]
		if k > start && !strings.HasPrefix(l, strings.Repeat(" ", 15)) {
			break
		}
		if len(l) > 80 {
			t.Errorf("features line longer than 80 columns: %q", l)
		}
		if k == start {
			l = l[strings.Index(l, ")")+1:]
		}
		printed = append(printed, strings.Fields(l)...)
	}
	if !reflect.DeepEqual(printed, info.Features) {
		t.Errorf("printed features %q\nwant %q", printed, info.Features)
	}
}

func TestCPUUsage(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := run([]string{"cpu", "extra"}, &out, &errOut); code != 2 {
		t.Errorf("exit %d for an extra argument, want 2", code)
	}
	if !strings.Contains(errOut.String(), `unexpected argument "extra"`) {
		t.Errorf("stderr = %q", errOut.String())
	}
	errOut.Reset()
	if code := run([]string{"cpu", "--bogus"}, &out, &errOut); code != 2 {
		t.Errorf("exit %d for an unknown flag, want 2", code)
	}
}

func TestWriteWrapped(t *testing.T) {
	var b bytes.Buffer
	words := strings.Fields(strings.Repeat("abcdefghij ", 12))
	writeWrapped(&b, "features (12)", words)
	want := "features (12)  abcdefghij abcdefghij abcdefghij abcdefghij abcdefghij abcdefghij\n" +
		"               abcdefghij abcdefghij abcdefghij abcdefghij abcdefghij abcdefghij\n"
	if b.String() != want {
		t.Errorf("writeWrapped =\n%s\nwant\n%s", b.String(), want)
	}
	b.Reset()
	writeWrapped(&b, "a-label-of-16ch", []string{"x"})
	if b.String() != "a-label-of-16ch x\n" {
		t.Errorf("long label: %q", b.String())
	}
}
