/* SPDX-License-Identifier: MIT */
/*
 * The figures of a replay: each policy's makespan, throughput, delta
 * against the baseline, device and link use (docs/MODEL.md, "What is
 * reported"), and the spread of the delta over perturbed machines.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "replay/replay_impl.h"
#include "common/diag.h"

/* Pages x 4 KiB over a phase from first to last, KiB/s; 0 without one. */
static double phase_kib_s(uint64_t pages, double first, double last)
{
	double span = last - first;

	return pages && first >= 0 && span > 0 ?
	       (double)pages * SR_PAGE_SIZE / 1024.0 / (span / 1e9) : 0;
}

/* (B4) A DMA device's requests: their mean size and its coefficient of
 * variation, and the share of their time spent waiting in the queue. */
static void block_figures(struct sr_dev_result *v)
{
	double n = (double)(v->reads + v->writes), mean, var;

	if (!v->bios || n <= 0)
		return;
	mean = (double)(v->read_bytes + v->write_bytes) / SR_PAGE_SIZE / n;
	var = v->req_pages_sq / n - mean * mean;
	v->req_kib_mean = mean * SR_PAGE_SIZE / 1024.0;
	v->req_kib_cv = mean > 0 && var > 0 ? sqrt(var) / mean : 0;
	v->queue_share = v->req_ns > 0 ? v->queue_ns / v->req_ns : 0;
}

/* The block layer's counts of device d into the policy's sum. */
static void blk_add(struct sr_dev_result *s, const struct sr_dev_result *d)
{
	s->bios += d->bios;
	s->reads += d->reads;
	s->writes += d->writes;
	s->read_bytes += d->read_bytes;
	s->write_bytes += d->write_bytes;
	s->plug_merges += d->plug_merges;
	s->queue_merges += d->queue_merges;
	s->req_pages_sq += d->req_pages_sq;
	s->queue_ns += d->queue_ns;
	s->req_ns += d->req_ns;
}

/* The label of policy k in reports: its spec, but an out-of-tree policy
 * goes by its own name (and parameters), not its file's path, unless
 * another policy of the replay has that label already. */
_Static_assert(sizeof(((struct sr_policy_result *)0)->name) >= SR_POLICY_SPEC_MAX,
	       "a policy's label holds its spec");

/* A policy's own label: its spec, or an out-of-tree one's .name[:PARAMS]. */
static void own_label(const struct sr_mm *mm, char *buf, size_t n)
{
	const char *colon = strchr(mm->spec, ':');

	if (mm->dl)
		snprintf(buf, n, "%s%s", mm->ops->name, colon ? colon : "");
	else
		snprintf(buf, n, "%s", mm->spec);
}

static void policy_label(const struct sr_replay *r, int k, char *buf, size_t n)
{
	const struct sr_mm *mm = &r->pol[k].mm;
	char other[sizeof(mm->spec) + 64];
	int j;

	own_label(mm, buf, n);
	for (j = 0; mm->dl && j < r->np; j++) {
		if (j == k)
			continue;
		own_label(&r->pol[j].mm, other, sizeof(other));
		if (!strcmp(other, buf)) {
			snprintf(buf, n, "%s", mm->spec);
			return;
		}
	}
}

/* Simulation s's makespan: its first event to its last task's finish,
 * or its devices' (a swap-out's write is not waited for: the run is over
 * when the devices have done what they were given, so that none is
 * busier than the run is long). */
static double makespan(const struct sr_replay *r, const struct sim *s)
{
	double end = s->did.end, span;
	int i;

	for (i = 0; i < r->m->nr_devices; i++) {
		double d = cal_end(&s->hw.devcal[i]);

		if (d > end)
			end = d;
	}
	span = end - (double)r->first_ts;

	return span > 0 ? span : 0;
}

/* A task's start (+1) or end (-1) in a simulation. */
struct edge {
	double t;
	int d;
};

static int edge_cmp(const void *a, const void *b)
{
	const struct edge *x = a, *y = b;

	if (x->t != y->t)
		return x->t < y->t ? -1 : 1;
	return x->d - y->d; /* an end before a start at the same time */
}

/* The most tasks that swapped alive at once in simulation s (struct
 * sr_policy_result.tasks_alive_max); -1 out of memory. */
static long long alive_max(const struct sr_replay *r, const struct sim *s)
{
	struct edge *ev = malloc(2 * (r->ntasks ? r->ntasks : 1) * sizeof(*ev));
	size_t i, n = 0;
	long long cur = 0, best = 0;

	if (!ev)
		return -1;
	for (i = 0; i < r->ntasks; i++) {
		if (!r->tasks[i].swapped)
			continue;
		ev[n++] = (struct edge){ s->t_start[i], 1 };
		ev[n++] = (struct edge){ s->clock[i], -1 };
	}
	qsort(ev, n, sizeof(*ev), edge_cmp);
	for (i = 0; i < n; i++) {
		cur += ev[i].d;
		if (cur > best)
			best = cur;
	}
	free(ev);
	return best;
}

/* Policy k's figures: its decisions' counts, and what its lead's
 * simulation (its own, or the one it shares) played; read, not copied
 * (shared.c). */
static enum sr_err policy_result(struct sr_replay *r, int k, struct sr_diag *d)
{
	const struct sr_machine *m = r->m;
	struct pol *p = &r->pol[k];
	struct sim *s = &r->pol[p->lead].sim;
	struct sr_policy_result *o = &p->res;
	double span = makespan(r, s), bytes;
	long long alive = alive_max(r, s);
	int nl = 0, i;

	if (alive < 0)
		return sr_diag_set(d, SR_ERR_NOMEM, "out of memory");
	o->tasks_alive_max = (uint64_t)alive;
	policy_label(r, k, o->name, sizeof(o->name));
	if (p->mm.dl) {
		const char *colon = strchr(p->mm.spec, ':');

		snprintf(o->path, sizeof(o->path), "%.*s",
			 (int)(colon ? (size_t)(colon - p->mm.spec) : strlen(p->mm.spec)), p->mm.spec);
	} else {
		o->path[0] = '\0';
	}
	o->swapouts = s->did.swapouts;
	o->swapins = s->did.swapins;
	o->pages_out = s->did.pages_out;
	o->pages_in = s->did.pages_in;
	o->swapin_lat = s->did.swapin_lat;
	o->cache_refills = p->mm.cache_refills;
	o->tiered = p->mm.ops->tiers != NULL;
	if (m->zswap.enabled) {
		const struct sr_zswap_pool *zp = &p->zs.pool;

		o->zs = (struct sr_zswap_result){ zp->stored, zp->zero, zp->whole, zp->rej_full,
			zp->rej_poor, zp->rej_large, zp->loads, zp->written_back, zp->limit_hit,
			zp->peak, s->did.zs_cpu_ns };
	}
	o->direct_allocs = p->mm.direct_allocs;
	o->stale_requests = sr_hw_stale(&s->hw);
	o->trunk_shared = s->hw.trunks.shared;
	o->order_forced = s->ord.forced;
	o->order_late = s->ord.late;
	o->order_behind = s->ord.behind;
	o->order_behind_by_mean = s->ord.behind ? s->ord.behind_by / (double)s->ord.behind : 0;
	o->wait_cpu_ns = s->hw.wait_ns[SR_WAIT_CPU];
	o->wait_si_lock_ns = s->hw.wait_ns[SR_WAIT_SWAP_LOCK];
	o->wait_lru_lock_ns = s->hw.wait_ns[SR_WAIT_LRU_LOCK];
	o->wait_swap_cache_lock_ns = s->hw.wait_ns[SR_WAIT_SWAP_CACHE_LOCK];
	o->wait_queue_lock_ns = s->hw.wait_ns[SR_WAIT_QUEUE_LOCK];
	o->block_cpu_ns = s->hw.blk_cpu_ns;
	o->makespan_ns = span;
	bytes = (double)(o->pages_in + o->pages_out) * SR_PAGE_SIZE;
	o->throughput_kib_s = span > 0 ? bytes / 1024.0 / (span / 1e9) : 0;
	o->swapout_lat_mean_ns = o->swapouts ? s->did.swapout_lat_sum / (double)o->swapouts : 0;
	o->nr_devices = m->nr_devices;
	o->dev = s->hw.dev;
	for (i = 0; i < m->nr_devices; i++) {
		/* busy_ns / makespan, unclamped: in simulated time's order a
		 * device does no more than it can (docs/MODEL.md, "Resources";
		 * tests/validation/run.sh and tests/unit/test_order.c check
		 * busy_ns <= makespan_ns). */
		s->hw.dev[i].util = span > 0 ? s->hw.dev[i].busy_ns / span : 0;
		block_figures(&s->hw.dev[i]);
		if (s->hw.dev[i].bios)
			blk_add(&o->blk, &s->hw.dev[i]);
	}
	block_figures(&o->blk);
	for (i = 0; i < m->nr_nodes * m->nr_nodes; i++)
		nl += s->hw.link_bytes[i] != 0;
	o->link = calloc(nl ? (size_t)nl : 1, sizeof(*o->link));
	if (!o->link)
		return sr_diag_set(d, SR_ERR_NOMEM, "out of memory");
	for (i = 0; i < m->nr_nodes * m->nr_nodes; i++) {
		struct sr_link_result *l;

		if (!s->hw.link_bytes[i])
			continue;
		l = &o->link[o->nr_links++];
		l->from = i / m->nr_nodes;
		l->to = i % m->nr_nodes;
		l->bytes = s->hw.link_bytes[i];
		l->util = span > 0 ? 1e9 * (double)l->bytes / m->link_bw / span : 0;
	}
	if (r->per_task) {
		/* A policy that shares a simulation has its lead's figures. */
		const struct task_stat *ts = s->ts;
		size_t t;

		o->task = calloc(r->ntasks ? r->ntasks : 1, sizeof(*o->task));
		if (!o->task)
			return sr_diag_set(d, SR_ERR_NOMEM, "out of memory");
		o->nr_tasks = r->ntasks;
		for (t = 0; t < r->ntasks; t++) {
			struct sr_task_result *x = &o->task[t];

			x->pid = r->tasks[t].pid;
			x->swapouts = ts[t].swapouts;
			x->swapins = ts[t].swapins;
			x->pages_out = ts[t].pages_out;
			x->pages_in = ts[t].pages_in;
			x->busy_ns = ts[t].busy_ns;
			x->swapin_kib_s = phase_kib_s(ts[t].pages_in, ts[t].in_first, ts[t].in_last);
			x->swapout_kib_s = phase_kib_s(ts[t].pages_out, ts[t].out_first,
						       ts[t].out_last);
			o->task_swapin_kib_s_sum += x->swapin_kib_s;
			o->task_swapout_kib_s_sum += x->swapout_kib_s;
		}
	}
	if (s->mc_hi) {
		/* A policy that shares a simulation has its lead's figures. */
		uint32_t id;
		size_t n = 0;

		for (id = s->mc_lo; id <= s->mc_hi; id++)
			n += s->mcs[id].swapouts + s->mcs[id].swapins != 0;
		o->memcg = calloc(n ? n : 1, sizeof(*o->memcg));
		if (!o->memcg)
			return sr_diag_set(d, SR_ERR_NOMEM, "out of memory");
		for (id = s->mc_lo; id <= s->mc_hi; id++) {
			const struct memcg_stat *c = &s->mcs[id];
			struct sr_memcg_result *x;

			if (!c->swapouts && !c->swapins)
				continue;
			x = &o->memcg[o->nr_memcgs++];
			x->id = id;
			x->swapouts = c->swapouts;
			x->swapins = c->swapins;
			x->pages_out = c->pages_out;
			x->pages_in = c->pages_in;
			x->swapin_lat_mean_ns = c->swapins ? c->lat_sum / (double)c->swapins : 0;
			x->swapin_lat_max_ns = c->lat_max;
			x->throughput_kib_s = span > 0 ? (double)(c->pages_in + c->pages_out) *
					      SR_PAGE_SIZE / 1024.0 / (span / 1e9) : 0;
		}
	}
	r->result.policy[k] = *o;
	return SR_OK;
}

/* The makespan of policy k's simulation on variant v (0: the machine). */
static double variant_makespan(struct sr_replay *r, int v, int k)
{
	return makespan(r, sr_replay_sim(r, v * r->np + r->pol[k].lead));
}

/* The delta of policy k's simulation against the baseline's on variant
 * or replica v (0: the machine with the trace's times). */
static double variant_delta(struct sr_replay *r, int v, int k)
{
	double base = variant_makespan(r, v, r->baseline), ms = variant_makespan(r, v, k);

	return ms > 0 && base > 0 ? (base / ms - 1.0) * 100.0 : 0;
}

/*
 * (N2) --noise: each policy's delta on each replica of the trace's timing,
 * their range with the trace's own, and the noise: the largest distance
 * of a replica's delta from the trace's own.
 */
static void noise(struct sr_replay *r)
{
	struct sr_result *res = &r->result;
	int k, j;

	for (k = 0; k < res->nr_policies; k++) {
		struct sr_policy_result *p = &res->policy[k];

		p->noise.replicas = r->nnoise;
		p->noise.jitter_ns = r->jitter_ns;
		p->noise.pct = 0;
		p->noise.min = p->noise.max = p->delta_pct;
		for (j = 1; j <= r->nnoise; j++) {
			double dl = variant_delta(r, r->nmvar + j, k), dd = fabs(dl - p->delta_pct);

			if (dl < p->noise.min)
				p->noise.min = dl;
			if (dl > p->noise.max)
				p->noise.max = dl;
			if (dd > p->noise.pct)
				p->noise.pct = dd;
		}
	}
}

/*
 * --uncertainty: each policy's delta on each variant of the machine, its
 * range with the machine's own delta, and how many variants put it on the
 * same side (sr_delta_side_noise(): a variant within the delta's timing
 * noise, or within 1 %, agrees only with a delta there too).
 */
static void uncertainty(struct sr_replay *r)
{
	struct sr_result *res = &r->result;
	int k, v;

	for (k = 0; k < res->nr_policies; k++) {
		struct sr_policy_result *p = &res->policy[k];

		p->unc.variants = r->nmvar;
		p->unc.range = r->var_range;
		p->unc.agree = 0;
		p->unc.min = p->unc.max = p->delta_pct;
	}
	for (v = 1; v <= r->nmvar; v++) {
		for (k = 0; k < res->nr_policies; k++) {
			struct sr_policy_result *p = &res->policy[k];
			double dl = variant_delta(r, v, k);

			if (dl < p->unc.min)
				p->unc.min = dl;
			if (dl > p->unc.max)
				p->unc.max = dl;
			p->unc.agree += sr_delta_side_noise(p, dl) ==
					sr_delta_side_noise(p, p->delta_pct);
		}
	}
}

enum sr_err sr_replay_finish(struct sr_replay *r, const struct sr_result **res,
			     struct sr_diag *caller)
{
	struct sr_diag local, *d = caller ? caller : &local;
	enum sr_err err;
	int k;

	*res = NULL;
	if (!r->finished) {
		err = sr_replay_drain(r, d);
		if (err)
			return err;
		/* The simulation threads play what they still have, then rest:
		 * from here on this thread reads the simulations. */
		if (r->simq && sr_simq_sync(r->simq))
			return sr_diag_set(d, SR_ERR_NOMEM, "out of memory");
		r->finished = 1;
		r->result.policy = calloc((size_t)r->np, sizeof(*r->result.policy));
		if (!r->result.policy)
			return sr_diag_set(d, SR_ERR_NOMEM, "out of memory");
		r->result.nr_policies = r->np;
		r->result.baseline = r->baseline;
		r->result.tasks = r->ntasks;
		r->result.zswap = r->m->zswap;
		r->result.tasks_unforked = r->ntasks - r->result.tasks_forked;
		r->result.swapins = r->ra.ins;
		/* The plugs still holding writes are flushed, in every
		 * simulation (the variants' too). */
		for (k = 0; k < r->np * (1 + r->nvar); k++)
			if (r->pol[k % r->np].lead == k % r->np &&
			    (sr_sim_drain(sr_replay_sim(r, k), r->ntasks) ||
			     sr_replay_plugs_finish(sr_replay_sim(r, k), r->ntasks)))
				return sr_diag_set(d, SR_ERR_NOMEM, "out of memory");
		for (k = 0; k < r->np; k++) {
			err = policy_result(r, k, d);
			if (err)
				return err;
		}
		{
			struct sr_recorded *c = &r->result.recorded;
			double span = (double)(c->end_ns - c->first_ns);

			c->throughput_kib_s = span > 0 ? (double)(c->pages_in + c->pages_out) *
								 SR_PAGE_SIZE / 1024.0 / (span / 1e9)
							: 0;
		}
		for (k = 0; k < r->np; k++) {
			struct sr_policy_result *o = &r->result.policy[k];
			double base = r->result.policy[r->baseline].makespan_ns;

			o->delta_pct = o->makespan_ns > 0 && base > 0 ?
				       (base / o->makespan_ns - 1.0) * 100.0 : 0;
		}
		if (r->nnoise)
			noise(r);
		if (r->nmvar)
			uncertainty(r);
	}
	*res = &r->result;
	return SR_OK;
}

int sr_delta_side(double d)
{
	return d > SR_SAME_PCT ? 1 : d < -SR_SAME_PCT ? -1 : 0;
}

int sr_delta_in_noise(const struct sr_policy_result *p)
{
	return p->noise.replicas > 0 && p->noise.pct > 0 && fabs(p->delta_pct) <= p->noise.pct;
}

int sr_delta_side_noise(const struct sr_policy_result *p, double d)
{
	if (p->noise.replicas > 0 && fabs(d) <= p->noise.pct)
		return 0;
	return sr_delta_side(d);
}

unsigned sr_noise_auto(uint64_t events)
{
	uint64_t n;

	if (!events)
		return 0;
	n = SR_NOISE_AUTO_EVENTS / events;
	return n >= 4 ? 4 : n >= 2 ? (unsigned)n : 0;
}

void sr_replay_sim_memory(const struct sr_replay *r, uint64_t *each, uint64_t *per_cpu,
			  int *nsims)
{
	size_t cpu;

	/* Per simulation, its clocks and plugs grow with the tasks too: a
	 * double and a pointer each, negligible beside a calendar. */
	*each = sr_hw_bytes(r->m, &r->kernel, &cpu);
	/* ... and its queue of records, full (order.c: 64 bytes each and
	 * up to 64 of bios). */
	*each += r->result.order_queue * (sizeof(struct ord_rec) + ORD_BIO_IN * sizeof(uint64_t));
	*per_cpu = cpu;
	*nsims = r->np * (1 + r->nvar);
}

const char *sr_replay_policy_name(const struct sr_replay *r, int k)
{
	if (!r || k < 0 || k >= r->np || !r->pol[k].mm.ops)
		return NULL;
	return r->pol[k].mm.ops->name;
}
