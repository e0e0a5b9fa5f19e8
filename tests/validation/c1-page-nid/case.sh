# C1: device by reclaimer node vs page node (Aaron Lu, linux-mm, April 2022).
# See README.md here.  The calibration workload of tests/cli/replay.sh:
# vm-scalability case-swap-w-rand, 32 tasks x 4 GiB in a 64 GiB memcg,
# scaled down 64 times.
CASE=C1
. "$V/lib.sh"
GEN="gen swap-w-rand --tasks=32 --size=64M --limit=1G"

# PMem row: only pmem0 (the reclaimer's node) or only pmem1 (the page's
# node) swapped on; on 2s-pmem2 that is reclaimer-nid against
# page-nid-strict (tasks on node 0, memory on node 1).
"$SR" $GEN --cpu-node=0 --mem-node=1 -o a.swt.zst
"$SR" a.swt.zst -m 2s-pmem2 -p reclaimer-nid,page-nid-strict -f json >pmem.json
d=$(pnum pmem.json page-nid-strict delta_pct)
need "$d" "page-nid-strict delta_pct"
row pmem_page_node_delta delta_pct -17.29 "$d"

# The vmstat of the same run: swap-out of 4,211,460 kB/s in its busiest
# second (YmETEHnK/FiNbLO7@ziqianlu-desk1).  While the machine's CPU cost is
# the constant fitted to that second (docs/MODEL.md, "The fitted
# constant"; `swapreplay machines` says "(fitted)"), this is no check.
po=$(pnum pmem.json reclaimer-nid pages_out)
ms=$(pnum pmem.json reclaimer-nid makespan_ns)
need "$po" "reclaimer-nid pages_out"
need "$ms" "reclaimer-nid makespan_ns"
fitted=
"$SR" machines 2s-pmem2 | grep -q '^CPU:.*fitted' && fitted="fitted to this figure: not a check"
row pmem_vmstat_so_peak kb_s 4211460 "$(kbs "$po" "$ms")" $fitted

# NVMe row: one NVMe on node 0; tasks on node 0 with memory on node 1 (the
# device on the reclaimer's node) against tasks on node 1 with memory on
# node 0 (the device on the page's node).
"$SR" $GEN --cpu-node=1 --mem-node=0 -o b.swt.zst
"$SR" a.swt.zst -m 2s-nvme0 -p reclaimer-nid -f json >nvme-a.json
"$SR" b.swt.zst -m 2s-nvme0 -p reclaimer-nid -f json >nvme-b.json
ma=$(pnum nvme-a.json reclaimer-nid makespan_ns)
mb=$(pnum nvme-b.json reclaimer-nid makespan_ns)
need "$ma" "makespan_ns (nvme, reclaimer's node)"
need "$mb" "makespan_ns (nvme, page's node)"
row nvme_page_node_delta delta_pct -0.066 "$(delta "$ma" "$mb")"
