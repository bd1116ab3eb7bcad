// Package results owns the benchmark result format: llvm-exegesis YAML
// documents (mode, key.instructions, cpu_name, llvm_triple, measurements,
// error, info, assembled_snippet), with portlab's own fields under the
// `portlab` key, which exegesis does not read. Files written by
// llvm-exegesis read back unchanged; files portlab writes keep exegesis's
// layout so exegesis users' scripts work on them.
package results

import (
	"bufio"
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strings"

	"gopkg.in/yaml.v3"

	"portlab/internal/fsutil"
)

// Benchmark is one result document.
type Benchmark struct {
	Mode             string        `yaml:"mode"`
	Key              Key           `yaml:"key"`
	CPUName          string        `yaml:"cpu_name"`
	LLVMTriple       string        `yaml:"llvm_triple"`
	NumRepetitions   int           `yaml:"num_repetitions"`
	Measurements     []Measurement `yaml:"measurements"`
	Error            string        `yaml:"error"`
	Info             string        `yaml:"info"`
	AssembledSnippet string        `yaml:"assembled_snippet"`
	Portlab          *Extra        `yaml:"portlab,omitempty"`
}

// Key identifies what was measured.
type Key struct {
	Instructions          []string `yaml:"instructions"`
	Config                string   `yaml:"config"`
	RegisterInitialValues []string `yaml:"register_initial_values"`
}

// Measurement is one measured quantity, per instruction (Value) and per
// snippet copy (PerSnippetValue), in cycles.
type Measurement struct {
	Key             string  `yaml:"key"`
	Value           float64 `yaml:"value"`
	PerSnippetValue float64 `yaml:"per_snippet_value"`
}

// Extra holds what portlab records beyond exegesis's fields.
type Extra struct {
	ID       string `yaml:"id,omitempty"`       // murmur3 content hash of what was measured
	Form     string `yaml:"form,omitempty"`     // instruction form, for generated snippets
	Operands string `yaml:"operands,omitempty"` // operand pair of a latency ("2->0")
	// Addressing is the address shape a lea benchmark measured
	// ("base+index+disp", see isa.AddressShapes); "" for a form's own.
	Addressing    string  `yaml:"addressing,omitempty"`
	Kind          string  `yaml:"kind,omitempty"`   // latency, throughput, ports, snippet
	Source        string  `yaml:"source,omitempty"` // the snippet's assembly
	Syntax        string  `yaml:"syntax,omitempty"` // intel or att
	Repetition    string  `yaml:"repetition_mode"`
	Copies        int     `yaml:"copies"` // snippet copies in the short body
	LoopReg       string  `yaml:"loop_register,omitempty"`
	Clock         string  `yaml:"clock"` // hw-cycles or calibrated-tsc
	ClockNote     string  `yaml:"clock_note,omitempty"`
	CyclesPerTick float64 `yaml:"cycles_per_tick,omitempty"`
	// Median is the estimate, cycles per instruction (the value of the
	// measurement; see perf.Estimate for how the repetitions' floors give
	// it); Min and Max the range of the per-repetition values.
	Median float64 `yaml:"median"`
	Min    float64 `yaml:"min"`
	Max    float64 `yaml:"max"`
	// Uncertainty is how far the estimate may be off, cycles per
	// instruction, and Converged whether that is within the tolerance the
	// measurement asked for (nil in files written before either existed).
	Uncertainty float64 `yaml:"uncertainty,omitempty"`
	Converged   *bool   `yaml:"converged,omitempty"`
	// Noise is what the host did while the benchmark ran.
	Noise *Noise `yaml:"noise,omitempty,flow"`
	Reps  int    `yaml:"repetitions"`
	Clean int    `yaml:"clean_repetitions"` // repetitions no point of which was disturbed
	// RepsPerJob is one worker job's repetitions: Reps above it means the
	// engine ran more jobs until the estimate converged.
	RepsPerJob int     `yaml:"repetitions_per_job,omitempty"`
	LatCanary  float64 `yaml:"latency_canary,omitempty"`
	TpCanary   float64 `yaml:"throughput_canary,omitempty"`
	// VecCanary and LdCanary are the vector and load canaries, where
	// they judged the benchmark (it names vector registers, it touches
	// memory).
	VecCanary float64  `yaml:"vector_canary,omitempty"`
	LdCanary  float64  `yaml:"load_canary,omitempty"`
	Warnings  []string `yaml:"warnings,omitempty"`
	// PassMedians are the per-instruction medians of every pass of a
	// snippet measured in several passes (Median is the pass the options
	// keep: the median, the fastest converged or the lower quartile).
	PassMedians []float64 `yaml:"pass_medians,omitempty,flow"`
	// Validation are the validation counters (cache and TLB misses per
	// repetition) when asked for; ValidationNote says why they are missing.
	Validation     map[string]float64 `yaml:"validation_counters,omitempty"`
	ValidationNote string             `yaml:"validation_note,omitempty"`
	Host           string             `yaml:"host,omitempty"` // CPU signature (vendor-family-model-stepping)
	Date           string             `yaml:"date,omitempty"`
	// HostInfo describes the machine (CPU type, node, microcode, kernel,
	// clocksource); sweeps write it so fleet results can be grouped.
	HostInfo *HostInfo `yaml:"host_info,omitempty"`
	// Props are properties the generator found (dependency-breaking, zero-idiom, ones-idiom, move-eliminated).
	Props []string `yaml:"properties,omitempty"`
	// Helper names an instruction used to close a latency chain and Subtracted
	// its latency, already taken off Value.
	Helper     string  `yaml:"helper,omitempty"`
	Subtracted float64 `yaml:"subtracted,omitempty"`
	// Mix lists the forms of a port-conflict benchmark (Kind "ports") and
	// how many instances of each one snippet copy holds; PerSnippetValue is
	// then the cycles one copy of the whole mix takes.
	Mix []MixPart `yaml:"mix,omitempty"`
	// Unmeasurable is why a form could not be measured (Error is empty then
	// and Measurements too): "needs a privileged instruction", ...
	Unmeasurable string `yaml:"unmeasurable,omitempty"`
	// Keep is KeepFastest where, of several results of the benchmark that
	// stand equal (all converged, or all noisy), the fastest is the one to
	// keep (Cleanest) rather than the surest: the code settles into slow
	// levels that no canary sees (integer memory forms), or the benchmark
	// is measured in rounds minutes apart to escape the neighbour's busy
	// stretches (characterize's validation draw); noise only adds time.
	Keep string `yaml:"keep,omitempty"`
	// Round is the later round that measured the result (2, 3, ... of a
	// sweep's memory rounds, or characterize's second round of its
	// validation draw); 0 for the benchmark's first measurement and its
	// second chances.
	Round int `yaml:"round,omitempty"`
}

// KeepFastest is Extra.Keep for benchmarks whose fastest result of equal
// standing is kept (see CompareClean).
const KeepFastest = "fastest"

// Noise is what the host did during a benchmark: the share of disturbed
// repetitions (a point more than perf.DisturbedSlack above its floor, or a
// context switch), the typical slowdown of the throughput canary against
// its floor (a busy SMT sibling), and how far the core clock moved.
type Noise struct {
	Disturbed float64 `yaml:"disturbed"`
	Sibling   float64 `yaml:"sibling"`
	Clock     float64 `yaml:"clock"`
}

// MixPart is one form's share of a port-conflict mix.
type MixPart struct {
	Form  string `yaml:"form"`
	Count int    `yaml:"count"`
}

// Value returns the measurement with the given key.
func (b *Benchmark) Value(key string) (Measurement, bool) {
	for _, m := range b.Measurements {
		if m.Key == key {
			return m, true
		}
	}
	return Measurement{}, false
}

// Marshal renders benchmarks as a YAML stream in exegesis's layout: each
// document opens with "---" and closes with "...".
func Marshal(bs []*Benchmark) ([]byte, error) {
	var buf bytes.Buffer
	for _, b := range bs {
		if err := writeOne(&buf, b); err != nil {
			return nil, err
		}
	}
	return buf.Bytes(), nil
}

// docEnd ends every document writeOne writes: YAML's document end
// marker on a line of its own.
var docEnd = []byte("\n...\n")

// CompleteLength returns how many of the first size bytes of r hold
// whole documents: the offset just past the last document's end marker
// (0 when there is none), found reading backwards a block at a time, so
// that a file torn by an interrupted write is cut without being read
// whole.
func CompleteLength(r io.ReaderAt, size int64) (int64, error) {
	const block = 1 << 16
	buf := make([]byte, block+len(docEnd)-1)
	for end := size; end > 0; {
		start := max(0, end-block)
		// The block and the bytes of the one after it that a marker
		// crossing the boundary needs.
		n := int(min(size, end+int64(len(docEnd)-1)) - start)
		if _, err := r.ReadAt(buf[:n], start); err != nil && err != io.EOF {
			return 0, err
		}
		if i := bytes.LastIndex(buf[:n], docEnd); i >= 0 {
			return start + int64(i+len(docEnd)), nil
		}
		end = start
	}
	return 0, nil
}

func writeOne(w io.Writer, b *Benchmark) error {
	var doc bytes.Buffer
	enc := yaml.NewEncoder(&doc)
	enc.SetIndent(2)
	if err := enc.Encode(b); err != nil {
		return err
	}
	enc.Close()
	// The encoder ends the document with a newline, docEnd's first byte.
	_, err := fmt.Fprintf(w, "---\n%s%s", doc.String(), docEnd[1:])
	return err
}

// Write writes benchmarks to w.
func Write(w io.Writer, bs []*Benchmark) error {
	data, err := Marshal(bs)
	if err != nil {
		return err
	}
	_, err = w.Write(data)
	return err
}

// WriteFile writes benchmarks to path atomically.
func WriteFile(path string, bs []*Benchmark) error {
	data, err := Marshal(bs)
	if err != nil {
		return err
	}
	return fsutil.WriteFileAtomic(path, data, 0o644)
}

// Parse reads a YAML stream of benchmark documents. name is used in errors.
func Parse(name string, data []byte) ([]*Benchmark, error) {
	return ParseReader(name, bytes.NewReader(data))
}

// ParseReader reads a YAML stream of benchmark documents from r, one
// document at a time: a file of results is never held whole in memory
// beside what it decodes to (a 30-minute characterize run's 833 MB file,
// 192,753 results, took 3.3 GB of process memory to read whole and 2.0
// GB streamed). name is used in errors.
func ParseReader(name string, r io.Reader) ([]*Benchmark, error) {
	dec := yaml.NewDecoder(bufio.NewReaderSize(r, 1<<20))
	var out []*Benchmark
	for i := 1; ; i++ {
		var node yaml.Node
		err := dec.Decode(&node)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%s: document %d: %v", name, i, cleanYAMLErr(err))
		}
		if node.Kind == 0 || (len(node.Content) == 1 && node.Content[0].Kind == yaml.ScalarNode && node.Content[0].Value == "") {
			continue
		}
		var b Benchmark
		if err := node.Decode(&b); err != nil {
			return nil, fmt.Errorf("%s:%d: document %d: %v", name, node.Line, i, cleanYAMLErr(err))
		}
		if b.Mode == "" {
			return nil, fmt.Errorf("%s:%d: document %d has no mode: not a benchmark result", name, node.Line, i)
		}
		out = append(out, &b)
	}
	return out, nil
}

func cleanYAMLErr(err error) string { return strings.TrimPrefix(err.Error(), "yaml: ") }

// ReadFile reads a benchmark file ("-" is standard input).
func ReadFile(path string) ([]*Benchmark, error) {
	if path == "-" {
		return ParseReader(path, os.Stdin)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ParseReader(path, f)
}

// Noisy reports whether a result is less sure than its measurement asked:
// its estimate did not converge (Converged false) within the engine's
// budget of jobs. For results written without Converged, the older rule:
// fewer clean repetitions than half of one job's (RepsPerJob; half of all
// repetitions without it). Results that do not count their repetitions
// (llvm-exegesis's) are not noisy.
func (b *Benchmark) Noisy() bool {
	x := b.Portlab
	if x == nil || x.Reps <= 0 {
		return false
	}
	if x.Converged != nil {
		return !*x.Converged
	}
	perJob := x.Reps
	if x.RepsPerJob > 0 && x.RepsPerJob < perJob {
		perJob = x.RepsPerJob
	}
	return x.Clean*2 < perJob
}

// Slim drops what a result holds for the readers of its file alone: the
// snippet's instructions, source and machine code, the host's details,
// notes and warnings. What identifies it (ID, host, form, kind, operands,
// mix), its numbers and its noise stay: enough for Cleanest, Noisy and a
// sweep that goes on from it. A run that holds its results for hours
// (portlab characterize: 186,127 of them, 924 MB decoded) keeps a quarter
// of that.
func (b *Benchmark) Slim() {
	b.Key.Instructions, b.Key.RegisterInitialValues = nil, nil
	b.AssembledSnippet, b.Info = "", ""
	if x := b.Portlab; x != nil {
		x.Source, x.ClockNote, x.ValidationNote = "", "", ""
		x.HostInfo, x.Warnings = nil, nil
	}
}

// Cleanest keeps one result per measured thing and host: of the results
// with the same portlab content ID and host, the surest (CompareClean;
// the later of equals, a re-measurement). A sweep re-measures
// noisy results and appends them, so a results file may hold several.
// Results without an ID are all kept; the order is that of first
// appearance.
func Cleanest(bs []*Benchmark) []*Benchmark {
	best := map[string]int{} // host|id -> index into out
	var out []*Benchmark
	for _, b := range bs {
		x := b.Portlab
		if x == nil || x.ID == "" {
			out = append(out, b)
			continue
		}
		k := x.Host + "|" + x.ID
		i, ok := best[k]
		if !ok {
			best[k] = len(out)
			out = append(out, b)
			continue
		}
		if CompareClean(b, out[i]) >= 0 {
			out[i] = b
		}
	}
	return out
}

// CompareClean orders two results of one benchmark by how sure they are
// (a failed result below any measured one, a noisy one below any other):
// negative when a is less sure than b, zero when as sure, positive when
// surer. Among results of equal standing the smaller relative uncertainty
// wins (results without one: the more clean repetitions); of two results
// of equal standing that both keep the fastest (Extra.Keep), the smaller
// median.
func CompareClean(a, b *Benchmark) int {
	la, ua := sureness(a)
	lb, ub := sureness(b)
	if c := cmp.Compare(la, lb); c != 0 {
		return c
	}
	if la >= 0 && a.Portlab.Keep == KeepFastest && b.Portlab.Keep == KeepFastest {
		return cmp.Compare(b.Portlab.Median, a.Portlab.Median)
	}
	return cmp.Compare(ub, ua)
}

// sureness ranks a result for CompareClean: a level (-1 failed, 0 noisy,
// 1 sure) and, within a level, a badness (lower is surer).
func sureness(b *Benchmark) (int, float64) {
	if b.Error != "" || len(b.Measurements) == 0 || b.Portlab == nil {
		return -1, 0
	}
	level := 1
	if b.Noisy() {
		level = 0
	}
	x := b.Portlab
	if x.Converged == nil {
		return level, -float64(x.Clean)
	}
	if x.Median == 0 {
		return level, x.Uncertainty
	}
	return level, x.Uncertainty / math.Abs(x.Median)
}
