package hostcpu

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// fakeRoot writes files (path relative to the root: contents) under a
// temporary root for cgroupMemoryLimit.
func fakeRoot(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for p, s := range files {
		full := filepath.Join(root, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

const (
	mountsV1 = `31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755
32 31 0:29 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu
35 31 0:32 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory
`
	groupsV1 = `5:devices:/
4:memory:/batch/portlab
1:cpu:/
0::/
`
	mountsV2 = `24 1 0:22 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime shared:9 - cgroup2 cgroup2 rw,nsdelegate
`
	unlimitedV1 = "9223372036854771712\n"
)

// The memory a control group allows is read as a systemd unit, a
// container or a batch system sets it, through cgroup v1 and v2, the
// smallest limit on the way up counting; no limit reads 0.
func TestCgroupMemoryLimit(t *testing.T) {
	cases := []struct {
		name  string
		files map[string]string
		want  uint64
	}{
		{"v1, the group's own limit", map[string]string{
			"proc/self/cgroup":                                         groupsV1,
			"proc/self/mountinfo":                                      mountsV1,
			"sys/fs/cgroup/memory/memory.limit_in_bytes":               unlimitedV1,
			"sys/fs/cgroup/memory/batch/memory.limit_in_bytes":         unlimitedV1,
			"sys/fs/cgroup/memory/batch/portlab/memory.limit_in_bytes": "4294967296\n",
		}, 4 << 30},
		{"v1, a parent's limit", map[string]string{
			"proc/self/cgroup":                                         groupsV1,
			"proc/self/mountinfo":                                      mountsV1,
			"sys/fs/cgroup/memory/memory.limit_in_bytes":               unlimitedV1,
			"sys/fs/cgroup/memory/batch/memory.limit_in_bytes":         "8589934592\n",
			"sys/fs/cgroup/memory/batch/portlab/memory.limit_in_bytes": unlimitedV1,
		}, 8 << 30},
		{"v1, none", map[string]string{
			"proc/self/cgroup":                                         groupsV1,
			"proc/self/mountinfo":                                      mountsV1,
			"sys/fs/cgroup/memory/memory.limit_in_bytes":               unlimitedV1,
			"sys/fs/cgroup/memory/batch/portlab/memory.limit_in_bytes": unlimitedV1,
		}, 0},
		{"v2 container, the namespace's root", map[string]string{
			"proc/self/cgroup":            "0::/\n",
			"proc/self/mountinfo":         mountsV2,
			"sys/fs/cgroup/memory.max":    "2147483648\n",
			"sys/fs/cgroup/cgroup.procs":  "1\n",
			"sys/fs/cgroup/memory.peak":   "0\n",
			"sys/fs/cgroup/memory.stat":   "anon 0\n",
			"sys/fs/cgroup/memory.events": "oom 0\n",
		}, 2 << 30},
		{"v2 systemd unit under a slice", map[string]string{
			"proc/self/cgroup":                                    "0::/user.slice/portlab.service\n",
			"proc/self/mountinfo":                                 mountsV2,
			"sys/fs/cgroup/user.slice/memory.max":                 "6442450944\n",
			"sys/fs/cgroup/user.slice/portlab.service/memory.max": "max\n",
		}, 6 << 30},
		{"v2, the unit's own below the slice's", map[string]string{
			"proc/self/cgroup":                                    "0::/user.slice/portlab.service\n",
			"proc/self/mountinfo":                                 mountsV2,
			"sys/fs/cgroup/user.slice/memory.max":                 "6442450944\n",
			"sys/fs/cgroup/user.slice/portlab.service/memory.max": "3221225472\n",
		}, 3 << 30},
		{"v2, a mount rooted at the container's group", map[string]string{
			"proc/self/cgroup":         "0::/docker/abc\n",
			"proc/self/mountinfo":      "24 1 0:22 /docker/abc /sys/fs/cgroup rw - cgroup2 cgroup2 rw\n",
			"sys/fs/cgroup/memory.max": "1073741824\n",
		}, 1 << 30},
		{"v2, no limit", map[string]string{
			"proc/self/cgroup":                    "0::/user.slice\n",
			"proc/self/mountinfo":                 mountsV2,
			"sys/fs/cgroup/user.slice/memory.max": "max\n",
		}, 0},
		{"no cgroup files", map[string]string{}, 0},
		{"a limit file that is not a number", map[string]string{
			"proc/self/cgroup":         "0::/\n",
			"proc/self/mountinfo":      mountsV2,
			"sys/fs/cgroup/memory.max": "lots\n",
		}, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := CgroupMemoryLimit(fakeRoot(t, c.files)); got != c.want {
				t.Errorf("limit %d, want %d", got, c.want)
			}
		})
	}
}

// A mount point with a space is escaped in mountinfo.
func TestUnescapeMount(t *testing.T) {
	if got := unescapeMount(`/sys/fs/my\040cgroup`); got != "/sys/fs/my cgroup" {
		t.Errorf("got %q", got)
	}
	if got := unescapeMount(`/plain`); got != "/plain" {
		t.Errorf("got %q", got)
	}
}

// The usable memory is never more than the machine's and never unknown
// on Linux.
func TestUsableMemory(t *testing.T) {
	u, total := UsableMemory()
	if runtime.GOOS == "linux" && (u == 0 || u > total) {
		t.Errorf("usable %d bytes of the machine's %d", u, total)
	}
}
