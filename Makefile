# RetryStorm — the two commands of the quick start are `make demo` and `make test`.
SWIFT ?= swift
BIN := .build/release/retrystorm

.PHONY: deps check-deps build demo test results bench clean
# deps must finish before anything checks for what it installs.
.NOTPARALLEL:

## Install what a new machine lacks (libgsl-dev, pkg-config), with apt-get (sudo when not root).
deps:
	@bash scripts/ensure-deps.sh

## Fail, naming the package, when something is missing; installs nothing.
check-deps:
	@bash scripts/ensure-deps.sh --check

## Build the release binary.
build: check-deps
	$(SWIFT) build -c release --product retrystorm

## Install what is missing, then run the quickstart experiment into results/quickstart and print its summary.
demo: deps build
	$(BIN) run experiments/quickstart.yaml --out results/quickstart --force

## Build everything in release mode and run the whole test suite (installs nothing: see `make deps`).
test: check-deps
	$(SWIFT) build -c release --build-tests
	$(SWIFT) test -c release --skip-build

## Regenerate every results/ directory from experiments/ (deterministic; commit the result).
results: build
	bash scripts/make-results.sh $(BIN)

## Measure speed and memory (release build, several runs): results/bench/bench.csv. Not deterministic.
bench: build
	bash scripts/bench.sh $(BIN)

clean:
	rm -rf .build
