/* SPDX-License-Identifier: MIT */
/* Latency histograms (struct sr_hist in swapreplay/replay.h): adding. */
#ifndef SR_REPLAY_HIST_H
#define SR_REPLAY_HIST_H

#include "swapreplay/replay.h"

/* Count one value of ns nanoseconds (inline: once per swap-in). */
static inline void sr_hist_add(struct sr_hist *h, double ns)
{
	/* (A recorded latency may be near 2^64 ns: converting 2^64 and
	 * above is undefined.) */
	uint64_t v = ns < 1 ? 1 : ns >= 0x1p64 ? UINT64_MAX : (uint64_t)ns;
	int e = 63 - __builtin_clzll(v), idx;
	uint64_t sub;

	/* Below 2^5 ns every value is exact enough in the first buckets. */
	if (e < 5) {
		idx = (int)v;
	} else {
		sub = (v >> (e - 5)) & (SR_HIST_SUB - 1);
		idx = (e - 4) * SR_HIST_SUB + (int)sub;
	}
	if (idx >= SR_HIST_EXP * SR_HIST_SUB)
		idx = SR_HIST_EXP * SR_HIST_SUB - 1;
	h->b[idx]++;
	if (!h->count || ns < h->min_ns)
		h->min_ns = ns;
	h->count++;
	h->sum_ns += ns;
	if (ns > h->max_ns)
		h->max_ns = ns;
}

#endif /* SR_REPLAY_HIST_H */
