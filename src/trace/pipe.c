/* SPDX-License-Identifier: MIT */
/*
 * Reading ahead on a thread: the reader decodes into a ring of batches
 * while the caller replays the previous ones.  One producer, one consumer,
 * a mutex and two condition variables.  Ordered (sr_pipe_start_ordered),
 * the producer also checks each event and puts it through the reorder
 * window (window.h), so that the consumer gets the events in the order the
 * replay's own window would give them and has less to do.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>

#include "common/diag.h"
#include "common/bigmem.h"
#include "swapreplay/trace.h"
#include "trace/window.h"

/*
 * 8 batches of 4096 events (1.5 MiB): a sweep's last unit runs on a pipe,
 * and there 4 of 16384 (3 MiB, fresh pages) cost more than they saved.
 * The producer, once it finds every batch full, sleeps until half of them
 * are free, so that it is woken once per PIPE_SLOTS / 2 batches, not each.
 */
#define PIPE_SLOTS 8
#define PIPE_BATCH 4096 /* events handed over at a time */
#define PIPE_IN 512      /* events decoded at a time for the window */
/*
 * Ordered, a batch whose events left the window from consecutive slots of
 * its ring (sorted input: all but the batch where the ring wraps round) is
 * handed over where they are, without a copy; any other is a copy in ev[].
 * So the ring has PIPE_HOLD slots beside those of a full window and the
 * PIPE_IN decoded in place: the producer fills a batch only while fewer
 * than PIPE_SLOTS are out, and a batch takes at most PIPE_BATCH events out
 * of the window, so no slot that the consumer may still read is written
 * before its batch comes back.
 */
#define PIPE_HOLD (PIPE_SLOTS * PIPE_BATCH)

struct batch {
	struct sr_event ev[PIPE_BATCH];
	const struct sr_event *evs; /* ev, or the events in the window's ring */
	size_t n;
	enum sr_err err;       /* set on the last batch of an error */
	struct sr_diag diag;
};

struct sr_pipe {
	struct sr_reader *r;
	pthread_t th;
	pthread_mutex_t mu;
	pthread_cond_t filled, emptied;
	struct batch *b;       /* PIPE_SLOTS batches */
	unsigned head;         /* next batch the consumer takes */
	unsigned count;        /* batches filled and not yet taken back */
	int borrowed;          /* the consumer holds b[head] */
	int full_wait;         /* the producer sleeps until half are free */
	int done;              /* the producer has put its last batch */
	int stop;              /* the consumer is going away */

	/* Ordered: the producer's own. */
	int ordered;
	struct sr_window win;
	sr_pipe_check_fn check;
	void *ctx;
	struct sr_event *in;   /* events read, not yet through the window: in
				* the window's ring or in in_buf (read_in()) */
	struct sr_event *in_buf;
	size_t in_n, in_pos;
	int in_end;            /* the reader has nothing more */
	enum sr_err in_err;    /* ... because of this error (after in[]) */
	struct sr_diag in_diag;
	uint64_t nth;          /* events checked and put into the window */
};

/*
 * The next PIPE_IN events from the reader, decoded straight into the
 * window's ring after its newest event when there is room for them in one
 * piece (sr_window_tail(); the ring has PIPE_IN slots more than the
 * window), else into in_buf.  The reader is asked for PIPE_IN events every
 * time either way: how much it asks for decides where a zstd error cuts
 * the events short (source.c).
 */
static void read_in(struct sr_pipe *p)
{
	size_t room;
	struct sr_event *dst = sr_window_tail(&p->win, &room);

	if (room < PIPE_IN)
		dst = p->in_buf;
	p->in = dst;
	sr_diag_clear(&p->in_diag);
	p->in_err = sr_reader_read(p->r, dst, PIPE_IN, &p->in_n, &p->in_diag);
	p->in_pos = 0;
	if (p->in_err || p->in_n == 0)
		p->in_end = 1;
}

/*
 * The next event out of the window, onto the end of b.  b starts as a
 * view of the ring from its head (fill_ordered()) and stays one while its
 * events leave the ring one slot after another; else they are copied to
 * b->ev, once, and the events after them too.
 */
static void pop_copy(struct sr_window *w, struct batch *b)
{
	if (b->evs != b->ev) {
		if (sr_window_ring_next(w) && &w->ring[w->rhead] == b->evs + b->n) {
			sr_window_pop_ring(w);
			b->n++;
			return;
		}
		memcpy(b->ev, b->evs, b->n * sizeof(*b->ev));
		b->evs = b->ev;
	}
	sr_window_pop(w, &b->ev[b->n++]);
}

/* pop_copy(), with the case of sorted input inline: the heap empty and
 * the ring's head the next slot of b's view. */
static inline void pop_to(struct sr_window *w, struct batch *b)
{
	if (SR_LIKELY(!w->hn && w->rn && &w->ring[w->rhead] == b->evs + b->n)) {
		sr_window_pop_ring(w);
		b->n++;
	} else {
		pop_copy(w, b);
	}
}

/* Fill b with the next events in window order. */
static void fill_ordered(struct sr_pipe *p, struct batch *b)
{
	struct sr_window *w = &p->win;

	b->n = 0;
	b->evs = &w->ring[w->rhead]; /* a view until an event is not there */
	b->err = SR_OK;
	while (b->n < PIPE_BATCH) {
		const struct sr_event *in;
		enum sr_err err = SR_OK;
		size_t k, m, n;

		if (p->in_pos == p->in_n) {
			if (p->in_err) {
				b->err = p->in_err;
				b->diag = p->in_diag;
				return;
			}
			if (p->in_end) {
				if (!sr_window_len(w))
					return;
				pop_to(w, b);
				continue;
			}
			read_in(p);
			continue;
		}
		/* As many events as the batch may still take: one leaves the
		 * window for each at most. */
		n = p->in_n - p->in_pos;
		if (n > PIPE_BATCH - b->n)
			n = PIPE_BATCH - b->n;
		/* The check first, over all of them (it depends on the event
		 * alone), then the window, in a loop without calls: after a
		 * call the compiler must load the window's fields again. */
		in = p->in + p->in_pos;
		m = n;
		if (p->check) {
			sr_pipe_check_fn check = p->check;
			void *ctx = p->ctx;
			uint64_t nth = p->nth;

			for (k = 0; k < n; k++) {
				err = check(ctx, &in[k], nth + k + 1, &b->diag);
				if (err) {
					m = k;
					break;
				}
			}
		}
		for (k = 0; k < m; k++) {
			/* Sorted input, in place, the batch a view: no copy. */
			if (SR_LIKELY(b->evs + b->n == &w->ring[w->rhead])) {
				size_t run = sr_window_pass_placed(w, &in[k], m - k);

				b->n += run;
				k += run;
				if (k == m)
					break;
			}
			if (sr_window_len(w) == w->cap)
				pop_to(w, b);
			sr_window_push_placed(w, &in[k]);
		}
		p->in_pos += m;
		p->nth += m;
		if (err) {
			b->err = err;
			return;
		}
	}
}

static void *produce(void *arg)
{
	struct sr_pipe *p = arg;
	unsigned tail = 0;

	prctl(PR_SET_NAME, "sr-decode", 0, 0, 0); /* for top -H and perf --comm */
	for (;;) {
		struct batch *b;
		int last;

		pthread_mutex_lock(&p->mu);
		while (p->count == PIPE_SLOTS && !p->stop) {
			p->full_wait = 1;
			pthread_cond_wait(&p->emptied, &p->mu);
		}
		if (p->stop) {
			pthread_mutex_unlock(&p->mu);
			return NULL;
		}
		pthread_mutex_unlock(&p->mu);

		b = &p->b[tail];
		if (p->ordered)
			fill_ordered(p, b);
		else {
			b->evs = b->ev;
			b->err = sr_reader_read(p->r, b->ev, PIPE_BATCH, &b->n, &b->diag);
		}
		last = b->err || b->n == 0;

		pthread_mutex_lock(&p->mu);
		p->count++;
		if (last)
			p->done = 1;
		pthread_cond_signal(&p->filled);
		pthread_mutex_unlock(&p->mu);
		if (last)
			return NULL;
		tail = (tail + 1) % PIPE_SLOTS;
	}
}

static void pipe_free(struct sr_pipe *p)
{
	sr_window_free(&p->win);
	free(p->in_buf);
	sr_big_free(p->b, PIPE_SLOTS * sizeof(*p->b));
	free(p);
}

static enum sr_err start(struct sr_pipe **out, struct sr_reader *r, size_t window,
			 sr_pipe_check_fn check, void *ctx, struct sr_diag *diag)
{
	struct sr_pipe *p;

	*out = NULL;
	p = calloc(1, sizeof(*p));
	if (!p)
		return sr_diag_set(diag, SR_ERR_NOMEM, "out of memory");
	p->b = sr_big_alloc(PIPE_SLOTS * sizeof(*p->b));
	if (window) {
		p->ordered = 1;
		p->check = check;
		p->ctx = ctx;
		p->in_buf = malloc(PIPE_IN * sizeof(*p->in_buf));
		if (!p->in_buf || sr_window_init_room(&p->win, window, PIPE_IN + PIPE_HOLD)) {
			pipe_free(p);
			return sr_diag_set(diag, SR_ERR_NOMEM, "out of memory");
		}
	}
	if (!p->b) {
		pipe_free(p);
		return sr_diag_set(diag, SR_ERR_NOMEM, "out of memory");
	}
	p->r = r;
	pthread_mutex_init(&p->mu, NULL);
	pthread_cond_init(&p->filled, NULL);
	pthread_cond_init(&p->emptied, NULL);
	if (pthread_create(&p->th, NULL, produce, p)) {
		pthread_mutex_destroy(&p->mu);
		pthread_cond_destroy(&p->filled);
		pthread_cond_destroy(&p->emptied);
		pipe_free(p);
		return sr_diag_set(diag, SR_ERR_NOMEM, "cannot start the reading thread");
	}
	*out = p;
	return SR_OK;
}

enum sr_err sr_pipe_start(struct sr_pipe **out, struct sr_reader *r,
			  struct sr_diag *diag)
{
	return start(out, r, 0, NULL, NULL, diag);
}

enum sr_err sr_pipe_start_ordered(struct sr_pipe **out, struct sr_reader *r, size_t window,
				  sr_pipe_check_fn check, void *ctx, struct sr_diag *diag)
{
	if (!window)
		return sr_diag_set(diag, SR_ERR_INVAL, "a reorder window of 0 events");
	return start(out, r, window, check, ctx, diag);
}

enum sr_err sr_pipe_next(struct sr_pipe *p, const struct sr_event **evs, size_t *n,
			 struct sr_diag *diag)
{
	struct batch *b;

	pthread_mutex_lock(&p->mu);
	if (p->borrowed) {
		/* Give back the batch handed out last time. */
		p->borrowed = 0;
		p->head = (p->head + 1) % PIPE_SLOTS;
		p->count--;
		if (p->full_wait && p->count <= PIPE_SLOTS / 2) {
			p->full_wait = 0;
			pthread_cond_signal(&p->emptied);
		}
	}
	while (p->count == 0)
		pthread_cond_wait(&p->filled, &p->mu);
	b = &p->b[p->head];
	pthread_mutex_unlock(&p->mu);

	*evs = b->evs;
	*n = b->n;
	if (b->err) {
		if (diag)
			*diag = b->diag;
		return b->err; /* kept: the producer has stopped */
	}
	if (b->n)
		p->borrowed = 1;
	return SR_OK;
}

void sr_pipe_stop(struct sr_pipe *p)
{
	if (!p)
		return;
	pthread_mutex_lock(&p->mu);
	p->stop = 1;
	pthread_cond_signal(&p->emptied);
	pthread_mutex_unlock(&p->mu);
	pthread_join(p->th, NULL);
	pthread_mutex_destroy(&p->mu);
	pthread_cond_destroy(&p->filled);
	pthread_cond_destroy(&p->emptied);
	pipe_free(p);
}
