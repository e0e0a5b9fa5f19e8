# S2: the block plug in direct reclaim, on a disk and on an NVMe SSD: a
# study (issue 15), after Shaohua Li's "vmscan: add block plug for page
# reclaim" (linux-mm 1311130413.15392.326.camel@sli10-conroe, 2011; the
# request sizes in 1311311695.15392.369.camel@sli10-conroe; 3da367c3e5fc,
# 3.2).  See README.md.  Not fitted to anything; the published figures
# are approximate or words, given in each row's verdict.
CASE=S2
. "$V/lib.sh"

# A figure of the policy's block layer summary in a report (docs/REPORT.md:
# the "block" object of the policy comes before its devices').
bnum() {
	awk -v k="$2" '/"block": \{"cpu_ns"/ {
		if (match($0, "\"" k "\": -?[0-9][0-9.e+-]*")) {
			v = substr($0, RSTART, RLENGTH); sub(/^"[^"]*": /, "", v); print v; exit } }' "$1"
}

# 32 tasks in direct reclaim, each writing its 16 MiB once (usemem's first
# pass) under a 256 MiB limit: 256 MiB swapped out, nothing read back; a
# reclaim pass frees 32 pages (SWAP_CLUSTER_MAX).  4.0: before writeback
# throttling, 128 requests a queue (the kernel of the measurement, 3.0,
# is not modelled; 4.0 is the earliest, and the block layer's rules for
# swap writes are 3.0's); 6.6: writeback throttling.
for d in hdd nvme; do
	for k in 4.0 6.6; do
		"$SR" gen swap-w-seq --tasks=32 --size=16M --limit=256M --accesses=4096 --cpu-node=0 \
			--mem-node=0 --cpus-per-node=32 --reclaim-batch=32 -m "$V/s2-reclaim-plug/$d.json" \
			--kernel=$k -o $d-$k.swt.zst
		for p in on off; do
			"$SR" $d-$k.swt.zst -m "$V/s2-reclaim-plug/$d.json" -p reclaimer-nid --kernel=$k \
				--plug=$p -f json >$d-$k-$p.json
			ms=$(pnum $d-$k-$p.json reclaimer-nid makespan_ns)
			need "$ms" "makespan_ns ($d, $k, plug $p)"
			eval "m_${d}_${k%.*}_$p=\$ms"
			for f in request_kib_mean request_kib_cv cpu_ns; do
				v=$(bnum $d-$k-$p.json $f)
				need "$v" "$f ($d, $k, plug $p)"
				eval "${f}_${d}_${k%.*}_$p=\$v"
			done
		done
	done
done

# cpu RATIO: the block layer's CPU with the plug over without.
ratio() {
	awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", (b > 0 ? a / b : 0) }'
}

row hdd_4_off_request_kib kib 90 "$request_kib_mean_hdd_4_off" \
	"study: published 'about 90k' (iostat, 3.0, no plug), 'the variation is big'"
row hdd_4_on_request_kib kib 100 "$request_kib_mean_hdd_4_on" \
	"study: published 'about 100k' with the plug, 'variation is small'"
row hdd_4_off_request_cv cv - "$request_kib_cv_hdd_4_off" "study: published in words only, 'big'"
row hdd_4_on_request_cv cv - "$request_kib_cv_hdd_4_on" "study: published in words only, 'small'"
row hdd_4_plug_delta delta_pct 0 "$(delta "$m_hdd_4_off" "$m_hdd_4_on")" \
	"study: published 'Disk throughput isn't changed'"
row hdd_4_block_cpu_on_vs_off ratio 0.43 "$(ratio "$cpu_ns_hdd_4_on" "$cpu_ns_hdd_4_off")" \
	"study: published as the system's CPU utilisation, 2-7 % to 1-3 % (midpoints: 0.43); the model's is the block layer's alone"
row hdd_6_plug_delta delta_pct - "$(delta "$m_hdd_6_off" "$m_hdd_6_on")" \
	"study: not published (6.6: writeback throttling)"
row hdd_6_off_request_kib kib - "$request_kib_mean_hdd_6_off" "study: not published"
row nvme_4_plug_delta delta_pct - "$(delta "$m_nvme_4_off" "$m_nvme_4_on")" "study: not published"
row nvme_6_plug_delta delta_pct - "$(delta "$m_nvme_6_off" "$m_nvme_6_on")" "study: not published"
row nvme_6_on_request_kib kib - "$request_kib_mean_nvme_6_on" "study: not published"
row nvme_6_block_cpu_on_vs_off ratio - "$(ratio "$cpu_ns_nvme_6_on" "$cpu_ns_nvme_6_off")" \
	"study: not published"
