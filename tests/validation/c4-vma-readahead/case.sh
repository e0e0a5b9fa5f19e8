# C4: VMA-based swap readahead (Huang Ying, "[PATCH -mm -v4 0/5] mm, swap:
# VMA based swap readahead", 20170807054038.1843-1-ying.huang@intel.com;
# the RFC, 20170306055324.19918-1-ying.huang@intel.com).  See README.md.
# Cluster-based (before) against VMA-based (after) readahead.
CASE=C4
. "$V/lib.sh"
NC="not compared: usemem's KB/s of the sequential tasks, not swap traffic"
NR="not modelled: the RFC's VMA algorithm, not the one merged"

# v4's mix, 64 times smaller: 4 tasks writing 200 MiB in order and 8
# writing random pages of 60 MiB, at once, under 512 MiB (32 GB); the
# kernel's cluster readahead (4.13, the series' base) in gen's closed loop
# and in the replay, on one NVMe.
"$SR" gen swap-w-seq --tasks=4 --size=200M --random-tasks=8 --random-size=61440K --limit=512M \
	--accesses=102400 --cpu-node=0 --mem-node=0 --cpus-per-node=36 --access-ns=1200 \
	--readahead=cluster -m 2s-nvme0 --kernel=4.13 -o mix.swt.zst
"$SR" mix.swt.zst -m 2s-nvme0 -p reclaimer-nid --kernel=4.13 --readahead=cluster --memory=512M \
	-f json >mix.json
# The same mix with VMA readahead (4.14, the release that merged it) in the
# closed loop and the replay: gen's regions are one VMA each.
"$SR" gen swap-w-seq --tasks=4 --size=200M --random-tasks=8 --random-size=61440K --limit=512M \
	--accesses=102400 --cpu-node=0 --mem-node=0 --cpus-per-node=36 --access-ns=1200 \
	--readahead=vma -m 2s-nvme0 --kernel=4.14 -o vma.swt.zst
"$SR" vma.swt.zst -m 2s-nvme0 -p reclaimer-nid --kernel=4.14 --readahead=vma --memory=512M \
	-f json >vma.json
for s in mix vma; do
	mean=$(pnum $s.json reclaimer-nid mean)
	p99=$(pnum $s.json reclaimer-nid p99)
	ra=$(pnum $s.json reclaimer-nid readahead_pages)
	hit=$(pnum $s.json reclaimer-nid swapcache_hits)
	need "$mean" "swap-in mean ($s)"
	need "$ra" "readahead_pages ($s)"
	eval "mean_$s=\$mean p99_$s=\$p99 ra_$s=\$ra hit_$s=\$hit"
done
us() { awk -v v="$1" -v d="$2" 'BEGIN { printf "%.*f", d, v / 1000 }'; }
pct() { awk -v h="$1" -v r="$2" 'BEGIN { printf "%.2f", r ? 100 * h / r : 0 }'; }
row v4_throughput_delta delta_pct 19.87 - "$NC"
row v4_cluster_throughput kb_s 345413 - "$NC"
row v4_vma_throughput kb_s 414029 - "$NC"
# The measured latencies are of the sequential tasks' swap-ins, the
# model's of every task's (the report has no per-task latency).
row v4_cluster_lat_mean us 97.14 "$(us "$mean_mix" 2)"
row v4_vma_lat_mean us 61.06 "$(us "$mean_vma" 2)"
row v4_cluster_lat_p99 us 1340 "$(us "$p99_mix" 0)"
row v4_vma_lat_p99 us 1090 "$(us "$p99_vma" 0)"
# The kernel's hit rate, swap_ra_hit / swap_ra (global counters).
row v4_cluster_ra_hit pct 52.69 "$(pct "$hit_mix" "$ra_mix")"
row v4_vma_ra_hit pct 99.98 "$(pct "$hit_vma" "$ra_vma")"
row rfc_seq_lat_mean_vma us 12.04 - "$NR"
row rfc_rand_lat_mean_vma us 72.55 - "$NR"
row rfc_mixed_lat_mean_vma us 26.8 - "$NR"
