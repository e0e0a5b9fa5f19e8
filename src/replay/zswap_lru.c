/* SPDX-License-Identifier: MIT */
/*
 * zswap's entries, per policy: which recorded pages its pool holds (a bit
 * per policy in their slot cells, sr_slotmap_zs()) and in which order
 * its shrink worker writes them back; src/mm/zswap.c decides what the pool
 * takes (docs/MODEL.md, "zswap", Zs1-Zs5).
 *
 * The shrink worker's order (Zs4): before 6.8 one LRU of the pool's
 * entries, oldest first (6.6's zswap_reclaim_entry() takes the tail of
 * pool->lru; an entry is added at its store); from 6.8 (memcg-aware
 * shrinking) a list_lru per memory cgroup, and shrink_worker() visits the
 * memcgs round robin (mem_cgroup_iter() from the last one visited),
 * writing back one entry of each per visit (shrink_memcg(): a walk of 1 per
 * node; the nodes are taken as one here).  The memcgs are visited in the
 * order they first stored a page (the kernel's is the hierarchy's
 * pre-order, which the trace does not give).  The worker goes on until
 * the pool is below its accept threshold (sr_zswap_over()).  It is decided
 * here, at the store that found the pool full, all at once; the worker's
 * writes are played by the simulation on the worker's own time
 * (replay.c's zs_writeback()).  So the stores the kernel refuses while the
 * worker runs are taken here: the pool is back under its threshold when
 * the worker's batch is decided, not when it is written (docs/MODEL.md
 * says what this leaves out).
 *
 * A page without a recorded slot (an event without an offset) is not
 * offered to zswap: its swap-in could not be matched to it.
 */
#include <stdlib.h>
#include <string.h>

#include "replay/replay_impl.h"

void sr_replay_zswap_init(struct sr_replay *r, struct pol *p)
{
	memset(&p->zs, 0, sizeof(p->zs));
	sr_u64map_init(&p->zs.lru_ix);
	if (r->m->zswap.enabled)
		sr_zswap_pool_init(&p->zs.pool, &r->m->zswap);
}

void sr_replay_zswap_free(struct pol *p)
{
	size_t i;

	for (i = 0; i < p->zs.nlru; i++)
		free(p->zs.lru[i].q);
	free(p->zs.lru);
	sr_u64map_free(&p->zs.lru_ix);
	p->zs.lru = NULL;
	p->zs.nlru = 0;
}

/* The LRU of memcg (the one LRU before 6.8); NULL out of memory. */
static struct zs_lru *lru_of(struct sr_replay *r, struct pol_zs *z, uint32_t memcg)
{
	uint64_t *ix;
	uint64_t id = r->kernel.zswap_memcg_lru ? memcg : 0;

	ix = sr_u64map_get(&z->lru_ix, id);
	if (ix)
		return &z->lru[*ix - 1];
	if (z->nlru == z->caplru) {
		size_t cap = z->caplru ? 2 * z->caplru : 4;
		struct zs_lru *n = realloc(z->lru, cap * sizeof(*n));

		if (!n)
			return NULL;
		z->lru = n;
		z->caplru = cap;
	}
	ix = sr_u64map_put(&z->lru_ix, id, NULL);
	if (!ix)
		return NULL;
	*ix = z->nlru + 1;
	memset(&z->lru[z->nlru], 0, sizeof(z->lru[0]));
	return &z->lru[z->nlru++];
}

/* Entry en of policy k's LRU, its cell (*c) when it still holds a page
 * in the pool, else NULL: its page was read, or its slot reused, since
 * (entries are left in the LRU then, and skipped). */
static struct slot_cell *live(struct sr_replay *r, int k, struct zs_ent en)
{
	struct slot_chunk *ch;
	struct slot_cell *c = sr_slotmap_cell(&r->slots, en.key, 0, &ch);

	if (!c || !c->nr_pages || c->gen != en.gen || !(sr_slotmap_zs(&r->slots, c) & (1u << k)) ||
	    c->dev[k] < 0)
		return NULL;
	return c;
}

/* Policy k's LRU l gets the entry of the cell key (gen) at its tail.  A
 * full ring drops its stale entries first and grows only when over half
 * of them are live: without it, a pool that never fills would keep an
 * entry for every store of the trace.  0, or -1 out of memory. */
static int lru_push(struct sr_replay *r, int k, struct zs_lru *l, uint64_t key, uint32_t gen)
{
	int grow = !l->cap;

	if (l->cap && l->len == l->cap) {
		size_t i, w = 0;

		for (i = 0; i < l->len; i++) {
			struct zs_ent en = l->q[(l->head + i) % l->cap];

			if (live(r, k, en))
				l->q[(l->head + w++) % l->cap] = en;
		}
		l->len = w;
		grow = w > l->cap / 2;
	}
	if (grow) {
		size_t cap = l->cap ? 2 * l->cap : 64, i;
		struct zs_ent *n = malloc(cap * sizeof(*n));

		if (!n)
			return -1;
		for (i = 0; i < l->len; i++)
			n[i] = l->q[(l->head + i) % l->cap];
		free(l->q);
		l->q = n;
		l->head = 0;
		l->cap = cap;
	}
	l->q[(l->head + l->len) % l->cap] = (struct zs_ent){ key, gen };
	l->len++;
	return 0;
}

/* The bytes cell c's pages not yet read hold in policy k's pool. */
static double cell_bytes(const struct sr_replay *r, const struct slot_cell *c)
{
	return (double)c->left *
	       sr_zswap_page_bytes(&r->m->zswap, &r->kernel, sr_zswap_kind(&r->m->zswap, c->gen));
}

/*
 * (Zs4) The shrink worker of policy p (k): the oldest live entry of the
 * next LRU in turn written back, until the pool is below its accept
 * threshold or holds nothing to write; the pages each device gets, in
 * pages[] (by device).
 */
static void shrink(struct sr_replay *r, struct pol *p, int k, uint64_t *pages)
{
	struct pol_zs *z = &p->zs;
	const uint32_t bit = 1u << k;
	size_t empty = 0;

	while (sr_zswap_over(&z->pool) && z->nlru && empty < z->nlru) {
		struct zs_lru *l = &z->lru[z->rr % z->nlru];
		int found = 0;

		z->rr = (z->rr + 1) % z->nlru;
		while (l->len && !found) {
			struct slot_cell *c = live(r, k, l->q[l->head]);

			l->head = (l->head + 1) % l->cap;
			l->len--;
			if (!c)
				continue;
			sr_zswap_release(&z->pool, cell_bytes(r, c));
			z->pool.written_back += c->left;
			pages[c->dev[k]] += c->left;
			sr_slotmap_set_zs(&r->slots, c, sr_slotmap_zs(&r->slots, c) & ~bit);
			found = 1;
		}
		/* Round robin: an LRU with nothing left is passed; the
		 * worker stops when every one is empty. */
		empty = found ? 0 : empty + 1;
	}
}

int sr_replay_zswap_out(struct sr_replay *r, struct pol *p, int k, const struct sr_event *e,
			struct slot_cell *sc, uint64_t key, struct sr_decision *dec, uint64_t *wb)
{
	const struct sr_zswap *zc = &r->m->zswap;
	enum sr_zs_kind kind;
	enum sr_zs_out o;
	int sh;

	dec->zs = SR_ZS_NONE;
	sr_replay_bios_set(dec, wb, 0);
	if (!sc || dec->dv < 0)
		return 0;
	kind = sr_zswap_kind(zc, sc->gen);
	o = sr_zswap_store(&p->zs.pool, zc, &r->kernel, kind, e->nr_pages, &sh);
	dec->zs = (uint8_t)o;
	if (o == SR_ZS_STORED || o == SR_ZS_WHOLE || o == SR_ZS_ZERO) {
		sr_slotmap_set_zs(&r->slots, sc, sr_slotmap_zs(&r->slots, sc) | 1u << k);
		/* An entry of no bytes (a zero page) is on no LRU: 6.6 puts
		 * only entries with a length there, and the zeromap is no
		 * entry. */
		if (o != SR_ZS_ZERO) {
			struct zs_lru *l = lru_of(r, &p->zs, e->memcg);

			if (!l || lru_push(r, k, l, key, sc->gen))
				return -1;
		}
	}
	if (sh) {
		uint64_t pages[SR_MACHINE_MAX_DEVICES] = { 0 };
		uint32_t n = 0;
		int d;

		shrink(r, p, k, pages);
		for (d = 0; d < r->m->nr_devices; d++)
			if (pages[d])
				wb[n++] = (uint64_t)d << 32 | pages[d];
		sr_replay_bios_set(dec, wb, n);
	}
	return 0;
}

void sr_replay_zswap_in(struct sr_replay *r, struct pol *p, int k, const struct sr_event *e,
			struct slot_cell *sc, struct sr_decision *dec, uint64_t *bio)
{
	const struct sr_zswap *zc = &r->m->zswap;
	const uint32_t bit = 1u << k;
	enum sr_zs_kind kind;
	uint32_t n, i, j;

	dec->zs = SR_ZS_NONE;
	/* Without readahead its decision is not made again for a swap-in:
	 * a swap-out's writebacks must not stand for its bios. */
	if (!r->ra.active)
		sr_replay_bios_set(dec, bio, 0);
	if (!sc || !(sr_slotmap_zs(&r->slots, sc) & bit) || dec->dv < 0 || dec->ra_hit)
		return;
	kind = sr_zswap_kind(zc, sc->gen);
	n = e->nr_pages < sc->left ? e->nr_pages : sc->left;
	/* (Zs3) zswap_load(): the entry leaves the pool (exclusive loads:
	 * the page is dirty in the swap cache now). */
	sr_zswap_release(&p->zs.pool, (double)n * sr_zswap_page_bytes(zc, &r->kernel, kind));
	p->zs.pool.loads += n;
	if (sc->left <= e->nr_pages)
		sr_slotmap_set_zs(&r->slots, sc, sr_slotmap_zs(&r->slots, sc) & ~bit);
	dec->zs = kind == SR_ZS_ZERO_PAGE ? SR_ZS_LOAD_ZERO :
		  kind == SR_ZS_POOR_PAGE ? SR_ZS_LOAD_WHOLE : SR_ZS_LOAD;
	/* Readahead still reads the window around it; the fault's own slot
	 * is not read from the device. */
	for (i = 0; i < dec->ra_nbio && bio[i] != dec->off; i++)
		;
	if (i < dec->ra_nbio) {
		for (j = i + 1; j < dec->ra_nbio; j++)
			bio[j - 1] = bio[j];
		sr_replay_bios_set(dec, bio, dec->ra_nbio - 1);
	}
}

void sr_replay_zswap_drop(struct sr_replay *r, struct slot_cell *sc)
{
	uint32_t zs = sr_slotmap_zs(&r->slots, sc);
	int k;

	if (!zs)
		return;
	for (k = 0; k < r->np; k++)
		if (zs & (1u << k))
			sr_zswap_release(&r->pol[k].zs.pool, cell_bytes(r, sc));
	sr_slotmap_set_zs(&r->slots, sc, 0);
}
