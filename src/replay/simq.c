/* SPDX-License-Identifier: MIT */
/*
 * The simulations on threads of their own (sr_replay_opts.sim_threads).
 *
 * A replay's work per event is in two parts that share nothing: what each
 * policy's kernel decides (src/mm/, the slot map, readahead: replay_one())
 * depends on the events alone, and what the simulations make of the
 * decisions (src/hw/, the plugs, the clocks: sr_sim_play()) reads only
 * the decisions and its own state (shared.c says why): a worker is given
 * the simulations (struct sim), never the replay.  So the decisions
 * can run ahead on the replay's thread while worker threads play them, in
 * the same order: each simulation sees the same calls with the same
 * arguments as on one thread, and the figures are the same to the bit.
 *
 * Each simulation (a lead: shared.c) is played by one worker, the one that
 * had the fewest simulations when it began; simulations that share nothing
 * play on different workers at once.  The first is worker 0's.  A worker's
 * thread starts with its first simulation: where fewer simulations than
 * workers are ever played, the others never run.  A
 * simulation that parts from its lead (sr_simq_copy()) is copied on the
 * replay's thread once the lead's worker has played everything queued for
 * it, and goes to its own worker from the next event on.
 *
 * The decisions go to a worker as records (struct sr_sub, with
 * readahead's bios after it) in batches of SIMQ_BATCH bytes, at most
 * SIMQ_BATCHES of them (8 MiB, about 87,000 records) made per worker, the
 * one being filled among them.  The more there are, the further either
 * side may run ahead of the other while the other is slow for a while (a
 * simulation playing the records its queue held back, order.c; the
 * decisions through a burst of readahead): with 8 (2 MiB), two CPUs were
 * busy 1.55 of the time on make bench's 10M-event traces (three policies),
 * and the replays took 10 to 15 % longer than with 32 (medians of 3
 * interleaved runs; 64 gained no more beyond the noise).  The replay's thread waits for every worker to be idle
 * (sr_simq_sync()) before anything that touches the simulations' state
 * itself: growing the per-task arrays, the end of the trace, the results.
 * Out of memory on a worker is reported at its next batch or at a sync.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>

#include "common/bigmem.h"
#include "replay/replay_impl.h"

#define SIMQ_BATCH ((size_t)256 << 10)
#define SIMQ_BATCHES 32
/* Either side is woken once the other has SIMQ_WAKE batches for it (full
 * ones for the worker, played ones for the replay), or has run out: on
 * two CPUs shared by four threads, a wake-up for every batch cost 17,600
 * context switches in a replay of 10M events (three policies, two
 * simulations), every other one a sleep. */
#define SIMQ_WAKE 4
_Static_assert(SIMQ_WAKE < SIMQ_BATCHES,
	       "a replay waiting for room leaves SIMQ_BATCHES - 1 batches queued");

struct batch {
	struct batch *next;
	size_t used;
	_Alignas(8) unsigned char buf[SIMQ_BATCH];
};

/* One worker thread and the batches queued for it. */
struct simw {
	struct sim *const *sims;   /* the simulations, by number (sr_replay_sim()) */
	pthread_t th;
	int id;                    /* its number, for its name */
	pthread_mutex_t mu;
	pthread_cond_t work, idle;
	struct batch *head, *tail; /* full, for the thread, oldest first */
	struct batch *spare;       /* played, for the replay to fill again */
	struct batch *cur;         /* the replay's, being filled */
	struct batch *arena;       /* room for SIMQ_BATCHES of them (NULL until
				    * the first), on huge pages: the first touch
				    * of each 4 KiB page of 8 MiB cost 50 ms on
				    * the virtual machines measured (bigmem.c) */
	int nbatch;                /* made so far (arena's first ones) */
	int nqueued, nspare;       /* in head, in spare */
	int busy;                  /* the thread is playing a batch */
	int stop;
	int failed;                /* a simulation ran out of memory */
	int nsim;                  /* simulations given to it (the replay's) */
	int started;               /* its thread runs (from its first simulation) */
};

struct sr_simq {
	struct sim **sims;          /* simulation k: sr_replay_sim(r, k), which
				     * stay where they are while the replay runs */
	int nw;                     /* workers there may be; started as needed */
	struct simw w[SR_SIM_WORKERS_MAX];
	int8_t *of;                 /* simulation k's worker; -1: none yet (the
				     * variants' too: sr_replay_sim()) */
};

/* A record: its length (to 8 bytes), then a struct sr_sub and its bios. */
struct rec_head {
	uint32_t len, pad;
};
_Static_assert(_Alignof(struct sr_sub) <= 8 && sizeof(struct rec_head) == 8,
	       "a record's body is played where it lies: 8-byte alignment");

/* Play batch b's records in order, each where it lies (records are
 * 8-byte aligned, as struct sr_sub is). */
static void play_batch(struct simw *w, struct batch *b)
{
	size_t at = 0;

	while (at < b->used) {
		const struct rec_head *h = (const void *)(b->buf + at);
		const struct sr_sub *u = (const void *)(b->buf + at + sizeof(*h));

		if (sr_sim_submit(w->sims[u->k], u, (const uint64_t *)(const void *)(u + 1))) {
			w->failed = 1;
			return;
		}
		at += h->len;
	}
}

static void *worker(void *arg)
{
	struct simw *w = arg;
	char name[16];

	/* Named for top -H and perf (--comm): sr-sim0, sr-sim1... */
	snprintf(name, sizeof(name), "sr-sim%d", w->id);
	prctl(PR_SET_NAME, name, 0, 0, 0);
	pthread_mutex_lock(&w->mu);
	for (;;) {
		struct batch *b;
		int failed;

		while (!w->head && !w->stop)
			pthread_cond_wait(&w->work, &w->mu);
		if (!w->head)
			break;
		b = w->head;
		w->head = b->next;
		if (!w->head)
			w->tail = NULL;
		w->nqueued--;
		w->busy = 1;
		failed = w->failed;
		pthread_mutex_unlock(&w->mu);
		if (!failed)
			play_batch(w, b);
		pthread_mutex_lock(&w->mu);
		w->busy = 0;
		b->used = 0;
		b->next = w->spare;
		w->spare = b;
		if (++w->nspare >= SIMQ_WAKE || !w->head || w->failed)
			pthread_cond_signal(&w->idle);
	}
	pthread_mutex_unlock(&w->mu);
	return NULL;
}

static void worker_stop(struct simw *w)
{

	pthread_mutex_lock(&w->mu);
	/* Whatever is still queued is dropped: the replay is being freed. */
	w->head = NULL;
	w->tail = NULL;
	w->stop = 1;
	pthread_cond_signal(&w->work);
	pthread_mutex_unlock(&w->mu);
	pthread_join(w->th, NULL);
	sr_big_free(w->arena, SIMQ_BATCHES * sizeof(*w->arena));
	w->arena = w->cur = w->spare = NULL;
	pthread_cond_destroy(&w->work);
	pthread_cond_destroy(&w->idle);
	pthread_mutex_destroy(&w->mu);
}

static int worker_start(struct simw *w, struct sim *const *sims, int id)
{
	w->sims = sims;
	w->id = id;
	if (pthread_mutex_init(&w->mu, NULL))
		return -1;
	if (pthread_cond_init(&w->work, NULL) || pthread_cond_init(&w->idle, NULL) ||
	    pthread_create(&w->th, NULL, worker, w)) {
		/* (A condition variable that was made is left: glibc's hold
		 * nothing to free.) */
		pthread_mutex_destroy(&w->mu);
		return -1;
	}
	return 0;
}

int sr_simq_start(struct sr_replay *r, int nworkers, struct sr_simq **out)
{
	struct sr_simq *q;
	size_t nsim, k;

	*out = NULL;
	if (nworkers < 1)
		return -1;
	q = calloc(1, sizeof(*q));
	if (!q)
		return -1;
	q->nw = nworkers > SR_SIM_WORKERS_MAX ? SR_SIM_WORKERS_MAX : nworkers;
	nsim = (size_t)r->np * (size_t)(1 + r->nvar);
	q->of = malloc(nsim * sizeof(*q->of));
	q->sims = malloc(nsim * sizeof(*q->sims));
	if (!q->of || !q->sims) {
		free(q->sims);
		free(q->of);
		free(q);
		return -1;
	}
	memset(q->of, -1, nsim * sizeof(*q->of));
	for (k = 0; k < nsim; k++)
		q->sims[k] = sr_replay_sim(r, (int)k);
	*out = q;
	return 0;
}

/* Worker i, its thread started if this is its first simulation (a worker
 * no simulation needs is never started); NULL if it cannot be. */
static struct simw *worker_take(struct sr_simq *q, int i)
{
	struct simw *w = &q->w[i];

	if (!w->started) {
		if (worker_start(w, q->sims, i))
			return NULL;
		w->started = 1;
	}
	w->nsim++;
	return w;
}

/* Hand the batch being filled to the thread (with the lock held), waking
 * it if it has SIMQ_WAKE batches now, or if the caller waits (now). */
static void hand_over(struct simw *w, int now)
{
	if (w->cur && w->cur->used) {
		w->cur->next = NULL;
		if (w->tail)
			w->tail->next = w->cur;
		else
			w->head = w->cur;
		w->tail = w->cur;
		w->cur = NULL;
		w->nqueued++;
	}
	if (w->head && (now || w->nqueued >= SIMQ_WAKE))
		pthread_cond_signal(&w->work);
}

/* Room for len more bytes in the batch being filled; NULL out of memory,
 * or when a simulation has failed. */
static unsigned char *room(struct simw *w, size_t len)
{
	unsigned char *p;

	if (w->cur && w->cur->used + len <= SIMQ_BATCH)
		goto have;
	pthread_mutex_lock(&w->mu);
	hand_over(w, !w->spare && w->nbatch >= SIMQ_BATCHES);
	while (!w->spare && w->nbatch >= SIMQ_BATCHES && !w->failed)
		pthread_cond_wait(&w->idle, &w->mu);
	if (w->failed) {
		pthread_mutex_unlock(&w->mu);
		return NULL;
	}
	if (w->spare) {
		w->cur = w->spare;
		w->spare = w->cur->next;
		w->nspare--;
	} else {
		if (!w->arena)
			w->arena = sr_big_alloc(SIMQ_BATCHES * sizeof(*w->arena));
		w->cur = w->arena ? &w->arena[w->nbatch++] : NULL;
	}
	pthread_mutex_unlock(&w->mu);
	if (!w->cur)
		return NULL;
	w->cur->used = 0;
have:
	p = w->cur->buf + w->cur->used;
	w->cur->used += len;
	return p;
}

/* The worker with the fewest simulations (the first of them). */
static int least_busy(const struct sr_simq *q)
{
	int i, best = 0;

	for (i = 1; i < q->nw; i++)
		if (q->w[i].nsim < q->w[best].nsim)
			best = i;
	return best;
}

/* The worker of simulation k: a first simulation (the machine's, then
 * each variant's) goes to the worker with the fewest, the machine's to
 * worker 0; one begun since (sr_simq_copy() gives it one) keeps its own.
 * NULL: its thread cannot be started. */
static struct simw *worker_of(struct sr_simq *q, int k)
{
	if (SR_UNLIKELY(q->of[k] < 0)) {
		int i = least_busy(q);

		if (!worker_take(q, i))
			return NULL;
		q->of[k] = (int8_t)i;
	}
	return &q->w[q->of[k]];
}

int sr_simq_play(struct sr_simq *q, const struct sr_sub *u, const uint64_t *bio)
{
	size_t body = sizeof(*u) + (size_t)u->r.nbio * sizeof(*bio);
	struct rec_head h = { (uint32_t)((sizeof(h) + body + 7) & ~(size_t)7), 0 };
	struct simw *w = worker_of(q, u->k);
	unsigned char *p;

	if (!w)
		return -2;
	p = room(w, h.len);
	if (!p)
		return -1;
	memcpy(p, &h, sizeof(h));
	memcpy(p + sizeof(h), u, sizeof(*u));
	if (u->r.nbio)
		memcpy(p + sizeof(h) + sizeof(*u), bio, (size_t)u->r.nbio * sizeof(*bio));
	return 0;
}

/* Wait until w has played everything queued; 0, or -1: a simulation there
 * ran out of memory. */
static int worker_sync(struct simw *w)
{
	int failed;

	pthread_mutex_lock(&w->mu);
	hand_over(w, 1);
	while ((w->head || w->busy) && !w->failed)
		pthread_cond_wait(&w->idle, &w->mu);
	/* A failed thread may still be on its batch: wait it out, so that
	 * nothing plays while the caller looks. */
	while (w->busy)
		pthread_cond_wait(&w->idle, &w->mu);
	failed = w->failed;
	pthread_mutex_unlock(&w->mu);
	return failed ? -1 : 0;
}

int sr_simq_copy(struct sr_simq *q, struct sr_replay *r, int k, int g, size_t ntasks)
{
	struct simw *from = worker_of(q, g);
	int best;

	/* g's worker rests (what it played is this thread's to read once its
	 * lock has been taken); k has played nothing yet, anywhere. */
	if (!from)
		return -2;
	if (worker_sync(from) || sr_replay_sim_copy(r, k, g, ntasks))
		return -1;
	best = least_busy(q);
	if (!worker_take(q, best))
		return -2;
	q->of[k] = (int8_t)best;
	return 0;
}

int sr_simq_sync(struct sr_simq *q)
{
	int i, rc = 0;

	for (i = 0; i < q->nw; i++)
		if (q->w[i].started)
			rc |= worker_sync(&q->w[i]);
	return rc;
}

void sr_simq_stop(struct sr_simq *q)
{
	int i;

	if (!q)
		return;
	for (i = 0; i < q->nw; i++)
		if (q->w[i].started)
			worker_stop(&q->w[i]);
		else
			sr_big_free(q->w[i].arena, SIMQ_BATCHES * sizeof(*q->w[i].arena));
	free(q->sims);
	free(q->of);
	free(q);
}
