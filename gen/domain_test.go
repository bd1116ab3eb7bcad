package gen

import (
	"slices"
	"strings"
	"testing"

	"portlab/isa"
	"portlab/modeldb"
)

// TestDomainBenches: a vector register form gets two chains, with vpaddd
// and with vaddps of its width (vaddpd for double forms; legacy SSE
// partners for legacy forms),
// its result feeding the partner and the partner's result its chained
// operand; forms of other shapes get none.
func TestDomainBenches(t *testing.T) {
	for _, c := range []struct {
		form string
		want map[string]string // partner domain -> source
	}{
		{"vshufps xmm, xmm, xmm, imm8", map[string]string{
			modeldb.DomainInt: "vshufps xmm2, xmm0, xmm1, 1\nvpaddd xmm0, xmm2, xmm1\nvshufps xmm2, xmm0, xmm1, 1\nvpaddd xmm0, xmm2, xmm1\n",
			modeldb.DomainFP:  "vshufps xmm2, xmm0, xmm1, 1\nvaddps xmm0, xmm2, xmm1\nvshufps xmm2, xmm0, xmm1, 1\nvaddps xmm0, xmm2, xmm1\n"}},
		{"addps xmm, xmm", map[string]string{
			modeldb.DomainInt: "addps xmm2, xmm0\npaddd xmm0, xmm2\naddps xmm2, xmm0\npaddd xmm0, xmm2\n"}},
		{"movaps xmm, xmm", map[string]string{
			modeldb.DomainFP: "movaps xmm2, xmm0\naddps xmm0, xmm2\nmovaps xmm2, xmm0\naddps xmm0, xmm2\n"}},
		{"vfmadd231ps ymm, ymm, ymm", map[string]string{
			modeldb.DomainInt: "vfmadd231ps ymm2, ymm0, ymm1\nvpaddd ymm0, ymm2, ymm1\nvfmadd231ps ymm2, ymm0, ymm1\nvpaddd ymm0, ymm2, ymm1\n"}},
		{"vsubpd ymm, ymm, ymm", map[string]string{
			modeldb.DomainFP: "vsubpd ymm2, ymm0, ymm1\nvaddpd ymm0, ymm2, ymm1\nvsubpd ymm2, ymm0, ymm1\nvaddpd ymm0, ymm2, ymm1\n"}},
		{"addsd xmm, xmm", map[string]string{
			modeldb.DomainFP: "addsd xmm2, xmm0\naddpd xmm0, xmm2\naddsd xmm2, xmm0\naddpd xmm0, xmm2\n"}},
		{"vpmaxsd xmm, xmm, xmm", map[string]string{
			modeldb.DomainFP: "vpmaxsd xmm2, xmm0, xmm1\nvaddps xmm0, xmm2, xmm1\nvpmaxsd xmm2, xmm0, xmm1\nvaddps xmm0, xmm2, xmm1\n"}},
		{"vphsubd xmm, xmm, xmm", map[string]string{
			modeldb.DomainInt: "vphsubd xmm2, xmm0, xmm1\nvpaddd xmm0, xmm2, xmm1\nvphsubd xmm2, xmm0, xmm1\nvpaddd xmm0, xmm2, xmm1\n"}},
	} {
		f, ok := isa.Lookup(c.form)
		if !ok {
			t.Fatalf("%s: not in the catalog", c.form)
		}
		bs := DomainBenches(f)
		if len(bs) != 2 {
			t.Fatalf("%s: %d benches, want 2", c.form, len(bs))
		}
		for _, b := range bs {
			if b.Kind != KindDomain || b.Mode != "latency" || b.Snippet.Instructions != 2 {
				t.Errorf("%s: kind %q mode %q, %d links a copy", c.form, b.Kind, b.Mode, b.Snippet.Instructions)
			}
			if want, ok := c.want[b.Operands]; ok && b.Snippet.Source != want {
				t.Errorf("%s with the %s partner:\n%s\nwant\n%s", c.form, b.Operands, b.Snippet.Source, want)
			}
		}
	}
	for _, name := range []string{"vextractf128 xmm, ymm, imm8", "blendvps xmm, xmm, xmm0", "vaddps xmm, xmm, m128", "vaddps xmm {k}, xmm, xmm", "vpmovmskb r32, ymm", "add r64, r64"} {
		f, ok := isa.Lookup(name)
		if !ok {
			continue
		}
		if bs := DomainBenches(f); len(bs) != 0 {
			t.Errorf("%s: %d domain chains, want none", name, len(bs))
		}
	}
	// The partner a host must run: vpaddd ymm needs AVX2 beside an AVX form.
	f, _ := isa.Lookup("vaddps ymm, ymm, ymm")
	for _, b := range DomainBenches(f) {
		p := DomainPartnerOf(b)
		if b.Operands == modeldb.DomainInt && (p == nil || !slices.Contains(p.Features, "avx2")) {
			t.Errorf("vaddps ymm's int partner %v, want vpaddd ymm (AVX2)", p)
		}
		if !strings.Contains(b.Snippet.Info, "vaddps ymm, ymm, ymm with") {
			t.Errorf("info %q", b.Snippet.Info)
		}
	}
	if bs := generated(t, "vpaddd xmm, xmm, xmm"); !slices.ContainsFunc(bs, func(b *Bench) bool { return b.Kind == KindDomain }) {
		t.Errorf("Generate gives vpaddd xmm no domain chain")
	}
}

func generated(t *testing.T, name string) []*Bench {
	t.Helper()
	f, ok := isa.Lookup(name)
	if !ok {
		t.Fatalf("%s: not in the catalog", name)
	}
	bs, err := Generate(f)
	if err != nil {
		t.Fatal(err)
	}
	return bs
}
