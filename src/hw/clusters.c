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

int sr_hw_clusters_copy(struct sr_hw_clusters *dst, const struct sr_hw_clusters *src, int ndev)
{
	uint32_t k;
	int d;

	for (d = 0; d < ndev; d++) {
		dev_free(dst, d);
		dst->shift[d] = src->shift[d];
		dst->n[d] = src->n[d];
		dst->lines[2 * d] = src->lines[2 * d];
		dst->lines[2 * d + 1] = src->lines[2 * d + 1];
		if (!src->last[d])
			continue;
		if (!(dst->last[d] = calloc(nchunks(src, d), sizeof(*dst->last[d]))))
			return -1;
		for (k = 0; k < nchunks(src, d); k++) {
			if (!src->last[d][k])
				continue;
			if (!(dst->last[d][k] = malloc(SR_HW_CLUSTER_CHUNK * sizeof(uint16_t))))
				return -1;
			memcpy(dst->last[d][k], src->last[d][k], SR_HW_CLUSTER_CHUNK * sizeof(uint16_t));
		}
	}
	return 0;
}

size_t sr_hw_clusters_bytes(const struct sr_machine *m, const struct sr_kernel *k)
{
	size_t n = 0;
	int d;

	for (d = 0; d < m->nr_devices; d++) {
		unsigned shift, li, lo;
		uint64_t ch;

		sr_hw_cluster_kernel(k, m->dev[d].cls, &shift, &li, &lo);
		ch = shift ? ((uint64_t)dev_clusters(&m->dev[d], shift) + SR_HW_CLUSTER_CHUNK - 1) >>
			     SR_HW_CLUSTER_CHUNK_BITS : 0;

		n += sizeof(uint16_t **) + sizeof(uint32_t) + 3 +
		     (size_t)ch * (sizeof(uint16_t *) + SR_HW_CLUSTER_CHUNK * sizeof(uint16_t));
	}
	return n;
}
