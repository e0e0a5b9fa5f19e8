/* SPDX-License-Identifier: MIT */
/*
 * The order in which a simulation plays its events: simulated time, as a
 * discrete-event simulator does (DiskSim, MQSim and gem5 keep a queue of
 * events by time and run the earliest).  docs/MODEL.md, "The core", has
 * the rule as equations.
 *
 * The decisions (src/mm/, readahead, the slot map) are taken in the
 * trace's order, on the replay's thread, and reach each simulation as
 * records (struct sr_play), in that order.  A simulation does not play
 * them as they come: each waits in its task's queue, and the simulation
 * plays the record of the task whose next event starts earliest, once no
 * other task can act before it.  So every resource (device, link, CPU,
 * lock, queue) receives its requests in the order they arrive in
 * simulated time.
 *
 * When can a task act?
 *  - a task with records queued (ready): at its next record's start,
 *    c_i + g (its clock and the record's compute gap), known exactly;
 *  - a task with none queued (idle): its next record is not read yet,
 *    but the trace is in time order, so it will be recorded at or after
 *    the latest time read, T; its gap is then at least T less the end of
 *    the task's last recorded event, E_i, and it starts at or after
 *    c_i + max(0, T - E_i) >= T + (c_i - E_i).  The simulation keeps the
 *    idle tasks in a heap by c_i - E_i, and its bound is
 *    B = T + min over idle tasks of (c_i - E_i);
 *  - a task that has not appeared: it starts at max(its recorded time,
 *    the simulation's time when it appears, N), never before what was
 *    played (docs/MODEL.md, "Tasks": it is shifted by how far the
 *    simulation runs behind the recording);
 *  - a forked child: at its parent's fork, which is in its parent's
 *    queue; a parent waiting for a child: at the child's exit, or later;
 *    an exited task: never;
 *  - kswapd asleep (its last record played was kswapd's, below): never
 *    before anything played until its next record comes, so it bounds
 *    nothing.
 * The ready task with the earliest start s plays its record when s <= B.
 * At the end of the trace every record is played, earliest first.
 *
 * kswapd.  A record of kswapd is a swap-out whose reclaim is kswapd
 * (SR_EV_KSWAPD, traces/FORMAT.md); a task whose swap-outs carry it is
 * kswapd.  Its recorded gaps are not compute time of its own.  kswapd()
 * (mm/vmscan.c, read in 6.18.2) sleeps in kswapd_try_to_sleep() until
 * wakeup_kswapd() wakes it, which an allocation does once a zone is below
 * its low watermark (mm/page_alloc.c, read in a 6.3-or-later tree: the
 * first attempt is at the low watermark, ALLOC_WMARK_LOW; then
 * __alloc_pages_slowpath() calls wake_all_kswapds()).  Awake, it runs
 * balance_pgdat() until the node is balanced at the high watermark
 * (kswapd_shrink_node(): nr_to_reclaim = max(high_wmark_pages,
 * SWAP_CLUSTER_MAX)): kernel work, which the replay charges itself (E1;
 * its writes, B2).  Balanced, it naps HZ/10 first, and reclaims again
 * without a wakeup if the node is no longer balanced by then: others'
 * allocations again.  So its writes follow the simulation's demand, not
 * the recorded clock: a record of kswapd has a gap of 0 (replay.c,
 * task_gap()) and starts at
 *        s = max(c_i, N),  N the simulation's time (now, the latest
 *                          start played) when the record reaches it:
 * once the allocations recorded before it that could be played have
 * been, and never before kswapd is free.  It is the rule of a task that
 * has not appeared (above), with c_i for the recorded time.  A record
 * that reaches a task with records queued (or waiting for a child, or
 * not yet born) needs no more than its gap of 0: c_i >= N already, as
 * those records start no earlier than N in time order and its clock is
 * their end (a record played late past a full queue makes its followers
 * late too).  Else the task is idle, asleep or exited, its clock final,
 * and the record's gap becomes max(0, N - c_i) as it is given.
 *
 * The bound B and kswapd.  When kswapd's queue empties after a record of
 * its own, it sleeps (ST_KSWAPD): out of the idle heap.  Its next record
 * starts at max(c_i, N') with N' the time when it comes; N' is at least
 * every start played before then (now only moves forward), so nothing the
 * others play meanwhile can be a record it should have preceded: it needs
 * no place in B.  Neither of the two other keys is right.  c_i - E_i, an
 * idle task's, holds the others at T + c_i - E_i, a bound made of
 * kswapd's recorded end, which the rule drops; where it is the least,
 * the records it holds back are then played after kswapd's, though
 * recorded before it.  "It can start at N" (a key of N - T) would hold
 * every record after N until kswapd's next record comes, which in a
 * trace is often seconds later (it sleeps): the queue fills, and its
 * records are forced.
 *
 * A task with records of both kinds (a trace that says kswapd of a task
 * that faults; kswapd is a kernel thread and faults in no user page) is
 * known as such (mixed) from its first record if that is not kswapd's
 * (or from its fork), else from the first that is not and comes while
 * it sleeps: that one starts at max(c_i + g, N), as it was bounded by
 * nothing and would otherwise start in the simulation's past (late).  A
 * mixed task never sleeps: it rests in the idle heap as any task, so
 * that its other records keep their gaps and their exact order (its
 * kswapd records still start at max(c_i, N)).  Every other record (every
 * record of a trace without reclaim) is played as before, at the cost of
 * a test of its flags and its task's state (tests/unit/test_order.c,
 * kswapd_starts_at_demand and kswapd_bounds_nothing: the rule and the
 * bound, worked by hand).
 *
 * A task idle for long (one that ended, in a trace without its exit), or
 * tasks whose simulated paces drift apart, hold B back while the others
 * run on: their records wait.  At most sr_replay_opts.order_queue records
 * (SR_ORDER_QUEUE_MAX by default) wait in a simulation; past that, the
 * earliest is played all the same (counted: order_forced), and a record
 * that then starts before the simulation's time (a task that came back)
 * is played late (counted: order_late).  A report says when either is
 * not 0 (the bench's traces drift apart and force most of their records;
 * the validation suite's C4 and c9 at -j36 and -j40 some).
 *
 * A simulation's queues are its own: the thread that plays it (simq.c)
 * keeps them, and a simulation that parts from its lead (shared.c) takes
 * a copy of them with the rest.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/bigmem.h"
#include "replay/replay_impl.h"

/* A task's state; ST_KSWAPD is kswapd asleep (above): idle, out of the
 * idle heap.  (sim_order.mixed: the task is more than kswapd.) */
enum { ST_NEW = 0, ST_IDLE, ST_KSWAPD, ST_EXITED, ST_UNBORN, ST_READY, ST_BLOCKED };

/* A record of kswapd: a swap-out whose reclaim is kswapd (as B2 tests it,
 * replay.c's play()); one test of the flags for every other record. */
static inline int rec_kswapd(uint8_t op, uint8_t flags)
{
	return SR_UNLIKELY(flags & SR_EV_KSWAPD) && op == SR_OP_OUT && (flags & SR_EV_HAS_RECLAIM);
}

/* ---- the heaps: tasks by key (ready: next start; idle: c_i - E_i) ----
 *
 * The idle heap keeps each task's place (hpos): a task leaves it from
 * anywhere, when its next record comes.  The ready heap is only ever left
 * from its top (the task played), so it keeps none: its moves are the
 * most frequent work of the order, and need not write a place each. */

static inline void heap_set(struct sim_order *o, struct ord_ent *h, uint32_t i,
			    struct ord_ent x)
{
	h[i] = x;
	o->hpos[x.t] = (int32_t)i;
}

static void heap_up(struct sim_order *o, struct ord_ent *h, uint32_t i, struct ord_ent x)
{
	while (i) {
		uint32_t up = (i - 1) / 2;

		if (h[up].k <= x.k)
			break;
		heap_set(o, h, i, h[up]);
		i = up;
	}
	heap_set(o, h, i, x);
}

static void heap_down(struct sim_order *o, struct ord_ent *h, uint32_t n, uint32_t i,
		      struct ord_ent x)
{
	for (;;) {
		uint32_t c = 2 * i + 1;

		if (c >= n)
			break;
		if (c + 1 < n && h[c + 1].k < h[c].k)
			c++;
		if (h[c].k >= x.k)
			break;
		heap_set(o, h, i, h[c]);
		i = c;
	}
	heap_set(o, h, i, x);
}

/* Entry x put at place i of heap h (n entries), moved up or down to
 * where its key belongs. */
static void heap_fix(struct sim_order *o, struct ord_ent *h, uint32_t n, uint32_t i,
		     struct ord_ent x)
{
	if (i && h[(i - 1) / 2].k > x.k)
		heap_up(o, h, i, x);
	else
		heap_down(o, h, n, i, x);
}

/* a before b: the earlier key, and at equal keys the lower task index
 * (the same task in every simulation). */
static inline int ent_before(struct ord_ent a, struct ord_ent b)
{
	return a.k < b.k || (a.k == b.k && a.t < b.t);
}

/*
 * The ready heap's top made the task of the lowest index among those of
 * the earliest start, so that ties are broken the same way under every
 * policy (not by the heap's history, which differs).  The tasks of the
 * top's key are a subtree at the top (a parent's key is no later than
 * its child's, and none is earlier than the top's): when neither child
 * has it, the top is the only one (the common case, two comparisons);
 * else the heap is scanned for them, and the one chosen changes places
 * with the top (equal keys: the heap stays a heap).  After every change
 * of the ready heap; the sift loops compare keys alone, as fast as before.
 */
static void ready_canon(struct sim_order *o)
{
	struct ord_ent *h = o->ready, x;
	uint32_t n = o->nready, i, best = 0;
	double k;

	if (n < 2)
		return;
	k = h[0].k;
	if (SR_LIKELY(h[1].k != k && (n < 3 || h[2].k != k)))
		return;
	for (i = 1; i < n; i++)
		if (h[i].k == k && h[i].t < h[best].t)
			best = i;
	if (best) {
		x = h[0];
		h[0] = h[best];
		h[best] = x;
	}
}

/* The ready heap (no places): x in, x as its new top, its top out. */
static void ready_push(struct sim_order *o, int32_t t, double key)
{
	struct ord_ent *h = o->ready, x = { key, t };
	uint32_t i = o->nready++;

	while (i) {
		uint32_t up = (i - 1) / 2;

		if (h[up].k <= x.k)
			break;
		h[i] = h[up];
		i = up;
	}
	h[i] = x;
	ready_canon(o);
}

static void ready_top(struct sim_order *o, struct ord_ent x)
{
	struct ord_ent *h = o->ready;
	uint32_t n = o->nready, i = 0, c;

	while ((c = 2 * i + 1) < n) {
		/* (The smaller child without a branch: which one it is
		 * cannot be foretold.) */
		c += c + 1 < n && h[c + 1].k < h[c].k;
		if (h[c].k >= x.k)
			break;
		h[i] = h[c];
		i = c;
	}
	h[i] = x;
	ready_canon(o);
}

static void ready_pop(struct sim_order *o)
{
	if (--o->nready)
		ready_top(o, o->ready[o->nready]);
}

static void idle_push(struct sim_order *o, int32_t t, double key)
{
	heap_up(o, o->idle, o->nidle++, (struct ord_ent){ key, t });
}

static void idle_del(struct sim_order *o, int32_t t)
{
	uint32_t i = (uint32_t)o->hpos[t];
	struct ord_ent last = o->idle[--o->nidle];

	o->hpos[t] = -1;
	if (i != o->nidle)
		heap_fix(o, o->idle, o->nidle, i, last);
}

/* ---- the records waiting -------------------------------------------------- */

/* A record's bios: beside it up to ORD_BIO_IN, else on the heap. */
static inline const uint64_t *rec_bio(const struct sim_order *o, int32_t i)
{
	return o->rec[i].nbio > ORD_BIO_IN ? o->big[i].p : o->bio + (size_t)i * ORD_BIO_IN;
}

/* n bytes of records or bios, aligned on a cache line: large ones on
 * huge pages (common/bigmem.c: several MiB read back in no order, with
 * fewer TLB misses); freed by sr_big_free() with the same n. */
static void *pool_alloc(size_t n)
{
	void *p;

	if (n >= SR_BIG_MIN)
		return sr_big_alloc(n);
	return posix_memalign(&p, 64, n) ? NULL : p;
}

/*
 * The pool resized from rec_cap to cap records, the first keep of them
 * kept (their bios too; the big bios of those beyond cap freed); the free
 * stack is the caller's.  0, or -1 out of memory (the pool as it was).
 */
static int pool_resize(struct sim_order *o, size_t keep, size_t cap)
{
	size_t rb = cap * sizeof(*o->rec), bb = cap * ORD_BIO_IN * sizeof(*o->bio), j;
	struct ord_rec *r;
	uint64_t *b;
	int32_t *f;

	if (o->big && cap > o->rec_cap) {
		/* (Grown first: a failure later leaves it larger, harmless.) */
		struct ord_big *nb = realloc(o->big, cap * sizeof(*nb));

		if (!nb)
			return -1;
		memset(nb + o->rec_cap, 0, (cap - o->rec_cap) * sizeof(*nb));
		o->big = nb;
	}
	r = pool_alloc(rb);
	b = pool_alloc(bb);
	f = malloc(cap * sizeof(*f));
	if (!r || !b || !f) {
		sr_big_free(r, rb);
		sr_big_free(b, bb);
		free(f);
		return -1;
	}
	if (keep) {
		memcpy(r, o->rec, keep * sizeof(*r));
		memcpy(b, o->bio, keep * ORD_BIO_IN * sizeof(*b));
	}
	if (o->nfree)
		memcpy(f, o->free_stk, (o->nfree < cap ? o->nfree : cap) * sizeof(*f));
	sr_big_free(o->rec, o->rec_cap * sizeof(*o->rec));
	sr_big_free(o->bio, o->rec_cap * ORD_BIO_IN * sizeof(*o->bio));
	free(o->free_stk);
	o->rec = r;
	o->bio = b;
	o->free_stk = f;
	/* A smaller pool keeps its larger array of big bios, those beyond
	 * it freed and cleared. */
	for (j = cap; o->big && j < o->rec_cap; j++) {
		free(o->big[j].p);
		o->big[j].p = NULL;
		o->big[j].cap = 0;
	}
	o->rec_cap = cap;
	return 0;
}

#define ORD_POOL_FIRST 4096

/* A free record, the pool grown if it must be; -1 out of memory. */
static int32_t rec_alloc(struct sim_order *o)
{
	if (!o->nfree) {
		/* A first pool of ORD_POOL_FIRST records (a small replay's
		 * all); then one as large as the queue may be, up to
		 * SR_ORDER_QUEUE_MAX records and the one given before one
		 * is played anyway: its pages are touched only as records
		 * are used (the lowest numbers first), where a pool grown
		 * by doubling copied each size into the next and kept the
		 * last one half empty.  Beyond that it doubles to the
		 * queue's size; past it only where every queued task waits
		 * for a child's exit. */
		size_t old = o->rec_cap, lim = o->max + 1, j, cap;

		if (!old)
			cap = lim < ORD_POOL_FIRST ? lim : ORD_POOL_FIRST;
		else if (old < lim) {
			cap = 2 * old > SR_ORDER_QUEUE_MAX + 1 ? 2 * old : SR_ORDER_QUEUE_MAX + 1;
			if (cap > lim)
				cap = lim;
		} else
			cap = 2 * old;
		if (pool_resize(o, old, cap))
			return -1;
		/* (Taken from the stack's top: the lowest first.) */
		for (j = old; j < cap; j++)
			o->free_stk[o->nfree++] = (int32_t)(cap - 1 - (j - old));
	}
	return o->free_stk[--o->nfree];
}

/* Record i's bios beyond ORD_BIO_IN: room for n of them; 0, or -1 out of
 * memory. */
static int rec_big(struct sim_order *o, int32_t i, uint32_t n)
{
	struct ord_big *g;

	if (!o->big && !(o->big = calloc(o->rec_cap, sizeof(*o->big))))
		return -1;
	g = &o->big[i];
	if (g->cap < n) {
		uint64_t *b = realloc(g->p, n * sizeof(*b));

		if (!b)
			return -1;
		g->p = b;
		g->cap = n;
	}
	return 0;
}

/* The recorded end of event e: when the task went on in the recording (a
 * swap-in's latency is I/O wait; a swap-out's writeback is not waited
 * for), as the replay's task_gap() reads it. */
static inline double rec_end(const struct sr_event *e)
{
	double t = (double)e->ts_ns;

	if (e->op == SR_OP_IN)
		t += (double)e->lat_ns;
	return t;
}

/* What a simulation plays of in, in one cache line (its queue's links
 * unset). */
static inline void rec_fill(struct ord_rec *q, const struct sr_play *in)
{
	q->gap = in->gap;
	q->offset = in->e.offset;
	q->nr_pages = (uint16_t)in->e.nr_pages;
	q->slots = in->x.slots;
	q->lru = (uint16_t)in->x.lru;
	q->ra_n = (uint16_t)in->ra_n;
	q->cpu = in->x.cpu;
	/* A task op's child, a swap event's memcg: one or the other. */
	q->child = sr_op_is_task(in->e.op) ? (int32_t)in->child : (int32_t)in->e.memcg;
	q->dv = (int16_t)in->dv;
	q->cpu_nid = in->e.cpu_nid;
	q->page_nid = in->e.page_nid;
	q->nbio = (uint16_t)in->nbio;
	q->op = in->e.op;
	q->flags = in->e.flags;
	q->bits = (uint8_t)(in->x.si_other |
			    sr_play_holds_code(in->x.tree, in->e.nr_pages) << 2 |
			    (in->ra_hit != 0) << 4 | (in->fresh != 0) << 5 |
			    sr_play_holds_code(in->x.trunk_holds, in->e.nr_pages) << 6);
	q->free = (uint16_t)(in->x.free | (unsigned)in->x.ci_lines << 14);
	q->zs = in->zs;
	q->next = -1;
	q->next_gap = 0;
	q->seq = 0;
}

void sr_sub_pack(struct sr_sub *u, const struct sr_play *in)
{
	u->ts_ns = in->e.ts_ns;
	u->end = rec_end(&in->e);
	u->ti = (int32_t)in->ti;
	u->k = in->k;
	rec_fill(&u->r, in);
}

/* Record q (task ti's) as the play it was, its bios at bio (what
 * sr_sim_play() reads of it: replay.c's play() and play_task(), plug.c,
 * src/hw/). */
static inline void rec_unpack(const struct ord_rec *q, long ti, const uint64_t *bio,
			      struct sr_play *in)
{
	in->e.offset = q->offset;
	in->e.nr_pages = q->nr_pages;
	in->e.cpu_nid = q->cpu_nid;
	in->e.page_nid = q->page_nid;
	in->e.op = q->op;
	in->e.flags = q->flags;
	in->x.cpu = q->cpu;
	in->x.task = ti;
	in->x.slots = q->slots;
	in->x.si_other = q->bits & 3;
	in->x.tree = sr_play_holds_of((q->bits >> 2) & 3, q->nr_pages);
	in->x.trunk_holds = sr_play_holds_of(q->bits >> 6, q->nr_pages);
	/* (Its trunk is its offset's: the policy's slot where laid out.) */
	in->x.trunk = sr_play_trunk(q->offset, q->flags);
	in->x.free = q->free & 0x3fff;
	in->x.ci_lines = (uint8_t)(q->free >> 14);
	in->x.lru = q->lru;
	in->gap = q->gap;
	in->ti = ti;
	if (sr_op_is_task(q->op)) {
		in->child = q->child;
		in->e.memcg = 0;
	} else {
		in->child = -1;
		in->e.memcg = (uint16_t)q->child;
	}
	in->dv = q->dv;
	in->fresh = (q->bits >> 5) & 1;
	in->ra_hit = (q->bits >> 4) & 1;
	in->ra_n = q->ra_n;
	in->nbio = q->nbio;
	in->bio = bio;
	in->zs = q->zs;
}

/* Record u, with its bios, at the tail of its task's queue, its gap gap
 * (u's, or kswapd's: sr_sim_submit()); 0, or -1 out of memory. */
static int rec_push(struct sim_order *o, const struct sr_sub *u, const uint64_t *bio,
		    uint32_t seq, double gap)
{
	int32_t i = rec_alloc(o), ti = u->ti;

	if (i < 0)
		return -1;
	if (u->r.nbio) {
		uint64_t *to = o->bio + (size_t)i * ORD_BIO_IN;

		if (u->r.nbio > ORD_BIO_IN) {
			if (rec_big(o, i, u->r.nbio)) {
				o->free_stk[o->nfree++] = i;
				return -1;
			}
			to = o->big[i].p;
		}
		memcpy(to, bio, u->r.nbio * sizeof(*bio));
	}
	o->rec[i] = u->r;
	o->rec[i].seq = seq;
	o->rec[i].gap = gap;
	if (o->qtail[ti] >= 0) {
		o->rec[o->qtail[ti]].next = i;
		o->rec[o->qtail[ti]].next_gap = gap;
	} else
		o->qhead[ti] = i;
	o->qtail[ti] = i;
	o->queued++;
	if (o->queued > o->queued_max)
		o->queued_max = o->queued;
	return 0;
}

/* Record i of task ti as the play it was. */
static inline void rec_play(const struct sim_order *o, int32_t i, long ti, struct sr_play *in)
{
	rec_unpack(&o->rec[i], ti, rec_bio(o, i), in);
}

/* Task ti's first record goes back to the pool. */
static void rec_pop(struct sim_order *o, long ti)
{
	int32_t i = o->qhead[ti];

	o->qhead[ti] = o->rec[i].next;
	if (o->qhead[ti] < 0)
		o->qtail[ti] = -1;
	o->free_stk[o->nfree++] = i;
	o->queued--;
}

/* ---- tasks between the heaps ---------------------------------------------- */

/* Task ti (born, not blocked, not exited) goes where its queue says: ready
 * at its next record's start, or idle by c_i - E_i. */
static void task_place(struct sim *s, long ti)
{
	struct sim_order *o = &s->ord;
	int32_t h = o->qhead[ti];

	if (h >= 0) {
		/* Its record is read when it is played, records on:
		 * towards the cache now. */
		__builtin_prefetch(&o->rec[h]);
		o->st[ti] = ST_READY;
		ready_push(o, (int32_t)ti, s->clock[ti] + o->rec[h].gap);
	} else {
		o->st[ti] = ST_IDLE;
		idle_push(o, (int32_t)ti, s->clock[ti] - o->rec_end[ti]);
	}
}

/* ---- playing ---------------------------------------------------------------- */

/* A record starts at start: the simulation's time (N) moves there, or the
 * record is late (a task played out of order: order_late). */
static inline void note_start(struct sim *s, double start)
{
	struct sim_order *o = &s->ord;

	if (start < o->now)
		o->late++;
	else
		o->now = s->hw.now = start;
}

/* A swap event, the seq-th record given, is played: after one given later
 * (order_behind), or the latest yet.  (seq counts modulo 2^32: a queue
 * holds far fewer than 2^31 records.) */
static inline void note_seq(struct sim_order *o, uint32_t seq)
{
	if ((int32_t)(seq - o->seq_hi) < 0) {
		o->behind++;
		o->behind_by += (double)(uint32_t)(o->seq_hi - seq);
	} else
		o->seq_hi = seq;
}

/*
 * Before task ti's record in plays: a pass of swap-outs it ends flushes
 * the task's plug (plug.c), at the task's clock, and the flush may hold
 * the task (a full queue): then its record starts later, and takes its
 * turn again by that start rather than book the rest of its path ahead
 * of the others'.  1: the start moved; 0: it did not; -1 out of memory.
 * This is the one place a pass's end flushes (play() and play_task() start
 * at the clock it left); the fast path of sr_sim_submit() takes only tasks
 * with no plug.
 */
static int pre_flush(struct sim *s, long ti, const struct sr_play *in)
{
	double was = s->clock[ti];

	if (in->fresh || !s->plug[ti])
		return 0;
	if (sr_replay_plug_before(s, ti, &in->e, was + in->gap))
		return -1;
	return s->clock[ti] != was;
}

/* Play task ti's first record (the earliest start of the simulation). */
static int play_head(struct sim *s, long ti)
{
	struct sim_order *o = &s->ord;
	struct sr_play in;
	long w, child;

	rec_play(o, o->qhead[ti], ti, &in);
	/* Its draws (D3) are its own, whatever was played before it. */
	sr_hw_set_key(&s->hw, o->rec[o->qhead[ti]].seq);
	switch (pre_flush(s, ti, &in)) {
	case -1:
		return -1;
	case 1:
		task_place(s, ti);
		return 0;
	}
	child = in.child;
	note_start(s, s->clock[ti] + in.gap);
	if (SR_UNLIKELY(o->played != NULL))
		o->played(o->played_arg, ti);
	rec_pop(o, ti);
	if (in.e.op == SR_OP_WAIT && child >= 0 && child != ti && o->st[child] != ST_EXITED) {
		/* Its child runs on: the parent's compute time and plug, then
		 * it sleeps until the child's exit (below). */
		in.child = -1;
		if (sr_sim_play(s, &in))
			return -1;
		o->st[ti] = ST_BLOCKED;
		o->waiter[child] = (int32_t)ti;
		return 0;
	}
	if (sr_sim_play(s, &in))
		return -1;
	if (in.e.op == SR_OP_FORK && child >= 0 && o->st[child] == ST_UNBORN) {
		/* The child is born at its parent's clock (play_task()). */
		task_place(s, child);
	} else if (in.e.op == SR_OP_EXIT) {
		o->st[ti] = ST_EXITED;
		w = o->waiter[ti];
		if (w >= 0 && o->st[w] == ST_BLOCKED) {
			/* Its parent's wait ends at its exit. */
			o->waiter[ti] = -1;
			if (s->clock[ti] > s->clock[w])
				s->clock[w] = s->clock[ti];
			if (s->clock[w] > s->did.end)
				s->did.end = s->clock[w];
			task_place(s, w);
		}
		if (o->qhead[ti] < 0)
			return 0; /* (records after an exit: its pid used again) */
	}
	task_place(s, ti);
	return 0;
}

/* Play task ti's first record, a swap event, ti at the top of the ready
 * heap. */
static int play_swap(struct sim *s, long ti)
{
	struct sim_order *o = &s->ord;
	int32_t i = o->qhead[ti];
	double start = o->ready[0].k, next_gap;
	struct sr_play in;

	rec_play(o, i, ti, &in);
	/* Its draws (D3) are its own, whatever was played before it; a
	 * plug's reads it flushes first draw as its own too. */
	sr_hw_set_key(&s->hw, o->rec[i].seq);
	switch (pre_flush(s, ti, &in)) {
	case -1:
		return -1;
	case 1:
		ready_top(o, (struct ord_ent){ s->clock[ti] + in.gap, (int32_t)ti });
		return 0;
	}
	note_start(s, start);
	note_seq(o, o->rec[i].seq);
	if (SR_UNLIKELY(o->played != NULL))
		o->played(o->played_arg, ti);
	/* (The record is played from the copy: its bios stay where they
	 * are until another record is queued, which playing never does.) */
	next_gap = o->rec[i].next_gap;
	rec_pop(o, ti);
	if (o->qhead[ti] >= 0)
		__builtin_prefetch(&o->rec[o->qhead[ti]]);
	if (sr_sim_play(s, &in))
		return -1;
	if (o->qhead[ti] >= 0) {
		ready_top(o, (struct ord_ent){ s->clock[ti] + next_gap, (int32_t)ti });
		return 0;
	}
	ready_pop(o);
	if (rec_kswapd(in.e.op, in.e.flags) && !o->mixed[ti])
		o->st[ti] = ST_KSWAPD; /* asleep: it bounds nothing */
	else
		task_place(s, ti);
	return 0;
}

/* Play what can be played: the earliest ready task while no idle task can
 * act before it (all of them at the end of the trace: end), or while more
 * records wait than the simulation may hold. */
static int advance(struct sim *s, int end)
{
	struct sim_order *o = &s->ord;

	while (o->nready) {
		int32_t ti = o->ready[0].t;
		double start = o->ready[0].k;

		if (!end && o->nidle && start > o->last_ts + o->idle[0].k) {
			if (o->queued <= o->max)
				break;
			o->forced++;
		}
		/* The records played next are those of the top's children
		 * (or its own next): towards the cache while this one plays
		 * (they were queued long ago, and the pool is larger than
		 * the cache). */
		if (o->nready > 1)
			__builtin_prefetch(&o->rec[o->qhead[o->ready[1].t]]);
		if (o->nready > 2)
			__builtin_prefetch(&o->rec[o->qhead[o->ready[2].t]]);
		if (SR_LIKELY(!sr_op_is_task(o->rec[o->qhead[ti]].op))) {
			/* A swap event places no other task: the task stays at
			 * the top while it plays, then moves down by its next
			 * start (one pass down the heap, not a removal and an
			 * insertion), or leaves for the idle heap. */
			if (play_swap(s, ti))
				return -1;
			continue;
		}
		ready_pop(o);
		if (play_head(s, ti))
			return -1;
	}
	return 0;
}

/* Task ti, idle (st: ST_IDLE or ST_KSWAPD), has played a record at once
 * (sr_sim_submit()), kswapd's or not (ksw): it sleeps after kswapd's if
 * it is kswapd alone (bounding nothing), else rests by its clock. */
static void rest_kswapd(struct sim *s, long ti, int st, int ksw)
{
	struct sim_order *o = &s->ord;
	double k = s->clock[ti] - o->rec_end[ti];

	if (ksw && !o->mixed[ti]) {
		if (st == ST_IDLE)
			idle_del(o, (int32_t)ti);
		o->st[ti] = ST_KSWAPD;
	} else if (st == ST_IDLE) {
		heap_fix(o, o->idle, o->nidle, (uint32_t)o->hpos[ti], (struct ord_ent){ k, (int32_t)ti });
	} else {
		o->st[ti] = ST_IDLE;
		idle_push(o, (int32_t)ti, k);
	}
}

int sr_sim_submit(struct sim *s, const struct sr_sub *u, const uint64_t *bio)
{
	struct sim_order *o = &s->ord;
	long ti = u->ti, child = u->r.child;
	double ts = (double)u->ts_ns, gap = u->r.gap;
	int st = o->st[ti], ksw = 0;
	uint32_t seq = ++o->given;

	if (ts > o->last_ts)
		o->last_ts = ts;
	if (u->r.op == SR_OP_FORK && child >= 0) {
		/* The child waits for its fork to be played (a traced fork
		 * is never kswapd's: kswapd_run() creates it as a kernel
		 * thread, kthread_create_on_node()). */
		o->st[child] = ST_UNBORN;
		o->rec_end[child] = ts;
		o->mixed[child] = 1;
	}
	if (st == ST_NEW) {
		/* A task without a recorded fork: at its recorded time, or
		 * when the simulation has got there. */
		s->clock[ti] = ts > o->now ? ts : o->now;
		s->t_start[ti] = s->clock[ti];
		o->mixed[ti] = !rec_kswapd(u->r.op, u->r.flags);
	}
	o->rec_end[ti] = u->end;
	if (SR_UNLIKELY((u->r.flags & SR_EV_KSWAPD) || st == ST_KSWAPD) &&
	    ((ksw = rec_kswapd(u->r.op, u->r.flags)) || st == ST_KSWAPD)) {
		/* kswapd's record, or any after kswapd slept: not before the
		 * simulation's time where its clock is final (above). */
		if ((st == ST_IDLE || st == ST_KSWAPD || st == ST_EXITED) &&
		    gap < o->now - s->clock[ti])
			gap = o->now - s->clock[ti];
		if (!ksw)
			o->mixed[ti] = 1;
	}
	if ((st == ST_IDLE || st == ST_KSWAPD) && !sr_op_is_task(u->r.op) && !s->plug[ti] &&
	    !o->no_shortcut) {
		/* The common case: an idle task's swap event that starts
		 * before every ready task's and every other idle task's
		 * bound is played at once, without a queue. */
		double start = s->clock[ti] + gap, other;

		if (SR_UNLIKELY(st == ST_KSWAPD))
			other = o->nidle ? o->idle[0].k : INFINITY; /* (not in the heap) */
		else if (o->idle[0].t != ti)
			other = o->idle[0].k;
		else if (o->nidle == 1)
			other = INFINITY;
		else if (o->nidle == 2 || o->idle[1].k <= o->idle[2].k)
			other = o->idle[1].k;
		else
			other = o->idle[2].k;
		/* (Or the queue is full, and it is the earliest: the queue
		 * would take it and play it at once, counted.) */
		if ((!o->nready ||
		     ent_before((struct ord_ent){ start, (int32_t)ti }, o->ready[0])) &&
		    (start <= o->last_ts + other || o->queued >= o->max)) {
			struct sr_play in;

			if (start > o->last_ts + other)
				o->forced++;
			note_start(s, start);
			note_seq(o, seq);
			/* Its draws (D3) are its own (play_swap()). */
			sr_hw_set_key(&s->hw, seq);
			if (SR_UNLIKELY(o->played != NULL))
				o->played(o->played_arg, ti);
			rec_unpack(&u->r, ti, bio, &in);
			in.gap = gap;
			if (sr_sim_play(s, &in))
				return -1;
			if (SR_LIKELY(st == ST_IDLE && !ksw))
				/* Its key moves with its clock. */
				heap_fix(o, o->idle, o->nidle, (uint32_t)o->hpos[ti],
					 (struct ord_ent){ s->clock[ti] - o->rec_end[ti], (int32_t)ti });
			else
				rest_kswapd(s, ti, st, ksw);
			return o->nready ? advance(s, 0) : 0;
		}
	}
	if (rec_push(o, u, bio, seq, gap))
		return -1;
	if (st == ST_NEW || st == ST_IDLE || st == ST_KSWAPD || st == ST_EXITED) {
		if (st == ST_IDLE)
			idle_del(o, (int32_t)ti);
		o->st[ti] = ST_READY;
		ready_push(o, (int32_t)ti, s->clock[ti] + gap);
	}
	return advance(s, 0);
}

int sr_sim_drain(struct sim *s, size_t ntasks)
{
	struct sim_order *o = &s->ord;
	size_t i;

	if (advance(s, 1))
		return -1;
	/* Records still queued wait for an exit that never came (a task
	 * waiting for itself, its pid used again after its exit): their
	 * waits end where they are, and the rest plays. */
	while (o->queued) {
		int any = 0;

		for (i = 0; i < ntasks; i++)
			if (o->st[i] == ST_BLOCKED) {
				task_place(s, (long)i);
				any = 1;
			}
		if (!any || advance(s, 1))
			return any ? -1 : 0;
	}
	return 0;
}

/* ---- the state ---------------------------------------------------------------- */

int sr_sim_order_grow(struct sim *s, size_t old_cap, size_t cap)
{
	struct sim_order *o = &s->ord;
	size_t i;

#define GROW(a)                                                          \
	do {                                                             \
		void *n_ = realloc(o->a, cap * sizeof(*o->a));           \
		if (!n_)                                                 \
			return -1;                                       \
		o->a = n_;                                               \
	} while (0)
	GROW(qhead);
	GROW(qtail);
	GROW(hpos);
	GROW(waiter);
	GROW(ready);
	GROW(idle);
	GROW(rec_end);
	GROW(st);
	GROW(mixed);
#undef GROW
	for (i = old_cap; i < cap; i++) {
		o->qhead[i] = o->qtail[i] = o->hpos[i] = o->waiter[i] = -1;
		o->st[i] = ST_NEW;
		o->mixed[i] = 0;
		o->rec_end[i] = 0;
	}
	return 0;
}

int sr_sim_order_copy(struct sim *dst, const struct sim *src, size_t ntasks)
{
	struct sim_order *d = &dst->ord;
	const struct sim_order *o = &src->ord;
	size_t j;

	/* dst has played nothing of its own (shared.c): its pool becomes
	 * src's, record for record. */
	if (d->rec_cap != o->rec_cap && o->rec_cap && pool_resize(d, 0, o->rec_cap))
		return -1;
	if (o->rec_cap) {
		memcpy(d->rec, o->rec, o->rec_cap * sizeof(*d->rec));
		memcpy(d->bio, o->bio, o->rec_cap * ORD_BIO_IN * sizeof(*d->bio));
		memcpy(d->free_stk, o->free_stk, o->nfree * sizeof(*d->free_stk));
	}
	if (o->big)
		for (j = 0; j < o->rec_cap; j++)
			if (o->big[j].p && o->rec[j].nbio > ORD_BIO_IN) {
				if (rec_big(d, (int32_t)j, o->rec[j].nbio))
					return -1;
				memcpy(d->big[j].p, o->big[j].p, o->rec[j].nbio * sizeof(uint64_t));
			}
	d->nfree = o->nfree;
	if (ntasks) {
		memcpy(d->qhead, o->qhead, ntasks * sizeof(*d->qhead));
		memcpy(d->qtail, o->qtail, ntasks * sizeof(*d->qtail));
		memcpy(d->hpos, o->hpos, ntasks * sizeof(*d->hpos));
		memcpy(d->waiter, o->waiter, ntasks * sizeof(*d->waiter));
		memcpy(d->ready, o->ready, ntasks * sizeof(*d->ready));
		memcpy(d->idle, o->idle, ntasks * sizeof(*d->idle));
		memcpy(d->rec_end, o->rec_end, ntasks * sizeof(*d->rec_end));
		memcpy(d->st, o->st, ntasks * sizeof(*d->st));
		memcpy(d->mixed, o->mixed, ntasks * sizeof(*d->mixed));
	}
	d->nready = o->nready;
	d->nidle = o->nidle;
	d->queued = o->queued;
	d->queued_max = o->queued_max;
	d->last_ts = o->last_ts;
	d->now = o->now;
	d->forced = o->forced;
	d->late = o->late;
	d->given = o->given;
	d->seq_hi = o->seq_hi;
	d->behind = o->behind;
	d->behind_by = o->behind_by;
	d->max = o->max;
	d->no_shortcut = o->no_shortcut;
	return 0;
}

void sr_sim_order_free(struct sim *s)
{
	struct sim_order *o = &s->ord;
	size_t j;

	for (j = 0; o->big && j < o->rec_cap; j++)
		free(o->big[j].p);
	free(o->big);
	sr_big_free(o->rec, o->rec_cap * sizeof(*o->rec));
	sr_big_free(o->bio, o->rec_cap * ORD_BIO_IN * sizeof(*o->bio));
	free(o->free_stk);
	free(o->qhead);
	free(o->qtail);
	free(o->hpos);
	free(o->waiter);
	free(o->ready);
	free(o->idle);
	free(o->rec_end);
	free(o->st);
	free(o->mixed);
	memset(o, 0, sizeof(*o));
}
