/* SPDX-License-Identifier: MIT */
/* What the hardware charges for one event (resources.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>

#include "hw/resources.h"

void sr_hw_memo_init(struct sr_hw_memo *memo, const struct sr_machine *m)
{
	size_t n = (size_t)m->nr_nodes, i = 0;
	struct sr_event e = { 0 };
	int dv;

	memo->ent = NULL;
	if (m->nr_nodes > 8)
		return;
	memo->ent = calloc((size_t)m->nr_devices * 2 * n * n, sizeof(*memo->ent));
	if (!memo->ent)
		return;
	/* Every entry now: the simulations' threads then only read them. */
	e.nr_pages = 1;
	for (dv = 0; dv < m->nr_devices; dv++)
		for (e.op = 0; e.op < 2; e.op++)
			for (e.cpu_nid = 0; e.cpu_nid < n; e.cpu_nid++)
				for (e.page_nid = 0; e.page_nid < n; e.page_nid++)
					sr_hw_cost(m, &m->dev[dv], &e, 1, &memo->ent[i++]);
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
	h->head = calloc((size_t)m->nr_devices, sizeof(*h->head));
	h->q = calloc((size_t)m->nr_devices, sizeof(*h->q));
	h->lim = calloc((size_t)m->nr_devices, sizeof(*h->lim));
	h->qlock = calloc((size_t)m->nr_devices, sizeof(*h->qlock));
	h->wstream = calloc((size_t)m->nr_devices * SR_HW_STREAMS, sizeof(*h->wstream));
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
	h->tree_last = calloc((size_t)m->nr_devices, sizeof(*h->tree_last));
	h->lrulock = calloc((size_t)m->nr_nodes, sizeof(*h->lrulock));
	h->mix = calloc(2 * (size_t)m->nr_devices, sizeof(*h->mix));
	h->flash = calloc((size_t)m->nr_devices, sizeof(*h->flash));
	h->hdd = calloc((size_t)m->nr_devices, sizeof(*h->hdd));
	if (!h->hdd || sr_hw_trunks_init(&h->trunks, m, &h->now))
		return -1;
	if (!h->head || !h->q || !h->lim || !h->qlock || !h->wstream || !h->devcal || !h->linkcal || !h->link_bytes || !h->dev ||
	    !h->rdcal || !h->wr_end || !h->rd_last || !h->cpucal || !h->cpu_owner ||
	    !h->swaplock || !h->treelock || !h->tree_last ||
	    !h->lrulock || !h->mix || !h->flash)
		return -1;
	for (i = 0; i < m->nr_devices; i++) {
		const struct sr_device *d = &m->dev[i];

		snprintf(h->dev[i].name, sizeof(h->dev[i].name), "%s", d->name);
		h->wr_end[i] = -INFINITY;
		h->rd_last[i] = -INFINITY;
		if (d->cls == SR_DEV_HDD) {
			struct sr_hw_hdd *hd = &h->hdd[i];

			cal_set_bucket(&h->devcal[i], CAL_HDD_BUCKET_NS);
			hd->act = -1;
			hd->last_end = -INFINITY;
			hd->nseg = (int)d->read_segments;
			hd->seg_pages = (uint64_t)(d->segment_bytes / SR_PAGE_SIZE);
			if (hd->seg_pages < 1)
				hd->nseg = 0;
			if (d->write_cache && d->cache_bytes >= SR_PAGE_SIZE) {
				hd->cap_pages = (uint64_t)(d->cache_bytes / SR_PAGE_SIZE);
				hd->cap = (uint32_t)hd->cap_pages;
				hd->doff = calloc(hd->cap, sizeof(*hd->doff));
				hd->dpages = calloc(hd->cap, sizeof(*hd->dpages));
				hd->dat = calloc(hd->cap, sizeof(*hd->dat));
				hd->byend = calloc(2u << SR_HW_RUNMAP_BITS, sizeof(*hd->byend));
				hd->bystart = hd->byend + (1u << SR_HW_RUNMAP_BITS);
				if (!hd->doff || !hd->dpages || !hd->dat || !hd->byend)
					return -1;
			}
		}
		/* (B1) A SATA device's one queue has an elevator; NVMe's queue
		 * per CPU has none. */
		if (sr_hw_is_blk(d) &&
		    sr_blkq_init(&h->q[i], d->cls != SR_DEV_NVME, 1, (unsigned)d->queue_depth))
			return -1;
		h->lim[i].max_pages = sr_hw_is_blk(d) ? (uint32_t)(d->max_sectors_kb / 4) : 0;
		h->lim[i].max_segments = sr_hw_is_blk(d) ? (uint32_t)d->max_segments : 0;
		if (h->lim[i].max_pages < 1)
			h->lim[i].max_pages = 1;
		if (d->cls == SR_DEV_NVME || d->cls == SR_DEV_SSD) {
			struct sr_hw_flash *f = &h->flash[i];

			sr_cost_request(d, SR_OP_OUT, 1, 0, &f->work1[SR_OP_OUT], &f->lat1[SR_OP_OUT]);
			sr_cost_request(d, SR_OP_IN, 1, 0, &f->work1[SR_OP_IN], &f->lat1[SR_OP_IN]);
			sr_cost_request_stream(d, 1, &f->stream_work1, &f->stream_lat1);
			f->cw = 1e9 / d->write_iops;
			f->P = d->read_iops * d->read_lat_ns / 1e9;
		}
	}
	for (i = 0; i < m->nr_cpus; i++) {
		h->cpu_owner[i] = -1;
		h->cpucal[i].now = &h->now;
	}
	/* The resources held for a moment keep their windows at the
	 * simulation's time (calendar.h: a task held by a full queue books
	 * its next moment there far ahead). */
	for (i = 0; i < m->nr_devices; i++)
		h->swaplock[i].now = h->treelock[i].now = h->qlock[i].now = &h->now;
	for (i = 0; i < m->nr_nodes; i++)
		h->lrulock[i].now = &h->now;
	/* Until sr_hw_set_write_limits(): no bound but the request queue's. */
	h->wbt.read_recent = h->wbt.idle = h->wbt.kswapd = SR_BLKDEV_MAX_RQ;
	sr_hw_set_key(h, 0);
	return 0;
}

void sr_hw_set_write_limits(struct sr_hw *h, const struct sr_wbt_limits *l, int wbt)
{
	int i;

	h->wbt = *l;
	for (i = 0; i < h->m->nr_devices; i++)
		h->q[i].wbt = wbt;
}

void sr_hw_set_kernel(struct sr_hw *h, const struct sr_kernel *k)
{
	int i;

	for (i = 0; i < h->m->nr_devices; i++)
		h->swapcache_in[i] = sr_cost_swapcache_ns(h->m, k, h->m->dev[i].cls);
}

size_t sr_hw_bytes(const struct sr_machine *m, const struct sr_kernel *k, size_t *cpu_bytes)
{
	const int device_locks = k->device_locks, trunk_locks = k->trunk_locks;
	const size_t cal = CAL_BUCKETS * (sizeof(double) + sizeof(uint32_t));
	size_t n = (size_t)m->nr_nodes * (size_t)m->nr_nodes + (size_t)m->nr_nodes, arrays;
	size_t n_hdd_bytes = 0;
	int i;

	for (i = 0; i < m->nr_devices; i++) {
		enum sr_dev_class c = m->dev[i].cls;

		n += 2 + (c == SR_DEV_NVME || c == SR_DEV_SSD) + (c == SR_DEV_SSD || c == SR_DEV_HDD) +
		     (device_locks != 0);
	}
	for (i = 0; i < m->nr_devices; i++) {
		const struct sr_device *d = &m->dev[i];

		if (d->cls == SR_DEV_HDD && d->write_cache)
			n_hdd_bytes += (size_t)(d->cache_bytes / SR_PAGE_SIZE) *
				       (sizeof(uint64_t) + sizeof(uint32_t) + sizeof(double)) +
				       (2u << SR_HW_RUNMAP_BITS) * sizeof(uint32_t);
	}
	arrays = n_hdd_bytes + sizeof(struct sr_hw) +
		 (size_t)m->nr_devices * (sizeof(struct sr_dev_result) + 5 * sizeof(struct cal) +
					  sizeof(struct sr_hw_hdd) +
					  SR_HW_STREAMS * sizeof(uint64_t) + 64) +
		 (size_t)(m->nr_nodes * m->nr_nodes + m->nr_nodes + m->nr_cpus) *
			 (sizeof(struct cal) + sizeof(uint64_t));
	*cpu_bytes = cal;
	return n * cal + arrays + (trunk_locks ? sr_hw_trunks_bytes(m) : 0);
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
		for (i = 0; h->qlock && i < h->m->nr_devices; i++)
			cal_free(&h->qlock[i]);
		for (i = 0; h->q && i < h->m->nr_devices; i++)
			sr_blkq_free(&h->q[i]);
		n = h->m->nr_nodes * h->m->nr_nodes;
		for (i = 0; h->linkcal && i < n; i++)
			cal_free(&h->linkcal[i]);
		for (i = 0; h->lrulock && i < h->m->nr_nodes; i++)
			cal_free(&h->lrulock[i]);
		for (i = 0; h->cpucal && i < h->m->nr_cpus; i++)
			cal_free(&h->cpucal[i]);
		sr_hw_trunks_free(&h->trunks, h->m->nr_devices);
	}
	for (i = 0; h->m && h->hdd && i < h->m->nr_devices; i++) {
		free(h->hdd[i].doff);
		free(h->hdd[i].dpages);
		free(h->hdd[i].dat);
		free(h->hdd[i].byend);
	}
	free(h->hdd);
	free(h->rdcal);
	free(h->wr_end);
	free(h->rd_last);
	free(h->cpucal);
	free(h->cpu_owner);
	free(h->swaplock);
	free(h->treelock);
	free(h->tree_last);
	free(h->lrulock);
	free(h->mix);
	free(h->flash);
	free(h->head);
	free(h->q);
	free(h->lim);
	free(h->qlock);
	free(h->wstream);
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
	dst->blk_cpu_ns = src->blk_cpu_ns;
}

int sr_hw_copy(struct sr_hw *dst, const struct sr_hw *src)
{
	const struct sr_machine *m = src->m;
	int i, n = m->nr_nodes * m->nr_nodes;

	sr_hw_copy_counters(dst, src);
	memcpy(dst->head, src->head, (size_t)m->nr_devices * sizeof(*dst->head));
	memcpy(dst->wstream, src->wstream,
	       (size_t)m->nr_devices * SR_HW_STREAMS * sizeof(*dst->wstream));
	for (i = 0; i < m->nr_devices; i++)
		sr_blkq_copy(&dst->q[i], &src->q[i]);
	memcpy(dst->wr_end, src->wr_end, (size_t)m->nr_devices * sizeof(*dst->wr_end));
	memcpy(dst->rd_last, src->rd_last, (size_t)m->nr_devices * sizeof(*dst->rd_last));
	for (i = 0; i < m->nr_devices; i++) {
		/* An hdd's state, and the live part of its ring of dirty runs
		 * (dst's ring, of the same size, is its own). */
		struct sr_hw_hdd *a = &dst->hdd[i];
		const struct sr_hw_hdd *b = &src->hdd[i];
		uint64_t *doff = a->doff;
		uint32_t *dpages = a->dpages, k;
		double *dat = a->dat;
		uint32_t *byend = a->byend;

		*a = *b;
		a->doff = doff;
		a->dpages = dpages;
		a->dat = dat;
		a->byend = byend;
		a->bystart = byend ? byend + (1u << SR_HW_RUNMAP_BITS) : NULL;
		if (byend)
			memcpy(byend, b->byend, (2u << SR_HW_RUNMAP_BITS) * sizeof(*byend));
		for (k = 0; k < b->n; k++) {
			uint32_t j = (b->first + k) % b->cap;

			a->doff[j] = b->doff[j];
			a->dpages[j] = b->dpages[j];
			a->dat[j] = b->dat[j];
		}
	}
	dst->wbt = src->wbt;
	dst->now = src->now;
	memcpy(dst->cpu_owner, src->cpu_owner, (size_t)m->nr_cpus * sizeof(*dst->cpu_owner));
	dst->draw_key = src->draw_key;
	dst->draw_n = src->draw_n;
	memcpy(dst->mix, src->mix, 2 * (size_t)m->nr_devices * sizeof(*dst->mix));
	memcpy(dst->tree_last, src->tree_last, (size_t)m->nr_devices * sizeof(*dst->tree_last));
	for (i = 0; i < m->nr_devices; i++)
		if (cal_copy(&dst->devcal[i], &src->devcal[i]) ||
		    cal_copy(&dst->rdcal[i], &src->rdcal[i]))
			return -1;
	for (i = 0; i < n; i++)
		if (cal_copy(&dst->linkcal[i], &src->linkcal[i]))
			return -1;
	for (i = 0; i < m->nr_devices; i++)
		if (cal_copy(&dst->swaplock[i], &src->swaplock[i]) ||
		    cal_copy(&dst->treelock[i], &src->treelock[i]) ||
		    cal_copy(&dst->qlock[i], &src->qlock[i]))
			return -1;
	for (i = 0; i < m->nr_nodes; i++)
		if (cal_copy(&dst->lrulock[i], &src->lrulock[i]))
			return -1;
	if (sr_hw_trunks_copy(&dst->trunks, &src->trunks, m->nr_devices))
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
		     h->treelock[i].stale + h->qlock[i].stale;
	for (i = 0; i < m->nr_nodes * m->nr_nodes; i++)
		n += h->linkcal[i].stale;
	for (i = 0; i < m->nr_nodes; i++)
		n += h->lrulock[i].stale;
	for (i = 0; i < m->nr_cpus; i++)
		n += h->cpucal[i].stale;
	return n + sr_hw_trunks_stale(&h->trunks);
}

/* (D5) Whether a write at off continues one of flash device dv's streams:
 * a table of where recent writes ended, by a hash of the offset
 * (SR_HW_STREAMS places: a stream is lost when another write's end lands
 * on its place, 1 in 4096 a write); the stream now ends at end. */
static int stream(struct sr_hw *h, int dv, uint64_t off, uint64_t end)
{
	uint64_t *t = h->wstream + (size_t)dv * SR_HW_STREAMS;
	int seq = off && t[(off * 0x9e3779b97f4a7c15ull) >> (64 - SR_HW_STREAM_BITS)] == off;

	t[(end * 0x9e3779b97f4a7c15ull) >> (64 - SR_HW_STREAM_BITS)] = end;
	return seq;
}

/*
 * (D4) An hdd's positioning for a request at off that reached its queue
 * at t and whose mechanism work starts at s: from where its head is, or,
 * when requests are still queued or on the drive (ncq), from the end of
 * whichever of them is quickest to reach: the drive's command queuing
 * (NCQ) and the elevator's sector order (mq-deadline, the single-queue
 * elevators) serve a request that continues a queued one right after
 * it, and the one with the shortest positioning otherwise.
 */
static double hdd_position(struct sr_hw *h, int dv, uint64_t off, double t, double s, int ncq)
{
	const struct sr_device *dev = &h->m->dev[dv];
	uint64_t ends[SR_BLK_DEPTH_MAX];
	unsigned n, i;
	double best = sr_cost_hdd_position(dev, h->head[dv], off, s);

	if (!ncq || off == UINT64_MAX)
		return best;
	n = sr_blkq_pending_ends(&h->q[dv], t, ends);
	for (i = 0; i < n && best > 0; i++) {
		double p = ends[i] == off ? 0 : sr_cost_hdd_position(dev, ends[i], off, s);

		if (p < best)
			best = p;
	}
	return best;
}

/* (D4) The pages segment g holds at t: hi(t) (resources.h). */
static uint64_t seg_hi(const struct sr_device *dev, const struct sr_hw_seg *g, double t)
{
	double u = t < g->stop ? t : g->stop, k;

	if (u <= g->t0)
		return g->base;
	k = floor((u - g->t0) * dev->read_bw / (1e9 * SR_PAGE_SIZE));
	return k >= (double)(g->lim - g->base) ? g->lim : g->base + (uint64_t)k;
}

/* (D4) When segment g's read-ahead is done: stopped, or the segment full. */
static double seg_done(const struct sr_device *dev, const struct sr_hw_seg *g)
{
	double full = g->t0 + 1e9 * (double)(g->lim - g->base) * SR_PAGE_SIZE / dev->read_bw;

	return full < g->stop ? full : g->stop;
}

/*
 * (D4) A job of the mechanism: pages at off for op, from s0 on at the
 * earliest (when the mechanism is free): a read-ahead under way stops
 * (the head is where it got to), then W = positioning + B / bw on the
 * device's calendar.  Returns when the job is done; *work is W.
 */
static double hdd_job(struct sr_hw *h, int dv, int op, uint64_t off, uint32_t pages, double t,
		      double s0, int ncq, double *work)
{
	const struct sr_device *dev = &h->m->dev[dv];
	struct sr_hw_hdd *hd = &h->hdd[dv];
	double s = s0 > hd->end ? s0 : hd->end, W;

	if (hd->act >= 0) {
		struct sr_hw_seg *g = &hd->seg[hd->act];

		if (g->stop > s)
			g->stop = s < g->t0 ? g->t0 : s;
		h->head[dv] = seg_hi(dev, g, s);
		hd->act = -1;
	}
	W = hdd_position(h, dv, off, t, s, ncq) +
	    1e9 * (double)pages * SR_PAGE_SIZE / (op == SR_OP_OUT ? dev->write_bw : dev->read_bw);
	if (SR_UNLIKELY(!h->devcal[dv].used) && !cal_need(&h->devcal[dv]))
		return -1;
	cal_reserve(&h->devcal[dv], s, W);
	h->dev[dv].busy_ns += W;
	hd->end = s + W;
	if (off != UINT64_MAX)
		h->head[dv] = off + pages;
	*work = W;
	return hd->end;
}

/*
 * (D4) The write-back cache destages while the mechanism has nothing
 * else to do (a read-ahead runs first, to its segment's end): the oldest
 * dirty run, whenever the mechanism is free before t.  0, or -1 out of
 * memory.
 */
static int hdd_destage(struct sr_hw *h, int dv, double t)
{
	const struct sr_device *dev = &h->m->dev[dv];
	struct sr_hw_hdd *hd = &h->hdd[dv];

	while (hd->n) {
		double free_at = hd->end > hd->dat[hd->first] ? hd->end : hd->dat[hd->first], W;
		uint32_t p = hd->dpages[hd->first];

		if (hd->act >= 0) {
			double e = seg_done(dev, &hd->seg[hd->act]);

			if (e > free_at)
				free_at = e;
		}
		if (free_at >= t)
			break;
		if (hdd_job(h, dv, SR_OP_OUT, hd->doff[hd->first], p, free_at, free_at, 0, &W) < 0)
			return -1;
		hd->first = (hd->first + 1) % hd->cap;
		hd->n--;
		hd->queued -= p;
		hd->last_end = hd->end;
		hd->last_pages = p;
	}
	return 0;
}

/* (D4) A page's place in an hdd's maps of run ends and starts. */
static inline uint32_t run_hash(uint64_t p)
{
	return (uint32_t)((p * 0x9e3779b97f4a7c15ull) >> (64 - SR_HW_RUNMAP_BITS));
}

/* Whether ring place j holds a queued run. */
static inline int run_live(const struct sr_hw_hdd *hd, uint32_t j)
{
	return j < hd->cap && (j + hd->cap - hd->first) % hd->cap < hd->n;
}

/*
 * (D4) pages at off into the write-back cache, from x on: when it has
 * room for them (queued runs and the one being destaged count; when full,
 * the mechanism destages the oldest now and the write waits until a run
 * is done), then queued as a run.  Returns when the write is in
 * (-1 out of memory).
 */
static double hdd_absorb(struct sr_hw *h, int dv, uint64_t off, uint32_t pages, double x)
{
	struct sr_hw_hdd *hd = &h->hdd[dv];
	uint64_t need = pages < hd->cap_pages ? pages : hd->cap_pages;
	uint32_t last;

	for (;;) {
		uint64_t busy;
		double W;

		if (hdd_destage(h, dv, x))
			return -1;
		busy = hd->last_end > x ? hd->last_pages : 0;
		if (hd->queued + busy + need <= hd->cap_pages)
			break;
		if (busy && (hd->queued + need <= hd->cap_pages || !hd->n)) {
			x = hd->last_end;
			continue;
		}
		/* Full: the oldest run goes to the media now. */
		if (hdd_job(h, dv, SR_OP_OUT, hd->doff[hd->first], hd->dpages[hd->first], x, x, 0,
			    &W) < 0)
			return -1;
		hd->queued -= hd->dpages[hd->first];
		hd->last_end = hd->end;
		hd->last_pages = hd->dpages[hd->first];
		hd->first = (hd->first + 1) % hd->cap;
		hd->n--;
	}
	if (off != UINT64_MAX) {
		uint32_t *e = &hd->byend[run_hash(off)], *b = &hd->bystart[run_hash(off + pages)];

		if (*e && run_live(hd, *e - 1) && hd->doff[*e - 1] + hd->dpages[*e - 1] == off &&
		    hd->dpages[*e - 1] + (uint64_t)pages < UINT32_MAX) {
			/* It continues a queued run. */
			last = *e - 1;
			hd->dpages[last] += pages;
			hd->byend[run_hash(off + pages)] = last + 1;
			goto joined;
		}
		if (*b && run_live(hd, *b - 1) && hd->doff[*b - 1] == off + pages &&
		    hd->dpages[*b - 1] + (uint64_t)pages < UINT32_MAX) {
			/* It ends where a queued run begins. */
			last = *b - 1;
			hd->doff[last] = off;
			hd->dpages[last] += pages;
			hd->bystart[run_hash(off)] = last + 1;
			goto joined;
		}
	}
	last = (hd->first + hd->n) % hd->cap;
	hd->doff[last] = off;
	hd->dpages[last] = pages;
	hd->n++;
	if (off != UINT64_MAX) {
		hd->byend[run_hash(off + pages)] = last + 1;
		hd->bystart[run_hash(off)] = last + 1;
	}
joined:
	hd->dat[last] = x;
	hd->queued += pages;
	return x;
}

/*
 * (D4) An hdd serves a request of pages at off for op that reached its
 * queue at t and got its tag at d: *lat is its time on the drive (from
 * when the drive began it), the mechanism's work booked on the device's
 * calendar as it is done.  Returns when it is done (-1 out of memory).
 *   a write, write-back on:    done = room(d + O_w) + B / iface
 *   a read in a segment:       done = d + O_h + B / iface
 *     (a segment still reading ahead: no earlier than its read-ahead
 *      reaches the request's end)
 *   else (the media):          s = max(d + O, free), done = s + position(s) + B / bw
 */
static double hdd_serve(struct sr_hw *h, int dv, int op, uint64_t off, uint32_t pages, double t,
			double d, double *lat)
{
	const struct sr_device *dev = &h->m->dev[dv];
	struct sr_hw_hdd *hd = &h->hdd[dv];
	const double B = (double)pages * SR_PAGE_SIZE;
	double fin, W, ovh;
	uint64_t o = off, n = pages;
	int i;

	if (hd->n && hdd_destage(h, dv, d))
		return -1;
	if (op == SR_OP_OUT) {
		if (hd->cap_pages) {
			double x = hdd_absorb(h, dv, off, pages, d + dev->ovh_write_ns);

			if (x < 0)
				return -1;
			fin = x + 1e9 * B / dev->iface_bw;
			*lat = dev->ovh_write_ns + 1e9 * B / dev->iface_bw;
			return fin;
		}
		ovh = dev->ovh_write_ns;
	} else {
		ovh = dev->ovh_miss_ns;
		for (i = 0; i < hd->nseg && off != UINT64_MAX; i++) {
			struct sr_hw_seg *g = &hd->seg[i];
			uint64_t hi;

			if (!g->lim || off < g->lo || off > g->lim)
				continue;
			hi = seg_hi(dev, g, d);
			if (off + pages <= hi || (i == hd->act && off <= hi && off + pages <= g->lim &&
						  g->stop == INFINITY)) {
				/* In the segment, or read ahead into it before
				 * long: from the cache. */
				fin = d + dev->ovh_hit_ns + 1e9 * B / dev->iface_bw;
				if (off + pages > hi) {
					double r = g->t0 + 1e9 * (double)(off + pages - g->base) *
							   SR_PAGE_SIZE / dev->read_bw;

					if (r > fin)
						fin = r;
				}
				g->used = d;
				*lat = fin - d;
				return fin;
			}
			if (off < hi) {
				/* Its first pages are: the rest from the media. */
				n = off + pages - hi;
				o = hi;
			}
		}
	}
	fin = hdd_job(h, dv, op, o, (uint32_t)n, t, d + ovh, 1, &W);
	if (fin < 0)
		return -1;
	*lat = ovh + W;
	if (op == SR_OP_IN && hd->nseg && off != UINT64_MAX) {
		/* The read's segment (the least recently used), reading ahead
		 * from its end. */
		struct sr_hw_seg *g = &hd->seg[0];

		for (i = 1; i < hd->nseg; i++)
			if (hd->seg[i].used < g->used)
				g = &hd->seg[i];
		g->base = off + pages;
		g->lo = pages >= hd->seg_pages ? g->base - hd->seg_pages : off;
		g->lim = g->lo + hd->seg_pages;
		if (g->lim < g->base)
			g->lim = g->base;
		g->t0 = fin;
		g->stop = INFINITY;
		g->used = fin;
		hd->act = (int)(g - hd->seg);
	}
	return fin;
}

/* (B4) Request sizes: a request of pages counted in (+1) or out (-1). */
static void req_count(struct sr_dev_result *r, uint32_t pages, int sign)
{
	int b = 31 - __builtin_clz(pages);

	if (b >= SR_REQ_HIST)
		b = SR_REQ_HIST - 1;
	r->req_hist[b] += (uint64_t)(int64_t)sign;
	r->req_pages_sq += sign * (double)pages * (double)pages;
}

/*
 * (B2) docs/MODEL.md, "The block layer":
 *
 *   t1 = t + Q           a single-queue device's queue lock, Q per hold
 *                        (the elevator's merge attempt and the insertion)
 *   merged into a waiting request r (blk-mq.c): r grows by the pages,
 *                        fin(r) += W(r + pages) - W(r); no new request
 *   else t2 = t1 + R     the request's CPU work on the task's CPU
 *        d = dispatch(t2)               its tag (blk-mq.c)
 *        f = reserve(device, d, W)      W, L: sr_cost_request(), an hdd's
 *                                       positioning from its head (D4)
 *        fin = max(d + L, f)            (D3 for a flash read)
 */
/*
 * (D2) A DMA request's bytes B crossing from memory node `node` to device
 * dv's node (a write) or back (a read), when they differ: the index of
 * the link's calendar, or -1 (no crossing: the same node, or either
 * unknown).
 */
static int dma_link(const struct sr_hw *h, int dv, int op, int node)
{
	const struct sr_machine *m = h->m;
	int dn = m->dev[dv].node;

	if (node < 0 || dn < 0 || node == dn || node >= m->nr_nodes || dn >= m->nr_nodes)
		return -1;
	return op == SR_OP_OUT ? node * m->nr_nodes + dn : dn * m->nr_nodes + node;
}

/*
 * (D2) B bytes over link li: its calendar's work w = B / link_bw, from s
 * on at the earliest (or, by_end, from s - w: a crossing that could end
 * at s), then link_lat; when the last byte is across (-1 out of memory).
 */
static double dma_cross(struct sr_hw *h, int li, uint64_t B, double s, int by_end)
{
	struct cal *cal = &h->linkcal[li];
	double w = 1e9 * (double)B / h->m->link_bw;

	if (SR_UNLIKELY(!cal->used) && !cal_need(cal))
		return -1;
	h->link_bytes[li] += B;
	return cal_reserve(cal, by_end ? s - w : s, w) + h->m->link_lat_ns;
}

double sr_hw_submit(struct sr_hw *h, int dv, int cpu, long task, int op, uint64_t off,
		    uint32_t pages, uint32_t bios, int how, int node, double t,
		    double *cpu_done)
{
	const int bio = how & SR_SUBMIT_ALONE;
	const struct sr_machine *m = h->m;
	const struct sr_device *dev = &m->dev[dv];
	struct sr_dev_result *r = &h->dev[dv];
	struct sr_blk_queue *q = &h->q[dv];
	struct sr_blk_wait *w;
	struct cal *cal = &h->devcal[dv];
	/* The request's bytes, in integers: exact as (uint64_t)((double)pages x
	 * SR_PAGE_SIZE) would be (far below 2^53), without the conversions. */
	const uint64_t B = (uint64_t)pages * SR_PAGE_SIZE;
	double W, L, d, f, fin, t0 = t;
	/* Read once: the stores below might alias them for the compiler. */
	const int out = op == SR_OP_OUT, flash = dev->cls != SR_DEV_HDD;
	const int li = dma_link(h, dv, op, node);
	int seq;

	/* Its bios, all but one merged in a plug when it is a plug's. */
	r->bios += bios;
	r->plug_merges += bios - 1;
	if (q->elevator) {
		t = sr_hw_lock(h, &h->qlock[dv], SR_WAIT_QUEUE_LOCK, t, m->queue_lock_ns);
		if (t < 0)
			return -1;
		h->blk_cpu_ns += t - t0;
		if (off != UINT64_MAX &&
		    (w = sr_blkq_merge(q, &h->lim[dv], op, off, pages, bios, bio, t))) {
			double W0, W1, L0;

			sr_cost_request(dev, op, w->pages - pages, 0, &W0, &L0);
			sr_cost_request(dev, op, w->pages, 0, &W1, &L0);
			double nf;

			if (!flash && out && h->hdd[dv].cap_pages) {
				/* (D4) Into an hdd's write-back cache after
				 * the request's own pages: the mechanism's work
				 * comes with the destage. */
				nf = hdd_absorb(h, dv, off, pages, w->fin);
				if (nf < 0)
					return -1;
				nf += 1e9 * (double)B / dev->iface_bw;
				W1 = W0;
			} else {
				if (SR_UNLIKELY(!cal->used) && !cal_need(cal))
					return -1;
				cal_reserve(cal, w->dispatch, W1 - W0);
				nf = w->fin + (W1 - W0);
				if (!flash) {
					/* (D4) The mechanism's work grows, and a
					 * read's read-ahead starts after it. */
					struct sr_hw_hdd *hd = &h->hdd[dv];

					hd->end += W1 - W0;
					if (hd->act >= 0 && hd->seg[hd->act].base == off &&
					    hd->seg[hd->act].stop == INFINITY) {
						struct sr_hw_seg *g = &hd->seg[hd->act];

						g->base += pages;
						g->t0 += W1 - W0;
						if (g->lim < g->base)
							g->lim = g->base;
					}
				}
			}
			if (li >= 0) {
				/* (D2) Its bytes cross too, from the request's
				 * dispatch on. */
				double fl = dma_cross(h, li, B, w->dispatch, 0);

				if (fl < 0)
					return -1;
				if (fl > nf)
					nf = fl;
			}
			sr_blkq_extend(q, w, nf);
			/* The head ends where the latest request now does. */
			if (w->seq + 1 == q->seq && W1 > W0)
				h->head[dv] = w->off + w->pages;
			r->busy_ns += W1 - W0;
			r->queue_merges++;
			req_count(r, w->pages - pages, -1);
			req_count(r, w->pages, 1);
			if (op == SR_OP_OUT)
				r->write_bytes += B;
			else
				r->read_bytes += B;
			*cpu_done = t;
			return w->fin;
		}
	}
	if (out) {
		/* (B2) A write becomes a request when the device has room for
		 * one: its writer sleeps until then. */
		unsigned lim = !q->wbt ? SR_BLKDEV_MAX_RQ :
			       (how & SR_SUBMIT_KSWAPD) ? h->wbt.kswapd :
			       t - h->rd_last[dv] < SR_WBT_CLOSE_IO_NS ? h->wbt.read_recent :
			       h->wbt.idle;

		t = sr_blkq_write_room(q, lim, t);
	}
	t0 = t;
	t = sr_hw_cpu(h, cpu, task, t, m->blk_request_ns);
	if (t < 0)
		return -1;
	h->blk_cpu_ns += t - t0;
	*cpu_done = t;
	if (off != UINT64_MAX && flash)
		h->head[dv] = off + pages;
	seq = out && flash && off != UINT64_MAX && stream(h, dv, off, off + pages);
	if (!flash) {
		/* (D4) The drive's mechanism and cache book their own work. */
		W = 0;
	} else if (pages == 1) {
		/* The common request, its figures computed once. */
		const struct sr_hw_flash *fl = &h->flash[dv];

		W = seq ? fl->stream_work1 : fl->work1[op];
		L = seq ? fl->stream_lat1 : fl->lat1[op];
	} else if (seq) {
		sr_cost_request_stream(dev, pages, &W, &L);
	} else {
		sr_cost_request(dev, op, pages, 0, &W, &L);
	}
	d = sr_blkq_dispatch_time(q, t);
	if (!flash) {
		f = hdd_serve(h, dv, op, off, pages, t, d, &L);
		if (f < 0)
			return -1;
		/* Done at f, begun at f - L: no earlier than its tag. */
	} else {
		if (SR_UNLIKELY(!cal->used) && !cal_need(cal))
			return -1;
		f = cal_reserve(cal, d, W);
	}
	if (out) {
		double we = h->wr_end[dv];

		fin = d + L > f ? d + L : f;
		if (li >= 0) {
			/* (D2) The device takes the write's data from remote
			 * memory from its dispatch on: done no earlier than
			 * the last byte is across. */
			double fl = dma_cross(h, li, B, d, 0);

			if (fl < 0)
				return -1;
			if (fl > fin)
				fin = fl;
		}
		h->wr_end[dv] = f > we ? f : we;
		sr_blkq_write_add(q, fin);
		r->writes++;
		r->write_bytes += B;
	} else {
		if (flash) {
			/* (D3) a read: its work takes its share of the device
			 * (f, which later requests see) but it waits only for
			 * the reads ahead of it and the writes in flight. */
			struct cal *rc = &h->rdcal[dv];
			double fr;

			if (SR_UNLIKELY(!rc->used) && !cal_need(rc))
				return -1;
			fr = cal_reserve(rc, d, W);
			fin = (d + L > fr ? d + L : fr) + sr_hw_read_wait(h, dv, dev, d);
			h->rd_last[dv] = d;
		} else {
			fin = d + L > f ? d + L : f;
		}
		if (li >= 0) {
			/* (D2) The data read crosses into remote memory as the
			 * device delivers it: a crossing that could end as the
			 * read does, then the link's latency; later when the
			 * link is busy. */
			double fl = dma_cross(h, li, B, fin, 1);

			if (fl < 0)
				return -1;
			if (fl > fin)
				fin = fl;
		}
		r->reads++;
		r->read_bytes += B;
	}
	sr_blkq_add(q, op, off == UINT64_MAX ? UINT64_MAX - pages : off, pages, bios, t, d, fin);
	r->busy_ns += W;
	r->queue_ns += (fin - L > t ? fin - L : t) - t;
	r->req_ns += fin - t;
	req_count(r, pages, 1);
	return fin;
}
