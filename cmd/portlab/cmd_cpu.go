package main

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"

	"portlab/hostcpu"
	"portlab/modeldb"
)

func init() {
	register(&command{name: "cpu", summary: "identify the host CPU: microarchitecture, features, TSC, caches, cycle source", run: runCPU})
}

// cpuReport is `portlab cpu --json`: the host identity plus the cycle
// counter probe.
type cpuReport struct {
	*hostcpu.Info
	Signature    string             `json:"signature"`
	CycleCounter hostcpu.CycleProbe `json:"cycle_counter"`
	CycleSource  string             `json:"cycle_source"` // the clock measurements will use
	Model        cpuModel           `json:"machine_model"`
}

// cpuModel is the machine model commands use on this host and what
// `portlab characterize` would build from.
type cpuModel struct {
	// File is the user model's path or the embedded model's file name;
	// "" where there is none (Error says why). A user's model that cannot
	// be read keeps its path, and Error says what is wrong with it.
	File   string `json:"file,omitempty"`
	Name   string `json:"name,omitempty"`
	Source string `json:"source,omitempty"` // measured, imported
	// Host is the CPU signature a measured model was measured on.
	Host  string `json:"host,omitempty"`
	Yours bool   `json:"yours,omitempty"` // from the user's model directory
	// StandIn marks another CPU's model, used for want of this one's.
	StandIn bool   `json:"stand_in,omitempty"`
	LLVMCPU string `json:"llvm_cpu,omitempty"`
	Error   string `json:"error,omitempty"`
	// Base is the embedded model characterize starts from ("" for none);
	// BaseSource its provenance source.
	Base       string `json:"characterize_base,omitempty"`
	BaseSource string `json:"characterize_base_source,omitempty"`
}

// hostModel says which model the host gets (modeldb.HostModelInfo) and
// which base characterize takes (modeldb.BaseInfo), from the models'
// headers alone.
func hostModel(info *hostcpu.Info) cpuModel {
	var c cpuModel
	sig := info.Signature()
	mi, where, exact, err := modeldb.HostModelInfo(sig, info.Microarch)
	if err != nil {
		c.Error = err.Error()
		if where != "" && where != "embedded" {
			c.File, c.Yours = where, true // the user's model, unreadable
		}
	} else {
		c.File, c.Name, c.Source, c.Host, c.LLVMCPU = mi.File, mi.Name, mi.Source, mi.Host, mi.LLVMCPU
		c.Yours, c.StandIn = where != "embedded", !exact
	}
	if b, ok, err := modeldb.BaseInfo(info.Microarch, sig); err == nil && ok {
		c.Base, c.BaseSource = b.File, b.Source
	}
	return c
}

// describe is the model line and the characterize line of `portlab cpu`.
func (c cpuModel) describe(microarch, signature string) (model, base string) {
	switch {
	case c.File == "":
		model = fmt.Sprintf("none for %s (commands need --model FILE; portlab characterize builds this host's)", microarch)
	case c.Error != "":
		model = "unreadable: " + c.Error
	case c.Yours:
		model = c.File + " (yours, from portlab characterize)"
	case c.StandIn:
		of := "LLVM's " + c.LLVMCPU
		if c.Source == modeldb.SourceMeasured {
			of = "measured on " + c.Host + " (" + c.LLVMCPU + ")"
		}
		model = fmt.Sprintf("%s (embedded; a stand-in %s: portlab has no model of %s; portlab characterize builds one)", c.File, of, microarch)
	case c.Source == modeldb.SourceMeasured && c.Host == signature:
		model = c.File + " (embedded; measured on this CPU signature)"
	case c.Source == modeldb.SourceMeasured:
		model = fmt.Sprintf("%s (embedded; measured on %s, another CPU of this microarchitecture)", c.File, c.Host)
	default:
		model = c.File + " (embedded; LLVM's, imported: portlab characterize measures this host's)"
	}
	switch {
	case c.Base == "":
		base = "builds from no base (ports opened from the mixes)"
	case c.BaseSource == modeldb.SourceMeasured:
		base = "builds from " + c.Base + ", refining it (builds from LLVM's and from no base compete)"
	default:
		base = "builds from " + c.Base + " (a build from no base competes)"
	}
	return model, base
}

func runCPU(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("cpu", stderr)
	asJSON := fs.Bool("json", false, "print JSON instead of text")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: portlab cpu [--json]")
		fs.PrintDefaults()
	}
	if err := parseNoArgs(fs, args); err != nil {
		return err
	}
	info, err := hostcpu.Detect()
	if err != nil {
		return err
	}
	probe := hostcpu.ProbeCycleCounter()
	rep := cpuReport{Info: info, Signature: info.Signature(), CycleCounter: probe, CycleSource: probe.Source(), Model: hostModel(info)}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(rep)
	}
	writeCPUText(stdout, rep)
	return nil
}

// cpuLabelWidth is the width of the label column of the text report.
const cpuLabelWidth = 15

// writeCPUText prints the report for people.
func writeCPUText(w io.Writer, r cpuReport) {
	i := r.Info
	line := func(label, format string, args ...any) {
		fmt.Fprintf(w, "%-*s%s\n", cpuLabelWidth, label, fmt.Sprintf(format, args...))
	}
	orUnknown := func(s string) string {
		if s == "" {
			return "unknown"
		}
		return s
	}
	line("vendor", "%s", orUnknown(i.Vendor))
	line("brand", "%s", orUnknown(i.Brand))
	line("family", "%d (0x%x)", i.Family, i.Family)
	line("model", "%d (0x%x)", i.Model, i.Model)
	line("stepping", "%d (0x%x)", i.Stepping, i.Stepping)
	line("signature", "%s", r.Signature)
	line("microarch", "%s", i.Microarch)
	line("  decided by", "%s", i.MicroarchSource)
	model, base := r.Model.describe(i.Microarch, r.Signature)
	line("machine model", "%s", model)
	line("  characterize", "%s", base)
	if i.Hypervisor {
		if i.HypervisorVendor != "" && i.HypervisorName() != i.HypervisorVendor {
			line("hypervisor", "%s (%s)", i.HypervisorName(), i.HypervisorVendor)
		} else {
			line("hypervisor", "%s", i.HypervisorName())
		}
	} else {
		line("hypervisor", "none")
	}
	if i.TSCHz > 0 {
		line("tsc", "%s (%s)", hostcpu.FormatHz(i.TSCHz), i.TSCSource)
	} else {
		line("tsc", "unknown")
	}
	line("invariant tsc", "%s", yesNo(i.InvariantTSC))
	line("clock source", "%s", orUnknown(i.ClockSource))
	var caches []string
	for _, c := range i.Caches {
		s := c.String()
		if c.SharedBy > 1 {
			s += fmt.Sprintf(" (shared by %d)", c.SharedBy)
		}
		caches = append(caches, s)
	}
	if len(caches) == 0 {
		line("caches", "unknown")
	} else {
		line("caches", "%s", strings.Join(caches, ", "))
	}
	line("cpus", "%d", i.CPUs)
	line("memory", "%s", describeMemory(i.Memory, i.MemoryUsable))
	line("kernel", "%s", orUnknown(i.Kernel))
	line("microcode", "%s", orUnknown(i.Microcode))
	line("cycle source", "%s", r.CycleSource)
	line("", "%s", r.CycleCounter.Message)
	writeWrapped(w, fmt.Sprintf("features (%d)", len(i.Features)), i.Features)
	if i.AVX10Version > 0 {
		line("avx10 version", "%d", i.AVX10Version)
	}
	if len(i.OSDisabled) > 0 {
		writeWrapped(w, "os-disabled", i.OSDisabled)
	}
	if len(i.KernelHidden) > 0 {
		// CPUID reports them and portlab measures their forms.
		writeWrapped(w, "kernel hides", append(slices.Clone(i.KernelHidden), strings.Fields("(from /proc/cpuinfo; CPUID reports them)")...))
	}
}

// writeWrapped prints words after label, wrapped at 80 columns with the
// continuation lines indented to the value column.
func writeWrapped(w io.Writer, label string, words []string) {
	const width = 80
	var sb strings.Builder
	col := 0
	start := func(l string) {
		fmt.Fprintf(&sb, "%-*s", cpuLabelWidth, l)
		col = cpuLabelWidth
		if len(l) >= cpuLabelWidth {
			sb.WriteByte(' ')
			col = len(l) + 1
		}
	}
	start(label)
	first := true
	for _, word := range words {
		if !first && col+1+len(word) > width {
			sb.WriteByte('\n')
			start("")
			first = true
		}
		if !first {
			sb.WriteByte(' ')
			col++
		}
		sb.WriteString(word)
		col += len(word)
		first = false
	}
	sb.WriteByte('\n')
	io.WriteString(w, sb.String())
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// describeMemory says how much memory the machine has and, where its
// control group allows this process less, how much that is.
func describeMemory(total, usable uint64) string {
	switch {
	case total == 0:
		return "unknown"
	case usable > 0 && usable < total:
		return fmt.Sprintf("%s (%s for portlab: its control group's limit)", formatBytes(total), formatBytes(usable))
	}
	return formatBytes(total)
}

// formatBytes prints a memory size in GiB, or MiB below one GiB.
func formatBytes(b uint64) string {
	if b < 1<<30 {
		return fmt.Sprintf("%.0f MiB", float64(b)/(1<<20))
	}
	return fmt.Sprintf("%.1f GiB", float64(b)/(1<<30))
}
