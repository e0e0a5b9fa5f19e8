/* SPDX-License-Identifier: MIT */
/* Resource calendars (calendar.h): allocation, sliding, the slow path. */
#include <stdlib.h>
#include <string.h>

#include "hw/calendar.h"

int cal_init(struct cal *c)
{
	if (!c->bucket_ns)
		cal_set_bucket(c, CAL_BUCKET_NS);
	c->used = calloc(CAL_BUCKETS, sizeof(*c->used));
	c->skip = calloc(CAL_BUCKETS, sizeof(*c->skip));
	c->lo = 0;
	c->lo_ns = 0;
	c->work_ns = 0;
	c->stale = 0;
	c->run_lo = c->run_hi = 0;
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
		if (cal_init(dst))
			return -1;
		memcpy(dst->used, src->used, CAL_BUCKETS * sizeof(*dst->used));
		memcpy(dst->skip, src->skip, CAL_BUCKETS * sizeof(*dst->skip));
	}
	dst->lo = src->lo;
	dst->lo_ns = src->lo_ns;
	dst->work_ns = src->work_ns;
	dst->stale = src->stale;
	dst->run_lo = src->run_lo;
	dst->run_hi = src->run_hi;
	dst->bucket_ns = src->bucket_ns;
	dst->inv_bucket = src->inv_bucket;
	return 0;
}

/*
 * Empty the ring's places [i, j) (i <= j <= CAL_BUCKETS).  Plain loops
 * over contiguous places, which the compiler vectorises; it is told not
 * to turn them into memset calls: a slide clears half the window or more
 * (CAL_BUCKETS / 2 buckets), and the loops' wide stores, unrolled, do it
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

/* Slide so that bucket b is inside the window, keeping half of it behind. */
static void cal_slide(struct cal *c, int64_t b)
{
	int64_t nlo = b - CAL_BUCKETS / 2;

	if (nlo - c->lo >= CAL_BUCKETS) {
		memset(c->used, 0, CAL_BUCKETS * sizeof(*c->used));
		memset(c->skip, 0, CAL_BUCKETS * sizeof(*c->skip));
	} else if (nlo > c->lo) {
		/* Buckets lo .. nlo - 1 leave the window: their places in the
		 * ring, in one piece or two where it wraps. */
		size_t i = (size_t)(c->lo & (CAL_BUCKETS - 1)), j = (size_t)(nlo & (CAL_BUCKETS - 1));

		if (i < j) {
			cal_clear(c, i, j);
		} else {
			cal_clear(c, i, CAL_BUCKETS);
			cal_clear(c, 0, j);
		}
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

	while (r < c->lo + CAL_BUCKETS && c->used[r & (CAL_BUCKETS - 1)] >= c->bucket_ns) {
		uint32_t s = c->skip[r & (CAL_BUCKETS - 1)];

		r += s ? s : 1;
	}
	/* Compress: every full bucket on the way now points at r. */
	for (k = b; k < r && k < c->lo + CAL_BUCKETS; ) {
		uint32_t s = c->skip[k & (CAL_BUCKETS - 1)];

		c->skip[k & (CAL_BUCKETS - 1)] = (uint32_t)(r - k);
		k += s ? s : 1;
	}
	return r;
}

/*
 * The rest of a request, left ns from bucket b on, where b is beyond the
 * window: nothing is booked there (a booking beyond the window slides
 * it), so the request fills the buckets from b one after another, full
 * but the last, f = b + ceil(left / bucket) - 1.  The loop of
 * cal_reserve_slow() would do it a bucket at a time, sliding the window
 * each time its top is reached (at b, b + CAL_BUCKETS / 2, b + CAL_BUCKETS,
 * ...): with a very slow device (write_iops 1e-5, a write of 1e5 s) that
 * is 1e10 buckets, minutes for one request.  Here, in time that does not
 * grow with the request: the window slides once, to where that loop's
 * last slide leaves it, and only the buckets inside it are filled.  The
 * figures are the loop's to the bit: left less whole buckets, each of
 * them a whole number of ns below 2^53, is exact either way.  Returns f.
 */
static int64_t cal_fill_beyond(struct cal *c, int64_t b, double left)
{
	const int64_t half = CAL_BUCKETS / 2;
	int64_t nb = (int64_t)(left * c->inv_bucket), f, last, k;

	/* nb full buckets, then the last with (0, bucket_ns] of work. */
	while (nb > 0 && (double)nb * c->bucket_ns >= left)
		nb--;
	while ((double)(nb + 1) * c->bucket_ns < left)
		nb++;
	f = b + nb;
	last = b + (f - b) / half * half;
	cal_slide(c, last);
	for (k = b > c->lo ? b : c->lo; k < f; k++)
		c->used[k & (CAL_BUCKETS - 1)] = c->bucket_ns;
	c->used[f & (CAL_BUCKETS - 1)] = left - (double)nb * c->bucket_ns;
	return f;
}

__attribute__((noinline)) double cal_reserve_slow(struct cal *c, int64_t b, double s, double w)
{
	double left = w, done;
	int64_t b0 = b;

	if (b >= c->run_lo && b < c->run_hi)
		b = c->run_hi;
	for (;;) {
		double *u, room;

		if (b >= c->lo + CAL_BUCKETS) {
			if (left > (double)(CAL_BUCKETS / 2) * c->bucket_ns) {
				b = cal_fill_beyond(c, b, left);
				break;
			}
			cal_slide(c, b);
		}
		b = cal_first_free(c, b);
		if (b >= c->lo + CAL_BUCKETS)
			continue; /* slides at the top of the loop */
		u = &c->used[b & (CAL_BUCKETS - 1)];
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
	if (b0 >= c->lo) {
		int64_t hi = c->used[b & (CAL_BUCKETS - 1)] >= c->bucket_ns ? b + 1 : b;

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
	done = (double)b * c->bucket_ns + c->used[b & (CAL_BUCKETS - 1)];
	return done > s + w ? done : s + w;
}
