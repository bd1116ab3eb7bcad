// Package browsertest renders portlab's HTML reports in headless Chromium
// for tests, as a reader would open them: it finds a browser, loads a page
// from a file, and returns the DOM after the load event with what the page
// got wrong: script errors, and text of a figure (an SVG) that falls
// outside it or overlaps other text. Nothing here is timed: the checks run
// in the page, before Chromium dumps the DOM.
package browsertest

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Find returns a headless-capable Chromium or Chrome, "" when none is
// installed.
func Find() string {
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

// Need returns the browser, skipping t when there is none or in -short
// mode.
func Need(t testing.TB) string {
	t.Helper()
	bin := Find()
	if bin == "" {
		t.Skip("no chromium, chromium-browser or google-chrome installed (apt-get install chromium)")
	}
	if testing.Short() {
		t.Skip("starts a browser; skipped in -short mode")
	}
	return bin
}

// trap records script errors in the html element's data-js-errors
// attribute. It goes first in the head.
const trap = `<script>(function(){var d=document.documentElement;function rec(m){var o=d.getAttribute('data-js-errors')||'';d.setAttribute('data-js-errors',o+(o?' | ':'')+m);}
window.addEventListener('error',function(e){rec((e.message||'error')+(e.filename?' @'+e.filename+':'+e.lineno:''));});})();</script>`

// figureCheck looks at every SVG the page shows once the page's own
// scripts have run: a text of the figure (outside a clipped group) must lie
// inside the figure, and must not overlap another text of it by more than
// 3 pixels each way (slanted text, whose box is larger than its glyphs, is
// only checked against the figure's edges). It writes the number of
// figures and the findings to body[data-figures] and body[data-findings].
const figureCheck = `<script>(function(){var out=[],n=0;
Array.prototype.forEach.call(document.querySelectorAll('svg'),function(svg){var box=svg.getBoundingClientRect();if(!box.width){return;}n++;
var name=svg.getAttribute('aria-label')||svg.getAttribute('aria-labelledby')||('figure '+n),seen=[];
Array.prototype.forEach.call(svg.querySelectorAll('text'),function(tx){if(tx.closest('g[clip-path]')){return;}var b=tx.getBoundingClientRect();if(!b.width){return;}
var t=tx.textContent;if(b.left<box.left-1||b.right>box.right+1||b.top<box.top-1||b.bottom>box.bottom+1){out.push(name+': "'+t+'" falls outside the figure');}
if(/rotate/.test(tx.getAttribute('transform')||'')){return;}
seen.forEach(function(o){var w=Math.min(b.right,o.b.right)-Math.max(b.left,o.b.left),h=Math.min(b.bottom,o.b.bottom)-Math.max(b.top,o.b.top);if(w>3&&h>3){out.push(name+': "'+t+'" overlaps "'+o.t+'"');}});
seen.push({b:b,t:t});});});
document.body.setAttribute('data-figures',String(n));document.body.setAttribute('data-findings',out.join('\n'));})();</script>`

// Page is what Render saw of a page.
type Page struct {
	DOM     string   // the DOM after the load event
	Log     string   // the browser's log
	Figures int      // SVG figures shown
	Errors  []string // script errors
	// Findings are the figures' text outside them or overlapping.
	Findings []string
}

// Render writes page, with the error trap and the figure check added, to
// a temporary file and loads it, with query (such as "?selftest"), in
// headless Chromium bin.
func Render(t testing.TB, bin string, page []byte, query string) *Page {
	t.Helper()
	s := string(page)
	at := strings.Index(s, "<head>")
	if at < 0 {
		t.Fatalf("the page has no <head>")
	}
	at += len("<head>")
	s = s[:at] + trap + s[at:]
	end := strings.LastIndex(s, "</body>")
	if end < 0 {
		t.Fatalf("the page has no </body>")
	}
	s = s[:end] + figureCheck + s[end:]
	dir := t.TempDir()
	path := filepath.Join(dir, "page.html")
	if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage",
		"--window-size=1400,1000", "--user-data-dir="+filepath.Join(dir, "profile"), "--enable-logging=stderr", "--v=0",
		"--dump-dom", "file://"+path+query)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil && stdout.Len() == 0 {
		t.Fatalf("%s: %v\n%s", bin, err, tail(stderr.String(), 3000))
	}
	p := &Page{DOM: stdout.String(), Log: stderr.String()}
	if m := regexp.MustCompile(`data-js-errors="([^"]*)"`).FindStringSubmatch(p.DOM); m != nil {
		p.Errors = append(p.Errors, unescape(m[1]))
	}
	if strings.Contains(p.Log, "Uncaught") {
		p.Errors = append(p.Errors, "the console reports an uncaught exception: "+tail(p.Log, 2000))
	}
	m := regexp.MustCompile(`data-figures="(\d+)"`).FindStringSubmatch(p.DOM)
	if m == nil {
		t.Fatalf("the figure check did not run:\n%s", tail(p.DOM, 2000))
	}
	p.Figures, _ = strconv.Atoi(m[1])
	if f := regexp.MustCompile(`(?s)data-findings="([^"]*)"`).FindStringSubmatch(p.DOM); f != nil && f[1] != "" {
		p.Findings = strings.Split(unescape(f[1]), "\n")
	}
	return p
}

// Check renders page as Render does and fails t on script errors and
// findings, and when the page shows fewer than minFigures figures. It
// skips t when no browser is installed or in -short mode.
func Check(t testing.TB, page []byte, query string, minFigures int) *Page {
	t.Helper()
	p := Render(t, Need(t), page, query)
	for _, e := range p.Errors {
		t.Errorf("script error: %s", e)
	}
	for _, f := range p.Findings {
		t.Errorf("figure: %s", f)
	}
	if p.Figures < minFigures {
		t.Errorf("the page shows %d figures, want at least %d", p.Figures, minFigures)
	}
	return p
}

func unescape(s string) string {
	return strings.NewReplacer("&quot;", `"`, "&amp;", "&", "&lt;", "<", "&gt;", ">", "&#39;", "'", "&#10;", "\n").Replace(s)
}

func tail(s string, n int) string {
	if len(s) > n {
		return "..." + s[len(s)-n:]
	}
	return s
}
