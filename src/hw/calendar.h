/* SPDX-License-Identifier: MIT */
/*
 * Resource calendars: what the hardware can do in time.
 *
 * A resource (a device's throughput, PMem media bandwidth, one direction of
 * a link) is a calendar of time buckets, each able to hold CAL_BUCKET_NS of
 * work.  A request starting at s takes the free capacity of the buckets
 * from s on (earlier requests may have filled them) and finishes where its
 * work is covered.  Requests come in simulated time (src/replay/order.c),
 * but need not: a later-handled request at an earlier time fills what is
 * still free then.  The window follows the requests' starts, keeping half
 * of it behind the latest that slid it; work past its top is held beyond
 * it, packed (over_ns), and comes into the buckets as the window slides.
 * What the calendar held before its window is forgotten, so a request
 * that starts there (played that late) is served at once, without
 * contention, and counted (stale).  A CPU's or a lock's calendar, told
 * the simulation's time, holds a request far after it apart (far), so
 * that its window stays where the tasks are.
 * docs/MODEL.md, "Resources", gives the rule as an equation.
 *
 * A calendar belongs to one simulation (one policy's, or one shared by
 * policies that chose alike: src/replay/shared.c); nothing locks it.
 */
#ifndef SR_HW_CALENDAR_H
#define SR_HW_CALENDAR_H

#include <stdint.h>

#include "common/compiler.h"

#define CAL_BUCKET_NS 10000.0 /* 10 us: finer than one NVMe request */
#define CAL_BUCKETS 16384     /* 164 ms of window (unless cal_set_size() says
			       * otherwise) */
/* An hdd's calendar: 1 ms buckets, a window of 16.4 s, longer than the
 * backlog of a disk that many writers keep busy (its requests take
 * milliseconds: 32 writers' 128 KiB requests are 0.3 s of it). */
#define CAL_HDD_BUCKET_NS 1000000.0
#define CAL_FAR_MAX 4096

struct cal {
	double *used;    /* work held by each bucket, ns; NULL until first use */
	uint32_t *skip;  /* full bucket: how far on a bucket with room was */
	int64_t lo;      /* bucket number of the window's oldest bucket */
	double lo_ns;    /* lo x bucket_ns: when the window begins */
	double work_ns;  /* all work ever reserved */
	uint64_t stale;  /* requests that started before the window */
	/* Buckets [run_lo, run_hi) are full: the backlog the slow-path
	 * requests went through (a run that meets it joins it).  A request
	 * that starts inside it begins at run_hi at once, so that a saturated
	 * resource costs the same whatever its backlog (tests/bench/calbench.c
	 * measures it). */
	int64_t run_lo, run_hi;
	/* Work held beyond the window's top (from bucket lo + nb on,
	 * packed): a backlog longer than the window.  The buckets that
	 * come into the window as it slides take it. */
	double over_ns;
	/* A resource held for a moment (a CPU, a lock) that is told the
	 * simulation's time (now: its latest event's start; NULL: not told)
	 * keeps its window there: a request that starts more than half a
	 * window after it (a task held by a full queue goes on seconds
	 * later) waits in far, by start, and its work enters the buckets
	 * when the window reaches it; far requests contend among
	 * themselves meanwhile.  At most CAL_FAR_MAX of them (beyond: the
	 * window slides to the request, as it does without now). */
	const double *now;
	struct cal_far {
		double s, w, end;
	} *far;
	uint32_t nfar, far_cap;
	uint64_t far_n;  /* requests that waited in far */
	/* The bucket's width (CAL_BUCKET_NS unless cal_set_bucket() said
	 * otherwise before the first use) and its inverse. */
	double bucket_ns, inv_bucket;
	/* The window's buckets, a power of two (CAL_BUCKETS unless
	 * cal_set_size() said otherwise before the first use). */
	int64_t nb;
};

/* Buckets of ns for c, before its first use. */
static inline void cal_set_bucket(struct cal *c, double ns)
{
	c->bucket_ns = ns;
	c->inv_bucket = 1.0 / ns;
	c->lo_ns = (double)c->lo * ns;
}

/* A window of nb buckets (a power of two) for c, before its first use: a
 * lock whose backlog is short needs less than CAL_BUCKETS (hw/trunks.h,
 * the swap cache's trunk locks). */
static inline void cal_set_size(struct cal *c, int64_t nb)
{
	c->nb = nb;
}

/* Allocate the buckets: 0, or -1 out of memory (c left empty). */
int cal_init(struct cal *c);
/* Free the buckets (of a calendar never initialised, too: a zeroed one). */
void cal_free(struct cal *c);
/* The buckets of c allocated if they are not yet; NULL out of memory. */
struct cal *cal_need(struct cal *c);
/* dst (never used) becomes a copy of src; 0, or -1 out of memory. */
int cal_copy(struct cal *dst, const struct cal *src);
/* When the last work c holds is done (0: none): a device's calendar at
 * the end of a replay, when the device has done what it was given. */
double cal_end(const struct cal *c);
/* cal_reserve()'s general case: the request's first bucket is full, or
 * beyond the window. */
double cal_reserve_slow(struct cal *c, int64_t b, double s, double w);

/*
 * Reserve w ns of work from time s on; returns when it is done.  Within a
 * bucket, work is a quantity, not a position: a request takes what capacity
 * the bucket has left whatever the order the requests were handled in, and
 * is done when the bucket's work packed from its start covers it, but never
 * before s + w.  The common case, a bucket with room for all of it, is
 * inline: an event's device and link reservations are independent, and
 * the processor can then overlap them.  c must have its buckets.
 */
static inline double cal_reserve(struct cal *c, double s, double w)
{
	double done;
	int64_t b;

	c->work_ns += w;
	if (SR_UNLIKELY(s < c->lo_ns)) {
		c->stale++;
		return s + w;
	}
	b = (int64_t)(s * c->inv_bucket);
	if (SR_LIKELY(b < c->lo + c->nb)) {
		double *u = &c->used[b & (c->nb - 1)];

		if (SR_LIKELY(*u + w <= c->bucket_ns)) {
			*u += w;
			done = (double)b * c->bucket_ns + *u;
			return done > s + w ? done : s + w;
		}
	}
	return cal_reserve_slow(c, b, s, w);
}

#endif /* SR_HW_CALENDAR_H */
