/* SPDX-License-Identifier: MIT */
/*
 * The tasks of a trace: found by pid (a vector for small pids, a hash map
 * above), each with one clock per simulation (struct sim.clock) that the
 * simulations move.
 */
#include <stdlib.h>
#include <string.h>

#include "replay/replay_impl.h"
#include "common/grow.h"

long sr_replay_task_find(const struct sr_replay *r, uint32_t pid)
{
	const uint64_t *v;

	if (pid < SR_TASK_VEC_MAX)
		return pid < r->task_vec_n ? (long)r->task_vec[pid] - 1 : -1;
	v = sr_u64map_get(&r->task_ix, pid);
	return v ? (long)*v : -1;
}

long sr_replay_task_slow(struct sr_replay *r, uint32_t pid, int *fresh)
{
	int added;
	uint64_t *v = NULL;
	uint32_t *tv = NULL;
	size_t cap, i;
	struct vra_ent *nv;
	int k;

	if (pid < SR_TASK_VEC_MAX) {
		if (pid >= r->task_vec_n &&
		    sr_grow_zeroed((void **)&r->task_vec, &r->task_vec_n, (size_t)pid + 1,
				   sizeof(*r->task_vec), 256))
			return -1;
		tv = &r->task_vec[pid];
		added = *tv == 0;
		if (!added) {
			*fresh = 0;
			return (long)*tv - 1;
		}
	} else {
		v = sr_u64map_put(&r->task_ix, pid, &added);
		if (!v)
			return -1;
		if (!added) {
			*fresh = 0;
			return (long)*v;
		}
	}
	cap = r->task_cap;
	if (sr_grow((void **)&r->tasks, &cap, r->ntasks + 1, sizeof(*r->tasks), 1024))
		goto nomem;
	if (cap != r->task_cap) {
		/* The simulations' per-task arrays move: their threads rest
		 * first (simq.c). */
		if (r->simq && sr_simq_sync(r->simq))
			goto nomem;
		/* Every simulation's clocks and plugs, the variants' too
		 * (--uncertainty: sr_replay_sim()). */
		for (k = 0; k < r->np * (1 + r->nvar); k++) {
			struct sim *p = sr_replay_sim(r, k);
			double *nc = realloc(p->clock, cap * sizeof(double));

			if (!nc)
				goto nomem;
			p->clock = nc;
			nc = realloc(p->t_start, cap * sizeof(double));
			if (!nc)
				goto nomem;
			p->t_start = nc;
			if (sr_replay_plugs_grow(p, r->task_cap, cap) ||
			    sr_sim_order_grow(p, r->task_cap, cap))
				goto nomem;
		}
		for (k = 0; k < r->np; k++) {
			nv = realloc(r->pol[k].ra.vra, cap * sizeof(*nv));
			if (!nv)
				goto nomem;
			r->pol[k].ra.vra = nv;
			if (r->per_task) {
				struct task_stat *ns = realloc(r->pol[k].sim.ts, cap * sizeof(*ns));

				if (!ns)
					goto nomem;
				r->pol[k].sim.ts = ns;
			}
		}
		r->task_cap = cap;
	}
	i = r->ntasks++;
	memset(&r->tasks[i], 0, sizeof(r->tasks[i]));
	r->tasks[i].pid = pid;
	for (k = 0; k < r->np; k++)
		r->pol[k].ra.vra[i].set = 0;
	if (r->per_task)
		for (k = 0; k < r->np; k++) {
			struct task_stat *t = &r->pol[k].sim.ts[i];

			memset(t, 0, sizeof(*t));
			t->in_first = t->in_last = t->out_first = t->out_last = -1;
		}
	if (tv)
		*tv = (uint32_t)i + 1;
	else
		*v = i;
	*fresh = 1;
	return (long)i;
nomem:
	if (!tv)
		sr_u64map_del(&r->task_ix, pid);
	return -1;
}
