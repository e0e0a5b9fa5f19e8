/* SPDX-License-Identifier: MIT */
/*
 * The workload generator (swapreplay/gen.h): tasks touching pages under a
 * memory limit with one global LRU list, streamed as swap events.
 *
 * Every simulated page has an index (task i's pages first, i * pages per
 * task onwards, then the pusher's) into flat arrays: its state, its links in
 * the LRU list (doubly linked through prev/next, NIL-terminated, head = the
 * least recently used) and its swap slot while swapped out.  Free swap slots
 * are a LIFO stack, free whole clusters (huge pages) another.  Every step is
 * O(1) (O(512) when a huge page needs room or is split) but the choice of the
 * next task, which is O(log tasks) from a binary min-heap keyed by
 * (clock, pid).
 *
 * A huge page is its first page (the head): only the head is on the LRU
 * list and holds the state and the slot; every page of it carries PG_HUGE.
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/internal.h"
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
	uint32_t pages;   /* pages in the region */
	uint32_t cursor;  /* next page of a sequential walk, < pages */
	uint32_t pid;
	uint32_t cpu;
	int random;       /* uniform random pages, else sequential */
};

struct sr_gen {
	struct sr_gen_params p;
	struct sr_gen_stats st;
	uint32_t ppt;          /* pages per task */
	uint32_t npages;       /* all simulated pages */
	uint32_t limit;        /* resident pages allowed */
	unsigned char *state;  /* PG_* per page */
	uint32_t *prev, *next; /* LRU links per page (resident pages) */
	uint32_t *slot;        /* swap slot per page (swapped pages) */
	uint32_t *owner;       /* with readahead: per slot, the page in it, or NIL */
	uint32_t nowner;
	struct sr_ra ra;       /* readahead's window (src/mm/swap_state.c) */
	uint32_t lru_head, lru_tail;
	uint32_t *free_slots;  /* LIFO stack of freed base slots */
	uint32_t nfree;
	uint32_t *free_clusters; /* LIFO stack of freed whole clusters (huge) */
	uint32_t nfreec;
	uint32_t next_cluster; /* the lowest cluster never used */
	uint32_t base_next, base_end; /* the base pages' current cluster */
	struct actor *actors;  /* the tasks, then the pusher (swapin) */
	uint32_t nactors;
	uint32_t next_task;    /* kbuild: the next task to start */
	uint32_t *heap;        /* actor indices, min-heap on (clock, pid) */
	uint32_t nheap;
	enum phase phase;
	uint64_t tmax;         /* the latest clock reached */
	/* Produced by the last step, not yet handed out: up to 512 swap-outs
	 * to make room for a huge page, and its swap-in. */
	struct sr_event pend[HP + 1];
	unsigned npend, pend_i;
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
	p->thp_swapin = SR_GEN_THP_IN_WHOLE;
	sr_readahead_default(&p->ra);
}

/* ---- PRNG: splitmix64 seeds xoshiro256** (Blackman and Vigna) --------- */

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

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

static void emit(struct sr_gen *g, const struct actor *a, enum sr_op op,
		 uint32_t slot, uint32_t nr)
{
	struct sr_event *e = &g->pend[g->npend++];

	sr_event_init(e);
	e->ts_ns = a->clock;
	e->op = (uint8_t)op;
	e->pid = a->pid;
	e->cpu = a->cpu;
	e->cpu_nid = (uint16_t)g->p.cpu_node;
	e->page_nid = (uint16_t)g->p.mem_node;
	e->dev = 0;
	e->offset = slot;
	e->nr_pages = nr;
	e->lat_ns = 0;
	e->flags = SR_EV_HAS_CPU | SR_EV_HAS_OFFSET;
}

/* ---- swap slots ------------------------------------------------------ */

static void note_slots(struct sr_gen *g, uint32_t end)
{
	if (end > g->st.slots_max)
		g->st.slots_max = end;
}

/* A whole free cluster's first slot: the last freed, else a new one. */
static uint32_t take_cluster(struct sr_gen *g)
{
	uint32_t c = g->nfreec ? g->free_clusters[--g->nfreec] : g->next_cluster++;

	return c * HP;
}

static uint32_t alloc_base_slot(struct sr_gen *g)
{
	uint32_t sl;

	if (g->nfree)
		return g->free_slots[--g->nfree];
	if (g->base_next == g->base_end) {
		g->base_next = take_cluster(g);
		g->base_end = g->base_next + HP;
	}
	sl = g->base_next++;
	note_slots(g, sl + 1);
	return sl;
}

static uint32_t alloc_huge_slots(struct sr_gen *g)
{
	uint32_t sl = take_cluster(g);

	note_slots(g, sl + HP);
	return sl;
}

static void free_huge_slots(struct sr_gen *g, uint32_t sl)
{
	g->free_clusters[g->nfreec++] = sl / HP;
}

/* ---- the simulation, continued ---------------------------------------- */

/* The head of the huge page that page pg of a's region belongs to. */
static inline uint32_t huge_head(const struct actor *a, uint32_t pg)
{
	return a->base + ((pg - a->base) & ~(HP - 1));
}

static void set_owner(struct sr_gen *g, uint32_t sl, uint32_t n, uint32_t pg)
{
	uint32_t k;

	if (!g->owner)
		return;
	for (k = 0; k < n && sl + k < g->nowner; k++)
		g->owner[sl + k] = pg == NIL ? NIL : pg + k;
}

/* Direct reclaim by a: the least recently used entry goes to swap; a page
 * read ahead and never touched is clean: it leaves memory and keeps its
 * slot, with no write. */
static void evict(struct sr_gen *g, const struct actor *a)
{
	uint32_t v = g->lru_head, sl, n;
	int huge = (g->state[v] & PG_HUGE) != 0;

	if ((g->state[v] & PG_MASK) == PG_CACHED) {
		lru_del(g, v);
		g->state[v] = (unsigned char)((g->state[v] & ~PG_MASK) | PG_SWAPPED);
		g->st.resident--;
		g->st.swapped++;
		g->st.ra_dropped++;
		return;
	}
	n = huge ? HP : 1;
	sl = huge ? alloc_huge_slots(g) : alloc_base_slot(g);
	set_owner(g, sl, 1, v);
	lru_del(g, v);
	g->state[v] = (unsigned char)((g->state[v] & ~PG_MASK) | PG_SWAPPED);
	g->slot[v] = sl;
	g->st.resident -= n;
	g->st.swapped += n;
	g->st.swap_outs++;
	g->st.pages_out += n;
	emit(g, a, SR_OP_OUT, sl, n);
}

/* The swapped-out huge page at head becomes 512 base pages in its slots. */
static void split(struct sr_gen *g, uint32_t head)
{
	uint32_t sl = g->slot[head], k;

	for (k = 0; k < HP; k++) {
		g->state[head + k] = PG_SWAPPED;
		g->slot[head + k] = sl + k;
	}
	set_owner(g, sl, HP, head);
	g->st.thp_splits++;
}

/* sr_ra_span()'s question: does slot o hold a base page in swap? */
static int ra_can(void *ctx, uint64_t o)
{
	const struct sr_gen *g = ctx;
	uint32_t q;

	if (o >= g->nowner || (q = g->owner[o]) == NIL)
		return 0;
	return g->state[q] == PG_SWAPPED;
}

/* Readahead around the fault at slot off, by a: the window's pages come
 * into memory as read ahead (the kernel's swap_cluster_readahead()). */
static void read_ahead(struct sr_gen *g, const struct actor *a, uint32_t off)
{
	uint64_t offs[(1u << SR_RA_MAX_PAGE_CLUSTER) - 1];
	unsigned win = sr_ra_window(&g->ra, off, g->p.ra.page_cluster, g->p.ra.fixed_window);
	unsigned n = sr_ra_span(off, win, g->p.ra.holes_stop, ra_can, g, offs), i;

	for (i = 0; i < n; i++) {
		uint32_t q = g->owner[offs[i]];

		if (g->state[q] != PG_SWAPPED)
			continue; /* reclaimed for an earlier one of the window */
		while (g->st.resident + 1 > g->limit)
			evict(g, a);
		g->state[q] = PG_CACHED;
		lru_add_tail(g, q);
		g->st.resident++;
		g->st.swapped--;
		g->st.ra_pages++;
	}
}

/* Task a accesses page pg at its clock. */
static void touch(struct sr_gen *g, const struct actor *a, uint32_t pg)
{
	unsigned char s;
	uint32_t need = 1;

	g->st.accesses++;
	if (g->state[pg] & PG_HUGE) {
		uint32_t h = huge_head(a, pg);

		if ((g->state[h] & PG_MASK) == PG_SWAPPED &&
		    g->p.thp_swapin == SR_GEN_THP_IN_SPLIT) {
			split(g, h);
		} else {
			pg = h;
			need = HP;
		}
	}
	s = g->state[pg] & PG_MASK;
	if (s == PG_RESIDENT) {
		lru_del(g, pg);
		lru_add_tail(g, pg);
		return;
	}
	if (s == PG_CACHED) {
		/* Read ahead: a swap-in that finds its page in the swap cache
		 * (the trace records it; the replay finds it read ahead). */
		emit(g, a, SR_OP_IN, g->slot[pg], 1);
		set_owner(g, g->slot[pg], 1, NIL);
		g->free_slots[g->nfree++] = g->slot[pg];
		g->st.swap_ins++;
		g->st.pages_in++;
		g->st.ra_hits++;
		g->ra.hits++;
		g->state[pg] = PG_RESIDENT;
		lru_del(g, pg);
		lru_add_tail(g, pg);
		return;
	}
	/* pg is about to become resident: direct reclaim by a first. */
	while (g->st.resident + need > g->limit)
		evict(g, a);
	if (s == PG_SWAPPED) {
		emit(g, a, SR_OP_IN, g->slot[pg], need);
		set_owner(g, g->slot[pg], 1, NIL);
		if (need == HP)
			free_huge_slots(g, g->slot[pg]);
		else
			g->free_slots[g->nfree++] = g->slot[pg];
		g->st.swapped -= need;
		g->st.swap_ins++;
		g->st.pages_in += need;
	} else {
		g->st.first_touches += need;
	}
	g->state[pg] = (unsigned char)((g->state[pg] & ~PG_MASK) | PG_RESIDENT);
	lru_add_tail(g, pg);
	g->st.resident += need;
	if (s == PG_SWAPPED && need == 1 && g->owner)
		read_ahead(g, a, g->slot[pg]);
	if (g->st.resident > g->st.resident_max)
		g->st.resident_max = g->st.resident;
}

/* Free the pages of a (an exiting task): no events. */
static void free_region(struct sr_gen *g, const struct actor *a)
{
	uint32_t pg, n;

	for (pg = a->base; pg < a->base + a->pages; pg += n) {
		unsigned char s = g->state[pg];

		n = s & PG_HUGE ? HP : 1;
		if ((s & PG_MASK) == PG_RESIDENT) {
			lru_del(g, pg);
			g->st.resident -= n;
		} else if ((s & PG_MASK) == PG_CACHED) {
			lru_del(g, pg);
			g->st.resident--;
			set_owner(g, g->slot[pg], 1, NIL);
			g->free_slots[g->nfree++] = g->slot[pg];
		} else if ((s & PG_MASK) == PG_SWAPPED) {
			set_owner(g, g->slot[pg], 1, NIL);
			if (n == HP)
				free_huge_slots(g, g->slot[pg]);
			else
				g->free_slots[g->nfree++] = g->slot[pg];
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
	uint32_t pg;

	while (!g->nheap)
		if (!next_phase(g))
			return 0;
	a = &g->actors[g->heap[0]];
	if (a->random) {
		pg = a->base + rand_below(a->rng, a->pages);
	} else {
		pg = a->base + a->cursor;
		if (++a->cursor == a->pages)
			a->cursor = 0;
	}
	touch(g, a, pg);
	a->clock += g->p.exp_time ? think_time(a->rng, g->p.access_ns) : g->p.access_ns;
	if (a->clock > g->tmax)
		g->tmax = a->clock;
	if (--a->left == 0) {
		g->heap[0] = g->heap[--g->nheap];
		heap_down(g, 0);
		if (g->p.workload == SR_GEN_KBUILD) {
			/* The job exits (its memory and swap freed: holes) and
			 * the next one starts in its place. */
			free_region(g, a);
			if (g->next_task < g->p.tasks)
				start(g, g->next_task++, a->clock, g->p.accesses);
		}
		return 1;
	}
	heap_down(g, 0);
	return 1;
}

enum sr_err sr_gen_next(struct sr_gen *g, struct sr_event *evs, size_t cap,
			size_t *n)
{
	size_t k = 0;

	while (k < cap) {
		if (g->pend_i < g->npend) {
			evs[k++] = g->pend[g->pend_i++];
			continue;
		}
		g->npend = g->pend_i = 0;
		if (g->phase == PH_DONE || !step(g))
			break;
	}
	*n = k;
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
	if (p->thp > 0 && p->limit < (uint64_t)HP * SR_PAGE_SIZE)
		return sr_diag_set(d, SR_ERR_INVAL,
				   "with huge pages the limit must hold one: at least %u bytes (2 MiB), not %" PRIu64,
				   HP * SR_PAGE_SIZE, p->limit);
	if (p->workload == SR_GEN_SWAPIN && p->accesses)
		return sr_diag_set(d, SR_ERR_INVAL,
				   "accesses do not apply to swapin (each task writes each of its pages once, then reads each once)");
	return SR_OK;
}

/* Mark the huge pages of task a's region, spread evenly (gen.h). */
static void mark_huge(struct sr_gen *g, const struct actor *a)
{
	uint64_t units = a->pages / HP, h, u;
	uint32_t k;

	h = (uint64_t)(g->p.thp * (double)units + 0.5);
	if (h > units)
		h = units;
	for (u = 0; h && u < units; u++) {
		if ((u + 1) * h / units == u * h / units)
			continue;
		for (k = 0; k < HP; k++)
			g->state[a->base + u * HP + k] = PG_HUGE;
		g->st.thp_pages += HP;
	}
}

static const char *u64_text(uint64_t v, char *buf, size_t size)
{
	snprintf(buf, size, "%" PRIu64 " bytes", v);
	return buf;
}

enum sr_err sr_gen_open(struct sr_gen **out, const struct sr_gen_params *p,
			struct sr_diag *d)
{
	struct sr_gen *g;
	uint64_t ppt, task_pages, limit, push, npages, accesses, steps, rppt = 0;
	uint64_t sm;
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
	g->ppt = (uint32_t)ppt;
	g->npages = (uint32_t)npages;
	g->limit = (uint32_t)limit;
	g->nactors = p->tasks + p->random_tasks + (push ? 1 : 0);
	g->state = calloc(npages, 1);
	g->prev = malloc(npages * sizeof(*g->prev));
	g->next = malloc(npages * sizeof(*g->next));
	g->slot = malloc(npages * sizeof(*g->slot));
	/* Freed base slots: with huge pages, those of base pages swapped out
	 * (at most npages at once, plus a cluster) and of split ones (each
	 * page at most once).  Free clusters: at most one per unit and one. */
	g->free_slots = malloc((p->thp > 0 ? 2 * npages + HP : npages) *
			       sizeof(*g->free_slots));
	g->free_clusters = malloc((npages / HP + 2) * sizeof(*g->free_clusters));
	g->actors = calloc(g->nactors, sizeof(*g->actors));
	g->heap = malloc(g->nactors * sizeof(*g->heap));
	if (p->ra.mode == SR_RA_CLUSTER && p->ra.page_cluster > 0) {
		/* Slots go up to the clusters ever taken, one per 512 pages and
		 * two more. */
		g->nowner = (uint32_t)((npages / HP + 3) * HP);
		g->owner = malloc((size_t)g->nowner * sizeof(*g->owner));
		if (g->owner)
			memset(g->owner, 0xff, (size_t)g->nowner * sizeof(*g->owner));
		g->ra.hits = 4; /* the kernel's swapin_readahead_hits starts at 4 */
	}
	if (!g->state || !g->prev || !g->next || !g->slot || !g->free_slots ||
	    !g->free_clusters || !g->actors || !g->heap || (g->nowner && !g->owner)) {
		sr_gen_free(g);
		return sr_diag_set(d, SR_ERR_NOMEM,
				   "out of memory for %" PRIu64 " simulated pages (%" PRIu64 " MiB)",
				   npages, (npages * 17) >> 20);
	}
	g->lru_head = g->lru_tail = NIL;
	g->st.pages_total = npages;
	g->st.limit_pages = limit;

	sm = p->seed;
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
		a->random = ((p->workload == SR_GEN_SWAP_W_RAND || p->workload == SR_GEN_KBUILD) &&
			     i < p->tasks) || (i >= p->tasks && i < nt);
		for (j = 0; j < 4; j++)
			a->rng[j] = splitmix64(&sm);
		if (i < p->tasks && p->thp > 0)
			mark_huge(g, a);
	}
	if (p->workload == SR_GEN_SWAPIN) {
		g->phase = PH_FILL;
		for (i = 0; i < p->tasks; i++)
			start(g, i, 0, ppt);
	} else if (p->workload == SR_GEN_KBUILD) {
		g->phase = PH_RUN;
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
	free(g->state);
	free(g->prev);
	free(g->next);
	free(g->slot);
	free(g->owner);
	free(g->free_slots);
	free(g->free_clusters);
	free(g->actors);
	free(g->heap);
	free(g);
}
