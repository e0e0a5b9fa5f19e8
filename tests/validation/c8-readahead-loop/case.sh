# The open loop against the closed one (issue 14): how well the replay
# predicts a run with readahead from a trace recorded without it.  See
# README.md.  Not a published measurement: the "measured" column is the
# closed loop (gen runs the readahead, its trace is replayed with it), the
# "predicted" one the open loop (gen without readahead, its trace replayed
# with it); both in seconds of simulated time, on C5's SSD.
CASE=L1
. "$V/lib.sh"
M=$V/c5-readahead-window/ssd.json
SEC() { awk -v m="$1" 'BEGIN { printf "%.4f", m / 1e9 }'; }

# One task, 32,000 pages, under 90 % and 75 % of them (C5's shape), five
# passes of sequential or random touches; the fixed 8-page window and the
# adaptive one.
for w in seq rand; do
	for lim in 115200K:90 96000K:75; do
		l=${lim%%:*}
		for v in fixed:--readahead-window=fixed adaptive:; do
			n=${v%%:*}
			"$SR" gen swap-w-$w --tasks=1 --size=125M --limit=$l --accesses=160000 \
				--cpu-node=0 --mem-node=0 -m "$M" --kernel=4.9 -o open.swt.zst
			"$SR" gen swap-w-$w --tasks=1 --size=125M --limit=$l --accesses=160000 \
				--cpu-node=0 --mem-node=0 --readahead=cluster ${v#*:} -m "$M" --kernel=4.9 \
				-o closed.swt.zst
			for o in open closed; do
				"$SR" $o.swt.zst -m "$M" -p reclaimer-nid --kernel=4.9 --readahead=cluster \
					--memory=$l ${v#*:} -f json >$o.json
			done
			mo=$(pnum open.json reclaimer-nid makespan_ns)
			mc=$(pnum closed.json reclaimer-nid makespan_ns)
			need "$mo" "makespan_ns (open, $w $n ${lim#*:} %)"
			need "$mc" "makespan_ns (closed, $w $n ${lim#*:} %)"
			row "${w}_${n}_mem${lim#*:}" s "$(SEC "$mc")" "$(SEC "$mo")"
		done
	done
done
