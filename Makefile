# The two commands a newcomer needs (see README.md):
#   make demo   install what is missing, build, symbolicate a bundled crash report
#   make test   install what is missing, build strictly (see strict-build), run the whole test suite
#               (beside a throwaway PostgreSQL on loopback: scripts/with-postgres.sh)
#   make test-libdwarf-current   the Mac-shaped lane: libdwarf 0.11.1 built from source, the Swift ELF
#                                reader, no libelf, 512 KiB thread stacks (CI runs both)
# Shipping (README "Install"):
#   make release             self-contained Linux binary + man page + completions in dist/*.tar.gz
#   make release-check       make release, then prove the tarball runs without the toolchain
#   make install PREFIX=…    binary, man page, bash/zsh/fish completions (default /usr/local)
#   make uninstall PREFIX=…  remove exactly those files
# Fuzzing (Fuzz/README.md):
#   make fuzz                coverage-guided fuzzing of the parsers, FUZZ_SECONDS (300) per target
#   make fuzz-smoke          what CI runs: regression inputs, then 10 s per target
SWIFT ?= swift
DEMO_REPORT ?= Fixtures/reports/swift-trap.ips
DEMO_DSYMS ?= Fixtures/dsyms

.PHONY: setup setup-test setup-release build demo test bench bench-lookup bench-audit bench-batch bench-batch-memory bench-system-symbols fixtures clean \
	release release-check install uninstall fuzz fuzz-smoke

PREFIX ?= /usr/local
DESTDIR ?=
# The binary `make install` copies; default: the release build of this checkout.
SYMBOLICATE_BIN ?= .build/release/symbolicate

# Build dependencies only (libdwarf, libelf, zlib).
setup:
	@SYMBOLICATE_WITH_ORACLE=0 scripts/setup.sh

# Plus llvm-19 (llvm-symbolizer-19), the oracle of the differential tests.
setup-test:
	@scripts/setup.sh

# Release builds on Linux link the Swift runtime and Foundation into the binary and let lld pack the
# relative relocations (DT_RELR, glibc >= 2.36): a run then loads and relocates far fewer pages before
# it starts, most of what a one-address lookup costs (Benchmarks/README.md). scripts/release.sh links so too.
ifeq ($(shell uname -s),Linux)
RELEASE_LINK_FLAGS ?= --static-swift-stdlib -Xswiftc -use-ld=lld -Xlinker -z -Xlinker pack-relative-relocs
endif

build: setup
	$(SWIFT) build -c release --product symbolicate $(RELEASE_LINK_FLAGS)

# The demo builds only what it runs: none of the package's traits (Package.swift), so no HTTP server,
# TLS, PostgreSQL, SQLite or HTTP client is compiled, as a debug build (no optimiser) in its own
# scratch folder (another trait set is another build of every module: sharing .build would redo it each
# time). The first run from a fresh clone: Benchmarks/README.md, "Build". scripts/test-demo.sh checks it.
DEMO_BUILD ?= .build-demo
demo: setup
	$(SWIFT) build --product symbolicate --disable-default-traits --scratch-path $(DEMO_BUILD)
	$(DEMO_BUILD)/debug/symbolicate --explain $(DEMO_REPORT) $(DEMO_DSYMS)

# CI's check of the demo build: its output, what it compiled, what it says for what it left out.
.PHONY: demo-check
demo-check:
	DEMO_BUILD=$(DEMO_BUILD) scripts/test-demo.sh

# The build CI runs: our code warning-free (-warnings-as-errors) and no target importing a
# package target it does not depend on. `make test` builds this way once and tests that build.
STRICT_FLAGS = -Xswiftc -warnings-as-errors --explicit-target-dependency-import-check error

.PHONY: strict-build format format-check architecture catalogs
# Formatting (.swift-format): check a formatted copy (CI), or format the checkout. CI's format-check
# also holds the package to its manifest: declared dependencies = imported modules, a test target per
# library target, and ARCHITECTURE.md's module graph as Package.swift draws it (scripts/check-architecture.py);
# and fails when a test compares a measured duration with a limit (scripts/check-timing-tests.py, issue 39);
# and catches on Linux what Apple's SDK refuses (scripts/check-mac-sdk.py) and files that ship the
# tool disagreeing with each other (scripts/check-release-files.py), issue 50.
format-check:
	scripts/check-format.sh
	python3 scripts/generate-catalogs.py --check
	python3 scripts/check-architecture.py
	python3 scripts/check-timing-tests.py Tests
	python3 scripts/check-mac-sdk.py
	python3 scripts/check-release-files.py

# Rewrite ARCHITECTURE.md's module graph from Package.swift.
architecture:
	python3 scripts/check-architecture.py --write

# The catalogs, data to Swift: explain's Sources/SymbolicateExplain/Catalogs/*.json (every text by ID, all languages
# side by side, with its tags) -> Sources/SymbolicateExplain/Generated/*.swift, and the throw-site catalogue
# Sources/SymbolicateThrowSites/Catalogs/throw-sites.json -> its Generated/ table: one generator, one convention.
# Run after editing a data file; CI fails on stale tables (CatalogTests and format-check).
catalogs:
	python3 scripts/generate-catalogs.py

format:
	scripts/check-format.sh --fix

strict-build:
	$(SWIFT) build --build-tests $(STRICT_FLAGS)

test: setup-test
	$(SWIFT) build --build-tests $(STRICT_FLAGS)
	scripts/with-postgres.sh $(MAKE) test-suite
	$(MAKE) test-browser

# The whole suite, beside the throwaway PostgreSQL scripts/with-postgres.sh starts on loopback: the
# store's PostgreSQL index is tested against it, never skipped here (a plain `swift test` skips
# those tests and says so). The tests' temporary files go to a folder of the run's own, removed
# when it ends, pass or fail: the machine's temporary folder is left as it was.
# Three runs of the one build: the in-process servers' suites (SymbolicateServeTests) run after the
# rest, in a process of their own. Everything else runs at once, and the CPU-bound tests hold
# both of a 2-core machine's task threads for tens of seconds at a time; a server starved that
# long answers past its timeouts (CI on 2026-12-01). A run's failure still runs the next, and the
# target fails if any did.
# The real binary's serve tests (ServeProcessTests: where it listens, how SIGTERM ends it) run last,
# alone: beside the in-process servers' suites, the server they start ended at SIGTERM with a request
# under way (CI and this checkout on 2026-12-02; alone, and beside four busy loops, it never did).
SERVE_SUITES = ^SymbolicateServeTests\.
SERVE_PROCESS = ^SymbolicateServeTests\.ServeProcessTests
.PHONY: test-suite
test-suite:
	@test -n "$$SYMBOLICATE_TEST_POSTGRES_URL" || { echo "make test-suite: SYMBOLICATE_TEST_POSTGRES_URL is not set: run it as scripts/with-postgres.sh make test-suite" >&2; exit 1; }
	@scratch=$$(mktemp -d "$${TMPDIR:-/tmp}/symbolicate-tests.XXXXXX") && trap 'rm -rf "$$scratch"' EXIT INT TERM && \
		status=0 && \
		{ TMPDIR="$$scratch/" $(SWIFT) test --skip-build --skip '$(SERVE_SUITES)' || status=$$?; } && \
		{ TMPDIR="$$scratch/" $(SWIFT) test --skip-build --filter '$(SERVE_SUITES)' --skip '$(SERVE_PROCESS)' || status=$$?; } && \
		{ TMPDIR="$$scratch/" $(SWIFT) test --skip-build --filter '$(SERVE_PROCESS)' || status=$$?; } && \
		exit $$status

# The `symbolicate serve` page in headless chromium (selenium): paste a report, check the frame
# and the highlighted crashed thread, download the .crash; screenshots in .build/artifacts/.
.PHONY: test-browser bench-serve bench-serve-abuse
test-browser:
	python3 Tests/Browser/page_test.py $$($(SWIFT) build --show-bin-path)/symbolicate
	python3 Tests/Browser/inbox_page_test.py $$($(SWIFT) build --show-bin-path)/symbolicate

# Load benchmark of `symbolicate serve` (wrk; Benchmarks/README.md, "Serve").
bench-serve: build
	Benchmarks/serve/run.sh

# Flood and slow clients against `symbolicate serve`: memory before/after, another client answered.
bench-serve-abuse: build
	Benchmarks/serve/abuse.py

# The Mac-shaped lane: the same strict build and the suite's targets that meet its differences against libdwarf 0.11.1 (the 0.x/2.x API
# Homebrew ships), built from Debian trixie's source tarball into .build-libdwarf-current/prefix (cached
# there), with the pure-Swift ELF reader and no libelf linked, 512 KiB thread stacks and TMPDIR through
# a symlink, as on macOS.
# It builds in .build, redoing the targets that import libdwarf or read ELF (scripts/test-libdwarf-current.sh).
.PHONY: test-libdwarf-current
test-libdwarf-current: setup-test
	SWIFT=$(SWIFT) scripts/test-libdwarf-current.sh

# Build dependencies plus what packing needs (binutils: strip, readelf; the static archives
# come with the -dev packages).
setup-release:
	@SYMBOLICATE_WITH_ORACLE=0 SYMBOLICATE_WITH_RELEASE=1 scripts/setup.sh

release: setup-release
	SWIFT=$(SWIFT) scripts/release.sh

release-check: release
	scripts/test-release.sh

# `make install SYMBOLICATE_BIN=path` installs an already-built binary without building.
install: $(if $(filter .build/release/symbolicate,$(SYMBOLICATE_BIN)),build)
	scripts/install.sh install "$(SYMBOLICATE_BIN)" "$(DESTDIR)$(PREFIX)"

uninstall:
	scripts/install.sh uninstall "$(DESTDIR)$(PREFIX)"

# Benchmarks (not tests): ratios against llvm-symbolizer-19, and batch throughput.
bench: bench-lookup bench-batch bench-system-symbols bench-audit

bench-lookup: build
	Benchmarks/run.sh

# One report's 50 system frames against a 2,000-image DeviceSupport folder and a ~3 GB dyld
# shared cache, generated once into Benchmarks/work/system-symbols (Benchmarks/README.md).
bench-system-symbols: build
	SYMBOLICATE_BIN=.build/release/symbolicate python3 Benchmarks/system_symbols.py

# `symbolicate audit` on a 200-binary archive made from the Fixtures/audit binaries (Benchmarks/README.md, "Audit").
bench-audit: build
	SYMBOLICATE_BIN=.build/release/symbolicate python3 Benchmarks/audit/run.py

bench-batch: build
	SYMBOLICATE_BIN=.build/release/symbolicate Benchmarks/batch/run.sh

# The durations tests no longer assert (issue 39): server down, search from /, zips unpacked once.
.PHONY: bench-timing
bench-timing: build
	SYMBOLICATE_BIN=.build/release/symbolicate Benchmarks/timing/run.sh

# Resident memory over a long batch run (Benchmarks/batch/README.md; COUNT, JOBS).
bench-batch-memory: build
	SYMBOLICATE_BIN=.build/release/symbolicate Benchmarks/batch/run.sh memory

# libFuzzer targets built with swiftc into .build-fuzz/ (needs only the build dependencies).
fuzz: setup
	Fuzz/fuzz.sh run

fuzz-smoke: setup
	Fuzz/fuzz.sh smoke

fixtures:
	Fixtures/generate.sh

clean:
	rm -rf .build .build-release .build-fuzz .build-asan .build-libdwarf-current dist
	rm -rf .build-demo
