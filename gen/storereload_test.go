package gen

import (
	"strings"
	"testing"

	"portlab/isa"
)

// TestVectorStoreReload: an unmasked vector store gets the round trip of
// a store and the reload by its own class's load, at the same address;
// stores without such a load, masked ones and extracts get none.
func TestVectorStoreReload(t *testing.T) {
	for form, want := range map[string]string{
		"vmovaps m256, ymm": "vmovaps ymm, m256",
		"vmovsd m64, xmm":   "vmovsd xmm, m64",
		"movhps m64, xmm":   "movhps xmm, m64",
		"movdqu m128, xmm":  "movdqu xmm, m128",
	} {
		f, ok := isa.Lookup(form)
		if !ok {
			t.Fatalf("%s: not in the catalog", form)
		}
		lf := VectorReloadOf(f)
		if lf == nil || lf.Name() != want {
			t.Errorf("%s: reload %v, want %s", form, lf, want)
			continue
		}
		bs, err := Latency(f)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, b := range bs {
			got = append(got, b.Operands+": "+b.Snippet.Source)
		}
		if len(bs) != 1 || bs[0].Operands != "1->mem" {
			t.Errorf("%s: latency benches %q, want one 1->mem round trip", form, got)
			continue
		}
		lines := strings.Split(strings.TrimSpace(bs[0].Snippet.Source), "\n")
		if len(lines) != 2 || !strings.HasPrefix(lines[1], f.Mnemonic+" ") || strings.Fields(lines[0])[len(strings.Fields(lines[0]))-1] != strings.TrimSuffix(strings.Fields(lines[1])[1], ",") {
			t.Errorf("%s: round trip %q: want the store, then its register reloaded", form, lines)
		}
		if mem := func(s string) string { return s[strings.Index(s, "["):strings.Index(s, "]")] }; mem(lines[0]) != mem(lines[1]) {
			t.Errorf("%s: round trip %q: store and reload at different addresses", form, lines)
		}
	}
	for _, name := range []string{"vmovntps m256, ymm", "vextractf128 m128, ymm, imm8", "vmovdqu8 m128 {k}, xmm", "mov m64, r64"} {
		if f, ok := isa.Lookup(name); ok && VectorReloadOf(f) != nil {
			t.Errorf("%s: reload %v, want none", name, VectorReloadOf(f))
		}
	}
}
