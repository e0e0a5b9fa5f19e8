# C5: the swap-in readahead window that adapts to hits (Hugh Dickins' patch,
# alpine.LNX.2.00.1211140109020.19427@eggly.anvils, reposted by Andrew
# Morton, 20140131124159.f4a1c9363c37e4fdfb5fa3e1@linux-foundation.org;
# merged as 579f82901f6f).  See README.md.  Elapsed centiseconds, SSD, Anon.
#
# One task cycling through a mapping a tenth larger than its memory, scaled
# down 8 times (125 MiB under 112.5 MiB, 5 passes or as many random
# touches), generated and replayed with each readahead setting on a kernel
# with cluster readahead (4.9; the model's kernels start at 4.0, the
# measured ones were 3.6 and 3.7).  The published times are of a 2012 SSD whose figures are
# not published: the rows compare each setting with the fixed window
# ("vanilla"), as deltas.
CASE=C5
. "$V/lib.sh"
M=$V/c5-readahead-window/ssd.json

for t in seq rand; do
	w=swap-w-seq
	[ $t = rand ] && w=swap-w-rand
	for v in fixed:--readahead-window=fixed adaptive: pc4:--page-cluster=4 pc0:--page-cluster=0; do
		n=${v%%:*}
		# The closed loop: gen runs the setting's readahead (pages read
		# ahead take memory under the limit and push others out), and
		# the replay of its trace reads what that kernel would read.
		"$SR" gen $w --tasks=1 --size=125M --limit=115200K --accesses=160000 \
			--cpu-node=0 --mem-node=0 --readahead=cluster ${v#*:} -m "$M" --kernel=4.9 \
			-o $t-$n.swt.zst
		"$SR" $t-$n.swt.zst -m "$M" -p reclaimer-nid --kernel=4.9 --readahead=cluster \
			--memory=115200K ${v#*:} -f json >$t-$n.json
		ms=$(pnum $t-$n.json reclaimer-nid makespan_ns)
		need "$ms" "makespan_ns ($t, $n)"
		eval "m_${t}_$n=\$ms"
	done
done

# Measured deltas against the fixed window (vanilla), from the centiseconds
# published: (vanilla / setting - 1) x 100.
# seq: 24634 / 25107, 21614, 70018; rand: 43014 / 25989, 26935, 25901.
row seq_adaptive_vs_fixed delta_pct -1.884 "$(delta "$m_seq_fixed" "$m_seq_adaptive")"
row seq_page_cluster_4_vs_fixed delta_pct 13.972 "$(delta "$m_seq_fixed" "$m_seq_pc4")"
row seq_page_cluster_0_vs_fixed delta_pct -64.818 "$(delta "$m_seq_fixed" "$m_seq_pc0")"
row rand_adaptive_vs_fixed delta_pct 65.509 "$(delta "$m_rand_fixed" "$m_rand_adaptive")"
row rand_page_cluster_4_vs_fixed delta_pct 59.696 "$(delta "$m_rand_fixed" "$m_rand_pc4")"
row rand_page_cluster_0_vs_fixed delta_pct 66.070 "$(delta "$m_rand_fixed" "$m_rand_pc0")"
