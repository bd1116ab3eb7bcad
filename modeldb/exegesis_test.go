package modeldb

import (
	"context"
	"testing"
	"time"

	"portlab/results"
)

func TestImportExegesisPortlabResults(t *testing.T) {
	bs, err := results.ReadFile("../testdata/models/sweep-results.yaml")
	if err != nil {
		t.Fatal(err)
	}
	m, ms := ImportExegesis(bs, ExegesisOptions{Sources: []string{"sweep-results.yaml"}, Now: fixedNow})
	if len(m.Forms) != 5 || len(ms.Skipped) != 2 {
		t.Fatalf("%d forms, skipped %v", len(m.Forms), ms.Skipped)
	}
	e, _ := m.Lookup("vfmadd231pd ymm, ymm, ymm")
	if e.Throughput != 0.5 || e.Latency != 4 || len(e.Latencies) != 2 || len(e.PortPressure) != 0 || e.Provenance.Source != SourceMeasured {
		t.Errorf("entry %+v", e)
	}
	if m.Provenance.From != "exegesis:sweep-results.yaml" || m.LLVMCPU != "znver4" {
		t.Errorf("model %+v", m.Provenance)
	}
}

// TestImportExegesisOwnFiles reads llvm-exegesis's own results, which name
// LLVM opcodes, through llvm-mc's opcode map; and its uops mode.
func TestImportExegesisOwnFiles(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	opcodes, err := LLVMOpcodeForms(ctx, "")
	if err != nil {
		t.Skip(err)
	}
	for op, form := range map[string]string{"ADD64rr": "add r64, r64", "VADDPDYrr": "vaddpd ymm, ymm, ymm", "VFMADD231PDYm": "vfmadd231pd ymm, ymm, m256", "VADDPDZ256rr": "{evex} vaddpd ymm, ymm, ymm"} {
		if opcodes[op] != form {
			t.Errorf("opcode %s -> %q, want %q", op, opcodes[op], form)
		}
	}
	bs, err := results.ReadFile("../testdata/exegesis/exegesis-results.yaml")
	if err != nil {
		t.Fatal(err)
	}
	uops, err := results.Parse("uops.yaml", []byte(`---
mode:            uops
key:
  instructions:
    - 'VMULPDYrr YMM1 YMM2 YMM3'
  config:          ''
  register_initial_values: []
cpu_name:        skylake
llvm_triple:     x86_64-unknown-linux-gnu
num_repetitions: 10000
measurements:
  - { key: SKLPort0, value: 0.5, per_snippet_value: 0.5 }
  - { key: SKLPort1, value: 0.5, per_snippet_value: 0.5 }
  - { key: NumMicroOps, value: 1, per_snippet_value: 1 }
error:           ''
info:            ''
assembled_snippet: C5ED59CBC3
...
`))
	if err != nil {
		t.Fatal(err)
	}
	m, ms := ImportExegesis(append(bs, uops...), ExegesisOptions{OpcodeForms: opcodes})
	e, ok := m.Lookup("add r64, r64")
	if !ok || e.Latency != 1.0027 {
		t.Errorf("add r64, r64: %+v (skipped %v)", e, ms.Skipped)
	}
	e, ok = m.Lookup("vaddpd ymm, ymm, ymm")
	if !ok || e.Throughput != 0.5012 {
		t.Errorf("vaddpd: %+v", e)
	}
	if _, ok := m.Lookup("div r64"); ok {
		t.Error("a crashed result became an entry")
	}
	e, ok = m.Lookup("vmulpd ymm, ymm, ymm")
	if !ok || FormatPressure(e.PortPressure) != "0.5*p0+0.5*p1" || e.Uops != 1 || m.LLVMCPU != "znver3" {
		t.Errorf("uops mode: %+v, ports %v", e, m.Ports)
	}
}
