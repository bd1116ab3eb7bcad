package analysis

import (
	"bufio"
	"bytes"
	"os"
	"testing"

	"portlab/analysis/input"
	"portlab/isa"
	"portlab/modeldb"
)

// benchBlocks reads the committed random blocks (go run ./analysis/bench
// -gen regenerates them).
func benchBlocks(b *testing.B) [][]*isa.Inst {
	data, err := os.ReadFile("../testdata/kernels/analysis/bench/blocks.csv")
	if err != nil {
		b.Skip(err)
	}
	regions, err := input.Hex("blocks.csv", data)
	if err != nil {
		b.Fatal(err)
	}
	var out [][]*isa.Inst
	for _, r := range regions {
		out = append(out, r.Insts)
	}
	return out
}

// benchModel is the hand-made model widened with every form of the
// blocks, made up from the forms' operand kinds, so that the benchmark
// needs no llvm-mca.
func benchModel(b *testing.B, blocks [][]*isa.Inst) *modeldb.Model {
	m, err := modeldb.Load("../testdata/kernels/analysis/models/handcore.yml")
	if err != nil {
		b.Fatal(err)
	}
	for _, blk := range blocks {
		for _, in := range blk {
			name := in.Form.Name()
			if _, ok := m.Lookup(name); ok {
				continue
			}
			e := &modeldb.Entry{Form: name, Uops: 1, Latency: 3, Throughput: 0.5,
				PortPressure: modeldb.PortPressure{{Cycles: 1, Ports: []string{"F0", "F1"}}}}
			if in.Form.HasMemory() {
				e.Uops, e.Latency = 2, 7
				e.PortPressure = append(e.PortPressure, modeldb.PortUse{Cycles: 1, Ports: []string{"L0", "L1"}})
			}
			m.Put(e)
		}
	}
	return m
}

// BenchmarkBatch is --batch's inner loop: 100 iterations of a random block
// of 5-20 instructions (decoded beforehand).
func BenchmarkBatch(b *testing.B) {
	blocks := benchBlocks(b)
	m := benchModel(b, blocks)
	bt, err := NewBatch(m, Options{Iterations: 100})
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := bt.Predict(blocks[i%len(blocks)]); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "blocks/s")
}

// BenchmarkBatchDecode adds decoding the hex text, as --batch does.
func BenchmarkBatchDecode(b *testing.B) {
	blocks := benchBlocks(b)
	m := benchModel(b, blocks)
	data, _ := os.ReadFile("../testdata/kernels/analysis/bench/blocks.csv")
	var lines [][]byte
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		if code, ok, _ := input.HexLine(sc.Text()); ok {
			lines = append(lines, code)
		}
	}
	bt, err := NewBatch(m, Options{Iterations: 100})
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := bt.PredictCode(lines[i%len(lines)]); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "blocks/s")
}

// BenchmarkSmallFile is the work of 'portlab analyze' on a small file
// with every default view: parse, build, static analysis, simulation with
// views, text output.
func BenchmarkSmallFile(b *testing.B) {
	src, err := os.ReadFile("../testdata/kernels/analysis/daxpy.s")
	if err != nil {
		b.Skip(err)
	}
	m, err := modeldb.Load("../testdata/kernels/analysis/models/handcore.yml")
	if err != nil {
		b.Fatal(err)
	}
	for i := 0; i < b.N; i++ {
		regs, err := input.Assembly("daxpy.s", src, nil)
		if err != nil {
			b.Fatal(err)
		}
		bl, _ := NewBuilder(m)
		var reps []*Report
		for _, r := range regs {
			k, err := bl.Kernel(r)
			if err != nil {
				b.Fatal(err)
			}
			rep, err := Analyze(k, Options{}, DefaultViews())
			if err != nil {
				b.Fatal(err)
			}
			reps = append(reps, rep)
		}
		var out bytes.Buffer
		PrintText(&out, reps)
	}
}
