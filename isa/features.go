package isa

// Features lists the CPUID feature names portlab uses, in the spelling every
// package shares: lower case, as the Linux kernel spells them in /proc/cpuinfo
// where it has a name (sse4_1, avx512vl, sha_ni), otherwise the Intel manual's
// name lower-cased. A form's Features are drawn from this list, and the host
// detector (package hostcpu) reports the host's features with the same names.
var Features = []string{
	"x87", "cmov", "cx8", "cx16", "mmx", "sse", "sse2", "sse3", "ssse3", "sse4_1", "sse4_2", "sse4a",
	"popcnt", "lzcnt", "bmi1", "bmi2", "adx", "movbe", "lahf_lm", "rdrand", "rdseed", "rdpid",
	"aes", "pclmulqdq", "sha_ni", "f16c", "fma", "avx", "avx2", "avx_vnni",
	"avx512f", "avx512cd", "avx512vl", "avx512bw", "avx512dq", "avx512ifma", "avx512vbmi",
	"avx512_vbmi2", "avx512_vnni", "avx512_bitalg", "avx512_vpopcntdq", "avx512_bf16", "avx512_fp16",
	"gfni", "vaes", "vpclmulqdq", "fsgsbase", "rtm", "hle", "xsave", "xsaveopt", "clflushopt", "clwb",
	"prefetchw", "serialize", "movdiri", "amx_tile", "amx_int8", "amx_bf16", "invpcid", "mpx", "pku",
}

// KnownFeature reports whether name is one of Features.
func KnownFeature(name string) bool {
	for _, f := range Features {
		if f == name {
			return true
		}
	}
	return false
}
