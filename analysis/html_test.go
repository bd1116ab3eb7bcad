package analysis

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"portlab/analysis/input"
	"portlab/internal/browsertest"
	"portlab/modeldb"
)

// htmlPage analyses two kernels on LLVM's sapphirerapids model (whose
// ports include Divider and FPDivider, names wider than a bar) and writes
// the HTML report.
func htmlPage(t *testing.T) string {
	t.Helper()
	m, err := modeldb.Embedded("llvm14-sapphirerapids.yml.gz")
	if err != nil {
		t.Fatal(err)
	}
	b, err := NewBuilder(m)
	if err != nil {
		t.Fatal(err)
	}
	var reports []*Report
	var files []string
	for _, f := range []string{"../testdata/kernels/gcc_cmul_ymm.s", "../testdata/kernels/fma_dot_4acc.s"} {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		regions, err := input.Read(f, data, input.Options{}, nil)
		if err != nil {
			t.Fatal(err)
		}
		k, err := b.Kernel(regions[0])
		if err != nil {
			t.Fatal(err)
		}
		r, err := Analyze(k, Options{Iterations: 100}, Views{Summary: true, Static: true, Timeline: true})
		if err != nil {
			t.Fatal(err)
		}
		reports = append(reports, r)
		files = append(files, f)
	}
	var buf bytes.Buffer
	cmd := "portlab analyze --mcpu sapphirerapids --html r.html " + strings.Join(files, " ")
	if err := WriteHTML(&buf, reports, files, cmd); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

func TestHTMLFiguresSayWhereTheyComeFrom(t *testing.T) {
	page := htmlPage(t)
	// Two figures per region, each with the model and the command.
	if n := strings.Count(page, `<text class="cap"`); n < 8 {
		t.Errorf("%d caption lines", n)
	}
	for _, want := range []string{"model LLVM 14", "$ portlab analyze --mcpu sapphirerapids", "cycles per iteration", ">cycle</text>",
		`rotate(-45)" text-anchor="end">FPDivider</text>`, "nothing measured"} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
}

// TestHTMLInChromium renders the report in headless Chromium and fails on
// text of a figure outside it or overlapping other text (the port names
// under the pressure bars, the bound and simulated labels, the timeline's
// instructions).
func TestHTMLInChromium(t *testing.T) {
	browsertest.Check(t, []byte(htmlPage(t)), "", 4)
}
