/* SPDX-License-Identifier: MIT */
/*
 * The model of mm/swap_slots.c (v4.11, Tim Chen's "mm/swap: Regular page
 * swap optimizations", to v6.14; removed in v6.15 by "mm, swap: remove swap
 * slot cache"): order-0 swap slots come from a per-CPU cache of up to
 * SWAP_SLOTS_CACHE_SIZE slots, refilled with one allocation from the list
 * of the refilling CPU's node; huge pages, and every page while the cache
 * is off, allocate directly.  folio_alloc_swap() (get_swap_page() before
 * v5.19) is here, as it is in the kernel of those versions; so are the
 * per-CPU clusters that replaced the cache in v6.15 (cluster_alloc()), and
 * direct allocation for every slot (before v4.11, or --slots-cache=off).
 */
#include <string.h>

#include "mm/mm.h"

/* The constants (SR_SLOTS_CACHE_*) are in mm.h, with the inline common
 * case. */

/* The slots cache of the event's CPU; NULL on ENOMEM. */
static uint64_t *cache_slot(struct sr_mm *mm, const struct sr_event *e)
{
	uint64_t key = sr_mm_cpu_key(e);

	if (key < 65536) {
		if (key >= mm->cache_n &&
		    sr_grow_zeroed((void **)&mm->cache_vec, &mm->cache_n, (size_t)key + 1,
				   sizeof(*mm->cache_vec), 64))
			return NULL;
		return &mm->cache_vec[key];
	}
	return sr_u64map_put(&mm->cache, key, NULL);
}

/* Turn the slots cache off (returning the cached slots) or on, as
 * check_cache_active() does. */
static void cache_check(struct sr_mm *mm)
{
	uint64_t cpus = (uint64_t)mm->m->nr_cpus;
	size_t i;

	if (mm->cache_active && mm->free_total < SR_SLOTS_CACHE_DEACTIVATE * cpus) {
		for (i = 0; i < mm->cache.cap + mm->cache_n; i++) {
			uint64_t *v;

			if (i < mm->cache_n) {
				v = &mm->cache_vec[i];
			} else {
				if (mm->cache.ent[i - mm->cache_n].key == SR_U64MAP_EMPTY)
					continue;
				v = &mm->cache.ent[i - mm->cache_n].val;
			}
			if (*v >> 32)
				sr_mm_put(mm, (int)(*v >> 32) - 1, *v & 0xffffffffu);
			*v = 0;
		}
		mm->cache_active = 0;
	} else if (!mm->cache_active && mm->free_total > SR_SLOTS_CACHE_ACTIVATE * cpus) {
		mm->cache_active = 1;
	}
}

/*
 * Give the CPU's batch *v a new device: ask the policy (via_cache = 1)
 * for one with room for need slots, and take up to batch of its slots
 * at once.  The device, or -1 (*v unchanged) if none has room.
 */
static int refill(struct sr_mm *mm, const struct sr_event *e, uint64_t *v, uint32_t need,
		  uint64_t batch)
{
	struct sr_alloc_req req;
	uint64_t n;
	int d;

	sr_mm_alloc_req(e, 1, &req);
	d = sr_mm_choose(mm, &req, need, 1);
	if (d < 0)
		return -1;
	n = sr_mm_dev_free(mm, d);
	if (n > batch)
		n = batch;
	sr_mm_take(mm, d, n);
	*v = ((uint64_t)(d + 1) << 32) | n;
	mm->cache_refills++;
	/* One si->lock hold for the batch (get_swap_pages(64, ...) up to
	 * 6.14; a new cluster from the device's lists from 6.15). */
	mm->ev_slots = (uint32_t)n;
	return d;
}

/* 512: SWAPFILE_CLUSTER with CONFIG_THP_SWAP (HPAGE_PMD_NR on x86-64). */
#define CLUSTER_SLOTS SR_MAX_NR_PAGES

/* The current cluster of e's CPU for e's folio order; NULL on ENOMEM. */
static uint64_t *cluster_slot(struct sr_mm *mm, const struct sr_event *e)
{
	int order = __builtin_ctz(e->nr_pages);

	if (order == 0)
		return cache_slot(mm, e);
	/* Orders above 0 by (CPU, order), apart from the order-0 keys. */
	return sr_u64map_put(&mm->cache, (1ull << 62) | sr_mm_cpu_key(e) << 4 | (uint64_t)order,
			     NULL);
}

/*
 * v6.15 and later (folio_alloc_swap() -> swap_alloc_fast()): the folio's
 * slots come from its CPU's current cluster of its order
 * (percpu_swap_cluster, 1b7e90020eb7); when that is used up,
 * swap_alloc_slow() walks the list (the policy says whose) for a new
 * cluster of the device it finds: devices of equal priority take turns
 * per cluster, not per 64 slots (C6).  The cluster is taken whole, as the
 * slots cache took its 64, and its slots are handed out in turn.  -1: no
 * device had room (the caller then allocates directly).
 */
static int cluster_alloc(struct sr_mm *mm, const struct sr_event *e)
{
	uint64_t *v = cluster_slot(mm, e);
	int d;

	if (!v)
		return -1;
	if ((*v & 0xffffffffu) >= e->nr_pages) {
		*v -= e->nr_pages;
		return (int)(*v >> 32) - 1;
	}
	/* What the old cluster has left is fewer slots than the folio needs
	 * (a device's last, partial cluster): it goes back. */
	if (*v >> 32)
		sr_mm_put(mm, (int)(*v >> 32) - 1, *v & 0xffffffffu);
	*v = 0;
	/* The walk found a device with room for the folio, so the cluster
	 * taken holds it. */
	d = refill(mm, e, v, e->nr_pages, CLUSTER_SLOTS);
	if (d >= 0)
		*v -= e->nr_pages;
	return d;
}

int sr_mm_alloc_out_slow(struct sr_mm *mm, const struct sr_event *e)
{
	struct sr_alloc_req req;
	int d;

	mm->ev_slots = 0;
	if (mm->alloc == SR_ALLOC_CLUSTER) {
		d = cluster_alloc(mm, e);
		if (d >= 0)
			return d;
	} else if (mm->alloc == SR_ALLOC_SLOTS_CACHE) {
		cache_check(mm);
		if (mm->cache_active && e->nr_pages == 1) {
			uint64_t *v = cache_slot(mm, e);

			if (SR_LIKELY(v && (*v & 0xffffffffu))) {
				/* The common case: a slot from the CPU's cache. */
				(*v)--;
				return (int)(*v >> 32) - 1;
			}
			/* refill_swap_slots_cache(): up to 64 slots of one
			 * device, from the refilling CPU's walk. */
			if (v)
				refill(mm, e, v, 1, SR_SLOTS_CACHE_SIZE);
			if (v && (*v & 0xffffffffu)) {
				(*v)--;
				return (int)(*v >> 32) - 1;
			}
		}
	}
	sr_mm_alloc_req(e, 0, &req);
	d = sr_mm_choose(mm, &req, e->nr_pages, 1);
	if (d >= 0) {
		sr_mm_take(mm, d, e->nr_pages);
		mm->direct_allocs++;
		/* get_swap_pages(1, ...): si->lock for one slot, or for a
		 * whole cluster taken at once by a huge page. */
		mm->ev_slots = e->nr_pages;
	}
	return d;
}
