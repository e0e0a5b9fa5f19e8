/* SPDX-License-Identifier: MIT */
/*
 * The replay loop: events in time order (a bounded reorder window), each
 * task replaying its own events one after another with the recorded gaps
 * kept as compute time, every policy evaluated in the same pass.  For each
 * event the loop asks each policy's kernel where the slots are (src/mm/),
 * then gives each simulation the record of what was decided, which it
 * plays in simulated time (order.c) on the device chosen (src/hw/),
 * sharing simulations between policies that chose alike (shared.c).
 *
 * Memory: the tasks seen, the swap slots in use, the reorder window and
 * each simulation's queue of records (bounded: --order-queue); it does
 * not grow with the length of the trace.  docs/MODEL.md is the reference
 * for what is modelled and how.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "replay/hist.h"
#include "replay/replay_impl.h"
#include "common/diag.h"
#include "common/hash.h"
#include "swapreplay/trace.h"

#define DEFAULT_REORDER SR_REORDER_DEFAULT
/* The seed of the noise replicas' jitter (N1): reports are reproducible. */
#define SR_NOISE_SEED 0x4e4f495345535750ull /* "NOISESWP" */

/* ---- setting up ------------------------------------------------------- */

/* How order-0 slots are handed out: the kernel's way, or on kernels with
 * the slots cache, without it when it is switched off. */
static enum sr_alloc_mode alloc_mode(const struct sr_replay *r)
{
	if (r->kernel.alloc == SR_ALLOC_SLOTS_CACHE && !r->slots_cache)
		return SR_ALLOC_DIRECT;
	return r->kernel.alloc;
}

static enum sr_err pol_setup(struct sr_replay *r, struct pol *p, struct sr_diag *d)
{
	enum sr_err err = sr_mm_init(&p->mm, r->m, &r->lists, alloc_mode(r), d);

	if (err)
		return err;
	if (sr_hw_init(&p->sim.hw, r->m) || sr_hw_clusters_init(&p->clusters, r->m))
		return sr_diag_set(d, SR_ERR_NOMEM, "out of memory");
	p->sim.memo = &r->memo;
	p->sim.kernel = &r->kernel;
	p->sim.plugging = r->plug;
	p->sim.memcg_figs = 1;
	sr_replay_zswap_init(r, p);
	return SR_OK;
}

/* Every simulation's hardware told the kernel's bound on swap writes in
 * flight (blk-wbt). */
static void write_limits(struct sr_replay *r)
{
	struct sr_wbt_limits wbt;
	int s;

	sr_wbt_limits(&r->kernel, &wbt);
	for (s = 0; s < r->np * (1 + r->nvar); s++) {
		sr_hw_set_write_limits(&sr_replay_sim(r, s)->hw, &wbt, sr_wbt_enabled(&r->kernel));
		sr_hw_set_kernel(&sr_replay_sim(r, s)->hw, &r->kernel);
	}
}

/* Every policy's record of the cluster locks told which devices take them
 * under the kernel, and what an event's holds of one write (docs/MODEL.md,
 * L6; sr_hw_cluster_kernel()). */
static void cluster_locks(struct sr_replay *r)
{
	int k, dv;

	for (k = 0; k < r->np; k++)
		for (dv = 0; dv < r->m->nr_devices; dv++) {
			unsigned shift, lines_in, lines_out;

			sr_hw_cluster_kernel(&r->kernel, r->m->dev[dv].cls, &shift, &lines_in,
					     &lines_out);
			sr_hw_clusters_set(&r->pol[k].clusters, r->m, dv, shift, lines_in,
					   lines_out);
		}
}

/*
 * --uncertainty: the machine's variants (seeds 1 to n, as they have always
 * been drawn) and a simulation of each policy on each, sharing the
 * policies' decisions (replay.h, sr_replay_opts.variants); then --noise's
 * replicas of the trace's timing, on the machine itself.
 */
static enum sr_err variants_setup(struct sr_replay *r, const struct sr_replay_opts *o,
				  struct sr_diag *d)
{
	unsigned v, nv = o->variants + o->noise;
	int k;

	if (o->variants > SR_REPLAY_MAX_VARIANTS)
		return sr_diag_set(d, SR_ERR_INVAL, "%u machine variants: at most %d", o->variants,
				   SR_REPLAY_MAX_VARIANTS);
	if (o->variants && !(o->variant_range > 0 && o->variant_range <= 4))
		return sr_diag_set(d, SR_ERR_INVAL, "a variant range of %g: above 0, at most 4 "
				   "(400 %%)", o->variant_range);
	if (o->noise > SR_REPLAY_MAX_NOISE)
		return sr_diag_set(d, SR_ERR_INVAL, "%u noise replicas: at most %d", o->noise,
				   SR_REPLAY_MAX_NOISE);
	if (!(o->noise_jitter_ns >= 0 && o->noise_jitter_ns <= 1e9))
		return sr_diag_set(d, SR_ERR_INVAL, "a jitter of %g ns: from 0 to 1 s",
				   o->noise_jitter_ns);
	r->jitter_ns = o->noise_jitter_ns > 0 ? o->noise_jitter_ns : SR_NOISE_JITTER_NS;
	if (!nv)
		return SR_OK;
	r->vmach = calloc(o->variants + 1, sizeof(*r->vmach));
	r->vmemo = calloc(o->variants + 1, sizeof(*r->vmemo));
	r->vsim = calloc((size_t)nv * (size_t)r->np, sizeof(*r->vsim));
	if (!r->vmach || !r->vmemo || !r->vsim)
		return sr_diag_set(d, SR_ERR_NOMEM, "out of memory");
	r->var_range = o->variant_range;
	for (v = 1; v <= nv; v++) {
		const struct sr_machine *m = r->m;
		struct sr_hw_memo *memo = &r->memo;

		/* Counted first: what was made is freed, the rest is zeroed. */
		r->nvar = (int)v;
		if (v <= o->variants) {
			r->nmvar = (int)v;
			if (sr_machine_perturb(r->m, v, o->variant_range, &r->vmach[v - 1]))
				return sr_diag_set(d, SR_ERR_NOMEM, "out of memory");
			sr_hw_memo_init(&r->vmemo[v - 1], r->vmach[v - 1]);
			m = r->vmach[v - 1];
			memo = &r->vmemo[v - 1];
		} else {
			r->nnoise = (int)(v - o->variants);
		}
		for (k = 0; k < r->np; k++) {
			struct sim *p = sr_replay_sim(r, (int)v * r->np + k);

			if (sr_hw_init(&p->hw, m))
				return sr_diag_set(d, SR_ERR_NOMEM, "out of memory");
			p->memo = memo;
			p->kernel = &r->kernel;
			p->plugging = r->plug;
		}
	}
	return SR_OK;
}

/* A simulation: its hardware, clocks, per-task figures and plugs. */
static void sim_free(struct sr_replay *r, struct sim *p)
{
	sr_replay_plugs_free(p, r->ntasks);
	sr_sim_order_free(p);
	sr_hw_free(&p->hw);
	free(p->clock);
	free(p->t_start);
	free(p->ts);
	free(p->mcs);
}

static void pol_free(struct sr_replay *r, struct pol *p)
{
	sim_free(r, &p->sim);
	sr_hw_clusters_free(&p->clusters, r->m->nr_devices);
	sr_replay_slots_free(p);
	sr_mm_free(&p->mm);
	free(p->res.link);
	free(p->res.task);
	free(p->res.memcg);
	free(p->ra.raq);
	free(p->ra.vra);
	sr_replay_zswap_free(p);
}

/* --node-map: the table of the machine's node for each recorded one. */
static enum sr_err node_map_setup(struct sr_replay *r, const struct sr_node_map *nm,
				  struct sr_diag *d)
{
	unsigned i;

	if (!sr_node_map_any(nm))
		return SR_OK;
	if (sr_node_map_check(nm, r->m, d))
		return SR_ERR_MACHINE;
	r->node_map = *nm;
	r->nmap = malloc(SR_MAX_NODES * sizeof(*r->nmap));
	r->nodes_seen = calloc(SR_MAX_NODES / 64, sizeof(*r->nodes_seen));
	if (!r->nmap || !r->nodes_seen)
		return sr_diag_set(d, SR_ERR_NOMEM, "out of memory");
	for (i = 0; i < SR_MAX_NODES; i++)
		r->nmap[i] = (uint16_t)sr_node_map_node(nm, r->m, i);
	return SR_OK;
}

/* The path the trace gives a memcg, for the policies (mm reads no trace). */
static const char *memcg_path(const void *ctx, unsigned memcg)
{
	return ctx ? sr_memcgs_path(ctx, memcg) : NULL;
}

enum sr_err sr_replay_new(struct sr_replay **out, const struct sr_replay_opts *opts,
			  const char *const *specs, int n, const char *baseline,
			  struct sr_diag *caller)
{
	struct sr_diag local, *d = caller ? caller : &local;
	struct sr_replay *r;
	enum sr_err err;
	int i, j;

	*out = NULL;
	sr_diag_clear(d);
	if (n < 1 || n > SR_MAX_POLICIES)
		return sr_diag_set(d, SR_ERR_INVAL, "between 1 and %d policies, not %d",
				   SR_MAX_POLICIES, n);
	if (opts->kernel.major < 4)
		return sr_diag_set(d, SR_ERR_INVAL, "kernel %u.%u: 4.0 or later (sr_replay_opts_init() "
				   "sets the default)", opts->kernel.major, opts->kernel.minor);
	if (opts->readahead.page_cluster > SR_RA_MAX_PAGE_CLUSTER)
		return sr_diag_set(d, SR_ERR_INVAL, "page-cluster %u: at most %d here (windows of %u "
				   "slots; the kernel allows 31)", opts->readahead.page_cluster,
				   SR_RA_MAX_PAGE_CLUSTER, 1u << SR_RA_MAX_PAGE_CLUSTER);
	if (opts->order_queue > SR_ORDER_QUEUE_LIMIT)
		return sr_diag_set(d, SR_ERR_INVAL, "an order queue of %llu records: at most %llu",
				   (unsigned long long)opts->order_queue,
				   (unsigned long long)SR_ORDER_QUEUE_LIMIT);
	if (opts->sim_threads < 0 || opts->sim_threads > SR_SIM_WORKERS_MAX)
		return sr_diag_set(d, SR_ERR_INVAL, "%d simulation threads: from 0 to %d",
				   opts->sim_threads, SR_SIM_WORKERS_MAX);
	if (!opts->machine->nr_devices)
		return sr_diag_set(d, SR_ERR_MACHINE,
				   "machine %s has no swap device (swap was off where it was "
				   "described): nothing can be swapped to on it",
				   opts->machine->name);
	if (opts->machine->zswap.enabled && !sr_kernel_zswap(&opts->kernel))
		return sr_diag_set(d, SR_ERR_INVAL, "machine %s has zswap, which is modelled from "
				   "kernel 6.6 on (its code read in 6.6, 6.12 and 6.18), not on "
				   "%u.%u: give --kernel=6.6 or later, or set the machine's "
				   "zswap.enabled to false", opts->machine->name,
				   opts->kernel.major, opts->kernel.minor);
	r = calloc(1, sizeof(*r));
	if (!r)
		return sr_diag_set(d, SR_ERR_NOMEM, "out of memory");
	r->m = opts->machine;
	r->ordered = opts->ordered;
	r->max_dev = -1;
	r->ra.opts = opts->readahead;
	r->slots_cache = opts->slots_cache;
	r->kernel = opts->kernel;
	r->plug = opts->plug != 0;
	r->per_task = opts->per_task != 0;
	r->ra.kernel = &r->kernel;
	r->ra.m = r->m;
	r->ra.slots = &r->slots;
	sr_replay_ra_resolve(&r->ra);
	r->baseline = -1;
	sr_u64map_init(&r->task_ix);
	/* Laid out by sr_replay_slots_setup(). */
	sr_slotmap_init(&r->slots, n, 0, 0, opts->machine->zswap.enabled);
	sr_u64map_init(&r->partial);
	sr_u64map_init(&r->kept_key);
	sr_u64map_init(&r->kept_gen);
	sr_u64map_init(&r->ra.pte);
	sr_hw_memo_init(&r->memo, r->m);
	r->pol = calloc((size_t)n, sizeof(*r->pol));
	r->dec = calloc((size_t)n, sizeof(*r->dec));
	r->ra_bio = calloc((size_t)n * SR_RA_BIO_MAX, sizeof(*r->ra_bio));
	if (!r->dec || !r->ra_bio ||
	    (!r->ordered && sr_window_init(&r->win, opts->reorder_window ?
					   opts->reorder_window : DEFAULT_REORDER)) ||
	    !r->pol ||
	    sr_swap_lists_build(&r->lists, r->m, r->kernel.prio) ||
	    (!r->kernel.node_lists &&
	     sr_swap_lists_build(&r->node_lists, r->m, SR_PRIO_NODE_RAISE))) {
		err = sr_diag_set(d, SR_ERR_NOMEM, "out of memory");
		goto fail;
	}
	for (i = 0; i < n; i++) {
		for (j = 0; j < i; j++)
			if (strcmp(specs[i], specs[j]) == 0) {
				err = sr_diag_set(d, SR_ERR_INVAL, "policy '%s' given twice", specs[i]);
				goto fail;
			}
		r->np = i + 1;
		err = pol_setup(r, &r->pol[i], d);
		if (err)
			goto fail;
		r->pol[i].lead = 0;
		err = sr_mm_load_policy(&r->pol[i].mm, specs[i], d);
		if (err)
			goto fail;
		if (baseline && strcmp(specs[i], baseline) == 0)
			r->baseline = i;
		/* A kernel with one list: the node a policy names would change
		 * nothing; every policy but the kernel's own (reclaimer-nid, and
		 * tiers: the kernel's with the swap tiers series) walks the
		 * per-node lists of 4.14 to 6.18, put back. */
		if (!r->kernel.node_lists &&
		    (r->pol[i].mm.dl || (r->pol[i].mm.ops != sr_policy_find("reclaimer-nid") &&
					 r->pol[i].mm.ops != sr_policy_find("tiers"))))
			r->pol[i].mm.lists = &r->node_lists;
		/* (T1) The swap tiers series is on the per-CPU clusters of 6.15
		 * on (swap_alloc_fast() checks the cluster's device). */
		if (r->pol[i].mm.ops->tiers && r->kernel.alloc != SR_ALLOC_CLUSTER) {
			err = sr_diag_set(d, SR_ERR_INVAL, "policy %s restricts the swap tiers a memory "
					  "cgroup may use, which the swap tiers series does on the per-CPU "
					  "clusters of 6.15 on, not on kernel %u.%u: give --kernel=6.15 or later",
					  specs[i], r->kernel.major, r->kernel.minor);
			goto fail;
		}
		r->pol[i].mm.memcg_path = memcg_path;
		r->pol[i].mm.memcg_ctx = opts->memcgs;
	}
	r->nlead = 1;
	err = node_map_setup(r, opts->node_map, d);
	if (err)
		goto fail;
	err = variants_setup(r, opts, d);
	if (err)
		goto fail;
	write_limits(r);
	cluster_locks(r);
	/* Every simulation's queue bound (order.c). */
	r->result.order_queue = opts->order_queue ? opts->order_queue : SR_ORDER_QUEUE_MAX;
	for (i = 0; i < r->np * (1 + r->nvar); i++) {
		sr_replay_sim(r, i)->ord.max = r->result.order_queue;
		sr_replay_sim(r, i)->ord.no_shortcut = opts->order_no_shortcut != 0;
	if (r->np) {
		sr_replay_sim(r, 0)->ord.played = opts->order_played;
		sr_replay_sim(r, 0)->ord.played_arg = opts->order_played_arg;
	}
	}
	err = sr_replay_slots_setup(r, d);
	if (err)
		goto fail;
	if (opts->sim_threads && sr_simq_start(r, opts->sim_threads, &r->simq)) {
		err = sr_diag_set(d, SR_ERR_NOMEM, "cannot start the simulation threads");
		goto fail;
	}
	if (r->baseline < 0) {
		err = sr_diag_set(d, SR_ERR_INVAL, "baseline '%s' is not among the policies replayed",
				  baseline ? baseline : "(none)");
		goto fail;
	}
	*out = r;
	return SR_OK;
fail:
	sr_replay_free(r);
	return err;
}

void sr_replay_opts_init(struct sr_replay_opts *o)
{
	memset(o, 0, sizeof(*o));
	sr_kernel_parse(SR_KERNEL_DEFAULT, &o->kernel, NULL);
	o->slots_cache = 1;
	sr_readahead_default(&o->readahead);
	o->plug = 1;
}

void sr_replay_free(struct sr_replay *r)
{
	int i;

	if (!r)
		return;
	sr_simq_stop(r->simq);
	for (i = 0; i < r->np; i++)
		pol_free(r, &r->pol[i]);
	for (i = 0; r->vsim && i < r->nvar * r->np; i++)
		sim_free(r, &r->vsim[i]);
	for (i = 0; r->vmach && i < r->nmvar; i++) {
		sr_hw_memo_free(&r->vmemo[i]);
		sr_machine_free(r->vmach[i]);
	}
	free(r->vsim);
	free(r->vmach);
	free(r->vmemo);
	sr_swap_lists_free(&r->lists);
	sr_swap_lists_free(&r->node_lists);
	free(r->pol);
	free(r->dec);
	free(r->ra_bio);
	sr_u64map_free_ptrs(&r->partial);
	sr_u64map_free(&r->kept_key);
	sr_u64map_free(&r->kept_gen);
	free(r->kq);
	sr_u64map_free_ptrs(&r->ra.pte);
	free(r->ra.pte_cache);
	free(r->nmap);
	free(r->nodes_seen);
	sr_window_free(&r->win);
	sr_hw_memo_free(&r->memo);
	free(r->tasks);
	free(r->result.policy);
	sr_u64map_free(&r->task_ix);
	free(r->task_vec);
	sr_slotmap_free(&r->slots);
	free(r);
}

/* ---- one event ---------------------------------------------------------- */

/* The recorded slot of swap-out e, made ready for it; NULL if it has none
 * (*nomem: or out of memory).  A slot still held was reused without a
 * swap-in in the trace (the page was freed): what it held is released. */
static struct slot_cell *out_cell(struct sr_replay *r, const struct sr_event *e, uint64_t *key,
				  int *nomem)
{
	struct slot_chunk *c;
	struct slot_cell *sc;

	*nomem = 0;
	if (!sr_slot_key(e, e->offset, key))
		return NULL;
	sc = sr_slotmap_cell(&r->slots, *key, 1, &c);
	if (!sc) {
		*nomem = 1;
		return NULL;
	}
	if (sc->nr_pages) {
		/* zswap_invalidate(): its pages leave every pool. */
		sr_replay_zswap_drop(r, sc);
		sr_replay_slot_release(r, sc, *key);
		if (r->ra.vma_map)
			sr_replay_pte_clear(&r->ra, *key, sc);
	} else {
		c->live++;
	}
	sc->nr_pages = (uint16_t)e->nr_pages;
	sc->left = (uint16_t)e->nr_pages;
	sc->cached = 0;
	sr_slotmap_set_zs(&r->slots, sc, 0);
	sc->gen = ++r->cell_gen;
	return sc;
}

/* Where policy p's kernel puts (or finds) the slots of event e; sc is its
 * recorded slot (key) or NULL; out: e is a swap-out (e->op, known to the
 * caller).  -1: no device; -2: out of memory.  A swap-in's slots were
 * freed already (sr_replay_slot_in()). */
static inline __attribute__((always_inline)) int place(struct sr_replay *r, struct pol *p, int k,
							const struct sr_event *e, struct slot_cell *sc,
							uint64_t key, const int out)
{
	struct sr_alloc_req req;
	int dv;

	if (p->mm.ops->on_event)
		p->mm.ops->on_event(p->mm.priv, e);
	if (out) {
		dv = sr_mm_alloc_out(&p->mm, e);
		/* (K1) Swap full: the allocator takes back the slots the
		 * swap cache keeps (vm_swap_full() holds: no device has
		 * room). */
		while (SR_UNLIKELY(dv < 0) && p->kept_n && !p->mm.nomem &&
		       sr_replay_kept_reclaim(r, p, k))
			dv = sr_mm_alloc_out(&p->mm, e);
		if (SR_LIKELY(sc && dv >= 0 && !r->slots.off_at && !p->mm.nomem)) {
			/* The common case: counted, not laid out. */
			sc->dev[k] = (int16_t)dv;
			r->dec[k].off = UINT64_MAX;
			return dv;
		}
		if (SR_UNLIKELY(p->mm.nomem) || sr_replay_slot_out(r, p, k, e, sc, key, dv))
			return -2;
		if (dv < 0) {
			p->res.swap_full++;
			/* (T1) Its memcg's tiers were full, another device was not. */
			p->res.tier_full += p->mm.tier_refused;
		}
		return dv;
	}
	dv = sc ? sc->dev[k] : -1;
	if (!sc || SR_UNLIKELY(dv < 0 && r->in_again)) {
		/* No swap-out in the trace: read it from where this policy
		 * would put it now.  Or (K1) the recording kept the slot and
		 * this policy's kernel did not: it wrote the page again when
		 * reclaiming it, which the trace does not have. */
		sr_mm_alloc_req(e, 0, &req);
		dv = sr_mm_choose(&p->mm, &req, e->nr_pages, 0);
		if (dv < 0)
			dv = sr_mm_walk(&p->mm, e->cpu_nid, SR_CLASS_ALL, 0, 0);
		if (sc) {
			p->res.kept_rewritten++;
		} else {
			p->res.unmatched_in++;
			p->res.unmatched_nodev += dv < 0;
		}
		r->dec[k].off = UINT64_MAX;
	}
	return dv;
}


/* Event e of memcg e->memcg (a swap-out: out), its latency lat ns, in a
 * machine's simulation p's figures per memcg: 0, or -1 out of memory. */
static int memcg_count(struct sim *p, const struct sr_event *e, double lat, int out)
{
	struct memcg_stat *c;

	if (SR_UNLIKELY(!p->mcs)) {
		p->mcs = calloc(SR_MEMCG_MAX + 1, sizeof(*p->mcs));
		if (!p->mcs)
			return -1;
	}
	if (!p->mc_hi || e->memcg < p->mc_lo)
		p->mc_lo = e->memcg;
	if (e->memcg > p->mc_hi)
		p->mc_hi = e->memcg;
	c = &p->mcs[e->memcg];
	if (out) {
		c->swapouts++;
		c->pages_out += e->nr_pages;
	} else {
		c->swapins++;
		c->pages_in += e->nr_pages;
		c->lat_sum += lat;
		if (lat > c->lat_max)
			c->lat_max = lat;
	}
	return 0;
}

/* A task's figures (--per-task): its event e (a swap-out: out) began at
 * start, its I/O was done at done and the task could go on at resume. */
static inline __attribute__((always_inline)) void task_count(struct task_stat *t,
							     const struct sr_event *e, double start,
							     double done, double resume,
							     const int out)
{
	double end = done > resume ? done : resume;

	t->busy_ns += resume - start;
	if (out) {
		t->swapouts++;
		t->pages_out += e->nr_pages;
		if (t->out_first < 0)
			t->out_first = start;
		if (end > t->out_last)
			t->out_last = end;
	} else {
		t->swapins++;
		t->pages_in += e->nr_pages;
		if (t->in_first < 0)
			t->in_first = start;
		if (end > t->in_last)
			t->in_last = end;
	}
}

/*
 * (Zs3) An event zswap served (in->zs: stored, a zero page, loaded...):
 * the kernel's path as on its slot's device, then zswap's CPU work, no
 * I/O; a swap-in's readahead still reads its window from the device (the
 * fault's own slot taken out of it: zswap_lru.c), submitted after the
 * load.  *done is when the task may go on.  0, or -1 out of memory.
 */
static int play_zswap(struct sim *p, const struct sr_play *in, double start, double *done)
{
	const struct sr_machine *m = p->hw.m;
	const struct sr_event *e = &in->e;
	double w = sr_cost_zswap(m, in->zs, e->nr_pages), t;

	p->did.zs_cpu_ns += w;
	if (sr_hw_play_cpu(&p->hw, p->memo, e, in->dv, &in->x, start, w, done))
		return -1;
	if (e->op == SR_OP_OUT || !in->nbio || !sr_hw_is_blk(&m->dev[in->dv]))
		return 0;
	p->hw.dev[in->dv].readahead_pages += in->ra_n;
	if (sr_replay_read_ra(p, in->ti, in->x.cpu, in->dv, e, in->bio, in->nbio, *done, &t))
		return -1;
	if (t > *done)
		*done = t;
	return 0;
}

/*
 * (Zs4) The shrink worker's writebacks that swap-out in queued (in->bio:
 * dv << 32 | pages each), from start or when the worker is through what
 * it had: one entry at a time, each decompressed (t_d) on the worker's
 * own CPU, then written alone to its device (a DMA device's request; a
 * memory-like device's copy, B/wr, on the worker).  Nobody waits for them.
 */
static int zs_writeback(struct sim *p, const struct sr_play *in, double start)
{
	const struct sr_machine *m = p->hw.m;
	double t = p->did.zs_worker > start ? p->did.zs_worker : start, cpu_done;
	uint32_t i, j;

	for (i = 0; i < in->nbio; i++) {
		int dv = (int)(in->bio[i] >> 32);
		uint32_t pages = (uint32_t)in->bio[i];

		for (j = 0; j < pages; j++) {
			t += m->zswap.decompress_ns;
			if (!sr_hw_is_blk(&m->dev[dv])) {
				t += 1e9 * SR_PAGE_SIZE / m->dram_wr_local;
				p->hw.dev[dv].writes++;
				p->hw.dev[dv].write_bytes += SR_PAGE_SIZE;
				continue;
			}
			if (sr_hw_submit(&p->hw, dv, -1, in->ti, SR_OP_OUT, UINT64_MAX, 1, 1,
					 SR_SUBMIT_ALONE, -1, t, &cpu_done) < 0)
				return -1;
			t = cpu_done;
		}
	}
	p->did.zs_worker = t;
	return 0;
}

/*
 * Simulation k plays what its policy decided for one event (struct
 * sr_play: replay_one() fills it; with the simulation threads, simq.c
 * carries it there).  Nothing here reads the decisions' state (the mm,
 * the slot map, r->dec...): only the record and the simulation's own.
 * out: the event is a swap-out (in->e.op, known to the caller: each op is
 * compiled apart, without a test of it at each step).
 */
static inline __attribute__((always_inline)) int play(struct sim *p, const struct sr_play *in,
						      const int out)
{
	const struct sr_machine *m = p->hw.m;
	const struct sr_event *e = &in->e;
	const struct sr_hw_ev *x = &in->x;
	long ti = in->ti;
	int dv = in->dv;
	/* A pass of swap-outs this event ends was flushed before it plays,
	 * and a task's first event starts at the clock set for it, its start
	 * noted (order.c). */
	double start = p->clock[ti] + in->gap, resume, done;
	int rc;

	if (dv < 0) {
		p->clock[ti] = start;
		return 0;
	}
	if (out) {
		p->did.swapouts++;
		p->did.pages_out += e->nr_pages;
	} else {
		p->did.swapins++;
		p->did.pages_in += e->nr_pages;
	}
	if (!out && in->ra_hit) {
		/* A minor fault: the page is in the swap cache. */
		done = resume = sr_hw_cpu(&p->hw, x->cpu, x->task, start, m->fault_ns);
		rc = done < 0;
	} else if (SR_UNLIKELY(in->zs) && in->zs != SR_ZS_POOR) {
		rc = play_zswap(p, in, start, &done);
		resume = done;
	} else {
		double s0 = start;

		if (SR_UNLIKELY(in->zs == SR_ZS_POOR)) {
			/* (Zs3) compressed in vain first, then written. */
			double w = sr_cost_zswap(m, in->zs, e->nr_pages);

			s0 = sr_hw_cpu(&p->hw, x->cpu, x->task, start, w);
			p->did.zs_cpu_ns += w;
		}
		rc = s0 < 0 ? -1 : sr_hw_play(&p->hw, p->memo, e, dv, x, s0, &resume, &done);
		if (!rc && in->ra_n)
			p->hw.dev[dv].readahead_pages += in->ra_n;
		if (!rc && sr_hw_is_blk(&m->dev[dv])) {
			/* The block layer: a swap-out's bio into the task's plug
			 * or the queue; a swap-in's reads, waited for (their
			 * DMA's link crossings with their requests, D2). */
			uint64_t off = (e->flags & SR_EV_HAS_OFFSET) ? e->offset : UINT64_MAX;
			double links = done;

			if (out) {
				/* (B2) kswapd's writes, by the trace's reclaim
				 * field, under writeback throttling's limit for it. */
				int kswapd = (e->flags & (SR_EV_HAS_RECLAIM | SR_EV_KSWAPD)) ==
					     (SR_EV_HAS_RECLAIM | SR_EV_KSWAPD);

				rc = sr_replay_plug_out(p, ti, x->cpu, dv, off, e->nr_pages,
							(int)e->page_nid, kswapd, start, resume,
							&resume);
				done = resume > links ? resume : links;
			} else {
				rc = sr_replay_read(p, ti, x->cpu, dv, e, in->bio, in->nbio, resume,
						    &done);
				if (links > done)
					done = links;
				resume = done;
			}
		}
	}
	/* (Zs4) The shrink worker's writebacks this swap-out queued. */
	if (SR_UNLIKELY(out && in->nbio) && !rc)
		rc = zs_writeback(p, in, start);
	if (rc)
		return -1;
	if (!out)
		sr_hist_add(&p->did.swapin_lat, done - start);
	else if (!sr_hw_is_blk(&m->dev[dv]) || (in->zs && in->zs != SR_ZS_POOR))
		p->did.swapout_lat_sum += done - start;
	if (p->ts)
		task_count(&p->ts[ti], e, start, done, resume, out);
	if (SR_UNLIKELY(e->memcg) && p->memcg_figs && memcg_count(p, e, done - start, out))
		return -1;
	p->clock[ti] = resume;
	if (resume > p->did.end)
		p->did.end = resume;
	return 0;
}

/*
 * Simulation p plays a task op (replay_task_op()): the task's clock moves
 * by its compute time (its plug flushed before, as before any event that
 * ends a pass of swap-outs: order.c); a fork starts its child at that
 * time; a wait ends no earlier than its child's exit (the child's clock
 * then).
 */
static int play_task(struct sim *p, const struct sr_play *in)
{
	const struct sr_event *e = &in->e;
	long ti = in->ti;
	double start = p->clock[ti] + in->gap;

	p->clock[ti] = start;
	if (e->op == SR_OP_FORK && in->child >= 0)
		p->clock[in->child] = p->t_start[in->child] = start;
	else if (e->op == SR_OP_WAIT && in->child >= 0 && p->clock[in->child] > start)
		p->clock[ti] = p->clock[in->child];
	if (p->clock[ti] > p->did.end)
		p->did.end = p->clock[ti];
	return 0;
}

int sr_sim_play(struct sim *s, const struct sr_play *in)
{
	if (SR_UNLIKELY(sr_op_is_task(in->e.op)))
		return play_task(s, in);
	return in->e.op == SR_OP_OUT ? play(s, in, 1) : play(s, in, 0);
}

/* (N1) How much later noise replica j has the event at place seq in the
 * trace: uniform on [0, jitter), a hash of the two (the same for every
 * policy's simulation of the replica). */
static inline double jitter_of(const struct sr_replay *r, uint64_t seq, int j)
{
	uint64_t x = SR_NOISE_SEED + seq * 0x9e3779b97f4a7c15ull + (uint64_t)j * 0xd1b54a32d192ed03ull;

	return (double)(sr_splitmix64(&x) >> 11) * 0x1p-53 * r->jitter_ns;
}

/*
 * (N1) Record u as noise replica j has it: the event's time (and its
 * recorded end, end) moved later by its jitter, and the task's compute
 * time before it by the difference of its jitter and its previous
 * event's (at least 0; kswapd's stays 0: task_gap()).  in is the record
 * as the machine has it (u was packed from it).
 */
static void jitter(const struct sr_replay *r, int j, const struct sr_play *in, double end,
		   struct sr_sub *u)
{
	double dj = jitter_of(r, r->ev_seq, j), gap = in->gap;

	u->ts_ns = in->e.ts_ns + (uint64_t)dj;
	u->end = end + dj;
	if (!r->ev_fresh && !((in->e.flags & SR_EV_KSWAPD) && in->e.op == SR_OP_OUT &&
			      (in->e.flags & SR_EV_HAS_RECLAIM))) {
		gap += dj - jitter_of(r, r->ev_prev, j);
		if (gap < 0)
			gap = 0;
	}
	u->r.gap = gap;
}

/*
 * Lead k's simulations are given in: on the machine, then on each of its
 * variants (--uncertainty), the same decisions; on the simulation
 * threads, or here.  Each plays it in its own time (order.c).  0, or what
 * the simulation returned (-1 out of memory, -2 no thread).
 */
static inline int play_lead(struct sr_replay *r, struct sr_play *in, int k)
{
	struct sr_sub u;
	double end;
	int v, rc;

	in->k = k;
	sr_sub_pack(&u, in);
	end = u.end;
	for (v = 0; v <= r->nvar; v++, u.k += r->np) {
		if (SR_UNLIKELY(v > r->nmvar))
			jitter(r, v - r->nmvar, in, end, &u);
		if (r->simq)
			rc = sr_simq_play(r->simq, &u, in->bio);
		else
			rc = sr_sim_submit(sr_replay_sim(r, u.k), &u, in->bio);
		if (rc)
			return rc;
	}
	return 0;
}

/* A policy chose a node or device the machine does not have. */
static __attribute__((noinline)) enum sr_err policy_failed(struct sr_replay *r, struct sr_diag *d)
{
	int k;

	for (k = 0; !r->pol[k].mm.policy_error; k++)
		;
	return sr_diag_set(d, SR_ERR_POLICY, "policy %s (%s) %s", r->pol[k].mm.ops->name,
			   r->pol[k].mm.spec, r->pol[k].mm.policy_msg);
}

/* A simulation could not go on: rc -1 out of memory, -2 a simulation
 * thread could not be started (simq.c). */
static __attribute__((noinline)) enum sr_err sim_failed(struct sr_diag *d, int rc)
{
	return sr_diag_set(d, SR_ERR_NOMEM, rc == -2 ? "cannot start a simulation thread" :
				"out of memory");
}

/*
 * Task t's compute time before event e (fresh: its first), and t's and the
 * trace's times moved on: the recorded gap since its previous event less
 * that event's recorded wait (a swap-in's latency; swap-out writeback is
 * asynchronous; the caller sets prev_busy for e).  A record of kswapd (a
 * swap-out whose reclaim is kswapd) has none: kswapd slept until others'
 * allocations woke it, and its work is the replay's to charge; it starts
 * at max(its clock, the simulation's time) instead (order.c, "kswapd").
 */
static inline double task_gap(struct sr_replay *r, struct task *t, const struct sr_event *e,
			      int fresh)
{
	double gap;

	if (fresh) {
		gap = 0;
	} else {
		/* Saturated: a recorded wait near 2^64 must not wrap into a
		 * gap from nothing. */
		uint64_t busy_end = t->prev_busy > UINT64_MAX - t->prev_ts ? UINT64_MAX :
				    t->prev_ts + t->prev_busy;

		gap = e->ts_ns > busy_end ? (double)(e->ts_ns - busy_end) : 0;
		if (SR_UNLIKELY(e->flags & SR_EV_KSWAPD) && e->op == SR_OP_OUT &&
		    (e->flags & SR_EV_HAS_RECLAIM))
			gap = 0;
	}
	if (!r->any || e->ts_ns < r->first_ts)
		r->first_ts = e->ts_ns;
	r->any = 1;
	t->prev_ts = e->ts_ns > t->prev_ts || fresh ? e->ts_ns : t->prev_ts;
	/* Its place in the trace and its task's previous one's (--noise). */
	r->ev_seq++;
	r->ev_prev = t->prev_seq;
	r->ev_fresh = fresh;
	t->prev_seq = r->ev_seq;
	return gap;
}

/*
 * A task op (fork, exit, wait: docs/MODEL.md, "Tasks"): no policy decides
 * anything, and every simulation moves its tasks' clocks.  A fork creates
 * its child here, timed from its parent (a child seen before its fork
 * keeps its own time: forks_late); a wait names a child seen before (else
 * it is left as recorded: waits_unmatched).
 */
static __attribute__((noinline)) enum sr_err replay_task_op(struct sr_replay *r,
							    const struct sr_event *e,
							    struct sr_diag *d)
{
	struct sr_play in;
	long ti, ci = -1;
	int fresh, cfresh, k, rc;
	double gap;

	ti = sr_replay_task(r, e->pid, &fresh);
	if (ti < 0)
		return sr_diag_set(d, SR_ERR_NOMEM, "out of memory");
	gap = task_gap(r, &r->tasks[ti], e, fresh);
	/* A wait's lat_ns is how long the task waited in the recording (its
	 * ts_ns is the wait's end): the compute before it ends lat_ns
	 * earlier.  Without it, the recorded wait counts as compute, an
	 * upper bound (docs/MODEL.md, "Forks, exits and waits"). */
	if (e->op == SR_OP_WAIT)
		gap = gap > (double)e->lat_ns ? gap - (double)e->lat_ns : 0;
	r->tasks[ti].prev_busy = 0;
	if (e->op == SR_OP_FORK) {
		r->result.forks++;
		/* (The task array may move.) */
		ci = sr_replay_task(r, e->child, &cfresh);
		if (ci < 0)
			return sr_diag_set(d, SR_ERR_NOMEM, "out of memory");
		if (cfresh) {
			struct task *c = &r->tasks[ci];

			c->forked = 1;
			c->prev_ts = e->ts_ns;
			c->prev_busy = 0;
			c->prev_seq = r->ev_seq;
			r->result.tasks_forked++;
		} else {
			r->result.forks_late++;
			ci = -1;
		}
	} else if (e->op == SR_OP_EXIT) {
		r->result.exits++;
		r->tasks[ti].exited = 1;
	} else {
		r->result.waits++;
		ci = sr_replay_task_find(r, e->child);
		if (ci < 0 || !r->tasks[ci].exited) {
			r->result.waits_unmatched++;
			ci = -1;
		}
	}
	memset(&in, 0, sizeof(in));
	in.e = *e;
	in.ti = ti;
	in.child = ci;
	in.gap = gap;
	in.fresh = fresh;
	in.dv = -1;
	for (k = 0; k < r->np; k++)
		if (r->pol[k].lead == k && (rc = play_lead(r, &in, k)) != 0)
			return sim_failed(d, rc);
	return SR_OK;
}

/*
 * Event e, a swap-out (out) or a swap-in: replay_one() compiles each op
 * apart, so that the op is tested once per event (the trace mixes the two
 * at random: a test of it at each step was a branch mispredicted each).
 */
static inline __attribute__((always_inline)) enum sr_err replay_op(struct sr_replay *r,
								   const struct sr_event *e,
								   struct sr_diag *d, const int out)
{
	struct task *t;
	struct slot_cell *sc = NULL;
	struct slot_chunk *chunk = NULL;
	uint64_t key = 0;
	long ti;
	double gap;
	struct sr_play in;
	const int np = r->np;
	/* The per-policy decisions (the replay's own; a local, as the stores
	 * through it may alias the replay's fields). */
	struct sr_decision *const dec = r->dec;
	struct pol *const pol = r->pol;
	int fresh, k, part = 0, bad = 0, nomem, rc;

	ti = sr_replay_task(r, e->pid, &fresh);
	if (ti < 0)
		return sr_diag_set(d, SR_ERR_NOMEM, "out of memory");
	t = &r->tasks[ti];
	gap = task_gap(r, t, e, fresh);
	t->prev_busy = out ? 0 : e->lat_ns;
	t->swapped = 1;

	if (!out) {
		r->ra.ins++;
		r->ra.ins_vaddr += (e->flags & SR_EV_HAS_VADDR) != 0;
		sc = sr_slotmap_find(&r->slots, e, &key, &chunk);
		if (sc && sr_replay_slot_in(r, e, sc, key))
			return sr_diag_set(d, SR_ERR_NOMEM, "out of memory");
	} else {
		/* (K1) A page whose slot was kept has been written since. */
		if (SR_UNLIKELY(r->kept_key.count) && (e->flags & SR_EV_HAS_VADDR))
			sr_replay_kept_release(r, e);
		sc = out_cell(r, e, &key, &nomem);
		if (nomem || (sc && r->ra.vma_map && (e->flags & SR_EV_HAS_VADDR) &&
			      sr_replay_pte_set(&r->ra, e, key, sc)))
			return sr_diag_set(d, SR_ERR_NOMEM, "out of memory");
	}

	/* Every policy decides where the event's slots are. */
	for (k = 0; k < np; k++) {
		struct pol *p = &pol[k];
		const int dv = place(r, p, k, e, sc, key, out);

		dec[k].dv = dv;
		if (SR_UNLIKELY(dv == -2))
			return sr_diag_set(d, SR_ERR_NOMEM, "out of memory");
		dec[k].slots = out ? p->mm.ev_slots : 0;
		/* (L3) A swap-in frees its page's slots (docs/MODEL.md, "Slots"). */
		dec[k].free = (uint16_t)(out || !sc || dv < 0 || dec[k].kept ? 0 :
					 sr_mm_free_ret(&p->mm, e, dv, e->nr_pages));
		if (!out && r->ra.active) {
			if (sr_replay_readahead(&r->ra, p, k, &dec[k], r->ra_bio + (size_t)k * SR_RA_BIO_MAX,
						e, ti, sc, dv))
				return sr_diag_set(d, SR_ERR_NOMEM, "out of memory");
		} else if (r->ra.active) {
			/* Readahead's decision: none (without readahead, the
			 * arrays stay as allocated, zero). */
			r->dec[k].ra_hit = 0;
			r->dec[k].ra_n = 0;
			r->dec[k].ra_lo = 0;
			r->dec[k].ra_nbio = 0;
			r->dec[k].ra_sig = 0;
		}
		if (out && r->ra.life)
			sr_replay_ra_reclaim(&r->ra, p, k, e->nr_pages);
		/* zswap in front of the device (docs/MODEL.md, "zswap"). */
		if (SR_UNLIKELY(r->m->zswap.enabled)) {
			uint64_t *b = r->ra_bio + (size_t)k * SR_RA_BIO_MAX;

			if (!out)
				sr_replay_zswap_in(r, p, k, e, sc, &dec[k], b);
			else if (sr_replay_zswap_out(r, p, k, e, sc, key, &dec[k], b))
				return sr_diag_set(d, SR_ERR_NOMEM, "out of memory");
		}
		/* Its lead (never after it) has decided already. */
		part |= p->lead != k && !sr_replay_same(r, k, p->lead);
		bad |= p->mm.policy_error;
	}
	if (SR_UNLIKELY(bad))
		return policy_failed(r, d);
	/* A policy that decided otherwise than the one it shares a
	 * simulation with gets its own, before this event is played. */
	if (part && (rc = sr_replay_split(r)) != 0)
		return sim_failed(d, rc);
	/* Then each simulation plays the event on the device chosen, on the
	 * event's CPU (a task without one has its own): what all of them are
	 * told alike first, then each its own. */
	in.e = *e;
	in.x.cpu = !(e->flags & SR_EV_HAS_CPU) ? -1 :
		   SR_LIKELY(e->cpu < (uint32_t)r->m->nr_cpus) ? (int)e->cpu :
		   (int)(e->cpu % (uint32_t)r->m->nr_cpus);
	in.x.task = ti;
	/* A huge page is swapped out whole from 4.14 on (one folio on the LRU
	 * lock); before, it is split into its pages after its slots were
	 * allocated (4.13) or before (docs/MODEL.md, L2).  A huge page
	 * swapped in is one folio. */
	in.x.lru = out && !r->kernel.thp_swap_whole ? e->nr_pages : 1;
	/* Before 4.11: the swap-map updates under si->lock and the swap
	 * cache's tree lock, per page (docs/MODEL.md, L1); from 4.11 to
	 * 6.13 a rotational device's swap-map updates still take si->lock,
	 * and from 4.11 to 6.17 the swap cache's lock is its trunk's (L4;
	 * below, per policy). */
	in.x.si_other = r->kernel.device_locks ? 3 : 0;
	in.x.tree = 0;
	in.x.trunk_holds = 0;
	in.x.trunk = SR_HW_TRUNK_NONE;
	in.gap = gap;
	in.ti = ti;
	in.child = -1;
	in.fresh = fresh;
	for (k = 0; k < np; k++) {
		int lines = 0;

		/* The hardware sees where this policy's slots are (a disk's
		 * seeks, the block layer's merges). */
		if (dec[k].off != UINT64_MAX) {
			in.e.offset = dec[k].off;
			in.e.flags = e->flags | SR_EV_HAS_OFFSET;
		} else {
			in.e.offset = e->offset;
			in.e.flags = e->flags;
		}
		/* (L6) Every policy's record follows its own decisions, so
		 * that one that parts from its lead has its own. */
		if (dec[k].dv >= 0 && (in.e.flags & SR_EV_HAS_OFFSET) &&
		    (lines = sr_hw_cluster_lines(&pol[k].clusters, dec[k].dv, in.e.offset, out,
						 sr_hw_holder(in.x.cpu, in.x.task))) < 0)
			return sr_diag_set(d, SR_ERR_NOMEM, "out of memory");
		if (pol[k].lead != k)
			continue;
		in.x.ci_lines = (uint8_t)lines;
		in.x.slots = dec[k].slots;
		in.x.free = dec[k].free;
		if (r->kernel.hdd_si_map)
			in.x.si_other = dec[k].dv >= 0 && r->m->dev[dec[k].dv].cls == SR_DEV_HDD ? 3 : 0;
		if (dec[k].dv >= 0)
			sr_play_cache_locks(&r->kernel, r->m->dev[dec[k].dv].cls, out, e->nr_pages,
					    in.e.offset, in.e.flags, &in.x);
		in.dv = dec[k].dv;
		in.ra_hit = r->dec[k].ra_hit;
		in.ra_n = r->dec[k].ra_n;
		in.nbio = r->dec[k].ra_nbio;
		in.bio = r->ra_bio + (size_t)k * SR_RA_BIO_MAX;
		in.zs = r->dec[k].zs;
		rc = play_lead(r, &in, k);
		if (rc)
			return sim_failed(d, rc);
	}
	if (out) {
		const int b = dec[r->baseline].dv;

		for (k = 0; k < np; k++)
			if (dec[k].dv != b)
				pol[k].res.moved_out++;
	}
	if (!out && sc) {
		sc->left = sc->left > e->nr_pages ? (uint16_t)(sc->left - e->nr_pages) : 0;
		if (!sc->left) {
			/* (K1) A read fault's: the swap cache may keep its
			 * slot. */
			int kept = r->in_kept ? sr_replay_slot_kept(r, e, sc, key) : 0;

			if (kept < 0)
				return sr_diag_set(d, SR_ERR_NOMEM, "out of memory");
			if (r->ra.vma_map)
				sr_replay_pte_clear(&r->ra, key, sc);
			if (!kept) {
				sr_replay_slot_forget(r, sc, key);
				sr_slotmap_forget(&r->slots, key, chunk, sc);
			}
		}
	}
	r->result.events++;
	return SR_OK;
}

/* What the trace recorded of a swap event (replay --check-recorded). */
static inline void note_recorded(struct sr_recorded *c, const struct sr_event *e)
{
	uint64_t end = e->lat_ns > UINT64_MAX - e->ts_ns ? UINT64_MAX : e->ts_ns + e->lat_ns;

	if (!(c->pages_in + c->pages_out) || e->ts_ns < c->first_ns)
		c->first_ns = e->ts_ns;
	if (end > c->end_ns)
		c->end_ns = end;
	if (e->op == SR_OP_OUT) {
		c->pages_out += e->nr_pages;
		if (e->lat_ns) {
			c->swapouts_timed++;
			c->swapout_lat_sum_ns += (double)e->lat_ns;
		}
	} else {
		c->pages_in += e->nr_pages;
		if (e->lat_ns)
			sr_hist_add(&c->swapin_lat, (double)e->lat_ns);
	}
}

static enum sr_err replay_one(struct sr_replay *r, const struct sr_event *e, struct sr_diag *d)
{
	if (SR_UNLIKELY(sr_op_is_task(e->op)))
		return replay_task_op(r, e, d);
	note_recorded(&r->result.recorded, e);
	return e->op == SR_OP_OUT ? replay_op(r, e, d, 1) : replay_op(r, e, d, 0);
}

/* ---- what was mapped ------------------------------------------------------ */

const char *sr_replay_nodes_describe(const struct sr_replay *r, char *buf, size_t n)
{
	char spec[SR_NODE_MAP_MAX * 12];
	size_t len;
	unsigned i;
	int moved = 0;

	if (!r->nmap)
		return NULL;
	len = (size_t)snprintf(buf, n, "--node-map=%s:",
			       sr_node_map_format(&r->node_map, spec, sizeof(spec)));
	for (i = 0; i < SR_MAX_NODES && len < n; i++) {
		if (!(r->nodes_seen[i >> 6] & (1ull << (i & 63))))
			continue;
		if (r->nmap[i] == i)
			len += (size_t)snprintf(buf + len, n - len, "%s the trace's node %u as itself",
						moved ? "," : "", i);
		else
			len += (size_t)snprintf(buf + len, n - len, "%s the trace's node %u as node %u",
						moved ? "," : "", i, r->nmap[i]);
		moved = 1;
	}
	if (!moved && len < n)
		snprintf(buf + len, n - len, " the trace named no node");
	return buf;
}

const char *sr_replay_devices_describe(const struct sr_replay *r, char *buf, size_t n)
{
	int nd = r->m->nr_devices;

	if (r->max_dev < nd)
		return NULL;
	snprintf(buf, n, "the trace names swap devices up to index %" PRId32 ", machine %s has "
		 "%d (0 to %d): a recorded device only pairs a swap-in with its swap-out, and "
		 "each policy chose among the machine's", r->max_dev, r->m->name, nd, nd - 1);
	return buf;
}

/* ---- order ----------------------------------------------------------------- */

/* How far ahead of the event replayed its slot cell is prefetched, and
 * (a swap-in's) the cluster records its cell names. */
#define PREFETCH_AHEAD 12
#define PREFETCH_SLOTS 6

/* What the event PREFETCH_AHEAD events on will read first, towards the
 * cache: its slot cell and, with VMA readahead, its virtual page's entry. */
static inline void prefetch_ahead(struct sr_replay *r, const struct sr_event *e)
{
	sr_slotmap_prefetch(&r->slots, e);
	if (r->ra.vma_map)
		sr_replay_pte_prefetch(&r->ra, e);
}

/* Replay an event in its turn, counting it late if it is. */
static enum sr_err replay_next(struct sr_replay *r, const struct sr_event *e, struct sr_diag *d)
{
	if (SR_UNLIKELY(e->dev > r->max_dev))
		r->max_dev = e->dev;
	if (e->ts_ns < r->last_ts)
		r->result.late_events++;
	else
		r->last_ts = e->ts_ns;
	return replay_one(r, e, d);
}

static enum sr_err pop_one(struct sr_replay *r, struct sr_diag *d)
{
	const struct sr_event *next = sr_window_ahead(&r->win, PREFETCH_AHEAD);
	struct sr_event x;

	if (next)
		prefetch_ahead(r, next);
	next = sr_window_ahead(&r->win, PREFETCH_SLOTS);
	if (next)
		sr_replay_slots_prefetch(r, next);
	sr_window_pop(&r->win, &x);
	return replay_next(r, &x, d);
}

enum sr_err sr_replay_drain(struct sr_replay *r, struct sr_diag *d)
{
	enum sr_err err;

	while (!r->ordered && sr_window_len(&r->win)) {
		err = pop_one(r, d);
		if (err)
			return err;
	}
	return SR_OK;
}

/* Whether event e names nodes the machine has (nn of them), as nmap
 * (--node-map; NULL: none) maps them, and a recorded device the slot map
 * can tell apart (SR_SLOT_DEV_MAX): else event_misfit() says what is
 * wrong.  The recorded device need not be one of the machine's. */
static inline int event_fits(const struct sr_event *e, int nn, const uint16_t *nmap)
{
	unsigned c = e->cpu_nid, p = e->page_nid;

	if (nmap) {
		c = nmap[c];
		p = nmap[p];
	}
	return c < (unsigned)nn && p < (unsigned)nn && e->dev <= SR_SLOT_DEV_MAX;
}

/* Why event e (the nth) does not fit (event_fits()). */
static __attribute__((noinline)) enum sr_err event_misfit(const struct sr_replay *r,
							  const struct sr_event *e, uint64_t nth,
							  struct sr_diag *d)
{
	const struct sr_machine *m = r->m;
	unsigned node = e->cpu_nid, to;

	sr_diag_clear(d);
	if (d)
		d->record = nth;
	if (e->dev > SR_SLOT_DEV_MAX)
		return sr_diag_set(d, SR_ERR_MACHINE, "swap device index %" PRId32 ": a replay tells "
				   "recorded devices apart up to index %d", e->dev, SR_SLOT_DEV_MAX);
	to = r->nmap ? r->nmap[node] : node;
	if (to < (unsigned)m->nr_nodes) {
		node = e->page_nid;
		to = r->nmap ? r->nmap[node] : node;
	}
	if (to != node)
		return sr_diag_set(d, SR_ERR_MACHINE, "the trace's node %u is replayed as node %u "
				   "(--node-map), but machine %s has %d node%s (0 to %d)", node, to,
				   m->name, m->nr_nodes, m->nr_nodes > 1 ? "s" : "", m->nr_nodes - 1);
	return sr_diag_set(d, SR_ERR_MACHINE, "the trace names node %u, but machine %s has %d "
			   "node%s (0 to %d): --node-map=%u:%u replays it as node %u, "
			   "--node-map=fold folds every node onto the machine's", node, m->name,
			   m->nr_nodes, m->nr_nodes > 1 ? "s" : "", m->nr_nodes - 1, node,
			   node % (unsigned)m->nr_nodes, node % (unsigned)m->nr_nodes);
}

enum sr_err sr_replay_check(void *replay, const struct sr_event *e, uint64_t nth,
			    struct sr_diag *diag)
{
	const struct sr_replay *r = replay;

	if (SR_LIKELY(event_fits(e, r->m->nr_nodes, r->nmap)))
		return SR_OK;
	return event_misfit(r, e, nth, diag);
}

/* Count event e fed and check it against the machine's nn nodes (the
 * machine's, held in the caller's locals, as nmap is). */
static inline enum sr_err count_fed(struct sr_replay *r, const struct sr_event *e, int nn,
				    const uint16_t *nmap, struct sr_diag *d)
{
	r->fed++;
	if (SR_LIKELY(event_fits(e, nn, nmap)))
		return SR_OK;
	return event_misfit(r, e, r->fed, d);
}

/* --node-map: event e with its nodes as the machine's, in *x; the
 * recorded nodes it names are noted for the report. */
static inline const struct sr_event *map_nodes(struct sr_replay *r, const struct sr_event *e,
					       struct sr_event *x)
{
	*x = *e;
	r->nodes_seen[e->cpu_nid >> 6] |= 1ull << (e->cpu_nid & 63);
	r->nodes_seen[e->page_nid >> 6] |= 1ull << (e->page_nid & 63);
	x->cpu_nid = r->nmap[e->cpu_nid];
	x->page_nid = r->nmap[e->page_nid];
	return x;
}

/*
 * An ordered batch (the caller's events are in time order: a pipe's
 * sorted batches), the cells of the events ahead prefetched.  check: test each
 * event against the machine's nodes (held in locals: the machine does not
 * change while feeding, and the replay's stores might alias it); 0 when
 * sr_replay_check() has done it already.  With --node-map, each event is
 * replayed with its nodes mapped.
 */
static inline __attribute__((always_inline)) enum sr_err
feed_ordered(struct sr_replay *r, const struct sr_event *evs, size_t n, struct sr_diag *d,
	     const int check)
{
	const int nn = r->m->nr_nodes;
	const uint16_t *const nmap = r->nmap;
	size_t i;
	enum sr_err err;

	for (i = 0; i < n; i++) {
		const struct sr_event *e = &evs[i];
		struct sr_event x;

		if (!check)
			r->fed++;
		else if ((err = count_fed(r, e, nn, nmap, d)))
			return err;
		if (SR_UNLIKELY(nmap != NULL))
			e = map_nodes(r, e, &x);
		if (i + PREFETCH_AHEAD < n)
			prefetch_ahead(r, &evs[i + PREFETCH_AHEAD]);
		if (i + PREFETCH_SLOTS < n)
			sr_replay_slots_prefetch(r, &evs[i + PREFETCH_SLOTS]);
		err = replay_next(r, e, d);
		if (err)
			return err;
	}
	return SR_OK;
}

/* Events in any order: through the reorder window. */
static enum sr_err feed_window(struct sr_replay *r, const struct sr_event *evs, size_t n,
			       struct sr_diag *d)
{
	const int nn = r->m->nr_nodes;
	const uint16_t *const nmap = r->nmap;
	size_t i;
	enum sr_err err;

	for (i = 0; i < n; i++) {
		const struct sr_event *e = &evs[i];
		struct sr_event x;

		err = count_fed(r, e, nn, nmap, d);
		if (err)
			return err;
		if (SR_UNLIKELY(nmap != NULL))
			e = map_nodes(r, e, &x);
		err = sr_window_len(&r->win) == r->win.cap ? pop_one(r, d) : SR_OK;
		if (err)
			return err;
		sr_window_push(&r->win, e);
	}
	return SR_OK;
}

static __attribute__((noinline)) enum sr_err feed_checking(struct sr_replay *r,
							   const struct sr_event *evs, size_t n,
							   struct sr_diag *d)
{
	return feed_ordered(r, evs, n, d, 1);
}

enum sr_err sr_replay_feed(struct sr_replay *r, const struct sr_event *evs, size_t n,
			   struct sr_diag *caller)
{
	struct sr_diag local, *d = caller ? caller : &local;

	return r->ordered ? feed_checking(r, evs, n, d) : feed_window(r, evs, n, d);
}

enum sr_err sr_replay_feed_checked(struct sr_replay *r, const struct sr_event *evs, size_t n,
				   struct sr_diag *caller)
{
	struct sr_diag local, *d = caller ? caller : &local;

	return r->ordered ? feed_ordered(r, evs, n, d, 0) : feed_window(r, evs, n, d);
}
