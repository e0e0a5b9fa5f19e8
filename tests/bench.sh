#!/bin/sh
# make bench: reading and replay speed against `zstd -dc` on the same file,
# medians of 3 runs, and peak memory at 1M and 10M events, on gen's traces
# and on traces of tests/bench/writer.c (many tasks, random offsets, a
# saturated NVMe, policies that part); what a calendar reservation costs by
# its backlog (tests/bench/calbench.c).  Figures are ratios measured in one
# run, as these machines are shared and noisy.
set -eu
SR=${1:-build/swapreplay}
D=${BENCH_DIR:-$(mktemp -d)}
mkdir -p "$D"
RUNS=${BENCH_RUNS:-3}
# BENCH_SECTIONS: which parts to run (default all): read replay sweep
# writer calendar.  BENCH_HUGE=1 adds the 100M-event trace (minutes, and
# about 1.3 GB in $D).
SECTIONS=${BENCH_SECTIONS:-read replay sweep writer calendar}
P=reclaimer-nid,page-nid,hybrid
want() {
	case " $SECTIONS " in *" $1 "*) return 0 ;; esac
	return 1
}
if ! [ -x /usr/bin/time ]; then
	if [ "$(id -u)" = 0 ]; then
		apt-get install -y -qq time >/dev/null
	else
		echo "bench: needs GNU time: sudo apt-get install -y time" >&2
		exit 1
	fi
fi

# Wall time of one run of a command, in seconds to the millisecond (GNU
# time's %e has only hundredths, a few per cent of a sweep's 0.4 s); the
# output is discarded.
once() {
	t0=$(date +%s%N)
	sh -c "$1 >/dev/null" || echo "bench: failed: $1" >&2
	t1=$(date +%s%N)
	awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f\n", (b - a) / 1e9 }'
}
# Median of the numbers on standard input.
median() {
	sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'
}
# Median wall time of a command, in seconds.
med() {
	for i in $(seq "$RUNS"); do
		once "$1"
	done | median
}
# Peak resident memory of a command, KiB.
peak() {
	/usr/bin/time -f %M sh -c "exec $1 >/dev/null" 2>&1 | tail -1
}

if want read || want replay || want sweep; then
# The traces: swap-w-rand with enough accesses for ~1M and ~10M events.
echo "generating traces in $D ..."
[ -f "$D/e1m.swt.zst" ] || $SR gen swap-w-rand --tasks=32 --size=64M --limit=1G --accesses=48000 -o "$D/e1m.swt.zst"
[ -f "$D/e10m.swt.zst" ] || $SR gen swap-w-rand --tasks=32 --size=64M --limit=1G --accesses=335000 -o "$D/e10m.swt.zst"
for f in csv jsonl; do
	[ -f "$D/e10m.$f.zst" ] || $SR convert "$D/e10m.swt.zst" "$D/e10m.$f.zst"
done
[ -f "$D/e1m.csv.zst" ] || $SR convert "$D/e1m.swt.zst" "$D/e1m.csv.zst"
n10=$($SR stat --format=json "$D/e10m.swt.zst" | awk -F'"out":|,"in":|}' '/"events"/ { print $2 + $3; exit }')
n1=$($SR stat --format=json "$D/e1m.swt.zst" | awk -F'"out":|,"in":|}' '/"events"/ { print $2 + $3; exit }')
echo "events: $n1 (1M trace), $n10 (10M trace)"
echo
fi

# What this shared machine gives two threads at the moment: two
# decompressions at once against one (1.00 would be two full CPUs).  A
# one-pass replay runs on two threads and a sweep -j 2 on two workers, so
# their figures move with this one.  Its last figure, two decompressions at
# once against two in a row, is what a sweep's -j 2 against -j 1 would be
# for work that splits perfectly in two and leans on memory as zstd does.
# The CPUs need not be alike either: on these machines one of the two often
# runs memory-bound work much slower than the other for minutes (its twin
# on the host is busy), and a one-pass replay's two threads then go at the
# pace of whichever lands on it.  So the same decompression is also timed
# pinned to each CPU in turn (taskset, from util-linux).  ref2 [FILE]: on
# FILE, the 10M gen trace by default.
ref2() {
	rf=${1:-$D/e10m.swt.zst}
	r1=$(med "zstd -dc $rf")
	r2=$(med "zstd -dc $rf >/dev/null & zstd -dc $rf >/dev/null; wait")
	awk -v a=$r1 -v b=$r2 'BEGIN { printf "reference: one zstd -dc %.2fs, two at once %.2fs: two threads run at %.2f of two CPUs now (two decompressions at once take %.2f of two in a row)\n", a, b, a / b, b / (2 * a) }'
	if command -v taskset >/dev/null 2>&1; then
		cpus=$(taskset -pc $$ 2>/dev/null | sed 's/.*: //')
		line="reference: zstd -dc pinned to each CPU:"
		for c in $(echo "$cpus" | tr ',' ' '); do
			case $c in *-*) c=$(seq ${c%-*} ${c#*-}) ;; esac
			for cc in $c; do
				line="$line cpu$cc $(med "taskset -c $cc zstd -dc $rf")s"
			done
		done
		echo "$line"
	fi
}

if want read; then
echo "== reading (swapreplay stat), median of $RUNS =="
printf '%-8s %10s %10s %12s %8s\n' format "zstd -dc" read "events/s" ratio
for f in swt csv jsonl; do
	# In turn each round, so that both see the same moments of the machine.
	: >"$D/rd.times"
	for i in $(seq "$RUNS"); do
		echo "z $(once "zstd -dc $D/e10m.$f.zst")" >>"$D/rd.times"
		echo "r $(once "$SR stat $D/e10m.$f.zst")" >>"$D/rd.times"
	done
	z=$(awk '$1 == "z" { print $2 }' "$D/rd.times" | median)
	r=$(awk '$1 == "r" { print $2 }' "$D/rd.times" | median)
	awk -v f=$f -v z=$z -v r=$r -v n=$n10 'BEGIN { printf "%-8s %9.2fs %9.2fs %12.0f %7.2fx\n", f, z, r, n / r, r / z }'
done
ref2 # CSV and JSON lines read on two threads
echo "targets: swt <= 1.3x, csv <= 5x"
echo
echo "== peak memory while reading (KiB) =="
for f in swt csv; do
	a=$(peak "$SR stat $D/e1m.$f.zst"); b=$(peak "$SR stat $D/e10m.$f.zst")
	awk -v f=$f -v a=$a -v b=$b 'BEGIN { printf "%-8s 1M: %8d  10M: %8d  (%+.1f %%)\n", f, a, b, (b - a) * 100 / a }'
done
echo "target: within 10 %"
echo
fi

if want replay; then
# replay_bench LABEL OPTIONS: one pass of $P against three separate runs
# and zstd -dc.  The five are timed in turn in each round, so that they see
# the same moments of this shared machine, and each gets its median.
replay_bench() {
	: >"$D/rb.times"
	for i in $(seq "$RUNS"); do
		tz=$(once "zstd -dc $D/e10m.swt.zst")
		to=$(once "$SR $D/e10m.swt.zst $2 -p $P -f csv")
		echo "z $tz" >>"$D/rb.times"
		echo "o $to" >>"$D/rb.times"
		echo "q $(awk -v a="$tz" -v b="$to" 'BEGIN { print b / a }')" >>"$D/rb.times"
		echo "a $(once "$SR $D/e10m.swt.zst $2 -p reclaimer-nid -f csv")" >>"$D/rb.times"
		echo "b $(once "$SR $D/e10m.swt.zst $2 -p page-nid --baseline=page-nid -f csv")" >>"$D/rb.times"
		echo "c $(once "$SR $D/e10m.swt.zst $2 -p hybrid --baseline=hybrid -f csv")" >>"$D/rb.times"
	done
	z=$(awk '$1 == "z" { print $2 }' "$D/rb.times" | median)
	one=$(awk '$1 == "o" { print $2 }' "$D/rb.times" | median)
	s1=$(awk '$1 == "a" { print $2 }' "$D/rb.times" | median)
	s2=$(awk '$1 == "b" { print $2 }' "$D/rb.times" | median)
	s3=$(awk '$1 == "c" { print $2 }' "$D/rb.times" | median)
	q=$(awk '$1 == "q" { print $2 }' "$D/rb.times" | median)
	awk -v l="$1" -v z=$z -v o=$one -v q=$q -v a=$s1 -v b=$s2 -v c=$s3 -v n=$n10 'BEGIN {
		printf "%s:\n  zstd -dc %.3fs; one pass %.3fs (%.0f events/s, %.2fx zstd -dc; median of the rounds %.2fx); three separate runs %.2fs (%.2f + %.2f + %.2f; one pass is %.2fx faster)\n",
			l, z, o, n / o, o / z, q, a + b + c, a, b, c, (a + b + c) / o }'
}
echo "== replay of the 10M binary trace, $P, median of $RUNS =="
# On 2s-pmem2 with the slots cache the three policies place every page
# alike, so they share one simulation (docs/MODEL.md, "shared
# simulations"); without the cache page-nid parts from the other two at
# the first event: two simulations.
replay_bench "2s-pmem2 (the three policies agree: one simulation)" "-m 2s-pmem2"
replay_bench "2s-pmem2 --slots-cache=off (page-nid parts: two simulations)" "-m 2s-pmem2 --slots-cache=off"
# Readahead (docs/MODEL.md, "Readahead and the swap cache"): off, against
# the default kernel's VMA readahead (the trace carries gen's addresses)
# and cluster readahead (the kernel's slots laid out per policy), with the
# trace's memory (the generator's 1 GiB), on the same trace.
replay_bench "2s-nvme2 --readahead=off" "-m 2s-nvme2 --readahead=off"
replay_bench "2s-nvme2, readahead vma (the default here) --memory=1G" "-m 2s-nvme2 --memory=1G"
replay_bench "2s-nvme2 --readahead=cluster --memory=1G" "-m 2s-nvme2 --readahead=cluster --memory=1G"
ref2
echo "targets: one pass <= 1.5x zstd -dc, >= 2.5x faster than three runs"
a=$(peak "$SR $D/e1m.swt.zst -m 2s-pmem2 -p $P -f csv"); b=$(peak "$SR $D/e10m.swt.zst -m 2s-pmem2 -p $P -f csv")
awk -v a=$a -v b=$b 'BEGIN { printf "replay peak memory KiB: 1M: %d  10M: %d  (%+.1f %%)\n", a, b, (b - a) * 100 / a }'
# gen's traces: the same 234k-262k recorded slots in use at 1M and 10M
# events, but spread over more of the device at 10M (the allocator moves
# on: the highest offset 19M at 1M events, 166M at 10M), so in 3.5x the
# slot map's chunks of 512 cells (1022 against 3527): about +25 MB.
echo "(memory grows with the spread of the recorded slots in use, not with trace length)"
# --uncertainty: the variants share the decisions (docs/MODEL.md, "What a
# variant costs"), so 50 of them cost 50 x the simulations, not 51 replays.
a=$(peak "$SR $D/e10m.swt.zst -m 2s-pmem2 -p $P -f csv -q")
t0=$(date +%s.%N)
b=$(peak "$SR $D/e10m.swt.zst -m 2s-pmem2 -p $P -f csv -q -u 50")
t1=$(date +%s.%N)
awk -v a=$a -v b=$b -v t=$(echo "$t1 $t0" | awk '{ print $1 - $2 }') 'BEGIN {
	printf "replay peak memory KiB, 10M events, -u 0: %d  -u 50: %d (%.2f MiB a variant; -u 50 took %.1f s)\n",
		a, b, (b - a) / 50 / 1024, t }'
echo
fi

if want sweep; then
echo "== sweep: 8 traces x 2 machines x all policies, -j 1 against -j 2, median of $RUNS =="
mkdir -p "$D/sweep"
for i in 1 2 3 4 5 6 7 8; do
	[ -f "$D/sweep/t$i.swt.zst" ] || $SR gen swap-w-rand --tasks=32 --size=32M --limit=512M --seed=$i -o "$D/sweep/t$i.swt.zst"
done
# -j 1 and -j 2 in turn each round (the same moments of the machine); the
# ratio of the medians, and the median of each round's ratio.
: >"$D/sw.times"
for i in $(seq "$RUNS"); do
	a=$(once "rm -f $D/s1.jsonl; $SR sweep $D/sweep -m 2s-pmem2,2s-nvme2 -p all -j 1 -q -o $D/s1.jsonl")
	b=$(once "rm -f $D/s2.jsonl; $SR sweep $D/sweep -m 2s-pmem2,2s-nvme2 -p all -j 2 -q -o $D/s2.jsonl")
	echo "$a $b" >>"$D/sw.times"
done
j1=$(awk '{ print $1 }' "$D/sw.times" | median)
j2=$(awk '{ print $2 }' "$D/sw.times" | median)
jr=$(awk '{ print $2 / $1 }' "$D/sw.times" | median)
cmp -s "$D/s1.jsonl" "$D/s2.jsonl" && same="identical rows" || same="ROWS DIFFER"
awk -v a=$j1 -v b=$j2 -v r=$jr -v s="$same" 'BEGIN { printf "-j 1: %.3fs  -j 2: %.3fs  ratio %.3f (median of the rounds: %.3f; %s)\n", a, b, b / a, r, s }'
ref2
echo "target: -j 2 takes at most 0.55 of -j 1"
fi

# Traces that do not flatter (issue 18): written by tests/bench/writer.c,
# which shares no code with swapreplay: 64 tasks on both nodes, random
# swap offsets, 60 % swap-outs, the footprint bounded (1 GiB of slots), no
# think time to speak of, so that the write-bound NVMe saturates and the
# policies part (hybrid moves half the pages; on 2s-nvme2 page-nid parts
# from reclaimer-nid with --slots-cache=off).
SRB=$(dirname "$SR")
CCB="${CC:-cc} -std=c11 -O2 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE"
if want writer; then
	$CCB -o "$D/writer" tests/bench/writer.c -lm
	for n in 1 10; do
		[ -f "$D/w${n}m.swt.zst" ] || "$D/writer" ${n}000000 | zstd -q -3 -o "$D/w${n}m.swt.zst"
	done
	if [ "${BENCH_HUGE:-0}" = 1 ] && ! [ -f "$D/w100m.swt.zst" ]; then
		echo "writing the 100M-event trace ..."
		"$D/writer" 100000000 | zstd -q -3 -o "$D/w100m.swt.zst"
	fi
	W10=$D/w10m.swt.zst
	echo "== independent traces (tests/bench/writer.c: 64 tasks, random offsets, 60 % swap-outs), 10M events, median of $RUNS =="
	# writer_bench LABEL OPTIONS: zstd -dc, $P in one pass and as three
	# runs (the first, reclaimer-nid, is the one policy), in turn each
	# round; medians, and the medians of each round's ratios.
	writer_bench() {
		: >"$D/wb.times"
		for i in $(seq "$RUNS"); do
			tz=$(once "zstd -dc $W10")
			to=$(once "$SR $W10 $2 -q -p $P -f csv")
			ta=$(once "$SR $W10 $2 -q -p reclaimer-nid -f csv")
			tb=$(once "$SR $W10 $2 -q -p page-nid --baseline=page-nid -f csv")
			tc=$(once "$SR $W10 $2 -q -p hybrid --baseline=hybrid -f csv")
			echo "$tz $ta $to $ta $tb $tc" >>"$D/wb.times"
		done
		awk -v l="$1" '
			function med(col,   i, n, v, t, j) {
				n = 0
				for (i = 1; i <= NR; i++) v[++n] = col == "r1" ? c2[i] / c1[i] : col == "ro" ? c3[i] / c1[i] : col == "rs" ? (c4[i] + c5[i] + c6[i]) / c3[i] : x[i, col]
				for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (v[j] < v[i]) { t = v[i]; v[i] = v[j]; v[j] = t }
				return v[int((n + 1) / 2)]
			}
			{ for (k = 1; k <= 6; k++) x[NR, k] = $k; c1[NR] = $1; c2[NR] = $2; c3[NR] = $3; c4[NR] = $4; c5[NR] = $5; c6[NR] = $6 }
			END {
				printf "%s:\n  zstd -dc %.3fs; one policy %.3fs (%.2fx zstd -dc); one pass of three %.3fs (%.2fx zstd -dc); three separate runs %.2fs (%.2fx the one pass)\n",
					l, med(1), med(2), med("r1"), med(3), med("ro"), med(4) + med(5) + med(6), med("rs")
			}' "$D/wb.times"
	}
	writer_bench "2s-nvme2, mechanisms off (--readahead=off --plug=off)" "-m 2s-nvme2 --readahead=off --plug=off"
	writer_bench "2s-nvme2 --slots-cache=off, mechanisms off (page-nid parts too)" "-m 2s-nvme2 --slots-cache=off --readahead=off --plug=off"
	writer_bench "2s-nvme2, mechanisms on (VMA readahead and the swap cache, plugging)" "-m 2s-nvme2"
	writer_bench "2s-nvme0, mechanisms off" "-m 2s-nvme0 --readahead=off --plug=off"
	writer_bench "2s-nvme0, mechanisms on" "-m 2s-nvme0"
	ref2 "$W10"
	echo "targets: one policy <= 1.5x zstd -dc, three in one pass <= 2.5x zstd -dc (the CPU and lock model is always on: a machine's figures must be positive)"

	# What each mechanism adds per event: one policy on 2s-nvme2, all off
	# against each one on, in turn each round.
	: >"$D/mech.times"
	for i in $(seq "$RUNS"); do
		echo "off $(once "$SR $W10 -m 2s-nvme2 -q -p reclaimer-nid -f csv --readahead=off --plug=off")" >>"$D/mech.times"
		echo "plug $(once "$SR $W10 -m 2s-nvme2 -q -p reclaimer-nid -f csv --readahead=off --plug=on")" >>"$D/mech.times"
		echo "vma $(once "$SR $W10 -m 2s-nvme2 -q -p reclaimer-nid -f csv --readahead=vma --plug=off")" >>"$D/mech.times"
		echo "cluster $(once "$SR $W10 -m 2s-nvme2 -q -p reclaimer-nid -f csv --readahead=cluster --plug=off")" >>"$D/mech.times"
		echo "all $(once "$SR $W10 -m 2s-nvme2 -q -p reclaimer-nid -f csv")" >>"$D/mech.times"
	done
	off=$(awk '$1 == "off" { print $2 }' "$D/mech.times" | median)
	line="mechanisms, one policy on 2s-nvme2, ns per event over all off (${off}s):"
	for m in plug vma cluster all; do
		t=$(awk -v m=$m '$1 == m { print $2 }' "$D/mech.times" | median)
		line="$line $m $(awk -v a=$t -v b=$off 'BEGIN { printf "%+.0f", (a - b) * 1e9 / 10000000 }')"
	done
	echo "$line"

	# The simulations on threads of their own (--sim-thread=1, 2) against
	# the replay's one thread, for three policies (two simulations: hybrid
	# parts from the other two) and for one: what the default's rule on
	# two CPUs rests on (src/cli/cmd_replay.c, sim_thread_auto() and
	# sim_threads()), and the scaling of the parting simulations over
	# threads of their own.
	for pols in "$P" reclaimer-nid; do
		: >"$D/st.times"
		ths="0 1 2"
		[ "$pols" = reclaimer-nid ] && ths="0 1"
		for i in $(seq "$RUNS"); do
			for n in $ths; do
				echo "$n $(once "$SR $W10 -m 2s-nvme2 -q -p $pols -f csv --sim-thread=$n")" >>"$D/st.times"
			done
		done
		line="$pols on 2s-nvme2: --sim-thread=off"
		off=$(awk '$1 == 0 { print $2 }' "$D/st.times" | median)
		line="$line $(printf '%.2fs' "$off")"
		for n in $ths; do
			[ "$n" = 0 ] && continue
			t=$(awk -v n=$n '$1 == n { print $2 }' "$D/st.times" | median)
			line="$line, $n $(awk -v a=$off -v b=$t 'BEGIN { printf "%.2fs (%.2fx)", b, a / b }')"
		done
		echo "$line"
	done

	echo "== peak memory of a replay, independent traces (KiB) =="
	for o in "--readahead=off --plug=off" ""; do
		a=$(peak "$SR $D/w1m.swt.zst -m 2s-nvme2 -q -p $P -f csv $o")
		b=$(peak "$SR $W10 -m 2s-nvme2 -q -p $P -f csv $o")
		c=""
		[ -f "$D/w100m.swt.zst" ] && c=$(peak "$SR $D/w100m.swt.zst -m 2s-nvme2 -q -p $P -f csv $o")
		awk -v a=$a -v b=$b -v c="$c" -v o="${o:-mechanisms on}" 'BEGIN {
			printf "2s-nvme2, three policies, %s: 1M: %d  10M: %d (%+.1f %%)", o, a, b, (b - a) * 100 / a
			if (c != "") printf "  100M: %d (%+.1f %%)", c, (c - a) * 100 / a
			printf "\n" }'
	done
	echo "target: within 10 % (the footprint is the same: 1 GiB of recorded slots)"
	echo
fi

if want calendar; then
	echo "== one reservation on a saturated calendar, by its backlog (tests/bench/calbench.c) =="
	$CCB -Iinclude -Isrc -o "$D/calbench" tests/bench/calbench.c "$SRB/libswapreplay.a" -lm
	"$D/calbench"
	echo "target: flat in the backlog (requests before the window are served at once: stale)"
fi
