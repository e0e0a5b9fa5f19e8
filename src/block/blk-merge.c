/* SPDX-License-Identifier: MIT */
/*
 * The block plug and its merges (blk-merge.h).  A bio merges into a
 * request (blk_attempt_plug_merge() -> blk_attempt_bio_merge()):
 *
 *   back:  req.dev = dev and req.off + req.pages = off
 *   front: req.dev = dev and off + pages = req.off
 *   and req.pages + pages <= max_pages, req.bios + 1 <= max_segments
 *
 * trying the requests of the plug from the last added back (up to 5.15
 * every one, ll_back_merge_fn() on each; from 5.16 the last only).  A bio
 * that merges nowhere becomes a request; first, if the plug holds
 * max_requests (twice that when it spans several devices) or its last
 * request has SR_PLUG_FLUSH_PAGES or more, the plug is flushed
 * (blk_add_rq_to_plug(), 6.12 block/blk-mq.c).
 */
#include <string.h>

#include "block/blk-merge.h"

void sr_plug_init(struct sr_plug *p, const struct sr_kernel *k)
{
	/* Not the requests: only the first n are ever read. */
	p->n = 0;
	p->multiple_queues = 0;
	p->merges = 0;
	p->node = -1;
	p->kswapd = 0;
	p->last_only = k->major > 5 || (k->major == 5 && k->minor >= 16);
	p->max_requests = p->last_only ? 32 : 16;
}

int sr_blk_merge(struct sr_blk_req *r, const struct sr_blk_limits *lim, int dev, int op,
		 uint64_t off, uint32_t pages, double t)
{
	if (r->dev != dev || r->op != op || r->pages + pages > lim->max_pages || r->bios + 1 > lim->max_segments)
		return 0;
	if (r->off + r->pages == off) {
		r->pages += pages;
	} else if (off + pages == r->off) {
		r->off = off;
		r->pages += pages;
	} else {
		return 0;
	}
	r->bios++;
	r->t_sum += t;
	return 1;
}

unsigned sr_plug_flush(struct sr_plug *p, struct sr_blk_req *out)
{
	unsigned n = p->n;

	memcpy(out, p->req, n * sizeof(*out));
	p->n = 0;
	p->multiple_queues = 0;
	return n;
}

unsigned sr_plug_add(struct sr_plug *p, const struct sr_blk_limits *lim, int dev, int op,
		     uint64_t off, uint32_t pages, double t, struct sr_blk_req *out)
{
	unsigned i, flushed = 0, max;

	/* A bio over the limit is split first (__bio_split_to_limits()). */
	if (pages > lim->max_pages) {
		flushed = sr_plug_add(p, lim, dev, op, off, lim->max_pages, t, out);
		return flushed + sr_plug_add(p, lim, dev, op, off + lim->max_pages,
					     pages - lim->max_pages, t, out + flushed);
	}
	for (i = p->n; i-- > 0;) {
		if (sr_blk_merge(&p->req[i], lim, dev, op, off, pages, t)) {
			p->merges++;
			return 0;
		}
		if (p->last_only)
			break;
	}
	max = p->multiple_queues ? 2 * p->max_requests : p->max_requests;
	if (p->n && (p->n >= max || p->req[p->n - 1].pages >= SR_PLUG_FLUSH_PAGES))
		flushed = sr_plug_flush(p, out);
	if (p->n && p->req[p->n - 1].dev != dev)
		p->multiple_queues = 1;
	p->req[p->n++] = (struct sr_blk_req){ dev, op, off, pages, 1, t, p->node, p->kswapd };
	return flushed;
}
