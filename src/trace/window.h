/* SPDX-License-Identifier: MIT */
/*
 * The reorder window (docs/MODEL.md, "Order"): events wait in a window of a
 * fixed number of events and leave it in ts_ns order, ties in arrival
 * order.  Events that arrive in time order wait in a ring (sorted by
 * construction), the others in a heap; the next to leave is the earlier of
 * the two heads, so sorted input costs O(1) an event.  Ring entries are
 * bare events, without their arrival number: on a tie between the two
 * heads the ring's came first (see sr_window_pop()).  Used by the replay
 * (src/replay/replay.c) and, to order events on the reading thread, by the pipe
 * (src/trace/pipe.c): both give the same order for the same events and size.
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
	size_t rcap;           /* the ring's slots: cap, and room to decode
				* events in place (sr_window_init_room()) */
	uint64_t seq;          /* arrival number of the next event */
	uint64_t last_in;      /* ts_ns of the ring's newest event */
};

/* 0, or -1 out of memory. */
int sr_window_init(struct sr_window *w, size_t cap);
/* The same with extra ring slots after a full window's, so that up to
 * extra events can be written in place before they are pushed
 * (sr_window_tail()). */
int sr_window_init_room(struct sr_window *w, size_t cap, size_t extra);
void sr_window_free(struct sr_window *w);

static inline size_t sr_window_len(const struct sr_window *w)
{
	return w->rn + w->hn;
}

/* Index of the ring entry i places after its head (i < rcap): no
 * division, which would cost as much as the rest of the window's work. */
static inline size_t sr_window_ring_at(const struct sr_window *w, size_t i)
{
	size_t j = w->rhead + i;

	return j >= w->rcap ? j - w->rcap : j;
}

void sr_window_push_heap(struct sr_window *w, const struct sr_event *e);
void sr_window_pop_heap(struct sr_window *w, struct sr_event *out);

/* Add an event; the window must not be full.  An event no earlier than the
 * ring's newest (or any, when the ring is empty) joins the ring, inline;
 * the others go to the heap. */
static inline void sr_window_push(struct sr_window *w, const struct sr_event *e)
{
	if (!w->rn || e->ts_ns >= w->last_in) {
		w->ring[sr_window_ring_at(w, w->rn)] = *e;
		w->rn++;
		w->last_in = e->ts_ns;
		w->seq++;
	} else {
		sr_window_push_heap(w, e);
	}
}

/*
 * The ring's free slots after its newest event, as many as follow in one
 * piece (*room; up to rcap - cap once the window is full).  Events written
 * there in arrival order can be pushed with sr_window_push_placed(), which
 * copies one only when an earlier one went to the heap.
 */
static inline struct sr_event *sr_window_tail(const struct sr_window *w, size_t *room)
{
	size_t t = sr_window_ring_at(w, w->rn), free = w->rcap - w->rn;

	*room = w->rcap - t < free ? w->rcap - t : free;
	return &w->ring[t];
}

/* sr_window_push() of an event that may already sit in the ring's next
 * slot (sr_window_tail()): the same, without the copy then. */
static inline void sr_window_push_placed(struct sr_window *w, const struct sr_event *e)
{
	if (!w->rn || e->ts_ns >= w->last_in) {
		struct sr_event *slot = &w->ring[sr_window_ring_at(w, w->rn)];

		if (slot != e)
			*slot = *e;
		w->rn++;
		w->last_in = e->ts_ns;
		w->seq++;
	} else {
		sr_window_push_heap(w, e);
	}
}

/*
 * Does the ring's head leave next?  It does unless the heap's head is
 * earlier.  On a tie the ring's head came first, so ring entries need no
 * arrival number: an event goes to the heap only if it is earlier than the
 * ring's newest, so every event in the heap is earlier than the ring's
 * newest and leaves before it; the ring therefore empties only after the
 * heap has, and every event in the heap came during the ring's current
 * run, after the ring's newest then.
 * A ring entry as early as a heap entry h cannot have come after h (it
 * would be no earlier than that newest), so it came before.
 */
static inline int sr_window_ring_next(const struct sr_window *w)
{
	return w->rn && (!w->hn || w->ring[w->rhead].ts_ns <= w->heap[0].ev.ts_ns);
}

/* Take the earliest event out (the window must not be empty). */
static inline void sr_window_pop(struct sr_window *w, struct sr_event *out)
{
	if (sr_window_ring_next(w)) {
		*out = w->ring[w->rhead];
		w->rhead = sr_window_ring_at(w, 1);
		w->rn--;
	} else {
		sr_window_pop_heap(w, out);
	}
}

/*
 * sr_window_pop() when sr_window_ring_next(), without the copy: the event
 * stays in its slot.  The slot is written again when the ring comes round
 * to it: not before rcap - cap more events have joined the ring, fewer
 * those written in place ahead of its newest (sr_window_tail()).
 */
static inline const struct sr_event *sr_window_pop_ring(struct sr_window *w)
{
	const struct sr_event *e = &w->ring[w->rhead];

	w->rhead = sr_window_ring_at(w, 1);
	w->rn--;
	return e;
}

/*
 * The steady state of sorted input: the window full, its heap empty, and
 * e[0..k) in the ring's free slots from the next (sr_window_tail()).  While
 * an event is no earlier than the ring's newest, it joins the ring and the
 * ring's head leaves (sr_window_pop_ring() then sr_window_push_placed(),
 * in one step); the events that leave are in consecutive slots from the
 * head's, so this stops where the head would wrap round.  Returns how many
 * passed (0, and nothing changed, when the state is not this one).
 */
static inline size_t sr_window_pass_placed(struct sr_window *w, const struct sr_event *e,
					   size_t k)
{
	size_t t, i;
	uint64_t last;

	if (w->hn || w->rn != w->cap)
		return 0;
	t = sr_window_ring_at(w, w->rn);
	if (e != &w->ring[t])
		return 0;
	if (k > w->rcap - w->rhead)
		k = w->rcap - w->rhead;
	if (k > w->rcap - t)
		k = w->rcap - t;
	last = w->last_in;
	for (i = 0; i < k && e[i].ts_ns >= last; i++)
		last = e[i].ts_ns;
	w->rhead = sr_window_ring_at(w, i);
	w->last_in = last;
	w->seq += i;
	return i;
}

/* The event k places after the ring's head if it is in the ring (a hint of
 * what comes next, for prefetching), else NULL. */
static inline const struct sr_event *sr_window_ahead(const struct sr_window *w, size_t k)
{
	return w->rn > k ? &w->ring[sr_window_ring_at(w, k)] : NULL;
}

#endif /* SR_WINDOW_H */
