package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"portlab/analysis"
	"portlab/hostcpu"
	"portlab/internal/fsutil"
	"portlab/isa"
	"portlab/modeldb"
	"portlab/results"
)

func init() {
	register(&command{name: "model", summary: "machine models: import (osaca, llvm, exegesis), build from results, diff, show, list, eval, check", run: runModel})
}

const modelUsage = `usage: portlab model <subcommand> [flags] [args]

subcommands:
  import osaca FILE [-o out.yml]            import an OSACA machine file
  import llvm --mcpu NAME [-o out.yml]      import LLVM's scheduling model through llvm-mca
  import exegesis FILE... [-o out.yml]      latency/throughput (and exegesis uops) from results
  build RESULTS... [-o model.yml] [--base MODEL]
                                            build a model from measurements, inferring ports
  diff A B                                  what changed between two models, largest first
  show [--model M] FORM|GLOB                one form in detail, or a table for a glob
  list                                      the embedded models and this user's (portlab characterize)
  eval --model M RESULTS...                 predict measured mixes and report the error
  check FILE...                             validate model files

A MODEL argument is a file, an embedded model's file name or LLVM CPU
(see 'portlab model list'), or "host": the model 'portlab characterize'
built for this host's CPU signature when there is one, else the embedded
model of its CPU or the nearest one.
run 'portlab model <subcommand> -h' for its flags`

func runModel(args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprintln(stderr, modelUsage)
		return usageError{"missing subcommand"}
	}
	switch args[0] {
	case "-h", "--help", "help":
		fmt.Fprintln(stderr, modelUsage)
		return flag.ErrHelp
	case "import":
		return runModelImport(args[1:], stdout, stderr)
	case "build":
		softMemoryLimit()
		return runModelBuild(args[1:], stdout, stderr)
	case "diff":
		return runModelDiff(args[1:], stdout, stderr)
	case "show":
		return runModelShow(args[1:], stdout, stderr)
	case "list":
		return runModelList(args[1:], stdout, stderr)
	case "eval":
		return runModelEval(args[1:], stdout, stderr)
	case "check":
		return runModelCheck(args[1:], stdout, stderr)
	}
	return usageError{fmt.Sprintf("unknown subcommand %q (want import, build, diff, show, list, eval or check)", args[0])}
}

// loadModelArg loads a model named on the command line: a file, an
// embedded model (file name or LLVM CPU), or "host".
func loadModelArg(spec string, lenient bool, stderr io.Writer) (*modeldb.Model, error) {
	if spec == "" || spec == "host" {
		info, err := hostcpu.Detect()
		if err != nil {
			return nil, fmt.Errorf("host model: %v", err)
		}
		m, where, exact, err := modeldb.HostModel(info.Signature(), info.Microarch)
		if err != nil {
			return nil, fmt.Errorf("host (%s, %s): %v; pass --model FILE or run 'portlab characterize'", info.Microarch, info.Signature(), err)
		}
		if !exact {
			fmt.Fprintf(stderr, "portlab model: no model for this host's CPU (%s, %s); using %s, the nearest (run 'portlab characterize' to build this host's own)\n", info.Microarch, info.Signature(), m.Label())
		} else if where != "embedded" {
			fmt.Fprintf(stderr, "portlab model: using this host's model %s\n", where)
		}
		return m, nil
	}
	var warn func(string)
	if lenient {
		warn = func(msg string) { fmt.Fprintf(stderr, "warning: %s\n", msg) }
	}
	return loadModelFileOrName(spec, modeldb.LoadOptions{Lenient: lenient, Warn: warn})
}

// loadModelFileOrName loads a model named on the command line other than
// "host": a model file (portlab YAML or an OSACA machine file) or, where
// no file has that name, an embedded model by file name or LLVM CPU.
func loadModelFileOrName(path string, opt modeldb.LoadOptions) (*modeldb.Model, error) {
	if _, err := os.Stat(path); err != nil {
		if m, eerr := modeldb.Embedded(path); eerr == nil {
			return m, nil
		}
		if m, derr := modeldb.Default(path); derr == nil {
			return m, nil
		}
		return nil, fmt.Errorf("model %q: no such file, and no embedded model by that file name or LLVM CPU (see 'portlab model list')", path)
	}
	m, err := modeldb.LoadFile(path, opt)
	if err != nil {
		data, rerr := os.ReadFile(path)
		if rerr == nil && bytes.Contains(data, []byte("osaca_version")) {
			if om, _, oerr := modeldb.ImportOSACA(path, modeldb.OSACAOptions{}); oerr == nil {
				return om, nil
			}
		}
		return nil, err
	}
	return m, nil
}

// writeModel writes a model to a file (atomically; .gz compresses) or, for
// "-", to stdout.
func writeModel(m *modeldb.Model, out string, compact bool, stdout io.Writer) error {
	opt := modeldb.MarshalOptions{Compact: compact}
	if out == "-" {
		data, err := m.MarshalWith(opt)
		if err != nil {
			return err
		}
		_, err = stdout.Write(data)
		return err
	}
	return m.SaveWith(out, opt)
}

const compactHelp = "leave out the OSACA name and operands of each entry (half the size and load time; OSACA cannot read the file)"

// reportTo is where a subcommand's summary goes: stdout when the model
// goes to a file, stderr when the model itself is on stdout.
func reportTo(out string, stdout, stderr io.Writer) io.Writer {
	if out == "-" {
		return stderr
	}
	return stdout
}

func runModelImport(args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		return usageError{"import what? (osaca FILE, llvm --mcpu NAME, exegesis FILE...)"}
	}
	switch args[0] {
	case "osaca":
		return runImportOSACA(args[1:], stdout, stderr)
	case "llvm":
		return runImportLLVM(args[1:], stdout, stderr)
	case "exegesis":
		return runImportExegesis(args[1:], stdout, stderr)
	}
	return usageError{fmt.Sprintf("unknown import source %q (want osaca, llvm or exegesis)", args[0])}
}

func runImportOSACA(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("model import osaca", stderr)
	out := fs.String("o", "-", "output model file ('-' = stdout; .gz compresses); written atomically")
	noDerive := fs.Bool("no-derive", false, "do not add the memory forms OSACA derives from register forms plus a load or store")
	examples := fs.Int("examples", 10, "how many unmapped entries to list")
	compact := fs.Bool("compact", false, compactHelp)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: portlab model import osaca FILE [-o out.yml] [--no-derive]")
		fs.PrintDefaults()
	}
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usageError{"want one OSACA file"}
	}
	m, rep, err := modeldb.ImportOSACA(pos[0], modeldb.OSACAOptions{DeriveMemory: !*noDerive})
	if err != nil {
		return err
	}
	if err := writeModel(m, *out, *compact, stdout); err != nil {
		return err
	}
	fmt.Fprint(reportTo(*out, stdout, stderr), rep.Summary(*examples))
	return nil
}

func runImportLLVM(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("model import llvm", stderr)
	mcpu := fs.String("mcpu", "", "LLVM CPU name (llvm-mca -mcpu=help lists them); 'host' for this machine")
	out := fs.String("o", "-", "output model file ('-' = stdout; .gz compresses); written atomically")
	mca := fs.String("mca", "", "llvm-mca binary (default: llvm-mca on PATH)")
	var globs stringList
	fs.Var(&globs, "forms", "import only the forms matching this glob; repeatable (default: the whole catalog)")
	iters := fs.Int("iterations", 120, "llvm-mca iterations per form (enough for exact port shares)")
	batch := fs.Int("batch", 1500, "forms per llvm-mca run")
	examples := fs.Int("examples", 5, "how many rejected forms to list per reason")
	timeout := fs.Duration("timeout", 10*time.Minute, "time limit for the whole import")
	compact := fs.Bool("compact", false, compactHelp)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: portlab model import llvm --mcpu NAME [-o out.yml] [--forms GLOB]")
		fs.PrintDefaults()
	}
	if err := parseNoArgs(fs, args); err != nil {
		return err
	}
	if *mcpu == "" {
		return usageError{"--mcpu is required (an LLVM CPU name such as znver3, or host)"}
	}
	var forms []*isa.Form
	for _, g := range globs {
		fm, err := isa.Match(g)
		if err != nil {
			return usageError{err.Error()}
		}
		if len(fm) == 0 {
			return usageError{fmt.Sprintf("--forms %q matches no catalog form", g)}
		}
		forms = append(forms, fm...)
	}
	ctx, cancel := context.WithTimeout(context.Background(), *timeout)
	defer cancel()
	opt := modeldb.LLVMOptions{MCPU: *mcpu, MCA: *mca, Forms: forms, Iterations: *iters, Batch: *batch}
	if *mcpu == "host" {
		if info, err := hostcpu.Detect(); err == nil {
			// Only the forms this host can run, under the nearest core
			// this llvm-mca models.
			opt.Supported = func(f *isa.Form) bool { return f.Supported(info.Has) }
			opt.HostUarch = info.Microarch
		}
	}
	m, rep, err := modeldb.ImportLLVM(ctx, opt)
	if err != nil {
		return err
	}
	if err := writeModel(m, *out, *compact, stdout); err != nil {
		return err
	}
	fmt.Fprint(reportTo(*out, stdout, stderr), rep.Summary(*examples))
	return nil
}

// readResults reads result files; it maps llvm-exegesis's opcodes to forms
// through llvm-mc when some result names no form.
func readResults(files []string, stderr io.Writer) ([]*results.Benchmark, map[string]string, error) {
	var bs []*results.Benchmark
	for _, f := range files {
		b, err := results.ReadFile(f)
		if err != nil {
			return nil, nil, err
		}
		bs = append(bs, b...)
	}
	needOpcodes := false
	for _, b := range bs {
		if b.Portlab == nil || b.Portlab.Form == "" && len(b.Portlab.Mix) == 0 {
			needOpcodes = true
			break
		}
	}
	var opcodes map[string]string
	if needOpcodes {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		var err error
		opcodes, err = modeldb.LLVMOpcodeForms(ctx, "")
		if err != nil {
			fmt.Fprintf(stderr, "warning: llvm-exegesis results name LLVM opcodes, which need llvm-mc to map to forms: %v\n", err)
		}
	}
	return bs, opcodes, nil
}

func runImportExegesis(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("model import exegesis", stderr)
	out := fs.String("o", "-", "output model file ('-' = stdout; .gz compresses); written atomically")
	name := fs.String("name", "", "model name")
	compact := fs.Bool("compact", false, compactHelp)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: portlab model import exegesis FILE... [-o out.yml]")
		fs.PrintDefaults()
	}
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(pos) == 0 {
		return usageError{"want result files (llvm-exegesis or portlab YAML)"}
	}
	bs, opcodes, err := readResults(pos, stderr)
	if err != nil {
		return err
	}
	m, ms := modeldb.ImportExegesis(bs, modeldb.ExegesisOptions{OpcodeForms: opcodes, Name: *name, Sources: pos})
	if err := writeModel(m, *out, *compact, stdout); err != nil {
		return err
	}
	w := reportTo(*out, stdout, stderr)
	fmt.Fprintf(w, "%d forms from %d results in %d files\n", len(m.Forms), len(bs), len(pos))
	for _, s := range ms.Skipped {
		fmt.Fprintf(w, "skipped: %s\n", s)
	}
	return nil
}

func runModelBuild(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("model build", stderr)
	out := fs.String("o", "-", "output model file ('-' = stdout; .gz compresses); written atomically")
	base := fs.String("base", "", "start from this model (a file, or an embedded model); corrections are recorded")
	lenient := fs.Bool("lenient", false, "accept forms the catalog lacks in the base model")
	name := fs.String("name", "", "model name")
	llvmCPU := fs.String("llvm-cpu", "", "LLVM -mcpu name of the measured CPU (default: the base model's; from no base, the one the results' host gave)")
	holdout := fs.Float64("holdout", 0, "fraction of the mixes to keep out of the fit and predict afterwards (0-1)")
	tol := fs.Float64("tolerance", modeldb.DefaultTolerance, "how much worse (RMS relative error) a smaller port mapping may fit and still be chosen")
	lowConf := fs.Float64("low-confidence", modeldb.DefaultLowConfidence, "fit error above which a form is marked low-confidence")
	errCap := fs.Float64("error-cap", modeldb.DefaultErrorCap, "relative error at which one mix's share of a fit error stops growing (a mix no mapping explains counts as a miss)")
	split := fs.Float64("split-tolerance", 0, "with fit mixes (bench --mode fit-mixes): fit again, each in a class of its own, the forms of fit mixes the first fit mispredicts by more than this (relative; 0: never)")
	fits := fs.String("fits", "", "write every form's fit (class, mixes, error, confidence) as CSV here")
	examples := fs.Int("examples", 10, "how many low-confidence forms and corrections to list")
	compact := fs.Bool("compact", false, compactHelp)
	allowMixed := fs.Bool("allow-mixed", false, "build one model from results of several CPU types")
	hostTol := fs.Float64("host-tolerance", 0.02, "results from several machines: list forms whose machines disagree by more than this (relative)")
	hostsCSV := fs.String("hosts-csv", "", "results from several machines: write every form's per-machine values and spread as CSV here")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: portlab model build RESULTS... [-o model.yml] [--base MODEL] [--holdout 0.2]")
		fs.PrintDefaults()
	}
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(pos) == 0 {
		return usageError{"want result files (portlab bench sweeps with throughput, latency and ports modes)"}
	}
	if *split < 0 {
		return usageError{fmt.Sprintf("--split-tolerance %v: want a relative error (0: never split)", *split)}
	}
	if *errCap <= 0 {
		return usageError{fmt.Sprintf("--error-cap %v: want a relative error above 0", *errCap)}
	}
	if *holdout < 0 || *holdout >= 1 {
		return usageError{fmt.Sprintf("--holdout %v: want a fraction in [0, 1)", *holdout)}
	}
	var baseModel *modeldb.Model
	if *base != "" {
		baseModel, err = loadModelArg(*base, *lenient, stderr)
		if err != nil {
			return err
		}
	}
	bs, opcodes, err := readResults(pos, stderr)
	if err != nil {
		return err
	}
	agree := modeldb.CompareHosts(bs)
	if len(agree.Types) > 1 && !*allowMixed {
		return fmt.Errorf("results come from %d CPU types (%s): one model must describe one CPU type; split them with 'portlab bench merge --split DIR' or pass --allow-mixed", len(agree.Types), strings.Join(agree.Types, ", "))
	}
	ms := modeldb.CollectMeasurements(bs, modeldb.CollectOptions{OpcodeForms: opcodes})
	m, rep, err := modeldb.Build(ms, modeldb.BuildOptions{
		Name: *name, LLVMCPU: *llvmCPU, Base: baseModel, HoldOut: *holdout, Sources: pos,
		Infer: modeldb.InferOptions{Tolerance: *tol, LowConfidence: *lowConf, ErrorCap: *errCap, SplitTolerance: *split},
	})
	if err != nil {
		return err
	}
	if err := writeModel(m, *out, *compact, stdout); err != nil {
		return err
	}
	w := reportTo(*out, stdout, stderr)
	fmt.Fprint(w, rep.Summary(*examples))
	fmt.Fprint(w, agree.Summary(*examples, *hostTol))
	if *hostsCSV != "" {
		var b strings.Builder
		if err := agree.WriteCSV(&b); err != nil {
			return err
		}
		if err := fsutil.WriteFileAtomic(*hostsCSV, []byte(b.String()), 0o644); err != nil {
			return err
		}
	}
	if len(rep.HeldOut) > 0 {
		r := modeldb.EvaluateMixMeasurements(m, rep.HeldOut, 0.10)
		fmt.Fprint(w, "held-out mixes: ")
		fmt.Fprint(w, r.Summary(*examples))
		if n := len(rep.HeldOut) - len(rep.HeldOutExplainable); n > 0 && len(rep.HeldOutExplainable) > 0 {
			r := modeldb.EvaluateMixMeasurements(m, rep.HeldOutExplainable, 0.10)
			fmt.Fprintf(w, "held-out mixes without the %d that no port mapping explains (faster than a form alone or slower than the forms one after another): ", n)
			fmt.Fprint(w, r.Summary(0))
		}
	}
	if *fits != "" {
		if err := writeFits(*fits, rep.Fits); err != nil {
			return err
		}
	}
	return nil
}

func writeFits(path string, fits []modeldb.FormFit) error {
	var b strings.Builder
	w := csv.NewWriter(&b)
	w.Write([]string{"form", "class", "mixes", "rms_error", "max_error", "confidence", "note"})
	for _, f := range fits {
		w.Write([]string{f.Form, strconv.Itoa(f.Class), strconv.Itoa(f.Mixes),
			strconv.FormatFloat(f.Error, 'f', 4, 64), strconv.FormatFloat(f.MaxError, 'f', 4, 64), f.Confidence, f.Note})
	}
	w.Flush()
	return fsutil.WriteFileAtomic(path, []byte(b.String()), 0o644)
}

func runModelDiff(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("model diff", stderr)
	asJSON := fs.Bool("json", false, "print JSON")
	limit := fs.Int("limit", 50, "how many changed forms to print (0: all)")
	threshold := fs.Float64("threshold", 0.01, "relative change below which numbers count as equal")
	lenient := fs.Bool("lenient", false, "accept forms the catalog lacks")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: portlab model diff A B [--json] [--limit N]")
		fs.PrintDefaults()
	}
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 2 {
		return usageError{"want two models"}
	}
	a, err := loadModelArg(pos[0], *lenient, stderr)
	if err != nil {
		return err
	}
	b, err := loadModelArg(pos[1], *lenient, stderr)
	if err != nil {
		return err
	}
	d := modeldb.Diff(a, b, modeldb.DiffOptions{Threshold: *threshold})
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(d)
	}
	d.WriteText(stdout, *limit)
	return nil
}

func runModelShow(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("model show", stderr)
	model := fs.String("model", "host", "model: a file, an embedded model, or host")
	asJSON := fs.Bool("json", false, "print JSON")
	lenient := fs.Bool("lenient", false, "accept forms the catalog lacks")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: portlab model show [--model M] FORM|GLOB   (e.g. 'vfmadd231pd ymm, ymm, ymm' or 'vfmadd*pd ymm*')")
		fs.PrintDefaults()
	}
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(pos) == 0 {
		return usageError{"want a form name or glob"}
	}
	// Unquoted form names arrive in pieces: "vaddpd" "ymm," "ymm," "ymm".
	pattern := strings.Join(pos, " ")
	m, err := loadModelArg(*model, *lenient, stderr)
	if err != nil {
		return err
	}
	es, err := m.Select(pattern)
	if err != nil {
		return err
	}
	if *asJSON {
		var out []modeldb.EntryJSON
		for _, e := range es {
			out = append(out, m.JSON(e))
		}
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(out)
	}
	fmt.Fprintf(stdout, "model %s\n\n", m.Label())
	if len(es) == 1 {
		m.WriteEntry(stdout, es[0])
		return nil
	}
	m.WriteTable(stdout, es)
	return nil
}

func runModelList(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("model list", stderr)
	asJSON := fs.Bool("json", false, "print JSON")
	if err := parseNoArgs(fs, args); err != nil {
		return err
	}
	infos, err := modeldb.List()
	if err != nil {
		return err
	}
	users, err := modeldb.UserModels()
	if err != nil {
		return err
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(struct {
			Embedded []modeldb.ModelInfo `json:"embedded"`
			User     []modeldb.ModelInfo `json:"user"`
		}{infos, users})
	}
	if len(infos) == 0 {
		fmt.Fprintln(stdout, "no embedded models")
	}
	for _, i := range infos {
		writeModelInfo(stdout, i.File, i)
	}
	dir, _ := modeldb.UserModelDir()
	if len(users) == 0 {
		fmt.Fprintf(stdout, "\nno models of your own in %s (portlab characterize builds this host's)\n", dir)
		return nil
	}
	fmt.Fprintf(stdout, "\nyour models (%s), used by default on a host of their CPU signature:\n", dir)
	for _, i := range users {
		writeModelInfo(stdout, filepath.Base(i.File), i)
	}
	return nil
}

// writeModelInfo is one model's entry in model list.
func writeModelInfo(w io.Writer, file string, i modeldb.ModelInfo) {
	fmt.Fprintf(w, "%-32s %-16s %5d forms  %s (%s)\n  %s\n", file, i.LLVMCPU, i.Forms, i.Source, i.From, i.Name)
}

func runModelEval(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("model eval", stderr)
	model := fs.String("model", "host", "model to evaluate: a file, an embedded model, or host")
	tol := fs.Float64("tolerance", 0.10, "relative error that counts as a good prediction")
	limit := fs.Int("limit", 10, "how many of the worst mixes to list")
	asJSON := fs.Bool("json", false, "print JSON")
	lenient := fs.Bool("lenient", false, "accept forms the catalog lacks")
	which := fs.String("mixes", "all", "which mixes to score: all, ports (what model build fits: form with probe, and bench --mode fit-mixes) or random (bench --mode random-mixes, never fitted)")
	simulate := fs.Bool("simulate", false, "predict each mix by simulating its machine code as measured, as validate predicts a kernel (the generator's resets, register chains and store lines count), rather than by the model's bottleneck bound (what model build fits)")
	against := fs.String("against", "", "compare with this model (a file, an embedded model, or host) mix by mix: how many mixes only one of the two predicts within the tolerance, and whether the difference is beyond chance (the sign test)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: portlab model eval --model M [--against M2] [--mixes all|ports|random] [--simulate] RESULTS...   (results with mixes)")
		fs.PrintDefaults()
	}
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(pos) == 0 {
		return usageError{"want result files with port-conflict mixes"}
	}
	set, ok := map[string]modeldb.MixSet{"all": modeldb.AllMixes, "ports": modeldb.PortMixesOnly, "random": modeldb.RandomMixesOnly}[*which]
	if !ok {
		return usageError{fmt.Sprintf("--mixes %q: want all, ports or random", *which)}
	}
	m, err := loadModelArg(*model, *lenient, stderr)
	if err != nil {
		return err
	}
	var bs []*results.Benchmark
	for _, f := range pos {
		b, err := results.ReadFile(f)
		if err != nil {
			return err
		}
		bs = append(bs, b...)
	}
	evaluate := func(m *modeldb.Model) (*modeldb.MixReport, error) {
		if !*simulate {
			return modeldb.EvaluateMixes(m, bs, *tol, set), nil
		}
		sim, err := analysis.MixSimulator(m)
		if err != nil {
			return nil, err
		}
		return modeldb.EvaluateMixesWith(m, bs, *tol, set, analysis.MixSimulatorName, sim), nil
	}
	r, err := evaluate(m)
	if err != nil {
		return err
	}
	var other *modeldb.MixReport
	var paired modeldb.Paired
	if *against != "" {
		m2, err := loadModelArg(*against, *lenient, stderr)
		if err != nil {
			return err
		}
		if other, err = evaluate(m2); err != nil {
			return err
		}
		paired = modeldb.PairReports(r, other)
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if other != nil {
			return enc.Encode(struct {
				Model, Against *modeldb.MixReport
				Paired         modeldb.Paired
			}{r, other, paired})
		}
		return enc.Encode(r)
	}
	if r.N == 0 && r.Missing == 0 {
		return fmt.Errorf("no %s mixes in %s", *which, strings.Join(pos, ", "))
	}
	fmt.Fprint(stdout, r.Summary(*limit))
	if other != nil {
		fmt.Fprintf(stdout, "\nagainst %s: %d of %d (%.1f%%) within %.0f%%\n", other.Model, other.Within, other.N, 100*other.Fraction(), 100*other.Tolerance)
		fmt.Fprint(stdout, pairedText(paired, r.Tolerance, "--model", "--against"))
	}
	return nil
}

// pairedText says in words how two models, a and b, compare mix by mix.
func pairedText(p modeldb.Paired, tol float64, a, b string) string {
	s := fmt.Sprintf("of the %d mixes both predict, %d are within %.0f%% by %s alone, %d by %s alone", p.N, p.OnlyA, 100*tol, a, p.OnlyB, b)
	switch {
	case p.OnlyA == p.OnlyB:
		return s + ": no difference\n"
	case p.P < 0.05:
		better := a
		if p.OnlyB > p.OnlyA {
			better = b
		}
		return s + fmt.Sprintf(": %s is better beyond chance (sign test p = %.3g)\n", better, p.P)
	}
	return s + fmt.Sprintf(": within chance (sign test p = %.2f; 0.05 or less would show a difference)\n", p.P)
}

func runModelCheck(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("model check", stderr)
	lenient := fs.Bool("lenient", false, "accept forms the catalog lacks (warnings)")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(pos) == 0 {
		return usageError{"want model files"}
	}
	failed := false
	for _, f := range pos {
		warn := func(msg string) { fmt.Fprintf(stderr, "warning: %s\n", msg) }
		m, err := modeldb.LoadFile(f, modeldb.LoadOptions{Lenient: *lenient, Warn: warn})
		if err != nil {
			fmt.Fprintln(stderr, err)
			failed = true
			continue
		}
		fmt.Fprintf(stdout, "%s: ok, %d forms, %d ports\n", f, len(m.Forms), len(m.Ports))
	}
	if failed {
		return errQuiet
	}
	return nil
}
