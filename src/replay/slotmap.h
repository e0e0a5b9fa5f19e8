/* SPDX-License-Identifier: MIT */
/*
 * The recorded swap slots in use: (device, offset) -> what each policy did
 * with the page swapped out there, so that the swap-in that reads it back
 * goes to the device its policy put it on.  A two-level table, as the
 * kernel's swap_map is an array: chunks of 512 offsets, one cluster of
 * slots, found by a small hash map of chunk numbers and a direct-mapped
 * cache of it, allocated while they hold a slot.  Locality of offsets is
 * locality in memory.  The kernel hands clusters out 64 MB apart and
 * never-used ones first, so that a long trace leaves a few pages in each
 * of many clusters: the map grows with the clusters in use (the bench's
 * traces: 35 MB at 1M events, 78 MB at 10M; chunks of 4096 were mostly
 * empty, and chunks of 64, 60 MB at 10M, are freed and made again so
 * often that a trace of dense offsets replays 1.5 times slower).
 * Owned by one replay (all its policies share the cells).
 */
#ifndef SR_REPLAY_SLOTMAP_H
#define SR_REPLAY_SLOTMAP_H

#include <stdint.h>

#include "common/compiler.h"
#include "common/u64map.h"
#include "mm/mm.h"
#include "swapreplay/event.h"

#define SLOTMAP_CHUNK_BITS 9
#define SLOTMAP_CHUNK_CELLS (1u << SLOTMAP_CHUNK_BITS)
#define SLOTMAP_CCACHE 512 /* chunks found without hashing */

/* What the replay keeps of one recorded swap slot in use. */
struct slot_cell {
	uint16_t nr_pages;  /* recorded folio size; 0: the cell is free */
	uint16_t left;      /* pages not yet swapped in */
	uint32_t cached;    /* per policy (bit k): its page is in that policy's
			     * swap cache, read ahead (SR_MAX_POLICIES is 32) */
	uint32_t gen;       /* which swap-out into this slot it is (a replay-wide
			     * count): readahead's queue names cells by it */
	int16_t dev[];      /* per policy: the device it was put on, -1 none;
			     * with positions, then per policy the first of
			     * its slots there (sr_slotmap_off(): SR_SLOT_SPLIT,
			     * the folio's pages are apart, src/replay/slots.c);
			     * the extra bytes; with zswap, its bits
			     * (sr_slotmap_zs()) */
};

struct slot_chunk {
	uint32_t live;         /* cells in use */
	/* SLOTMAP_CHUNK_CELLS cells of cell_size bytes, from a cache line's
	 * start (chunks start on one): at 4 bytes in, every other 32-byte
	 * cell (one policy, VMA readahead) had its extra bytes across two
	 * lines. */
	_Alignas(64) unsigned char cells[];
};

struct sr_slotmap {
	struct sr_u64map chunk_ix; /* chunk number -> struct slot_chunk * */
	struct {                   /* a direct-mapped cache of chunk_ix */
		uint64_t ck;
		struct slot_chunk *c;  /* NULL: empty */
	} ccache[SLOTMAP_CCACHE];
	size_t cell_size;          /* bytes of one cell (struct slot_cell + devs) */
	size_t off_at;             /* where the slots start in a cell; 0: none */
	size_t extra_at;           /* where the extra bytes start in a cell */
	size_t extra;              /* how many */
	size_t zs_at;              /* where the zswap bits are in a cell; 0: none
				    * (a machine without zswap: 4 bytes a cell
				    * saved, the map's 10 % of a bench's memory) */
	size_t chunk_bytes;        /* a chunk with its cells, to 64 B */
	void *spare;               /* freed chunks, chained through their first
				    * word, for the next ones made */
	void **slabs;              /* the slabs chunks are cut from */
	size_t nslabs, capslabs, slab_left; /* ...and chunks left in the last */
};

/* An empty map whose cells hold a device for each of np policies, with
 * positions their first slots too, and extra bytes more (zeroed with the
 * cell: sr_slotmap_extra()), and with zswap its bits. */
void sr_slotmap_init(struct sr_slotmap *sm, int np, int positions, size_t extra, int zswap);

/* Policy k's first slot for cell c: SR_SLOT_NONE without positions. */
static inline uint32_t sr_slotmap_off(const struct sr_slotmap *sm, const struct slot_cell *c,
				      int k)
{
	return sm->off_at ? ((const uint32_t *)(const void *)((const char *)c + sm->off_at))[k] :
	       SR_SLOT_NONE;
}

static inline void sr_slotmap_set_off(const struct sr_slotmap *sm, struct slot_cell *c, int k,
				      uint32_t off)
{
	if (sm->off_at)
		((uint32_t *)(void *)((char *)c + sm->off_at))[k] = off;
}

/* The extra bytes of cell c. */
static inline void *sr_slotmap_extra(const struct sr_slotmap *sm, struct slot_cell *c)
{
	return (char *)c + sm->extra_at;
}
void sr_slotmap_free(struct sr_slotmap *sm);

/* Cell c's zswap bits: per policy (bit k), zswap holds its page (in the
 * pool, or a zero page), not the device (src/replay/zswap_lru.c); 0 in a
 * map without them. */
static inline uint32_t sr_slotmap_zs(const struct sr_slotmap *sm, const struct slot_cell *c)
{
	return sm->zs_at ? *(const uint32_t *)(const void *)((const char *)c + sm->zs_at) : 0;
}

static inline void sr_slotmap_set_zs(const struct sr_slotmap *sm, struct slot_cell *c, uint32_t v)
{
	if (sm->zs_at)
		*(uint32_t *)(void *)((char *)c + sm->zs_at) = v;
}

/* The highest recorded device index a key holds (16 bits, dev + 1): the
 * kernel's MAX_SWAPFILES is 32 less a few. */
#define SR_SLOT_DEV_MAX 65534

/* Key of a recorded swap slot; offsets of 2^48 and above are not matched.
 * 1 with *key, or 0 (the event has no offset, or too large a one). */
static inline int sr_slot_key(const struct sr_event *e, uint64_t off, uint64_t *key)
{
	if (!(e->flags & SR_EV_HAS_OFFSET) || off >= (1ull << 48))
		return 0;
	*key = off | ((uint64_t)(uint32_t)(e->dev + 1) << 48);
	return 1;
}

static inline size_t sr_slotmap_ccache_at(uint64_t ck)
{
	return (size_t)(ck ^ (ck >> 9)) & (SLOTMAP_CCACHE - 1);
}

/* chunk_get() when the chunk cache does not have it. */
struct slot_chunk *sr_slotmap_chunk_find(struct sr_slotmap *sm, uint64_t ck, size_t h);

/* The chunk of slot cells numbered ck, or NULL if it does not exist: from
 * the chunk cache inline, else from the map. */
static inline struct slot_chunk *sr_slotmap_chunk(struct sr_slotmap *sm, uint64_t ck)
{
	size_t h = sr_slotmap_ccache_at(ck);

	if (SR_LIKELY(sm->ccache[h].c && sm->ccache[h].ck == ck))
		return sm->ccache[h].c;
	return sr_slotmap_chunk_find(sm, ck, h);
}

/* sr_slotmap_cell() but for its common case. */
struct slot_cell *sr_slotmap_cell_slow(struct sr_slotmap *sm, uint64_t key, int create,
				       struct slot_chunk **chunk);

/* The cell of key, or NULL if its chunk does not exist and !create (or
 * out of memory); *chunk is its chunk.  A chunk in the chunk cache is
 * found inline. */
static inline struct slot_cell *sr_slotmap_cell(struct sr_slotmap *sm, uint64_t key, int create,
						struct slot_chunk **chunk)
{
	uint64_t ck = key >> SLOTMAP_CHUNK_BITS;
	size_t h = sr_slotmap_ccache_at(ck);
	struct slot_chunk *c = sm->ccache[h].c;

	if (SR_LIKELY(c && sm->ccache[h].ck == ck)) {
		*chunk = c;
		return (struct slot_cell *)(void *)(c->cells +
						    (key & (SLOTMAP_CHUNK_CELLS - 1)) * sm->cell_size);
	}
	return sr_slotmap_cell_slow(sm, key, create, chunk);
}
/* Free the cell of key, in chunk c; frees the chunk when that was its last. */
void sr_slotmap_forget(struct sr_slotmap *sm, uint64_t key, struct slot_chunk *c,
		       struct slot_cell *cell);
/* Find the recorded swap-out a swap-in reads: the exact offset, or the
 * huge page (aligned 2^k run) that contains it.  Returns its cell or NULL;
 * *key is the key it was found under. */
struct slot_cell *sr_slotmap_find(struct sr_slotmap *sm, const struct sr_event *e,
				  uint64_t *key, struct slot_chunk **chunk);

/* Start loading the cell of an event about to be replayed: with random
 * swap offsets each cell is a cache miss, and the reorder window (or the
 * ordered batch) tells which ones come next. */
static inline void sr_slotmap_prefetch(struct sr_slotmap *sm, const struct sr_event *e)
{
	uint64_t key;
	const struct slot_chunk *c;

	if (!sr_slot_key(e, e->offset, &key))
		return;
	c = sr_slotmap_chunk(sm, key >> SLOTMAP_CHUNK_BITS);
	if (c) {
		const unsigned char *at = c->cells + (key & (SLOTMAP_CHUNK_CELLS - 1)) * sm->cell_size;

		/* Its first and last bytes: a cell may cross a line. */
		__builtin_prefetch(at, 1);
		__builtin_prefetch(at + sm->cell_size - 1, 1);
	}
}

#endif /* SR_REPLAY_SLOTMAP_H */
