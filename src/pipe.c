/* SPDX-License-Identifier: MIT */
/*
 * Reading ahead on a thread: the reader decodes into a ring of batches
 * while the caller replays the previous ones.  One producer, one consumer,
 * a mutex and two condition variables.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "swapreplay/trace.h"

#define PIPE_SLOTS 4
#define PIPE_BATCH 16384

struct batch {
	struct sr_event ev[PIPE_BATCH];
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
	int done;              /* the producer has put its last batch */
	int stop;              /* the consumer is going away */
};

static void *produce(void *arg)
{
	struct sr_pipe *p = arg;
	unsigned tail = 0;

	for (;;) {
		struct batch *b;
		int last;

		pthread_mutex_lock(&p->mu);
		while (p->count == PIPE_SLOTS && !p->stop)
			pthread_cond_wait(&p->emptied, &p->mu);
		if (p->stop) {
			pthread_mutex_unlock(&p->mu);
			return NULL;
		}
		pthread_mutex_unlock(&p->mu);

		b = &p->b[tail];
		b->err = sr_reader_read(p->r, b->ev, PIPE_BATCH, &b->n, &b->diag);
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

enum sr_err sr_pipe_start(struct sr_pipe **out, struct sr_reader *r,
			  struct sr_diag *diag)
{
	struct sr_pipe *p;

	*out = NULL;
	p = calloc(1, sizeof(*p));
	if (!p)
		return sr_diag_set(diag, SR_ERR_NOMEM, "out of memory");
	p->b = malloc(PIPE_SLOTS * sizeof(*p->b));
	if (!p->b) {
		free(p);
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
		free(p->b);
		free(p);
		return sr_diag_set(diag, SR_ERR_NOMEM, "cannot start the reading thread");
	}
	*out = p;
	return SR_OK;
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
		pthread_cond_signal(&p->emptied);
	}
	while (p->count == 0)
		pthread_cond_wait(&p->filled, &p->mu);
	b = &p->b[p->head];
	pthread_mutex_unlock(&p->mu);

	*evs = b->ev;
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
	free(p->b);
	free(p);
}
