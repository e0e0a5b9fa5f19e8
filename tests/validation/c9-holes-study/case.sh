# S1: swap-in readahead skipping holes or stopping at them, by memory
# pressure: a study (issue 14), after Dan Magenheimer's kernel builds of
# 3.4-rc2 with and without "mm: make swapin readahead skip over holes"
# (67f96aa252e6; linux-mm, 7297ae3b-f3e1-480b-838f-69b0e09a733d@default).
# See README.md.  Not fitted to anything: the published figures are ranges
# only, given in each row's verdict.
CASE=S1
. "$V/lib.sh"
M=$V/c9-holes-study/hdd.json

# A make -jN, scaled 16 times (1 GB -> 64 MiB): 160 jobs of 4.5 MiB, N at
# a time, the fixed 8-page window (the adaptive one came with 3.14), each
# setting in gen's closed loop and the replay.
for N in 20 24 28 36 40; do
	for h in skip stop; do
		"$SR" gen kbuild --tasks=160 --jobs=$N --size=4608K --limit=64M --cpu-node=0 --mem-node=0 \
			--cpus-per-node=8 --readahead=cluster --readahead-window=fixed --readahead-holes=$h \
			-m "$M" --kernel=4.0 -o kb.swt.zst
		"$SR" kb.swt.zst -m "$M" -p reclaimer-nid --kernel=4.0 --readahead=cluster \
			--readahead-window=fixed --readahead-holes=$h --memory=64M -f json >kb-$h.json
		ms=$(pnum kb-$h.json reclaimer-nid makespan_ns)
		need "$ms" "makespan_ns (-j$N, $h)"
		eval "m_$h=\$ms"
	done
	case $N in
	20) mid=-7.5 say="5 to 10 % slower (N = 16, 20)" ;;
	24 | 28) mid=6.5 say="4 to 9 % faster (N = 24, 28)" ;;
	*) mid=-35 say="30 to 40 % slower (N = 36, 40)" ;;
	esac
	row "skip_vs_stop_j$N" delta_pct "$mid" "$(delta "$m_stop" "$m_skip")" \
		"study: published as a range, $say"
done
