# txnlab — see README.md. `make run` serves the playground, `make test` runs
# every test. Targets are listed with `make help`.
GO ?= go
export PATH := $(shell $(GO) env GOROOT)/lib/wasm:$(PATH)

# Where `make run` listens.
ADDR ?= 127.0.0.1:8080
# 11 ships the smallest wasm (~30 s to compress on 2 cores, only when the
# wasm changed); 9 is ~2 s and 12 % larger, for a quick local loop.
BROTLI_QUALITY ?= 11

.PHONY: help test test-deps test-core test-wasm test-app test-browser run build cli wasm wasm-size floor fuzz bench vet

help:
	@echo "make run          - build the wasm and serve the playground on http://$(ADDR)"
	@echo "make wasm         - build web/app.wasm and its .br/.gz"
	@echo "make wasm-size    - the wasm's code by package (cmd/wasmsize)"
	@echo "make test         - vet, unit and scenario tests, wasm tests under Node, browser tests, mutants"
	@echo "make test-browser - the browser tests alone (headless Chromium)"
	@echo "make fuzz         - long fuzz runs of every fuzz target (parsers, codecs, the interpreter)"
	@echo "make bench        - benchmarks; figures go to BENCHMARKS.md"
	@echo "make mutants      - plant each committed one-line bug in a copy of the tree; every one must be caught"

# -trimpath here and in test-core: make mutants builds and tests a copy
# of the tree in another directory, and shares go's caches with these
# only when neither writes its directory into what it builds.
cli:
	$(GO) build -trimpath -o bin/txnlab ./cmd/txnlab

# Packages of the wasm built without inlining: the UI (app, and diagram,
# which draws the sequence diagram for it) and the libraries it
# calls a few times per render (web/app.wasm then compresses 4 % smaller,
# gzip -93 kB), and the parts of the core that run once per statement
# rather than once per event: the scenario language (its parser, queries,
# expectations; the interpreter's loop calls into sim and the brokers,
# which keep inlining), the message field tables, the cluster's wiring,
# operations and snapshots (its run loop costs one call more an event,
# against the event's thousands of instructions), the lessons' grading and
# the playground's engine (brotli -50 kB more; core/cluster -6.7 kB), and
# the invariant checker, the group and transaction coordinators, the
# safety switches, the library and the share links' inflater (brotli
# -20 kB and gzip -4 kB in session 7, when the merges of the day had taken
# the wasm over both budgets; the wasm simulation built the same way ran
# within the noise of the old: 143-183 against 143-201 ms a heavy run),
# and in session 8, when the day's merges had taken brotli to 1,600,339 B,
# syscall/js, slices, strings and strconv (-17.6 kB brotli; the wasm
# simulation, interleaved under Node, 267-271k events/s against 235-257k).
# In session 10, the explorer the lessons' attack exercises run in the
# browser (core/explore: -5.4 kB brotli, -10.6 kB gzip; one exploration
# in the worker, timed per mechanism by app/e2e, within the noise).
# In issue 28, the operator's metrics (core/metrics), which the worker
# samples once per event only while replaying for the Metrics panel.
# Every package of the UI (txnlab/app/...) is built so, a new one too.
# The simulation and the runtime keep inlining, for speed. BENCHMARKS.md,
# "WebAssembly size", has the figures; make bench's wasm simulation is
# built with these flags too, as the app is.
WASM_NOINLINE := github.com/maxence-charriere/go-app/v10/... txnlab/app/... fmt encoding/json reflect time net/url \
	txnlab/diagram txnlab/core/scenario txnlab/core/protocol txnlab/core/cluster txnlab/lessons/... \
	txnlab/core/check txnlab/internal/deflate txnlab/core/groupcoord txnlab/core/safety txnlab/scenarios \
	txnlab/core/txncoord syscall/js slices strings strconv internal/strconv txnlab/core/explore \
	txnlab/core/metrics
WASM_FLAGS := -trimpath $(foreach p,$(WASM_NOINLINE),-gcflags=$(p)=-l)

# The browser half (cmd/wasm links no server code), stripped, its line
# tables and all but the runtime's function names zeroed (cmd/wasmstrip:
# tracebacks say ?:0 and name no function of ours; brotli -0.1 MB and
# -21 kB; `make wasm WASM_LINES=1` keeps both, to debug a panic in the
# browser; since issue 26, also start lines, argument and unsafe-point
# tables and file names, with the data section rewritten as one segment:
# -181 kB brotli), then
# its brotli and gzip copies for the server to send as they are.
wasm: cli
	GOOS=js GOARCH=wasm $(GO) build $(WASM_FLAGS) -ldflags="-s -w" -o web/app.wasm ./cmd/wasm
	$(if $(WASM_LINES),,$(GO) run ./cmd/wasmstrip web/app.wasm)
	@# precompress keeps a .br that decodes to the same wasm, whatever
	@# quality made it: after a quick BROTLI_QUALITY=9 build, a default
	@# build (and make bench's size) would keep the larger file.
	@mkdir -p out; [ "$$(cat out/brotli-quality 2>/dev/null)" = "$(BROTLI_QUALITY)" ] || rm -f web/app.wasm.br
	./bin/txnlab precompress --brotli-quality $(BROTLI_QUALITY) web/app.wasm
	@echo $(BROTLI_QUALITY) > out/brotli-quality

# The floor the playground's time to interactive is measured against: a
# bare go-app page (cmd/floor) built and served as web/app.wasm is, in a
# copy of web/ (out/floor). Its compressed copies are kept from the last
# build: precompress redoes them only if the wasm changed (brotli at
# quality 11 was 15 s of a core, just before make bench's timings).
floor: cli
	mkdir -p out/floor
	find out/floor -mindepth 1 -maxdepth 1 ! -name 'app.wasm*' -exec rm -rf {} +
	cp $$(ls -d web/* | grep -v 'app\.wasm') out/floor/
	GOOS=js GOARCH=wasm $(GO) build $(WASM_FLAGS) -ldflags="-s -w" -o out/floor/app.wasm ./cmd/floor
	$(GO) run ./cmd/wasmstrip out/floor/app.wasm
	@# As for web/app.wasm: a .br of another quality is made again.
	@[ "$$(cat out/floor-brotli-quality 2>/dev/null)" = "$(BROTLI_QUALITY)" ] || rm -f out/floor/app.wasm.br
	./bin/txnlab precompress --brotli-quality $(BROTLI_QUALITY) out/floor/app.wasm
	@echo $(BROTLI_QUALITY) > out/floor-brotli-quality

# What the wasm's code is made of, by package: the same build with its
# name section kept (out/app-names.wasm), read by cmd/wasmsize; then its
# data section by region, with what each costs brotli.
wasm-size:
	mkdir -p out
	GOOS=js GOARCH=wasm $(GO) build $(WASM_FLAGS) -o out/app-names.wasm ./cmd/wasm
	GOOS=js GOARCH=wasm $(GO) list -deps ./cmd/wasm > out/wasm-deps.txt
	$(GO) run ./cmd/wasmsize -deps out/wasm-deps.txt out/app-names.wasm
	@# Its data section by region, as shipped (stripped) if make wasm has run.
	$(GO) run ./cmd/wasmsize -data $$(ls web/app.wasm 2>/dev/null || echo out/app-names.wasm)

# vet also checks the packages the browser runs as the browser builds
# them: their syscall/js files are invisible to a native vet.
vet:
	@test -z "$$(gofmt -l $$(git ls-files '*.go'))" || (echo "gofmt needed:"; gofmt -l $$(git ls-files '*.go'); exit 1)
	$(GO) vet ./...
	GOOS=js GOARCH=wasm $(GO) vet $$(GOOS=js GOARCH=wasm $(GO) list -deps ./cmd/wasm ./cmd/engineworker | grep '^txnlab')

test-core:
	$(GO) test -trimpath ./core/... ./cmd/... ./lessons/... ./i18n/... ./kafkalistener/... ./diagram/... ./internal/... ./scenarios/...

# The core, the question grading and the history decoding the browser
# runs, under Node.
test-wasm:
	GOOS=js GOARCH=wasm $(GO) test ./core/... ./lessons/answer/
	@# The page's reading of a history's events (app/engine/wire_fast.go),
	@# as the browser runs it, and the worker's own loop (ServeWorker).
	GOOS=js GOARCH=wasm $(GO) test -run 'ByHand|Escaped|InvalidBody|LeftToJSON|Repeated|FuzzEventDecoder|FuzzDecodeWireEvent|FuzzScanBody|ServeWorker' ./app/engine/
	@# The page's idle collections (app/browser/collect.go).
	GOOS=js GOARCH=wasm $(GO) test ./app/browser/

# The UI's components natively (go-app's test engine), the UI's house
# (app/filegraph), the server: every package under app/ but the browser's.
test-app:
	$(GO) test $$($(GO) list ./app/... | grep -v /app/e2e) ./classroom/

# -count=1: the tests read web/app.wasm, which go test's cache does not see.
test-browser: wasm
	$(GO) test -count=1 -timeout 25m ./app/e2e/

# mutants (about 2 minutes) is in: issue 25 asks that CI plant every
# committed one-line bug and fail if any survives.
test: test-deps vet test-core test-wasm test-app test-browser mutants

# What the tests need beyond Go and Node, installed when missing
# (.ci/deps: Chromium, python3-confluent-kafka, KafkaJS, axe-core).
test-deps:
	./.ci/deps

run: wasm
	./bin/txnlab serve --addr $(ADDR)

# Benchmarks, each output saved under BENCH_OUT, then the figures written
# into BENCHMARKS.md between its markers (cmd/benchreport), with the date,
# the machine and each budget. About six minutes on 2 cores, more when a
# step waits; run it on a quiet machine (the load average is recorded
# with the figures).
#
# Every benchmark binary is built before the first one runs, and each
# step waits for the machine to settle (cmd/benchreport -settle: the
# 1-minute load average under 1 and other work keeping under a quarter
# of a core busy over 5 s, at most BENCH_SETTLE seconds) and notes the
# load and the busy cores it began at in loads.txt: built by `go test
# -bench` as it ran, each step measured a machine the compiler had just
# kept busy (the explorer 770 runs/s in make bench, 945 alone on the
# same machine a few minutes before). The load average alone trails by a
# minute: it let a step begin beside work started just before it.
#
# Like make test it installs Chromium first (test-deps), and its browser
# step runs under CI=true: without a browser the harness skips every
# benchmark and passes, and a fresh machine's run wrote a report whose
# browser rows all said "not measured". Now it stops before the report.
BENCH_OUT ?= out/bench
BENCH_DIR = $(abspath $(BENCH_OUT))
BENCH_SETTLE ?= 180
EXPLORE_RUNS ?= 2000
# run CMD FILE: run CMD, its output into FILE and on the terminal; fail
# as it fails.
bench_step = $(1) > $(2) 2>&1; status=$$?; cat $(2); test $$status -eq 0
# settle NAME: wait for a quiet machine, then note NAME, the load, the
# seconds waited and the cores busy in loads.txt.
bench_settle = $(BENCH_DIR)/benchreport -settle $(1) -in $(BENCH_OUT) -max-wait $(BENCH_SETTLE)s
bench: test-deps wasm floor
	mkdir -p $(BENCH_OUT)
	rm -f $(BENCH_OUT)/loads.txt
	$(GO) test -c -o $(BENCH_OUT)/scenario.test ./core/scenario
	GOOS=js GOARCH=wasm $(GO) test -c $(WASM_FLAGS) -o $(BENCH_OUT)/scenario-wasm.test ./core/scenario
	$(GO) test -c -o $(BENCH_OUT)/engine.test ./app/engine
	$(GO) test -c -o $(BENCH_OUT)/e2e.test ./app/e2e
	$(GO) build -o $(BENCH_OUT)/benchreport ./cmd/benchreport
	$(call bench_settle,start)
	{ date -u +%Y-%m-%dT%H:%MZ; cat /proc/loadavg 2>/dev/null || echo ?; } > $(BENCH_OUT)/start.txt
	$(call bench_step,(cd core/scenario && $(BENCH_DIR)/scenario.test -test.run '^$$' -test.bench Simulation -test.benchtime 5x),$(BENCH_OUT)/sim-native.txt)
	$(call bench_settle,sim-wasm)
	$(call bench_step,(cd core/scenario && go_js_wasm_exec $(BENCH_DIR)/scenario-wasm.test -test.run '^$$' -test.bench Simulation -test.benchtime 5x),$(BENCH_OUT)/sim-wasm.txt)
	$(call bench_settle,seek)
	$(call bench_step,(cd app/engine && $(BENCH_DIR)/engine.test -test.run '^$$' -test.bench EngineSeek -test.benchtime 3x),$(BENCH_OUT)/seek-native.txt)
	$(call bench_settle,explore)
	$(call bench_step,./bin/txnlab explore --runs $(EXPLORE_RUNS) --jobs 2 --out $(BENCH_OUT)/explore,$(BENCH_OUT)/explore.txt)
	$(call bench_settle,browser)
	$(call bench_step,(cd app/e2e && CI=true FLOOR_WEB=out/floor $(BENCH_DIR)/e2e.test -test.run '^$$' -test.bench . -test.benchtime 1x -test.timeout 30m),$(BENCH_OUT)/browser.txt)
	$(BENCH_DIR)/benchreport -in $(BENCH_OUT) -wasm web/app.wasm -md BENCHMARKS.md

# Long fuzz runs, FUZZTIME each, one per parser and codec: the scenario
# language, lessons, the share links' compressor and decoder (against
# compress/flate), the HTML escaper, share links and compare states as
# the page reads them, the worker's wire, the Kafka listener's requests,
# the classes' messages, the wasm tools, and the interpreter over random
# scripts (core/explore: never panics, same trace twice, no violation
# unless a mechanism is broken).
FUZZTIME ?= 5m
# Go minimises each new interesting input for up to a minute by default,
# and counts no execs meanwhile: a short run spent most of its time there
# (FuzzParse showed 0 execs/s for 20 s at a time).
FUZZMINIMIZE ?= 5s
# The live classes' load test (docs/class.md): 300 students' streams
# over two servers sharing one NATS; its figures go to BENCHMARKS.md.
.PHONY: class-load
class-load:
	TXNLAB_CLASS_LOAD=1 $(GO) test -count=1 -run '^TestClassLoad$$' -v ./app/server

# Every fuzz target (a func FuzzX in a _test.go file) is found afresh at
# each run, so a new one cannot be left out: the list this kept by hand
# named a package that had moved (./app) and missed three targets.
fuzz:
	@set -e; for f in $$(grep -rl --include='*_test.go' '^func Fuzz' --exclude-dir=third_party --exclude-dir=.git . | sort); do \
		for name in $$(sed -n 's/^func \(Fuzz[A-Za-z0-9_]*\)(.*/\1/p' $$f); do \
			echo "== $$(dirname $$f) $$name"; \
			$(GO) test $$(dirname $$f) -run '^$$' -fuzz "^$$name$$" -fuzztime $(FUZZTIME) -fuzzminimizetime $(FUZZMINIMIZE); \
		done; \
	done

# Random fault exploration, short: nothing broken must find nothing, under
# Kafka 3.5's protocol and under Kafka 4's (verification and transaction
# version 2), and each broken mechanism must be caught (txnlab explore
# exits 1). The KIP-890 mechanisms run under transaction.version=2 by
# themselves. The mechanisms are core/safety's table, listed by the
# binary.
.PHONY: explore-smoke
explore-smoke: cli
	./bin/txnlab explore --runs 500 --jobs 2 --out out/explore-smoke
	./bin/txnlab explore --runs 500 --jobs 2 --config "transaction.version=2 transaction.partition.verification.enable=true" --out out/explore-smoke
	for m in $$(./bin/txnlab explore --list-mechanisms); do \
		./bin/txnlab explore --runs 2000 --break $$m --out out/explore-smoke > /dev/null; test $$? -eq 1 || exit 1; \
	done

# Mutation testing (issue 25, 2.4): each one-line bug of
# internal/mutants/table.go is planted in a temporary copy of the tree,
# one at a time, and the explorer (MUTANT_RUNS runs under each
# transaction version) or go test ./core/... must catch it; a survivor
# fails the target (make test runs it). The copy's own unmutated checks
# must pass first. On 2 shared cores, 2026-12-05: 169 s in all, 21 s of it
# that baseline, now that the copy shares go's caches with make's builds
# (-trimpath); 350 s and 76 s before, on the same busy machine (14
# mutants, 14 killed). The working tree is never written.
MUTANT_RUNS ?= 2000
.PHONY: mutants
mutants:
	$(GO) run ./internal/mutants -runs $(MUTANT_RUNS)
