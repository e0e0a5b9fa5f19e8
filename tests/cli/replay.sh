#!/bin/sh
# Scripted tests of the replay core (run by tests/run.sh; prints "ok NAME"
# or "FAIL NAME: why" lines).  $SR is the binary, maybe behind valgrind;
# $SR_BIN the binary itself; $T the tests folder; $W a scratch folder.
#
# - The calibration cases of docs/MODEL.md and ../shared/DOMAIN.md on the
#   calibration workload (swapreplay gen swap-w-rand, scaled down).
# - Degenerate cases that tie policies together exactly.
# - Determinism: the same run twice, and -o FILE, give the same bytes.
# - The formats of a trace: .swt and .jsonl give the report of .csv.
# - Out-of-tree policies: the example .so against the built-in, and shared
#   objects that must be refused with a clear message and status 2.
#
# Reports are compared with awk on the JSON report, whose layout is fixed:
# one policy starts on a line '    {"name": ...' and ends on the line that
# ends with ']}' or ']},'.
set -u
: "${SR:?}" "${SR_BIN:?}" "${T:?}" "${W:?}"
cd "$W" || exit 1

# The calibration replays are 2.5 million policy-event steps: too slow under
# valgrind, which the small replays below still get.
CSR=$SR
[ -n "${VALGRIND:-}" ] && CSR=$SR_BIN

ok() { echo "ok replay/$1"; }
fail() { echo "FAIL replay/$1: $2"; }

# pblock FILE POLICY: the policy's figures in a JSON report, its name left
# out (so that two policies' blocks compare equal when every figure is).
pblock() {
	awk -v n="$2" '
		/^    \{"name": / { on = index($0, "    {\"name\": \"" n "\",") == 1 }
		on {
			line = $0
			sub(/^    \{"name": "[^"]*", ("path": "[^"]*", )?/, "    {", line)
			if (line ~ /\]\},?$/) { sub(/,$/, "", line); on = 0 }
			print line
		}' "$1"
}

# jnum FILE POLICY KEY: a number of the policy's block ("throughput_kib_s").
jnum() {
	pblock "$1" "$2" | tr -d '\n' |
		sed -n "s/.*\"$3\": \(-\{0,1\}[0-9][0-9.]*\).*/\1/p"
}

# same_figures NAME FILE POLICY_A POLICY_B: every figure equal (what the
# delta says of each aside: one may be the baseline).
same_figures() {
	a=$(pblock "$2" "$3" | sed 's/"delta_verdict": "[^"]*", //')
	b=$(pblock "$2" "$4" | sed 's/"delta_verdict": "[^"]*", //')
	if [ -z "$a" ] || [ -z "$b" ]; then
		fail "$1" "no figures for $3 or $4 in $2"
	elif [ "$a" = "$b" ]; then
		ok "$1"
	else
		fail "$1" "$3 and $4 differ:
$(printf '%s\n' "$a" >a.tmp; printf '%s\n' "$b" >b.tmp; diff a.tmp b.tmp | head -10)"
	fi
}

# within NAME A B PCT: |A/B - 1| < PCT %.
within() {
	if [ -z "$2" ] || [ -z "$3" ]; then
		fail "$1" "missing figure ('$2', '$3')"
	elif awk -v a="$2" -v b="$3" -v p="$4" 'BEGIN {
			d = (a - b) / b; if (d < 0) d = -d; exit !(b > 0 && d * 100 < p) }'; then
		ok "$1"
	else
		fail "$1" "$2 and $3 differ by $4 % or more"
	fi
}

# expect_error NAME STATUS PATTERN CMD...: CMD fails with STATUS, says
# PATTERN (grep -E) on stderr, writes nothing on stdout.
expect_error() {
	name=$1 want=$2 pat=$3
	shift 3
	"$@" >err.out 2>err.txt
	got=$?
	if [ "$got" != "$want" ]; then
		fail "$name" "exit status $got, expected $want; stderr: $(head -3 err.txt)"
	elif ! grep -Eq -- "$pat" err.txt; then
		fail "$name" "stderr does not match '$pat': $(head -3 err.txt)"
	elif [ -s err.out ]; then
		fail "$name" "stdout not empty"
	else
		ok "$name"
	fi
}

# ---- calibration -----------------------------------------------------------

GEN="gen swap-w-rand --tasks=32 --size=64M --limit=1G"
if ! $CSR $GEN --cpu-node=0 --mem-node=1 -o cal.swt.zst 2>gen.err; then
	fail calibration-gen "$(head -3 gen.err)"
else
	# 2s-pmem2: the PMem row (page-nid measured 17.3 % slower).
	if $CSR cal.swt.zst -m 2s-pmem2 -f json >pmem2.json 2>run.err; then
		d=$(jnum pmem2.json page-nid-strict delta_pct)
		if [ -n "$d" ] && awk -v d="$d" 'BEGIN { exit !(d > -23 && d < -12) }'; then
			ok cal-pmem2-page-nid-strict-delta
		else
			fail cal-pmem2-page-nid-strict-delta "delta_pct '$d', expected -23 to -12"
		fi
		same_figures cal-pmem2-hybrid-is-reclaimer-nid pmem2.json hybrid reclaimer-nid
		within cal-pmem2-page-nid-near-reclaimer-nid \
			"$(jnum pmem2.json page-nid throughput_kib_s)" \
			"$(jnum pmem2.json reclaimer-nid throughput_kib_s)" 1
	else
		fail cal-pmem2 "$(head -3 run.err)"
	fi
	# Without the slots cache, page-nid as patched is page-nid-strict.
	if $CSR cal.swt.zst -m 2s-pmem2 --kernel=6.6 --slots-cache=off -p page-nid,page-nid-strict \
		--baseline=page-nid-strict -f json >pmem2-off.json 2>run.err; then
		same_figures cal-pmem2-slots-off-page-nid-is-strict pmem2-off.json \
			page-nid page-nid-strict
	else
		fail cal-pmem2-slots-off "$(head -3 run.err)"
	fi
	# 2s-nvme2: DMA devices, the choice hardly matters.
	if $CSR cal.swt.zst -m 2s-nvme2 -f json >nvme2.json 2>run.err; then
		base=$(jnum nvme2.json reclaimer-nid throughput_kib_s)
		for p in page-nid page-nid-strict hybrid; do
			within "cal-nvme2-$p-near-reclaimer-nid" \
				"$(jnum nvme2.json $p throughput_kib_s)" "$base" 1
		done
	else
		fail cal-nvme2 "$(head -3 run.err)"
	fi
	# With block devices only and no slots cache, hybrid is page-nid-strict.
	if $CSR cal.swt.zst -m 2s-nvme2 --kernel=6.6 --slots-cache=off -p hybrid,page-nid-strict \
		--baseline=page-nid-strict -f json >nvme2-off.json 2>run.err; then
		same_figures cal-nvme2-slots-off-hybrid-is-strict nvme2-off.json \
			hybrid page-nid-strict
	else
		fail cal-nvme2-slots-off "$(head -3 run.err)"
	fi
	# 2s-nvme0: the NVMe row, as measured: the tasks and the memory swap
	# nodes, the one device on node 0 (10574 vs 10567 KB/s, -0.07 %).
	if $CSR $GEN --cpu-node=1 --mem-node=0 -m 2s-nvme0 -o cal10.swt.zst 2>gen.err &&
		$CSR cal.swt.zst -m 2s-nvme0 -p reclaimer-nid -f json >nvme0-a.json 2>run.err &&
		$CSR cal10.swt.zst -m 2s-nvme0 -p reclaimer-nid -f json >nvme0-b.json 2>>run.err; then
		within cal-nvme0-device-side-hardly-matters \
			"$(jnum nvme0-a.json reclaimer-nid throughput_kib_s)" \
			"$(jnum nvme0-b.json reclaimer-nid throughput_kib_s)" 1
	else
		fail cal-nvme0 "$(cat gen.err run.err | head -3)"
	fi
	# (D3) nvme0 is 99.9 % busy with writes: reads wait for the writes in
	# flight, at most 4 on 6.6 with reads about (P = 41.7 units, t_w =
	# 1.10 ms: a read waits with probability 4/41.7, at most t_w), 16 on
	# 6.12, 128 on 4.9 (no writeback throttling); the median is L = 85 us
	# and the fault's CPU time; the max is t_w past L,
	# and a little for the reads queued ahead.
	p50=$(jnum nvme0-a.json reclaimer-nid p50)
	p99=$(jnum nvme0-a.json reclaimer-nid p99)
	mx=$(jnum nvme0-a.json reclaimer-nid max)
	if awk -v a="$p50" -v b="$p99" -v m="$mx" 'BEGIN {
			exit !(a > 85000 && a < 110000 && b > 500000 && m < 1300000) }'; then
		ok cal-nvme0-reads-wait-for-writes-in-flight
	else
		fail cal-nvme0-reads-wait-for-writes-in-flight "p50 $p50, p99 $p99, max $mx ns"
	fi
	if $CSR cal.swt.zst -m 2s-nvme0 -p reclaimer-nid --kernel=6.12 -f json >nvme0-612.json 2>run.err &&
		$CSR cal.swt.zst -m 2s-nvme0 -p reclaimer-nid --kernel=4.9 -f json >nvme0-49.json 2>>run.err; then
		m66=$(jnum nvme0-a.json reclaimer-nid mean)
		m612=$(jnum nvme0-612.json reclaimer-nid mean)
		m49=$(jnum nvme0-49.json reclaimer-nid mean)
		if awk -v a="$m66" -v b="$m612" -v c="$m49" 'BEGIN { exit !(a < b && b < c) }'; then
			ok cal-nvme0-more-writes-in-flight-longer-reads
		else
			fail cal-nvme0-more-writes-in-flight-longer-reads "mean 6.6 $m66, 6.12 $m612, 4.9 $m49 ns"
		fi
	else
		fail cal-nvme0-kernels "$(head -3 run.err)"
	fi
fi

# A pusher writes 512 MiB out while 8 tasks read theirs back: the tasks'
# reads must not wait for the pusher's writes that, in the replay's
# order, were booked on the device before them (3.4 s of them): at most
# the writes in flight (D3), and the reads ahead of them.
if $SR gen swapin --tasks=8 --size=64M --limit=512M -o push.swt.zst 2>gen.err &&
	$CSR push.swt.zst -m 2s-nvme2 -p reclaimer-nid -f json >push.json 2>run.err; then
	mx=$(jnum push.json reclaimer-nid max)
	if awk -v m="$mx" 'BEGIN { exit !(m > 0 && m < 50e6) }'; then
		ok swapin-not-behind-later-writes
	else
		fail swapin-not-behind-later-writes "max swap-in latency $mx ns"
	fi
	# On PMem the pusher's writes run seconds ahead of the tasks' reads
	# in the trace's order; in simulated time the reads come first, and
	# nothing is served without contention (the core of issue 31: the
	# old one served 131,072 requests "stale", before the calendar's
	# window).
	if $CSR push.swt.zst -m 2s-pmem2 -p reclaimer-nid -f json >pushp.json 2>run.err; then
		mx=$(jnum pushp.json reclaimer-nid max)
		st=$(jnum pushp.json reclaimer-nid stale_requests)
		if awk -v m="$mx" -v s="$st" 'BEGIN { exit !(m > 0 && m < 1e6 && s == 0) }'; then
			ok swapin-pmem-in-time-order
		else
			fail swapin-pmem-in-time-order "max swap-in latency $mx ns, stale $st"
		fi
	else
		fail swapin-pmem-in-time-order "$(head -3 run.err)"
	fi
else
	fail swapin-not-behind-later-writes "$(cat gen.err run.err | head -3)"
fi

# Readahead by swap offset (docs/MODEL.md, "Readahead and the swap
# cache"): the tasks of gen swapin read their pages back in the order they
# were swapped out, so the window's pages are the next faults': nearly all
# read ahead are used, and those swap-ins are minor faults.  Each fault
# that reads is one request, or a few where its window has holes (the
# plug merges the window's adjacent slots; docs/MODEL.md, B1).
if $CSR push.swt.zst -m 2s-nvme2 -p reclaimer-nid --readahead=cluster -f json >ra.json 2>run.err &&
	$CSR push.swt.zst -m 2s-nvme2 -p reclaimer-nid --readahead=off -f json >ra0.json 2>>run.err &&
	$CSR push.swt.zst -m 2s-nvme2 -p reclaimer-nid --readahead=cluster --page-cluster=0 -f json >ra00.json 2>>run.err &&
	$CSR push.swt.zst -m 2s-pmem2 -p reclaimer-nid --readahead=cluster -f json >rap.json 2>>run.err &&
	$CSR push.swt.zst -m 2s-pmem2 -p reclaimer-nid --readahead=cluster --kernel=4.14 -f json >rap414.json 2>>run.err; then
	rp=$(jnum ra.json reclaimer-nid readahead_pages)
	rh=$(jnum ra.json reclaimer-nid swapcache_hits)
	rd=$(awk '/"name": "nvme0"/ { match($0, /"reads": [0-9]+/); print substr($0, RSTART + 9, RLENGTH - 9); exit }' ra.json)
	rd0=$(awk '/"name": "nvme0"/ { match($0, /"reads": [0-9]+/); print substr($0, RSTART + 9, RLENGTH - 9); exit }' ra0.json)
	m1=$(jnum ra.json reclaimer-nid mean)
	m0=$(jnum ra0.json reclaimer-nid mean)
	if awk -v p="$rp" -v h="$rh" -v rd="$rd" -v rd0="$rd0" -v a="$m1" -v b="$m0" 'BEGIN {
			exit !(p > 100000 && h >= 0.99 * p && h <= p && rd >= rd0 - p &&
			       rd < 1.05 * (rd0 - p) && a < b / 2) }'; then
		ok readahead-sequential-hits
	else
		fail readahead-sequential-hits "read ahead $rp, hits $rh, reads $rd against $rd0 without, mean $m1 against $m0 ns"
	fi
	if [ "$(jnum ra0.json reclaimer-nid readahead_pages)" = 0 ] &&
		[ "$(jnum ra00.json reclaimer-nid readahead_pages)" = 0 ] &&
		[ "$(jnum rap.json reclaimer-nid readahead_pages)" = 0 ] &&
		[ "$(jnum rap414.json reclaimer-nid readahead_pages)" -gt 100000 ]; then
		ok readahead-off-page-cluster-0-and-synchronous-devices
	else
		fail readahead-off-page-cluster-0-and-synchronous-devices "read ahead: off $(jnum ra0.json reclaimer-nid readahead_pages), page-cluster 0 $(jnum ra00.json reclaimer-nid readahead_pages), pmem 6.6 $(jnum rap.json reclaimer-nid readahead_pages), pmem 4.14 $(jnum rap414.json reclaimer-nid readahead_pages)"
	fi
else
	fail readahead "$(head -3 run.err)"
fi
# Random swap-ins: the adaptive window shrinks to the fault alone, a fixed
# one keeps reading 8 and wastes most of them; stopping at holes reads no
# more than skipping them.
if [ -f cal.swt.zst ] &&
	$CSR cal.swt.zst -m 2s-nvme2 -p reclaimer-nid --readahead=cluster -f json >rr.json 2>run.err &&
	$CSR cal.swt.zst -m 2s-nvme2 -p reclaimer-nid --readahead=cluster --readahead-window=fixed -f json >rrf.json 2>>run.err &&
	$CSR cal.swt.zst -m 2s-nvme2 -p reclaimer-nid --readahead=cluster --readahead-window=fixed --readahead-holes=stop -f json >rrs.json 2>>run.err; then
	a=$(jnum rr.json reclaimer-nid readahead_pages)
	f=$(jnum rrf.json reclaimer-nid readahead_pages)
	fh=$(jnum rrf.json reclaimer-nid swapcache_hits)
	st=$(jnum rrs.json reclaimer-nid readahead_pages)
	if awk -v a="$a" -v f="$f" -v fh="$fh" -v st="$st" 'BEGIN {
			exit !(a * 20 < f && fh < f / 2 && st <= f) }'; then
		ok readahead-random-adaptive-fixed-holes
	else
		fail readahead-random-adaptive-fixed-holes "read ahead adaptive $a, fixed $f (hits $fh), fixed stopping at holes $st"
	fi
elif [ -f cal.swt.zst ]; then
	fail readahead-random "$(head -3 run.err)"
fi
# With the workload's memory known (1 GiB, the generator's limit), pages
# read ahead and unused when reclaim has taken the inactive list's worth
# (half of it under 1 GiB: 131072 pages) are reclaimed: fewer hits, and
# pages read again.
if [ -f rrf.json ] &&
	$CSR cal.swt.zst -m 2s-nvme2 -p reclaimer-nid --readahead=cluster --readahead-window=fixed --memory=1G -f json >rrm.json 2>run.err; then
	dr=$(jnum rrm.json reclaimer-nid readahead_dropped)
	hm=$(jnum rrm.json reclaimer-nid swapcache_hits)
	h0=$(jnum rrf.json reclaimer-nid swapcache_hits)
	d0=$(jnum rrf.json reclaimer-nid readahead_dropped)
	if awk -v dr="$dr" -v hm="$hm" -v h0="$h0" -v d0="$d0" 'BEGIN { exit !(d0 == 0 && dr > 1000 && hm < h0) }'; then
		ok readahead-memory-reclaims-unused
	else
		fail readahead-memory-reclaims-unused "dropped $dr (without --memory $d0), hits $hm against $h0"
	fi
elif [ -f rrf.json ]; then
	fail readahead-memory "$(head -3 run.err)"
fi
# gen's closed loop: pages read ahead take memory, so on random touches a
# fixed window pushes the working set out (more swap-outs and swap-ins
# than without); the same options give the same bytes; every swap-in of
# the trace replays to a swap-out.
if $SR_BIN gen swap-w-rand --tasks=1 --size=8M --limit=7M --accesses=20000 --cpu-node=0 --mem-node=0 \
		-o gl0.csv 2>gen.err &&
	$SR_BIN gen swap-w-rand --tasks=1 --size=8M --limit=7M --accesses=20000 --cpu-node=0 --mem-node=0 \
		--readahead=cluster --readahead-window=fixed -o gl1.csv 2>>gen.err &&
	$SR_BIN gen swap-w-rand --tasks=1 --size=8M --limit=7M --accesses=20000 --cpu-node=0 --mem-node=0 \
		--readahead=cluster --readahead-window=fixed -o gl2.csv 2>>gen.err &&
	$SR gl1.csv -m 2s-nvme2 -p reclaimer-nid --readahead=cluster --readahead-window=fixed -f json >gl1.json 2>run.err; then
	o0=$(grep -c ',out,' gl0.csv)
	o1=$(grep -c ',out,' gl1.csv)
	if [ "$o1" -gt $((o0 * 3 / 2)) ] && cmp -s gl1.csv gl2.csv &&
		[ "$(jnum gl1.json reclaimer-nid unmatched_swapins)" = 0 ] &&
		[ "$(jnum gl1.json reclaimer-nid swapcache_hits)" -gt 0 ]; then
		ok gen-readahead-closed-loop
	else
		fail gen-readahead-closed-loop "swap-outs $o1 with readahead against $o0 without; unmatched $(jnum gl1.json reclaimer-nid unmatched_swapins), hits $(jnum gl1.json reclaimer-nid swapcache_hits)"
	fi
else
	fail gen-readahead-closed-loop "$(cat gen.err run.err | head -3)"
fi
# gen kbuild: jobs arrive N at a time and exit, freeing their swap (so a
# later swap-out reuses slots); every swap-in is matched, and there are
# more swap-outs with more jobs at once.
if $SR_BIN gen kbuild --tasks=24 --jobs=8 --size=1M --limit=6M --cpu-node=0 --mem-node=0 -o kb8.csv 2>gen.err &&
	$SR_BIN gen kbuild --tasks=24 --jobs=12 --size=1M --limit=6M --cpu-node=0 --mem-node=0 -o kb12.csv 2>>gen.err &&
	$SR kb12.csv -m 2s-nvme2 -p reclaimer-nid -f json >kb12.json 2>run.err; then
	o8=$(grep -c ',out,' kb8.csv)
	o12=$(grep -c ',out,' kb12.csv)
	p12=$(awk -F, 'NR > 1 && ($2 == "out" || $2 == "in") { print $3 }' kb12.csv | sort -u | wc -l)
	if [ "$o8" -gt 0 ] && [ "$o12" -gt "$o8" ] && [ "$p12" -le 24 ] && [ "$p12" -gt 12 ] &&
		[ "$(jnum kb12.json reclaimer-nid unmatched_swapins)" = 0 ]; then
		ok gen-kbuild
	else
		fail gen-kbuild "swap-outs $o8 (-j8) and $o12 (-j12), $p12 tasks seen, unmatched $(jnum kb12.json reclaimer-nid unmatched_swapins)"
	fi
else
	fail gen-kbuild "$(cat gen.err run.err | head -3)"
fi
# swap-w-seq with random tasks: both kinds at once, pids after the
# sequential tasks', the random ones touching only their own regions.
if $SR_BIN gen swap-w-seq --tasks=2 --size=4M --random-tasks=3 --random-size=2M --limit=8M -o mix.csv 2>gen.err; then
	np=$(awk -F, 'NR > 1 { print $3 }' mix.csv | sort -u | tr '\n' ' ')
	if [ "$np" = "1000 1001 1002 1003 1004 " ]; then
		ok gen-seq-with-random-tasks
	else
		fail gen-seq-with-random-tasks "pids $np"
	fi
else
	fail gen-seq-with-random-tasks "$(head -3 gen.err)"
fi
expect_error gen-random-tasks-seq-only 2 "random tasks are for swap-w-seq" \
	$SR_BIN gen swap-w-rand --random-tasks=2 --random-size=1M -o x.csv
expect_error gen-kbuild-jobs 2 "kbuild: jobs 30 must be 1 to the tasks \\(24\\)" \
	$SR_BIN gen kbuild --tasks=24 --jobs=30 --size=1M --limit=6M -o x.csv
expect_error gen-kbuild-no-pressure 2 "not below the running jobs' memory" \
	$SR_BIN gen kbuild --tasks=24 --jobs=4 --size=1M --limit=6M -o x.csv
# A machine description of earlier versions, with the one CPU constant:
# refused, naming the figures that replaced it.
printf '{"nodes":[{"cpus":2}],"cpu":{"event_ns":24000},"devices":[{"name":"d","class":"nvme"}]}' >ev.json
expect_error machine-event-ns-refused 3 "cpu.event_ns: the one per-event constant is gone; the kernel's paths are reclaim_ns" \
	$SR_BIN machines ev.json
expect_error gen-readahead-no-memory 2 "memory is the replay's: gen's memory is --limit" \
	$SR_BIN gen swap-w-rand -o x.csv --readahead=cluster --memory=1G
expect_error gen-readahead-no-auto 2 "readahead takes off, cluster or vma here" \
	$SR_BIN gen swap-w-rand -o x.csv --readahead=auto
expect_error readahead-bad-memory 2 "memory takes a size of at least 4K" \
	$SR_BIN push.swt.zst --memory=100
expect_error readahead-bad-mode 2 "readahead takes auto, off, cluster or vma, not 'virtual'" \
	$SR_BIN push.swt.zst --readahead=virtual
expect_error readahead-bad-page-cluster 2 "page-cluster takes 0 to 10, not '11'" \
	$SR_BIN push.swt.zst --page-cluster=11
expect_error readahead-bad-holes 2 "readahead-holes takes skip or stop, not 'read'" \
	$SR_BIN push.swt.zst --readahead-holes=read

# ---- degenerate cases ------------------------------------------------------

# A small workload of the same kind (2694 swap-outs, 1176 swap-ins).
if ! $SR gen swap-w-rand --tasks=4 --size=4M --limit=8M -o mid.swt 2>gen.err; then
	fail mid-gen "$(head -3 gen.err)"
fi

# One device: every policy must choose it, with the same figures (their
# timing noise too: --noise's replicas of each are the baseline's).
for sc in on off; do
	if $SR mid.swt -m "$T/data/machines/one-nvme.json" -p all,fixed-node --kernel=6.6 --slots-cache=$sc \
		-f json >one-$sc.json 2>run.err; then
		for p in page-nid page-nid-strict hybrid fixed-node; do
			same_figures "one-device-$sc-$p-is-reclaimer-nid" one-$sc.json \
				$p reclaimer-nid
		done
		n=$(jnum one-$sc.json hybrid swapouts)
		if [ -n "$n" ] && [ "$n" -gt 1000 ]; then
			ok "one-device-$sc-swapouts"
		else
			fail "one-device-$sc-swapouts" "swapouts '$n'"
		fi
	else
		fail "one-device-$sc" "$(head -3 run.err)"
	fi
done

# ---- determinism and -o ----------------------------------------------------

for f in text json csv markdown; do
	if $SR mid.swt -m 2s-pmem-nvme -p all -f $f >det1.$f 2>run.err &&
		$SR mid.swt -m 2s-pmem-nvme -p all -f $f >det2.$f 2>>run.err &&
		[ -s det1.$f ] && cmp -s det1.$f det2.$f; then
		ok "deterministic-$f"
	else
		fail "deterministic-$f" "two identical runs differ $(head -3 run.err)"
	fi
	rm -f out.$f
	if $SR mid.swt -m 2s-pmem-nvme -p all -f $f -o out.$f >o.stdout 2>run.err &&
		[ ! -s o.stdout ] && cmp -s out.$f det1.$f; then
		ok "output-file-$f"
	else
		fail "output-file-$f" "-o wrote other bytes than stdout $(head -3 run.err)"
	fi
done

# ---- the formats of a trace ------------------------------------------------

# small.csv converted now: the report is small.csv's but for the trace path.
cp "$T/data/replay/small.csv" .
for to in swt jsonl; do
	if ! $SR convert small.csv conv.$to 2>run.err; then
		fail "convert-$to" "$(head -3 run.err)"
		continue
	fi
	for f in text json csv markdown; do
		$SR small.csv -m 2s-pmem2 -f $f >r-csv.$f 2>/dev/null
		$SR conv.$to -m 2s-pmem2 -f $f 2>/dev/null |
			sed -e '/^trace: /s/conv\.'$to'/small.csv/' \
			    -e '/"trace": {"path"/s/conv\.'$to'/small.csv/' \
			    -e '/^swapreplay .*`conv/s/conv\.'$to'/small.csv/' >r-$to.$f
		if [ -s r-csv.$f ] && cmp -s r-csv.$f r-$to.$f; then
			ok "trace-format-$to-$f"
		else
			fail "trace-format-$to-$f" "report differs from the CSV trace's:
$(diff r-csv.$f r-$to.$f | head -6)"
		fi
	done
done

# ---- out-of-tree policies --------------------------------------------------

SO=$(cd "$(dirname "$SR_BIN")" && pwd)/policies/fixed_node.so
# A row of an out-of-tree policy is labelled by the policy's own name (its
# ops' .name, with the parameters), its file in JSON's "path"; beside a
# built-in of that label it keeps the path, so that rows stay apart.
if [ -f "$SO" ] && $SR mid.swt -m 2s-pmem2 -p "reclaimer-nid,$SO:1" -f json >lab.json 2>run.err &&
	grep -q "^    {\"name\": \"fixed-node:1\", \"path\": \"$SO\"," lab.json &&
	$SR mid.swt -m 2s-pmem2 -p "reclaimer-nid,$SO:1" -f text 2>run.err | grep -q '^fixed-node:1 ' &&
	! $SR mid.swt -m 2s-pmem2 -p "reclaimer-nid,$SO:1" -f csv 2>run.err | grep -q 'fixed_node.so'; then
	ok policy-so-labelled-by-name
else
	fail policy-so-labelled-by-name "$(grep -m1 'fixed' lab.json 2>/dev/null) $(head -c 200 run.err)"
fi
if [ ! -f "$SO" ]; then
	fail policy-so-example "$SO not built"
elif $SR mid.swt -m 2s-pmem2 -p "fixed-node:1,$SO:1" -f json >so.json 2>run.err; then
	same_figures policy-so-example-is-builtin so.json "$SO:1" fixed-node:1
	# And it does move the swap-outs (to node 1's device): not a no-op.
	m=$(jnum so.json "$SO:1" moved_out_pct)
	if [ "$m" = "100.000" ]; then
		ok policy-so-example-moves
	else
		fail policy-so-example-moves "moved_out_pct '$m', expected 100.000"
	fi
else
	fail policy-so-example "$(head -3 run.err)"
fi

# Shared objects that are not good policies, built from tests/policies/.
CC=${CC:-cc}
for s in no_symbol bad_abi no_choose table_not_pointer symbol_function init_no_nul out_of_range; do
	if ! $CC -std=c11 -shared -fPIC -I"$T/../include" -o "$W/$s.so" \
		"$T/policies/$s.c" 2>cc.err; then
		fail "policy-so-build-$s" "$(head -3 cc.err)"
	fi
done
expect_error policy-so-no-symbol 2 "no_symbol\.so: no 'swapreplay_policy' symbol" \
	$SR mid.swt -p "$W/no_symbol.so"
expect_error policy-so-bad-abi 2 "bad_abi\.so: built for policy ABI [0-9]+, this swapreplay has ABI [0-9]+" \
	$SR mid.swt -p "$W/bad_abi.so"
expect_error policy-so-no-choose 2 "no_choose\.so: the policy has no name or no choose\(\)" \
	$SR mid.swt -p "./no_choose.so"
# Mistakes that would crash if the symbol were taken on trust.
expect_error policy-so-table-not-pointer 2 \
	"table_not_pointer\.so: 'swapreplay_policy' is [0-9]+ bytes, not a pointer to the policy's ops table" \
	$SR mid.swt -p "$W/table_not_pointer.so"
expect_error policy-so-symbol-function 2 \
	"symbol_function\.so: 'swapreplay_policy' is a function, not a pointer" \
	$SR mid.swt -p "$W/symbol_function.so"
# An init() message without its NUL is cut at the buffer's end.
expect_error policy-so-init-no-nul 2 "^swapreplay: x{255}\$" \
	$SR mid.swt -p "$W/init_no_nul.so"
# A choice the machine does not have stops the replay, naming the policy.
expect_error policy-so-node-out-of-range 2 \
	"policy out-of-range \($W/out_of_range\.so\) chose node 99, but machine 2s-pmem2 has 2 nodes \(0 to 1\)" \
	$SR mid.swt -m 2s-pmem2 -p "$W/out_of_range.so"
expect_error policy-so-device-out-of-range 2 \
	"policy out-of-range \($W/out_of_range\.so:device\) chose device 42, but machine 2s-pmem2 has 2 devices \(0 to 1\)" \
	$SR mid.swt -m 2s-pmem2 -p "$W/out_of_range.so:device"
expect_error policy-so-init-fails 2 "fixed-node: parameter must be a node from 0 to 1, not '7'" \
	$SR mid.swt -m 2s-pmem2 -p "$SO:7"
expect_error policy-so-missing 2 "cannot load policy $W/no/such\.so" \
	$SR mid.swt -p "$W/no/such.so"
# A bare name is a built-in's: never searched for as a file, not even with
# a loadable one in the working directory and on LD_LIBRARY_PATH.
if [ -f "$SO" ]; then
	cp "$SO" mypolicy.so
	expect_error policy-so-bare-name-not-searched 2 \
		"unknown policy 'mypolicy\.so' \(built in: reclaimer-nid, page-nid, page-nid-strict, hybrid, fixed-node" \
		env LD_LIBRARY_PATH="$W" $SR mid.swt -p mypolicy.so
fi
# ---- shared simulations ------------------------------------------------------
# Policies that choose alike share one simulation until their choices part
# (src/replay/shared.c): in one pass, each policy must get
# exactly the figures of a replay of it alone, whether the policies never
# part (2s-pmem2), part at the first event (2s-nvme2 without the slots
# cache) or part mid-run (small-pmem2: the slots cache turns off when the
# devices fill, and page-nid then follows the page's node): on 6.6, a
# kernel with the slots cache.  Compared:
# every figure but those against the baseline.
nobase() {
	pblock "$1" "$2" |
		sed 's/"delta_verdict": "[^"]*", //; s/"delta_pct": [^,]*, //; s/"delta_noise_pct": [^,]*, //
		     s/"moved_out": [0-9]*, "moved_out_pct": [^,]*, //; /^     "noise": {/d'
}
SAMPLE="$T/../traces/sample.swt"
SMALL="$T/data/machines/small-pmem2.json"
for cfg in "pmem2|$SAMPLE|2s-pmem2|on" "small-pmem2|$SAMPLE|$SMALL|on" \
	"nvme2-off|mid.swt|2s-nvme2|off" "pmem-nvme|mid.swt|2s-pmem-nvme|on"; do
	IFS='|' read -r name trace mach sc <<EOT
$cfg
EOT
	if ! $SR "$trace" -m "$mach" --kernel=6.6 --slots-cache=$sc -p all,fixed-node -f json >share-$name.json 2>run.err; then
		fail "shared-$name" "$(head -3 run.err)"
		continue
	fi
	bad=""
	for p in reclaimer-nid page-nid page-nid-strict hybrid fixed-node; do
		if ! $SR "$trace" -m "$mach" --kernel=6.6 --slots-cache=$sc -p $p --baseline=$p -f json \
			>alone.json 2>run.err; then
			bad="$bad $p: $(head -1 run.err)"
			continue
		fi
		a=$(nobase share-$name.json $p)
		b=$(nobase alone.json $p)
		if [ -z "$a" ] || [ "$a" != "$b" ]; then
			bad="$bad $p: one pass and alone differ"
		fi
	done
	if [ -z "$bad" ]; then
		ok "shared-$name-same-as-alone"
	else
		fail "shared-$name-same-as-alone" "$bad"
	fi
done
# The mid-run case must really part mid-run: page-nid placed some but not
# all swap-outs elsewhere than reclaimer-nid.
mv=$(jnum share-small-pmem2.json page-nid moved_out_pct)
if [ -n "$mv" ] && awk -v m="$mv" 'BEGIN { exit !(m > 1 && m < 99) }'; then
	ok shared-small-pmem2-parts-mid-run
else
	fail shared-small-pmem2-parts-mid-run "page-nid moved_out_pct '$mv', expected 1 to 99"
fi
# The simulation thread (--sim-thread, src/replay/simq.c) changes nothing:
# the same report to the byte with it and without, on a trace whose
# policies part (a parting is queued to the thread like a play) and whose
# tasks outgrow the first per-task arrays (1024: the thread rests while
# they grow), with per-task figures and readahead's bios in the records.
if $SR_BIN gen swap-w-rand --tasks=1100 --size=256K --limit=64M --accesses=60 -o st.swt.zst 2>st.err &&
	$SR st.swt.zst -m 2s-nvme2 -p all --per-task --readahead=cluster --memory=64M -f json \
		--sim-thread=on -o st-on.json 2>>st.err &&
	$SR st.swt.zst -m 2s-nvme2 -p all --per-task --readahead=cluster --memory=64M -f json \
		--sim-thread=off -o st-off.json 2>>st.err &&
	cmp -s st-on.json st-off.json && grep -q '"tasks": 1100' st-on.json; then
	ok sim-thread-same-report
else
	fail sim-thread-same-report "reports differ or a run failed: $(head -c 300 st.err)"
fi
# Three threads: the policies that part play on threads of their own.
if $SR st.swt.zst -m 2s-nvme2 -p all --per-task --readahead=cluster --memory=64M -f json \
		--sim-thread=3 -o st-3.json 2>>st.err && cmp -s st-3.json st-off.json; then
	ok sim-threads-same-report
else
	fail sim-threads-same-report "reports differ or a run failed: $(head -c 300 st.err)"
fi
if $SR st.swt.zst --sim-thread=9 >/dev/null 2>st.err; then
	fail sim-threads-too-many "accepted --sim-thread=9"
elif grep -q "sim-thread.*from 0 to 8.*'9'" st.err; then
	ok sim-threads-too-many
else
	fail sim-threads-too-many "message does not give the range: $(cat st.err)"
fi
if $SR st.swt.zst --sim-thread=maybe >/dev/null 2>st.err; then
	fail sim-thread-bad-value "accepted --sim-thread=maybe"
elif grep -q "sim-thread" st.err; then
	ok sim-thread-bad-value
else
	fail sim-thread-bad-value "message does not name the option: $(cat st.err)"
fi
exit 0
