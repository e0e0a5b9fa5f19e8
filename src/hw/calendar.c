/* SPDX-License-Identifier: MIT */
/* Resource calendars (calendar.h): allocation, sliding, the slow path. */
#include <stdlib.h>
#include <string.h>

#include "hw/calendar.h"

int cal_init(struct cal *c)
{
	if (!c->bucket_ns)
		cal_set_bucket(c, CAL_BUCKET_NS);
	if (!c->nb)
		c->nb = CAL_BUCKETS;
	c->used = calloc((size_t)c->nb, sizeof(*c->used));
	c->skip = calloc((size_t)c->nb, sizeof(*c->skip));
	c->lo = 0;
	c->lo_ns = 0;
	c->work_ns = 0;
	c->stale = 0;
	c->run_lo = c->run_hi = 0;
	c->over_ns = 0;
	if (!c->used || !c->skip) {
		free(c->used);
		free(c->skip);
		c->used = NULL;
		c->skip = NULL;
		return -1;
	}
	return 0;
}

void cal_free(struct cal *c)
{
	free(c->used);
	free(c->skip);
	free(c->far);
}

struct cal *cal_need(struct cal *c)
{
	if (!c->used && cal_init(c))
		return NULL;
	return c;
}

int cal_copy(struct cal *dst, const struct cal *src)
{
	if (src->used) {
		cal_set_bucket(dst, src->bucket_ns);
		dst->nb = src->nb;
		if (cal_init(dst))
			return -1;
		memcpy(dst->used, src->used, (size_t)src->nb * sizeof(*dst->used));
		memcpy(dst->skip, src->skip, (size_t)src->nb * sizeof(*dst->skip));
	}
	dst->lo = src->lo;
	dst->lo_ns = src->lo_ns;
	dst->work_ns = src->work_ns;
	dst->stale = src->stale;
	dst->run_lo = src->run_lo;
	dst->run_hi = src->run_hi;
	dst->over_ns = src->over_ns;
	/* (dst->now stays: its owner's time, not src's.) */
	if (src->nfar) {
		struct cal_far *f = realloc(dst->far, src->nfar * sizeof(*f));

		if (!f)
			return -1;
		dst->far = f;
		dst->far_cap = src->nfar;
		memcpy(f, src->far, src->nfar * sizeof(*f));
	}
	dst->nfar = src->nfar;
	dst->bucket_ns = src->bucket_ns;
	dst->inv_bucket = src->inv_bucket;
	dst->nb = src->nb;
	return 0;
}

/*
 * Empty the ring's places [i, j) (i <= j <= c->nb).  Plain loops
 * over contiguous places, which the compiler vectorises; it is told not
 * to turn them into memset calls: a slide clears half the window or more
 * (c->nb / 2 buckets), and the loops' wide stores, unrolled, do it
 * in fewer instructions than memset's rep stos (which cachegrind counts
 * per byte).  The attribute is gcc's (clang has none: it builds the
 * loops as it sees fit; make clang-test builds with it).
 */
#if defined(__GNUC__) && !defined(__clang__)
__attribute__((optimize("no-tree-loop-distribute-patterns")))
#endif
static void cal_clear(struct cal *c, size_t i, size_t j)
{
	double *u = c->used;
	uint32_t *sk = c->skip;
	size_t k;

#pragma GCC unroll 8
	for (k = i; k < j; k++)
		u[k] = 0;
#pragma GCC unroll 8
	for (k = i; k < j; k++)
		sk[k] = 0;
}

/*
 * Slide so that bucket b is inside the window, keeping half of it behind.
 * The buckets that come in at the top take the work held beyond it
 * (over_ns, packed from the old top on, full buckets but the last).
 */
static void cal_slide(struct cal *c, int64_t b)
{
	int64_t nlo = b - c->nb / 2, top = c->lo + c->nb, d = nlo - c->lo, j, nf;

	if (d >= c->nb) {
		memset(c->used, 0, (size_t)c->nb * sizeof(*c->used));
		memset(c->skip, 0, (size_t)c->nb * sizeof(*c->skip));
	} else if (d > 0) {
		/* Buckets lo .. nlo - 1 leave the window: their places in the
		 * ring, in one piece or two where it wraps. */
		size_t i = (size_t)(c->lo & (c->nb - 1)), k = (size_t)(nlo & (c->nb - 1));

		if (i < k) {
			cal_clear(c, i, k);
		} else {
			cal_clear(c, i, (size_t)c->nb);
			cal_clear(c, 0, k);
		}
	}
	if (d > 0 && c->over_ns > 0) {
		/* Buckets top + j, j < nf, hold the work beyond; those that
		 * come into the window [nlo, nlo + c->nb) take theirs
		 * (each a whole number of ns: exact). */
		nf = (int64_t)(c->over_ns * c->inv_bucket);
		while ((double)nf * c->bucket_ns < c->over_ns)
			nf++;
		if (nf > d)
			nf = d;
		for (j = nlo > top ? nlo - top : 0; j < nf; j++) {
			double w = c->over_ns - (double)j * c->bucket_ns;

			c->used[(top + j) & (c->nb - 1)] = w < c->bucket_ns ? w : c->bucket_ns;
		}
		c->over_ns -= (double)d * c->bucket_ns;
		if (c->over_ns < 0)
			c->over_ns = 0;
	}
	c->lo = nlo;
	c->lo_ns = (double)nlo * c->bucket_ns;
	if (c->run_hi <= nlo)
		c->run_lo = c->run_hi = 0;
	else if (c->run_lo < nlo)
		c->run_lo = nlo;
}

/*
 * The first bucket from b on with room.  Full buckets remember how far
 * ahead the next bucket with room was (path compression, as in a
 * union-find), so that a burst of requests at one time does not scan the
 * same full buckets again and again.
 */
static int64_t cal_first_free(struct cal *c, int64_t b)
{
	int64_t r = b, k;

	while (r < c->lo + c->nb && c->used[r & (c->nb - 1)] >= c->bucket_ns) {
		uint32_t s = c->skip[r & (c->nb - 1)];

		r += s ? s : 1;
	}
	/* Compress: every full bucket on the way now points at r. */
	for (k = b; k < r && k < c->lo + c->nb; ) {
		uint32_t s = c->skip[k & (c->nb - 1)];

		c->skip[k & (c->nb - 1)] = (uint32_t)(r - k);
		k += s ? s : 1;
	}
	return r;
}

/* Buckets [b0, hi) are full: the run remembered grows by them, or they
 * are the run. */
static void cal_run(struct cal *c, int64_t b0, int64_t hi)
{
	if (c->run_hi > c->run_lo && b0 <= c->run_hi && c->run_lo <= hi) {
		if (b0 < c->run_lo)
			c->run_lo = b0;
		if (hi > c->run_hi)
			c->run_hi = hi;
	} else {
		c->run_lo = b0;
		c->run_hi = hi;
	}
}

/* A request far after the simulation's time (c->now): it waits in the
 * far list, after the far requests that hold the resource at s; when it
 * is done, or -1 when the list is full (the caller slides instead). */
static double cal_far_add(struct cal *c, double s, double w)
{
	double t = s;
	uint32_t i, at;

	if (c->nfar >= CAL_FAR_MAX)
		return -1;
	if (c->nfar == c->far_cap) {
		uint32_t cap = c->far_cap ? 2 * c->far_cap : 16;
		struct cal_far *f = realloc(c->far, cap * sizeof(*f));

		if (!f)
			return -1;
		c->far = f;
		c->far_cap = cap;
	}
	/* By start: each one that holds the resource at t moves t to its
	 * end. */
	for (i = 0; i < c->nfar; i++)
		if (c->far[i].s <= t && t < c->far[i].end)
			t = c->far[i].end;
	for (at = c->nfar; at > 0 && c->far[at - 1].s > s; at--)
		;
	memmove(c->far + at + 1, c->far + at, (c->nfar - at) * sizeof(*c->far));
	c->far[at] = (struct cal_far){ s, w, t + w };
	c->nfar++;
	c->far_n++;
	return t + w;
}

/* The far requests the window has reached (their start below its top)
 * take their work in the buckets, earliest first. */
static void cal_far_in(struct cal *c)
{
	double top = (double)(c->lo + c->nb) * c->bucket_ns;
	uint32_t n = 0, i;

	while (n < c->nfar && c->far[n].s < top)
		n++;
	if (!n)
		return;
	for (i = 0; i < n; i++) {
		const struct cal_far *f = &c->far[i];

		/* Counted once, when it was asked for. */
		c->work_ns -= f->w;
		cal_reserve(c, f->s < c->lo_ns ? c->lo_ns : f->s, f->w);
	}
	c->nfar -= n;
	memmove(c->far, c->far + n, c->nfar * sizeof(*c->far));
}

__attribute__((noinline)) double cal_reserve_slow(struct cal *c, int64_t b, double s, double w)
{
	double left = w, done;
	int64_t b0 = b;

	/* A request that starts beyond the window moves it there (the
	 * window follows the requests' starts, never their ends). */
	if (b >= c->lo + c->nb) {
		if (c->now && s > *c->now + (double)(c->nb / 2) * c->bucket_ns &&
		    (done = cal_far_add(c, s, w)) >= 0)
			return done;
		cal_slide(c, b);
		if (c->nfar)
			cal_far_in(c);
	}
	if (b >= c->run_lo && b < c->run_hi)
		b = c->run_hi;
	for (;;) {
		double *u, room;

		b = cal_first_free(c, b);
		if (b >= c->lo + c->nb) {
			/* Full to the top: the rest queues behind the work held
			 * beyond it, packed (a backlog longer than the window
			 * costs one step, and leaves the window where the
			 * requests start). */
			int64_t top = c->lo + c->nb;

			c->over_ns += left;
			if (b0 >= c->lo)
				cal_run(c, b0, top);
			done = (double)top * c->bucket_ns + c->over_ns;
			return done > s + w ? done : s + w;
		}
		u = &c->used[b & (c->nb - 1)];
		room = c->bucket_ns - *u;
		if (room >= left) {
			*u += left;
			break;
		}
		left -= room;
		*u = c->bucket_ns;
		b++;
	}
	/* Every bucket from b0 to b is full now but maybe b itself (b0 is
	 * inside the window: cal_reserve() moved an older start to it).  A
	 * run of full buckets that meets the one remembered makes one run
	 * with it (buckets are never emptied but by a slide): requests that
	 * start anywhere in a backlog, as many tasks' do, then all find its
	 * end at once, instead of only those after the latest start. */
	if (b0 >= c->lo)
		cal_run(c, b0, c->used[b & (c->nb - 1)] >= c->bucket_ns ? b + 1 : b);
	done = (double)b * c->bucket_ns + c->used[b & (c->nb - 1)];
	return done > s + w ? done : s + w;
}

double cal_end(const struct cal *c)
{
	double end = 0;
	int64_t b;
	uint32_t i;

	if (!c->used)
		return 0;
	if (c->over_ns > 0)
		end = (double)(c->lo + c->nb) * c->bucket_ns + c->over_ns;
	else
		for (b = c->lo + c->nb - 1; b >= c->lo; b--)
			if (c->used[b & (c->nb - 1)] > 0) {
				end = (double)b * c->bucket_ns + c->used[b & (c->nb - 1)];
				break;
			}
	for (i = 0; i < c->nfar; i++)
		if (c->far[i].end > end)
			end = c->far[i].end;
	return end;
}
