/* SPDX-License-Identifier: MIT */
/*
 * Cluster readahead's reverse map, per policy: which recorded swap slot
 * (its slot map key) sits in each of the policy's device slots, for the
 * order-0 pages there.  Readahead walks device slots, a window of up to
 * 2^page-cluster around the fault (src/mm/swap_state.c), and asks what
 * each holds; a swap-out's page is put in its slot, a swap-in's taken out.
 *
 * A two-level table by device slot, as the kernel's swap_map is an array:
 * per device, chunks of 512 slots (one cluster), allocated while they hold
 * a page and freed when the last one leaves.  The kernel's allocator fills
 * a cluster before it moves on, so that the slots a window reads are in
 * one chunk, mostly in one cache line, and the map grows with the
 * clusters in use.  A hash map of (device, slot) before took about 75
 * instructions an event more, with a cache miss at each put, take and
 * look-up: with cluster readahead, the writer's 1M events (one policy,
 * 2s-nvme2) went from 2,087M to 2,012M instructions, its 10M events with
 * three policies from 5.4 s to 3.4 s.  It takes more memory where the
 * clusters in use are sparse: a cluster holds its chunk while any of its
 * pages is in swap, and random swap-ins leave many clusters with a few
 * (the three policies' peak 52 MB at 1M events, 71 MB at 10M, 74 MB at
 * 100M, against 66 MB at each with the hash map).
 */
#ifndef SR_REPLAY_REVMAP_H
#define SR_REPLAY_REVMAP_H

#include <stddef.h>
#include <stdint.h>

#include "common/compiler.h"

#define REVMAP_CHUNK_BITS 9
#define REVMAP_CHUNK_SLOTS (1u << REVMAP_CHUNK_BITS)
#define REVMAP_BLOCK_BITS 9 /* chunks a directory block points to */
#define REVMAP_BLOCK_CHUNKS (1u << REVMAP_BLOCK_BITS)

struct sr_revmap_chunk {
	uint32_t live;                       /* slots that hold a page */
	uint64_t key1[REVMAP_CHUNK_SLOTS];   /* the recorded slot's key + 1; 0: none */
};

/* A directory block: the chunks of 2^18 slots (1 GiB of swap). */
struct sr_revmap_block {
	uint32_t live;                                  /* chunks it points to */
	struct sr_revmap_chunk *ch[REVMAP_BLOCK_CHUNKS]; /* NULL: empty */
};

struct sr_revmap_dev {
	struct sr_revmap_block **blk; /* by slot >> 18; NULL: empty */
	size_t n;                     /* blocks blk has room for */
};

/*
 * Zeroed: an empty map (nothing is allocated until the first put).  The
 * directory has two levels, so that what it takes follows the chunks in
 * use, not the highest slot: the allocator hands out never-used clusters
 * first and so moves on across a large device through a long trace.
 */
struct sr_revmap {
	struct sr_revmap_dev *dev; /* per device below ndev, grown at a put */
	int ndev;
	struct sr_revmap_chunk *spare; /* one freed chunk, kept for the next */
};

void sr_revmap_free(struct sr_revmap *m);
/* sr_revmap_put() when the chunk does not exist yet (or the tables are
 * too short for it). */
int sr_revmap_put_slow(struct sr_revmap *m, int dv, uint32_t off, uint64_t key);
/* The chunk of slot off of device dv emptied: freed (and its directory
 * block if that was its last). */
void sr_revmap_drop(struct sr_revmap *m, int dv, uint32_t off);

static inline struct sr_revmap_chunk *sr_revmap_chunk(const struct sr_revmap *m, int dv,
						      uint32_t off)
{
	const struct sr_revmap_dev *d;
	const struct sr_revmap_block *b;
	size_t c = off >> REVMAP_CHUNK_BITS, bi = c >> REVMAP_BLOCK_BITS;

	if (SR_UNLIKELY(dv < 0 || dv >= m->ndev))
		return NULL;
	d = &m->dev[dv];
	if (bi >= d->n || !(b = d->blk[bi]))
		return NULL;
	return b->ch[c & (REVMAP_BLOCK_CHUNKS - 1)];
}

/* Device dv's slot off holds the page of recorded slot key (key <
 * UINT64_MAX; whatever it held before is forgotten): 0, or -1 out of
 * memory. */
static inline int sr_revmap_put(struct sr_revmap *m, int dv, uint32_t off, uint64_t key)
{
	struct sr_revmap_chunk *c = sr_revmap_chunk(m, dv, off);
	uint64_t *v;

	if (SR_UNLIKELY(!c))
		return sr_revmap_put_slow(m, dv, off, key);
	v = &c->key1[off & (REVMAP_CHUNK_SLOTS - 1)];
	c->live += !*v;
	*v = key + 1;
	return 0;
}

/* Device dv's slot off holds nothing now. */
static inline void sr_revmap_del(struct sr_revmap *m, int dv, uint32_t off)
{
	struct sr_revmap_chunk *c = sr_revmap_chunk(m, dv, off);
	uint64_t *v;

	if (!c)
		return;
	v = &c->key1[off & (REVMAP_CHUNK_SLOTS - 1)];
	if (!*v)
		return;
	*v = 0;
	if (!--c->live)
		sr_revmap_drop(m, dv, off);
}

/* The recorded slot whose page device dv's slot off holds, or UINT64_MAX. */
static inline uint64_t sr_revmap_get(const struct sr_revmap *m, int dv, uint64_t off)
{
	const struct sr_revmap_chunk *c;

	if (off > UINT32_MAX || !(c = sr_revmap_chunk(m, dv, (uint32_t)off)))
		return UINT64_MAX;
	return c->key1[off & (REVMAP_CHUNK_SLOTS - 1)] - 1;
}

#endif /* SR_REPLAY_REVMAP_H */
