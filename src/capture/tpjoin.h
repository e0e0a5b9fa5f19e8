/* SPDX-License-Identifier: MIT */
/*
 * The tracepoint capture's lines joined into swap events (tpjoin.c): a
 * bio's sector mapped back to its swap slot by the swap areas' extents, a
 * request's completion paired with the bios it holds (the latency), and
 * reclaim's write of an anonymous folio paired with its bio (the page
 * frame number), the memcg counted for a folio just before its bio paired
 * with that bio (its memcg's cgroup inode).  Internal to src/capture/.
 */
#ifndef SR_CAPTURE_TPJOIN_H
#define SR_CAPTURE_TPJOIN_H

#include <stddef.h>
#include <stdint.h>

#include "swapreplay/capture.h"
#include "swapreplay/error.h"
#include "swapreplay/event.h"

struct sr_tpjoin;

/* A joiner whose counts (not_swap_io, no_completion, reads, ...) go into
 * st, the capture's stats, which must outlive it. */
struct sr_tpjoin *sr_tpjoin_new(struct sr_capture_stats *st);
void sr_tpjoin_free(struct sr_tpjoin *j);

/* A "swapext,..." line (SR_CAPTURE_TP_EXTENT): 0, or -1 with msg. */
int sr_tpjoin_extent(struct sr_tpjoin *j, const char *s, size_t len, char *msg, size_t msz);
/* Whether any extent was given (the data needs them). */
int sr_tpjoin_has_extents(const struct sr_tpjoin *j);
/* A data line under SR_CAPTURE_TP_HEADER: 0, -1 with msg (a garbled line,
 * or one no kernel wrote), -2 out of memory. */
int sr_tpjoin_line(struct sr_tpjoin *j, const char *s, size_t len, char *msg, size_t msz);
/*
 * The oldest event, in the order its bio was queued, once its request has
 * completed, or once it has waited SR_TPJOIN_TIMEOUT_NS (the latest line's
 * time) for a completion that did not come, or at_end: 1 and *ev, *pfn,
 * *has_pfn and *ino (its memcg's cgroup inode from an M line, 0 none) set;
 * 0 when none is ready.
 */
int sr_tpjoin_next(struct sr_tpjoin *j, struct sr_event *ev, uint64_t *pfn, int *has_pfn,
		   uint64_t *ino, int at_end);

/*
 * nr_sectors below this, as the kernel prints it: block_bio_queue gives a
 * bio's bi_iter.bi_size >> 9 and block_rq_complete a request's nr_bytes >>
 * 9, both unsigned ints of bytes (include/trace/events/block.h).  A line
 * beyond it is refused: no kernel wrote it, and a completion is walked a
 * page at a time, so that one line costs at most 2^20 look-ups and
 * remembered pages rather than 2^29 (out of memory).
 */
#define SR_TPJOIN_MAX_SECTORS (1ull << 23)

/* A bio with no completion seen this long after it was queued is given
 * without a latency: bpftrace lost the completion, or the device is a
 * stacked one (device mapper) whose requests complete below it. */
#define SR_TPJOIN_TIMEOUT_NS 10000000000ull

#endif /* SR_CAPTURE_TPJOIN_H */
