#!/bin/sh
# Replay the committed fuzz corpus (tests/fuzz/corpus/<target>/) through
# every fuzz target, built as plain binaries next to $SR_BIN:
# $(dirname $SR_BIN)/fuzz/<target>-replay (make fuzz-replay; see
# tests/fuzz/README.md).  Prints "ok fuzz-corpus: TARGET (N inputs)" or
# "FAIL fuzz-corpus: TARGET: why", with the failing input and the first
# lines of its report.
set -u
# Every tests/fuzz/fuzz_<target>.c is a target (as in tests/fuzz/fuzz.mk).
TARGETS=""
for f in "$T"/fuzz/fuzz_*.c; do
	[ -f "$f" ] || continue
	f=${f##*/fuzz_}
	TARGETS="$TARGETS ${f%.c}"
done
if [ -z "$TARGETS" ]; then
	echo "FAIL fuzz-corpus: no fuzz targets in $T/fuzz"
	exit 0
fi
B=$(dirname "$SR_BIN")
D=$B/fuzz
C=$T/fuzz/corpus

missing=""
for t in $TARGETS; do
	[ -x "$D/$t-replay" ] || missing="$missing $t"
done
if [ -n "$missing" ]; then
	# Not built by the Makefile's test recipe (yet): build them here, with
	# the sanitizer flags of asan-test if the library was built with them.
	flags=""
	if nm "$B/libswapreplay.a" 2>/dev/null | grep -q __asan_report; then
		flags='-O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer'
	fi
	if [ -n "$flags" ]; then
		make -C "$T/.." B="$B" CFLAGS="$flags" LDFLAGS="-fsanitize=address,undefined" \
			fuzz-replay >"$W/build.log" 2>&1
	else
		make -C "$T/.." B="$B" fuzz-replay >"$W/build.log" 2>&1
	fi
	if [ $? -ne 0 ]; then
		echo "FAIL fuzz-corpus: the replay binaries ($D/<target>-replay) are not built and 'make B=$B fuzz-replay' failed:"
		tail -n 5 "$W/build.log" | sed 's/^/    /'
		exit 0
	fi
fi

for t in $TARGETS; do
	bin=$D/$t-replay
	if [ ! -x "$bin" ]; then
		echo "FAIL fuzz-corpus: $t: $bin is not built (make B=$B fuzz-replay)"
		continue
	fi
	if [ ! -d "$C/$t" ]; then
		echo "FAIL fuzz-corpus: $t: no corpus directory $C/$t"
		continue
	fi
	# (In a subshell: the shell's own "Segmentation fault" goes to the file.)
	out=$( ("$bin" "$C/$t"; exit $?) 2>"$W/$t.err")
	rc=$?
	n=$(printf '%s\n' "$out" | sed -n 's/^\([0-9][0-9]*\) inputs$/\1/p')
	if [ $rc -eq 0 ] && [ -n "$n" ] && [ "$n" -gt 0 ] && [ ! -s "$W/$t.err" ]; then
		echo "ok fuzz-corpus: $t ($n inputs)"
		continue
	fi
	if [ $rc -eq 0 ] && [ "${n:-0}" -eq 0 ]; then
		echo "FAIL fuzz-corpus: $t: the corpus $C/$t is empty"
		continue
	fi
	# Which inputs: run each one alone.
	bad=0 total=0 first=""
	: >"$W/$t.bad"
	for f in "$C/$t"/*; do
		[ -f "$f" ] || continue
		total=$((total + 1))
		("$bin" "$f"; exit $?) >/dev/null 2>"$W/$t.one"
		r=$?
		if [ $r -ne 0 ] || [ -s "$W/$t.one" ]; then
			bad=$((bad + 1))
			echo "${f#"$T"/}" >>"$W/$t.bad"
			if [ -z "$first" ]; then
				first=$f
				cp "$W/$t.one" "$W/$t.first"
				if [ $r -gt 128 ]; then
					echo "killed by signal $((r - 128))" >>"$W/$t.first"
				elif [ $r -ne 0 ]; then
					echo "exit status $r" >>"$W/$t.first"
				fi
			fi
		fi
	done
	if [ $bad -eq 0 ]; then
		echo "FAIL fuzz-corpus: $t: the whole corpus fails (exit status $rc) but no input alone does:"
		head -n 4 "$W/$t.err" | sed 's/^/    /'
		continue
	fi
	echo "FAIL fuzz-corpus: $t: $bad of $total inputs fail (replay one: $bin $first)"
	head -n 10 "$W/$t.bad" | sed 's/^/    input: /'
	[ $bad -gt 10 ] && echo "    ... and $((bad - 10)) more"
	grep -v -e '^ *$' -e '^    #[0-9]' -e '^=*$' "$W/$t.first" | head -n 3 | sed 's/^/    report: /'
done
