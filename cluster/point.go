package cluster

import (
	"fmt"
	"math"
	"path/filepath"
	"strings"

	"portlab/modeldb"
	"portlab/results"
)

// Point is one benchmark result as the clustering sees it.
type Point struct {
	// File and Doc locate the result: the file it was read from and the
	// document's number in it (from 1).
	File string
	Doc  int
	// Bench is the result itself.
	Bench *results.Benchmark

	// Opcode is the point's identity, what exegesis calls the opcode: the
	// portlab form, or the LLVM opcode of an exegesis key instruction
	// ("ADD64rr"), or the first instruction of a user snippet.
	Opcode string
	// Form is the canonical portlab form name, "" until Resolve finds one
	// (portlab's own results carry it).
	Form string
	// Config tells apart points of one opcode that are meant to differ: the
	// exegesis config, and for portlab latency results the operand pair.
	Config string
	// Mode is the exegesis mode: latency, inverse_throughput or uops.
	Mode string
	// Keys and Values are the measurement keys and per-instruction values.
	Keys   []string
	Values []float64
	// Err is why the point has no usable measurement; such points form the
	// error cluster.
	Err string
	// Memory is set when the measured instruction has a memory operand.
	Memory bool
	// Aux marks a point that measures no single form: a port-conflict mix
	// of several forms, a helper chain portlab measured to subtract from
	// other latencies, a store-commit stream, lea in one address shape, a
	// latency beside 512-bit work. It is clustered but compared with no
	// model entry.
	Aux bool
}

// Label is a short human name for the point: its form, or its opcode.
func (p *Point) Label() string {
	if p.Form != "" {
		return p.Form
	}
	return p.Opcode
}

// Where names the point's origin, "file.yaml#3".
func (p *Point) Where() string {
	if p.File != "" {
		return fmt.Sprintf("%s#%d", filepath.Base(p.File), p.Doc)
	}
	return fmt.Sprintf("#%d", p.Doc)
}

// FromBenchmarks turns the documents of one result file into points. file
// names the file in reports and errors.
func FromBenchmarks(file string, bs []*results.Benchmark) []*Point {
	out := make([]*Point, 0, len(bs))
	for i, b := range bs {
		out = append(out, newPoint(file, i+1, b))
	}
	return out
}

// Load reads result files (as results.ReadFile does, "-" being standard
// input) and returns their points in order.
func Load(files ...string) ([]*Point, error) {
	var out []*Point
	for _, f := range files {
		bs, err := results.ReadFile(f)
		if err != nil {
			return nil, err
		}
		name := f
		if f == "-" {
			name = "<stdin>"
		}
		out = append(out, FromBenchmarks(name, bs)...)
	}
	return out, nil
}

func newPoint(file string, doc int, b *results.Benchmark) *Point {
	p := &Point{File: file, Doc: doc, Bench: b, Mode: b.Mode, Config: b.Key.Config}
	x := b.Portlab
	switch {
	case x != nil && x.Kind == "ports" && len(x.Mix) > 0:
		var parts []string
		for _, m := range x.Mix {
			parts = append(parts, fmt.Sprintf("%d×%s", m.Count, m.Form))
		}
		p.Opcode = "mix: " + strings.Join(parts, " + ")
		p.Aux = true
	case x != nil && x.Kind == "helper":
		p.Opcode = "helper: " + strings.Join(b.Key.Instructions, "; ")
		if x.Operands != "" {
			p.Opcode = "helper: " + x.Operands
		}
		p.Aux = true
	case x != nil && x.Kind == modeldb.StoreCommitKind:
		// The store-commit streams time the cache's store commit with
		// mov m64, r64 (same line, lines apart): not the form's own
		// throughput, which a model entry holds.
		p.Opcode = "store commit: " + x.Operands
		p.Aux = true
	case x != nil && x.Kind == modeldb.MaskWritesKind:
		// The mask-write streams hang off korw k, k, k but time compares
		// into masks too: not korw's own throughput.
		p.Opcode = "mask writes: " + x.Operands
		p.Aux = true
	case x != nil && x.Kind == modeldb.LateForwardKind:
		// A late-forwarding chain: vpaddd beside vpmaddwd, not the
		// form's own latency.
		p.Opcode = x.Form + " (late forwarding, " + x.Operands + ")"
		p.Aux = true
	case x != nil && x.Kind == modeldb.Latency512Kind:
		// A latency beside 512-bit work: the entry's own latency is
		// another number.
		p.Opcode = x.Form + " (beside 512-bit work)"
		p.Aux = true
	case x != nil && x.Form != "" && x.Addressing != "":
		// lea in one address shape: the model's entry holds the form's
		// own shape; a slower shape is not an inconsistency.
		p.Opcode = x.Form + " [" + x.Addressing + "]"
		p.Aux = true
	case x != nil && x.Form != "" && x.Kind == "latency" && strings.HasSuffix(x.Operands, "->mem"):
		// A store-and-reload round trip: clustered, but no model has a
		// latency it could be compared with.
		p.Opcode = x.Form
		p.Aux = true
	case x != nil && x.Form != "":
		p.Opcode = x.Form
		p.Form = x.Form
	case len(b.Key.Instructions) > 0:
		ins := strings.TrimSpace(b.Key.Instructions[0])
		if isMCInst(ins) {
			p.Opcode = strings.Fields(ins)[0]
		} else {
			p.Opcode = ins
		}
	default:
		p.Opcode = "(no instruction)"
	}
	if x != nil && x.Operands != "" {
		if p.Config != "" {
			p.Config += " "
		}
		p.Config += "operands " + x.Operands
	}
	for _, m := range b.Measurements {
		p.Keys = append(p.Keys, m.Key)
		p.Values = append(p.Values, m.Value)
	}
	switch {
	case b.Error != "":
		p.Err = b.Error
	case x != nil && x.Unmeasurable != "":
		p.Err = "unmeasurable: " + x.Unmeasurable
	case len(b.Measurements) == 0:
		p.Err = "no measurement"
	default:
		for i, v := range p.Values {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				p.Err = fmt.Sprintf("measurement %s is %v", p.Keys[i], v)
			}
		}
	}
	return p
}

// signature is what makes points comparable: the same mode and the same
// measurement keys in the same order.
func (p *Point) signature() string {
	return p.Mode + "\x00" + strings.Join(p.Keys, "\x00")
}

// Snippet returns the point's code for people to read: portlab's source when
// it kept it, else the key instructions and the assembled bytes, decoded
// where the decoder can.
func (p *Point) Snippet() string {
	b := p.Bench
	if b == nil {
		return ""
	}
	var sb strings.Builder
	if b.Portlab != nil && strings.TrimSpace(b.Portlab.Source) != "" {
		sb.WriteString(strings.TrimRight(b.Portlab.Source, "\n"))
	} else if len(b.Key.Instructions) > 0 {
		sb.WriteString(strings.Join(b.Key.Instructions, "\n"))
	}
	if len(b.Key.RegisterInitialValues) > 0 {
		sb.WriteString("\n# initial values: " + strings.Join(b.Key.RegisterInitialValues, " "))
	}
	if b.AssembledSnippet != "" && (b.Portlab == nil || b.Portlab.Source == "") {
		sb.WriteString("\n# assembled:\n")
		sb.WriteString(disassemble(b.AssembledSnippet))
	}
	if b.Info != "" {
		sb.WriteString("\n# " + b.Info)
	}
	return strings.TrimLeft(sb.String(), "\n")
}
