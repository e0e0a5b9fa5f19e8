/* The block plug and its merges (src/block/blk-merge.c), a device's queue
 * and its elevator (src/block/blk-mq.c) as src/hw/resources.c serves it,
 * and an hdd's seek curve (src/hw/cost.c): cases worked out by hand. */
#include <math.h>
#include <string.h>

#include "block/blk-merge.h"
#include "hw/cost.h"
#include "hw/resources.h"
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
	CHECK(sr_plug_add(&p, &lim, 0, SR_OP_OUT, 100, 1, 0, out) == 0 && p.n == 1);
	CHECK(sr_plug_add(&p, &lim, 0, SR_OP_OUT, 101, 1, 0, out) == 0 && p.n == 1 && p.merges == 1);
	CHECK(sr_plug_add(&p, &lim, 0, SR_OP_OUT, 99, 1, 0, out) == 0 && p.n == 1 && p.merges == 2);
	CHECK(p.req[0].off == 99 && p.req[0].pages == 3 && p.req[0].bios == 3);
	CHECK(sr_plug_add(&p, &lim, 0, SR_OP_OUT, 103, 1, 0, out) == 0 && p.n == 2);
	/* Another device: never merged, and the plug spans two queues. */
	CHECK(sr_plug_add(&p, &lim, 1, SR_OP_OUT, 104, 1, 0, out) == 0 && p.n == 3 && p.multiple_queues);
	/* 5.16 on only the last request is tried: 102 continues the first
	 * request, but the last is device 1's. */
	CHECK(sr_plug_add(&p, &lim, 0, SR_OP_OUT, 102, 1, 0, out) == 0 && p.n == 4);
	n = sr_plug_flush(&p, out);
	CHECK(n == 4 && p.n == 0 && out[0].pages == 3 && out[3].off == 102);
	/* Up to 5.15 every request is tried: 102 joins the first. */
	kernel(&k, 5, 15);
	sr_plug_init(&p, &k);
	CHECK(p.max_requests == 16 && !p.last_only);
	sr_plug_add(&p, &lim, 0, SR_OP_OUT, 99, 3, 0, out);
	sr_plug_add(&p, &lim, 1, SR_OP_OUT, 104, 1, 0, out);
	CHECK(sr_plug_add(&p, &lim, 0, SR_OP_OUT, 102, 1, 0, out) == 0 && p.n == 2 && p.req[0].pages == 4);
	/* The limit: 320 pages; a request at it takes no more. */
	kernel(&k, 6, 6);
	sr_plug_init(&p, &k);
	sr_plug_add(&p, &lim, 0, SR_OP_OUT, 0, 319, 0, out);
	CHECK(sr_plug_add(&p, &lim, 0, SR_OP_OUT, 319, 1, 0, out) == 0 && p.n == 1 && p.req[0].pages == 320);
	/* A request of 128 KiB or more is flushed before the next one. */
	n = sr_plug_add(&p, &lim, 0, SR_OP_OUT, 1000, 1, 0, out);
	CHECK(n == 1 && out[0].pages == 320 && p.n == 1 && p.req[0].off == 1000);
	/* A 2 MiB folio: split at 320 pages, the first part flushed when the
	 * second is added (it is over 128 KiB). */
	sr_plug_flush(&p, out);
	n = sr_plug_add(&p, &lim, 0, SR_OP_OUT, 2048, 512, 0, out);
	CHECK(n == 1 && out[0].off == 2048 && out[0].pages == 320 && p.n == 1 &&
	      p.req[0].off == 2368 && p.req[0].pages == 192);
	/* 32 requests of one page apart: the 33rd flushes them. */
	sr_plug_flush(&p, out);
	for (i = 0; i < 32; i++)
		CHECK(sr_plug_add(&p, &lim, 0, SR_OP_OUT, 10 * i, 1, 0, out) == 0);
	n = sr_plug_add(&p, &lim, 0, SR_OP_OUT, 10 * 32, 1, 0, out);
	CHECK(n == 32 && p.n == 1);
	/* Segments: 128 bios at most in a request (merging is not bounded by
	 * the flush size, only the next request's addition is); the 129th
	 * starts a request, and the full one is flushed first. */
	sr_plug_flush(&p, out);
	for (i = 0; i < 128; i++)
		sr_plug_add(&p, &lim, 0, SR_OP_OUT, i, 1, 0, out);
	CHECK(p.n == 1 && p.req[0].pages == 128 && p.req[0].bios == 128);
	n = sr_plug_add(&p, &lim, 0, SR_OP_OUT, 128, 1, 0, out);
	CHECK(n == 1 && out[0].pages == 128 && p.n == 1 && p.req[0].off == 128);
}

/*
 * One hdd of 10 us a page (409.6 MB/s; a track of 409.6e6 x 60 / 7200 B =
 * 833 pages), one tag, an elevator, no writeback throttling (before 4.10)
 * and no CPU cost, so that the times are the device's alone.
 */
static int disk(struct sr_machine *m, struct sr_hw *h, double depth, double max_kb)
{
	memset(m, 0, sizeof(*m));
	snprintf(m->name, sizeof(m->name), "disk");
	m->nr_nodes = 1;
	m->nr_cpus = 1;
	m->cpus_per_node[0] = 1;
	m->nr_devices = 1;
	snprintf(m->dev[0].name, sizeof(m->dev[0].name), "d");
	m->dev[0].cls = SR_DEV_HDD;
	m->dev[0].read_bw = m->dev[0].write_bw = 409.6e6;
	m->dev[0].seek_track_ns = 1e6;
	m->dev[0].seek_ns = 5e6;
	m->dev[0].seek_full_ns = 10e6;
	m->dev[0].rpm = 7200;
	m->dev[0].size_pages = 1000000;
	m->dev[0].max_sectors_kb = max_kb;
	m->dev[0].max_segments = 128;
	m->dev[0].queue_depth = depth;
	memset(h, 0, sizeof(*h));
	if (sr_hw_init(h, m))
		return -1;
	{
		struct sr_wbt_limits l = { 128, 128, 128 };

		sr_hw_set_write_limits(h, &l, 0);
	}
	return 0;
}

/* A write of one page at off from task at t: its completion. */
static double wr(struct sr_hw *h, long task, uint64_t off, double t)
{
	double cpu;

	return sr_hw_submit(h, 0, -1, task, SR_OP_OUT, off, 1, 1, 1, -1, t, &cpu);
}

static void queue_merges(void)
{
	struct sr_machine m;
	struct sr_hw h;
	const struct sr_dev_result *d = NULL;
	double f;
	int i;

	/*
	 * Two reclaimers without the plug, their slots interleaved (the scan
	 * allocator's one cursor): A writes 0, 2, 4, 6 at 0, 1, 2, 3 us, B 1,
	 * 3, 5, 7 half a microsecond after each.  A's 0 gets the tag at once
	 * (the head is at 0: no seek) and is done at 10 us; B's 1 waits for
	 * the tag until 10 us, in the elevator, where every later write
	 * back-merges into it: [1, 8), 7 pages, done at 10 + 70 us.
	 */
	CHECK(disk(&m, &h, 1, 1280) == 0);
	d = &h.dev[0];
	CHECK(fabs(wr(&h, 0, 0, 0) - 10e3) < 1e-6);
	CHECK(fabs(wr(&h, 1, 1, 500) - 20e3) < 1e-6);
	for (i = 2; i < 8; i++)
		f = wr(&h, i & 1, (uint64_t)i, 500.0 * i);
	CHECK(fabs(f - 80e3) < 1e-6);
	CHECK(d->writes == 2 && d->bios == 8 && d->queue_merges == 6);
	CHECK(d->req_hist[0] == 1 && d->req_hist[2] == 1); /* 4 KiB and 28 KiB */
	CHECK(d->write_bytes == 8 * 4096);
	/* A write after the tag came (80 us) finds nothing to join: A
	 * continues at 8, sequential, but 10 us after page 8 passed under
	 * the head (at 80 us, as [1, 8) ended): the platter's turn, a
	 * revolution less 10 us, then 10 us (D4; this disk has no cache). */
	CHECK(fabs(wr(&h, 0, 8, 90e3) - (90e3 + 60e9 / 7200)) < 1e-3);
	CHECK(d->writes == 3 && d->queue_merges == 6);
	sr_hw_free(&h);

	/* With the limit at 8 KiB (2 pages) a request holds two: 0 alone,
	 * then [1, 3), [3, 5), [5, 7) and 7, each full one followed by a new
	 * request that waits for the tag in its turn: 5 requests, 3 merges. */
	CHECK(disk(&m, &h, 1, 8) == 0);
	d = &h.dev[0];
	for (i = 0; i < 8; i++)
		wr(&h, i & 1, (uint64_t)i, 500.0 * i);
	CHECK(d->writes == 5 && d->queue_merges == 3);
	CHECK(d->req_hist[0] == 2 && d->req_hist[1] == 3);
	sr_hw_free(&h);

	/* With writeback throttling (4.10 on) the writes wait as sleeping
	 * submitters, not as requests: nothing merges. */
	CHECK(disk(&m, &h, 1, 1280) == 0);
	{
		struct sr_wbt_limits l = { 4, 8, 16 };

		sr_hw_set_write_limits(&h, &l, 1);
	}
	d = &h.dev[0];
	for (i = 0; i < 8; i++)
		wr(&h, i & 1, (uint64_t)i, 500.0 * i);
	CHECK(d->writes == 8 && d->queue_merges == 0);
	sr_hw_free(&h);
}

/* (B2) Writeback throttling on 4.10 - 6.10: a direct reclaimer's swap
 * writes may have 8 in flight with no read for 100 ms, kswapd's 16.  20
 * one-page writes at t = 0, far apart, on a drive that writes one per ms
 * (write IOPS 1000) with room for all in its queue: a direct reclaimer's
 * 9th submitter sleeps until the 1st write is done, at 1 ms; kswapd's 9th
 * goes at once and its 17th sleeps until then. */
static void wbt_kswapd(void)
{
	static struct sr_machine m;
	struct sr_wbt_limits l = { 4, 8, 16 };
	struct sr_hw h;
	double cpu[2][20];
	int k, i;

	for (k = 0; k < 2; k++) {
		memset(&m, 0, sizeof(m));
		m.nr_nodes = 1;
		m.nr_devices = 1;
		snprintf(m.dev[0].name, sizeof(m.dev[0].name), "n");
		m.dev[0].cls = SR_DEV_NVME;
		m.dev[0].read_iops = 1e6;
		m.dev[0].write_iops = 1000;
		m.dev[0].read_bw = m.dev[0].write_bw = 1e12;
		m.dev[0].read_lat_ns = m.dev[0].write_lat_ns = 1000;
		m.dev[0].size_pages = 1 << 24;
		m.dev[0].max_sectors_kb = 128;
		m.dev[0].max_segments = 128;
		m.dev[0].queue_depth = 1024;
		memset(&h, 0, sizeof(h));
		CHECK(sr_hw_init(&h, &m) == 0);
		sr_hw_set_write_limits(&h, &l, 1);
		for (i = 0; i < 20; i++)
			sr_hw_submit(&h, 0, -1, 0, SR_OP_OUT, (uint64_t)i * 100000, 1, 1,
				     SR_SUBMIT_ALONE | (k ? SR_SUBMIT_KSWAPD : 0), -1, 0, &cpu[k][i]);
		sr_hw_free(&h);
	}
	CHECK(cpu[0][7] == 0 && cpu[0][8] > 0.9e6);
	CHECK(cpu[1][15] == 0 && cpu[1][16] > 0.9e6);
}

/* The plug's requests of one task submitted at t, in order. */
static void flush_at(struct sr_hw *h, struct sr_plug *p, double t)
{
	struct sr_blk_req out[SR_PLUG_MAX_REQUESTS];
	unsigned n = sr_plug_flush(p, out), i;
	double cpu;

	for (i = 0; i < n; i++)
		sr_hw_submit(h, 0, -1, 0, out[i].op, out[i].off, out[i].pages, out[i].bios, 0, -1, t,
			     &cpu);
}

static void plugged_reclaimers(void)
{
	struct sr_machine m;
	struct sr_hw h;
	struct sr_plug a, b;
	struct sr_blk_req out[SR_PLUG_MAX_REQUESTS];
	struct sr_kernel k;
	const struct sr_dev_result *d;
	int i;

	memset(&k, 0, sizeof(k));
	k.major = 6;
	k.minor = 6;
	/*
	 * The same interleaved slots, each task's in its plug: A's 0, 2, 4, 6
	 * are not adjacent (4 requests), flushed at 3 us: 0 is served at
	 * once, 2, 4 and 6 wait for the tag.  B's plug, flushed at 3.5 us:
	 * its 1 joins nothing waiting (0 has its tag; a plug's request only
	 * back-merges on insertion, elv_attempt_insert_merge()), 3 joins [2,
	 * 3), 5 joins [4, 5), 7 joins [6, 7): 5 requests, 3 merged in the
	 * queue, none in the plugs.  The scan allocator's interleaving
	 * defeats the plug ("swap: make cluster allocation per-cpu").
	 */
	CHECK(disk(&m, &h, 1, 1280) == 0);
	d = &h.dev[0];
	sr_plug_init(&a, &k);
	sr_plug_init(&b, &k);
	for (i = 0; i < 8; i++)
		CHECK(sr_plug_add(i & 1 ? &b : &a, &h.lim[0], 0, SR_OP_OUT, (uint64_t)i, 1,
				  500.0 * i, out) == 0);
	CHECK(a.n == 4 && b.n == 4 && a.merges == 0 && b.merges == 0);
	flush_at(&h, &a, 3000);
	flush_at(&h, &b, 3500);
	CHECK(d->writes == 5 && d->queue_merges == 3);
	sr_hw_free(&h);

	/* Per-CPU clusters give each task its own run, A 0-3 and B 100-103:
	 * each plug makes one request of 4 pages. */
	CHECK(disk(&m, &h, 1, 1280) == 0);
	d = &h.dev[0];
	sr_plug_init(&a, &k);
	sr_plug_init(&b, &k);
	for (i = 0; i < 8; i++)
		sr_plug_add(i & 1 ? &b : &a, &h.lim[0], 0, SR_OP_OUT,
			    (uint64_t)(i & 1 ? 100 + i / 2 : i / 2), 1, 500.0 * i, out);
	CHECK(a.n == 1 && b.n == 1 && a.req[0].pages == 4 && a.merges == 3);
	flush_at(&h, &a, 3000);
	flush_at(&h, &b, 3500);
	CHECK(d->writes == 2 && d->queue_merges == 0 && d->req_hist[2] == 2);
	sr_hw_free(&h);
}

static void seek_curve(void)
{
	struct sr_device d;
	double x0 = 383.0 / 1962.0, sum = 0, pos, t;
	int i, n = 100000;

	memset(&d, 0, sizeof(d));
	d.cls = SR_DEV_HDD;
	d.seek_track_ns = 0.275e6;
	d.seek_ns = 7.8e6;
	d.seek_full_ns = 13.65e6;
	d.rpm = 7200;
	d.read_bw = d.write_bw = 200e6;
	d.size_pages = 1000000;
	/* The ends of the curve: one track, and the whole stroke. */
	CHECK(fabs(sr_cost_seek(&d, 1e-12) - 0.275e6) < 1e3);
	CHECK(fabs(sr_cost_seek(&d, 1) - 13.65e6) < 1);
	/* Its mean over a random start and end (density 2 (1 - x)) is the
	 * data sheet's average seek. */
	for (i = 0; i < n; i++) {
		double x = (i + 0.5) / n;

		sum += sr_cost_seek(&d, x) * 2 * (1 - x) / n;
	}
	CHECK(fabs(sum - 7.8e6) < 0.002 * 7.8e6);
	/* Continuous where the square root meets the line. */
	CHECK(fabs(sr_cost_seek(&d, x0 - 1e-9) - sr_cost_seek(&d, x0 + 1e-9)) < 10);
	/* Positioning from t = 10.24 ms, when page 500's sector is under
	 * the head (500 pages at 200 MB/s from the platter's phase 0): none
	 * there; the platter's turn over a gap within a track (10 pages:
	 * 204.8 us); beyond a track (200e6 x 60 / 7200 B = 407 pages) a
	 * seek, and the rotational wait from its end (D4, test_disk.c). */
	t = 500 * 4096 / 200e6 * 1e9;
	CHECK(sr_cost_hdd_position(&d, 500, 500, t) == 0);
	CHECK(fabs(sr_cost_hdd_position(&d, 500, 510, t) - 204800) < 1e-3);
	pos = sr_cost_hdd_position(&d, 500, 500 + 250000, t);
	CHECK(fabs(pos - (sr_cost_seek(&d, 0.25) +
			  sr_cost_hdd_rot(&d, 500 + 250000, t + sr_cost_seek(&d, 0.25)))) < 1e-6);
	/* Backwards on the same track, from the head at 510 as it got
	 * there: no seek, a revolution less 10 pages. */
	CHECK(fabs(sr_cost_hdd_position(&d, 510, 500, t + 204800) - (60e9 / 7200 - 204800)) < 1e-3);
}

void suite_plug(void)
{
	TEST(wbt_kswapd);
	TEST(plug_merges);
	TEST(queue_merges);
	TEST(plugged_reclaimers);
	TEST(seek_curve);
}
