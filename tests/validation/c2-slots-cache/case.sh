# C2: the swap slots cache against lock contention (Tim Chen, "[PATCH v5
# 0/9] mm/swap: Regular page swap optimizations", 2017-01-11,
# cover.1484082593.git.tim.c.chen@linux.intel.com).  See README.md here.
CASE=C2
. "$V/lib.sh"
M=$V/c2-slots-cache/e5v3-ram-pmem.json

# vm-scalability case-swap-w-seq: 32 processes each writing its region once,
# in order; scaled to 32 x 64 MiB over a 1 GiB limit (half swapped out, as
# in C1's scaling), every task on node 0 with its memory and the device.
# usemem writes each page with 512 8-byte stores: --access-ns=1200, the
# user time per page measured for it (docs/research/next-model-questions.md,
# section 2).  The series is on 4.9-rc8 and was merged in 4.11: --kernel=4.11,
# its slots cache off for patches 1-3.
"$SR" gen swap-w-seq --tasks=32 --size=64M --limit=1G --accesses=16384 --access-ns=1200 \
	--cpu-node=0 --mem-node=0 --cpus-per-node=36 -m "$M" --kernel=4.11 -o seq.swt.zst
"$SR" seq.swt.zst -m "$M" -p reclaimer-nid --kernel=4.11 --slots-cache=off -f json >off.json
"$SR" seq.swt.zst -m "$M" -p reclaimer-nid --kernel=4.11 --slots-cache=on -f json >on.json
for s in off on; do
	p=$(pnum $s.json reclaimer-nid pages_out)
	m=$(pnum $s.json reclaimer-nid makespan_ns)
	need "$p" "pages_out (slots cache $s)"
	need "$m" "makespan_ns (slots cache $s)"
	eval "p_$s=\$p m_$s=\$m"
done
# Toggling only the slots cache on a 4.11+ kernel: patches 1-3 (cluster
# lock and swap cache trunks, no slots cache) against 1-9.
# si->lock's hold is fitted to the first row, the LRU lock's to the
# second (with C3's whole-THP run; tests/validation/fit.sh): no checks
# while the model's constants are the fitted ones, nor their delta.
fit=$("$SR" machines "$M" | grep -c '(fitted)' || true)
f1= f2= f3=
if [ "$fit" -gt 0 ]; then
	f1="fitted to this figure: not a check"
	f2="$f1"
	f3="follows from two fitted figures: not a check"
fi
row slots_cache_delta delta_pct 103.44 "$(delta "$m_off" "$m_on")" $f3
row slots_off_1-3_so kb_s 2050097 "$(kbs "$p_off" "$m_off")" $f1
row slots_on_1-9_so kb_s 4170746 "$(kbs "$p_on" "$m_on")" $f2
# The 4.9 lock set (one swap cache tree per device, si->lock for every
# slot, no cluster lock) is not in the model.
# Vanilla (4.9-rc8): before 4.11, no cluster locks and one swap cache tree
# lock per device; that lock's hold is fitted on this row.
"$SR" seq.swt.zst -m "$M" -p reclaimer-nid --kernel=4.10 -f json >van.json
p_v=$(pnum van.json reclaimer-nid pages_out)
m_v=$(pnum van.json reclaimer-nid makespan_ns)
need "$p_v" "pages_out (vanilla)"
need "$m_v" "makespan_ns (vanilla)"
f4=
"$SR" machines "$M" | grep -q 'tree lock.*(fitted)' && f4="fitted to this figure: not a check"
row vanilla_so kb_s 1428002 "$(kbs "$p_v" "$m_v")" $f4
row cluster_lock_1-2_so kb_s 1481704 - "not modelled: patches 1-2 alone are no kernel release"
# Where the tasks' time goes (issue 34): the per-step perf profiles of the
# series (Huang Ying, 8760lujnng.fsf@yhuang-dev.intel.com; % of cycles
# under each lock's call chains, the spinning, summed over its lines:
# docs/research/issue34-locks.md, section 4) against the model's waits
# for each lock as a share of the 32 tasks' time.  A lock no line lists
# is bounded by the smallest line listed, 0.81 %: the LRU lock in every
# step.  Vanilla: si->lock 7.05 + 7.03 + 7.02 + 6.83, the tree lock 13.94
# + 13.75; patches 1-3: si->lock 43.27 (get_swap_page()); 1-9: si->lock
# 2.47 in the slots cache's refill, and 13.91 in the frees of the tasks'
# exits, which the trace does not hold.  From 4.11 (patch 3) the swap
# cache's lock is one per 64 MB trunk (docs/MODEL.md, L4): neither later
# profile lists it, so it is bounded by the smallest line listed, as the
# LRU lock is.
row vanilla_si_lock_share lock_pct 27.93 "$(share van.json reclaimer-nid si_lock 32)"
row vanilla_tree_lock_share lock_pct 27.69 "$(share van.json reclaimer-nid swap_cache_lock 32)"
row vanilla_lru_lock_share lock_pct_max 0.81 "$(share van.json reclaimer-nid lru_lock 32)"
row slots_off_1-3_si_lock_share lock_pct 43.27 "$(share off.json reclaimer-nid si_lock 32)"
row slots_off_1-3_lru_lock_share lock_pct_max 0.81 "$(share off.json reclaimer-nid lru_lock 32)"
row slots_off_1-3_trunk_lock_share lock_pct_max 0.81 "$(share off.json reclaimer-nid swap_cache_lock 32)"
row slots_on_1-9_si_lock_share lock_pct 2.47 "$(share on.json reclaimer-nid si_lock 32)"
row slots_on_1-9_lru_lock_share lock_pct_max 0.81 "$(share on.json reclaimer-nid lru_lock 32)"
row slots_on_1-9_trunk_lock_share lock_pct_max 0.81 "$(share on.json reclaimer-nid swap_cache_lock 32)"
row slots_on_1-9_exit_free_share lock_pct 13.91 - "not modelled: the exits' frees are not in the trace"
