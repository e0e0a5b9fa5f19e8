/* SPDX-License-Identifier: MIT */
/*
 * The block layer's writeback throttling (the kernel's block/blk-wbt.c)
 * as it bounds swap writes: how many may be in flight on a device ahead
 * of a swap-in's read.  docs/MODEL.md, "(D3) A read under write load".
 */
#ifndef SR_BLOCK_BLK_WBT_H
#define SR_BLOCK_BLK_WBT_H

#include "swapreplay/kernel.h"

/* The swap writes a device may have in flight, by kernel generation. */
struct sr_wbt_limits {
	unsigned read_recent; /* a read was issued in the last 100 ms */
	unsigned idle;        /* no read for 100 ms */
	unsigned kswapd;      /* kswapd's writes: the full depth */
};

/* Without writeback throttling, what bounds the writes in flight: the
 * request queue's nr_requests, BLKDEV_MAX_RQ (include/linux/blkdev.h). */
#define SR_BLKDEV_MAX_RQ 128u

/* A read counts as recent for this long (blk-wbt.c close_io(): HZ / 10). */
#define SR_WBT_CLOSE_IO_NS 100e6

void sr_wbt_limits(const struct sr_kernel *k, struct sr_wbt_limits *l);

/* Whether kernel k throttles writeback (4.10 on). */
int sr_wbt_enabled(const struct sr_kernel *k);

#endif /* SR_BLOCK_BLK_WBT_H */
