#!/bin/sh
# The test runner: unit tests, then every CLI case under tests/cli/cases,
# then the scripted tests tests/cli/*.sh.  Ends with "N passed, N failed"
# and exits non-zero if anything failed.
#
# A CLI case is a folder holding:
#   cmd     a shell command line; $SR is the swapreplay binary, $T the
#           tests folder, $W a fresh scratch folder (the working directory)
#   status  the expected exit status (default 0)
#   stdout, stderr   expected output, compared exactly (optional)
# Environment: SWAPREPLAY (binary), UNIT (unit test binary), VALGRIND
# (optional command prefix, e.g. "valgrind --error-exitcode=99 -q").
set -u
T=$(cd "$(dirname "$0")" && pwd)
SR=$(cd "$(dirname "$SWAPREPLAY")" && pwd)/$(basename "$SWAPREPLAY")
SR_BIN=$SR
if [ -n "${VALGRIND:-}" ]; then
	SR="$VALGRIND $SR_BIN"
fi
export T SR SR_BIN
pass=0
fail=0
failed=""

if [ -n "${UNIT:-}" ]; then
	out=$("$UNIT" 2>&1)
	rc=$?
	printf '%s\n' "$out" | grep -v '^ok ' || true
	p=$(printf '%s\n' "$out" | grep -c '^ok ')
	f=$(printf '%s\n' "$out" | grep -c '^FAIL ')
	pass=$((pass + p))
	fail=$((fail + f))
	if [ $rc -ne 0 ] && [ "$f" -eq 0 ]; then
		echo "FAIL unit-tests: exit status $rc"
		fail=$((fail + 1))
	fi
fi

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT INT TERM

# One case: its verdict into $W/.verdict ("ok", or the FAIL lines).
run_case() {
	c=$1
	name=$(basename "$c")
	W="$scratch/$name"
	mkdir -p "$W"
	export W
	want_status=0
	[ -f "$c/status" ] && want_status=$(cat "$c/status")
	(cd "$W" && sh "$c/cmd" >"$W/.stdout" 2>"$W/.stderr" </dev/null)
	got=$?
	ok=1
	why=""
	if [ "$got" != "$want_status" ]; then
		ok=0
		why="exit status $got, expected $want_status"
	fi
	if [ $ok = 1 ] && [ -f "$c/stdout" ] && ! cmp -s "$c/stdout" "$W/.stdout"; then
		ok=0
		why="stdout differs:
$(diff "$c/stdout" "$W/.stdout" | head -20)"
	fi
	if [ $ok = 1 ] && [ -f "$c/stderr" ] && ! cmp -s "$c/stderr" "$W/.stderr"; then
		ok=0
		why="stderr differs:
$(diff "$c/stderr" "$W/.stderr" | head -20)"
	fi
	if [ $ok = 1 ]; then
		echo ok >"$W/.verdict"
	else
		{
			echo "FAIL cli/$name: $why"
			[ -s "$W/.stderr" ] && sed 's/^/    stderr: /' "$W/.stderr" | head -5
		} >"$W/.verdict"
	fi
}

# CASE_JOBS cases at a time (default 1; make valgrind-test runs 2, each
# case's start-up under valgrind being most of its time); the verdicts are
# read in the cases' order, so the output is the same whatever the count.
jobs=${CASE_JOBS:-1}
n=0
for c in "$T"/cli/cases/*/; do
	[ -f "$c/cmd" ] || continue
	if [ "$jobs" -gt 1 ]; then
		run_case "$c" &
		n=$((n + 1))
		if [ $n -ge "$jobs" ]; then
			wait
			n=0
		fi
	else
		run_case "$c"
	fi
done
wait
for c in "$T"/cli/cases/*/; do
	[ -f "$c/cmd" ] || continue
	v="$scratch/$(basename "$c")/.verdict"
	if [ -f "$v" ] && [ "$(cat "$v")" = ok ]; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		if [ -f "$v" ]; then
			cat "$v"
		else
			echo "FAIL cli/$(basename "$c"): no verdict"
		fi
	fi
done

# Scripted tests: each prints "ok NAME" / "FAIL NAME: why" lines.
for s in "$T"/cli/*.sh; do
	[ -f "$s" ] || continue
	W="$scratch/script-$(basename "$s" .sh)"
	mkdir -p "$W"
	export W
	out=$(cd "$W" && sh "$s" 2>&1)
	rc=$?
	printf '%s\n' "$out" | grep -v '^ok ' || true
	p=$(printf '%s\n' "$out" | grep -c '^ok ')
	f=$(printf '%s\n' "$out" | grep -c '^FAIL ')
	pass=$((pass + p))
	fail=$((fail + f))
	if [ $rc -ne 0 ] && [ "$f" -eq 0 ]; then
		echo "FAIL $(basename "$s"): exit status $rc"
		fail=$((fail + 1))
	fi
done

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
