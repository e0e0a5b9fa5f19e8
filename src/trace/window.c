/* SPDX-License-Identifier: MIT */
/* The reorder window (window.h). */
#include <stdlib.h>

#include "common/bigmem.h"
#include "trace/window.h"

int sr_window_init(struct sr_window *w, size_t cap)
{
	return sr_window_init_room(w, cap, 0);
}

int sr_window_init_room(struct sr_window *w, size_t cap, size_t extra)
{
	w->cap = cap;
	w->rcap = cap + extra;
	w->ring = sr_big_alloc(w->rcap * sizeof(*w->ring));
	w->heap = sr_big_alloc(cap * sizeof(*w->heap));
	w->rhead = w->rn = w->hn = 0;
	w->seq = w->last_in = 0;
	if (!w->ring || !w->heap) {
		sr_window_free(w);
		return -1;
	}
	return 0;
}

void sr_window_free(struct sr_window *w)
{
	sr_big_free(w->ring, w->rcap * sizeof(*w->ring));
	sr_big_free(w->heap, w->cap * sizeof(*w->heap));
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

/* The heap's side of sr_window_push() (window.h). */
void sr_window_push_heap(struct sr_window *w, const struct sr_event *e)
{
	struct sr_wentry x;

	x.ev = *e;
	x.seq = w->seq++;
	heap_push(w, &x);
}

/* The heap's side of sr_window_pop() (window.h). */
void sr_window_pop_heap(struct sr_window *w, struct sr_event *out)
{
	struct sr_wentry x;

	heap_pop(w, &x);
	*out = x.ev;
}
