# C6: no more slots cache (Kairui Song, "[PATCH v3 0/7] mm, swap: remove
# swap slot cache", 20250313165935.63303-1-ryncsn@gmail.com).  See
# README.md.  Before (slots cache) -> after (6.15 per-CPU clusters), KB/s.
CASE=C6
. "$V/lib.sh"
N="not modelled: 6.15 allocator's CPU and lock costs"
row rand_4k_delta delta_pct -2.39 - $N
row rand_64k_delta delta_pct 2.45 - $N
row seq_4k_delta delta_pct 2.79 - $N
row rand_4k_before kb_s 424907.60 - $N
row rand_4k_after kb_s 414745.92 - $N
row rand_64k_before kb_s 163308.82 - $N
row rand_64k_after kb_s 167314.50 - $N
row seq_4k_before kb_s 6150056.79 - $N
row seq_4k_after kb_s 6321469.06 - $N
