# paramsync front door. A fresh Debian 12 machine needs two commands: `make demo`, `make test`.
BUILD_DIR ?= build
BUILD_TYPE ?= Release
JOBS ?= $(shell nproc)
PYTHON ?= /usr/bin/python3

# Debian packages the build, the tests and the plots need (bzip2: the ns-3 source tarball of
# make test-ns3-trees; libopenmpi-dev openmpi-bin: the MPI build of that tree, make test-mpi).
DEBIAN_PACKAGES := ns3 libns3-dev libgsl-dev libsqlite3-dev libxml2-dev libboost-graph-dev \
	libeigen3-dev libgtest-dev cmake ninja-build g++ make python3-matplotlib tshark \
	clang clang-format libclang-rt-14-dev bzip2 libopenmpi-dev openmpi-bin

.PHONY: all deps bench-deps build test test-ns3-trees test-mpi sanitize demo demo-reference bench debug fuzz clean

all: build

# What only `make bench` needs: valgrind for the scaling section's cache model
# (bench/cache_model.py).
BENCH_PACKAGES := valgrind

# $(call install-missing,PACKAGES): installs only what is missing; does nothing (not even
# apt-get update) when all is present.
define install-missing
	@missing=$$(for p in $(1); do \
	    dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q '^install ok installed$$' || echo $$p; \
	  done); \
	if [ -n "$$missing" ]; then \
	  echo "make deps: installing missing Debian packages:" $$missing; \
	  if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO="sudo"; fi; \
	  $$SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -q && \
	  $$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $$missing; \
	fi
endef

deps:
	$(call install-missing,$(DEBIAN_PACKAGES))

bench-deps:
	$(call install-missing,$(BENCH_PACKAGES))

# CMAKE_FLAGS: extra configure flags of the release build (CI: -DPARAMSYNC_WERROR=ON).
CMAKE_FLAGS ?=
$(BUILD_DIR)/build.ninja:
	cmake -S . -B $(BUILD_DIR) -G Ninja -DCMAKE_BUILD_TYPE=$(BUILD_TYPE) $(CMAKE_FLAGS)

build: deps $(BUILD_DIR)/build.ninja
	cmake --build $(BUILD_DIR) -j $(JOBS)

# Every test on the release build, every test again on an AddressSanitizer +
# UndefinedBehaviorSanitizer build, then every parser fuzzed for FUZZ_SECONDS (libFuzzer).
FUZZ_SECONDS ?= 20
test: build sanitize
	cd $(BUILD_DIR) && ctest --output-on-failure -j $(JOBS)
	cd $(BUILD_DIR)-sanitize && ctest --output-on-failure -j $(JOBS)
	./test/fuzz/run-fuzzers.sh $(BUILD_DIR)-fuzz $(FUZZ_SECONDS)

# paramsync inside Debian's ns-3.37 source tree (fetched once, cached in
# $PARAMSYNC_NS3SRC_CACHE, default ~/.cache/paramsync-ns3src): ./ns3 build of the module,
# the driver and the tutorial run as ns-3 programs, ./test.py for the paramsync TestSuites.
test-ns3-trees: deps
	./test/ns3-trees/run-ns3-trees.sh $(JOBS)

# Runs partitioned over 2 MPI ranks against the same runs in one process, in the ns-3 tree
# of test-ns3-trees (one build, configured with MPI): README "Running across MPI ranks".
test-mpi: deps
	./test/mpi/run-mpi-tests.sh $(JOBS)

# The ASan + UBSan build the test suite runs on in CI. -O1 rather than Debug's -O0: it
# compiles as fast and runs the packet-level tests several times faster under the sanitizers;
# a finding aborts the test that hit it (-fno-sanitize-recover, see CMakeLists.txt).
$(BUILD_DIR)-sanitize/build.ninja:
	cmake -S . -B $(BUILD_DIR)-sanitize -G Ninja -DCMAKE_BUILD_TYPE=Release \
	  -DCMAKE_CXX_FLAGS_RELEASE="-O1 -DNDEBUG" -DPARAMSYNC_SANITIZE=ON

sanitize: deps $(BUILD_DIR)-sanitize/build.ninja
	cmake --build $(BUILD_DIR)-sanitize -j $(JOBS)

fuzz: deps
	./test/fuzz/run-fuzzers.sh $(BUILD_DIR)-fuzz $(FUZZ_SECONDS)

# Outputs go to $(BUILD_DIR)/demo (untracked): `make demo` modifies no tracked file.
demo: build
	./examples/demo.sh $(BUILD_DIR)

# Regenerates the committed reference results (results/demo, plots/demo-gst.png).
demo-reference: build
	./examples/demo.sh $(BUILD_DIR) results/demo plots/demo-gst.png

bench: build bench-deps
	./bench/run-bench.sh $(BUILD_DIR)

# Developers: Debug + AddressSanitizer + UndefinedBehaviorSanitizer in build-debug/.
debug: deps
	cmake -S . -B build-debug -G Ninja -DCMAKE_BUILD_TYPE=Debug -DPARAMSYNC_SANITIZE=ON
	cmake --build build-debug -j $(JOBS)
	cd build-debug && ctest --output-on-failure -j $(JOBS)

clean:
	rm -rf $(BUILD_DIR) $(BUILD_DIR)-fuzz $(BUILD_DIR)-sanitize build-debug
