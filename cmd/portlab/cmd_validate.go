package main

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"time"

	"portlab/analysis/input"
	"portlab/internal/fsutil"
	"portlab/measure"
	"portlab/validate"
)

func init() {
	register(&command{name: "validate", summary: "measure kernels on this host and score every model's predictions (MAPE, Kendall's tau)", run: runValidate})
}

func runValidate(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("validate", stderr)
	model := fs.String("model", "host", "portlab model: a file, an embedded model's name or LLVM CPU, or 'host'")
	var peers stringList
	fs.Var(&peers, "peer", "a peer to compare: llvm-mca or llvm-mca=PATH (repeatable; default: every llvm-mca installed, on PATH and /usr/lib/llvm-N/bin)")
	noPeers := fs.Bool("no-peers", false, "predict with portlab's model only")
	mcpu := fs.String("mcpu", "", "-mcpu for llvm-mca (default: the host's CPU, or the nearest one llvm-mca knows)")
	jsonOut := fs.Bool("json", false, "print the report as JSON")
	htmlOut := fs.String("html", "", "also write a self-contained HTML report with scatter plots to this file")
	hex := fs.Bool("hex", false, "kernel files are hex-encoded blocks, one per line")
	cpu := fs.Int("cpu", -1, cpuFlagHelp)
	reps := fs.Int("repetitions", 21, "repetitions per kernel measurement")
	passes := fs.Int("passes", 5, "measure every kernel in this many passes over all of them, each in a worker process of its own, and keep the lower-quartile pass (some code runs slower in most passes while a neighbour is busy)")
	maxPasses := fs.Int("max-passes", 15, "kernels whose passes disagree by more than 2 % get more passes, up to this many in all (the lower quartile of all is kept)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: portlab validate [--model M] [--peer llvm-mca[=PATH]] [--json] [--html F] KERNELS...")
		fs.PrintDefaults()
	}
	files, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(files) == 0 {
		return usageError{"no kernel files given (testdata/kernels/*.s holds the project's own)"}
	}
	ks, err := validate.Load(files, input.Options{Hex: *hex})
	if err != nil {
		return err
	}
	if len(ks) == 0 {
		return fmt.Errorf("no kernel with instructions in %s", strings.Join(files, ", "))
	}
	m, err := loadModelArg(*model, false, stderr)
	if err != nil {
		return err
	}
	eng, info, err := measure.NewHostEngine(*cpu)
	if err != nil {
		return err
	}
	defer eng.Close()
	preds := []validate.Predictor{&validate.Portlab{Label: "portlab " + strings.Trim(m.Label(), `"`), Model: m}}
	if !*noPeers {
		host := info.Microarch
		if *mcpu != "" {
			host = *mcpu
		}
		add := func(l *validate.LLVMMCA) {
			if l.Note != "" {
				fmt.Fprintf(stderr, "portlab validate: %s\n", l.Note)
			}
			preds = append(preds, l)
		}
		if len(peers) == 0 {
			// Every llvm-mca installed (PATH's and /usr/lib/llvm-N's),
			// each under its LLVM version; none is not an error.
			ls, errs := validate.FindAllLLVMMCA(host)
			for _, err := range errs {
				fmt.Fprintf(stderr, "portlab validate: no peer: %v\n", err)
			}
			if len(ls) == 0 && len(errs) == 0 {
				fmt.Fprintf(stderr, "portlab validate: no peer: llvm-mca not found\n")
			}
			for _, l := range ls {
				add(l)
			}
		}
		for _, p := range peers {
			name, path, _ := strings.Cut(p, "=")
			if name != "llvm-mca" {
				return usageError{fmt.Sprintf("--peer %q: the known peer is llvm-mca[=PATH]", p)}
			}
			l, err := validate.FindLLVMMCA(path, host)
			if err != nil {
				return err
			}
			add(l)
		}
	}
	start := time.Now()
	rep := validate.Run(eng, ks, preds, measure.Options{Reps: *reps, Passes: *passes, MaxPasses: *maxPasses, LowerQuartilePass: true}, fmt.Sprintf("%s (%s)", info.Microarch, info.Signature()))
	fmt.Fprintf(stderr, "portlab validate: %d kernels measured and predicted in %v\n", len(ks), time.Since(start).Round(time.Millisecond))
	rep.Command = commandLine("validate", args)
	if *htmlOut != "" {
		var b bytes.Buffer
		if err := validate.WriteHTML(&b, rep); err != nil {
			return err
		}
		if err := fsutil.WriteFileAtomic(*htmlOut, b.Bytes(), 0o644); err != nil {
			return err
		}
	}
	if *jsonOut {
		return validate.WriteJSON(stdout, rep)
	}
	return validate.WriteText(stdout, rep)
}
