/* SPDX-License-Identifier: MIT */
/*
 * A sweep's run: the worker threads, the order they take units in, and
 * the caller's thread writing each unit's rows.  To a regular file they
 * are written as soon as their unit is done, whatever its number, so that
 * a kill loses only the units being replayed (a large unit finished early
 * no longer waits in memory for smaller-numbered ones), and the file is
 * put in unit order when the run ends (resume.c): -j 1 and -j 8 then leave
 * the same bytes.  To anything else (standard output, a pipe) they are
 * written in unit order, since such an output cannot be resumed anyway.
 */
#define _GNU_SOURCE /* qsort_r */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "common/diag.h"
#include "sweep/sweep_impl.h"

/*
 * The order the workers take the units in.  A unit's cost is taken to be
 * its trace's size on disk times the seconds per byte its machine has
 * shown so far (the units of one machine form a cost class; a plan's are
 * one class): some machines cost more per event than others (2s-nvme2
 * with every policy about 1.5 times 2s-pmem2, where the policies part).
 * Each worker takes the unit of highest cost left, so that the last to
 * start are small ones and the workers finish close together, rather than
 * one running a long unit alone at the end while the others idle.  Before
 * a class has a figure it counts at the mean of the others (or 1).  Each
 * class keeps its units largest first, so a pick looks at one unit per
 * class.
 */
struct sr_cost_class {
	size_t *unit;               /* its units, largest trace first */
	size_t n, pos;              /* how many; the next to hand out */
	double secs, bytes;         /* of its units done so far */
};

static int by_size_desc(const void *a, const void *b, void *arg)
{
	const off_t *size = arg;
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	if (size[x] != size[y])
		return size[x] > size[y] ? -1 : 1;
	return x < y ? -1 : x > y;
}

static size_t unit_class(const struct sr_sweep *s, size_t u)
{
	return s->from_plan ? 0 : sr_unit_machine(s, u);
}

static int order_units(struct sr_sweep *s)
{
	size_t u, c;

	s->ncls = s->from_plan ? 1 : (s->machines.n ? s->machines.n : 1);
	s->cls = calloc(s->ncls, sizeof(*s->cls));
	s->usize = calloc(s->nunits ? s->nunits : 1, sizeof(*s->usize));
	if (!s->cls || !s->usize)
		return -1;
	for (u = 0; u < s->nunits; u++) {
		struct stat st;

		if (s->skip[u])
			continue;
		if (stat(s->traces.v[sr_unit_trace(s, u)], &st) == 0)
			s->usize[u] = st.st_size;
		s->cls[unit_class(s, u)].n++;
		s->left++;
	}
	for (c = 0; c < s->ncls; c++) {
		s->cls[c].unit = malloc((s->cls[c].n ? s->cls[c].n : 1) * sizeof(size_t));
		if (!s->cls[c].unit)
			return -1;
		s->cls[c].n = 0;
	}
	for (u = 0; u < s->nunits; u++)
		if (!s->skip[u]) {
			struct sr_cost_class *k = &s->cls[unit_class(s, u)];

			k->unit[k->n++] = u;
		}
	for (c = 0; c < s->ncls; c++)
		qsort_r(s->cls[c].unit, s->cls[c].n, sizeof(size_t), by_size_desc, s->usize);
	return 0;
}

void sr_sweep_free_schedule(struct sr_sweep *s)
{
	size_t k;

	for (k = 0; s->cls && k < s->ncls; k++)
		free(s->cls[k].unit);
	free(s->cls);
	free(s->usize);
	s->cls = NULL;
	s->usize = NULL;
}

/* The unit of highest cost left, taken out; with s->mu held.  Ties go to
 * the lower class, so with no figures yet the order is by size. */
static size_t take_unit(struct sr_sweep *s)
{
	double known = 0, mean;
	size_t c, nk = 0, best = SIZE_MAX;
	double best_cost = -1;

	for (c = 0; c < s->ncls; c++)
		if (s->cls[c].bytes > 0) {
			known += s->cls[c].secs / s->cls[c].bytes;
			nk++;
		}
	mean = nk ? known / (double)nk : 1;
	for (c = 0; c < s->ncls; c++) {
		const struct sr_cost_class *k = &s->cls[c];
		double rate, cost;

		if (k->pos == k->n)
			continue;
		rate = k->bytes > 0 ? k->secs / k->bytes : mean;
		cost = (double)s->usize[k->unit[k->pos]] * rate;
		if (cost > best_cost) {
			best_cost = cost;
			best = c;
		}
	}
	s->left--;
	return s->cls[best].unit[s->cls[best].pos++];
}

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void *worker(void *arg)
{
	struct sr_sweep *s = arg;

	for (;;) {
		size_t u, nrows;
		struct sr_row *rows;
		int failed, ahead;
		uint64_t nev;
		double t;

		pthread_mutex_lock(&s->mu);
		if (!s->left || s->stop) {
			pthread_mutex_unlock(&s->mu);
			return NULL;
		}
		u = take_unit(s);
		/*
		 * The last units, when fewer are left than workers: the workers
		 * that find nothing to do leave CPUs idle, so the unit decodes,
		 * checks and orders its events on a thread of its own, ahead of
		 * its replay (as replay does).
		 * -j 1 never does: one unit at a time on one thread.
		 */
		ahead = s->jobs > 1 && s->left + 1 < s->jobs;
		pthread_mutex_unlock(&s->mu);
		t = now();
		sr_unit_run(s, u, ahead, &rows, &nrows, &failed, &nev);
		t = now() - t;
		pthread_mutex_lock(&s->mu);
		if (!failed && s->usize[u] > 0) {
			/* A damaged trace stops early: its time says nothing. */
			s->cls[unit_class(s, u)].secs += t;
			s->cls[unit_class(s, u)].bytes += (double)s->usize[u];
		}
		s->out[u] = rows; /* NULL: out of memory, said by the writer */
		s->nout[u] = nrows;
		s->udone[u] = 1;
		s->doneq[s->ndoneq++] = u;
		s->failed[u] = failed;
		s->events[u] = nev;
		pthread_cond_broadcast(&s->done_cv);
		pthread_mutex_unlock(&s->mu);
	}
}

enum sr_err sr_sweep_start(struct sr_sweep *s, struct sr_diag *caller)
{
	struct sr_diag local, *d = caller ? caller : &local;
	size_t u, k, total = 0, jobs;
	enum sr_err err;

	sr_diag_clear(d);
	if (!s->prepared || s->started || s->out)
		return sr_diag_set(d, SR_ERR_INVAL, "the run is not prepared, or started already");
	s->out = calloc(s->nunits, sizeof(*s->out));
	s->nout = calloc(s->nunits, sizeof(*s->nout));
	s->doneq = calloc(s->nunits, sizeof(*s->doneq));
	s->failed = calloc(s->nunits, sizeof(*s->failed));
	s->events = calloc(s->nunits, sizeof(*s->events));
	s->udone = calloc(s->nunits, 1);
	if (!s->out || !s->nout || !s->doneq || !s->failed || !s->events || !s->udone)
		return sr_diag_set(d, SR_ERR_NOMEM, "out of memory");
	err = sr_sweep_open_output(s, d);
	if (err)
		return err;
	for (u = 0; u < s->nunits; u++)
		total += !s->skip[u];
	if (order_units(s))
		return sr_diag_set(d, SR_ERR_NOMEM, "out of memory");

	/* Workers replay; the caller's thread writes the units in order. */
	jobs = s->jobs_asked;
	if (!jobs) {
		long n = sysconf(_SC_NPROCESSORS_ONLN);

		jobs = n > 0 ? (size_t)n : 1;
	}
	s->jobs = jobs; /* the CPUs the sweep may use, even with fewer units */
	if (jobs > total)
		jobs = total ? total : 1;
	s->th = calloc(jobs, sizeof(*s->th));
	if (!s->th)
		return sr_diag_set(d, SR_ERR_NOMEM, "out of memory");
	s->started = 1;
	s->prog.total = total;
	for (k = 0; k < jobs; k++) {
		int e = pthread_create(&s->th[k], NULL, worker, s);

		if (e) {
			/* Fewer workers do: the units are only slower.  None would
			 * leave the writer waiting for ever. */
			if (!s->nth) {
				s->finished = 1;
				return sr_diag_set(d, SR_ERR_NOMEM, "cannot create a worker thread: %s",
						   strerror(e));
			}
			break;
		}
		s->nth = k + 1;
	}
	return SR_OK;
}

/* Write unit u's rows, each with one write(), and keep them: the output's
 * rows are what the summary, the state and the ordered file are made of. */
static enum sr_err write_unit(struct sr_sweep *s, size_t u, struct sr_diag *d)
{
	size_t np = s->policies.n, k;
	enum sr_err err = SR_OK;

	if (!s->out[u]) {
		s->failed[u] = 1;
		s->write_failed = 1;
		return sr_diag_set(d, SR_ERR_NOMEM, "out of memory: the rows of unit %zu are lost", u);
	}
	for (k = 0; k < s->nout[u]; k++) {
		struct sr_row *r = &s->out[u][k];
		size_t pol = r->pol;

		if (!err && sr_write_all(s->out_fd, r->line, strlen(r->line))) {
			int e = errno;

			s->write_failed = 1;
			sr_diag_file(d, s->out_name);
			err = sr_diag_set(d, SR_ERR_IO, "write failed: %s", strerror(e));
		}
		if (err) {
			sr_row_free(r);
			continue;
		}
		if (sr_rows_add(&s->rows, r)) {
			s->write_failed = 1; /* written, but not in the ordered file */
			err = sr_diag_set(d, SR_ERR_NOMEM, "out of memory");
			continue;
		}
		s->win[u * np + pol] = s->rows.n;
		s->settle = 1;
	}
	free(s->out[u]);
	s->out[u] = NULL;
	s->nout[u] = 0;
	return err;
}

enum sr_err sr_sweep_next(struct sr_sweep *s, struct sr_sweep_progress *prog,
			  struct sr_diag *caller)
{
	struct sr_diag local, *d = caller ? caller : &local;
	enum sr_err err = SR_OK;
	size_t u = SIZE_MAX;

	sr_diag_clear(d);
	if (!s->started || s->finished)
		return sr_diag_set(d, SR_ERR_INVAL, "the run is not going");
	if (s->prog.done < s->prog.total) {
		pthread_mutex_lock(&s->mu);
		if (s->out_regular) {
			/* The next unit done, whichever it is. */
			while (s->qhead == s->ndoneq)
				pthread_cond_wait(&s->done_cv, &s->mu);
			u = s->doneq[s->qhead++];
		} else {
			while (s->skip[s->next])
				s->next++;
			u = s->next++;
			while (!s->udone[u])
				pthread_cond_wait(&s->done_cv, &s->mu);
		}
		pthread_mutex_unlock(&s->mu);
		err = write_unit(s, u, d);
		s->prog.failed += (size_t)s->failed[u];
		s->prog.events += s->events[u];
		s->prog.done++;
	}
	if (prog)
		*prog = s->prog;
	return err;
}

void sr_sweep_progress(const struct sr_sweep *s, struct sr_sweep_progress *prog)
{
	*prog = s->prog;
}

enum sr_err sr_sweep_finish(struct sr_sweep *s, struct sr_diag *caller)
{
	struct sr_diag local, *d = caller ? caller : &local;
	enum sr_err err = SR_OK;
	size_t k;

	sr_diag_clear(d);
	if (!s->started || s->finished)
		return SR_OK;
	pthread_mutex_lock(&s->mu);
	s->stop = 1; /* units not begun are dropped, if the caller stopped early */
	pthread_mutex_unlock(&s->mu);
	for (k = 0; k < s->nth; k++)
		pthread_join(s->th[k], NULL);
	s->nth = 0;
	s->finished = 1;
	/* A run that ended (not one stopped early, nor one whose rows did
	 * not all reach the file) puts the file in order. */
	if (s->prog.done == s->prog.total && !s->write_failed)
		err = sr_sweep_settle(s, d);
	if (s->out_path && s->out_fd >= 0) {
		if (close(s->out_fd) && !err) {
			int e = errno;

			sr_diag_file(d, s->out_path);
			err = sr_diag_set(d, SR_ERR_IO, "close failed: %s", strerror(e));
		}
		s->out_fd = -1;
	}
	return err;
}
