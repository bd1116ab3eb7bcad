package results

import (
	"fmt"
	"strings"
)

// HostInfo describes the machine a result was measured on, so that results
// gathered from a fleet can be grouped by CPU type (Signature) and told
// apart by machine (Node) within one type. A sweep writes it on every
// result; llvm-exegesis's results and older portlab files have none.
type HostInfo struct {
	// Node names the machine: the scheduler's node name when the sweep ran
	// under Slurm or Kubernetes, else the host name.
	Node string `yaml:"node,omitempty"`
	// Vendor, Family, Model and Stepping are CPUID's (display family and
	// model, as hostcpu decodes them).
	Vendor   string `yaml:"vendor"`
	Family   int    `yaml:"family"`
	Model    int    `yaml:"model"`
	Stepping int    `yaml:"stepping"`
	// Brand is CPUID's brand string, Microarch the LLVM -mcpu name portlab
	// decided on.
	Brand     string `yaml:"brand,omitempty"`
	Microarch string `yaml:"microarch,omitempty"`
	// Microcode is the revision /proc/cpuinfo reports ("" when unreadable,
	// as in many guests).
	Microcode string `yaml:"microcode,omitempty"`
	// Kernel is the kernel release (uname -r), ClockSource the kernel's
	// clocksource ("tsc", "kvm-clock", ...), Hypervisor the hypervisor's
	// CPUID vendor ("" on bare metal).
	Kernel      string `yaml:"kernel,omitempty"`
	ClockSource string `yaml:"clock_source,omitempty"`
	Hypervisor  string `yaml:"hypervisor,omitempty"`
}

// Signature is the CPU type, "vendor-family-model-stepping" in lower-case
// hex as hostcpu.Info.Signature spells it ("GenuineIntel-6-a7-1"): the key
// results are grouped by, and the value of Extra.Host.
func (h *HostInfo) Signature() string {
	return fmt.Sprintf("%s-%x-%x-%x", h.Vendor, h.Family, h.Model, h.Stepping)
}

// String is the CPU type and the machine, with what else may explain a
// difference between two machines of one type: "GenuineIntel-6-a7-1 on
// node-3 (microcode 0x2b000603, kernel 6.8.0, clocksource tsc)".
func (h *HostInfo) String() string {
	s := h.Signature()
	if h.Node != "" {
		s += " on " + h.Node
	}
	var parts []string
	for _, kv := range [][2]string{{"microcode", h.Microcode}, {"kernel", h.Kernel}, {"clocksource", h.ClockSource}, {"hypervisor", h.Hypervisor}} {
		if kv[1] != "" {
			parts = append(parts, kv[0]+" "+kv[1])
		}
	}
	if len(parts) > 0 {
		s += " (" + strings.Join(parts, ", ") + ")"
	}
	return s
}

// CPUType returns the CPU type a result was measured on: Extra.Host, else
// the signature of its HostInfo, else "" (llvm-exegesis's results).
func (b *Benchmark) CPUType() string {
	if b.Portlab == nil {
		return ""
	}
	if b.Portlab.Host != "" {
		return b.Portlab.Host
	}
	if b.Portlab.HostInfo != nil {
		return b.Portlab.HostInfo.Signature()
	}
	return ""
}

// Node returns the machine a result was measured on (HostInfo.Node), or ""
// when the result does not say.
func (b *Benchmark) Node() string {
	if b.Portlab == nil || b.Portlab.HostInfo == nil {
		return ""
	}
	return b.Portlab.HostInfo.Node
}
