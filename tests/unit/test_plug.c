/* The block plug and its merges (src/block/blk-merge.c): cases worked out
 * by hand. */
#include <string.h>

#include "block/blk-merge.h"
#include "test.h"

static const struct sr_blk_limits lim = { 320, 128 };

static void kernel(struct sr_kernel *k, unsigned major, unsigned minor)
{
	memset(k, 0, sizeof(*k));
	k->major = major;
	k->minor = minor;
}

static void plug_merges(void)
{
	struct sr_blk_req out[4 * SR_PLUG_MAX_REQUESTS];
	struct sr_plug p;
	struct sr_kernel k;
	unsigned n, i;

	kernel(&k, 6, 6);
	sr_plug_init(&p, &k);
	CHECK(p.max_requests == 32 && p.last_only);
	/* Adjacent slots merge (back, then front); a gap does not. */
	CHECK(sr_plug_add(&p, &lim, 0, 100, 1, out) == 0 && p.n == 1);
	CHECK(sr_plug_add(&p, &lim, 0, 101, 1, out) == 0 && p.n == 1 && p.merges == 1);
	CHECK(sr_plug_add(&p, &lim, 0, 99, 1, out) == 0 && p.n == 1 && p.merges == 2);
	CHECK(p.req[0].off == 99 && p.req[0].pages == 3 && p.req[0].bios == 3);
	CHECK(sr_plug_add(&p, &lim, 0, 103, 1, out) == 0 && p.n == 2);
	/* Another device: never merged, and the plug spans two queues. */
	CHECK(sr_plug_add(&p, &lim, 1, 104, 1, out) == 0 && p.n == 3 && p.multiple_queues);
	/* 5.16 on only the last request is tried: 102 continues the first
	 * request, but the last is device 1's. */
	CHECK(sr_plug_add(&p, &lim, 0, 102, 1, out) == 0 && p.n == 4);
	n = sr_plug_flush(&p, out);
	CHECK(n == 4 && p.n == 0 && out[0].pages == 3 && out[3].off == 102);
	/* Up to 5.15 every request is tried: 102 joins the first. */
	kernel(&k, 5, 15);
	sr_plug_init(&p, &k);
	CHECK(p.max_requests == 16 && !p.last_only);
	sr_plug_add(&p, &lim, 0, 99, 3, out);
	sr_plug_add(&p, &lim, 1, 104, 1, out);
	CHECK(sr_plug_add(&p, &lim, 0, 102, 1, out) == 0 && p.n == 2 && p.req[0].pages == 4);
	/* The limit: 320 pages; a request at it takes no more. */
	kernel(&k, 6, 6);
	sr_plug_init(&p, &k);
	sr_plug_add(&p, &lim, 0, 0, 319, out);
	CHECK(sr_plug_add(&p, &lim, 0, 319, 1, out) == 0 && p.n == 1 && p.req[0].pages == 320);
	/* A request of 128 KiB or more is flushed before the next one. */
	n = sr_plug_add(&p, &lim, 0, 1000, 1, out);
	CHECK(n == 1 && out[0].pages == 320 && p.n == 1 && p.req[0].off == 1000);
	/* A 2 MiB folio: split at 320 pages, the first part flushed when the
	 * second is added (it is over 128 KiB). */
	sr_plug_flush(&p, out);
	n = sr_plug_add(&p, &lim, 0, 2048, 512, out);
	CHECK(n == 1 && out[0].off == 2048 && out[0].pages == 320 && p.n == 1 &&
	      p.req[0].off == 2368 && p.req[0].pages == 192);
	/* 32 requests of one page apart: the 33rd flushes them. */
	sr_plug_flush(&p, out);
	for (i = 0; i < 32; i++)
		CHECK(sr_plug_add(&p, &lim, 0, 10 * i, 1, out) == 0);
	n = sr_plug_add(&p, &lim, 0, 10 * 32, 1, out);
	CHECK(n == 32 && p.n == 1);
	/* Segments: 128 bios at most in a request (merging is not bounded by
	 * the flush size, only the next request's addition is); the 129th
	 * starts a request, and the full one is flushed first. */
	sr_plug_flush(&p, out);
	for (i = 0; i < 128; i++)
		sr_plug_add(&p, &lim, 0, i, 1, out);
	CHECK(p.n == 1 && p.req[0].pages == 128 && p.req[0].bios == 128);
	n = sr_plug_add(&p, &lim, 0, 128, 1, out);
	CHECK(n == 1 && out[0].pages == 128 && p.n == 1 && p.req[0].off == 128);
}

void suite_plug(void)
{
	TEST(plug_merges);
}
