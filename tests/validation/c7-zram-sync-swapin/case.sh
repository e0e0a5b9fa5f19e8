# C7: zram swap-in bypassing the swap cache (Minchan Kim, "mm:swap: skip
# swapcache for swapin of synchronous device",
# 1505805001-30187-5-git-send-email-minchan@kernel.org; 0bcac06f27d7,
# 4.15).  See README.md.  5 GB sequential swap-in, no readahead.
CASE=C7
. "$V/lib.sh"
N="not modelled: the swap cache path's CPU cost"
row swapin_speed_delta delta_pct 46.95 - $N
row swapin_via_cache s 2.41 - $N
row swapin_bypass s 1.64 - $N
