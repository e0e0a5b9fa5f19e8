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

	for (k = 0; k < r->np; k++)
		free_pages(r, k, sc, key, 0, sc->nr_pages, was);
	forget_aside(r, sc, key);
}

/* sr_replay_slot_in() for the common case: an order-0 page. */
static void slot_in_page(struct sr_replay *r, struct slot_cell *sc)
{
	int k;

	r->in_page = 0;
	if (!r->slots.off_at) {
		/* Counted only. */
		for (k = 0; k < r->np; k++) {
			r->dec[k].off = UINT64_MAX;
			if (sc->dev[k] >= 0)
				sr_mm_put(&r->pol[k].mm, sc->dev[k], 1);
		}
		return;
	}
	for (k = 0; k < r->np; k++) {
		struct pol *p = &r->pol[k];
		int dev = sc->dev[k];
		uint32_t off = sr_slotmap_off(&r->slots, sc, k);

		r->dec[k].off = UINT64_MAX;
		if (dev < 0)
			continue;
		if (off == SR_SLOT_NONE) {
			sr_mm_put(&p->mm, dev, 1);
			continue;
		}
		r->dec[k].off = off;
		if (r->ra.mode == SR_RA_CLUSTER)
			sr_revmap_del(&p->rev, dev, off);
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
		slot_in_page(r, sc);
		return 0;
	}
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
		free_pages(r, k, sc, key, i, n, mask && any ? was : NULL);
	}
	return 0;
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
	if (!!r->slots.off_at != want || r->slots.extra != extra) {
		sr_slotmap_free(&r->slots);
		sr_slotmap_init(&r->slots, r->np, want, extra);
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
