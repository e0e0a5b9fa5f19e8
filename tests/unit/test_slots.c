/* The slots of one device (src/mm/swapfile.c, after the kernel's slot
 * allocator by generation): cases worked out by hand. */
#include <string.h>

#include "mm/mm.h"
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

void suite_slots(void)
{
	TEST(clusters_interleaved);
	TEST(clusters_fallback);
	TEST(scan_rotational);
}
