/* SPDX-License-Identifier: MIT */
/*
 * swapreplay/gen.h - synthetic swap traces, modelled on vm-scalability.
 *
 * A generator simulates tasks touching anonymous memory under a memory
 * limit (a memory cgroup: reclaim is direct, done by the task that needs a
 * page) with one global LRU list, and streams the resulting swap-out and
 * swap-in events in time order.  Memory use is O(simulated pages): about
 * 17 bytes per page (21 with huge pages), never O(events).  The same
 * parameters (seed included) always give the same events.
 *
 * Workloads (after vm-scalability's usemem cases):
 *
 *   SR_GEN_SWAP_W_RAND  `tasks` tasks, each with its own region of `size`
 *                       bytes, do `accesses` writes each to uniformly random
 *                       pages of their region (case-swap-w-rand).
 *   SR_GEN_SWAP_W_SEQ   the same, each task walking its region in order and
 *                       wrapping around.
 *   SR_GEN_SWAPIN       the tasks fill their regions, a pusher task (pid 999)
 *                       allocates `limit` bytes of fresh memory, pushing
 *                       their pages out, and exits; then the tasks read all
 *                       their pages back in order (swap-ins).
 *
 * The model, exactly:
 * - Task i (0-based) has pid 1000 + i and runs on CPU
 *   cpu_node * cpus_per_node + i % cpus_per_node; its memory is on mem_node.
 *   The pusher runs on CPU cpu_node * cpus_per_node + tasks % cpus_per_node.
 * - Each task has a clock starting at 0.  One access happens at the task's
 *   clock and then advances it by a compute time drawn from an exponential
 *   distribution of mean access_ns (from the task's own PRNG stream), so
 *   that tasks drift apart; an access that swapped its page in adds
 *   SR_GEN_TOUCH_LINES x the machine's remote_miss_ns when mem_node is
 *   not cpu_node (G1, below).  Tasks run interleaved in the order of
 *   (clock, pid).
 *   In SR_GEN_SWAPIN the pusher starts when the last task has filled its
 *   region, and the tasks resume (all at once) when the pusher has exited.
 * - A page touched for the first time becomes resident (no event); a
 *   resident page becomes the most recently used; a swapped-out page is
 *   swapped in (an SR_OP_IN event by the accessing task) and becomes
 *   resident.  Whenever a page is about to become resident with `limit`
 *   bytes already resident, the least recently used resident page of any
 *   task is swapped out first (an SR_OP_OUT event by the same task, at the
 *   same time, just before its swap-in if any).
 * - A swap-out takes a swap slot: the most recently freed one, else the next
 *   offset never used (from 0).  A swap-in frees the slot of its page, so it
 *   carries the offset of that page's swap-out.  Freed memory (the pusher's,
 *   when it exits) gives its slots back without events.
 * - Every event: ts_ns the task's clock, cpu (SR_EV_HAS_CPU), cpu_nid =
 *   cpu_node, page_nid = mem_node, dev and offset the kernel's slot
 *   (SR_EV_HAS_OFFSET, below), vaddr the page's address (SR_EV_HAS_VADDR),
 *   nr_pages 1 (thp_pages for a huge page, below), lat_ns 0; a swap-out's
 *   reclaim direct (SR_EV_HAS_RECLAIM: the task that needs a page reclaims
 *   one, under the limit as a memory cgroup's; there is no kswapd), a
 *   swap-in's fault a write fault (SR_EV_HAS_FAULT | SR_EV_WRITE_FAULT)
 *   where the tasks' accesses are stores (SWAP_W_*, the fill of SWAPIN and
 *   KBUILD's jobs, whose accesses dirty the pages they touch: each is
 *   written out again when reclaimed, as only a dirty page is), a read
 *   fault (SR_EV_HAS_FAULT) in SWAPIN's read-back.  The model frees a
 *   swap-in's slot either way: what the kernel's swap cache keeps after a
 *   read fault is not modelled.  I/O time is not
 *   modelled: the clocks count compute time only (so lat_ns is 0,
 *   "unknown"), and a replay treats the gaps between a task's events as its
 *   compute time.
 * - Transparent huge pages (`thp`, default 0): each task's region is cut
 *   into aligned units of thp_pages (SR_GEN_HPAGE_PAGES, 512, by default: a
 *   PMD; smaller ones are mTHP folios) pages from its start (a tail of
 *   fewer pages stays base pages); of its U units, H = the nearest
 *   whole number to thp x U are huge, spread evenly: unit u is huge when
 *   floor((u+1) H / U) > floor(u H / U) (thp = 1: all).  The pusher's memory
 *   is base pages.  A huge page is one entry of the LRU list: a touch of any
 *   of its pages touches it, and it becomes resident, and is swapped out, as
 *   a whole: one SR_OP_OUT event of nr_pages thp_pages taking that many
 *   aligned slots together (a whole free cluster for 512), after as many
 *   least recently used entries as needed have been swapped out to make
 *   room for its pages; where the kernel's allocator has no such run (or
 *   the kernel keeps no such folio whole: before 4.13 for 512 pages, 6.10
 *   for smaller ones; a rotational device before 6.14) it is split and its
 *   pages swapped out one by one, as the kernel does.  Its swap-in
 *   (`thp_swapin`): SR_GEN_THP_IN_WHOLE (default): one SR_OP_IN event of
 *   all its pages at its first slot, which frees them; SR_GEN_THP_IN_SPLIT:
 *   the huge page is split at the first touch after its swap-out into base
 *   pages in swap (page k in slot offset + k), and each is then swapped in
 *   as a base page when touched (nr_pages 1), as mainline kernels of 4.13 to
 *   at least 6.12 do for a PMD-sized THP on a swap-in fault (do_swap_page()
 *   maps 4 KiB pages; only 6.12's swap cache bypass for synchronous devices
 *   allocates larger folios, and only mTHP orders).  A unit split once stays
 *   base pages.
 * - Swap slots: the kernel's (docs/MODEL.md, "Slots"): an sr_mm of the
 *   generator's own, on `machine` (or the default preset) for `kernel`,
 *   its device chosen by the kernel's own policy, reclaimer-nid, from the
 *   CPU of the reclaiming task; the slots cache, per-CPU clusters and free
 *   lists of that generation.
 * - Random pages (swap-w-rand) are pinned, so that a seed means the same
 *   trace from one version to the next: task i's xoshiro256** state is words
 *   4i..4i+3 of a splitmix64 sequence started at the seed, and a page is the
 *   unbiased bounded draw of Lemire (multiply-shift of the upper 32 bits,
 *   rejecting low products under 2^32 mod pages).
 *
 * - Reclaim batches (reclaim_batch): a task that needs n pages beyond the
 *   memory cgroup's limit reclaims until the limit leaves room for
 *   max(n, reclaim_batch), as try_charge_memcg() reclaims
 *   max(nr_pages, SWAP_CLUSTER_MAX) pages (try_to_free_mem_cgroup_pages())
 *   and the next faults charge the room without reclaim; the batch's
 *   swap-outs have the reclaiming task's time.  Default (0) the kernel's,
 *   SR_GEN_RECLAIM_PASS = 32; 1 reclaims a page per page made resident.
 *
 * - Global reclaim (reclaim = SR_GEN_RECLAIM_GLOBAL; the default is a
 *   memory cgroup's limit, above): the limit is the node's memory, with
 *   the page allocator's watermarks min, low and high (__setup_per_zone_
 *   wmarks()); a page made resident with the free pages below low + its
 *   pages wakes kswapd (pid SR_GEN_KSWAPD_PID, on a CPU of cpu_node), which
 *   reclaims passes of SWAP_CLUSTER_MAX (32) pages at its own pace until
 *   high; below min + its pages the task reclaims passes of 32 itself
 *   (direct reclaim).  The swap-outs say which (the trace's `reclaim`).
 *   Whether kswapd keeps up is a race of paces, so in this mode the tasks'
 *   clocks count their faults' waits too: a swap-in's estimated read and
 *   the CPU work of the direct reclaim done in its fault, written as its
 *   lat_ns (the replay takes that wait out of the next gap: the trace's
 *   gaps stay compute).  docs/MODEL.md, "gen: reclaim by kswapd" (G2).
 *
 * Not modelled: active/inactive
 * lists and their approximations of LRU, the fault and clearing of
 * a huge page (its first touch costs one access like any other), and
 * khugepaged (a split huge page is never collapsed again).
 */
#ifndef SWAPREPLAY_GEN_H
#define SWAPREPLAY_GEN_H

#include <stddef.h>
#include <stdint.h>

#include "swapreplay/error.h"
#include "swapreplay/event.h"
#include "swapreplay/machine.h"
#include "swapreplay/kernel.h"
#include "swapreplay/trace.h"

enum sr_gen_workload {
	SR_GEN_SWAP_W_RAND = 0,
	SR_GEN_SWAP_W_SEQ = 1,
	SR_GEN_SWAPIN = 2,
	SR_GEN_KBUILD = 3,  /* tasks arriving jobs at a time, each touching its
			     * region at random, then exiting (a make -jN) */
};

/* "swap-w-rand", "swap-w-seq", "swapin". */
const char *sr_gen_workload_name(enum sr_gen_workload w);
/* Parse one of those names; SR_ERR_INVAL if none. */
enum sr_err sr_gen_workload_parse(const char *s, enum sr_gen_workload *out);

/* Limits of the parameters. */
#define SR_GEN_MAX_PAGES (1ull << 28)   /* simulated pages in all (1 TiB) */
#define SR_GEN_MAX_CPUS_PER_NODE 65536u
#define SR_GEN_PUSHER_PID 999u
/* kbuild: make, which forks the jobs (pids from SR_GEN_FIRST_PID), waits
 * for each one's exit and forks the next in its place: the trace's task
 * ops (fork, exit, wait), so that a replay runs -j jobs at once. */
#define SR_GEN_MAKE_PID 998u
#define SR_GEN_FIRST_PID 1000u
/* Pages of a transparent huge page, and of a swap cluster (HPAGE_PMD_NR on
 * x86-64 with 4 KiB pages; SWAPFILE_CLUSTER with CONFIG_THP_SWAP). */
#define SR_GEN_HPAGE_PAGES 512u

/* kswapd's pid in a trace of global reclaim. */
#define SR_GEN_KSWAPD_PID 997u
/* A reclaim pass: SWAP_CLUSTER_MAX (include/linux/swap.h). */
#define SR_GEN_RECLAIM_PASS 32u

/* Who reclaims (see above). */
enum sr_gen_reclaim {
	SR_GEN_RECLAIM_MEMCG = 0,   /* a memory cgroup's limit: the task (default) */
	SR_GEN_RECLAIM_GLOBAL = 1,  /* the node's watermarks: kswapd, else the task */
};

/* How a huge page comes back from swap (see above). */
enum sr_gen_thp_swapin {
	SR_GEN_THP_IN_WHOLE = 0,  /* one event of 512 pages */
	SR_GEN_THP_IN_SPLIT = 1,  /* split, then 4 KiB pages */
};

/*
 * Default compute time of one access, ns: a DRAM random read.  Idle random
 * read latency of local DRAM: 101.5 ns (Xeon Platinum 8260, DDR4-2666), from
 * Yang et al., "An Empirical Guide to the Behavior and Use of Scalable
 * Persistent Memory", USENIX FAST 2020; data: github.com/NVSL/OptaneStudy,
 * graphs/02-best_case_latency.csv (row Read Random, column DRAM).
 */
#define SR_GEN_DEFAULT_ACCESS_NS 100u

/*
 * (G1) The cache lines of a page swapped in that its first access misses:
 * one, the line of the access itself (an access touches one line of its
 * page; the page's lines are in none of the CPU's caches, the device or
 * the reclaiming CPU having written them last).  Missed on another node
 * than the task's CPU, each costs the machine's remote_miss_ns more than
 * access_ns, which is a local figure (above).  docs/MODEL.md, "One event",
 * G1.
 */
#define SR_GEN_TOUCH_LINES 1.0

/*
 * Memory cgroups of the tasks (memcgs, below): a group of tasks in one
 * memcg, its path (as a trace gives it: from '/', traces/FORMAT.md).  The
 * memcgs share the limit (they are children of the memory cgroup whose
 * limit it is, with none of their own) and reclaim takes the least recently
 * used page of any of them, as without memcgs.
 */
struct sr_gen_memcg {
	const char *path;
	uint32_t tasks;   /* tasks in it, >= 1; 0: the rest (the last group only) */
};
#define SR_GEN_MAX_MEMCGS 1024u

struct sr_gen_params {
	enum sr_gen_workload workload;
	uint32_t tasks;         /* >= 1; default 32 (kbuild: all the tasks run) */
	uint32_t jobs;          /* kbuild: tasks running at once, >= 1; default 4 */
	/* swap-w-seq: this many more tasks at once, writing random pages of
	 * regions of random_size bytes (C4's mix of sequential and random
	 * swappers); default 0 */
	uint32_t random_tasks;
	uint64_t random_size;
	uint64_t size;          /* bytes per task, whole pages; default 64 MiB */
	uint64_t limit;         /* bytes, whole pages; default 1 GiB */
	uint64_t accesses;      /* per task (swap-w-*); 0 = 2 x pages per task.
				 * Must be 0 for SR_GEN_SWAPIN. */
	uint32_t cpu_node;      /* node of the tasks' CPUs, < SR_MAX_NODES; default 0 */
	uint32_t mem_node;      /* node of their memory, < SR_MAX_NODES; default 1 */
	uint32_t cpus_per_node; /* 1..SR_GEN_MAX_CPUS_PER_NODE; default 32 */
	uint64_t access_ns;     /* >= 1; default SR_GEN_DEFAULT_ACCESS_NS */
	int exp_time;           /* 1 (default): compute times drawn from an
				 * exponential of mean access_ns; 0: every
				 * access takes access_ns exactly */
	uint64_t seed;          /* PRNG seed (swap-w-rand); default 1 */
	uint32_t reclaim_batch; /* pages a direct reclaim frees at once, 1 to 512
				 * (SR_GEN_RECLAIM_MEMCG only); 0 (default): the
				 * kernel's, SR_GEN_RECLAIM_PASS */
	enum sr_gen_reclaim reclaim; /* default SR_GEN_RECLAIM_MEMCG */
	uint32_t thp_pages;     /* pages of a huge page: a power of two, 2 to 512
				 * (SR_GEN_HPAGE_PAGES, the default) */
	double thp;             /* share of each task's aligned units
				 * mapped by huge pages, 0 to 1; default 0.
				 * Above 0 the limit must hold a huge page */
	enum sr_gen_thp_swapin thp_swapin; /* default SR_GEN_THP_IN_WHOLE */
	/* Swap-in readahead in the closed loop (SR_RA_CLUSTER, SR_RA_VMA;
	 * SR_RA_AUTO and SR_RA_OFF: none, the default): the kernel's window,
	 * by the same code as the replay's (src/mm/swap_state.c), on the
	 * kernel's slots (cluster) or the task's addresses, its region being
	 * one VMA (vma); none on a synchronous device from 4.15; pages read
	 * ahead are resident and take memory, and a fault that finds one is a
	 * swap-in with no read.  memory_pages is not used: the limit is the
	 * memory.  Every event carries its page's address (vaddr): task i's
	 * region starts 2 MiB aligned, 2 MiB after the previous one's end,
	 * the first at 2^40. */
	struct sr_readahead_opts ra;
	/* Where the swap slots are: the kernel's allocator of this version
	 * (NULL: SR_KERNEL_DEFAULT) on this machine (NULL: the default preset,
	 * SR_MACHINE_DEFAULT), its devices chosen by the kernel's own policy
	 * (reclaimer-nid) from cpu_node: the replay of the trace on the same
	 * machine and kernel finds the same slots. */
	const char *kernel;
	const struct sr_machine *machine;
	/* Memory cgroups (nmemcgs 0, the default: none, the events name no
	 * memcg).  Group j (from 0) is memcg id j + 1 and takes the next
	 * memcgs[j].tasks tasks in pid order (the sequential tasks, then
	 * swap-w-seq's random ones), the last group the rest (tasks 0) or
	 * exactly as many as are left; the pusher (swapin) is in the last.
	 * A swap event names its page's memcg: the memcg of the task whose
	 * page it is, not of the task that reclaims it.  At most
	 * SR_GEN_MAX_MEMCGS groups. */
	const struct sr_gen_memcg *memcgs;
	uint32_t nmemcgs;
};

/* "whole", "split". */
const char *sr_gen_thp_swapin_name(enum sr_gen_thp_swapin m);
/* Parse one of those names; SR_ERR_INVAL if none. */
enum sr_err sr_gen_thp_swapin_parse(const char *s, enum sr_gen_thp_swapin *out);

/* Fill p with the defaults above (workload SR_GEN_SWAP_W_RAND). */
void sr_gen_params_init(struct sr_gen_params *p);

/* What a generator has done so far; valid at any time. */
struct sr_gen_stats {
	uint64_t pages_total;   /* simulated pages (the pusher's included) */
	uint64_t limit_pages;   /* limit / 4096 */
	uint64_t accesses;      /* accesses simulated */
	uint64_t first_touches; /* pages made resident by a first touch */
	uint64_t swap_outs;     /* SR_OP_OUT events produced */
	uint64_t swap_ins;      /* SR_OP_IN events produced */
	uint64_t pages_out;     /* pages those swap-outs moved (= swap_outs
				 * without huge pages) */
	uint64_t pages_in;      /* pages those swap-ins moved */
	uint64_t thp_pages;     /* pages mapped by huge pages at the start */
	uint64_t thp_splits;    /* huge pages split at swap-in (SR_GEN_THP_IN_SPLIT) */
	uint64_t freed;         /* pages freed by an exit (resident or not) */
	uint64_t resident;      /* resident pages now */
	uint64_t resident_max;  /* the most ever resident (<= limit_pages) */
	uint64_t swapped;       /* pages in swap now */
	uint64_t slots_max;     /* swap slots ever used: the largest offset + 1 */
	uint64_t ra_pages;      /* pages read ahead (with readahead) */
	uint64_t ra_hits;       /* swap-ins that found their page read ahead */
	uint64_t ra_dropped;    /* pages read ahead and reclaimed unused */
	/* Global reclaim: the watermarks (free pages), kswapd's wake-ups and
	 * the pages it swapped out, and the tasks' direct reclaim passes. */
	uint64_t wmark_min, wmark_low, wmark_high;
	uint64_t kswapd_wakeups, kswapd_pages_out, direct_passes;
};

struct sr_gen;

/*
 * Check p and set up a generator.  SR_ERR_INVAL for a parameter out of
 * range or a combination that makes no sense (a limit that is not below the
 * tasks' memory in the swap-w workloads: nothing would swap); SR_ERR_LIMIT
 * when the simulation would exceed SR_GEN_MAX_PAGES or the timestamps 2^63-1
 * ns; SR_ERR_NOMEM.  diag says which and why.  On error *out is NULL.
 */
enum sr_err sr_gen_open(struct sr_gen **out, const struct sr_gen_params *p,
			struct sr_diag *diag);

/*
 * Produce up to cap (>= 1) events into evs, in nondecreasing ts_ns order;
 * *n gets how many, 0 at the end.  SR_OK, or once the events before it
 * are handed out: SR_ERR_LIMIT when the machine's swap devices fill up
 * (the kernel would have nowhere to swap), SR_ERR_NOMEM out of memory.
 */
enum sr_err sr_gen_next(struct sr_gen *g, struct sr_event *evs, size_t cap,
			size_t *n, struct sr_diag *diag);

const struct sr_gen_stats *sr_gen_stats(const struct sr_gen *g);

/* The paths of the memcgs of p.memcgs, by id, for a writer
 * (sr_write_opts.memcgs); NULL without memcgs. */
const struct sr_memcgs *sr_gen_memcgs(const struct sr_gen *g);

/* Free; accepts NULL. */
void sr_gen_free(struct sr_gen *g);

#endif /* SWAPREPLAY_GEN_H */
