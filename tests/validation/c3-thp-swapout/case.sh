# C3: THP swap-out without splitting first (Huang Ying, "mm, THP, swap:
# delay splitting THP during swap out", commit 38d8b4e6bdc8, v11
# 20170515112522.32457-2-ying.huang@intel.com).  See README.md here.
CASE=C3
. "$V/lib.sh"
M=$V/c2-slots-cache/e5v3-ram-pmem.json

# vm-scalability case-swap-w-seq with 8 processes, each writing its region
# once in order; scaled to 8 x 256 MiB over a 1 GiB limit (half swapped
# out).  Before: the kernel split every THP before swap-out (--thp=0: 4 KiB
# pages through the slots cache); after: a THP takes one whole cluster
# (--thp=1: one event of 512 pages).  One pass: no swap-ins.
for t in 0 1; do
	# usemem's 512 stores per page (1.2 us, as C2) and the huge page's
	# clearing at its first touch, 2 MiB in 123-162 us (Milan, the
	# folio_zero_user series, 20251027202109.678022-1-ankur.a.arora@
	# oracle.com): 0.3 us per 4 KiB; kernel 4.13, the commit's.
	"$SR" gen swap-w-seq --tasks=8 --size=256M --limit=1G --accesses=65536 --access-ns=1500 \
		--cpu-node=0 --mem-node=0 --cpus-per-node=36 --thp=$t -m "$M" --kernel=4.13 \
		-o thp$t.swt.zst
	"$SR" thp$t.swt.zst -m "$M" -p reclaimer-nid --kernel=4.13 -f json >thp$t.json
	p=$(pnum thp$t.json reclaimer-nid pages_out)
	m=$(pnum thp$t.json reclaimer-nid makespan_ns)
	need "$p" "pages_out (--thp=$t)"
	need "$m" "makespan_ns (--thp=$t)"
	eval "p_$t=\$p m_$t=\$m"
done
row thp_delta delta_pct 15.55 "$(delta "$m_0" "$m_1")"
row split_before_so kb_s 3730000 "$(kbs "$p_0" "$m_0")"
# The LRU lock's hold is fitted to this run and C2's 1-9 row together.
f=
"$SR" machines "$M" | grep -q 'LRU.*reclaimed (fitted)' && f="fitted to this figure (with C2 1-9): not a check"
row whole_cluster_so kb_s 4310000 "$(kbs "$p_1" "$m_1")" $f
