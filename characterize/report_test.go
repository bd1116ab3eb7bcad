package characterize

import (
	"strings"
	"testing"

	"portlab/modeldb"
)

// The report says how far the validation draw's two rounds agree, under
// the models' scores.
func TestReportDrawRepeat(t *testing.T) {
	var text strings.Builder
	WriteText(&text, &Report{Host: "h", Mixes: []MixScore{{Model: "m", N: 400, Within: 0.48}}, DrawRepeat: &modeldb.DrawRepeat{N: 400, Within: 0.698, Tolerance: 0.1}})
	if !strings.Contains(text.String(), "the draw's two rounds (before and after the mixes) agree within 10 % on 69.8 % of 400 mixes") {
		t.Errorf("report:\n%s", text.String())
	}
	text.Reset()
	WriteText(&text, &Report{Host: "h", Mixes: []MixScore{{Model: "m", N: 400, Within: 0.48}}})
	if strings.Contains(text.String(), "two rounds") {
		t.Errorf("a draw measured once says nothing of its rounds:\n%s", text.String())
	}
}
