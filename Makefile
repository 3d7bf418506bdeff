# histmac: the two commands of the README, and the targets behind them.
#   make demo   install what is missing, build, learn from the bundled sample
#   make test   install what is missing, build with -Werror, run every test
BUILD   ?= build
ASAN    ?= build-asan
FUZZ    ?= build-fuzz
FUZZ_SECONDS ?= 60
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
# again under ASan+UBSan, and the unit tests under valgrind (about 1 min).
test: deps-test
	cmake -S . -B $(BUILD) -DHISTMAC_WERROR=ON $(CMAKE_FLAGS) >/dev/null
	cmake --build $(BUILD) -j $(JOBS)
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS) -LE e2e
	cd $(BUILD) && ctest --output-on-failure -L e2e
	$(MAKE) test-asan
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
