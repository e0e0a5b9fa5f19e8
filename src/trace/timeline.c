/* SPDX-License-Identifier: MIT */
/*
 * Swap-out and swap-in pages per time bucket from a trace's first event
 * (`swapreplay stat --timeline`, and its plot): the phases of a run.
 * Buckets double in width rather than grow past SR_TIMELINE_MAX_BUCKETS.
 */
#include <stdlib.h>
#include <string.h>

#include "swapreplay/stat.h"

struct sr_timeline {
	uint64_t width_ns;
	uint64_t base_ns;      /* start of bucket 0: the first event's time, floored to a width */
	int have_base;
	uint64_t (*b)[2];      /* pages by bucket and op */
	size_t n, cap;
	unsigned widened;      /* times the width doubled */
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

void sr_timeline_free(struct sr_timeline *t)
{
	if (!t)
		return;
	free(t->b);
	free(t);
}

/* Twice the width: bucket i goes into i / 2. */
static void widen(struct sr_timeline *t)
{
	size_t i;

	for (i = 0; i < t->n; i++) {
		uint64_t o = t->b[i][0], in = t->b[i][1];

		t->b[i][0] = t->b[i][1] = 0;
		t->b[i / 2][0] += o;
		t->b[i / 2][1] += in;
	}
	t->n = (t->n + 1) / 2;
	/* The base stays a multiple of the old width; keep it. */
	t->width_ns *= 2;
	t->widened++;
}

enum sr_err sr_timeline_add(struct sr_timeline *t, const struct sr_event *e, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		uint64_t ts = e[i].ts_ns, k;

		if (!t->have_base) {
			t->base_ns = ts - ts % t->width_ns;
			t->have_base = 1;
		}
		k = ts > t->base_ns ? (ts - t->base_ns) / t->width_ns : 0;
		while (k >= SR_TIMELINE_MAX_BUCKETS) {
			widen(t);
			k = (ts - t->base_ns) / t->width_ns;
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

void sr_timeline_get(const struct sr_timeline *t, struct sr_timeline_info *out)
{
	out->width_ns = t->width_ns;
	out->base_ns = t->base_ns;
	out->buckets = t->n;
	out->widened = t->widened;
}

uint64_t sr_timeline_pages(const struct sr_timeline *t, size_t i, int op)
{
	return i < t->n && (op == SR_OP_OUT || op == SR_OP_IN) ? t->b[i][op == SR_OP_IN] : 0;
}

double sr_timeline_kib_s(const struct sr_timeline *t, size_t i, int op)
{
	return (double)sr_timeline_pages(t, i, op) * (SR_PAGE_SIZE / 1024) /
	       ((double)t->width_ns / 1e9);
}
