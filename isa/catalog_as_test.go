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
	"sync"
	"testing"
)

// asExcluded lists forms left out of the GNU as round trip, with the reason.
var asExcluded = map[string]string{
	"call m16:64":     "REX.W far pointer (Intel 64 only): GNU as needs -mintel64",
	"jmp m16:64":      "REX.W far pointer (Intel 64 only): GNU as needs -mintel64",
	"lfs r64, m16:64": "REX.W far pointer (Intel 64 only): GNU as needs -mintel64",
	"lgs r64, m16:64": "REX.W far pointer (Intel 64 only): GNU as needs -mintel64",
	"lss r64, m16:64": "REX.W far pointer (Intel 64 only): GNU as needs -mintel64",
}

// asResult is the outcome of assembling one syntax.
type asResult struct {
	errs  map[int][]string // form index -> error lines
	bytes map[int][]byte   // form index -> encoded bytes
}

// assembleForms assembles one line per form, each after a label "formN", in
// one GNU as run, and returns per-form errors or bytes.
func assembleForms(dir, name, header string, lines []string) (asResult, error) {
	var src bytes.Buffer
	src.WriteString(header + "\n.text\n")
	lineOf := map[int]int{} // source line -> form index
	n := 3
	for i, l := range lines {
		fmt.Fprintf(&src, "form%d:\n", i)
		n++
		src.WriteString("\t" + l + "\n")
		lineOf[n] = i
		n++
	}
	src.WriteString("form_end:\n")
	sfile := filepath.Join(dir, name+".s")
	ofile := filepath.Join(dir, name+".o")
	res := asResult{errs: map[int][]string{}, bytes: map[int][]byte{}}
	if err := os.WriteFile(sfile, src.Bytes(), 0o644); err != nil {
		return res, err
	}
	out, err := exec.Command("as", "--64", "-o", ofile, sfile).CombinedOutput()
	re := regexp.MustCompile(`^[^:]*\.s:(\d+): (Error|Warning): (.*)$`)
	for _, l := range strings.Split(string(out), "\n") {
		m := re.FindStringSubmatch(l)
		if m == nil || m[2] != "Error" {
			continue
		}
		ln, _ := strconv.Atoi(m[1])
		idx, ok := lineOf[ln]
		if !ok {
			return res, fmt.Errorf("%s: as error outside a form line: %s", name, l)
		}
		res.errs[idx] = append(res.errs[idx], m[3])
	}
	if err != nil {
		if len(res.errs) == 0 {
			return res, fmt.Errorf("%s: as failed: %v\n%s", name, err, out)
		}
		return res, nil
	}
	ef, err := elf.Open(ofile)
	if err != nil {
		return res, err
	}
	defer ef.Close()
	text := ef.Section(".text")
	if text == nil {
		return res, fmt.Errorf("%s: no .text section", name)
	}
	data, err := text.Data()
	if err != nil {
		return res, err
	}
	syms, err := ef.Symbols()
	if err != nil {
		return res, err
	}
	addr := map[int]uint64{}
	end := uint64(len(data))
	for _, s := range syms {
		if s.Name == "form_end" {
			end = s.Value
			continue
		}
		if strings.HasPrefix(s.Name, "form") {
			if i, err := strconv.Atoi(s.Name[4:]); err == nil {
				addr[i] = s.Value
			}
		}
	}
	for i := range lines {
		a, ok := addr[i]
		if !ok {
			return res, fmt.Errorf("%s: no label for form %d", name, i)
		}
		b := end
		if next, ok := addr[i+1]; ok {
			b = next
		}
		if a > b || b > uint64(len(data)) {
			return res, fmt.Errorf("%s: bad label addresses for form %d", name, i)
		}
		res.bytes[i] = data[a:b]
	}
	return res, nil
}

// assembled holds the catalog assembled once for all tests that need it.
var assembled struct {
	once     sync.Once
	skip     string
	forms    []*Form
	intel    []string
	att      []string
	ri, ra   asResult
	fatalMsg string
}

// assembleCatalog renders Example() of every catalog form (except
// asExcluded) in Intel and AT&T syntax and assembles each syntax in one GNU
// as run. It skips the test when as is missing.
func assembleCatalog(t *testing.T) {
	t.Helper()
	// Everything below runs once; failures are recorded, not raised, so
	// that every test using the result reports them.
	assembled.once.Do(func() {
		if _, err := exec.LookPath("as"); err != nil {
			assembled.skip = "GNU as not in PATH"
			return
		}
		for _, f := range All() {
			if _, skip := asExcluded[f.Name()]; !skip {
				assembled.forms = append(assembled.forms, f)
			}
		}
		n := len(assembled.forms)
		assembled.intel = make([]string, n)
		assembled.att = make([]string, n)
		for i, f := range assembled.forms {
			assembled.intel[i], assembled.att[i] = f.Example()
		}
		dir, err := os.MkdirTemp("", "portlab-isa-as")
		if err != nil {
			assembled.fatalMsg = err.Error()
			return
		}
		defer os.RemoveAll(dir)
		var err1, err2 error
		assembled.ri, err1 = assembleForms(dir, "intel", ".intel_syntax noprefix", assembled.intel)
		assembled.ra, err2 = assembleForms(dir, "att", ".att_syntax prefix", assembled.att)
		for _, err := range []error{err1, err2} {
			if err != nil {
				assembled.fatalMsg += err.Error() + "\n"
			}
		}
	})
	if assembled.skip != "" {
		t.Skip(assembled.skip)
	}
	if assembled.fatalMsg != "" {
		t.Fatal(assembled.fatalMsg)
	}
}

// TestCatalogAssembles checks that every form's Example assembles in both
// syntaxes and that both encode the same bytes.
func TestCatalogAssembles(t *testing.T) {
	assembleCatalog(t)
	for name := range asExcluded {
		if _, ok := Lookup(name); !ok {
			t.Errorf("excluded form %q is not in the catalog", name)
		}
	}
	forms, intel, att, ri, ra := assembled.forms, assembled.intel, assembled.att, assembled.ri, assembled.ra
	var failed []string
	for i, f := range forms {
		if e := ri.errs[i]; len(e) > 0 {
			failed = append(failed, fmt.Sprintf("%s: intel %q: %s", f.Name(), intel[i], strings.Join(e, "; ")))
		}
		if e := ra.errs[i]; len(e) > 0 {
			failed = append(failed, fmt.Sprintf("%s: att %q: %s", f.Name(), att[i], strings.Join(e, "; ")))
		}
	}
	sort.Strings(failed)
	for _, s := range failed {
		t.Error(s)
	}
	if len(failed) > 0 {
		t.Fatalf("%d of %d forms do not assemble", len(failed), len(forms))
	}
	diff := 0
	for i, f := range forms {
		if !bytes.Equal(ri.bytes[i], ra.bytes[i]) {
			diff++
			t.Errorf("%s: intel %q -> % x, att %q -> % x", f.Name(), intel[i], ri.bytes[i], att[i], ra.bytes[i])
		}
		if len(ri.bytes[i]) == 0 {
			t.Errorf("%s: no bytes", f.Name())
		}
	}
	t.Logf("%d forms assembled in both syntaxes, %d excluded, %d differ", len(forms), len(asExcluded), diff)
}

// TestCatalogEncodings checks that what GNU as emitted for each Example is
// the encoding the form stands for: the opcode text of table forms (mandatory
// prefixes, REX.W, VEX fields, opcode bytes, ModRM.reg digit), and for EVEX
// forms the EVEX prefix with the form's vector length, mask, zeroing and
// broadcast bits.
func TestCatalogEncodings(t *testing.T) {
	assembleCatalog(t)
	if len(assembled.ri.errs) > 0 {
		t.Fatal("forms do not assemble (see TestCatalogAssembles)")
	}
	checked := 0
	for i, f := range assembled.forms {
		b := assembled.ri.bytes[i]
		var err error
		switch {
		case f.Encoding == EVEX:
			err = checkEVEX(f, b)
		case f.Opcode == "" && f.Encoding == VEX:
			if len(b) == 0 || (b[0] != 0xC4 && b[0] != 0xC5) {
				err = fmt.Errorf("not VEX-encoded")
			}
		case f.Opcode != "":
			err = checkOpcode(f.Opcode, b)
		default:
			continue
		}
		checked++
		if _, ok := rexWOptional[f.Name()]; ok && err != nil {
			// Either encoding is right: check the bytes without REX.W too.
			err = checkOpcode(strings.Replace(f.Opcode, "REX.W ", "", 1), b)
		}
		if _, ok := encodingExceptions[f.Name()]; ok {
			if err == nil {
				t.Errorf("%s: listed in encodingExceptions but encodes as its opcode says", f.Name())
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %q -> % x: %v (opcode %q)", f.Name(), assembled.intel[i], b, err, f.Opcode)
		}
	}
	t.Logf("%d encodings checked", checked)
}

// encodingExceptions lists forms whose bytes differ from the opcode text in
// a way that does not matter, with the reason.
var encodingExceptions = map[string]string{
	"sldt r64": "GNU as omits the REX.W, which changes nothing (the upper bits are zeroed either way)",
	"str r64":  "GNU as omits the REX.W, which changes nothing (the upper bits are zeroed either way)",
}

// rexWOptional lists forms that GNU as encodes with the REX.W of their opcode
// text in some versions and without it in others (binutils 2.40 keeps it,
// 2.42 drops it), with the reason either is right. Both encodings pass.
var rexWOptional = map[string]string{
	"lar r64, m16": "LAR writes the same zero-extended result with and without REX.W; newer GNU as drops the prefix",
	"lar r64, r16": "LAR writes the same zero-extended result with and without REX.W; newer GNU as drops the prefix",
	"lsl r64, m16": "LSL writes the same zero-extended result with and without REX.W; newer GNU as drops the prefix",
}

func isLegacyPrefix(b byte) bool {
	switch b {
	case 0x66, 0x67, 0xF2, 0xF3, 0xF0, 0x9B, 0x2E, 0x26, 0x36, 0x3E, 0x64, 0x65:
		return true
	}
	return false
}

// checkOpcode matches encoded bytes against an Intel-manual opcode text.
func checkOpcode(opcode string, b []byte) error {
	toks := strings.Fields(opcode)
	var prefixes []byte
	rex := ""
	var vex string
	type opByte struct {
		v    byte
		plus bool
	}
	var ops []opByte
	digit := -1
	for i, tk := range toks {
		switch {
		case tk == "+":
		case strings.HasPrefix(tk, "REX"):
			rex = tk
		case strings.HasPrefix(tk, "VEX."):
			vex = tk
		case len(tk) == 2 && tk[0] == '/' && tk[1] >= '0' && tk[1] <= '7':
			digit = int(tk[1] - '0')
		case len(tk) >= 2 && isOpcodeByte(tk[:2]):
			v, _ := strconv.ParseUint(tk[:2], 16, 8)
			plus := strings.Contains(tk, "+")
			// Mandatory prefixes come before the opcode proper.
			if len(ops) == 0 && !plus && vex == "" && i+1 < len(toks) && isLegacyPrefix(byte(v)) && hasHexAfter(toks[i+1:]) {
				prefixes = append(prefixes, byte(v))
				continue
			}
			ops = append(ops, opByte{byte(v), plus})
		}
	}
	i := 0
	seen := map[byte]bool{}
	for i < len(b)-1 && isLegacyPrefix(b[i]) && (bytes.IndexByte(prefixes, b[i]) >= 0 || b[i] == 0x66 || b[i] == 0x67) {
		seen[b[i]] = true
		i++
	}
	for _, p := range prefixes {
		if !seen[p] {
			return fmt.Errorf("missing prefix %02x", p)
		}
	}
	if vex != "" {
		n, err := checkVEX(vex, b[i:])
		if err != nil {
			return err
		}
		i += n
	} else {
		var r byte
		if i < len(b) && b[i]&0xF0 == 0x40 {
			r = b[i]
			i++
		}
		switch rex {
		case "REX.W":
			if r&8 == 0 {
				return fmt.Errorf("REX.W missing")
			}
		case "REX.R":
			if r&4 == 0 {
				return fmt.Errorf("REX.R missing")
			}
		case "":
			if r&8 != 0 {
				return fmt.Errorf("unexpected REX.W")
			}
		}
	}
	for _, o := range ops {
		if i >= len(b) {
			return fmt.Errorf("too short")
		}
		got := b[i]
		if o.plus {
			got &^= 7
		}
		if got != o.v {
			return fmt.Errorf("opcode byte %02x, want %02x", b[i], o.v)
		}
		i++
	}
	if digit >= 0 {
		if i >= len(b) {
			return fmt.Errorf("no ModRM")
		}
		if int(b[i]>>3&7) != digit {
			return fmt.Errorf("ModRM.reg %d, want /%d", b[i]>>3&7, digit)
		}
	}
	return nil
}

func hasHexAfter(toks []string) bool {
	for _, t := range toks {
		if len(t) >= 2 && isOpcodeByte(t[:2]) {
			return true
		}
	}
	return false
}

// isOpcodeByte reports whether s is an opcode byte in upper-case hex
// (immediates are lower case: ib, cd, ...).
func isOpcodeByte(s string) bool {
	if strings.ToUpper(s) != s {
		return false
	}
	_, err := strconv.ParseUint(s, 16, 8)
	return err == nil
}

// checkVEX matches a VEX prefix against "VEX.NDS.256.66.0F38.W1" and returns
// the prefix length.
func checkVEX(spec string, b []byte) (int, error) {
	if len(b) < 3 {
		return 0, fmt.Errorf("too short for VEX")
	}
	var mmmmm, w, l, pp, n int
	switch b[0] {
	case 0xC5:
		mmmmm, w, l, pp, n = 1, 0, int(b[1]>>2&1), int(b[1]&3), 2
	case 0xC4:
		mmmmm, w, l, pp, n = int(b[1]&31), int(b[2]>>7), int(b[2]>>2&1), int(b[2]&3), 3
	default:
		return 0, fmt.Errorf("not VEX-encoded")
	}
	for _, field := range strings.Split(spec, ".")[1:] {
		switch field {
		case "128", "L0":
			if l != 0 {
				return 0, fmt.Errorf("VEX.L=1, want 128")
			}
		case "256", "L1":
			if l != 1 {
				return 0, fmt.Errorf("VEX.L=0, want 256")
			}
		case "66", "F3", "F2":
			want := map[string]int{"66": 1, "F3": 2, "F2": 3}[field]
			if pp != want {
				return 0, fmt.Errorf("VEX.pp=%d, want %s", pp, field)
			}
		case "0F", "0F38", "0F3A":
			want := map[string]int{"0F": 1, "0F38": 2, "0F3A": 3}[field]
			if mmmmm != want {
				return 0, fmt.Errorf("VEX map %d, want %s", mmmmm, field)
			}
		case "W0", "W1":
			if w != int(field[1]-'0') {
				return 0, fmt.Errorf("VEX.W=%d, want %s", w, field)
			}
		}
	}
	if !strings.Contains(spec, ".66.") && !strings.Contains(spec, ".F3.") && !strings.Contains(spec, ".F2.") && pp != 0 {
		return 0, fmt.Errorf("VEX.pp=%d, want none", pp)
	}
	return n, nil
}

// checkEVEX checks the EVEX prefix of a generated form's encoding.
func checkEVEX(f *Form, b []byte) error {
	i := 0
	for i < len(b) && isLegacyPrefix(b[i]) {
		i++
	}
	if i+4 > len(b) || b[i] != 0x62 {
		return fmt.Errorf("not EVEX-encoded")
	}
	p2 := b[i+3]
	z, ll, bc, aaa := p2>>7, int(p2>>5&3), p2>>4&1, int(p2&7)
	d := f.Operands[0]
	if d.Masked && aaa != 1 {
		return fmt.Errorf("EVEX.aaa=%d, want k1", aaa)
	}
	if !d.Masked && aaa != 0 {
		return fmt.Errorf("EVEX.aaa=%d, want none", aaa)
	}
	if (z == 1) != d.Zeroing {
		return fmt.Errorf("EVEX.z=%d", z)
	}
	bcst := false
	for _, op := range f.Operands {
		bcst = bcst || op.Kind.IsBroadcast()
	}
	if (bc == 1) != bcst {
		return fmt.Errorf("EVEX.b=%d", bc)
	}
	m := f.evex
	if want := map[int]int{128: 0, 256: 1, 512: 2}[m.vl]; ll != want && !isScalarEVEX(f) {
		return fmt.Errorf("EVEX.L'L=%d, want %d-bit", ll, m.vl)
	}
	return nil
}

// isScalarEVEX reports whether a form ignores EVEX.L'L: all its vector
// operands are xmm.
func isScalarEVEX(f *Form) bool {
	for _, op := range f.Operands {
		switch op.Kind {
		case KindYMM, KindZMM, KindM128, KindM256, KindM512:
			return false
		}
	}
	return true
}
