/* SPDX-License-Identifier: MIT */
/*
 * Default performance parameters, per device class and for the machine,
 * each with the public figure it comes from.  A machine description may
 * override any of them; the presets use them as they are.  docs/MODEL.md
 * explains how each enters the cost model.  Tags: [V] read in the source,
 * [D] derived from [V] figures by the arithmetic shown, [U] a common figure
 * not checked against a primary source.
 *
 * OptaneStudy = the data of Yang, Kim, Hoseinzadeh, Izraelevitz, Swanson,
 * "An Empirical Guide to the Behavior and Use of Scalable Persistent
 * Memory", FAST 2020 (NVSL/OptaneStudy repository; 2x Xeon Platinum 8260,
 * 6x256 GB Optane DC PMM and 6x32 GB DDR4-2666 per socket).
 */
#ifndef SR_MACHINE_DEFAULTS_H
#define SR_MACHINE_DEFAULTS_H

#define GBS 1e9 /* decimal GB/s, as the sources give them */

/* ---- machine-wide ----------------------------------------------------- */

/* [V] OptaneStudy data/bandwidth.csv, RandBW, 4 KiB, 1 thread: local DRAM
 * load 7488 MB/s, ntstore 4544 MB/s; remote DRAM load 4710, ntstore 2304. */
#define DEF_DRAM_RD_LOCAL (7.488 * GBS)
#define DEF_DRAM_RD_REMOTE (4.710 * GBS)
#define DEF_DRAM_WR_LOCAL (4.544 * GBS)
#define DEF_DRAM_WR_REMOTE (2.304 * GBS)

/* [V] OptaneStudy, remote DRAM 4 KiB random load saturates at 33.5 GB/s
 * (16 threads): the practical cross-socket ceiling per direction. */
#define DEF_LINK_BW (33.5 * GBS)
/* [U] remote minus local idle DRAM latency on 2-socket Skylake/Cascade Lake,
 * ~140 ns vs ~80 ns in common Intel MLC reports. */
#define DEF_LINK_LAT_NS 60.0
/* [D] submitting to a device on the other socket: the doorbell write and the
 * completion's cache line each cross the link once: 2 x DEF_LINK_LAT_NS. */
#define DEF_REMOTE_SUBMIT_NS 120.0
/*
 * [V] A cache line a CPU misses in another node's memory costs this much
 * more than one in its own node's: Intel MLC --latency_matrix (idle,
 * prefetchers off) on FD.io CSIT's 2-socket Cascade Lake SUT s32-t27-sut1
 * (MLC v3.7): 81.2 ns local, 130.2 ns remote, 49.0 ns more
 * (FDio/csit/docs/report/introduction/environment/sut_calib_clx.rst, "Calibration
 * Data - Cascadelake").  The same on their 2 x Xeon Platinum 8180
 * (Skylake-SP) SUT s5-t22-sut1, MLC v3.5: 81.3 and 131.1 ns, 49.8 more;
 * KU Leuven's Genius Skylake nodes, MLC v3.10 random access: 90.2 and
 * 144.3 ns, 54.1 more (hpcleuven/VscDocumentation,
 * source/leuven/old_hardware/genius/skylake_mlc.txt).  The presets' Ice
 * Lake-SP was not found measured so: the Cascade Lake figure stands for
 * it [U: the generation].  docs/MODEL.md, E2 and G1, says where it is
 * charged.
 */
#define DEF_REMOTE_MISS_NS 49.0
/*
 * [V] A cache line last written by another core of the same socket,
 * fetched and written by this one: Intel MLC --c2c_latency, "Local Socket
 * L2->L2 HITM latency", 55.6 ns on the same FD.io CSIT Cascade Lake SUT
 * s32-t27-sut1 (MLC v3.7, sut_calib_clx.rst, "L1/L2/LLC Latency"); from
 * the other socket 115.6 ns (the line homed in the writer's socket) to
 * 178.2 ns (in the reader's), which the model does not tell apart (L5,
 * L6: a line costs the same from either socket).  On a Broadwell-EP
 * (E5-2660 v4) MLC gives 40.3-42.3 ns (John McCalpin, Intel developer
 * forum, "Core-to-Core Communication Latency in Skylake/Kaby Lake",
 * 2016).  docs/MODEL.md, L6, says where it is charged.
 */
#define DEF_LINE_NS 55.6

/*
 * (E3) A swap-in through the swap cache, before 6.18 (a radix tree, an
 * XArray from 4.17), costs its CPU more than one that bypasses it: the
 * second lookup, the insert and the delete of its folio and their
 * counters, SWAP_HAS_CACHE set and dropped.  [D] from Kairui Song's RFC
 * "mm/swap: always use swap cache for synchronization" (one task, 30 GiB
 * of zero pages swapped out then in sequentially on zram, "mostly
 * measures overhead of swap path itself"; March 2024 mm tree, ~6.9):
 * patch 04/10, 20240326185032.72159-5-ryncsn@gmail.com, removing the
 * bypass took the swap-in from 32,393,771 to 41,614,858 us, +1,173 ns per
 * page (7,864,320 pages); patch 10/10, ...-11-ryncsn@gmail.com, skipping
 * the workingset's update of the shadow_nodes list_lru on insert (6.3 to
 * 6.17: a node holding only shadows leaves the list when a folio comes in
 * and rejoins it when the folio leaves) took 38,336,519 to 32,465,441 us,
 * 747 ns per page.  So 1,173 - 747 = 426 ns for the path itself, and 747
 * for the list_lru on the kernels that have it.  Single runs on a machine
 * not given: [D], not [V].  C7 (4.14's radix tree: +587 ns per page by its
 * own figures) is held out to judge them.
 */
#define DEF_SWAPCACHE_NS 426.0
#define DEF_SHADOW_NODE_NS 747.0

/*
 * The block layer (docs/MODEL.md, B3).  [V] a request's CPU work, whole:
 * one core serves 1.2M interrupt-driven 4 KiB reads a second through
 * io_uring (Jens Axboe, "Efficient IO with io_uring", 2019, section 9:
 * 1.7M polled, 608K with libaio), 0.83 us per I/O for submission, the
 * block layer, the driver and the completion's interrupt; swap I/O is
 * interrupt-driven and has no system call of its own.  The bio's own share
 * of it (allocation, submit_bio()) is also in E1's reclaim cost, which
 * zram's bio-based path measured: a bound, the whole figure per request.
 * [D] a single-queue device's queue lock held per insertion: 3.8 us in
 * __make_request() on a dual 733 MHz Pentium III Xeon under 2.5.25
 * (lockmeter; Lincoln Dale, LKML 2002-07-14, message id
 * 5.1.0.14.2.20020714202539.022c4270@mira-sjcm-3.cisco.com; 17 us under
 * 2.4's io_request_lock with its O(N) elevator scan), scaled by clock rate to 2.5 GHz: 3.8 x 0.733 / 2.5 =
 * 1.11 us.  The same lock (q->queue_lock; mq-deadline's dd->lock from 5.0)
 * is taken per bio for the elevator's merge attempt without a plug, and
 * per request a plug's flush inserts.
 */
#define DEF_BLK_REQUEST_NS 830.0
#define DEF_QUEUE_LOCK_NS 1110.0

/*
 * The kernel's swap paths (docs/MODEL.md, "CPU and locks", which gives the
 * equations and the fit).  Uncontended CPU work, besides copying the data:
 * [V/D] one task swapping 4 GiB of zero-filled pages out to zram and back
 * in (Kairui Song, "[PATCH 00/13] mm, swap: rework of swap allocator
 * locks", linux-mm 2024-10-22, message id
 * 20241022192451.38138-1-ryncsn@gmail.com): 3,359,304 us out and 1,928,698
 * us in for 1,048,576 pages, 3.20 and 1.84 us per page; zram stores a
 * zero-filled page as a flag, so that is the kernel's path alone.
 * [E] The swap-out's 3.20 us is split into what a folio pays once (slot
 * allocation, memcg swap charge, swap cache insertion: 1.2 us, the time C3
 * saves per 4 KiB page, 8.8 -> 7.6 us per page per task) and what each of
 * its pages pays (2.0 us).  C1-C3 do not tell the split: C3's huge-page
 * run is held by the LRU lock below, whatever it is.
 */
#define DEF_RECLAIM_NS 1200.0
#define DEF_RECLAIM_PAGE_NS 2000.0
#define DEF_FAULT_NS 1840.0
/*
 * Locks held (serialised resources, docs/MODEL.md), three of them fitted
 * [F] on VALIDATION.md's development cases by tests/validation/fit.sh, in
 * this order, and the same for every machine and case (refitted for issue
 * 34 with the trunk locks, L4 and L5, and `gen`'s reclaim in passes of 32,
 * the kernel's, on the fit's own workloads):
 * [F] a device's si->lock per slot allocation: C2 (Tim Chen, "[PATCH v5
 * 0/9] mm/swap: Regular page swap optimizations", 2017-01-11) with the
 * cluster lock and the 64 MB swap cache trunks but no slots cache
 * (patches 1-3), where 32 writers are held by si->lock in get_swap_page()
 * (43 % of cycles in its perf profile): 2,050,097 kB/s.  1,919 ns, close
 * to 1 / 512.5k pages/s = 1.951 us less one slot and the other work the
 * lock's holder does between its holds.
 * [V] per slot taken under it, a spinlock's uncontended lock and unlock:
 * 12.3-14.9 ns (Waiman Long, "[PATCH v7 0/4] qrwlock: Introducing a queue
 * read/write lock implementation", LKML 2013-11-22, ticket spinlock on
 * Westmere): 15 ns.
 * [F] the node's LRU lock per page reclaimed: the two runs no other lock
 * holds back, C2 with the slots cache (patches 1-9, 4,170,746 kB/s, 32
 * tasks) and C3 with THP swapped out whole (4,310,000 kB/s, 8 tasks): 933
 * ns, the value whose errors on the two are equal and opposite (+1.2 %,
 * -1.2 %).  Which lock it is the measurements do not say (C2's profile
 * shows zone->lock and exit-time freeing after the series): one
 * serialised resource per node, charged per page reclaimed.
 * [F] the same lock per page swapped in (a refault: lru_cache_add() takes
 * it, workingset_refault() notes the refault's cost under it since 5.8,
 * Johannes Weiner, "mm: balance LRU lists based on relative thrashing",
 * and a page it activates is deactivated under it later): C1's PMem delta,
 * -17.29 % (Aaron Lu, linux-mm, "[PATCH] mm: swap: determine swap device
 * by using page nid", 2022-04-20): 4,778 ns.  The check on it: the vmstat
 * of that run (2022-04-21) shows 3.9-8.5 us per swap-in by the same
 * arithmetic second by second (docs/MODEL.md).
 */
#define DEF_SWAP_LOCK_NS 1919.0
/*
 * Before 4.11 (the C2 series added the cluster locks and split the swap
 * cache into 64 MB trunks): a device's si->lock is also taken by the other
 * updates of its swap map, 3 per page (swap_duplicate() at unmap,
 * page_swapcount() in try_to_free_swap(), swapcache_free() at
 * __remove_mapping(), read in 4.9), and its one swap cache radix tree lock
 * twice (add_to_swap_cache(), __delete_from_swap_cache()).  C2's vanilla
 * profile shows the four si->lock callers at equal shares (7.0 +- 0.1 %
 * each) with get_swap_page() at 1.95 us: [D] the others at most
 * (1 / 357k pages/s - 1.951 us) / 3 = 0.28 us
 * (docs/research/cpu-lock-model.md, 4.3); that bound is the figure.
 * [F] the tree lock, fitted on C2's vanilla row (1,428,002 kB/s) with it
 * (tests/validation/fit.sh): 1,393 ns, as the profile's arithmetic gives
 * (2 holds per page at 357k pages/s: 1.40 us).  From 4.11 to 6.17 the same
 * hold on the lock of the slot's 64 MB trunk (docs/MODEL.md, L4).  Both
 * take it only when the lock was last held by another CPU (L5): the
 * uncontended hold is in E1's per-page cost.
 */
#define DEF_SWAP_LOCK_OTHER_NS 280.0
#define DEF_SWAP_CACHE_LOCK_NS 1393.0
#define DEF_SWAP_SLOT_NS 15.0
#define DEF_LRU_LOCK_NS 933.0
#define DEF_LRU_REFAULT_NS 4778.0

/* ---- NVMe (NAND datacenter SSD) -------------------------------------- */
/* [V] Intel DC P4500 2 TB, Lenovo product guide spec table: 4 KiB random
 * read 490,000 IOPS, random write 38,000 IOPS; sequential read 3.2 GB/s,
 * write 1.05 GB/s; latency random read 85 us, random write 20 us. */
#define NVME_READ_LAT_NS 85000.0
#define NVME_WRITE_LAT_NS 20000.0
#define NVME_READ_IOPS 490000.0
#define NVME_WRITE_IOPS 38000.0
#define NVME_READ_BW (3.2 * GBS)
#define NVME_WRITE_BW (1.05 * GBS)
#define NVME_SIZE_PAGES (2000000000000ull / 4096) /* 2 TB */

/* ---- SATA SSD --------------------------------------------------------- */
/* [U] Samsung 860 EVO data sheet: 4 KiB random read/write QD1 10k/42k IOPS
 * (~100 us / ~24 us), QD32 98k/90k IOPS; sequential 550/520 MB/s. */
#define SSD_READ_LAT_NS 100000.0
#define SSD_WRITE_LAT_NS 24000.0
#define SSD_READ_IOPS 98000.0
#define SSD_WRITE_IOPS 90000.0
#define SSD_READ_BW (0.55 * GBS)
#define SSD_WRITE_BW (0.52 * GBS)
#define SSD_SIZE_PAGES (1000000000000ull / 4096) /* 1 TB */

/* ---- 7200 rpm disk ---------------------------------------------------- */
/* The seek curve's three points (docs/MODEL.md, D4).  [V] WD Ultrastar DC
 * HC310 (3.5", 7200 rpm, 4-6 TB) OEM specification, 4.5.1: average seek
 * 7.4 ms read / 8.2 ms write, single track 0.23 / 0.32 ms; [D] the means,
 * 7.8 and 0.275 ms.  Its full stroke is not given there: [D] the
 * average's 7.8 ms times the full-stroke-to-average ratio of a data sheet
 * that gives both, Hitachi Travelstar 7K320 (7200 rpm) OEM specification
 * 4.4.2: 21.0 / 12.0 (full stroke 20.0 / 22.0 ms, average 12 ms): 13.65
 * ms.  Rotational latency follows from the spindle: half a revolution on
 * average, 60 / 7200 / 2 = 4.17 ms (both data sheets: 4.2 ms). */
#define HDD_SEEK_NS 7800000.0
#define HDD_SEEK_TRACK_NS 275000.0
#define HDD_SEEK_FULL_NS 13650000.0
#define HDD_RPM 7200.0
/* [U] sequential transfer ~200 MB/s (common figure for current 7200 rpm
 * drives; Seagate's 1 TB-platter Barracuda of 2011: "up to 210MB/s"). */
#define HDD_BW (0.2 * GBS)
#define HDD_SIZE_PAGES (4000000000000ull / 4096) /* 4 TB */
/*
 * The drive's cache (docs/MODEL.md, D4).  [U] 256 MB of cache and a SATA
 * 6 Gb/s interface, the WD Ultrastar DC HC310's data sheet as issue 34
 * gives it (not read here in a stored copy); [D] 6 Gb/s with SATA's
 * 8b/10b line code carries 600 MB/s.  Write-back on: [V] HC310 OEM
 * specification 9.8, "Write Cache Function" (the drive reports a write
 * complete once the data is in its buffer and writes it to the disk
 * afterwards), [U] on by default on ATA drives; the kernel's swap writes
 * ask for no flush nor FUA (6.12 mm/page_io.c, swap_writepage_bdev_async():
 * REQ_OP_WRITE | REQ_SWAP).  Read look-ahead: [V] DiskSim 4.0's validated
 * 7200 rpm disk, the Seagate ST32171W (Barracuda), barracuda.diskspecs:
 * "Number of buffer segments = 3", "Segment size (in blks) = 281",
 * "Maximum read-ahead (blks) = 281" (512-byte blocks: 140.5 KiB); no
 * segment figures of a current drive were found.  Command overheads:
 * [V] Hitachi Deskstar 7K3000 (7200 rpm, SATA 6 Gb/s, the HC310's
 * predecessor line) OEM specification, 4.5.1, Table 5, typical for an
 * NCQ command: read not in the cache 0.5 ms, read in the cache 0.2 ms,
 * write 0.2 ms (the HC310's own table was not found).
 */
#define HDD_CACHE_BYTES 256e6
#define HDD_WRITE_CACHE 1.0
#define HDD_READ_SEGMENTS 3.0
#define HDD_SEGMENT_BYTES (281.0 * 512)
#define HDD_IFACE_BW (0.6 * GBS)
#define HDD_OVH_MISS_NS 500000.0
#define HDD_OVH_HIT_NS 200000.0
#define HDD_OVH_WRITE_NS 200000.0

/* ---- the block layer's request limits (docs/research/
 * swapin-allocator-block.md, 5.4) ----------------------------------- */
/* [V] max_sectors_kb: min(max_hw_sectors, BLK_DEF_MAX_SECTORS_CAP = 2560
 * sectors) = 1280 KiB, 6.12 block/blk-settings.c (2560 sectors is
 * BLK_DEF_MAX_SECTORS in 6.1); NVMe drives whose MDTS is smaller (128-512
 * KiB on client drives) have less: set it in the machine description. */
#define BLK_MAX_SECTORS_KB 1280.0
/* [V] max_segments: BLK_MAX_SEGMENTS = 128 (include/linux/blkdev.h); NVMe
 * NVME_MAX_SEGS 127 (6.1) / 128 (6.12); AHCI's AHCI_MAX_SG = 168 (SATA
 * ssd and hdd). */
#define BLK_MAX_SEGMENTS 128.0
#define NVME_MAX_SEGMENTS 128.0
#define AHCI_MAX_SEGMENTS 168.0
/* [V] tags: NCQ's 32 on SATA (libata ATA_MAX_QUEUE); NVMe's I/O queue of
 * 1024 entries, one kept empty (NVME_Q_DEPTH, drivers/nvme/host/pci.c),
 * one per CPU. */
#define SATA_QUEUE_DEPTH 32.0
#define NVME_QUEUE_DEPTH 1023.0

/* ---- Optane PMem used as a swap block device (6 DIMMs per socket) ---- */
/* Per-thread 4 KiB copy rates. [V] OptaneStudy data/bandwidth.csv RandBW
 * 4 KiB, 1 thread, 6-DIMM interleaved: load 3206 MB/s, ntstore 4269 MB/s.
 * Remote rates [D] scale them by graphs/17-numa.csv 1-thread remote/local:
 * read 4.32/4.70, write 2.14/5.23. */
#define PMEM_RD_LOCAL (3.206 * GBS)
#define PMEM_RD_REMOTE (3.206 * 4.32 / 4.70 * GBS)
#define PMEM_WR_LOCAL (4.269 * GBS)
#define PMEM_WR_REMOTE (4.269 * 2.14 / 5.23 * GBS)
/* The DIMMs' aggregate bandwidth under many threads. [V] OptaneStudy
 * graphs/04-bandwidth_thcount_optane.csv: read peaks at 37.6 GB/s (22-24
 * threads); write falls from 12.5 GB/s at 4-5 threads to 7.5 GB/s at 24.
 * Remote [D] scales by graphs/17-numa.csv 4-thread remote/local: read
 * 13.31/14.62, write 5.90/13.51 (remote Optane writes collapse). */
#define PMEM_CAP_RD_LOCAL (37.6 * GBS)
#define PMEM_CAP_RD_REMOTE (37.6 * 13.31 / 14.62 * GBS)
#define PMEM_CAP_WR_LOCAL (7.5 * GBS)
#define PMEM_CAP_WR_REMOTE (7.5 * 5.90 / 13.51 * GBS)
#define PMEM_SIZE_PAGES (6ull * 256 * 1000000000ull / 4096) /* 6 x 256 GB */
/*
 * Reads and writes mixed on the same DIMMs interfere far beyond a linear
 * mix, remote accesses most.  [V] OptaneStudy graphs/17-numa.csv, 4
 * threads, GB/s local / remote: R 14.62 / 13.31, W 13.51 / 5.90, R:W 4:1
 * 13.84 / 4.77, 3:1 12.75 / 2.19, 2:1 10.41 / 1.74, 1:1 6.90 / 1.95.
 * [D] The factor by which each mix is slower than the linear mix of the
 * pure rates (1 / (r/R + (1-r)/W) for a read share r): local 1.04, 1.12,
 * 1.37, 2.03; remote 2.22, 4.61, 5.41, 4.19 at r = 0.8, 0.75, 0.667, 0.5.
 * Write-heavier mixes (r < 0.5) were not measured: [E] the factor falls
 * linearly from r = 0.5 to 1 at r = 0 (writes alone).
 */
#define PMEM_MIX_POINTS 6
#define PMEM_MIX_SHARE { 0.0, 0.5, 2.0 / 3.0, 0.75, 0.8, 1.0 }
#define PMEM_MIX_LOCAL { 1.0, 2.034, 1.369, 1.124, 1.040, 1.0 }
#define PMEM_MIX_REMOTE { 1.0, 4.192, 5.413, 4.605, 2.216, 1.0 }

/* ---- zram ------------------------------------------------------------- */
/* [V] lz4 README benchmark (Core i7-9700K, Silesia corpus): LZ4 default
 * compresses 780 MB/s, decompresses 4970 MB/s, ratio 2.101.  zram's
 * default compressor differs by kernel (lzo-rle, lz4 or zstd). */
#define ZRAM_COMPRESS_BW (0.780 * GBS)
#define ZRAM_DECOMPRESS_BW (4.970 * GBS)
#define ZRAM_RATIO 2.101
#define ZRAM_SIZE_PAGES (16ull * 1024 * 1024 * 1024 / 4096) /* 16 GiB */

/* ---- zswap ------------------------------------------------------------ */
/* [V] zstd's README, "Benchmarks" (zstd 1.5.7; lzbench 2.0.2 built with gcc
 * 14.2.0, one core of a Core i7-9700K at 4.9 GHz, Ubuntu 24.04, the
 * Silesia corpus), one table for the three compressors zswap offers
 * commonly: lz4 1.10.0 compresses 675 MB/s, decompresses 3850 MB/s, ratio
 * 2.101; lzo1x 2.10 -1 650 and 780 MB/s, 2.106; zstd 1.5.7 -1 510 and
 * 1550 MB/s, 2.896.  [D] per 4 KiB page: 4096 B over the rate.  [E] a
 * page compressed alone runs at the rate of the corpus's long buffers (the
 * kernel's crypto_acomp call and the window set-up per page are not in
 * these figures: the per-page figures are a lower bound). */
#define ZSWAP_LZ4_COMPRESS_NS (4096.0 / 675e6 * 1e9)
#define ZSWAP_LZ4_DECOMPRESS_NS (4096.0 / 3850e6 * 1e9)
#define ZSWAP_LZ4_RATIO 2.101
#define ZSWAP_LZO_COMPRESS_NS (4096.0 / 650e6 * 1e9)
#define ZSWAP_LZO_DECOMPRESS_NS (4096.0 / 780e6 * 1e9)
#define ZSWAP_LZO_RATIO 2.106
#define ZSWAP_ZSTD_COMPRESS_NS (4096.0 / 510e6 * 1e9)
#define ZSWAP_ZSTD_DECOMPRESS_NS (4096.0 / 1550e6 * 1e9)
#define ZSWAP_ZSTD_RATIO 2.896
/* [V] mm/zswap.c, read in 6.6.57, 6.12.19 and 6.18.2: zswap_max_pool_percent
 * 20, zswap_accept_thr_percent 90. */
#define ZSWAP_MAX_POOL_PERCENT 20.0
#define ZSWAP_ACCEPT_PERCENT 90.0

#endif /* SR_MACHINE_DEFAULTS_H */
