package main

import (
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"portlab/hostcpu"
	"portlab/measure"
)

// cpuFlagHelp is the help of --cpu, shared by the measuring commands.
const cpuFlagHelp = "measure on this CPU alone (default: the last CPU and another of its kind on another core, moving between them away from a busy sibling)"

// cpuList says a list of CPUs: "1", "1 and 0", "1, 0 and 2".
func cpuList(cpus []int) string {
	s := make([]string, len(cpus))
	for i, c := range cpus {
		s[i] = strconv.Itoa(c)
	}
	if len(s) < 2 {
		return strings.Join(s, "")
	}
	return strings.Join(s[:len(s)-1], ", ") + " and " + s[len(s)-1]
}

// recordFlagHelp is the help of --record, shared by the measuring commands.
const recordFlagHelp = "write the raw repetitions (calibrations, canaries, timings) of the benchmarks the host disturbed to this file, one JSON line each, for estimator tests (see docs/method.md); a name ending in .gz is gzip-compressed"

// startRecording sets up --record: the engine writes into a temporary file
// beside path, renamed to path when finish is called with no error (an
// interrupted run leaves no partial file). all records every benchmark.
// A path ending in .gz is written gzip-compressed: the points of a
// repetition are ticks over loop counts that repeat from one repetition
// to the next, and a full sweep's recordings shrink about fifteen times.
func startRecording(eng *measure.Engine, info *hostcpu.Info, path string, all bool, note string, stderr io.Writer) (finish func(failed error) error, err error) {
	if path == "" {
		return func(error) error { return nil }, nil
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return nil, fmt.Errorf("--record %s: %v", path, err)
	}
	var w io.Writer = tmp
	var zw *gzip.Writer
	if strings.HasSuffix(path, ".gz") {
		zw = gzip.NewWriter(tmp)
		w = zw
	}
	eng.Recorder = &measure.Recorder{W: w, All: all, Host: info.Signature(), Microarch: info.Microarch, Note: note}
	return func(failed error) error {
		rec := eng.Recorder
		eng.Recorder = nil
		err := rec.Err
		if zw != nil {
			if zerr := zw.Close(); err == nil {
				err = zerr
			}
		}
		if cerr := tmp.Close(); err == nil {
			err = cerr
		}
		if failed != nil || err != nil {
			os.Remove(tmp.Name())
			if err != nil {
				return fmt.Errorf("--record %s: %v", path, err)
			}
			return nil
		}
		if err := os.Rename(tmp.Name(), path); err != nil {
			os.Remove(tmp.Name())
			return fmt.Errorf("--record %s: %v", path, err)
		}
		fmt.Fprintf(stderr, "portlab: %d recording(s) written to %s\n", rec.Written, path)
		return nil
	}, nil
}
