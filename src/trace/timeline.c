/* SPDX-License-Identifier: MIT */
/*
 * Swap-out and swap-in pages per time bucket from a trace's first swap
 * event (`swapreplay stat --timeline`, and its plot): the phases of a run.
 * Task ops (fork, exit, wait) are skipped.
 * Buckets double in width rather than grow past SR_TIMELINE_MAX_BUCKETS.
 *
 * An adaptive timeline (sr_timeline_new_auto()) does not know the trace's
 * span before its end: it counts in fine buckets of 10^k ns (from 1 ns,
 * ten times wider rather than past SR_TIMELINE_MAX_BUCKETS), and shows
 * them grouped by 1, 2, 5, 10, 20, ...: buckets of 1, 2 or 5 x 10^j ns,
 * whose edges are edges of the fine ones.
 */
#include <stdlib.h>
#include <string.h>

#include "swapreplay/stat.h"

struct sr_timeline {
	uint64_t width_ns;     /* of the buckets counted (the fine ones, adaptive) */
	uint64_t base_ns;      /* start of bucket 0: the first event's time, floored to a width */
	int have_base;
	uint64_t (*b)[2];      /* pages by bucket and op */
	size_t n, cap;
	unsigned widened;      /* times the width doubled (or grew tenfold, adaptive) */
	/* Adaptive: the widest bucket shown and the fewest buckets wanted
	 * (sr_timeline_new_auto()); max_ns 0 for a fixed width. */
	uint64_t max_ns;
	unsigned min_buckets;
	uint64_t first_ts;     /* the first event's time */
};

/* What is shown: buckets of `group` counted ones, the first beginning
 * `off` counted ones before bucket 0 of the counts. */
struct view {
	uint64_t width_ns, base_ns, group, off;
	size_t n;
};

struct sr_timeline *sr_timeline_new(uint64_t width_ns)
{
	struct sr_timeline *t;

	if (!width_ns)
		return NULL;
	t = calloc(1, sizeof(*t));
	if (t)
		t->width_ns = width_ns;
	return t;
}

struct sr_timeline *sr_timeline_new_auto(uint64_t max_width_ns, unsigned min_buckets)
{
	struct sr_timeline *t;

	if (!max_width_ns || !min_buckets)
		return NULL;
	t = sr_timeline_new(1);
	if (t) {
		t->max_ns = max_width_ns;
		t->min_buckets = min_buckets;
	}
	return t;
}

void sr_timeline_free(struct sr_timeline *t)
{
	if (!t)
		return;
	free(t->b);
	free(t);
}

/*
 * Wider buckets: a fixed timeline's twice as wide, bucket i into i / 2,
 * its base kept (a multiple of the old width); an adaptive one's ten times,
 * its base floored to the new width, so that its buckets stay those of
 * 10^k ns from 0: bucket i into the one holding its start (i or before).
 */
static void widen(struct sr_timeline *t)
{
	uint64_t by = t->max_ns ? 10 : 2, nw = t->width_ns * by;
	uint64_t nb = t->max_ns ? t->base_ns - t->base_ns % nw : t->base_ns;
	size_t i, last = 0;

	for (i = 0; i < t->n; i++) {
		uint64_t o = t->b[i][0], in = t->b[i][1];
		size_t k = (size_t)((t->base_ns + i * t->width_ns - nb) / nw);

		t->b[i][0] = t->b[i][1] = 0;
		t->b[k][0] += o;
		t->b[k][1] += in;
		last = k;
	}
	if (t->n)
		t->n = last + 1;
	t->base_ns = nb;
	t->width_ns = nw;
	t->widened++;
}

enum sr_err sr_timeline_add(struct sr_timeline *t, const struct sr_event *e, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		uint64_t ts = e[i].ts_ns, k;

		if (e[i].op > SR_OP_IN)
			continue; /* a task op moves no page */
		if (!t->have_base) {
			t->base_ns = ts - ts % t->width_ns;
			t->first_ts = ts;
			t->have_base = 1;
		}
		k = ts > t->base_ns ? (ts - t->base_ns) / t->width_ns : 0;
		while (k >= SR_TIMELINE_MAX_BUCKETS) {
			widen(t);
			k = ts > t->base_ns ? (ts - t->base_ns) / t->width_ns : 0;
		}
		if (k >= t->cap) {
			size_t c = t->cap ? t->cap : 64;
			void *nb;

			while (c <= k)
				c *= 2;
			nb = realloc(t->b, c * sizeof(*t->b));
			if (!nb)
				return SR_ERR_NOMEM;
			t->b = nb;
			memset(t->b + t->cap, 0, (c - t->cap) * sizeof(*t->b));
			t->cap = c;
		}
		if (k >= t->n)
			t->n = k + 1;
		t->b[k][e[i].op == SR_OP_IN] += e[i].nr_pages;
	}
	return SR_OK;
}

/* The view of t grouped by g counted buckets. */
static void group_by(const struct sr_timeline *t, uint64_t g, struct view *v)
{
	v->group = g;
	v->width_ns = t->width_ns * g;
	/* At or before t's base: the width is a multiple of t's, a power of
	 * ten that divides the base. */
	v->base_ns = t->first_ts - t->first_ts % v->width_ns;
	v->off = (t->base_ns - v->base_ns) / t->width_ns;
	v->n = t->n ? (size_t)((v->off + t->n - 1) / g + 1) : 0;
}

/*
 * What t shows.  Fixed: its buckets.  Adaptive: the widest of 1, 2 and 5
 * x 10^j ns, no wider than max_ns (unless the counted ones already are),
 * that makes at least min_buckets buckets from the first event's to the
 * last's; if none does, the finest, but for a trace of a single instant
 * (one counted bucket: no span to divide), which gets the widest.
 */
static void view_of(const struct sr_timeline *t, struct view *v)
{
	static const uint64_t steps[3] = { 1, 2, 5 };
	uint64_t g, pow = 1, best = 1;
	int s = 0;

	if (!t->max_ns) {
		*v = (struct view){ t->width_ns, t->base_ns, 1, 0, t->n };
		return;
	}
	if (!t->n) {
		group_by(t, 1, v);
		return;
	}
	for (;;) {
		g = steps[s] * pow;
		if (g > 1 && (t->width_ns > t->max_ns / g || t->width_ns * g > t->max_ns))
			break;
		group_by(t, g, v);
		if (t->n == 1 || v->n >= t->min_buckets)
			best = g;
		if (++s == 3) {
			s = 0;
			if (pow > UINT64_MAX / 10)
				break;
			pow *= 10;
		}
	}
	group_by(t, best, v);
}

void sr_timeline_get(const struct sr_timeline *t, struct sr_timeline_info *out)
{
	struct view v;

	view_of(t, &v);
	out->width_ns = v.width_ns;
	out->base_ns = v.base_ns;
	out->buckets = v.n;
	out->widened = t->max_ns ? (v.width_ns > t->max_ns ? t->widened : 0) : t->widened;
}

uint64_t sr_timeline_pages(const struct sr_timeline *t, size_t i, int op)
{
	struct view v;
	uint64_t k, sum = 0;

	if (op != SR_OP_OUT && op != SR_OP_IN)
		return 0;
	view_of(t, &v);
	if (i >= v.n)
		return 0;
	for (k = (uint64_t)i * v.group; k < ((uint64_t)i + 1) * v.group; k++)
		if (k >= v.off && k - v.off < t->n)
			sum += t->b[k - v.off][op == SR_OP_IN];
	return sum;
}

double sr_timeline_kib_s(const struct sr_timeline *t, size_t i, int op)
{
	struct sr_timeline_info ti;

	sr_timeline_get(t, &ti);
	return (double)sr_timeline_pages(t, i, op) * (SR_PAGE_SIZE / 1024) /
	       ((double)ti.width_ns / 1e9);
}
