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

void sr_hw_clusters_free(struct sr_hw_clusters *c, int ndev)
{
	int d;

	for (d = 0; c->last && d < ndev; d++)
		free(c->last[d]);
	free(c->last);
	free(c->n);
	free(c->shift);
	free(c->lines);
	memset(c, 0, sizeof(*c));
}

void sr_hw_clusters_set(struct sr_hw_clusters *c, const struct sr_machine *m, int dv,
			unsigned shift, unsigned lines_in, unsigned lines_out)
{
	free(c->last[dv]);
	c->last[dv] = NULL;
	c->shift[dv] = (uint8_t)shift;
	c->n[dv] = shift ? dev_clusters(&m->dev[dv], shift) : 0;
	c->lines[2 * dv] = (uint8_t)lines_in;
	c->lines[2 * dv + 1] = (uint8_t)lines_out;
}

int sr_hw_clusters_dev(struct sr_hw_clusters *c, int dv)
{
	if (!c->last[dv] && !(c->last[dv] = calloc(c->n[dv], sizeof(**c->last))))
		return -1;
	return 0;
}

int sr_hw_clusters_copy(struct sr_hw_clusters *dst, const struct sr_hw_clusters *src, int ndev)
{
	int d;

	for (d = 0; d < ndev; d++) {
		dst->shift[d] = src->shift[d];
		dst->n[d] = src->n[d];
		dst->lines[2 * d] = src->lines[2 * d];
		dst->lines[2 * d + 1] = src->lines[2 * d + 1];
		free(dst->last[d]);
		dst->last[d] = NULL;
		if (!src->last[d])
			continue;
		if (!(dst->last[d] = malloc((size_t)src->n[d] * sizeof(**dst->last))))
			return -1;
		memcpy(dst->last[d], src->last[d], (size_t)src->n[d] * sizeof(**dst->last));
	}
	return 0;
}

size_t sr_hw_clusters_bytes(const struct sr_machine *m, const struct sr_kernel *k)
{
	size_t n = 0;
	int d;

	for (d = 0; d < m->nr_devices; d++) {
		unsigned shift, li, lo;

		sr_hw_cluster_kernel(k, m->dev[d].cls, &shift, &li, &lo);
		n += sizeof(int32_t *) + sizeof(uint32_t) + 3 +
		     (shift ? (size_t)dev_clusters(&m->dev[d], shift) * sizeof(int32_t) : 0);
	}
	return n;
}
