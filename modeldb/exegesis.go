package modeldb

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"portlab/isa"
	"portlab/results"
)

// ErrNoLLVMMC is returned when llvm-mc is not installed.
var ErrNoLLVMMC = errors.New("llvm-mc not found (install LLVM, e.g. apt-get install llvm)")

var (
	reMCLabel = regexp.MustCompile(`^f(\d+):`)
	reMCInst  = regexp.MustCompile(`<MCInst #\d+ ([A-Za-z0-9_]+)`)
)

// LLVMOpcodeForms maps LLVM opcode names ("VADDPDYrr") to catalog forms by
// assembling every catalog form's example with llvm-mc -show-inst (one
// run, a few hundredths of a second). mc is the llvm-mc binary ("": on
// PATH). An opcode several forms share maps to the first by name.
func LLVMOpcodeForms(ctx context.Context, mc string) (map[string]string, error) {
	if mc == "" {
		mc = "llvm-mc"
	}
	path, err := exec.LookPath(mc)
	if err != nil {
		return nil, ErrNoLLVMMC
	}
	forms := isa.All()
	var src bytes.Buffer
	for i, f := range forms {
		_, att := f.Example()
		if strings.HasPrefix(att, "#") {
			continue
		}
		fmt.Fprintf(&src, "f%d:\n\t%s\n", i, att)
	}
	cmd := exec.CommandContext(ctx, path, "-show-inst", "-triple=x86_64-unknown-linux-gnu")
	cmd.Stdin = &src
	var out bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = &bytes.Buffer{} // rejected examples are just not mapped
	if err := cmd.Run(); err != nil && out.Len() == 0 {
		return nil, fmt.Errorf("llvm-mc -show-inst: %v", err)
	}
	m := map[string]string{}
	cur := -1
	sc := bufio.NewScanner(&out)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if lm := reMCLabel.FindStringSubmatch(line); lm != nil {
			cur, _ = strconv.Atoi(lm[1])
			continue
		}
		if im := reMCInst.FindStringSubmatch(line); im != nil && cur >= 0 && cur < len(forms) {
			if _, ok := m[im[1]]; !ok {
				m[im[1]] = forms[cur].Name()
			}
			cur = -1 // only the first instruction after a label
		}
	}
	return m, nil
}

// ExegesisOptions control ImportExegesis.
type ExegesisOptions struct {
	// OpcodeForms maps LLVM opcodes to forms for llvm-exegesis's own files
	// (LLVMOpcodeForms); nil reads only results that name their form.
	OpcodeForms map[string]string
	Name        string
	Sources     []string
	Now         func() time.Time
}

// ImportExegesis makes a model from benchmark results without inferring
// ports: each form's latency per operand pair and reciprocal throughput,
// and, from llvm-exegesis's uops mode, the uops it counted per port. It
// reads llvm-exegesis's files (opcodes mapped through opt.OpcodeForms)
// and portlab's.
func ImportExegesis(bs []*results.Benchmark, opt ExegesisOptions) (*Model, *Measurements) {
	ms := CollectMeasurements(bs, CollectOptions{OpcodeForms: opt.OpcodeForms})
	now := time.Now
	if opt.Now != nil {
		now = opt.Now
	}
	cpu := ""
	for _, b := range bs {
		if b.CPUName != "" {
			cpu = b.CPUName
			break
		}
	}
	m := &Model{Name: opt.Name, ISA: "x86", LLVMCPU: cpu, MicroArchitecture: cpu}
	if m.Name == "" {
		m.Name = "imported from benchmark results"
		if cpu != "" {
			m.Name += " (" + cpu + ")"
		}
	}
	m.Provenance = &Provenance{Source: SourceImported, From: "exegesis:" + strings.Join(opt.Sources, ","),
		Host: strings.Join(ms.Hosts, ","), Date: now().UTC().Format("2006-01-02")}
	// Ports: every resource llvm-exegesis counted uops on.
	resSet := map[string]bool{}
	for _, fm := range ms.Forms {
		for r := range fm.PortUops {
			resSet[r] = true
		}
	}
	var res []string
	for r := range resSet {
		res = append(res, r)
	}
	sort.Strings(res)
	names := llvmPortNames(res)
	portOf := map[string]string{}
	for i, r := range res {
		portOf[r] = names[i]
	}
	m.Ports = names
	var forms []string
	for n := range ms.Forms {
		forms = append(forms, n)
	}
	sort.Strings(forms)
	for _, n := range forms {
		fm := ms.Forms[n]
		if fm.Throughput <= 0 && len(fm.Latencies) == 0 && len(fm.PortUops) == 0 {
			continue
		}
		e := &Entry{Form: n, Throughput: round5(fm.Throughput), Latency: round5(fm.Latency()), PortPressure: PortPressure{},
			Latencies: operandLatencies(fm.Latencies)}
		var rs []string
		for r := range fm.PortUops {
			rs = append(rs, r)
		}
		sort.Strings(rs)
		for _, r := range rs {
			if v := fm.PortUops[r]; v > 0 {
				e.PortPressure = append(e.PortPressure, PortUse{Cycles: round5(v), Ports: []string{portOf[r]}})
				e.Uops += v
			}
		}
		if fm.Uops > 0 {
			e.Uops = fm.Uops
		}
		e.Uops = round5(e.Uops)
		if f, ok := isa.Lookup(n); ok {
			e.Flags = catalogFlags(f)
		}
		for _, p := range fm.Props {
			if knownFlags[p] && !hasString(e.Flags, p) {
				e.Flags = append(e.Flags, p)
			}
		}
		sort.Strings(e.Flags)
		if fm.Host != "" || fm.Date != "" {
			d := fm.Date
			if len(d) > 10 {
				d = d[:10]
			}
			e.Provenance = &Provenance{Source: SourceMeasured, Host: fm.Host, Date: d}
		}
		m.Put(e)
	}
	m.SortForms()
	m.Reindex()
	return m, ms
}
