package main

import (
	"fmt"
	"io"
	"os"
	"time"

	"golang.org/x/sys/unix"
)

// progress draws a one-line progress display on stderr when it is a
// terminal, and nothing otherwise.
type progress struct {
	w     io.Writer
	tty   bool
	what  string
	total int
	start time.Time
	last  time.Time
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	_, err := unix.IoctlGetTermios(int(f.Fd()), unix.TCGETS)
	return err == nil
}

func newProgress(w io.Writer, what string, total int) *progress {
	return &progress{w: w, tty: isTerminal(w), what: what, total: total, start: time.Now()}
}

func (p *progress) update(done int, item string) {
	if !p.tty {
		return
	}
	now := time.Now()
	if now.Sub(p.last) < 100*time.Millisecond && done < p.total {
		return
	}
	p.last = now
	el := now.Sub(p.start)
	eta := ""
	if done > 0 && done < p.total {
		eta = fmt.Sprintf(", %v left", (el * time.Duration(p.total-done) / time.Duration(done)).Round(time.Second))
	}
	if len(item) > 40 {
		item = item[:37] + "..."
	}
	fmt.Fprintf(p.w, "\r\x1b[K%s: %d/%d (%.0f%%) %s%s %s", p.what, done, p.total, 100*float64(done)/float64(max(p.total, 1)), el.Round(time.Second), eta, item)
}

func (p *progress) done() {
	if p.tty {
		fmt.Fprint(p.w, "\r\x1b[K")
	}
}
