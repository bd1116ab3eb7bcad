package hostcpu

import (
	"encoding/json"
	"errors"
	"os"
	"reflect"
	"runtime"
	"sort"
	"strings"
	"testing"
	"time"

	"portlab/isa"
)

// dump is a recorded CPUID register dump: leaf -> subleaf -> EAX..EDX.
// Leaves whose subleaf does not matter are recorded at subleaf 0.
type dump struct {
	regs map[uint32]map[uint32][4]uint32
	// intelOOR mimics Intel: a basic leaf above the maximum returns the
	// highest basic leaf's data (so decoders must check the maximum).
	intelOOR bool
}

var subleafed = map[uint32]bool{4: true, 7: true, 0xd: true, 0x24: true, 0x8000001d: true}

func (d dump) cpuid(leaf, sub uint32) (a, b, c, dd uint32) {
	maxBasic := d.regs[0][0][0]
	if d.intelOOR && leaf > maxBasic && (leaf < 0x80000000 || leaf > d.regs[0x80000000][0][0]) &&
		(leaf < 0x40000000 || leaf >= 0x40000100) {
		leaf, sub = maxBasic, 0
	}
	if !subleafed[leaf] {
		sub = 0
	}
	r := d.regs[leaf][sub]
	return r[0], r[1], r[2], r[3]
}

// thisHost is CPUID as the project's Intel KVM guest reports it.
var thisHost = dump{intelOOR: true, regs: map[uint32]map[uint32][4]uint32{
	0: {0: {0x00000024, 0x756e6547, 0x6c65746e, 0x49656e69}},
	1: {0: {0x000a0671, 0x00020800, 0xfffa3203, 0x1f8bfbff}},
	4: {
		0: {0x04000121, 0x02c0003f, 0x0000003f, 0},
		1: {0x04000122, 0x03c0003f, 0x0000003f, 0},
		2: {0x04000143, 0x03c0003f, 0x000007ff, 0},
		3: {0x04004163, 0x03c0003f, 0x00077fff, 0},
	},
	7: {
		0: {0x00000002, 0xf1bf2ffb, 0x1a415f46, 0x23c14010},
		1: {0x00001c30, 0, 0, 0x00084000},
		2: {0, 0, 0, 1},
	},
	0xd: {
		0: {0x000600e7, 0x00002b00, 0x00002b00, 0},
		1: {0x0000001f, 0x000029c0, 0, 0},
	},
	0x24:       {0: {0, 0x00070001, 0, 0}},
	0x40000000: {0: {0x40000001, 0x4b4d564b, 0x564b4d56, 0x0000004d}},
	0x40000001: {0: {0x01007efb, 0, 0, 0}},
	0x80000000: {0: {0x80000008, 0, 0, 0}},
	0x80000001: {0: {0, 0, 0x00000121, 0x2c100800}},
	0x80000002: {0: {0x65746e49, 0x2952286c, 0x6f655820, 0x2952286e}},
	0x80000003: {0: {0x6f725020, 0x73736563, 0x0000726f, 0}},
	0x80000004: {0: {0, 0, 0, 0}},
	0x80000006: {0: {0, 0, 0x08007040, 0}},
	0x80000007: {0: {0, 0, 0, 0x00000100}},
	0x80000008: {0: {0x00303930, 0, 0, 0}},
}}

var thisHostFeatures = []string{
	"adx", "aes", "amx_bf16", "amx_int8", "amx_tile", "avx", "avx10", "avx2", "avx512_bf16",
	"avx512_bitalg", "avx512_fp16", "avx512_vbmi2", "avx512_vnni", "avx512_vpopcntdq", "avx512bw",
	"avx512cd", "avx512dq", "avx512f", "avx512ifma", "avx512vbmi", "avx512vl", "avx_vnni", "bmi1", "bmi2",
	"cldemote", "clflushopt", "clwb", "cmov", "cx16", "cx8", "erms", "f16c", "fma", "fsgsbase", "fsrm",
	"gfni", "hle", "invpcid", "lahf_lm", "lzcnt", "mmx", "movbe", "movdir64b", "movdiri", "pclmulqdq",
	"popcnt", "prefetchi", "prefetchw", "rdpid", "rdrand", "rdseed", "rdtscp", "rtm", "serialize",
	"sha_ni", "sse", "sse2", "sse3", "sse4_1", "sse4_2", "ssse3", "tsxldtrk", "vaes", "vpclmulqdq",
	"x87", "xsave", "xsavec", "xsaveopt", "xsaves",
}

func xcr0(v uint64) func() (uint32, uint32) {
	return func() (uint32, uint32) { return uint32(v), uint32(v >> 32) }
}

func TestDecodeThisHost(t *testing.T) {
	info := decode(thisHost.cpuid, xcr0(0x600e7))
	if info.Vendor != VendorIntel || info.Brand != "Intel(R) Xeon(R) Processor" {
		t.Errorf("vendor/brand = %q / %q", info.Vendor, info.Brand)
	}
	if info.Family != 6 || info.Model != 0xa7 || info.Stepping != 1 {
		t.Errorf("family/model/stepping = %d/%#x/%d, want 6/0xa7/1", info.Family, info.Model, info.Stepping)
	}
	if got := info.Signature(); got != "GenuineIntel-6-a7-1" {
		t.Errorf("Signature = %q", got)
	}
	if !info.Hypervisor || info.HypervisorVendor != "KVMKVMKVM" || info.HypervisorName() != "KVM" {
		t.Errorf("hypervisor = %v %q %q", info.Hypervisor, info.HypervisorVendor, info.HypervisorName())
	}
	if !reflect.DeepEqual(info.Features, thisHostFeatures) {
		t.Errorf("features\n got %q\nwant %q", info.Features, thisHostFeatures)
	}
	if len(info.OSDisabled) != 0 {
		t.Errorf("OSDisabled = %q, want none", info.OSDisabled)
	}
	if info.AVX10Version != 1 {
		t.Errorf("AVX10Version = %d, want 1", info.AVX10Version)
	}
	if info.Microarch != "graniterapids" ||
		info.MicroarchSource != "features (model 0xa7 says rocketlake, but prefetchi/avx10 need graniterapids or newer; hypervisor present)" {
		t.Errorf("microarch = %q, %q", info.Microarch, info.MicroarchSource)
	}
	// Leaves 0x15/0x16 are zero and the hypervisor's maximum leaf is
	// 0x40000001, so CPUID does not give the TSC frequency (the out-of-range
	// leaf 0x40000010 returns leaf 0x24's data, which must not be used).
	if info.TSCHz != 0 || info.TSCSource != "" {
		t.Errorf("TSC = %d (%s), want unknown from CPUID", info.TSCHz, info.TSCSource)
	}
	if !info.InvariantTSC {
		t.Error("InvariantTSC = false")
	}
	want := []Cache{
		{Level: 1, Type: "data", Size: 48 << 10, Ways: 12, LineSize: 64, SharedBy: 1},
		{Level: 1, Type: "instruction", Size: 64 << 10, Ways: 16, LineSize: 64, SharedBy: 1},
		{Level: 2, Type: "unified", Size: 2 << 20, Ways: 16, LineSize: 64, SharedBy: 1},
		{Level: 3, Type: "unified", Size: 480 << 20, Ways: 16, LineSize: 64, SharedBy: 2},
	}
	if !reflect.DeepEqual(info.Caches, want) {
		t.Errorf("caches\n got %+v\nwant %+v", info.Caches, want)
	}
	var names []string
	for _, c := range info.Caches {
		names = append(names, c.String())
	}
	if got := strings.Join(names, ", "); got != "L1d 48 KiB 12-way, L1i 64 KiB 16-way, L2 2 MiB 16-way, L3 480 MiB 16-way" {
		t.Errorf("cache strings = %q", got)
	}
	if info.CacheSize(1, "data") != 48<<10 || info.CacheSize(2, "") != 2<<20 || info.CacheSize(4, "") != 0 {
		t.Errorf("CacheSize: L1d %d L2 %d L4 %d", info.CacheSize(1, "data"), info.CacheSize(2, ""), info.CacheSize(4, ""))
	}
}

func TestDecodeOSDisabledState(t *testing.T) {
	// Same CPU, but the OS enabled only x87/SSE/AVX state: AVX-512 and AMX
	// are unusable.
	info := decode(thisHost.cpuid, xcr0(0x7))
	for _, f := range []string{"avx512f", "avx512vl", "avx512_fp16", "avx512_bf16", "avx10", "amx_tile", "amx_int8", "amx_bf16"} {
		if info.Has(f) {
			t.Errorf("Has(%q) with XCR0=0x7", f)
		}
		if i := sort.SearchStrings(info.OSDisabled, f); i == len(info.OSDisabled) || info.OSDisabled[i] != f {
			t.Errorf("%q not in OSDisabled %q", f, info.OSDisabled)
		}
	}
	for _, f := range []string{"avx", "avx2", "fma", "avx_vnni", "vaes"} {
		if !info.Has(f) {
			t.Errorf("!Has(%q) with XCR0=0x7", f)
		}
	}
	// prefetchi needs no register state, so it alone still rules out
	// everything before graniterapids.
	if info.Microarch != "graniterapids" ||
		info.MicroarchSource != "features (model 0xa7 says rocketlake, but prefetchi needs graniterapids or newer; hypervisor present)" {
		t.Errorf("microarch = %q (%s)", info.Microarch, info.MicroarchSource)
	}

	// Opmask enabled but not the zmm halves: still no AVX-512.
	info = decode(thisHost.cpuid, xcr0(0x60027))
	if info.Has("avx512f") || !info.Has("amx_tile") {
		t.Errorf("XCR0=0x60027: avx512f %v amx_tile %v", info.Has("avx512f"), info.Has("amx_tile"))
	}

	// OSXSAVE off: XGETBV must not be executed, nothing needing state.
	noOSX := dump{regs: map[uint32]map[uint32][4]uint32{}}
	for k, v := range thisHost.regs {
		noOSX.regs[k] = v
	}
	noOSX.regs[1] = map[uint32][4]uint32{0: {0x000a0671, 0x00020800, 0xfffa3203 &^ (1 << 27), 0x1f8bfbff}}
	info = decode(noOSX.cpuid, func() (uint32, uint32) { t.Fatal("XGETBV executed without OSXSAVE"); return 0, 0 })
	if info.Has("avx") || !info.Has("sse4_2") || info.XCR0 != 0 {
		t.Errorf("no OSXSAVE: avx %v sse4_2 %v xcr0 %#x", info.Has("avx"), info.Has("sse4_2"), info.XCR0)
	}
}

// zen4Guest is a synthetic Zen 4 (EPYC 9004, family 0x19 model 0x11) KVM
// guest, like the project's AMD machines.
var zen4Guest = dump{regs: map[uint32]map[uint32][4]uint32{
	0: {0: {0x10, 0x68747541, 0x444d4163, 0x69746e65}},
	1: {0: {0x00a10f11, 0x00020800,
		1<<0 | 1<<1 | 1<<9 | 1<<12 | 1<<13 | 1<<19 | 1<<20 | 1<<22 | 1<<23 | 1<<25 | 1<<26 | 1<<27 | 1<<28 | 1<<29 | 1<<30 | 1<<31,
		1<<0 | 1<<8 | 1<<15 | 1<<23 | 1<<25 | 1<<26}},
	7: {
		0: {1,
			1<<0 | 1<<3 | 1<<5 | 1<<8 | 1<<9 | 1<<10 | 1<<16 | 1<<17 | 1<<18 | 1<<19 | 1<<21 | 1<<23 | 1<<24 | 1<<28 | 1<<29 | 1<<30 | 1<<31,
			1<<1 | 1<<2 | 1<<3 | 1<<6 | 1<<8 | 1<<9 | 1<<10 | 1<<11 | 1<<12 | 1<<14 | 1<<16 | 1<<22,
			1 << 4},
		1: {1 << 5, 0, 0, 0},
	},
	0xd:        {1: {0xf, 0, 0, 0}},
	0x40000000: {0: {0x40000001, 0x4b4d564b, 0x564b4d56, 0x0000004d}},
	0x80000000: {0: {0x80000028, 0x68747541, 0x444d4163, 0x69746e65}},
	0x80000001: {0: {0x00a10f11, 0, 1<<0 | 1<<5 | 1<<6 | 1<<7 | 1<<8 | 1<<22, 1<<11 | 1<<20 | 1<<27 | 1<<29}},
	0x80000002: {0: {0x20444d41, 0x43595045, 0x35363920, 0x36392034}}, // "AMD EPYC 9654 96"
	0x80000003: {0: {0x726f432d, 0x72502065, 0x7365636f, 0x20726f73}}, // "-Core Processor "
	0x80000004: {0: {0x20202020, 0x20202020, 0x20202020, 0x00202020}},
	0x80000007: {0: {0, 0, 0, 1 << 8}},
	0x8000001d: {
		0: {0x4121, 0x01c0003f, 63, 0},
		1: {0x4122, 0x01c0003f, 63, 0},
		2: {0x4143, 0x01c0003f, 2047, 0},
		3: {0x3c163, 0x03c0003f, 32767, 0},
	},
}}

func TestDecodeZen4Guest(t *testing.T) {
	info := decode(zen4Guest.cpuid, xcr0(0x2e7))
	if info.Vendor != VendorAMD || info.Family != 0x19 || info.Model != 0x11 || info.Stepping != 1 {
		t.Errorf("identity = %s %#x %#x %d", info.Vendor, info.Family, info.Model, info.Stepping)
	}
	if info.Brand != "AMD EPYC 9654 96-Core Processor" {
		t.Errorf("brand = %q", info.Brand)
	}
	if info.Signature() != "AuthenticAMD-19-11-1" {
		t.Errorf("Signature = %q", info.Signature())
	}
	if info.Microarch != "znver4" || info.MicroarchSource != "model table (family 0x19 model 0x11)" {
		t.Errorf("microarch = %q (%s)", info.Microarch, info.MicroarchSource)
	}
	for _, f := range []string{"avx512f", "avx512_bf16", "lzcnt", "sse4a", "prefetchw", "lahf_lm", "sha_ni", "rdpid", "clwb", "xsaveopt"} {
		if !info.Has(f) {
			t.Errorf("!Has(%q)", f)
		}
	}
	for _, f := range []string{"avx512_fp16", "amx_tile", "hle", "rtm", "avx_vnni", "fma4"} {
		if info.Has(f) {
			t.Errorf("Has(%q)", f)
		}
	}
	got := make([]string, 0, len(info.Caches))
	for _, c := range info.Caches {
		got = append(got, c.String())
	}
	if s := strings.Join(got, ", "); s != "L1d 32 KiB 8-way, L1i 32 KiB 8-way, L2 1 MiB 8-way, L3 32 MiB 16-way" {
		t.Errorf("caches = %s", s)
	}
	if info.Caches[3].SharedBy != 16 {
		t.Errorf("L3 shared by %d, want 16", info.Caches[3].SharedBy)
	}
}

func TestFamilyModel(t *testing.T) {
	tests := []struct {
		eax                     uint32
		family, model, stepping int
	}{
		{0x000a0671, 6, 0xa7, 1},    // this host (Rocket Lake model number)
		{0x000806f8, 6, 0x8f, 8},    // Sapphire Rapids
		{0x000306c3, 6, 0x3c, 3},    // Haswell
		{0x00800f12, 0x17, 0x01, 2}, // Naples
		{0x00a10f11, 0x19, 0x11, 1}, // Genoa
		{0x00b00f21, 0x1a, 0x02, 1}, // Turin
		{0x00400f11, 0x13, 0x01, 1}, // Diamond Rapids (base family 0xf + 4)
		{0x00000f41, 0xf, 0x04, 1},  // Pentium 4
		{0x00000543, 5, 4, 3},       // Pentium MMX: no extended model for family 5
		{0x00010543, 5, 4, 3},
	}
	for _, tc := range tests {
		f, m, s := familyModel(tc.eax)
		if f != tc.family || m != tc.model || s != tc.stepping {
			t.Errorf("familyModel(%#x) = %#x/%#x/%d, want %#x/%#x/%d", tc.eax, f, m, s, tc.family, tc.model, tc.stepping)
		}
	}
}

func TestTSCFromCPUID(t *testing.T) {
	mk := func(max uint32, hyp bool, leaves map[uint32][4]uint32) (cpuidSource, uint32) {
		var hypMax uint32
		if hyp {
			hypMax = 0x40000010
		}
		return func(leaf, _ uint32) (a, b, c, d uint32) {
			r := leaves[leaf]
			return r[0], r[1], r[2], r[3]
		}, hypMax
	}
	tests := []struct {
		name   string
		vendor string
		max    uint32
		hyp    bool
		leaves map[uint32][4]uint32
		hz     int64
		source string
	}{
		{"crystal", VendorIntel, 0x16, false, map[uint32][4]uint32{0x15: {2, 168, 25000000, 0}},
			2100000000, "cpuid 0x15 (crystal 25 MHz × 168/2)"},
		{"crystal 38.4", VendorIntel, 0x15, false, map[uint32][4]uint32{0x15: {1, 50, 38400000, 0}},
			1920000000, "cpuid 0x15 (crystal 38.4 MHz × 50/1)"},
		{"base frequency", VendorIntel, 0x16, false, map[uint32][4]uint32{0x15: {2, 200, 0, 0}, 0x16: {2400, 3900, 100, 0}},
			2400000000, "cpuid 0x16 (processor base frequency)"},
		{"hypervisor leaf", VendorAMD, 0x10, true, map[uint32][4]uint32{0x40000010: {2995200, 1000000, 0, 0}},
			2995200000, "hypervisor cpuid 0x40000010"},
		{"nothing", VendorIntel, 0x24, false, map[uint32][4]uint32{}, 0, ""},
		{"0x16 alone is not trusted", VendorIntel, 0x16, false, map[uint32][4]uint32{0x16: {2400, 0, 0, 0}}, 0, ""},
	}
	for _, tc := range tests {
		q, hypMax := mk(tc.max, tc.hyp, tc.leaves)
		hz, src := tscFromCPUID(q, tc.vendor, tc.max, hypMax)
		if hz != tc.hz || src != tc.source {
			t.Errorf("%s: tscFromCPUID = %d %q, want %d %q", tc.name, hz, src, tc.hz, tc.source)
		}
	}
}

func TestMeasureTSC(t *testing.T) {
	if !haveCPUID {
		t.Skip("no RDTSC on " + runtime.GOARCH)
	}
	a := measureTSC(5 * time.Millisecond)
	b := measureTSC(20 * time.Millisecond)
	if a < 100e6 || b < 100e6 {
		t.Fatalf("measureTSC = %d, %d Hz", a, b)
	}
	if d := float64(a-b) / float64(b); d > 0.002 || d < -0.002 {
		t.Errorf("measureTSC over 5 ms and 20 ms disagree: %d vs %d Hz", a, b)
	}
	if b%1000 != 0 {
		t.Errorf("measureTSC = %d, want kHz-rounded", b)
	}
}

func TestCPUInfoField(t *testing.T) {
	text := []byte("processor\t: 0\nvendor_id\t: GenuineIntel\nmicrocode\t: 0x2b000571\nflags\t\t: fpu vme\n\nprocessor\t: 1\nmicrocode\t: 0xdead\n")
	if got := cpuinfoField(text, "microcode"); got != "0x2b000571" {
		t.Errorf("microcode = %q", got)
	}
	if got := cpuinfoField(text, "flags"); got != "fpu vme" {
		t.Errorf("flags = %q", got)
	}
	if got := cpuinfoField(text, "bogomips"); got != "" {
		t.Errorf("bogomips = %q", got)
	}
}

func TestFormatBytes(t *testing.T) {
	for n, want := range map[int64]string{48 << 10: "48 KiB", 2 << 20: "2 MiB", 480 << 20: "480 MiB", 1536 << 10: "1.5 MiB", 512: "512 B"} {
		if got := FormatBytes(n); got != want {
			t.Errorf("FormatBytes(%d) = %q, want %q", n, got, want)
		}
	}
}

// TestFeatureTable checks the decode table against isa.Features: names are
// unique, every isa feature can be decoded, and every decoded name outside
// isa.Features is spelled like the others (lower case, no dots or dashes).
func TestFeatureTable(t *testing.T) {
	seen := map[string]bool{}
	for _, f := range featureBits {
		if seen[f.name] {
			t.Errorf("feature %q decoded twice", f.name)
		}
		seen[f.name] = true
		if f.name != strings.ToLower(f.name) || strings.ContainsAny(f.name, ".- ") {
			t.Errorf("feature %q: not in the canonical spelling style", f.name)
		}
	}
	for _, f := range isa.Features {
		if !seen[f] {
			t.Errorf("isa feature %q has no CPUID decoding", f)
		}
	}
	for _, list := range [][]string{intelMarkers, amdMarkers} {
		for _, m := range list {
			if !seen[m] {
				t.Errorf("marker %q is not a decoded feature", m)
			}
		}
	}
}

// TestFeaturesMatchProcCPUInfo compares the decoded features of this host
// with the kernel's /proc/cpuinfo flags for every feature both know.
func TestFeaturesMatchProcCPUInfo(t *testing.T) {
	if !haveCPUID {
		t.Skip("no CPUID on " + runtime.GOARCH)
	}
	text, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		t.Skipf("no /proc/cpuinfo: %v", err)
	}
	flags := map[string]bool{}
	for _, f := range strings.Fields(cpuinfoField(text, "flags")) {
		flags[f] = true
	}
	if len(flags) == 0 {
		t.Skip("/proc/cpuinfo has no flags line")
	}
	info, err := Detect()
	if err != nil {
		t.Fatal(err)
	}
	compared := 0
	for _, f := range featureBits {
		if f.linux == "" {
			continue
		}
		compared++
		ours := info.Has(f.name)
		for _, d := range info.OSDisabled {
			if d == f.name {
				t.Logf("%s: CPUID has it but XCR0 lacks its state", f.name)
			}
		}
		if ours == flags[f.linux] {
			continue
		}
		// A kernel can read a CPUID its hypervisor masks while user code
		// runs CPUID on the host's CPU: then the instruction decides.
		if _, probed := instructionProbes[f.name]; ours && probed {
			if err := probeInChild(f.name); errors.Is(err, errNoExecMemory) {
				t.Logf("feature %q: the kernel leaves /proc/cpuinfo's %q out and the probe cannot run here (%v): not compared", f.name, f.linux, err)
			} else if err != nil {
				t.Errorf("feature %q (/proc/cpuinfo %q): decoded true, the kernel says false, and its instruction does not run: %v", f.name, f.linux, err)
			} else {
				t.Logf("feature %q: the kernel leaves /proc/cpuinfo's %q out, CPUID reports it and its instruction runs", f.name, f.linux)
			}
			continue
		}
		t.Errorf("feature %q (/proc/cpuinfo %q): decoded %v, kernel says %v", f.name, f.linux, ours, flags[f.linux])
	}
	if compared < 60 {
		t.Errorf("compared only %d features", compared)
	}
}

func TestDetect(t *testing.T) {
	info, err := Detect()
	if !haveCPUID {
		if err == nil || !strings.Contains(err.Error(), "GOARCH="+runtime.GOARCH) {
			t.Fatalf("Detect on %s: err = %v", runtime.GOARCH, err)
		}
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	again, _ := Detect()
	if again != info {
		t.Error("Detect does not cache its result")
	}
	if info.Vendor == "" || info.Family == 0 || info.Microarch == "" || info.MicroarchSource == "" {
		t.Errorf("incomplete identity: %+v", info)
	}
	if !sort.StringsAreSorted(info.Features) {
		t.Error("Features not sorted")
	}
	if !info.Has("sse2") || !info.Has("x87") || info.Has("no_such_feature") {
		t.Error("Has: sse2/x87 missing or invented feature present")
	}
	if info.TSCHz < 100e6 || info.TSCSource == "" {
		t.Errorf("TSC %d Hz from %q", info.TSCHz, info.TSCSource)
	}
	if info.CPUs != runtime.NumCPU() {
		t.Errorf("CPUs = %d", info.CPUs)
	}
	if runtime.GOOS == "linux" && info.Kernel == "" {
		t.Error("no kernel release")
	}
	b, err := json.Marshal(info)
	if err != nil {
		t.Fatal(err)
	}
	var back Info
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(&back, info) {
		t.Errorf("JSON round trip changed Info:\n%+v\n%+v", back, *info)
	}
}

// TestCacheWithoutWays: AMD's legacy leaf 0x80000006 codes an L3's
// associativity 9 ("see leaf 0x8000001D"), which a hypervisor that hides
// the topology extensions does not answer (a Zen 5 guest under bhyve):
// the cache prints without a way count, not as "0-way".
func TestCacheWithoutWays(t *testing.T) {
	if w := amdWays(9); w != 0 {
		t.Errorf("amdWays(9) = %d, want 0 (not given here)", w)
	}
	c := Cache{Level: 3, Type: "unified", Size: 508 << 20, Ways: amdWays(9), LineSize: 64}
	if s := c.String(); s != "L3 508 MiB" {
		t.Errorf("%q, want \"L3 508 MiB\"", s)
	}
	if s := (Cache{Level: 2, Type: "unified", Size: 1 << 20, Ways: amdWays(6), LineSize: 64}).String(); s != "L2 1 MiB 8-way" {
		t.Errorf("%q, want \"L2 1 MiB 8-way\"", s)
	}
}

// TestKernelHidden: the features CPUID reports whose /proc/cpuinfo flag
// is missing, under the kernel's spelling (lzcnt is "abm").
func TestKernelHidden(t *testing.T) {
	info := &Info{Features: []string{"avx2", "fsgsbase", "lzcnt", "sse2", "sse4a"}} // sorted, as Detect gives them
	text := []byte("processor\t: 0\nflags\t\t: fpu sse2 avx2 misalignsse\nbugs\t\t: sysret_ss_attrs\n")
	if got := strings.Join(kernelHidden(info, text), " "); got != "fsgsbase lzcnt sse4a" {
		t.Errorf("hidden %q, want \"fsgsbase lzcnt sse4a\"", got)
	}
	if got := kernelHidden(info, []byte("processor\t: 0\n")); got != nil {
		t.Errorf("no flags line: %q, want nil", got)
	}
	text = []byte("flags\t\t: fpu sse2 avx2 fsgsbase abm sse4a\n")
	if got := kernelHidden(info, text); got != nil {
		t.Errorf("every flag present: %q, want nil", got)
	}
}
