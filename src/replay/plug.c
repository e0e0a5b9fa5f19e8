/* SPDX-License-Identifier: MIT */
/*
 * The block layer as each simulation's tasks go through it (docs/MODEL.md,
 * "The block layer"): a task's plug, which holds the swap writes of one
 * reclaim pass (src/block/blk-merge.c merges them), flushed into the
 * devices' queues (src/hw/resources.c, sr_hw_submit()); and a swap-in's
 * reads, the fault's and readahead's, through a plug of their own.
 *
 * A reclaim pass: the plug spans shrink_lruvec() (blk_start_plug() and
 * blk_finish_plug() around its loop, 6.12 mm/vmscan.c:5736-5806; "vmscan:
 * add block plug for page reclaim", Shaohua Li, 3da367c3e5fc, 3.2), and
 * direct reclaim asks it for SWAP_CLUSTER_MAX = 32 pages
 * (try_to_free_pages(): sc.nr_to_reclaim; include/linux/swap.h).  In the
 * trace a task's pass is its consecutive swap-outs: the plug is flushed
 * when they reach SWAP_CLUSTER_MAX pages, when the task's next event is a
 * swap-in (it sleeps on I/O: sched_submit_work() flushes the plug), or
 * when the task's next swap-out comes later than a whole pass of reclaim
 * work could take, SWAP_CLUSTER_MAX x (reclaim_ns + reclaim_page_ns), and
 * at the end of the trace.
 */
#include <stdlib.h>
#include <string.h>

#include "replay/replay_impl.h"

struct task_plug {
	struct sr_plug plug;
	uint32_t pass;   /* pages swapped out in this pass */
	int cpu;         /* the CPU of its last swap-out (-1: the task's own) */
	struct task_plug *next; /* on the simulation's list of spare plugs */
};

/* A task holds a plug only while writes are in it: a flushed one goes to
 * the simulation's spares, so that memory follows the tasks in a pass at
 * once, not all the tasks of the trace. */
static struct task_plug *plug_get(struct sim *p)
{
	struct task_plug *tp = p->plug_spare;

	if (tp)
		p->plug_spare = tp->next;
	else if (!(tp = malloc(sizeof(*tp))))
		return NULL;
	sr_plug_init(&tp->plug, p->kernel);
	tp->pass = 0;
	tp->cpu = -1;
	tp->next = NULL;
	return tp;
}

static void plug_put(struct sim *p, long ti)
{
	struct task_plug *tp = p->plug[ti];

	p->plug[ti] = NULL;
	tp->next = p->plug_spare;
	p->plug_spare = tp;
}

/* How long a pass of reclaim work takes at most (the gap rule above). */
static double pass_gap_ns(const struct sr_machine *m)
{
	return SR_SWAP_CLUSTER_MAX * (m->reclaim_ns + m->reclaim_page_ns);
}

int sr_replay_plug_flush(struct sim *p, long ti, double t, double *resume)
{
	struct task_plug *tp = p->plug ? p->plug[ti] : NULL;
	struct sr_blk_req out[SR_PLUG_MAX_REQUESTS];
	unsigned n;
	int cpu;

	*resume = t;
	if (!tp)
		return 0;
	cpu = tp->cpu;
	n = sr_plug_flush(&tp->plug, out);
	plug_put(p, ti);
	return sr_replay_submit_writes(p, ti, cpu, out, n, 0, t, resume);
}

int sr_replay_plug_before(struct sim *p, long ti, const struct sr_event *e,
			  double start)
{
	struct task_plug *tp = p->plug ? p->plug[ti] : NULL;
	double resume, at = p->clock[ti];

	if (!tp)
		return 0;
	if (e->op == SR_OP_OUT && start - at <= pass_gap_ns(p->hw.m))
		return 0;
	if (sr_replay_plug_flush(p, ti, at, &resume))
		return -1;
	/* The task was held back by the flush: its compute time follows. */
	if (resume > at)
		p->clock[ti] = resume;
	return 0;
}

int sr_replay_plug_out_plugged(struct sim *p, long ti, int cpu, int dv, uint64_t off,
			       uint32_t pages, int node, int kswapd, double start, double t,
			       double *resume)
{
	struct task_plug *tp;
	struct sr_blk_req out[4 * SR_PLUG_MAX_REQUESTS];
	unsigned n;

	*resume = t;
	if (!p->plug[ti] && !(p->plug[ti] = plug_get(p)))
		return -1;
	tp = p->plug[ti];
	tp->cpu = cpu;
	tp->plug.node = node;
	tp->plug.kswapd = kswapd;
	n = sr_plug_add(&tp->plug, &p->hw.lim[dv], dv, SR_OP_OUT, off, pages, start, out);
	if (n && sr_replay_submit_writes(p, ti, cpu, out, n, 0, t, resume))
		return -1;
	/* (The plug holds this bio now: it is never empty here.) */
	tp->pass += pages;
	if (tp->pass >= SR_SWAP_CLUSTER_MAX) {
		double r2;

		if (sr_replay_plug_flush(p, ti, *resume, &r2))
			return -1;
		*resume = r2;
	}
	return 0;
}

int sr_replay_read_ra(struct sim *p, long ti, int cpu, int dv, const struct sr_event *e,
		      const uint64_t *bio, unsigned nb, double t, double *done)
{
	struct sr_plug plug;
	struct sr_blk_req out[SR_RA_BIO_MAX + SR_PLUG_MAX_REQUESTS], *q;
	uint64_t off = (e->flags & SR_EV_HAS_OFFSET) ? e->offset : UINT64_MAX;
	unsigned n = 0, i;
	double cpu_done, fin;

	*done = t;
	/* Readahead: the window's bios in the kernel's order (the fault's
	 * among them) under one plug, its requests then submitted; the
	 * fault waits for the request that holds its page. */
	sr_plug_init(&plug, p->kernel);
	/* (Pages read ahead are taken to be on the fault's page's node.) */
	plug.node = (int)e->page_nid;
	for (i = 0; i < nb; i++)
		n += sr_plug_add(&plug, &p->hw.lim[dv], dv, SR_OP_IN, bio[i], 1, t, out + n);
	n += sr_plug_flush(&plug, out + n);
	for (i = 0, q = out; i < n; i++, q++) {
		fin = sr_hw_submit(&p->hw, dv, cpu, ti, SR_OP_IN, q->off, q->pages, q->bios, 0,
				   q->node, t, &cpu_done);
		if (fin < 0)
			return -1;
		t = cpu_done;
		if (off >= q->off && off < q->off + q->pages)
			*done = fin > *done ? fin : *done;
	}
	if (t > *done)
		*done = t;
	return 0;
}

int sr_replay_plugs_grow(struct sim *p, size_t old_cap, size_t cap)
{
	struct task_plug **np = realloc(p->plug, cap * sizeof(*np));

	if (!np)
		return -1;
	memset(np + old_cap, 0, (cap - old_cap) * sizeof(*np));
	p->plug = np;
	return 0;
}

int sr_replay_plugs_copy(struct sim *dst, const struct sim *src, size_t ntasks)
{
	size_t i;

	for (i = 0; i < ntasks; i++) {
		if (!src->plug[i]) {
			free(dst->plug[i]);
			dst->plug[i] = NULL;
			continue;
		}
		if (!dst->plug[i] && !(dst->plug[i] = malloc(sizeof(*dst->plug[i]))))
			return -1;
		*dst->plug[i] = *src->plug[i];
		dst->plug[i]->next = NULL;
	}
	return 0;
}

int sr_replay_plugs_finish(struct sim *p, size_t ntasks)
{
	size_t i;
	double resume;

	for (i = 0; p->plug && i < ntasks; i++) {
		if (!p->plug[i])
			continue;
		if (sr_replay_plug_flush(p, (long)i, p->clock[i], &resume))
			return -1;
		p->clock[i] = resume;
		if (resume > p->did.end)
			p->did.end = resume;
	}
	return 0;
}

void sr_replay_plugs_free(struct sim *p, size_t ntasks)
{
	size_t i;

	for (i = 0; p->plug && i < ntasks; i++)
		free(p->plug[i]);
	free(p->plug);
	p->plug = NULL;
	while (p->plug_spare) {
		struct task_plug *tp = p->plug_spare;

		p->plug_spare = tp->next;
		free(tp);
	}
}
