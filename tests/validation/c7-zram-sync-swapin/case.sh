# C7: zram swap-in bypassing the swap cache (Minchan Kim, "mm:swap: skip
# swapcache for swapin of synchronous device",
# 1505805001-30187-5-git-send-email-minchan@kernel.org; 0bcac06f27d7,
# 4.15).  See README.md.  5 GB sequential swap-in, no readahead.
#
# One task fills a region, a pusher pushes it all out, the task reads it
# back in order (gen's swapin), scaled down 16 times (320 MiB), on one
# zram device, replayed on 4.14 (through the swap cache: E3's
# swapcache_ns, and the trunk's lock, L4) and 4.15 (the bypass), readahead
# off (page-cluster 0, the one setting that stops 4.14's readahead too).
# The time is the task's swap-in phase (its per-task throughput; the
# pusher has no swap-ins), scaled back to 5 GiB; the delta is the speed of
# 4.15's against 4.14's.  Nothing is fitted to it: swapcache_ns comes from
# another measurement (docs/MACHINE.md, E3).
CASE=C7
. "$V/lib.sh"

"$SR" gen swapin --tasks=1 --size=320M --limit=320M --cpu-node=0 --mem-node=0 -m 1s-zram \
	--kernel=4.14 -o t.swt.zst
for k in 4.14 4.15; do
	"$SR" t.swt.zst -m 1s-zram -p reclaimer-nid --kernel=$k --page-cluster=0 --per-task \
		--noise=0 -f json >k$k.json 2>/dev/null
done
kc=$(pnum k4.14.json reclaimer-nid task_swapin_kib_s_sum)
kb=$(pnum k4.15.json reclaimer-nid task_swapin_kib_s_sum)
need "$kc" "task_swapin_kib_s_sum (4.14)"
need "$kb" "task_swapin_kib_s_sum (4.15)"
# 5 GiB = 5,242,880 KiB.
row swapin_speed_delta delta_pct 46.95 "$(awk -v c="$kc" -v b="$kb" 'BEGIN { printf "%.3f", (b / c - 1) * 100 }')"
row swapin_via_cache s 2.41 "$(awk -v c="$kc" 'BEGIN { printf "%.4f", 5242880 / c }')"
row swapin_bypass s 1.64 "$(awk -v b="$kb" 'BEGIN { printf "%.4f", 5242880 / b }')"
