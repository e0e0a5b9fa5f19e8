/* SPDX-License-Identifier: MIT */
/*
 * swapreplay/result.h - a replay's figures: per policy its throughput,
 * delta, swap-in latency histogram, devices, links and tasks
 * (docs/MODEL.md, "What is reported").  What the hardware's layer fills
 * and the reports read, without the replay's header.
 */
#ifndef SWAPREPLAY_RESULT_H
#define SWAPREPLAY_RESULT_H

#include <stddef.h>
#include <stdint.h>

#include "swapreplay/machine.h"

#define SR_MAX_POLICIES 32

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

/*
 * A memory cgroup's figures under one policy (traces/FORMAT.md, "Memory
 * cgroups"): its pages' swap events that reached a device, when the trace
 * names memcgs.  Its throughput is its bytes over the policy's makespan,
 * so that the memcgs' add up to the policy's (less the events without a
 * memcg).
 */
struct sr_memcg_result {
	unsigned id;                   /* the kernel's memcg id, 1 to 65535 */
	uint64_t swapouts, swapins, pages_out, pages_in;
	double swapin_lat_mean_ns, swapin_lat_max_ns;
	double throughput_kib_s;
};

/* The most records a simulation holds unplayed before it plays its
 * earliest all the same (sr_policy_result.order_forced), unless
 * sr_replay_opts.order_queue says otherwise: 65,536 records of 64 bytes
 * (and up to 64 of readahead's bios), 4 to 8 MiB per simulation. */
#define SR_ORDER_QUEUE_MAX 65536
/* The most sr_replay_opts.order_queue may be. */
#define SR_ORDER_QUEUE_LIMIT (1ull << 28)

struct sr_policy_result {
	char name[512];                /* the spec as given (name[:params], at most
					* SR_POLICY_SPEC_MAX - 1 bytes); an
					* out-of-tree policy's own name (its ops'
					* .name[:params]) unless another policy of
					* the replay has that label */
	char path[96];                 /* an out-of-tree policy: its shared
					* object as given; else empty */
	double makespan_ns;            /* first event to last task's finish */
	/* The most tasks that swapped alive at once in its simulation: each
	 * from its start (its first event, or its fork) to its end (its
	 * exit, or its last event's); one that ends when another starts is
	 * not counted with it. */
	uint64_t tasks_alive_max;
	double throughput_kib_s;       /* swap bytes in and out / makespan */
	double delta_pct;              /* speed against the baseline, % (+ faster) */
	uint64_t swapouts, swapins, pages_out, pages_in;
	uint64_t unmatched_in;         /* swap-ins whose swap-out is not in the trace */
	uint64_t unmatched_nodev;      /* ... of them found no device with room
					* (not replayed: no I/O, no latency) */
	uint64_t swap_full;            /* swap-outs that found no device with room */
	uint64_t tier_full;            /* ... of them, those whose memcg's swap tiers
					* were full while another device had room
					* (the series fails them: docs/MODEL.md T1) */
	int tiered;                    /* the policy restricts the tiers a memcg
					* may use (its ops' tiers()) */
	/* zswap (docs/MODEL.md, "zswap"), when the machine has it: pages
	 * stored compressed, zero pages (no bytes, no I/O), pages stored whole
	 * (6.18 on); pages refused because the pool was full, because they did
	 * not compress (before 6.18), because they were a large folio (before
	 * 6.13): those the devices wrote; pages swapped in from the pool;
	 * pages its shrink worker wrote back; times a store found the pool at
	 * its limit; the most bytes it held; the CPU time zswap took of the
	 * tasks (compression and decompression, Zs3).  Zero where the
	 * machine has none (sr_result.zswap). */
	struct sr_zswap_result {
		uint64_t stored, zero, whole, rej_full, rej_poor, rej_large, loads, written_back;
		uint64_t limit_hit;
		double pool_peak_bytes, cpu_ns;
	} zs;
	/* (K1, docs/MODEL.md "The slot a read fault keeps") swap-ins whose
	 * slot the swap cache kept (a read fault); of the swap-ins that read
	 * a slot the recording kept, those whose slot this policy's kernel
	 * had freed (it wrote the page again when reclaiming it: a write the
	 * trace does not have, not played); kept slots the allocator took
	 * back, swap being full. */
	uint64_t slots_kept, kept_rewritten, kept_reclaimed;
	uint64_t moved_out;            /* swap-outs placed on another device than the baseline's */
	uint64_t cache_refills, direct_allocs;
	/* Requests that started more than half a calendar window (82 ms;
	 * 5 ms on a swap cache trunk's lock) before the latest one on their
	 * resource: their task's clock had fallen that far behind the
	 * others' (tasks run on their own clocks, docs/MODEL.md); served
	 * without contention. */
	uint64_t stale_requests;
	/* (L4) Times a swap cache trunk found every calendar of the trunks'
	 * pool busy and shared one with another trunk (src/hw/trunks.h): its
	 * holds then contend with that trunk's too.  0 when every trunk had
	 * a lock of its own. */
	uint64_t trunk_shared;
	/* The core plays each simulation's events in simulated time
	 * (docs/MODEL.md, "The core"): records it played before every task
	 * was known not to act earlier, its queue full (order_queue records,
	 * below), and records that then started before the simulation's
	 * time.  0 when the order was exact. */
	uint64_t order_forced, order_late;
	/* Swap events the simulation played after one that follows them in
	 * the trace: how far simulated time reorders the trace, which the
	 * decisions (src/mm/, readahead) are taken in (docs/MODEL.md, "The
	 * core"), and by how many events on average: the latest played was
	 * given that many records after it. */
	uint64_t order_behind;
	double order_behind_by_mean;
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
	/* When the trace's swap events name memcgs: each memcg's figures, by
	 * id (NULL, 0 otherwise). */
	size_t nr_memcgs;
	struct sr_memcg_result *memcg;
	/* With --uncertainty: the delta over perturbed machines. */
	struct {
		int variants;          /* 0: not computed */
		int agree;             /* variants on the same side as delta_pct */
		double range;          /* relative perturbation, e.g. 0.25 */
		double min, max;       /* delta_pct over the variants */
	} unc;
	/* With --noise: the delta over replicas of the trace whose times are
	 * jittered (sr_replay_opts.noise). */
	struct {
		int replicas;          /* 0: not measured */
		double jitter_ns;
		double pct;            /* the largest |delta - delta_pct| of a
					* replica: the delta's timing noise */
		double min, max;       /* delta_pct over the replicas */
	} noise;
};

/*
 * Which side of "no difference" a delta is on: +1 faster, -1 slower, 0
 * within +-SR_SAME_PCT.
 */
#define SR_SAME_PCT 1.0
int sr_delta_side(double delta_pct);
/*
 * A policy's delta is within its timing noise: the noise was measured
 * and |delta_pct| <= noise.pct (a replica of the trace's timing could
 * give no difference or the other sign).  The baseline is never.
 */
int sr_delta_in_noise(const struct sr_policy_result *p);
/* What every format says of such a delta. */
#define SR_WITHIN_NOISE "no difference (within noise)"
/* The side of delta d of a policy whose noise is p's: 0 within the
 * noise, else sr_delta_side(d). */
int sr_delta_side_noise(const struct sr_policy_result *p, double d);




/*
 * What the trace recorded, to set beside what a replay predicts (replay
 * --check-recorded): the latencies of its swap events that have one
 * (lat_ns above 0), and its pages over its span, from its first event to
 * the latest end of one (ts_ns + lat_ns).
 */
struct sr_recorded {
	struct sr_hist swapin_lat;     /* swap-ins with a latency */
	uint64_t swapouts_timed;       /* swap-outs with a latency ... */
	double swapout_lat_sum_ns;     /* ... and theirs summed */
	uint64_t pages_in, pages_out;  /* every swap event's */
	uint64_t first_ns, end_ns;     /* the span (0, 0: no swap event) */
	double throughput_kib_s;       /* pages over the span, as a policy's */
};

struct sr_result {
	/* zswap in front of the machine's devices (docs/MODEL.md, "zswap"):
	 * the machine's settings, for the report (enabled 0: none). */
	struct sr_zswap zswap;
	uint64_t events;               /* events replayed */
	uint64_t swapins;              /* ... of them swap-ins (the rest swap-outs) */
	uint64_t late_events;          /* arrived after later-timed events beyond the reorder window */
	uint64_t order_queue;          /* the most records a simulation held to play
					* them in time (sr_replay_opts.order_queue) */
	uint64_t tasks;
	/* The task ops (docs/MODEL.md, "Tasks"): forks, exits and waits
	 * replayed; tasks created by a recorded fork, and the rest, which
	 * started at their recorded time; forks of a task already seen and
	 * waits for a task never seen or not yet exited (left as recorded). */
	uint64_t forks, exits, waits;
	uint64_t tasks_forked, tasks_unforked;
	uint64_t forks_late, waits_unmatched;
	int nr_policies;
	int baseline;                  /* index into policy[] */
	struct sr_policy_result *policy;
	struct sr_recorded recorded;   /* what the trace measured */
};

#endif /* SWAPREPLAY_RESULT_H */
