package jit

import (
	"bytes"
	"debug/elf"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/twmb/murmur3"

	"portlab/internal/fsutil"
)

// Unit is one piece of assembly source to be assembled into position-
// independent machine code: a whole function or a bare snippet.
type Unit struct {
	// Name identifies the unit in error messages ("snippet.s", "form \"add r64, r64\"").
	Name string
	// Source is the assembly text. It starts in Intel syntax (noprefix) unless
	// ATT is set; it may switch with .att_syntax / .intel_syntax itself.
	Source string
	ATT    bool
	// LineOffset is added to line numbers in errors (the unit's first line in
	// the user's file, minus one).
	LineOffset int
	// Marks are symbol names defined in Source whose offsets the caller wants.
	Marks []string
}

// UnitToken in a unit's source and mark names is replaced by a number unique
// within one assembler run, so units assembled together can define labels of
// the same name. It does not take part in the cache key.
const UnitToken = "%UNIT%"

// Object is an assembled unit.
type Object struct {
	Code  []byte
	Marks map[string]int // offset of each requested mark within Code
}

// AsmError is an assembler error mapped back to the unit it came from.
type AsmError struct {
	Unit string
	Line int // 1-based line in the unit's source (plus LineOffset); 0 if unknown
	Msg  string
}

func (e *AsmError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", e.Unit, e.Line, e.Msg)
	}
	return fmt.Sprintf("%s: %s", e.Unit, e.Msg)
}

// Assembler runs GNU as on batches of units, caching results on disk keyed by
// a murmur3 hash of the source and the assembler's version.
type Assembler struct {
	Path     string // path of GNU as; default "as" from PATH
	CacheDir string // "" disables the disk cache
	version  string
	once     sync.Once
	initErr  error

	// Parallel is the most runs of GNU as one Assemble call starts at
	// once (0: one per CPU this process may run on, at most
	// maxParallel); each takes at least minSplit units.
	Parallel int

	// MemoryBytes bounds the memory of the in-process cache's objects,
	// their machine code and marks (0: defaultMemoryBytes); the oldest
	// objects leave it first, and the disk cache still has them.
	MemoryBytes int

	mu     sync.Mutex
	memory map[[2]uint64]*Object // in-process cache
	order  [][2]uint64           // its keys, oldest first
	held   int                   // bytes its objects hold (objectBytes)
	runs   atomic.Int64          // runs of as (Runs)
}

// defaultMemoryBytes is the in-process cache's default bound. Unbounded,
// it held every snippet a process ever assembled: characterize assembles
// about 200,000 on the Zen 4 guest, a few KB of machine code each, and
// its fit step's heap stood at 1.6 GB in a 4 GiB control group.
const defaultMemoryBytes = 64 << 20

// objectBytes is about what an object holds in memory: its machine code,
// and its marks and headers. Counting the code alone, the in-process
// cache of a characterize run held 151 MB at a bound of 64 MiB (a heap
// profile at its build step, the Zen 4 guest without AVX-512,
// 2026-11-30): 80 MB the objects and their code, 71 MB their marks.
func objectBytes(o *Object) int {
	n := len(o.Code) + objectOverhead
	for name := range o.Marks {
		n += len(name) + markOverhead
	}
	return n
}

// objectOverhead is an object's own memory besides its code and marks
// (the struct, the slice and map headers, the map's first group);
// markOverhead a mark's besides its name (its share of the map's slots,
// the string header, the offset).
const objectOverhead, markOverhead = 128, 48

// remember puts o in the in-process cache, dropping the oldest objects
// past the bound. The caller holds a.mu.
func (a *Assembler) remember(k [2]uint64, o *Object) {
	if _, ok := a.memory[k]; ok {
		return
	}
	limit := a.MemoryBytes
	if limit <= 0 {
		limit = defaultMemoryBytes
	}
	a.memory[k] = o
	a.order = append(a.order, k)
	a.held += objectBytes(o)
	for a.held > limit && len(a.order) > 1 {
		old := a.order[0]
		a.order = a.order[1:]
		if x, ok := a.memory[old]; ok {
			a.held -= objectBytes(x)
			delete(a.memory, old)
		}
	}
}

// An Assemble call splits its units over runs of as of at least minSplit
// units each (a run costs about 3 ms before its first unit), at most
// maxParallel at once.
const (
	minSplit    = 64
	maxParallel = 8
)

// parts deals the units to assemble out to the runs of as: round robin,
// so that the large harness functions and the small probes of a batch
// spread evenly.
func (a *Assembler) parts(todo []int) [][]int {
	n := a.Parallel
	if n <= 0 {
		n = min(max(len(startCPUs), 1), maxParallel)
	}
	n = max(1, min(n, len(todo)/minSplit))
	out := make([][]int, n)
	for j, i := range todo {
		out[j%n] = append(out[j%n], i)
	}
	return out
}

// Runs is how many times the assembler has run GNU as: units found in the
// caches cost none.
func (a *Assembler) Runs() int64 { return a.runs.Load() }

// NewAssembler returns an assembler using GNU as from PATH and the default
// cache directory (user cache dir/portlab/asm).
func NewAssembler() *Assembler {
	dir := ""
	if d, err := os.UserCacheDir(); err == nil {
		dir = filepath.Join(d, "portlab", "asm")
	}
	return &Assembler{Path: "as", CacheDir: dir}
}

// ErrNoAssembler is returned when GNU as cannot be found.
var ErrNoAssembler = errors.New("GNU as not found in PATH (install binutils)")

func (a *Assembler) init() error {
	a.once.Do(func() {
		path := a.Path
		if path == "" {
			path = "as"
		}
		p, err := exec.LookPath(path)
		if err != nil {
			a.initErr = ErrNoAssembler
			return
		}
		a.Path = p
		out, err := exec.Command(p, "--version").Output()
		if err != nil {
			a.initErr = fmt.Errorf("%s --version: %v", p, err)
			return
		}
		first, _, _ := strings.Cut(string(out), "\n")
		if !strings.Contains(first, "GNU") {
			a.initErr = fmt.Errorf("%s is not GNU as (%q)", p, first)
			return
		}
		a.version = first
		a.memory = map[[2]uint64]*Object{}
	})
	return a.initErr
}

// Version returns the assembler's version line.
func (a *Assembler) Version() (string, error) {
	if err := a.init(); err != nil {
		return "", err
	}
	return a.version, nil
}

func (a *Assembler) key(u *Unit) [2]uint64 {
	h := murmur3.New128()
	h.Write([]byte(a.version))
	h.Write([]byte{0})
	if u.ATT {
		h.Write([]byte("att\x00"))
	} else {
		h.Write([]byte("intel\x00"))
	}
	h.Write([]byte(u.Source))
	for _, m := range u.Marks {
		h.Write([]byte{0})
		h.Write([]byte(m))
	}
	x, y := h.Sum128()
	return [2]uint64{x, y}
}

// Assemble assembles every unit in as few runs of as as it can, several
// at once on a large batch (Parallel). It returns one object and one
// error per unit: a unit whose source does not assemble gets an *AsmError
// and does not affect the others.
//
// The runs of as may use every CPU of the process's start-up mask, the
// measuring CPU among them (startAs): portlab's engine assembles only
// between jobs, never while one runs.
func (a *Assembler) Assemble(units []*Unit) ([]*Object, []error) {
	objs := make([]*Object, len(units))
	errs := make([]error, len(units))
	if err := a.init(); err != nil {
		for i := range errs {
			errs[i] = err
		}
		return objs, errs
	}
	var todo []int
	for i, u := range units {
		k := a.key(u)
		a.mu.Lock()
		o := a.memory[k]
		a.mu.Unlock()
		if o == nil {
			o = a.loadCache(k)
		}
		if o != nil {
			objs[i] = o
			continue
		}
		todo = append(todo, i)
	}
	parts := a.parts(todo)
	if len(parts) == 1 {
		a.assemble(units, todo, objs, errs)
		return objs, errs
	}
	var wg sync.WaitGroup
	for _, part := range parts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			a.assemble(units, part, objs, errs)
		}()
	}
	wg.Wait()
	return objs, errs
}

// assemble assembles units[i] for every i of todo into objs[i] and
// errs[i], in one run of as and again without the units that failed.
func (a *Assembler) assemble(units []*Unit, todo []int, objs []*Object, errs []error) {
	for len(todo) > 0 {
		batch := make([]*Unit, len(todo))
		for j, i := range todo {
			batch[j] = units[i]
		}
		bobjs, berrs, fatal := a.run(batch)
		if fatal != nil {
			for _, i := range todo {
				errs[i] = fatal
			}
			return
		}
		var retry []int
		for j, i := range todo {
			switch {
			case berrs[j] != nil:
				errs[i] = berrs[j]
			case bobjs[j] != nil:
				objs[i] = bobjs[j]
				k := a.key(units[i])
				a.mu.Lock()
				a.remember(k, bobjs[j])
				a.mu.Unlock()
				a.storeCache(k, bobjs[j])
			default:
				// The batch failed because of other units: try again without them.
				retry = append(retry, i)
			}
		}
		if len(retry) == len(todo) {
			for _, i := range retry {
				errs[i] = &AsmError{Unit: units[i].Name, Msg: "assembler failed without a message"}
			}
			break
		}
		todo = retry
	}
}

// AssembleOne assembles a single unit.
func (a *Assembler) AssembleOne(u *Unit) (*Object, error) {
	objs, errs := a.Assemble([]*Unit{u})
	return objs[0], errs[0]
}

var asErrLine = regexp.MustCompile(`^[^:]*:(\d+): (Error|Warning): (.*)$`)

// run assembles one batch. Each unit goes into its own numbered section so
// that local symbols and alignment of one cannot leak into another. When some
// units fail, it returns their errors and nil objects for the others (the
// caller retries those).
func (a *Assembler) run(units []*Unit) ([]*Object, []error, error) {
	a.runs.Add(1)
	var src bytes.Buffer
	type span struct{ first, last int }
	spans := make([]span, len(units))
	line := 1
	emit := func(s string) {
		src.WriteString(s)
		src.WriteByte('\n')
		line++
	}
	for i, u := range units {
		emit(fmt.Sprintf(".section .text.u%d,\"ax\",@progbits", i))
		if u.ATT {
			emit(".att_syntax")
		} else {
			emit(".intel_syntax noprefix")
		}
		emit(fmt.Sprintf("__portlab_u%d_begin:", i))
		spans[i].first = line
		body := strings.ReplaceAll(strings.TrimRight(u.Source, "\n"), UnitToken, strconv.Itoa(i))
		n := strings.Count(body, "\n") + 1
		src.WriteString(body)
		src.WriteByte('\n')
		line += n
		spans[i].last = line - 1
		emit(fmt.Sprintf(".att_syntax\n__portlab_u%d_end:", i))
		line++ // the label line after .att_syntax
	}
	dir, err := os.MkdirTemp("", "portlab-as-")
	if err != nil {
		return nil, nil, err
	}
	defer os.RemoveAll(dir)
	in := filepath.Join(dir, "batch.s")
	out := filepath.Join(dir, "batch.o")
	if err := os.WriteFile(in, src.Bytes(), 0o644); err != nil {
		return nil, nil, err
	}
	cmd := exec.Command(a.Path, "--64", "-o", out, in)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	runErr := startAs(cmd)
	if runErr == nil {
		runErr = cmd.Wait()
	}
	objs := make([]*Object, len(units))
	errs := make([]error, len(units))
	failed := false
	for _, l := range strings.Split(stderr.String(), "\n") {
		m := asErrLine.FindStringSubmatch(l)
		if m == nil || m[2] != "Error" {
			continue
		}
		ln, _ := strconv.Atoi(m[1])
		idx := sort.Search(len(spans), func(i int) bool { return spans[i].last >= ln })
		if idx < len(spans) && ln >= spans[idx].first {
			if errs[idx] == nil {
				u := units[idx]
				errs[idx] = &AsmError{Unit: u.Name, Line: ln - spans[idx].first + 1 + u.LineOffset, Msg: m[3]}
			}
			failed = true
		} else if idx < len(spans) {
			// An error at our own framing lines (e.g. an unterminated .rept): blame the unit.
			if errs[idx] == nil {
				errs[idx] = &AsmError{Unit: units[idx].Name, Msg: m[3]}
			}
			failed = true
		}
	}
	if runErr != nil {
		if !failed {
			return nil, nil, fmt.Errorf("as failed: %v: %s", runErr, strings.TrimSpace(stderr.String()))
		}
		return objs, errs, nil
	}
	f, err := elf.Open(out)
	if err != nil {
		return nil, nil, fmt.Errorf("reading as output: %v", err)
	}
	defer f.Close()
	syms, err := f.Symbols()
	if err != nil {
		return nil, nil, fmt.Errorf("reading as output symbols: %v", err)
	}
	symOff := map[string]elf.Symbol{}
	for _, s := range syms {
		symOff[s.Name] = s
	}
	for i, u := range units {
		sec := f.Section(fmt.Sprintf(".text.u%d", i))
		if sec == nil {
			return nil, nil, fmt.Errorf("as output lacks section for unit %d", i)
		}
		data, err := sec.Data()
		if err != nil {
			return nil, nil, err
		}
		begin, ok1 := symOff[fmt.Sprintf("__portlab_u%d_begin", i)]
		end, ok2 := symOff[fmt.Sprintf("__portlab_u%d_end", i)]
		if !ok1 || !ok2 || int(end.Value) > len(data) || begin.Value > end.Value {
			errs[i] = &AsmError{Unit: u.Name, Msg: "code left its section (a .section or .text directive in the snippet?)"}
			continue
		}
		if rel := relocationsIn(f, sec); rel > 0 {
			errs[i] = &AsmError{Unit: u.Name, Msg: fmt.Sprintf("code needs %d relocation(s): it refers to a symbol outside itself", rel)}
			continue
		}
		o := &Object{Code: append([]byte(nil), data[begin.Value:end.Value]...), Marks: map[string]int{}}
		for _, m := range u.Marks {
			s, ok := symOff[strings.ReplaceAll(m, UnitToken, strconv.Itoa(i))]
			if !ok || s.Section != begin.Section {
				errs[i] = &AsmError{Unit: u.Name, Msg: fmt.Sprintf("mark %q not defined", m)}
				break
			}
			o.Marks[m] = int(s.Value - begin.Value)
		}
		if errs[i] == nil {
			objs[i] = o
		}
	}
	return objs, errs, nil
}

// relocationsIn counts relocation entries that apply to sec.
func relocationsIn(f *elf.File, sec *elf.Section) int {
	n := 0
	for _, s := range f.Sections {
		if s.Type != elf.SHT_RELA || int(s.Info) >= len(f.Sections) || f.Sections[s.Info] != sec {
			continue
		}
		n += int(s.Size / 24)
	}
	return n
}

// Disk cache: one file per object, <hex key>.obj: u32 code length, code,
// u32 mark count, then (u16 name length, name, u32 offset) per mark.
func (a *Assembler) cachePath(k [2]uint64) string {
	if a.CacheDir == "" {
		return ""
	}
	name := fmt.Sprintf("%016x%016x.obj", k[0], k[1])
	return filepath.Join(a.CacheDir, name[:2], name)
}

func (a *Assembler) loadCache(k [2]uint64) *Object {
	p := a.cachePath(k)
	if p == "" {
		return nil
	}
	b, err := os.ReadFile(p)
	if err != nil {
		return nil
	}
	o, ok := decodeObject(b)
	if !ok {
		return nil
	}
	a.mu.Lock()
	a.remember(k, o)
	a.mu.Unlock()
	return o
}

func (a *Assembler) storeCache(k [2]uint64, o *Object) {
	p := a.cachePath(k)
	if p == "" {
		return
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return
	}
	_ = fsutil.WriteFileAtomic(p, encodeObject(o), 0o644)
}

func encodeObject(o *Object) []byte {
	var b bytes.Buffer
	binary.Write(&b, binary.LittleEndian, uint32(len(o.Code)))
	b.Write(o.Code)
	names := make([]string, 0, len(o.Marks))
	for n := range o.Marks {
		names = append(names, n)
	}
	sort.Strings(names)
	binary.Write(&b, binary.LittleEndian, uint32(len(names)))
	for _, n := range names {
		binary.Write(&b, binary.LittleEndian, uint16(len(n)))
		b.WriteString(n)
		binary.Write(&b, binary.LittleEndian, uint32(o.Marks[n]))
	}
	return b.Bytes()
}

func decodeObject(b []byte) (*Object, bool) {
	r := bytes.NewReader(b)
	var n uint32
	if binary.Read(r, binary.LittleEndian, &n) != nil || int(n) > r.Len() {
		return nil, false
	}
	o := &Object{Code: make([]byte, n), Marks: map[string]int{}}
	r.Read(o.Code)
	var m uint32
	if binary.Read(r, binary.LittleEndian, &m) != nil {
		return nil, false
	}
	for i := 0; i < int(m); i++ {
		var l uint16
		if binary.Read(r, binary.LittleEndian, &l) != nil || int(l) > r.Len() {
			return nil, false
		}
		name := make([]byte, l)
		r.Read(name)
		var off uint32
		if binary.Read(r, binary.LittleEndian, &off) != nil {
			return nil, false
		}
		o.Marks[string(name)] = int(off)
	}
	return o, r.Len() == 0
}
