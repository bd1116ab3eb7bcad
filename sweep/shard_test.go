package sweep

import (
	"math/rand"
	"strings"
	"testing"

	"portlab/isa"
)

func TestFormCost(t *testing.T) {
	cost := func(name string, m CostModes) float64 {
		t.Helper()
		f, ok := isa.Lookup(name)
		if !ok {
			t.Fatalf("no form %q", name)
		}
		return FormCost(f, m)
	}
	add := cost("add r64, r64", DefaultCostModes)
	// Every benchmark counts: add has latency pairs, a throughput and
	// idiom variants.
	if add < 2 {
		t.Errorf("add r64, r64 costs %.2f, want the cost of its benchmarks (>= 2)", add)
	}
	if tp := cost("add r64, r64", CostModes{Throughput: true}); tp >= add {
		t.Errorf("throughput only %.2f, want less than latency and throughput %.2f", tp, add)
	}
	if p := cost("add r64, r64", CostModes{Latency: true, Throughput: true, Probes: 12}); p < add+12 {
		t.Errorf("ports mode %.2f, want 12 mixes more than %.2f", p, add)
	}
	// Instructions that outlast the timed window weigh more per benchmark.
	if c := cost("cpuid", DefaultCostModes); c < 10*add {
		t.Errorf("cpuid costs %.2f, want far more than add (%.2f)", c, add)
	}
	if c := cost("rdseed r64", DefaultCostModes); c < 2*cost("rdtsc", DefaultCostModes) {
		t.Errorf("rdseed costs %.2f, want more than rdtsc", c)
	}
	// Forms recorded with a reason cost next to nothing.
	if c := cost("hlt", DefaultCostModes); c > 0.1 {
		t.Errorf("hlt (privileged) costs %.2f", c)
	}
}

func loads(t *testing.T, shards []Shard, cost func(*isa.Form) float64, keep func(*isa.Form) bool) (lo, hi float64) {
	t.Helper()
	for i, s := range shards {
		sum := 0.0
		for _, f := range s.Forms {
			if keep == nil || keep(f) {
				sum += cost(f)
			}
		}
		if i == 0 || sum < lo {
			lo = sum
		}
		if sum > hi {
			hi = sum
		}
	}
	return lo, hi
}

// Shards of the whole catalog are balanced by cost, for the catalog and for
// a host that runs only part of it, and far better than dealing forms out
// by name would do.
func TestShardsBalancedByCost(t *testing.T) {
	all, err := Select(nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	costs := map[*isa.Form]float64{}
	for _, f := range all {
		costs[f] = FormCost(f, DefaultCostModes)
	}
	cost := func(f *isa.Form) float64 { return costs[f] }
	noAVX512 := func(f *isa.Form) bool {
		for _, ft := range f.Features {
			if strings.HasPrefix(ft, "avx512") {
				return false
			}
		}
		return true
	}
	for _, c := range []struct {
		n                int
		catalog, partial float64 // worst max/min cost allowed
	}{{4, 1.005, 1.01}, {16, 1.01, 1.05}} {
		shards := AssignShards(all, c.n, cost)
		lo, hi := loads(t, shards, cost, nil)
		t.Logf("n=%d: catalog max/min cost %.1f/%.1f = %.4f", c.n, hi, lo, hi/lo)
		if hi/lo > c.catalog {
			t.Errorf("n=%d: shard costs from %.1f to %.1f (max/min %.4f > %.3f)", c.n, lo, hi, hi/lo, c.catalog)
		}
		plo, phi := loads(t, shards, cost, noAVX512)
		t.Logf("n=%d: host without AVX-512 max/min cost %.1f/%.1f = %.4f", c.n, phi, plo, phi/plo)
		if phi/plo > c.partial {
			t.Errorf("n=%d, host without AVX-512: shard costs from %.1f to %.1f (max/min %.4f > %.3f)", c.n, plo, phi, phi/plo, c.partial)
		}
		// Round robin by name, for comparison.
		rr := make([]Shard, c.n)
		for i, f := range all {
			rr[i%c.n].Forms = append(rr[i%c.n].Forms, f)
		}
		rlo, rhi := loads(t, rr, cost, noAVX512)
		if rhi/rlo < phi/plo {
			t.Errorf("n=%d: round robin (%.4f) balances a partial host better than cost (%.4f)", c.n, rhi/rlo, phi/plo)
		}
		total := 0.0
		for _, s := range shards {
			total += s.Cost
		}
		if want := hi * float64(c.n); total > want+1 {
			t.Errorf("shard costs add to %.1f, more than n*max %.1f", total, want)
		}
	}
}

// Shards partition the forms, and the same set of forms gives the same
// shards whatever its order.
func TestShardsDeterministic(t *testing.T) {
	forms, err := Select([]string{"add *", "imul *", "vaddpd *", "div *", "cpuid", "rdseed *", "hlt"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	const n = 5
	name := func(shards []Shard) [][]string {
		var out [][]string
		for _, s := range shards {
			var ns []string
			for _, f := range s.Forms {
				ns = append(ns, f.Name())
			}
			out = append(out, ns)
		}
		return out
	}
	cost := func(f *isa.Form) float64 { return FormCost(f, DefaultCostModes) }
	want := name(AssignShards(forms, n, cost))
	seen := map[string]int{}
	for _, s := range want {
		for _, f := range s {
			seen[f]++
		}
	}
	for _, f := range forms {
		if seen[f.Name()] != 1 {
			t.Errorf("%s is in %d shards", f.Name(), seen[f.Name()])
		}
	}
	rng := rand.New(rand.NewSource(1))
	for try := 0; try < 3; try++ {
		shuffled := append([]*isa.Form(nil), forms...)
		rng.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
		shuffled = append(shuffled, shuffled[0]) // a duplicate changes nothing
		got := name(AssignShards(shuffled, n, cost))
		for i := range want {
			if strings.Join(got[i], "; ") != strings.Join(want[i], "; ") {
				t.Fatalf("shard %d depends on the order of the forms:\n got %v\nwant %v", i, got[i], want[i])
			}
		}
	}
	for i := 0; i < n; i++ {
		if got := ShardFormsByCost(forms, i, n, cost); len(got) != len(want[i]) {
			t.Errorf("ShardFormsByCost(%d/%d): %d forms, want %d", i, n, len(got), len(want[i]))
		}
	}
	if ShardFormsByCost(forms, n, n, cost) != nil {
		t.Error("shard n of n is not empty")
	}
}

func env(kv ...string) func(string) string {
	m := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return func(k string) string { return m[k] }
}

func TestAutoShard(t *testing.T) {
	for _, c := range []struct {
		name   string
		env    func(string) string
		shards int
		i, n   int
		err    string // substring of the error, "" = none
	}{
		{"slurm count", env("SLURM_ARRAY_TASK_ID", "3", "SLURM_ARRAY_TASK_COUNT", "8"), 0, 3, 8, ""},
		{"slurm min/max", env("SLURM_ARRAY_TASK_ID", "3", "SLURM_ARRAY_TASK_MIN", "0", "SLURM_ARRAY_TASK_MAX", "7"), 0, 3, 8, ""},
		{"slurm 1-based", env("SLURM_ARRAY_TASK_ID", "1", "SLURM_ARRAY_TASK_MIN", "1", "SLURM_ARRAY_TASK_MAX", "4", "SLURM_ARRAY_TASK_COUNT", "4"), 0, 0, 4, ""},
		{"slurm stepped", env("SLURM_ARRAY_TASK_ID", "6", "SLURM_ARRAY_TASK_MIN", "0", "SLURM_ARRAY_TASK_MAX", "6", "SLURM_ARRAY_TASK_STEP", "2", "SLURM_ARRAY_TASK_COUNT", "4"), 0, 3, 4, ""},
		{"slurm with agreeing --shards", env("SLURM_ARRAY_TASK_ID", "0", "SLURM_ARRAY_TASK_COUNT", "2"), 2, 0, 2, ""},
		{"kubernetes flag", env("JOB_COMPLETION_INDEX", "5"), 16, 5, 16, ""},
		{"kubernetes env", env("JOB_COMPLETION_INDEX", "0", "PORTLAB_SHARDS", "4"), 0, 0, 4, ""},
		{"kubernetes flag and env agree", env("JOB_COMPLETION_INDEX", "1", "PORTLAB_SHARDS", "4"), 4, 1, 4, ""},

		{"nothing", env(), 0, 0, 0, "SLURM_ARRAY_TASK_ID"},
		{"nothing names k8s too", env(), 0, 0, 0, "JOB_COMPLETION_INDEX"},
		{"plain slurm job", env("SLURM_JOB_ID", "77"), 0, 0, 0, "--array"},
		{"slurm without count", env("SLURM_ARRAY_TASK_ID", "3"), 0, 0, 0, "SLURM_ARRAY_TASK_COUNT or SLURM_ARRAY_TASK_MAX"},
		{"slurm id out of range", env("SLURM_ARRAY_TASK_ID", "4", "SLURM_ARRAY_TASK_COUNT", "4"), 0, 0, 0, "SLURM_ARRAY_TASK_ID=4"},
		{"slurm list", env("SLURM_ARRAY_TASK_ID", "2", "SLURM_ARRAY_TASK_MIN", "1", "SLURM_ARRAY_TASK_MAX", "7", "SLURM_ARRAY_TASK_COUNT", "3"), 0, 0, 0, "evenly stepped"},
		{"slurm bad number", env("SLURM_ARRAY_TASK_ID", "x", "SLURM_ARRAY_TASK_COUNT", "4"), 0, 0, 0, `SLURM_ARRAY_TASK_ID="x"`},
		{"slurm disagrees with --shards", env("SLURM_ARRAY_TASK_ID", "0", "SLURM_ARRAY_TASK_COUNT", "4"), 8, 0, 0, "--shards 8 says 8 shards but the Slurm array has 4"},
		{"kubernetes without count", env("JOB_COMPLETION_INDEX", "2"), 0, 0, 0, "PORTLAB_SHARDS"},
		{"kubernetes index too big", env("JOB_COMPLETION_INDEX", "4", "PORTLAB_SHARDS", "4"), 0, 0, 0, "JOB_COMPLETION_INDEX=4 is not below the shard count 4"},
		{"flag and env disagree", env("JOB_COMPLETION_INDEX", "1", "PORTLAB_SHARDS", "4"), 5, 0, 0, "--shards 5 disagrees with PORTLAB_SHARDS=4"},
		{"bad PORTLAB_SHARDS", env("JOB_COMPLETION_INDEX", "1", "PORTLAB_SHARDS", "0"), 0, 0, 0, "PORTLAB_SHARDS=0"},
		{"both engines", env("JOB_COMPLETION_INDEX", "1", "SLURM_ARRAY_TASK_ID", "1", "SLURM_ARRAY_TASK_COUNT", "2"), 2, 0, 0, "both"},
	} {
		s, err := AutoShard(c.env, c.shards)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s: error %v, want one containing %q", c.name, err, c.err)
			}
			continue
		}
		if err != nil || s.Index != c.i || s.Count != c.n {
			t.Errorf("%s: %+v %v, want %d/%d", c.name, s, err, c.i, c.n)
		}
		if s.Source == "" {
			t.Errorf("%s: no source", c.name)
		}
	}
}

func TestNodeName(t *testing.T) {
	if got := NodeName(env("PORTLAB_NODE", "k8s-node-1", "SLURMD_NODENAME", "cn01")); got != "k8s-node-1" {
		t.Errorf("PORTLAB_NODE: %q", got)
	}
	if got := NodeName(env("SLURMD_NODENAME", "cn01")); got != "cn01" {
		t.Errorf("SLURMD_NODENAME: %q", got)
	}
	if got := NodeName(env()); got == "" {
		t.Error("no host name")
	}
}
