# C5: the swap-in readahead window that adapts to hits (Hugh Dickins' patch,
# alpine.LNX.2.00.1211140109020.19427@eggly.anvils, reposted by Andrew
# Morton, 20140131124159.f4a1c9363c37e4fdfb5fa3e1@linux-foundation.org;
# merged as 579f82901f6f).  See README.md.  Elapsed centiseconds, SSD, Anon.
CASE=C5
. "$V/lib.sh"
N="not modelled: readahead"
row seq_vanilla cs 24634 - $N
row seq_adaptive cs 25107 - $N
row seq_page_cluster_4 cs 21614 - $N
row seq_page_cluster_0 cs 70018 - $N
row rand_vanilla cs 43014 - $N
row rand_adaptive cs 25989 - $N
row rand_page_cluster_4 cs 26935 - $N
row rand_page_cluster_0 cs 25901 - $N
