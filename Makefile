# RetryStorm — the two commands of the quick start are `make demo` and `make test`.
SWIFT ?= swift
BIN := .build/release/retrystorm
# The internal-checks pass runs the engine's suites (containers, event order, traces, every server
# model) but the two queueing-theory validations: they run the same code paths for hundreds of
# thousands of customers to reach 3% precision, 111 s together in this debug build (2 cores, 2026-11),
# and PackedEventTests, whose check holds in every build and runs in `make test`: its exit test
# once hung a loaded CI run for 11 minutes in this build (2026-12-07), and it checks no container.
CHECK_SUITES := RetryStormEngineTests
# EdgeParityTests too: 16 policies × 20–60 replications a side took 564 s of this pass's 564 (the
# rest ends at 231 s; clean-clone CI, 2026-12-07); it runs in `make test` with the conservation
# laws checked after every event, and the edges' paths run here under every container's checks
# in CallGraphTests, EdgeLifeCycleTests, HedgingHostTests, HedgeBudgetCountTests and CancellationTests.
CHECK_SKIP := QueueingTheoryTests|ModelValidationTests/erlang|PackedEventTests|EdgeParityTests

.PHONY: deps check-deps build demo test example check-debug results check-report bench lint format clean
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

## Build everything in release mode and run the whole test suite: the policy library's, the
## simulator's and examples/AppPolicyCheck's (whose targets this package builds from their sources,
## Package.swift), one package. Installs nothing: see `make deps`.
test: check-deps
	$(SWIFT) build -c release --build-tests
	$(SWIFT) test -c release --skip-build

## Build and test examples/AppPolicyCheck as the package of its own it is, using the RetryPolicy
## and RetryStormKit products as an app and its tests would (release, like `make test`). It compiles
## the simulator again into its own .build: CI runs the same tests in `make test` instead, and
## builds the example's app target by URL (scripts/check-consumer.sh).
example: check-deps
	$(SWIFT) build -c release --build-tests --package-path examples/AppPolicyCheck
	$(SWIFT) test -c release --skip-build --package-path examples/AppPolicyCheck

## Debug build with the containers' internal checks compiled in (RETRYSTORM_INTERNAL_CHECKS) and
## assertions on, running the engine's suites. Its own build directory, so the release and plain
## debug builds are left as they are.
check-debug: check-deps
	$(SWIFT) build --build-tests --scratch-path .build-checks -Xswiftc -DRETRYSTORM_INTERNAL_CHECKS
	RETRYSTORM_INTERNAL_CHECKS=1 $(SWIFT) test --skip-build --scratch-path .build-checks --filter '$(CHECK_SUITES)' --skip '$(CHECK_SKIP)'

## Regenerate every results/ directory from experiments/ (deterministic; commit the result).
results: build
	bash scripts/make-results.sh $(BIN)

## Check every committed results/*/report.html as a person sees it, in headless Chromium: at 1280 and
## 800 px, in the print layout on A4 and Letter, and printed to PDF (nothing wider than the page, every
## chart drawn, every variant named); first, that the check fails on broken pages. Installs nothing:
## needs chromium and poppler-utils (scripts/ensure-deps.sh chromium poppler-utils installs them).
check-report:
	@bash scripts/ensure-deps.sh --check chromium poppler-utils
	bash scripts/check-report.sh --self-test
	bash scripts/check-report.sh

## Measure speed and memory (release build, several runs): results/bench/bench.csv. Not deterministic.
bench: build
	bash scripts/bench.sh $(BIN)

## The committed Swift files against .swift-format (the formatter Swift 6.3 ships): layout and
## rules, every finding an error. Files git does not track (dependencies' checkouts under an
## example's .build) are not looked at.
lint:
	git ls-files -z '*.swift' | xargs -0 $(SWIFT) format lint --strict --parallel

## Rewrite the committed Swift files in place as .swift-format says (then `make lint` passes,
## save for the rules the formatter cannot fix, such as names).
format:
	git ls-files -z '*.swift' | xargs -0 $(SWIFT) format format --in-place --parallel

clean:
	rm -rf .build .build-checks
