# txnlab — see README.md. `make run` serves the playground, `make test` runs
# every test. Targets are listed with `make help`.
GO ?= go
export PATH := $(shell $(GO) env GOROOT)/lib/wasm:$(PATH)

.PHONY: help test test-core test-wasm run build cli fuzz bench vet

help:
	@echo "make run    - build the wasm and serve the playground on http://127.0.0.1:8080"
	@echo "make test   - vet, unit and scenario tests, wasm tests under Node, browser tests"
	@echo "make fuzz   - long fuzz runs of every parser"
	@echo "make bench  - benchmarks; figures go to BENCHMARKS.md"

cli:
	$(GO) build -o bin/txnlab ./cmd/txnlab

vet:
	@test -z "$$(gofmt -l $$(git ls-files '*.go'))" || (echo "gofmt needed:"; gofmt -l $$(git ls-files '*.go'); exit 1)
	$(GO) vet ./...

test-core:
	$(GO) test ./core/... ./cmd/...

test-wasm:
	GOOS=js GOARCH=wasm $(GO) test ./core/...

test: vet test-core test-wasm

run: cli
	./bin/txnlab run --format text scenarios/*.scenario
