/* SPDX-License-Identifier: MIT */
#include <stdlib.h>
#include <string.h>

#include "common/compiler.h"
#include "common/u64map.h"
#include "swapreplay/stat.h"

struct sr_stat {
	struct sr_stat_summary sum;
	int any;
	uint64_t node_events[2][SR_MAX_NODES];
	struct sr_u64map pids;
	struct sr_u64map cpus;
	struct sr_u64map devs; /* key: dev + 1 (so -1 maps to 0), value: count */
	/* By memcg id: made at the first event with one ([0]: events without,
	 * counted apart until then). */
	struct sr_stat_memcg *memcg;
	struct sr_stat_memcg no_memcg;
	size_t nmemcg;         /* ids with an event (not 0) */
};

/* Count e in its memcg; -1 out of memory. */
static int add_memcg(struct sr_stat *s, const struct sr_event *e)
{
	struct sr_stat_memcg *c;

	if (!e->memcg) {
		c = s->memcg ? &s->memcg[0] : &s->no_memcg;
	} else {
		if (SR_UNLIKELY(!s->memcg)) {
			s->memcg = calloc(SR_MEMCG_MAX + 1, sizeof(*s->memcg));
			if (!s->memcg)
				return -1;
			s->memcg[0] = s->no_memcg;
		}
		c = &s->memcg[e->memcg];
		if (!c->events[0] && !c->events[1])
			s->nmemcg++;
	}
	c->events[e->op]++;
	c->pages[e->op] += e->nr_pages;
	return 0;
}

struct sr_stat *sr_stat_new(void)
{
	struct sr_stat *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	sr_u64map_init(&s->pids);
	sr_u64map_init(&s->cpus);
	sr_u64map_init(&s->devs);
	return s;
}

void sr_stat_free(struct sr_stat *s)
{
	if (!s)
		return;
	sr_u64map_free(&s->pids);
	sr_u64map_free(&s->cpus);
	sr_u64map_free(&s->devs);
	free(s->memcg);
	free(s);
}

enum sr_err sr_stat_add(struct sr_stat *s, const struct sr_event *evs, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		const struct sr_event *e = &evs[i];
		struct sr_stat_summary *m = &s->sum;
		uint64_t *c;

		/* A task op is counted apart, and in nothing else. */
		if (SR_UNLIKELY(e->op > SR_OP_IN)) {
			if (e->op < SR_OP_COUNT)
				m->task_ops[e->op - SR_OP_FORK]++;
			continue;
		}
		m->events[e->op]++;
		m->pages[e->op] += e->nr_pages;
		if (e->nr_pages > 1)
			m->huge_events[e->op]++;
		if (SR_UNLIKELY(e->flags & (SR_EV_HAS_RECLAIM | SR_EV_HAS_FAULT))) {
			/* Only a swap-out has a reclaim, a swap-in a fault. */
			if (e->flags & SR_EV_HAS_RECLAIM)
				m->out_reclaim[!(e->flags & SR_EV_KSWAPD)]++;
			else
				m->in_fault[!(e->flags & SR_EV_WRITE_FAULT)]++;
		}
		if (!s->any || e->ts_ns < m->ts_min)
			m->ts_min = e->ts_ns;
		if (!s->any || e->ts_ns > m->ts_max)
			m->ts_max = e->ts_ns;
		s->any = 1;
		if (e->lat_ns) {
			m->lat_known++;
			m->lat_sum_ns = m->lat_sum_ns + e->lat_ns < m->lat_sum_ns
						? UINT64_MAX : m->lat_sum_ns + e->lat_ns;
		}
		if (add_memcg(s, e))
			return SR_ERR_NOMEM;
		s->node_events[0][e->cpu_nid]++;
		s->node_events[1][e->page_nid]++;
		if (!sr_u64map_put(&s->pids, e->pid, NULL))
			return SR_ERR_NOMEM;
		if ((e->flags & SR_EV_HAS_CPU) && !sr_u64map_put(&s->cpus, e->cpu, NULL))
			return SR_ERR_NOMEM;
		c = sr_u64map_put(&s->devs, (uint64_t)((int64_t)e->dev + 1), NULL);
		if (!c)
			return SR_ERR_NOMEM;
		(*c)++;
	}
	return SR_OK;
}

void sr_stat_summary(const struct sr_stat *s, struct sr_stat_summary *out)
{
	*out = s->sum;
	out->tasks = s->pids.count;
	out->cpus = s->cpus.count;
}

uint64_t sr_stat_node_events(const struct sr_stat *s, int which, unsigned node)
{
	if (which < 0 || which > 1 || node >= SR_MAX_NODES)
		return 0;
	return s->node_events[which][node];
}

static int cmp_dev(const void *a, const void *b)
{
	const uint64_t *x = a, *y = b;

	return (x[0] > y[0]) - (x[0] < y[0]);
}

size_t sr_stat_devices(const struct sr_stat *s, int32_t *devs, uint64_t *counts,
		       size_t cap)
{
	size_t i, k = 0, total = s->devs.count;
	uint64_t *pairs;

	if (!total || !cap)
		return total;
	pairs = malloc(total * 2 * sizeof(*pairs));
	if (!pairs)
		return 0; /* nothing filled: report none rather than garbage */
	for (i = 0; i < s->devs.cap; i++) {
		if (s->devs.ent[i].key == SR_U64MAP_EMPTY)
			continue;
		pairs[2 * k] = s->devs.ent[i].key;
		pairs[2 * k + 1] = s->devs.ent[i].val;
		k++;
	}
	qsort(pairs, k, 2 * sizeof(*pairs), cmp_dev);
	for (i = 0; i < k && i < cap; i++) {
		devs[i] = (int32_t)((int64_t)pairs[2 * i] - 1);
		counts[i] = pairs[2 * i + 1];
	}
	free(pairs);
	return total;
}

size_t sr_stat_memcgs(const struct sr_stat *s, struct sr_stat_memcg *out, size_t cap)
{
	size_t k = 0, total;
	unsigned id;

	if (!s->memcg)
		return 0;
	total = s->nmemcg + (s->memcg[0].events[0] + s->memcg[0].events[1] != 0);
	for (id = 0; id <= SR_MEMCG_MAX && k < cap; id++) {
		const struct sr_stat_memcg *c = &s->memcg[id];

		if (!c->events[0] && !c->events[1])
			continue;
		out[k] = *c;
		out[k++].id = id;
	}
	return total;
}
