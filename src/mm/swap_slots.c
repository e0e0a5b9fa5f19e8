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
#include <stdlib.h>
#include <string.h>

#include "mm/mm.h"
#include "common/grow.h"

/* The constants (SR_SLOTS_CACHE_*) are in mm.h, with the inline common
 * case.  Where on a device the slots are is swapfile.c's (sr_swapdev_get());
 * this file says which device, and when. */

/* The slots cache of the event's CPU; NULL on ENOMEM. */
static struct sr_slots_cache *cache_slot(struct sr_mm *mm, const struct sr_event *e)
{
	uint64_t key = sr_mm_cpu_key(e), *v;
	int added = 0;

	if (key < 65536) {
		if (key >= mm->cache_n &&
		    sr_grow_zeroed((void **)&mm->cache_vec, &mm->cache_n, (size_t)key + 1,
				   sizeof(*mm->cache_vec), 64))
			return NULL;
		return &mm->cache_vec[key];
	}
	v = sr_u64map_put(&mm->cache, key, &added);
	if (!v)
		return NULL;
	if (added) {
		if (sr_grow_zeroed((void **)&mm->cache_pool, &mm->pool_cap, mm->pool_n + 1,
				   sizeof(*mm->cache_pool), 16)) {
			sr_u64map_del(&mm->cache, key);
			return NULL;
		}
		*v = ++mm->pool_n;
	}
	return &mm->cache_pool[*v - 1];
}

/* Give back what a CPU's cache holds. */
static void cache_drop(struct sr_mm *mm, struct sr_slots_cache *c)
{
	if (!mm->positions && c->cur < c->nr)
		sr_mm_put(mm, (int)c->dev1 - 1, c->nr - c->cur);
	while (mm->positions && c->cur < c->nr)
		sr_mm_free_slots(mm, (int)c->dev1 - 1, c->off[c->cur++], NULL, 1);
	c->cur = c->nr = c->run = 0;
}

/* Hand out the next slot of CPU cache c (c->cur < c->nr). */
static int cache_pop(struct sr_mm *mm, struct sr_slots_cache *c)
{
	if (c->cur >= c->run) {
		/* The run of consecutive slots from cur (counted only: all
		 * of them). */
		uint32_t i = c->cur + 1, first = 0;

		if (!mm->positions) {
			i = c->nr;
		} else {
			const uint32_t *off = c->off;

			first = off[c->cur] - c->cur;
			while (i < c->nr && off[i] == first + i)
				i++;
		}
		c->first = first;
		c->run = i;
	}
	mm->ev_off = mm->positions ? c->first + c->cur : SR_SLOT_NONE;
	c->cur++;
	return (int)c->dev1 - 1;
}

/* Turn the slots cache off (returning the cached slots) or on, as
 * check_cache_active() does. */
static void cache_check(struct sr_mm *mm)
{
	uint64_t cpus = (uint64_t)mm->m->nr_cpus;
	size_t i;

	if (mm->cache_active && mm->free_total < mm->cache_off_below) {
		for (i = 0; i < mm->cache_n; i++)
			cache_drop(mm, &mm->cache_vec[i]);
		for (i = 0; i < mm->pool_n; i++)
			cache_drop(mm, &mm->cache_pool[i]);
		mm->cache_active = 0;
	} else if (!mm->cache_active && mm->free_total > SR_SLOTS_CACHE_ACTIVATE * cpus) {
		mm->cache_active = 1;
	}
}

/*
 * refill_swap_slots_cache(): ask the policy (via_cache = 1) for a device
 * with room, and take up to 64 of its slots at once, as get_swap_pages(64)
 * does from the refilling CPU's current cluster (swapfile.c).  The device,
 * or -1 (c empty) if none has room.
 */
static int refill(struct sr_mm *mm, const struct sr_event *e, struct sr_slots_cache *c)
{
	struct sr_alloc_req req;
	uint64_t n, key = sr_mm_cpu_key(e);
	uint32_t got = 0;
	int d, nomem = 0;

	sr_mm_alloc_req(e, 1, &req);
	d = sr_mm_choose(mm, &req, 1, 1);
	if (d < 0)
		return -1;
	n = sr_mm_dev_free(mm, d);
	if (n > SR_SLOTS_CACHE_SIZE)
		n = SR_SLOTS_CACHE_SIZE;
	if (!mm->positions) {
		got = (uint32_t)n;
	} else {
		uint64_t *pcp = sr_swapdev_pcp(&mm->sdev[d], key, 0);

		if (!c->off)
			c->off = malloc(SR_SLOTS_CACHE_SIZE * sizeof(*c->off));
		if (!pcp || !c->off) {
			mm->nomem = 1;
			return -1;
		}
		got = sr_swapdev_get_pages(&mm->sdev[d], key, pcp, (uint32_t)n, c->off, &nomem);
		mm->nomem |= nomem;
	}
	sr_mm_take(mm, d, got);
	c->dev1 = (uint32_t)d + 1;
	c->cur = c->run = 0;
	c->nr = got;
	mm->cache_refills++;
	/* One si->lock hold for the batch (get_swap_pages(64, ...)). */
	mm->ev_slots = (uint32_t)n;
	return got ? d : -1;
}

/*
 * The slots of e's folio on device d (mm->ev_off): 2^order together from
 * the current cluster *pcp (NULL: the device's own for the CPU), or split
 * into its pages where the folio cannot have them together: a kernel
 * before 4.13 (no THP swap) or, for a folio smaller than a PMD, before
 * 6.10, a rotational device before 6.14, no free cluster of its order (the kernel then splits the folio and swaps its
 * pages out one by one).  0, or -1 out of memory.  The caller has checked
 * that d has room for them.
 */
static int place_folio(struct sr_mm *mm, const struct sr_event *e, int d, uint64_t *pcp)
{
	uint32_t n = e->nr_pages, i;
	uint64_t key = sr_mm_cpu_key(e);
	int nomem = 0;

	if (!mm->positions) {
		mm->ev_off = SR_SLOT_NONE;
		return 0;
	}
	if (!(n & (n - 1)) &&
	    (n == 1 || (n == SR_MAX_NR_PAGES ? mm->thp_swap : mm->mthp_swap)) &&
	    !sr_swapdev_get(&mm->sdev[d], key, (unsigned)__builtin_ctz(n), pcp, 1, &mm->ev_off,
			    &nomem))
		return 0;
	if (nomem || n == 1)
		goto fail;
	for (i = 0; i < n; i++)
		if (sr_swapdev_get(&mm->sdev[d], key, 0, NULL, 1, &mm->split_off[i], &nomem)) {
			while (i--)
				sr_swapdev_put(&mm->sdev[d], mm->split_off[i], 1);
			goto fail;
		}
	mm->ev_off = SR_SLOT_SPLIT;
	mm->splits++;
	return 0;
fail:
	/* The count said d had room: only memory can fail here. */
	mm->nomem = 1;
	return -1;
}

/* 512: SWAPFILE_CLUSTER with CONFIG_THP_SWAP (HPAGE_PMD_NR on x86-64). */
#define CLUSTER_SLOTS SR_MAX_NR_PAGES

/*
 * cluster_alloc() without positions: the CPU's cluster is 512 slots taken
 * at once and handed out in turn; *v is (device + 1) << 48 | slots left.
 * What the old cluster has left is fewer slots than the folio needs (a
 * device's last, partial cluster): it goes back.  The same device choices
 * as with positions while clusters are used whole.
 */
static int cluster_alloc_counted(struct sr_mm *mm, const struct sr_event *e, uint64_t *v)
{
	struct sr_alloc_req req;
	uint32_t nr = e->nr_pages;
	uint64_t n;
	int d;

	mm->ev_off = SR_SLOT_NONE;
	if ((*v & 0xffffffffu) >= nr && sr_mm_fast_allows(mm, e, (int)(*v >> 48) - 1)) {
		*v -= nr;
		return (int)(*v >> 48) - 1;
	}
	if (*v >> 48)
		sr_mm_put(mm, (int)(*v >> 48) - 1, *v & 0xffffffffu);
	*v = 0;
	sr_mm_alloc_req(e, 1, &req);
	d = sr_mm_choose(mm, &req, nr, 1);
	if (d < 0)
		return -1;
	n = sr_mm_dev_free(mm, d);
	if (n > CLUSTER_SLOTS)
		n = CLUSTER_SLOTS;
	sr_mm_take(mm, d, n);
	*v = (uint64_t)(d + 1) << 48 | (n - nr);
	mm->cache_refills++;
	mm->ev_slots = (uint32_t)n;
	return d;
}

/*
 * v6.15 and later (folio_alloc_swap() -> swap_alloc_fast()): the folio's
 * slots come from its CPU's current cluster of its order
 * (percpu_swap_cluster, 1b7e90020eb7), on whichever device that is; when it
 * is used up, swap_alloc_slow() walks the list (the policy says whose) and
 * takes a cluster of the device it finds: devices of equal priority take
 * turns per cluster, not per 64 slots (C6).  A rotational device is never
 * a CPU's current one ("allocations on a HDD device are still globally
 * serialized"): each allocation there walks.  -1: no device had room (the
 * caller then allocates directly).
 */
static int cluster_alloc(struct sr_mm *mm, const struct sr_event *e)
{
	uint32_t nr = e->nr_pages;
	unsigned order = (unsigned)__builtin_ctz(nr);
	uint64_t *v = sr_pcpu_at(&mm->pcpu, sr_mm_cpu_key(e), order), pcp = 0, n;
	struct sr_alloc_req req;
	int d, nomem = 0;

	if (!v) {
		mm->nomem = 1;
		return -1;
	}
	if (nr & (nr - 1))
		return -1;
	if (!mm->positions)
		return cluster_alloc_counted(mm, e, v);
	if (*v >> 48) {
		d = (int)(*v >> 48) - 1;
		pcp = *v & ((1ull << 48) - 1);
		if (sr_mm_dev_free(mm, d) >= nr && sr_mm_fast_allows(mm, e, d) &&
		    !sr_swapdev_get(&mm->sdev[d], 0, order, &pcp, 0, &mm->ev_off, &nomem)) {
			*v = pcp ? (uint64_t)(d + 1) << 48 | pcp : 0;
			sr_mm_take(mm, d, nr);
			return d;
		}
		*v = 0;
	}
	sr_mm_alloc_req(e, 1, &req);
	d = sr_mm_choose(mm, &req, nr, 1);
	if (d < 0)
		return -1;
	n = sr_mm_dev_free(mm, d);
	pcp = 0;
	if (place_folio(mm, e, d, &pcp))
		return -1;
	/* The pointer still holds: nothing was added to pcpu since. */
	if (pcp && mm->ev_off != SR_SLOT_SPLIT && mm->m->dev[d].cls != SR_DEV_HDD)
		*v = (uint64_t)(d + 1) << 48 | pcp;
	sr_mm_take(mm, d, nr);
	mm->cache_refills++;
	/* One si->lock hold for the new cluster. */
	mm->ev_slots = (uint32_t)(n < CLUSTER_SLOTS ? n : CLUSTER_SLOTS);
	return d;
}

/*
 * (L3) free_swap_slot() and swapcache_free_entries(), v4.11 to v6.13: a
 * slot whose last reference goes (a swap-in's, an exit's) is put in its
 * CPU's return cache (slots_ret); the free that finds it holding
 * SWAP_SLOTS_CACHE_SIZE entries first frees them all, holding each
 * device's si->lock once over its own entries (the entries sorted by
 * device).  With the cache off, each free is such a batch of one.  A
 * huge page's cluster goes back whole, its map cleared at once: one
 * update (swapcache_free_cluster(), 4.14 on); a smaller large folio's
 * slots go back one by one (put_swap_folio()).  Here
 * the return cache is kept per device (CPU key and device), so that a
 * batch is one device's: with several devices the kernel's batch of 64
 * holds each device's lock over its share, this one over 64 of one
 * device's as often; the hold time per device is the same.  From v6.14
 * the freeing path takes only the cluster locks (4f79384a25d5): nothing.
 */
uint32_t sr_mm_free_ret(struct sr_mm *mm, const struct sr_event *e, int d, uint32_t n)
{
	uint64_t *v;

	uint32_t out = 0;

	if (!mm->free_si)
		return 0;
	if (n == SR_MAX_NR_PAGES)
		return 1;
	if (mm->alloc != SR_ALLOC_SLOTS_CACHE || !mm->cache_active)
		return n;
	v = sr_u64map_put(&mm->ret, sr_mm_cpu_key(e) << 8 | (uint64_t)(uint8_t)d, NULL);
	if (!v) {
		mm->nomem = 1;
		return 0;
	}
	while (n--) {
		if (*v >= SR_SLOTS_CACHE_SIZE) {
			*v = 0;
			out += SR_SLOTS_CACHE_SIZE;
		}
		++*v;
	}
	return out;
}

int sr_mm_alloc_out_slow(struct sr_mm *mm, const struct sr_event *e)
{
	struct sr_alloc_req req;
	int d;

	mm->ev_slots = 0;
	if (mm->alloc == SR_ALLOC_CLUSTER) {
		d = cluster_alloc(mm, e);
		if (d >= 0 || mm->nomem)
			return d;
	} else if (mm->alloc == SR_ALLOC_SLOTS_CACHE) {
		cache_check(mm);
		if (mm->cache_active && e->nr_pages == 1) {
			struct sr_slots_cache *c = cache_slot(mm, e);

			if (SR_LIKELY(c && c->cur < c->nr))
				return cache_pop(mm, c); /* the common case */
			/* refill_swap_slots_cache(): up to 64 slots of one
			 * device, from the refilling CPU's walk. */
			if (c)
				refill(mm, e, c);
			if (c && c->cur < c->nr)
				return cache_pop(mm, c);
			if (mm->nomem)
				return -1;
		}
	}
	sr_mm_alloc_req(e, 0, &req);
	d = sr_mm_choose(mm, &req, e->nr_pages, 1);
	if (d >= 0) {
		if (place_folio(mm, e, d, NULL))
			return -1;
		sr_mm_take(mm, d, e->nr_pages);
		mm->direct_allocs++;
		/* get_swap_pages(1, ...): si->lock for one slot, or for a
		 * whole cluster taken at once by a huge page. */
		mm->ev_slots = e->nr_pages;
	}
	return d;
}
