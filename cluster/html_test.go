package cluster

import (
	"bytes"
	"encoding/json"
	"html"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"portlab/internal/browsertest"
)

func fixtureReport(t *testing.T, withModel bool) (*Report, *Clustering) {
	t.Helper()
	if withModel {
		r, c, _ := analyze(t, AnalysisOptions{Files: []string{"cluster-latency.yaml", "cluster-throughput.yaml"},
			Command: "portlab cluster cluster-latency.yaml cluster-throughput.yaml --model handmade-model.yml"})
		return r, c
	}
	pts := load(t, latencyFixture)
	Resolve(pts, nil)
	c, _ := Run(pts, Options{})
	return Analyze(c, nil, AnalysisOptions{}), c
}

func writePage(t *testing.T, r *Report, c *Clustering) (string, []byte) {
	t.Helper()
	var buf bytes.Buffer
	if err := WriteHTML(&buf, r, c); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "report.html")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path, buf.Bytes()
}

// external matches anything that would make the page fetch from elsewhere.
var external = regexp.MustCompile(`(?i)(src|href|action)\s*=\s*"(https?:|//)|url\(\s*['"]?(https?:|//)|@import|<link\b|<iframe\b`)

// pageData returns the report the page carries, checking that it is the
// report written.
func pageData(t *testing.T, page []byte, r *Report) *Report {
	t.Helper()
	data, err := ReadHTMLData(page)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := json.Marshal(r)
	if !bytes.Equal(data, want) {
		t.Errorf("the page's data is not the report (%d bytes, want %d)", len(data), len(want))
	}
	var got Report
	if err := json.Unmarshal(data, &got); err != nil {
		t.Fatalf("the page's data: %v", err)
	}
	return &got
}

func TestHTMLIsSelfContained(t *testing.T) {
	r, c := fixtureReport(t, true)
	_, data := writePage(t, r, c)
	page := string(data)
	if m := external.FindString(page); m != "" {
		t.Errorf("the report refers outside itself: %q", m)
	}
	// The header, the plots and the worst mismatches are plain HTML.
	for _, want := range []string{"<!DOCTYPE html>", "<svg", "Latency: measured vs model", "Reciprocal throughput: measured vs model",
		"Cluster map", `id="mm"`, `id="classes-list"`, "WriteFMAY", "vfmadd231pd ymm, ymm, ymm", "hand-made Zen 3 subset",
		"data-js-errors", "Unstable clusters", "<noscript>", "--model handmade-model.yml", `class="cap"`, `href="#class-1"`} {
		if !strings.Contains(page, want) {
			t.Errorf("report lacks %q", want)
		}
	}
	// The rest is in the data, in the report's order (worst first).
	got := pageData(t, data, r)
	if len(got.Inconsistencies) != len(r.Inconsistencies) || got.Inconsistencies[0].Class != r.Inconsistencies[0].Class ||
		len(got.NotInModel) != 1 || got.NotInModel[0].Form != "popcnt r64, r64" {
		t.Errorf("the page's data differs from the report")
	}
	if !strings.Contains(got.Inconsistencies[1].Forms[0].Snippet, "vfmadd231pd") {
		t.Errorf("snippets missing from the data: %q", got.Inconsistencies[1].Forms[0].Snippet)
	}
	r2, c2 := fixtureReport(t, false)
	_, data2 := writePage(t, r2, c2)
	if !strings.Contains(string(data2), "No model was given") || strings.Contains(string(data2), `id="mm"`) {
		t.Errorf("a report without a model should say so and have no mismatch table")
	}
}

// TestHTMLWholeHost writes the report of a whole-host sweep (every
// catalog form against LLVM's sapphirerapids model, a third of them off)
// and checks that it stays small enough to mail, that the page carries
// every inconsistent form, and that the cluster map's labels fit its
// margin.
func TestHTMLWholeHost(t *testing.T) {
	r, c := wholeHostReport(t)
	if r.Summary.FormsChecked < 10000 || r.Summary.InconsistentForms < 2000 {
		t.Fatalf("the synthetic sweep is not whole-host size: %+v", r.Summary)
	}
	_, page := writePage(t, r, c)
	t.Logf("%d forms checked, %d off the model: a page of %d bytes", r.Summary.FormsChecked, r.Summary.InconsistentForms, len(page))
	const maxPage = 4 << 20
	if len(page) > maxPage {
		t.Errorf("the page is %d bytes, more than %d", len(page), maxPage)
	}
	// The tables are not drawn as HTML: the page without its data is
	// the header, the summary and the plots.
	i := bytes.Index(page, []byte(`id="`+DataElementID+`"`))
	j := bytes.Index(page[i:], []byte("</script>"))
	if static := len(page) - j; static > 1<<20 {
		t.Errorf("the page without its data is %d bytes", static)
	}
	got := pageData(t, page, r)
	off := map[string]bool{}
	for _, cr := range got.Inconsistencies {
		for _, f := range cr.Forms {
			if f.Mismatch {
				off[f.Form] = true
			}
		}
	}
	n := 0
	for _, cr := range r.Inconsistencies {
		for _, f := range cr.Forms {
			if f.Mismatch {
				n++
				if !off[f.Form] {
					t.Errorf("the page lacks inconsistent form %q", f.Form)
				}
			}
		}
	}
	if n != r.Summary.InconsistentForms || len(off) != n {
		t.Errorf("%d inconsistent forms in the report, %d in the page, summary %d", n, len(off), r.Summary.InconsistentForms)
	}
	// Row labels end at x, right-aligned: they must fit left of it.
	labels := regexp.MustCompile(`<text class="rlabel" x="(\d+)"[^>]*>([^<]*)</text>`).FindAllSubmatch(page, -1)
	if len(labels) < 20 {
		t.Fatalf("%d cluster map labels", len(labels))
	}
	for _, m := range labels {
		x, _ := strconv.Atoi(string(m[1]))
		if w := monoWidth(html.UnescapeString(string(m[2])), rlabelPx); w > float64(x) {
			t.Errorf("label %q is %.0f px wide, with %d px left of it", m[2], w, x)
		}
	}
}

// TestHTMLInChromium renders reports in headless Chromium: the fixtures
// with and without a model, and a whole-host sweep. The page's script
// draws the tables from the page's data before the load event, after which
// Chromium dumps the DOM; with ?selftest it also sorts, pages and filters
// the mismatch table and follows a link to the last class. The test fails
// on script errors, a self-test failure, text of a figure outside it or
// overlapping other text (browsertest.Check), or a page without its first
// table page and plots.
func TestHTMLInChromium(t *testing.T) {
	browsertest.Need(t)
	for _, tc := range []struct {
		name             string
		model, wholeHost bool
	}{{"fixtures", true, false}, {"no model", false, false}, {"whole host", true, true}} {
		t.Run(tc.name, func(t *testing.T) {
			var r *Report
			var c *Clustering
			if tc.wholeHost {
				r, c = wholeHostReport(t)
			} else {
				r, c = fixtureReport(t, tc.model)
			}
			_, page := writePage(t, r, c)
			minFigures := 3
			if !tc.model {
				minFigures = 1
			}
			dom := browsertest.Check(t, page, "?selftest", minFigures).DOM
			body := regexp.MustCompile(`(?s)<body[^>]*>(.*)</body>`).FindStringSubmatch(dom)
			if body == nil || len(strings.TrimSpace(regexp.MustCompile(`<[^>]*>`).ReplaceAllString(body[1], ""))) < 200 {
				t.Fatalf("empty or missing body in the rendered page:\n%s", dom[max(0, len(dom)-2000):])
			}
			if !strings.Contains(dom, `data-ready="1"`) {
				t.Errorf("the report's script did not finish (no body[data-ready])")
			}
			if m := regexp.MustCompile(`data-selftest="([^"]*)"`).FindStringSubmatch(dom); m == nil || m[1] != "ok" {
				t.Errorf("self-test: %v", m)
			}
			if !tc.model {
				if !strings.Contains(dom, "Cluster map") {
					t.Errorf("no cluster map in the rendered page")
				}
				return
			}
			// The first page of the mismatch table, and the first
			// classes opened with their forms.
			mm := regexp.MustCompile(`(?s)<table[^>]* id="mm-table".*?</table>`).FindString(dom)
			if rows := strings.Count(mm, `<tr class="bad"`) + strings.Count(mm, `<tr class="ok-row"`); rows == 0 || rows > 50 {
				t.Errorf("the mismatch table shows %d rows", rows)
			}
			if !strings.Contains(dom, `<table class="data sortable forms">`) {
				t.Errorf("no class shows its forms")
			}
		})
	}
}
