/* SPDX-License-Identifier: MIT */
/* The swap cache's trunk locks (trunks.h): the pool of calendars. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hw/trunks.h"
#include "swapreplay/kernel.h"

/* Device d's trunks: its slots (the header's one with them) by 2^14. */
static uint32_t dev_trunks(const struct sr_device *d)
{
	uint64_t n = ((d->size_pages + 1) + (1ull << SR_SWAP_TRUNK_SHIFT) - 1) >> SR_SWAP_TRUNK_SHIFT;

	return n < 1 ? 1 : n > UINT32_MAX ? UINT32_MAX : (uint32_t)n;
}

int sr_hw_trunks_init(struct sr_hw_trunks *t, const struct sr_machine *m, const double *now)
{
	uint32_t i;
	int d;

	memset(t, 0, sizeof(*t));
	t->cal = calloc(SR_HW_TRUNK_CALS, sizeof(*t->cal));
	t->end = calloc(SR_HW_TRUNK_CALS, sizeof(*t->end));
	t->dv = calloc(SR_HW_TRUNK_CALS, sizeof(*t->dv));
	t->trunk = calloc(SR_HW_TRUNK_CALS, sizeof(*t->trunk));
	t->ix = calloc((size_t)m->nr_devices, sizeof(*t->ix));
	t->last = calloc((size_t)m->nr_devices, sizeof(*t->last));
	t->ntrunks = calloc((size_t)m->nr_devices, sizeof(*t->ntrunks));
	if (!t->cal || !t->end || !t->dv || !t->trunk || !t->ix || !t->last || !t->ntrunks)
		return -1;
	for (i = 0; i < SR_HW_TRUNK_CALS; i++) {
		cal_set_size(&t->cal[i], SR_HW_TRUNK_BUCKETS);
		t->cal[i].now = now;
		t->dv[i] = -1;
	}
	for (d = 0; d < m->nr_devices; d++)
		t->ntrunks[d] = dev_trunks(&m->dev[d]);
	return 0;
}

void sr_hw_trunks_free(struct sr_hw_trunks *t, int ndev)
{
	uint32_t i;
	int d;

	for (i = 0; t->cal && i < t->n; i++)
		cal_free(&t->cal[i]);
	for (d = 0; t->ix && d < ndev; d++)
		free(t->ix[d]);
	for (d = 0; t->last && d < ndev; d++)
		free(t->last[d]);
	free(t->last);
	free(t->cal);
	free(t->end);
	free(t->dv);
	free(t->trunk);
	free(t->ix);
	free(t->ntrunks);
	memset(t, 0, sizeof(*t));
}

int sr_hw_trunks_copy(struct sr_hw_trunks *dst, const struct sr_hw_trunks *src, int ndev)
{
	uint32_t i;
	int d;

	for (d = 0; d < ndev; d++) {
		if (src->last[d]) {
			if (!dst->last[d] && !(dst->last[d] = malloc(src->ntrunks[d] * sizeof(**dst->last))))
				return -1;
			memcpy(dst->last[d], src->last[d], src->ntrunks[d] * sizeof(**dst->last));
		}
		if (!src->ix[d])
			continue;
		if (!dst->ix[d] && !(dst->ix[d] = malloc(src->ntrunks[d] * sizeof(**dst->ix))))
			return -1;
		memcpy(dst->ix[d], src->ix[d], src->ntrunks[d] * sizeof(**dst->ix));
	}
	for (i = 0; i < src->n; i++)
		if (cal_copy(&dst->cal[i], &src->cal[i]))
			return -1;
	memcpy(dst->end, src->end, src->n * sizeof(*dst->end));
	memcpy(dst->dv, src->dv, src->n * sizeof(*dst->dv));
	memcpy(dst->trunk, src->trunk, src->n * sizeof(*dst->trunk));
	/* (dst's places past n keep their own: none used.) */
	dst->n = src->n;
	dst->hand = src->hand;
	dst->shared = src->shared;
	return 0;
}

uint64_t sr_hw_trunks_stale(const struct sr_hw_trunks *t)
{
	uint64_t n = 0;
	uint32_t i;

	for (i = 0; i < t->n; i++)
		n += t->cal[i].stale;
	return n;
}

int sr_hw_trunks_dev(struct sr_hw_trunks *t, int dv)
{
	if (!t->last[dv] && !(t->last[dv] = calloc(t->ntrunks[dv], sizeof(**t->last))))
		return -1;
	return 0;
}

uint32_t sr_hw_trunk_take(struct sr_hw_trunks *t, int dv, uint32_t trunk, double now)
{
	/* A calendar whose work is all done before the bucket that holds now
	 * has nothing a request at now or later reads. */
	const double idle = floor(now / CAL_BUCKET_NS) * CAL_BUCKET_NS;
	uint32_t i = 0, k;

	if (!t->ix[dv] && !(t->ix[dv] = calloc(t->ntrunks[dv], sizeof(**t->ix))))
		return 0;
	for (k = 0; k < t->n; k++) {
		i = (t->hand + k) % t->n;
		if (t->end[i] <= idle)
			break;
	}
	if (k == t->n) {
		if (t->n < SR_HW_TRUNK_CALS) {
			/* A new one (its buckets at its first request). */
			i = t->n++;
			t->end[i] = -INFINITY;
		} else {
			/* Every one busy: the one done first, shared. */
			for (i = 0, k = 1; k < t->n; k++)
				if (t->end[k] < t->end[i])
					i = k;
			t->shared++;
		}
	}
	if (t->dv[i] >= 0)
		t->ix[t->dv[i]][t->trunk[i]] = 0;
	t->dv[i] = dv;
	t->trunk[i] = trunk;
	t->ix[dv][trunk] = (uint16_t)(i + 1);
	t->hand = (i + 1) % t->n;
	return i + 1;
}

size_t sr_hw_trunks_bytes(const struct sr_machine *m)
{
	size_t n = SR_HW_TRUNK_CALS * ((size_t)SR_HW_TRUNK_BUCKETS * (sizeof(double) + sizeof(uint32_t)) +
				       sizeof(struct cal) + sizeof(double) + 2 * sizeof(uint32_t));
	int d;

	for (d = 0; d < m->nr_devices; d++)
		n += (size_t)dev_trunks(&m->dev[d]) * (sizeof(uint16_t) + sizeof(int32_t)) +
		     sizeof(uint16_t *) + sizeof(int32_t *) + sizeof(uint32_t);
	return n;
}
