/* SPDX-License-Identifier: MIT */
/*
 * swapreplay/machine.h - the machine a trace is replayed on: NUMA nodes,
 * the interconnect, memory copy rates and the swap devices with their
 * performance parameters.  The JSON schema is docs/MACHINE.md; the cost
 * model that uses these numbers is docs/MODEL.md.
 */
#ifndef SWAPREPLAY_MACHINE_H
#define SWAPREPLAY_MACHINE_H

#include <stddef.h>
#include <stdint.h>

#include "swapreplay/error.h"
#include "swapreplay/kernel.h"

#define SR_MACHINE_MAX_NODES 64    /* nodes in a machine description */
/*
 * Every number of a machine description, converted to the model's units
 * (ns, bytes/s, operations/s), lies in [SR_MACHINE_NUM_MIN, SR_MACHINE_NUM_MAX]:
 * far wider than any real hardware, narrow enough that the cost model's
 * reciprocals and products stay finite.
 */
#define SR_MACHINE_NUM_MIN 1e-6
#define SR_MACHINE_NUM_MAX 1e18
/* An hdd's cache: its read segments and its size at most (the model keeps
 * a write-back cache's runs in an array of its pages). */
#define SR_HDD_SEGMENTS_MAX 16
#define SR_HDD_CACHE_MAX 1.073741824e9
#define SR_MACHINE_MAX_DEVICES 256 /* swap devices: MAX_SWAPFILES is 32 minus a few */
/* Swap tiers (docs/MACHINE.md, "tiers"; docs/MODEL.md, "Swap tiers"):
 * at most 31, as the series allows (bit 31 of its masks is reserved for
 * the devices in no tier, which every memory cgroup may use). */
#define SR_MACHINE_MAX_TIERS 31
#define SR_TIER_NONE_BIT (1u << 31)
#define SR_TIERS_ALL 0xffffffffu

/* A swap tier: a name and the devices of a priority range, or a list. */
struct sr_tier {
	char name[32];
	int by_priority;        /* 1: the devices whose priority is in [lo, hi] */
	int lo, hi;
};

enum sr_dev_class {
	SR_DEV_NVME = 0,
	SR_DEV_SSD = 1,
	SR_DEV_HDD = 2,
	SR_DEV_PMEM = 3,
	SR_DEV_ZRAM = 4,
};

/* Memory-like devices move the page with a CPU copy (pmem, zram); the
 * others by DMA. */
static inline int sr_dev_class_memlike(enum sr_dev_class c)
{
	return c == SR_DEV_PMEM || c == SR_DEV_ZRAM;
}

const char *sr_dev_class_name(enum sr_dev_class c);

/*
 * zswap (docs/MACHINE.md, "zswap"; docs/MODEL.md, "zswap", Zs1-Zs5): a
 * compressed cache in front of every swap device, not a device: a page
 * swapped out still takes its slot on the device its policy chose, and
 * zswap keeps it in memory instead of writing it, while its pool has room.
 */
enum sr_zswap_comp { SR_ZSWAP_LZ4 = 0, SR_ZSWAP_LZO = 1, SR_ZSWAP_ZSTD = 2 };
const char *sr_zswap_comp_name(enum sr_zswap_comp c);

struct sr_zswap {
	int enabled;              /* the description has "zswap", enabled */
	enum sr_zswap_comp comp;  /* the compressor ("compressor": lz4, lzo, zstd) */
	double mem_bytes;         /* the machine's RAM (MemTotal); 0: not given */
	double max_pool_pct;      /* max_pool_percent: the pool's limit, % of RAM (20) */
	double accept_pct;        /* accept_threshold_percent: a full pool takes
				   * pages again below this % of its limit (90) */
	double pool_bytes;        /* the pool's limit in bytes, from the two
				   * above or "pool_mib" */
	double compress_ns;       /* one 4 KiB page compressed on one CPU */
	double decompress_ns;     /* ... decompressed */
	double ratio;             /* a page's size over its compressed size */
	double zero_share;        /* of the pages swapped out, the share all zeros */
	double incompressible_share; /* ... and the share that does not compress */
	int writeback;            /* a full pool writes its oldest entries back to
				   * their devices (1; memory.zswap.writeback 0: no) */
};

/* What zswap (or the zeromap) did with a swap-out, and so what its swap-in
 * costs (Zs2, Zs3).  A record carries it (0: nothing: the device's); mm decides it, hw charges it
 * (sr_cost_zswap()). */
enum sr_zs_out {
	SR_ZS_NONE = 0,    /* not offered, or refused before any work (pool full,
			    * a large folio before 6.13): the device writes it */
	SR_ZS_STORED = 1,  /* compressed into the pool */
	SR_ZS_ZERO = 2,    /* all zeros: no bytes, no I/O (zswap's same-filled
			    * entry before 6.12, the zeromap from 6.12) */
	SR_ZS_WHOLE = 3,   /* did not compress, stored whole (6.18 on) */
	SR_ZS_POOR = 4,    /* did not compress, refused after trying (before
			    * 6.18): compressed in vain, then the device's */
	SR_ZS_LOAD = 5,    /* a swap-in served from the pool (decompressed) */
	SR_ZS_LOAD_ZERO = 6,  /* ... a zero page (filled) */
	SR_ZS_LOAD_WHOLE = 7, /* ... a page stored whole (copied) */
};
/* Rates are bytes per second; times are nanoseconds. */
struct sr_device {
	char name[32];
	enum sr_dev_class cls;
	int node;               /* node the device is attached to; -1 unknown */
	int prio;               /* swap priority as given (>= 0), or automatic */
	int prio_auto;          /* 1: priority assigned by swapon order */
	int tier;               /* its swap tier (an index of sr_machine.tier), -1: none */
	uint32_t tier_bit;      /* 1 << tier, or SR_TIER_NONE_BIT: the bit of the
				 * masks of memory cgroups that lets them use it */
	uint64_t size_pages;    /* swap slots (4 KiB pages) */

	/* DMA devices (nvme, ssd, hdd) */
	double read_lat_ns;     /* one 4 KiB read at queue depth 1 */
	double write_lat_ns;    /* one 4 KiB write at queue depth 1 */
	double read_iops;       /* sustained 4 KiB random reads per second */
	double write_iops;      /* sustained 4 KiB random writes per second */
	double read_bw;         /* sequential read bandwidth */
	double write_bw;        /* sequential write bandwidth */
	double seek_ns;         /* hdd: the average seek (over a third of the stroke) */
	double seek_track_ns;   /* hdd: a seek to the next track */
	double seek_full_ns;    /* hdd: a seek across the whole stroke */
	double rpm;             /* hdd: spindle speed (rotational latency) */
	/* hdd: the drive's cache (docs/MODEL.md, D4): its size (the write-back
	 * cache's room), write-back on (1) or off (0), the read look-ahead's
	 * segments (0: none) and each one's size, the interface's rate (cache
	 * to host) and the command overheads: a read that goes to the media,
	 * a read served from the cache, a write. */
	double cache_bytes;
	double write_cache;
	double read_segments;
	double segment_bytes;
	double iface_bw;
	double ovh_miss_ns, ovh_hit_ns, ovh_write_ns;
	/* The block layer's request limits and the tags (DMA devices):
	 * queue/max_sectors_kb, queue/max_segments, the device's queue depth. */
	double max_sectors_kb, max_segments, queue_depth;

	/* Memory-like devices: per-thread copy rates and the shared media
	 * bandwidth, local and remote to the copying CPU. */
	double rd_local, rd_remote;   /* per-thread read from the device */
	double wr_local, wr_remote;   /* per-thread write to the device */
	double cap_rd_local, cap_rd_remote; /* device's aggregate read bandwidth */
	double cap_wr_local, cap_wr_remote; /* device's aggregate write bandwidth */
	double compress_bw;     /* zram: compression rate of one CPU */
	double decompress_bw;   /* zram: decompression rate of one CPU */
	double compress_ratio;  /* zram: uncompressed / compressed size */
};

struct sr_machine {
	char name[64];
	char description[256];
	char kernel[65];        /* the kernel it ran, as uname -r printed it ("" unknown) */
	int nr_tiers;           /* swap tiers ("tiers"), 0 to 31 */
	int tiers_by_class;     /* none named: "memory" (pmem, zram) and "block" */
	struct sr_tier tier[SR_MACHINE_MAX_TIERS];
	int nr_nodes;
	int cpus_per_node[SR_MACHINE_MAX_NODES];
	int nr_cpus;
	int distance[SR_MACHINE_MAX_NODES][SR_MACHINE_MAX_NODES];

	/* Interconnect: every pair of nodes is joined by one link with this
	 * bandwidth per direction and this added latency. */
	double link_bw;
	double link_lat_ns;

	/* Per-thread memory copy rates (DRAM), local and remote to the CPU. */
	double dram_rd_local, dram_rd_remote;
	double dram_wr_local, dram_wr_remote;

	/*
	 * The kernel's swap paths (docs/MODEL.md, "CPU and locks"): CPU work
	 * besides the data copy, and the hold times of the locks they take.
	 */
	double reclaim_ns;      /* reclaiming one folio to swap, per folio */
	double reclaim_page_ns; /* ... and per 4 KiB page of it */
	double fault_ns;        /* a swap-in fault, per folio */
	double swap_lock_ns;    /* a device's si->lock held to allocate slots, per acquisition */
	double swap_lock_other_ns; /* ... by the other swap-map updates, per hold (before 4.11) */
	double swap_cache_lock_ns; /* the swap cache's tree lock, per hold: a device's
				    * (before 4.11), a 64 MB trunk's (4.11 to 6.17) */
	double swap_slot_ns;    /* ... and per slot taken under it */
	double lru_lock_ns;     /* a node's LRU lock held by reclaim, per page reclaimed */
	double lru_refault_ns;  /* ... and by a swap-in (a refault), per page */
	/* Extra time to submit I/O to a device on another node than the CPU. */
	double remote_submit_ns;
	/* How much more a cache line missed in another node's memory costs
	 * the CPU than one in its own node's (docs/MODEL.md, E2). */
	double remote_miss_ns;
	/* A cache line last written by another CPU, read and written here
	 * (docs/MODEL.md, L6: a cluster lock's lines). */
	double line_ns;
	/* (E3) A swap-in through the swap cache, before 6.18, over one that
	 * bypasses it: the radix tree's or XArray's path, and the shadow
	 * node's list_lru moves of 6.3 to 6.17 (docs/MODEL.md, E3). */
	double swapcache_ns, shadow_node_ns;
	/* The block layer: a request's CPU work (allocation, tag, insertion,
	 * dispatch, completion) besides its bios', and a single-queue
	 * device's queue lock held per insertion (docs/MODEL.md, B3). */
	double blk_request_ns;
	double queue_lock_ns;

	int nr_devices;
	struct sr_device dev[SR_MACHINE_MAX_DEVICES];
	struct sr_zswap zswap;  /* zswap in front of the devices (enabled 0: none) */

	char *json;             /* the description as read (owned), for headers */
	int from_preset;
	/*
	 * What the description sets that the model does not use, one line
	 * each ending in a newline, for the caller to warn of ("lab.json:
	 * devices[1] (sdb, hdd): read_lat_us is not used: ..."): a key of a
	 * device's class that its cost equations leave out (an hdd's latency
	 * and IOPS follow from its seek and rpm; a flash device has no seek),
	 * size_pages beside size_gib.  Owned; NULL when there is none.
	 */
	char *notes;
};

/*
 * Parse a machine description from a JSON text.  origin names it in
 * messages and notes.  On success *out is a new machine (free with
 * sr_machine_free).
 */
enum sr_err sr_machine_parse(struct sr_machine **out, const char *json, size_t len,
			     const char *origin, struct sr_diag *diag);

/* Load a preset by name, or else a file by path. */
enum sr_err sr_machine_load(struct sr_machine **out, const char *name_or_path,
			    struct sr_diag *diag);

void sr_machine_free(struct sr_machine *m);

struct sr_event;
/* Event e, the nth of its trace, fits m: the nodes it names exist there
 * (its device need not: see struct sr_node_map).  SR_OK, or
 * SR_ERR_MACHINE with diag saying which (its record is nth). */
enum sr_err sr_machine_check_event(const struct sr_machine *m, const struct sr_event *e,
				   uint64_t nth, struct sr_diag *diag);

/*
 * A trace's NUMA nodes replayed as a machine's (--node-map): recorded node
 * from[i] is replayed as the machine's node to[i]; a node not named is
 * replayed as itself.  With fold, every recorded node n is replayed as n
 * modulo the machine's node count instead (pairs are then not given).
 * n == 0 and fold == 0: no map.  A trace's swap devices need no map: the
 * recorded device only pairs a swap-in with its swap-out (docs/MODEL.md,
 * "Matching swap-ins"), the policies choose among the machine's.
 */
#define SR_NODE_MAP_MAX 64
struct sr_node_map {
	int fold;
	int n;
	uint16_t from[SR_NODE_MAP_MAX]; /* distinct, ascending, < SR_MAX_NODES */
	uint16_t to[SR_NODE_MAP_MAX];   /* < SR_MACHINE_MAX_NODES */
};

/* Parse "R:M[,R:M...]" or "fold" into *nm; SR_ERR_INVAL with a message
 * (a node named twice, a number out of range, a malformed pair). */
enum sr_err sr_node_map_parse(const char *s, struct sr_node_map *nm, struct sr_diag *diag);
/* The map as sr_node_map_parse() reads it, pairs in ascending order
 * ("fold", "0:1,1:0"); "" for no map.  Returns buf. */
const char *sr_node_map_format(const struct sr_node_map *nm, char *buf, size_t n);
/* Whether nm maps anything (a pair or fold). */
static inline int sr_node_map_any(const struct sr_node_map *nm)
{
	return nm && (nm->fold || nm->n);
}
/* The node of m that recorded node `node` (< SR_MAX_NODES) is replayed
 * as: mapped, folded or itself; it may be one m does not have. */
unsigned sr_node_map_node(const struct sr_node_map *nm, const struct sr_machine *m,
			  unsigned node);
/* Every node nm maps to exists in m: SR_OK, or SR_ERR_MACHINE with a
 * message naming the pair. */
enum sr_err sr_node_map_check(const struct sr_node_map *nm, const struct sr_machine *m,
			      struct sr_diag *diag);

/* Which of the model's fitted constants (docs/MODEL.md, "CPU and locks:
 * the fit") m keeps at their fitted values: SR_FIT_* bits. */
enum { SR_FIT_SWAP_LOCK = 1, SR_FIT_LRU_LOCK = 2, SR_FIT_LRU_REFAULT = 4, SR_FIT_SWAP_CACHE_LOCK = 8 };
unsigned sr_machine_fitted(const struct sr_machine *m);

/*
 * A copy of m whose performance figures are each multiplied by a factor
 * drawn log-uniformly from [1/(1+rel), 1+rel] (seeded, deterministic): the
 * interconnect, the DRAM rates, the fitted event cost and, per device
 * class (devices of one class are the same part), every device figure,
 * local and remote drawn apart.  Topology and sizes are kept.  For
 * --uncertainty.  *out has no JSON text nor notes (json and notes are NULL).
 */
enum sr_err sr_machine_perturb(const struct sr_machine *m, uint64_t seed, double rel,
			       struct sr_machine **out);

/*
 * Describe the machine whose sysfs and procfs are under root ("/" for the
 * running system; a copy elsewhere): nodes, CPUs, distances, swap devices
 * with their nodes, classes, sizes and priorities; performance figures
 * left to the class defaults (`swapreplay machine --probe`, docs/MACHINE.md).
 * On success *json is a description (malloc'ed) that sr_machine_parse()
 * accepts and *notes (if notes is not NULL; malloc'ed, maybe "") holds one
 * line per guess or unknown worth a warning.  SR_ERR_IO for a missing
 * file, SR_ERR_FORMAT for a garbled one (diag names it, and the line).
 */
enum sr_err sr_machine_probe(const char *root, char **json, char **notes,
			     struct sr_diag *diag);

/* The default time of all of sr_machine_measure()'s jobs, seconds. */
#define SR_MEASURE_SECONDS 60
struct sr_measure_opts {
	double seconds;        /* for all the jobs; 0: SR_MEASURE_SECONDS */
	const char *fio;       /* fio's path; NULL: "fio" on PATH */
	/* Told before each fio job: the device, the job, k of n. */
	void (*progress)(void *arg, const char *dev, const char *job, int k, int n);
	void *progress_arg;
};
/*
 * Measure the swap devices of a description sr_machine_probe() wrote (the
 * same root) with fio (`machine --probe --measure`; src/capture/measure.c
 * says how, and what is never written): each measured figure replaces
 * the class default in *json (rewritten, malloc'ed), with its source in
 * the device's "sources".  *notes (if notes is not NULL) gets a line for
 * each figure not measured and why.  SR_ERR_INVAL without fio on PATH, or
 * not root on the running system.
 */
enum sr_err sr_machine_measure(const char *root, char **json, const struct sr_measure_opts *o,
			       char **notes, struct sr_diag *diag);

/* The shipped presets, NULL-terminated names; description of one. */
const char *const *sr_machine_preset_names(void);
const char *sr_machine_preset_json(const char *name);

/* The preset used when neither --machine nor a trace header names one. */
#define SR_MACHINE_DEFAULT "2s-nvme2"

/* Where the machine of a replay came from (sr_machine_resolve()). */
enum sr_machine_src {
	SR_MACHINE_FROM_OPTION = 0,  /* asked for: --machine, a sweep's -m, a plan's */
	SR_MACHINE_FROM_BESIDE = 1,  /* X.machine.json beside the trace X.EXT[.zst] */
	SR_MACHINE_FROM_HEADER = 2,  /* recorded in the trace's header (.swt) */
	SR_MACHINE_FROM_DEFAULT = 3, /* SR_MACHINE_DEFAULT */
};
/* "-m", "beside the trace", "trace header", "default": as sweep rows say it. */
const char *sr_machine_src_name(enum sr_machine_src src);

/* What sr_machine_resolve() chooses from; each may be NULL. */
struct sr_machine_where {
	const char *option;        /* a preset or a file, as asked for */
	const char *trace;         /* the trace's path ("-": none beside it) */
	const char *header_json;   /* the machine in the trace's header */
	const char *header_origin; /* how messages name it ("machine in the header of t.swt") */
};

/*
 * The machine of a replay, for replay, sweep and a plan's units alike:
 * w->option, else the description beside the trace (a regular file only:
 * one that cannot be read or parsed is an error, never replaced by another
 * machine), else the trace header's, else SR_MACHINE_DEFAULT.  *src says
 * which; *path is the file read (option or beside; NULL for a preset or the
 * header), malloc'ed.  On error *out is NULL and diag names the file.
 */
enum sr_err sr_machine_resolve(struct sr_machine **out, const struct sr_machine_where *w,
			       enum sr_machine_src *src, char **path, struct sr_diag *diag);
/* The path of the description beside trace, DIR/X.machine.json for
 * DIR/X.EXT or DIR/X.EXT.zst, whether it exists or not; malloc'ed, NULL
 * out of memory. */
char *sr_machine_beside_path(const char *trace);
/* The capture's notes beside trace, DIR/X.info (swapreplay-record's
 * run.info beside run.csv.zst); malloc'ed, NULL out of memory. */
char *sr_info_beside_path(const char *trace);

/*
 * The kernel a trace is replayed on, for replay and sweep alike: option
 * (--kernel) when given; else the kernel recorded with the trace: the
 * "kernel: RELEASE" line of the capture's notes beside it (X.info), else
 * the "kernel" of machine m (the description the replay uses, as
 * `machine --probe` writes it; mwhere says where it came from, NULL: its
 * name); else SR_KERNEL_DEFAULT, the newest long-term release modelled.
 * why gets which and why, for the report ("--kernel", "recorded with the
 * trace: run.info beside it says kernel 6.18.44", ...).  A recorded kernel
 * that is not modelled (before 4.0) is an error that says to give
 * --kernel, never replaced by another silently.
 */
enum sr_err sr_kernel_resolve(struct sr_kernel *k, const char *option, const char *trace,
			      const struct sr_machine *m, const char *mwhere, char *why,
			      size_t n, struct sr_diag *diag);
/* sr_machine_load() of a path found rather than given: a FIFO, a
 * directory or a device is refused (SR_ERR_IO), never read (a FIFO would
 * block for ever). */
enum sr_err sr_machine_load_file_only(struct sr_machine **out, const char *path,
				      struct sr_diag *diag);

#endif /* SWAPREPLAY_MACHINE_H */
