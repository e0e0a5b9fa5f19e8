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
 * The one fitted constant: CPU time of the kernel's fault or reclaim path
 * per swap event, besides the data movement (page tables, LRU, memcg
 * charging, TLB flushes, lock contention).  Fitted to the vmstat Aaron Lu
 * posted from the measured Icelake PMem machine (linux-mm, "[PATCH] mm:
 * swap: determine swap device by using page nid", 2022-04-19): swap-out
 * ("so") up to 4,211,460 KB/s and swap-in ("si") up to ~767,000 KB/s with
 * bo = 0, 32 tasks.  Per task that is 32.1k + 5.9k = 38.0k events/s, 26.3 us
 * each; less the mean copy of the model (2.0 us: 1.83 us out, 3.06 us in,
 * weighted 32.1:5.9) and the workload's own compute (~0.2 us) leaves 24 us.
 * docs/MODEL.md ("The fitted constant") has the arithmetic.
 */
#define DEF_EVENT_CPU_NS 24000.0

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
/* [U] ~8 ms per random seek (the common figure for 7200 rpm disks); ~4.2 ms
 * average rotational latency at 7200 rpm is folded into it; sequential
 * transfer ~200 MB/s (common figure for current 7200 rpm drives). */
#define HDD_SEEK_NS 8000000.0
#define HDD_BW (0.2 * GBS)
#define HDD_SIZE_PAGES (4000000000000ull / 4096) /* 4 TB */

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

/* ---- zram ------------------------------------------------------------- */
/* [V] lz4 README benchmark (Core i7-9700K, Silesia corpus): LZ4 default
 * compresses 780 MB/s, decompresses 4970 MB/s, ratio 2.101.  zram's
 * default compressor differs by kernel (lzo-rle, lz4 or zstd). */
#define ZRAM_COMPRESS_BW (0.780 * GBS)
#define ZRAM_DECOMPRESS_BW (4.970 * GBS)
#define ZRAM_RATIO 2.101
#define ZRAM_SIZE_PAGES (16ull * 1024 * 1024 * 1024 / 4096) /* 16 GiB */

#endif /* SR_MACHINE_DEFAULTS_H */
