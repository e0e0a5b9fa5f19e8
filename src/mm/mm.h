/* SPDX-License-Identifier: MIT */
/*
 * The kernel's swap decisions under one policy: the model of mm/.
 *
 * One struct sr_mm per policy holds what the kernel would hold: the turns
 * of the per-node priority lists and the devices' fullness (swapfile.c,
 * after mm/swapfile.c), the per-CPU swap slots caches (swap_slots.c, after
 * mm/swap_slots.c), and the policy that stands in for the kernel's choice
 * of node (policy.c).  It depends on the events alone, never on simulated
 * time: the replay (src/replay/) owns one per policy and asks it where each
 * swap-out goes; what the hardware charges for it is src/hw/'s.  Nothing
 * here reaches back into the replay.  Which kernel versions each behaviour
 * belongs to is said in the file that models it.
 */
#ifndef SR_MM_MM_H
#define SR_MM_MM_H

#include <stdint.h>

#include "common/compiler.h"
#include "common/u64map.h"
#include "swapreplay/machine.h"
#include "swapreplay/policy.h"
#include "swapreplay/kernel.h"

/* ---- swapfile.c: the priority lists and the devices ------------------- */

/* swap_avail_heads[node]: devices by priority, highest first. */
struct sr_prio_list {
	int n;
	int *dev;     /* device indices, highest priority first */
	int *prio;    /* their priority on this node */
	int *gend;    /* [i]: where the group of equal priority that i is in
		       * ends (its last + 1), derived once from prio */
};

/* Every node's list; built once per machine, read-only after, shared by
 * the policies. */
struct sr_swap_lists {
	struct sr_prio_list node[SR_MACHINE_MAX_NODES];
};

/* Build m's lists by the rule of a kernel generation: 0, or -1 out of
 * memory (free them all the same). */
int sr_swap_lists_build(struct sr_swap_lists *l, const struct sr_machine *m,
			enum sr_prio_rule rule);
void sr_swap_lists_free(struct sr_swap_lists *l);

/* ---- swapfile.c: the slots of one device -------------------------------- */

/*
 * Where on a device each swap-out goes (docs/MODEL.md, "Slots"): the
 * kernel's allocator of mm/swapfile.c by generation, one per policy and
 * device.  A cluster is SWAPFILE_CLUSTER aligned slots; only clusters in
 * use have a record (their bitmap and list links): the free ones are the
 * free list, never-used clusters in the kernel's interleaved order and then
 * freed ones, oldest first.
 */
enum sr_slot_alloc {
	SR_SLOTS_SCAN,     /* scan_swap_map_slots() without clusters: a rotational
			    * device before 6.14 */
	SR_SLOTS_CLUSTERS, /* free clusters to a per-CPU current cluster, else a
			    * scan for a free slot (3.12 to 6.11, non-rotational) */
	SR_SLOTS_ORDERS,   /* and the nonfull and frag lists per order (6.12 on;
			    * rotational devices from 6.14, one current cluster) */
};

#define SR_SLOT_ORDERS 10       /* orders 0 to 9 (PMD_ORDER on x86-64) */
#define SR_SLOT_SPLIT UINT32_MAX /* a folio whose slots are not contiguous */
#define SR_SLOT_NONE (UINT32_MAX - 1) /* no positions laid out (sr_mm.positions) */

/*
 * A value per (CPU, folio order), 0 until set: the current clusters (the
 * kernel's percpu_swap_cluster and, per device, the per-CPU cluster
 * before 6.15).  A CPU key below SR_PCPU_VEC (a recorded CPU) indexes a
 * vector, a row of orders each; the others (a task standing for its
 * CPU, sr_mm_cpu_key()) hash.
 */
#define SR_PCPU_VEC 65536
struct sr_pcpu {
	uint64_t (*vec)[SR_SLOT_ORDERS];
	size_t n;                  /* rows */
	struct sr_u64map big;      /* CPU key << 4 | order -> the value */
};

void sr_pcpu_init(struct sr_pcpu *p);
void sr_pcpu_free(struct sr_pcpu *p);
uint64_t *sr_pcpu_at_slow(struct sr_pcpu *p, uint64_t cpu_key, unsigned order);

/* The value of (cpu_key, order); NULL out of memory.  It holds until the
 * next call for this p. */
static inline uint64_t *sr_pcpu_at(struct sr_pcpu *p, uint64_t cpu_key, unsigned order)
{
	if (SR_LIKELY(cpu_key < p->n))
		return &p->vec[cpu_key][order];
	return sr_pcpu_at_slow(p, cpu_key, order);
}

struct sr_cluster {
	uint32_t idx;              /* the cluster's number on the device */
	uint8_t order;             /* the folio order it serves (6.12 on) */
	uint8_t list;              /* which list it is on (swapfile.c) */
	uint32_t prev, next;       /* list links: record handles, or none */
	uint64_t map[8];           /* slots in use, a bit each (with those past
				    * the end): the kernel's count of the
				    * cluster is the bits set (swapfile.c,
				    * cl_full(), cl_empty()) */
};

struct sr_swap_dev {
	uint32_t nslots;           /* slots (at most 2^32 - 1) */
	uint32_t csize;            /* SWAPFILE_CLUSTER: 512 or 256 */
	uint32_t cshift;           /* its log2: slot off is slot off & (csize - 1)
				    * of cluster off >> cshift */
	uint32_t ncl;              /* clusters */
	uint32_t cols;             /* SWAP_CLUSTER_COLS of the free list's order */
	enum sr_slot_alloc how;
	int one_cluster;           /* one current cluster for the device (hdd, 6.14 on) */
	uint32_t init_k, init_i;   /* the next never-used cluster: column, row */
	uint32_t *fifo;            /* freed clusters, oldest first (a ring) */
	size_t fifo_head, fifo_len, fifo_cap;
	uint32_t **ix;             /* cluster -> record handle + 1: blocks of 1024
				    * clusters, made when first used, in the free
				    * list's order (swapfile.c, ix_pos()) */
	uint32_t ix_cols, ix_shift, ix_rows; /* that order: columns (a power of
				    * two), their log2, rows */
	size_t ix_len;             /* ix_cols x ix_rows: cells the index spans */
	struct sr_cluster *rec;    /* the records; free ones chained through next */
	uint32_t nrec, caprec, free_rec;
	uint64_t *full;            /* a bit per cluster: every slot in use */
	uint32_t head[2][SR_SLOT_ORDERS], tail[2][SR_SLOT_ORDERS]; /* nonfull, frag */
	struct sr_pcpu pcp;        /* (CPU key, order) -> its current cluster */
	uint64_t one_pcp[SR_SLOT_ORDERS]; /* one_cluster's, per order */
	uint32_t cluster_next, cluster_nr; /* the scan's position and countdown */
	uint64_t inuse;            /* slots handed out */
	/* 5.8 on, SR_SLOTS_CLUSTERS (sr_swapdev_scan_per_cpu()): each CPU
	 * scans from its own position, CPU key -> (position + 1) | draws << 32 */
	int scan_cpu;
	uint64_t seed;             /* its random trunks' key */
	struct sr_u64map next_cpu;
};

/*
 * A current cluster as a number: 0 none, else the cluster number + 1 in
 * the low 32 bits and the slot within it to go on from in bits 32-47.
 */
static inline uint64_t sr_pcp_make(uint32_t idx, uint32_t next)
{
	return (uint64_t)(idx + 1) | (uint64_t)next << 32;
}

/* 5.8's per-CPU scan base (490705888107) for sd, a non-rotational
 * device: seed keys its random trunks (the device's index: the same draws
 * under every policy). */
void sr_swapdev_scan_per_cpu(struct sr_swap_dev *sd, uint64_t seed);

/* Set sd up for a device of size_pages slots (slot 0 is the header) with
 * clusters of csize: 0, or -1 out of memory. */
int sr_swapdev_init(struct sr_swap_dev *sd, uint64_t size_pages, uint32_t csize,
		    enum sr_slot_alloc how, int one_cluster);
void sr_swapdev_free(struct sr_swap_dev *sd);
/* Bring the record of slot off's cluster towards the cache (a hint: a
 * free of off comes soon; nothing changes). */
void sr_swapdev_prefetch(const struct sr_swap_dev *sd, uint32_t off);
/*
 * 2^order aligned slots for a folio: in the current cluster *pcp (NULL:
 * the device's own for cpu_key, or its one cluster), and when that has
 * none and may_new, in a cluster from the device's lists as the kernel's
 * generation takes one (*pcp then names it).  0 with *off, or -1: no such
 * run (the kernel then splits the folio) or out of memory (*nomem).
 */
int sr_swapdev_get(struct sr_swap_dev *sd, uint64_t cpu_key, unsigned order, uint64_t *pcp,
		   int may_new, uint32_t *off, int *nomem);
/* Up to n single slots in off[], as n calls of sr_swapdev_get() for
 * order 0 with may_new would take them (the current cluster's run is
 * taken in one pass); how many (fewer: the device is full, or out of
 * memory: *nomem). */
uint32_t sr_swapdev_get_pages(struct sr_swap_dev *sd, uint64_t cpu_key, uint64_t *pcp, uint32_t n,
			      uint32_t *off, int *nomem);
/* The device's current cluster of cpu_key for order (for
 * sr_swapdev_get()); NULL out of memory. */
uint64_t *sr_swapdev_pcp(struct sr_swap_dev *sd, uint64_t cpu_key, unsigned order);
/* Free n slots from off. */
void sr_swapdev_put(struct sr_swap_dev *sd, uint32_t off, uint32_t n);
/* Whether slot off is in use. */
int sr_swapdev_used(const struct sr_swap_dev *sd, uint32_t off);

/* A CPU's slots cache (swap_slots.c): slots off[cur] to off[nr - 1] of
 * device dev1 - 1 are its to hand out.  The slots themselves are apart
 * (made at the first refill that lays them out), so that every CPU's
 * counts, which each swap-out reads, share a few cache lines; and as a
 * refill's slots are mostly one run of consecutive ones (the current
 * cluster's next), the run from cur is kept with the counts: off[i] is
 * first + i for cur <= i < run (run <= nr; 0: not known yet). */
struct sr_slots_cache {
	uint32_t dev1, cur, nr;
	uint32_t run, first;
	uint32_t *off;             /* SWAP_SLOTS_CACHE_SIZE slots, or NULL */
};

/* ---- the state of one policy's kernel --------------------------------- */

struct sr_mm {
	const struct sr_machine *m;
	const struct sr_swap_lists *lists;

	/* swapfile.c */
	int *rr;                   /* [node * nr_devices + group start]: next turn */
	uint64_t *used;            /* slots in use per device */
	uint64_t free_total;
	uint64_t total_pages;      /* every device's slots (total_swap_pages) */
	int taking;                /* sr_mm_choose() will take slots: turns may move */
	uint32_t walk_tiers;       /* the tiers a walk may take devices of: the
				    * allocation's (sr_mm_tiers()), else SR_TIERS_ALL */
	int tier_refused;          /* the last sr_mm_choose() found no allowed device
				    * with room while another had it (a swap-out the
				    * tiers refused, docs/MODEL.md T1) */
	/* The trace's memcg paths, for env->memcg_path(): the replay's lookup
	 * (mm does not read traces), NULL none. */
	const char *(*memcg_path)(const void *ctx, unsigned memcg);
	const void *memcg_ctx;

	/* swapfile.c: where the slots are, per device */
	struct sr_swap_dev *sdev;
	int positions;             /* slots are laid out (else counted only) */
	int thp_swap;              /* PMD folios keep their slots together (4.13 on) */
	int mthp_swap;             /* smaller large folios too (6.10 on) */

	/* swap_slots.c */
	enum sr_alloc_mode alloc;  /* how order-0 slots are handed out */
	int cache_active;          /* the slots cache is on (check_cache_active()) */
	uint64_t cache_off_below;  /* ... and goes off below this many free slots
				    * (SR_SLOTS_CACHE_DEACTIVATE x online CPUs) */
	struct sr_slots_cache *cache_vec; /* per CPU key below cache_n: no hashing */
	size_t cache_n;
	struct sr_u64map cache;    /* larger CPU keys -> index + 1 in cache_pool */
	struct sr_slots_cache *cache_pool;
	size_t pool_n, pool_cap;
	struct sr_pcpu pcpu;       /* SR_ALLOC_CLUSTER: (CPU key, order) -> (device
				    * + 1) << 48 | its current cluster (sr_pcp_make()) */
	uint64_t cache_refills, direct_allocs, splits;
	uint32_t ev_slots;         /* slots the last sr_mm_alloc_out() took under the
				    * device's si->lock: 0 (from the cache), the
				    * refill's, or the direct allocation's */
	uint32_t ev_off;           /* ... the folio's first slot, or SR_SLOT_SPLIT
				    * (its pages' slots in split_off[]) */
	uint32_t split_off[SR_MAX_NR_PAGES];
	int nomem;                 /* an allocation ran out of memory: stop */
	/* swap_slots.c, the freeing side (L3): 4.11 to 6.13 */
	int free_si;               /* freed slots go back under si->lock (kernel.h) */
	struct sr_u64map ret;      /* CPU key << 8 | device -> slots in the CPU's
				    * return cache (slots_ret) */

	/* swap_state.c: readahead's window (sr_ra_window()) */
	struct sr_ra {
		unsigned hits;         /* pages read ahead that faults found since */
		uint64_t prev_offset;  /* the fault that last had no hit */
		unsigned prev_win;     /* the last window, pages */
	} ra;

	/* policy.c */
	int policy_error;          /* the policy chose a node or device that does not exist */
	char policy_msg[192];      /* ... what it chose, for the message */
	const struct sr_policy_ops *ops;
	void *priv;
	void *dl;                  /* dlopen handle, or NULL */
	struct sr_policy_env env;
	char spec[SR_POLICY_SPEC_MAX]; /* as given: NAME[:PARAMS] or a path */
};

/*
 * Set up mm for machine m and its lists (both must outlive it), handing
 * out slots as alloc says; no policy yet.  SR_OK or SR_ERR_NOMEM (then
 * sr_mm_free() it all the same).
 */
enum sr_err sr_mm_init(struct sr_mm *mm, const struct sr_machine *m,
		       const struct sr_swap_lists *lists, enum sr_alloc_mode alloc,
		       struct sr_diag *d);
/* Lay out each device's slots as kernel k allocates them (swapfile.c), or
 * with !positions count them only (ev_off is then SR_SLOT_NONE); before
 * the first allocation.  SR_OK or SR_ERR_NOMEM. */
enum sr_err sr_mm_set_slots(struct sr_mm *mm, const struct sr_kernel *k, int positions,
			    struct sr_diag *d);
/* Load the policy named by spec (policy.c).  On failure no policy is held. */
enum sr_err sr_mm_load_policy(struct sr_mm *mm, const char *spec, struct sr_diag *d);
/* Finish and unload the policy, if any (policy.c). */
void sr_mm_unload_policy(struct sr_mm *mm);
/* Free what init and load took (a zeroed mm too). */
void sr_mm_free(struct sr_mm *mm);

/* Free slots on device d. */
static inline uint64_t sr_mm_dev_free(const struct sr_mm *mm, int d)
{
	uint64_t size = mm->m->dev[d].size_pages;

	return size > mm->used[d] ? size - mm->used[d] : 0;
}

static inline void sr_mm_take(struct sr_mm *mm, int d, uint64_t n)
{
	mm->used[d] += n;
	mm->free_total -= n;
}

/* Return n slots of device d (at most what it holds). */
static inline void sr_mm_put(struct sr_mm *mm, int d, uint64_t n)
{
	if (n > mm->used[d])
		n = mm->used[d];
	mm->used[d] -= n;
	mm->free_total += n;
}

/* Free the n slots from off on device d (swap_free()); off SR_SLOT_SPLIT:
 * the slots split[0] to split[n - 1]. */
static inline void sr_mm_free_slots(struct sr_mm *mm, int d, uint32_t off, const uint32_t *split,
				    uint32_t n)
{
	uint32_t i;

	sr_mm_put(mm, d, n);
	if (off == SR_SLOT_NONE)
		return;
	if (off != SR_SLOT_SPLIT) {
		sr_swapdev_put(&mm->sdev[d], off, n);
		return;
	}
	for (i = 0; i < n; i++)
		sr_swapdev_put(&mm->sdev[d], split[i], 1);
}

/*
 * get_swap_pages()'s walk of node's list for nr_pages slots, restricted to
 * the classes in mask (0: all); take: the walk counts (the turns move).
 * The device, or -1 if none has room.
 */
int sr_mm_walk(struct sr_mm *mm, int node, unsigned mask, uint32_t nr_pages, int take);

/* What a policy is told of an allocation for event e. */
void sr_mm_alloc_req(const struct sr_event *e, int via_cache, struct sr_alloc_req *req);

/* Ask the policy where req goes, then walk as it says; -1 if no device has
 * room for need slots.  take: as for sr_mm_walk().  A choice of a node or
 * device the machine does not have sets policy_error and policy_msg (the
 * walk then goes as the kernel's would: the CPU's node); the caller stops
 * the replay with it. */
int sr_mm_choose(struct sr_mm *mm, const struct sr_alloc_req *req, uint32_t need, int take);

/* ---- swap tiers (the series of Youngjun Park, v10; docs/MODEL.md T1) --- */

/* The tiers req's memory cgroup may use: the policy's tiers(), else every
 * one.  Taken once per allocation (folio_tier_effective_mask()). */
static inline uint32_t sr_mm_tiers(struct sr_mm *mm, const struct sr_alloc_req *req)
{
	return mm->ops->tiers ? mm->ops->tiers(mm->priv, &mm->env, req) : SR_TIERS_ALL;
}

/* Device d is one tiers may use (si->tier_mask & mask; a device in no tier
 * always). */
static inline int sr_mm_tier_allows(const struct sr_mm *mm, uint32_t tiers, int d)
{
	return (tiers & mm->m->dev[d].tier_bit) != 0;
}

/* swap_alloc_fast(): whether the CPU's current cluster, on device d, may
 * serve swap-out e: always without tiers; with them, when d is one of its
 * memcg's (else a miss: the slow path's cluster takes its place, memcgs of
 * other tiers on one CPU taking it from each other, as the series says of
 * its per-CPU cache).  The allocation is described only when asked. */
static inline int sr_mm_fast_allows(struct sr_mm *mm, const struct sr_event *e, int d)
{
	struct sr_alloc_req req;

	if (SR_LIKELY(!mm->ops->tiers))
		return 1;
	sr_mm_alloc_req(e, 1, &req);
	return sr_mm_tier_allows(mm, sr_mm_tiers(mm, &req), d);
}

/* ---- swap_slots.c ----------------------------------------------------- */

/* 64: SWAP_SLOTS_CACHE_SIZE (= SWAP_BATCH) in include/linux/swap_slots.h. */
#define SR_SLOTS_CACHE_SIZE 64
/* check_cache_active() in mm/swap_slots.c: the cache turns off below
 * 2 x 64 x online CPUs free slots and on again above 5 x 64 x CPUs. */
#define SR_SLOTS_CACHE_DEACTIVATE (2 * SR_SLOTS_CACHE_SIZE)
#define SR_SLOTS_CACHE_ACTIVATE (5 * SR_SLOTS_CACHE_SIZE)

/* The CPU whose slots cache serves e: without a recorded CPU, each task
 * stands for its own CPU. */
static inline uint64_t sr_mm_cpu_key(const struct sr_event *e)
{
	return (e->flags & SR_EV_HAS_CPU) ? e->cpu : (1ull << 40) | e->pid;
}

/* free_swap_slot(): n slots of device d freed by e's task on e's CPU
 * (L3).  The swap-map updates done now under d's si->lock: 0 (kept in the
 * CPU's return cache, or a kernel whose frees take no si->lock), 64 for
 * each time the cache was found full, n when there is no cache, 1 for a
 * huge page's whole cluster. */
uint32_t sr_mm_free_ret(struct sr_mm *mm, const struct sr_event *e, int d, uint32_t n);

/* sr_mm_alloc_out() but for its common case. */
int sr_mm_alloc_out_slow(struct sr_mm *mm, const struct sr_event *e);

/* Allocate swap for swap-out e (folio_alloc_swap()): from the CPU's slots
 * cache or directly (also when the cache cannot be had: out of memory).
 * The device, or -1 (swap full); where on it in ev_off (and split_off[]).  The common case, a slot from a cache
 * that stays on, is inline. */
static inline int sr_mm_alloc_out(struct sr_mm *mm, const struct sr_event *e)
{
	uint64_t key = sr_mm_cpu_key(e);

	if (SR_LIKELY(mm->alloc == SR_ALLOC_SLOTS_CACHE && mm->cache_active && e->nr_pages == 1 &&
		      mm->free_total >= mm->cache_off_below &&
		      key < mm->cache_n && mm->cache_vec[key].cur < mm->cache_vec[key].run)) {
		struct sr_slots_cache *c = &mm->cache_vec[key];

		mm->ev_slots = 0;
		mm->ev_off = mm->positions ? c->first + c->cur : SR_SLOT_NONE;
		c->cur++;
		return (int)c->dev1 - 1;
	}
	return sr_mm_alloc_out_slow(mm, e);
}

/*
 * swap_state.c: the pages of the readahead window for a fault at offset
 * (a power of two, 1 = no readahead): swapin_nr_pages() with the adaptive
 * window, or 2^page_cluster with fixed.  The caller reads the window
 * [offset & ~(pages - 1), offset | (pages - 1)] and counts the faults that
 * find pages read ahead in ra->hits.
 */
unsigned sr_ra_window(struct sr_ra *ra, uint64_t offset, unsigned page_cluster, int fixed);

/* Whether a swap-in from a device of class cls skips the swap cache under
 * kernel k: a synchronous device (pmem, zram) from 4.15 (0bcac06f27d7,
 * aa8d22a11da9) to 6.19; 7.0's swap table ended the bypass
 * (f1879e8a0c60). */
static inline int sr_swapin_bypass(const struct sr_kernel *k, enum sr_dev_class cls)
{
	return sr_kernel_swapin_bypass(k, sr_dev_class_memlike(cls));
}

/* Whether it reads no page ahead, and its slot is freed at once (K1,
 * swap_state.c): a synchronous device from 4.15, the bypass's, and from
 * 7.0 through the swap cache, still without readahead, its cache freed
 * always (ab08be8dc96a). */
static inline int sr_swapin_sync(const struct sr_kernel *k, enum sr_dev_class cls)
{
	return sr_dev_class_memlike(cls) && k->sync_no_ra;
}

/* vm_swap_full() (include/linux/swap.h, the same from 4.0 to 7.x): more
 * than half of all swap in use, nr_swap_pages * 2 < total_swap_pages. */
static inline int sr_vm_swap_full(const struct sr_mm *mm)
{
	return mm->free_total * 2 < mm->total_pages;
}

/*
 * swap_state.c (K1): whether the swap cache keeps the slot of a page
 * swapped in from device dv by an event with flags ev_flags (its fault:
 * SR_EV_HAS_FAULT, SR_EV_WRITE_FAULT), under kernel k: 1 for a read fault
 * on a device not synchronous (or a kernel before 4.15), while swap is
 * not half full.  docs/MODEL.md, "The slot a read fault keeps".
 */
int sr_swapin_keeps_slot(const struct sr_mm *mm, const struct sr_kernel *k, int dv,
			 uint32_t ev_flags);

/* swap_state.c: a VMA's readahead state (swap_readahead_info). */
struct sr_vma_ra {
	uint64_t prev_vpn;         /* the last fault's virtual page */
	uint8_t win, hits;
};

/* A VMA that never faulted: 4 hits. */
void sr_vma_ra_init(struct sr_vma_ra *ra);
/*
 * swap_state.c: VMA readahead's window for a fault at virtual page vpn:
 * the pages [*lo, *hi) to read (the fault's among them), within the 2 MiB
 * around it; its size before clamping (1: none).  Updates ra.
 */
unsigned sr_vma_ra_window(struct sr_vma_ra *ra, uint64_t vpn, unsigned page_cluster,
			  uint64_t *lo, uint64_t *hi);
/* A fault at vpn found its page in the swap cache (read_ahead: a page
 * readahead brought in). */
void sr_vma_ra_hit(struct sr_vma_ra *ra, uint64_t vpn, int read_ahead);

/*
 * swap_state.c: the slots of the window of `pages` (a power of two) around
 * a fault at off that readahead reads, in order, into out (room for
 * pages - 1): every slot `can(ctx, o)` says holds a page to read, free ones
 * skipped (3.4 on), or with holes_stop only the run of such slots around
 * off (before).  Their count.  The caller (the replay, gen) says what a
 * slot holds; this is the kernel's walk of swap_cluster_readahead().
 */
unsigned sr_ra_span(uint64_t off, unsigned pages, int holes_stop,
		    int (*can)(void *ctx, uint64_t o), void *ctx, uint64_t *out);

/* vmscan.c: the pages direct reclaim asks one pass for (try_to_free_pages():
 * sc.nr_to_reclaim = SWAP_CLUSTER_MAX, include/linux/swap.h). */
#define SR_SWAP_CLUSTER_MAX 32u

/* vmscan.c: the pages the inactive anon list holds in a memory of
 * memory_pages: how many pages reclaim takes before a page nobody touches
 * is reclaimed. */
uint64_t sr_inactive_pages(uint64_t memory_pages);

/*
 * zswap.c: zswap's decisions (mm/zswap.c; docs/MODEL.md, "zswap", Zs1-Zs5):
 * which pages its pool takes, when it is full, how many bytes each holds,
 * and when its shrink worker writes entries back.  Which entries are in
 * the pool, and their order, are the replay's (src/replay/zswap_lru.c): they
 * are the trace's pages.
 */
/* What a page swapped out holds: the trace does not say, so a draw
 * (common to every policy) with the machine's zero_percent and
 * incompressible_percent decides (Zs1). */
enum sr_zs_kind { SR_ZS_PAGE = 0, SR_ZS_ZERO_PAGE = 1, SR_ZS_POOR_PAGE = 2 };
struct sr_zswap_pool {
	double limit, accept;     /* bytes: max_pool_percent's, accept_threshold's */
	double used, peak;        /* bytes held now, and the most */
	int full;                 /* zswap_pool_reached_full */
	/* Pages (not folios): stored compressed, zero, whole; refused because
	 * the pool was full, because they did not compress, because they were
	 * a large folio; loaded; written back; times the limit was hit. */
	uint64_t stored, zero, whole, rej_full, rej_poor, rej_large, loads, written_back;
	uint64_t limit_hit;
};
void sr_zswap_pool_init(struct sr_zswap_pool *p, const struct sr_zswap *z);
/* Zs1: the kind of the page swapped out whose draw key is key. */
enum sr_zs_kind sr_zswap_kind(const struct sr_zswap *z, uint64_t key);
/* Zs1: the bytes one page of kind holds in the pool under kernel k. */
double sr_zswap_page_bytes(const struct sr_zswap *z, const struct sr_kernel *k,
			   enum sr_zs_kind kind);
/* Zs2: zswap_store() (or the zeromap before it, 6.12 on) for a folio of
 * n pages of kind: what is done with it, the pool's bytes and counts
 * moved.  *shrink is set when the store found the pool full and queued
 * the shrink worker (the caller writes back: sr_zswap_over()). */
enum sr_zs_out sr_zswap_store(struct sr_zswap_pool *p, const struct sr_zswap *z,
			      const struct sr_kernel *k, enum sr_zs_kind kind, uint32_t n,
			      int *shrink);
/* Zs4: the shrink worker goes on while the pool holds at least its accept
 * threshold (6.12's `zswap_total_pages() > zswap_accept_thr_pages()`;
 * 6.6's `!zswap_can_accept()`). */
static inline int sr_zswap_over(const struct sr_zswap_pool *p)
{
	return p->used > p->accept;
}
/* bytes leave the pool (a load, an invalidation, a writeback). */
static inline void sr_zswap_release(struct sr_zswap_pool *p, double bytes)
{
	p->used -= bytes;
	if (p->used < 0.5)
		p->used = 0;
}

#endif /* SR_MM_MM_H */
