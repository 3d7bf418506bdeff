# histmac: the commands of the README, and the targets behind them.
#   make demo   install what is missing, build, learn from the bundled sample
#   make check  build with -Werror, run the quick tier (a few minutes)
#   make test   install what is missing, build with -Werror, run every test
BUILD   ?= build
ASAN    ?= build-asan
FUZZ    ?= build-fuzz
FUZZ_SECONDS ?= 60
JOBS    ?= $(shell nproc)
# ctest -j of make test and make check: twice the processors, since the
# e2e tests mostly wait (for auditd, for cron, for a daemon's answer).
# What they share is declared in CMakeLists.txt (RESOURCE_LOCK,
# RUN_SERIAL, PROCESSORS).
TEST_JOBS ?= $(shell echo $$(( $(JOBS) * 2 )))
OUT     ?= out
CMAKE_FLAGS ?=

.PHONY: all build demo check test test-e2e test-sanitizers test-asan unit deps-build deps-test fuzz bench clean valgrind

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

# The quick tier, for after a change: unit, golden, fuzz-corpus replay
# and the e2e tests labelled quick (one or more of each area, seconds
# each; CMakeLists.txt).  The e2e ones need root, as in make test.
check: deps-test
	cmake -S . -B $(BUILD) -DHISTMAC_WERROR=ON $(CMAKE_FLAGS) >/dev/null
	cmake --build $(BUILD) -j $(JOBS)
	cd $(BUILD) && ctest --output-on-failure -j $(TEST_JOBS) -L '^(unit|golden|fuzz|quick)$$'

# Every test: unit, golden, fuzz-corpus replay and end-to-end (root, auditd,
# fanotify), with warnings as errors, side by side (CMakeLists.txt says
# what they share); then the unit, golden and fuzz replays again under
# ASan+UBSan, and the unit tests under valgrind.  The ASan+UBSan tree is
# built beside the tests at nice 19 (the processors are idle while the
# audit tests wait one after another; a build cannot be starved into a
# wrong result, a test can), its tests run after them.
test: deps-test
	cmake -S . -B $(BUILD) -DHISTMAC_WERROR=ON $(CMAKE_FLAGS) >/dev/null
	cmake --build $(BUILD) -j $(JOBS)
	cmake -S . -B $(ASAN) -DHISTMAC_WERROR=ON -DHISTMAC_SANITIZE=ON >/dev/null
	@echo "make test: the ASan+UBSan build beside the tests (nice 19, $(ASAN)/build.log)"
	@nice -n 19 cmake --build $(ASAN) -j $(JOBS) >$(ASAN)/build.log 2>&1 & b=$$!; \
	rc=0; (cd $(BUILD) && ctest --output-on-failure -j $(TEST_JOBS)) || rc=1; \
	wait $$b || { cat $(ASAN)/build.log; rc=1; }; exit $$rc
	$(MAKE) test-sanitizers

# The e2e tests alone, side by side where they share nothing global.
test-e2e:
	cd $(BUILD) && ctest --output-on-failure -j $(TEST_JOBS) -L e2e

# ASan+UBSan (below), then valgrind on BUILD's unit tests.
test-sanitizers: test-asan
	scripts/valgrind.sh $(BUILD) $(JOBS)

test-asan: deps-test
	cmake -S . -B $(ASAN) -DHISTMAC_WERROR=ON -DHISTMAC_SANITIZE=ON >/dev/null
	cmake --build $(ASAN) -j $(JOBS)
	cd $(ASAN) && ASAN_OPTIONS=detect_leaks=1 \
		UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
		ctest --output-on-failure -j $(JOBS) -LE e2e

unit: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS) -L unit

# The unit tests under valgrind memcheck: invalid accesses, uninitialised
# values, definite and indirect leaks (third-party ones listed, with the
# reason, in tests/valgrind.supp).  Logs in $(BUILD)/valgrind/.
valgrind: deps-test
	cmake -S . -B $(BUILD) -DHISTMAC_WERROR=ON $(CMAKE_FLAGS) >/dev/null
	cmake --build $(BUILD) -j $(JOBS)
	scripts/valgrind.sh $(BUILD) $(JOBS)

# libFuzzer: every tests/fuzz/fuzz_*.c built with clang (ASan+UBSan, no
# -Werror: clang warns where gcc does not), each run FUZZ_SECONDS, seeded
# from tests/fuzz/corpus/ without writing to it (scratch:
# $(FUZZ)/fuzz-work/).  FUZZ_TARGETS="policy match" picks some; see
# docs/FUZZING.md.
FUZZ_SRCS := $(wildcard tests/fuzz/fuzz_*.c)
fuzz: deps-test
	cmake -S . -B $(FUZZ) -DHISTMAC_FUZZ=ON -DHISTMAC_SANITIZE=ON \
		-DCMAKE_C_COMPILER=clang >/dev/null
	cmake --build $(FUZZ) -j $(JOBS) \
		--target $(patsubst tests/fuzz/%.c,%,$(FUZZ_SRCS))
	scripts/fuzz.sh $(FUZZ) $(FUZZ_SECONDS) $(FUZZ_TARGETS)

clean:
	rm -rf $(BUILD) $(ASAN) $(FUZZ) $(OUT)
