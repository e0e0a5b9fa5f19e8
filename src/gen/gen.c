/* SPDX-License-Identifier: MIT */
/*
 * The workload generator (swapreplay/gen.h): tasks touching pages under a
 * memory limit with one global LRU list, streamed as swap events.
 *
 * Every simulated page has an index (task i's pages first, i * pages per
 * task onwards, then the pusher's) into flat arrays: its state, its links in
 * the LRU list (doubly linked through prev/next, NIL-terminated, head = the
 * least recently used) and its swap slot while swapped out.  The slots
 * come from the kernel's allocator (src/mm/, an sr_mm of the generator's
 * own with the kernel's policy, reclaimer-nid, on the machine given or the
 * default one), so that the trace's devices and offsets are those the
 * replay's own kernel would give on that machine.  Every step is O(1)
 * (O(512) when a huge page needs room or is split; a new cluster's search
 * as the kernel's) but the choice of the next task, which is O(log tasks)
 * from a binary min-heap keyed by (clock, pid).
 *
 * A huge page is its first page (the head): only the head is on the LRU
 * list and holds the state and the slot; every page of it carries PG_HUGE.
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>

#include "common/hash.h"
#include "common/diag.h"
#include "common/u64map.h"
#include "hw/cost.h"
#include "mm/mm.h"
#include "swapreplay/gen.h"

#define NIL UINT32_MAX

/* PG_CACHED: read ahead into the swap cache: resident, on the LRU list,
 * holding its slot, not yet touched. */
enum { PG_UNTOUCHED = 0, PG_RESIDENT = 1, PG_SWAPPED = 2, PG_CACHED = 3, PG_MASK = 3,
       PG_HUGE = 4 };

#define HP SR_GEN_HPAGE_PAGES

enum phase {
	PH_RUN,   /* swap-w-*: the tasks' accesses */
	PH_FILL,  /* swapin: the tasks write their regions */
	PH_PUSH,  /* swapin: the pusher writes `limit` bytes */
	PH_READ,  /* swapin: the tasks read their regions back */
	PH_DONE,
};

struct actor {
	uint64_t clock;   /* time of the next access */
	uint64_t left;    /* accesses still to do in this phase */
	uint64_t rng[4];  /* xoshiro256** state */
	uint32_t base;    /* first page of the region */
	uint64_t va;      /* its virtual address */
	struct sr_vma_ra vra; /* VMA readahead's state of the region (one VMA) */
	uint32_t pages;   /* pages in the region */
	uint32_t cursor;  /* next page of a sequential walk, < pages */
	uint32_t pid;
	uint32_t cpu;
	uint16_t memcg;   /* its memcg's id, 0: none (sr_gen_params.memcgs) */
	int random;       /* uniform random pages, else sequential */
	uint64_t wait;    /* global reclaim: the fault's wait so far, ns */
};

struct sr_gen {
	struct sr_gen_params p;
	struct sr_gen_stats st;
	uint32_t ppt;          /* pages per task */
	uint32_t rppt;         /* pages per random task (swap-w-seq) */
	uint64_t task_pages;   /* the tasks' pages, before the pusher's */
	uint32_t npages;       /* all simulated pages */
	uint32_t limit;        /* resident pages allowed */
	unsigned char *state;  /* PG_* per page */
	uint32_t *prev, *next; /* LRU links per page (resident pages) */
	uint32_t *slot;        /* swap slot per page (swapped pages) */
	uint16_t *dev;         /* ... and its device */
	struct sr_u64map owner; /* with readahead: (device << 32 | slot) -> page */
	int readahead;         /* readahead in the loop: cluster or vma */
	struct sr_ra ra;       /* readahead's window (src/mm/swap_state.c) */
	uint32_t lru_head, lru_tail;
	struct sr_machine *own_m;    /* the default machine, if none was given */
	const struct sr_machine *m;
	struct sr_kernel kernel;
	struct sr_swap_lists lists;
	struct sr_mm mm;       /* the kernel's slots (src/mm/) */
	enum sr_err err;       /* the swap devices filled up (SR_ERR_LIMIT), or memory */
	struct actor *actors;  /* the tasks, then the pusher (swapin) */
	uint32_t nactors;
	uint32_t next_task;    /* kbuild: the next task to start */
	uint32_t forked0;      /* kbuild: make's forks of the first jobs handed out */
	uint32_t *heap;        /* actor indices, min-heap on (clock, pid) */
	uint32_t nheap;
	enum phase phase;
	uint64_t tmax;         /* the latest clock reached */
	/* Produced by the last step, not yet handed out: up to 1023 swap-outs
	 * to make room for a huge page (511 pages, then a huge page split into
	 * its 512), and its swap-in; then, kbuild, a job's exit, make's wait
	 * for it, make's fork of the next job and make's own exit. */
	struct sr_event pend[4 * SR_GEN_HPAGE_PAGES + 8];
	uint32_t hp;           /* pages of a huge page (thp_pages) */
	unsigned npend, pend_i;
	/* (G1) what the first touch of a page swapped in costs its task more
	 * than access_ns: SR_GEN_TOUCH_LINES x the machine's remote_miss_ns
	 * when the tasks' memory is on another node than their CPUs, else 0. */
	uint64_t touch_ns;
	/* (G2) Global reclaim: the watermarks (free pages), kswapd (the
	 * actor after the others, in the heap while awake) and the estimated
	 * costs per device of a page's swap-in (in_ns: its read waited for),
	 * of a swap-out's CPU work (out_cpu_ns) and of its write on a DMA
	 * device (out_dev_ns: the device's time per page of a pass's
	 * request, kswapd's bound under writeback throttling). */
	int global;
	uint32_t wmin, wlow, whigh;
	uint32_t kswapd;       /* its index in actors[] */
	int kswapd_awake;      /* in the heap */
	int kswapd_wake;       /* to be woken at the end of this step, at: */
	uint64_t kswapd_wake_t;
	double *in_ns, *out_cpu_ns, *out_dev_ns;
	struct sr_memcgs *memcgs; /* the memcgs' paths, or NULL */
};

static const char *const workload_names[] = {
	[SR_GEN_SWAP_W_RAND] = "swap-w-rand",
	[SR_GEN_SWAP_W_SEQ] = "swap-w-seq",
	[SR_GEN_SWAPIN] = "swapin",
	[SR_GEN_KBUILD] = "kbuild",
};

#define NWORKLOADS (sizeof(workload_names) / sizeof(workload_names[0]))

static const char *const thp_swapin_names[] = {
	[SR_GEN_THP_IN_WHOLE] = "whole",
	[SR_GEN_THP_IN_SPLIT] = "split",
};

const char *sr_gen_thp_swapin_name(enum sr_gen_thp_swapin m)
{
	if ((unsigned)m < 2)
		return thp_swapin_names[m];
	return "unknown";
}

enum sr_err sr_gen_thp_swapin_parse(const char *s, enum sr_gen_thp_swapin *out)
{
	unsigned i;

	for (i = 0; s && i < 2; i++) {
		if (strcmp(s, thp_swapin_names[i]) == 0) {
			*out = (enum sr_gen_thp_swapin)i;
			return SR_OK;
		}
	}
	return SR_ERR_INVAL;
}

const char *sr_gen_workload_name(enum sr_gen_workload w)
{
	if ((unsigned)w < NWORKLOADS)
		return workload_names[w];
	return "unknown";
}

enum sr_err sr_gen_workload_parse(const char *s, enum sr_gen_workload *out)
{
	unsigned i;

	for (i = 0; s && i < NWORKLOADS; i++) {
		if (strcmp(s, workload_names[i]) == 0) {
			*out = (enum sr_gen_workload)i;
			return SR_OK;
		}
	}
	return SR_ERR_INVAL;
}

void sr_gen_params_init(struct sr_gen_params *p)
{
	memset(p, 0, sizeof(*p));
	p->workload = SR_GEN_SWAP_W_RAND;
	p->tasks = 32;
	p->jobs = 4;
	p->size = 64ull << 20;
	p->limit = 1ull << 30;
	p->accesses = 0;
	p->cpu_node = 0;
	p->mem_node = 1;
	p->cpus_per_node = 32;
	p->access_ns = SR_GEN_DEFAULT_ACCESS_NS;
	p->exp_time = 1;
	p->seed = 1;
	p->thp = 0;
	p->thp_pages = SR_GEN_HPAGE_PAGES;
	p->reclaim_batch = 0; /* the kernel's: SR_GEN_RECLAIM_PASS (memcg) */
	p->thp_swapin = SR_GEN_THP_IN_WHOLE;
	sr_readahead_default(&p->ra);
}

/* ---- PRNG: splitmix64 seeds xoshiro256** (Blackman and Vigna) --------- */

static inline uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

static inline uint64_t xoshiro(uint64_t *s)
{
	uint64_t r = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return r;
}

/* Uniform in [0, n), 1 <= n < 2^32: Lemire's multiply-shift, unbiased by
 * rejecting the few low products that would make it uneven. */
static uint32_t rand_below(uint64_t *s, uint32_t n)
{
	uint64_t m = (xoshiro(s) >> 32) * n;
	uint32_t l = (uint32_t)m;

	if (l < n) {
		uint32_t t = (0u - n) % n;

		while (l < t) {
			m = (xoshiro(s) >> 32) * n;
			l = (uint32_t)m;
		}
	}
	return (uint32_t)(m >> 32);
}

/* ---- the LRU list ----------------------------------------------------- */

static inline void lru_del(struct sr_gen *g, uint32_t pg)
{
	uint32_t p = g->prev[pg], n = g->next[pg];

	if (p == NIL)
		g->lru_head = n;
	else
		g->next[p] = n;
	if (n == NIL)
		g->lru_tail = p;
	else
		g->prev[n] = p;
}

static inline void lru_add_tail(struct sr_gen *g, uint32_t pg)
{
	g->prev[pg] = g->lru_tail;
	g->next[pg] = NIL;
	if (g->lru_tail == NIL)
		g->lru_head = pg;
	else
		g->next[g->lru_tail] = pg;
	g->lru_tail = pg;
}

/* ---- the heap of tasks ------------------------------------------------ */

static inline int before(const struct sr_gen *g, uint32_t a, uint32_t b)
{
	const struct actor *x = &g->actors[a], *y = &g->actors[b];

	return x->clock < y->clock || (x->clock == y->clock && x->pid < y->pid);
}

static void heap_down(struct sr_gen *g, uint32_t i)
{
	uint32_t *h = g->heap, n = g->nheap;

	for (;;) {
		uint32_t l = 2 * i + 1, m = i, t;

		if (l < n && before(g, h[l], h[m]))
			m = l;
		if (l + 1 < n && before(g, h[l + 1], h[m]))
			m = l + 1;
		if (m == i)
			return;
		t = h[i];
		h[i] = h[m];
		h[m] = t;
		i = m;
	}
}

static void heap_push(struct sr_gen *g, uint32_t a)
{
	uint32_t *h = g->heap, i = g->nheap++;

	h[i] = a;
	while (i && before(g, h[i], h[(i - 1) / 2])) {
		uint32_t p = (i - 1) / 2, t = h[i];

		h[i] = h[p];
		h[p] = t;
		i = p;
	}
}

/* ---- the simulation --------------------------------------------------- */

/* The actor whose region holds page pg. */
static const struct actor *page_actor(const struct sr_gen *g, uint32_t pg)
{
	uint64_t seq = (uint64_t)g->p.tasks * g->ppt;
	uint32_t k;

	if (pg < seq)
		k = (uint32_t)(pg / g->ppt);
	else if (pg < g->task_pages)
		k = g->p.tasks + (uint32_t)((pg - seq) / g->rppt);
	else
		k = g->nactors - 1;
	return &g->actors[k];
}

/* The virtual address of page pg of actor a's region (gen.h): regions
 * from 2^40 on, each 2 MiB aligned, 2 MiB apart. */
static uint64_t actor_va(const struct actor *a, uint32_t pg)
{
	return a->va + (uint64_t)(pg - a->base) * SR_PAGE_SIZE;
}

/* The same of page pg, whoever's it is. */
static uint64_t page_va(const struct sr_gen *g, uint32_t pg)
{
	return actor_va(page_actor(g, pg), pg);
}

static void emit(struct sr_gen *g, const struct actor *a, enum sr_op op, int dev,
		 uint32_t slot, uint32_t nr, uint32_t pg)
{
	struct sr_event *e = &g->pend[g->npend++];
	const struct actor *owner = page_actor(g, pg);

	sr_event_init(e);
	e->ts_ns = a->clock;
	e->op = (uint8_t)op;
	e->pid = a->pid;
	e->cpu = a->cpu;
	e->cpu_nid = (uint16_t)g->p.cpu_node;
	e->page_nid = (uint16_t)g->p.mem_node;
	e->dev = (uint16_t)dev;
	e->offset = slot;
	e->nr_pages = nr;
	e->lat_ns = 0;
	e->vaddr = actor_va(owner, pg);
	/* The page's memcg, whoever reclaims or faults it. */
	e->memcg = owner->memcg;
	e->flags = SR_EV_HAS_CPU | SR_EV_HAS_OFFSET | SR_EV_HAS_VADDR;
	/* Every swap-out is a's direct reclaim (under a cgroup's limit, the
	 * task that needs a page reclaims one: there is no kswapd), but
	 * kswapd's under global reclaim; a swap-in is
	 * a write fault where the accesses write (swap-w-*, kbuild, swapin's
	 * fill), a read fault in swapin's read-back. */
	if (op == SR_OP_OUT)
		e->flags |= SR_EV_HAS_RECLAIM |
			    (g->global && a == &g->actors[g->kswapd] ? SR_EV_KSWAPD : 0);
	else
		e->flags |= SR_EV_HAS_FAULT | (g->phase == PH_READ ? 0 : SR_EV_WRITE_FAULT);
}

/* kbuild: make's (or a job's) task op at time ts (SR_GEN_MAKE_PID's
 * fork or wait of child, a job's exit). */
static void task_op(struct sr_gen *g, uint64_t ts, enum sr_op op, uint32_t pid, uint32_t child)
{
	struct sr_event *e = &g->pend[g->npend++];

	sr_event_init(e);
	e->ts_ns = ts;
	e->op = (uint8_t)op;
	e->pid = pid;
	e->cpu_nid = (uint16_t)g->p.cpu_node;
	e->page_nid = (uint16_t)g->p.mem_node;
	if (op != SR_OP_EXIT) {
		e->child = child;
		e->flags = SR_EV_HAS_CHILD;
	}
}

/* ---- swap slots ------------------------------------------------------ */

static void note_slots(struct sr_gen *g, uint32_t end)
{
	if (end > g->st.slots_max)
		g->st.slots_max = end;
}

/* Slots for n pages swapped out by a, from the kernel's allocator
 * (folio_alloc_swap(), src/mm/swap_slots.c): 0 with *dev and *off (or
 * SR_SLOT_SPLIT: the huge page's pages got theirs one by one, in
 * g->mm.split_off), or -1 with g->err set. */
static int alloc_slots(struct sr_gen *g, const struct actor *a, uint32_t n, int *dev,
		       uint32_t *off)
{
	struct sr_event e;
	int d;

	sr_event_init(&e);
	e.ts_ns = a->clock;
	e.op = SR_OP_OUT;
	e.pid = a->pid;
	e.cpu = a->cpu;
	e.cpu_nid = (uint16_t)g->p.cpu_node;
	e.page_nid = (uint16_t)g->p.mem_node;
	e.nr_pages = n;
	e.flags = SR_EV_HAS_CPU;
	d = sr_mm_alloc_out(&g->mm, &e);
	if (g->mm.nomem) {
		g->err = SR_ERR_NOMEM;
		return -1;
	}
	if (d < 0) {
		g->err = SR_ERR_LIMIT;
		return -1;
	}
	*dev = d;
	*off = g->mm.ev_off;
	if (*off != SR_SLOT_SPLIT)
		note_slots(g, *off + n);
	return 0;
}

static void free_slots(struct sr_gen *g, uint32_t pg, uint32_t n)
{
	sr_mm_free_slots(&g->mm, g->dev[pg], g->slot[pg], NULL, n);
}

/* ---- the simulation, continued ---------------------------------------- */

/* The head of the huge page that page pg of a's region belongs to. */
static inline uint32_t huge_head(const struct sr_gen *g, const struct actor *a, uint32_t pg)
{
	return a->base + ((pg - a->base) & ~(g->hp - 1));
}

/* With readahead: slot sl of device dv holds page pg (NIL: none now). */
static void set_owner(struct sr_gen *g, int dv, uint32_t sl, uint32_t pg)
{
	uint64_t key = (uint64_t)(uint32_t)dv << 32 | sl, *v;

	if (g->readahead != SR_RA_CLUSTER)
		return;
	if (pg == NIL) {
		sr_u64map_del(&g->owner, key);
		return;
	}
	v = sr_u64map_put(&g->owner, key, NULL);
	if (!v)
		g->err = SR_ERR_NOMEM;
	else
		*v = pg;
}

/* Direct reclaim by a: the least recently used entry goes to swap; a page
 * read ahead and never touched is clean: it leaves memory and keeps its
 * slot, with no write. */
static void evict(struct sr_gen *g, const struct actor *a)
{
	uint32_t v = g->lru_head, sl, n, k;
	int huge = (g->state[v] & PG_HUGE) != 0, dv;

	if ((g->state[v] & PG_MASK) == PG_CACHED) {
		lru_del(g, v);
		g->state[v] = (unsigned char)((g->state[v] & ~PG_MASK) | PG_SWAPPED);
		g->st.resident--;
		g->st.swapped++;
		g->st.ra_dropped++;
		return;
	}
	n = huge ? g->hp : 1;
	if (alloc_slots(g, a, n, &dv, &sl)) {
		/* Swap is full: the generation stops with g->err.  The page
		 * leaves the LRU list so that reclaim does not loop. */
		lru_del(g, v);
		g->st.resident -= n;
		g->state[v] &= (unsigned char)~PG_MASK;
		return;
	}
	lru_del(g, v);
	if (sl == SR_SLOT_SPLIT) {
		/* No free cluster for it: the kernel splits the huge page and
		 * swaps its pages out one by one. */
		for (k = 0; k < g->hp; k++) {
			g->state[v + k] = PG_SWAPPED;
			g->slot[v + k] = g->mm.split_off[k];
			g->dev[v + k] = (uint16_t)dv;
			set_owner(g, dv, g->mm.split_off[k], v + k);
			note_slots(g, g->mm.split_off[k] + 1);
			emit(g, a, SR_OP_OUT, dv, g->mm.split_off[k], 1, v + k);
		}
		g->st.resident -= g->hp;
		g->st.swapped += g->hp;
		g->st.swap_outs += g->hp;
		g->st.pages_out += g->hp;
		g->st.thp_splits++;
		return;
	}
	set_owner(g, dv, sl, v);
	g->state[v] = (unsigned char)((g->state[v] & ~PG_MASK) | PG_SWAPPED);
	g->slot[v] = sl;
	g->dev[v] = (uint16_t)dv;
	g->st.resident -= n;
	g->st.swapped += n;
	g->st.swap_outs++;
	g->st.pages_out += n;
	emit(g, a, SR_OP_OUT, dv, sl, n, v);
}

/* The swapped-out huge page at head becomes 512 base pages in its slots. */
static void split(struct sr_gen *g, uint32_t head)
{
	uint32_t sl = g->slot[head], k;
	int dv = g->dev[head];

	for (k = 0; k < g->hp; k++) {
		g->state[head + k] = PG_SWAPPED;
		g->slot[head + k] = sl + k;
		g->dev[head + k] = (uint16_t)dv;
		set_owner(g, dv, sl + k, head + k);
	}
	g->st.thp_splits++;
}

/* The page in slot o of device dv, or NIL. */
static uint32_t owner_of(const struct sr_gen *g, int dv, uint64_t o)
{
	const uint64_t *v = sr_u64map_get(&g->owner, (uint64_t)(uint32_t)dv << 32 | (uint32_t)o);

	return v ? (uint32_t)*v : NIL;
}

struct ra_ctx {
	const struct sr_gen *g;
	int dv;
};

/* sr_ra_span()'s question: does slot o hold a base page in swap? */
static int ra_can(void *ctx, uint64_t o)
{
	const struct ra_ctx *c = ctx;
	uint32_t q = owner_of(c->g, c->dv, o);

	return q != NIL && c->g->state[q] == PG_SWAPPED;
}

/* Page q, in swap, comes into memory as read ahead (in the swap cache, on
 * the LRU list, holding its slot), after reclaim by a makes room: a page
 * reclaimed is never one in swap, so q stays to be read. */
static void bring_ahead(struct sr_gen *g, const struct actor *a, uint32_t q)
{
	while (g->st.resident + 1 > g->limit)
		evict(g, a);
	g->state[q] = PG_CACHED;
	lru_add_tail(g, q);
	g->st.resident++;
	g->st.swapped--;
	g->st.ra_pages++;
}

/* Readahead around the fault at slot off of device dv, by a: the window's
 * pages come into memory as read ahead (the kernel's
 * swap_cluster_readahead()); none on a synchronous device from 4.15, as in
 * the replay. */
static void read_ahead(struct sr_gen *g, const struct actor *a, int dv, uint32_t off)
{
	uint64_t offs[(1u << SR_RA_MAX_PAGE_CLUSTER) - 1];
	struct ra_ctx ctx = { g, dv };
	unsigned win, n, i;

	if (sr_swapin_sync(&g->kernel, g->m->dev[dv].cls))
		return;
	win = sr_ra_window(&g->ra, off, g->p.ra.page_cluster, g->p.ra.fixed_window);
	n = sr_ra_span(off, win, g->p.ra.holes_stop, ra_can, &ctx, offs);
	for (i = 0; i < n; i++) {
		uint32_t q = owner_of(g, dv, offs[i]);

		if (q != NIL && g->state[q] == PG_SWAPPED)
			bring_ahead(g, a, q);
	}
}

/* VMA readahead for a's fault at page pg (the kernel's
 * swap_vma_readahead()): the window of a's virtual pages around it, within
 * its region (its one VMA) and the 2 MiB around the fault; every page of
 * it in swap comes into memory as read ahead, whatever its device. */
static void read_ahead_vma(struct sr_gen *g, struct actor *a, uint32_t pg)
{
	uint64_t vpn = page_va(g, pg) >> 12, first = a->va >> 12, lo, hi, x;

	if (sr_swapin_sync(&g->kernel, g->m->dev[g->dev[pg]].cls))
		return;
	sr_vma_ra_window(&a->vra, vpn, g->p.ra.page_cluster, &lo, &hi);
	if (lo < first)
		lo = first;
	if (hi > first + a->pages)
		hi = first + a->pages;
	for (x = lo; x < hi; x++) {
		uint32_t q = a->base + (uint32_t)(x - first);

		if (x != vpn && g->state[q] == PG_SWAPPED)
			bring_ahead(g, a, q);
	}
}

/* ---- (G2) global reclaim: the watermarks, kswapd and direct reclaim ---- */

static inline uint32_t free_now(const struct sr_gen *g)
{
	return g->st.resident >= g->limit ? 0 : (uint32_t)(g->limit - g->st.resident);
}

/*
 * One reclaim pass by a: SWAP_CLUSTER_MAX pages (shrink_inactive_list()'s
 * isolation batch; a huge page counts its pages), least recently used
 * first.  Returns the CPU work of its swap-outs, ns, and in *dev_ns the
 * time their writes take their DMA devices.
 */
static double reclaim_pass(struct sr_gen *g, struct actor *a, double *dev_ns)
{
	uint64_t res0 = g->st.resident;
	unsigned i, n0 = g->npend;
	double cpu = 0;

	*dev_ns = 0;
	while (res0 - g->st.resident < SR_GEN_RECLAIM_PASS && g->lru_head != NIL && !g->err &&
	       g->npend + 2 * g->hp < sizeof(g->pend) / sizeof(g->pend[0]))
		evict(g, a);
	for (i = n0; i < g->npend; i++) {
		const struct sr_event *e = &g->pend[i];

		if (e->op != SR_OP_OUT)
			continue;
		cpu += e->nr_pages * g->out_cpu_ns[e->dev];
		*dev_ns += e->nr_pages * g->out_dev_ns[e->dev];
		if (a == &g->actors[g->kswapd])
			g->st.kswapd_pages_out += e->nr_pages;
	}
	return cpu;
}

/*
 * Room for need pages under global reclaim (mm/page_alloc.c: the fast
 * path's low watermark, then the slow path's min): below low + need,
 * kswapd is woken (wakeup_kswapd()); below min + need, a reclaims passes
 * itself (__alloc_pages_direct_reclaim(), try_to_free_pages() asking
 * SWAP_CLUSTER_MAX), their CPU work its fault's wait.  The limit itself
 * is never passed (the pages in the reserve below min are not the tasks').
 */
static void reclaim_global(struct sr_gen *g, struct actor *a, uint32_t need)
{
	double dev_ns;

	if (free_now(g) < g->wlow + need && !g->kswapd_awake && !g->kswapd_wake) {
		g->kswapd_wake = 1;
		g->kswapd_wake_t = a->clock;
	}
	while (free_now(g) < g->wmin + need && g->lru_head != NIL && !g->err) {
		unsigned n0 = g->npend;

		a->wait += (uint64_t)llround(reclaim_pass(g, a, &dev_ns));
		g->st.direct_passes++;
		if (g->npend == n0 && free_now(g) < g->wmin + need)
			break; /* nothing reclaimable: the limit below */
	}
	while (g->st.resident + need > g->limit && g->lru_head != NIL && !g->err)
		evict(g, a);
}

/*
 * kswapd's step (balance_pgdat(): passes of SWAP_CLUSTER_MAX until the
 * high watermark, kswapd_shrink_node()): one pass at its clock, which
 * then moves by the pass's CPU work or, when longer, by the time its
 * writes take their devices (writeback throttling lets kswapd keep 16 in
 * flight, so that its pace is the device's); asleep at high (it leaves
 * the heap), or when nothing is left to reclaim.
 */
static void kswapd_step(struct sr_gen *g)
{
	struct actor *k = &g->actors[g->kswapd];
	double cpu, dev_ns;

	if (free_now(g) >= g->whigh || g->lru_head == NIL || g->err) {
		g->heap[0] = g->heap[--g->nheap];
		heap_down(g, 0);
		g->kswapd_awake = 0;
		return;
	}
	cpu = reclaim_pass(g, k, &dev_ns);
	k->clock += (uint64_t)llround(cpu > dev_ns ? cpu : dev_ns) + 1;
	if (k->clock > g->tmax)
		g->tmax = k->clock;
	heap_down(g, 0);
}

/* Wake kswapd at time t (after the step that found low crossed: the heap's
 * top is that step's task until then). */
static void kswapd_wake(struct sr_gen *g, uint64_t t)
{
	struct actor *k = &g->actors[g->kswapd];

	g->kswapd_wake = 0;
	if (g->kswapd_awake)
		return;
	g->kswapd_awake = 1;
	g->st.kswapd_wakeups++;
	if (k->clock < t)
		k->clock = t;
	heap_push(g, g->kswapd);
}

/* Task a accesses page pg at its clock; 1 when that swapped the page in
 * (a fault, or a page read ahead touched for the first time). */
static int touch(struct sr_gen *g, struct actor *a, uint32_t pg)
{
	unsigned char s;
	uint32_t need = 1;

	g->st.accesses++;
	if (g->state[pg] & PG_HUGE) {
		uint32_t h = huge_head(g, a, pg);

		if ((g->state[h] & PG_MASK) == PG_SWAPPED &&
		    g->p.thp_swapin == SR_GEN_THP_IN_SPLIT) {
			split(g, h);
		} else {
			pg = h;
			need = g->hp;
		}
	}
	s = g->state[pg] & PG_MASK;
	if (s == PG_RESIDENT) {
		lru_del(g, pg);
		lru_add_tail(g, pg);
		return 0;
	}
	if (s == PG_CACHED) {
		/* Read ahead: a swap-in that finds its page in the swap cache
		 * (the trace records it; the replay finds it read ahead). */
		emit(g, a, SR_OP_IN, g->dev[pg], g->slot[pg], 1, pg);
		set_owner(g, g->dev[pg], g->slot[pg], NIL);
		free_slots(g, pg, 1);
		g->st.swap_ins++;
		g->st.pages_in++;
		g->st.ra_hits++;
		if (g->readahead == SR_RA_VMA)
			sr_vma_ra_hit(&a->vra, page_va(g, pg) >> 12, 1);
		else
			g->ra.hits++;
		g->state[pg] = PG_RESIDENT;
		lru_del(g, pg);
		lru_add_tail(g, pg);
		return 1;
	}
	/* pg is about to become resident: direct reclaim by a first, a
	 * batch at a time; under global reclaim, by kswapd or a (G2). */
	if (g->global) {
		reclaim_global(g, a, need);
	} else if (g->st.resident + need > g->limit) {
		/* try_to_free_mem_cgroup_pages(): max(nr_pages,
		 * SWAP_CLUSTER_MAX) pages reclaimed at once (the batch). */
		uint32_t batch = g->p.reclaim_batch ? g->p.reclaim_batch : SR_GEN_RECLAIM_PASS;
		uint64_t room = need > batch ? need : batch;

		while (g->st.resident + room > g->limit && g->lru_head != NIL && !g->err)
			evict(g, a);
		while (g->st.resident + need > g->limit)
			evict(g, a);
	}
	if (s == PG_SWAPPED) {
		emit(g, a, SR_OP_IN, g->dev[pg], g->slot[pg], need, pg);
		if (g->global) {
			/* (G2) The fault waited for its direct reclaim and its
			 * read: the swap-in's lat_ns, and its task's clock. */
			a->wait += (uint64_t)llround(g->in_ns[g->dev[pg]] * need);
			g->pend[g->npend - 1].lat_ns = a->wait;
			a->clock += a->wait;
		}
		set_owner(g, g->dev[pg], g->slot[pg], NIL);
		free_slots(g, pg, need);
		g->st.swapped -= need;
		g->st.swap_ins++;
		g->st.pages_in += need;
	} else {
		g->st.first_touches += need;
	}
	a->wait = 0;
	g->state[pg] = (unsigned char)((g->state[pg] & ~PG_MASK) | PG_RESIDENT);
	lru_add_tail(g, pg);
	g->st.resident += need;
	if (s == PG_SWAPPED && need == 1 && g->readahead == SR_RA_CLUSTER)
		read_ahead(g, a, g->dev[pg], g->slot[pg]);
	else if (s == PG_SWAPPED && need == 1 && g->readahead == SR_RA_VMA)
		read_ahead_vma(g, a, pg);
	if (g->st.resident > g->st.resident_max)
		g->st.resident_max = g->st.resident;
	return s == PG_SWAPPED;
}

/* Free the pages of a (an exiting task): no events. */
static void free_region(struct sr_gen *g, const struct actor *a)
{
	uint32_t pg, n;

	for (pg = a->base; pg < a->base + a->pages; pg += n) {
		unsigned char s = g->state[pg];

		n = s & PG_HUGE ? g->hp : 1;
		if ((s & PG_MASK) == PG_RESIDENT) {
			lru_del(g, pg);
			g->st.resident -= n;
		} else if ((s & PG_MASK) == PG_CACHED) {
			lru_del(g, pg);
			g->st.resident--;
			set_owner(g, g->dev[pg], g->slot[pg], NIL);
			free_slots(g, pg, 1);
		} else if ((s & PG_MASK) == PG_SWAPPED) {
			set_owner(g, g->dev[pg], g->slot[pg], NIL);
			free_slots(g, pg, n);
			g->st.swapped -= n;
		} else {
			continue;
		}
		g->state[pg] = (unsigned char)(s & ~PG_MASK);
		g->st.freed += n;
	}
}

/* Start actor i on a walk of left accesses at time clock. */
static void start(struct sr_gen *g, uint32_t i, uint64_t clock, uint64_t left)
{
	struct actor *a = &g->actors[i];

	a->clock = clock;
	a->left = left;
	a->cursor = 0;
	if (left)
		heap_push(g, i);
}

/* Move to the next phase; 0 when there is none. */
static int next_phase(struct sr_gen *g)
{
	uint32_t i, n = g->p.tasks;

	switch (g->phase) {
	case PH_FILL:
		g->phase = PH_PUSH;
		start(g, n, g->tmax, g->limit);
		return 1;
	case PH_PUSH:
		free_region(g, &g->actors[n]);
		g->phase = PH_READ;
		for (i = 0; i < n; i++)
			start(g, i, g->tmax, g->ppt);
		return 1;
	default:
		g->phase = PH_DONE;
		return 0;
	}
}

/*
 * The compute time of one access: exponentially distributed with mean
 * access_ns (accesses as a Poisson process), so that tasks do not run in
 * lock step as identical machines would: real tasks drift apart through
 * cache and TLB misses, interrupts and scheduling.  At least 1 ns; the draw
 * is capped at 40 means (-ln 2^-53 < 37).
 */
static uint64_t think_time(uint64_t *rng, uint64_t mean)
{
	double u = (double)((xoshiro(rng) >> 11) + 1) * 0x1p-53; /* (0, 1] */
	double t = -log(u) * (double)mean;

	return t < 1 ? 1 : (uint64_t)t;
}

/* One access by the earliest task; 0 at the end. */
static int step(struct sr_gen *g)
{
	struct actor *a;
	uint64_t last;
	uint32_t pg;

	while (!g->nheap)
		if (!next_phase(g))
			return 0;
	if (g->global && g->heap[0] == g->kswapd) {
		kswapd_step(g);
		return 1;
	}
	a = &g->actors[g->heap[0]];
	if (a->random) {
		pg = a->base + rand_below(a->rng, a->pages);
	} else {
		pg = a->base + a->cursor;
		if (++a->cursor == a->pages)
			a->cursor = 0;
	}
	/* (G1) A page just swapped in is in none of the CPU's caches: the
	 * access that touches it first misses its line in the page's node
	 * (docs/MODEL.md), touch_ns more than access_ns when that is not the
	 * task's CPU's node. */
	if (touch(g, a, pg))
		a->clock += g->touch_ns;
	last = a->clock;
	a->clock += g->p.exp_time ? think_time(a->rng, g->p.access_ns) : g->p.access_ns;
	if (a->clock > g->tmax)
		g->tmax = a->clock;
	if (--a->left == 0) {
		g->heap[0] = g->heap[--g->nheap];
		heap_down(g, 0);
		if (g->p.workload == SR_GEN_KBUILD) {
			/* The job exits after its last access (its memory
			 * and swap freed: holes), make's wait for it returns,
			 * and make forks the next one in its place, all at the
			 * time of that access (the earliest clock: the trace
			 * stays in time order, and keeps their order); the new
			 * job starts after a think time, as before. */
			free_region(g, a);
			task_op(g, last, SR_OP_EXIT, a->pid, 0);
			task_op(g, last, SR_OP_WAIT, SR_GEN_MAKE_PID, a->pid);
			if (g->next_task < g->p.tasks) {
				task_op(g, last, SR_OP_FORK, SR_GEN_MAKE_PID,
					g->actors[g->next_task].pid);
				start(g, g->next_task++, a->clock, g->p.accesses);
			} else if (g->nheap == (uint32_t)g->kswapd_awake) {
				task_op(g, last, SR_OP_EXIT, SR_GEN_MAKE_PID, 0);
			}
		}
	} else {
		heap_down(g, 0);
	}
	if (g->kswapd_wake)
		kswapd_wake(g, g->kswapd_wake_t);
	return 1;
}

enum sr_err sr_gen_next(struct sr_gen *g, struct sr_event *evs, size_t cap,
			size_t *n, struct sr_diag *d)
{
	size_t k = 0;

	while (k < cap) {
		if (g->p.workload == SR_GEN_KBUILD && g->forked0 < g->p.jobs) {
			g->npend = g->pend_i = 0;
			task_op(g, 0, SR_OP_FORK, SR_GEN_MAKE_PID, g->actors[g->forked0++].pid);
			evs[k++] = g->pend[0];
			g->npend = 0;
			continue;
		}
		if (g->pend_i < g->npend) {
			evs[k++] = g->pend[g->pend_i++];
			continue;
		}
		g->npend = g->pend_i = 0;
		if (g->err)
			break;
		if (g->phase == PH_DONE || !step(g))
			break;
	}
	*n = k;
	if (g->err && g->pend_i >= g->npend && k < cap)
		return sr_diag_set(d, g->err, g->err == SR_ERR_NOMEM ? "out of memory" :
				   "the swap devices of machine %s are full: give a machine with "
				   "more swap, or a workload that swaps less", g->m->name);
	return SR_OK;
}

const struct sr_gen_stats *sr_gen_stats(const struct sr_gen *g)
{
	return &g->st;
}

/* ---- set-up ----------------------------------------------------------- */

static enum sr_err check_bytes(const char *what, uint64_t v, struct sr_diag *d)
{
	if (v == 0)
		return sr_diag_set(d, SR_ERR_INVAL, "%s must be at least one page (%u bytes)",
				   what, SR_PAGE_SIZE);
	if (v % SR_PAGE_SIZE)
		return sr_diag_set(d, SR_ERR_INVAL,
				   "%s %" PRIu64 " bytes is not a whole number of %u-byte pages",
				   what, v, SR_PAGE_SIZE);
	return SR_OK;
}

static enum sr_err check_params(const struct sr_gen_params *p, struct sr_diag *d)
{
	enum sr_err err;

	if ((unsigned)p->workload >= NWORKLOADS)
		return sr_diag_set(d, SR_ERR_INVAL, "unknown workload %d", (int)p->workload);
	if (p->tasks == 0)
		return sr_diag_set(d, SR_ERR_INVAL, "tasks must be at least 1");
	err = check_bytes("size", p->size, d);
	if (!err)
		err = check_bytes("limit", p->limit, d);
	if (err)
		return err;
	if (p->cpu_node >= SR_MAX_NODES)
		return sr_diag_set(d, SR_ERR_INVAL, "cpu node %" PRIu32 " is over %u",
				   p->cpu_node, SR_MAX_NODES - 1);
	if (p->mem_node >= SR_MAX_NODES)
		return sr_diag_set(d, SR_ERR_INVAL, "memory node %" PRIu32 " is over %u",
				   p->mem_node, SR_MAX_NODES - 1);
	if (p->cpus_per_node < 1 || p->cpus_per_node > SR_GEN_MAX_CPUS_PER_NODE)
		return sr_diag_set(d, SR_ERR_INVAL,
				   "cpus per node must be from 1 to %u, not %" PRIu32,
				   SR_GEN_MAX_CPUS_PER_NODE, p->cpus_per_node);
	if (p->access_ns == 0)
		return sr_diag_set(d, SR_ERR_INVAL,
				   "the access time must be at least 1 ns (tasks interleave by their clocks)");
	if (!(p->thp >= 0 && p->thp <= 1))
		return sr_diag_set(d, SR_ERR_INVAL,
				   "the huge page share must be from 0 to 1, not %g", p->thp);
	if ((unsigned)p->thp_swapin > SR_GEN_THP_IN_SPLIT)
		return sr_diag_set(d, SR_ERR_INVAL, "unknown huge page swap-in mode %d",
				   (int)p->thp_swapin);
	if ((unsigned)p->reclaim > SR_GEN_RECLAIM_GLOBAL)
		return sr_diag_set(d, SR_ERR_INVAL, "unknown reclaim mode %d", (int)p->reclaim);
	if (p->reclaim == SR_GEN_RECLAIM_GLOBAL && p->reclaim_batch)
		return sr_diag_set(d, SR_ERR_INVAL, "a reclaim batch is a memory cgroup's: global "
				   "reclaim takes passes of %u pages, by kswapd or the task",
				   SR_GEN_RECLAIM_PASS);
	if (p->reclaim_batch > 512)
		return sr_diag_set(d, SR_ERR_INVAL, "reclaim batch %u: 1 to 512 pages",
				   p->reclaim_batch);
	if (p->thp_pages < 2 || p->thp_pages > SR_GEN_HPAGE_PAGES ||
	    (p->thp_pages & (p->thp_pages - 1)))
		return sr_diag_set(d, SR_ERR_INVAL,
				   "a huge page is a power of two from 2 to %u pages (8 KiB to 2 MiB), not %" PRIu32,
				   SR_GEN_HPAGE_PAGES, p->thp_pages);
	if (p->thp > 0 && p->limit < (uint64_t)p->thp_pages * SR_PAGE_SIZE)
		return sr_diag_set(d, SR_ERR_INVAL,
				   "with huge pages the limit must hold one: at least %u bytes (%u KiB), not %" PRIu64,
				   p->thp_pages * SR_PAGE_SIZE, p->thp_pages * 4, p->limit);
	if (p->workload == SR_GEN_SWAPIN && p->accesses)
		return sr_diag_set(d, SR_ERR_INVAL,
				   "accesses do not apply to swapin (each task writes each of its pages once, then reads each once)");
	return SR_OK;
}

/* Mark the huge pages of task a's region, spread evenly (gen.h). */
static void mark_huge(struct sr_gen *g, const struct actor *a)
{
	uint64_t units = a->pages / g->hp, h, u;
	uint32_t k;

	h = (uint64_t)(g->p.thp * (double)units + 0.5);
	if (h > units)
		h = units;
	for (u = 0; h && u < units; u++) {
		if ((u + 1) * h / units == u * h / units)
			continue;
		for (k = 0; k < g->hp; k++)
			g->state[a->base + u * g->hp + k] = PG_HUGE;
		g->st.thp_pages += g->hp;
	}
}

/* The kernel's slot allocation for the trace: machine p->machine (or the
 * default preset), kernel p->kernel (or the default), the kernel's own
 * policy; positions laid out. */
static enum sr_err setup_mm(struct sr_gen *g, const struct sr_gen_params *p, struct sr_diag *d)
{
	enum sr_err err;

	err = sr_kernel_parse(p->kernel ? p->kernel : SR_KERNEL_DEFAULT, &g->kernel, d);
	if (err)
		return err;
	g->m = p->machine;
	if (!g->m) {
		err = sr_machine_load(&g->own_m, SR_MACHINE_DEFAULT, d);
		if (err)
			return err;
		g->m = g->own_m;
	}
	if (p->cpu_node >= (uint32_t)g->m->nr_nodes || p->mem_node >= (uint32_t)g->m->nr_nodes)
		return sr_diag_set(d, SR_ERR_INVAL, "machine %s has %d node(s): the cpu and memory "
				   "nodes must be below", g->m->name, g->m->nr_nodes);
	g->touch_ns = p->cpu_node == p->mem_node ? 0 :
		      (uint64_t)llround(SR_GEN_TOUCH_LINES * g->m->remote_miss_ns);
	if (sr_swap_lists_build(&g->lists, g->m, g->kernel.prio))
		return sr_diag_set(d, SR_ERR_NOMEM, "out of memory");
	err = sr_mm_init(&g->mm, g->m, &g->lists, g->kernel.alloc, d);
	if (!err)
		err = sr_mm_set_slots(&g->mm, &g->kernel, 1, d);
	if (!err)
		err = sr_mm_load_policy(&g->mm, "reclaimer-nid", d);
	return err;
}

/* Integer square root (int_sqrt()). */
static uint64_t isqrt(uint64_t x)
{
	uint64_t r = (uint64_t)sqrt((double)x);

	while (r * r > x)
		r--;
	while ((r + 1) * (r + 1) <= x)
		r++;
	return r;
}

/*
 * (G2) Global reclaim's set-up: the watermarks of a node whose memory is
 * the limit, and each device's estimated costs.  The watermarks
 * (mm/page_alloc.c, read in 4.9 and 6.6): min_free_kbytes =
 * int_sqrt(16 x memory in kB) clamped to 128 kB .. 64 MB
 * (init_per_zone_wmark_min(); later kernels allow 256 MB, reached only
 * above 256 GiB); min its pages; the gap max(min / 4, memory x
 * watermark_scale_factor / 10000) with the factor's default 10 from 4.6
 * (795ae7a0de6b), min / 4 before; low = min + gap, high = min + 2 gap
 * (__setup_per_zone_wmarks()).  Watermark boosting (5.0) is not modelled.
 */
static enum sr_err setup_global(struct sr_gen *g, struct sr_diag *d)
{
	const struct sr_machine *m = g->m;
	uint64_t kb = (uint64_t)g->limit * (SR_PAGE_SIZE / 1024), min_kb, gap;
	struct actor *k = &g->actors[g->kswapd];
	int i;

	min_kb = isqrt(kb * 16);
	min_kb = min_kb < 128 ? 128 : min_kb > 65536 ? 65536 : min_kb;
	g->wmin = (uint32_t)(min_kb / (SR_PAGE_SIZE / 1024));
	gap = g->wmin / 4;
	if ((g->kernel.major > 4 || (g->kernel.major == 4 && g->kernel.minor >= 6)) &&
	    (uint64_t)g->limit * 10 / 10000 > gap)
		gap = (uint64_t)g->limit * 10 / 10000;
	g->wlow = (uint32_t)(g->wmin + gap);
	g->whigh = (uint32_t)(g->wmin + 2 * gap);
	if ((uint64_t)g->whigh + (g->p.thp > 0 ? g->hp : 1) >= g->limit)
		return sr_diag_set(d, SR_ERR_INVAL, "global reclaim: a limit of %u pages leaves "
				   "nothing above the high watermark (%u pages)", g->limit, g->whigh);
	g->st.wmark_min = g->wmin;
	g->st.wmark_low = g->wlow;
	g->st.wmark_high = g->whigh;
	g->in_ns = calloc((size_t)m->nr_devices, sizeof(*g->in_ns));
	g->out_cpu_ns = calloc((size_t)m->nr_devices, sizeof(*g->out_cpu_ns));
	g->out_dev_ns = calloc((size_t)m->nr_devices, sizeof(*g->out_dev_ns));
	if (!g->in_ns || !g->out_cpu_ns || !g->out_dev_ns)
		return sr_diag_set(d, SR_ERR_NOMEM, "out of memory");
	for (i = 0; i < m->nr_devices; i++) {
		struct sr_cost c;
		double work, lat;

		sr_cost_event(m, &m->dev[i], SR_OP_IN, (int)g->p.cpu_node, (int)g->p.mem_node, 1, &c);
		/* (E3) through the swap cache, as the replay charges it. */
		g->in_ns[i] = c.cpu_ns + c.copy_ns + (c.dma ? c.dev_lat_ns : 0) +
			      sr_cost_swapcache_ns(m, &g->kernel, m->dev[i].cls);
		sr_cost_event(m, &m->dev[i], SR_OP_OUT, (int)g->p.cpu_node, (int)g->p.mem_node, 1, &c);
		g->out_cpu_ns[i] = c.cpu_ns + c.copy_ns;
		if (c.dma) {
			sr_cost_request(&m->dev[i], SR_OP_OUT, SR_GEN_RECLAIM_PASS, 0, &work, &lat);
			g->out_dev_ns[i] = work / SR_GEN_RECLAIM_PASS;
		}
	}
	/* kswapd: its node's, on the CPU after the tasks' and the pusher's. */
	k->pid = SR_GEN_KSWAPD_PID;
	k->cpu = g->p.cpu_node * g->p.cpus_per_node +
		 (g->p.tasks + g->p.random_tasks + 1) % g->p.cpus_per_node;
	k->left = UINT64_MAX;
	return SR_OK;
}

static const char *u64_text(uint64_t v, char *buf, size_t size)
{
	snprintf(buf, size, "%" PRIu64 " bytes", v);
	return buf;
}

static enum sr_err check_memcgs(const struct sr_gen_params *p, struct sr_diag *d);
static enum sr_err setup_memcgs(struct sr_gen *g, struct sr_diag *d);

enum sr_err sr_gen_open(struct sr_gen **out, const struct sr_gen_params *p,
			struct sr_diag *d)
{
	struct sr_gen *g;
	uint64_t ppt, task_pages, limit, push, npages, accesses, steps, rppt = 0;
	uint64_t sm, va;
	uint32_t i;
	enum sr_err err;
	char buf[32];

	*out = NULL;
	sr_diag_clear(d);
	err = check_params(p, d);
	if (err)
		return err;
	ppt = p->size / SR_PAGE_SIZE;
	limit = p->limit / SR_PAGE_SIZE;
	push = p->workload == SR_GEN_SWAPIN ? limit : 0;
	/* ppt, limit <= 2^52 and tasks < 2^32: check before multiplying. */
	if (ppt > SR_GEN_MAX_PAGES || push > SR_GEN_MAX_PAGES ||
	    ppt * p->tasks + push > SR_GEN_MAX_PAGES)
		return sr_diag_set(d, SR_ERR_LIMIT,
				   "%" PRIu32 " tasks x %" PRIu64 " bytes%s%s is over the generator's "
				   "2^28 simulated pages (1 TiB)",
				   p->tasks, p->size, push ? " + a limit of " : "",
				   push ? u64_text(p->limit, buf, sizeof(buf)) : "");
	if (p->random_tasks) {
		if (p->workload != SR_GEN_SWAP_W_SEQ)
			return sr_diag_set(d, SR_ERR_INVAL, "random tasks are for swap-w-seq (a mix of sequential and random swappers)");
		err = check_bytes("random-size", p->random_size, d);
		if (err)
			return err;
		rppt = p->random_size / SR_PAGE_SIZE;
		if (rppt > SR_GEN_MAX_PAGES || p->random_tasks > SR_GEN_MAX_PAGES ||
		    ppt * p->tasks + rppt * p->random_tasks > SR_GEN_MAX_PAGES)
			return sr_diag_set(d, SR_ERR_LIMIT, "the tasks' regions are over the generator's "
					   "2^28 simulated pages (1 TiB)");
	}
	err = check_memcgs(p, d);
	if (err)
		return err;
	task_pages = ppt * p->tasks + rppt * p->random_tasks;
	npages = task_pages + push;
	if (p->workload == SR_GEN_KBUILD && (p->jobs < 1 || p->jobs > p->tasks))
		return sr_diag_set(d, SR_ERR_INVAL, "kbuild: jobs %" PRIu32 " must be 1 to the tasks (%" PRIu32 ")",
				   p->jobs, p->tasks);
	if (p->workload == SR_GEN_KBUILD && limit >= (uint64_t)p->jobs * ppt)
		return sr_diag_set(d, SR_ERR_INVAL,
				   "limit %" PRIu64 " bytes is not below the running jobs' memory "
				   "(%" PRIu32 " x %" PRIu64 " bytes): nothing would be swapped out",
				   p->limit, p->jobs, p->size);
	if (p->workload != SR_GEN_SWAPIN && p->workload != SR_GEN_KBUILD && limit >= task_pages)
		return sr_diag_set(d, SR_ERR_INVAL,
				   "limit %" PRIu64 " bytes is not below the tasks' memory "
				   "(%" PRIu32 " x %" PRIu64 " = %" PRIu64 " bytes): nothing would be swapped out",
				   p->limit, p->tasks, p->size, task_pages * SR_PAGE_SIZE);
	accesses = p->accesses ? p->accesses : 2 * ppt;
	/* The longest clock: a task's accesses, or swapin's three phases. */
	steps = p->workload == SR_GEN_SWAPIN ? 2 * ppt + limit :
		p->workload == SR_GEN_KBUILD ? accesses * ((p->tasks + p->jobs - 1) / p->jobs) : accesses;
	if (steps > (uint64_t)INT64_MAX / 40 / p->access_ns)
		return sr_diag_set(d, SR_ERR_LIMIT,
				   "the trace would last past 2^63-1 ns: give fewer accesses or a shorter access time");

	g = calloc(1, sizeof(*g));
	if (!g)
		return sr_diag_set(d, SR_ERR_NOMEM, "out of memory");
	g->p = *p;
	g->p.accesses = accesses;
	g->hp = p->thp_pages;
	g->ppt = (uint32_t)ppt;
	g->rppt = (uint32_t)rppt;
	g->task_pages = task_pages;
	g->npages = (uint32_t)npages;
	g->limit = (uint32_t)limit;
	g->nactors = p->tasks + p->random_tasks + (push ? 1 : 0);
	g->state = calloc(npages, 1);
	g->prev = malloc(npages * sizeof(*g->prev));
	g->next = malloc(npages * sizeof(*g->next));
	g->slot = malloc(npages * sizeof(*g->slot));
	g->dev = malloc(npages * sizeof(*g->dev));
	/* kswapd after them (global reclaim): not one of nactors. */
	g->actors = calloc(g->nactors + 1, sizeof(*g->actors));
	g->heap = malloc((g->nactors + 1) * sizeof(*g->heap));
	sr_u64map_init(&g->owner);
	if ((p->ra.mode == SR_RA_CLUSTER || p->ra.mode == SR_RA_VMA) && p->ra.page_cluster > 0) {
		g->readahead = p->ra.mode;
		g->ra.hits = 4; /* the kernel's swapin_readahead_hits starts at 4 */
	}
	if (!g->state || !g->prev || !g->next || !g->slot || !g->dev || !g->actors || !g->heap) {
		sr_gen_free(g);
		return sr_diag_set(d, SR_ERR_NOMEM,
				   "out of memory for %" PRIu64 " simulated pages (%" PRIu64 " MiB)",
				   npages, (npages * 19) >> 20);
	}
	err = setup_mm(g, p, d);
	g->global = p->reclaim == SR_GEN_RECLAIM_GLOBAL;
	g->kswapd = g->nactors;
	if (!err && g->global)
		err = setup_global(g, d);
	if (err) {
		sr_gen_free(g);
		return err;
	}
	g->lru_head = g->lru_tail = NIL;
	g->st.pages_total = npages;
	g->st.limit_pages = limit;

	sm = p->seed;
	va = 1ull << 40;
	for (i = 0; i < g->nactors; i++) {
		struct actor *a = &g->actors[i];
		uint32_t nt = p->tasks + p->random_tasks;
		uint32_t k = i < nt ? i : nt; /* the pusher: "task N" */
		int j;

		a->pid = i < nt ? SR_GEN_FIRST_PID + i : SR_GEN_PUSHER_PID;
		a->cpu = p->cpu_node * p->cpus_per_node + k % p->cpus_per_node;
		if (i < p->tasks) {
			a->base = (uint32_t)(i * ppt);
			a->pages = (uint32_t)ppt;
		} else if (i < nt) {
			/* swap-w-seq's random tasks, after the sequential ones */
			a->base = (uint32_t)(p->tasks * ppt + (i - p->tasks) * rppt);
			a->pages = (uint32_t)rppt;
		} else {
			a->base = (uint32_t)task_pages;
			a->pages = (uint32_t)limit;
		}
		/* Regions 2 MiB aligned and 2 MiB apart, from 2^40. */
		a->va = va;
		sr_vma_ra_init(&a->vra);
		va = (va + (uint64_t)a->pages * SR_PAGE_SIZE + (4ull << 20) - 1) & ~((2ull << 20) - 1);
		a->random = ((p->workload == SR_GEN_SWAP_W_RAND || p->workload == SR_GEN_KBUILD) &&
			     i < p->tasks) || (i >= p->tasks && i < nt);
		for (j = 0; j < 4; j++)
			a->rng[j] = sr_splitmix64(&sm);
		if (i < p->tasks && p->thp > 0)
			mark_huge(g, a);
	}
	err = setup_memcgs(g, d);
	if (err) {
		sr_gen_free(g);
		return err;
	}
	if (p->workload == SR_GEN_SWAPIN) {
		g->phase = PH_FILL;
		for (i = 0; i < p->tasks; i++)
			start(g, i, 0, ppt);
	} else if (p->workload == SR_GEN_KBUILD) {
		g->phase = PH_RUN;
		/* make forks the first jobs at time 0 (sr_gen_next() hands
		 * the forks out first: forked0). */
		for (i = 0; i < p->jobs; i++)
			start(g, i, 0, accesses);
		g->next_task = p->jobs;
	} else {
		g->phase = PH_RUN;
		for (i = 0; i < p->tasks + p->random_tasks; i++)
			start(g, i, 0, accesses);
	}
	*out = g;
	return SR_OK;
}

void sr_gen_free(struct sr_gen *g)
{
	if (!g)
		return;
	sr_mm_free(&g->mm);
	sr_swap_lists_free(&g->lists);
	sr_machine_free(g->own_m);
	free(g->state);
	free(g->prev);
	free(g->next);
	free(g->slot);
	free(g->dev);
	sr_u64map_free(&g->owner);
	free(g->in_ns);
	free(g->out_cpu_ns);
	free(g->out_dev_ns);
	free(g->actors);
	free(g->heap);
	sr_memcgs_free(g->memcgs);
	free(g);
}

const struct sr_memcgs *sr_gen_memcgs(const struct sr_gen *g)
{
	return g->memcgs;
}

/* The memcgs' paths into g->memcgs and each actor's memcg (gen.h,
 * sr_gen_params.memcgs; checked by check_memcgs()). */
static enum sr_err setup_memcgs(struct sr_gen *g, struct sr_diag *d)
{
	const struct sr_gen_params *p = &g->p;
	uint32_t j, i = 0, nt = p->tasks + p->random_tasks;
	char msg[300];

	if (!p->nmemcgs)
		return SR_OK;
	if (sr_memcgs_new(&g->memcgs))
		return sr_diag_set(d, SR_ERR_NOMEM, "out of memory");
	for (j = 0; j < p->nmemcgs; j++) {
		uint32_t k, n = p->memcgs[j].tasks ? p->memcgs[j].tasks : nt - i;

		if (sr_memcgs_set(g->memcgs, j + 1, p->memcgs[j].path, strlen(p->memcgs[j].path),
				  msg, sizeof(msg)))
			return sr_diag_set(d, SR_ERR_INVAL, "memcg %u: %s", j + 1, msg);
		for (k = 0; k < n; k++)
			g->actors[i++].memcg = (uint16_t)(j + 1);
	}
	/* The pusher (swapin), after the tasks: the last group's. */
	for (; i < g->nactors; i++)
		g->actors[i].memcg = (uint16_t)p->nmemcgs;
	return SR_OK;
}

/* The groups of p.memcgs against the tasks: SR_ERR_INVAL with a message. */
static enum sr_err check_memcgs(const struct sr_gen_params *p, struct sr_diag *d)
{
	uint64_t sum = 0, nt = (uint64_t)p->tasks + p->random_tasks;
	uint32_t j;

	if (p->nmemcgs > SR_GEN_MAX_MEMCGS)
		return sr_diag_set(d, SR_ERR_INVAL, "%" PRIu32 " memcgs: at most %u",
				   p->nmemcgs, SR_GEN_MAX_MEMCGS);
	for (j = 0; j < p->nmemcgs; j++) {
		if (!p->memcgs[j].path)
			return sr_diag_set(d, SR_ERR_INVAL, "memcg %u has no path", j + 1);
		if (!p->memcgs[j].tasks && j + 1 < p->nmemcgs)
			return sr_diag_set(d, SR_ERR_INVAL, "memcg %u (%s) has no count of tasks: only "
					   "the last group takes the rest", j + 1, p->memcgs[j].path);
		sum += p->memcgs[j].tasks;
	}
	if (!p->nmemcgs)
		return SR_OK;
	if (sum > nt || (p->memcgs[p->nmemcgs - 1].tasks && sum < nt) ||
	    (!p->memcgs[p->nmemcgs - 1].tasks && sum >= nt))
		return sr_diag_set(d, SR_ERR_INVAL, "the memcgs' groups take %" PRIu64 " tasks%s, "
				   "and there are %" PRIu64 ": every group takes at least one, "
				   "and the groups all the tasks", sum,
				   p->memcgs[p->nmemcgs - 1].tasks ? "" : " before the last", nt);
	return SR_OK;
}
