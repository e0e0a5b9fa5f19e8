# swapreplay - see README.md.  Targets: all (default), test, asan-test, demo,
# bench, install, uninstall, clean, deps, pc, plots.
PREFIX ?= /usr/local
DESTDIR ?=
BINDIR ?= $(PREFIX)/bin
LIBDIR ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
MANDIR ?= $(PREFIX)/share/man
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions

CC ?= cc
# -O3 and link-time optimisation: a replayed event goes through functions
# in every layer's files (src/replay/, src/mm/, src/hw/, src/block/), and
# inlining across them takes 8 % of the instructions a replay executes
# (issue 18; make bench measures it).  Fat objects keep libswapreplay.a
# usable by a compiler or linker without gcc's LTO plugin.  Neither
# changes a figure: floating point is not reassociated without
# -ffast-math, and x86-64's baseline has no FMA to contract into.
CFLAGS ?= -O3 -g -flto=auto -ffat-lto-objects
SR_CFLAGS = -std=c11 -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes \
	-D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE
# cairo draws the plots (src/plot/), with the fonts fontconfig finds (its
# caches are freed after a chart: sr_plot_release()); cairo's headers are
# under a folder of their own, which pkg-config names (-lcairo and
# Debian's folder when pkg-config is not installed yet: make deps
# installs it; libcairo2-dev brings libfontconfig-dev).
CAIRO_CFLAGS := $(shell pkg-config --cflags cairo fontconfig 2>/dev/null || echo -I/usr/include/cairo)
CAIRO_LIBS := $(shell pkg-config --libs cairo fontconfig 2>/dev/null || echo -lcairo -lfontconfig)
SR_CPPFLAGS = -Iinclude -Isrc -MMD -MP $(CAIRO_CFLAGS)
LDLIBS = -lzstd -ljansson -lcsv $(CAIRO_LIBS) -lm -ldl -pthread

B ?= build
# The library: every layer's folder under src/ (docs/ARCHITECTURE.md) but
# the command line's, and the built-in policies.
LIB_DIRS := $(filter-out src/cli/,$(sort $(dir $(wildcard src/*/*.c))))
LIB_SRC := $(foreach d,$(LIB_DIRS),$(sort $(wildcard $(d)*.c))) $(sort $(wildcard policies/*.c))
CLI_SRC := $(sort $(wildcard src/cli/*.c))
UNIT_SRC := $(sort $(wildcard tests/unit/*.c))

LIB_OBJ := $(LIB_SRC:%.c=$(B)/%.o)
CLI_OBJ := $(CLI_SRC:%.c=$(B)/%.o)
UNIT_OBJ := $(UNIT_SRC:%.c=$(B)/%.o)

LIB := $(B)/libswapreplay.a
BIN := $(B)/swapreplay
# The example policy, also built as an out-of-tree shared object.
EXAMPLE_SO := $(B)/policies/fixed_node.so
UNIT := $(B)/unit-tests
# The pkg-config file, made from src/libswapreplay.pc.in for the PREFIX of
# this make; the manual pages and the bash completion, installed as they are.
PC := $(B)/libswapreplay.pc
MAN1 := docs/man/swapreplay.1
MAN5 := docs/man/swapreplay-trace.5 docs/man/swapreplay-machine.5
BASH_COMPLETION := src/cli/completion/swapreplay.bash
VERSION := $(shell sed -n 's/^\#define SR_VERSION_STRING "\(.*\)"/\1/p' include/swapreplay/version.h)

# The four Debian packages swapreplay builds against (libcsv has no
# pkg-config file: it is linked with -lcsv); libcairo2-dev is cairo, made
# for drawing the plots as SVG, PNG or PDF.
DEPS_PKGS = libzstd-dev libjansson-dev libcsv-dev libcairo2-dev
# What the tests and the demo use besides: the zstd tool; for the plots'
# tests (tests/cli/plot.sh), rsvg-convert (librsvg2-bin), which renders
# an SVG as another program would, pdftotext (poppler-utils), which reads
# back the text a plot drew, and pngtopnm (netpbm), which gives a PNG's
# pixels; groff and man, which render the manual pages without a warning
# (tests/cli/manpages.sh); pkg-config, which reads the installed
# libswapreplay.pc to build a policy (tests/cli/install.sh) and finds
# cairo's headers; GNU time (/usr/bin/time), which gives a run's peak
# memory to the memory guard's test (tests/cli/memory.sh) and make bench.
TOOL_PKGS = zstd librsvg2-bin poppler-utils netpbm time
DOC_PKGS = groff-base man-db pkgconf

.PHONY: all test asan-test clang-test valgrind-test stress test-cluster test-live validate-live demo bench install uninstall clean deps validate validate-readme pc plots FORCE
all: $(BIN) $(EXAMPLE_SO)

# Its dependencies go to fixed_node.so.d: -MMD alone would name them
# fixed_node.d, over the built-in fixed_node.o's, which would then not be
# rebuilt when a header it includes changes.
$(EXAMPLE_SO): policies/fixed_node.c include/swapreplay/policy.h
	@mkdir -p $(@D)
	$(CC) $(SR_CPPFLAGS) $(CPPFLAGS) $(SR_CFLAGS) $(CFLAGS) -MF $@.d -DSR_POLICY_SHARED -fPIC -shared -o $@ $<

$(B)/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(SR_CPPFLAGS) $(CPPFLAGS) $(SR_CFLAGS) $(CFLAGS) -c -o $@ $<

$(LIB): $(LIB_OBJ)
	@rm -f $@
	$(AR) rcs $@ $^

$(BIN): $(CLI_OBJ) $(LIB)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(CLI_OBJ) $(LIB) $(LDLIBS)

# The unit tests also cover the CLI's pure option parser.
$(UNIT): $(UNIT_OBJ) $(B)/src/cli/opts.o $(LIB)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(UNIT_OBJ) $(B)/src/cli/opts.o $(LIB) $(LDLIBS)

# Install the packages when missing: as root with apt-get, otherwise say the
# exact command.  Cheap when everything is there.
deps:
	@missing=""; \
	for p in $(DEPS_PKGS) $(TOOL_PKGS) $(DOC_PKGS); do \
		dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'ok installed' || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
		if ! command -v apt-get >/dev/null 2>&1; then \
			echo "swapreplay: missing packages:$$missing (no apt-get here: install them by hand)" >&2; exit 1; \
		elif [ "$$(id -u)" = 0 ]; then \
			echo "Installing:$$missing"; \
			apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq$$missing >/dev/null || exit 1; \
		else \
			echo "swapreplay: missing packages; run: sudo apt-get install -y$$missing" >&2; exit 1; \
		fi; \
	fi

test: deps
	$(MAKE) $(BIN) $(UNIT) $(EXAMPLE_SO) fuzz-replay
	SWAPREPLAY=$(BIN) UNIT=$(UNIT) sh tests/run.sh

# The whole suite under AddressSanitizer and UndefinedBehaviorSanitizer,
# built in its own directory.
asan-test: deps
	$(MAKE) B=build-asan CFLAGS="-O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer" \
		LDFLAGS="-fsanitize=address,undefined" build-asan/swapreplay build-asan/unit-tests build-asan/policies/fixed_node.so fuzz-replay
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
		SWAPREPLAY=build-asan/swapreplay UNIT=build-asan/unit-tests sh tests/run.sh

# A second compiler: everything built with clang, -Werror as with gcc,
# its unit tests run, and the libFuzzer targets built (tests/fuzz/), so
# that code only gcc takes is caught the day it lands (issue 30; a gcc-only
# attribute once broke make fuzz unseen).  Installs clang as make fuzz
# does.
clang-test: deps fuzz-clang
	$(MAKE) B=build-clang CC=clang CFLAGS="-O2 -g" build-clang/swapreplay build-clang/unit-tests \
		build-clang/policies/fixed_node.so fuzz-replay
	build-clang/unit-tests | grep -v '^ok ' ; build-clang/unit-tests >/dev/null
	$(MAKE) B=$(FUZZ_B) CC="$(FUZZ_CC)" CFLAGS="$(FUZZ_CFLAGS)" LDFLAGS="$(FUZZ_SAN)" fuzz-bins

# The end-to-end tests with every swapreplay run under valgrind: any error
# or definite leak makes that run exit 99, which fails its case.
VALGRIND_CMD = valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite
valgrind-test: deps
	@command -v valgrind >/dev/null || { [ "$$(id -u)" = 0 ] && apt-get install -y -qq valgrind >/dev/null; } || \
		{ echo "valgrind-test: needs valgrind: sudo apt-get install -y valgrind" >&2; exit 1; }
	$(MAKE) $(BIN) $(EXAMPLE_SO)
	SWAPREPLAY=$(BIN) VALGRIND="$(VALGRIND_CMD)" CASE_JOBS=2 sh tests/run.sh

demo: deps
	$(MAKE) $(BIN)
	$(BIN) traces/sample.swt.zst --policy=hybrid,page-nid-strict
	$(BIN) traces/sample.swt.zst --policy=all --format=markdown

# Sweeps run by real engines (GNU parallel; installs it as root): tests/cluster.sh.
test-cluster: deps
	$(MAKE) $(BIN)
	sh tests/cluster.sh $(BIN)

# The capture on this machine's kernel with real swapping (as root, about
# 20 s; skipped with a line saying why where it cannot run): tests/live/run.sh.
test-live: deps
	$(MAKE) $(BIN)
	SWAPREPLAY=$(BIN) sh tests/live/run.sh

# The model against this machine's own kernel: A/B runs of page-cluster,
# zram against a file, two swap areas (as root, about 4 minutes; skipped
# with a line saying why where it cannot run; a row outside its band is
# shown, not a failure): traces/capture/swapreplay-ab, its table also in
# build/validate-live.txt.
validate-live: deps
	$(MAKE) $(BIN)
	@mkdir -p $(B)
	@rc=0; sh traces/capture/swapreplay-ab --swapreplay=$(BIN) --runs=3 -o $(B)/validate-live.txt || rc=$$?; \
	if [ $$rc = 77 ]; then echo "skip validate-live: swapreplay-ab cannot run here (the line above says why)"; \
	elif [ $$rc != 0 ]; then echo "validate-live: swapreplay-ab failed (status $$rc)" >&2; exit 1; fi

# Hostile and huge inputs (a few minutes): tests/stress.sh.
stress: deps
	$(MAKE) $(BIN)
	sh tests/stress.sh $(BIN)

bench: deps
	$(MAKE) $(BIN)
	sh tests/bench.sh $(BIN)

# The validation suite: the model against published measurements, one
# table (tests/validation/run.sh; also build/validation.json).  A case
# outside its band is reported, not an error; a script error is.
validate: deps
	$(MAKE) $(BIN)
	SWAPREPLAY=$(BIN) sh tests/validation/run.sh

# Rewrite README.md's validation table from the suite's output
# (tests/validation/readme.sh; tests/cli/validation-readme.sh checks it).
validate-readme: deps
	$(MAKE) $(BIN)
	SWAPREPLAY=$(BIN) sh tests/validation/readme.sh --write

# The chart README.md and docs/REPORT.md show: the bundled sample replayed
# on its machine (docs/REPORT.md, "Plots").
plots: deps
	$(MAKE) $(BIN)
	@mkdir -p docs/img
	$(BIN) traces/sample.swt.zst --plot=docs/img/sample-replay.png >/dev/null

# The pkg-config file, remade on every make (PREFIX may differ from the
# last one's); paths under the prefix are written relative to ${prefix}.
pc: $(PC)
$(PC): src/libswapreplay.pc.in include/swapreplay/version.h FORCE
	@mkdir -p $(@D)
	sed -e 's|@PREFIX@|$(PREFIX)|' \
		-e 's|@LIBDIR@|$(patsubst $(PREFIX)/%,$${prefix}/%,$(LIBDIR))|' \
		-e 's|@INCLUDEDIR@|$(patsubst $(PREFIX)/%,$${prefix}/%,$(INCLUDEDIR))|' \
		-e 's|@VERSION@|$(VERSION)|' src/libswapreplay.pc.in >$@.tmp
	mv $@.tmp $@

# The binary, the library and its headers with their pkg-config file, the
# manual pages and the bash completion.
install: $(BIN) $(LIB) $(PC)
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(LIBDIR) $(DESTDIR)$(INCLUDEDIR)/swapreplay \
		$(DESTDIR)$(PKGCONFIGDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man5 \
		$(DESTDIR)$(BASHCOMPDIR)
	install -m 755 $(BIN) $(DESTDIR)$(BINDIR)/swapreplay
	install -m 644 $(LIB) $(DESTDIR)$(LIBDIR)/libswapreplay.a
	install -m 644 include/swapreplay/*.h $(DESTDIR)$(INCLUDEDIR)/swapreplay/
	install -m 644 $(PC) $(DESTDIR)$(PKGCONFIGDIR)/libswapreplay.pc
	install -m 644 $(MAN1) $(DESTDIR)$(MANDIR)/man1/
	install -m 644 $(MAN5) $(DESTDIR)$(MANDIR)/man5/
	install -m 644 $(BASH_COMPLETION) $(DESTDIR)$(BASHCOMPDIR)/swapreplay

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/swapreplay $(DESTDIR)$(LIBDIR)/libswapreplay.a
	rm -rf $(DESTDIR)$(INCLUDEDIR)/swapreplay
	rm -f $(DESTDIR)$(PKGCONFIGDIR)/libswapreplay.pc
	rm -f $(addprefix $(DESTDIR)$(MANDIR)/man1/,$(notdir $(MAN1))) \
		$(addprefix $(DESTDIR)$(MANDIR)/man5/,$(notdir $(MAN5)))
	rm -f $(DESTDIR)$(BASHCOMPDIR)/swapreplay

clean:
	rm -rf build build-asan

-include $(LIB_OBJ:.o=.d) $(CLI_OBJ:.o=.d) $(UNIT_OBJ:.o=.d) $(EXAMPLE_SO).d

# Fuzz targets and their corpus replay (tests/fuzz/README.md).
-include tests/fuzz/fuzz.mk
