package measure

import (
	"encoding/hex"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/twmb/murmur3"

	"portlab/results"
)

// ResultKey is the exegesis measurement key for a mode name: "latency" or
// "inverse_throughput" (also accepted as "throughput").
func ResultKey(mode string) (string, error) {
	switch mode {
	case "latency":
		return "latency", nil
	case "throughput", "inverse_throughput":
		return "inverse_throughput", nil
	}
	return "", fmt.Errorf("unknown mode %q (want latency or throughput)", mode)
}

// SnippetInstructions returns the snippet's instruction lines (comments,
// labels-only lines and directives dropped), as exegesis lists them in
// key.instructions.
func SnippetInstructions(src string) []string {
	var out []string
	for _, l := range strings.Split(stripAll(src), "\n") {
		t := strings.TrimSpace(l)
		if t == "" || isDirectiveLine(t) || strings.HasSuffix(t, ":") {
			continue
		}
		out = append(out, t)
	}
	return out
}

// ContentID is the murmur3 hash portlab keys results by: the snippet's
// source, set-up and the measurement mode.
func ContentID(mode, source string, regs []string) string {
	h := murmur3.New128()
	h.Write([]byte(mode))
	h.Write([]byte{0})
	h.Write([]byte(source))
	for _, r := range regs {
		h.Write([]byte{0})
		h.Write([]byte(r))
	}
	a, b := h.Sum128()
	return fmt.Sprintf("%016x%016x", a, b)
}

// Benchmark converts a measurement to a result document.
func (m *Measurement) Benchmark(cpuName, hostSig string) *results.Benchmark {
	s := m.Snippet
	regs := s.RegisterInitialValues()
	b := &results.Benchmark{
		Mode:           m.Mode,
		Key:            results.Key{Instructions: SnippetInstructions(s.Source), RegisterInitialValues: regs},
		CPUName:        cpuName,
		LLVMTriple:     "x86_64-unknown-linux-gnu",
		NumRepetitions: m.Reps,
		Info:           s.Info,
	}
	if b.Key.Instructions == nil {
		b.Key.Instructions = []string{}
	}
	if b.Key.RegisterInitialValues == nil {
		b.Key.RegisterInitialValues = []string{}
	}
	if b.Info == "" {
		b.Info = "user snippet " + s.Name
	}
	if m.Code != nil {
		b.AssembledSnippet = strings.ToUpper(hex.EncodeToString(m.Code))
	}
	syntax := "intel"
	if s.ATT {
		syntax = "att"
	}
	x := &results.Extra{
		ID:         ContentID(m.Mode, s.Source, regs),
		Kind:       "snippet",
		Source:     s.Source,
		Syntax:     syntax,
		Repetition: string(m.Repetition),
		Copies:     m.Copies,
		LoopReg:    m.LoopRegister,
		Host:       hostSig,
		Date:       time.Now().UTC().Format(time.RFC3339),
	}
	b.Portlab = x
	if m.Err != nil {
		b.Error = m.Err.Error()
		return b
	}
	key, err := ResultKey(m.Mode)
	if err != nil {
		key = m.Mode
	}
	b.Measurements = []results.Measurement{{Key: key, Value: round(m.PerInstr.Median), PerSnippetValue: round(m.PerSnippet.Median)}}
	x.Clock = string(m.Clock.Source)
	x.ClockNote = m.Clock.HardwareErr
	x.CyclesPerTick = round(m.Clock.CyclesPerTick)
	x.Median, x.Min, x.Max = round(m.PerInstr.Median), round(m.PerInstr.Min), round(m.PerInstr.Max)
	x.Reps, x.Clean, x.RepsPerJob = m.Reps, m.Clean, m.RepsPerJob
	x.LatCanary, x.TpCanary = round(m.Canaries.Latency), round(m.Canaries.Throughput)
	x.VecCanary, x.LdCanary = round(m.Canaries.Vector), round(m.Canaries.Load)
	x.Uncertainty = round(m.Uncertainty)
	conv := m.Converged
	x.Converged = &conv
	x.Noise = &results.Noise{Disturbed: round(m.Estimate.DisturbedShare()), Sibling: round(m.Estimate.Sibling), Clock: round(m.Estimate.ClockRange)}
	x.Warnings = m.Warnings
	for _, v := range m.PassMedians {
		x.PassMedians = append(x.PassMedians, round(v))
	}
	x.Validation, x.ValidationNote = m.Validation, m.ValidationNote
	return b
}

func round(v float64) float64 {
	return math.Round(v*1e5) / 1e5
}
