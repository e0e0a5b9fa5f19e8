# C4: VMA-based swap readahead (Huang Ying, "[PATCH -mm -v4 0/5] mm, swap:
# VMA based swap readahead", 20170807054038.1843-1-ying.huang@intel.com;
# the RFC, 20170306055324.19918-1-ying.huang@intel.com).  See README.md.
# Cluster-based (before) against VMA-based (after) readahead.
CASE=C4
. "$V/lib.sh"
N="not modelled: VMA readahead"
row v4_throughput_delta delta_pct 19.87 - $N
row v4_cluster_throughput kb_s 345413 - $N
row v4_vma_throughput kb_s 414029 - $N
row v4_cluster_lat_mean us 97.14 - $N
row v4_vma_lat_mean us 61.06 - $N
row v4_cluster_lat_p99 us 1340 - $N
row v4_vma_lat_p99 us 1090 - $N
row v4_cluster_ra_hit pct 52.69 - $N
row v4_vma_ra_hit pct 99.98 - $N
row rfc_seq_lat_mean_vma us 12.04 - $N
row rfc_rand_lat_mean_vma us 72.55 - $N
row rfc_mixed_lat_mean_vma us 26.8 - $N
