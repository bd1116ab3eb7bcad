package stats

import "testing"

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
