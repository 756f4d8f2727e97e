# The two commands a newcomer needs (see README.md):
#   make demo   install what is missing, build, symbolicate a bundled crash report
#   make test   install what is missing, run the whole test suite
SWIFT ?= swift
DEMO_REPORT ?= Fixtures/reports/swift-trap.ips
DEMO_DSYMS ?= Fixtures/dsyms

.PHONY: setup setup-test build demo test bench bench-lookup bench-batch fixtures clean

# Build dependencies only (libdwarf, libelf, zlib).
setup:
	@SYMBOLICATE_WITH_ORACLE=0 scripts/setup.sh

# Plus llvm-19 (llvm-symbolizer-19), the oracle of the differential tests.
setup-test:
	@scripts/setup.sh

build: setup
	$(SWIFT) build -c release --product symbolicate

demo: build
	.build/release/symbolicate --explain $(DEMO_REPORT) $(DEMO_DSYMS)

test: setup-test
	$(SWIFT) test

# Benchmarks (not tests): ratios against llvm-symbolizer-19, and batch throughput.
bench: bench-lookup bench-batch

bench-lookup: build
	Benchmarks/run.sh

bench-batch: build
	SYMBOLICATE_BIN=.build/release/symbolicate Benchmarks/batch/run.sh

fixtures:
	Fixtures/generate.sh

clean:
	rm -rf .build
