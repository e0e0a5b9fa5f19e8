#!/bin/sh
# make test-cluster: the sweep recipes of src/SWEEP.md run by real engines on
# this machine.  GNU parallel (Debian package "parallel") runs the units of
# a plan and is interrupted and resumed through its joblog; the merged result
# must equal a local sweep's.  Prints "ok"/"FAIL" lines and a count.
set -u
SR=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT INT TERM
pass=0
fail=0
ok() { echo "ok $1"; pass=$((pass + 1)); }
bad() { echo "FAIL $1"; fail=$((fail + 1)); }

if ! command -v parallel >/dev/null; then
	if [ "$(id -u)" = 0 ]; then
		apt-get install -y -qq parallel >/dev/null 2>&1 || { apt-get update -qq && apt-get install -y -qq parallel >/dev/null; }
	fi
fi
command -v parallel >/dev/null || { bad "GNU parallel is not installed (sudo apt-get install -y parallel)"; echo "$pass passed, $fail failed"; exit 1; }

cd "$W"
mkdir tr
for i in 1 2 3 4 5; do
	$SR gen swap-w-rand --tasks=8 --size=8M --limit=32M --seed=$i -o tr/t$i.swt.zst 2>/dev/null
done
$SR sweep tr -m 2s-pmem2,2s-nvme2 -o local.jsonl -q
$SR sweep tr -m 2s-pmem2,2s-nvme2 --plan=plan.jsonl -q
N=$(wc -l <plan.jsonl)
mkdir res

# A first run stopped after 4 jobs (--halt), as if the node went away ...
seq 0 $((N - 1)) | parallel --will-cite --joblog jobs.log --halt now,done=4 -j 2 \
	"$SR" sweep --run-index={} plan.jsonl -o res/{}.jsonl -q --resume >/dev/null 2>&1
done1=$(ls res | wc -l)
# ... then resumed: the joblog skips the jobs that finished.
seq 0 $((N - 1)) | parallel --will-cite --joblog jobs.log --resume -j 2 \
	"$SR" sweep --run-index={} plan.jsonl -o res/{}.jsonl -q --resume >/dev/null 2>&1
rc=$?
[ $rc -eq 0 ] && [ "$done1" -lt "$N" ] && ok "GNU parallel: interrupted after $done1 of $N units, resumed" ||
	bad "GNU parallel: status $rc, $done1 of $N units in the first run"
runs=$(awk 'NR > 1' jobs.log | wc -l)
[ "$runs" -le $((N + 2)) ] && ok "GNU parallel: the joblog ran each unit about once ($runs jobs for $N units)" ||
	bad "GNU parallel: $runs jobs for $N units"
$SR merge --plan=plan.jsonl -o merged.jsonl res/*.jsonl 2>err.txt &&
	cmp -s merged.jsonl local.jsonl && ok "GNU parallel: merged equals the local sweep" ||
	bad "GNU parallel: merged result differs: $(cat err.txt)"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
