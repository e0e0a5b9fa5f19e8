/* SPDX-License-Identifier: MIT */
/* The recorded swap slots in use (slotmap.h). */
#include <stdlib.h>
#include <string.h>

#include "replay/slotmap.h"
#include "common/bigmem.h"

void sr_slotmap_init(struct sr_slotmap *sm, int np, int positions, size_t extra, int zswap)
{
	memset(sm, 0, sizeof(*sm));
	sr_u64map_init(&sm->chunk_ix);
	sm->extra_at = sizeof(struct slot_cell) + (size_t)np * sizeof(int16_t);
	if (positions) {
		sm->off_at = (sm->extra_at + 3) & ~(size_t)3;
		sm->extra_at = sm->off_at + (size_t)np * sizeof(uint32_t);
	}
	if (extra >= 8)
		sm->extra_at = (sm->extra_at + 7) & ~(size_t)7;
	sm->extra = extra;
	sm->cell_size = (sm->extra_at + extra + 3) & ~(size_t)3;
	if (zswap) {
		sm->zs_at = sm->cell_size;
		sm->cell_size += sizeof(uint32_t);
	}
	if (extra >= 8)
		sm->cell_size = (sm->cell_size + 7) & ~(size_t)7;
	sm->chunk_bytes = (sizeof(struct slot_chunk) + SLOTMAP_CHUNK_CELLS * sm->cell_size + 63) &
			  ~(size_t)63;
}

/*
 * Chunks are cut from slabs of SLAB_BYTES, which are huge-page mappings
 * where the system gives them (sr_big_alloc()): the map's cells are the
 * replay's largest structure (tens of MB) and are read at random, so with
 * 4 KiB pages nearly every cell read missed the TLB too.  A freed chunk
 * waits on the spare list for the next one made.  Under AddressSanitizer
 * each chunk is its own allocation, so that overruns are still caught.
 */
#define SLAB_BYTES (((size_t)2 << 20) - ((size_t)64 << 10)) /* one 2 MiB mapping,
								   * with bigmem.c's stagger */

static struct slot_chunk *chunk_new(struct sr_slotmap *sm)
{
	unsigned char *c;

#ifdef SR_BIG_PLAIN
	(void)c;
	return calloc(1, sm->chunk_bytes);
#else
	if (sm->spare) {
		c = sm->spare;
		memcpy(&sm->spare, c, sizeof(void *));
		memset(c, 0, sm->chunk_bytes);
		return (struct slot_chunk *)(void *)c;
	}
	if (!sm->slab_left) {
		void *b;

		if (sm->nslabs == sm->capslabs) {
			size_t n = sm->capslabs ? 2 * sm->capslabs : 16;
			void **v = realloc(sm->slabs, n * sizeof(*v));

			if (!v)
				return NULL;
			sm->slabs = v;
			sm->capslabs = n;
		}
		if (!(b = sr_big_alloc(SLAB_BYTES)))
			return NULL;
		sm->slabs[sm->nslabs++] = b;
		sm->slab_left = SLAB_BYTES / sm->chunk_bytes;
	}
	c = (unsigned char *)sm->slabs[sm->nslabs - 1] +
	    (SLAB_BYTES / sm->chunk_bytes - sm->slab_left--) * sm->chunk_bytes;
	memset(c, 0, sm->chunk_bytes);
	return (struct slot_chunk *)(void *)c;
#endif
}

static void chunk_free(struct sr_slotmap *sm, struct slot_chunk *c)
{
#ifdef SR_BIG_PLAIN
	(void)sm;
	free(c);
#else
	memcpy(c, &sm->spare, sizeof(void *));
	sm->spare = c;
#endif
}

void sr_slotmap_free(struct sr_slotmap *sm)
{
	size_t i;

#ifdef SR_BIG_PLAIN
	sr_u64map_free_ptrs(&sm->chunk_ix);
#else
	sr_u64map_free(&sm->chunk_ix);
#endif
	for (i = 0; i < sm->nslabs; i++)
		sr_big_free(sm->slabs[i], SLAB_BYTES);
	free(sm->slabs);
	sm->slabs = NULL;
	sm->nslabs = sm->capslabs = sm->slab_left = 0;
	sm->spare = NULL;
}

__attribute__((noinline)) struct slot_chunk *sr_slotmap_chunk_find(struct sr_slotmap *sm,
								   uint64_t ck, size_t h)
{
	uint64_t *v;

	v = sr_u64map_get(&sm->chunk_ix, ck);
	if (!v)
		return NULL;
	sm->ccache[h].ck = ck;
	sm->ccache[h].c = (struct slot_chunk *)(uintptr_t)*v;
	return sm->ccache[h].c;
}

struct slot_cell *sr_slotmap_cell_slow(struct sr_slotmap *sm, uint64_t key, int create,
				       struct slot_chunk **chunk)
{
	uint64_t ck = key >> SLOTMAP_CHUNK_BITS, *v;
	struct slot_chunk *c = sr_slotmap_chunk(sm, ck);
	int added;

	if (!c) {
		if (!create)
			return NULL;
		v = sr_u64map_put(&sm->chunk_ix, ck, &added);
		if (!v)
			return NULL;
		c = chunk_new(sm);
		if (!c) {
			sr_u64map_del(&sm->chunk_ix, ck);
			return NULL;
		}
		*v = (uint64_t)(uintptr_t)c;
	}
	*chunk = c;
	return (struct slot_cell *)(void *)(c->cells +
					    (key & (SLOTMAP_CHUNK_CELLS - 1)) * sm->cell_size);
}

void sr_slotmap_forget(struct sr_slotmap *sm, uint64_t key, struct slot_chunk *c,
		       struct slot_cell *cell)
{
	uint64_t ck = key >> SLOTMAP_CHUNK_BITS;
	size_t h = sr_slotmap_ccache_at(ck);

	if (!cell->nr_pages)
		return;
	cell->nr_pages = 0;
	if (--c->live == 0) {
		sr_u64map_del(&sm->chunk_ix, ck);
		if (sm->ccache[h].c == c)
			sm->ccache[h].c = NULL;
		chunk_free(sm, c);
	}
}

struct slot_cell *sr_slotmap_find(struct sr_slotmap *sm, const struct sr_event *e,
				  uint64_t *key, struct slot_chunk **chunk)
{
	int k;

	for (k = 0; k <= 9; k++) {
		uint64_t base = e->offset & ~((1ull << k) - 1);
		struct slot_cell *cell;

		if (!sr_slot_key(e, base, key))
			return NULL;
		cell = sr_slotmap_cell(sm, *key, 0, chunk);
		if (cell && cell->nr_pages && (k == 0 || cell->nr_pages > e->offset - base))
			return cell;
	}
	return NULL;
}
