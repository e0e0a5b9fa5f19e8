#!/bin/sh
# The fit of the model's three fitted constants (docs/MODEL.md, "CPU and
# locks: the fit"), on the development cases C1-C3 and nothing else:
#
#   sh tests/validation/fit.sh
#
# prints each constant as fitted, in the order they are fitted (each fit
# uses the constants fitted before it), on the workloads of c1-page-nid,
# c2-slots-cache and c3-thp-swapout (case.sh there; kept the same here):
#
#   swap_lock_ns    si->lock held per slot allocation: C2 without the slots
#                   cache (patches 1-3), 2,050,097 kB/s;
#   lru_lock_ns     a node's LRU lock per page reclaimed: the two runs held
#                   by no other lock, C2 with the slots cache (1-9),
#                   4,170,746 kB/s, and C3 with THP swapped out whole,
#                   4,310,000 kB/s: the value whose errors on the two are
#                   equal and opposite;
#   lru_refault_ns  the LRU lock per page swapped in: C1's PMem delta,
#                   -17.29 %;
#   swap_cache_lock_ns  before 4.11, a device's swap cache tree lock per
#                   hold: C2's vanilla kernel, 1,428,002 kB/s (with the
#                   other si->lock holds at their derived bound, 280 ns);
#                   the model uses it for the 64 MB trunks' lock of 4.11
#                   to 6.17 too (docs/MODEL.md, L4), which C2's rows 1-3
#                   and 1-9 and C3 book, uncontended.
#
# The workloads are gen's with its defaults, so a memory cgroup's reclaim
# in passes of 32 pages (docs/MODEL.md, G3).  Each by bisection (the
# predictions are monotone in each), to 0.1 %;
# the values are then written, rounded, into src/machine/defaults.h by
# hand.  Other constants are the machine's defaults.  Needs sh, awk and
# python3 (to write machine descriptions with the trial values).
set -eu
V=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$V/../.." && pwd)
SR=${SWAPREPLAY:-$ROOT/build/swapreplay}
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT INT TERM
cd "$W"
E5=$V/c2-slots-cache/e5v3-ram-pmem.json
"$SR" machines 2s-pmem2 --json >pmem2.json

# with BASE OUT KEY=VALUE...: machine description BASE with cpu keys set.
with() {
	base=$1 out=$2
	shift 2
	python3 - "$base" "$out" "$@" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
cpu = m.setdefault("cpu", {})
for kv in sys.argv[3:]:
    k, v = kv.split("=")
    cpu[k] = float(v)
json.dump(m, open(sys.argv[2], "w"))
PY
}

# kbs JSON: the first policy's pages over its makespan, kB/s.
kbs() {
	awk '/"pages_out"/ && !p { match($0, /"pages_out": [0-9]+/); po = substr($0, RSTART + 13, RLENGTH - 13) }
	     /"makespan_ns"/ && !m { match($0, /"makespan_ns": [0-9]+/); ms = substr($0, RSTART + 15, RLENGTH - 15); m = 1 }
	     END { printf "%.0f", po * 4 / (ms / 1e9) }' "$1"
}

"$SR" gen swap-w-seq --tasks=32 --size=64M --limit=1G --accesses=16384 --access-ns=1200 \
	--cpu-node=0 --mem-node=0 --cpus-per-node=36 -o c2.swt.zst
"$SR" gen swap-w-seq --tasks=8 --size=256M --limit=1G --accesses=65536 --access-ns=1500 \
	--cpu-node=0 --mem-node=0 --cpus-per-node=36 --thp=1 -o c3.swt.zst
"$SR" gen swap-w-rand --tasks=32 --size=64M --limit=1G --cpu-node=0 --mem-node=1 --kernel=5.18 -o c1.swt.zst

# bisect LO HI TARGET DIRECTION CMD: x in [LO, HI] where CMD x prints
# TARGET; DIRECTION -1 when CMD's output falls as x grows.
bisect() {
	lo=$1 hi=$2 target=$3 dir=$4
	shift 4
	i=0
	while [ $i -lt 20 ]; do
		mid=$(awk -v a="$lo" -v b="$hi" 'BEGIN { printf "%.1f", (a + b) / 2 }')
		y=$("$@" "$mid")
		if awk -v y="$y" -v t="$target" -v d="$dir" 'BEGIN { exit !((y - t) * d < 0) }'; then
			lo=$mid
		else
			hi=$mid
		fi
		if awk -v a="$lo" -v b="$hi" 'BEGIN { exit !(b - a < a * 0.001) }'; then
			break
		fi
		i=$((i + 1))
	done
	echo "$mid"
}

c2off() {
	with "$E5" m.json swap_lock_ns="$1" $FIXED
	"$SR" c2.swt.zst -m m.json -p reclaimer-nid --kernel=4.11 --slots-cache=off -f json >r.json
	kbs r.json
}
# The geometric mean of C2-on and C3-whole over their measurements, - 1.
ceiling() {
	with "$E5" m.json lru_lock_ns="$1" $FIXED
	"$SR" c2.swt.zst -m m.json -p reclaimer-nid --kernel=4.11 -f json >r.json
	a=$(kbs r.json)
	"$SR" c3.swt.zst -m m.json -p reclaimer-nid --kernel=4.13 -f json >r.json
	b=$(kbs r.json)
	awk -v a="$a" -v b="$b" 'BEGIN { printf "%.6f", sqrt(a / 4170746 * b / 4310000) - 1 }'
}
c1() {
	with pmem2.json m.json lru_refault_ns="$1" $FIXED
	"$SR" c1.swt.zst -m m.json -p reclaimer-nid,page-nid-strict --kernel=5.18 -f json >r.json
	awk '/"name": "page-nid-strict"/ { match($0, /"delta_pct": -?[0-9.]+/); print substr($0, RSTART + 13, RLENGTH - 13) }' r.json
}

FIXED=
lru=$("$SR" machines 2s-pmem2 | sed -n 's/.*LRU \([0-9]*\) ns per page reclaimed.*/\1/p')
FIXED="lru_lock_ns=$lru"
sl=$(bisect 200 10000 2050097 -1 c2off)
echo "swap_lock_ns $sl"
FIXED="swap_lock_ns=$sl"
ll=$(bisect 200 5000 0 -1 ceiling)
echo "lru_lock_ns $ll"
FIXED="lru_lock_ns=$ll"
sl2=$(bisect 200 10000 2050097 -1 c2off)
echo "swap_lock_ns $sl2 (again, with lru_lock_ns $ll)"
FIXED="swap_lock_ns=$sl2 lru_lock_ns=$ll"
rf=$(bisect 500 20000 -17.29 1 c1)
echo "lru_refault_ns $rf"
c2van() {
	with "$E5" m.json swap_cache_lock_ns="$1" $FIXED
	"$SR" c2.swt.zst -m m.json -p reclaimer-nid --kernel=4.10 -f json >r.json
	kbs r.json
}
FIXED="swap_lock_ns=$sl2 lru_lock_ns=$ll"
tl=$(bisect 200 10000 1428002 -1 c2van)
echo "swap_cache_lock_ns $tl"
