package analysis

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
	"regexp"
	"strconv"
	"strings"

	"portlab/isa"
	"portlab/modeldb"
)

// LLVMModel imports LLVM's scheduling model for mcpu (llvm-mca -mcpu) for
// the given forms (modeldb.ImportLLVM), and completes the header with
// what llvm-mca's statistics reveal: the reorder buffer size, the
// scheduler buffers whose ports can be told from their names (a buffer
// named ...Any serves every port; Zn3ALU0123-like names list units), and
// the register files. With the same numbers the simulation then follows
// llvm-mca's.
func LLVMModel(ctx context.Context, mcpu string, forms []*isa.Form) (*modeldb.Model, *modeldb.LLVMReport, []string, error) {
	m, rep, err := modeldb.ImportLLVM(ctx, modeldb.LLVMOptions{MCPU: mcpu, Forms: withCompanions(forms)})
	if err != nil {
		return nil, nil, nil, err
	}
	notes, err := probeLLVM(ctx, rep.MCA, rep.MCPU, m)
	if err != nil {
		notes = append(notes, fmt.Sprintf("llvm-mca's buffer sizes unknown (%v): defaults used", err))
	}
	if err := probeIdioms(ctx, rep.MCA, rep.MCPU, m); err != nil {
		notes = append(notes, fmt.Sprintf("llvm-mca's idioms unknown (%v): portlab's built-in list used", err))
	}
	return m, rep, notes, nil
}

// withCompanions adds to forms what the analysis consults besides them:
// the register forms of memory forms (whose latency tells how late a
// load-op form reads its register sources) and the plain loads that give
// the model its load latencies.
func withCompanions(forms []*isa.Form) []*isa.Form {
	seen := map[*isa.Form]bool{}
	var out []*isa.Form
	add := func(f *isa.Form) {
		if f != nil && !seen[f] {
			seen[f] = true
			out = append(out, f)
		}
	}
	for _, f := range forms {
		add(f)
		for _, c := range registerForms(f) {
			add(c)
		}
	}
	for _, n := range []string{"mov r64, m64", "movdqa xmm, m128", "vmovdqa ymm, m256", "vmovdqa64 zmm, m512", "movq mm, m64"} {
		if f, ok := isa.Lookup(n); ok {
			add(f)
		}
	}
	return out
}

var (
	reROB      = regexp.MustCompile(`Total ROB Entries:\s+(\d+)`)
	reSchedQ   = regexp.MustCompile(`(?m)^(\S+)\s+\d+\s+\d+\s+(\d+)\s*$`)
	reResource = regexp.MustCompile(`(?m)^\[[0-9.]+\]\s+- (\S+)$`)
	reRetired  = regexp.MustCompile(`(?m)^ (\d+),\s+\d+\s+\(`)
	reRegFile  = regexp.MustCompile(`Register File #\d+ -- (\S+):\s*\n\s*Number of physical registers:\s+(\d+|unbounded)`)
)

var retireProbeRegs = []string{"rax", "rbx", "rcx", "rdx", "rsi", "rdi", "rbp", "r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15"}

// probeLLVM runs llvm-mca -all-stats on a trivial kernel and copies the
// buffer sizes it reports into m.
func probeLLVM(ctx context.Context, mca, mcpu string, m *modeldb.Model) ([]string, error) {
	cmd := exec.CommandContext(ctx, mca, "-mtriple=x86_64-unknown-linux-gnu", "-mcpu="+mcpu, "-iterations=1", "-all-stats", "-")
	// A slow instruction and then more independent ones than any core
	// retires in a cycle: when it completes, they retire as fast as the
	// retire width lets them.
	probe := "sqrtsd %xmm1, %xmm0\n"
	for _, r := range retireProbeRegs {
		probe += "addq $1, %" + r + "\n"
	}
	cmd.Stdin = strings.NewReader(probe)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("%v: %s", err, strings.TrimSpace(errb.String()))
	}
	s := out.String()
	var notes []string
	if mm := reROB.FindStringSubmatch(s); mm != nil {
		m.ROBSize, _ = strconv.Atoi(mm[1])
	}
	if i := strings.Index(s, "Scheduler's queue usage"); i >= 0 {
		sec := s[i:]
		if j := strings.Index(sec, "\n\n\n"); j >= 0 {
			sec = sec[:j]
		}
		scheds := map[string]int{}
		prefix := resourcePrefix(s)
		for _, mm := range reSchedQ.FindAllStringSubmatch(sec, -1) {
			size, _ := strconv.Atoi(mm[2])
			name := mm[1]
			key, ok := llvmBufferPorts(m.Ports, strings.TrimPrefix(name, prefix))
			if !ok {
				notes = append(notes, fmt.Sprintf("llvm-mca scheduler buffer %s (%d entries): its ports are not known, not modelled", name, size))
				continue
			}
			scheds[key] = size
			// LLVM's LoadQueue and StoreQueue are buffered resources too.
			switch strings.TrimPrefix(name, prefix) {
			case "Load", "LoadQueue", "LdQ", "LQ":
				m.LoadQueue = size
			case "Store", "StoreQueue", "StQ", "SQ":
				m.StoreQueue = size
			}
		}
		if len(scheds) == 1 && scheds["*"] > 0 {
			m.SchedulerSize = scheds["*"]
		} else if len(scheds) > 0 {
			delete(scheds, "*")
			m.Schedulers = scheds
		}
	}
	if i := strings.Index(s, "[# retired], [# cycles]"); i >= 0 {
		most := 0
		for _, mm := range reRetired.FindAllStringSubmatch(s[i:], -1) {
			if n, _ := strconv.Atoi(mm[1]); n > most {
				most = n
			}
		}
		if most > 0 && most < len(retireProbeRegs) {
			m.RetireWidth = most
		}
	}
	for _, mm := range reRegFile.FindAllStringSubmatch(s, -1) {
		class := ""
		switch n := strings.ToLower(mm[1]); {
		case strings.Contains(n, "int"):
			class = "gpr+flags" // LLVM's x86 integer files rename EFLAGS too
		case strings.Contains(n, "fp") || strings.Contains(n, "vec") || strings.Contains(n, "simd"):
			class = "vec"
		}
		if class == "" || mm[2] == "unbounded" {
			continue
		}
		size, _ := strconv.Atoi(mm[2])
		if m.RegisterFiles == nil {
			m.RegisterFiles = map[string]int{}
		}
		m.RegisterFiles[class] = size
	}
	return notes, nil
}

// resourcePrefix returns the CPU prefix of llvm-mca's resource names in
// its Resources list ("SKL" of SKLPort0, "Zn3" of Zn3ALU0), which the
// imported port names lack: the longest common prefix, backed off to
// where every name continues with an upper-case letter.
func resourcePrefix(out string) string {
	var names []string
	for _, mm := range reResource.FindAllStringSubmatch(out, -1) {
		names = append(names, mm[1])
	}
	if len(names) < 2 {
		return ""
	}
	p := names[0]
	for _, n := range names[1:] {
		for !strings.HasPrefix(n, p) {
			p = p[:len(p)-1]
		}
	}
	for len(p) > 0 {
		ok := true
		for _, n := range names {
			if len(n) <= len(p) || n[len(p)] < 'A' || n[len(p)] > 'Z' {
				ok = false
				break
			}
		}
		if ok {
			break
		}
		p = p[:len(p)-1]
	}
	return p
}

// llvmBufferPorts maps an llvm-mca buffered resource's name (without the
// CPU prefix) to the ports it serves, spelled as a scheduler key the
// simulator understands: "*" for every port (SKLPortAny), the ports named
// by it ("FP" for FPP0..FPSt, "Load" for Load.0-2), a family and its unit
// digits ("ALU01" for ALU0 and ALU1), or the integer units for "Int".
func llvmBufferPorts(ports []string, name string) (string, bool) {
	if strings.Contains(name, "Any") {
		return "*", true
	}
	if name == "Int" || name == "Integer" {
		var list []string
		for _, p := range ports {
			if f := portFamilyOf(p); f == "ALU" || f == "AGU" || f == "BRU" {
				list = append(list, p)
			}
		}
		return strings.Join(list, ","), len(list) > 1
	}
	if mask := schedulerPorts(ports, name); mask != 0 && !allDigits(name) {
		return portList(ports, mask), true
	}
	// "LSAGU": letters that each complete a shared suffix (LAGU, SAGU).
	for _, p := range ports {
		f := portFamilyOf(p)
		for cut := 1; cut < len(f); cut++ {
			suffix := f[cut:]
			if !strings.HasSuffix(name, suffix) || len(name) <= len(suffix) {
				continue
			}
			var list []string
			for _, c := range name[:len(name)-len(suffix)] {
				q := string(c) + suffix
				if schedulerPorts(ports, q) == 0 {
					list = nil
					break
				}
				list = append(list, q)
			}
			if len(list) > 1 {
				return strings.Join(list, ","), true
			}
		}
	}
	i := len(name)
	for i > 0 && name[i-1] >= '0' && name[i-1] <= '9' {
		i--
	}
	if i < len(name) && i > 0 {
		var list []string
		for _, d := range name[i:] {
			p := name[:i] + string(d)
			if schedulerPorts(ports, p) == 0 {
				return "", false
			}
			list = append(list, p)
		}
		if len(list) > 1 {
			return strings.Join(list, ","), true
		}
	}
	return "", false
}

func portFamilyOf(p string) string {
	if i := strings.IndexByte(p, '.'); i >= 0 {
		p = p[:i]
	}
	return strings.TrimRight(p, "0123456789")
}

func allDigits(s string) bool {
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return s != ""
}

func portList(ports []string, mask uint64) string {
	var out []string
	for i, p := range ports {
		if mask&(1<<i) != 0 {
			out = append(out, p)
		}
	}
	return strings.Join(out, ",")
}

// idiomReg is the register an idiom probe uses for every operand of a
// kind, and idiomProducer an instruction that writes it slowly.
var (
	idiomReg      = map[isa.Kind]string{isa.KindR32: "ecx", isa.KindR64: "rcx", isa.KindXMM: "xmm1", isa.KindYMM: "ymm1"}
	moveDest      = map[isa.Kind]string{isa.KindR32: "eax", isa.KindR64: "rax", isa.KindXMM: "xmm3", isa.KindYMM: "ymm3"}
	idiomProducer = map[isa.Kind]string{isa.KindR32: "imulq %rdx, %rcx", isa.KindR64: "imulq %rdx, %rcx",
		isa.KindXMM: "sqrtpd %xmm2, %xmm1", isa.KindYMM: "vsqrtpd %ymm2, %ymm1"}
)

// probeIdioms asks llvm-mca how it treats the model's idiom candidates
// (xor, sub, pxor, pcmpeq, ... with one register as every operand) and
// register moves, and flags their entries. Each candidate follows a slow
// write of its register: when it is ready at once, llvm-mca breaks the
// dependency, and it is a zero idiom when it also takes no latency and no
// port; a move that completes at dispatch is eliminated. llvm-mca's JSON
// does not say this, and its x86 models differ (Zen 2 executes xor r, r;
// Skylake's vpcmpeqd waits for its input; Zen eliminates moves). The model
// records that its idioms were probed, so that the analysis does not fall
// back on its built-in list.
func probeIdioms(ctx context.Context, mca, mcpu string, m *modeldb.Model) error {
	var entries []*modeldb.Entry
	var moves []bool
	var src strings.Builder
	for _, e := range m.Forms {
		f, ok := isa.Lookup(e.Form)
		if !ok {
			continue
		}
		z, d := builtinIdiom(f)
		move := isRegMove(f)
		if !z && !d && !move {
			continue
		}
		args := make([]isa.Arg, len(f.Operands))
		prod := ""
		ok = true
		for i, op := range f.Operands {
			r, known := idiomReg[op.Kind]
			if !known {
				ok = false
				break
			}
			args[i].Reg = r
			prod = idiomProducer[op.Kind]
		}
		if !ok {
			continue
		}
		if move {
			args[0].Reg = moveDest[f.Operands[0].Kind]
		}
		_, att, err := f.Instantiate(args)
		if err != nil {
			continue
		}
		fmt.Fprintf(&src, "# LLVM-MCA-BEGIN i%d\n%s\n%s\n# LLVM-MCA-END\n", len(entries), prod, att)
		entries = append(entries, e)
		moves = append(moves, move)
	}
	if m.Extra == nil {
		m.Extra = map[string]any{}
	}
	m.Extra[idiomsKey] = "probed with llvm-mca -mcpu=" + mcpu
	if len(entries) == 0 {
		return nil
	}
	cmd := exec.CommandContext(ctx, mca, "-mtriple=x86_64-unknown-linux-gnu", "-mcpu="+mcpu, "-iterations=1",
		"-json", "-instruction-info", "-resource-pressure", "-timeline", "-")
	cmd.Stdin = strings.NewReader(src.String())
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("%v: %s", err, strings.TrimSpace(errb.String()))
	}
	var res struct {
		CodeRegions []struct {
			Name                string
			InstructionInfoView struct {
				InstructionList []struct{ Latency int }
			}
			ResourcePressureView struct {
				ResourcePressureInfo []struct {
					InstructionIndex int
					ResourceUsage    float64
				}
			}
			TimelineView struct {
				TimelineInfo []struct{ CycleDispatched, CycleReady, CycleIssued int }
			}
		}
	}
	if err := json.Unmarshal(out.Bytes(), &res); err != nil {
		return err
	}
	for _, r := range res.CodeRegions {
		i, err := strconv.Atoi(strings.TrimPrefix(r.Name, "i"))
		if err != nil || i < 0 || i >= len(entries) || len(r.InstructionInfoView.InstructionList) < 2 || len(r.TimelineView.TimelineInfo) < 2 {
			continue
		}
		tl := r.TimelineView.TimelineInfo[1]
		e := entries[i]
		flag := ""
		switch {
		case moves[i]:
			if tl.CycleIssued == tl.CycleDispatched {
				flag = modeldb.FlagMoveEliminated
			}
		case tl.CycleReady > tl.CycleDispatched:
			// waits for its input: no idiom in this model
		default:
			used := 0.0
			for _, p := range r.ResourcePressureView.ResourcePressureInfo {
				if p.InstructionIndex == 1 {
					used += p.ResourceUsage
				}
			}
			flag = modeldb.FlagDepBreaking
			if r.InstructionInfoView.InstructionList[1].Latency == 0 && used == 0 {
				flag = modeldb.FlagZeroIdiom
			}
		}
		if flag != "" && !e.HasFlag(flag) {
			e.Flags = append(e.Flags, flag)
		}
	}
	return nil
}

// idiomsKey is the model header key recording that the model's idiom
// flags are complete (none missing for lack of knowledge).
const idiomsKey = "portlab_idioms"

// isRegMove reports whether f copies one register to another of the same
// kind (mov, movaps, vmovdqa, ...): a candidate for move elimination.
func isRegMove(f *isa.Form) bool {
	if len(f.Operands) != 2 || f.Operands[0].Kind != f.Operands[1].Kind {
		return false
	}
	switch f.Operands[0].Kind {
	case isa.KindR32, isa.KindR64, isa.KindXMM, isa.KindYMM:
	default:
		return false
	}
	switch strings.TrimPrefix(f.Mnemonic, "v") {
	case "mov", "movaps", "movapd", "movups", "movupd", "movdqa", "movdqu", "movdqa32", "movdqa64", "movdqu32", "movdqu64":
		return true
	}
	return false
}
