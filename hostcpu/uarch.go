package hostcpu

import (
	"fmt"
	"sort"
	"strings"
)

// Vendor strings as CPUID leaf 0 reports them.
const (
	VendorIntel = "GenuineIntel"
	VendorAMD   = "AuthenticAMD"
	// VendorHygon is Hygon's Dhyana, a Zen 1 core made under licence: it
	// keeps AMD's CPUID leaves and feature bits.
	VendorHygon = "HygonGenuine"
)

// modelRange maps a (vendor, family, model range) to an LLVM -mcpu name.
type modelRange struct {
	vendor     string
	family     int
	lo, hi     int  // model range, inclusive
	familyWide bool // the family's default when no other range matches (as LLVM does)
	name       string
}

// modelTable follows LLVM's getHostCPUName (llvm/lib/TargetParser/Host.cpp):
// getIntelProcessorTypeAndSubtype and getAMDProcessorTypeAndSubtype. The
// first matching row wins; family-wide rows come last in their family.
// Family 6 model 0x55 (Skylake server) is refined by features in Uarch:
// avx512_bf16 means cooperlake, avx512_vnni cascadelake.
var modelTable = []modelRange{
	// Intel family 6.
	{VendorIntel, 6, 0x0f, 0x0f, false, "core2"},
	{VendorIntel, 6, 0x16, 0x16, false, "core2"},
	{VendorIntel, 6, 0x17, 0x17, false, "penryn"},
	{VendorIntel, 6, 0x1d, 0x1d, false, "penryn"},
	{VendorIntel, 6, 0x1a, 0x1a, false, "nehalem"},
	{VendorIntel, 6, 0x1e, 0x1f, false, "nehalem"},
	{VendorIntel, 6, 0x2e, 0x2e, false, "nehalem"},
	{VendorIntel, 6, 0x25, 0x25, false, "westmere"},
	{VendorIntel, 6, 0x2c, 0x2c, false, "westmere"},
	{VendorIntel, 6, 0x2f, 0x2f, false, "westmere"},
	{VendorIntel, 6, 0x2a, 0x2a, false, "sandybridge"},
	{VendorIntel, 6, 0x2d, 0x2d, false, "sandybridge"},
	{VendorIntel, 6, 0x3a, 0x3a, false, "ivybridge"},
	{VendorIntel, 6, 0x3e, 0x3e, false, "ivybridge"},
	{VendorIntel, 6, 0x3c, 0x3c, false, "haswell"},
	{VendorIntel, 6, 0x3f, 0x3f, false, "haswell"},
	{VendorIntel, 6, 0x45, 0x46, false, "haswell"},
	{VendorIntel, 6, 0x3d, 0x3d, false, "broadwell"},
	{VendorIntel, 6, 0x47, 0x47, false, "broadwell"},
	{VendorIntel, 6, 0x4f, 0x4f, false, "broadwell"},
	{VendorIntel, 6, 0x56, 0x56, false, "broadwell"},
	{VendorIntel, 6, 0x4e, 0x4e, false, "skylake"}, // Skylake mobile
	{VendorIntel, 6, 0x5e, 0x5e, false, "skylake"}, // Skylake desktop
	{VendorIntel, 6, 0x8e, 0x8e, false, "skylake"}, // Kaby/Coffee/Whiskey/Amber Lake mobile
	{VendorIntel, 6, 0x9e, 0x9e, false, "skylake"}, // Kaby/Coffee Lake desktop
	{VendorIntel, 6, 0xa5, 0xa6, false, "skylake"}, // Comet Lake
	{VendorIntel, 6, 0xa7, 0xa7, false, "rocketlake"},
	{VendorIntel, 6, 0x55, 0x55, false, "skylake-avx512"}, // refined: cascadelake, cooperlake
	{VendorIntel, 6, 0x66, 0x66, false, "cannonlake"},
	{VendorIntel, 6, 0x7d, 0x7e, false, "icelake-client"},
	{VendorIntel, 6, 0x8c, 0x8d, false, "tigerlake"},
	{VendorIntel, 6, 0x97, 0x97, false, "alderlake"},
	{VendorIntel, 6, 0x9a, 0x9a, false, "alderlake"},
	{VendorIntel, 6, 0xbe, 0xbe, false, "gracemont"}, // Alder Lake-N
	{VendorIntel, 6, 0xb7, 0xb7, false, "raptorlake"},
	{VendorIntel, 6, 0xba, 0xba, false, "raptorlake"},
	{VendorIntel, 6, 0xbf, 0xbf, false, "raptorlake"},
	{VendorIntel, 6, 0xaa, 0xaa, false, "meteorlake"},
	{VendorIntel, 6, 0xac, 0xac, false, "meteorlake"},
	{VendorIntel, 6, 0xc5, 0xc5, false, "arrowlake"},
	{VendorIntel, 6, 0xb5, 0xb5, false, "arrowlake"}, // Arrow Lake U
	{VendorIntel, 6, 0xc6, 0xc6, false, "arrowlake-s"},
	{VendorIntel, 6, 0xbd, 0xbd, false, "lunarlake"},
	{VendorIntel, 6, 0xcc, 0xcc, false, "pantherlake"},
	{VendorIntel, 6, 0x6a, 0x6a, false, "icelake-server"},
	{VendorIntel, 6, 0x6c, 0x6c, false, "icelake-server"},
	{VendorIntel, 6, 0x8f, 0x8f, false, "sapphirerapids"},
	{VendorIntel, 6, 0xcf, 0xcf, false, "emeraldrapids"},
	{VendorIntel, 6, 0xad, 0xad, false, "graniterapids"},
	{VendorIntel, 6, 0xae, 0xae, false, "graniterapids-d"},
	{VendorIntel, 6, 0x1c, 0x1c, false, "bonnell"},
	{VendorIntel, 6, 0x26, 0x27, false, "bonnell"},
	{VendorIntel, 6, 0x35, 0x36, false, "bonnell"},
	{VendorIntel, 6, 0x37, 0x37, false, "silvermont"},
	{VendorIntel, 6, 0x4a, 0x4a, false, "silvermont"},
	{VendorIntel, 6, 0x4c, 0x4d, false, "silvermont"}, // 0x4c is really Airmont
	{VendorIntel, 6, 0x5a, 0x5a, false, "silvermont"},
	{VendorIntel, 6, 0x5d, 0x5d, false, "silvermont"},
	{VendorIntel, 6, 0x5c, 0x5c, false, "goldmont"}, // Apollo Lake
	{VendorIntel, 6, 0x5f, 0x5f, false, "goldmont"}, // Denverton
	{VendorIntel, 6, 0x7a, 0x7a, false, "goldmont-plus"},
	{VendorIntel, 6, 0x86, 0x86, false, "tremont"},
	{VendorIntel, 6, 0x8a, 0x8a, false, "tremont"}, // Lakefield
	{VendorIntel, 6, 0x96, 0x96, false, "tremont"}, // Elkhart Lake
	{VendorIntel, 6, 0x9c, 0x9c, false, "tremont"}, // Jasper Lake
	{VendorIntel, 6, 0xaf, 0xaf, false, "sierraforest"},
	{VendorIntel, 6, 0xb6, 0xb6, false, "grandridge"},
	{VendorIntel, 6, 0xdd, 0xdd, false, "clearwaterforest"},
	{VendorIntel, 6, 0x57, 0x57, false, "knl"},
	{VendorIntel, 6, 0x85, 0x85, false, "knm"},
	// Intel family 0x13.
	{VendorIntel, 0x13, 0x01, 0x01, false, "diamondrapids"},

	// AMD.
	{VendorAMD, 0x0f, 0, 0xff, true, "k8"},
	{VendorAMD, 0x10, 0, 0xff, true, "amdfam10"},
	{VendorAMD, 0x12, 0, 0xff, true, "amdfam10"},
	{VendorAMD, 0x14, 0, 0xff, true, "btver1"},
	{VendorAMD, 0x15, 0x60, 0x7f, false, "bdver4"}, // Excavator
	{VendorAMD, 0x15, 0x30, 0x3f, false, "bdver3"}, // Steamroller
	{VendorAMD, 0x15, 0x02, 0x02, false, "bdver2"}, // Piledriver
	{VendorAMD, 0x15, 0x10, 0x1f, false, "bdver2"},
	{VendorAMD, 0x15, 0x00, 0x0f, false, "bdver1"}, // Bulldozer
	{VendorAMD, 0x15, 0, 0xff, true, "bdver1"},
	{VendorAMD, 0x16, 0, 0xff, true, "btver2"},
	{VendorAMD, 0x17, 0x30, 0x3f, false, "znver2"}, // Starship
	{VendorAMD, 0x17, 0x47, 0x47, false, "znver2"}, // Cardinal
	{VendorAMD, 0x17, 0x60, 0x7f, false, "znver2"}, // Renoir, Lucienne, Matisse
	{VendorAMD, 0x17, 0x84, 0x87, false, "znver2"}, // ProjectX
	{VendorAMD, 0x17, 0x90, 0x9f, false, "znver2"}, // VanGogh, Mero
	{VendorAMD, 0x17, 0xa0, 0xaf, false, "znver2"}, // Mendocino
	{VendorAMD, 0x17, 0x00, 0x2f, false, "znver1"}, // Naples, Raven, Picasso, Pinnacle
	{VendorAMD, 0x17, 0, 0xff, true, "znver1"},
	{VendorAMD, 0x19, 0x00, 0x0f, false, "znver3"}, // Genesis, Chagall
	{VendorAMD, 0x19, 0x20, 0x5f, false, "znver3"}, // Vermeer, Badami, Rembrandt, Cezanne
	{VendorAMD, 0x19, 0x10, 0x1f, false, "znver4"}, // Stones (Genoa), Storm Peak
	{VendorAMD, 0x19, 0x60, 0x7f, false, "znver4"}, // Raphael, Phoenix, Hawk Point
	{VendorAMD, 0x19, 0xa0, 0xaf, false, "znver4"}, // Stones-Dense (Bergamo, Siena)
	{VendorAMD, 0x19, 0, 0xff, true, "znver3"},
	{VendorAMD, 0x1a, 0, 0xff, true, "znver5"},
	// Hygon (GCC's driver names family 0x18 znver1 too).
	{VendorHygon, 0x18, 0, 0xff, true, "znver1"}, // Dhyana
}

// core is one microarchitecture as far as its ISA extensions go: the
// marker features (below) it implements. Cores are listed oldest first
// per vendor; Uarch picks the oldest consistent one.
type core struct {
	name    string
	markers []string
}

// intelMarkers and amdMarkers are the features that tell the vendor's
// cores apart, most telling first (the order the source string cites
// them in). A host feature in this list that the table's core lacks is a
// contradiction. Features whose presence varies within a core (hle, rtm,
// pku, waitpkg, cldemote, ...) are deliberately absent.
var intelMarkers = []string{
	"amx_complex", "amx_fp16", "prefetchi", "avx10", "amx_tile", "avx512_fp16", "amx_bf16", "amx_int8",
	"tsxldtrk", "avx512_vp2intersect", "avx_vnni_int16", "sha512", "sm3", "sm4", "avx_ifma",
	"avx_vnni_int8", "avx_ne_convert", "cmpccxadd", "avx_vnni", "serialize", "avx512_bf16",
	"avx512_vbmi2", "avx512_bitalg", "avx512_vpopcntdq", "avx512_vnni", "avx512vbmi", "avx512ifma",
	"avx512f", "gfni", "vaes", "vpclmulqdq", "sha_ni", "clflushopt", "adx", "rdseed", "avx2", "fma", "avx",
}

var amdMarkers = []string{
	"amx_tile", "avx512_fp16", "avx512_vp2intersect", "avx_vnni", "movdiri", "movdir64b", "avx512f",
	"avx512_bf16", "avx512_vnni", "gfni", "vaes", "vpclmulqdq", "clwb", "rdpid", "sha_ni", "clflushopt",
	"adx", "rdseed", "avx2", "tbm", "fma", "fma4", "xop", "avx",
}

// Intel marker sets, built up the way the cores grew.
var (
	mAVX      = []string{"avx"}
	mHaswell  = join(mAVX, "avx2", "fma")
	mBroadwel = join(mHaswell, "adx", "rdseed")
	mSkylake  = join(mBroadwel, "clflushopt")
	mSKX      = join(mSkylake, "avx512f")
	mCLX      = join(mSKX, "avx512_vnni")
	mCPX      = join(mCLX, "avx512_bf16")
	mCNL      = join(mSKX, "avx512vbmi", "avx512ifma", "sha_ni")
	mICL      = join(mCNL, "avx512_vbmi2", "avx512_bitalg", "avx512_vnni", "avx512_vpopcntdq", "gfni", "vaes", "vpclmulqdq")
	mTGL      = join(mICL, "avx512_vp2intersect")
	mSPR      = join(mICL, "avx512_bf16", "avx512_fp16", "amx_tile", "amx_int8", "amx_bf16", "avx_vnni", "serialize", "tsxldtrk")
	mGNR      = join(mSPR, "amx_fp16", "prefetchi", "avx10")
	mGNRD     = join(mGNR, "amx_complex")
	mADL      = join(mSkylake, "sha_ni", "gfni", "vaes", "vpclmulqdq", "avx_vnni", "serialize")
	mSRF      = join(mADL, "avx_ifma", "avx_vnni_int8", "avx_ne_convert", "cmpccxadd")
	mARLS     = join(mSRF, "avx_vnni_int16", "sha512", "sm3", "sm4")
	mPTL      = join(mARLS, "prefetchi")
	mCWF      = join(mARLS, "prefetchi")
	mDMR      = join(mGNRD, "avx_ifma", "avx_vnni_int8", "avx_ne_convert", "cmpccxadd", "avx_vnni_int16", "sha512", "sm3", "sm4")
	mGoldmont = []string{"sha_ni", "rdseed", "clflushopt"}
	mTremont  = join(mGoldmont, "gfni")
)

// intelCores lists Intel cores oldest first (by launch).
var intelCores = []core{
	{"core2", nil}, {"penryn", nil}, {"nehalem", nil}, {"westmere", nil},
	{"sandybridge", mAVX}, {"ivybridge", mAVX}, {"haswell", mHaswell}, {"broadwell", mBroadwel},
	{"skylake", mSkylake}, {"goldmont", mGoldmont}, {"skylake-avx512", mSKX}, {"goldmont-plus", mGoldmont},
	{"cannonlake", mCNL}, {"cascadelake", mCLX}, {"icelake-client", mICL}, {"tremont", mTremont},
	{"cooperlake", mCPX}, {"tigerlake", mTGL}, {"icelake-server", mICL}, {"rocketlake", mICL},
	{"alderlake", mADL}, {"gracemont", mADL}, {"raptorlake", mADL}, {"sapphirerapids", mSPR},
	{"meteorlake", mADL}, {"emeraldrapids", mSPR}, {"sierraforest", mSRF}, {"grandridge", mSRF},
	{"graniterapids", mGNR}, {"arrowlake", mSRF}, {"arrowlake-s", mARLS}, {"lunarlake", mARLS},
	{"graniterapids-d", mGNRD}, {"clearwaterforest", mCWF}, {"pantherlake", mPTL}, {"diamondrapids", mDMR},
}

// AMD marker sets.
var (
	mBtver2 = []string{"avx"}
	mBdver1 = []string{"avx", "fma4", "xop"}
	mBdver2 = join(mBdver1, "fma", "tbm")
	mBdver4 = join(mBdver2, "avx2")
	mZnver1 = []string{"avx", "avx2", "fma", "adx", "rdseed", "sha_ni", "clflushopt"}
	mZnver2 = join(mZnver1, "clwb", "rdpid")
	mZnver3 = join(mZnver2, "vaes", "vpclmulqdq")
	mZnver4 = join(mZnver3, "avx512f", "avx512_bf16", "avx512_vnni", "gfni")
	mZnver5 = join(mZnver4, "avx_vnni", "avx512_vp2intersect", "movdiri", "movdir64b")
)

// amdCores lists AMD cores oldest first.
var amdCores = []core{
	{"k8", nil}, {"amdfam10", nil}, {"btver1", nil}, {"bdver1", mBdver1}, {"btver2", mBtver2},
	{"bdver2", mBdver2}, {"bdver3", mBdver2}, {"bdver4", mBdver4}, {"znver1", mZnver1},
	{"znver2", mZnver2}, {"znver3", mZnver3}, {"znver4", mZnver4}, {"znver5", mZnver5},
}

// knownOnly are table names that feature-based guessing never picks
// (early Atoms and Xeon Phi), with their markers.
var knownOnly = map[string][]string{
	"bonnell":    nil,
	"silvermont": nil,
	"knl":        join(mSKX, "avx512pf", "avx512er"),
	"knm":        join(mSKX, "avx512pf", "avx512er"),
}

// Microarchs lists every name Uarch can return for a vendor's CPUs
// (GenuineIntel or AuthenticAMD; "generic" aside), sorted, so that what
// is chosen per microarchitecture (a model to start from) can be checked
// for each of them.
func Microarchs(vendor string) []string {
	seen := map[string]bool{}
	cores, _ := vendorCores(vendor)
	for _, c := range cores {
		seen[c.name] = true
	}
	for _, r := range modelTable {
		if r.vendor == vendor {
			seen[r.name] = true
		}
	}
	if vendor == VendorIntel {
		for n := range knownOnly {
			seen[n] = true
		}
	}
	out := make([]string, 0, len(seen))
	for n := range seen {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

func join(base []string, more ...string) []string {
	out := make([]string, 0, len(base)+len(more))
	out = append(out, base...)
	return append(out, more...)
}

// vendorCores returns the vendor's cores (oldest first) and marker list.
func vendorCores(vendor string) ([]core, []string) {
	switch vendor {
	case VendorIntel:
		return intelCores, intelMarkers
	case VendorAMD, VendorHygon:
		return amdCores, amdMarkers
	}
	return nil, nil
}

// lookupModel returns the table's name for (vendor, family, model), whether
// the row was a family-wide default, and ok.
func lookupModel(vendor string, family, model int) (name string, familyWide, ok bool) {
	for _, r := range modelTable {
		if r.vendor == vendor && r.family == family && model >= r.lo && model <= r.hi {
			return r.name, r.familyWide, true
		}
	}
	return "", false, false
}

// Uarch names the microarchitecture of a (vendor, family, model) CPU with
// features has, as an LLVM -mcpu name, and says how it decided.
//
// It looks the model up in a table modelled on LLVM's getHostCPUName (Intel
// family 6 model 0x55 is split by features into skylake-avx512, cascadelake
// and cooperlake, as LLVM does). When hypervisor is true and the host has
// marker features the table's core cannot have (AMX on rocketlake, AVX-512 on
// znver3), the model number is the hypervisor's invention: Uarch then picks
// the oldest core whose features include all the host's markers. A model not
// in the table is guessed the same way. "generic" means no guess was possible.
func Uarch(vendor string, family, model int, has func(string) bool, hypervisor bool) (name, source string) {
	if has == nil {
		has = func(string) bool { return false }
	}
	where := fmt.Sprintf("family 0x%x model 0x%x", family, model)
	tname, familyWide, ok := lookupModel(vendor, family, model)
	if !ok {
		if g, _ := oldestConsistent(vendor, has); g != "" {
			return g, fmt.Sprintf("features (%s %s is not in the model table)", vendorShort(vendor), where)
		}
		return "generic", fmt.Sprintf("unknown (%s %s is not in the model table and the features match no known core)", vendorShort(vendor), where)
	}
	tsource := "model table (" + where + ")"
	if familyWide {
		tsource = "model table (" + where + ", family default)"
	}
	if vendor == VendorIntel && family == 6 && model == 0x55 {
		switch {
		case has("avx512_bf16"):
			tname, tsource = "cooperlake", "model table ("+where+" with avx512_bf16)"
		case has("avx512_vnni"):
			tname, tsource = "cascadelake", "model table ("+where+" with avx512_vnni)"
		default:
			tsource = "model table (" + where + " without avx512_vnni)"
		}
	}
	conflicts := contradictions(vendor, tname, has)
	if len(conflicts) == 0 {
		return tname, tsource
	}
	g, decisive := oldestConsistent(vendor, has)
	if !hypervisor {
		msg := tsource + "; features disagree: " + tname + " lacks " + cite(conflicts)
		if g != "" {
			msg += " (" + g + " has them)"
		}
		return tname, msg
	}
	if g == "" {
		return tname, fmt.Sprintf("%s; features disagree: %s lacks %s, and no known core has them all; hypervisor present", tsource, tname, cite(conflicts))
	}
	if len(decisive) > 0 {
		verb := "need"
		if len(decisive) == 1 {
			verb = "needs"
		}
		return g, fmt.Sprintf("features (model 0x%x says %s, but %s %s %s or newer; hypervisor present)", model, tname, cite(decisive), verb, g)
	}
	return g, fmt.Sprintf("features (model 0x%x says %s, which lacks %s; the oldest core with them all is %s; hypervisor present)", model, tname, cite(conflicts), g)
}

func vendorShort(v string) string {
	if v == "" {
		return "unknown vendor"
	}
	return v
}

// markerSet returns the marker features of core name, and whether the
// vendor knows the core.
func markerSet(vendor, name string) (map[string]bool, bool) {
	cores, _ := vendorCores(vendor)
	for _, c := range cores {
		if c.name == name {
			return setOf(c.markers), true
		}
	}
	if m, ok := knownOnly[name]; ok {
		return setOf(m), true
	}
	return nil, false
}

func setOf(list []string) map[string]bool {
	s := make(map[string]bool, len(list))
	for _, f := range list {
		s[f] = true
	}
	return s
}

// contradictions lists (in marker order) the vendor's marker features the
// host has and core name lacks.
func contradictions(vendor, name string, has func(string) bool) []string {
	set, ok := markerSet(vendor, name)
	if !ok {
		return nil
	}
	_, markers := vendorCores(vendor)
	var out []string
	for _, m := range markers {
		if has(m) && !set[m] {
			out = append(out, m)
		}
	}
	return out
}

// oldestConsistent returns the oldest core of the vendor whose markers
// include every marker the host has, and the host markers no older core
// has (the features that decided it), in marker order.
func oldestConsistent(vendor string, has func(string) bool) (string, []string) {
	cores, markers := vendorCores(vendor)
	var host []string
	for _, m := range markers {
		if has(m) {
			host = append(host, m)
		}
	}
	seen := map[string]bool{} // markers of all older cores
	for _, c := range cores {
		set := setOf(c.markers)
		all := true
		for _, m := range host {
			if !set[m] {
				all = false
				break
			}
		}
		if all {
			var decisive []string
			for _, m := range host {
				if !seen[m] {
					decisive = append(decisive, m)
				}
			}
			return c.name, decisive
		}
		for m := range set {
			seen[m] = true
		}
	}
	return "", nil
}

// cite names at most two features, slash-separated.
func cite(fs []string) string {
	if len(fs) > 2 {
		fs = fs[:2]
	}
	return strings.Join(fs, "/")
}
