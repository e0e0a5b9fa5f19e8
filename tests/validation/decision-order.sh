#!/bin/sh
# Whether the decisions' order moves the figures (issue 31; docs/MODEL.md,
# "The core"): a study, by hand, not a row of the suite.
#
#   sh tests/validation/decision-order.sh      (after make)
#
# The decisions (device, slots, slots cache, readahead, plugs) are taken in
# the trace's order, and each simulation plays its events in simulated
# time.  tests/validation/decision_order.c replays a trace as it is (pass
# 1), then with its events given in the order the simulation played them
# (pass 2: the decisions in the simulation's order; its simulation plays
# in its own time again), then in pass 2's order (pass 3).  This runs it
# on the suite's traces (the cases' own commands, below), one policy at a
# time, and prints each pass: makespan, mean swap-in latency, throughput,
# swap-ins found in the swap cache, swap-ins whose swap-out was not found,
# events given out of recorded time's order (late), order_behind.  Takes
# about 10 s.
set -eu
V=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$V/../.." && pwd)
SR=$ROOT/build/swapreplay
LIB=$ROOT/build/libswapreplay.a
if [ ! -x "$SR" ] || [ ! -f "$LIB" ]; then
	echo "decision-order: build first (make)" >&2
	exit 1
fi
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT INT TERM
cd "$W"
# shellcheck disable=SC2046
${CC:-cc} -std=c11 -O2 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -I"$ROOT/include" \
	-I"$ROOT/src" -o decision_order "$V/decision_order.c" "$LIB" -lzstd -ljansson -lcsv \
	$(pkg-config --libs cairo fontconfig 2>/dev/null || echo -lcairo -lfontconfig) -lm -ldl -pthread

# study NAME TRACE MACHINE POLICY KERNEL SLOTS_CACHE READAHEAD
study() {
	echo "== $1: $4 on $(basename "$3"), kernel $5, slots cache $6, readahead $7"
	./decision_order "$2" "$3" "$4" "$5" "$6" "$7" 3
}
RA_DEF="auto;page-cluster=3;window=adaptive;holes=skip;memory=0"

# C1 (c1-page-nid/case.sh): 32 tasks, memory on the other node, 2s-pmem2.
"$SR" gen swap-w-rand --tasks=32 --size=64M --limit=1G --cpu-node=0 --mem-node=1 -o c1.swt.zst
study C1 c1.swt.zst 2s-pmem2 reclaimer-nid 6.6 1 "$RA_DEF"
study C1 c1.swt.zst 2s-pmem2 page-nid-strict 6.6 1 "$RA_DEF"
# C2 (c2-slots-cache/case.sh): 32 sequential writers on 4.11, the slots
# cache off and on.
M2=$V/c2-slots-cache/e5v3-ram-pmem.json
"$SR" gen swap-w-seq --tasks=32 --size=64M --limit=1G --accesses=16384 --access-ns=1200 \
	--cpu-node=0 --mem-node=0 --cpus-per-node=36 -m "$M2" --kernel=4.11 -o c2.swt.zst
study C2 c2.swt.zst "$M2" reclaimer-nid 4.11 0 "$RA_DEF"
study C2 c2.swt.zst "$M2" reclaimer-nid 4.11 1 "$RA_DEF"
# C4 (c4-vma-readahead/case.sh): the sequential and random mix, cluster
# readahead on 4.13, 512 MiB.
"$SR" gen swap-w-seq --tasks=4 --size=200M --random-tasks=8 --random-size=61440K --limit=512M \
	--accesses=102400 --cpu-node=0 --mem-node=0 --cpus-per-node=36 --access-ns=1200 \
	--readahead=cluster -m 2s-nvme0 --kernel=4.13 -o c4.swt.zst
study C4 c4.swt.zst 2s-nvme0 reclaimer-nid 4.13 1 "cluster;page-cluster=3;window=adaptive;holes=skip;memory=131072"
# S1 (c9-holes-study/case.sh): make -j20 and -j40 on its hdd, skipping
# holes, 64 MiB.
M9=$V/c9-holes-study/hdd.json
for N in 20 40; do
	"$SR" gen kbuild --tasks=160 --jobs=$N --size=4608K --limit=64M --cpu-node=0 --mem-node=0 \
		--cpus-per-node=8 --readahead=cluster --readahead-window=fixed --readahead-holes=skip \
		-m "$M9" --kernel=4.0 -o s1.swt.zst
	study "S1 -j$N" s1.swt.zst "$M9" reclaimer-nid 4.0 1 "cluster;page-cluster=3;window=fixed;holes=skip;memory=16384"
done
# The bundled sample on 2s-nvme2, each of the README's three policies.
for p in reclaimer-nid page-nid hybrid; do
	study sample "$ROOT/traces/sample.swt.zst" 2s-nvme2 $p 6.6 1 "$RA_DEF"
done
