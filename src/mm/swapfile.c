/* SPDX-License-Identifier: MIT */
/*
 * The model of mm/swapfile.c: the priority lists of swap devices (per node,
 * swap_avail_heads[], from v4.14 "swap: choose swap device according to
 * numa node" to v6.18; one list before and after: every node's list is then
 * the same, src/mm/kernel.c), the walk get_swap_pages() makes of one of
 * them, and the devices' fullness.  Positions of slots on a device are not modelled:
 * fullness is counted.
 *
 * Priorities (_enable_swap_info() and swap_avail_heads in mm/swapfile.c,
 * v4.14 to v6.18): a device swapped on without a priority gets -2, -3, ...
 * in swapon order (least_priority starts at -1), raised to -1 on its own
 * node's list; a given priority (>= 0) is the same on every node.  Before
 * v4.14: -1, -2, ... on the one list; from v6.19 every such device gets -1.  Equal
 * priorities form a group whose members take turns (plist_requeue() after
 * each allocation); a full device is off every list.
 *
 * Which node's list is walked is the policy's to say (policy.c); the
 * kernel's own answer is numa_node_id() of the allocating CPU
 * (policies/reclaimer_nid.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mm/mm.h"

int sr_swap_lists_build(struct sr_swap_lists *lists, const struct sr_machine *m,
			enum sr_prio_rule rule)
{
	int node, i, j, autos = 0;
	int *base = malloc((size_t)m->nr_devices * sizeof(*base));

	if (!base)
		return -1;
	/* Automatic priorities: -1, -2, ... before 4.14; -2, -3, ... (raised
	 * to -1 on the device's own node below) from 4.14; all -1 from 6.19. */
	for (i = 0; i < m->nr_devices; i++)
		base[i] = !m->dev[i].prio_auto ? m->dev[i].prio :
			  rule == SR_PRIO_GLOBAL ? -1 - autos++ :
			  rule == SR_PRIO_NODE_RAISE ? -2 - autos++ : -1;
	for (node = 0; node < m->nr_nodes; node++) {
		struct sr_prio_list *l = &lists->node[node];

		l->n = m->nr_devices;
		l->dev = malloc((size_t)l->n * sizeof(*l->dev));
		l->prio = malloc((size_t)l->n * sizeof(*l->prio));
		if (!l->dev || !l->prio) {
			free(base);
			return -1;
		}
		for (i = 0; i < l->n; i++) {
			int p = base[i];

			if (rule == SR_PRIO_NODE_RAISE && m->dev[i].prio_auto &&
			    m->dev[i].node == node)
				p = -1;
			/* Insert keeping swapon order among equals. */
			for (j = i; j > 0 && l->prio[j - 1] < p; j--) {
				l->prio[j] = l->prio[j - 1];
				l->dev[j] = l->dev[j - 1];
			}
			l->prio[j] = p;
			l->dev[j] = i;
		}
	}
	free(base);
	return 0;
}

void sr_swap_lists_free(struct sr_swap_lists *lists)
{
	int i;

	for (i = 0; i < SR_MACHINE_MAX_NODES; i++) {
		free(lists->node[i].dev);
		free(lists->node[i].prio);
	}
}

/*
 * get_swap_pages()'s walk of node's list: groups of equal priority from
 * the highest; within a group the device after the last one used
 * (plist_requeue); a device without room for nr_pages is skipped, as a
 * full device is off every list.  take: advance the turn.
 */
int sr_mm_walk(struct sr_mm *mm, int node, unsigned mask, uint32_t nr_pages, int take)
{
	const struct sr_machine *m = mm->m;
	const struct sr_prio_list *l = &mm->lists->node[node];
	int g = 0;

	while (g < l->n) {
		int e = g, k, *turn = &mm->rr[node * m->nr_devices + g];

		while (e < l->n && l->prio[e] == l->prio[g])
			e++;
		for (k = 0; k < e - g; k++) {
			int j = g + (*turn + k) % (e - g);
			int d = l->dev[j];

			if (mask && !(mask & SR_CLASS_BIT(m->dev[d].cls)))
				continue;
			if (sr_mm_dev_free(mm, d) < nr_pages)
				continue;
			if (take)
				*turn = (j - g + 1) % (e - g);
			return d;
		}
		g = e;
	}
	return -1;
}

/* The walks a policy may make itself (struct sr_policy_env). */
static int env_peek(const struct sr_policy_env *env, int node, unsigned mask,
		    uint32_t nr_pages)
{
	struct sr_mm *mm = env->core;

	if (node < 0 || node >= mm->m->nr_nodes)
		return -1;
	return sr_mm_walk(mm, node, mask, nr_pages ? nr_pages : 1, 0);
}

static int env_advance(const struct sr_policy_env *env, int node, unsigned mask,
		       uint32_t nr_pages)
{
	struct sr_mm *mm = env->core;

	if (node < 0 || node >= mm->m->nr_nodes)
		return -1;
	/* A look-up that allocates nothing (where to read an unmatched
	 * swap-in from) must not move the turns either. */
	return sr_mm_walk(mm, node, mask, nr_pages ? nr_pages : 1, mm->taking);
}

void sr_mm_alloc_req(const struct sr_event *e, int via_cache, struct sr_alloc_req *req)
{
	req->ts_ns = e->ts_ns;
	req->pid = e->pid;
	req->cpu = (e->flags & SR_EV_HAS_CPU) ? e->cpu : e->pid;
	req->cpu_nid = e->cpu_nid;
	req->page_nid = e->page_nid;
	req->nr_pages = e->nr_pages;
	req->via_cache = via_cache;
}

/* The policy chose what the machine does not have: say so, once. */
static __attribute__((noinline)) void bad_choice(struct sr_mm *mm, const struct sr_alloc_choice *ch)
{
	const struct sr_machine *m = mm->m;

	if (mm->policy_error)
		return;
	mm->policy_error = 1;
	if (ch->node != -1)
		snprintf(mm->policy_msg, sizeof(mm->policy_msg),
			 "chose node %d, but machine %s has %d node%s (0 to %d)", ch->node,
			 m->name, m->nr_nodes, m->nr_nodes > 1 ? "s" : "", m->nr_nodes - 1);
	else
		snprintf(mm->policy_msg, sizeof(mm->policy_msg),
			 "chose device %d, but machine %s has %d device%s (0 to %d)", ch->device,
			 m->name, m->nr_devices, m->nr_devices > 1 ? "s" : "", m->nr_devices - 1);
}

int sr_mm_choose(struct sr_mm *mm, const struct sr_alloc_req *req, uint32_t need, int take)
{
	struct sr_alloc_choice ch = { req->cpu_nid, -1, SR_CLASS_ALL };
	const struct sr_machine *m = mm->m;
	int d;

	mm->taking = take;
	mm->ops->choose(mm->priv, &mm->env, req, &ch);
	if (SR_UNLIKELY(ch.node < -1 || ch.node >= m->nr_nodes ||
			(ch.node == -1 && (ch.device < 0 || ch.device >= m->nr_devices))))
		bad_choice(mm, &ch);
	if (ch.node < 0) {
		if (ch.device >= 0 && ch.device < m->nr_devices &&
		    sr_mm_dev_free(mm, ch.device) >= need)
			return ch.device;
		ch.node = req->cpu_nid; /* full or invalid: as the kernel would */
		ch.class_mask = SR_CLASS_ALL;
	}
	if (ch.node >= m->nr_nodes)
		ch.node = req->cpu_nid;
	d = sr_mm_walk(mm, ch.node, ch.class_mask, need, take);
	if (d < 0 && ch.class_mask)
		d = sr_mm_walk(mm, ch.node, SR_CLASS_ALL, need, take);
	return d;
}

enum sr_err sr_mm_init(struct sr_mm *mm, const struct sr_machine *m,
		       const struct sr_swap_lists *lists, enum sr_alloc_mode alloc,
		       struct sr_diag *d)
{
	int i;

	mm->m = m;
	mm->lists = lists;
	mm->alloc = alloc;
	/* swap_state.c: swapin_readahead_hits starts at 4 (ATOMIC_INIT(4)). */
	mm->ra.hits = 4;
	mm->env.machine = m;
	mm->env.peek = env_peek;
	mm->env.advance = env_advance;
	mm->env.core = mm;
	sr_u64map_init(&mm->cache);
	mm->cache_active = 1;
	mm->rr = calloc((size_t)m->nr_nodes * m->nr_devices, sizeof(*mm->rr));
	mm->used = calloc((size_t)m->nr_devices, sizeof(*mm->used));
	if (!mm->rr || !mm->used)
		return sr_diag_set(d, SR_ERR_NOMEM, "out of memory");
	for (i = 0; i < m->nr_devices; i++)
		mm->free_total += m->dev[i].size_pages;
	return SR_OK;
}

void sr_mm_free(struct sr_mm *mm)
{
	sr_mm_unload_policy(mm);
	free(mm->rr);
	free(mm->used);
	free(mm->cache_vec);
	sr_u64map_free(&mm->cache);
}
