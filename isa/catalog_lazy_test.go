package isa

import (
	"os"
	"os/exec"
	"sync"
	"testing"
)

// TestLazyCatalog checks, in a fresh process (the catalog is shared by
// every test of this one), that parsing and looking up a few forms builds
// only their mnemonics, that concurrent lookups agree, and that the forms
// are the ones All returns once the whole catalog is built.
func TestLazyCatalog(t *testing.T) {
	if os.Getenv("PORTLAB_TEST_LAZY_CATALOG") == "" {
		cmd := exec.Command(os.Args[0], "-test.run=^TestLazyCatalog$")
		cmd.Env = append(os.Environ(), "PORTLAB_TEST_LAZY_CATALOG=1")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		return
	}
	src := ".intel_syntax noprefix\n" +
		"add rax, rbx\n" +
		"cmovz rcx, rdx\n" +
		"vaddpd zmm1{k1}{z}, zmm2, qword ptr [rax]{1to8}\n" +
		".att_syntax\n" +
		"imulq %rcx, %rdx\n" +
		"vcvtpd2psx (%rax), %xmm1\n" +
		"rep movsb\n"
	f, err := Parse("lazy.s", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var parsed []*Form
	for _, in := range f.Insts() {
		if in.Form == nil {
			t.Fatalf("%q: no form", in.Text)
		}
		parsed = append(parsed, in.Form)
	}
	built := 0
	for _, e := range mnemonicIndex() {
		if e.byName != nil {
			built++
		}
	}
	if built > 20 || catalog.all != nil {
		t.Errorf("parsing 6 instructions built %d mnemonics (whole catalog: %v)", built, catalog.all != nil)
	}

	names := []string{"adc r64, r64", "vfmadd231pd zmm {k}, zmm, m512", "rep movsb",
		"{evex} vaddps ymm, ymm, ymm", "vpslld ymm, ymm, imm8", "kmovw k, m16", "cmovz r64, r64",
		"vcvtpd2ps xmm, m64bcst", "shl r64, cl", "sal r64, 1", "movsd", "movsd xmm, m64"}
	const workers = 8
	found := make([][]*Form, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for _, n := range names {
				f, ok := Lookup(n)
				if !ok {
					t.Errorf("Lookup(%q): not found", n)
				}
				found[w] = append(found[w], f)
			}
		}()
	}
	wg.Wait()

	all := map[*Form]bool{}
	for _, f := range All() {
		all[f] = true
	}
	for w := range workers {
		for i, f := range found[w] {
			if f != found[0][i] || !all[f] {
				t.Errorf("Lookup(%q) in goroutine %d: a form All does not return", names[i], w)
			}
		}
	}
	for _, f := range parsed {
		if !all[f] {
			t.Errorf("parsed %s: a form All does not return", f)
		}
	}
}
