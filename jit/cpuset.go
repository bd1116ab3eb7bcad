package jit

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// SameCoreCPUs returns the CPUs of cpus that measure what home measures,
// ascending, home among them: the same kind of core (a hybrid part's
// performance or efficiency cores, /sys/devices/cpu_core/cpus and
// cpu_atom/cpus; the same cpu_capacity where the kernel gives one) in the
// same package (topology/physical_package_id). Where sysfs says nothing
// of a property, it does not tell CPUs apart.
func SameCoreCPUs(home int, cpus []int) []int { return sameCoreCPUs("/sys", home, cpus) }

func sameCoreCPUs(sys string, home int, cpus []int) []int {
	keep := func(c int) bool { return true }
	// Hybrid Intel parts: one PMU per core type, each listing its CPUs.
	for _, pmu := range []string{"cpu_core", "cpu_atom"} {
		b, err := os.ReadFile(filepath.Join(sys, "devices", pmu, "cpus"))
		if err != nil {
			continue
		}
		list, err := ParseCPUList(strings.TrimSpace(string(b)))
		if err != nil || !slices.Contains(list, home) {
			continue
		}
		keep = func(c int) bool { return slices.Contains(list, c) }
		break
	}
	attr := func(c int, name string) (string, bool) {
		b, err := os.ReadFile(filepath.Join(sys, "devices", "system", "cpu", fmt.Sprintf("cpu%d", c), name))
		if err != nil {
			return "", false
		}
		return strings.TrimSpace(string(b)), true
	}
	same := func(c int, name string) bool {
		want, ok := attr(home, name)
		if !ok {
			return true
		}
		got, ok := attr(c, name)
		return !ok || got == want
	}
	out := []int{home}
	for _, c := range cpus {
		if c != home && keep(c) && same(c, "topology/physical_package_id") && same(c, "cpu_capacity") {
			out = append(out, c)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// SMTSiblings lists the CPUs that share cpu's physical core, cpu among
// them (topology/thread_siblings_list); just cpu where sysfs does not say.
func SMTSiblings(cpu int) []int { return smtSiblings("/sys", cpu) }

func smtSiblings(sys string, cpu int) []int {
	b, err := os.ReadFile(filepath.Join(sys, "devices", "system", "cpu", fmt.Sprintf("cpu%d", cpu), "topology", "thread_siblings_list"))
	if err != nil {
		return []int{cpu}
	}
	list, err := ParseCPUList(strings.TrimSpace(string(b)))
	if err != nil || !slices.Contains(list, cpu) {
		return []int{cpu}
	}
	return list
}

// maxCPUs bounds a range of a CPU list (the kernel's own limit is 8,192).
const maxCPUs = 1 << 16

// ParseCPUList reads the kernel's CPU list format ("0-3,8,10-11").
func ParseCPUList(s string) ([]int, error) {
	var out []int
	if s == "" {
		return nil, nil
	}
	for _, part := range strings.Split(s, ",") {
		lo, hi, isRange := strings.Cut(part, "-")
		a, err := strconv.Atoi(lo)
		if err != nil || a < 0 {
			return nil, fmt.Errorf("CPU list %q: %q is not a CPU", s, part)
		}
		b := a
		if isRange {
			if b, err = strconv.Atoi(hi); err != nil || b < a || b-a >= maxCPUs {
				return nil, fmt.Errorf("CPU list %q: %q is not a range of CPUs", s, part)
			}
		}
		for c := a; c <= b; c++ {
			out = append(out, c)
		}
	}
	return out, nil
}
