/* SPDX-License-Identifier: MIT */
/*
 * Writeback throttling of swap writes, after the kernel's block/blk-wbt.c
 * (read in 6.1; docs/research/next-model-questions.md, section 1.5):
 *
 * - Swap writes from reclaim are REQ_OP_WRITE | REQ_SWAP without REQ_SYNC
 *   (mm/page_io.c, wbc.for_reclaim), so wbt_should_throttle() throttles
 *   them.  With the default depth RWB_DEF_DEPTH = 16 (and a device queue
 *   at least that deep), get_limit() gives a direct reclaimer
 *   wb_background = (16 + 3) / 4 = 4 writes in flight when a read was
 *   issued or completed in the last HZ/10 (close_io()), wb_normal =
 *   (16 + 1) / 2 = 8 otherwise, and kswapd the full 16.
 * - From 6.11 (Baokun Li, "blk-wbt: don't throttle swap writes in direct
 *   reclaim", 4e63aeb5d010) REQ_SWAP counts as REQ_HIPRIO: every swap
 *   write gets the full depth, 16.
 * - Writeback throttling came with 4.10 (Jens Axboe, "blk-wbt: add general
 *   throttling mechanism", e34cbd307477); before it a device's request
 *   queue bounds the writes in flight (nr_requests, BLKDEV_MAX_RQ = 128).
 *
 * A trace's swap-outs whose `reclaim` is kswapd (traces/FORMAT.md) are
 * kswapd's writes: the full 16 (get_limit(): current_is_kswapd()); every
 * other swap-out is a direct reclaimer's.
 * The latency-driven scaling of the depth (scale_step, when reads exceed
 * min_lat_nsec, 2 ms on an SSD) is not modelled.
 */
#include "block/blk-wbt.h"

int sr_wbt_enabled(const struct sr_kernel *k)
{
	return k->major > 4 || (k->major == 4 && k->minor >= 10);
}

void sr_wbt_limits(const struct sr_kernel *k, struct sr_wbt_limits *l)
{
	if (!sr_wbt_enabled(k)) {
		l->read_recent = l->idle = l->kswapd = SR_BLKDEV_MAX_RQ;
	} else if (k->major < 6 || (k->major == 6 && k->minor < 11)) {
		l->read_recent = 4;
		l->idle = 8;
		l->kswapd = 16;
	} else {
		l->read_recent = l->idle = l->kswapd = 16;
	}
}
