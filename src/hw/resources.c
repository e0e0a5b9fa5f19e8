/* SPDX-License-Identifier: MIT */
/* What the hardware charges for one event (resources.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hw/resources.h"

void sr_hw_memo_init(struct sr_hw_memo *memo, const struct sr_machine *m)
{
	memo->ent = NULL;
	if (m->nr_nodes <= 8)
		memo->ent = calloc((size_t)m->nr_devices * 2 * (size_t)m->nr_nodes *
				   (size_t)m->nr_nodes, sizeof(*memo->ent));
}

void sr_hw_memo_free(struct sr_hw_memo *memo)
{
	free(memo->ent);
	memo->ent = NULL;
}

int sr_hw_init(struct sr_hw *h, const struct sr_machine *m)
{
	int i;

	h->m = m;
	h->hdd_next = calloc((size_t)m->nr_devices, sizeof(*h->hdd_next));
	h->devcal = calloc((size_t)m->nr_devices, sizeof(*h->devcal));
	h->linkcal = calloc((size_t)m->nr_nodes * m->nr_nodes, sizeof(*h->linkcal));
	h->link_bytes = calloc((size_t)m->nr_nodes * m->nr_nodes, sizeof(*h->link_bytes));
	h->dev = calloc((size_t)m->nr_devices, sizeof(*h->dev));
	h->rdcal = calloc((size_t)m->nr_devices, sizeof(*h->rdcal));
	h->wr_end = calloc((size_t)m->nr_devices, sizeof(*h->wr_end));
	h->rd_last = calloc((size_t)m->nr_devices, sizeof(*h->rd_last));
	h->cpucal = calloc((size_t)m->nr_cpus, sizeof(*h->cpucal));
	h->cpu_owner = malloc((size_t)m->nr_cpus * sizeof(*h->cpu_owner));
	h->swaplock = calloc((size_t)m->nr_devices, sizeof(*h->swaplock));
	h->treelock = calloc((size_t)m->nr_devices, sizeof(*h->treelock));
	h->lrulock = calloc((size_t)m->nr_nodes, sizeof(*h->lrulock));
	h->mix = calloc(2 * (size_t)m->nr_devices, sizeof(*h->mix));
	if (!h->hdd_next || !h->devcal || !h->linkcal || !h->link_bytes || !h->dev ||
	    !h->rdcal || !h->wr_end || !h->rd_last || !h->cpucal || !h->cpu_owner ||
	    !h->swaplock || !h->treelock ||
	    !h->lrulock || !h->mix)
		return -1;
	for (i = 0; i < m->nr_devices; i++) {
		snprintf(h->dev[i].name, sizeof(h->dev[i].name), "%s", m->dev[i].name);
		h->wr_end[i] = -INFINITY;
		h->rd_last[i] = -INFINITY;
	}
	for (i = 0; i < m->nr_cpus; i++)
		h->cpu_owner[i] = -1;
	/* Until sr_hw_set_write_limits(): no bound but the request queue's. */
	h->wbt.read_recent = h->wbt.idle = SR_BLKDEV_MAX_RQ;
	h->rng = SR_HW_SEED;
	return 0;
}

void sr_hw_set_write_limits(struct sr_hw *h, const struct sr_wbt_limits *l)
{
	h->wbt = *l;
}

void sr_hw_free(struct sr_hw *h)
{
	int i, n;

	if (h->m) {
		for (i = 0; h->devcal && i < h->m->nr_devices; i++)
			cal_free(&h->devcal[i]);
		for (i = 0; h->rdcal && i < h->m->nr_devices; i++)
			cal_free(&h->rdcal[i]);
		for (i = 0; h->swaplock && i < h->m->nr_devices; i++)
			cal_free(&h->swaplock[i]);
		for (i = 0; h->treelock && i < h->m->nr_devices; i++)
			cal_free(&h->treelock[i]);
		n = h->m->nr_nodes * h->m->nr_nodes;
		for (i = 0; h->linkcal && i < n; i++)
			cal_free(&h->linkcal[i]);
		for (i = 0; h->lrulock && i < h->m->nr_nodes; i++)
			cal_free(&h->lrulock[i]);
		for (i = 0; h->cpucal && i < h->m->nr_cpus; i++)
			cal_free(&h->cpucal[i]);
	}
	free(h->rdcal);
	free(h->wr_end);
	free(h->rd_last);
	free(h->cpucal);
	free(h->cpu_owner);
	free(h->swaplock);
	free(h->treelock);
	free(h->lrulock);
	free(h->mix);
	free(h->hdd_next);
	free(h->devcal);
	free(h->linkcal);
	free(h->link_bytes);
	free(h->dev);
}

void sr_hw_copy_counters(struct sr_hw *dst, const struct sr_hw *src)
{
	const struct sr_machine *m = src->m;

	memcpy(dst->dev, src->dev, (size_t)m->nr_devices * sizeof(*dst->dev));
	memcpy(dst->link_bytes, src->link_bytes,
	       (size_t)m->nr_nodes * m->nr_nodes * sizeof(*dst->link_bytes));
	memcpy(dst->wait_ns, src->wait_ns, sizeof(dst->wait_ns));
}

int sr_hw_copy(struct sr_hw *dst, const struct sr_hw *src)
{
	const struct sr_machine *m = src->m;
	int i, n = m->nr_nodes * m->nr_nodes;

	sr_hw_copy_counters(dst, src);
	memcpy(dst->hdd_next, src->hdd_next, (size_t)m->nr_devices * sizeof(*dst->hdd_next));
	memcpy(dst->wr_end, src->wr_end, (size_t)m->nr_devices * sizeof(*dst->wr_end));
	memcpy(dst->rd_last, src->rd_last, (size_t)m->nr_devices * sizeof(*dst->rd_last));
	dst->wbt = src->wbt;
	memcpy(dst->cpu_owner, src->cpu_owner, (size_t)m->nr_cpus * sizeof(*dst->cpu_owner));
	dst->rng = src->rng;
	memcpy(dst->mix, src->mix, 2 * (size_t)m->nr_devices * sizeof(*dst->mix));
	for (i = 0; i < m->nr_devices; i++)
		if (cal_copy(&dst->devcal[i], &src->devcal[i]) ||
		    cal_copy(&dst->rdcal[i], &src->rdcal[i]))
			return -1;
	for (i = 0; i < n; i++)
		if (cal_copy(&dst->linkcal[i], &src->linkcal[i]))
			return -1;
	for (i = 0; i < m->nr_devices; i++)
		if (cal_copy(&dst->swaplock[i], &src->swaplock[i]) ||
		    cal_copy(&dst->treelock[i], &src->treelock[i]))
			return -1;
	for (i = 0; i < m->nr_nodes; i++)
		if (cal_copy(&dst->lrulock[i], &src->lrulock[i]))
			return -1;
	for (i = 0; i < m->nr_cpus; i++)
		if (cal_copy(&dst->cpucal[i], &src->cpucal[i]))
			return -1;
	return 0;
}

uint64_t sr_hw_stale(const struct sr_hw *h)
{
	const struct sr_machine *m = h->m;
	uint64_t n = 0;
	int i;

	for (i = 0; i < m->nr_devices; i++)
		n += h->devcal[i].stale + h->rdcal[i].stale + h->swaplock[i].stale +
		     h->treelock[i].stale;
	for (i = 0; i < m->nr_nodes * m->nr_nodes; i++)
		n += h->linkcal[i].stale;
	for (i = 0; i < m->nr_nodes; i++)
		n += h->lrulock[i].stale;
	for (i = 0; i < m->nr_cpus; i++)
		n += h->cpucal[i].stale;
	return n;
}
