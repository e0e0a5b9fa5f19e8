/* SPDX-License-Identifier: MIT */
/*
 * The simulations on a thread of their own (sr_replay_set_sim_thread()).
 *
 * A replay's work per event is in two parts that share nothing: what each
 * policy's kernel decides (src/mm/, the slot map, readahead: replay_one())
 * depends on the events alone, and what the simulations make of the
 * decisions (src/hw/, the plugs, the clocks: sr_replay_play()) reads only
 * the decisions and its own state (shared.c says why).  So the decisions
 * can run ahead on the replay's thread while this thread plays them, in
 * the same order: each simulation sees the same calls with the same
 * arguments as on one thread, and the figures are the same to the bit.
 *
 * The decisions go here as records (struct sr_play, with readahead's bios
 * after it, or a simulation parting: sr_replay_sim_copy()) in batches of
 * SIMQ_BATCH bytes, at most SIMQ_BATCHES of them (2 MiB) made, the one
 * being filled among them.  The replay's thread waits for this one to be
 * idle (sr_simq_sync()) before anything that touches the simulations'
 * state itself: growing the per-task arrays, the end of the trace, the
 * results.  Out of memory here is reported at the next batch or sync.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "replay/replay_impl.h"

#define SIMQ_BATCH ((size_t)256 << 10)
#define SIMQ_BATCHES 8

enum { REC_PLAY, REC_COPY };

struct rec_copy {
	int k, g;
	size_t ntasks;
};

struct batch {
	struct batch *next;
	size_t used;
	_Alignas(8) unsigned char buf[SIMQ_BATCH];
};

struct sr_simq {
	struct sr_replay *r;
	pthread_t th;
	pthread_mutex_t mu;
	pthread_cond_t work, idle;
	struct batch *head, *tail; /* full, for the thread, oldest first */
	struct batch *spare;       /* played, for the replay to fill again */
	struct batch *cur;         /* the replay's, being filled */
	int nbatch;                /* made so far */
	int busy;                  /* the thread is playing a batch */
	int stop;
	int failed;                /* a simulation ran out of memory */
};

/* A record: its kind and length (to 8 bytes), then its body. */
struct rec_head {
	uint32_t kind, len;
};
_Static_assert(_Alignof(struct sr_play) <= 8 && sizeof(struct rec_head) == 8,
	       "a record's body is played where it lies: 8-byte alignment");

/* Play batch b's records in order, each where it lies (records are
 * 8-byte aligned, as struct sr_play is). */
static void play_batch(struct sr_simq *q, struct batch *b)
{
	size_t at = 0;

	while (at < b->used) {
		const struct rec_head *h = (const void *)(b->buf + at);
		unsigned char *body = b->buf + at + sizeof(*h);

		if (h->kind == REC_PLAY) {
			struct sr_play *in = (void *)body;

			in->bio = (const uint64_t *)(const void *)(body + sizeof(*in));
			if (sr_replay_play(q->r, in))
				q->failed = 1;
		} else {
			const struct rec_copy *c = (const void *)body;

			if (sr_replay_sim_copy(q->r, c->k, c->g, c->ntasks))
				q->failed = 1;
		}
		if (q->failed)
			return;
		at += h->len;
	}
}

static void *worker(void *arg)
{
	struct sr_simq *q = arg;

	pthread_mutex_lock(&q->mu);
	for (;;) {
		struct batch *b;
		int failed;

		while (!q->head && !q->stop)
			pthread_cond_wait(&q->work, &q->mu);
		if (!q->head)
			break;
		b = q->head;
		q->head = b->next;
		if (!q->head)
			q->tail = NULL;
		q->busy = 1;
		failed = q->failed;
		pthread_mutex_unlock(&q->mu);
		if (!failed)
			play_batch(q, b);
		pthread_mutex_lock(&q->mu);
		q->busy = 0;
		b->used = 0;
		b->next = q->spare;
		q->spare = b;
		pthread_cond_signal(&q->idle);
	}
	pthread_mutex_unlock(&q->mu);
	return NULL;
}

int sr_simq_start(struct sr_replay *r, struct sr_simq **out)
{
	struct sr_simq *q = calloc(1, sizeof(*q));

	*out = NULL;
	if (!q)
		return -1;
	q->r = r;
	if (pthread_mutex_init(&q->mu, NULL)) {
		free(q);
		return -1;
	}
	if (pthread_cond_init(&q->work, NULL) || pthread_cond_init(&q->idle, NULL) ||
	    pthread_create(&q->th, NULL, worker, q)) {
		/* (A condition variable that was made is left: glibc's hold
		 * nothing to free.) */
		pthread_mutex_destroy(&q->mu);
		free(q);
		return -1;
	}
	*out = q;
	return 0;
}

/* Hand the batch being filled to the thread (with the lock held). */
static void hand_over(struct sr_simq *q)
{
	if (!q->cur || !q->cur->used)
		return;
	q->cur->next = NULL;
	if (q->tail)
		q->tail->next = q->cur;
	else
		q->head = q->cur;
	q->tail = q->cur;
	q->cur = NULL;
	pthread_cond_signal(&q->work);
}

/* Room for len more bytes in the batch being filled; NULL out of memory,
 * or when a simulation has failed. */
static unsigned char *room(struct sr_simq *q, size_t len)
{
	unsigned char *p;

	if (q->cur && q->cur->used + len <= SIMQ_BATCH)
		goto have;
	pthread_mutex_lock(&q->mu);
	hand_over(q);
	while (!q->spare && q->nbatch >= SIMQ_BATCHES && !q->failed)
		pthread_cond_wait(&q->idle, &q->mu);
	if (q->failed) {
		pthread_mutex_unlock(&q->mu);
		return NULL;
	}
	if (q->spare) {
		q->cur = q->spare;
		q->spare = q->cur->next;
	} else if ((q->cur = malloc(sizeof(*q->cur))) != NULL) {
		q->nbatch++;
	}
	pthread_mutex_unlock(&q->mu);
	if (!q->cur)
		return NULL;
	q->cur->used = 0;
have:
	p = q->cur->buf + q->cur->used;
	q->cur->used += len;
	return p;
}

int sr_simq_play(struct sr_simq *q, const struct sr_play *in)
{
	size_t body = sizeof(*in) + (size_t)in->nbio * sizeof(*in->bio);
	struct rec_head h = { REC_PLAY, (uint32_t)((sizeof(h) + body + 7) & ~(size_t)7) };
	unsigned char *p = room(q, h.len);

	if (!p)
		return -1;
	memcpy(p, &h, sizeof(h));
	memcpy(p + sizeof(h), in, sizeof(*in));
	if (in->nbio)
		memcpy(p + sizeof(h) + sizeof(*in), in->bio, (size_t)in->nbio * sizeof(*in->bio));
	return 0;
}

int sr_simq_copy(struct sr_simq *q, int k, int g, size_t ntasks)
{
	struct rec_copy c = { k, g, ntasks };
	struct rec_head h = { REC_COPY, (uint32_t)((sizeof(h) + sizeof(c) + 7) & ~(size_t)7) };
	unsigned char *p = room(q, h.len);

	if (!p)
		return -1;
	memcpy(p, &h, sizeof(h));
	memcpy(p + sizeof(h), &c, sizeof(c));
	return 0;
}

int sr_simq_sync(struct sr_simq *q)
{
	int failed;

	pthread_mutex_lock(&q->mu);
	hand_over(q);
	while ((q->head || q->busy) && !q->failed)
		pthread_cond_wait(&q->idle, &q->mu);
	/* A failed thread may still be on its batch: wait it out, so that
	 * nothing plays while the caller looks. */
	while (q->busy)
		pthread_cond_wait(&q->idle, &q->mu);
	failed = q->failed;
	pthread_mutex_unlock(&q->mu);
	return failed ? -1 : 0;
}

void sr_simq_stop(struct sr_simq *q)
{
	struct batch *b;

	if (!q)
		return;
	pthread_mutex_lock(&q->mu);
	/* Whatever is still queued is dropped: the replay is being freed. */
	while (q->head) {
		b = q->head;
		q->head = b->next;
		free(b);
	}
	q->tail = NULL;
	q->stop = 1;
	pthread_cond_signal(&q->work);
	pthread_mutex_unlock(&q->mu);
	pthread_join(q->th, NULL);
	free(q->cur);
	while (q->spare) {
		b = q->spare;
		q->spare = b->next;
		free(b);
	}
	pthread_cond_destroy(&q->work);
	pthread_cond_destroy(&q->idle);
	pthread_mutex_destroy(&q->mu);
	free(q);
}
