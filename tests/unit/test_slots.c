/* The slots of one device (src/mm/swapfile.c, after the kernel's slot
 * allocator by generation): cases worked out by hand. */
#include <string.h>

#include "common/diag.h"
#include "mm/mm.h"
#include "swapreplay/kernel.h"
#include "test.h"

static uint32_t get(struct sr_swap_dev *sd, uint64_t cpu, unsigned order)
{
	uint32_t off = 0;
	int nomem;

	if (sr_swapdev_get(sd, cpu, order, NULL, 1, &off, &nomem))
		return UINT32_MAX;
	return off;
}

/* 6.12 on: the free list interleaves clusters 32 apart; each CPU goes on
 * in its own cluster; the header's cluster is on the nonfull list. */
static void clusters_interleaved(void)
{
	struct sr_swap_dev sd;
	uint32_t i, off;

	/* 64 clusters of 512: 32768 slots. */
	CHECK(sr_swapdev_init(&sd, 64 * 512, 512, SR_SLOTS_ORDERS, 0) == 0);
	/* CPU 0's first cluster is the free list's head, cluster 0's column
	 * starts with cluster 0, which holds the header: not free, so the
	 * head is cluster 32. */
	CHECK(get(&sd, 0, 0) == 32 * 512);
	CHECK(get(&sd, 0, 0) == 32 * 512 + 1);
	/* CPU 1 takes the next free cluster: column 1, cluster 1. */
	CHECK(get(&sd, 1, 0) == 1 * 512);
	/* CPU 0 goes on in its own. */
	CHECK(get(&sd, 0, 0) == 32 * 512 + 2);
	/* A huge folio takes a free cluster whole: 33. */
	CHECK(get(&sd, 2, 9) == 33 * 512);
	CHECK(sd.inuse == 3 + 1 + 512);
	/* Used up, CPU 0's cluster gives way to the next free one (2). */
	for (i = 3; i < 512; i++)
		get(&sd, 0, 0);
	CHECK(get(&sd, 0, 0) == 2 * 512);
	/* Freeing a slot of the full cluster 32 puts it on the nonfull list,
	 * behind cluster 0. */
	sr_swapdev_put(&sd, 32 * 512 + 7, 1);
	CHECK(!sr_swapdev_used(&sd, 32 * 512 + 7) && sr_swapdev_used(&sd, 32 * 512 + 8));
	/* The huge folio's cluster freed goes to the free list's tail: a new
	 * CPU gets the never-used cluster 34 first. */
	sr_swapdev_put(&sd, 33 * 512, 512);
	CHECK(!sr_swapdev_used(&sd, 33 * 512));
	CHECK(get(&sd, 3, 0) == 34 * 512);
	/* Order 1 (mTHP) is aligned: from a fresh cluster 3, slots 0-1, then 2-3. */
	CHECK(get(&sd, 4, 1) == 3 * 512);
	CHECK(get(&sd, 4, 1) == 3 * 512 + 2);
	sr_swapdev_free(&sd);

	/* No free cluster left: order 0 comes from the nonfull list (the
	 * header's cluster first: slot 1), a huge folio fails. */
	CHECK(sr_swapdev_init(&sd, 2 * 512, 512, SR_SLOTS_ORDERS, 0) == 0);
	CHECK(get(&sd, 0, 9) == 512);
	CHECK(get(&sd, 1, 9) == UINT32_MAX);
	off = get(&sd, 1, 0);
	CHECK(off == 1);
	sr_swapdev_free(&sd);
}

/* Before 6.12 (3.12 on): no free cluster, the next free slot from the
 * scan position. */
static void clusters_fallback(void)
{
	struct sr_swap_dev sd;

	CHECK(sr_swapdev_init(&sd, 2 * 256, 256, SR_SLOTS_CLUSTERS, 0) == 0);
	/* 256-slot clusters, 64 columns: cluster 1 is the one free. */
	CHECK(get(&sd, 0, 0) == 256);
	CHECK(get(&sd, 1, 0) == 1); /* no free cluster: scan from slot 1 */
	CHECK(get(&sd, 1, 0) == 2);
	sr_swapdev_put(&sd, 256, 1); /* cluster 1 is free again */
	/* CPU 0's current cluster was freed: it takes it back as the free
	 * list's head. */
	CHECK(get(&sd, 0, 0) == 256);
	/* A device's end inside a cluster: slots past it are never given. */
	sr_swapdev_free(&sd);
	CHECK(sr_swapdev_init(&sd, 600, 512, SR_SLOTS_CLUSTERS, 0) == 0);
	CHECK(get(&sd, 0, 9) == UINT32_MAX); /* the last cluster is partial */
	CHECK(sr_swapdev_used(&sd, 600) && !sr_swapdev_used(&sd, 599));
	sr_swapdev_free(&sd);
}

/* A rotational device before 6.14: slots in order from 1, every 256
 * allocations from the lowest free run of a cluster; no large folios. */
static void scan_rotational(void)
{
	struct sr_swap_dev sd;
	uint32_t i;

	CHECK(sr_swapdev_init(&sd, 8 * 256, 256, SR_SLOTS_SCAN, 0) == 0);
	CHECK(get(&sd, 0, 0) == 1);
	CHECK(get(&sd, 5, 0) == 2); /* one position for all CPUs */
	CHECK(get(&sd, 0, 1) == UINT32_MAX);
	for (i = 3; i < 256; i++)
		get(&sd, 0, 0);
	/* Slots 1-255 given, then 256 ... 257: the 256th allocation since
	 * the search looks again for the lowest free run: 256 on. */
	CHECK(get(&sd, 0, 0) == 256);
	/* Free 10-19: no run of 256 there; the next search finds 512. */
	sr_swapdev_put(&sd, 10, 10);
	for (i = 0; i < 254; i++)
		get(&sd, 0, 0);
	CHECK(get(&sd, 0, 0) == 511);
	CHECK(get(&sd, 0, 0) == 512);
	sr_swapdev_free(&sd);
}

/* (L3) The freeing side of the slots cache, 4.11 to 6.13: a CPU's freed
 * slots wait in its return cache; the free that finds 64 there frees them
 * under the device's si->lock and starts the cache again with its own.
 * Without the cache (or a large folio) each free is its own batch; from
 * 6.14, and before 4.11 (L1's other holds), none. */
static void free_return_batches(void)
{
	static struct sr_machine m;
	struct sr_swap_lists lists;
	struct sr_kernel k;
	struct sr_diag d;
	struct sr_event e;
	struct sr_mm mm;
	uint32_t i, sum0 = 0, first = 0, sum1 = 0;

	memset(&m, 0, sizeof(m));
	memset(&lists, 0, sizeof(lists));
	m.nr_nodes = 1;
	m.nr_cpus = 2;
	m.nr_devices = 2;
	m.dev[0].cls = m.dev[1].cls = SR_DEV_NVME;
	m.dev[0].size_pages = m.dev[1].size_pages = 1 << 20;
	sr_event_init(&e);
	e.flags = SR_EV_HAS_CPU;
	memset(&mm, 0, sizeof(mm));
	CHECK(sr_mm_init(&mm, &m, &lists, SR_ALLOC_SLOTS_CACHE, &d) == SR_OK);
	CHECK(sr_kernel_parse("6.13", &k, &d) == SR_OK);
	CHECK(sr_mm_set_slots(&mm, &k, 0, &d) == SR_OK);
	/* CPU 0, device 0: the 65th free flushes 64, the 129th 64 more. */
	for (i = 1; i <= 130; i++) {
		uint32_t n = sr_mm_free_ret(&mm, &e, 0, 1);

		sum0 += n;
		if (n && !first)
			first = i;
	}
	CHECK(first == 65);
	CHECK(sum0 == 128);
	/* CPU 1 and device 1 have caches of their own. */
	e.cpu = 1;
	for (i = 1; i <= 64; i++)
		sum1 += sr_mm_free_ret(&mm, &e, 0, 1) + sr_mm_free_ret(&mm, &e, 1, 1);
	CHECK(sum1 == 0);
	CHECK(sr_mm_free_ret(&mm, &e, 1, 1) == 64);
	/* A huge page's cluster goes back whole: one update.  An mTHP's 16
	 * slots one by one: CPU 1's cache of device 0 holds 64, so the
	 * first of them flushes it, and 15 are left with it. */
	CHECK(sr_mm_free_ret(&mm, &e, 0, 512) == 1);
	CHECK(sr_mm_free_ret(&mm, &e, 0, 16) == 64);
	for (i = 0, sum1 = 0; i < 48; i++)
		sum1 += sr_mm_free_ret(&mm, &e, 0, 1);
	CHECK(sum1 == 0);
	CHECK(sr_mm_free_ret(&mm, &e, 0, 1) == 64);
	/* The cache off: a batch of one. */
	mm.cache_active = 0;
	CHECK(sr_mm_free_ret(&mm, &e, 0, 1) == 1);
	mm.cache_active = 1;
	/* 6.14 frees under the cluster locks; 4.10 under L1's holds. */
	CHECK(sr_kernel_parse("6.14", &k, &d) == SR_OK && !k.free_si && !k.hdd_si_map);
	CHECK(sr_mm_set_slots(&mm, &k, 0, &d) == SR_OK);
	for (i = 0, sum0 = 0; i < 200; i++)
		sum0 += sr_mm_free_ret(&mm, &e, 0, 1);
	CHECK(sum0 == 0);
	CHECK(sr_kernel_parse("4.10", &k, &d) == SR_OK && !k.free_si && !k.hdd_si_map);
	CHECK(sr_kernel_parse("4.11", &k, &d) == SR_OK && k.free_si && k.hdd_si_map);
	sr_mm_free(&mm);
}

/* (A2) No free cluster left: before 5.8 every CPU scans from the device's
 * one position, so two CPUs' slots interleave; from 5.8 each CPU scans
 * from its own, in a random 64 MB trunk (2^14 slots), goes on slot by slot
 * and, when its next slot is in another trunk, starts a random trunk. */
static void scan_per_cpu(void)
{
	struct sr_swap_dev sd;
	uint32_t i, a[3], b[3], prev = 0, jumps = 0, bad = 0;
	int mode;

	for (mode = 0; mode < 2; mode++) {
		/* 128 clusters of 512, 4 trunks; 127 CPUs take a slot each of
		 * the free clusters (cluster 0 holds the header): none free. */
		CHECK(sr_swapdev_init(&sd, 128 * 512, 512, SR_SLOTS_CLUSTERS, 0) == 0);
		if (mode)
			sr_swapdev_scan_per_cpu(&sd, 1);
		for (i = 0; i < 127; i++)
			CHECK(get(&sd, 1000 + i, 0) != UINT32_MAX);
		for (i = 0; i < 3; i++) {
			a[i] = get(&sd, 0, 0);
			b[i] = get(&sd, 1, 0);
		}
		if (!mode) {
			/* From cluster_next, slot 1, in turn. */
			CHECK(a[0] == 1 && b[0] == 2 && a[1] == 3 && b[1] == 4 && a[2] == 5 &&
			      b[2] == 6);
		} else {
			/* Each CPU's own run, in trunks of their own here. */
			CHECK(a[1] == a[0] + 1 && a[2] == a[1] + 1);
			CHECK(b[1] == b[0] + 1 && b[2] == b[1] + 1);
			CHECK(a[0] >> 14 != b[0] >> 14);
			/* CPU 0 goes on: at each move to another trunk it
			 * starts at a trunk's start (its first slot is a
			 * CPU's above, so the next: +1). */
			prev = a[2];
			for (i = 0; i < 20000; i++) {
				uint32_t o = get(&sd, 0, 0);

				if (o == UINT32_MAX)
					break;
				if (o >> 14 != prev >> 14) {
					jumps++;
					bad += (o & 16383) > 1;
				}
				prev = o;
			}
			CHECK(jumps > 0 && bad == 0);
		}
		sr_swapdev_free(&sd);
	}
}

void suite_slots(void)
{
	TEST(scan_per_cpu);
	TEST(free_return_batches);
	TEST(clusters_interleaved);
	TEST(clusters_fallback);
	TEST(scan_rotational);
}
