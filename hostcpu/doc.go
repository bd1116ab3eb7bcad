// Package hostcpu identifies the host CPU: vendor, family/model/stepping,
// the LLVM -mcpu name of its microarchitecture (and how that was decided),
// CPUID features usable under the running OS, hypervisor, TSC frequency and
// invariance, clock source, caches, kernel and microcode, and whether
// hardware cycle counters can be opened.
//
// It is a package of its own because several commands need host identity
// (measure, build, validate, cpu) while the packages that would otherwise
// hold it must not: isa must not know about the host, and perf must not
// know about instructions.
//
// Features are decoded from CPUID bits, never from /proc/cpuinfo, and are
// spelled as isa.Features spells them (the Linux /proc/cpuinfo names, lower
// case, except lzcnt for Linux's abm, prefetchw for 3dnowprefetch, sse3 for
// pni and x87 for fpu). Info.Features also holds extensions isa.Features
// does not list (erms, fsrm, rdtscp, xsavec, cldemote, tsxldtrk, amx_fp16,
// prefetchi, avx10, ...), spelled the same way; they serve to tell cores
// apart. Features whose register state the OS has not enabled in XCR0
// (AVX, AVX-512, AMX) are left out and listed in Info.OSDisabled. (For AMX,
// Linux also wants each process to ask with arch_prctl(ARCH_REQ_XCOMP_PERM)
// before it runs a tile instruction.)
//
// The microarchitecture comes from a (vendor, family, model) table modelled
// on LLVM's getHostCPUName. Hypervisors often report a model number that
// is not the silicon's: when a hypervisor is present and the features
// contradict the table's core, Uarch picks the oldest core consistent with
// the features and says so in the source string.
package hostcpu
