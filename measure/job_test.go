package measure

import (
	"strings"
	"testing"
)

// The throughput canary's span (the layout's TpSpan) counts the adds of
// its body, and the body's chains are independent: each add writes its
// own register and reads the one they share.
func TestThroughputCanaryBody(t *testing.T) {
	lines := strings.Split(tpCanaryBody, "\n")
	if len(lines) != tpCanaryAdds {
		t.Fatalf("tpCanaryBody has %d adds, tpCanaryAdds says %d", len(lines), tpCanaryAdds)
	}
	dst := map[string]bool{}
	for _, l := range lines {
		f := strings.Fields(strings.ReplaceAll(l, ",", " "))
		if len(f) != 3 || f[0] != "add" || f[2] != "rcx" || f[1] == "rcx" || f[1] == "r15" || f[1] == "rsp" {
			t.Errorf("canary line %q: want add REG, rcx with REG its own (not rcx, r15 or rsp)", l)
		}
		if dst[f[1]] {
			t.Errorf("canary writes %s twice: the chains would not be independent", f[1])
		}
		dst[f[1]] = true
	}
	if len(dst) < 12 {
		t.Errorf("%d independent chains, want at least 12 (twice the ALUs of the widest core)", len(dst))
	}
}
