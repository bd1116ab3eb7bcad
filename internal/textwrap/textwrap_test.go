package textwrap

import (
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
