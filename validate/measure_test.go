package validate

import (
	"math"
	"os"
	"os/exec"
	"testing"

	"portlab/analysis/input"
	"portlab/internal/retry"
	"portlab/jit"
	"portlab/measure"
)

func TestMain(m *testing.M) {
	jit.MaybeRunWorker()
	os.Exit(m.Run())
}

// Kernel measurement: compute-bound kernels measure their known bound, and
// two runs agree within 2 %. (Streaming kernels vary more; see
// docs/benchmarks.md.)
func TestMeasureKernels(t *testing.T) {
	if _, err := exec.LookPath("as"); err != nil {
		t.Skip("GNU as not installed")
	}
	eng, _, err := measure.NewHostEngine(-1)
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	files := []string{"../testdata/kernels/imul_chain.s", "../testdata/kernels/int_add_chain.s",
		"../testdata/kernels/fma_dot_1acc.s", "../testdata/kernels/crc32_chain.s", "../testdata/kernels/load_index_chain.s"}
	ks, err := Load(files, input.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var bad []string
	ok := retry.Patiently(6, func(int) bool {
		a := Measure(eng, ks, measure.Options{})
		b := Measure(eng, ks, measure.Options{})
		bad = nil
		for i := range ks {
			if a[i].Err != nil || b[i].Err != nil {
				t.Fatalf("%s: %v %v", ks[i].Name, a[i].Err, b[i].Err)
			}
			if d := math.Abs(a[i].Cycles-b[i].Cycles) / math.Min(a[i].Cycles, b[i].Cycles); d > 0.02 {
				bad = append(bad, ks[i].Name)
			}
			// Latency-bound kernels: whole cycles per iteration.
			if f := a[i].Cycles - math.Round(a[i].Cycles); math.Abs(f) > 0.05*a[i].Cycles {
				bad = append(bad, ks[i].Name+" (not a whole number of cycles)")
			}
		}
		if len(bad) > 0 {
			return false
		}
		for i := range ks {
			t.Logf("%s: %.3f cycles/iteration", ks[i].Name, a[i].Cycles)
		}
		return true
	})
	if !ok {
		t.Errorf("kernels that did not repeat within 2%%: %v", bad)
	}
}
