package modeldb

import (
	"bytes"
	"embed"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"
	"sync"

	"github.com/twmb/murmur3"
)

// The embedded default models live in models/ (see models/README.md).
// Models imported from LLVM are regenerated with the commands below
// (llvm-mca 14 must be installed); measured models are written by
// `portlab model build` on the machine they describe.
//
//go:generate go run ../cmd/portlab model import llvm --mcpu znver3 --compact -o models/llvm14-znver3.yml.gz
//go:generate go run ../cmd/portlab model import llvm --mcpu sapphirerapids --compact -o models/llvm14-sapphirerapids.yml.gz
//go:generate go run ../cmd/portlab model import llvm --mcpu znver2 --compact -o models/llvm14-znver2.yml.gz
//go:generate go run ../cmd/portlab model import llvm --mcpu znver1 --compact -o models/llvm14-znver1.yml.gz
//go:generate go run ../cmd/portlab model import llvm --mcpu icelake-server --compact -o models/llvm14-icelake-server.yml.gz
//go:generate go run ../cmd/portlab model import llvm --mcpu skylake --compact -o models/llvm14-skylake.yml.gz
//go:generate go run ../cmd/portlab model import llvm --mcpu haswell --compact -o models/llvm14-haswell.yml.gz
//go:embed models
var embedded embed.FS

// ModelInfo describes an embedded model, or a user's (UserModels).
type ModelInfo struct {
	File    string // file name under models/; a user model's path
	Name    string
	LLVMCPU string
	Forms   int
	Source  string // the model's provenance source: measured, imported, inferred
	From    string // and where it came from
	// Hash is a murmur3 hash of the file as embedded: it changes exactly
	// when the model does (caches derived from a model key on it).
	Hash uint64
	// Signature is the CPU signature of a user's model (UserModels).
	Signature string `json:",omitempty"`
	// Host is the CPU signature a measured model was measured on (its
	// provenance), "" for others.
	Host string `json:",omitempty"`
}

var embeddedModels struct {
	once  sync.Once
	mu    sync.Mutex
	data  map[string][]byte // by file name, decompressed
	cache map[string]*Model // parsed on first use
	infos []ModelInfo
	err   error
}

// loadEmbedded reads the headers of the embedded models; the forms are
// parsed when a model is first used (a large model takes a few hundred
// milliseconds, which `portlab model list` need not pay).
func loadEmbedded() {
	em := &embeddedModels
	em.data = map[string][]byte{}
	em.cache = map[string]*Model{}
	entries, err := fs.ReadDir(embedded, "models")
	if err != nil {
		em.err = err
		return
	}
	for _, de := range entries {
		name := de.Name()
		if de.IsDir() || !(strings.HasSuffix(name, ".yml") || strings.HasSuffix(name, ".yml.gz")) {
			continue
		}
		data, err := embedded.ReadFile(path.Join("models", name))
		if err != nil {
			em.err = err
			return
		}
		sum := murmur3.Sum64(data)
		if data, err = gunzipIfNeeded(data); err != nil {
			em.err = fmt.Errorf("embedded:%s: %v", name, err)
			return
		}
		em.data[name] = data
		info, err := headerInfo("embedded:"+name, data)
		if err != nil {
			em.err = err
			return
		}
		info.File, info.Hash = name, sum
		em.infos = append(em.infos, info)
	}
	sort.Slice(em.infos, func(i, j int) bool { return em.infos[i].File < em.infos[j].File })
}

// headerInfo describes a model from its header alone (everything before
// the instruction forms) and a count of its forms: cheaper than parsing
// a large model.
func headerInfo(name string, data []byte) (ModelInfo, error) {
	head := data
	if i := bytes.Index(data, []byte("\ninstruction_forms:")); i >= 0 {
		head = data[:i+1]
	}
	h, err := Parse(name, head, LoadOptions{})
	if err != nil {
		return ModelInfo{}, err
	}
	info := ModelInfo{Name: h.Name, LLVMCPU: h.LLVMCPU, Forms: bytes.Count(data, []byte("\n  - form: "))}
	if h.Provenance != nil {
		info.Source, info.From, info.Host = h.Provenance.Source, h.Provenance.From, h.Provenance.Host
	}
	return info, nil
}

// parsed returns the cached parse of an embedded model.
func parsedEmbedded(file string) (*Model, error) {
	em := &embeddedModels
	em.mu.Lock()
	defer em.mu.Unlock()
	if m, ok := em.cache[file]; ok {
		return m, nil
	}
	data, ok := em.data[file]
	if !ok {
		return nil, fmt.Errorf("no embedded model %q (have: %s)", file, embeddedNames())
	}
	m, err := Parse("embedded:"+file, data, LoadOptions{})
	if err != nil {
		return nil, err
	}
	em.cache[file] = m
	return m, nil
}

// List describes the embedded models.
func List() ([]ModelInfo, error) {
	embeddedModels.once.Do(loadEmbedded)
	return append([]ModelInfo(nil), embeddedModels.infos...), embeddedModels.err
}

// Embedded returns a copy of the embedded model in the named file.
func Embedded(file string) (*Model, error) {
	embeddedModels.once.Do(loadEmbedded)
	if embeddedModels.err != nil {
		return nil, embeddedModels.err
	}
	m, err := parsedEmbedded(file)
	if err != nil {
		return nil, err
	}
	return m.Clone(), nil
}

func embeddedNames() string {
	var names []string
	for _, i := range embeddedModels.infos {
		names = append(names, fmt.Sprintf("%s [%s]", i.File, i.LLVMCPU))
	}
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}

// Default returns a copy of the embedded model for an LLVM -mcpu name:
// a measured model when there is one, else an imported one.
func Default(llvmCPU string) (*Model, error) {
	info, err := defaultInfo(llvmCPU)
	if err != nil {
		return nil, err
	}
	return Embedded(info.File)
}

// defaultInfo describes the model Default returns.
func defaultInfo(llvmCPU string) (ModelInfo, error) {
	embeddedModels.once.Do(loadEmbedded)
	if embeddedModels.err != nil {
		return ModelInfo{}, embeddedModels.err
	}
	best := -1
	rank := func(i ModelInfo) int {
		if i.Source == SourceMeasured {
			return 2
		}
		return 1
	}
	for k, info := range embeddedModels.infos {
		if info.LLVMCPU != llvmCPU {
			continue
		}
		if best < 0 || rank(info) > rank(embeddedModels.infos[best]) {
			best = k
		}
	}
	if best < 0 {
		return ModelInfo{}, fmt.Errorf("no embedded model for -mcpu %q (have: %s)", llvmCPU, embeddedNames())
	}
	return embeddedModels.infos[best], nil
}

// nearestCPUs lists, for CPUs without an embedded model of their own, the
// CPUs whose model is the closest stand-in, best first: same vendor, the
// nearest core LLVM 14 models. Every name hostcpu.Uarch gives but
// "generic" has one (TestEveryHostHasABase), so that `portlab
// characterize` starts its build from ports and latencies of a kindred
// core (a build from no base competes where the budget allows): on the
// Zen 4 guest the same measurements built from LLVM 14's znver3 predict
// 76.2 % of a fresh draw within 10 %, from no base 77.8 %, from LLVM 14's
// sapphirerapids 56.5 % (docs/models.md, "The base"). LLVM 14 models
// sapphirerapids with its Skylake-server model (its skylake-avx512 import
// differs in a few flags), so the Skylake-server cores take that one;
// alderlake is its Skylake-client model, so the client cores from Alder
// Lake on take the Golden Cove server models first.
var nearestCPUs = map[string][]string{
	// AMD.
	"k8":       {"znver1"},
	"amdfam10": {"znver1"},
	"btver1":   {"znver1"},
	"btver2":   {"znver1"},
	"bdver1":   {"znver1"},
	"bdver2":   {"znver1"},
	"bdver3":   {"znver1"},
	"bdver4":   {"znver1"},
	"znver2":   {"znver1"},
	"znver4":   {"znver3"},
	"znver5":   {"znver4", "znver3"},
	// Intel big cores.
	"core2":           {"haswell"},
	"penryn":          {"haswell"},
	"nehalem":         {"haswell"},
	"westmere":        {"haswell"},
	"sandybridge":     {"haswell"},
	"ivybridge":       {"haswell"},
	"broadwell":       {"haswell", "skylake"},
	"skylake":         {"haswell"},
	"skylake-avx512":  {"sapphirerapids"},
	"cascadelake":     {"sapphirerapids"},
	"cooperlake":      {"sapphirerapids"},
	"knl":             {"sapphirerapids"},
	"knm":             {"sapphirerapids"},
	"cannonlake":      {"icelake-server", "sapphirerapids"},
	"icelake-client":  {"icelake-server"},
	"tigerlake":       {"icelake-client", "icelake-server"},
	"rocketlake":      {"icelake-client", "icelake-server"},
	"sapphirerapids":  {"icelake-server"},
	"emeraldrapids":   {"sapphirerapids", "icelake-server"},
	"graniterapids":   {"emeraldrapids", "sapphirerapids", "icelake-server"},
	"graniterapids-d": {"graniterapids", "emeraldrapids", "sapphirerapids", "icelake-server"},
	"diamondrapids":   {"graniterapids", "emeraldrapids", "sapphirerapids", "icelake-server"},
	"alderlake":       {"emeraldrapids", "sapphirerapids", "icelake-server"},
	"raptorlake":      {"emeraldrapids", "sapphirerapids", "icelake-server"},
	"meteorlake":      {"emeraldrapids", "sapphirerapids", "icelake-server"},
	"arrowlake":       {"emeraldrapids", "sapphirerapids", "icelake-server"},
	"arrowlake-s":     {"emeraldrapids", "sapphirerapids", "icelake-server"},
	"lunarlake":       {"emeraldrapids", "sapphirerapids", "icelake-server"},
	"pantherlake":     {"emeraldrapids", "sapphirerapids", "icelake-server"},
	// Intel Atom cores: LLVM 14's nearest embedded model is Skylake's.
	"bonnell":          {"skylake"},
	"silvermont":       {"skylake"},
	"goldmont":         {"skylake"},
	"goldmont-plus":    {"skylake"},
	"tremont":          {"skylake"},
	"gracemont":        {"skylake"},
	"sierraforest":     {"skylake"},
	"grandridge":       {"skylake"},
	"clearwaterforest": {"skylake"},
}

// Nearest returns the embedded model for llvmCPU, or for the closest CPU
// that has one; exact says whether it is the CPU's own model. Callers
// should say so when it is not.
func Nearest(llvmCPU string) (m *Model, exact bool, err error) {
	info, exact, err := NearestInfo(llvmCPU)
	if err != nil {
		return nil, false, err
	}
	m, err = Embedded(info.File)
	return m, exact, err
}

// NearestInfo describes the model Nearest returns without parsing it.
func NearestInfo(llvmCPU string) (info ModelInfo, exact bool, err error) {
	if info, err := defaultInfo(llvmCPU); err == nil {
		return info, true, nil
	}
	for _, c := range nearestCPUs[llvmCPU] {
		if info, err := defaultInfo(c); err == nil {
			return info, false, nil
		}
	}
	_, err = defaultInfo(llvmCPU)
	return ModelInfo{}, false, err
}

// ImportedNearest returns the embedded imported (LLVM) model for llvmCPU
// or the closest CPU that has one (nearestCPUs), nil where none: a
// reference that no measurement on a host has changed.
func ImportedNearest(llvmCPU string) *Model {
	embeddedModels.once.Do(loadEmbedded)
	if embeddedModels.err != nil {
		return nil
	}
	for _, c := range append([]string{llvmCPU}, nearestCPUs[llvmCPU]...) {
		for _, info := range embeddedModels.infos {
			if info.LLVMCPU == c && info.Source != SourceMeasured {
				if m, err := Embedded(info.File); err == nil {
					return m
				}
			}
		}
	}
	return nil
}
