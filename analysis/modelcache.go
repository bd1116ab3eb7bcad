package analysis

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/twmb/murmur3"
	"golang.org/x/sys/unix"

	"portlab/hostcpu"
	"portlab/internal/fsutil"
	"portlab/modeldb"
)

// Parsing a large embedded model takes most of a second and measuring the
// host's TSC for its identification 20 ms, which would dwarf the analysis
// of a small kernel. So the first run writes two small files under the
// user's cache directory (portlab/analysis): the host's LLVM CPU name,
// keyed by /proc/cpuinfo, and an index of each embedded model used, keyed
// by the portlab binary, that holds the model's header and one line per
// form. Later runs read the index and parse only the entries they need.

// cacheDir returns portlab's analysis cache directory, or "" when there is
// none.
func cacheDir() string {
	if d := os.Getenv("PORTLAB_CACHE_DIR"); d != "" {
		return d
	}
	d, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(d, "portlab", "analysis")
}

// HostCPU returns the host's LLVM CPU name (hostcpu.Detect), remembered
// per /proc/cpuinfo signature.
func HostCPU() (string, error) {
	cpu, _, err := HostIdentity()
	return cpu, err
}

// HostIdentity returns the host's LLVM CPU name and CPUID signature
// (hostcpu.Info.Signature), remembered per /proc/cpuinfo signature.
func HostIdentity() (llvmCPU, signature string, err error) {
	sig := cpuinfoSignature()
	dir := cacheDir()
	path := ""
	if sig != "" && dir != "" {
		path = filepath.Join(dir, "host-"+sig)
		if b, err := os.ReadFile(path); err == nil {
			// "cpu signature"; older caches hold the CPU alone.
			if f := strings.Fields(string(b)); len(f) == 2 {
				return f[0], f[1], nil
			}
		}
	}
	info, err := hostcpu.Detect()
	if err != nil {
		return "", "", err
	}
	if path != "" {
		if os.MkdirAll(dir, 0o755) == nil {
			_ = fsutil.WriteFileAtomic(path, []byte(info.Microarch+" "+info.Signature()+"\n"), 0o644)
		}
	}
	return info.Microarch, info.Signature(), nil
}

// HostModel returns the model for this host: the user's model of its CPU
// signature (modeldb.HostModel; `portlab characterize` writes it) through
// an on-disk index like DefaultModel's, else DefaultModel. The note names
// the model used when it is not the host CPU's own embedded one.
func HostModel() (m *modeldb.Model, note string, err error) {
	cpu, sig, err := HostIdentity()
	if err != nil {
		return nil, "", fmt.Errorf("the host CPU is unknown: %v", err)
	}
	path, err := modeldb.UserModelPath(sig)
	if err == nil {
		if raw, rerr := os.ReadFile(path); rerr == nil {
			note = "the model of this host in " + path
			dir := cacheDir()
			idx := ""
			if dir != "" {
				idx = filepath.Join(dir, fmt.Sprintf("user-%s-%x.idx", sig, murmur3.Sum64(raw)))
				if m, err := loadIndex(idx); err == nil {
					return m, note, nil
				}
			}
			um, err := modeldb.Parse(path, raw, modeldb.LoadOptions{})
			if err != nil {
				return nil, "", err
			}
			if idx != "" && writeIndex(dir, idx, um) == nil {
				pruneCache(dir, "user-"+sig+"-*.idx", filepath.Base(idx))
			}
			return um, note, nil
		}
	}
	return DefaultModel(cpu)
}

// cpuinfoSignature hashes the first processor's identification lines.
func cpuinfoSignature() string {
	f, err := os.Open("/proc/cpuinfo")
	if err != nil {
		return ""
	}
	defer f.Close()
	h := murmur3.New64()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	n := 0
	for sc.Scan() {
		l := sc.Text()
		if l == "" {
			break // the first processor only
		}
		k, _, _ := strings.Cut(l, ":")
		switch strings.TrimSpace(k) {
		case "vendor_id", "cpu family", "model", "model name", "stepping", "flags":
			h.Write([]byte(l))
			n++
		}
	}
	if n == 0 {
		return ""
	}
	return strconv.FormatUint(h.Sum64(), 16)
}

// binaryKey identifies the running binary (whose embedded models an index
// describes) by path, size and modification time.
func binaryKey() string {
	exe, err := os.Executable()
	if err != nil {
		return ""
	}
	st, err := os.Stat(exe)
	if err != nil {
		return ""
	}
	return fmt.Sprintf("%s|%d|%d", exe, st.Size(), st.ModTime().UnixNano())
}

// modelIndex is a model's header plus its entries as JSON lines, parsed
// on demand.
type modelIndex struct {
	data    []byte // the whole index file, mapped into memory
	entries int    // offset of the first entry line
	idioms  bool   // some entry carries an idiom flag
}

// DefaultModel returns the embedded model for an LLVM CPU name, or the
// nearest one (exact false), through the on-disk index: the returned model
// holds the header and no entries until lookups load them (see
// Builder). The note says which model stands in when not exact.
func DefaultModel(llvmCPU string) (m *modeldb.Model, note string, err error) {
	key := binaryKey()
	dir := cacheDir()
	// Fast path: this binary resolved this CPU before and indexed the model.
	resolve := ""
	if key != "" && dir != "" {
		resolve = filepath.Join(dir, fmt.Sprintf("resolve-%x", murmur3.Sum64([]byte(key+"|"+llvmCPU))))
		if b, err := os.ReadFile(resolve); err == nil {
			path, note, _ := strings.Cut(string(b), "\n")
			if m, err := loadIndex(filepath.Join(dir, path)); err == nil {
				return m, strings.TrimSpace(note), nil
			}
		}
	}
	infos, err := modeldb.List()
	if err != nil {
		return nil, "", err
	}
	pick := func(cpu string) *modeldb.ModelInfo {
		var best *modeldb.ModelInfo
		for i := range infos {
			in := &infos[i]
			if in.LLVMCPU != cpu {
				continue
			}
			if best == nil || (in.Source == modeldb.SourceMeasured && best.Source != modeldb.SourceMeasured) {
				best = in
			}
		}
		return best
	}
	info := pick(llvmCPU)
	var full *modeldb.Model
	if info == nil {
		mm, exact, err := modeldb.Nearest(llvmCPU)
		if err != nil {
			return nil, "", err
		}
		full = mm
		if !exact {
			note = fmt.Sprintf("no embedded model for %s: using %s", llvmCPU, mm.Label())
		}
		info = pick(mm.LLVMCPU)
		if info == nil {
			return mm, note, nil
		}
	}
	if key == "" || dir == "" {
		if full == nil {
			full, err = modeldb.Embedded(info.File)
		}
		return full, note, err
	}
	// The index is keyed by the model's content, so every build of portlab
	// that embeds the same model shares one index.
	stem := strings.TrimSuffix(strings.TrimSuffix(info.File, ".gz"), ".yml")
	name := fmt.Sprintf("%s-%x.idx", stem, info.Hash)
	path := filepath.Join(dir, name)
	if m, err := loadIndex(path); err == nil {
		_ = fsutil.WriteFileAtomic(resolve, []byte(name+"\n"+note+"\n"), 0o644)
		return m, note, nil
	}
	if full == nil {
		if full, err = modeldb.Embedded(info.File); err != nil {
			return nil, note, err
		}
	}
	if err := writeIndex(dir, path, full); err == nil {
		_ = fsutil.WriteFileAtomic(resolve, []byte(name+"\n"+note+"\n"), 0o644)
		pruneCache(dir, stem+"-*.idx", name)
	}
	// No cache: still correct, just slower next time.
	return full, note, nil
}

// pruneCache removes the files of dir matching pattern except keep (the
// indexes of older versions of a model), and resolve files (a few bytes
// per binary and CPU) not used for a week.
func pruneCache(dir, pattern, keep string) {
	old, _ := filepath.Glob(filepath.Join(dir, pattern))
	for _, f := range old {
		if filepath.Base(f) != keep {
			_ = os.Remove(f)
		}
	}
	resolves, _ := filepath.Glob(filepath.Join(dir, "resolve-*"))
	for _, f := range resolves {
		if st, err := os.Stat(f); err == nil && time.Since(st.ModTime()) > 7*24*time.Hour {
			_ = os.Remove(f)
		}
	}
}

// writeIndex writes the index of m: a magic line, the header as JSON, a
// line saying whether any entry carries an idiom flag, then one line per
// entry, "form<TAB>json", sorted by form (looked up by binary search).
func writeIndex(dir, path string, m *modeldb.Model) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	hdr := *m
	hdr.Forms = nil
	var buf bytes.Buffer
	h, err := json.Marshal(&hdr)
	if err != nil {
		return err
	}
	buf.WriteString(indexMagic + "\n")
	buf.Write(h)
	buf.WriteByte('\n')
	fmt.Fprintf(&buf, "idioms %v\n", modelMarksIdioms(m))
	forms := append([]*modeldb.Entry(nil), m.Forms...)
	sort.Slice(forms, func(i, j int) bool { return forms[i].Form < forms[j].Form })
	for _, e := range forms {
		if strings.ContainsAny(e.Form, "\t\n") {
			continue
		}
		j, err := json.Marshal(e)
		if err != nil {
			return err
		}
		buf.WriteString(e.Form)
		buf.WriteByte('\t')
		buf.Write(j)
		buf.WriteByte('\n')
	}
	return fsutil.WriteFileAtomic(path, buf.Bytes(), 0o644)
}

const indexMagic = "portlab-model-index 2"

// loadIndex reads an index: the header now, the entries on lookup. The
// file is mapped, not read: a lookup touches a few of its pages.
func loadIndex(path string) (*modeldb.Model, error) {
	data, err := mapFile(path)
	if err != nil {
		return nil, err
	}
	magic, rest, ok := bytes.Cut(data, []byte("\n"))
	if !ok || string(magic) != indexMagic {
		return nil, fmt.Errorf("%s: not a model index", path)
	}
	hdrJSON, rest, ok := bytes.Cut(rest, []byte("\n"))
	if !ok {
		return nil, fmt.Errorf("%s: truncated", path)
	}
	idioms, rest, ok := bytes.Cut(rest, []byte("\n"))
	if !ok {
		return nil, fmt.Errorf("%s: truncated", path)
	}
	m := &modeldb.Model{}
	if err := json.Unmarshal(hdrJSON, m); err != nil {
		return nil, err
	}
	idx := &modelIndex{data: data, entries: len(data) - len(rest), idioms: string(idioms) == "idioms true"}
	indexMu.Lock()
	indexes[m] = idx
	indexMu.Unlock()
	return m, nil
}

// mapFile maps a file read-only into memory (for the life of the process),
// or reads it where it cannot be mapped.
func mapFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if st.Size() > 0 && st.Size() == int64(int(st.Size())) {
		if data, err := unix.Mmap(int(f.Fd()), 0, int(st.Size()), unix.PROT_READ, unix.MAP_SHARED); err == nil {
			return data, nil
		}
	}
	return io.ReadAll(f)
}

// entry finds a form's JSON by binary search over the entry lines, which
// are sorted by form. It probes byte offsets and takes the line around
// each, so it reads a few lines rather than the whole index.
func (idx *modelIndex) entry(form string) ([]byte, bool) {
	data := idx.data
	// Lines starting before lo name forms before form; lines starting at
	// hi or later do not. Both are line starts (or the end).
	lo, hi := idx.entries, len(data)
	for lo < hi {
		mid := lo + (hi-lo)/2
		start := lo + bytes.LastIndexByte(data[lo:mid], '\n') + 1
		line := data[start:]
		end := bytes.IndexByte(line, '\n')
		if end < 0 {
			end = len(line)
		}
		line = line[:end]
		name, _, _ := bytes.Cut(line, []byte("\t"))
		if string(name) < form {
			lo = start + end + 1
		} else {
			hi = start
		}
	}
	if lo >= len(data) {
		return nil, false
	}
	line := data[lo:]
	if n := bytes.IndexByte(line, '\n'); n >= 0 {
		line = line[:n]
	}
	name, js, ok := bytes.Cut(line, []byte("\t"))
	if !ok || string(name) != form {
		return nil, false
	}
	return js, true
}

// indexes maps models loaded from an index to it (entries are loaded into
// the model on first lookup).
var (
	indexMu sync.Mutex
	indexes = map[*modeldb.Model]*modelIndex{}
)

func indexOf(m *modeldb.Model) *modelIndex {
	indexMu.Lock()
	defer indexMu.Unlock()
	return indexes[m]
}

// lookupEntry returns a model's entry, loading it from the model's index
// when it came from one.
func lookupEntry(m *modeldb.Model, form string) (*modeldb.Entry, bool) {
	if e, ok := m.Lookup(form); ok {
		return e, true
	}
	idx := indexOf(m)
	if idx == nil {
		return nil, false
	}
	js, ok := idx.entry(form)
	if !ok {
		return nil, false
	}
	e := &modeldb.Entry{}
	if err := json.Unmarshal(js, e); err != nil {
		return nil, false
	}
	m.Put(e)
	return e, true
}

// modelMarksIdioms reports whether model m marks any idiom (for an indexed model
// the index is scanned for the flag names).
func modelMarksIdioms(m *modeldb.Model) bool {
	if _, ok := m.Extra[idiomsKey]; ok {
		return true
	}
	for _, e := range m.Forms {
		for _, f := range e.Flags {
			switch f {
			case modeldb.FlagZeroIdiom, modeldb.FlagOnesIdiom, modeldb.FlagDepBreaking, modeldb.FlagMoveEliminated:
				return true
			}
		}
	}
	if idx := indexOf(m); idx != nil && idx.idioms {
		return true
	}
	return false
}
