package jit

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestParseCPUList(t *testing.T) {
	for in, want := range map[string][]int{"": nil, "3": {3}, "0-3,8,10-11": {0, 1, 2, 3, 8, 10, 11}} {
		got, err := ParseCPUList(in)
		if err != nil || !slices.Equal(got, want) {
			t.Errorf("%q: %v, %v; want %v", in, got, err, want)
		}
	}
	for _, bad := range []string{"a", "3-1", "-1", "1,,2", "0-99999999"} {
		if _, err := ParseCPUList(bad); err == nil || !strings.Contains(err.Error(), bad) {
			t.Errorf("%q: %v, want an error naming it", bad, err)
		}
	}
}

// A hybrid part's efficiency cores, another package, another capacity:
// none of them measures what the home CPU measures.
func TestSameCoreCPUs(t *testing.T) {
	sys := t.TempDir()
	write := func(path, text string) {
		p := filepath.Join(sys, path)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	all := []int{0, 1, 2, 3, 4, 5, 6, 7}
	// sysfs silent: every CPU.
	if got := sameCoreCPUs(sys, 7, all); !slices.Equal(got, all) {
		t.Errorf("no topology: %v, want %v", got, all)
	}
	write("devices/cpu_core/cpus", "0-5")
	write("devices/cpu_atom/cpus", "6-7")
	if got := sameCoreCPUs(sys, 7, all); !slices.Equal(got, []int{6, 7}) {
		t.Errorf("efficiency core home: %v, want [6 7]", got)
	}
	for c, pkg := range []string{"0", "0", "0", "1", "1", "1", "0", "0"} {
		write("devices/system/cpu/cpu"+string(rune('0'+c))+"/topology/physical_package_id", pkg)
	}
	write("devices/system/cpu/cpu1/cpu_capacity", "1024")
	write("devices/system/cpu/cpu2/cpu_capacity", "900")
	write("devices/system/cpu/cpu0/cpu_capacity", "1024")
	if got := sameCoreCPUs(sys, 0, all); !slices.Equal(got, []int{0, 1}) {
		t.Errorf("performance core home in package 0: %v, want [0 1] (2: another capacity, 3-5: another package)", got)
	}
	if got := sameCoreCPUs(sys, 4, []int{1, 3}); !slices.Equal(got, []int{3, 4}) {
		t.Errorf("home outside the list: %v, want [3 4]", got)
	}
	if got := defaultCPU(sys, all); got != 5 {
		t.Errorf("default CPU of a hybrid part: %d, want 5, the highest performance core", got)
	}
	if got := defaultCPU(sys, []int{6, 7}); got != 7 {
		t.Errorf("default CPU among efficiency cores only: %d, want 7", got)
	}
	if got := defaultCPU(t.TempDir(), all); got != 7 {
		t.Errorf("default CPU, sysfs silent: %d, want 7", got)
	}
	if got := smtSiblings(sys, 3); !slices.Equal(got, []int{3}) {
		t.Errorf("no thread_siblings_list: %v, want [3]", got)
	}
	write("devices/system/cpu/cpu3/topology/thread_siblings_list", "3,7")
	if got := smtSiblings(sys, 3); !slices.Equal(got, []int{3, 7}) {
		t.Errorf("siblings of 3: %v, want [3 7]", got)
	}
}
