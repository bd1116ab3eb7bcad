package hostcpu

import (
	"bufio"
	"bytes"
	"slices"
	"strings"
)

// reg names a CPUID output register.
type reg uint8

const (
	eax reg = iota
	ebx
	ecx
	edx
)

// osState is the XCR0 register state a feature needs the OS to have enabled.
type osState uint8

const (
	stateNone osState = iota
	stateYMM          // XCR0 bits 1-2: SSE and AVX (upper ymm) state
	stateZMM          // XCR0 bits 1-2 and 5-7: also opmask, zmm0-15 upper halves, zmm16-31
	stateAMX          // XCR0 bits 17-18: XTILECFG and XTILEDATA
)

// XCR0 bits.
const (
	xcr0YMM = 0x6     // SSE (bit 1) and AVX (bit 2)
	xcr0ZMM = 0xe0    // opmask (5), ZMM_Hi256 (6), Hi16_ZMM (7)
	xcr0AMX = 0x60000 // XTILECFG (17), XTILEDATA (18)
	xcr0All = xcr0YMM | xcr0ZMM
)

// featureBit says where CPUID reports one feature.
type featureBit struct {
	name    string // portlab's name (isa.Features spelling where isa has it)
	leaf    uint32
	subleaf uint32
	reg     reg
	bit     uint
	state   osState // register state the OS must enable for the feature to be usable
	// linux is the flag's name in /proc/cpuinfo, or "" when Linux does not
	// show it (or not reliably: mpx was removed in Linux 5.6). Only used to
	// cross-check the decoder against the kernel.
	linux string
}

// featureBits is the decode table. Names in isa.Features come first in
// spirit; the others are features portlab uses to tell cores apart or that
// a kernel author may want to see, spelled the way Linux spells them.
var featureBits = []featureBit{
	// Leaf 1 EDX.
	{"x87", 1, 0, edx, 0, stateNone, "fpu"},
	{"cx8", 1, 0, edx, 8, stateNone, "cx8"},
	{"cmov", 1, 0, edx, 15, stateNone, "cmov"},
	{"mmx", 1, 0, edx, 23, stateNone, "mmx"},
	{"sse", 1, 0, edx, 25, stateNone, "sse"},
	{"sse2", 1, 0, edx, 26, stateNone, "sse2"},
	// Leaf 1 ECX.
	{"sse3", 1, 0, ecx, 0, stateNone, "pni"},
	{"pclmulqdq", 1, 0, ecx, 1, stateNone, "pclmulqdq"},
	{"ssse3", 1, 0, ecx, 9, stateNone, "ssse3"},
	{"fma", 1, 0, ecx, 12, stateYMM, "fma"},
	{"cx16", 1, 0, ecx, 13, stateNone, "cx16"},
	{"sse4_1", 1, 0, ecx, 19, stateNone, "sse4_1"},
	{"sse4_2", 1, 0, ecx, 20, stateNone, "sse4_2"},
	{"movbe", 1, 0, ecx, 22, stateNone, "movbe"},
	{"popcnt", 1, 0, ecx, 23, stateNone, "popcnt"},
	{"aes", 1, 0, ecx, 25, stateNone, "aes"},
	{"xsave", 1, 0, ecx, 26, stateNone, "xsave"},
	{"avx", 1, 0, ecx, 28, stateYMM, "avx"},
	{"f16c", 1, 0, ecx, 29, stateYMM, "f16c"},
	{"rdrand", 1, 0, ecx, 30, stateNone, "rdrand"},
	// Leaf 7 subleaf 0 EBX.
	{"fsgsbase", 7, 0, ebx, 0, stateNone, "fsgsbase"},
	{"bmi1", 7, 0, ebx, 3, stateNone, "bmi1"},
	{"hle", 7, 0, ebx, 4, stateNone, "hle"},
	{"avx2", 7, 0, ebx, 5, stateYMM, "avx2"},
	{"bmi2", 7, 0, ebx, 8, stateNone, "bmi2"},
	{"erms", 7, 0, ebx, 9, stateNone, "erms"},
	{"invpcid", 7, 0, ebx, 10, stateNone, "invpcid"},
	{"rtm", 7, 0, ebx, 11, stateNone, "rtm"},
	{"mpx", 7, 0, ebx, 14, stateNone, ""},
	{"avx512f", 7, 0, ebx, 16, stateZMM, "avx512f"},
	{"avx512dq", 7, 0, ebx, 17, stateZMM, "avx512dq"},
	{"rdseed", 7, 0, ebx, 18, stateNone, "rdseed"},
	{"adx", 7, 0, ebx, 19, stateNone, "adx"},
	{"avx512ifma", 7, 0, ebx, 21, stateZMM, "avx512ifma"},
	{"clflushopt", 7, 0, ebx, 23, stateNone, "clflushopt"},
	{"clwb", 7, 0, ebx, 24, stateNone, "clwb"},
	{"avx512pf", 7, 0, ebx, 26, stateZMM, "avx512pf"},
	{"avx512er", 7, 0, ebx, 27, stateZMM, "avx512er"},
	{"avx512cd", 7, 0, ebx, 28, stateZMM, "avx512cd"},
	{"sha_ni", 7, 0, ebx, 29, stateNone, "sha_ni"},
	{"avx512bw", 7, 0, ebx, 30, stateZMM, "avx512bw"},
	{"avx512vl", 7, 0, ebx, 31, stateZMM, "avx512vl"},
	// Leaf 7 subleaf 0 ECX.
	{"avx512vbmi", 7, 0, ecx, 1, stateZMM, "avx512vbmi"},
	{"pku", 7, 0, ecx, 3, stateNone, "pku"},
	{"waitpkg", 7, 0, ecx, 5, stateNone, "waitpkg"},
	{"avx512_vbmi2", 7, 0, ecx, 6, stateZMM, "avx512_vbmi2"},
	{"gfni", 7, 0, ecx, 8, stateNone, "gfni"},
	{"vaes", 7, 0, ecx, 9, stateYMM, "vaes"},
	{"vpclmulqdq", 7, 0, ecx, 10, stateYMM, "vpclmulqdq"},
	{"avx512_vnni", 7, 0, ecx, 11, stateZMM, "avx512_vnni"},
	{"avx512_bitalg", 7, 0, ecx, 12, stateZMM, "avx512_bitalg"},
	{"avx512_vpopcntdq", 7, 0, ecx, 14, stateZMM, "avx512_vpopcntdq"},
	{"rdpid", 7, 0, ecx, 22, stateNone, "rdpid"},
	{"cldemote", 7, 0, ecx, 25, stateNone, "cldemote"},
	{"movdiri", 7, 0, ecx, 27, stateNone, "movdiri"},
	{"movdir64b", 7, 0, ecx, 28, stateNone, "movdir64b"},
	{"enqcmd", 7, 0, ecx, 29, stateNone, ""},
	// Leaf 7 subleaf 0 EDX.
	{"avx512_4vnniw", 7, 0, edx, 2, stateZMM, "avx512_4vnniw"},
	{"avx512_4fmaps", 7, 0, edx, 3, stateZMM, "avx512_4fmaps"},
	{"fsrm", 7, 0, edx, 4, stateNone, "fsrm"},
	{"avx512_vp2intersect", 7, 0, edx, 8, stateZMM, "avx512_vp2intersect"},
	{"serialize", 7, 0, edx, 14, stateNone, "serialize"},
	{"tsxldtrk", 7, 0, edx, 16, stateNone, "tsxldtrk"},
	{"amx_bf16", 7, 0, edx, 22, stateAMX, "amx_bf16"},
	{"avx512_fp16", 7, 0, edx, 23, stateZMM, "avx512_fp16"},
	{"amx_tile", 7, 0, edx, 24, stateAMX, "amx_tile"},
	{"amx_int8", 7, 0, edx, 25, stateAMX, "amx_int8"},
	// Leaf 7 subleaf 1 EAX.
	{"sha512", 7, 1, eax, 0, stateYMM, ""},
	{"sm3", 7, 1, eax, 1, stateNone, ""},
	{"sm4", 7, 1, eax, 2, stateYMM, ""},
	{"avx_vnni", 7, 1, eax, 4, stateYMM, "avx_vnni"},
	{"avx512_bf16", 7, 1, eax, 5, stateZMM, "avx512_bf16"},
	{"cmpccxadd", 7, 1, eax, 7, stateNone, ""},
	{"amx_fp16", 7, 1, eax, 21, stateAMX, ""},
	{"avx_ifma", 7, 1, eax, 23, stateYMM, ""},
	// Leaf 7 subleaf 1 EDX.
	{"avx_vnni_int8", 7, 1, edx, 4, stateYMM, ""},
	{"avx_ne_convert", 7, 1, edx, 5, stateYMM, ""},
	{"amx_complex", 7, 1, edx, 8, stateAMX, ""},
	{"avx_vnni_int16", 7, 1, edx, 10, stateYMM, ""},
	{"prefetchi", 7, 1, edx, 14, stateNone, ""},
	{"avx10", 7, 1, edx, 19, stateZMM, ""},
	// Leaf 0xD subleaf 1 EAX.
	{"xsaveopt", 0xd, 1, eax, 0, stateNone, "xsaveopt"},
	{"xsavec", 0xd, 1, eax, 1, stateNone, "xsavec"},
	{"xsaves", 0xd, 1, eax, 3, stateNone, "xsaves"},
	// Leaf 0x80000001 ECX.
	{"lahf_lm", 0x80000001, 0, ecx, 0, stateNone, "lahf_lm"},
	{"lzcnt", 0x80000001, 0, ecx, 5, stateNone, "abm"},
	{"sse4a", 0x80000001, 0, ecx, 6, stateNone, "sse4a"},
	{"prefetchw", 0x80000001, 0, ecx, 8, stateNone, "3dnowprefetch"},
	{"xop", 0x80000001, 0, ecx, 11, stateYMM, "xop"},
	{"fma4", 0x80000001, 0, ecx, 16, stateYMM, "fma4"},
	{"tbm", 0x80000001, 0, ecx, 21, stateNone, "tbm"},
	// Leaf 0x80000001 EDX.
	{"rdtscp", 0x80000001, 0, edx, 27, stateNone, "rdtscp"},
}

// cpuidSource supplies CPUID results; decoding functions take one so tests
// can feed recorded register dumps.
type cpuidSource func(leaf, subleaf uint32) (a, b, c, d uint32)

// decodedFeatures is the result of decodeFeatures.
type decodedFeatures struct {
	usable     []string // CPUID reports it and the OS enabled its state
	osDisabled []string // CPUID reports it but XCR0 lacks its state
}

// decodeFeatures reads the feature bits through q, honouring the maximum
// basic and extended leaves (out-of-range leaves return another leaf's
// data on Intel) and the OS-enabled state in xcr0 (osxsave false means
// XGETBV is unavailable and no extended state is enabled).
func decodeFeatures(q cpuidSource, maxBasic, maxExt uint32, osxsave bool, xcr0 uint64) decodedFeatures {
	var max7sub uint32
	if maxBasic >= 7 {
		max7sub, _, _, _ = q(7, 0)
	}
	valid := func(leaf, sub uint32) bool {
		switch {
		case leaf >= 0x80000000:
			return leaf <= maxExt
		case leaf > maxBasic:
			return false
		case leaf == 7:
			return sub <= max7sub
		}
		return true
	}
	enabled := func(s osState) bool {
		switch s {
		case stateYMM:
			return osxsave && xcr0&xcr0YMM == xcr0YMM
		case stateZMM:
			return osxsave && xcr0&xcr0All == xcr0All
		case stateAMX:
			return osxsave && xcr0&xcr0AMX == xcr0AMX
		}
		return true
	}
	type key struct{ leaf, sub uint32 }
	cache := map[key][4]uint32{}
	var out decodedFeatures
	for _, f := range featureBits {
		if !valid(f.leaf, f.subleaf) {
			continue
		}
		k := key{f.leaf, f.subleaf}
		r, ok := cache[k]
		if !ok {
			a, b, c, d := q(f.leaf, f.subleaf)
			r = [4]uint32{a, b, c, d}
			cache[k] = r
		}
		if r[f.reg]>>f.bit&1 == 0 {
			continue
		}
		if enabled(f.state) {
			out.usable = append(out.usable, f.name)
		} else {
			out.osDisabled = append(out.osDisabled, f.name)
		}
	}
	return out
}

// kernelHidden returns the features of info (sorted) whose Linux flag the
// /proc/cpuinfo text lacks; nil where the text has no flags line.
func kernelHidden(info *Info, cpuinfo []byte) []string {
	flags := map[string]bool{}
	for _, f := range strings.Fields(cpuinfoField(cpuinfo, "flags")) {
		flags[f] = true
	}
	if len(flags) == 0 {
		return nil
	}
	var out []string
	for _, f := range featureBits {
		if f.linux != "" && info.Has(f.name) && !flags[f.linux] {
			out = append(out, f.name)
		}
	}
	slices.Sort(out)
	return out
}

// cpuinfoField returns the value of the first "key : value" line in
// /proc/cpuinfo text whose key is key.
func cpuinfoField(text []byte, key string) string {
	sc := bufio.NewScanner(bytes.NewReader(text))
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if ok && strings.TrimSpace(k) == key {
			return strings.TrimSpace(v)
		}
	}
	return ""
}
