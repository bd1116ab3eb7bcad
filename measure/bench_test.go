package measure

import (
	"fmt"
	"testing"
)

// BenchmarkMeasureSingle is the cost of one latency measurement of a
// single-instruction snippet with a warm worker and assembler cache
// (target: under 50 ms).
func BenchmarkMeasureSingle(b *testing.B) {
	e, _ := hostEngine(b)
	s := snippet(b, "add rax, rax")
	e.Measure(s, Options{})
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if m := e.Measure(s, Options{}); m.Err != nil {
			b.Fatal(m.Err)
		}
	}
}

// BenchmarkMeasureSingleUncached includes assembling the snippet (a fresh
// source every time, so the cache never hits).
func BenchmarkMeasureSingleUncached(b *testing.B) {
	e, _ := hostEngine(b)
	for i := 0; i < b.N; i++ {
		s := snippet(b, fmt.Sprintf("add rax, %d", 1000+i+b.N*7))
		if m := e.Measure(s, Options{}); m.Err != nil {
			b.Fatal(m.Err)
		}
	}
}

// BenchmarkCrash is the cost of a snippet that faults: the crash report and
// a fresh worker for the next job (target: under 20 ms).
func BenchmarkCrash(b *testing.B) {
	e, _ := hostEngine(b)
	s := snippet(b, "ud2")
	for i := 0; i < b.N; i++ {
		if m := e.Measure(s, Options{}); m.Err == nil {
			b.Fatal("ud2 did not crash")
		}
	}
}

// BenchmarkAccuracy reports the engine's numbers for well-known snippets as
// metrics (cycles per instruction, median of clean repetitions), and the
// repeatability of two consecutive runs.
func BenchmarkAccuracy(b *testing.B) {
	e, info := hostEngine(b)
	cases := []struct {
		name, src, mode string
		self            bool
	}{
		{"add-lat", "add rax, rax", "latency", false},
		{"imul-lat", "imul rax, rax", "latency", false},
		{"imul-tp", "imul rcx, rax\nimul rdx, rax\nimul rbx, rax\nimul rsi, rax", "inverse_throughput", false},
		{"load-lat", "mov rax, [rax]", "latency", true},
		{"load-tp", "mov rcx, [rdi]\nmov rdx, [rdi+8]\nmov rbx, [rdi+16]\nmov rsi, [rdi+24]\nmov r9, [rdi+32]\nmov r10, [rdi+40]", "inverse_throughput", false},
		{"store-tp", "mov [rdi], rax\nmov [rdi+8], rax\nmov [rdi+16], rax\nmov [rdi+24], rax", "inverse_throughput", false},
	}
	if info.Has("avx") {
		cases = append(cases,
			struct {
				name, src, mode string
				self            bool
			}{"vaddpd-ymm-lat", "vaddpd ymm0, ymm0, ymm1", "latency", false},
			struct {
				name, src, mode string
				self            bool
			}{"vaddpd-ymm-tp", "vaddpd ymm2, ymm1, ymm1\nvaddpd ymm3, ymm1, ymm1\nvaddpd ymm4, ymm1, ymm1\nvaddpd ymm5, ymm1, ymm1\nvaddpd ymm6, ymm1, ymm1\nvaddpd ymm7, ymm1, ymm1\nvaddpd ymm8, ymm1, ymm1\nvaddpd ymm9, ymm1, ymm1", "inverse_throughput", false})
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			s := snippet(b, c.src)
			s.ScratchSelf = c.self
			var last, spread float64
			for i := 0; i < b.N; i++ {
				m1 := e.Measure(s, Options{Mode: c.mode})
				m2 := e.Measure(s, Options{Mode: c.mode})
				if m1.Err != nil || m2.Err != nil {
					b.Fatal(m1.Err, m2.Err)
				}
				last = m1.PerInstr.Median
				d := (m1.PerInstr.Median - m2.PerInstr.Median) / m1.PerInstr.Median
				if d < 0 {
					d = -d
				}
				if d > spread {
					spread = d
				}
			}
			b.ReportMetric(last, "cycles")
			b.ReportMetric(100*spread, "%repeat")
		})
	}
}
