/* SPDX-License-Identifier: MIT */
/* The swap devices' cluster locks (clusters.h): who held each last. */
#include <stdlib.h>
#include <string.h>

#include "hw/clusters.h"

/* The clusters of 2^shift slots of device d (its slots: size_pages and
 * the header's). */
static uint32_t dev_clusters(const struct sr_device *d, unsigned shift)
{
	uint64_t n = ((d->size_pages + 1) + (1ull << shift) - 1) >> shift;

	return n < 1 ? 1 : n > UINT32_MAX ? UINT32_MAX : (uint32_t)n;
}

int sr_hw_clusters_init(struct sr_hw_clusters *c, const struct sr_machine *m)
{
	memset(c, 0, sizeof(*c));
	c->last = calloc((size_t)m->nr_devices, sizeof(*c->last));
	c->n = calloc((size_t)m->nr_devices, sizeof(*c->n));
	c->shift = calloc((size_t)m->nr_devices, sizeof(*c->shift));
	c->lines = calloc(2 * (size_t)m->nr_devices, sizeof(*c->lines));
	return c->last && c->n && c->shift && c->lines ? 0 : -1;
}

/* The chunks of device dv's record (c->n[dv] clusters). */
static uint32_t nchunks(const struct sr_hw_clusters *c, int dv)
{
	return (uint32_t)(((uint64_t)c->n[dv] + SR_HW_CLUSTER_CHUNK - 1) >> SR_HW_CLUSTER_CHUNK_BITS);
}

/* Free device dv's record. */
static void dev_free(struct sr_hw_clusters *c, int dv)
{
	uint32_t k;

	for (k = 0; c->last[dv] && k < nchunks(c, dv); k++)
		free(c->last[dv][k]);
	free(c->last[dv]);
	c->last[dv] = NULL;
}

void sr_hw_clusters_free(struct sr_hw_clusters *c, int ndev)
{
	int d;

	for (d = 0; c->last && d < ndev; d++)
		dev_free(c, d);
	free(c->last);
	free(c->n);
	free(c->shift);
	free(c->lines);
	memset(c, 0, sizeof(*c));
}

void sr_hw_clusters_set(struct sr_hw_clusters *c, const struct sr_machine *m, int dv,
			unsigned shift, unsigned lines_in, unsigned lines_out)
{
	dev_free(c, dv);
	c->shift[dv] = (uint8_t)shift;
	c->n[dv] = shift ? dev_clusters(&m->dev[dv], shift) : 0;
	c->lines[2 * dv] = (uint8_t)lines_in;
	c->lines[2 * dv + 1] = (uint8_t)lines_out;
}

uint16_t *sr_hw_clusters_slot(struct sr_hw_clusters *c, int dv, uint32_t i)
{
	uint16_t **ch = c->last[dv];
	uint32_t k = i >> SR_HW_CLUSTER_CHUNK_BITS;

	if (!ch && !(ch = c->last[dv] = calloc(nchunks(c, dv), sizeof(*ch))))
		return NULL;
	if (!ch[k] && !(ch[k] = calloc(SR_HW_CLUSTER_CHUNK, sizeof(**ch))))
		return NULL;
	return &ch[k][i & (SR_HW_CLUSTER_CHUNK - 1)];
}
