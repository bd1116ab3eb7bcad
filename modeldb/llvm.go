package modeldb

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os/exec"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"portlab/isa"
)

// LLVMOptions control ImportLLVM.
type LLVMOptions struct {
	// MCPU is the LLVM -mcpu name ("znver3"); "host" takes HostUarch
	// where this llvm-mca models it, else the nearest core to it that it
	// models (an older LLVM on a newer core), else the CPU llvm-mca names
	// for this machine.
	MCPU string
	// HostUarch is portlab's name for the host's core (hostcpu.Info's
	// Microarch), which MCPU "host" resolves; "" leaves it to llvm-mca.
	HostUarch string
	// MCA is the llvm-mca binary; "" finds llvm-mca on PATH.
	MCA string
	// Forms are the forms to import; nil means every catalog form.
	Forms []*isa.Form
	// Iterations per region: enough that every port group's share is an
	// exact fraction (default 120, divisible by 1..6 and 8).
	Iterations int
	// Batch is how many forms go into one llvm-mca run (default 1500,
	// which keeps llvm-mca under about 300 MB).
	Batch int
	// Supported, when set, keeps only the forms it accepts (for example
	// the host's CPU features when importing the host's model).
	Supported func(*isa.Form) bool
}

// LLVMReport says what an llvm-mca import did.
type LLVMReport struct {
	MCA     string // binary
	Version string // "14.0.6"
	MCPU    string // the -mcpu used
	Note    string // how MCPU was chosen, when not as asked
	Forms   int    // forms tried
	// Imported counts forms with an entry; Rejected the forms llvm-mca's
	// assembler refused; Unsupported those the CPU's scheduling model marks
	// unsupported (features the CPU lacks).
	Imported    int
	Rejected    []RejectedForm
	Unsupported []RejectedForm
	Runs        int // llvm-mca runs
	Elapsed     time.Duration
}

// RejectedForm is a form an import could not use, and why.
type RejectedForm struct {
	Form   string
	Reason string
}

// FormsPerSecond is the import speed.
func (r *LLVMReport) FormsPerSecond() float64 {
	if r.Elapsed <= 0 {
		return 0
	}
	return float64(r.Forms) / r.Elapsed.Seconds()
}

// Summary renders the report with up to n examples per list.
func (r *LLVMReport) Summary(n int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "llvm-mca %s -mcpu=%s: %d of %d forms imported in %d runs, %.1fs (%.0f forms/s)\n",
		r.Version, r.MCPU, r.Imported, r.Forms, r.Runs, r.Elapsed.Seconds(), r.FormsPerSecond())
	if r.Note != "" {
		fmt.Fprintf(&b, "note: %s\n", r.Note)
	}
	list := func(title string, fs []RejectedForm) {
		if len(fs) == 0 {
			return
		}
		fmt.Fprintf(&b, "%d %s:\n", len(fs), title)
		// Group by reason so that a thousand AVX-512 forms take one line.
		byReason := map[string][]string{}
		var reasons []string
		for _, f := range fs {
			if _, ok := byReason[f.Reason]; !ok {
				reasons = append(reasons, f.Reason)
			}
			byReason[f.Reason] = append(byReason[f.Reason], f.Form)
		}
		sort.SliceStable(reasons, func(i, j int) bool { return len(byReason[reasons[i]]) > len(byReason[reasons[j]]) })
		for i, rs := range reasons {
			if i == n {
				fmt.Fprintf(&b, "  ... and %d more reasons\n", len(reasons)-n)
				break
			}
			forms := byReason[rs]
			ex := forms
			if len(ex) > 3 {
				ex = ex[:3]
			}
			fmt.Fprintf(&b, "  %d x %s (e.g. %s)\n", len(forms), rs, strings.Join(quoteAll(ex), ", "))
		}
	}
	list("forms rejected by llvm-mca's assembler", r.Rejected)
	list("forms unsupported by the -mcpu scheduling model", r.Unsupported)
	return b.String()
}

func quoteAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = strconv.Quote(s)
	}
	return out
}

// ErrNoLLVMMCA is returned when llvm-mca is not installed.
var ErrNoLLVMMCA = errors.New("llvm-mca not found (install LLVM, e.g. apt-get install llvm)")

// ErrUnknownCPU is wrapped when llvm-mca does not know the -mcpu name.
var ErrUnknownCPU = errors.New("llvm-mca does not know this -mcpu")

// FindLLVMMCA returns the llvm-mca binary to use: name if not empty, else
// llvm-mca on PATH.
func FindLLVMMCA(name string) (string, error) {
	if name == "" {
		name = "llvm-mca"
	}
	p, err := exec.LookPath(name)
	if err != nil {
		return "", ErrNoLLVMMCA
	}
	return p, nil
}

var (
	reLLVMVersion = regexp.MustCompile(`LLVM version ([0-9][0-9.]*)`)
	reHostCPU     = regexp.MustCompile(`Host CPU: (\S+)`)
)

// llvmVersion returns llvm-mca's LLVM version and host CPU.
func llvmVersion(ctx context.Context, mca string) (version, host string, err error) {
	out, err := exec.CommandContext(ctx, mca, "--version").CombinedOutput()
	if err != nil {
		return "", "", fmt.Errorf("%s --version: %v", mca, err)
	}
	if m := reLLVMVersion.FindSubmatch(out); m != nil {
		version = string(m[1])
	}
	if m := reHostCPU.FindSubmatch(out); m != nil {
		host = string(m[1])
	}
	return version, host, nil
}

// mcaJSON is the part of llvm-mca's -json output portlab reads.
type mcaJSON struct {
	CodeRegions []struct {
		Name                string   `json:"Name"`
		Instructions        []string `json:"Instructions"`
		InstructionInfoView struct {
			InstructionList []struct {
				Instruction             int     `json:"Instruction"`
				Latency                 float64 `json:"Latency"`
				NumMicroOpcodes         float64 `json:"NumMicroOpcodes"`
				RThroughput             float64 `json:"RThroughput"`
				MayLoad                 bool    `json:"mayLoad"`
				MayStore                bool    `json:"mayStore"`
				HasUnmodeledSideEffects bool    `json:"hasUnmodeledSideEffects"`
			} `json:"InstructionList"`
		} `json:"InstructionInfoView"`
		ResourcePressureView struct {
			ResourcePressureInfo []struct {
				InstructionIndex int     `json:"InstructionIndex"`
				ResourceIndex    int     `json:"ResourceIndex"`
				ResourceUsage    float64 `json:"ResourceUsage"`
			} `json:"ResourcePressureInfo"`
		} `json:"ResourcePressureView"`
		SummaryView struct {
			DispatchWidth int `json:"DispatchWidth"`
		} `json:"SummaryView"`
	} `json:"CodeRegions"`
	TargetInfo struct {
		CPUName   string   `json:"CPUName"`
		Resources []string `json:"Resources"`
	} `json:"TargetInfo"`
}

// mcaForm is what llvm-mca said about one form.
type mcaForm struct {
	form      *isa.Form
	latency   float64
	uops      float64
	rtp       float64
	mayLoad   bool
	mayStore  bool
	unmodeled bool
	loads     map[int]float64 // resource index -> cycles per iteration
}

var (
	reMCAError   = regexp.MustCompile(`^<stdin>:(\d+):\d+: error: (.*)$`)
	reMCANote    = regexp.MustCompile(`^note: instruction:\s*(.*)$`)
	reUnknownCPU = regexp.MustCompile(`is not a recognized processor`)
)

// ImportLLVM batches catalog forms (their Example text, one per
// LLVM-MCA-BEGIN/END region) through llvm-mca -mcpu=NAME -json and builds
// a model from LLVM's scheduling model: latency, reciprocal throughput,
// uops and the cycles each resource is busy. Resource names lose the CPU
// prefix (Zn3FPP1 -> FPP1, SKLPort0 -> 0). llvm-mca reports per-unit
// averages, not the port groups of the scheduling model; portlab rebuilds
// the groups from them (units of one resource family with equal load form
// a group, split along the groups single-uop forms show), which is exact
// for the common one-group uops and an approximation for mixed ones (each
// entry's provenance says so). Forms the assembler rejects or the CPU's
// model does not support are listed in the report. llvm-mca reports one
// unsupported form per run, so a form it rejects marks its feature set
// (avx512f+avx512vl) unsupported and every form needing at least those
// features is dropped: a whole-catalog import does not import AVX-512 forms
// for znver3, while an import of a few forms that happen to be modelled
// may.
func ImportLLVM(ctx context.Context, opt LLVMOptions) (*Model, *LLVMReport, error) {
	start := time.Now()
	mca, err := FindLLVMMCA(opt.MCA)
	if err != nil {
		return nil, nil, err
	}
	version, hostCPU, err := llvmVersion(ctx, mca)
	if err != nil {
		return nil, nil, err
	}
	rep := &LLVMReport{MCA: mca, Version: version, MCPU: opt.MCPU}
	if opt.MCPU == "" || opt.MCPU == "host" || opt.MCPU == "native" {
		rep.MCPU, rep.Note, err = hostMCPU(ctx, mca, version, hostCPU, opt.HostUarch)
		if err != nil {
			return nil, nil, err
		}
	}
	if opt.Iterations <= 0 {
		opt.Iterations = 120
	}
	if opt.Batch <= 0 {
		opt.Batch = 1500
	}
	forms := opt.Forms
	if forms == nil {
		forms = isa.All()
	}
	// Check the CPU name once, on a trivial input.
	if err := checkMCPU(ctx, mca, rep.MCPU); err != nil {
		return nil, nil, err
	}
	type item struct {
		form *isa.Form
		att  string
	}
	var items []item
	for _, f := range forms {
		if opt.Supported != nil && !opt.Supported(f) {
			rep.Unsupported = append(rep.Unsupported, RejectedForm{f.Name(), "the CPU lacks " + featureKey(f)})
			continue
		}
		_, att := f.Example()
		if strings.HasPrefix(att, "#") {
			rep.Rejected = append(rep.Rejected, RejectedForm{f.Name(), "no example: " + strings.TrimPrefix(att, "# ")})
			continue
		}
		items = append(items, item{f, att})
	}
	rep.Forms = len(forms)
	var results []*mcaForm
	var resources []string
	dispatch := 0
	unsupportedFeat := map[string]bool{} // feature sets (joined) the model rejects
	for lo := 0; lo < len(items); lo += opt.Batch {
		hi := min(lo+opt.Batch, len(items))
		active := append([]item(nil), items[lo:hi]...)
		for round := 0; ; round++ {
			// Drop forms whose features include a set already found unsupported.
			kept := active[:0]
			for _, it := range active {
				if fs := featureKey(it.form); fs != "" && supersetOfAny(it.form.Features, unsupportedFeat) {
					rep.Unsupported = append(rep.Unsupported, RejectedForm{it.form.Name(), "needs " + fs})
					continue
				}
				kept = append(kept, it)
			}
			active = kept
			if len(active) == 0 {
				break
			}
			if round > 200 {
				return nil, nil, fmt.Errorf("llvm-mca keeps failing after %d rounds of removing forms", round)
			}
			var src bytes.Buffer
			lineForm := map[int]int{}
			line := 1
			for i, it := range active {
				fmt.Fprintf(&src, "# LLVM-MCA-BEGIN f%d\n%s\n# LLVM-MCA-END\n", i, it.att)
				lineForm[line+1] = i
				line += 3
			}
			stdout, stderr, runErr := runMCA(ctx, mca, rep.MCPU, opt.Iterations, src.Bytes())
			rep.Runs++
			if runErr == nil {
				var out mcaJSON
				if err := json.Unmarshal(stdout, &out); err != nil {
					return nil, nil, fmt.Errorf("llvm-mca -json output: %v", err)
				}
				if resources == nil {
					resources = out.TargetInfo.Resources
				}
				// llvm-mca skips instructions its assembler rejects and
				// still succeeds: take the reasons from stderr.
				why := map[int]string{}
				for _, l := range strings.Split(string(stderr), "\n") {
					if m := reMCAError.FindStringSubmatch(l); m != nil {
						ln, _ := strconv.Atoi(m[1])
						if i, ok := lineForm[ln]; ok {
							why[i] = m[2]
						}
					}
				}
				got := make([]bool, len(active))
				for _, r := range out.CodeRegions {
					idx, err := strconv.Atoi(strings.TrimPrefix(r.Name, "f"))
					if err != nil || idx < 0 || idx >= len(active) || len(r.Instructions) == 0 {
						continue
					}
					got[idx] = true
					if dispatch == 0 {
						dispatch = r.SummaryView.DispatchWidth
					}
					mf := &mcaForm{form: active[idx].form, loads: map[int]float64{}}
					n := len(r.Instructions)
					for k, ii := range r.InstructionInfoView.InstructionList {
						if k >= n {
							break
						}
						mf.latency = math.Max(mf.latency, ii.Latency)
						mf.uops += ii.NumMicroOpcodes
						mf.rtp += ii.RThroughput
						mf.mayLoad = mf.mayLoad || ii.MayLoad
						mf.mayStore = mf.mayStore || ii.MayStore
						mf.unmodeled = mf.unmodeled || ii.HasUnmodeledSideEffects
					}
					for _, pi := range r.ResourcePressureView.ResourcePressureInfo {
						if pi.InstructionIndex < n {
							mf.loads[pi.ResourceIndex] += pi.ResourceUsage
						}
					}
					results = append(results, mf)
				}
				for i, ok := range got {
					if !ok {
						reason := why[i]
						if reason == "" {
							reason = "llvm-mca returned no result"
						}
						rep.Rejected = append(rep.Rejected, RejectedForm{active[i].form.Name(), reason})
					}
				}
				break
			}
			if ctx.Err() != nil {
				return nil, nil, ctx.Err()
			}
			// Find the forms llvm-mca complained about and drop them.
			drop := map[int]string{}
			unsupported := ""
			lines := strings.Split(string(stderr), "\n")
			for _, l := range lines {
				if m := reMCAError.FindStringSubmatch(l); m != nil {
					ln, _ := strconv.Atoi(m[1])
					if i, ok := lineForm[ln]; ok {
						drop[i] = m[2]
					}
					continue
				}
				if strings.Contains(l, "found an unsupported instruction") {
					unsupported = strings.TrimPrefix(strings.TrimSpace(l), "error: ")
					continue
				}
				if m := reMCANote.FindStringSubmatch(l); m != nil && unsupported != "" {
					text := squeeze(m[1])
					for i, it := range active {
						if squeeze(it.att) == text {
							drop[i] = "unsupported"
							if fs := featureKey(it.form); fs != "" {
								unsupportedFeat[fs] = true
							}
							break
						}
					}
				}
			}
			if len(drop) == 0 {
				return nil, nil, fmt.Errorf("llvm-mca -mcpu=%s failed: %v\n%s", rep.MCPU, runErr, firstLines(string(stderr), 10))
			}
			kept = active[:0]
			for i, it := range active {
				if why, ok := drop[i]; ok {
					if why == "unsupported" {
						reason := "unsupported by the model"
						if fs := featureKey(it.form); fs != "" {
							reason = "needs " + fs
						}
						rep.Unsupported = append(rep.Unsupported, RejectedForm{it.form.Name(), reason})
					} else {
						rep.Rejected = append(rep.Rejected, RejectedForm{it.form.Name(), why})
					}
					continue
				}
				kept = append(kept, it)
			}
			active = kept
		}
	}
	// llvm-mca stops at the first form the CPU's model does not support;
	// portlab then drops the forms needing the same features. Apply that
	// to forms imported before the feature set was found too, so the
	// result does not depend on the order forms ran in.
	kept := results[:0]
	for _, mf := range results {
		if featureKey(mf.form) != "" && supersetOfAny(mf.form.Features, unsupportedFeat) {
			rep.Unsupported = append(rep.Unsupported, RejectedForm{mf.form.Name(), "needs " + featureKey(mf.form)})
			continue
		}
		kept = append(kept, mf)
	}
	results = kept
	m := llvmModel(results, resources, rep, dispatch)
	rep.Imported = len(m.Forms)
	rep.Elapsed = time.Since(start)
	return m, rep, nil
}

// featureKey joins a form's features ("avx512f+avx512vl").
func featureKey(f *isa.Form) string {
	fs := append([]string(nil), f.Features...)
	sort.Strings(fs)
	return strings.Join(fs, "+")
}

// supersetOfAny reports whether feats include every feature of one of the
// sets (keys joined with "+").
func supersetOfAny(feats []string, sets map[string]bool) bool {
	have := map[string]bool{}
	for _, f := range feats {
		have[f] = true
	}
	for s := range sets {
		all := true
		for _, f := range strings.Split(s, "+") {
			if !have[f] {
				all = false
				break
			}
		}
		if all {
			return true
		}
	}
	return false
}

// squeeze removes all white space (llvm-mca prints tabs where Example has
// spaces, and " {%k1}" where Example has "{%k1}").
func squeeze(s string) string {
	return strings.Map(func(r rune) rune {
		if r == ' ' || r == '\t' {
			return -1
		}
		return r
	}, s)
}

func firstLines(s string, n int) string {
	ls := strings.Split(strings.TrimSpace(s), "\n")
	if len(ls) > n {
		ls = append(ls[:n], fmt.Sprintf("... (%d more lines)", len(ls)-n))
	}
	return strings.Join(ls, "\n")
}

// hostMCPU resolves -mcpu "host": portlab's name for the core (uarch)
// where this llvm-mca models it, else the nearest core it models
// (nearestCPUs: LLVM 14 on a Zen 5 takes znver3), else the name llvm-mca
// gives the host, which an LLVM older than the core spells "(unknown)".
func hostMCPU(ctx context.Context, mca, version, llvmHost, uarch string) (mcpu, note string, err error) {
	if uarch != "" && uarch != "generic" {
		if checkMCPU(ctx, mca, uarch) == nil {
			return uarch, fmt.Sprintf("-mcpu=%s is this host's core", uarch), nil
		}
		for _, c := range nearestCPUs[uarch] {
			if checkMCPU(ctx, mca, c) == nil {
				return c, fmt.Sprintf("-mcpu=%s: llvm-mca %s does not model %s, this host's core; %s is the nearest core it models", c, version, uarch, c), nil
			}
		}
	}
	if namesHost(llvmHost) && checkMCPU(ctx, mca, llvmHost) == nil {
		return llvmHost, fmt.Sprintf("-mcpu=%s is llvm-mca's choice for this host", llvmHost), nil
	}
	core := uarch
	if core == "" {
		core = "this host's core"
	}
	return "", "", fmt.Errorf("llvm-mca %s models neither %s nor a core near it (it names the host %q): %w; pass -mcpu (llvm-mca -mcpu=help lists the names)", version, core, llvmHost, ErrUnknownCPU)
}

// namesHost reports whether llvm-mca's "Host CPU" names a core: an LLVM
// older than the core says "(unknown)" or "generic".
func namesHost(llvmHost string) bool {
	return llvmHost != "" && llvmHost != "(unknown)" && llvmHost != "generic"
}

func checkMCPU(ctx context.Context, mca, mcpu string) error {
	_, stderr, err := runMCA(ctx, mca, mcpu, 1, []byte("addq %rcx, %rbx\n"))
	if reUnknownCPU.Match(stderr) {
		return fmt.Errorf("-mcpu=%s: %w (llvm-mca -mcpu=help lists the names)", mcpu, ErrUnknownCPU)
	}
	if err != nil {
		return fmt.Errorf("llvm-mca -mcpu=%s: %v\n%s", mcpu, err, firstLines(string(stderr), 5))
	}
	return nil
}

func runMCA(ctx context.Context, mca, mcpu string, iterations int, src []byte) (stdout, stderr []byte, err error) {
	cmd := exec.CommandContext(ctx, mca, "-mtriple=x86_64-unknown-linux-gnu", "-mcpu="+mcpu,
		"-iterations="+strconv.Itoa(iterations), "-json", "-instruction-info", "-resource-pressure", "-")
	cmd.Stdin = bytes.NewReader(src)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err = cmd.Run()
	if err == nil && reUnknownCPU.Match(errb.Bytes()) {
		err = fmt.Errorf("-mcpu=%s: %w", mcpu, ErrUnknownCPU)
	}
	return out.Bytes(), errb.Bytes(), err
}

// llvmPortNames maps llvm-mca resource names to port names: the CPU
// prefix shared by all resources goes ("Zn3FPP1" -> "FPP1"), Intel's
// "Port" too ("SKLPort0" -> "0"), and the units of a multi-unit resource
// ("Zn3LSU.\x00") are numbered ("LSU.0").
func llvmPortNames(res []string) []string {
	base := make([]string, len(res))
	unit := make([]int, len(res))
	for i, r := range res {
		unit[i] = -1
		if j := strings.IndexByte(r, '.'); j >= 0 && j+1 < len(r) {
			base[i] = r[:j]
			unit[i] = int(r[j+1])
		} else {
			base[i] = r
		}
	}
	prefix := ""
	if len(base) > 1 {
		prefix = base[0]
		for _, b := range base[1:] {
			for !strings.HasPrefix(b, prefix) {
				prefix = prefix[:len(prefix)-1]
			}
		}
		// Back off to a boundary where every name continues with an upper-case letter.
		for len(prefix) > 0 {
			ok := true
			for _, b := range base {
				if len(b) <= len(prefix) || b[len(prefix)] < 'A' || b[len(prefix)] > 'Z' {
					ok = false
					break
				}
			}
			if ok {
				break
			}
			prefix = prefix[:len(prefix)-1]
		}
	}
	out := make([]string, len(res))
	seen := map[string]bool{}
	for i := range res {
		n := strings.TrimPrefix(base[i], prefix)
		if strings.HasPrefix(n, "Port") && len(n) > 4 && isDigits(n[4:]) {
			n = n[4:]
		}
		if unit[i] >= 0 {
			n += "." + strconv.Itoa(unit[i])
		}
		if n == "" || seen[n] {
			n = strings.ToValidUTF8(res[i], "?")
		}
		seen[n] = true
		out[i] = n
	}
	return out
}

func isDigits(s string) bool {
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return s != ""
}

// portFamily is a port name without its unit number: the ports that may
// form a group ("ALU0".."ALU3" -> "ALU", "LSU.0" -> "LSU", Intel's "0".."9" -> "").
func portFamily(p string) string {
	if i := strings.IndexByte(p, '.'); i >= 0 {
		p = p[:i]
	}
	return strings.TrimRight(p, "0123456789")
}

// snap rounds a per-iteration load to a clean fraction when it is close to
// one (llvm-mca's averages over a count of iterations), else to 1e-4.
func snap(v float64) float64 {
	for _, d := range []float64{1, 2, 3, 4, 5, 6, 8, 12} {
		if r := math.Round(v*d) / d; math.Abs(r-v) < 0.006 {
			return r
		}
	}
	return math.Round(v*1e4) / 1e4
}

// decomposer turns per-unit loads into port groups.
type decomposer struct {
	ports  []string
	family []string
	known  map[string][]uint64 // per family: groups single-uop forms show
}

func newDecomposer(ports []string) *decomposer {
	d := &decomposer{ports: ports, family: make([]string, len(ports)), known: map[string][]uint64{}}
	for i, p := range ports {
		d.family[i] = portFamily(p)
	}
	return d
}

// levels splits a form's loads by family and equal load: each level set
// is a candidate group.
func (d *decomposer) levels(loads []float64) (fams []string, sets []uint64, vals []float64) {
	type key struct {
		fam string
		v   float64
	}
	idx := map[key]int{}
	for i, v := range loads {
		if v <= 0 || i >= 64 {
			continue
		}
		k := key{d.family[i], v}
		found := -1
		for kk, j := range idx {
			if kk.fam == k.fam && math.Abs(kk.v-v) < 0.011 {
				found = j
				break
			}
		}
		if found < 0 {
			found = len(sets)
			idx[k] = found
			fams = append(fams, k.fam)
			sets = append(sets, 0)
			vals = append(vals, 0)
		}
		sets[found] |= 1 << i
		vals[found] += v
	}
	return
}

// learn records the groups a form shows: units of a family sharing a
// load that adds up to one cycle. That is one single-cycle use spread
// over the units (LLVM's resource cycles are whole numbers), so the set is
// a group of the scheduling model, or the part of one other uses left
// free; two uses that happen to load their units alike add up to two.
func (d *decomposer) learn(loads []float64) {
	fams, sets, vals := d.levels(loads)
	for i, f := range fams {
		if popcount(sets[i]) > 1 && math.Abs(vals[i]-1) < 0.01 && !containsMask(d.known[f], sets[i]) {
			d.known[f] = append(d.known[f], sets[i])
		}
	}
}

func containsMask(ms []uint64, m uint64) bool {
	for _, x := range ms {
		if x == m {
			return true
		}
	}
	return false
}

// decompose returns port pressure for per-unit loads.
func (d *decomposer) decompose(loads []float64) PortPressure {
	fams, sets, _ := d.levels(loads)
	var pp PortPressure
	emit := func(mask uint64) {
		c := 0.0
		var ports []string
		for i := range d.ports {
			if i < 64 && mask&(1<<i) != 0 {
				c += loads[i]
				ports = append(ports, d.ports[i])
			}
		}
		pp = append(pp, PortUse{Cycles: snap(c), Ports: ports})
	}
	for i, set := range sets {
		if popcount(set) == 1 || containsMask(d.known[fams[i]], set) {
			emit(set)
			continue
		}
		// Split along known groups inside the level set, largest first.
		var inside []uint64
		for _, g := range d.known[fams[i]] {
			if g&^set == 0 && g != set {
				inside = append(inside, g)
			}
		}
		sort.Slice(inside, func(a, b int) bool { return popcount(inside[a]) > popcount(inside[b]) })
		rest := set
		for _, g := range inside {
			if g&rest == g {
				emit(g)
				rest &^= g
			}
		}
		if rest != 0 {
			emit(rest)
		}
	}
	sort.SliceStable(pp, func(a, b int) bool { return portIndex(d.ports, pp[a].Ports[0]) < portIndex(d.ports, pp[b].Ports[0]) })
	return pp
}

func portIndex(ports []string, p string) int {
	for i, q := range ports {
		if q == p {
			return i
		}
	}
	return len(ports)
}

func popcount(m uint64) int {
	n := 0
	for ; m != 0; m &= m - 1 {
		n++
	}
	return n
}

// llvmModel assembles the imported model.
func llvmModel(rs []*mcaForm, resources []string, rep *LLVMReport, dispatch int) *Model {
	ports := llvmPortNames(resources)
	from := fmt.Sprintf("llvm-mca %s -mcpu=%s", rep.Version, rep.MCPU)
	m := &Model{
		Name:              fmt.Sprintf("LLVM %s %s (imported from llvm-mca)", rep.Version, rep.MCPU),
		MicroArchitecture: rep.MCPU,
		ISA:               "x86",
		LLVMCPU:           rep.MCPU,
		DispatchWidth:     dispatch,
		Ports:             ports,
		Provenance: &Provenance{Source: SourceImported, From: from, Date: time.Now().UTC().Format("2006-01-02"),
			Note: "port groups rebuilt from llvm-mca's per-unit resource pressure"},
	}
	d := newDecomposer(ports)
	loadVec := func(mf *mcaForm) []float64 {
		v := make([]float64, len(ports))
		for i, c := range mf.loads {
			if i < len(v) {
				v[i] = snap(c)
			}
		}
		return v
	}
	for _, mf := range rs {
		d.learn(loadVec(mf))
	}
	for _, mf := range rs {
		e := &Entry{
			Form:         mf.form.Name(),
			Uops:         mf.uops,
			Latency:      mf.latency,
			Throughput:   snap(mf.rtp),
			PortPressure: d.decompose(loadVec(mf)),
		}
		flags := catalogFlags(mf.form)
		if mf.mayLoad && !hasString(flags, FlagMayLoad) {
			flags = append(flags, FlagMayLoad)
		}
		if mf.mayStore && !hasString(flags, FlagMayStore) {
			flags = append(flags, FlagMayStore)
		}
		sort.Strings(flags)
		e.Flags = flags
		if e.PortPressure == nil {
			e.PortPressure = PortPressure{}
		}
		m.Put(e)
	}
	// Header values from plain loads and stores.
	if e, ok := m.Lookup("mov r64, m64"); ok {
		m.LoadPorts = clonePressure(e.PortPressure)
		m.LoadLatency = map[string]float64{"gpr": e.Latency}
	}
	if e, ok := m.Lookup("mov m64, r64"); ok {
		m.StorePorts = clonePressure(e.PortPressure)
	}
	for class, form := range map[string]string{"xmm": "movdqa xmm, m128", "ymm": "vmovdqa ymm, m256", "zmm": "vmovdqa64 zmm, m512", "mm": "movq mm, m64"} {
		if e, ok := m.Lookup(form); ok && m.LoadLatency != nil {
			m.LoadLatency[class] = e.Latency
		}
	}
	m.SortForms()
	m.Reindex()
	return m
}

func hasString(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}
