# portlab — see README.md. Two commands set up and use a fresh machine:
#   make run    build, then characterise this host (cpu, forms, quick measurements)
#   make test   the test suite (what .ci/run runs)
GO      ?= go
BIN     := bin/portlab
PKGS    := ./...
# Measuring tests must not run in parallel with each other or with builds:
# the second vCPU is the measuring CPU's SMT sibling.
TESTFLAGS ?= -p 1 -count=1 -timeout 30m

.PHONY: all build run test bench lint fuzz deps clean

all: build

deps:
	@command -v as >/dev/null 2>&1 || { echo "GNU as missing: run 'sudo apt-get install -y binutils' (or .ci/run does it)"; exit 1; }
	$(GO) mod download

build: deps
	$(GO) build -o $(BIN) ./cmd/portlab

run: build
	$(BIN) cpu
	@echo
	$(BIN) forms --host --count
	@echo
	$(BIN) quick

test: deps
	$(GO) vet $(PKGS)
	@test -z "$$(gofmt -l . | tee /dev/stderr)" || { echo "gofmt: files above need formatting"; exit 1; }
	$(GO) build $(PKGS)
	$(GO) test $(TESTFLAGS) $(PKGS)
	$(MAKE) --no-print-directory fuzz

# Short fuzzing runs of the parsers (no panics on any input). A count, not a
# duration: with a duration Go 1.26's fuzz coordinator can fail a target with
# "context deadline exceeded" at the deadline and no crasher (golang/go#75804,
# fixed in Go 1.27; seen on the project's machines). About 3-6 s each there.
FUZZTIME ?= 40000x
fuzz:
	$(GO) test -p 1 -run '^$$' -fuzz '^FuzzParse$$' -fuzztime $(FUZZTIME) ./isa
	$(GO) test -p 1 -run '^$$' -fuzz '^FuzzDecode$$' -fuzztime $(FUZZTIME) ./isa
	$(GO) test -p 1 -run '^$$' -fuzz '^FuzzParse$$' -fuzztime $(FUZZTIME) ./modeldb

# Speed and accuracy benchmarks (figures quoted in docs/benchmarks.md). Measuring
# benchmarks run one at a time (-p 1); keep the machine otherwise idle.
bench: build
	$(GO) test -p 1 -run '^$$' -bench . -benchtime 20x ./measure ./perf
	$(GO) test -p 1 -run '^$$' -bench . ./cluster ./modeldb ./analysis ./cmd/portlab
	$(GO) run ./analysis/bench

lint:
	$(GO) vet $(PKGS)
	@test -z "$$(gofmt -l . | tee /dev/stderr)"

clean:
	rm -rf bin
