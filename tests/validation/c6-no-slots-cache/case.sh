# C6: no more slots cache (Kairui Song, "[PATCH v3 0/7] mm, swap: remove
# swap slot cache", 20250313165935.63303-1-ryncsn@gmail.com).  See
# README.md.  Before (slots cache) -> after (6.15 per-CPU clusters), KB/s.
#
# 32 tasks writing random (or, without -R, sequential) words of 1 GiB in a
# 12 GiB memory cgroup, scaled 16 times, on simulated PMem (RAM: C2's
# machine description, whose figures are the closest cited), replayed as
# 6.14 (the slots cache, on the series' base) and as 6.15.
CASE=C6
. "$V/lib.sh"
M=$V/c2-slots-cache/e5v3-ram-pmem.json

"$SR" gen swap-w-rand --tasks=32 --size=64M --limit=768M --cpu-node=0 --mem-node=0 \
	--cpus-per-node=36 -m "$M" --kernel=6.14 -o rand.swt.zst
"$SR" gen swap-w-seq --tasks=32 --size=64M --limit=768M --cpu-node=0 --mem-node=0 \
	--cpus-per-node=36 --access-ns=1200 -m "$M" --kernel=6.14 -o seq.swt.zst
# The 64 KiB run: every page of the tasks' regions in 64 KiB mTHP folios,
# swapped out whole (6.10 on) from the CPUs' order-4 clusters.
"$SR" gen swap-w-rand --tasks=32 --size=64M --limit=768M --cpu-node=0 --mem-node=0 \
	--cpus-per-node=36 --thp=1 --thp-size=64K -m "$M" --kernel=6.14 -o r64.swt.zst
for t in rand seq r64; do
	for k in 6.14 6.15; do
		"$SR" $t.swt.zst -m "$M" -p reclaimer-nid --kernel=$k -f json >$t-$k.json
		ms=$(pnum $t-$k.json reclaimer-nid makespan_ns)
		need "$ms" "makespan_ns ($t, $k)"
		eval "m_${t}_${k%.*}_${k#*.}=\$ms"
	done
done
row rand_4k_delta delta_pct -2.39 "$(delta "$m_rand_6_14" "$m_rand_6_15")"
row rand_64k_delta delta_pct 2.45 "$(delta "$m_r64_6_14" "$m_r64_6_15")"
row seq_4k_delta delta_pct 2.79 "$(delta "$m_seq_6_14" "$m_seq_6_15")"
N="not compared: usemem's KB/s is its own metric, not swap traffic (the deltas are)"
row rand_4k_before kb_s 424907.60 - $N
row rand_4k_after kb_s 414745.92 - $N
row rand_64k_before kb_s 163308.82 - $N
row rand_64k_after kb_s 167314.50 - $N
row seq_4k_before kb_s 6150056.79 - $N
row seq_4k_after kb_s 6321469.06 - $N
