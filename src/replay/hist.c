/* SPDX-License-Identifier: MIT */
/*
 * Latency histograms: log-linear, SR_HIST_SUB steps per power of two of
 * nanoseconds (3 % wide), exact below 32 ns.
 */
#include <math.h>
#include <string.h>

#include "replay/hist.h"

/* Lower bound and width of bucket idx, ns. */
static void hist_bucket(int idx, double *lo, double *width)
{
	int e;

	if (idx < SR_HIST_SUB) {
		*lo = idx;
		*width = 1;
		return;
	}
	e = idx / SR_HIST_SUB + 4;
	*width = ldexp(1.0, e - 5);
	*lo = ldexp(1.0, e) + (idx % SR_HIST_SUB) * *width;
}

void sr_hist_bucket_bounds(int idx, double *lo_ns, double *hi_ns)
{
	double w;

	hist_bucket(idx, lo_ns, &w);
	*hi_ns = *lo_ns + w;
}

double sr_hist_quantile(const struct sr_hist *h, double q)
{
	uint64_t rank, seen = 0;
	int i;

	if (!h->count)
		return 0;
	rank = (uint64_t)ceil(q * (double)h->count);
	if (rank < 1)
		rank = 1;
	for (i = 0; i < SR_HIST_EXP * SR_HIST_SUB; i++) {
		seen += h->b[i];
		if (seen >= rank) {
			double lo, w, mid;

			hist_bucket(i, &lo, &w);
			mid = lo + w / 2;
			if (mid < h->min_ns)
				return h->min_ns;
			return mid > h->max_ns ? h->max_ns : mid;
		}
	}
	return h->max_ns;
}

int sr_hist_log2_us(const struct sr_hist *h, uint64_t *out, int max)
{
	int i, k, used = 0;

	memset(out, 0, (size_t)max * sizeof(*out));
	for (i = 0; i < SR_HIST_EXP * SR_HIST_SUB; i++) {
		double lo, w, us;

		if (!h->b[i])
			continue;
		hist_bucket(i, &lo, &w);
		us = lo / 1000.0;
		k = us < 1 ? 0 : (int)floor(log2(us));
		if (k >= max)
			k = max - 1;
		out[k] += h->b[i];
		if (k + 1 > used)
			used = k + 1;
	}
	return used;
}
