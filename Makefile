# conform: make run (the whole suite against the reference) and make test (all tests)
# are the two commands that do everything. go fetches the module dependencies itself.
# One more thing is installed when missing: make test installs Chromium from Debian's
# packages (apt-get, as root) for the HTML report's browser test; without root or
# apt-get that test is skipped (it fails in CI, CI=true). BROWSER=skip leaves the
# browser alone: make test BROWSER=skip runs everything else.

GO       ?= go
FUZZTIME ?= 60s
SMOKETIME ?= 3s
BENCHTIME ?= 1s

.PHONY: all run test stress test-times budget-attacks unicode platform alphabets lint staticcheck deadcode vet fmt-check bench bench-doc fuzz fuzz-smoke fuzz-libfuzzer fuzz-libfuzzer-check fuzz-campaign vectors vectors-check build clean mutants actionlint browser export-check release-snapshot fuzzkit-check port-models

all: test

## run: run every vector, then every scenario, against the embedded reference and print a report of each
run:
	$(GO) run ./cmd/conform run
	$(GO) run ./cmd/conform features --format conform

## build: build the conform binary into bin/
build:
	$(GO) build -o bin/conform ./cmd/conform

## test: vet, formatting, lint (staticcheck, dead code, workflows), all tests (without
## go test's own vet pass, which go vet has just made in full; the
## generated files' check and the HTML report's browser test among them; Chromium is
## installed when missing, BROWSER=skip to leave it out; the port models' runtimes, Node.js, a JDK
## and Maven, are installed when missing by scripts/ensure-runtimes.sh), and a short smoke run of
## every fuzzer. Each check runs once.
BROWSER ?= install
test: vet fmt-check lint
ifeq ($(BROWSER),skip)
	@echo "make test: BROWSER=skip: the browser test will skip"
else
	scripts/ensure-chromium.sh
endif
	scripts/ensure-runtimes.sh
	$(GO) test -vet=off ./...
	$(MAKE) --no-print-directory fuzz-smoke

## stress: make test twice in a row in a clone of HEAD while another clone runs make
## test beside it (scripts/stress-test.sh): the tests must not need an idle machine
stress:
	scripts/stress-test.sh

## test-times: time a fresh clone's make test (cold: no build or test cache of its own)
## and go test ./... (warm), and list the ten slowest tests (scripts/test-times.sh)
test-times:
	scripts/test-times.sh

## budget-attacks: the memory budget's attacks at scale (scripts/budget-attacks.sh): peak
## RSS, time and verdict of each, for docs/runner.md's "Measured at scale"
budget-attacks:
	scripts/budget-attacks.sh

## lint: staticcheck, the dead-code check and actionlint (the linters are pinned as tools in go.mod)
lint: staticcheck deadcode actionlint

## staticcheck: every check of staticcheck's default set on the whole module
staticcheck:
	$(GO) tool staticcheck ./...

## deadcode: fail on a function unreachable from the commands, except those listed with a reason in scripts/deadcode-allow.txt
deadcode:
	scripts/deadcode.sh

## actionlint: lint action.yml (through the self-test workflow that uses it), every workflow and the example workflows
actionlint:
	$(GO) tool actionlint
	$(GO) tool actionlint examples/workflows/*.yml

## browser: the HTML report's browser test alone, installing chromium when missing
browser:
	scripts/ensure-chromium.sh
	$(GO) test -count=1 -run Chromium -v ./report

vet:
	$(GO) vet ./...

fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt needed on:"; echo "$$out"; exit 1; fi

## bench: run every benchmark (the figures of docs/performance.md come from make bench-doc)
bench:
	$(GO) test -run '^$$' -bench . -benchmem -benchtime $(BENCHTIME) ./...

## bench-doc: run the benchmarks of docs/performance.md (BENCH_COUNT runs each) and the side-by-side
## timing of the built binary, and write docs/performance.md
BENCH_COUNT ?= 3
bench-doc:
	$(GO) run ./tools/benchdoc -count $(BENCH_COUNT)

## fuzz: run every native fuzz target for FUZZTIME each (default 60s)
fuzz:
	FUZZTIME=$(FUZZTIME) scripts/fuzz.sh

## fuzz-smoke: run every native fuzz target briefly (SMOKETIME each), as CI does, then
## check that go's log of a real finding is classified as one (scripts/fuzz-classify-check.sh)
fuzz-smoke:
	FUZZTIME=$(SMOKETIME) scripts/fuzz.sh
	scripts/fuzz-classify-check.sh

## fuzz-libfuzzer: build every fuzz target as a libFuzzer binary as ClusterFuzzLite does (installs clang and
## go-118-fuzz-build when missing), run each for LIBFUZZER_SECONDS, and check that a seeded crash is reported
LIBFUZZER_SECONDS ?= 5
fuzz-libfuzzer:
	FUZZ_SECONDS=$(LIBFUZZER_SECONDS) scripts/fuzz-libfuzzer.sh deps build run check

## fuzz-libfuzzer-check: the libFuzzer build path without the runs: deps, build every target, seeded-crash check
fuzz-libfuzzer-check:
	scripts/fuzz-libfuzzer.sh deps build check

## fuzz-campaign: run every fuzz target for CAMPAIGN_TIME (and CAMPAIGN_LONG_TIME for the targets that read
## untrusted text) and write the results table into docs/fuzzing.md
CAMPAIGN_TIME ?= 2m
CAMPAIGN_LONG_TIME ?= 10m
CAMPAIGN_PARALLEL ?= $(shell nproc)
CAMPAIGN_JOBS ?= 1
fuzz-campaign:
	CAMPAIGN_TIME=$(CAMPAIGN_TIME) CAMPAIGN_LONG_TIME=$(CAMPAIGN_LONG_TIME) CAMPAIGN_PARALLEL=$(CAMPAIGN_PARALLEL) CAMPAIGN_JOBS=$(CAMPAIGN_JOBS) scripts/fuzz-campaign.sh

## unicode: fetch the Unicode data packages (npm, @unicode/unicode-<version>), write the
## punctuation tables the spec pins (spec/data/punctuation.txt) and the reference's snap
## set from them (reference/marker/snapset.go); then run make vectors
unicode:
	scripts/unicode-tables.sh

## alphabets: write fuzz/alphabet_data.gen.go, the alphabets the fuzzer draws from, from the
## platform tables (go test ./fuzz holds it to them)
alphabets:
	$(GO) run ./tools/alphabets

## platform: measure the built-ins a port would reach for (Node.js, Python, Java and Kotlin with
## Gson, Jackson and kotlin-stdlib from Maven Central, Go, Chromium from Debian's packages; Swift
## from its documentation) and write spec/data/platform.jsonl and docs/platforms.md from them
platform:
	scripts/platform-tables.sh

## port-models: run every port model (tools/portmodels/<language>/: ports wrong in one built-in or one
## slip) through conform run, features and fuzz (--no-corpus --count PORTMODELS_COUNT --seed 1) and write
## docs/port-models.md; make test checks that conform run fails each (tools/portmodels' test).
## 500 cases: a model that answers a line it must not answer costs a timeout per case of
## fuzz --envelopes, and 3000 of them take more than half an hour
PORTMODELS_COUNT ?= 500
port-models:
	$(GO) run ./tools/portmodels -count $(PORTMODELS_COUNT)

## vectors: regenerate generated vector files (*.gen.json)
vectors:
	$(GO) run ./vectors/internal/gen

## vectors-check: fail if a generated vector file is stale (make test checks it
## through go test's TestGeneratedFilesAreCurrent)
vectors-check:
	$(GO) run ./vectors/internal/gen -check

## export-check: conform export into build/export, then the pytest and JUnit 5 loaders of
## examples/export judge the Python and Java quote.normalize from the exported files (pytest
## from PyPI and JUnit 5 from Maven Central when missing)
export-check:
	rm -rf build/export
	$(GO) run ./cmd/conform export --out build/export
	python3 -c 'import pytest' 2>/dev/null || python3 -m pip install --quiet pytest
	CONFORM_EXPORT=$(CURDIR)/build/export python3 -m pytest -q -p no:cacheprovider examples/export/pytest
	cd examples/export/junit5 && mvn -q -B test -Dconform.export=$(CURDIR)/build/export
	@grep -ho 'tests="[0-9]*" errors="0" skipped="0" failures="0"' examples/export/junit5/target/surefire-reports/TEST-*.xml

## fuzzkit-check: conform fuzzkit for quote.parse, then Atheris and Jazzer (examples/fuzzkit)
## each find the planted bug of a small quote.parse within 2 minutes (scripts/fuzzkit-check.sh)
fuzzkit-check:
	scripts/fuzzkit-check.sh

## release-snapshot: what the release workflow publishes for a tag, built locally into dist/
## without publishing: conform for linux, darwin and windows on amd64 and arm64, checksums,
## an SBOM per binary and the vectors archive (GoReleaser, pinned in tools/release/go.mod); not
## the signature of checksums.txt, which only the release workflow's identity can make
release-snapshot:
	CONFORM_REVISION=$$(git rev-parse HEAD) $(GO) tool -modfile=tools/release/go.mod goreleaser release --snapshot --clean --skip=sign

## mutants: mutation score of the vectors against the reference; report in docs/mutants.md (MUTANTS_FLAGS, e.g. -fresh)
mutants:
	$(GO) run ./tools/mutants $(MUTANTS_FLAGS)

clean:
	rm -rf bin build dist examples/export/junit5/target examples/fuzzkit/jazzer/target

## serve: serve the reference over HTTP on 127.0.0.1:8080 (ADDR=... to change)
ADDR ?= 127.0.0.1:8080
.PHONY: serve
serve:
	$(GO) run ./cmd/conform serve --http $(ADDR)
