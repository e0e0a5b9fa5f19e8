/* SPDX-License-Identifier: MIT */
/*
 * Shared simulations.  What a policy decides (its slots cache, its slots in
 * use, the turns of its priority lists, its own state: src/mm/) depends on
 * the events alone, never on simulated time; what follows from the
 * decisions (the calendars of devices and links, the tasks' clocks, the
 * counters and the latency histogram: the simulation) depends only on the
 * devices chosen and the locks taken (a refill of the slots cache takes the
 * device's si->lock).  So policies that have decided alike for every
 * event so far have the same simulation, and only one of them needs to
 * play it: all policies start sharing the simulation of the first, and a
 * policy whose choice differs from that of the one it shares with (its
 * lead) takes a copy of the lead's simulation, before the event is played,
 * and goes on with it.  Policies that part from a lead at the same event
 * with the same choice share again among themselves.  The results are
 * exactly those of one replay per policy (tests/cli/replay.sh checks them
 * field by field); on a machine where the policies agree, as reclaimer-nid,
 * page-nid with the slots cache and hybrid do on 2s-pmem2, one pass costs
 * little more than one policy.
 *
 * The same holds across machines of one layout: decisions do not depend
 * on the machine's figures either.  So --uncertainty's variants of the
 * machine (replay.h, sr_replay_opts.variants) are simulations too, one
 * per lead and variant (sr_replay_sim()), parting when their policy's
 * does; they cost no decisions, no slot map, no swap cache.
 */
#include <stdlib.h>
#include <string.h>

#include "replay/replay_impl.h"

int sr_replay_sim_copy(struct sr_replay *r, int k, int g, size_t ntasks)
{
	struct sim *p = sr_replay_sim(r, k);
	const struct sim *src = sr_replay_sim(r, g);

	/* What it played so far, then its state: hardware, clocks, plugs. */
	p->did = src->did;
	if (ntasks) {
		memcpy(p->clock, src->clock, ntasks * sizeof(*p->clock));
		memcpy(p->t_start, src->t_start, ntasks * sizeof(*p->t_start));
	}
	if (ntasks && p->ts)
		memcpy(p->ts, src->ts, ntasks * sizeof(*p->ts));
	/* Its figures per memcg, the ids src has seen (both are machine
	 * simulations, or neither is). */
	if (src->mc_hi && p->memcg_figs) {
		if (!p->mcs && !(p->mcs = calloc(SR_MEMCG_MAX + 1, sizeof(*p->mcs))))
			return -1;
		memcpy(p->mcs + src->mc_lo, src->mcs + src->mc_lo,
		       (src->mc_hi - src->mc_lo + 1) * sizeof(*p->mcs));
	}
	if (p->mc_hi && p->memcg_figs) {
		/* Ids only p had seen: none in src. */
		uint32_t i;

		for (i = p->mc_lo; i <= p->mc_hi; i++)
			if (!src->mc_hi || i < src->mc_lo || i > src->mc_hi)
				memset(&p->mcs[i], 0, sizeof(p->mcs[i]));
	}
	p->mc_lo = src->mc_lo;
	p->mc_hi = src->mc_hi;
	if (sr_replay_plugs_copy(p, src, ntasks) || sr_sim_order_copy(p, src, ntasks))
		return -1;
	return sr_hw_copy(&p->hw, &src->hw);
}

int sr_replay_split(struct sr_replay *r)
{
	int k, j, v, rc, from[SR_MAX_POLICIES];

	for (k = 0; k < r->np; k++)
		from[k] = -1;
	for (k = 0; k < r->np; k++) {
		struct pol *p = &r->pol[k];
		int g = p->lead;

		if (g == k || sr_replay_same(r, k, g))
			continue;
		/* A policy that has just parted from the same lead with the
		 * same choice has the same simulation. */
		for (j = 0; j < k; j++)
			if (from[j] == g && sr_replay_same(r, j, k))
				break;
		if (j < k) {
			p->lead = j;
			continue;
		}
		/* On the machine and on each of its variants (--uncertainty). */
		for (v = 0; v <= r->nvar; v++) {
			int sk = v * r->np + k, sg = v * r->np + g;

			rc = r->simq ? sr_simq_copy(r->simq, r, sk, sg, r->ntasks) :
				       sr_replay_sim_copy(r, sk, sg, r->ntasks);
			if (rc)
				return rc;
		}
		p->lead = k;
		from[k] = g;
		r->nlead++;
	}
	return 0;
}
