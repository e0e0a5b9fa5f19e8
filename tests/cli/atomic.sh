#!/bin/sh
# Output that is whole or absent: full disks, interruptions and errors leave
# no partial file and never touch the old one.
S="$T/../traces/sample.csv"

no_temps() {
	# The temporary files are ".NAME.XXXXXX" beside the target.
	[ -z "$(find "$W" -name '.*.??????' 2>/dev/null)" ]
}

# A full device: the write error is reported (status 4), nothing is claimed.
$SR convert "$S" /dev/full --to=csv 2>"$W/err"
rc=$?
if [ $rc -eq 4 ] && grep -q "No space left on device" "$W/err"; then
	echo "ok atomic: /dev/full is an error with status 4"
else
	echo "FAIL atomic: /dev/full gave status $rc: $(cat "$W/err")"
fi
$SR "$S" -m 2s-nvme2 -p hybrid -o /dev/full 2>"$W/err"
rc=$?
[ $rc -eq 4 ] && echo "ok atomic: a report to /dev/full is an error" ||
	echo "FAIL atomic: report to /dev/full gave status $rc: $(cat "$W/err")"

# An error while reading leaves the old output as it was.
echo old >"$W/out.csv"
printf 'ts_ns,op,cpu_nid,page_nid\n1,out,0,0\n2,bad,0,0\n' >"$W/bad.csv"
$SR convert "$W/bad.csv" "$W/out.csv" 2>/dev/null
if [ "$(cat "$W/out.csv")" = old ] && no_temps; then
	echo "ok atomic: a failed convert leaves the old file and no temporary"
else
	echo "FAIL atomic: a failed convert changed out.csv or left a temporary"
fi
$SR "$W/bad.csv" -m 2s-nvme2 -o "$W/report.txt" 2>/dev/null
[ ! -e "$W/report.txt" ] && no_temps && echo "ok atomic: a failed replay writes no report" ||
	echo "FAIL atomic: a failed replay left a report or a temporary"

# An interruption (SIGINT, then SIGTERM) mid-write: the old file stays, the
# temporary goes, the exit status says which signal.
for sig in INT:2 TERM:15; do
	num=${sig#*:}
	sig=${sig%:*}
	echo old >"$W/big.csv"
	$SR gen swap-w-rand --tasks=32 --size=64M --limit=1G --accesses=400000 -o "$W/big.csv" &
	pid=$!
	# Wait until the temporary file exists, so that the signal comes mid-write.
	i=0
	while no_temps && [ $i -lt 200 ]; do
		sleep 0.05
		i=$((i + 1))
	done
	kill -$sig $pid
	wait $pid
	rc=$?
	want=$((128 + num))
	if [ "$(cat "$W/big.csv")" = old ] && no_temps && [ $rc -eq $want ]; then
		echo "ok atomic: SIG$sig mid-write leaves the old file, removes the temporary, exit $rc"
	else
		echo "FAIL atomic: SIG$sig: status $rc (want $want), big.csv: $(head -c 40 "$W/big.csv"), temps: $(find "$W" -name '.*.??????')"
	fi
done 2>/dev/null # not the shell's "Terminated" notes

# The same inputs give the same bytes.
$SR convert "$S" "$W/a.swt.zst" && $SR convert "$S" "$W/b.swt.zst"
cmp -s "$W/a.swt.zst" "$W/b.swt.zst" && echo "ok atomic: convert is deterministic" ||
	echo "FAIL atomic: two converts of one input differ"
