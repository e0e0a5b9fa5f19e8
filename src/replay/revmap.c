/* SPDX-License-Identifier: MIT */
/* Cluster readahead's reverse map: revmap.h. */
#include <stdlib.h>
#include <string.h>

#include "replay/revmap.h"

void sr_revmap_free(struct sr_revmap *m)
{
	size_t j, c;
	int i;

	for (i = 0; m->dev && i < m->ndev; i++) {
		for (j = 0; j < m->dev[i].n; j++) {
			struct sr_revmap_block *b = m->dev[i].blk[j];

			for (c = 0; b && c < REVMAP_BLOCK_CHUNKS; c++)
				free(b->ch[c]);
			free(b);
		}
		free(m->dev[i].blk);
	}
	free(m->dev);
	free(m->spare);
	m->dev = NULL;
	m->ndev = 0;
	m->spare = NULL;
}

int sr_revmap_put_slow(struct sr_revmap *m, int dv, uint32_t off, uint64_t key)
{
	struct sr_revmap_dev *d;
	struct sr_revmap_block *b;
	size_t c = off >> REVMAP_CHUNK_BITS, bi = c >> REVMAP_BLOCK_BITS;

	if (dv < 0)
		return -1;
	if (dv >= m->ndev) {
		struct sr_revmap_dev *v = realloc(m->dev, ((size_t)dv + 1) * sizeof(*v));

		if (!v)
			return -1;
		memset(v + m->ndev, 0, ((size_t)dv + 1 - (size_t)m->ndev) * sizeof(*v));
		m->dev = v;
		m->ndev = dv + 1;
	}
	d = &m->dev[dv];
	if (bi >= d->n) {
		/* Room for the block, doubling (2^32 slots: 2^14 blocks). */
		size_t n = d->n ? d->n : 16;
		struct sr_revmap_block **v;

		while (n <= bi)
			n *= 2;
		v = realloc(d->blk, n * sizeof(*v));
		if (!v)
			return -1;
		memset(v + d->n, 0, (n - d->n) * sizeof(*v));
		d->blk = v;
		d->n = n;
	}
	b = d->blk[bi];
	if (!b && !(b = d->blk[bi] = calloc(1, sizeof(*b))))
		return -1;
	if (!b->ch[c & (REVMAP_BLOCK_CHUNKS - 1)]) {
		struct sr_revmap_chunk *ch = m->spare;

		if (ch)
			m->spare = NULL;
		else if (!(ch = malloc(sizeof(*ch))))
			return -1;
		memset(ch, 0, sizeof(*ch));
		b->ch[c & (REVMAP_BLOCK_CHUNKS - 1)] = ch;
		b->live++;
	}
	return sr_revmap_put(m, dv, off, key);
}

void sr_revmap_drop(struct sr_revmap *m, int dv, uint32_t off)
{
	size_t c = off >> REVMAP_CHUNK_BITS;
	struct sr_revmap_block **b = &m->dev[dv].blk[c >> REVMAP_BLOCK_BITS];
	struct sr_revmap_chunk **ch = &(*b)->ch[c & (REVMAP_BLOCK_CHUNKS - 1)];

	/* One chunk kept: a cluster that empties is often refilled soon. */
	if (!m->spare)
		m->spare = *ch;
	else
		free(*ch);
	*ch = NULL;
	if (!--(*b)->live) {
		free(*b);
		*b = NULL;
	}
}
