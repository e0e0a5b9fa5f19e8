#!/bin/sh
# replay --max-memory, and what the system has available when it is not
# given: a run whose simulations cannot fit is refused before its first
# event, saying how many --uncertainty variants would; one whose decisions
# outgrow it as the trace goes on is stopped, saying so, not left to the
# OOM killer (issue 29).  Under valgrind the process's memory is
# valgrind's: skipped there.
if [ -n "${VALGRIND:-}" ]; then
	echo "ok memory: skipped under valgrind (its memory is not the replay's)"
	exit 0
fi
S="$T/../traces/sample.swt.zst"

# Refused before the first event: 201 machines x 4 policies.
$SR "$S" -p all -u 200 --noise=0 --max-memory=30M >/dev/null 2>"$W/u.err"
rc=$?
if [ $rc -eq 1 ] && grep -Eq '^swapreplay: (--uncertainty=200: )?the replay.s 804 simulations .*may take up to [0-9]+ MiB \([0-9.]+ MiB each, more for each CPU two tasks share\), more than the 30 MiB it may \(--max-memory\)' "$W/u.err"; then
	echo "ok memory: a run whose simulations cannot fit is refused with its estimate"
else
	echo "FAIL memory: refused: status $rc: $(cat "$W/u.err")"
fi
$SR "$S" -p all -u 200 --noise=0 --max-memory=400M >/dev/null 2>"$W/u2.err"
rc=$?
if [ $rc -eq 1 ] && grep -Eq -- '--uncertainty=200: .* more than the 400 MiB it may \(--max-memory\): --uncertainty=[0-9]+ fits' "$W/u2.err"; then
	n=$(sed -n 's/.*--uncertainty=\([0-9]*\) fits.*/\1/p' "$W/u2.err")
	if $SR "$S" -p all -u "$n" --noise=0 --max-memory=400M >/dev/null 2>"$W/u3.err"; then
		echo "ok memory: the number of variants said to fit runs ($n)"
	else
		echo "FAIL memory: -u $n said to fit: $(cat "$W/u3.err")"
	fi
else
	echo "FAIL memory: refused with variants: status $rc: $(cat "$W/u2.err")"
fi
$SR "$S" --max-memory=1GB >/dev/null 2>&1
[ $? -eq 2 ] && echo "ok memory: --max-memory takes sizes as --memory does" ||
	echo "FAIL memory: --max-memory=1GB accepted"

# Stopped as it goes: the decisions of a trace of 1.3M events outgrow three
# quarters of the peak it reaches unbounded.
if [ -x /usr/bin/time ]; then
	$SR_BIN gen swap-w-rand --tasks=32 --size=64M --limit=1G --accesses=60000 -o "$W/big.swt" 2>/dev/null
	peak=$(/usr/bin/time -f %M $SR "$W/big.swt" -p reclaimer-nid -f csv -q 2>&1 >/dev/null | tail -1)
	lim=$((peak * 3 / 4))
	$SR "$W/big.swt" -p reclaimer-nid -f csv -q --max-memory=${lim}K -o "$W/big.csv" 2>"$W/big.err"
	rc=$?
	if [ $rc -eq 1 ] && [ ! -e "$W/big.csv" ] &&
		grep -Eq "^swapreplay: .*big\.swt: stopped at event [0-9]+: the replay took [0-9]+ MiB, more than the [0-9]+ MiB it may \(--max-memory\)" "$W/big.err"; then
		echo "ok memory: a replay that outgrows its memory stops, saying so (peak $peak KiB, limit $lim KiB)"
	else
		echo "FAIL memory: stopped: status $rc (peak $peak KiB, limit $lim KiB): $(cat "$W/big.err")"
	fi
else
	echo "ok memory: the stop is not checked: no /usr/bin/time (Debian's time)"
fi
