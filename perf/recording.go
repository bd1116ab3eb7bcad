package perf

import (
	"bufio"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"os"
)

// Recording is one benchmark's raw repetitions as the engine saw them,
// with the host and what the estimator made of them: enough to run any
// estimator on them again, offline. portlab writes recordings of the
// benchmarks a noisy host disturbed (`--record`), so that the noisy case
// stays testable on a quiet host; testdata/noise holds some.
type Recording struct {
	Name string `json:"name"` // the form and kind, or the snippet file
	// Source is the measured code: several benchmarks of one form and
	// kind (address shapes, the latency beside 512-bit work, ...) share a
	// name, and a recording names its benchmark with both.
	Source       string   `json:"source,omitempty"`
	Host         string   `json:"host"` // CPU signature
	Microarch    string   `json:"microarch,omitempty"`
	Date         string   `json:"date,omitempty"`
	Note         string   `json:"note,omitempty"` // conditions (a spinner beside, ...)
	Instructions int      `json:"instructions"`   // per snippet copy
	Layout       Layout   `json:"layout"`
	Timings      []Timing `json:"timings"`
	// Estimate is what the estimator gave when the recording was made
	// (cycles per instruction), and Known the value a quiet host measures,
	// when it is known (0: unknown).
	Estimate float64 `json:"estimate"`
	Known    float64 `json:"known,omitempty"`
	// TpReference is the run's throughput canary reference when the
	// benchmark completed (CanaryReference.Value, cycles per add; 0: none
	// yet, or a recording from before it was kept): a converged estimate
	// also needs Estimate.CanaryClear(References()).
	TpReference float64 `json:"tp_reference,omitempty"`
	// VecReference and LdReference are the vector and load canaries'
	// references the same way, where those canaries judge the benchmark
	// (Layout.VecSpan, LdSpan).
	VecReference float64 `json:"vec_reference,omitempty"`
	LdReference  float64 `json:"ld_reference,omitempty"`
}

// References are the run's canary references the recording carries.
func (r *Recording) References() References {
	return References{Tp: r.TpReference, Vec: r.VecReference, Ld: r.LdReference}
}

// WriteRecording appends r to w as one JSON line.
func WriteRecording(w io.Writer, r *Recording) error {
	data, err := json.Marshal(r)
	if err != nil {
		return err
	}
	_, err = w.Write(append(data, '\n'))
	return err
}

// ReadRecordings reads a file of recordings, one JSON object a line,
// gzip-compressed or not.
func ReadRecordings(path string) ([]*Recording, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return DecodeRecordings(f, path)
}

// DecodeRecordings reads recordings from r as ReadRecordings reads a
// file; name is what its errors call the input.
func DecodeRecordings(r io.Reader, name string) ([]*Recording, error) {
	br := bufio.NewReader(r)
	var in io.Reader = br
	if magic, _ := br.Peek(2); len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", name, err)
		}
		defer zr.Close()
		in = zr
	}
	var out []*Recording
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	line := 0
	for sc.Scan() {
		line++
		if len(sc.Bytes()) == 0 {
			continue
		}
		r := &Recording{}
		if err := json.Unmarshal(sc.Bytes(), r); err != nil {
			return nil, fmt.Errorf("%s:%d: %v", name, line, err)
		}
		if len(r.Timings) == 0 || r.Instructions <= 0 || r.Layout.CalibSpan <= 0 || r.Layout.Span <= 0 {
			return nil, fmt.Errorf("%s:%d: recording %q has no timings, instructions or layout", name, line, r.Name)
		}
		out = append(out, r)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	return out, nil
}
