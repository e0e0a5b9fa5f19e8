/* SPDX-License-Identifier: MIT */
/*
 * The block plug and its merges, as swap I/O goes through them (the
 * kernel's block/blk-core.c blk_start_plug()/blk_finish_plug(),
 * block/blk-mq.c blk_add_rq_to_plug(), block/blk-merge.c
 * blk_attempt_plug_merge(); docs/research/swapin-allocator-block.md, 5.2
 * to 5.4).  A task's plug holds the requests its bios became; a bio that
 * continues a request on the same device (back merge) or ends where one
 * starts (front merge) joins it within the device's limits; the plug is
 * flushed when the task finishes it or sleeps, when it holds its maximum of
 * requests, or when its last request reached BLK_PLUG_FLUSH_SIZE.
 *
 * The replay keeps a plug per task and simulation (src/replay/plug.c).
 */
#ifndef SR_BLOCK_BLK_MERGE_H
#define SR_BLOCK_BLK_MERGE_H

#include <stdint.h>

#include "swapreplay/kernel.h"

/* BLK_MAX_REQUEST_COUNT: 16 ("block: avoid building too big plug list",
 * Shaohua Li, 55c022bbddb2, 3.1) and 32 from 5.16 ("block: bump max
 * plugged deferred size from 16 to 32", Jens Axboe, ba0ffdd8ce48); twice
 * that once the plug spans several queues. */
#define SR_PLUG_MAX_REQUESTS 64
/* BLK_PLUG_FLUSH_SIZE (block/blk.h): 128 KiB, in pages. */
#define SR_PLUG_FLUSH_PAGES 32u

/* A device's request limits (queue/max_sectors_kb and max_segments), in
 * 4 KiB pages and bios (a swap bio is one folio: one segment per page
 * range it covers, here one per bio). */
struct sr_blk_limits {
	uint32_t max_pages;    /* max_sectors_kb / 4: 1280 KiB = 320 by default */
	uint32_t max_segments; /* 128 (BLK_MAX_SEGMENTS), NVMe 127-128, AHCI 168 */
};

/* One request: pages [off, off + pages) of device dev, made of bios,
 * for op (SR_OP_OUT: a write), its bios submitted at times summing to
 * t_sum (their latencies are taken from there). */
struct sr_blk_req {
	int dev;
	int op;
	uint64_t off;
	uint32_t pages;
	uint32_t bios;
	double t_sum;
	int node;               /* its pages' memory node (D2), -1 none */
	int kswapd;             /* kswapd's writes (blk-wbt.c) */
};

struct sr_plug {
	struct sr_blk_req req[SR_PLUG_MAX_REQUESTS];
	unsigned n;
	unsigned max_requests;  /* BLK_MAX_REQUEST_COUNT of the kernel */
	int last_only;          /* 5.16 on: only the last request is tried
				 * ("block: only check previous entry for plug
				 * merge attempt", d38a9c04c0d5) */
	int multiple_queues;    /* its requests are for more than one device */
	uint64_t merges;        /* bios that joined a request */
	int node;               /* the memory node of the pages of the bios
				 * added next, given to the requests they
				 * start (a reclaim pass's pages are of one
				 * node: shrink_node()); -1 none */
	int kswapd;             /* the plug is kswapd's (its requests too) */
};

/* An empty plug of kernel k's generation. */
void sr_plug_init(struct sr_plug *p, const struct sr_kernel *k);

/*
 * A bio for op of pages at off on device dev (limits lim) is submitted at
 * t under the plug: split at max_pages first, each part joins a request it continues
 * or precedes, or becomes a new one; before a new one is added, a full
 * plug is flushed into out, as blk_add_rq_to_plug() flushes it (room for
 * SR_PLUG_MAX_REQUESTS per part).  The number of requests flushed into
 * out.
 */
unsigned sr_plug_add(struct sr_plug *p, const struct sr_blk_limits *lim, int dev, int op,
		     uint64_t off, uint32_t pages, double t, struct sr_blk_req *out);

/* Whether bio (dev, op, off, pages) merges into r within lim, back or
 * front; 1 after doing it (at t).  The plug's test, and the elevator's. */
int sr_blk_merge(struct sr_blk_req *r, const struct sr_blk_limits *lim, int dev, int op,
		 uint64_t off, uint32_t pages, double t);

/* blk_finish_plug(), or the task sleeps: every request into out, in the
 * order they were added; their number. */
unsigned sr_plug_flush(struct sr_plug *p, struct sr_blk_req *out);

#endif /* SR_BLOCK_BLK_MERGE_H */
