# RetryStorm — the two commands of the quick start are `make demo` and `make test`.
SWIFT ?= swift
BIN := .build/release/retrystorm

.PHONY: deps build demo test results bench clean

## Install what a new machine lacks (libgsl-dev, pkg-config).
deps:
	@bash scripts/ensure-deps.sh

## Build the release binary.
build: deps
	$(SWIFT) build -c release --product retrystorm

## Run the quickstart experiment into results/quickstart and print its summary.
demo: build
	$(BIN) run experiments/quickstart.yaml --out results/quickstart --force

## Build everything in release mode and run the whole test suite: the policy library's package
## (RetryPolicy/, its own build) and the simulator's.
test: deps
	$(SWIFT) build -c release --build-tests --package-path RetryPolicy
	$(SWIFT) test -c release --skip-build --package-path RetryPolicy
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
