package browsertest

import (
	"strings"
	"testing"
)

const good = `<!DOCTYPE html><html><head><title>t</title></head><body>
<svg viewBox="0 0 200 100" width="200" height="100"><text x="10" y="20">inside</text><text x="10" y="60">below it</text></svg>
</body></html>`

const bad = `<!DOCTYPE html><html><head><title>t</title></head><body>
<svg viewBox="0 0 200 100" width="200" height="100" aria-label="bad"><text x="4" y="20" text-anchor="end">cut off at the left</text>
<text x="60" y="60">Divider</text><text x="80" y="60">FPDivider</text>
<g clip-path="url(#c)"><text x="190" y="50">clipped text is not checked</text></g></svg>
<script>undefinedFunction();</script>
</body></html>`

func TestRenderFindsWhatReadsBadly(t *testing.T) {
	bin := Need(t)
	p := Render(t, bin, []byte(good), "")
	if p.Figures != 1 || len(p.Findings) != 0 || len(p.Errors) != 0 {
		t.Errorf("good page: %d figures, findings %q, errors %q", p.Figures, p.Findings, p.Errors)
	}
	p = Render(t, bin, []byte(bad), "")
	all := strings.Join(p.Findings, "\n")
	for _, want := range []string{`bad: "cut off at the left" falls outside the figure`, `bad: "FPDivider" overlaps "Divider"`} {
		if !strings.Contains(all, want) {
			t.Errorf("findings lack %q:\n%s", want, all)
		}
	}
	if strings.Contains(all, "clipped") || len(p.Findings) != 2 {
		t.Errorf("findings: %q", p.Findings)
	}
	if len(p.Errors) == 0 || !strings.Contains(p.Errors[0], "undefinedFunction") {
		t.Errorf("script errors: %q", p.Errors)
	}
}
