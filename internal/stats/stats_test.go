package stats

import (
	"math"
	"testing"
)

func TestMedian(t *testing.T) {
	in := []float64{3, 1, 2, 10}
	for _, c := range []struct {
		v    []float64
		want float64
	}{{nil, 0}, {[]float64{5}, 5}, {[]float64{3, 1, 2}, 2}, {in, 2.5}} {
		if got := Median(c.v); got != c.want {
			t.Errorf("Median(%v) = %v, want %v", c.v, got, c.want)
		}
	}
	if in[0] != 3 || in[3] != 10 {
		t.Errorf("Median reordered its input: %v", in)
	}
}

func TestSignTest(t *testing.T) {
	for _, c := range []struct {
		wins, losses int
		want         float64
	}{
		{0, 0, 1},
		{0, 5, 1},
		{1, 0, 0.5},
		{3, 0, 0.125},
		{2, 1, 0.5},    // (3 + 1) / 8
		{9, 6, 0.3036}, // sum over k = 9..15 of C(15, k) / 2^15
		{20, 10, 0.0494},
		{10, 20, 0.9786},
	} {
		if got := SignTest(c.wins, c.losses); math.Abs(got-c.want) > 5e-4 {
			t.Errorf("SignTest(%d, %d) = %.4f, want %.4f", c.wins, c.losses, got, c.want)
		}
	}
}
