package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"portlab/analysis"
	"portlab/analysis/input"
	"portlab/internal/fsutil"
	"portlab/isa"
	"portlab/jit"
	"portlab/modeldb"
)

func init() {
	register(&command{name: "analyze", summary: "predict the throughput of kernels: static port/dependency analysis and llvm-mca-style simulation", run: runAnalyze})
}

func runAnalyze(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("analyze", stderr)
	modelPath := fs.String("model", "", "machine model: a file (portlab YAML or OSACA), an embedded model's file name or LLVM CPU (see 'portlab model list'), or 'host': the host's own (portlab characterize), else its embedded model (the default)")
	mcpu := fs.String("mcpu", "", "use LLVM's scheduling model for this CPU (imported through llvm-mca for the forms the input uses), e.g. skylake, znver3")
	iterations := fs.Int("iterations", analysis.DefaultIterations, "iterations of each region to simulate")
	dispatch := fs.Int("dispatch", 0, "dispatch width in micro-ops per cycle (default: the model's)")
	regFile := fs.Int("register-file-size", 0, "physical registers of all register files together (default: unlimited, or the model's files)")
	lqueue := fs.Int("lqueue", 0, "load queue size (default: the model's; unlimited when it has none)")
	squeue := fs.Int("squeue", 0, "store queue size (default: the model's; unlimited when it has none)")
	noAlias := fs.Bool("noalias", true, "assume loads and stores do not alias (as llvm-mca; --noalias=false orders loads after stores)")
	robSize := fs.Int("rob-size", 0, "reorder buffer size in micro-ops (default: the model's)")
	schedSize := fs.Int("scheduler-size", 0, "size of every scheduler (default: the model's)")
	retireWidth := fs.Int("retire-width", 0, "instructions retired per cycle (default: the model's, or unlimited)")
	movElim := fs.Int("max-moves-eliminated", 0, "moves renaming eliminates per cycle (0 unlimited, -1 none)")
	partial := fs.String("partial-writes", "", "how a write to part of a register depends on its old value: merge (waits for it), order (completes after the older write, llvm-mca's Zen models) or none (llvm-mca's Intel models); default by model")
	hexIn := fs.Bool("hex", false, "inputs are hex-encoded machine code, one block per line")
	symbol := fs.String("symbol", "", "ELF input: analyse this function")
	addrRange := fs.String("range", "", "ELF input: analyse the code in START:END (addresses, END exclusive)")
	batch := fs.Bool("batch", false, "read blocks (hex CSV, one per line, BHive style) and print one prediction per line: block,cycles per iteration")
	batchScale := fs.Float64("batch-scale", 1, "--batch: multiply predictions by this (100 gives BHive's cycles per 100 iterations)")
	batchStatic := fs.Bool("batch-static", false, "--batch: also print the static bound and bottleneck")
	timeline := fs.Bool("timeline", false, "print the timeline view")
	tlIters := fs.Int("timeline-max-iterations", 10, "iterations shown in the timeline")
	tlCycles := fs.Int("timeline-max-cycles", 80, "cycles shown in the timeline")
	bottleneck := fs.Bool("bottleneck-analysis", false, "print the bottleneck analysis")
	dispStats := fs.Bool("dispatch-stats", false, "print dispatch statistics")
	schedStats := fs.Bool("scheduler-stats", false, "print scheduler statistics")
	retStats := fs.Bool("retire-stats", false, "print retire control unit statistics")
	rfStats := fs.Bool("register-file-stats", false, "print register file statistics")
	allStats := fs.Bool("all-stats", false, "print all statistics views (dispatch, scheduler, retire, register file)")
	allViews := fs.Bool("all-views", false, "print every view")
	summary := fs.Bool("summary-view", true, "print the summary view")
	static := fs.Bool("static", true, "print the static analysis (port pressure with optimal balancing, critical path, loop-carried dependencies, bound)")
	instInfo := fs.Bool("instruction-info", true, "print the instruction info view")
	pressure := fs.Bool("resource-pressure", true, "print the resource pressure view")
	tables := fs.Bool("instruction-tables", false, "print instruction tables (the model's numbers per instruction) without simulating")
	showEnc := fs.Bool("show-encoding", false, "print instruction encodings (assembled with GNU as for assembly input)")
	asJSON := fs.Bool("json", false, "print the reports as JSON (llvm-mca's layout)")
	htmlOut := fs.String("html", "", "also write a self-contained HTML report (timeline and pressure drawn) to this file")
	out := fs.String("o", "-", "output file ('-' = stdout); written atomically")
	syntax := fs.String("syntax", "", "print instructions in att or intel syntax (default: as written)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: portlab analyze [--model M | --mcpu NAME] [flags] [FILE...]   (no FILE or '-': stdin)")
		fmt.Fprintln(stderr, "       portlab analyze --batch [--model M | --mcpu NAME] [FILE.csv...]")
		fmt.Fprintln(stderr, "FILEs are assembly (AT&T or Intel; regions: # LLVM-MCA-BEGIN/END, OSACA or IACA markers),")
		fmt.Fprintln(stderr, "ELF objects or executables (.mca_code_regions, --symbol, --range), or hex blocks (--hex).")
		fs.PrintDefaults()
	}
	files, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if *modelPath != "" && *mcpu != "" {
		return usageError{"give --model or --mcpu, not both"}
	}
	if *iterations <= 0 {
		return usageError{fmt.Sprintf("--iterations %d: must be positive", *iterations)}
	}
	for _, v := range []struct {
		name string
		val  int
	}{{"dispatch", *dispatch}, {"register-file-size", *regFile}, {"lqueue", *lqueue}, {"squeue", *squeue},
		{"rob-size", *robSize}, {"scheduler-size", *schedSize}, {"retire-width", *retireWidth}} {
		if v.val < 0 {
			return usageError{fmt.Sprintf("--%s %d: must not be negative", v.name, v.val)}
		}
	}
	switch *partial {
	case "", analysis.PartialMerge, analysis.PartialOrder, analysis.PartialNone:
	default:
		return usageError{fmt.Sprintf("--partial-writes %q: want merge, order or none", *partial)}
	}
	var syn isa.Syntax
	switch strings.ToLower(*syntax) {
	case "":
	case "att", "at&t", "0":
		syn = isa.SyntaxATT
	case "intel", "1":
		syn = isa.SyntaxIntel
	default:
		return usageError{fmt.Sprintf("--syntax %q: want att or intel", *syntax)}
	}
	if *batch && (*symbol != "" || *addrRange != "") {
		return usageError{"--batch reads hex blocks: --symbol and --range do not apply"}
	}
	if len(files) == 0 {
		files = []string{"-"}
	}
	nStdin := 0
	for _, f := range files {
		if f == "-" {
			nStdin++
		}
	}
	if nStdin > 1 {
		return usageError{"standard input ('-') can be read once"}
	}
	opt := analysis.Options{Iterations: *iterations, DispatchWidth: *dispatch, RegisterFileSize: *regFile,
		LoadQueue: *lqueue, StoreQueue: *squeue, MayAlias: !*noAlias, ROBSize: *robSize,
		SchedulerSize: *schedSize, RetireWidth: *retireWidth, MaxMovesEliminated: *movElim, PartialWrites: *partial}
	warn := func(msg string) { fmt.Fprintf(stderr, "portlab analyze: warning: %s\n", msg) }

	if *batch {
		return runAnalyzeBatch(files, *modelPath, *mcpu, opt, *batchScale, *batchStatic, *out, stdout, stderr)
	}

	// Read every input into regions.
	var regions []*input.Region
	for _, f := range files {
		data, name, err := readInput(f)
		if err != nil {
			return err
		}
		rs, err := input.Read(name, data, input.Options{Hex: *hexIn, Symbol: *symbol, Range: *addrRange}, warn)
		if err != nil {
			return err
		}
		regions = append(regions, rs...)
	}
	model, notes, err := analyzeModel(*modelPath, *mcpu, regions, stderr)
	if err != nil {
		return err
	}
	for _, n := range notes {
		fmt.Fprintf(stderr, "portlab analyze: note: %s\n", n)
	}
	b, err := analysis.NewBuilder(model)
	if err != nil {
		return err
	}
	b.Syntax = syn
	if *partial != "" {
		b.PartialWrites = *partial
	}
	views := analysis.DefaultViews()
	views.Summary, views.Static, views.InstructionInfo, views.ResourcePressure = *summary, *static, *instInfo, *pressure
	views.Timeline, views.Bottleneck = *timeline, *bottleneck
	views.TimelineMaxIterations, views.TimelineMaxCycles = *tlIters, *tlCycles
	views.DispatchStats, views.SchedulerStats, views.RetireStats, views.RegisterFileStats = *dispStats, *schedStats, *retStats, *rfStats
	if *allStats {
		views.AllStats()
	}
	if *allViews {
		views.AllViews()
	}
	views.ShowEncoding = *showEnc
	views.InstructionTables = *tables
	if *htmlOut != "" && !*tables {
		views.Timeline = true // the HTML view draws it
	}
	var kernels []*analysis.Kernel
	for _, r := range regions {
		k, err := b.Kernel(r)
		if err != nil {
			return err
		}
		kernels = append(kernels, k)
	}
	if *showEnc {
		if err := assembleEncodings(kernels, stderr); err != nil {
			warn(err.Error())
		}
	}
	var reports []*analysis.Report
	for i, k := range kernels {
		r, err := analysis.Analyze(k, opt, views)
		if err != nil {
			return err
		}
		r.Index = i
		reports = append(reports, r)
	}
	var buf bytes.Buffer
	if *asJSON {
		params := map[string]any{"-model": model.Label(), "-iterations": *iterations, "-noalias": *noAlias}
		if *mcpu != "" {
			params["-mcpu"] = *mcpu
		}
		if err := analysis.WriteJSON(&buf, reports, params); err != nil {
			return err
		}
	} else {
		text := reports
		if !*timeline && !*allViews && *htmlOut != "" {
			// The HTML report needs the timeline; the text keeps to what was asked.
			text = nil
			for _, r := range reports {
				c := *r
				c.Views = dropView(r.Views, "TimelineView")
				text = append(text, &c)
			}
		}
		analysis.PrintText(&buf, text)
	}
	if *htmlOut != "" {
		var h bytes.Buffer
		if err := analysis.WriteHTML(&h, reports, files, commandLine("analyze", args)); err != nil {
			return err
		}
		if err := fsutil.WriteFileAtomic(*htmlOut, h.Bytes(), 0o644); err != nil {
			return err
		}
	}
	return writeOut(*out, buf.Bytes(), stdout)
}

// dropView returns views without the named one.
func dropView(vs []analysis.View, name string) []analysis.View {
	var out []analysis.View
	for _, v := range vs {
		if v.Name() != name {
			out = append(out, v)
		}
	}
	return out
}

// readInput reads a file or, for "-", standard input.
func readInput(f string) ([]byte, string, error) {
	if f == "-" {
		data, err := io.ReadAll(os.Stdin)
		return data, "<stdin>", err
	}
	data, err := os.ReadFile(f)
	return data, f, err
}

// analyzeModel loads --model, imports --mcpu for the forms the regions
// use, or finds the host's model (analysis.HostModel).
func analyzeModel(path, mcpu string, regions []*input.Region, stderr io.Writer) (*modeldb.Model, []string, error) {
	warn := func(msg string) { fmt.Fprintf(stderr, "portlab analyze: warning: %s\n", msg) }
	switch {
	case path != "" && path != "host":
		m, err := loadModelFileOrName(path, modeldb.LoadOptions{Lenient: true, Warn: warn})
		if err != nil {
			return nil, nil, err
		}
		return m, nil, nil
	case mcpu != "":
		seen := map[*isa.Form]bool{}
		var forms []*isa.Form
		for _, r := range regions {
			for _, in := range r.Insts {
				if in.Form != nil && !seen[in.Form] {
					seen[in.Form] = true
					forms = append(forms, in.Form)
				}
			}
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
		defer cancel()
		m, rep, notes, err := analysis.LLVMModel(ctx, mcpu, forms)
		if err != nil {
			return nil, nil, fmt.Errorf("--mcpu %s: %w", mcpu, err)
		}
		if len(rep.Rejected)+len(rep.Unsupported) > 0 || rep.Note != "" {
			fmt.Fprintf(stderr, "portlab analyze: %s", rep.Summary(3))
		}
		return m, notes, nil
	}
	m, note, err := analysis.HostModel()
	if err != nil {
		return nil, nil, fmt.Errorf("no --model or --mcpu given and %v", err)
	}
	var notes []string
	if note != "" {
		notes = append(notes, note)
	}
	return m, notes, nil
}

// assembleEncodings fills in the encodings of assembly instructions with
// GNU as (one batch, cached by jit's assembler).
func assembleEncodings(ks []*analysis.Kernel, stderr io.Writer) error {
	var units []*jit.Unit
	var targets []*analysis.Instr
	for _, k := range ks {
		for _, x := range k.Instrs {
			if x.Encoding != nil {
				continue
			}
			src := x.Inst.Intel()
			// Symbols become a label of the unit's own (a branch target)
			// or 0 (a displacement), so that the unit stands alone.
			for _, a := range x.Inst.Args {
				switch {
				case a.Type == isa.OpLabel && a.Symbol != "":
					src = "__portlab_lbl" + jit.UnitToken + ":\n" + strings.ReplaceAll(src, a.Symbol, "__portlab_lbl"+jit.UnitToken)
				case a.Symbol != "":
					src = strings.ReplaceAll(src, a.Symbol, "0")
				case a.Type == isa.OpMem && a.Mem.Symbol != "":
					src = strings.ReplaceAll(src, a.Mem.Symbol, "0")
				}
			}
			src += "\n__portlab_enc_end" + jit.UnitToken + ":"
			units = append(units, &jit.Unit{Name: x.Inst.Pos.String(), Source: src, Marks: []string{"__portlab_enc_end" + jit.UnitToken}})
			targets = append(targets, x)
		}
	}
	if len(units) == 0 {
		return nil
	}
	as := jit.NewAssembler()
	objs, errs := as.Assemble(units)
	var first error
	for i, o := range objs {
		if errs[i] != nil {
			if first == nil {
				first = fmt.Errorf("encodings: %v", errs[i])
			}
			continue
		}
		end := len(o.Code)
		for _, m := range o.Marks {
			end = min(end, m)
		}
		targets[i].Encoding = o.Code[:end]
	}
	return first
}

// runAnalyzeBatch predicts every block of hex CSV inputs, one line each.
func runAnalyzeBatch(files []string, modelPath, mcpu string, opt analysis.Options, scale float64, withStatic bool, outPath string, stdout, stderr io.Writer) error {
	type block struct {
		text  string
		pos   string
		insts []*isa.Inst
		err   error
	}
	var blocks []block
	for _, f := range files {
		data, name, err := readInput(f)
		if err != nil {
			return err
		}
		sc := bufio.NewScanner(bytes.NewReader(data))
		sc.Buffer(make([]byte, 1<<16), 1<<24)
		ln := 0
		for sc.Scan() {
			ln++
			line := strings.TrimSpace(sc.Text())
			code, ok, err := input.HexLine(line)
			if err != nil && ln == 1 {
				continue // a CSV header
			}
			if !ok && err == nil {
				continue
			}
			text := line
			if i := strings.IndexAny(text, ",;\t"); i >= 0 {
				text = text[:i]
			}
			b := block{text: text, pos: name + ":" + strconv.Itoa(ln)}
			if err != nil {
				b.err = err
			} else if r, err := input.Code(b.pos, code, 0); err != nil {
				b.err = err
			} else {
				b.insts = r.Insts
			}
			blocks = append(blocks, b)
		}
		if err := sc.Err(); err != nil {
			return fmt.Errorf("%s: %v", name, err)
		}
	}
	var regions []*input.Region
	if mcpu != "" {
		for _, b := range blocks {
			if b.err == nil {
				regions = append(regions, &input.Region{Insts: b.insts})
			}
		}
	}
	model, notes, err := analyzeModel(modelPath, mcpu, regions, stderr)
	if err != nil {
		return err
	}
	for _, n := range notes {
		fmt.Fprintf(stderr, "portlab analyze: note: %s\n", n)
	}
	bt, err := analysis.NewBatch(model, opt)
	if err != nil {
		return err
	}
	for _, n := range bt.Notes {
		fmt.Fprintf(stderr, "portlab analyze: note: %s\n", n)
	}
	var w io.Writer = stdout
	var buf *bufio.Writer
	var fileBuf bytes.Buffer
	if outPath != "-" {
		w = &fileBuf
	}
	buf = bufio.NewWriterSize(w, 1<<16)
	failed := 0
	prog := newProgress(stderr, "analyze", len(blocks))
	for i, b := range blocks {
		if i%256 == 0 {
			prog.update(i, b.pos)
		}
		if b.err == nil {
			var pr analysis.Prediction
			if withStatic {
				pr, b.err = bt.PredictStatic(b.insts)
			} else {
				pr, b.err = bt.Predict(b.insts)
			}
			if b.err == nil {
				if withStatic {
					fmt.Fprintf(buf, "%s,%s,%s,%s\n", b.text, strconv.FormatFloat(pr.CyclesPerIteration*scale, 'f', -1, 64),
						strconv.FormatFloat(pr.Bound*scale, 'f', -1, 64), csvQuote(pr.Bottleneck))
				} else {
					fmt.Fprintf(buf, "%s,%s\n", b.text, strconv.FormatFloat(pr.CyclesPerIteration*scale, 'f', -1, 64))
				}
				continue
			}
		}
		failed++
		if failed <= 10 {
			fmt.Fprintf(stderr, "portlab analyze: %s: %v\n", b.pos, b.err)
		}
		fmt.Fprintf(buf, "%s,nan\n", b.text)
	}
	prog.done()
	if err := buf.Flush(); err != nil {
		return err
	}
	if failed > 10 {
		fmt.Fprintf(stderr, "portlab analyze: ... %d blocks in all could not be predicted (printed as nan)\n", failed)
	}
	if outPath != "-" {
		if err := fsutil.WriteFileAtomic(outPath, fileBuf.Bytes(), 0o644); err != nil {
			return err
		}
	}
	return nil
}

func csvQuote(s string) string {
	if strings.ContainsAny(s, ",\"\n") {
		return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
	}
	return s
}
