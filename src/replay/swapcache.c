/* SPDX-License-Identifier: MIT */
/*
 * Readahead and the swap cache as the replay keeps them (docs/MODEL.md,
 * "Readahead and the swap cache"): which recorded slots each policy holds
 * in its swap cache (a bit per policy in the slot cell), the readahead
 * decision for a swap-in (the window is src/mm/swap_state.c's, the walk
 * over it too), and the reclaim of pages read ahead and unused (how long
 * they last is src/mm/vmscan.c's).  The settings and their one-string form
 * (swapreplay/replay.h) are here as well.
 *
 * What it works on is its own: the readahead state of the replay (struct
 * replay_ra: the settings, the map of virtual pages, and what it reads,
 * the kernel, machine and slot map) and of each policy (struct pol_ra),
 * and a policy's decision for the event (struct sr_decision and its
 * bios); only the descriptions for the report, below, take the replay.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "replay/replay_impl.h"

/* What SR_RA_AUTO means for this kernel and machine: VMA readahead (4.14
 * on, ec560175c0b6) unless a rotational device is swapped on (Huang Ying,
 * "mm, swap: Don't use VMA based swap readahead if HDD is used as swap",
 * 4.14: swap_use_vma_readahead(), nr_rotate_swap). */
void sr_replay_ra_resolve(struct replay_ra *ra)
{
	int i;

	ra->mode = ra->opts.mode;
	if (ra->mode == SR_RA_AUTO)
		ra->mode = !ra->kernel->vma_readahead || sr_replay_has_hdd(ra->m) ? SR_RA_CLUSTER : SR_RA_VMA;
	if (ra->opts.page_cluster == 0)
		ra->mode = SR_RA_OFF;
	/* The map of virtual pages only where VMA readahead can read: a
	 * device that is not synchronous (or a kernel before the bypass). */
	ra->vma_map = 0;
	for (i = 0; ra->mode == SR_RA_VMA && i < ra->m->nr_devices; i++)
		if (!sr_swapin_sync(ra->kernel, ra->m->dev[i].cls))
			ra->vma_map = 1;
	ra->active = ra->mode == SR_RA_CLUSTER || ra->vma_map;
	/* The cells' layout follows: sr_replay_slots_setup(). */
	ra->life = ra->opts.memory_pages ? sr_inactive_pages(ra->opts.memory_pages) : 0;
	if (ra->opts.memory_pages && !ra->life)
		ra->life = 1;
}

/* Remember that policy p read ahead the page of key; 0, or -1 out of
 * memory. */
static int raq_push(struct pol_ra *p, uint64_t key, uint32_t gen)
{
	if (p->raq_len == p->raq_cap) {
		size_t n = p->raq_cap ? 2 * p->raq_cap : 1024, i;
		struct ra_ent *q = malloc(n * sizeof(*q));

		if (!q)
			return -1;
		for (i = 0; i < p->raq_len; i++)
			q[i] = p->raq[(p->raq_head + i) % p->raq_cap];
		free(p->raq);
		p->raq = q;
		p->raq_cap = n;
		p->raq_head = 0;
	}
	p->raq[(p->raq_head + p->raq_len) % p->raq_cap] = (struct ra_ent){ key, p->ra_clock, gen };
	p->raq_len++;
	return 0;
}

/* Policy p (bit k) swapped n pages out: reclaim's clock moves, and the
 * pages it read ahead longer ago than the inactive list lasts, and never
 * used, are reclaimed from its swap cache. */
void sr_replay_ra_reclaim(const struct replay_ra *ra, struct pol *p, int k, uint32_t n)
{
	const uint32_t bit = 1u << k;

	p->ra.ra_clock += n;
	while (p->ra.raq_len && p->ra.raq[p->ra.raq_head].at + ra->life <= p->ra.ra_clock) {
		struct slot_chunk *ch;
		struct slot_cell *c = sr_slotmap_cell(ra->slots, p->ra.raq[p->ra.raq_head].key, 0, &ch);

		/* Unless it was used, and its slot holds another page now. */
		if (c && c->nr_pages && c->gen == p->ra.raq[p->ra.raq_head].gen && (c->cached & bit)) {
			c->cached &= ~bit;
			p->res.readahead_dropped++;
		}
		p->ra.raq_head = (p->ra.raq_head + 1) % p->ra.raq_cap;
		p->ra.raq_len--;
	}
}

int sr_replay_readahead_active(const struct sr_replay *r)
{
	return r->ra.mode == SR_RA_CLUSTER || (r->ra.mode == SR_RA_VMA && r->ra.ins_vaddr);
}

const char *sr_replay_readahead_describe(const struct sr_replay *r, char *buf, size_t n)
{
	char mem[96] = "; pages read ahead kept until used (no --memory)";

	if (r->ra.life)
		snprintf(mem, sizeof(mem), "; unused pages read ahead reclaimed after %" PRIu64
			 " pages (the inactive list)", r->ra.life);
	if (r->ra.mode == SR_RA_CLUSTER)
		snprintf(buf, n, "cluster (by swap offset), page-cluster %u, %s window, %s holes%s%s",
			 r->ra.opts.page_cluster, r->ra.opts.fixed_window ? "fixed" : "adaptive",
			 r->ra.opts.holes_stop ? "stopping at" : "skipping",
			 r->kernel.sync_no_ra ? "; none on pmem and zram (synchronous devices)" : "",
			 mem);
	else if (r->ra.mode == SR_RA_VMA && r->ra.ins_vaddr) {
		char miss[96] = "";

		if (r->ra.ins_vaddr < r->ra.ins)
			snprintf(miss, sizeof(miss), "; %" PRIu64 " of %" PRIu64 " swap-ins had no "
				 "address and read nothing ahead", r->ra.ins - r->ra.ins_vaddr, r->ra.ins);
		snprintf(buf, n, "vma (by virtual address), page-cluster %u (windows of at most %u "
			 "pages)%s%s%s", r->ra.opts.page_cluster,
			 1u << (r->ra.opts.page_cluster < 5 ? r->ra.opts.page_cluster : 5),
			 r->kernel.sync_no_ra ? "; none on pmem and zram (synchronous devices)" : "",
			 mem, miss);
	}
	else if (r->ra.mode == SR_RA_VMA)
		snprintf(buf, n, "vma (by virtual address): none, the trace's swap-ins have no "
			 "address (vaddr)");
	else if (r->ra.opts.mode == SR_RA_OFF)
		snprintf(buf, n, "off");
	else
		snprintf(buf, n, "off (page-cluster 0)");
	return buf;
}

const char *sr_replay_readahead_caveat(const struct sr_replay *r, char *buf, size_t n)
{
	if (r->ra.mode != SR_RA_VMA || r->ra.ins_vaddr == r->ra.ins)
		return NULL;
	if (!r->ra.ins_vaddr)
		snprintf(buf, n, "VMA readahead follows virtual addresses, and the trace's swap-ins "
			 "have none (vaddr): nothing was read ahead, every swap-in read its page "
			 "alone");
	else
		snprintf(buf, n, "VMA readahead follows virtual addresses: %" PRIu64 " of %" PRIu64
			 " swap-ins had none (vaddr) and read their page alone",
			 r->ra.ins - r->ra.ins_vaddr, r->ra.ins);
	return buf;
}

/*
 * Readahead's decision for policy k's swap-in e of the page in cell sc
 * (key, on device dv): a page the policy read ahead is found in its swap
 * cache (dec->ra_hit); else the window around the page's slot on that
 * device (src/mm/swap_state.c; the slot is the policy's, slots.c) reads,
 * with the page, every other page of the window in swap there and not
 * cached yet, as one request from dec->ra_lo of dec->ra_n pages (the bios in bio[]).  Only
 * order-0 pages are read ahead.  Synchronous devices (pmem, zram) skip the
 * swap cache and readahead from 4.15 (0bcac06f27d7, aa8d22a11da9).
 */
/* sr_ra_span()'s question for policy k's readahead on device dv: does
 * slot o hold a page to read? */
struct ra_ctx {
	struct replay_ra *ra;
	const struct pol *p;
	int k, dv;
};

static struct slot_cell *ra_cell(struct ra_ctx *c, uint64_t o, uint64_t *key)
{
	struct slot_chunk *ch;
	struct slot_cell *c2;

	*key = sr_replay_slot_owner(c->p, c->dv, o);
	if (*key == UINT64_MAX)
		return NULL;
	c2 = sr_slotmap_cell(c->ra->slots, *key, 0, &ch);
	if (!c2 || c2->nr_pages != 1 || c2->dev[c->k] != c->dv ||
	    sr_slotmap_off(c->ra->slots, c2, c->k) != o)
		return NULL;
	return c2;
}

static int ra_can(void *ctx, uint64_t o)
{
	struct ra_ctx *c = ctx;
	uint64_t key;
	const struct slot_cell *c2 = ra_cell(c, o, &key);

	/* A page zswap holds for this policy is not read from the device
	 * (docs/MODEL.md, "zswap": left in the pool until its own fault). */
	return c2 && !((c2->cached | sr_slotmap_zs(c->ra->slots, c2)) & (1u << c->k));
}

/* The virtual pages of one 2 MiB: the cell key + 1 of each page in swap. */
struct pte_chunk {
	uint32_t live;
	uint64_t key[512];
};

int sr_replay_pte_setup(struct replay_ra *ra)
{
	if (!ra->vma_map) {
		free(ra->pte_cache);
		ra->pte_cache = NULL;
	} else if (!ra->pte_cache) {
		ra->pte_cache = calloc(SR_PTE_CACHE, sizeof(*ra->pte_cache));
		if (!ra->pte_cache)
			return -1;
	}
	return 0;
}

static inline size_t pte_cache_at(uint64_t region)
{
	return (size_t)(region ^ (region >> 8)) & (SR_PTE_CACHE - 1);
}

/* The table c of 2 MiB region, in the cache. */
static inline void pte_cache_put(struct replay_ra *ra, uint64_t region, struct pte_chunk *c)
{
	size_t h = pte_cache_at(region);

	ra->pte_cache[h].region = region;
	ra->pte_cache[h].c = c;
}

/* The table of vpn's 2 MiB, or NULL: from the cache, else from the map
 * (and then cached). */
static struct pte_chunk *pte_chunk(struct replay_ra *ra, uint64_t vpn)
{
	uint64_t region = vpn >> 9;
	size_t h = pte_cache_at(region);
	const uint64_t *v;
	struct pte_chunk *c;

	if (SR_LIKELY(ra->pte_cache[h].c && ra->pte_cache[h].region == region))
		return ra->pte_cache[h].c;
	v = sr_u64map_get(&ra->pte, region);
	if (!v)
		return NULL;
	c = (struct pte_chunk *)(uintptr_t)*v;
	pte_cache_put(ra, region, c);
	return c;
}

void sr_replay_pte_prefetch(struct replay_ra *ra, const struct sr_event *e)
{
	const struct pte_chunk *c;

	if (!(e->flags & SR_EV_HAS_VADDR) || e->nr_pages != 1)
		return;
	c = pte_chunk(ra, e->vaddr >> 12);
	if (c)
		__builtin_prefetch(&c->key[(e->vaddr >> 12) & 511], 1);
}

int sr_replay_pte_set(struct replay_ra *ra, const struct sr_event *e, uint64_t key,
		      struct slot_cell *sc)
{
	uint64_t vpn = e->vaddr >> 12, *v;
	struct pte_chunk *c;

	if (e->nr_pages != 1)
		return 0;
	c = pte_chunk(ra, vpn);
	if (!c) {
		/* A 2 MiB the map does not have: its table, made. */
		v = sr_u64map_put(&ra->pte, vpn >> 9, NULL);
		if (!v)
			return -1;
		c = calloc(1, sizeof(*c));
		if (!c) {
			sr_u64map_del(&ra->pte, vpn >> 9);
			return -1;
		}
		*v = (uint64_t)(uintptr_t)c;
		pte_cache_put(ra, vpn >> 9, c);
	}
	c->live += !c->key[vpn & 511];
	c->key[vpn & 511] = key + 1;
	memcpy(sr_slotmap_extra(ra->slots, sc), &(uint64_t){ vpn + 1 }, sizeof(uint64_t));
	return 0;
}

void sr_replay_pte_clear(struct replay_ra *ra, uint64_t key, struct slot_cell *sc)
{
	uint64_t vpn1, *x = sr_slotmap_extra(ra->slots, sc);
	struct pte_chunk *c;

	memcpy(&vpn1, x, sizeof(vpn1));
	if (!vpn1)
		return;
	*x = 0;
	c = pte_chunk(ra, vpn1 - 1);
	if (!c || c->key[(vpn1 - 1) & 511] != key + 1)
		return;
	c->key[(vpn1 - 1) & 511] = 0;
	if (!--c->live) {
		size_t h = pte_cache_at((vpn1 - 1) >> 9);

		if (ra->pte_cache[h].c == c)
			ra->pte_cache[h].c = NULL;
		sr_u64map_del(&ra->pte, (vpn1 - 1) >> 9);
		free(c);
	}
}

/* Task ti's VMA readahead state under policy p. */
static void vra_get(const struct pol_ra *p, long ti, struct sr_vma_ra *w)
{
	const struct vra_ent *v = &p->vra[ti];

	if (!v->set) {
		sr_vma_ra_init(w);
		return;
	}
	w->prev_vpn = v->v >> 14;
	w->win = (uint8_t)((v->v >> 6) & 0xff);
	w->hits = (uint8_t)(v->v & 63);
}

static void vra_put(struct pol_ra *p, long ti, const struct sr_vma_ra *w)
{
	p->vra[ti].v = w->prev_vpn << 14 | (uint64_t)w->win << 6 | w->hits;
	p->vra[ti].set = 1;
}

void sr_replay_bios_set(struct sr_decision *dec, const uint64_t *bio, uint32_t nb)
{
	uint64_t sig = nb;
	uint32_t i;

	for (i = 0; i < nb; i++)
		sig = (sig ^ bio[i]) * 0x100000001b3ull;
	dec->ra_nbio = nb;
	dec->ra_sig = sig;
}

/* VMA readahead (src/mm/swap_state.c): the window of virtual pages around
 * the fault; every page of it the trace swapped out (the map of virtual
 * pages), not yet read and not cached, that policy k put on the fault's
 * device dv is read with the fault.  The kernel reads those on other
 * devices too; here they are not read ahead (one request per fault). */
static int vma_readahead(struct replay_ra *ra, struct pol *p, int k, struct sr_decision *dec,
			 uint64_t *bio, const struct sr_event *e, long ti, int dv)
{
	const uint32_t bit = 1u << k;
	uint64_t vpn = e->vaddr >> 12, lo, hi, x, first = dec->off;
	const struct pte_chunk *pc;
	struct sr_vma_ra w;
	uint32_t n = 0, nb = 0;

	vra_get(&p->ra, ti, &w);
	sr_vma_ra_window(&w, vpn, ra->opts.page_cluster, &lo, &hi);
	vra_put(&p->ra, ti, &w);
	/* The window is within one 2 MiB: one table. */
	pc = pte_chunk(ra, vpn);
	for (x = lo; pc && x < hi; x++) {
		uint64_t ck = pc->key[x & 511];
		struct slot_chunk *ch;
		struct slot_cell *c2;

		if (x == vpn) {
			/* The fault's own read, in its place in the walk. */
			if (nb < SR_RA_BIO_MAX)
				bio[nb++] = first;
			continue;
		}
		if (!ck--)
			continue;
		c2 = sr_slotmap_cell(ra->slots, ck, 0, &ch);
		if (!c2 || c2->nr_pages != 1 || c2->dev[k] != dv ||
		    ((c2->cached | sr_slotmap_zs(ra->slots, c2)) & bit))
			continue;
		c2->cached |= bit;
		n++;
		if (nb < SR_RA_BIO_MAX)
			bio[nb++] = sr_slotmap_off(ra->slots, c2, k) < SR_SLOT_NONE ?
				    sr_slotmap_off(ra->slots, c2, k) : UINT64_MAX;
		if (ra->life && raq_push(&p->ra, ck, c2->gen))
			return -1;
	}
	dec->ra_n = n;
	dec->ra_lo = first == UINT64_MAX ? 0 : first;
	sr_replay_bios_set(dec, bio, n ? nb : 0);
	p->res.readahead_pages += n;
	return 0;
}

int sr_replay_readahead(struct replay_ra *ra, struct pol *p, int k, struct sr_decision *dec,
			uint64_t *bio, const struct sr_event *e, long ti, struct slot_cell *sc,
			int dv)
{
	const uint32_t bit = 1u << k;
	uint64_t off = dec->off, first = off;
	uint64_t offs[(1u << SR_RA_MAX_PAGE_CLUSTER) - 1];
	struct ra_ctx ctx;
	uint32_t n = 0, i;
	unsigned win;

	dec->ra_hit = 0;
	dec->ra_n = 0;
	dec->ra_lo = 0;
	dec->ra_nbio = 0;
	dec->ra_sig = 0;
	if (ra->mode < SR_RA_CLUSTER || !sc || dv < 0)
		return 0;
	if (sc->cached & bit) {
		sc->cached &= ~bit;
		dec->ra_hit = 1;
		p->res.swapcache_hits++;
		if (ra->mode == SR_RA_CLUSTER) {
			p->mm.ra.hits++;
		} else if (e->flags & SR_EV_HAS_VADDR) {
			struct sr_vma_ra w;

			vra_get(&p->ra, ti, &w);
			sr_vma_ra_hit(&w, e->vaddr >> 12, 1);
			vra_put(&p->ra, ti, &w);
		}
		return 0;
	}
	if (e->nr_pages != 1 || sc->nr_pages != 1 ||
	    sr_swapin_sync(ra->kernel, ra->m->dev[dv].cls))
		return 0;
	if (ra->mode == SR_RA_VMA)
		return (e->flags & SR_EV_HAS_VADDR) ? vma_readahead(ra, p, k, dec, bio, e, ti, dv) : 0;
	if (off == UINT64_MAX)
		return 0;
	win = sr_ra_window(&p->mm.ra, off, ra->opts.page_cluster, ra->opts.fixed_window);
	ctx.ra = ra;
	ctx.p = p;
	ctx.k = k;
	ctx.dv = dv;
	n = sr_ra_span(off, win, ra->opts.holes_stop, ra_can, &ctx, offs);
	if (n) {
		/* The bios in the kernel's order: up the window, the fault's
		 * in its place (swap_cluster_readahead()). */
		uint32_t nb = 0;

		for (i = 0; i < n && offs[i] < off; i++)
			bio[nb++] = offs[i];
		bio[nb++] = off;
		for (; i < n; i++)
			bio[nb++] = offs[i];
		sr_replay_bios_set(dec, bio, nb);
	}
	for (i = 0; i < n; i++) {
		uint64_t ck;
		struct slot_cell *c2 = ra_cell(&ctx, offs[i], &ck);

		c2->cached |= bit;
		if (offs[i] < first)
			first = offs[i];
		if (ra->life && raq_push(&p->ra, ck, c2->gen))
			return -1;
	}
	dec->ra_n = n;
	dec->ra_lo = first;
	p->res.readahead_pages += n;
	return 0;
}
