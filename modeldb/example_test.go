package modeldb_test

import (
	"fmt"

	"portlab/modeldb"
)

// Two uops that must run on ports 0 or 1 and one that may run on any of
// 0, 1, 5, 6: the flexible one goes to 5 or 6, and the busiest ports
// carry one cycle each.
func ExampleBalance() {
	b, err := modeldb.Balance([]string{"0", "1", "5", "6"}, []modeldb.PortUse{
		{Cycles: 2, Ports: []string{"0", "1"}},
		{Cycles: 1, Ports: []string{"0", "1", "5", "6"}},
	})
	if err != nil {
		panic(err)
	}
	fmt.Println(b.Cycles, b.Bottleneck)
	// Output: 1 [0 1]
}

func ExamplePredictThroughput() {
	m, err := modeldb.Parse("example.yml", []byte(`
ports: ['0', '1', '2', '3']
dispatched_uops_per_cycle: 4
instruction_forms:
  - {form: 'vaddpd ymm, ymm, ymm', uops: 1, latency: 3, throughput: 0.5, port_pressure: [[1, '23']]}
  - {form: 'vmulpd ymm, ymm, ymm', uops: 1, latency: 3, throughput: 0.5, port_pressure: [[1, '01']]}
  - {form: 'vfmadd231pd ymm, ymm, ymm', uops: 1, latency: 4, throughput: 0.5, port_pressure: [[1, '01']]}
`), modeldb.LoadOptions{})
	if err != nil {
		panic(err)
	}
	// Adds and multiplies overlap; FMAs and multiplies compete.
	fmt.Println(modeldb.PredictThroughput(m, []modeldb.MixPart{{Form: "vaddpd ymm, ymm, ymm", Count: 2}, {Form: "vmulpd ymm, ymm, ymm", Count: 2}}))
	fmt.Println(modeldb.PredictThroughput(m, []modeldb.MixPart{{Form: "vfmadd231pd ymm, ymm, ymm", Count: 2}, {Form: "vmulpd ymm, ymm, ymm", Count: 2}}))
	// Output:
	// 1
	// 2
}
