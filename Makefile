# histmac: the two commands of the README, and the targets behind them.
#   make demo   install what is missing, build, learn from the bundled sample
#   make test   install what is missing, build with -Werror, run every test
BUILD   ?= build
ASAN    ?= build-asan
JOBS    ?= $(shell nproc)
OUT     ?= out
CMAKE_FLAGS ?=

.PHONY: all build demo test test-asan unit deps-build deps-test fuzz bench clean valgrind

all: build

deps-build:
	@scripts/deps.sh build

deps-test:
	@scripts/deps.sh test

build: deps-build
	cmake -S . -B $(BUILD) $(CMAKE_FLAGS) >/dev/null
	cmake --build $(BUILD) -j $(JOBS)

demo: build
	@scripts/demo.sh $(BUILD)/histmac $(OUT)

# Every test: unit, golden, fuzz-corpus replay and end-to-end (root, auditd,
# fanotify), with warnings as errors; then the unit, golden and fuzz replays
# again under ASan+UBSan.
test: deps-test
	cmake -S . -B $(BUILD) -DHISTMAC_WERROR=ON $(CMAKE_FLAGS) >/dev/null
	cmake --build $(BUILD) -j $(JOBS)
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS) -LE e2e
	cd $(BUILD) && ctest --output-on-failure -L e2e
	$(MAKE) test-asan

test-asan: deps-test
	cmake -S . -B $(ASAN) -DHISTMAC_WERROR=ON -DHISTMAC_SANITIZE=ON >/dev/null
	cmake --build $(ASAN) -j $(JOBS)
	cd $(ASAN) && ASAN_OPTIONS=detect_leaks=1 \
		UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
		ctest --output-on-failure -j $(JOBS) -LE e2e

unit: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS) -L unit

clean:
	rm -rf $(BUILD) $(ASAN) build-fuzz $(OUT)
