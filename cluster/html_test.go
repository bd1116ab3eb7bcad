package cluster

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

func writeReport(t *testing.T, withModel bool) (string, *Report) {
	t.Helper()
	var r *Report
	var c *Clustering
	if withModel {
		r, c, _ = analyze(t, AnalysisOptions{Files: []string{"cluster-latency.yaml", "cluster-throughput.yaml"}})
	} else {
		pts := load(t, latencyFixture)
		Resolve(pts, nil)
		c, _ = Run(pts, Options{})
		r = Analyze(c, nil, AnalysisOptions{})
	}
	var buf bytes.Buffer
	if err := WriteHTML(&buf, r, c); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "report.html")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path, r
}

// external matches anything that would make the page fetch from elsewhere.
var external = regexp.MustCompile(`(?i)(src|href|action)\s*=\s*"(https?:|//)|url\(\s*['"]?(https?:|//)|@import|<link\b|<iframe\b`)

func TestHTMLIsSelfContained(t *testing.T) {
	path, r := writeReport(t, true)
	data, _ := os.ReadFile(path)
	page := string(data)
	if m := external.FindString(page); m != "" {
		t.Errorf("the report refers outside itself: %q", m)
	}
	for _, want := range []string{"<!DOCTYPE html>", "<svg", "Latency: measured vs model", "Reciprocal throughput: measured vs model",
		"Cluster map", `id="mm-table"`, `id="class-1"`, "WriteFMAY", "vfmadd231pd ymm, ymm, ymm", "hand-made Zen 3 subset",
		"class=\"n bad\"", "vfmadd231pd %ymm8,%ymm0,%ymm0", "data-js-errors", "Unstable clusters", "popcnt r64, r64"} {
		if !strings.Contains(page, want) {
			t.Errorf("report lacks %q", want)
		}
	}
	// Inconsistencies appear worst first.
	last := -1
	for _, cr := range r.Inconsistencies {
		i := strings.Index(page, `<span class="kname">`+templateEscape(cr.Class)+`</span>`)
		if i < 0 || i < last {
			t.Errorf("class %q out of order (at %d, previous at %d)", cr.Class, i, last)
		}
		last = i
	}
	path2, _ := writeReport(t, false)
	data2, _ := os.ReadFile(path2)
	if !strings.Contains(string(data2), "No model was given") || strings.Contains(string(data2), `id="mm-table"`) {
		t.Errorf("a report without a model should say so and have no mismatch table")
	}
}

func templateEscape(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&#34;", "'", "&#39;").Replace(s)
}

// browser returns a headless-capable Chromium or Chrome, "" when none is
// installed.
func browser() string {
	for _, b := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(b); err == nil {
			return p
		}
	}
	for _, p := range []string{"/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"} {
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	return ""
}

// TestHTMLInChromium renders the report in headless Chromium, lets its
// script sort and filter the tables (?selftest), and fails on script
// errors, a self-test failure or an empty page.
func TestHTMLInChromium(t *testing.T) {
	bin := browser()
	if bin == "" {
		t.Skip("no chromium, chromium-browser or google-chrome installed (apt-get install chromium)")
	}
	if testing.Short() {
		t.Skip("starts a browser; skipped in -short mode")
	}
	for _, withModel := range []bool{true, false} {
		path, _ := writeReport(t, withModel)
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		cmd := exec.CommandContext(ctx, bin, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
			"--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage",
			"--user-data-dir="+t.TempDir(), "--enable-logging=stderr", "--v=0", "--dump-dom", "file://"+path+"?selftest")
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		cancel()
		dom := stdout.String()
		if err != nil && dom == "" {
			t.Fatalf("%s: %v\n%s", bin, err, tail(stderr.String(), 3000))
		}
		if m := regexp.MustCompile(`data-js-errors="([^"]*)"`).FindStringSubmatch(dom); m != nil {
			t.Errorf("script errors: %s", m[1])
		}
		if strings.Contains(stderr.String(), "Uncaught") {
			t.Errorf("console reports an uncaught exception:\n%s", tail(stderr.String(), 3000))
		}
		body := regexp.MustCompile(`(?s)<body[^>]*>(.*)</body>`).FindStringSubmatch(dom)
		if body == nil || len(strings.TrimSpace(regexp.MustCompile(`<[^>]*>`).ReplaceAllString(body[1], ""))) < 200 {
			t.Fatalf("empty or missing body in the rendered page:\n%s", tail(dom, 2000))
		}
		if !strings.Contains(dom, `data-ready="1"`) {
			t.Errorf("the report's script did not finish (no body[data-ready])")
		}
		if m := regexp.MustCompile(`data-selftest="([^"]*)"`).FindStringSubmatch(dom); m == nil || m[1] != "ok" {
			t.Errorf("self-test: %v", m)
		}
	}
}

func tail(s string, n int) string {
	if len(s) > n {
		return "..." + s[len(s)-n:]
	}
	return s
}
