package figure

import (
	"math"
	"slices"
	"testing"
)

func TestWords(t *testing.T) {
	got := Words("portlab cluster --benchmarks-file a-very-long-file-name.yaml -o r.html", 16)
	want := []string{"portlab cluster", "--benchmarks-fi…", "a-very-long-fil…", "-o r.html"}
	if !slices.Equal(got, want) {
		t.Errorf("Words = %q, want %q", got, want)
	}
	if got := Words("", 10); got != nil {
		t.Errorf("empty: %q", got)
	}
}

func TestNiceStep(t *testing.T) {
	for raw, want := range map[float64]float64{0.3: 0.5, 1: 1, 1.2: 2, 2.2: 2.5, 7: 10, 130: 200, 0: 1} {
		if got := NiceStep(raw); math.Abs(got-want) > 1e-9 {
			t.Errorf("NiceStep(%v) = %v, want %v", raw, got, want)
		}
	}
}
