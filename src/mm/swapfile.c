/* SPDX-License-Identifier: MIT */
/*
 * The model of mm/swapfile.c: the priority lists of swap devices (per node,
 * swap_avail_heads[], from v4.14 "swap: choose swap device according to
 * numa node" to v6.18; one list before and after: every node's list is then
 * the same, src/mm/kernel.c), the walk get_swap_pages() makes of one of
 * them, the devices' fullness, and where on each device its slots are
 * (the allocator: "The slots of one device" below).
 *
 * Priorities (_enable_swap_info() and swap_avail_heads in mm/swapfile.c,
 * v4.14 to v6.18): a device swapped on without a priority gets -2, -3, ...
 * in swapon order (least_priority starts at -1), raised to -1 on its own
 * node's list; a given priority (>= 0) is the same on every node.  Before
 * v4.14: -1, -2, ... on the one list; from v6.19 every such device gets -1.  Equal
 * priorities form a group whose members take turns (plist_requeue() after
 * each allocation); a full device is off every list.
 *
 * Which node's list is walked is the policy's to say (policy.c); the
 * kernel's own answer is numa_node_id() of the allocating CPU
 * (policies/reclaimer_nid.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mm/mm.h"
#include "common/diag.h"
#include "common/grow.h"
#include "common/hash.h"

int sr_swap_lists_build(struct sr_swap_lists *lists, const struct sr_machine *m,
			enum sr_prio_rule rule)
{
	int node, i, j, autos = 0;
	int *base = malloc((size_t)m->nr_devices * sizeof(*base));

	if (!base)
		return -1;
	/* Automatic priorities: -1, -2, ... before 4.14; -2, -3, ... (raised
	 * to -1 on the device's own node below) from 4.14; all -1 from 6.19. */
	for (i = 0; i < m->nr_devices; i++)
		base[i] = !m->dev[i].prio_auto ? m->dev[i].prio :
			  rule == SR_PRIO_GLOBAL ? -1 - autos++ :
			  rule == SR_PRIO_NODE_RAISE ? -2 - autos++ : -1;
	for (node = 0; node < m->nr_nodes; node++) {
		struct sr_prio_list *l = &lists->node[node];

		l->n = m->nr_devices;
		l->dev = malloc((size_t)l->n * sizeof(*l->dev));
		l->prio = malloc((size_t)l->n * sizeof(*l->prio));
		l->gend = malloc((size_t)l->n * sizeof(*l->gend));
		if (!l->dev || !l->prio || !l->gend) {
			free(base);
			return -1;
		}
		for (i = 0; i < l->n; i++) {
			int p = base[i];

			if (rule == SR_PRIO_NODE_RAISE && m->dev[i].prio_auto &&
			    m->dev[i].node == node)
				p = -1;
			/* Insert keeping swapon order among equals. */
			for (j = i; j > 0 && l->prio[j - 1] < p; j--) {
				l->prio[j] = l->prio[j - 1];
				l->dev[j] = l->dev[j - 1];
			}
			l->prio[j] = p;
			l->dev[j] = i;
		}
		for (i = l->n - 1; i >= 0; i--)
			l->gend[i] = i + 1 < l->n && l->prio[i + 1] == l->prio[i] ? l->gend[i + 1] : i + 1;
	}
	free(base);
	return 0;
}

void sr_swap_lists_free(struct sr_swap_lists *lists)
{
	int i;

	for (i = 0; i < SR_MACHINE_MAX_NODES; i++) {
		free(lists->node[i].dev);
		free(lists->node[i].prio);
		free(lists->node[i].gend);
	}
}

/*
 * get_swap_pages()'s walk of node's list: groups of equal priority from
 * the highest; within a group the device after the last one used
 * (plist_requeue); a device without room for nr_pages is skipped, as a
 * full device is off every list.  take: advance the turn.
 */
int sr_mm_walk(struct sr_mm *mm, int node, unsigned mask, uint32_t nr_pages, int take)
{
	const struct sr_machine *m = mm->m;
	const struct sr_prio_list *l = &mm->lists->node[node];
	int g = 0;

	while (g < l->n) {
		int e = l->gend[g], k, *turn = &mm->rr[node * m->nr_devices + g];

		if (e - g == 1) {
			/* A device alone at its priority: no turns. */
			int d = l->dev[g];

			if ((!mask || (mask & SR_CLASS_BIT(m->dev[d].cls))) &&
			    sr_mm_tier_allows(mm, mm->walk_tiers, d) &&
			    sr_mm_dev_free(mm, d) >= nr_pages)
				return d;
			g = e;
			continue;
		}
		for (k = 0; k < e - g; k++) {
			int j = g + (*turn + k) % (e - g);
			int d = l->dev[j];

			if (mask && !(mask & SR_CLASS_BIT(m->dev[d].cls)))
				continue;
			if (!sr_mm_tier_allows(mm, mm->walk_tiers, d))
				continue;
			if (sr_mm_dev_free(mm, d) < nr_pages)
				continue;
			if (take)
				*turn = (j - g + 1) % (e - g);
			return d;
		}
		g = e;
	}
	return -1;
}

/* The walks a policy may make itself (struct sr_policy_env). */
static int env_peek(const struct sr_policy_env *env, int node, unsigned mask,
		    uint32_t nr_pages)
{
	struct sr_mm *mm = env->core;

	if (node < 0 || node >= mm->m->nr_nodes)
		return -1;
	return sr_mm_walk(mm, node, mask, nr_pages ? nr_pages : 1, 0);
}

static int env_advance(const struct sr_policy_env *env, int node, unsigned mask,
		       uint32_t nr_pages)
{
	struct sr_mm *mm = env->core;

	if (node < 0 || node >= mm->m->nr_nodes)
		return -1;
	/* A look-up that allocates nothing (where to read an unmatched
	 * swap-in from) must not move the turns either. */
	return sr_mm_walk(mm, node, mask, nr_pages ? nr_pages : 1, mm->taking);
}

static const char *env_memcg_path(const struct sr_policy_env *env, unsigned memcg)
{
	const struct sr_mm *mm = env->core;

	return mm->memcg_path && memcg ? mm->memcg_path(mm->memcg_ctx, memcg) : NULL;
}

void sr_mm_alloc_req(const struct sr_event *e, int via_cache, struct sr_alloc_req *req)
{
	req->ts_ns = e->ts_ns;
	req->pid = e->pid;
	req->cpu = (e->flags & SR_EV_HAS_CPU) ? e->cpu : e->pid;
	req->cpu_nid = e->cpu_nid;
	req->page_nid = e->page_nid;
	req->nr_pages = e->nr_pages;
	req->via_cache = via_cache;
	req->memcg = e->memcg;
}

/* The policy chose what the machine does not have: say so, once. */
static __attribute__((noinline)) void bad_choice(struct sr_mm *mm, const struct sr_alloc_choice *ch)
{
	const struct sr_machine *m = mm->m;

	if (mm->policy_error)
		return;
	mm->policy_error = 1;
	if (ch->node != -1)
		snprintf(mm->policy_msg, sizeof(mm->policy_msg),
			 "chose node %d, but machine %s has %d node%s (0 to %d)", ch->node,
			 m->name, m->nr_nodes, m->nr_nodes > 1 ? "s" : "", m->nr_nodes - 1);
	else
		snprintf(mm->policy_msg, sizeof(mm->policy_msg),
			 "chose device %d, but machine %s has %d device%s (0 to %d)", ch->device,
			 m->name, m->nr_devices, m->nr_devices > 1 ? "s" : "", m->nr_devices - 1);
}

/*
 * (T1) With swap tiers (a policy with tiers()), every walk, the policy's
 * own included, sees only the devices of the tiers req's memcg may use:
 * swap_alloc_slow() skips a device whose si->tier_mask is not in the
 * folio's mask, and when none of them has room the allocation fails (the
 * series, v10 patch 4/6, 20260713025644.170839-5-youngjun.park@lge.com:
 * no fall-through to a tier the memcg may not use); tier_refused says
 * when another device had room.
 */
int sr_mm_choose(struct sr_mm *mm, const struct sr_alloc_req *req, uint32_t need, int take)
{
	struct sr_alloc_choice ch = { req->cpu_nid, -1, SR_CLASS_ALL };
	const struct sr_machine *m = mm->m;
	uint32_t tiers = sr_mm_tiers(mm, req);
	int d;

	mm->taking = take;
	mm->walk_tiers = tiers;
	mm->tier_refused = 0;
	mm->ops->choose(mm->priv, &mm->env, req, &ch);
	if (SR_UNLIKELY(ch.node < -1 || ch.node >= m->nr_nodes ||
			(ch.node == -1 && (ch.device < 0 || ch.device >= m->nr_devices))))
		bad_choice(mm, &ch);
	if (ch.node < 0) {
		if (ch.device >= 0 && ch.device < m->nr_devices &&
		    sr_mm_tier_allows(mm, tiers, ch.device) &&
		    sr_mm_dev_free(mm, ch.device) >= need) {
			mm->walk_tiers = SR_TIERS_ALL;
			return ch.device;
		}
		ch.node = req->cpu_nid; /* full or invalid: as the kernel would */
		ch.class_mask = SR_CLASS_ALL;
	}
	if (ch.node >= m->nr_nodes)
		ch.node = req->cpu_nid;
	d = sr_mm_walk(mm, ch.node, ch.class_mask, need, take);
	if (d < 0 && ch.class_mask)
		d = sr_mm_walk(mm, ch.node, SR_CLASS_ALL, need, take);
	mm->walk_tiers = SR_TIERS_ALL;
	if (SR_UNLIKELY(d < 0 && tiers != SR_TIERS_ALL))
		mm->tier_refused = sr_mm_walk(mm, ch.node, SR_CLASS_ALL, need, 0) >= 0;
	return d;
}

void sr_pcpu_init(struct sr_pcpu *p)
{
	p->vec = NULL;
	p->n = 0;
	sr_u64map_init(&p->big);
}

void sr_pcpu_free(struct sr_pcpu *p)
{
	free(p->vec);
	sr_u64map_free(&p->big);
	sr_pcpu_init(p);
}

uint64_t *sr_pcpu_at_slow(struct sr_pcpu *p, uint64_t cpu_key, unsigned order)
{
	if (cpu_key >= SR_PCPU_VEC)
		return sr_u64map_put(&p->big, cpu_key << 4 | order, NULL);
	if (sr_grow_zeroed((void **)&p->vec, &p->n, (size_t)cpu_key + 1, sizeof(*p->vec), 64))
		return NULL;
	return &p->vec[cpu_key][order];
}

enum sr_err sr_mm_init(struct sr_mm *mm, const struct sr_machine *m,
		       const struct sr_swap_lists *lists, enum sr_alloc_mode alloc,
		       struct sr_diag *d)
{
	struct sr_kernel k;
	int i;

	mm->m = m;
	mm->lists = lists;
	mm->alloc = alloc;
	/* swap_state.c: swapin_readahead_hits starts at 4 (ATOMIC_INIT(4)). */
	mm->ra.hits = 4;
	mm->env.machine = m;
	mm->env.peek = env_peek;
	mm->env.advance = env_advance;
	mm->env.core = mm;
	mm->env.memcg_path = env_memcg_path;
	mm->walk_tiers = SR_TIERS_ALL;
	sr_u64map_init(&mm->cache);
	sr_u64map_init(&mm->ret);
	sr_pcpu_init(&mm->pcpu);
	mm->cache_active = 1;
	mm->cache_off_below = SR_SLOTS_CACHE_DEACTIVATE * (uint64_t)m->nr_cpus;
	mm->rr = calloc((size_t)m->nr_nodes * m->nr_devices, sizeof(*mm->rr));
	mm->used = calloc((size_t)m->nr_devices, sizeof(*mm->used));
	mm->sdev = calloc((size_t)m->nr_devices, sizeof(*mm->sdev));
	if (!mm->rr || !mm->used || !mm->sdev)
		return sr_diag_set(d, SR_ERR_NOMEM, "out of memory");
	for (i = 0; i < m->nr_devices; i++)
		mm->free_total += m->dev[i].size_pages;
	mm->total_pages = mm->free_total;
	if (sr_kernel_parse(SR_KERNEL_DEFAULT, &k, d))
		return SR_ERR_INVAL;
	return sr_mm_set_slots(mm, &k, 0, d);
}

enum sr_err sr_mm_set_slots(struct sr_mm *mm, const struct sr_kernel *k, int positions,
			    struct sr_diag *d)
{
	const struct sr_machine *m = mm->m;
	int i;

	mm->thp_swap = k->thp_swap;
	mm->mthp_swap = k->mthp_swap;
	mm->free_si = k->free_si;
	mm->positions = positions;
	for (i = 0; i < m->nr_devices; i++) {
		int hdd = m->dev[i].cls == SR_DEV_HDD;
		enum sr_slot_alloc how = hdd && !k->hdd_clusters ? SR_SLOTS_SCAN :
					 k->slot_orders || hdd ? SR_SLOTS_ORDERS : SR_SLOTS_CLUSTERS;

		sr_swapdev_free(&mm->sdev[i]);
		if (!positions)
			continue;
		/* size_pages slots to swap to, and the header before them. */
		if (sr_swapdev_init(&mm->sdev[i], m->dev[i].size_pages + 1, k->thp_swap ? 512 : 256,
				    how, hdd))
			return sr_diag_set(d, SR_ERR_NOMEM, "out of memory");
		if (how == SR_SLOTS_CLUSTERS && k->ssd_scan_cpu)
			sr_swapdev_scan_per_cpu(&mm->sdev[i], (uint64_t)i + 1);
	}
	return SR_OK;
}

void sr_mm_free(struct sr_mm *mm)
{
	int i;

	sr_mm_unload_policy(mm);
	for (i = 0; mm->sdev && i < mm->m->nr_devices; i++)
		sr_swapdev_free(&mm->sdev[i]);
	free(mm->sdev);
	free(mm->rr);
	free(mm->used);
	for (i = 0; mm->cache_vec && (size_t)i < mm->cache_n; i++)
		free(mm->cache_vec[i].off);
	for (i = 0; mm->cache_pool && (size_t)i < mm->pool_n; i++)
		free(mm->cache_pool[i].off);
	free(mm->cache_vec);
	free(mm->cache_pool);
	sr_u64map_free(&mm->cache);
	sr_u64map_free(&mm->ret);
	sr_pcpu_free(&mm->pcpu);
}

/* ---- the slots of one device ---------------------------------------------
 *
 * The kernel's slot allocator (mm/swapfile.c), per device, by generation
 * (sr_swapdev_init()'s how, chosen in swap_slots.c from the kernel and the
 * device's class):
 *
 * - SR_SLOTS_SCAN, a rotational device before 6.14 (scan_swap_map_slots()
 *   with no cluster_info; "mm, swap: remove old allocation path for HDD",
 *   7277433096f6, ended it): slots in order from cluster_next; every
 *   SWAPFILE_CLUSTER allocations the lowest run of SWAPFILE_CLUSTER free
 *   slots is looked for and allocation goes on from there ("to minimize the
 *   span of allocated swap"); none, or fewer free slots than a cluster:
 *   the next free slot.  Large folios are refused (the kernel splits them).
 * - SR_SLOTS_CLUSTERS, a non-rotational device up to 6.11
 *   (scan_swap_map_try_ssd_cluster(), Shaohua Li's "swap: make cluster
 *   allocation per-cpu", ebc2a1a69111, 3.12): each CPU has a current
 *   cluster and takes its slots in order; used up, the free list's head;
 *   no free cluster: the next free slot from the scan's position, the
 *   device's cluster_next, and from 5.8 each CPU's own (below).  A huge
 *   folio takes the free list's head whole (swap_alloc_cluster(), 4.13) or
 *   fails.
 * - SR_SLOTS_ORDERS, 6.12 on ("mm: swap: mTHP swap allocator base on swap
 *   cluster order", Chris Li and Kairui Song; rotational devices too from
 *   6.14, with one current cluster for the device): cluster_alloc_swap_entry()
 *   per order: the CPU's current cluster, then the free list's head, then
 *   (below PMD order) the nonfull list of the order, each cluster tried
 *   moving to the frag list, then the frag list in turn; order 0 last takes
 *   from the frag and nonfull lists of larger orders.  A freed slot puts
 *   its cluster back at the nonfull list's tail (dec_cluster_info_page()).
 *
 * In all three, a cluster whose last slot is freed goes to the free list's
 * tail (free_cluster()): clusters are reused oldest-freed first.  The free
 * list starts in the order setup_clusters() gives it, column by column of
 * SWAP_CLUSTER_COLS (max(64 B of cluster infos, 64 MB of swap cache) = 32
 * with 512-slot clusters, 64 with 256: "mm, swap: split swap cache into 64MB
 * trunks", 4b3ef9daa4fc, 4.11), so that clusters handed out one after the
 * other are 64 MB apart; from the first column (the kernel before 6.14
 * started at a random one, for wear levelling).  Slot 0 is the header;
 * slots past the device's end fill its last cluster.
 *
 * Approximated: the scan's run of free slots is looked for cluster by
 * cluster from slot 0 (the kernel starts at lowest_bit: the same run); a
 * CPU whose current cluster was freed takes a new one (the kernel too,
 * scan_swap_map_ssd_cluster_conflict(), unless it is the list's head);
 * discards, and 6.12's reclaim of full clusters' swap-cache-only slots, are
 * not modelled.
 */

enum { CL_NONE, CL_NONFULL, CL_FRAG };
#define NOREC UINT32_MAX

/*
 * (A2) 5.8's per-CPU scan base (Huang Ying, "swap: reduce lock contention
 * on swap cache from swap slots allocation", 490705888107): on a
 * non-rotational device the scan for a free slot (the path taken once no
 * free cluster is left) starts at the CPU's own position,
 * si->cluster_next_cpu, not the device's shared cluster_next, so that
 * CPUs scanning at once do not all allocate in one 64 MB trunk of the
 * swap cache (whose lock they would share).  A CPU's first position is a
 * random slot (1 + prandom_u32_max(highest_bit) at swapon); after each
 * allocation it goes on from the next slot unless that is in another
 * trunk than its previous position, when set_cluster_next() moves it to
 * a random trunk's start:
 *
 *   next = align_down(lo + r mod (hi - lo + 1), 2^14), at least lo
 *
 * with lo, hi the device's lowest and highest free slots (here 1 and its
 * last slot: the kernel's bounds of free slots are not kept) and r
 * uniform, here a hash of the device's seed, the CPU and its count of
 * draws (the same for every policy that allocates alike).  6.12's cluster
 * allocator no longer reads it on an SSD and 6.14 removed it
 * (docs/research/issue34-locks.md, section 2).
 */
#define TRUNK_SHIFT SR_SWAP_TRUNK_SHIFT

void sr_swapdev_scan_per_cpu(struct sr_swap_dev *sd, uint64_t seed)
{
	sd->scan_cpu = 1;
	sd->seed = seed;
}

/* A random slot of the device for CPU cpu_key's draw number n. */
static uint32_t scan_draw(const struct sr_swap_dev *sd, uint64_t cpu_key, uint64_t n)
{
	uint64_t r = sr_mix64(sr_mix64(sd->seed * 0x9e3779b97f4a7c15ULL ^ cpu_key) + n);

	return sd->nslots > 1 ? 1 + (uint32_t)(r % (sd->nslots - 1)) : 0;
}

/* The scan's start for cpu_key: the device's, or the CPU's own (5.8). */
static uint32_t scan_from(struct sr_swap_dev *sd, uint64_t cpu_key, int *nomem)
{
	uint64_t *v;
	int added = 0;

	if (!sd->scan_cpu)
		return sd->cluster_next;
	v = sr_u64map_put(&sd->next_cpu, cpu_key, &added);
	if (!v) {
		*nomem = 1;
		return sd->cluster_next;
	}
	if (added)
		*v = ((uint64_t)scan_draw(sd, cpu_key, 0) + 1) | 1ull << 32;
	return (uint32_t)(*v & 0xffffffffu) - 1;
}

/* set_cluster_next(): the scan goes on from next. */
static void scan_next(struct sr_swap_dev *sd, uint64_t cpu_key, uint32_t next)
{
	uint64_t *v;
	uint32_t prev, lo = 1, hi = sd->nslots - 1;

	if (!sd->scan_cpu) {
		sd->cluster_next = next;
		return;
	}
	v = sr_u64map_put(&sd->next_cpu, cpu_key, NULL);
	if (!v)
		return;
	prev = (uint32_t)(*v & 0xffffffffu) - 1;
	if (prev >> TRUNK_SHIFT != next >> TRUNK_SHIFT && hi > lo) {
		uint64_t n = *v >> 32;
		uint32_t r = scan_draw(sd, cpu_key, n);

		next = lo + (r - 1) % (hi - lo + 1);
		next &= ~((1u << TRUNK_SHIFT) - 1);
		if (next < lo)
			next = lo;
		*v = (n + 1) << 32;
	} else {
		*v &= ~0xffffffffull;
	}
	*v |= (uint64_t)next + 1;
}

static inline void bm_set(uint64_t *bm, uint32_t i)
{
	bm[i / 64] |= 1ull << (i % 64);
}

static inline void bm_clr(uint64_t *bm, uint32_t i)
{
	bm[i / 64] &= ~(1ull << (i % 64));
}

static inline int bm_test(const uint64_t *bm, uint32_t i)
{
	return (bm[i / 64] >> (i % 64)) & 1;
}

/* The cluster of slot off, and off's slot within it (SWAPFILE_CLUSTER is a
 * power of two: off / csize and off % csize). */
static inline uint32_t cl_of(const struct sr_swap_dev *sd, uint32_t off)
{
	return off >> sd->cshift;
}

static inline uint32_t cl_slot(const struct sr_swap_dev *sd, uint32_t off)
{
	return off & (sd->csize - 1);
}

/* The first i in [from, n) whose bit is clear, or n. */
static inline uint32_t bm_next_zero(const uint64_t *bm, uint32_t from, uint32_t n)
{
	uint32_t w = from / 64;
	uint64_t x;

	if (from >= n)
		return n;
	x = ~bm[w] & (~0ull << (from % 64));
	for (;;) {
		if (x) {
			uint32_t i = w * 64 + (uint32_t)__builtin_ctzll(x);

			return i < n ? i : n;
		}
		if (++w >= (n + 63) / 64)
			return n;
		x = ~bm[w];
	}
}

#define IX_BITS 10

/*
 * Where cluster idx's handle sits in the index.  The free list hands out
 * never-used clusters a column at a time (free_head(): idx = row x cols +
 * column), so the first clusters a device uses are cols apart; indexed by
 * their place in that order instead (column x rows + row) they share the
 * index's first blocks, and a replay's lookups stay in a few pages instead
 * of one block per 1024 / cols clusters.  The scan allocator (SR_SLOTS_SCAN)
 * goes in cluster order: there the index is by number (ix_cols 1).  A
 * bookkeeping layout only: no slot moves.
 */
static inline uint32_t ix_pos(const struct sr_swap_dev *sd, uint32_t idx)
{
	return (idx & (sd->ix_cols - 1)) * sd->ix_rows + (idx >> sd->ix_shift);
}

static inline struct sr_cluster *rec_at(const struct sr_swap_dev *sd, uint32_t idx, uint32_t *h)
{
	const uint32_t *b;
	uint32_t v;

	idx = ix_pos(sd, idx);
	b = sd->ix[idx >> IX_BITS];
	if (!b || !(v = b[idx & ((1u << IX_BITS) - 1)]))
		return NULL;
	*h = v - 1;
	return &sd->rec[*h];
}

/* Whether cluster idx has a record. */
static inline int has_rec(const struct sr_swap_dev *sd, uint32_t idx)
{
	const uint32_t *b;

	idx = ix_pos(sd, idx);
	b = sd->ix[idx >> IX_BITS];

	return b && b[idx & ((1u << IX_BITS) - 1)];
}

/* The handle cell of cluster idx, its block made if need be; NULL out of
 * memory. */
static uint32_t *ix_cell(struct sr_swap_dev *sd, uint32_t idx)
{
	uint32_t **b;

	idx = ix_pos(sd, idx);
	b = &sd->ix[idx >> IX_BITS];

	if (!*b && !(*b = calloc(1u << IX_BITS, sizeof(**b))))
		return NULL;
	return &(*b)[idx & ((1u << IX_BITS) - 1)];
}

/* Mark slot s of c in use (or free, !on): 1 if it changed, else 0. */
static inline uint32_t slot_mark(struct sr_cluster *c, uint32_t s, int on)
{
	uint64_t bit = 1ull << (s % 64), *w = &c->map[s / 64];

	if (!(*w & bit) == !on)
		return 0;
	*w ^= bit;
	return 1;
}

/*
 * Whether every slot of c is in use, or none: the kernel's count of the
 * cluster's slots in use (cluster_info's count) at SWAPFILE_CLUSTER or 0.
 * The model keeps the count as its bitmap alone, so that a free reads only
 * the line of the slot's word: its callers test that word first.
 */
static inline int cl_full(const struct sr_swap_dev *sd, const struct sr_cluster *c)
{
	uint64_t all = ~0ull;
	uint32_t w;

	for (w = 0; w < sd->csize / 64; w++)
		all &= c->map[w];
	return all == ~0ull;
}

static inline int cl_empty(const struct sr_swap_dev *sd, const struct sr_cluster *c)
{
	uint64_t any = 0;
	uint32_t w;

	for (w = 0; w < sd->csize / 64; w++)
		any |= c->map[w];
	return !any;
}

/* run_mark() for more than one slot: a word at a time. */
static __attribute__((noinline)) uint32_t run_mark_words(struct sr_cluster *c, uint32_t s,
							 uint32_t n, int on)
{
	uint32_t changed = 0, i;

	for (i = s; i < s + n;) {
		uint32_t w = i / 64, b = i % 64, k = n - (i - s) < 64 - b ? n - (i - s) : 64 - b;
		uint64_t mask = (k == 64 ? ~0ull : ((1ull << k) - 1)) << b;
		uint64_t flip = on ? mask & ~c->map[w] : mask & c->map[w];

		changed += (uint32_t)__builtin_popcountll(flip);
		c->map[w] ^= flip;
		i += k;
	}
	return changed;
}

/* Mark slots [s, s + n) of c in use (or free, !on); the count of those
 * that changed.  A page's one slot, the common case, is inline. */
static inline uint32_t run_mark(struct sr_cluster *c, uint32_t s, uint32_t n, int on)
{
	return n == 1 ? slot_mark(c, s, on) : run_mark_words(c, s, n, on);
}

static int run_free(const struct sr_cluster *c, uint32_t s, uint32_t n)
{
	uint32_t w;

	if (n < 64)
		return !((c->map[s / 64] >> (s % 64)) & ((1ull << n) - 1));
	for (w = s / 64; w < (s + n) / 64; w++)
		if (c->map[w])
			return 0;
	return 1;
}

/* The first aligned run of n (a power of two) free slots of c at or after
 * slot from, or csize. */
static uint32_t run_find(const struct sr_swap_dev *sd, const struct sr_cluster *c, uint32_t from,
			 uint32_t n)
{
	uint32_t s;

	if (n == 1)
		return bm_next_zero(c->map, from, sd->csize);
	for (s = (from + n - 1) & ~(n - 1); s + n <= sd->csize; s += n)
		if (run_free(c, s, n))
			return s;
	return sd->csize;
}

static __attribute__((noinline)) void list_unlink(struct sr_swap_dev *sd, uint32_t h)
{
	struct sr_cluster *c = &sd->rec[h];
	int l = c->list - 1;

	if (c->list == CL_NONE)
		return;
	if (c->prev != NOREC)
		sd->rec[c->prev].next = c->next;
	else
		sd->head[l][c->order] = c->next;
	if (c->next != NOREC)
		sd->rec[c->next].prev = c->prev;
	else
		sd->tail[l][c->order] = c->prev;
	c->prev = c->next = NOREC;
	c->list = CL_NONE;
}

static __attribute__((noinline)) void list_tail(struct sr_swap_dev *sd, uint32_t h, int list)
{
	struct sr_cluster *c = &sd->rec[h];
	int l = list - 1;

	list_unlink(sd, h);
	c->list = (uint8_t)list;
	c->prev = sd->tail[l][c->order];
	c->next = NOREC;
	if (c->prev != NOREC)
		sd->rec[c->prev].next = h;
	else
		sd->head[l][c->order] = h;
	sd->tail[l][c->order] = h;
}

/* A record for cluster idx, which was free (or never used); NOREC out of
 * memory.  Its slots past the device's end, and slot 0, are in use. */
static uint32_t rec_new(struct sr_swap_dev *sd, uint32_t idx, unsigned order)
{
	uint32_t *v, h, first = idx * sd->csize;
	struct sr_cluster *c;

	if (sd->free_rec != NOREC) {
		h = sd->free_rec;
		sd->free_rec = sd->rec[h].next;
	} else {
		if (sd->nrec == sd->caprec) {
			uint32_t n = sd->caprec ? 2 * sd->caprec : 64;
			struct sr_cluster *r = realloc(sd->rec, (size_t)n * sizeof(*r));

			if (!r)
				return NOREC;
			sd->rec = r;
			sd->caprec = n;
		}
		h = sd->nrec++;
	}
	v = ix_cell(sd, idx);
	if (!v) {
		sd->rec[h].next = sd->free_rec;
		sd->free_rec = h;
		return NOREC;
	}
	*v = h + 1;
	c = &sd->rec[h];
	memset(c, 0, sizeof(*c));
	c->idx = idx;
	c->order = (uint8_t)order;
	c->prev = c->next = NOREC;
	if (idx == 0)
		run_mark(c, 0, 1, 1);
	if ((uint64_t)first + sd->csize > sd->nslots)
		run_mark(c, sd->nslots - first, first + sd->csize - sd->nslots, 1);
	return h;
}

/* Cluster h's last slot was freed: to the free list's tail. */
static __attribute__((noinline)) void rec_release(struct sr_swap_dev *sd, uint32_t h)
{
	uint32_t idx = sd->rec[h].idx;

	list_unlink(sd, h);
	*ix_cell(sd, idx) = 0; /* its block exists: the record is in it */
	bm_clr(sd->full, idx);
	sd->rec[h].next = sd->free_rec;
	sd->free_rec = h;
	if (sd->fifo_len == sd->fifo_cap) {
		size_t n = sd->fifo_cap ? 2 * sd->fifo_cap : 64, i;
		uint32_t *q = malloc(n * sizeof(*q));

		if (!q)
			return; /* the cluster is lost to the free list, not to the scan */
		for (i = 0; i < sd->fifo_len; i++)
			q[i] = sd->fifo[(sd->fifo_head + i) % sd->fifo_cap];
		free(sd->fifo);
		sd->fifo = q;
		sd->fifo_cap = n;
		sd->fifo_head = 0;
	}
	sd->fifo[(sd->fifo_head + sd->fifo_len) % sd->fifo_cap] = idx;
	sd->fifo_len++;
}

/* The free list's head (taken off it), or NOREC if it is empty. */
static uint32_t free_head(struct sr_swap_dev *sd)
{
	uint32_t rows = (sd->ncl + sd->cols - 1) / sd->cols;

	while (sd->init_k < sd->cols) {
		uint32_t idx = sd->init_i * sd->cols + sd->init_k;

		if (++sd->init_i == rows) {
			sd->init_i = 0;
			sd->init_k++;
		}
		if (idx < sd->ncl && !has_rec(sd, idx))
			return idx;
	}
	while (sd->fifo_len) {
		uint32_t idx = sd->fifo[sd->fifo_head];

		sd->fifo_head = (sd->fifo_head + 1) % sd->fifo_cap;
		sd->fifo_len--;
		if (!has_rec(sd, idx))
			return idx;
	}
	return NOREC;
}

int sr_swapdev_init(struct sr_swap_dev *sd, uint64_t size_pages, uint32_t csize,
		    enum sr_slot_alloc how, int one_cluster)
{
	size_t words;
	int l, o;

	memset(sd, 0, sizeof(*sd));
	sd->nslots = size_pages < UINT32_MAX ? (uint32_t)size_pages : UINT32_MAX - 1;
	sd->csize = csize;
	sd->cshift = (uint32_t)__builtin_ctz(csize);
	sd->ncl = (uint32_t)(((uint64_t)sd->nslots + csize - 1) / csize);
	/* SWAP_CLUSTER_COLS: SWAP_ADDRESS_SPACE_PAGES (2^14) / SWAPFILE_CLUSTER,
	 * larger than the cluster infos in a cache line. */
	sd->cols = (1u << SR_SWAP_TRUNK_SHIFT) / csize;
	sd->how = how;
	sd->one_cluster = one_cluster;
	sd->free_rec = NOREC;
	for (l = 0; l < 2; l++)
		for (o = 0; o < SR_SLOT_ORDERS; o++)
			sd->head[l][o] = sd->tail[l][o] = NOREC;
	sr_pcpu_init(&sd->pcp);
	sr_u64map_init(&sd->next_cpu);
	words = ((size_t)sd->ncl + 63) / 64;
	sd->ix_cols = how == SR_SLOTS_SCAN ? 1 : sd->cols;
	sd->ix_shift = (uint32_t)__builtin_ctz(sd->ix_cols);
	sd->ix_rows = (sd->ncl + sd->ix_cols - 1) / sd->ix_cols;
	sd->ix_len = (size_t)sd->ix_rows * sd->ix_cols;
	sd->ix = calloc((sd->ix_len >> IX_BITS) + 1, sizeof(*sd->ix));
	sd->full = calloc(words, sizeof(*sd->full));
	if (!sd->ix || !sd->full)
		return -1;
	/* setup_clusters(): the header's cluster and a partial last one are
	 * not free; from 6.12 they start on the order-0 nonfull list. */
	if (rec_new(sd, 0, 0) == NOREC)
		return -1;
	if (how == SR_SLOTS_ORDERS)
		list_tail(sd, 0, CL_NONFULL);
	if (sd->nslots % csize && sd->ncl > 1) {
		uint32_t h = rec_new(sd, sd->ncl - 1, 0);

		if (h == NOREC)
			return -1;
		if (how == SR_SLOTS_ORDERS)
			list_tail(sd, h, CL_NONFULL);
	}
	sd->cluster_next = 1;
	return 0;
}

void sr_swapdev_free(struct sr_swap_dev *sd)
{
	size_t i;

	for (i = 0; sd->ix && i <= sd->ix_len >> IX_BITS; i++)
		free(sd->ix[i]);
	free(sd->ix);
	free(sd->fifo);
	free(sd->rec);
	free(sd->full);
	sr_pcpu_free(&sd->pcp);
	sr_u64map_free(&sd->next_cpu);
	memset(sd, 0, sizeof(*sd));
}

int sr_swapdev_used(const struct sr_swap_dev *sd, uint32_t off)
{
	uint32_t h;
	const struct sr_cluster *c;

	if (off >= sd->nslots)
		return 1;
	c = rec_at(sd, cl_of(sd, off), &h);
	return c && bm_test(c->map, cl_slot(sd, off));
}

/* Take n slots at slot s of cluster h; its list changes as the kernel's
 * cluster_alloc_range() moves it. */
static uint32_t take(struct sr_swap_dev *sd, uint32_t h, uint32_t s, uint32_t n)
{
	struct sr_cluster *c = &sd->rec[h];

	run_mark(c, s, n, 1);
	if (c->map[(s + n - 1) / 64] == ~0ull && cl_full(sd, c)) {
		bm_set(sd->full, c->idx);
		list_unlink(sd, h);
	} else if (sd->how == SR_SLOTS_ORDERS && c->list == CL_NONE) {
		list_tail(sd, h, CL_NONFULL);
	}
	return c->idx * sd->csize + s;
}

/*
 * Up to n single slots in cluster h from slot from on, as the kernel's
 * get_swap_pages() takes a batch from the current cluster
 * (cluster_alloc_range() per slot): its free slots in order into off[],
 * found a word of the bitmap at a time.  How many; the current cluster
 * *pcp goes on after the last (none past the cluster's end), and the
 * cluster's lists and full bit end as single takes (take()) leave them.
 */
static uint32_t take_pages(struct sr_swap_dev *sd, uint32_t h, uint32_t from, uint32_t n,
			   uint64_t *pcp, uint32_t *off)
{
	struct sr_cluster *c = &sd->rec[h];
	uint32_t got = 0, w = from / 64, words = sd->csize / 64, s = 0;
	uint32_t first = c->idx << sd->cshift;
	uint64_t x;

	if (!n || from >= sd->csize)
		return 0;
	x = ~c->map[w] & (~0ull << (from % 64));
	for (;;) {
		/* The free slots of word w, lowest first; those taken are
		 * the bits cleared from x. */
		uint64_t free0 = x;
		uint32_t base = first + w * 64;

		while (x && got < n) {
			off[got++] = base + (uint32_t)__builtin_ctzll(x);
			x &= x - 1;
		}
		c->map[w] |= free0 ^ x;
		if (got == n || ++w >= words)
			break;
		x = ~c->map[w];
	}
	if (!got)
		return 0;
	s = off[got - 1] - first; /* the last slot taken */
	if (c->map[s / 64] == ~0ull && cl_full(sd, c)) {
		bm_set(sd->full, c->idx);
		list_unlink(sd, h);
	} else if (sd->how == SR_SLOTS_ORDERS && c->list == CL_NONE) {
		list_tail(sd, h, CL_NONFULL);
	}
	*pcp = s + 1 < sd->csize ? sr_pcp_make(c->idx, s + 1) : 0;
	return got;
}

/* try_in() of one slot, the common case: take() of the first free slot
 * from slot from on. */
static inline int take_one(struct sr_swap_dev *sd, struct sr_cluster *c, uint32_t h,
			   uint32_t from, uint64_t *pcp, uint32_t *off)
{
	uint32_t s = bm_next_zero(c->map, from, sd->csize);
	uint64_t *w;

	if (s >= sd->csize)
		return 0;
	w = &c->map[s / 64];
	*w |= 1ull << (s % 64);
	if (SR_UNLIKELY(*w == ~0ull) && cl_full(sd, c)) {
		bm_set(sd->full, c->idx);
		list_unlink(sd, h);
	} else if (sd->how == SR_SLOTS_ORDERS && c->list == CL_NONE) {
		list_tail(sd, h, CL_NONFULL);
	}
	*off = (c->idx << sd->cshift) + s;
	*pcp = s + 1 < sd->csize ? sr_pcp_make(c->idx, s + 1) : 0;
	return 1;
}

/* A run of n in cluster h from slot from; sets *off and the current
 * cluster. */
static int try_in(struct sr_swap_dev *sd, uint32_t h, uint32_t from, uint32_t n, uint64_t *pcp,
		  uint32_t *off)
{
	uint32_t s, idx = sd->rec[h].idx;

	if (n == 1)
		return take_one(sd, &sd->rec[h], h, from, pcp, off);
	s = run_find(sd, &sd->rec[h], from, n);
	if (s >= sd->csize)
		return 0;
	*off = take(sd, h, s, n);
	*pcp = s + n < sd->csize ? sr_pcp_make(idx, s + n) : 0;
	return 1;
}

/* A new cluster from the free list for order; NOREC if none (or out of
 * memory: *nomem). */
static uint32_t new_cluster(struct sr_swap_dev *sd, unsigned order, int *nomem)
{
	uint32_t idx = free_head(sd), h;

	if (idx == NOREC)
		return NOREC;
	h = rec_new(sd, idx, order);
	if (h == NOREC)
		*nomem = 1;
	return h;
}

/* The next free slot from slot from on, round the device: the scan
 * (scan_swap_map_slots()'s "scan:" loop); NOREC if none. */
static uint32_t scan_free(struct sr_swap_dev *sd, uint32_t from, int *nomem, uint32_t *hp)
{
	uint32_t pass, ci = from < sd->nslots ? cl_of(sd, from) : 0;
	uint32_t s = from < sd->nslots ? cl_slot(sd, from) : 0;

	for (pass = 0; pass <= sd->ncl + 1; pass++) {
		struct sr_cluster *c;
		uint32_t h, next = bm_next_zero(sd->full, ci, sd->ncl);

		if (next != ci)
			s = 0;
		ci = next;
		if (ci == sd->ncl) {
			ci = 0;
			continue;
		}
		c = rec_at(sd, ci, &h);
		if (!c) {
			h = rec_new(sd, ci, 0);
			if (h == NOREC) {
				*nomem = 1;
				return NOREC;
			}
			c = &sd->rec[h];
		}
		s = bm_next_zero(c->map, s, sd->csize);
		if (s < sd->csize) {
			*hp = h;
			return s;
		}
		ci++;
		s = 0;
	}
	return NOREC;
}

/* The first run of csize free slots from slot 0 (the scan's search every
 * SWAPFILE_CLUSTER allocations); NOREC if none. */
static uint32_t scan_run(const struct sr_swap_dev *sd)
{
	uint32_t ci, run = 0, start = 0;

	for (ci = 0; ci < sd->ncl; ci++) {
		uint32_t h, w;
		const struct sr_cluster *c = rec_at(sd, ci, &h);

		if (!c) {
			if (!run)
				start = ci * sd->csize;
			run += sd->csize;
			if (run >= sd->csize)
				return start;
			continue;
		}
		if (bm_test(sd->full, ci)) {
			run = 0;
			continue;
		}
		for (w = 0; w < sd->csize / 64; w++) {
			uint64_t x = c->map[w];
			uint32_t b;

			if (!x) {
				if (!run)
					start = ci * sd->csize + w * 64;
				run += 64;
				if (run >= sd->csize)
					return start;
				continue;
			}
			for (b = 0; b < 64; b++) {
				if ((x >> b) & 1) {
					run = 0;
				} else {
					if (!run)
						start = ci * sd->csize + w * 64 + b;
					if (++run >= sd->csize)
						return start;
				}
			}
		}
	}
	return NOREC;
}

static int get_scan(struct sr_swap_dev *sd, unsigned order, uint32_t *off, int *nomem)
{
	uint32_t h, s, from;

	if (order)
		return -1; /* no large folios without clusters: split */
	if (!sd->cluster_nr) {
		sd->cluster_nr = sd->csize - 1;
		if ((uint64_t)sd->nslots - sd->inuse >= sd->csize) {
			uint32_t run = scan_run(sd);

			if (run != NOREC)
				sd->cluster_next = run;
		}
	} else {
		sd->cluster_nr--;
	}
	from = sd->cluster_next < sd->nslots ? sd->cluster_next : 1;
	s = scan_free(sd, from, nomem, &h);
	if (s == NOREC)
		return -1;
	*off = take(sd, h, s, 1);
	sd->cluster_next = *off + 1;
	return 0;
}

/* 6.12's walk of the nonfull list of order, then of its frag list (each
 * cluster tried from the nonfull list moves to the frag list). */
static int get_lists(struct sr_swap_dev *sd, unsigned order, uint64_t *pcp, uint32_t *off)
{
	uint32_t n = 1u << order, h, tries, nfrag = 0;

	for (h = sd->head[1][order]; h != NOREC; h = sd->rec[h].next)
		nfrag++;
	while ((h = sd->head[0][order]) != NOREC) {
		list_tail(sd, h, CL_FRAG);
		nfrag++;
		if (try_in(sd, h, 0, n, pcp, off))
			return 0;
	}
	for (tries = 0; tries < nfrag && (h = sd->head[1][order]) != NOREC; tries++) {
		list_tail(sd, h, CL_FRAG);
		if (try_in(sd, h, 0, n, pcp, off))
			return 0;
	}
	return -1;
}

uint64_t *sr_swapdev_pcp(struct sr_swap_dev *sd, uint64_t cpu_key, unsigned order)
{
	return sd->one_cluster ? &sd->one_pcp[order] :
	       sr_pcpu_at(&sd->pcp, cpu_key, order);
}

/* sr_swapdev_get() but for its common case. */
static __attribute__((noinline)) int get_slow(struct sr_swap_dev *sd, uint64_t cpu_key,
					      unsigned order, uint64_t *pcp, int may_new,
					      uint32_t *off, int *nomem)
{
	uint32_t n = 1u << order, h, idx;
	unsigned o;

	*nomem = 0;
	if (n > sd->csize)
		return -1;
	if (sd->how == SR_SLOTS_SCAN) {
		if (!get_scan(sd, order, off, nomem)) {
			sd->inuse++;
			return 0;
		}
		return -1;
	}
	if (!pcp || sd->one_cluster) {
		pcp = sr_swapdev_pcp(sd, cpu_key, order);
		if (!pcp) {
			*nomem = 1;
			return -1;
		}
	}
	/* The current cluster, from where it stopped. */
	if (*pcp) {
		struct sr_cluster *c = rec_at(sd, (uint32_t)(*pcp & 0xffffffffu) - 1, &h);

		if (c && (sd->how != SR_SLOTS_ORDERS || c->order == order) &&
		    try_in(sd, h, (uint32_t)(*pcp >> 32) & 0xffff, n, pcp, off))
			goto done;
		*pcp = 0;
	}
	if (!may_new)
		return -1;
	/* The free list's head. */
	h = new_cluster(sd, order, nomem);
	if (h != NOREC) {
		if (try_in(sd, h, 0, n, pcp, off))
			goto done;
	} else if (*nomem) {
		return -1;
	}
	if (sd->how == SR_SLOTS_CLUSTERS) {
		/* No free cluster: a huge folio fails; a page takes the next
		 * free slot from the scan position. */
		if (order)
			return -1;
		idx = scan_free(sd, scan_from(sd, cpu_key, nomem), nomem, &h);
		if (idx == NOREC)
			return -1;
		*off = take(sd, h, idx, 1);
		scan_next(sd, cpu_key, *off + 1);
		goto done;
	}
	if (order < SR_SLOT_ORDERS - 1 && n < sd->csize && !get_lists(sd, order, pcp, off))
		goto done;
	if (order == 0) {
		for (o = 1; o < SR_SLOT_ORDERS; o++) {
			if (sd->head[1][o] != NOREC && try_in(sd, sd->head[1][o], 0, 1, pcp, off))
				goto done;
			if (sd->head[0][o] != NOREC && try_in(sd, sd->head[0][o], 0, 1, pcp, off))
				goto done;
		}
	}
	return -1;
done:
	sd->inuse += n;
	return 0;
}

int sr_swapdev_get(struct sr_swap_dev *sd, uint64_t cpu_key, unsigned order, uint64_t *pcp,
		   int may_new, uint32_t *off, int *nomem)
{
	/* The common case: a page from the current cluster (where it fails,
	 * nothing changed: get_slow() tries it again and goes on). */
	if (order == 0 && sd->how != SR_SLOTS_SCAN) {
		uint64_t *p = pcp && !sd->one_cluster ? pcp : sr_swapdev_pcp(sd, cpu_key, 0);
		struct sr_cluster *c;
		uint32_t h;

		if (p && *p && (c = rec_at(sd, (uint32_t)(*p & 0xffffffffu) - 1, &h)) &&
		    (sd->how != SR_SLOTS_ORDERS || c->order == 0) &&
		    take_one(sd, c, h, (uint32_t)(*p >> 32) & 0xffff, p, off)) {
			*nomem = 0;
			sd->inuse++;
			return 0;
		}
	}
	return get_slow(sd, cpu_key, order, pcp, may_new, off, nomem);
}

uint32_t sr_swapdev_get_pages(struct sr_swap_dev *sd, uint64_t cpu_key, uint64_t *pcp, uint32_t n,
			      uint32_t *off, int *nomem)
{
	uint32_t got = 0, h;

	*nomem = 0;
	while (got < n) {
		struct sr_cluster *c;

		/* The current cluster's free slots from where it stopped, in
		 * turn, as try_in() takes them one at a time. */
		if (sd->how != SR_SLOTS_SCAN && pcp && *pcp &&
		    (c = rec_at(sd, (uint32_t)(*pcp & 0xffffffffu) - 1, &h)) &&
		    (sd->how != SR_SLOTS_ORDERS || c->order == 0)) {
			uint32_t k = take_pages(sd, h, (uint32_t)(*pcp >> 32) & 0xffff, n - got,
						pcp, &off[got]);

			got += k;
			sd->inuse += k;
			if (got == n)
				break;
		}
		/* Then one slot the general way: a new cluster, or the scan. */
		if (sr_swapdev_get(sd, cpu_key, 0, pcp, 1, &off[got], nomem))
			break;
		got++;
	}
	return got;
}

void sr_swapdev_prefetch(const struct sr_swap_dev *sd, uint32_t off)
{
	uint32_t h;
	const struct sr_cluster *c;

	if (off >= sd->nslots || !(c = rec_at(sd, cl_of(sd, off), &h)))
		return;
	__builtin_prefetch(c, 1);
	__builtin_prefetch(&c->map[cl_slot(sd, off) / 64], 1);
}

/* Free the k slots from slot s of cluster idx (record h, c), all in it
 * (dec_cluster_info_page() for each). */
static inline void put_in(struct sr_swap_dev *sd, struct sr_cluster *c, uint32_t h, uint32_t idx,
			  uint32_t s, uint32_t k)
{
	uint32_t freed;

	/* Only a cluster with every slot in use has its bit in full. */
	if (c->map[s / 64] == ~0ull && cl_full(sd, c))
		bm_clr(sd->full, idx);
	freed = run_mark(c, s, k, 0);
	sd->inuse -= freed;
	if (!c->map[s / 64] && cl_empty(sd, c))
		rec_release(sd, h);
	else if (sd->how == SR_SLOTS_ORDERS && c->list != CL_NONFULL && freed)
		list_tail(sd, h, CL_NONFULL);
}

/* sr_swapdev_put() of more than one slot: cluster by cluster. */
static __attribute__((noinline)) void put_run(struct sr_swap_dev *sd, uint32_t off, uint32_t n)
{
	while (n) {
		uint32_t idx = cl_of(sd, off), s = cl_slot(sd, off), h;
		uint32_t k = n < sd->csize - s ? n : sd->csize - s;
		struct sr_cluster *c = rec_at(sd, idx, &h);

		if (c && off < sd->nslots)
			put_in(sd, c, h, idx, s, k);
		off += k;
		n -= k;
	}
}

void sr_swapdev_put(struct sr_swap_dev *sd, uint32_t off, uint32_t n)
{
	uint32_t idx = cl_of(sd, off), h;
	struct sr_cluster *c;

	if (n != 1) {
		put_run(sd, off, n);
		return;
	}
	/* A page's slot: the common case. */
	c = rec_at(sd, idx, &h);
	if (c && off < sd->nslots)
		put_in(sd, c, h, idx, cl_slot(sd, off), 1);
}
