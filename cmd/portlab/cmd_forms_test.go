package main

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"portlab/hostcpu"
	"portlab/isa"
)

func runFormsCmd(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = run(append([]string{"forms"}, args...), &out, &errOut)
	return code, out.String(), errOut.String()
}

func TestFormsGlob(t *testing.T) {
	code, out, errs := runFormsCmd(t, "vfmadd231pd *")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != 31 {
		t.Errorf("%d forms, want 31:\n%s", len(lines), out)
	}
	want := map[string]bool{"vfmadd231pd ymm, ymm, m256": false, "vfmadd231pd zmm {k}{z}, zmm, m64bcst": false, "{evex} vfmadd231pd ymm, ymm, ymm": false}
	for _, l := range lines {
		if _, ok := want[l]; ok {
			want[l] = true
		}
	}
	for n, seen := range want {
		if !seen {
			t.Errorf("%q missing", n)
		}
	}

	// Several globs: union, sorted, no duplicates; flags after arguments.
	code, out, _ = runFormsCmd(t, "add r64, r64", "add r64,*", "--count")
	if code != 0 || strings.TrimSpace(out) != "4" {
		t.Errorf("union count: exit %d, %q", code, out)
	}
	code, out, _ = runFormsCmd(t, "cmovc r64, r64")
	if code != 0 || out != "cmovb r64, r64\n" {
		t.Errorf("alias: exit %d, %q", code, out)
	}
}

func TestFormsCountAll(t *testing.T) {
	code, out, errs := runFormsCmd(t, "--count")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	n, err := strconv.Atoi(strings.TrimSpace(out))
	if err != nil || n != len(isa.All()) || n < 2000 {
		t.Errorf("--count = %q, catalog has %d", out, len(isa.All()))
	}
}

func TestFormsJSON(t *testing.T) {
	code, out, errs := runFormsCmd(t, "--json", "adc r64, r64", "div r64", "vaddpd zmm {k}, zmm, m64bcst", "shlx r64, r64, r64")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var got []struct {
		Name     string `json:"name"`
		Mnemonic string `json:"mnemonic"`
		GNU      string `json:"gnu"`
		Operands []struct {
			Kind   string `json:"kind"`
			Access string `json:"access"`
			Masked bool   `json:"masked"`
		} `json:"operands"`
		Encoding       string   `json:"encoding"`
		Features       []string `json:"features"`
		ImplicitReads  []string `json:"implicit_reads"`
		ImplicitWrites []string `json:"implicit_writes"`
		Flags          struct {
			Read      []string `json:"read"`
			Written   []string `json:"written"`
			Undefined []string `json:"undefined"`
		} `json:"flags"`
		Attrs []string `json:"attrs"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if len(got) != 4 {
		t.Fatalf("%d forms, want 4", len(got))
	}
	adc, div, shlx, vaddpd := got[0], got[1], got[2], got[3]
	if adc.Name != "adc r64, r64" || adc.Mnemonic != "adc" || adc.GNU != "adcq" || adc.Encoding != "legacy" ||
		len(adc.Operands) != 2 || adc.Operands[0].Kind != "r64" || adc.Operands[0].Access != "rw" || adc.Operands[1].Access != "r" ||
		!reflect.DeepEqual(adc.Flags.Read, []string{"cf"}) || len(adc.Flags.Written) != 6 || len(adc.Features) != 0 || adc.Features == nil {
		t.Errorf("adc: %+v", adc)
	}
	if div.Name != "div r64" || !reflect.DeepEqual(div.ImplicitReads, []string{"rax", "rdx"}) ||
		!reflect.DeepEqual(div.ImplicitWrites, []string{"rax", "rdx"}) || len(div.Flags.Undefined) != 6 {
		t.Errorf("div: %+v", div)
	}
	if shlx.Name != "shlx r64, r64, r64" || len(shlx.Flags.Read)+len(shlx.Flags.Written) != 0 ||
		!reflect.DeepEqual(shlx.Features, []string{"bmi2"}) || shlx.Encoding != "vex" {
		t.Errorf("shlx: %+v", shlx)
	}
	if vaddpd.Name != "vaddpd zmm {k}, zmm, m64bcst" || vaddpd.Encoding != "evex" || !vaddpd.Operands[0].Masked ||
		vaddpd.Operands[0].Access != "rcw" || vaddpd.Operands[2].Kind != "m64bcst" || !reflect.DeepEqual(vaddpd.Features, []string{"avx512f"}) {
		t.Errorf("vaddpd: %+v", vaddpd)
	}
	code, out, _ = runFormsCmd(t, "--json", "jmp rel8")
	if code != 0 || !strings.Contains(out, `"branch"`) {
		t.Errorf("jmp attrs: %s", out)
	}
}

func TestFormsHost(t *testing.T) {
	info, err := hostcpu.Detect()
	if err != nil {
		t.Skip(err)
	}
	code, out, errs := runFormsCmd(t, "--host")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	names := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	want := 0
	for _, f := range isa.All() {
		if f.Supported(info.Has) {
			want++
		}
	}
	if len(names) != want {
		t.Errorf("--host listed %d forms, want %d", len(names), want)
	}
	for _, n := range names {
		f, ok := isa.Lookup(n)
		if !ok || !f.Supported(info.Has) {
			t.Errorf("--host listed %q", n)
		}
	}
	if !strings.Contains(out, "\nadd r64, r64\n") {
		t.Error("--host misses add r64, r64")
	}
	t.Logf("host runs %d of %d forms", want, len(isa.All()))
}

func TestFormsErrors(t *testing.T) {
	for _, c := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"vadd[pd"}, 2, `glob "vadd[pd"`},
		{[]string{"nosuch*"}, 1, `no form matches "nosuch*"`},
		{[]string{"--count", "--json"}, 2, "exclusive"},
		{[]string{"--bogus"}, 2, "bogus"},
	} {
		code, _, errs := runFormsCmd(t, c.args...)
		if code != c.code || !strings.Contains(errs, c.msg) {
			t.Errorf("forms %q: exit %d, stderr %q; want %d and %q", c.args, code, errs, c.code, c.msg)
		}
	}
	if code, _, _ := runFormsCmd(t, "-h"); code != 0 {
		t.Errorf("-h: exit %d", code)
	}
}
