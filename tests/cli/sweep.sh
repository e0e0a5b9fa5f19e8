#!/bin/sh
# swapreplay sweep and merge: order whatever -j, damaged inputs, resume
# after SIGKILL, plans, shards and merging.
set -u
cd "$W"
mkdir -p tr/sub
for i in 1 2 3 4; do
	$SR gen swap-w-rand --tasks=4 --size=8M --limit=16M --seed=$i -o tr/t$i.swt.zst 2>/dev/null
done
$SR gen swap-w-rand --tasks=4 --size=4M --limit=8M --seed=9 -o tr/sub/t9.csv 2>/dev/null
printf 'garbage\n' >tr/sub/bad.csv
M=2s-pmem2,2s-nvme2

# Order: -j 1 and -j 2 write the same bytes; the summary goes to stdout with -o.
$SR sweep tr -m $M -j 1 -o j1.jsonl >sum1.txt 2>err1.txt
rc1=$?
$SR sweep tr -m $M -j 2 -o j2.jsonl >/dev/null 2>&1
cmp -s j1.jsonl j2.jsonl && echo "ok sweep: -j 1 and -j 2 write the same rows in the same order" ||
	echo "FAIL sweep: -j 1 and -j 2 differ"
n=$(wc -l <j1.jsonl)
[ "$n" -eq 48 ] && echo "ok sweep: 6 traces x 2 machines x 4 policies = 48 rows" ||
	echo "FAIL sweep: $n rows, expected 48"
# The damaged trace: its 8 rows say error, the others go on; status 64 + 2.
e=$(grep -c '"status": "error"' j1.jsonl)
[ "$e" -eq 8 ] && [ "$rc1" -eq 66 ] && grep -q "2 of 12 cases failed" err1.txt &&
	echo "ok sweep: a damaged trace gives error rows and exit status 66" ||
	echo "FAIL sweep: $e error rows, status $rc1: $(cat err1.txt)"
grep -q '"error": "tr/sub/bad.csv:1: missing required column (ts_ns) in the header row"' j1.jsonl &&
	echo "ok sweep: the error row says what is wrong" || echo "FAIL sweep: error message"
grep -q '^page-nid-strict .* (12 trace x machine cases, 2 failed)' sum1.txt ||
	grep -q 'trace x machine cases, 2 failed' sum1.txt &&
	echo "ok sweep: summary counts cases and failures" || echo "FAIL sweep: summary: $(cat sum1.txt)"
# Each row holds the content hash and the core report's figures.
grep '"trace": "tr/t1.swt.zst"' j1.jsonl | head -1 | grep -q '"trace_hash": "fnv1a64:[0-9a-f]\{16\}".*"throughput_kib_s": [0-9.]*, "delta_pct"' &&
	echo "ok sweep: rows carry the trace hash and the figures" || echo "FAIL sweep: row fields"
# A row's figures equal those of a plain replay of that trace.
t=$($SR tr/t2.swt.zst -m 2s-pmem2 -p page-nid-strict -f json | awk -F'"throughput_kib_s": ' '/page-nid-strict/ { split($2, a, ","); print a[1] }')
grep '"trace": "tr/t2.swt.zst".*"machine": "2s-pmem2", "policy": "page-nid-strict"' j1.jsonl | grep -q "\"throughput_kib_s\": $t," &&
	echo "ok sweep: figures equal a replay's ($t KiB/s)" || echo "FAIL sweep: figures differ from replay ($t)"

# An existing output needs --resume.
$SR sweep tr -m $M -o j1.jsonl -q 2>/dev/null
[ $? -eq 2 ] && echo "ok sweep: an existing output without --resume is refused" ||
	echo "FAIL sweep: existing output overwritten"

# Resume after SIGKILL at several moments: the same set of rows.
sort j1.jsonl >want.txt
for delay in 0.05 0.15 0.3; do
	rm -f k.jsonl
	$SR sweep tr -m $M -j 2 -o k.jsonl -q 2>/dev/null &
	pid=$!
	sleep $delay
	kill -9 $pid 2>/dev/null
	wait $pid 2>/dev/null
	$SR sweep tr -m $M -j 2 -o k.jsonl -q --resume 2>/dev/null
	sort k.jsonl >got.txt
	if cmp -s want.txt got.txt; then
		echo "ok sweep: killed after ${delay}s and resumed: the same rows"
	else
		echo "FAIL sweep: killed after ${delay}s and resumed: rows differ ($(wc -l <k.jsonl) lines)"
	fi
done
# A row cut short by a kill is dropped and redone.
head -c $(( $(head -5 j1.jsonl | wc -c) + 30 )) j1.jsonl >cut.jsonl
$SR sweep tr -m $M -o cut.jsonl -q --resume 2>/dev/null
sort cut.jsonl | cmp -s want.txt - && echo "ok sweep: a half-written last row is redone" ||
	echo "FAIL sweep: half-written row"

# Plans: every unit run alone, then merged: the local sweep's bytes.
$SR sweep tr -m $M --plan=plan.jsonl -q 2>/dev/null
units=$(wc -l <plan.jsonl)
[ "$units" -eq 12 ] && echo "ok sweep: the plan has 12 units" || echo "FAIL sweep: plan has $units units"
mkdir -p res
i=0
while [ $i -lt "$units" ]; do
	$SR sweep --run-index=$i plan.jsonl -o res/$i.jsonl -q 2>/dev/null
	i=$((i + 1))
done
$SR merge --plan=plan.jsonl -o merged.jsonl res/*.jsonl 2>merr.txt
cmp -s merged.jsonl j1.jsonl && echo "ok merge: run-index units merged equal the local sweep" ||
	echo "FAIL merge: merged run-index results differ: $(cat merr.txt)"
$SR sweep --shard=0/2 plan.jsonl -o s0.jsonl -q 2>/dev/null
$SR sweep --shard=1/2 plan.jsonl -o s1.jsonl -q 2>/dev/null
$SR merge --plan=plan.jsonl s1.jsonl s0.jsonl -o mshard.jsonl 2>/dev/null
cmp -s mshard.jsonl j1.jsonl && echo "ok merge: two shards merged equal the local sweep" ||
	echo "FAIL merge: shards differ"
# A missing unit and a doubled one are reported, nothing written.
rm res/5.jsonl
$SR merge --plan=plan.jsonl -o bad.jsonl res/*.jsonl 2>merr.txt
rc=$?
[ $rc -eq 3 ] && grep -q "unit 5 is missing" merr.txt && [ ! -e bad.jsonl ] &&
	echo "ok merge: a missing unit is named, nothing written" || echo "FAIL merge: missing unit: $rc $(cat merr.txt)"
$SR merge --plan=plan.jsonl -o bad.jsonl res/*.jsonl res/3.jsonl s0.jsonl s1.jsonl 2>merr.txt
[ $? -eq 3 ] && grep -q "more than one row" merr.txt && echo "ok merge: doubled rows are refused" ||
	echo "FAIL merge: doubled rows: $(cat merr.txt)"

# CSV, @LIST and globs.
printf 'tr/t1.swt.zst\n# a comment\ntr/t[23].swt.zst\n' >list.txt
$SR sweep @list.txt -m 2s-pmem2 -f csv -o l.csv -q
head -1 l.csv | grep -q '^unit,trace,trace_hash,machine,policy' && [ "$(wc -l <l.csv)" -eq 13 ] &&
	echo "ok sweep: @LIST with a glob, CSV output (3 traces x 4 policies + header)" ||
	echo "FAIL sweep: list/csv: $(wc -l <l.csv) lines"
$SR sweep @list.txt -m 2s-pmem2 -f csv -o l2.csv -q -j 2 && cmp -s l.csv l2.csv &&
	echo "ok sweep: CSV rows identical with -j 2" || echo "FAIL sweep: CSV -j 2 differs"
# Fewer units than -j: each is decoded, checked and ordered on a thread of
# its own (the pipe), not by its replay; the rows must not change.  One
# trace comes out of order (each block of 7 events reversed: the window's
# heap), one names a node the machine lacks (the pipe's check).
mkdir -p ahead
$SR gen swap-w-rand --tasks=4 --size=4M --limit=8M --seed=5 -o ahead/in-order.csv 2>/dev/null
awk 'NR == 1 { print; next } { b[n++] = $0 } n == 7 { while (n) print b[--n] } END { while (n) print b[--n] }' \
	ahead/in-order.csv >ahead/shuffled.csv
printf 'ts_ns,op,cpu_nid,page_nid\n1,out,0,0\n2,out,5,0\n' >ahead/node5.csv
rm ahead/in-order.csv
$SR sweep ahead -m 2s-pmem2 -p all -j 1 -q -o a1.jsonl 2>/dev/null
$SR sweep ahead -m 2s-pmem2 -p all -j 4 -q -o a4.jsonl 2>/dev/null
cmp -s a1.jsonl a4.jsonl && grep -q '"status": "ok"' a1.jsonl &&
	grep -q '"error": "ahead/node5.csv: event 2: the trace names node 5' a1.jsonl &&
	echo "ok sweep: units ordered by the reading thread (-j 4, 2 units) give the same rows, errors too" ||
	echo "FAIL sweep: -j 4 with 2 units differs: $(diff a1.jsonl a4.jsonl | head -3)"

# -p all: every built-in policy.
$SR sweep tr/t1.swt.zst -m 2s-pmem2 -p all -q -o all.jsonl
[ "$(wc -l <all.jsonl)" -eq 5 ] && grep -q '"policy": "fixed-node"' all.jsonl &&
	echo "ok sweep: -p all replays every built-in policy" || echo "FAIL sweep: -p all: $(wc -l <all.jsonl) rows"
