package modeldb

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/twmb/murmur3"
)

// A user's own models live in one directory, one file per CPU type named
// by its CPUID signature (hostcpu.Info.Signature): `portlab characterize`
// writes GenuineIntel-6-cf-2.yml.gz there, and every command that takes a
// model uses it by default on a host of that signature, before any
// embedded model (HostModel).

// UserModelDir returns the directory of the user's models:
// $PORTLAB_MODEL_DIR, else $XDG_DATA_HOME/portlab/models, else
// ~/.local/share/portlab/models.
func UserModelDir() (string, error) {
	if d := os.Getenv("PORTLAB_MODEL_DIR"); d != "" {
		return d, nil
	}
	if d := os.Getenv("XDG_DATA_HOME"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "portlab", "models"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("no model directory: set PORTLAB_MODEL_DIR or XDG_DATA_HOME (%v)", err)
	}
	return filepath.Join(home, ".local", "share", "portlab", "models"), nil
}

// UserModelPath returns where the user's model of a CPU signature lives.
func UserModelPath(signature string) (string, error) {
	if signature == "" || strings.ContainsAny(signature, `/\`) || strings.HasPrefix(signature, ".") {
		return "", fmt.Errorf("CPU signature %q cannot name a model file", signature)
	}
	d, err := UserModelDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(d, signature+".yml.gz"), nil
}

// UserModels describes the models in the user's model directory (none
// when it does not exist). File is the model's path; Signature the CPU
// signature its file name carries.
func UserModels() ([]ModelInfo, error) {
	dir, err := UserModelDir()
	if err != nil {
		return nil, err
	}
	entries, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []ModelInfo
	for _, de := range entries {
		name := de.Name()
		sig, ok := strings.CutSuffix(name, ".yml.gz")
		if !ok {
			sig, ok = strings.CutSuffix(name, ".yml")
		}
		if de.IsDir() || !ok {
			continue
		}
		info, err := userModelInfo(filepath.Join(dir, name))
		if err != nil {
			return nil, err
		}
		info.Signature = sig
		out = append(out, info)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].File < out[j].File })
	return out, nil
}

// userModelInfo reads a model file's header.
func userModelInfo(path string) (ModelInfo, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return ModelInfo{}, err
	}
	data, err := gunzipIfNeeded(raw)
	if err != nil {
		return ModelInfo{}, fmt.Errorf("%s: %v", path, err)
	}
	info, err := headerInfo(path, data)
	if err != nil {
		return ModelInfo{}, err
	}
	info.File, info.Hash = path, murmur3.Sum64(raw)
	return info, nil
}

// UserModel returns the user's model of a CPU signature and its path, or
// a nil model when there is none.
func UserModel(signature string) (*Model, string, error) {
	path, err := UserModelPath(signature)
	if err != nil {
		return nil, "", err
	}
	if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
		return nil, path, nil
	}
	m, err := LoadFile(path, LoadOptions{})
	if err != nil {
		return nil, path, err
	}
	return m, path, nil
}

// HostModel returns the model for a host: the user's model of its CPU
// signature (`portlab characterize`), else the embedded model of its LLVM
// CPU or the nearest one (Nearest). where says which: the user model's
// path, or "embedded"; exact is false for a stand-in of another CPU.
func HostModel(signature, llvmCPU string) (m *Model, where string, exact bool, err error) {
	if signature != "" {
		um, path, err := UserModel(signature)
		if err != nil {
			return nil, path, false, fmt.Errorf("the model of this host: %w", err)
		}
		if um != nil {
			return um, path, true, nil
		}
	}
	m, exact, err = Nearest(llvmCPU)
	return m, "embedded", exact, err
}

// BaseFor returns the model a build for a host (its LLVM CPU and CPU
// signature) starts from: the embedded model measured on a CPU of that
// very signature, where there is one, so that a rebuild refines it;
// else an imported model (LLVM's) of the CPU or of the nearest CPU that
// has one, never a model measured on another CPU. nil when none is near.
// On the Zen 3 guest the same measurements (characterize, 2026-11-28)
// built from the embedded portlab-znver3 predicted the kernels at 5.7 %
// and 47.2 % of the validation draw within 10 %; from LLVM 14's znver3,
// 8.2 % and 43.8 % (docs/benchmarks.md, "characterize").
func BaseFor(llvmCPU, signature string) (*Model, error) {
	info, ok, err := BaseInfo(llvmCPU, signature)
	if err != nil || !ok {
		return nil, err
	}
	return Embedded(info.File)
}

// BaseInfo describes the model BaseFor returns without parsing it; ok is
// false where there is none.
func BaseInfo(llvmCPU, signature string) (info ModelInfo, ok bool, err error) {
	infos, err := List()
	if err != nil {
		return ModelInfo{}, false, err
	}
	if signature != "" {
		for _, in := range infos {
			if in.LLVMCPU == llvmCPU && in.Source == SourceMeasured && in.Host == signature {
				return in, true, nil
			}
		}
	}
	for _, cpu := range append([]string{llvmCPU}, nearestCPUs[llvmCPU]...) {
		for _, in := range infos {
			if in.LLVMCPU == cpu && in.Source != SourceMeasured {
				return in, true, nil
			}
		}
	}
	return ModelInfo{}, false, nil
}

// HostModelInfo describes the model HostModel returns without parsing
// it: the user's model of the signature (where is its path), else the
// embedded one ("embedded"); exact is false for a stand-in of another
// CPU, and the error says when there is none.
func HostModelInfo(signature, llvmCPU string) (info ModelInfo, where string, exact bool, err error) {
	if signature != "" {
		path, err := UserModelPath(signature)
		if err != nil {
			return ModelInfo{}, "", false, fmt.Errorf("the model of this host: %w", err)
		}
		if _, err := os.Stat(path); err == nil {
			info, err := userModelInfo(path)
			if err != nil {
				return ModelInfo{}, path, false, fmt.Errorf("the model of this host: %w", err)
			}
			info.Signature = signature
			return info, path, true, nil
		}
	}
	info, exact, err = NearestInfo(llvmCPU)
	return info, "embedded", exact, err
}
