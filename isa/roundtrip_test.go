package isa

import (
	"bytes"
	"debug/elf"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// rtAssemble assembles one line per entry, each after a label, in a single
// GNU as run (a second run if some lines fail) and returns the bytes of each
// line that assembled and the error of each that did not.
func rtAssemble(t *testing.T, dir, name, header string, lines []string) (map[int][]byte, map[int]string) {
	t.Helper()
	errs := map[int]string{}
	skip := map[int]bool{}
	for attempt := 0; attempt < 3; attempt++ {
		var src bytes.Buffer
		src.WriteString(header + "\n.text\n")
		lineOf := map[int]int{}
		ln := 3
		for i, l := range lines {
			if skip[i] {
				continue
			}
			fmt.Fprintf(&src, "rt_%d:\n", i)
			ln++
			src.WriteString("\t" + l + "\n")
			lineOf[ln] = i
			ln++
		}
		src.WriteString("rt_end:\n")
		sfile := filepath.Join(dir, name+".s")
		ofile := filepath.Join(dir, name+".o")
		if err := os.WriteFile(sfile, src.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		out, err := exec.Command("as", "--64", "-o", ofile, sfile).CombinedOutput()
		if err != nil {
			re := regexp.MustCompile(`^[^:]*\.s:(\d+): Error: (.*)$`)
			found := false
			for _, l := range strings.Split(string(out), "\n") {
				m := re.FindStringSubmatch(l)
				if m == nil {
					continue
				}
				n, _ := strconv.Atoi(m[1])
				if i, ok := lineOf[n]; ok {
					skip[i] = true
					if errs[i] == "" {
						errs[i] = m[2]
					}
					found = true
				}
			}
			if !found {
				t.Fatalf("%s: as failed: %v\n%s", name, err, out)
			}
			continue
		}
		ef, err := elf.Open(ofile)
		if err != nil {
			t.Fatal(err)
		}
		defer ef.Close()
		data, err := ef.Section(".text").Data()
		if err != nil {
			t.Fatal(err)
		}
		syms, err := ef.Symbols()
		if err != nil {
			t.Fatal(err)
		}
		type mark struct {
			idx int
			off uint64
		}
		var marks []mark
		end := uint64(len(data))
		for _, s := range syms {
			if s.Name == "rt_end" {
				end = s.Value
			} else if strings.HasPrefix(s.Name, "rt_") {
				i, _ := strconv.Atoi(s.Name[3:])
				marks = append(marks, mark{i, s.Value})
			}
		}
		sort.Slice(marks, func(a, b int) bool {
			return marks[a].off < marks[b].off || marks[a].off == marks[b].off && marks[a].idx < marks[b].idx
		})
		res := map[int][]byte{}
		for k, m := range marks {
			next := end
			if k+1 < len(marks) {
				next = marks[k+1].off
			}
			res[m.idx] = data[m.off:next]
		}
		return res, errs
	}
	t.Fatalf("%s: as keeps failing", name)
	return nil, nil
}

// rtKnown lists the round-trip disagreements that are understood, keyed by
// "check: form name", with the reason. A glob-free exact list keeps every
// new disagreement visible.
var rtKnown = map[string]string{
	"assemble: call m16:64":     "far pointer with REX.W (m16:64) is Intel-64 only: GNU as wants -mintel64",
	"assemble: jmp m16:64":      "far pointer with REX.W (m16:64) is Intel-64 only: GNU as wants -mintel64",
	"assemble: lfs r64, m16:64": "far pointer with REX.W (m16:64) is Intel-64 only: GNU as wants -mintel64",
	"assemble: lgs r64, m16:64": "far pointer with REX.W (m16:64) is Intel-64 only: GNU as wants -mintel64",
	"assemble: lss r64, m16:64": "far pointer with REX.W (m16:64) is Intel-64 only: GNU as wants -mintel64",
	"decode: lar r64, m16":      "GNU as 2.42 encodes lar r64 without REX.W (2.40 keeps it), the same bytes as lar r32, m16",
	"decode: lar r64, r16":      "GNU as 2.42 encodes lar r64 without REX.W (2.40 keeps it), the same bytes as lar r32, r32",
	"decode: lsl r64, m16":      "GNU as 2.42 encodes lsl r64 without REX.W (2.40 keeps it), the same bytes as lsl r32, m16",
	"decode: mov sreg, r16":     "GNU as encodes mov sreg, r16 without 66, the same bytes as mov sreg, r32",
	"decode: sldt r64":          "GNU as encodes sldt r64 without REX.W, the same bytes as sldt r32",
	"decode: str r64":           "GNU as encodes str r64 without REX.W, the same bytes as str r32",
	"decode: xbegin rel16":      "GNU as has no 16-bit xbegin in 64-bit mode and emits the rel32 encoding",
	"parse-intel: xbegin rel16": "GNU as has no 16-bit xbegin in 64-bit mode; \"xbegin label\" is rel32",
	"parse-att: xbegin rel16":   "GNU as has no 16-bit xbegin in 64-bit mode; \"xbegin label\" is rel32",
}

// rtKnownPatterns covers whole families with one reason: check prefix and a
// regular expression on the form name.
var rtKnownPatterns = []struct {
	check, re, reason string
}{}

func rtIsKnown(check, name string) (string, bool) {
	if r, ok := rtKnown[check+": "+name]; ok {
		return r, true
	}
	for _, p := range rtKnownPatterns {
		if p.check == check && regexp.MustCompile(p.re).MatchString(name) {
			return p.reason, true
		}
	}
	return "", false
}

// TestRoundTrip renders every catalog form (Form.Example), assembles it with
// GNU as, decodes the bytes with Decode and checks the form comes back; it
// parses the Intel and AT&T texts and checks they resolve to the form; and it
// prints the decoded instruction in both syntaxes and checks GNU as encodes
// the printed text to the same bytes.
func TestRoundTrip(t *testing.T) {
	if _, err := exec.LookPath("as"); err != nil {
		t.Skip("GNU as not found: " + err.Error())
	}
	forms := All()
	if len(forms) == 0 {
		t.Skip("the form catalog is empty")
	}
	dir := t.TempDir()
	var intel, att []string
	for _, f := range forms {
		i, a := f.Example()
		intel = append(intel, i)
		att = append(att, a)
	}
	code, asErrs := rtAssemble(t, dir, "examples", ".intel_syntax noprefix", intel)

	type problem struct{ check, form, detail string }
	var problems []problem
	report := func(check string, f *Form, format string, args ...any) {
		problems = append(problems, problem{check, f.Name(), fmt.Sprintf(format, args...)})
	}
	for i, f := range forms {
		if e, ok := asErrs[i]; ok {
			report("assemble", f, "%s: %s", intel[i], e)
		}
	}

	// Parse both renderings.
	for i, f := range forms {
		for _, syn := range []struct {
			check, header, text string
		}{{"parse-intel", ".intel_syntax noprefix\n", intel[i]}, {"parse-att", ".att_syntax\n", att[i]}} {
			file, err := Parse("example.s", []byte(syn.header+syn.text+"\n"))
			if err != nil {
				report(syn.check, f, "%q: %v", syn.text, err)
				continue
			}
			ins := file.Insts()
			if len(ins) != 1 {
				report(syn.check, f, "%q: %d instructions", syn.text, len(ins))
				continue
			}
			in := ins[0]
			if in.Form == nil {
				_, err := in.ResolveForm()
				report(syn.check, f, "%q: %v", syn.text, err)
			} else if in.Form != f {
				report(syn.check, f, "%q resolves to %q", syn.text, in.Form.Name())
			}
		}
	}

	// Decode, then print the decoded instruction for reassembly.
	var reIntel, reATT []string
	var reIdx []int
	decodedOK := 0
	byDecoder := map[string]int{}
	for i, f := range forms {
		b, ok := code[i]
		if !ok {
			continue
		}
		ins, err := Decode(b, 0)
		switch {
		case err != nil:
			report("decode", f, "% x: %v", b, err)
			continue
		case len(ins) != 1:
			var s []string
			for _, in := range ins {
				s = append(s, in.Intel())
			}
			report("decode", f, "% x: %d instructions: %s", b, len(ins), strings.Join(s, "; "))
			continue
		}
		in := ins[0]
		if in.Form != f {
			got := "no form"
			if in.Form != nil {
				got = in.Form.Name()
			}
			report("decode", f, "% x: decoded as %q (%s)", b, in.Intel(), got)
			continue
		}
		decodedOK++
		byDecoder[in.decoder.String()]++
		for k := range in.Args {
			if a := &in.Args[k]; a.Type == OpLabel && a.Symbol == "" && a.Imm == int64(in.Addr) {
				a.Symbol, a.Imm = ".", 0
			}
		}
		reIdx = append(reIdx, i)
		reIntel = append(reIntel, in.Intel())
		reATT = append(reATT, in.ATT())
	}
	reI, reIErr := rtAssemble(t, dir, "reprint-intel", ".intel_syntax noprefix", reIntel)
	reA, reAErr := rtAssemble(t, dir, "reprint-att", ".att_syntax", reATT)
	for k, i := range reIdx {
		f := forms[i]
		if e, ok := reIErr[k]; ok {
			report("print-intel", f, "%q: %s", reIntel[k], e)
		} else if !bytes.Equal(reI[k], code[i]) {
			report("print-intel", f, "%q: % x, want % x", reIntel[k], reI[k], code[i])
		}
		if e, ok := reAErr[k]; ok {
			report("print-att", f, "%q: %s", reATT[k], e)
		} else if !bytes.Equal(reA[k], code[i]) {
			report("print-att", f, "%q: % x, want % x", reATT[k], reA[k], code[i])
		}
	}

	counts := map[string]int{}
	unknown := 0
	for _, p := range problems {
		counts[p.check]++
		reason, known := rtIsKnown(p.check, p.form)
		if known {
			t.Logf("known %s: %s: %s (%s)", p.check, p.form, p.detail, reason)
			continue
		}
		unknown++
		t.Errorf("%s: %s: %s", p.check, p.form, p.detail)
	}
	t.Logf("%d forms; %d assembled; %d decoded back to their form (by decoder: %v); %d printed and reassembled to the same bytes in both syntaxes; disagreements by check: %v",
		len(forms), len(code), decodedOK, byDecoder, len(reIdx)-counts["print-intel"]-counts["print-att"], counts)
	if unknown > 0 {
		t.Errorf("%d disagreements not in the known list", unknown)
	}
	if len(problems) > rtMaxDisagreements {
		t.Errorf("%d disagreements, more than the bound %d", len(problems), rtMaxDisagreements)
	}
}

// rtMaxDisagreements bounds the known disagreements of TestRoundTrip (11 with
// GNU as 2.40, 14 with 2.42: 5 far-pointer examples GNU as rejects, 4 forms
// GNU as encodes like another form (7 with 2.42, which drops the REX.W of lar
// and lsl r64), and xbegin rel16 in parse and decode). A new catalog form that
// disagrees must be fixed or added to rtKnown with its reason, and the bound
// raised only with the reason understood.
const rtMaxDisagreements = 20

// TestOwnEVEXDecoder exercises portlab's EVEX decoder on every EVEX form of
// the catalog. The catalog gives no EVEX opcode strings yet, so the test
// derives each form's string from the bytes GNU as produced for its example
// (map, pp, L'L, W, opcode byte, /r or /digit, ib), decodes the bytes with
// those strings, and checks the form comes back and that the decoded
// instruction, printed, assembles to the same bytes. This covers operand
// roles, disp8*N compression, broadcast counts, masking and registers 16-31.
func TestOwnEVEXDecoder(t *testing.T) {
	if _, err := exec.LookPath("as"); err != nil {
		t.Skip("GNU as not found: " + err.Error())
	}
	var forms []*Form
	for _, f := range All() {
		if f.Encoding == EVEX && f.Opcode == "" {
			forms = append(forms, f)
		}
	}
	if len(forms) == 0 {
		t.Skip("no EVEX forms without opcode strings")
	}
	dir := t.TempDir()
	var intel []string
	for _, f := range forms {
		i, _ := f.Example()
		intel = append(intel, i)
	}
	code, _ := rtAssemble(t, dir, "evex", ".intel_syntax noprefix", intel)
	clones := make([]*Form, len(forms))
	for i, f := range forms {
		b, ok := code[i]
		if !ok {
			continue
		}
		spec, ok := evexSpecFromBytes(f, b)
		if !ok {
			t.Errorf("%s: cannot derive an opcode string from % x", f.Name(), b)
			continue
		}
		g := *f
		g.Opcode = spec
		clones[i] = &g
	}
	var list []*Form
	for _, g := range clones {
		if g != nil {
			list = append(list, g)
		}
	}
	tabs := newDecTables(list)
	var texts []string
	var idx []int
	bad := 0
	for i, g := range clones {
		if g == nil {
			continue
		}
		b := code[i]
		pre, _ := scanPrefixes(b)
		in, err := decodeVEX(tabs, b, 0, pre)
		switch {
		case err != nil:
			t.Errorf("%s (%s): % x: %v", g.Name(), g.Opcode, b, err)
			bad++
			continue
		case in.decoder != decVEX || in.Form != g || in.Len != len(b):
			t.Errorf("%s (%s): % x: decoded %q as %q by %v, length %d", g.Name(), g.Opcode, b, in.Intel(), formName(in), in.decoder, in.Len)
			bad++
			continue
		}
		texts = append(texts, in.Intel())
		idx = append(idx, i)
	}
	re, reErr := rtAssemble(t, dir, "evex-reprint", ".intel_syntax noprefix", texts)
	for k, i := range idx {
		if e, ok := reErr[k]; ok {
			t.Errorf("%s: %q: %s", forms[i].Name(), texts[k], e)
			bad++
		} else if !bytes.Equal(re[k], code[i]) {
			t.Errorf("%s: %q: % x, want % x", forms[i].Name(), texts[k], re[k], code[i])
			bad++
		}
	}
	t.Logf("%d EVEX forms, %d decoded by portlab's EVEX decoder and reassembled to the same bytes", len(forms), len(idx)-bad)
}

// evexSpecFromBytes writes the opcode string of an EVEX instruction in the
// catalog's style, from its encoding and its form's operands.
func evexSpecFromBytes(f *Form, b []byte) (string, bool) {
	if len(b) < 6 || b[0] != 0x62 {
		return "", false
	}
	v, bad := parseVEXPrefix(b)
	if bad != "" {
		return "", false
	}
	op, modrm := b[4], b[5]
	maps := map[uint8]string{1: "0F", 2: "0F38", 3: "0F3A", 5: "MAP5", 6: "MAP6"}
	pps := []string{"", ".66", ".F3", ".F2"}
	l := v.l
	if v.bb && modrm>>6 == 3 {
		l = 2
	}
	s := fmt.Sprintf("EVEX.%d%s.%s.W%d %02X", 128<<l, pps[v.pp], maps[v.mmap], v.w, op)
	n := 0
	imm := false
	for _, o := range f.Operands {
		switch k := o.Kind; {
		case k.IsImmediate():
			imm = true
		default:
			n++
		}
	}
	vvvv := v.vvvv
	if v.v2 {
		vvvv |= 16
	}
	usesV := 0
	if vvvv != 0 {
		usesV = 1
	}
	switch n - 1 - usesV {
	case 1:
		s += " /r"
	case 0:
		s += fmt.Sprintf(" /%d", modrm>>3&7)
	default:
		return "", false
	}
	if imm {
		s += " ib"
	}
	return s, true
}
