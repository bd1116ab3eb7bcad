package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"portlab/cluster"
	"portlab/internal/fsutil"
	"portlab/isa"
	"portlab/modeldb"
)

func init() {
	register(&command{name: "cluster", summary: "cluster benchmark results and report where a model disagrees with them (llvm-exegesis analysis)", run: runCluster})
}

func runCluster(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("cluster", stderr)
	var files stringList
	fs.Var(&files, "benchmarks-file", "result file (llvm-exegesis or portlab YAML; '-' reads stdin); repeatable, or give files as arguments")
	modelPath := fs.String("model", "", "model to check the results against: a file, an embedded model's file name or LLVM CPU (see 'portlab model list'), or 'host' (default: the model portlab characterize built for the results' CPU)")
	mcpu := fs.String("mcpu", "", "check against LLVM's scheduling model for this CPU (llvm-mca -mcpu=NAME, imported for the measured forms), e.g. znver3")
	algo := fs.String("analysis-clustering", "dbscan", "clustering algorithm: dbscan or naive")
	eps := fs.Float64("analysis-clustering-epsilon", 0.1, "clustering epsilon: neighbourhood radius in cycles")
	fs.Float64Var(eps, "epsilon", 0.1, "same as --analysis-clustering-epsilon")
	minPts := fs.Int("analysis-numpoints", 3, "DBSCAN: points (the point included) a neighbourhood needs to start a cluster")
	fs.IntVar(minPts, "numpoints", 3, "same as --analysis-numpoints")
	incEps := fs.Float64("analysis-inconsistency-epsilon", 0.1, "largest distance in cycles between measurement and model that still agrees")
	unstable := fs.Bool("analysis-display-unstable-clusters", false, "compare only the unstable clusters (an opcode split across clusters), as exegesis does; by default the stable clusters are compared, and unstable forms by their median")
	filter := fs.String("analysis-filter", "all", "which forms to analyse: all, reg-only or mem-only (by memory operand)")
	fs.StringVar(filter, "filter", "all", "same as --analysis-filter")
	clustersOut := fs.String("analysis-clusters-output-file", "", "write the clusters as exegesis's CSV here ('-' = stdout)")
	incOut := fs.String("analysis-inconsistencies-output-file", "", "write the inconsistency report here: HTML, or JSON when the name ends in .json ('-' = stdout, HTML)")
	asJSON := fs.Bool("json", false, "print the inconsistency report as JSON on stdout")
	corrected := fs.String("corrected-model-output-file", "", "write the model with the inconsistent classes' measured values accepted, provenance noted (needs --model, or --mcpu: then the measured forms only)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: portlab cluster --benchmarks-file F [F...] [--model M | --mcpu NAME] [--analysis-clusters-output-file clusters.csv] [--analysis-inconsistencies-output-file report.html] [flags]")
		fs.PrintDefaults()
	}
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	files = append(files, pos...)
	if len(files) == 0 {
		return usageError{"no results given (--benchmarks-file FILE, or files as arguments)"}
	}
	switch cluster.Algorithm(*algo) {
	case cluster.DBSCAN, cluster.Naive:
	default:
		return usageError{fmt.Sprintf("--analysis-clustering %q: want dbscan or naive", *algo)}
	}
	if !(*eps > 0) {
		return usageError{fmt.Sprintf("--analysis-clustering-epsilon %v: must be positive", *eps)}
	}
	if !(*incEps > 0) {
		return usageError{fmt.Sprintf("--analysis-inconsistency-epsilon %v: must be positive", *incEps)}
	}
	if *minPts < 1 {
		return usageError{fmt.Sprintf("--analysis-numpoints %d: must be at least 1", *minPts)}
	}
	switch *filter {
	case "all", "reg-only", "mem-only":
	default:
		return usageError{fmt.Sprintf("--analysis-filter %q: want all, reg-only or mem-only", *filter)}
	}
	if *modelPath != "" && *mcpu != "" {
		return usageError{"give --model or --mcpu, not both"}
	}
	if *corrected != "" && *modelPath == "" && *mcpu == "" {
		return usageError{"--corrected-model-output-file needs a model to correct (--model or --mcpu)"}
	}
	if *incOut == "-" && *clustersOut == "-" {
		return usageError{"only one of the output files can be '-' (stdout)"}
	}
	if *asJSON && (*incOut == "-" || *clustersOut == "-") {
		return usageError{"--json prints to stdout: write the other outputs to files"}
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

	points, err := cluster.Load(files...)
	if err != nil {
		return err
	}
	if len(points) == 0 {
		return fmt.Errorf("%s: no benchmark results", strings.Join(files, ", "))
	}
	model, modelName, err := loadClusterModel(*modelPath, *mcpu, points, stderr)
	if err != nil {
		return err
	}
	unresolved := cluster.Resolve(points, model)
	if model != nil && len(unresolved) > 0 {
		fmt.Fprintf(stderr, "portlab cluster: %d opcode(s) did not resolve to a form and are reported as not in the model: %s\n",
			len(unresolved), abbreviate(unresolved, 8))
	}
	if *filter != "all" {
		var kept []*cluster.Point
		for _, p := range points {
			if p.Memory == (*filter == "mem-only") {
				kept = append(kept, p)
			}
		}
		points = kept
	}
	c, err := cluster.Run(points, cluster.Options{Algorithm: cluster.Algorithm(*algo), Epsilon: *eps, MinPoints: *minPts})
	if err != nil {
		return err
	}
	var shown []string
	for _, f := range files {
		if f == "-" {
			f = "<stdin>"
		}
		shown = append(shown, filepath.Base(f))
	}
	filterNote := ""
	if *filter != "all" {
		filterNote = *filter
	}
	rep := cluster.Analyze(c, model, cluster.AnalysisOptions{Epsilon: *incEps, DisplayUnstable: *unstable,
		Files: shown, Filter: filterNote, Generated: time.Now(), ModelName: modelName,
		Command: commandLine("cluster", args)})

	usedStdout := false
	if *clustersOut != "" {
		var buf bytes.Buffer
		if err := cluster.WriteCSV(&buf, c, model); err != nil {
			return err
		}
		if err := writeOut(*clustersOut, buf.Bytes(), stdout); err != nil {
			return err
		}
		usedStdout = usedStdout || *clustersOut == "-"
	}
	if *incOut != "" {
		var buf bytes.Buffer
		if strings.HasSuffix(strings.ToLower(*incOut), ".json") {
			err = cluster.WriteJSON(&buf, rep)
		} else {
			err = cluster.WriteHTML(&buf, rep, c)
		}
		if err != nil {
			return err
		}
		if err := writeOut(*incOut, buf.Bytes(), stdout); err != nil {
			return err
		}
		usedStdout = usedStdout || *incOut == "-"
	}
	if *asJSON {
		if err := cluster.WriteJSON(stdout, rep); err != nil {
			return err
		}
		usedStdout = true
	}
	var corrs []cluster.Correction
	if *corrected != "" {
		var m2 *modeldb.Model
		m2, corrs = cluster.Correct(model, rep.Inconsistencies)
		if err := m2.Save(*corrected); err != nil {
			return err
		}
	}
	summaryTo := stdout
	if usedStdout {
		summaryTo = stderr
	}
	printClusterSummary(summaryTo, rep, model != nil)
	if *corrected != "" {
		fmt.Fprintf(summaryTo, "\n%s: %d value(s) corrected in %d class(es)\n", *corrected, len(corrs), len(rep.Inconsistencies))
	}
	return nil
}

// loadClusterModel loads --model (leniently: models written by other
// tools may name forms portlab's catalog lacks; OSACA files are imported),
// or imports LLVM's scheduling model for --mcpu through llvm-mca, for the
// forms the results measured; with neither, the user's model of the
// results' CPU signature when there is one (none: no model).
func loadClusterModel(path, mcpu string, points []*cluster.Point, stderr io.Writer) (*modeldb.Model, string, error) {
	warn := func(msg string) { fmt.Fprintf(stderr, "portlab cluster: warning: %s\n", msg) }
	switch {
	case path != "" && path != "host":
		m, err := loadModelFileOrName(path, modeldb.LoadOptions{Lenient: true, Warn: warn})
		if err != nil {
			return nil, "", err
		}
		name := m.Name
		if name == "" {
			name = filepath.Base(path)
		}
		return m, name, nil
	case mcpu != "":
		return importLLVMModel(mcpu, points, stderr)
	}
	// Results of one CPU type whose user model exists (portlab
	// characterize): checked against it.
	sigs := map[string]bool{}
	for _, p := range points {
		if p.Bench != nil && p.Bench.Portlab != nil && p.Bench.Portlab.Host != "" {
			sigs[p.Bench.Portlab.Host] = true
		}
	}
	if len(sigs) == 1 {
		for sig := range sigs {
			m, path, err := modeldb.UserModel(sig)
			if err != nil {
				return nil, "", err
			}
			if m != nil {
				fmt.Fprintf(stderr, "portlab cluster: checking against the model of %s in %s (--model or --mcpu for another)\n", sig, path)
				return m, m.Name, nil
			}
		}
	}
	return nil, "", nil
}

// importLLVMModel imports LLVM's model for the forms the points measured
// (importing the whole catalog takes minutes; the measured forms take a
// fraction of a second).
func importLLVMModel(mcpu string, points []*cluster.Point, stderr io.Writer) (*modeldb.Model, string, error) {
	cluster.Resolve(points, nil)
	seen := map[string]bool{}
	var forms []*isa.Form
	for _, p := range points {
		if p.Form == "" || seen[p.Form] {
			continue
		}
		seen[p.Form] = true
		if f, ok := isa.Lookup(p.Form); ok {
			forms = append(forms, f)
		}
	}
	if len(forms) == 0 {
		return nil, "", fmt.Errorf("--mcpu %s: no measured instruction resolved to a form to import", mcpu)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	m, rep, err := modeldb.ImportLLVM(ctx, modeldb.LLVMOptions{MCPU: mcpu, Forms: forms})
	if err != nil {
		return nil, "", fmt.Errorf("--mcpu %s: %w", mcpu, err)
	}
	if len(rep.Rejected)+len(rep.Unsupported) > 0 || rep.Note != "" {
		fmt.Fprintf(stderr, "portlab cluster: %s", rep.Summary(3))
	}
	name := m.Name
	if name == "" {
		name = fmt.Sprintf("LLVM %s -mcpu=%s", rep.Version, rep.MCPU)
	}
	return m, name, nil
}

func writeOut(path string, data []byte, stdout io.Writer) error {
	if path == "-" {
		_, err := stdout.Write(data)
		return err
	}
	return fsutil.WriteFileAtomic(path, data, 0o644)
}

func abbreviate(list []string, n int) string {
	if len(list) <= n {
		return strings.Join(list, ", ")
	}
	return strings.Join(list[:n], ", ") + fmt.Sprintf(", ... (%d more)", len(list)-n)
}

// printClusterSummary prints what the run found: counts, then the worst
// mismatches.
func printClusterSummary(w io.Writer, r *cluster.Report, haveModel bool) {
	s := r.Summary
	fmt.Fprintf(w, "%d points (%d forms): %d clusters (%d unstable), %d noise, %d errors\n",
		s.Points, s.Forms, s.Clusters, s.UnstableClusters, s.Noise, s.Errors)
	if !haveModel {
		return
	}
	fmt.Fprintf(w, "model %q: %d of %d classes inconsistent, %d of %d forms off by more than %g cycles; %d forms not in the model\n",
		r.Meta.Model, s.InconsistentClasses, s.Classes, s.InconsistentForms, s.FormsChecked, r.Meta.IncEps, s.NotInModel)
	type row struct {
		rel, meas, model  float64
		form, what, class string
	}
	var rows []row
	for _, cr := range r.Inconsistencies {
		for _, f := range cr.Forms {
			for _, m := range f.Measures {
				if m.Mismatch {
					what := m.Key
					if m.Key == "inverse_throughput" {
						what = "rthroughput"
					}
					if m.Config != "" {
						what += " (" + m.Config + ")"
					}
					rows = append(rows, row{m.RelError, m.Measured, *m.Model, f.Form, what, cr.Class})
				}
			}
		}
	}
	if len(rows) == 0 {
		return
	}
	sort.SliceStable(rows, func(i, j int) bool { return rows[i].rel > rows[j].rel })
	fmt.Fprintf(w, "\n%8s %9s %9s  %-34s %-14s %s\n", "error", "measured", "model", "form", "measurement", "class")
	const max = 25
	for i, x := range rows {
		if i == max {
			fmt.Fprintf(w, "... and %d more (see --analysis-inconsistencies-output-file)\n", len(rows)-max)
			break
		}
		fmt.Fprintf(w, "%7.1f%% %9.4g %9.4g  %-34s %-14s %s\n", x.rel*100, x.meas, x.model, x.form, x.what, x.class)
	}
}
