package modeldb

import (
	"encoding/gob"
	"os"
	"runtime/pprof"
	"testing"
	"time"

	"portlab/results"
)

func loadRealMS(t *testing.T) *Measurements {
	path := os.Getenv("REAL_SWEEP")
	if path == "" {
		t.Skip("REAL_SWEEP unset")
	}
	cache := "/tmp/work/ms.gob"
	if f, err := os.Open(cache); err == nil {
		defer f.Close()
		var ms Measurements
		if err := gob.NewDecoder(f).Decode(&ms); err == nil {
			return &ms
		}
	}
	t0 := time.Now()
	bs, err := results.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	ms := CollectMeasurements(bs, CollectOptions{})
	t.Logf("read+collect %v", time.Since(t0))
	f, _ := os.Create(cache)
	gob.NewEncoder(f).Encode(ms)
	f.Close()
	return ms
}

func TestZZRealBuild(t *testing.T) {
	ms := loadRealMS(t)
	base, err := Embedded("llvm14-sapphirerapids.yml.gz")
	if err != nil {
		t.Fatal(err)
	}
	if p := os.Getenv("CPUPROF"); p != "" {
		f, _ := os.Create(p)
		pprof.StartCPUProfile(f)
		defer pprof.StopCPUProfile()
		if s := os.Getenv("PROFSECS"); s != "" {
			d, _ := time.ParseDuration(s)
			go func() {
				time.Sleep(d)
				pprof.StopCPUProfile()
				f.Close()
				os.Exit(3)
			}()
		}
	}
	t0 := time.Now()
	m, rep, err := Build(ms, BuildOptions{Base: base, LLVMCPU: "graniterapids", HoldOut: 0.1, Now: fixedNow})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("build %v", time.Since(t0))
	t.Logf("%s", rep.Summary(10))
	r := EvaluateMixMeasurements(m, rep.HeldOut, 0.10)
	t.Logf("held out: %s", r.Summary(10))
	for _, f := range []string{"vaddpd ymm, ymm, ymm", "vmulpd ymm, ymm, ymm", "vfmadd231pd ymm, ymm, ymm", "add r64, r64", "imul r64, r64", "mov r64, m64", "mov m64, r64", "shl r64, imm8", "vpshufb ymm, ymm, ymm"} {
		if e, ok := m.Lookup(f); ok {
			t.Logf("%-30s %s tp %v conf %s", f, FormatPressure(e.PortPressure), e.Throughput, e.Provenance.Confidence)
		}
	}
}
