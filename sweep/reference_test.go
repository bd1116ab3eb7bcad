package sweep

import (
	"fmt"
	"math"
	"os"
	"sort"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"portlab/internal/retry"
	"portlab/isa"
)

// published is testdata/reference/published.yaml: uops.info's numbers for
// well-known forms on three core families.
type published struct {
	Forms []struct {
		Form            string        `yaml:"form"`
		Addressing      string        `yaml:"addressing"` // lea: the address shape measured
		LatencyOperands *string       `yaml:"latency_operands"`
		GoldenCove      *publishedCol `yaml:"goldencove"`
		Zen4            *publishedCol `yaml:"zen4"`
		Zen3            *publishedCol `yaml:"zen3"`
	} `yaml:"forms"`
}

type publishedCol struct {
	Latency      *float64  `yaml:"latency"`
	LatencyRange []float64 `yaml:"latency_range"`
	UpperBound   bool      `yaml:"latency_upper_bound"`
	Throughput   *float64  `yaml:"throughput"`
	Source       string    `yaml:"source"`
}

// referenceClass maps an LLVM cpu name to the fixture's core column.
func referenceClass(uarch string) string {
	switch uarch {
	case "znver4", "znver5":
		return "zen4"
	case "znver3":
		return "zen3"
	case "alderlake", "raptorlake", "sapphirerapids", "emeraldrapids", "graniterapids", "graniterapids-d", "meteorlake":
		return "goldencove"
	}
	return ""
}

// methodDeviations are differences that follow from how portlab measures,
// on every core: they are checked against the bound the method implies.
var methodDeviations = map[string]string{}

// hostDeviations are differences between the published column and what
// portlab measured on a host of that class, each checked to still be there
// (a fixed measurement must leave this list). The published goldencove
// column is the client Alder Lake-P core; the graniterapids and
// emeraldrapids entries were measured on this project's KVM guests of
// those servers.
var hostDeviations = map[string]map[string]string{
	"graniterapids": {
		"vaddpd ymm, ymm, ymm latency":         "2 cycles here, 3 published for Alder Lake-P: the server core's FP adders",
		"vmulpd ymm, ymm, ymm latency":         "3 cycles here, 4 published for Alder Lake-P",
		"mulsd xmm, xmm latency":               "3 cycles here, 4 published for Alder Lake-P",
		"vaddpd zmm, zmm, zmm latency":         "3.5 cycles here (stable: 512-bit adds split between a 2- and a 4-cycle unit?), 3 published for Alder Lake-P",
		"vfmadd231pd zmm, zmm, zmm throughput": "0.5 here: the server core has two 512-bit FMA units; the client Alder Lake-P one (1.0 published)",
		"lea r64, m throughput":                "0.16 here (six address units for a two-component lea), 0.2 published",
		"div r64 latency":                      "15 cycles here for small dividends (rdx cleared each time), 14 published",
	},
	// Measured on an Emerald Rapids KVM guest (GenuineIntel-6-cf-2, the
	// Golden Cove server core), 2026-11-26, four runs with a busy
	// neighbour (84 % of repetitions disturbed): 78 of 83 numbers agree
	// with the client column. Unlike the Granite Rapids guests, the
	// multiplies keep the published 4-cycle latency.
	"emeraldrapids": {
		"vaddpd ymm, ymm, ymm latency":         "2 cycles here, 3 published for Alder Lake-P: the server core's FP adders",
		"vaddpd zmm, zmm, zmm latency":         "3.5 cycles here in every run (as on Granite Rapids), 3 published for Alder Lake-P",
		"vfmadd231pd zmm, zmm, zmm throughput": "0.5 here: the server core has two 512-bit FMA units; the client Alder Lake-P one (1.0 published)",
		"lea r64, m throughput":                "0.17 here (portlab's [base+disp8] lea), 0.2 published for a base+index lea",
		"div r64 latency":                      "15 cycles here for small dividends (rdx cleared each time), 14 published",
	},
	// Measured on this project's Zen 4 KVM guests (AuthenticAMD-19-11-1,
	// EPYC Genoa), 2026-11-25 and 2026-11-29: 85 of 89 numbers agree with
	// uops.info.
	"znver4": {
		"adc r64, r64 throughput":                   "0.333 here: adc plus the zero idiom that breaks its carry chain fill the 6-wide dispatch, so adc issues on at least three ALUs; 0.50 published",
		"vpternlogd zmm, zmm, zmm, imm8 throughput": "0.61 here run after run (24 independent instances, three 512-bit register sources each), 0.56 published",
		"movaps xmm, xmm latency":                   "0.167 here: a chain of eliminated moves runs at the rename width (6 a cycle); published 0",
	},
}

// hostRange is a number that differs between hosts of one core and
// signature: each end was measured on a host of the class, and the
// measurement must lie within the range (give or take the check's
// tolerance), whichever end it is near.
type hostRange struct {
	lo, hi float64
	why    string
}

// hostRanges are hostDeviations whose value moves between processes on
// one host, each process's value converged: the measurement must lie in
// the range seen.
var hostRanges = map[string]map[string]hostRange{
	"znver4": {
		// Zen 4 guest (AuthenticAMD-19-11-1), 2026-11-29, about 40
		// processes: 4.50 or 5.00 about half each, three 4.21-4.44;
		// not by CPU, nor by what the process measured before it;
		// vdivpd zmm 9.0 in all of them.
		"vdivpd ymm, ymm, ymm throughput": {4.5, 5.0, "4.5 or 5.0 (the published value) from one process to the next on the Zen 4 guest, each converged"},
	},
}

// sameCore names, for a host without a verified list, the verified host
// of the same core whose explanations the report quotes: Sapphire Rapids
// has Emerald Rapids' Golden Cove server core.
var sameCore = map[string]string{"sapphirerapids": "emeraldrapids"}

// TestPublishedNumbers measures the fixture's forms and compares them with
// the published numbers of the host's core class. On a host with a
// verified deviation list (hostDeviations: measured on that core and each
// difference explained) every difference must be explained. On any other
// host of a class the fixture has, the differences are reported and do
// not fail: the published column is another core of the class (the
// goldencove column is the client Alder Lake-P core; Sapphire Rapids and
// Emerald Rapids servers differ from it in their FP adders, FMA units and
// dividers), and nobody has checked which differences are the core's.
func TestPublishedNumbers(t *testing.T) {
	e, h := hostEngine(t)
	class := referenceClass(h.Microarch)
	if class == "" {
		t.Skipf("no published reference column for %s", h.Microarch)
	}
	data, err := os.ReadFile("../testdata/reference/published.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var ref published
	if err := yaml.Unmarshal(data, &ref); err != nil {
		t.Fatal(err)
	}
	if len(ref.Forms) < 30 {
		t.Fatalf("fixture has %d forms, want at least 30", len(ref.Forms))
	}
	var globs []string
	for _, f := range ref.Forms {
		globs = append(globs, f.Form)
	}
	forms, err := Select(globs, h.Has)
	if err != nil {
		t.Fatal(err)
	}
	known, verified := hostDeviations[h.Microarch]
	ranges := hostRanges[h.Microarch]
	verified = verified || ranges != nil
	var mismatches, explained []string
	checked := 0
	tries := 5
	if !verified {
		tries = 1 // differences are reported, not failed: nothing to retry for
	}
	retry.Measuring(tries, func(try int) bool {
		if try > 0 {
			e.Runner.Close() // a fresh worker: steady states are per process (see ports_test.go)
		}
		o := options(h)
		o.Forms = forms
		// As bench and characterize measure: an integer memory form's
		// throughput is the fastest converged of 3 passes in 2 rounds (a
		// single pass of mov m64, r64 read 0.63-0.66 on the Zen 4 guest
		// without AVX-512 where the passes beside it read 0.50), a vector
		// load-op's the median of 3.
		o.MemoryPasses, o.MemoryRounds, o.LoadOpPasses = 3, 2, 3
		sum, err := Run(e, o)
		if err != nil {
			t.Fatal(err)
		}
		byForm := map[string]*FormSummary{}
		for _, s := range Summarize(sum.Results) {
			byForm[s.Form] = s
		}
		mismatches, explained, checked = nil, nil, 0
		seen := map[string]bool{}
		for _, f := range ref.Forms {
			pub := map[string]*publishedCol{"goldencove": f.GoldenCove, "zen4": f.Zen4, "zen3": f.Zen3}[class]
			s := byForm[f.Form]
			name := f.Form
			if s != nil && f.Addressing != "" {
				s, name = s.Addressing[f.Addressing], f.Form+" ["+f.Addressing+"]"
			}
			if pub == nil || s == nil {
				continue
			}
			check := func(what string, got float64, ok bool, why string) {
				key := name + " " + what
				checked++
				seen[key] = true
				if r, ranged := ranges[key]; ranged {
					lo, hi := r.lo-rangeTolerance(what, r.lo), r.hi+rangeTolerance(what, r.hi)
					if got >= lo && got <= hi {
						explained = append(explained, fmt.Sprintf("%s: %.3f (within %.3g..%.3g seen on this class: %s)", key, got, r.lo, r.hi, r.why))
					} else {
						mismatches = append(mismatches, fmt.Sprintf("%s: measured %.3f, outside %.3g..%.3g seen on this class (%s) [%s]", key, got, r.lo, r.hi, r.why, pub.Source))
					}
					return
				}
				switch {
				case ok && known[key] != "":
					mismatches = append(mismatches, fmt.Sprintf("%s: listed as a deviation (%s) but now agrees (%.3f)", key, known[key], got))
				case ok:
				case methodDeviations[key] != "":
					explained = append(explained, key+": "+methodDeviations[key])
				case known[key] != "":
					explained = append(explained, fmt.Sprintf("%s: %.3f (%s)", key, got, known[key]))
				default:
					mismatches = append(mismatches, fmt.Sprintf("%s: measured %.3f, %s [%s]", key, got, why, pub.Source))
				}
			}
			if f.LatencyOperands != nil && (pub.Latency != nil || len(pub.LatencyRange) == 2) {
				got, have := s.Latencies[*f.LatencyOperands]
				if have {
					lo, hi := math.Inf(1), math.Inf(-1)
					if pub.Latency != nil {
						lo, hi = *pub.Latency, *pub.Latency
					}
					if len(pub.LatencyRange) == 2 {
						lo, hi = math.Min(lo, pub.LatencyRange[0]), math.Max(hi, pub.LatencyRange[1])
					}
					if pub.UpperBound {
						lo = 0 // "≤": an upper bound only
					}
					tol := rangeTolerance("latency", hi)
					check("latency", got, got >= lo-tol && got <= hi+tol, fmt.Sprintf("published %v..%v", lo, hi))
				}
			}
			if pub.Throughput != nil && !math.IsNaN(s.Throughput) {
				p := *pub.Throughput
				ok := math.Abs(s.Throughput-p) <= rangeTolerance("throughput", p)
				check("throughput", s.Throughput, ok, fmt.Sprintf("published %.3f", p))
			}
		}
		for key := range ranges {
			if !seen[key] && runsHere(key, forms) {
				mismatches = append(mismatches, key+": listed as host-dependent but not measured")
			}
		}
		for key := range known {
			if !seen[key] && runsHere(key, forms) {
				mismatches = append(mismatches, key+": listed as a deviation but not measured")
			}
		}
		return len(mismatches) == 0
	})
	sort.Strings(explained)
	for _, x := range explained {
		t.Logf("explained: %s", x)
	}
	t.Logf("%d numbers compared with the %s column, %d explained deviations, %d unexplained", checked, class, len(explained), len(mismatches))
	if checked < 60 {
		t.Errorf("only %d numbers compared", checked)
	}
	if verified {
		if len(mismatches) > 0 {
			t.Errorf("unexplained differences from the published numbers:\n  %s", strings.Join(mismatches, "\n  "))
		}
		return
	}
	for _, m := range mismatches {
		note := ""
		if other := sameCore[h.Microarch]; other != "" {
			for key, why := range hostDeviations[other] {
				if strings.HasPrefix(m, key+":") {
					note = fmt.Sprintf(" (%s, the same core: %s)", other, why)
				}
			}
		}
		t.Logf("differs (%s has no verified deviation list for the %s column): %s%s", h.Microarch, class, m, note)
	}
}

// runsHere says whether the form a deviation's key names ("FORM
// latency", "FORM [addressing] throughput") is among the forms this host
// runs: a guest that hides AVX-512 measures no zmm form, and a deviation
// listed for one is not missing there.
func runsHere(key string, forms []*isa.Form) bool {
	name := key[:strings.LastIndexByte(key, ' ')]
	if i := strings.Index(name, " ["); i >= 0 {
		name = name[:i]
	}
	for _, f := range forms {
		if f.Name() == name {
			return true
		}
	}
	return false
}

// rangeTolerance is the checks' tolerance around a published or listed
// value: latencies 3 % or 0.1 cycles, throughputs 8 % or 0.02 cycles.
func rangeTolerance(what string, v float64) float64 {
	if what == "latency" {
		return math.Max(0.1, 0.03*v)
	}
	return math.Max(0.02, 0.08*v)
}
