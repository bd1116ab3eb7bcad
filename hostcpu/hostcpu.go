package hostcpu

import (
	"encoding/binary"
	"fmt"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"
)

// Info identifies the host CPU. Detect fills it once per process; treat it
// as read-only.
type Info struct {
	Vendor   string `json:"vendor"` // "GenuineIntel", "AuthenticAMD", ...
	Brand    string `json:"brand"`  // CPUID 0x80000002-4, trimmed
	Family   int    `json:"family"` // display family (base + extended when base is 0xf)
	Model    int    `json:"model"`  // display model (extended model added for families 6 and 0xf+)
	Stepping int    `json:"stepping"`

	Microarch       string `json:"microarch"`        // LLVM -mcpu name, "generic" when unknown
	MicroarchSource string `json:"microarch_source"` // how Microarch was decided

	Hypervisor       bool   `json:"hypervisor"`                  // CPUID.1:ECX[31]
	HypervisorVendor string `json:"hypervisor_vendor,omitempty"` // CPUID 0x40000000 signature, e.g. "KVMKVMKVM"

	// Features are the usable CPUID features, sorted, spelled as
	// isa.Features spells them (see the package comment). OSDisabled are
	// features CPUID reports whose register state the OS has not enabled
	// in XCR0; they are not in Features.
	Features   []string `json:"features"`
	OSDisabled []string `json:"os_disabled,omitempty"`
	// KernelHidden are features in Features whose /proc/cpuinfo flag the
	// kernel leaves out: a paravirtualised guest's kernel can read a CPUID
	// the hypervisor masks while user code runs CPUID on the host's CPU
	// (a Zen 5 guest: fsgsbase, lzcnt, sse4a, whose instructions run).
	KernelHidden []string `json:"kernel_hidden,omitempty"`
	XCR0         uint64   `json:"xcr0"`                    // 0 when OSXSAVE is off
	AVX10Version int      `json:"avx10_version,omitempty"` // CPUID 0x24 EBX[7:0] when avx10 is present

	TSCHz        int64  `json:"tsc_hz"`        // time-stamp counter frequency, 0 when unknown
	TSCSource    string `json:"tsc_source"`    // where TSCHz came from
	InvariantTSC bool   `json:"invariant_tsc"` // CPUID 0x80000007:EDX[8]
	ClockSource  string `json:"clock_source"`  // the kernel's current clocksource ("tsc", "kvm-clock", ...)

	Caches    []Cache `json:"caches"`
	CPUs      int     `json:"cpus"`      // logical CPUs this process may run on
	Kernel    string  `json:"kernel"`    // uname release
	Microcode string  `json:"microcode"` // /proc/cpuinfo "microcode", "" when unreadable

	Memory       uint64 `json:"memory"`        // the machine's memory in bytes, 0 when unknown
	MemoryUsable uint64 `json:"memory_usable"` // what this process may use: Memory, or its control group's smaller limit

	MaxLeaf    uint32 `json:"max_leaf"`     // highest basic CPUID leaf
	MaxExtLeaf uint32 `json:"max_ext_leaf"` // highest extended CPUID leaf
}

// Cache describes one cache level as CPUID leaf 4 (Intel) or 0x8000001D
// (AMD) reports it, per core or per the logical CPUs sharing it.
type Cache struct {
	Level    int    `json:"level"`
	Type     string `json:"type"` // "data", "instruction" or "unified"
	Size     int64  `json:"size"` // bytes
	Ways     int    `json:"ways"`
	LineSize int    `json:"line_size"`
	SharedBy int    `json:"shared_by,omitempty"` // logical CPUs sharing it (CPUID's maximum, not the count present)
}

// Name is the cache's short name: L1d, L1i, L2, L3.
func (c Cache) Name() string {
	switch c.Type {
	case "data":
		return fmt.Sprintf("L%dd", c.Level)
	case "instruction":
		return fmt.Sprintf("L%di", c.Level)
	}
	return fmt.Sprintf("L%d", c.Level)
}

// String formats the cache as "L1d 48 KiB 12-way", or "L3 508 MiB" where
// CPUID gives no associativity (AMD's legacy leaf 0x80000006 refers to
// leaf 0x8000001D for it, which a hypervisor may not pass through).
func (c Cache) String() string {
	if c.Ways <= 0 {
		return fmt.Sprintf("%s %s", c.Name(), FormatBytes(c.Size))
	}
	return fmt.Sprintf("%s %s %d-way", c.Name(), FormatBytes(c.Size), c.Ways)
}

// FormatBytes prints a size in the largest binary unit that divides it
// evenly (or with one decimal when none does): "48 KiB", "2 MiB".
func FormatBytes(n int64) string {
	units := []string{"B", "KiB", "MiB", "GiB", "TiB"}
	v, u := float64(n), 0
	for v >= 1024 && u < len(units)-1 {
		v /= 1024
		u++
	}
	if v == float64(int64(v)) {
		return fmt.Sprintf("%d %s", int64(v), units[u])
	}
	return fmt.Sprintf("%.1f %s", v, units[u])
}

// Has reports whether the host has usable feature f (isa.Features spelling).
func (i *Info) Has(f string) bool {
	k := sort.SearchStrings(i.Features, f)
	return k < len(i.Features) && i.Features[k] == f
}

// Signature is "vendor-family-model-stepping" in lower-case hex, e.g.
// "GenuineIntel-6-a7-1". Results are grouped by it.
func (i *Info) Signature() string {
	return fmt.Sprintf("%s-%x-%x-%x", i.Vendor, i.Family, i.Model, i.Stepping)
}

// CacheSize returns the size in bytes of the first cache at level with
// type typ ("data", "instruction", "unified"; "" matches data or unified),
// or 0.
func (i *Info) CacheSize(level int, typ string) int64 {
	for _, c := range i.Caches {
		if c.Level != level {
			continue
		}
		if c.Type == typ || (typ == "" && c.Type != "instruction") {
			return c.Size
		}
	}
	return 0
}

// HypervisorName is a friendly name for HypervisorVendor ("KVM",
// "Hyper-V", ...), the raw signature when unknown, "" without hypervisor.
func (i *Info) HypervisorName() string {
	switch i.HypervisorVendor {
	case "KVMKVMKVM":
		return "KVM"
	case "Microsoft Hv":
		return "Hyper-V"
	case "VMwareVMware":
		return "VMware"
	case "XenVMMXenVMM":
		return "Xen"
	case "TCGTCGTCGTCG":
		return "QEMU TCG"
	case "bhyve bhyve":
		return "bhyve"
	case "ACRNACRNACRN":
		return "ACRN"
	case "VBoxVBoxVBox":
		return "VirtualBox"
	case "":
		if i.Hypervisor {
			return "unknown"
		}
		return ""
	}
	return i.HypervisorVendor
}

var (
	detectOnce sync.Once
	detected   *Info
	detectErr  error
)

// Detect identifies the host CPU. The first call executes CPUID, reads a
// few files and, when no CPUID leaf gives the TSC frequency, measures it
// against CLOCK_MONOTONIC for about 20 ms; later calls return the same
// *Info at once. It fails only on hosts without CPUID (non-amd64 builds).
func Detect() (*Info, error) {
	detectOnce.Do(func() {
		detected, detectErr = detect()
	})
	return detected, detectErr
}

// tscMeasureWindow is how long measureTSC spends when CPUID is silent.
const tscMeasureWindow = 20 * time.Millisecond

func detect() (*Info, error) {
	if !haveCPUID {
		return nil, fmt.Errorf("hostcpu: cannot identify the CPU: CPUID needs GOARCH=amd64, this build is GOARCH=%s", runtime.GOARCH)
	}
	info := decode(cpuid, xgetbv0)
	if info.TSCHz == 0 {
		if hz := measureTSC(tscMeasureWindow); hz > 0 {
			info.TSCHz = hz
			info.TSCSource = fmt.Sprintf("measured against CLOCK_MONOTONIC over %v", tscMeasureWindow)
		} else {
			info.TSCSource = "unknown"
		}
	}
	info.CPUs = runtime.NumCPU()
	info.ClockSource = readClockSource()
	info.Kernel = kernelRelease()
	info.Microcode = readMicrocode()
	info.KernelHidden = readKernelHidden(info)
	info.MemoryUsable, info.Memory = UsableMemory()
	return info, nil
}

// decode fills everything CPUID tells, using q for CPUID and xgetbv for
// XCR0 (called only when OSXSAVE is set).
func decode(q cpuidSource, xgetbv func() (uint32, uint32)) *Info {
	info := &Info{}
	maxBasic, b, c, d := q(0, 0)
	info.MaxLeaf = maxBasic
	info.Vendor = regString(b, d, c)
	info.MaxExtLeaf, _, _, _ = q(0x80000000, 0)
	if info.MaxExtLeaf < 0x80000000 {
		info.MaxExtLeaf = 0
	}
	var ecx1 uint32
	if maxBasic >= 1 {
		var eax1 uint32
		eax1, _, ecx1, _ = q(1, 0)
		info.Family, info.Model, info.Stepping = familyModel(eax1)
	}
	info.Hypervisor = ecx1>>31&1 == 1
	osxsave := ecx1>>27&1 == 1
	if osxsave {
		lo, hi := xgetbv()
		info.XCR0 = uint64(hi)<<32 | uint64(lo)
	}
	if info.MaxExtLeaf >= 0x80000004 {
		var sb strings.Builder
		for l := uint32(0x80000002); l <= 0x80000004; l++ {
			a, b, c, d := q(l, 0)
			sb.WriteString(regString(a, b, c, d))
		}
		info.Brand = strings.Join(strings.Fields(sb.String()), " ")
	}
	var hypMax uint32
	if info.Hypervisor {
		var b, c, d uint32
		hypMax, b, c, d = q(0x40000000, 0)
		info.HypervisorVendor = regString(b, c, d)
	}

	feats := decodeFeatures(q, maxBasic, info.MaxExtLeaf, osxsave, info.XCR0)
	info.Features = feats.usable
	sort.Strings(info.Features)
	info.OSDisabled = feats.osDisabled
	sort.Strings(info.OSDisabled)
	if info.Has("avx10") && maxBasic >= 0x24 {
		_, b, _, _ := q(0x24, 0)
		info.AVX10Version = int(b & 0xff)
	}

	info.Microarch, info.MicroarchSource = Uarch(info.Vendor, info.Family, info.Model, info.Has, info.Hypervisor)
	info.TSCHz, info.TSCSource = tscFromCPUID(q, info.Vendor, maxBasic, hypMax)
	if info.MaxExtLeaf >= 0x80000007 {
		_, _, _, d := q(0x80000007, 0)
		info.InvariantTSC = d>>8&1 == 1
	}
	info.Caches = decodeCaches(q, info.Vendor, maxBasic, info.MaxExtLeaf)
	return info
}

// regString turns CPUID registers into their ASCII, dropping NULs.
func regString(regs ...uint32) string {
	buf := make([]byte, 0, 4*len(regs))
	for _, r := range regs {
		buf = binary.LittleEndian.AppendUint32(buf, r)
	}
	return strings.TrimRight(strings.ReplaceAll(string(buf), "\x00", ""), " ")
}

// familyModel computes the display family, model and stepping from
// CPUID.1:EAX: the extended family is added when the base family is 0xf,
// the extended model is prepended when the base family is 6 or 0xf.
func familyModel(eax uint32) (family, model, stepping int) {
	stepping = int(eax & 0xf)
	model = int(eax >> 4 & 0xf)
	family = int(eax >> 8 & 0xf)
	if family == 0xf {
		family += int(eax >> 20 & 0xff)
	}
	if family == 6 || family >= 0xf {
		model += int(eax>>16&0xf) << 4
	}
	return family, model, stepping
}

// tscFromCPUID returns the TSC frequency CPUID states, if any: leaf 0x15
// (crystal clock × TSC/crystal ratio), else Intel's leaf 0x16 base
// frequency when leaf 0x15 gives the ratio but not the crystal, else the
// hypervisor timing leaf 0x40000010 (VMware's convention, also offered by
// KVM/QEMU with the "vmware-cpuid-freq" option).
func tscFromCPUID(q cpuidSource, vendor string, maxBasic, hypMax uint32) (int64, string) {
	if maxBasic >= 0x15 {
		den, num, crystal, _ := q(0x15, 0)
		if den != 0 && num != 0 {
			if crystal != 0 {
				hz := int64(crystal) * int64(num) / int64(den)
				return hz, fmt.Sprintf("cpuid 0x15 (crystal %s × %d/%d)", formatHz(int64(crystal)), num, den)
			}
			if vendor == VendorIntel && maxBasic >= 0x16 {
				if base, _, _, _ := q(0x16, 0); base&0xffff != 0 {
					return int64(base&0xffff) * 1e6, "cpuid 0x16 (processor base frequency)"
				}
			}
		}
	}
	if hypMax >= 0x40000010 {
		if khz, _, _, _ := q(0x40000010, 0); khz != 0 {
			return int64(khz) * 1000, "hypervisor cpuid 0x40000010"
		}
	}
	return 0, ""
}

// formatHz prints a frequency in MHz with up to three decimals.
func formatHz(hz int64) string {
	s := fmt.Sprintf("%.3f", float64(hz)/1e6)
	s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	return s + " MHz"
}

// FormatHz prints a frequency the way `portlab cpu` does: "2599.998 MHz".
func FormatHz(hz int64) string { return formatHz(hz) }

// decodeCaches reads the deterministic cache parameters: leaf 4 on Intel,
// leaf 0x8000001D on AMD with topology extensions, else AMD's legacy
// leaves 0x80000005/6.
func decodeCaches(q cpuidSource, vendor string, maxBasic, maxExt uint32) []Cache {
	var leaf uint32
	switch {
	case (vendor == VendorAMD || vendor == VendorHygon) && maxExt >= 0x8000001d && extECX(q, maxExt)>>22&1 == 1:
		leaf = 0x8000001d
	case vendor == VendorAMD || vendor == VendorHygon:
		return legacyAMDCaches(q, maxExt)
	case maxBasic >= 4:
		leaf = 4
	default:
		return nil
	}
	var out []Cache
	for sub := uint32(0); sub < 16; sub++ {
		a, b, c, _ := q(leaf, sub)
		typ := a & 0x1f
		if typ == 0 {
			break
		}
		cc := Cache{
			Level:    int(a >> 5 & 7),
			Ways:     int(b>>22) + 1,
			LineSize: int(b&0xfff) + 1,
			SharedBy: int(a>>14&0xfff) + 1,
		}
		partitions := int64(b>>12&0x3ff) + 1
		cc.Size = int64(cc.Ways) * partitions * int64(cc.LineSize) * (int64(c) + 1)
		switch typ {
		case 1:
			cc.Type = "data"
		case 2:
			cc.Type = "instruction"
		default:
			cc.Type = "unified"
		}
		out = append(out, cc)
	}
	return out
}

func extECX(q cpuidSource, maxExt uint32) uint32 {
	if maxExt < 0x80000001 {
		return 0
	}
	_, _, c, _ := q(0x80000001, 0)
	return c
}

// legacyAMDCaches decodes leaves 0x80000005 (L1) and 0x80000006 (L2, L3).
func legacyAMDCaches(q cpuidSource, maxExt uint32) []Cache {
	var out []Cache
	if maxExt >= 0x80000005 {
		_, _, c, d := q(0x80000005, 0)
		if c != 0 {
			out = append(out, Cache{Level: 1, Type: "data", Size: int64(c>>24) << 10, Ways: int(c >> 16 & 0xff), LineSize: int(c & 0xff)})
		}
		if d != 0 {
			out = append(out, Cache{Level: 1, Type: "instruction", Size: int64(d>>24) << 10, Ways: int(d >> 16 & 0xff), LineSize: int(d & 0xff)})
		}
	}
	if maxExt >= 0x80000006 {
		_, _, c, d := q(0x80000006, 0)
		if c>>16 != 0 {
			out = append(out, Cache{Level: 2, Type: "unified", Size: int64(c>>16) << 10, Ways: amdWays(c >> 12 & 0xf), LineSize: int(c & 0xff)})
		}
		if d>>18 != 0 {
			out = append(out, Cache{Level: 3, Type: "unified", Size: int64(d>>18) * 512 << 10, Ways: amdWays(d >> 12 & 0xf), LineSize: int(d & 0xff)})
		}
	}
	return out
}

// amdWays decodes the associativity field of leaf 0x80000006.
func amdWays(code uint32) int {
	ways := map[uint32]int{1: 1, 2: 2, 3: 3, 4: 4, 5: 6, 6: 8, 8: 16, 0xa: 32, 0xb: 48, 0xc: 64, 0xd: 96, 0xe: 128}
	return ways[code]
}
