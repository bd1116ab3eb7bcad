package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"portlab"
	"portlab/analysis/input"
	"portlab/characterize"
	"portlab/isa"
	"portlab/measure"
	"portlab/modeldb"
	"portlab/sweep"
	"portlab/validate"
)

func init() {
	register(&command{name: "characterize", summary: "build this host's own model in one command: measure, fit, check, install (resumable, within a time budget)", run: runCharacterize})
}

func runCharacterize(args []string, stdout, stderr io.Writer) error {
	softMemoryLimit()
	fs := newFlagSet("characterize", stderr)
	budget := fs.Duration("budget", 30*time.Minute, "time the whole run may take: the sweep and the validation draw, then as many mixes as the rest buys")
	var outs stringList
	fs.Var(&outs, "o", "also write the model here (.gz compresses); repeatable")
	resume := fs.Bool("resume", false, "finish the run that was interrupted (its work directory holds what it measured)")
	fresh := fs.Bool("fresh", false, "discard an earlier run's work directory and start over")
	dir := fs.String("dir", "", "work directory (default: the user cache directory's portlab/characterize/SIGNATURE)")
	var globs, exclude stringList
	fs.Var(&globs, "forms", "measure only the forms matching this glob (default: every form the host runs); repeatable")
	fs.Var(&exclude, "exclude", "leave out the forms matching this glob; repeatable")
	var kernelGlobs stringList
	fs.Var(&kernelGlobs, "kernels", "kernel files to score the model on (glob; repeatable; default: the kernels portlab carries, testdata/kernels)")
	noInstall := fs.Bool("no-install", false, "do not write the model to the user model directory (only the work directory and -o)")
	noPeers := fs.Bool("no-peers", false, "do not score llvm-mca on the kernels")
	base := fs.String("base", "", "model to start from (default: the embedded model measured on this CPU signature, else the imported LLVM model of this CPU or the nearest one)")
	validation := fs.Int("validation-mixes", 400, "random mixes in the validation draw (never fitted)")
	cpu := fs.Int("cpu", -1, cpuFlagHelp)
	asJSON := fs.Bool("json", false, "print the report as JSON")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: portlab characterize [--budget 30m] [-o MODEL] [--resume | --fresh] [flags]")
		fs.PrintDefaults()
	}
	if err := parseNoArgs(fs, args); err != nil {
		return err
	}
	if *budget <= 0 {
		return usageError{fmt.Sprintf("--budget %v: want a positive duration (30m)", *budget)}
	}
	if *resume && *fresh {
		return usageError{"give --resume or --fresh, not both"}
	}
	if *validation < 20 {
		return usageError{fmt.Sprintf("--validation-mixes %d: want at least 20", *validation)}
	}
	var forms []*isa.Form // nil: every form
	if len(globs) > 0 || len(exclude) > 0 {
		var err error
		if forms, err = sweep.Select(globs, nil); err == nil {
			forms, err = sweep.Exclude(forms, exclude)
		}
		if err != nil {
			return usageError{err.Error()}
		}
	}
	var baseModel *modeldb.Model
	if *base != "" {
		var err error
		if baseModel, err = loadModelArg(*base, false, stderr); err != nil {
			return err
		}
	}
	ks, err := characterizeKernels(kernelGlobs)
	if err != nil {
		return err
	}
	eng, info, err := measure.NewHostEngine(*cpu)
	if err != nil {
		return err
	}
	defer eng.Close()
	if *dir == "" {
		cache, err := os.UserCacheDir()
		if err != nil {
			return fmt.Errorf("no cache directory for the work files (%v): pass --dir", err)
		}
		*dir = filepath.Join(cache, "portlab", "characterize", info.Signature())
	}
	if *fresh {
		if err := os.RemoveAll(*dir); err != nil {
			return err
		}
	}
	var peers []validate.Predictor
	if !*noPeers && len(ks) > 0 {
		ls, errs := validate.FindAllLLVMMCA(info.Microarch)
		for _, l := range ls {
			peers = append(peers, l)
		}
		for _, err := range errs {
			fmt.Fprintf(stderr, "portlab characterize: an llvm-mca will not be scored: %v\n", err)
		}
		if len(ls) == 0 && len(errs) == 0 {
			fmt.Fprintf(stderr, "portlab characterize: llvm-mca will not be scored: llvm-mca not found\n")
		}
	}
	fmt.Fprintf(stderr, "portlab characterize: %s (%s), budget %v, work directory %s\n", info.Microarch, info.Signature(), *budget, *dir)
	if note := memoryNote(info.MemoryUsable, info.Memory); note != "" {
		fmt.Fprintf(stderr, "portlab characterize: %s\n", note)
	}
	prog := newStatusLine(stderr)
	// An interrupt leaves everything measured so far in the work
	// directory; say how to go on.
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sig)
	go func() {
		if _, ok := <-sig; ok {
			prog.clear()
			fmt.Fprintf(stderr, "portlab characterize: interrupted; run it again with --resume to go on from here\n")
			eng.Close()
			os.Exit(130)
		}
	}()
	rep, err := characterize.Run(characterize.Options{
		Engine: eng, Host: info, HostInfo: sweep.HostInfo(info, sweep.NodeName(os.Getenv)),
		Budget: *budget, Dir: *dir, Resume: *resume, Forms: forms, Kernels: ks, Peers: peers, Base: baseModel,
		Install: !*noInstall, Outputs: outs, ValidationMixes: *validation,
		Measure:  measure.Options{Reps: 11},
		Progress: prog.status, Log: prog,
		Command: commandLine("characterize", args),
	})
	prog.clear()
	if err != nil {
		return err
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(rep)
	}
	characterize.WriteText(stdout, rep)
	return nil
}

// characterizeKernels loads the kernels given by globs, or those the
// binary carries.
func characterizeKernels(globs []string) ([]*validate.Kernel, error) {
	if len(globs) == 0 {
		fsys, paths := portlab.Kernels()
		return validate.LoadFS(fsys, paths, input.Options{})
	}
	var paths []string
	for _, g := range globs {
		m, err := filepath.Glob(g)
		if err != nil {
			return nil, usageError{fmt.Sprintf("--kernels %q: %v", g, err)}
		}
		if len(m) == 0 {
			return nil, usageError{fmt.Sprintf("--kernels %q: no such file", g)}
		}
		paths = append(paths, m...)
	}
	return validate.Load(paths, input.Options{})
}

// statusLine is characterize's one progress line: redrawn in place on a
// terminal, a line a minute otherwise; step lines (Write) go above it.
type statusLine struct {
	mu   sync.Mutex
	w    io.Writer
	tty  bool
	last time.Time
	line string
}

func newStatusLine(w io.Writer) *statusLine { return &statusLine{w: w, tty: isTerminal(w)} }

func (p *statusLine) status(s characterize.Status) {
	p.mu.Lock()
	defer p.mu.Unlock()
	now := time.Now()
	every := 100 * time.Millisecond
	if !p.tty {
		every = time.Minute
	}
	if now.Sub(p.last) < every {
		return
	}
	p.last = now
	unit := ""
	if s.Total > 0 {
		unit = fmt.Sprintf(" %d/%d", s.Done, s.Total)
	}
	what := s.What
	if len(what) > 36 {
		what = what[:33] + "..."
	}
	p.line = fmt.Sprintf("characterize [%d/%d %s%s] %v elapsed, about %v left (budget %v) %s",
		s.Index, s.Count, s.Step, unit, s.Elapsed.Round(time.Second), s.Left.Round(time.Second), s.Budget, what)
	if p.tty {
		fmt.Fprintf(p.w, "\r\x1b[K%s", p.line)
	} else {
		fmt.Fprintln(p.w, p.line)
	}
}

// Write prints a step line above the status line.
func (p *statusLine) Write(b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.tty {
		fmt.Fprint(p.w, "\r\x1b[K")
	}
	fmt.Fprint(p.w, "characterize: "+strings.TrimRight(string(b), "\n")+"\n")
	if p.tty && p.line != "" {
		fmt.Fprint(p.w, p.line)
	}
	return len(b), nil
}

func (p *statusLine) clear() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.tty {
		fmt.Fprint(p.w, "\r\x1b[K")
	}
}
