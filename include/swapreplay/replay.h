/* SPDX-License-Identifier: MIT */
/*
 * swapreplay/replay.h - replaying a trace through several policies at once.
 *
 * The caller feeds events in trace order; every policy is evaluated in the
 * same pass, each with its own copy of the swap state (priority lists,
 * slots caches, device fullness) and of the resources (devices, links).
 * docs/MODEL.md gives the equations.
 */
#ifndef SWAPREPLAY_REPLAY_H
#define SWAPREPLAY_REPLAY_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "swapreplay/error.h"
#include "swapreplay/event.h"
#include "swapreplay/machine.h"

#define SR_MAX_POLICIES 32

/*
 * A kernel generation (src/mm/kernel.c cites each boundary): how the
 * priority lists are laid out and how order-0 slots are handed out.
 */
enum sr_prio_rule {
	SR_PRIO_GLOBAL = 0,     /* < 4.14: one list, automatic priorities -1, -2, ... */
	SR_PRIO_NODE_RAISE = 1, /* 4.14-6.18: per-node lists, -2, -3, ..., -1 on own node */
	SR_PRIO_ALL_EQUAL = 2,  /* >= 6.19: one list, every automatic priority -1 */
};
enum sr_alloc_mode {
	SR_ALLOC_DIRECT = 0,      /* every allocation walks a list (< 4.11, or the cache off) */
	SR_ALLOC_SLOTS_CACHE = 1, /* 4.11-6.14: per-CPU slots cache of 64 order-0 slots */
	SR_ALLOC_CLUSTER = 2,     /* >= 6.15: per-CPU current cluster per order */
};
struct sr_kernel {
	unsigned major, minor;
	int node_lists;           /* per-node priority lists */
	enum sr_prio_rule prio;
	enum sr_alloc_mode alloc;
	int thp_swap_whole;       /* a huge page is swapped out without being split */
	int device_locks;         /* before 4.11: no cluster locks, one swap cache tree
				   * lock per device */
	int vma_readahead;        /* 4.14 on: readahead by virtual address unless an
				   * hdd is swapped on */
	int sync_bypass;          /* 4.15 on: synchronous devices skip the swap cache
				   * and readahead */
	int thp_swap;             /* 4.13 on: huge folios get a whole cluster; clusters
				   * of 512 slots, not 256 */
	int mthp_swap;            /* 6.10 on: folios of orders 1-8 keep their slots
				   * together (else they are split) */
	int slot_orders;          /* 6.12 on: nonfull and frag cluster lists per order */
	int hdd_clusters;         /* 6.14 on: rotational devices allocate by cluster */
};

/* Swap-in readahead (docs/MODEL.md, "Readahead and the swap cache"). */
enum sr_ra_mode {
	SR_RA_AUTO = 0, /* the kernel's choice: by offset (cluster) before 4.14 or with
			 * a rotational device swapped on; else by virtual address */
	SR_RA_OFF,      /* every swap-in reads its own folio */
	SR_RA_CLUSTER,  /* by swap offset (swap_cluster_readahead()) */
	SR_RA_VMA,      /* by virtual address (swap_vma_readahead()): the events'
			 * vaddr; a swap-in without one reads nothing ahead */
};

/* The largest page-cluster modelled: windows of 2^10 slots (the kernel
 * allows 31, page_cluster_max; the replay looks at every slot of the
 * window). */
#define SR_RA_MAX_PAGE_CLUSTER 10

struct sr_readahead_opts {
	enum sr_ra_mode mode;
	unsigned page_cluster;    /* the window is at most 2^page_cluster slots (3) */
	int fixed_window;         /* 1: always 2^page_cluster (before 3.14) */
	int holes_stop;           /* 1: stop at a free slot (before 3.4); 0: skip it */
	uint64_t memory_pages;    /* the workload's memory; 0: unknown, pages read
				   * ahead are kept until used */
};

/* The kernel modelled when none is named. */
#define SR_KERNEL_DEFAULT "6.6"
/* The newest kernel --kernel takes (src/mm/kernel.c says why). */
#define SR_KERNEL_NEWEST_MAJOR 7u
#define SR_KERNEL_NEWEST_MINOR 4u

/* Parse "MAJOR.MINOR" (4.0 to SR_KERNEL_NEWEST_*), or a version as uname -r
 * prints it ("6.6.0-28-generic": its patch level and suffix are not
 * modelled), into *k; SR_ERR_INVAL with a message. */
enum sr_err sr_kernel_parse(const char *s, struct sr_kernel *k, struct sr_diag *diag);
/* "6.15: per-node priority lists, per-CPU current cluster per order" in buf. */
const char *sr_kernel_describe(const struct sr_kernel *k, char *buf, size_t n);

/* The most threads sr_replay_opts.sim_threads plays simulations on. */
#define SR_SIM_WORKERS_MAX 8

/*
 * Everything a replay is set up with: every setting that changes a figure
 * (or how fast they come), checked once by sr_replay_new() (zstd's
 * parameters, gem5's Params).  Start from sr_replay_opts_init()'s
 * defaults.
 */
struct sr_replay_opts {
	const struct sr_machine *machine;
	/* The kernel generation modelled (sr_kernel_parse()): the priority
	 * lists, the slot allocator, readahead's default... */
	struct sr_kernel kernel;
	/* On kernels that have the slots cache (4.11-6.14): 1, the per-CPU
	 * slots cache; 0, every slot by a list walk.  Not used on others. */
	int slots_cache;
	/* Readahead as asked (sr_readahead_default(): auto, page-cluster 3,
	 * adaptive, skipping holes), resolved against the kernel and the
	 * machine; a page-cluster above SR_RA_MAX_PAGE_CLUSTER is refused. */
	struct sr_readahead_opts readahead;
	/*
	 * 1: a task's swap writes of one reclaim pass are held in its block
	 * plug and merged there (the kernel's way since 3.2, "vmscan: add
	 * block plug for page reclaim"); 0: each bio goes to the device's
	 * queue alone.
	 */
	int plug;
	/* 1: figures per task too (sr_policy_result.task), as vm-scalability
	 * reports them per process. */
	int per_task;
	/*
	 * Play the simulations (the hardware's part of every event) on up to
	 * this many threads of their own (0: none, on the caller's thread; at
	 * most SR_SIM_WORKERS_MAX; a thread starts with the first simulation
	 * it is given), while the caller's thread makes the kernels'
	 * decisions ahead of them (src/replay/simq.c), so that the two
	 * overlap where a CPU is free.  Each simulation plays on one thread;
	 * policies that part play on different threads at once.  The results
	 * are the same to the bit.
	 */
	int sim_threads;
	unsigned reorder_window;  /* events held to order by time; 0: default 65536 */
	/*
	 * 1: the events come in replay order already, from a pipe that
	 * orders them (sr_pipe_start_ordered() with sr_replay_check and the
	 * window above): each is replayed as it is fed (reorder_window is
	 * not used; late events are still counted).
	 */
	int ordered;
	/* The trace's nodes replayed as the machine's (--node-map); NULL or
	 * empty: each as itself.  Copied: it need not outlive the call. */
	const struct sr_node_map *node_map;
	/*
	 * --uncertainty: the policies' decisions also played on this many
	 * variants of the machine (sr_machine_perturb(), seeds 1 to
	 * variants, every figure within a factor 1 + variant_range either
	 * way), at most SR_REPLAY_MAX_VARIANTS; sr_replay_finish() then fills
	 * each policy's unc.  The variants share everything the kernel decides
	 * (decisions depend on the events and the machine's layout, never on
	 * its figures: a policy sees the machine as described), so that each
	 * costs a simulation per policy that decides apart, not a replay
	 * (docs/MODEL.md, "Uncertainty").  0: none.
	 */
	unsigned variants;
	double variant_range;
};

/* o with the defaults: no machine (to be given), SR_KERNEL_DEFAULT, the
 * slots cache on, sr_readahead_default(), the plug on, no per-task
 * figures, no simulation threads, the default reorder window, events not
 * ordered, no node map, no variants. */
void sr_replay_opts_init(struct sr_replay_opts *o);

/* The most machine variants a replay plays. */
#define SR_REPLAY_MAX_VARIANTS 1000

/* The window sr_replay_opts.reorder_window == 0 stands for. */
#define SR_REORDER_DEFAULT 65536u

/* Swap-in latency: a log-linear histogram (32 steps per power of two). */
#define SR_HIST_SUB 32
#define SR_HIST_EXP 48
struct sr_hist {
	uint64_t count;
	double sum_ns;
	double min_ns, max_ns;         /* exact; 0 when empty */
	uint64_t b[SR_HIST_EXP * SR_HIST_SUB];
};

/* Value at quantile q (0..1) of h, ns; 0 if empty.  The middle of the
 * bucket that holds it, kept within the exact minimum and maximum: never
 * outside what was observed, and the value itself when all are equal. */
double sr_hist_quantile(const struct sr_hist *h, double q);
/* Counts per log2 microsecond bucket: out[k] counts [2^k, 2^(k+1)) us,
 * out[0] also everything under 1 us.  Returns the number of buckets used. */
int sr_hist_log2_us(const struct sr_hist *h, uint64_t *out, int max);
/* The bounds of bucket idx (0 to SR_HIST_EXP * SR_HIST_SUB - 1), ns: it
 * counts values in [*lo_ns, *hi_ns). */
void sr_hist_bucket_bounds(int idx, double *lo_ns, double *hi_ns);

/* Request sizes by powers of two: [i] counts requests of 4 KiB x 2^i up
 * to twice that; the last, 8 MiB and more. */
#define SR_REQ_HIST 12

struct sr_dev_result {
	char name[32];
	uint64_t reads, writes;        /* I/O requests the device served */
	uint64_t read_bytes, write_bytes;
	uint64_t readahead_pages;      /* pages read ahead, in those reads */
	double busy_ns;                /* device (or media) time used */
	double util;                   /* busy_ns / makespan */
	/* The block layer (DMA devices; docs/MODEL.md, "The block layer"):
	 * bios submitted (one per folio, or per part of one split at the
	 * request limit), those merged into a request in a task's plug, the
	 * bios and plugs' requests merged into a waiting request in the
	 * queue's elevator (requests = bios - plug_merges - queue_merges),
	 * and the requests' sizes and times. */
	uint64_t bios, plug_merges, queue_merges;
	double req_pages_sq;           /* sum over requests of (pages)^2 */
	uint64_t req_hist[SR_REQ_HIST];
	double queue_ns;               /* requests' time from the queue to their service */
	double req_ns;                 /* ... to their completion */
	double req_kib_mean, req_kib_cv; /* request size: mean and coefficient of variation */
	double queue_share;            /* queue_ns / req_ns */
};

struct sr_link_result {
	int from, to;
	uint64_t bytes;
	double util;                   /* bytes / bandwidth / makespan */
};

/* One task's figures in one policy's simulation (--per-task). */
struct sr_task_result {
	uint32_t pid;
	uint64_t swapouts, swapins, pages_out, pages_in;
	double busy_ns;                /* its events' simulated time: each from its
					* start to when the task could go on */
	/* Pages x 4 KiB over its swap-in phase, from its first swap-in's
	 * start to its last's end (case-swapin's per-process figure); the
	 * same for swap-outs (usemem's swap-w cases).  0 without any. */
	double swapin_kib_s, swapout_kib_s;
};

struct sr_policy_result {
	char name[96];                 /* the spec as given (name[:params]); an
					* out-of-tree policy's own name (its ops'
					* .name[:params]) unless another policy of
					* the replay has that label */
	char path[96];                 /* an out-of-tree policy: its shared
					* object as given; else empty */
	double makespan_ns;            /* first event to last task's finish */
	double throughput_kib_s;       /* swap bytes in and out / makespan */
	double delta_pct;              /* speed against the baseline, % (+ faster) */
	uint64_t swapouts, swapins, pages_out, pages_in;
	uint64_t unmatched_in;         /* swap-ins whose swap-out is not in the trace */
	uint64_t unmatched_nodev;      /* ... of them found no device with room
					* (not replayed: no I/O, no latency) */
	uint64_t swap_full;            /* swap-outs that found no device with room */
	uint64_t moved_out;            /* swap-outs placed on another device than the baseline's */
	uint64_t cache_refills, direct_allocs;
	/* Requests that started more than half a calendar window (82 ms)
	 * before the latest one on their resource: their task's clock had
	 * fallen that far behind the others' (tasks run on their own clocks,
	 * docs/MODEL.md); served without contention. */
	uint64_t stale_requests;
	/* Time the tasks waited, summed over them (docs/MODEL.md, E1, L1-L2):
	 * for a CPU another task had, for a device's si->lock, for the LRU
	 * lock of a node. */
	double wait_cpu_ns, wait_si_lock_ns, wait_lru_lock_ns, wait_swap_cache_lock_ns;
	/* The block layer's CPU time: requests' work, and a single-queue
	 * device's queue lock held and waited for (wait_queue_lock_ns). */
	double block_cpu_ns, wait_queue_lock_ns;
	/* ... and its figures over the policy's DMA devices together, as a
	 * device's (name empty; bios 0: no block layer). */
	struct sr_dev_result blk;
	/* Readahead: pages read ahead into the swap cache, and swap-ins that
	 * found their page there (minor faults: no I/O). */
	uint64_t readahead_pages, swapcache_hits;
	uint64_t readahead_dropped;    /* ... reclaimed unused (with a memory size) */
	double swapout_lat_mean_ns;
	struct sr_hist swapin_lat;
	int nr_devices;
	struct sr_dev_result *dev;     /* nr_devices */
	int nr_links;
	struct sr_link_result *link;   /* links that carried bytes, by (from, to) */
	/* With sr_replay_opts.per_task: every task, in order of first
	 * appearance, and the sums of their phase throughputs. */
	size_t nr_tasks;
	struct sr_task_result *task;
	double task_swapin_kib_s_sum, task_swapout_kib_s_sum;
	/* With --uncertainty: the delta over perturbed machines. */
	struct {
		int variants;          /* 0: not computed */
		int agree;             /* variants on the same side as delta_pct */
		double range;          /* relative perturbation, e.g. 0.25 */
		double min, max;       /* delta_pct over the variants */
	} unc;
};

/*
 * Which side of "no difference" a delta is on: +1 faster, -1 slower, 0
 * within +-SR_SAME_PCT.
 */
#define SR_SAME_PCT 1.0
int sr_delta_side(double delta_pct);



struct sr_result {
	uint64_t events;               /* events replayed */
	uint64_t swapins;              /* ... of them swap-ins (the rest swap-outs) */
	uint64_t late_events;          /* arrived after later-timed events beyond the reorder window */
	uint64_t tasks;
	int nr_policies;
	int baseline;                  /* index into policy[] */
	struct sr_policy_result *policy;
};

struct sr_replay;

/*
 * Set up a replay of the policies named in specs (n of them; "NAME",
 * "NAME:PARAMS", or a path to a shared object, "./x.so[:PARAMS]").  baseline
 * names one of them (by spec).  The machine must outlive the replay; the
 * rest of opts is copied.  SR_ERR_INVAL for a setting out of range (a
 * page-cluster, a thread count, variants), SR_ERR_MACHINE for a machine
 * without devices or a node map onto nodes it lacks, SR_ERR_POLICY,
 * SR_ERR_NOMEM (or a simulation thread that cannot start).
 */
enum sr_err sr_replay_new(struct sr_replay **out, const struct sr_replay_opts *opts,
			  const char *const *specs, int n, const char *baseline,
			  struct sr_diag *diag);

/*
 * Check that the machine has e's nodes and device: SR_ERR_MACHINE, with
 * the record number nth (from 1) and a message, if not.  replay is a
 * struct sr_replay * (void * to fit sr_pipe_check_fn).
 */
enum sr_err sr_replay_check(void *replay, const struct sr_event *e, uint64_t nth,
			    struct sr_diag *diag);

/* "auto", "off", "cluster" or "vma" into *m; SR_ERR_INVAL for anything
 * else. */
enum sr_err sr_ra_mode_parse(const char *s, enum sr_ra_mode *m);

/* The default readahead settings: auto, page-cluster 3, adaptive, skip. */
void sr_readahead_default(struct sr_readahead_opts *o);
/* o as one string, "auto;page-cluster=3;window=adaptive;holes=skip;
 * memory=0" (memory in pages): what a sweep's rows record. */
const char *sr_readahead_format(const struct sr_readahead_opts *o, char *buf, size_t n);
/* Parse that string back (every key required, in that order); SR_ERR_INVAL
 * with a message. */
enum sr_err sr_readahead_parse(const char *s, struct sr_readahead_opts *o, struct sr_diag *d);

/* What the replay does for readahead, resolved against its kernel and
 * machine: "cluster, page-cluster 3, adaptive window" or "off: ...". */
const char *sr_replay_readahead_describe(const struct sr_replay *r, char *buf, size_t n);
/*
 * What the replay's simulations may take, for a caller to know before the
 * first event whether a run fits (replay --max-memory): *each, the most
 * one simulation's hardware takes on this machine (sr_hw_bytes(): its
 * calendars, all made and in use), and *per_cpu more for each CPU two
 * tasks share; *nsims, how many simulations there may be (every policy
 * apart, on the machine and on each variant).  The decisions (the slot
 * map, the swap cache) are shared by all and grow with the trace's slots
 * in use, not with the variants.
 */
void sr_replay_sim_memory(const struct sr_replay *r, uint64_t *each, uint64_t *per_cpu,
			  int *nsims);
/* What weakens the readahead modelled, after the events: VMA readahead
 * with swap-ins that have no virtual address; NULL when nothing does. */
const char *sr_replay_readahead_caveat(const struct sr_replay *r, char *buf, size_t n);
/* What --node-map did, after the events: "--node-map=1:0: the trace's
 * node 0 as itself, the trace's node 1 as node 0", for the recorded nodes
 * the events named; NULL without a map. */
const char *sr_replay_nodes_describe(const struct sr_replay *r, char *buf, size_t n);
/* The trace's recorded devices against the machine's, after the events,
 * when the trace names more than the machine has (it was recorded on
 * another machine); NULL otherwise. */
const char *sr_replay_devices_describe(const struct sr_replay *r, char *buf, size_t n);
/* Whether readahead ran in this replay: by offset, or by virtual address
 * with swap-ins that had one (after the events). */
int sr_replay_readahead_active(const struct sr_replay *r);

/* Replay n more events.  A node or device the machine lacks is SR_ERR_MACHINE. */
enum sr_err sr_replay_feed(struct sr_replay *r, const struct sr_event *evs, size_t n,
			   struct sr_diag *diag);
/* sr_replay_feed() for events sr_replay_check() has passed already against
 * this replay (a pipe started with it checks each as it decodes): an
 * ordered replay does not test them again.  Events it has not passed must not be
 * fed this way (a node or device the machine lacks is read out of range). */
enum sr_err sr_replay_feed_checked(struct sr_replay *r, const struct sr_event *evs, size_t n,
				   struct sr_diag *diag);

/* Drain, finish every task and compute the results (valid until free). */
enum sr_err sr_replay_finish(struct sr_replay *r, const struct sr_result **res,
			     struct sr_diag *diag);

void sr_replay_free(struct sr_replay *r);

/*
 * The name policy k (in the order of specs) gives itself: its ops table's
 * .name, which for a shared object is not the path it was loaded from (a
 * sweep's rows name a policy so, whatever path was typed).  NULL for a k
 * out of range.  Valid until sr_replay_free().
 */
const char *sr_replay_policy_name(const struct sr_replay *r, int k);


#endif /* SWAPREPLAY_REPLAY_H */
