package hostcpu

import (
	"slices"
	"strings"
	"testing"
)

// hasSet returns a has func for a feature list.
func hasSet(fs ...string) func(string) bool {
	s := setOf(fs)
	return func(f string) bool { return s[f] }
}

// Feature sets of real cores (markers only matter to Uarch).
var (
	fsHaswell = []string{"avx", "avx2", "fma", "bmi1", "bmi2"}
	fsSKX     = join(mSKX, "avx512cd", "avx512bw", "avx512dq", "avx512vl")
	fsCLX     = join(fsSKX, "avx512_vnni")
	fsCPX     = join(fsCLX, "avx512_bf16")
	fsICL     = join(mICL, "avx512cd", "avx512bw", "avx512dq", "avx512vl", "rdpid")
	fsSPR     = join(fsICL, "avx512_bf16", "avx512_fp16", "amx_tile", "amx_int8", "amx_bf16", "avx_vnni", "serialize", "tsxldtrk")
	// This project's Intel host: SPR-class features plus prefetchi and
	// avx10, amx_fp16 masked by the hypervisor.
	fsThisHost = join(fsSPR, "prefetchi", "avx10")
	fsZen3     = join(mZnver3, "bmi2", "rdpid", "pku")
	fsZen4     = join(fsZen3, "avx512f", "avx512cd", "avx512bw", "avx512dq", "avx512vl", "avx512ifma",
		"avx512vbmi", "avx512_vbmi2", "avx512_bitalg", "avx512_vnni", "avx512_vpopcntdq", "avx512_bf16", "gfni")
)

func TestUarchTable(t *testing.T) {
	tests := []struct {
		vendor        string
		family, model int
		features      []string
		want          string
	}{
		{VendorIntel, 6, 0x3c, fsHaswell, "haswell"},
		{VendorIntel, 6, 0x3f, fsHaswell, "haswell"},
		{VendorIntel, 6, 0x45, fsHaswell, "haswell"},
		{VendorIntel, 6, 0x46, fsHaswell, "haswell"},
		{VendorIntel, 6, 0x3d, mBroadwel, "broadwell"},
		{VendorIntel, 6, 0x47, mBroadwel, "broadwell"},
		{VendorIntel, 6, 0x4f, mBroadwel, "broadwell"},
		{VendorIntel, 6, 0x56, mBroadwel, "broadwell"},
		{VendorIntel, 6, 0x4e, mSkylake, "skylake"},
		{VendorIntel, 6, 0x5e, mSkylake, "skylake"},
		{VendorIntel, 6, 0x8e, mSkylake, "skylake"},
		{VendorIntel, 6, 0x9e, mSkylake, "skylake"},
		{VendorIntel, 6, 0xa5, mSkylake, "skylake"},
		{VendorIntel, 6, 0xa6, mSkylake, "skylake"},
		{VendorIntel, 6, 0x55, fsSKX, "skylake-avx512"},
		{VendorIntel, 6, 0x55, fsCLX, "cascadelake"},
		{VendorIntel, 6, 0x55, fsCPX, "cooperlake"},
		{VendorIntel, 6, 0x66, mCNL, "cannonlake"},
		{VendorIntel, 6, 0x7d, fsICL, "icelake-client"},
		{VendorIntel, 6, 0x7e, fsICL, "icelake-client"},
		{VendorIntel, 6, 0x6a, fsICL, "icelake-server"},
		{VendorIntel, 6, 0x6c, fsICL, "icelake-server"},
		{VendorIntel, 6, 0x8c, mTGL, "tigerlake"},
		{VendorIntel, 6, 0x8d, mTGL, "tigerlake"},
		{VendorIntel, 6, 0xa7, fsICL, "rocketlake"},
		{VendorIntel, 6, 0x97, mADL, "alderlake"},
		{VendorIntel, 6, 0x9a, mADL, "alderlake"},
		{VendorIntel, 6, 0xb7, mADL, "raptorlake"},
		{VendorIntel, 6, 0xba, mADL, "raptorlake"},
		{VendorIntel, 6, 0xbf, mADL, "raptorlake"},
		{VendorIntel, 6, 0xaa, mADL, "meteorlake"},
		{VendorIntel, 6, 0xac, mADL, "meteorlake"},
		{VendorIntel, 6, 0xbe, mADL, "gracemont"},
		{VendorIntel, 6, 0xc5, mSRF, "arrowlake"},
		{VendorIntel, 6, 0xc6, mARLS, "arrowlake-s"},
		{VendorIntel, 6, 0xbd, mARLS, "lunarlake"},
		{VendorIntel, 6, 0xcc, mPTL, "pantherlake"},
		{VendorIntel, 6, 0x8f, fsSPR, "sapphirerapids"},
		{VendorIntel, 6, 0xcf, fsSPR, "emeraldrapids"},
		{VendorIntel, 6, 0xad, mGNR, "graniterapids"},
		{VendorIntel, 6, 0xae, mGNRD, "graniterapids-d"},
		{VendorIntel, 6, 0xaf, mSRF, "sierraforest"},
		{VendorIntel, 6, 0xb6, mSRF, "grandridge"},
		{VendorIntel, 6, 0xdd, mCWF, "clearwaterforest"},
		{VendorIntel, 6, 0x5c, mGoldmont, "goldmont"},
		{VendorIntel, 6, 0x5f, mGoldmont, "goldmont"},
		{VendorIntel, 6, 0x7a, mGoldmont, "goldmont-plus"},
		{VendorIntel, 6, 0x86, mTremont, "tremont"},
		{VendorIntel, 6, 0x96, mTremont, "tremont"},
		{VendorIntel, 6, 0x9c, mTremont, "tremont"},
		{VendorIntel, 6, 0x4d, nil, "silvermont"},
		{VendorIntel, 6, 0x1c, nil, "bonnell"},
		{VendorIntel, 6, 0x2a, mAVX, "sandybridge"},
		{VendorIntel, 6, 0x3a, mAVX, "ivybridge"},
		{VendorIntel, 6, 0x1a, nil, "nehalem"},
		{VendorIntel, 6, 0x2c, nil, "westmere"},
		{VendorIntel, 6, 0x57, fsSKX, "knl"},
		{VendorIntel, 0x13, 0x01, mDMR, "diamondrapids"},

		{VendorAMD, 0x15, 0x01, mBdver1, "bdver1"},
		{VendorAMD, 0x15, 0x02, mBdver2, "bdver2"},
		{VendorAMD, 0x15, 0x13, mBdver2, "bdver2"},
		{VendorAMD, 0x15, 0x30, mBdver2, "bdver3"},
		{VendorAMD, 0x15, 0x65, mBdver4, "bdver4"},
		{VendorAMD, 0x16, 0x30, mBtver2, "btver2"},
		{VendorAMD, 0x14, 0x02, nil, "btver1"},
		{VendorAMD, 0x10, 0x04, nil, "amdfam10"},
		{VendorAMD, 0x17, 0x01, mZnver1, "znver1"}, // Naples
		{VendorAMD, 0x17, 0x08, mZnver1, "znver1"}, // Pinnacle Ridge (Zen+)
		{VendorAMD, 0x17, 0x11, mZnver1, "znver1"}, // Raven Ridge
		{VendorAMD, 0x17, 0x18, mZnver1, "znver1"}, // Picasso
		{VendorAMD, 0x17, 0x31, mZnver2, "znver2"}, // Rome
		{VendorAMD, 0x17, 0x47, mZnver2, "znver2"},
		{VendorAMD, 0x17, 0x60, mZnver2, "znver2"}, // Renoir
		{VendorAMD, 0x17, 0x68, mZnver2, "znver2"}, // Lucienne
		{VendorAMD, 0x17, 0x71, mZnver2, "znver2"}, // Matisse
		{VendorAMD, 0x17, 0x84, mZnver2, "znver2"},
		{VendorAMD, 0x17, 0x90, mZnver2, "znver2"},   // Van Gogh
		{VendorAMD, 0x17, 0xa0, mZnver2, "znver2"},   // Mendocino
		{VendorAMD, 0x19, 0x01, fsZen3, "znver3"},    // Milan
		{VendorAMD, 0x19, 0x21, fsZen3, "znver3"},    // Vermeer
		{VendorAMD, 0x19, 0x44, fsZen3, "znver3"},    // Rembrandt
		{VendorAMD, 0x19, 0x50, fsZen3, "znver3"},    // Cezanne
		{VendorAMD, 0x19, 0x11, fsZen4, "znver4"},    // Genoa
		{VendorAMD, 0x19, 0x18, fsZen4, "znver4"},    // Storm Peak
		{VendorAMD, 0x19, 0x61, fsZen4, "znver4"},    // Raphael
		{VendorAMD, 0x19, 0x74, fsZen4, "znver4"},    // Phoenix
		{VendorAMD, 0x19, 0x78, fsZen4, "znver4"},    // Phoenix 2
		{VendorAMD, 0x19, 0xa0, fsZen4, "znver4"},    // Bergamo
		{VendorAMD, 0x1a, 0x02, mZnver5, "znver5"},   // Turin
		{VendorAMD, 0x1a, 0x44, mZnver5, "znver5"},   // Granite Ridge
		{VendorHygon, 0x18, 0x00, mZnver1, "znver1"}, // Dhyana
		{VendorHygon, 0x18, 0x02, mZnver1, "znver1"},
	}
	for _, tc := range tests {
		for _, hyp := range []bool{false, true} {
			got, src := Uarch(tc.vendor, tc.family, tc.model, hasSet(tc.features...), hyp)
			if got != tc.want {
				t.Errorf("Uarch(%s, %#x, %#x, hyp=%v) = %q (%s), want %q", tc.vendor, tc.family, tc.model, hyp, got, src, tc.want)
			}
			if !strings.HasPrefix(src, "model table (") {
				t.Errorf("Uarch(%s, %#x, %#x, hyp=%v) source = %q, want a model-table source", tc.vendor, tc.family, tc.model, hyp, src)
			}
		}
	}
}

func TestUarchSources(t *testing.T) {
	tests := []struct {
		name          string
		vendor        string
		family, model int
		features      []string
		hyp           bool
		want, source  string
	}{
		{"plain table", VendorIntel, 6, 0x8f, fsSPR, false,
			"sapphirerapids", "model table (family 0x6 model 0x8f)"},
		{"skx refined", VendorIntel, 6, 0x55, fsCLX, false,
			"cascadelake", "model table (family 0x6 model 0x55 with avx512_vnni)"},
		{"skx plain", VendorIntel, 6, 0x55, fsSKX, false,
			"skylake-avx512", "model table (family 0x6 model 0x55 without avx512_vnni)"},
		{"amd family default", VendorAMD, 0x19, 0x90, fsZen3, false,
			"znver3", "model table (family 0x19 model 0x90, family default)"},
		// A KVM guest with SPR features and Rocket Lake's model number.
		{"masked SPR", VendorIntel, 6, 0xa7, fsSPR, true,
			"sapphirerapids", "features (model 0xa7 says rocketlake, but amx_tile/avx512_fp16 need sapphirerapids or newer; hypervisor present)"},
		// This project's Intel machine: prefetchi and AVX10.1 on top of SPR.
		{"this host", VendorIntel, 6, 0xa7, fsThisHost, true,
			"graniterapids", "features (model 0xa7 says rocketlake, but prefetchi/avx10 need graniterapids or newer; hypervisor present)"},
		{"masked GNR", VendorIntel, 6, 0x55, join(fsSPR, "amx_fp16"), true,
			"graniterapids", "features (model 0x55 says cooperlake, but amx_fp16 needs graniterapids or newer; hypervisor present)"},
		{"masked GNR-D", VendorIntel, 6, 0x8f, join(fsSPR, "amx_fp16", "amx_complex"), true,
			"graniterapids-d", "features (model 0x8f says sapphirerapids, but amx_complex needs graniterapids-d or newer; hypervisor present)"},
		// Same contradiction on bare metal: trust the table, say so.
		{"bare metal contradiction", VendorIntel, 6, 0xa7, fsSPR, false,
			"rocketlake", "model table (family 0x6 model 0xa7); features disagree: rocketlake lacks amx_tile/avx512_fp16 (sapphirerapids has them)"},
		// Fewer features than the table's core is no contradiction
		// (hypervisors mask features, they do not add them).
		{"masked avx512", VendorIntel, 6, 0x8f, fsHaswell, true,
			"sapphirerapids", "model table (family 0x6 model 0x8f)"},
		// The project's AMD machines: Zen 4 KVM guests.
		{"zen4 guest", VendorAMD, 0x19, 0x11, fsZen4, true,
			"znver4", "model table (family 0x19 model 0x11)"},
		{"zen4 masked as zen3", VendorAMD, 0x19, 0x01, fsZen4, true,
			"znver4", "features (model 0x1 says znver3, but avx512f/avx512_bf16 need znver4 or newer; hypervisor present)"},
		{"unknown intel model", VendorIntel, 6, 0xf0, fsICL, false,
			"icelake-client", "features (GenuineIntel family 0x6 model 0xf0 is not in the model table)"},
		{"unknown amd family", VendorAMD, 0x1b, 0x00, mZnver5, false,
			"znver5", "features (AuthenticAMD family 0x1b model 0x0 is not in the model table)"},
		{"Hygon", VendorHygon, 0x18, 0x00, mZnver1, false,
			"znver1", "model table (family 0x18 model 0x0, family default)"},
		{"unknown Hygon family", VendorHygon, 0x19, 0x00, mZnver3, false,
			"znver3", "features (HygonGenuine family 0x19 model 0x0 is not in the model table)"},
		{"unknown vendor", "CentaurHauls", 0x7, 0x3b, mZnver1, false,
			"generic", "unknown (CentaurHauls family 0x7 model 0x3b is not in the model table and the features match no known core)"},
		{"impossible mix", VendorIntel, 6, 0xa7, join(fsSPR, "fma4"), true,
			"sapphirerapids", "features (model 0xa7 says rocketlake, but amx_tile/avx512_fp16 need sapphirerapids or newer; hypervisor present)"},
		{"no core has all", VendorAMD, 0x19, 0x11, join(fsZen4, "amx_tile"), true,
			"znver4", "model table (family 0x19 model 0x11); features disagree: znver4 lacks amx_tile, and no known core has them all; hypervisor present"},
		{"no core has all (intel)", VendorIntel, 6, 0x8c, join(mTGL, "avx_vnni"), true,
			"tigerlake", "model table (family 0x6 model 0x8c); features disagree: tigerlake lacks avx_vnni, and no known core has them all; hypervisor present"},
		// Alder Lake with AVX-512 enabled, in a VM: every marker is in
		// some older core, only their combination needs sapphirerapids.
		{"combination only", VendorIntel, 6, 0x97, join(mADL, "avx512f"), true,
			"sapphirerapids", "features (model 0x97 says alderlake, which lacks avx512f; the oldest core with them all is sapphirerapids; hypervisor present)"},
	}
	for _, tc := range tests {
		got, src := Uarch(tc.vendor, tc.family, tc.model, hasSet(tc.features...), tc.hyp)
		if got != tc.want || src != tc.source {
			t.Errorf("%s: Uarch = %q, %q\nwant %q, %q", tc.name, got, src, tc.want, tc.source)
		}
	}
}

// TestCoreOrder checks the candidate lists: every core's markers are
// known markers of its vendor, names are unique, and each table name is
// known to markerSet (so contradictions can be judged for every row).
func TestCoreOrder(t *testing.T) {
	for _, vendor := range []string{VendorIntel, VendorAMD} {
		cores, markers := vendorCores(vendor)
		known := setOf(markers)
		seen := map[string]bool{}
		for _, c := range cores {
			if seen[c.name] {
				t.Errorf("%s: core %q listed twice", vendor, c.name)
			}
			seen[c.name] = true
			for _, m := range c.markers {
				if !known[m] {
					t.Errorf("%s: core %q marker %q is not in the vendor's marker list", vendor, c.name, m)
				}
			}
		}
	}
	for _, r := range modelTable {
		if _, ok := markerSet(r.vendor, r.name); !ok {
			t.Errorf("table row %s family %#x -> %q: core unknown to markerSet", r.vendor, r.family, r.name)
		}
	}
	for _, name := range []string{"cascadelake", "cooperlake"} {
		if _, ok := markerSet(VendorIntel, name); !ok {
			t.Errorf("refined name %q unknown to markerSet", name)
		}
	}
}

func TestMicroarchsListsEveryName(t *testing.T) {
	intel, amd := Microarchs(VendorIntel), Microarchs(VendorAMD)
	for _, want := range []string{"haswell", "cascadelake", "cooperlake", "icelake-server", "emeraldrapids", "bonnell", "knl", "gracemont"} {
		if !slices.Contains(intel, want) {
			t.Errorf("Intel: %s missing from %v", want, intel)
		}
	}
	for _, want := range []string{"k8", "bdver4", "znver1", "znver4", "znver5"} {
		if !slices.Contains(amd, want) {
			t.Errorf("AMD: %s missing from %v", want, amd)
		}
	}
	if slices.Contains(intel, "znver3") || slices.Contains(amd, "skylake") || !slices.IsSorted(intel) {
		t.Errorf("vendors mixed or unsorted: %v / %v", intel, amd)
	}
	// Every name the model table gives is listed.
	for _, r := range modelTable {
		if !slices.Contains(Microarchs(r.vendor), r.name) {
			t.Errorf("%s (%s family 0x%x) not listed", r.name, r.vendor, r.family)
		}
	}
	if h := Microarchs(VendorHygon); !slices.Contains(h, "znver1") {
		t.Errorf("Hygon: %v, want znver1 among them", h)
	}
	if len(Microarchs("CentaurHauls")) != 0 {
		t.Error("an unknown vendor has names")
	}
}
