# C1: device by reclaimer node vs page node (Aaron Lu, linux-mm, April 2022).
# See README.md here.  The calibration workload of tests/cli/replay.sh:
# vm-scalability case-swap-w-rand, 32 tasks x 4 GiB in a 64 GiB memcg,
# scaled down 64 times.
CASE=C1
. "$V/lib.sh"
# The kernel: 5.18, which the runs were contemporary with (README.md
# here); every replay and gen takes it (until 2026-12 the default, 6.6,
# which gives the PMem row to the digit and the NVMe row within 0.03 pt).
K=--kernel=5.18
GEN="gen swap-w-rand --tasks=32 --size=64M --limit=1G $K"

# PMem row: only pmem0 (the reclaimer's node) or only pmem1 (the page's
# node) swapped on; on 2s-pmem2 that is reclaimer-nid against
# page-nid-strict (tasks on node 0, memory on node 1).
"$SR" $GEN --cpu-node=0 --mem-node=1 -o a.swt.zst
"$SR" a.swt.zst -m 2s-pmem2 -p reclaimer-nid,page-nid-strict $K -f json >pmem.json
d=$(pnum pmem.json page-nid-strict delta_pct)
need "$d" "page-nid-strict delta_pct"

# The fitted constant lru_refault_ns is fitted to the delta above
# (tests/validation/fit.sh): while the machine says so, that row is no
# check.
fitted=
"$SR" machines 2s-pmem2 | grep -q 'refault.*(fitted)' && fitted="fitted to this figure: not a check"
row pmem_page_node_delta delta_pct -17.29 "$d" $fitted

# The check on it: the vmstat of the PMem run (YmETEHnK/FiNbLO7@ziqianlu-
# desk1), so + si averaged over the 25 steady seconds it shows,
# 11:46:11-11:46:35: 1,307,727 kB/s.  Which of the two runs it is the
# post does not say: both are set against it, one of the rows is moot.
for p in reclaimer-nid:pmem0 page-nid-strict:pmem1; do
	pol=${p%:*}
	po=$(pnum pmem.json "$pol" pages_out)
	pi=$(pnum pmem.json "$pol" pages_in)
	ms=$(pnum pmem.json "$pol" makespan_ns)
	need "$po" "$pol pages_out"
	need "$pi" "$pol pages_in"
	need "$ms" "$pol makespan_ns"
	row "pmem_vmstat_steady_if_${p#*:}" kb_s 1307727 "$(kbs "$((po + pi))" "$ms")"
done

# NVMe row: one NVMe on node 0; tasks on node 0 with memory on node 1 (the
# device on the reclaimer's node) against tasks on node 1 with memory on
# node 0 (the device on the page's node).
"$SR" $GEN --cpu-node=1 --mem-node=0 -m 2s-nvme0 -o b.swt.zst
"$SR" a.swt.zst -m 2s-nvme0 -p reclaimer-nid $K -f json >nvme-a.json
"$SR" b.swt.zst -m 2s-nvme0 -p reclaimer-nid $K -f json >nvme-b.json
ma=$(pnum nvme-a.json reclaimer-nid makespan_ns)
mb=$(pnum nvme-b.json reclaimer-nid makespan_ns)
need "$ma" "makespan_ns (nvme, reclaimer's node)"
need "$mb" "makespan_ns (nvme, page's node)"
row nvme_page_node_delta delta_pct -0.066 "$(delta "$ma" "$mb")"
