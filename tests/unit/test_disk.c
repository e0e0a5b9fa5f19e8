/* An hdd's rotation in time and its cache (src/hw/cost.c, src/hw/resources.c,
 * docs/MODEL.md, D4): cases worked out by hand. */
#include <math.h>
#include <string.h>

#include "hw/cost.h"
#include "hw/resources.h"
#include "test.h"

/*
 * One 7200 rpm hdd of 10 us a page (409.6 MB/s): a revolution of
 * 60e9 / 7200 = 8,333,333.3 ns and a track of 409.6e6 x 60 / 7200 B =
 * 833.3 pages, so that page p's sector is at p x 4096 / 3,413,333.3 =
 * p x 0.0012 of a revolution, and a page passes under the head in 10 us.
 * Seeks 1, 5 and 10 ms; a million pages; one tag, no CPU cost and no
 * throttling, so that the times are the drive's alone.  Its cache as the
 * case says: segs read segments of seg_pages, a write-back cache of
 * cache_pages (0: off), an interface of 1 us a page, the overheads given.
 */
static int disk(struct sr_machine *m, struct sr_hw *h, int segs, double seg_pages,
		double cache_pages, double ovh_miss, double ovh_hit, double ovh_write)
{
	struct sr_wbt_limits l = { 128, 128, 128 };
	struct sr_device *d = &m->dev[0];

	memset(m, 0, sizeof(*m));
	snprintf(m->name, sizeof(m->name), "disk");
	m->nr_nodes = 1;
	m->nr_cpus = 1;
	m->cpus_per_node[0] = 1;
	m->nr_devices = 1;
	snprintf(d->name, sizeof(d->name), "d");
	d->cls = SR_DEV_HDD;
	d->read_bw = d->write_bw = 409.6e6;
	d->seek_track_ns = 1e6;
	d->seek_ns = 5e6;
	d->seek_full_ns = 10e6;
	d->rpm = 7200;
	d->size_pages = 1000000;
	d->max_sectors_kb = 1280;
	d->max_segments = 128;
	d->queue_depth = 1;
	d->read_segments = segs;
	d->segment_bytes = seg_pages * 4096;
	d->write_cache = cache_pages > 0;
	d->cache_bytes = cache_pages * 4096;
	d->iface_bw = 4096e6;
	d->ovh_miss_ns = ovh_miss;
	d->ovh_hit_ns = ovh_hit;
	d->ovh_write_ns = ovh_write;
	memset(h, 0, sizeof(*h));
	if (sr_hw_init(h, m))
		return -1;
	sr_hw_set_write_limits(h, &l, 0);
	return 0;
}

static double io(struct sr_hw *h, int op, uint64_t off, uint32_t pages, double t)
{
	double cpu;

	return sr_hw_submit(h, 0, -1, 0, op, off, pages, 1, 1, -1, t, &cpu);
}

#define NEAR(a, b) (fabs((a) - (b)) < 1e-3)

static void disk_rotation(void)
{
	struct sr_machine m;
	struct sr_hw h;
	const double rev = 60e9 / 7200;

	if (disk(&m, &h, 0, 0, 0, 0, 0, 0))
		return;
	/* Page 0 is under the head at t = 0, and again a revolution later:
	 * 1 ms after, it is 7.33 ms away.  Page 100 is 0.12 revolution on,
	 * 1 ms from t = 0 (100 pages of 10 us); from t = 2 ms, 1 ms too late,
	 * it is a revolution less 1 ms away. */
	CHECK(sr_cost_hdd_rot(&m.dev[0], 0, 0) == 0);
	CHECK(NEAR(sr_cost_hdd_rot(&m.dev[0], 0, 1e6), rev - 1e6));
	CHECK(NEAR(sr_cost_hdd_rot(&m.dev[0], 0, 5 * rev), 0));
	CHECK(NEAR(sr_cost_hdd_rot(&m.dev[0], 100, 0), 1e6));
	CHECK(NEAR(sr_cost_hdd_rot(&m.dev[0], 100, 2e6), rev - 1e6));
	/* A page 1000 on (past the track: a seek of 0.001 of the stroke,
	 * 1 + 7.037 x sqrt(0.001) = 1.2225 ms with these seeks) from t = 0:
	 * the seek ends at 0.1467 revolution, page 1000 is at 0.2 (1000 x
	 * 0.0012, less the whole one): 1.6667 ms from t = 0. */
	CHECK(NEAR(sr_cost_hdd_position(&m.dev[0], 0, 1000, 0), 0.2 * rev));
	/* A late sequential request: 10 pages at 0 from t = 0 (no wait, 100
	 * us); the next 10 as they end (none, 100 us more: done at 200 us);
	 * the next 10 100 us after the head passed their first sector: the
	 * platter's turn, 8.233 ms, then 100 us. */
	CHECK(NEAR(io(&h, SR_OP_IN, 0, 10, 0), 100e3));
	CHECK(NEAR(io(&h, SR_OP_IN, 10, 10, 100e3), 200e3));
	CHECK(NEAR(io(&h, SR_OP_IN, 20, 10, 300e3), 300e3 + rev - 100e3 + 100e3));
	sr_hw_free(&h);
}

static void disk_lookahead(void)
{
	struct sr_machine m;
	struct sr_hw h;

	/* Three segments of 64 pages, a hit's overhead of 50 us. */
	if (disk(&m, &h, 3, 64, 0, 0, 50e3, 0))
		return;
	/* 8 pages at 0 from the media: done at 80 us; the drive reads on
	 * into the segment, pages 8 to 63, until 80 + 560 = 640 us. */
	CHECK(NEAR(io(&h, SR_OP_IN, 0, 8, 0), 80e3));
	/* Pages 8-15 at 100 us: read ahead to page 10 so far, the rest
	 * before long: done when the read-ahead reaches 16, 80 + 80 us
	 * (after 50 + 8 us of overhead and transfer: 158 us). */
	CHECK(NEAR(io(&h, SR_OP_IN, 8, 8, 100e3), 160e3));
	/* Pages 16-23 at 1 ms: in the segment, a hit: 50 us and 8 pages at
	 * 1 us, no positioning. */
	CHECK(NEAR(io(&h, SR_OP_IN, 16, 8, 1e6), 1e6 + 58e3));
	/* Pages 60-67 at 2 ms: 60-63 in the segment, 64-67 from the media,
	 * where the head stopped at 640 us (page 64, at 0.0768 revolution):
	 * from 2 ms (0.24 revolution) it waits 0.8368 revolution, 6.973 ms,
	 * then reads 4 pages, 40 us. */
	CHECK(NEAR(io(&h, SR_OP_IN, 60, 8, 2e6), 2e6 + 0.8368 * (60e9 / 7200) + 40e3));
	CHECK(h.dev[0].reads == 4);
	sr_hw_free(&h);
}

static void disk_write_cache(void)
{
	struct sr_machine m;
	struct sr_hw h;
	double end1;

	/* A write-back cache of 16 pages, a write's overhead of 20 us. */
	if (disk(&m, &h, 0, 0, 16, 0, 0, 20e3))
		return;
	/* 4 pages at 1000 at t = 0: into the cache at 20 us, in by 24 us;
	 * the mechanism is not needed for it. */
	CHECK(NEAR(io(&h, SR_OP_OUT, 1000, 4, 0), 24e3));
	CHECK(h.dev[0].busy_ns == 0);
	/* 8 pages at 500000 at 30 us: the mechanism has destaged the first 4
	 * from 20 us (the seek to page 1000 and its sector's turn: at 0.2
	 * revolution, 1.6667 ms, then 40 us: done at 1.7067 ms); 4 + 8 <= 16:
	 * absorbed at once, in by 30 + 20 + 8 us. */
	CHECK(NEAR(io(&h, SR_OP_OUT, 500000, 8, 30e3), 58e3));
	end1 = 0.2 * (60e9 / 7200) + 40e3;
	CHECK(NEAR(h.hdd[0].last_end, end1));
	/* 8 pages at 800000 at 60 us: 8 queued + 4 being destaged + 8 > 16:
	 * it waits for the destage to end, 1.7067 ms, then 8 us. */
	CHECK(NEAR(io(&h, SR_OP_OUT, 800000, 8, 60e3), end1 + 8e3));
	CHECK(h.hdd[0].queued == 16);
	sr_hw_free(&h);
}

void suite_disk(void)
{
	TEST(disk_rotation);
	TEST(disk_lookahead);
	TEST(disk_write_cache);
}
