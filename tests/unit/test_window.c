/* The reorder window (src/trace/window.h) against a plain model of its rule: a
 * window of cap events; when it is full, the earliest event leaves, ties in
 * arrival order; at the end the rest leave the same way.  The model finds
 * the earliest by scanning, so it is slow and obviously right. */
#include <stdlib.h>
#include <string.h>

#include "test.h"
#include "trace/window.h"

struct model {
	struct sr_event *ev;
	uint64_t *seq;
	size_t n;
};

static void model_pop(struct model *m, struct sr_event *out)
{
	size_t i, best = 0;

	for (i = 1; i < m->n; i++)
		if (m->ev[i].ts_ns < m->ev[best].ts_ns ||
		    (m->ev[i].ts_ns == m->ev[best].ts_ns && m->seq[i] < m->seq[best]))
			best = i;
	*out = m->ev[best];
	m->n--;
	m->ev[best] = m->ev[m->n];
	m->seq[best] = m->seq[m->n];
}

static uint64_t rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/*
 * Sequences of a few kinds, each with many ties (timestamps drawn from a
 * small range, so that the ring and the heap hold events of equal time):
 * kind 0 sorted with stragglers; 1 random; 2 sorted runs separated by large
 * backward jumps (the ring empties and starts new runs while the heap still
 * holds events of the old ones); 3 descending.  The event's offset carries
 * its arrival number, so that the order out is compared event by event.
 */
static int compare_once(unsigned kind, size_t cap, size_t n, uint64_t seed)
{
	struct sr_window w;
	struct model m;
	struct sr_event e, a, b;
	uint64_t s = seed, ts = 1000;
	size_t i, out = 0;
	int same = 1;

	if (sr_window_init(&w, cap))
		return 0;
	m.ev = malloc(cap * sizeof(*m.ev));
	m.seq = malloc(cap * sizeof(*m.seq));
	m.n = 0;
	if (!m.ev || !m.seq) {
		free(m.ev);
		free(m.seq);
		sr_window_free(&w);
		return 0;
	}
	memset(&e, 0, sizeof(e));
	for (i = 0; i < n + cap; i++) {
		if (i < n) {
			switch (kind) {
			case 0:
				ts += rnd(&s) % 3;
				e.ts_ns = rnd(&s) % 8 == 0 ? ts - rnd(&s) % 20 : ts;
				break;
			case 1:
				e.ts_ns = rnd(&s) % 16;
				break;
			case 2:
				ts += rnd(&s) % 2;
				if (rnd(&s) % 50 == 0)
					ts -= 30;
				e.ts_ns = ts;
				break;
			default:
				e.ts_ns = 100000 - i / 3;
				break;
			}
			e.offset = i;
			if (sr_window_len(&w) == cap) {
				sr_window_pop(&w, &a);
				model_pop(&m, &b);
				same &= a.ts_ns == b.ts_ns && a.offset == b.offset;
				out++;
			}
			sr_window_push(&w, &e);
			m.ev[m.n] = e;
			m.seq[m.n++] = i;
		} else if (sr_window_len(&w)) {
			sr_window_pop(&w, &a);
			model_pop(&m, &b);
			same &= a.ts_ns == b.ts_ns && a.offset == b.offset;
			out++;
		}
	}
	same &= out == n && m.n == 0 && sr_window_len(&w) == 0;
	free(m.ev);
	free(m.seq);
	sr_window_free(&w);
	return same;
}

static void window_matches_model(void)
{
	static const size_t caps[] = { 1, 2, 3, 8, 64, 1000 };
	unsigned kind, c, rep;
	int all = 1;

	for (kind = 0; kind < 4; kind++)
		for (c = 0; c < sizeof(caps) / sizeof(caps[0]); c++)
			for (rep = 0; rep < 4; rep++)
				all &= compare_once(kind, caps[c], 5000,
						    0x9e3779b97f4a7c15ull * (kind * 100 + c * 10 + rep + 1));
	CHECK(all);
}

/* A case worked by hand: ring [5, 7], then 6 and 5 go to the heap; the 5
 * that arrived first (in the ring) leaves before the heap's 5, then 6, 7. */
static void window_tie_ring_first(void)
{
	static const uint64_t in[] = { 5, 7, 6, 5 };
	static const uint64_t want[] = { 0, 3, 2, 1 }; /* arrival numbers out */
	struct sr_window w;
	struct sr_event e, o;
	size_t i;
	int ok = 1;

	CHECK(sr_window_init(&w, 8) == 0);
	memset(&e, 0, sizeof(e));
	for (i = 0; i < 4; i++) {
		e.ts_ns = in[i];
		e.offset = i;
		sr_window_push(&w, &e);
	}
	for (i = 0; i < 4; i++) {
		sr_window_pop(&w, &o);
		ok &= o.offset == want[i];
	}
	CHECK(ok);
	sr_window_free(&w);
}

/* Both heads tie after the window has emptied and a new run of the ring
 * has begun below the old one: the ring's, which came first, still leaves
 * first. */
static void window_tie_after_new_run(void)
{
	struct sr_window w;
	struct sr_event e, o;
	int ok = 1;

	CHECK(sr_window_init(&w, 4) == 0);
	memset(&e, 0, sizeof(e));
	e.ts_ns = 10; e.offset = 0; sr_window_push(&w, &e); /* ring */
	e.ts_ns = 4; e.offset = 1; sr_window_push(&w, &e);  /* heap */
	sr_window_pop(&w, &o);                              /* 4 leaves */
	ok &= o.offset == 1;
	e.ts_ns = 4; e.offset = 2; sr_window_push(&w, &e);  /* heap: 4 < 10 */
	sr_window_pop(&w, &o);                              /* that 4 */
	ok &= o.offset == 2;
	sr_window_pop(&w, &o);                              /* 10: the ring is empty */
	ok &= o.offset == 0;
	e.ts_ns = 3; e.offset = 3; sr_window_push(&w, &e);  /* empty: a new run */
	e.ts_ns = 2; e.offset = 4; sr_window_push(&w, &e);  /* heap */
	e.ts_ns = 3; e.offset = 5; sr_window_push(&w, &e);  /* ring, after 3 */
	e.ts_ns = 3; e.offset = 6; sr_window_push(&w, &e);  /* heap: ties with 3 and 5 */
	sr_window_pop(&w, &o);
	ok &= o.offset == 4;
	sr_window_pop(&w, &o);
	ok &= o.offset == 3;
	sr_window_pop(&w, &o);
	ok &= o.offset == 5;
	sr_window_pop(&w, &o);
	ok &= o.offset == 6 && sr_window_len(&w) == 0;
	CHECK(ok);
	sr_window_free(&w);
}

/*
 * Task ops pass through the window as any event, by ts_ns, ties in arrival
 * order: a fork read before its child's first event of the same time
 * leaves before it, in the ring (in order) or in the heap (both behind a
 * later event), and the fork's fields (the child, in offset's bytes) come
 * out as they went in.
 */
static void window_task_ops_in_order(void)
{
	struct sr_window w;
	struct sr_event e[5], o;
	size_t i;
	int ok = 1;

	CHECK(sr_window_init(&w, 8) == 0);
	for (i = 0; i < 5; i++)
		sr_event_init(&e[i]);
	e[0].ts_ns = 9; e[0].op = SR_OP_OUT; e[0].pid = 1;        /* ring */
	e[1].ts_ns = 7; e[1].op = SR_OP_FORK; e[1].pid = 1;       /* heap */
	e[1].child = 2; e[1].flags = SR_EV_HAS_CHILD;
	e[2].ts_ns = 7; e[2].op = SR_OP_IN; e[2].pid = 2;         /* heap, a tie */
	e[3].ts_ns = 9; e[3].op = SR_OP_FORK; e[3].pid = 1;       /* ring, ties e[0] */
	e[3].child = 3; e[3].flags = SR_EV_HAS_CHILD;
	e[4].ts_ns = 9; e[4].op = SR_OP_OUT; e[4].pid = 3;        /* ring, a tie */
	for (i = 0; i < 5; i++)
		sr_window_push(&w, &e[i]);
	sr_window_pop(&w, &o);
	ok &= o.op == SR_OP_FORK && o.child == 2 && (o.flags & SR_EV_HAS_CHILD);
	sr_window_pop(&w, &o);
	ok &= o.op == SR_OP_IN && o.pid == 2;
	sr_window_pop(&w, &o);
	ok &= o.op == SR_OP_OUT && o.pid == 1;
	sr_window_pop(&w, &o);
	ok &= o.op == SR_OP_FORK && o.child == 3;
	sr_window_pop(&w, &o);
	ok &= o.op == SR_OP_OUT && o.pid == 3 && sr_window_len(&w) == 0;
	CHECK(ok);
	sr_window_free(&w);
}

void suite_window(void)
{
	TEST(window_matches_model);
	TEST(window_tie_ring_first);
	TEST(window_tie_after_new_run);
	TEST(window_task_ops_in_order);
}
