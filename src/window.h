/* SPDX-License-Identifier: MIT */
/*
 * The reorder window (src/MODEL.md, "Order"): events wait in a window of a
 * fixed number of events and leave it in ts_ns order, ties in arrival
 * order.  Events that arrive in time order wait in a ring (sorted by
 * construction), the others in a heap; the next to leave is the earlier of
 * the two heads, so sorted input costs O(1) an event.  Ring entries are
 * bare events, without their arrival number: on a tie between the two
 * heads the ring's came first (see sr_window_pop()).  Used by the replay
 * (src/replay.c) and, to order events on the reading thread, by the pipe
 * (src/pipe.c): both give the same order for the same events and size.
 */
#ifndef SR_WINDOW_H
#define SR_WINDOW_H

#include <stddef.h>
#include <stdint.h>

#include "swapreplay/event.h"

struct sr_wentry {
	struct sr_event ev;
	uint64_t seq;          /* arrival number: ties leave in arrival order */
};

struct sr_window {
	struct sr_event *ring; /* events that came in time order */
	struct sr_wentry *heap;/* the others, with their arrival numbers */
	size_t rhead, rn, hn;
	size_t cap;            /* the window: ring and heap together */
	uint64_t seq;          /* arrival number of the next event */
	uint64_t last_in;      /* ts_ns of the ring's newest event */
};

/* 0, or -1 out of memory. */
int sr_window_init(struct sr_window *w, size_t cap);
void sr_window_free(struct sr_window *w);

static inline size_t sr_window_len(const struct sr_window *w)
{
	return w->rn + w->hn;
}

/* Index of the ring entry i places after its head (i < cap): no division,
 * which would cost as much as the rest of the window's work. */
static inline size_t sr_window_ring_at(const struct sr_window *w, size_t i)
{
	size_t j = w->rhead + i;

	return j >= w->cap ? j - w->cap : j;
}

/* Add an event; the window must not be full. */
void sr_window_push(struct sr_window *w, const struct sr_event *e);

/* Take the earliest event out (the window must not be empty). */
void sr_window_pop(struct sr_window *w, struct sr_event *out);

/* The event k places after the ring's head if it is in the ring (a hint of
 * what comes next, for prefetching), else NULL. */
static inline const struct sr_event *sr_window_ahead(const struct sr_window *w, size_t k)
{
	return w->rn > k ? &w->ring[sr_window_ring_at(w, k)] : NULL;
}

#endif /* SR_WINDOW_H */
