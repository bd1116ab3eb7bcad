package measure

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"
)

func TestZZLevels(t *testing.T) {
	if os.Getenv("ZZ") == "" {
		t.Skip()
	}
	e, _ := hostEngine(t)
	var b strings.Builder
	for i := 0; i < 32; i++ {
		fmt.Fprintf(&b, "xor eax, eax\nadc word ptr [rdi+%d], 1\n", 2048+8*i)
	}
	src := os.Getenv("ZZSRC")
	if src == "" {
		src = b.String()
	} else {
		src = strings.ReplaceAll(src, ";", "\n")
	}
	s := snippet(t, src)
	start := time.Now()
	fresh := os.Getenv("ZZFRESH") != ""
	for time.Since(start) < 60*time.Second {
		if fresh {
			e.Runner.Close()
		}
		m := e.Measure(s, Options{Mode: "inverse_throughput"})
		r := e.refs.Values()
		fmt.Printf("%6.2f %.4f conv=%v tp=%.3f/%.3f vec=%.3f/%.3f ld=%.3f/%.3f\n", time.Since(start).Seconds(), m.PerInstr.Median, m.Converged,
			m.Estimate.TpCanary, r.Tp, m.Estimate.VecCanary, r.Vec, m.Estimate.LdCanary, r.Ld)
		time.Sleep(100 * time.Millisecond)
	}
}
