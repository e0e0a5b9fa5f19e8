/* SPDX-License-Identifier: MIT */
/*
 * A device's request queue (blk-mq.h).  Read in 6.12 block/blk-mq.c
 * (blk_mq_submit_bio(): the plug merge, then blk_mq_sched_bio_merge(),
 * then rq_qos_throttle() and a new request), block/elevator.c
 * (elv_merge(): the request hash for back merges, mq-deadline's sort tree
 * for front merges, front_merges = 1; elv_attempt_insert_merge() for a
 * plug's request inserted: back merges only) and 4.9 block/blk-core.c
 * (blk_queue_bio(): the same merges under q->queue_lock).
 *
 * A request reaching the queue at t gets a tag when one is free:
 *
 *   dispatch(n) = max(t, fin(n - depth))
 *
 * fin(n - depth) being the completion of the request depth places before
 * it (the device holds depth at once: NCQ's 32 tags on SATA).  A write
 * becomes a request only when the device has fewer than its limit of
 * write requests (nr_requests, 128, before 4.10; writeback throttling's
 * 4 to 16 from 4.10): its writer sleeps until then.  Until
 * dispatch it waits in the elevator, where a bio or request that ends or
 * starts where it does joins it (blk-merge.c's limits).  Writes from 4.10
 * wait in writeback throttling instead, before they are requests: a write
 * request never waits for a tag there, so none is merged into (reads are
 * not throttled).  The elevator's dispatch order (mq-deadline's sector
 * order within a batch, reads before writes) is not modelled: requests are
 * served as they come.
 */
#include <stdlib.h>
#include <string.h>

#include "block/blk-merge.h"
#include "block/blk-mq.h"

int sr_blkq_init(struct sr_blk_queue *q, int elevator, int wbt, unsigned depth)
{
	memset(q, 0, sizeof(*q));
	q->elevator = elevator;
	q->wbt = wbt;
	q->depth = depth < 1 ? 1 : depth > SR_BLK_DEPTH_MAX ? SR_BLK_DEPTH_MAX : depth;
	q->t_max = -1e300;
	q->wdone = malloc(SR_BLK_WAIT_MAX * sizeof(*q->wdone));
	if (!q->wdone)
		return -1;
	if (!elevator)
		return 0;
	q->done = malloc(q->depth * sizeof(*q->done));
	q->end = calloc(q->depth, sizeof(*q->end));
	q->w = malloc(SR_BLK_WAIT_MAX * sizeof(*q->w));
	if (!q->done || !q->end || !q->w)
		return -1;
	for (unsigned i = 0; i < q->depth; i++)
		q->done[i] = -1e300;
	return 0;
}

void sr_blkq_free(struct sr_blk_queue *q)
{
	free(q->done);
	free(q->end);
	free(q->w);
	free(q->wdone);
	q->wdone = NULL;
	q->done = NULL;
	q->end = NULL;
	q->w = NULL;
}

void sr_blkq_copy(struct sr_blk_queue *dst, const struct sr_blk_queue *src)
{
	double *done = dst->done;
	uint64_t *end = dst->end;
	struct sr_blk_wait *w = dst->w;
	double *wdone = dst->wdone;

	*dst = *src;
	dst->done = done;
	dst->end = end;
	dst->w = w;
	dst->wdone = wdone;
	if (src->wdone)
		memcpy(dst->wdone, src->wdone, SR_BLK_WAIT_MAX * sizeof(*src->wdone));
	if (src->elevator) {
		memcpy(dst->done, src->done, src->depth * sizeof(*src->done));
		memcpy(dst->end, src->end, src->depth * sizeof(*src->end));
		memcpy(dst->w, src->w, SR_BLK_WAIT_MAX * sizeof(*src->w));
	}
}

/* Forget the waiting requests that have their tags by the latest
 * submission: nothing reaching the queue later merges into them. */
static void prune(struct sr_blk_queue *q)
{
	while (q->w_len && q->w[q->w_head].dispatch <= q->t_max) {
		q->w_head = (q->w_head + 1) % SR_BLK_WAIT_MAX;
		q->w_len--;
	}
}

struct sr_blk_wait *sr_blkq_merge(struct sr_blk_queue *q, const struct sr_blk_limits *lim,
				  int op, uint64_t off, uint32_t pages, uint32_t bios,
				  int front_ok, double t)
{
	unsigned i;

	if (t > q->t_max) {
		q->t_max = t;
		prune(q);
	}
	if (!q->elevator)
		return NULL;
	for (i = q->w_len; i-- > 0;) {
		struct sr_blk_wait *w = &q->w[(q->w_head + i) % SR_BLK_WAIT_MAX];

		if (w->op != op || w->insert > t || w->dispatch <= t ||
		    w->pages + pages > lim->max_pages || w->bios + bios > lim->max_segments)
			continue;
		if (w->off + w->pages == off) {
			w->pages += pages;
		} else if (front_ok && off + pages == w->off) {
			w->off = off;
			w->pages += pages;
		} else {
			continue;
		}
		w->bios += bios;
		return w;
	}
	return NULL;
}

double sr_blkq_write_room(const struct sr_blk_queue *q, unsigned lim, double t)
{
	double free_at;

	if (lim > SR_BLK_WAIT_MAX)
		lim = SR_BLK_WAIT_MAX;
	if (lim < 1)
		lim = 1;
	if (q->nw < lim)
		return t;
	free_at = q->wdone[(q->nw - lim) % SR_BLK_WAIT_MAX];
	return free_at > t ? free_at : t;
}

void sr_blkq_write_add(struct sr_blk_queue *q, double fin)
{
	q->wdone[q->nw % SR_BLK_WAIT_MAX] = fin;
	q->nw++;
}

double sr_blkq_dispatch_time(const struct sr_blk_queue *q, double t)
{
	double free_at;

	if (!q->elevator)
		return t;
	free_at = q->done[q->seq % q->depth];
	return free_at > t ? free_at : t;
}

struct sr_blk_wait *sr_blkq_add(struct sr_blk_queue *q, int op, uint64_t off, uint32_t pages,
				uint32_t bios, double insert, double dispatch, double fin)
{
	struct sr_blk_wait *w;

	if (!q->elevator) {
		q->seq++;
		return NULL;
	}
	q->done[q->seq % q->depth] = fin;
	q->end[q->seq % q->depth] = off + pages;
	q->seq++;
	if (dispatch <= insert || (q->wbt && op == SR_OP_OUT))
		return NULL;
	if (q->w_len == SR_BLK_WAIT_MAX) {
		/* nr_requests waiting: the oldest is forgotten (a submitter
		 * would sleep for a request here; the replay's resume rule
		 * holds the tasks back instead). */
		q->w_head = (q->w_head + 1) % SR_BLK_WAIT_MAX;
		q->w_len--;
	}
	w = &q->w[(q->w_head + q->w_len) % SR_BLK_WAIT_MAX];
	q->w_len++;
	*w = (struct sr_blk_wait){ off, q->seq - 1, pages, bios, op, insert, dispatch, fin };
	return w;
}

void sr_blkq_extend(struct sr_blk_queue *q, struct sr_blk_wait *w, double fin)
{
	if (q->seq - w->seq <= q->depth)
		q->end[w->seq % q->depth] = w->off + w->pages;
	if (fin <= w->fin)
		return;
	w->fin = fin;
	if (q->seq - w->seq <= q->depth)
		q->done[w->seq % q->depth] = fin;
}

unsigned sr_blkq_pending_ends(const struct sr_blk_queue *q, double t, uint64_t *ends)
{
	unsigned i, n = 0;

	if (!q->elevator)
		return 0;
	for (i = 0; i < q->depth; i++)
		if (q->done[i] > t)
			ends[n++] = q->end[i];
	return n;
}
