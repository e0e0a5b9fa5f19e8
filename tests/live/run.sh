#!/bin/sh
# make test-live: the capture on this machine's own kernel, with real
# swapping.  As root: a swap file of 256 MiB, a memory cgroup (v1) limited
# to 64 MiB, and tests/live/swapload.c built and run in it (160 MiB written,
# then read back twice), recorded by traces/capture/swapreplay-record (--probes=auto: kprobes
# where they attach, else tracepoints) with `vmstat -t 1` beside it.  Checks:
# - the capture's swap-out and swap-in pages against the pswpout and pswpin
#   deltas of /proc/vmstat over the recording (record's .info), and the
#   vmstat log read by `swapreplay stat` against the same counters;
# - capture-fixup's trace reads (`stat`), and replays on the machine
#   `machine --probe` described;
# - everything is undone (swapoff, the cgroup, the file, tracefs if the
#   capture mounted it), whatever fails.
# Skipped, with a line that says why, where it cannot run (not root, no
# bpftrace and no apt-get, no memory cgroup, swapon refused).
# Prints "ok NAME" / "FAIL NAME: why" / "skip NAME: why" and the counts.
set -u
R=$(cd "$(dirname "$0")/../.." && pwd)
SR=${SWAPREPLAY:-$R/build/swapreplay}
REC=$R/traces/capture/swapreplay-record
W=$(mktemp -d "${TMPDIR:-/tmp}/swapreplay-live.XXXXXX")
CG=/sys/fs/cgroup/memory/swapreplay-live.$$
SWAP=$W/swapfile
pass=0
fail=0
ok() { echo "ok live: $*"; pass=$((pass + 1)); }
bad() { echo "FAIL live: $*"; fail=$((fail + 1)); }
skip() {
	echo "skip live: $*"
	echo "0 passed, 0 failed (skipped)"
	rm -rf "$W"
	exit 0
}

swap_on=0
cleanup() {
	[ $swap_on = 1 ] && swapoff "$SWAP" 2>/dev/null
	if [ -d "$CG" ]; then
		# Tasks left in it go back to the root group first.
		for p in $(cat "$CG/cgroup.procs" 2>/dev/null); do
			echo "$p" >/sys/fs/cgroup/memory/cgroup.procs 2>/dev/null
		done
		rmdir "$CG" 2>/dev/null
	fi
	[ -n "${vmpid:-}" ] && kill "$vmpid" 2>/dev/null
	rm -rf "$W"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

[ "$(id -u)" = 0 ] || skip "not root: swapon and cgroups need it"
[ -d /sys/fs/cgroup/memory ] || skip "no memory cgroup (v1) at /sys/fs/cgroup/memory"
# The tools, installed from Debian where missing (bpftrace is not on a
# fresh machine): TOOL:PACKAGE.
for tp in bpftrace:bpftrace vmstat:procps filefrag:e2fsprogs mkswap:util-linux swapon:mount \
	zstd:zstd fallocate:util-linux; do
	t=${tp%%:*}
	command -v $t >/dev/null 2>&1 && continue
	command -v apt-get >/dev/null 2>&1 || skip "no $t and no apt-get to install it (${tp#*:})"
	{ apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${tp#*:}"; } >/dev/null 2>&1
	command -v $t >/dev/null 2>&1 || skip "$t could not be installed (apt-get install ${tp#*:})"
done
[ -x "$SR" ] || { bad "no $SR: build it first (make)"; exit 1; }
${CC:-cc} -O2 -o "$W/swapload" "$R/tests/live/swapload.c" || { bad "cannot build tests/live/swapload.c"; exit 1; }

# The swap file (fallocate'd: swapon takes its unwritten extents on ext4
# and xfs), then the cgroup.
fallocate -l 256M "$SWAP" 2>/dev/null || dd if=/dev/zero of="$SWAP" bs=1M count=256 2>/dev/null
chmod 600 "$SWAP"
mkswap "$SWAP" >/dev/null 2>&1 || skip "mkswap failed"
swapon "$SWAP" 2>"$W/swapon.err" || skip "swapon refused: $(cat "$W/swapon.err")"
swap_on=1
if [ "$(tail -n +2 /proc/swaps | wc -l)" -ne 1 ]; then
	skip "another swap area is on besides the test's: its I/O would be counted too"
fi
mkdir "$CG" && echo 64M >"$CG/memory.limit_in_bytes" || skip "cannot create a memory cgroup at $CG"
echo 60 >"$CG/memory.swappiness" 2>/dev/null

# vmstat -t 1 through the recording, and the recording: the workload runs
# from 5 s in, for about 6 s: bpftrace takes under 1 s to attach here, the
# record script's checks and machine --probe a little more, and a swap-out
# before the attach would be counted by the kernel and not the capture.
counters() { awk '$1 == "pswpin" { i = $2 } $1 == "pswpout" { o = $2 } END { print o, i }' /proc/vmstat; }
set -- $(counters)
vo0=$1 vi0=$2
vmstat -n -t 1 >"$W/vmstat.log" 2>/dev/null &
vmpid=$!
start=$(date +%s)
sh "$REC" --duration=15 -o "$W/run" --swapreplay="$SR" >"$W/record.out" 2>&1 &
recpid=$!
sleep 5
sh -c "echo \$\$ >$CG/cgroup.procs && exec $W/swapload 160 2 2" >"$W/load.out" 2>&1
lrc=$?
wait $recpid
rrc=$?
sleep 1
kill "$vmpid" 2>/dev/null
wait "$vmpid" 2>/dev/null
vmpid=
set -- $(counters)
vo=$(($1 - vo0)) vi=$(($2 - vi0))
secs=$(($(date +%s) - start))
[ $lrc = 0 ] && ok "the workload ran in the cgroup (two children in turn, 80 MiB each under a 64 MiB limit)" || bad "workload: status $lrc: $(cat "$W/load.out")"
if [ $rrc = 0 ]; then
	ok "swapreplay-record: status 0, $(grep -o 'probes: [a-z]*' "$W/run.info" | head -1)"
else
	bad "swapreplay-record: status $rrc: $(tail -5 "$W/record.out")"
fi
sed 's/^/    /' "$W/run.info" 2>/dev/null

# The capture's pages against the kernel's counters.  The workload runs
# wholly inside the recording and nothing else swaps (the one swap area
# is the test's, the cgroup's limit the only pressure), so the counts are
# exact but for what another task of the machine swapped meanwhile:
# tolerance 1 %.
# within PCT A B: A is within PCT % of B (B > 0).
within() {
	awk -v p="$1" -v a="$2" -v b="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(b > 0 && d * 100 <= p * b) }'
}
for dir in out:pswpout in:pswpin; do
	what=swap-${dir%%:*}s
	set -- $(sed -n "s/^$what: pages \([0-9]*\), ${dir#*:} delta \([0-9]*\), ratio .*/\1 \2/p" "$W/run.info")
	if [ $# = 2 ] && [ "$2" -gt 1000 ] && within 1 "$1" "$2"; then
		ok "$what: $1 pages captured, ${dir#*:} delta $2 (within 1 %)"
	else
		bad "$what: $(grep "^$what" "$W/run.info")"
	fi
done

# The trace reads, and replays on the probed machine.
if "$SR" stat "$W/run.csv.zst" >"$W/stat.txt" 2>"$W/stat.err"; then
	ok "stat reads the trace: $(grep '^events:' "$W/stat.txt")"
else
	bad "stat: $(cat "$W/stat.err")"
fi
# Latencies: an event whose request's completion the capture missed has
# none.  The kernel does not run a BPF program on a CPU where one is
# running already (trace_call_bpf()), and completions come in interrupts,
# so some are missed: 0 % to 10 % of the events in six runs here.  At
# least 75 % must have one.
ev=$(sed -n 's/^events: *\([0-9]*\).*/\1/p' "$W/stat.txt")
lat=$(sed -n 's/^recorded latency: *\([0-9]*\) events.*/\1/p' "$W/stat.txt")
if [ -n "$ev" ] && [ -n "$lat" ] && [ "$((lat * 100))" -ge "$((ev * 75))" ]; then
	ok "latency recorded for $lat of $ev events ($((lat * 100 / ev)) %, at least 75 %)"
else
	bad "latency recorded for ${lat:-?} of ${ev:-?} events: more than a quarter of the completions missed"
fi
# Its rows: a policy's, then, the trace naming its memcgs, one per policy
# and memcg (docs/REPORT.md, csv).
if "$SR" "$W/run.csv.zst" --machine="$W/run.machine.json" -p reclaimer-nid,hybrid -f csv >"$W/rep.csv" 2>"$W/rep.err" &&
	[ "$(grep -c '^reclaimer-nid,' "$W/rep.csv")" -ge 1 ] && [ "$(grep -c '^hybrid,' "$W/rep.csv")" -ge 1 ]; then
	ok "the trace replays on the probed machine (run.machine.json)"
else
	bad "replay: $(cat "$W/rep.err") $(head -3 "$W/rep.csv")"
fi
# The workload's pages are the cgroup's: stat names its memcg by the
# cgroup's path (the tracepoint capture numbers its memcgs itself).
if grep -q "^  1 /${CG##*/}: pages out" "$W/stat.txt"; then
	ok "the trace names the workload's memcg: $(grep "^  1 /" "$W/stat.txt")"
else
	bad "memcg of the workload (/${CG##*/}): $(grep -A3 '^memcgs' "$W/stat.txt")"
fi
# The trace against its own machine (replay --check-recorded): the events
# with a recorded latency are the ones stat counts, and the table of
# recorded against predicted is shown.
if "$SR" "$W/run.csv.zst" --machine="$W/run.machine.json" -p reclaimer-nid --check-recorded \
	-f json -q >"$W/chk.json" 2>"$W/chk.err"; then
	tin=$(sed -n 's/.*"recorded": {"swapins_timed": \([0-9]*\).*/\1/p' "$W/chk.json")
	tout=$(sed -n 's/.*"swapouts_timed": \([0-9]*\).*/\1/p' "$W/chk.json")
	if [ -n "$tin" ] && [ -n "$tout" ] && [ "$((tin + tout))" = "${lat:-x}" ]; then
		ok "--check-recorded: $tin swap-ins and $tout swap-outs timed, as stat counts ($lat)"
	else
		bad "--check-recorded: ${tin:-?} + ${tout:-?} timed events, stat counts ${lat:-?}"
	fi
	"$SR" "$W/run.csv.zst" --machine="$W/run.machine.json" -p reclaimer-nid --check-recorded -q |
		sed -n '/^recorded against predicted/,/^throughput/p' | sed 's/^/    /'
else
	bad "--check-recorded: $(cat "$W/chk.err")"
fi

# machine --probe --measure with the real fio (Debian's, installed here
# if missing), the swap file on and idle: figures measured and cited,
# nothing left beside the swap file, /proc/swaps as it was, the
# description loads, within its time.
if ! command -v fio >/dev/null 2>&1 && command -v apt-get >/dev/null 2>&1; then
	{ apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq fio; } >/dev/null 2>&1
fi
if command -v fio >/dev/null 2>&1; then
	swaps=$(cat /proc/swaps)
	t0=$(date +%s)
	if "$SR" machine --probe --measure=12 -q -o "$W/measured.json" 2>"$W/measure.err"; then
		t1=$(date +%s)
		n=$(grep -c '"measured by fio' "$W/measured.json")
		left=$(ls -A "$W" | grep -c '^\.swapreplay-measure\.')
		if [ "$n" -ge 3 ] && [ "$left" = 0 ] && [ "$(cat /proc/swaps)" = "$swaps" ] &&
			"$SR" machines "$W/measured.json" -q >"$W/measured.txt" 2>&1 &&
			[ $((t1 - t0)) -le 60 ]; then
			ok "machine --probe --measure: $n figures measured by fio in $((t1 - t0)) s, nothing left behind, the description loads"
			grep -A1 '^device 0' "$W/measured.txt" | sed 's/^/    /'
		else
			bad "machine --probe --measure: $n figures, $left files left, $((t1 - t0)) s: $(head -3 "$W/measured.txt" 2>/dev/null)"
		fi
	else
		bad "machine --probe --measure: $(tail -3 "$W/measure.err")"
	fi
else
	echo "note live: fio could not be installed (apt-get install fio): --measure not checked"
fi

# The workload's forks, exits and waits (the tracepoint capture's task
# ops): the parent forked each child, each child exited, and the parent's
# waitpid() returned it.
if [ "$(grep -o 'probes: [a-z]*' "$W/run.info" | head -1)" = "probes: tracepoint" ]; then
	parent=$(sed -n 's/^parent //p' "$W/load.out")
	kids=$(sed -n 's/^child //p' "$W/load.out" | tr '\n' ' ')
	"$SR" convert -q "$W/run.csv.zst" "$W/run.csv" 2>"$W/conv.err"
	miss=
	for c in $kids; do
		awk -F, -v p="$parent" -v c="$c" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "child") k = i; next }
			$2 == "fork" && $3 == p && $k == c { f = 1 }
			$2 == "exit" && $3 == c { x = 1 } $2 == "wait" && $3 == p && $k == c { w = 1 }
			END { exit !(k && f && x && w) }' "$W/run.csv" || miss="$miss $c"
	done
	if [ -n "$parent" ] && [ -n "$kids" ] && [ -z "$miss" ]; then
		ok "task ops: parent $parent forked, waited for and saw the exit of children $kids"
	else
		bad "task ops: parent ${parent:-?}, children ${kids:-?}: not all of fork, exit and wait found for$miss $(cat "$W/conv.err"); the trace's: $(head -1 "$W/run.csv"); $(grep -m3 ',fork,\|,wait,' "$W/run.csv" | tr '\n' ' '); $(grep -c ",$parent," "$W/run.csv") lines naming $parent"
	fi
fi

# vmstat's log, read by stat, gives the kernel's page counts over its
# span (stat's pages are the pswpin/pswpout deltas between its first and
# last lines).
# The log's lines are vmstat's samples, 1 s apart, the first before the
# workload and the last after it: their sum is the counters' delta.
if "$SR" stat "$W/vmstat.log" >"$W/vstat.txt" 2>"$W/vstat.err"; then
	set -- $(sed -n 's/^pages: *out \([0-9]*\), in \([0-9]*\).*/\1 \2/p' "$W/vstat.txt")
	if [ $# = 2 ] && [ "$1" = "$vo" ] && [ "$2" = "$vi" ]; then
		ok "stat of the vmstat -t 1 log: out $1, in $2 pages, the pswpout/pswpin deltas exactly"
	else
		bad "stat of the vmstat log: '$(grep '^pages:' "$W/vstat.txt")', the counters moved by out $vo, in $vi"
	fi
else
	bad "stat of the vmstat log: $(cat "$W/vstat.err")"
fi
echo "live: ${secs} s"
# What the record script said, when something failed (CI keeps only this).
[ $fail -gt 0 ] && grep -v '^swapreplay-record: fields' "$W/record.out" | tail -15 | sed 's/^/    record: /'

# Undone: checked after the cleanup, in a subshell-free way.
trap - EXIT
cleanup
swap_on=0
if grep -q "$SWAP" /proc/swaps || [ -d "$CG" ] || [ -e "$W" ]; then
	bad "not cleaned up: $(grep "$SWAP" /proc/swaps) $( [ -d "$CG" ] && echo "$CG") $( [ -e "$W" ] && echo "$W")"
else
	ok "cleaned up: swapoff, the cgroup and the files are gone"
fi
echo "$pass passed, $fail failed"
[ $fail = 0 ]
