# Fuzz targets: included by the Makefile (-include tests/fuzz/fuzz.mk).
# See tests/fuzz/README.md.  Uses the Makefile's $(B), $(CC), $(CFLAGS),
# $(LDFLAGS), $(LDLIBS), $(LIB), $(SR_CPPFLAGS), $(SR_CFLAGS) and its
# $(B)/%.o: %.c rule.
#
#   make fuzz-replay        build $(B)/fuzz/<target>-replay (any compiler):
#                           the targets with a plain main() that runs files
#                           and directories; `make test` replays the corpus
#                           with them (tests/cli/fuzz-corpus.sh)
#   make fuzz               build the libFuzzer binaries with clang in
#                           $(FUZZ_B) and run each target, one after the
#                           other, for FUZZ_SECONDS
#   make fuzz FUZZ_TARGET=csv FUZZ_SECONDS=60      one target, one minute
#
# A parser added to src/ gets its target in the same change: write
# tests/fuzz/fuzz_<target>.c, seed tests/fuzz/corpus/<target>/ and, if 4096
# bytes is not right for it, set FUZZ_MAX_LEN_<target> below.

FUZZ_DIR := tests/fuzz
# Every tests/fuzz/fuzz_<target>.c is a target.
FUZZ_TARGETS := $(patsubst $(FUZZ_DIR)/fuzz_%.c,%,$(sort $(wildcard $(FUZZ_DIR)/fuzz_*.c)))

# Largest input each target is given while fuzzing (-max_len).  Text traces
# need a header and a few rows; a .swt header, a machine description and a
# few 48-byte records; machine descriptions are a few hundred bytes to a few
# KiB; a command line is short.  Default: FUZZ_MAX_LEN.
FUZZ_MAX_LEN := 4096
FUZZ_MAX_LEN_csv := 4096
FUZZ_MAX_LEN_jsonl := 4096
FUZZ_MAX_LEN_swt := 8192
FUZZ_MAX_LEN_zstd := 8192
FUZZ_MAX_LEN_machine := 16384
FUZZ_MAX_LEN_cli := 1024

FUZZ_CORPUS := $(FUZZ_DIR)/corpus
FUZZ_OBJ := $(FUZZ_TARGETS:%=$(B)/$(FUZZ_DIR)/fuzz_%.o)
FUZZ_DRIVER_OBJ := $(B)/$(FUZZ_DIR)/driver.o
# Plain replay binaries: `make test` / `make asan-test` build these.
FUZZ_REPLAY := $(FUZZ_TARGETS:%=$(B)/fuzz/%-replay)
# libFuzzer binaries (only meaningful with B=$(FUZZ_B), see `fuzz`).
FUZZ_BIN := $(FUZZ_TARGETS:%=$(B)/fuzz/%-fuzz)

# `make fuzz`: compiler, build directory, scratch directory (new inputs,
# crash artifacts and logs; the committed corpus is only read), duration.
FUZZ_CC ?= clang
FUZZ_B ?= build-fuzz
FUZZ_WORK ?= $(FUZZ_B)/work
FUZZ_SECONDS ?= 600
FUZZ_TARGET ?= $(FUZZ_TARGETS)
FUZZ_SAN := -fsanitize=address,undefined -fno-sanitize-recover=all
# Known src/ bugs the long runs step around, as -DFUZZ_KNOWN_<what>
# (fuzz_common.h); none at the moment.
FUZZ_KNOWN_BUGS ?=
FUZZ_CFLAGS ?= -O1 -g -fno-omit-frame-pointer -fsanitize=fuzzer-no-link $(FUZZ_SAN) $(FUZZ_KNOWN_BUGS)
# Fork mode with one job: a crash, timeout or out-of-memory is saved under
# $(FUZZ_WORK)/<target>/ and the run goes on for the whole FUZZ_SECONDS.
FUZZ_FLAGS ?= -rss_limit_mb=2048 -timeout=10 -fork=1 -ignore_crashes=1 \
	-ignore_timeouts=1 -ignore_ooms=1 -print_final_stats=1
# The packages that give clang -fsanitize=fuzzer on Debian.
FUZZ_PKGS ?= clang libclang-rt-dev

.PHONY: fuzz fuzz-replay fuzz-bins fuzz-clang
.SECONDARY: $(FUZZ_OBJ) $(FUZZ_DRIVER_OBJ)

fuzz-replay: $(FUZZ_REPLAY)

$(B)/fuzz/%-replay: $(B)/$(FUZZ_DIR)/fuzz_%.o $(FUZZ_DRIVER_OBJ) $(B)/src/cli/opts.o $(LIB)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

fuzz-bins: $(FUZZ_BIN)

$(B)/fuzz/%-fuzz: $(B)/$(FUZZ_DIR)/fuzz_%.o $(B)/src/cli/opts.o $(LIB)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -fsanitize=fuzzer $(FUZZ_SAN) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# clang with libFuzzer: installed with apt-get as root, otherwise the exact
# command is printed.
fuzz-clang:
	@probe='int LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n) { (void)d; (void)n; return 0; }'; \
	works() { echo "$$probe" | $(FUZZ_CC) -x c -fsanitize=fuzzer,address,undefined -o /dev/null - >/dev/null 2>&1; }; \
	works && exit 0; \
	if ! command -v apt-get >/dev/null 2>&1; then \
		echo "swapreplay: make fuzz needs clang with libFuzzer (-fsanitize=fuzzer); no apt-get here: install it by hand" >&2; exit 1; \
	elif [ "$$(id -u)" = 0 ]; then \
		echo "Installing: $(FUZZ_PKGS)"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(FUZZ_PKGS) >/dev/null || exit 1; \
		works || { echo "swapreplay: $(FUZZ_CC) -fsanitize=fuzzer still fails after installing $(FUZZ_PKGS)" >&2; exit 1; }; \
	else \
		echo "swapreplay: make fuzz needs clang with libFuzzer; run: sudo apt-get install -y $(FUZZ_PKGS)" >&2; exit 1; \
	fi

# One target after the other (each uses one core).  Ends non-zero if any
# run left a crash-*, timeout-*, oom-* or leak-* file.
fuzz: deps fuzz-clang
	$(MAKE) B=$(FUZZ_B) CC="$(FUZZ_CC)" CFLAGS="$(FUZZ_CFLAGS)" LDFLAGS="$(FUZZ_SAN)" fuzz-bins
	@found=""; \
	for t in $(FUZZ_TARGET); do \
		$(MAKE) --no-print-directory B=$(FUZZ_B) fuzz-run-$$t || found="$$found $$t"; \
	done; \
	if [ -n "$$found" ]; then \
		echo "fuzz: findings in:$$found (see $(FUZZ_WORK)/<target>/; tests/fuzz/README.md says what to do)"; exit 1; \
	fi

fuzz-run-%:
	@mkdir -p $(FUZZ_WORK)/$*/new
	@echo "fuzz $*: $(FUZZ_SECONDS) s, -max_len=$(or $(FUZZ_MAX_LEN_$*),$(FUZZ_MAX_LEN)), log in $(FUZZ_WORK)/$*/log"
	@timeout -k 30 $$(($(FUZZ_SECONDS) + 300)) $(FUZZ_B)/fuzz/$*-fuzz \
		-max_total_time=$(FUZZ_SECONDS) -max_len=$(or $(FUZZ_MAX_LEN_$*),$(FUZZ_MAX_LEN)) $(FUZZ_FLAGS) \
		$(if $(wildcard $(FUZZ_DIR)/$*.dict),-dict=$(FUZZ_DIR)/$*.dict) \
		-artifact_prefix=$(FUZZ_WORK)/$*/ \
		$(FUZZ_WORK)/$*/new $(FUZZ_CORPUS)/$* >$(FUZZ_WORK)/$*/log 2>&1; \
	rc=$$?; \
	grep -E '^#[0-9]+: cov:|^#[0-9]+.*(DONE|pulse|NEW)|stat::' $(FUZZ_WORK)/$*/log | tail -n 4; \
	n=$$(ls $(FUZZ_WORK)/$* | grep -c -E '^(crash|timeout|oom|leak)-'); \
	slow=$$(ls $(FUZZ_WORK)/$* | grep -c '^slow-unit-'); \
	echo "fuzz $*: exit status $$rc, $$n finding(s) in $(FUZZ_WORK)/$*/$$( [ $$slow -eq 0 ] || echo " ($$slow slow-unit file(s): replay them; slow only under load is no finding)")"; \
	[ $$n -eq 0 ]

-include $(FUZZ_OBJ:.o=.d) $(FUZZ_DRIVER_OBJ:.o=.d)
