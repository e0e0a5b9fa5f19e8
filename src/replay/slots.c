/* SPDX-License-Identifier: MIT */
/*
 * Each policy's slots for the recorded ones (docs/MODEL.md, "Slots"): a
 * recorded swap-out gets, under each policy, the slots its kernel's
 * allocator gives on the device the policy chose (src/mm/swapfile.c), kept
 * in the slot cell; a swap-in frees the slots of the pages it reads.  Kept
 * aside: the slots of a folio split into its pages (per policy), which
 * pages of a large folio were read already (for all policies: that is the
 * trace's), and with cluster readahead, which recorded slot sits in each
 * device slot (readahead walks device slots).
 */
#include <stdlib.h>
#include <string.h>

#include "replay/replay_impl.h"
#include "common/diag.h"

#define OFF_MASK ((1ull << 48) - 1)

static uint32_t *split_of(const struct pol *p, uint64_t key)
{
	const uint64_t *v = sr_u64map_get(&p->split, key);

	return v ? (uint32_t *)(uintptr_t)*v : NULL;
}

/* The device slot of page i of the folio whose first slot is off. */
static inline uint32_t page_slot(const struct pol *p, uint64_t key, uint32_t off, uint32_t i)
{
	const uint32_t *s;

	if (off == SR_SLOT_NONE)
		return SR_SLOT_NONE;
	if (off != SR_SLOT_SPLIT)
		return off + i;
	s = split_of(p, key);
	return s ? s[i] : SR_SLOT_SPLIT;
}

int sr_replay_slot_out(struct sr_replay *r, struct pol *p, int k, const struct sr_event *e,
		       struct slot_cell *sc, uint64_t key, int dv)
{
	struct sr_mm *mm = &p->mm;

	r->dec[k].off = UINT64_MAX;
	if (dv < 0) {
		if (sc)
			sc->dev[k] = -1;
		return 0;
	}
	r->dec[k].off = mm->ev_off == SR_SLOT_SPLIT ? mm->split_off[0] :
		      mm->ev_off == SR_SLOT_NONE ? UINT64_MAX : mm->ev_off;
	if (!sc) {
		/* Cannot be matched: not kept. */
		sr_mm_free_slots(mm, dv, mm->ev_off, mm->split_off, e->nr_pages);
		return 0;
	}
	sc->dev[k] = (int16_t)dv;
	sr_slotmap_set_off(&r->slots, sc, k, mm->ev_off);
	if (mm->ev_off == SR_SLOT_SPLIT) {
		uint32_t *s = malloc(e->nr_pages * sizeof(*s));
		uint64_t *v = s ? sr_u64map_put(&p->split, key, NULL) : NULL;

		if (!v) {
			free(s);
			return -1;
		}
		memcpy(s, mm->split_off, e->nr_pages * sizeof(*s));
		free((void *)(uintptr_t)*v);
		*v = (uint64_t)(uintptr_t)s;
	}
	/* (A page without a position is in no slot readahead reads.) */
	if (r->ra.mode == SR_RA_CLUSTER && e->nr_pages == 1 && mm->ev_off < SR_SLOT_NONE &&
	    sr_revmap_put(&p->rev, dv, mm->ev_off, key))
		return -1;
	return 0;
}

/* Free under policy k the slots of pages [i, i + n) of the folio in sc
 * (key), but those the mask `was` (NULL: none) says were read before. */
static void free_pages(struct sr_replay *r, int k, struct slot_cell *sc, uint64_t key,
		       uint32_t i, uint32_t n, const uint64_t *was)
{
	struct pol *p = &r->pol[k];
	int dev = sc->dev[k];
	uint32_t j, off = sr_slotmap_off(&r->slots, sc, k);

	if (dev < 0)
		return;
	if (sc->nr_pages == 1 && r->ra.mode == SR_RA_CLUSTER)
		sr_revmap_del(&p->rev, dev, off);
	if (off == SR_SLOT_NONE) {
		/* Counted only: the pages not read before. */
		for (j = i; was && j < i + n; j++)
			n -= (uint32_t)((was[j / 64] >> (j % 64)) & 1);
		sr_mm_put(&p->mm, dev, n);
		return;
	}
	if (!was && off != SR_SLOT_SPLIT) {
		sr_mm_free_slots(&p->mm, dev, off + i, NULL, n);
		return;
	}
	for (j = i; j < i + n; j++) {
		uint32_t s;

		if (was && ((was[j / 64] >> (j % 64)) & 1))
			continue;
		s = page_slot(p, key, off, j);
		if (s != SR_SLOT_SPLIT && s != SR_SLOT_NONE)
			sr_mm_free_slots(&p->mm, dev, s, NULL, 1);
		else
			sr_mm_put(&p->mm, dev, 1);
	}
}

/* Drop what is kept aside for the folio in sc (key). */
static void forget_aside(struct sr_replay *r, struct slot_cell *sc, uint64_t key)
{
	uint64_t *v;
	int k;

	if (sc->nr_pages == 1)
		return;
	for (k = 0; k < r->np; k++) {
		if (sr_slotmap_off(&r->slots, sc, k) != SR_SLOT_SPLIT || sc->dev[k] < 0)
			continue;
		v = sr_u64map_get(&r->pol[k].split, key);
		if (v) {
			free((void *)(uintptr_t)*v);
			sr_u64map_del(&r->pol[k].split, key);
		}
	}
	v = sr_u64map_get(&r->partial, key);
	if (v) {
		free((void *)(uintptr_t)*v);
		sr_u64map_del(&r->partial, key);
	}
}

void sr_replay_slot_release(struct sr_replay *r, struct slot_cell *sc, uint64_t key)
{
	const uint64_t *v = sc->nr_pages > 1 ? sr_u64map_get(&r->partial, key) : NULL;
	const uint64_t *was = v ? (const uint64_t *)(uintptr_t)*v : NULL;
	int k;

	for (k = 0; k < r->np; k++) {
		/* A slot kept (K1), taken for another page by the recording's
		 * own reclaim of it. */
		if (sc->nr_pages == 1 && !sc->left && sc->dev[k] >= 0 && r->pol[k].kept_n)
			r->pol[k].kept_n--;
		free_pages(r, k, sc, key, 0, sc->nr_pages, was);
	}
	forget_aside(r, sc, key);
}

/* (K1) Whether policy p keeps the slot on dev of swap-in e (kept: a
 * read fault with its virtual address, found by the replay: without one,
 * the page's next swap-out could not be told, and its slot is freed as
 * the replay did before the fault was recorded). */
static inline int keeps(const struct sr_replay *r, const struct pol *p, int dev,
			const struct sr_event *e)
{
	return (e->flags & SR_EV_HAS_VADDR) && sr_swapin_keeps_slot(&p->mm, &r->kernel, dev, e->flags);
}

/* sr_replay_slot_in() for the common case: an order-0 page.  A cell with
 * no page left to read is one whose slot some policy kept (K1): its page,
 * reclaimed clean since, is read again. */
static void slot_in_page(struct sr_replay *r, const struct sr_event *e, struct slot_cell *sc)
{
	const int again = !sc->left;
	const int read = (e->flags & (SR_EV_HAS_FAULT | SR_EV_WRITE_FAULT)) == SR_EV_HAS_FAULT;
	int k;

	r->in_page = 0;
	r->in_kept = read && (e->flags & SR_EV_HAS_VADDR);
	r->in_again = again;
	for (k = 0; k < r->np; k++) {
		struct pol *p = &r->pol[k];
		int dev = sc->dev[k];
		uint32_t off = sr_slotmap_off(&r->slots, sc, k);

		r->dec[k].off = UINT64_MAX;
		r->dec[k].kept = 0;
		if (dev < 0)
			continue;
		if (off < SR_SLOT_NONE)
			r->dec[k].off = off;
		if (r->slots.off_at && off < SR_SLOT_NONE && r->ra.mode == SR_RA_CLUSTER)
			sr_revmap_del(&p->rev, dev, off);
		if (SR_UNLIKELY(read) && keeps(r, p, dev, e)) {
			/* In the swap cache still: not free, not read ahead. */
			r->dec[k].kept = 1;
			p->res.slots_kept++;
			p->kept_n += !again;
			continue;
		}
		p->kept_n -= again && p->kept_n;
		if (!r->slots.off_at || off == SR_SLOT_NONE)
			sr_mm_put(&p->mm, dev, 1);
		else
			sr_mm_free_slots(&p->mm, dev, off, NULL, 1);
	}
}

int sr_replay_slot_in(struct sr_replay *r, const struct sr_event *e, struct slot_cell *sc,
		      uint64_t key)
{
	uint32_t i = (uint32_t)((e->offset & OFF_MASK) - (key & OFF_MASK)), n = e->nr_pages, j;
	uint64_t was[8], *mask = NULL;
	int k, any = 0;

	if (SR_LIKELY(sc->nr_pages == 1)) {
		slot_in_page(r, e, sc);
		return 0;
	}
	r->in_kept = r->in_again = 0;
	if (i >= sc->nr_pages)
		return 0;
	if (n > sc->nr_pages - i)
		n = sc->nr_pages - i;
	r->in_page = i;
	if (sc->nr_pages > 1 && n < sc->nr_pages) {
		/* Part of a large folio: which pages were read already. */
		int added = 0;
		uint64_t *v = sr_u64map_put(&r->partial, key, &added);

		if (!v)
			return -1;
		if (added) {
			*v = (uint64_t)(uintptr_t)calloc(8, sizeof(uint64_t));
			if (!*v) {
				sr_u64map_del(&r->partial, key);
				return -1;
			}
		}
		mask = (uint64_t *)(uintptr_t)*v;
		memcpy(was, mask, sizeof(was));
		for (j = i; j < i + n; j++) {
			any |= (int)((was[j / 64] >> (j % 64)) & 1);
			mask[j / 64] |= 1ull << (j % 64);
		}
	}
	for (k = 0; k < r->np; k++) {
		struct pol *p = &r->pol[k];

		uint32_t at = sc->dev[k] < 0 ? SR_SLOT_NONE :
			      page_slot(p, key, sr_slotmap_off(&r->slots, sc, k), i);

		r->dec[k].off = at == SR_SLOT_NONE || at == SR_SLOT_SPLIT ? UINT64_MAX : at;
		r->dec[k].kept = 0;
		free_pages(r, k, sc, key, i, n, mask && any ? was : NULL);
	}
	return 0;
}

/* ---- (K1) the slots read faults keep ------------------------------------ */

/* The page of event e, for the index of kept slots: its virtual page.  Not
 * its pid: a swap-out's is the reclaiming task's (kswapd's, or another
 * task's direct reclaim), not the page's owner's (traces/FORMAT.md).  Two
 * processes' pages at one address are then one page here: the swap-out
 * of either frees what the other's read fault kept, a slot freed early. */
static inline uint64_t kept_page(const struct sr_event *e)
{
	uint64_t id = e->vaddr >> 12;

	return id == SR_U64MAP_EMPTY ? id - 1 : id;
}

/* The cell of kept entry q if it is still the one kept, else NULL. */
static struct slot_cell *kept_cell(struct sr_replay *r, const struct kept_ent *q,
				   struct slot_chunk **chunk)
{
	struct slot_cell *sc = sr_slotmap_cell(&r->slots, q->key, 0, chunk);

	return sc && sc->nr_pages == 1 && !sc->left && sc->gen == q->gen ? sc : NULL;
}

/* Policy k lets the kept slot of sc (key) go. */
static void kept_free(struct sr_replay *r, int k, struct slot_cell *sc, uint64_t key)
{
	struct pol *p = &r->pol[k];

	free_pages(r, k, sc, key, 0, 1, NULL);
	sc->dev[k] = -1;
	p->kept_n -= p->kept_n != 0;
}

/* Drop the entries of cells no longer kept (their order stays), and make
 * room for one more; -1 out of memory. */
static int kq_room(struct sr_replay *r)
{
	size_t i, n = 0;
	int k;

	if (r->kq_len < r->kq_cap)
		return 0;
	for (i = 0; i < r->kq_len; i++) {
		struct slot_chunk *c;
		struct slot_cell *sc = kept_cell(r, &r->kq[i], &c);

		for (k = 0; sc && k < r->np; k++)
			if (sc->dev[k] >= 0) {
				r->kq[n++] = r->kq[i];
				break;
			}
	}
	r->kq_len = n;
	for (k = 0; k < r->np; k++)
		r->pol[k].kq_at = 0;
	if (2 * n > r->kq_cap || !r->kq_cap) {
		size_t cap = r->kq_cap ? 2 * r->kq_cap : 1024;
		struct kept_ent *q = realloc(r->kq, cap * sizeof(*q));

		if (!q)
			return -1;
		r->kq = q;
		r->kq_cap = cap;
	}
	return 0;
}

int sr_replay_slot_kept(struct sr_replay *r, const struct sr_event *e, struct slot_cell *sc,
			uint64_t key)
{
	uint64_t page = kept_page(e), *v, *g;
	int k, any = 0;

	for (k = 0; k < r->np; k++) {
		if (r->dec[k].kept)
			any = 1;
		else
			sc->dev[k] = -1; /* freed at this swap-in (or never held) */
	}
	/* The cell stays even where no policy keeps the slot: the
	 * recording's kernel may have, and a second swap-in of it is then a
	 * page these kernels wrote again (kept_rewritten), not one without
	 * a swap-out. */
	sc->cached = 0;
	v = sr_u64map_put(&r->kept_key, page, NULL);
	g = v ? sr_u64map_put(&r->kept_gen, page, NULL) : NULL;
	if (!g)
		return -1;
	*v = key;
	*g = sc->gen;
	if (any && !r->in_again) {
		if (kq_room(r))
			return -1;
		r->kq[r->kq_len++] = (struct kept_ent){ key, sc->gen };
	}
	return 1;
}

void sr_replay_kept_release(struct sr_replay *r, const struct sr_event *e)
{
	uint64_t page = kept_page(e), *v, *g, key;
	struct kept_ent q;
	struct slot_chunk *chunk;
	struct slot_cell *sc;
	int k;

	v = sr_u64map_get(&r->kept_key, page);
	if (!v)
		return;
	g = sr_u64map_get(&r->kept_gen, page);
	key = *v;
	q = (struct kept_ent){ key, g ? (uint32_t)*g : 0 };
	sr_u64map_del(&r->kept_key, page);
	sr_u64map_del(&r->kept_gen, page);
	sc = kept_cell(r, &q, &chunk);
	if (!sc)
		return;
	for (k = 0; k < r->np; k++)
		if (sc->dev[k] >= 0)
			kept_free(r, k, sc, key);
	forget_aside(r, sc, key);
	sr_slotmap_forget(&r->slots, key, chunk, sc);
}

uint64_t sr_replay_kept_reclaim(struct sr_replay *r, struct pol *p, int k)
{
	uint64_t n = 0;

	/* Until the folio's device has room: a cluster's worth at a time
	 * (the kernel's scan takes each slot it meets in a cluster), then
	 * the caller tries again. */
	while (p->kq_at < r->kq_len && p->kept_n && n < SR_KEPT_RECLAIM_BATCH) {
		struct kept_ent q = r->kq[p->kq_at++];
		struct slot_chunk *chunk;
		struct slot_cell *sc = kept_cell(r, &q, &chunk);

		if (!sc || sc->dev[k] < 0)
			continue;
		kept_free(r, k, sc, q.key);
		n++;
	}
	p->res.kept_reclaimed += n;
	return n;
}

void sr_replay_slots_prefetch(struct sr_replay *r, const struct sr_event *e)
{
	struct slot_chunk *c;
	struct slot_cell *sc;
	uint64_t key;
	int k;

	if (!r->slots.off_at || e->op != SR_OP_IN || !sr_slot_key(e, e->offset, &key) ||
	    !(sc = sr_slotmap_cell(&r->slots, key, 0, &c)) || !sc->nr_pages)
		return;
	for (k = 0; k < r->np; k++) {
		uint32_t off = sr_slotmap_off(&r->slots, sc, k);
		int dv = sc->dev[k];

		if (dv >= 0 && dv < r->m->nr_devices && off < SR_SLOT_NONE)
			sr_swapdev_prefetch(&r->pol[k].mm.sdev[dv], off);
	}
}

void sr_replay_slot_forget(struct sr_replay *r, struct slot_cell *sc, uint64_t key)
{
	forget_aside(r, sc, key);
}

/* Whether the replay's kernels lay out slots: where something reads them
 * (cluster readahead's window, the block layer's merges and a disk's
 * seeks on a DMA device, the per-cluster turns of 6.15 on); elsewhere
 * the counts give the same figures. */
static int want_positions(const struct sr_replay *r)
{
	int i;

	for (i = 0; i < r->m->nr_devices; i++)
		if (sr_hw_is_blk(&r->m->dev[i]))
			return 1;
	return r->ra.mode == SR_RA_CLUSTER || r->kernel.alloc == SR_ALLOC_CLUSTER;
}

enum sr_err sr_replay_slots_setup(struct sr_replay *r, struct sr_diag *d)
{
	int k, want = want_positions(r);
	size_t extra = r->ra.vma_map ? 8 : 0;

	for (k = 0; k < r->np; k++)
		if (sr_mm_set_slots(&r->pol[k].mm, &r->kernel, want, d))
			return SR_ERR_NOMEM;
	if (sr_replay_pte_setup(&r->ra))
		return sr_diag_set(d, SR_ERR_NOMEM, "out of memory");
	/* The cells' layout (before the first event: the map is empty). */
	if (!!r->slots.off_at != want || r->slots.extra != extra ||
	    !!r->slots.zs_at != !!r->m->zswap.enabled) {
		sr_slotmap_free(&r->slots);
		sr_slotmap_init(&r->slots, r->np, want, extra, r->m->zswap.enabled);
	}
	return SR_OK;
}

uint64_t sr_replay_slot_owner(const struct pol *p, int dv, uint64_t off)
{
	return sr_revmap_get(&p->rev, dv, off);
}

void sr_replay_slots_free(struct pol *p)
{
	sr_u64map_free_ptrs(&p->split);
	sr_revmap_free(&p->rev);
}
