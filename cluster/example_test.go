package cluster_test

import (
	"bytes"
	"fmt"
	"strings"

	"portlab/cluster"
)

// Cluster an llvm-exegesis result file as `llvm-exegesis -mode=analysis`
// would and list the clusters.
func ExampleRun() {
	points, err := cluster.Load("../testdata/exegesis/cluster-latency.yaml")
	if err != nil {
		fmt.Println(err)
		return
	}
	c, err := cluster.Run(points, cluster.Options{Epsilon: 0.1, MinPoints: 3})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, cl := range c.Clusters {
		if len(cl.Points) == 0 {
			continue
		}
		mean, _, _ := cluster.Centroid(points, cl.Points)
		ops := map[string]bool{}
		var list []string
		for _, i := range cl.Points {
			if op := points[i].Opcode; !ops[op] {
				ops[op] = true
				list = append(list, op)
			}
		}
		fmt.Printf("cluster %d (unstable %v): %d points, %.2f cycles: %v\n", cl.ID, cl.Unstable, len(cl.Points), mean[0], list)
	}
	fmt.Printf("noise: %d, errors: %d\n", len(c.Noise), len(c.Errors))
	// Output:
	// cluster 0 (unstable false): 6 points, 1.02 cycles: [ADD64rr XOR32rr LEA64r]
	// cluster 1 (unstable false): 4 points, 3.01 cycles: [IMUL64rr VADDPDYrr]
	// cluster 3 (unstable false): 3 points, 4.03 cycles: [MOV64rm]
	// cluster 4 (unstable true): 5 points, 1.61 cycles: [SHL64rCL]
	// noise: 2, errors: 1
}

// Write exegesis's clusters CSV (lines shown between bars: each cluster is
// followed by two empty lines, as exegesis writes it).
func ExampleWriteCSV() {
	points, _ := cluster.Load("../testdata/exegesis/exegesis-results.yaml")
	c, _ := cluster.Run(points, cluster.Options{MinPoints: 1})
	var buf bytes.Buffer
	cluster.WriteCSV(&buf, c, nil)
	for _, l := range strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n") {
		fmt.Printf("|%s|\n", l)
	}
	// Output:
	// |cluster_id,opcode_name,config,sched_class,latency|
	// |0,ADD64rr,,,1.0027|
	// ||
	// ||
	// ||
	// |cluster_id,opcode_name,config,sched_class,inverse_throughput|
	// |1,VADDPDYrr,,,0.5012|
	// ||
	// ||
}
