# Berthier: the two commands a newcomer runs (README).
#   make run   installs what is missing, builds, starts berthierd on its embedded
#              defaults, plays a bot-vs-bot game to the end and verifies its log.
#   make test  installs what is missing, builds (normal and ASan+UBSan) and runs every test.
# The project's own builds treat warnings as errors (BERTHIER_WERROR=ON); a plain
# `cmake -S . -B build` does not, so that a packager's compiler never breaks a build.
SHELL := /bin/bash
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
DEBS := build-essential cmake pkg-config clang libzmq3-dev libprotobuf-c-dev protobuf-c-compiler \
        protobuf-compiler libsodium-dev libcmocka-dev libsystemd-dev python3 python3-zmq \
        python3-protobuf python3-nacl systemd groff-base man-db chromium chromium-driver

.PHONY: all deps build build-asan build-types test test-long run fuzz clean

all: build

deps:
	@missing=""; for p in $(DEBS); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'install ok installed' || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  if [ "$$(id -u)" != 0 ]; then echo "run as root, or install:$$missing" >&2; exit 1; fi; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	fi

build: deps
	cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo -DBERTHIER_WERROR=ON
	cmake --build build -j $(JOBS)

build-asan: deps
	cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DBERTHIER_SANITIZE=ON -DBERTHIER_WERROR=ON
	cmake --build build-asan -j $(JOBS)

test: build build-asan
	cd build && ctest --output-on-failure -j $(JOBS)
	cd build-asan && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 ctest --output-on-failure -j $(JOBS)

# Every build type (Debug, Release, RelWithDebInfo, MinSizeRel) with gcc and clang, warnings as
# errors: eight full builds in $(BUILD_TYPES_DIR) (default /tmp/berthier-build-types). Long; not in `make test`.
build-types: deps
	JOBS=$(JOBS) ./scripts/build-types.sh

run: build
	./scripts/demo.sh

# libFuzzer runs (clang): FUZZ_SECONDS per target, default 60.
fuzz: deps
	./scripts/fuzz.sh

clean:
	rm -rf build build-asan build-fuzz
