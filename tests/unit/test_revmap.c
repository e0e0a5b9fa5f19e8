/* Cluster readahead's reverse map (src/replay/revmap.h): what a put, a
 * take and a look-up give, and the chunks and directory blocks freed as
 * they empty. */
#include <stdlib.h>

#include "replay/revmap.h"
#include "test.h"

static void revmap_basic(void)
{
	struct sr_revmap m = { 0 };

	CHECK(sr_revmap_get(&m, 0, 5) == UINT64_MAX);
	sr_revmap_del(&m, 3, 5); /* nothing there: nothing happens */
	CHECK(sr_revmap_put(&m, 1, 5, 42) == 0);
	CHECK(m.ndev == 2);
	CHECK(sr_revmap_get(&m, 1, 5) == 42);
	CHECK(sr_revmap_get(&m, 0, 5) == UINT64_MAX);
	CHECK(sr_revmap_get(&m, 1, 4) == UINT64_MAX);
	CHECK(sr_revmap_get(&m, 2, 5) == UINT64_MAX);
	/* Key 0 is a key like any other (stored + 1). */
	CHECK(sr_revmap_put(&m, 1, 6, 0) == 0);
	CHECK(sr_revmap_get(&m, 1, 6) == 0);
	/* A put over a slot's page replaces it: one live slot still. */
	CHECK(sr_revmap_put(&m, 1, 5, 7) == 0);
	CHECK(sr_revmap_get(&m, 1, 5) == 7);
	CHECK(sr_revmap_chunk(&m, 1, 5)->live == 2);
	sr_revmap_del(&m, 1, 5);
	CHECK(sr_revmap_get(&m, 1, 5) == UINT64_MAX);
	CHECK(sr_revmap_chunk(&m, 1, 5)->live == 1);
	sr_revmap_del(&m, 1, 5); /* twice: still one */
	CHECK(sr_revmap_chunk(&m, 1, 5)->live == 1);
	/* The last one leaves: the chunk and its block go (the chunk kept
	 * as the spare). */
	sr_revmap_del(&m, 1, 6);
	CHECK(sr_revmap_chunk(&m, 1, 6) == NULL);
	CHECK(m.dev[1].blk[0] == NULL);
	CHECK(m.spare != NULL);
	sr_revmap_free(&m);
	CHECK(m.dev == NULL && m.ndev == 0 && m.spare == NULL);
}

/* Slots at the ends of a device of 2^32 - 1 slots, across chunks and
 * blocks; a look-up beyond 32 bits finds nothing. */
static void revmap_far(void)
{
	struct sr_revmap m = { 0 };
	const uint32_t far = UINT32_MAX - 1;
	uint32_t i;
	int ok = 1;

	CHECK(sr_revmap_put(&m, 0, far, 1ull << 60) == 0);
	CHECK(sr_revmap_get(&m, 0, far) == 1ull << 60);
	CHECK(m.dev[0].n == 1u << 14);
	CHECK(sr_revmap_get(&m, 0, (uint64_t)far + (1ull << 32)) == UINT64_MAX);
	/* A run across chunk and block boundaries, as the allocator fills
	 * clusters: every slot found, then each chunk freed as it empties. */
	for (i = 0; i < 3 * 262144; i++)
		ok &= sr_revmap_put(&m, 0, i, 1000000 + i) == 0;
	CHECK(ok);
	for (i = 0; i < 3 * 262144; i += 4099)
		ok &= sr_revmap_get(&m, 0, i) == 1000000 + i;
	CHECK(ok);
	CHECK(m.dev[0].blk[2] && m.dev[0].blk[2]->live == 512);
	for (i = 0; i < 262144; i++)
		sr_revmap_del(&m, 0, 262144 + i);
	CHECK(m.dev[0].blk[1] == NULL);
	CHECK(sr_revmap_get(&m, 0, 262144 + 77) == UINT64_MAX);
	CHECK(sr_revmap_get(&m, 0, 77) == 1000077);
	CHECK(sr_revmap_get(&m, 0, 2 * 262144 + 77) == 1000000 + 2 * 262144 + 77);
	sr_revmap_free(&m);
}

void suite_revmap(void)
{
	TEST(revmap_basic);
	TEST(revmap_far);
}
