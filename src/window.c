/* SPDX-License-Identifier: MIT */
/* The reorder window (window.h). */
#include <stdlib.h>

#include "window.h"

int sr_window_init(struct sr_window *w, size_t cap)
{
	w->ring = malloc(cap * sizeof(*w->ring));
	w->heap = malloc(cap * sizeof(*w->heap));
	w->rhead = w->rn = w->hn = 0;
	w->cap = cap;
	w->seq = w->last_in = 0;
	if (!w->ring || !w->heap) {
		sr_window_free(w);
		return -1;
	}
	return 0;
}

void sr_window_free(struct sr_window *w)
{
	free(w->ring);
	free(w->heap);
	w->ring = NULL;
	w->heap = NULL;
}

static int ent_less(const struct sr_wentry *a, const struct sr_wentry *b)
{
	return a->ev.ts_ns < b->ev.ts_ns || (a->ev.ts_ns == b->ev.ts_ns && a->seq < b->seq);
}

static void heap_push(struct sr_window *w, const struct sr_wentry *x)
{
	size_t i = w->hn++;

	while (i) {
		size_t up = (i - 1) / 2;

		if (!ent_less(x, &w->heap[up]))
			break;
		w->heap[i] = w->heap[up];
		i = up;
	}
	w->heap[i] = *x;
}

static void heap_pop(struct sr_window *w, struct sr_wentry *out)
{
	struct sr_wentry last;
	size_t i = 0;

	*out = w->heap[0];
	last = w->heap[--w->hn];
	for (;;) {
		size_t l = 2 * i + 1, m;

		if (l >= w->hn)
			break;
		m = l + 1 < w->hn && ent_less(&w->heap[l + 1], &w->heap[l]) ? l + 1 : l;
		if (!ent_less(&w->heap[m], &last))
			break;
		w->heap[i] = w->heap[m];
		i = m;
	}
	w->heap[i] = last;
}

void sr_window_push(struct sr_window *w, const struct sr_event *e)
{
	if (!w->rn || e->ts_ns >= w->last_in) {
		w->ring[sr_window_ring_at(w, w->rn)] = *e;
		w->rn++;
		w->last_in = e->ts_ns;
	} else {
		struct sr_wentry x;

		x.ev = *e;
		x.seq = w->seq;
		heap_push(w, &x);
	}
	w->seq++;
}

/*
 * The ring's head goes first unless the heap's head is earlier.  On a tie
 * the ring's head came first, so ring entries need no arrival number: an
 * event goes to the heap only if it is earlier than the ring's newest, so
 * every event in the heap is earlier than the ring's newest and leaves
 * before it; the ring therefore empties only after the heap has, and every
 * event in the heap came during the ring's current run, after the ring's
 * newest then.  A ring entry as early as a heap entry h cannot have come
 * after h (it would be no earlier than that newest), so it came before.
 */
void sr_window_pop(struct sr_window *w, struct sr_event *out)
{
	if (w->rn && (!w->hn || w->ring[w->rhead].ts_ns <= w->heap[0].ev.ts_ns)) {
		*out = w->ring[w->rhead];
		w->rhead = sr_window_ring_at(w, 1);
		w->rn--;
	} else {
		struct sr_wentry x;

		heap_pop(w, &x);
		*out = x.ev;
	}
}
