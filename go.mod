module portlab

go 1.26.0

require (
	github.com/hodgesds/perf-utils v0.7.0
	github.com/twmb/murmur3 v1.2.2
	golang.org/x/arch v0.32.0
	golang.org/x/sys v0.49.0
	gonum.org/v1/gonum v0.17.0
	gopkg.in/yaml.v3 v3.0.1
)

require (
	go.uber.org/atomic v1.7.0 // indirect
	go.uber.org/multierr v1.6.0 // indirect
)
