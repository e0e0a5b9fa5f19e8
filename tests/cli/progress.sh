#!/bin/sh
# replay's progress: a line redrawn in place on a terminal, lines into a
# log with --progress, nothing with -q (which also silences warnings).
# Reports are the same with and without it.
S="$T/../traces/sample.swt.zst"

# Into a log: one line at the end for a run shorter than 10 s, naming the
# bytes read (the sample's 23.5 KiB), the events and the replays (the machine, 2 variants, 4 noise replicas).
$SR "$S" -p hybrid -u 2 --progress >"$W/log.txt" 2>"$W/log.err"
if [ $? -eq 0 ] && [ "$(wc -l <"$W/log.err")" -eq 1 ] &&
	grep -Eq '^swapreplay: .*sample\.swt\.zst: read 23\.5 KiB, 4 k events x 7 replays in [0-9.]+ s \([0-9.]+ [kM]? ?events/s\)$' "$W/log.err"; then
	echo "ok progress: --progress writes one closing line into a log"
else
	echo "FAIL progress: --progress: $(cat "$W/log.err")"
fi
$SR "$S" -p hybrid -u 2 >"$W/plain.txt" 2>"$W/plain.err"
if cmp -s "$W/log.txt" "$W/plain.txt" && [ ! -s "$W/plain.err" ]; then
	echo "ok progress: the same report, and nothing on a standard error that is no terminal"
else
	echo "FAIL progress: report differs or stderr not empty: $(head -2 "$W/plain.err")"
fi

# -q: no progress and no warnings (an unknown column warns without it),
# but errors still.
printf 'ts_ns,op,pid,cpu,cpu_nid,page_nid,dev,offset,nr_pages,lat_ns,colour\n1000,out,1,0,0,0,0,5,1,0,red\n' >"$W/warn.csv"
$SR "$W/warn.csv" -p hybrid >/dev/null 2>"$W/warn.err"
$SR "$W/warn.csv" -p hybrid -q --progress >/dev/null 2>"$W/quiet.err"
if grep -q 'ignored unknown field(s): colour' "$W/warn.err" && [ ! -s "$W/quiet.err" ]; then
	echo "ok progress: -q silences the warning and the progress"
else
	echo "FAIL progress: -q: '$(cat "$W/warn.err")' / '$(cat "$W/quiet.err")'"
fi
$SR "$W/missing.csv" -q 2>"$W/missing.err"
[ $? -ne 0 ] && grep -q 'cannot open' "$W/missing.err" &&
	echo "ok progress: -q still prints errors" || echo "FAIL progress: -q hid an error: $(cat "$W/missing.err")"

# On a terminal (script(1) gives one): the line is redrawn in place with the
# share of the file read and the time left, and erased at the end.  The
# replay is made to last over a second (the first line comes at 0.5 s).
if command -v script >/dev/null 2>&1; then
	$SR_BIN gen swap-w-rand --tasks=8 --size=16M --limit=64M --accesses=60000 -o "$W/p.swt" 2>/dev/null
	# (60000 accesses a task: since the variants share the decisions,
	# 20000 replayed in half a second.)  Under valgrind, the plain binary:
	# this many events are slow there.
	TSR=$SR
	[ -n "${VALGRIND:-}" ] && TSR=$SR_BIN
	script -qec "$TSR $W/p.swt -u 20 --noise=0 -o $W/tty.txt" "$W/typescript" >/dev/null 2>&1
	rc=$?
	tr '\r' '\n' <"$W/typescript" >"$W/tty.lines"
	if [ $rc -eq 0 ] && grep -Eq '^.*p\.swt: +[0-9]+ % of [0-9.]+ MiB, [0-9.]+ [kM] events x 21 replays, [0-9.]+ [kM] events/s, [0-9.]+ s left' "$W/tty.lines" &&
		grep -q "$(printf '\r\033\\[K')" "$W/typescript"; then
		echo "ok progress: on a terminal, a line redrawn in place and erased"
	else
		echo "FAIL progress: terminal: status $rc: $(head -c 300 "$W/typescript")"
	fi
else
	echo "ok progress: terminal check skipped: no script(1) (util-linux)"
fi
