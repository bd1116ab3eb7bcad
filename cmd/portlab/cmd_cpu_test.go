package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"portlab/hostcpu"
	"portlab/modeldb"
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
		CycleSource  string `json:"cycle_source"`
		Memory       uint64 `json:"memory"`
		MemoryUsable uint64 `json:"memory_usable"`
		MachineModel struct {
			File string `json:"file"`
			Base string `json:"characterize_base"`
		} `json:"machine_model"`
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
	if want := hostModel(info); got.MachineModel.File != want.File || got.MachineModel.Base != want.Base {
		t.Errorf("machine model %+v, want %s from %s", got.MachineModel, want.File, want.Base)
	}
	if !reflect.DeepEqual(got.Features, info.Features) {
		t.Errorf("features %q, Detect says %q", got.Features, info.Features)
	}
	if got.Memory != info.Memory || got.MemoryUsable != info.MemoryUsable || got.Memory == 0 || got.MemoryUsable > got.Memory {
		t.Errorf("memory %d, usable %d; Detect says %d, %d", got.Memory, got.MemoryUsable, info.Memory, info.MemoryUsable)
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
		"memory         " + describeMemory(info.Memory, info.MemoryUsable) + "\n",
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

// `portlab cpu` says which machine model the host gets and what
// characterize builds from, for each kind of host.
func TestCPUMachineModelLines(t *testing.T) {
	sig := "AuthenticAMD-19-11-1"
	for _, c := range []struct {
		name        string
		m           cpuModel
		model, base string
	}{
		{"measured here", cpuModel{File: "portlab-znver4.yml.gz", Source: "measured", Host: sig, LLVMCPU: "znver4", Base: "portlab-znver4.yml.gz", BaseSource: "measured"},
			"portlab-znver4.yml.gz (embedded; measured on this CPU signature)", "builds from portlab-znver4.yml.gz, refining it (builds from LLVM's and from no base compete)"},
		{"measured on another signature", cpuModel{File: "portlab-znver4.yml.gz", Source: "measured", Host: "AuthenticAMD-19-61-2", LLVMCPU: "znver4", Base: "llvm14-znver3.yml.gz", BaseSource: "imported"},
			"portlab-znver4.yml.gz (embedded; measured on AuthenticAMD-19-61-2, another CPU of this microarchitecture)", "builds from llvm14-znver3.yml.gz (a build from no base competes)"},
		{"a measured stand-in", cpuModel{File: "portlab-emeraldrapids.yml.gz", Source: "measured", Host: "GenuineIntel-6-cf-2", LLVMCPU: "emeraldrapids", StandIn: true, Base: "llvm14-sapphirerapids.yml.gz", BaseSource: "imported"},
			"portlab-emeraldrapids.yml.gz (embedded; a stand-in measured on GenuineIntel-6-cf-2 (emeraldrapids): portlab has no model of raptorlake; portlab characterize builds one)", "builds from llvm14-sapphirerapids.yml.gz (a build from no base competes)"},
		{"an imported stand-in", cpuModel{File: "llvm14-skylake.yml.gz", Source: "imported", LLVMCPU: "skylake", StandIn: true, Base: "llvm14-skylake.yml.gz", BaseSource: "imported"},
			"llvm14-skylake.yml.gz (embedded; a stand-in LLVM's skylake: portlab has no model of raptorlake; portlab characterize builds one)", "builds from llvm14-skylake.yml.gz (a build from no base competes)"},
		{"LLVM's own", cpuModel{File: "llvm14-haswell.yml.gz", Source: "imported", LLVMCPU: "haswell", Base: "llvm14-haswell.yml.gz", BaseSource: "imported"},
			"llvm14-haswell.yml.gz (embedded; LLVM's, imported: portlab characterize measures this host's)", "builds from llvm14-haswell.yml.gz (a build from no base competes)"},
		{"yours", cpuModel{File: "/home/u/.local/share/portlab/models/" + sig + ".yml.gz", Source: "measured", Host: sig, Yours: true, Base: "portlab-znver4.yml.gz", BaseSource: "measured"},
			"/home/u/.local/share/portlab/models/" + sig + ".yml.gz (yours, from portlab characterize)", "builds from portlab-znver4.yml.gz, refining it (builds from LLVM's and from no base compete)"},
		{"yours, unreadable", cpuModel{File: "/m/" + sig + ".yml.gz", Yours: true, Error: "the model of this host: /m/" + sig + ".yml.gz: gzip: invalid header", Base: "portlab-znver4.yml.gz", BaseSource: "measured"},
			"unreadable: the model of this host: /m/" + sig + ".yml.gz: gzip: invalid header", "builds from portlab-znver4.yml.gz, refining it (builds from LLVM's and from no base compete)"},
		{"none", cpuModel{Error: "no embedded model"},
			"none for raptorlake (commands need --model FILE; portlab characterize builds this host's)", "builds from no base (ports opened from the mixes)"},
	} {
		arch := "znver4"
		if strings.Contains(c.model, "raptorlake") {
			arch = "raptorlake"
		}
		model, base := c.m.describe(arch, sig)
		if model != c.model || base != c.base {
			t.Errorf("%s:\n got %q\n     %q\nwant %q\n     %q", c.name, model, base, c.model, c.base)
		}
	}
	// On this host: the lines name what the model functions choose.
	info, err := hostcpu.Detect()
	if err != nil {
		t.Skip(err)
	}
	t.Setenv("PORTLAB_MODEL_DIR", t.TempDir())
	var out, errOut bytes.Buffer
	if code := run([]string{"cpu"}, &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	model, base := hostModel(info).describe(info.Microarch, info.Signature())
	if !strings.Contains(out.String(), "machine model  "+model+"\n  characterize "+base+"\n") {
		t.Errorf("output lacks the machine model lines %q, %q:\n%s", model, base, out.String())
	}
	if mi, _, _, err := modeldb.HostModelInfo(info.Signature(), info.Microarch); err == nil && !strings.Contains(model, mi.File) {
		t.Errorf("model line %q does not name %s", model, mi.File)
	}
	// A broken model of the user's for this host is named, with what is
	// wrong, and the command still succeeds.
	dir := t.TempDir()
	t.Setenv("PORTLAB_MODEL_DIR", dir)
	bad := filepath.Join(dir, info.Signature()+".yml.gz")
	if err := os.WriteFile(bad, []byte("not gzip"), 0o644); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	if code := run([]string{"cpu"}, &out, &errOut); code != 0 {
		t.Fatalf("exit %d with a broken user model: %s", code, errOut.String())
	}
	if !strings.Contains(out.String(), "machine model  unreadable: ") || !strings.Contains(out.String(), bad) {
		t.Errorf("a broken user model is not named:\n%s", out.String())
	}
}

// The memory line gives the machine's memory, and the control group's
// limit where that is smaller.
func TestDescribeMemory(t *testing.T) {
	for _, c := range []struct {
		total, usable uint64
		want          string
	}{
		{24 << 30, 24 << 30, "24.0 GiB"},
		{24 << 30, 4 << 30, "24.0 GiB (4.0 GiB for portlab: its control group's limit)"},
		{24 << 30, 512 << 20, "24.0 GiB (512 MiB for portlab: its control group's limit)"},
		{0, 0, "unknown"},
	} {
		if got := describeMemory(c.total, c.usable); got != c.want {
			t.Errorf("%d, %d: %q, want %q", c.total, c.usable, got, c.want)
		}
	}
}
