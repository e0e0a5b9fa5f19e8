/* SPDX-License-Identifier: MIT */
/*
 * A device's request queue as swap I/O goes through it (the kernel's
 * block/blk-mq.c, block/elevator.c and block/mq-deadline.c;
 * docs/research/swapin-allocator-block.md, 5.3): the requests waiting for
 * one of the device's tags, which later bios and requests may merge into
 * when the device has an elevator, and when each request gets its tag.
 * docs/MODEL.md, "The block layer", gives the equations.
 *
 * Pure decisions on times given by the caller: the device's service and
 * its calendar are src/hw/'s, which asks this file where a request goes.
 */
#ifndef SR_BLOCK_BLK_MQ_H
#define SR_BLOCK_BLK_MQ_H

#include <stdint.h>

#include "swapreplay/event.h"
#include "swapreplay/kernel.h"
#include "swapreplay/result.h"

/* The requests a queue keeps waiting, at most: nr_requests with an
 * elevator, BLKDEV_MAX_RQ = 128 (include/linux/blkdev.h; from 5.0
 * blk_mq_init_sched() sets 2 x min(queue depth, BLKDEV_DEFAULT_RQ = 128):
 * 64 for a depth of 32, the tags the device holds besides). */
#define SR_BLK_WAIT_MAX 128u

/* The largest queue depth modelled (tags of one queue). */
#define SR_BLK_DEPTH_MAX 1024u

/* One request that has not got its tag yet. */
struct sr_blk_wait {
	uint64_t off;       /* first page on the device */
	uint64_t seq;       /* its number among the queue's requests */
	uint32_t pages, bios;
	int op;             /* SR_OP_OUT (write) or SR_OP_IN (read) */
	double insert;      /* when it entered the queue */
	double dispatch;    /* when it gets its tag */
	double fin;         /* when it completes, as reserved so far */
};

struct sr_blk_queue {
	/* An elevator that merges into waiting requests (mq-deadline, the
	 * single-queue elevators): a SATA device's one queue.  NVMe has a
	 * queue per CPU and none (elevator_get_default(): "none" with more
	 * than one hardware queue): nothing waits there to merge into. */
	int elevator;
	/* Writes wait in writeback throttling, as sleeping submitters, not
	 * as requests (4.10 on, blk-wbt.h): no write request waits for a
	 * tag, so none is merged into there. */
	int wbt;
	unsigned depth;     /* tags: requests on the device at once */
	double *done;       /* ring of depth: completions of the last requests */
	uint64_t *end;      /* ... and where each of them ends on the device */
	uint64_t seq;       /* requests given a tag so far */
	/* Write requests: ring of SR_BLK_WAIT_MAX, when each of the last ones
	 * completes (nw so far): a writer finds room for a new one when the
	 * write its limit places before has completed. */
	double *wdone;
	uint64_t nw;
	struct sr_blk_wait *w; /* ring of SR_BLK_WAIT_MAX, oldest first */
	unsigned w_head, w_len;
	double t_max;       /* the latest submission seen */
};

/* A queue of depth tags, merging (elevator) or not, throttling writes
 * (wbt) or not; 0, or -1 out of memory. */
int sr_blkq_init(struct sr_blk_queue *q, int elevator, int wbt, unsigned depth);
void sr_blkq_free(struct sr_blk_queue *q);
/* dst (initialised alike) becomes a copy of src. */
void sr_blkq_copy(struct sr_blk_queue *dst, const struct sr_blk_queue *src);

/*
 * A bio or a plug's request (op, pages at off, made of bios) reaches the
 * queue at t: the waiting request it merges into (a back merge: it ends
 * at off; for a bio, front_ok, also a front merge: it starts at off +
 * pages), within lim (blk-merge.h: pages and segments), or NULL.  The
 * caller adds the merged pages' work to the request's fin.
 */
struct sr_blk_limits;
struct sr_blk_wait *sr_blkq_merge(struct sr_blk_queue *q, const struct sr_blk_limits *lim,
				  int op, uint64_t off, uint32_t pages, uint32_t bios,
				  int front_ok, double t);

/*
 * When a write reaching the queue at t becomes a request: when one of at
 * most lim write requests (<= SR_BLK_WAIT_MAX) has completed, the writer
 * sleeping until then (get_request() on a full queue before 4.10,
 * wbt_wait() from 4.10), or t.
 */
double sr_blkq_write_room(const struct sr_blk_queue *q, unsigned lim, double t);
/* A write request completing at fin takes its room. */
void sr_blkq_write_add(struct sr_blk_queue *q, double fin);

/* When a request reaching the queue at t gets its tag: when the request
 * depth places before it completed, or t. */
double sr_blkq_dispatch_time(const struct sr_blk_queue *q, double t);

/*
 * The request (op, pages at off, bios) that reached the queue at insert
 * got its tag at dispatch and completes at fin: it takes its place in the
 * ring of completions, and waits in the queue (mergeable) if its tag came
 * after insert and the elevator keeps it.  The waiting request, or NULL.
 */
struct sr_blk_wait *sr_blkq_add(struct sr_blk_queue *q, int op, uint64_t off, uint32_t pages,
				uint32_t bios, double insert, double dispatch, double fin);

/* A waiting request w now completes at fin (pages merged into it). */
void sr_blkq_extend(struct sr_blk_queue *q, struct sr_blk_wait *w, double fin);

/* The requests still on the device or in the queue at t (of the last
 * depth): where each ends, into ends[] (room for depth); their number.
 * The device or the elevator may serve a new request after any of them:
 * docs/MODEL.md, D4. */
unsigned sr_blkq_pending_ends(const struct sr_blk_queue *q, double t, uint64_t *ends);

#endif /* SR_BLOCK_BLK_MQ_H */
