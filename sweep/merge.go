package sweep

import (
	"fmt"
	"sort"
	"strings"

	"portlab/measure"
	"portlab/results"
)

// resultKey identifies a result for merging: portlab's content ID, or for
// results without one (llvm-exegesis's) the mode, instructions and set-up.
func resultKey(b *results.Benchmark) string {
	if b.Portlab != nil && b.Portlab.ID != "" {
		return b.Portlab.ID
	}
	return measure.ContentID(b.Mode, strings.Join(b.Key.Instructions, "\n"), append(b.Key.RegisterInitialValues, b.Key.Config))
}

// Merge joins result files: duplicates (the same benchmark measured twice,
// as when a shard is merged twice) are kept once, the first seen. Results
// from different CPU types are refused unless allowMixed, since one model
// must not silently mix them; the error names the hosts.
func Merge(parts [][]*results.Benchmark, allowMixed bool) ([]*results.Benchmark, error) {
	seen := map[string]bool{}
	hosts := map[string]int{}
	var out []*results.Benchmark
	for _, part := range parts {
		for _, b := range part {
			k := resultKey(b)
			if seen[k] {
				continue
			}
			seen[k] = true
			out = append(out, b)
			if b.Portlab != nil && b.Portlab.Host != "" {
				hosts[b.Portlab.Host]++
			}
		}
	}
	if len(hosts) > 1 && !allowMixed {
		var hs []string
		for h, n := range hosts {
			hs = append(hs, fmt.Sprintf("%s (%d results)", h, n))
		}
		sort.Strings(hs)
		return nil, fmt.Errorf("results come from %d CPU types: %s; merge each type separately (or pass --allow-mixed)", len(hosts), strings.Join(hs, ", "))
	}
	sort.SliceStable(out, func(i, j int) bool { return sortKey(out[i]) < sortKey(out[j]) })
	return out, nil
}

func sortKey(b *results.Benchmark) string {
	if b.Portlab != nil {
		return b.Portlab.Form + "\x00" + b.Portlab.Kind + "\x00" + b.Portlab.Operands + "\x00" + b.Portlab.ID
	}
	return strings.Join(b.Key.Instructions, "\n")
}
