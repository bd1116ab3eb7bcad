package hostcpu

import (
	"bufio"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// UsableMemory is the memory this process may use in bytes: the
// machine's (total), or its control group's limit where that is smaller
// (0: unknown). The kernel kills a process past its group's limit
// however much the machine has, so a container's `--memory` or a systemd
// unit's MemoryMax is what counts.
func UsableMemory() (usable, total uint64) {
	total = machineMemory()
	if c := CgroupMemoryLimit("/"); c > 0 && (total == 0 || c < total) {
		return c, total
	}
	return total, total
}

// CgroupMemoryLimit is the smallest memory limit set on this process's
// control group or any group above it, in bytes (0: none, or none could
// be read), with root the file system root to read /proc and /sys from
// (tests give another). Both cgroup v2 (memory.max) and the v1 memory
// controller (memory.limit_in_bytes) are read: the group's path from
// /proc/self/cgroup, where its hierarchy is mounted from
// /proc/self/mountinfo (inside a container the mount's root is the
// container's own group).
func CgroupMemoryLimit(root string) uint64 {
	groups, err := os.ReadFile(filepath.Join(root, "proc/self/cgroup"))
	if err != nil {
		return 0
	}
	mounts, err := os.ReadFile(filepath.Join(root, "proc/self/mountinfo"))
	if err != nil {
		return 0
	}
	var best uint64
	for _, h := range cgroupHierarchies(string(groups), string(mounts)) {
		dir := h.dir
		for {
			if v := readMemoryLimit(filepath.Join(root, dir, h.file)); v > 0 && (best == 0 || v < best) {
				best = v
			}
			if dir == h.mount {
				break
			}
			parent := path.Dir(dir)
			if parent == dir || !strings.HasPrefix(parent, h.mount) {
				break
			}
			dir = parent
		}
	}
	return best
}

// cgroupHierarchy is where one hierarchy holding the memory controller
// keeps this process's group: dir (absolute, under mount) and the limit's
// file name there.
type cgroupHierarchy struct {
	mount, dir, file string
}

// cgroupHierarchies reads /proc/self/cgroup (groups) and
// /proc/self/mountinfo (mounts) for the hierarchies that limit memory:
// the v1 memory controller's and the v2 unified one.
func cgroupHierarchies(groups, mounts string) []cgroupHierarchy {
	var v1, v2 string // the group's path in each ("" where it has none)
	for _, line := range strings.Split(groups, "\n") {
		parts := strings.SplitN(line, ":", 3)
		if len(parts) != 3 {
			continue
		}
		switch {
		case parts[0] == "0" && parts[1] == "":
			v2 = parts[2]
		case slices.Contains(strings.Split(parts[1], ","), "memory"):
			v1 = parts[2]
		}
	}
	var out []cgroupHierarchy
	sc := bufio.NewScanner(strings.NewReader(mounts))
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	for sc.Scan() {
		// id parent major:minor root mountpoint options [optional...] - fstype source superoptions
		f := strings.Fields(sc.Text())
		sep := slices.Index(f, "-")
		if sep < 5 || sep+3 >= len(f) {
			continue
		}
		mroot, mpoint, fstype, super := unescapeMount(f[3]), unescapeMount(f[4]), f[sep+1], f[sep+3]
		var group, file string
		switch {
		case fstype == "cgroup2" && v2 != "":
			group, file = v2, "memory.max"
		case fstype == "cgroup" && v1 != "" && slices.Contains(strings.Split(super, ","), "memory"):
			group, file = v1, "memory.limit_in_bytes"
		default:
			continue
		}
		rel, ok := strings.CutPrefix(group, mroot)
		if !ok || (rel != "" && !strings.HasPrefix(rel, "/") && mroot != "/") {
			// The group lies outside what this mount shows (another
			// namespace's path): the mount's root is the group.
			rel = ""
		}
		out = append(out, cgroupHierarchy{mount: mpoint, dir: path.Join(mpoint, rel), file: file})
	}
	return out
}

// unescapeMount undoes mountinfo's octal escapes (\040 for a space).
func unescapeMount(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+4 <= len(s) {
			if n, err := strconv.ParseUint(s[i+1:i+4], 8, 8); err == nil {
				b.WriteByte(byte(n))
				i += 3
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// readMemoryLimit reads one limit file: bytes, or 0 for "max", the v1
// controller's "no limit" (near 2^63) or a file that cannot be read.
func readMemoryLimit(file string) uint64 {
	data, err := os.ReadFile(file)
	if err != nil {
		return 0
	}
	s := strings.TrimSpace(string(data))
	if s == "max" {
		return 0
	}
	v, err := strconv.ParseUint(s, 10, 64)
	if err != nil || v >= 1<<62 {
		return 0
	}
	return v
}
