package jit

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"unsafe"

	"golang.org/x/sys/unix"
)

// anonymousKB reads the Anonymous: line of the /proc/self/smaps entry of the
// mapping that starts at addr: the kilobytes of private pages it owns (the
// shared zero page a read maps is not counted).
func anonymousKB(t *testing.T, addr uintptr) int {
	t.Helper()
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		t.Skipf("no /proc/self/smaps: %v", err)
	}
	defer f.Close()
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if fields := strings.Fields(line); len(fields) > 0 && strings.Contains(fields[0], "-") && !strings.HasSuffix(fields[0], ":") {
			start, _, _ := strings.Cut(fields[0], "-")
			in = start == fmt.Sprintf("%x", addr)
			continue
		}
		if in && strings.HasPrefix(line, "Anonymous:") {
			kb, err := strconv.Atoi(strings.Fields(line)[1])
			if err != nil {
				t.Fatal(err)
			}
			return kb
		}
	}
	t.Fatalf("no smaps entry for the mapping at %#x", addr)
	return 0
}

// The scratch buffer's pages are each its own physical page: reading an
// untouched anonymous page maps the shared zero page, and loads then alias
// one physical page across the whole buffer (slow on AMD cores).
func TestTouchPagesGivesEveryPageItsOwnFrame(t *testing.T) {
	const pages = 32
	// Guard pages on both sides keep the mapping its own smaps entry
	// (the kernel merges neighbouring anonymous mappings of one kind).
	all, err := mmapAnon((pages+2)*pageSize, unix.PROT_NONE)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Munmap(all)
	b := all[pageSize : (pages+1)*pageSize]
	if err := unix.Mprotect(b, unix.PROT_READ|unix.PROT_WRITE); err != nil {
		t.Fatal(err)
	}
	addr := uintptr(unsafe.Pointer(&b[0]))
	for i := 0; i < len(b); i += pageSize { // what a read-only snippet does
		_ = b[i]
	}
	if kb := anonymousKB(t, addr); kb != 0 {
		t.Fatalf("reading the pages made %d kB private already: the check cannot tell", kb)
	}
	touchPages(b)
	if kb, want := anonymousKB(t, addr), pages*pageSize/1024; kb != want {
		t.Errorf("after touchPages the buffer owns %d kB of private pages, want %d", kb, want)
	}
}
