/* The resource calendars (src/hw/calendar.h) and a flash device's reads
 * under write load (src/hw/resources.h, docs/MODEL.md D3). */
#include <math.h>
#include <string.h>

#include "hw/calendar.h"
#include "hw/resources.h"
#include "replay/replay_impl.h"
#include "swapreplay/machine.h"
#include "test.h"

static void calendar_queues(void)
{
	struct cal c;

	memset(&c, 0, sizeof(c));
	CHECK(cal_init(&c) == 0);
	/* Two requests of 6 us at 0: the second waits for the first. */
	CHECK(cal_reserve(&c, 0, 6000) == 6000);
	CHECK(cal_reserve(&c, 0, 6000) == 12000);
	/* Handled later but earlier in time: fills what is free then. */
	CHECK(cal_reserve(&c, 50000, 1000) == 51000);
	CHECK(c.stale == 0);
	cal_free(&c);
}

static void calendar_stale(void)
{
	struct cal c;
	double late = 10e9;

	memset(&c, 0, sizeof(c));
	CHECK(cal_init(&c) == 0);
	CHECK(cal_reserve(&c, late, 5000) == late + 5000);
	/* 10 s behind the window: served at once, counted, not pushed to
	 * the window's start. */
	CHECK(cal_reserve(&c, 1000, 5000) == 6000);
	CHECK(c.stale == 1);
	/* Within the half window kept behind: contention as usual. */
	CHECK(cal_reserve(&c, late, 5000) == late + 10000);
	CHECK(c.stale == 1);
	CHECK(c.work_ns == 15000);
	cal_free(&c);
}

/* A saturated resource: requests that start inside its backlog are served
 * at its end, whatever the backlog's length, as the scan of full buckets
 * would serve them. */
static void calendar_backlog(void)
{
	struct cal c;
	double end = 0;
	int i, ok = 1;

	memset(&c, 0, sizeof(c));
	CHECK(cal_init(&c) == 0);
	/* 20000 requests of 7 us, each at a time already inside the backlog
	 * (0 to 20 ms): they queue one behind the other. */
	for (i = 0; i < 20000; i++) {
		double f = cal_reserve(&c, (double)i * 1000.0, 7000);

		ok &= fabs(f - (double)(i + 1) * 7000) < 1e-6;
		end = f;
	}
	CHECK(ok);
	CHECK(end == 140e6);
	CHECK(c.run_hi > c.run_lo);
	/* A gap left before the backlog is still found. */
	CHECK(cal_reserve(&c, 140e6 + 50000, 1000) == 140e6 + 51000);
	CHECK(cal_reserve(&c, 139e6, 1000) == 140e6 + 1000);
	cal_free(&c);
}

/* Requests that start at random times inside a backlog (many tasks behind
 * a saturated resource) each go at its end, as a scan would put them, and
 * the runs of full buckets they went through join into one that covers
 * the backlog: a later request anywhere in it goes to its end at once. */
static void calendar_backlog_random(void)
{
	struct cal c;
	double end = 0;
	uint64_t z = 1;
	int i, ok = 1;

	memset(&c, 0, sizeof(c));
	CHECK(cal_init(&c) == 0);
	/* A backlog of 20 ms: 5000 requests of 4 us from 0. */
	for (i = 0; i < 5000; i++)
		end = cal_reserve(&c, 0, 4000);
	CHECK(end == 20e6);
	/* 5000 more, each at a random time before the backlog's end, which
	 * each extends by 4 us. */
	for (i = 0; i < 5000; i++) {
		double s, f;

		z = z * 6364136223846793005ull + 1442695040888963407ull;
		s = (double)(z >> 11) * 0x1p-53 * end;
		f = cal_reserve(&c, s, 4000);
		ok &= fabs(f - (end + 4000)) < 1e-6;
		end = f;
	}
	CHECK(ok);
	CHECK(end == 40e6);
	/* One run from the first request's bucket to the end. */
	CHECK(c.run_lo == 0 && c.run_hi == 4000);
	CHECK(cal_reserve(&c, 1e6, 4000) == 40e6 + 4000);
	/* A gap after the backlog is still found. */
	CHECK(cal_reserve(&c, 41e6, 1000) == 41e6 + 1000);
	CHECK(c.stale == 0);
	cal_free(&c);
}

/* The mean of sr_hw_read_wait() over many reads with the device's write
 * backlog at `backlog` writes, limits recent/idle. */
static double mean_wait(const struct sr_device *dev, double backlog, unsigned recent,
			unsigned idle, double since_read, double *busy_share)
{
	struct sr_machine m;
	struct sr_hw h;
	struct sr_wbt_limits l = { recent, idle, 16 };
	double sum = 0, cw = 1e9 / dev->write_iops;
	int i, busy = 0, n = 200000;

	memset(&m, 0, sizeof(m));
	m.nr_nodes = 1;
	m.nr_devices = 1;
	m.dev[0] = *dev;
	memset(&h, 0, sizeof(h));
	if (sr_hw_init(&h, &m)) {
		sr_hw_free(&h);
		return -1;
	}
	sr_hw_set_write_limits(&h, &l, 1);
	for (i = 0; i < n; i++) {
		double s = 1e9 + i * 1e3, w;

		h.wr_end[0] = s + backlog * cw;
		h.rd_last[0] = s - since_read;
		sr_hw_set_key(&h, (uint64_t)i); /* each read a record of its own */
		w = sr_hw_read_wait(&h, 0, &m.dev[0], s);
		busy += w > 0;
		sum += w;
	}
	sr_hw_free(&h);
	*busy_share = (double)busy / n;
	return sum / n;
}

static void flash_read_waits(void)
{
	struct sr_device d;
	double P, tw, share, w;

	memset(&d, 0, sizeof(d));
	d.cls = SR_DEV_NVME;
	d.read_iops = 490000;
	d.write_iops = 38000;
	d.read_lat_ns = 85000;
	P = d.read_iops * d.read_lat_ns / 1e9;
	tw = P / d.write_iops * 1e9;
	/* No write in flight: no wait. */
	CHECK(mean_wait(&d, 0, 4, 8, 0, &share) == 0 && share == 0);
	/* 100 writes backlogged, 4 let in flight (a read just before): the
	 * read meets one with probability 4/P and waits half of t_w then.
	 * (200,000 reads: the mean's standard error is 0.8 % of it, the
	 * share's 0.7 %; the bounds are 4 of them.) */
	w = mean_wait(&d, 100, 4, 8, 1e6, &share);
	CHECK(fabs(share - 4 / P) < 0.03 * 4 / P);
	CHECK(fabs(w - 4 / P * tw / 2) < 0.032 * 4 / P * tw / 2);
	/* No read in the last 100 ms: 8 in flight. */
	mean_wait(&d, 100, 4, 8, 200e6, &share);
	CHECK(fabs(share - 8 / P) < 0.01);
	/* 128 in flight (before writeback throttling): k = 128/P > 1, every
	 * read waits (k - 1 + U) t_w, mean (k - 1/2) t_w. */
	w = mean_wait(&d, 1000, 128, 128, 0, &share);
	CHECK(share == 1);
	CHECK(fabs(w - (128 / P - 0.5) * tw) < 0.02 * (128 / P - 0.5) * tw);
	/* A SATA device: at most its 32 NCQ tags in flight. */
	d.cls = SR_DEV_SSD;
	d.read_iops = 98000;
	d.write_iops = 90000;
	d.read_lat_ns = 100000;
	P = d.read_iops * d.read_lat_ns / 1e9;
	tw = P / d.write_iops * 1e9;
	w = mean_wait(&d, 1000, 128, 128, 0, &share);
	CHECK(fabs(w - (32 / P - 0.5) * tw) < 0.02 * (32 / P - 0.5) * tw);
}

/* (D3)'s draws are common random numbers: a record's draws depend on
 * its key (its seq) and their number within it alone, not on what was
 * drawn before (another policy's simulation draws for other records in
 * between); and over many keys they are uniform on [0, 1). */
static void flash_draws_common(void)
{
	struct sr_hw h, g;
	double a0, a1, b0, sum = 0, sq = 0;
	int i, n = 100000, bad = 0;

	memset(&h, 0, sizeof(h));
	memset(&g, 0, sizeof(g));
	sr_hw_set_key(&h, 41);
	a0 = sr_hw_draw(&h);
	a1 = sr_hw_draw(&h);
	/* Another simulation: other records' draws first, then record 41. */
	for (i = 0; i < 7; i++) {
		sr_hw_set_key(&g, (uint64_t)(1000 + i));
		(void)sr_hw_draw(&g);
		(void)sr_hw_draw(&g);
	}
	sr_hw_set_key(&g, 41);
	b0 = sr_hw_draw(&g);
	CHECK(b0 == a0);
	CHECK(sr_hw_draw(&g) == a1);
	CHECK(a0 != a1);
	sr_hw_set_key(&g, 42);
	CHECK(sr_hw_draw(&g) != a0);
	for (i = 0; i < n; i++) {
		double u;

		sr_hw_set_key(&h, (uint64_t)i);
		u = sr_hw_draw(&h);
		bad += !(u >= 0 && u < 1);
		sum += u;
		sq += u * u;
	}
	CHECK(bad == 0);
	/* Mean 1/2 and variance 1/12, within 5 standard errors. */
	CHECK(fabs(sum / n - 0.5) < 5 * sqrt(1.0 / 12 / n));
	CHECK(fabs(sq / n - sum / n * (sum / n) - 1.0 / 12) < 0.002);
}

/* (D3)'s wait for one read (one draw) as the writes in flight grow from
 * none to past P: it never falls as they grow, and a small step in them
 * moves it by a small step (a read that waits under one policy and not
 * under another whose backlog is a little smaller waits a little), across
 * k = u and k = 1 too. */
static void flash_wait_monotone(void)
{
	struct sr_machine m;
	struct sr_hw h;
	struct sr_wbt_limits l = { 1000, 1000, 1000 };
	double P, tw, cw, prev = 0, s = 1e9, dk = 1.5 / 2000;
	int key, j, falls = 0, waited = 0, jumps = 0;

	memset(&m, 0, sizeof(m));
	m.nr_nodes = 1;
	m.nr_devices = 1;
	m.dev[0].cls = SR_DEV_NVME;
	m.dev[0].read_iops = 490000;
	m.dev[0].write_iops = 38000;
	m.dev[0].read_lat_ns = 85000;
	P = 490000 * 85e-6;
	tw = P / 38000 * 1e9;
	cw = 1e9 / 38000;
	memset(&h, 0, sizeof(h));
	CHECK(sr_hw_init(&h, &m) == 0);
	sr_hw_set_write_limits(&h, &l, 1);
	for (key = 0; key < 200; key++) {
		double u, bound;

		sr_hw_set_key(&h, (uint64_t)key);
		u = sr_hw_draw(&h);
		/* dw/dk = t_w u / k^2 for u < k < 1, at most t_w / u (at
		 * k = u); t_w for k >= 1. */
		bound = tw * dk / (u < dk ? dk : u) * 1.01 + 1;
		prev = 0;
		for (j = 0; j <= 2000; j++) {
			/* n from 0 to 1.5 P writes in flight, in steps of
			 * P/1333 (k by 0.00075). */
			double n = 1.5 * P * j / 2000, w;

			h.wr_end[0] = s + n * cw;
			h.rd_last[0] = s - 1e6;
			sr_hw_set_key(&h, (uint64_t)key);
			w = sr_hw_read_wait(&h, 0, &m.dev[0], s);
			falls += w < prev - 1e-6;
			jumps += w - prev > bound;
			waited += j == 2000 && w > 0;
			prev = w;
		}
	}
	sr_hw_free(&h);
	CHECK(falls == 0);
	/* Each step within t_w dk / u (where u < k turned true the wait
	 * jumped from 0 to nearly t_w before). */
	CHECK(jumps == 0);
	CHECK(waited == 200);
}

/* (L3) A batch of 64 freed slots holds the device's si->lock for 64
 * swap-map updates: two swap-ins on two CPUs at the same moment, each
 * freeing a batch, go one after the other: 64 x 280 ns = 17.92 us each. */
static void free_batch_holds(void)
{
	static struct sr_machine m;
	struct sr_hw_memo memo = { NULL };
	struct sr_hw h;
	struct sr_hw_ev x;
	struct sr_event e;
	double resume = 0, done = 0;

	memset(&m, 0, sizeof(m));
	m.nr_nodes = 1;
	m.nr_cpus = 2;
	m.nr_devices = 1;
	m.dev[0].cls = SR_DEV_NVME;
	m.swap_lock_other_ns = 280;
	memset(&h, 0, sizeof(h));
	CHECK(sr_hw_init(&h, &m) == 0);
	sr_event_init(&e);
	e.op = SR_OP_IN;
	memset(&x, 0, sizeof(x));
	x.free = 64;
	x.cpu = 0;
	x.task = 0;
	CHECK(sr_hw_play(&h, &memo, &e, 0, &x, 0, &resume, &done) == 0);
	CHECK(fabs(resume - 17920) < 1e-6);
	x.cpu = 1;
	x.task = 1;
	CHECK(sr_hw_play(&h, &memo, &e, 0, &x, 0, &resume, &done) == 0);
	CHECK(fabs(resume - 35840) < 1e-6);
	CHECK(fabs(h.wait_ns[SR_WAIT_SWAP_LOCK] - 17920) < 1e-6);
	sr_hw_free(&h);
}

/* m: one node of 2 CPUs and one NVMe device of size_pages, nothing else
 * set (nothing costs time until a test sets it). */
static void one_nvme(struct sr_machine *m, uint64_t size_pages)
{
	memset(m, 0, sizeof(*m));
	m->nr_nodes = 1;
	m->nr_cpus = 2;
	m->nr_devices = 1;
	m->dev[0].cls = SR_DEV_NVME;
	m->dev[0].size_pages = size_pages;
}

/* A swap-out of one page at slot off on device 0 at t, as x says (its
 * task on a CPU of its own); when the task may go on. */
static double out_played(struct sr_hw *h, struct sr_hw_ev *x, uint64_t off, double t)
{
	struct sr_hw_memo memo = { NULL };
	struct sr_event e;
	double resume = -1, done = -1;

	sr_event_init(&e);
	e.op = SR_OP_OUT;
	e.offset = off;
	e.flags |= SR_EV_HAS_OFFSET;
	x->cpu = -1;
	if (sr_hw_play(h, &memo, &e, 0, x, t, &resume, &done))
		return -1;
	return resume;
}

/* A swap-out of one page by task (on a CPU of its own) at t that holds the
 * swap cache's lock of its slot's trunk, off >> 14 on device 0, twice (a
 * page added and deleted: docs/MODEL.md, L4); when the task may go on. */
static double trunk_locked(struct sr_hw *h, long task, uint64_t off, double t)
{
	struct sr_hw_ev x;

	memset(&x, 0, sizeof(x));
	x.task = task;
	x.trunk_holds = 2;
	x.trunk = (uint32_t)(off >> SR_SWAP_TRUNK_SHIFT);
	return out_played(h, &x, off, t);
}

/* A one-page swap event of task (on a CPU of its own) at t, its slot at
 * off on device 0 of class cls, with kernel k's swap cache locks (the
 * replay's rule, replay_impl.h); when the task may go on. */
static double cache_locked(struct sr_hw *h, const struct sr_kernel *k, enum sr_dev_class cls,
			   int op, long task, uint64_t off, double t)
{
	struct sr_hw_memo memo = { NULL };
	struct sr_hw_ev x;
	struct sr_event e;
	double resume = -1, done = -1;

	sr_event_init(&e);
	e.op = (uint8_t)op;
	e.offset = off;
	e.flags |= SR_EV_HAS_OFFSET;
	memset(&x, 0, sizeof(x));
	x.cpu = -1;
	x.task = task;
	sr_play_cache_locks(k, cls, op == SR_OP_OUT, 1, e.offset, e.flags, &x);
	if (sr_hw_play(h, &memo, &e, 0, &x, t, &resume, &done))
		return -1;
	return resume;
}

/*
 * (L1, L4, L5) The swap cache's lock, by hand.  Task 9 swaps out pages
 * at slots 300 and 16784 at time 0: the first holder of each lock, its
 * holds take no time (L5: nobody else's lines), and it takes no
 * calendar.  Then two tasks swap out a page each at time 0; nothing
 * costs time but the swap cache lock's holds, 2 per folio of
 * swap_cache_lock_ns = 1400 ns (added and deleted) each time the lock
 * was last another task's (each has a CPU of its own).  On 4.10 it is
 * one tree lock per device: the first task holds it 0-2800, the second
 * packs behind it in the same 10 us bucket and is done at 5600, 2800 ns
 * waited, wherever the two slots are.  On 4.11 it is the lock of the
 * slot's 64 MB trunk (offset >> 14): slots 100 and 200 are both in trunk
 * 0 and the second waits 2800 as on 4.10; slots 100 and 16484 are in
 * trunks 0 and 1 and neither waits.  The first task then swaps out
 * another page of its trunk at 10 us: the lock's lines are its own again
 * only where the second task did not take it since (4.11, other trunk),
 * where that page costs nothing.  On 6.18 the swap table takes the
 * cluster lock instead: no hold, all done when they start.  A swap-in
 * from pmem skips the swap cache from 4.15 (no hold), a swap-out there
 * does not.
 */
static void trunk_lock_holds(void)
{
	static struct sr_machine m;
	static const char *kv[3] = { "4.10", "4.11", "6.18" };
	/* [kernel][same trunk]: the second task's end and the wait. */
	static const double want[3][2][2] = {
		{ { 5600, 2800 }, { 5600, 2800 } },
		{ { 2800, 0 }, { 5600, 2800 } },
		{ { 0, 0 }, { 0, 0 } },
	};
	struct sr_kernel k;
	struct sr_diag d;
	struct sr_hw h;
	int i, same;

	one_nvme(&m, 1u << 20);
	m.swap_cache_lock_ns = 1400;
	for (i = 0; i < 3; i++) {
		CHECK(sr_kernel_parse(kv[i], &k, &d) == SR_OK);
		CHECK(k.device_locks == (i == 0) && k.trunk_locks == (i == 1));
		for (same = 0; same < 2; same++) {
			double first, second;

			memset(&h, 0, sizeof(h));
			CHECK(sr_hw_init(&h, &m) == 0);
			CHECK(cache_locked(&h, &k, SR_DEV_NVME, SR_OP_OUT, 9, 300, 0) == 0);
			CHECK(cache_locked(&h, &k, SR_DEV_NVME, SR_OP_OUT, 9, 16784, 0) == 0);
			CHECK(h.trunks.n == 0);
			first = cache_locked(&h, &k, SR_DEV_NVME, SR_OP_OUT, 0, 100, 0);
			second = cache_locked(&h, &k, SR_DEV_NVME, SR_OP_OUT, 1, same ? 200 : 16484, 0);
			CHECK(fabs(first - (i == 2 ? 0 : 2800)) < 1e-6);
			CHECK(fabs(second - want[i][same][0]) < 1e-6);
			CHECK(fabs(h.wait_ns[SR_WAIT_SWAP_CACHE_LOCK] - want[i][same][1]) < 1e-6);
			CHECK(fabs(cache_locked(&h, &k, SR_DEV_NVME, SR_OP_OUT, 0, 101, 10000) -
				   (10000 + (i == 2 || (i == 1 && !same) ? 0 : 2800))) < 1e-6);
			sr_hw_free(&h);
		}
	}
	/* A huge page (512 pages) swapped out: 4.12 splits it first, each page
	 * added and deleted (1024 holds); 4.13 adds it whole and deletes its
	 * pages after the split (513); from 4.14 it is one folio (2); a
	 * swap-in is one folio.  16 pages (mTHP): split before 6.10 (32). */
	CHECK(sr_kernel_parse("4.12", &k, &d) == SR_OK && sr_play_cache_holds(&k, 1, 512) == 1024);
	CHECK(sr_kernel_parse("4.13", &k, &d) == SR_OK && sr_play_cache_holds(&k, 1, 512) == 513 &&
	      sr_play_cache_holds(&k, 0, 512) == 2);
	CHECK(sr_kernel_parse("4.14", &k, &d) == SR_OK && sr_play_cache_holds(&k, 1, 512) == 2 &&
	      sr_play_cache_holds(&k, 1, 16) == 32);
	CHECK(sr_kernel_parse("6.10", &k, &d) == SR_OK && sr_play_cache_holds(&k, 1, 16) == 2);
	/* 5.8 on pmem: a swap-out holds its trunk's lock, a swap-in skips it. */
	CHECK(sr_kernel_parse("5.8", &k, &d) == SR_OK);
	memset(&h, 0, sizeof(h));
	CHECK(sr_hw_init(&h, &m) == 0);
	CHECK(fabs(cache_locked(&h, &k, SR_DEV_PMEM, SR_OP_OUT, 9, 300, 0) - 0) < 1e-6);
	CHECK(fabs(cache_locked(&h, &k, SR_DEV_PMEM, SR_OP_IN, 0, 100, 0) - 0) < 1e-6);
	CHECK(fabs(cache_locked(&h, &k, SR_DEV_PMEM, SR_OP_OUT, 1, 200, 0) - 2800) < 1e-6);
	CHECK(h.wait_ns[SR_WAIT_SWAP_CACHE_LOCK] == 0);
	sr_hw_free(&h);
}

/*
 * (L4) The trunks' calendars (hw/trunks.h), by hand: nothing costs time
 * but the trunk lock's holds, 2 of 1400 ns a page, each trunk's lock
 * last held by another task (L5: a task 100000 + i swaps out a page in
 * trunk i first, which takes no time and no calendar).  As many trunks busy
 * at once at time 0 as the pool has calendars (SR_HW_TRUNK_CALS) take one
 * each and wait for nothing (each done at 2800); one more finds every one
 * busy and shares the one done first, trunk 0's: it packs behind trunk
 * 0's holds in the same 10 us bucket, done at 5600, 2800 ns of false
 * contention (counted: shared).  Once the simulation's time is in a later
 * bucket (20 us), a new trunk takes an idle calendar (no more are made)
 * and waits for nothing (22800), and a copy of the simulation (shared.c)
 * then plays the same as the original: a second page in that trunk at
 * 20 us waits for the first, done at 25600 on both.
 */
static void trunk_lock_pool(void)
{
	static struct sr_machine m;
	struct sr_hw h, h2;
	long i;

	one_nvme(&m, (SR_HW_TRUNK_CALS + 64) << 14);
	m.swap_cache_lock_ns = 1400;
	memset(&h, 0, sizeof(h));
	memset(&h2, 0, sizeof(h2));
	CHECK(sr_hw_init(&h, &m) == 0 && sr_hw_init(&h2, &m) == 0);
	for (i = 0; i < (long)SR_HW_TRUNK_CALS + 7; i++)
		CHECK(trunk_locked(&h, 100000 + i, ((uint64_t)i << 14) + 8, 0) == 0);
	CHECK(h.trunks.n == 0);
	for (i = 0; i < (long)SR_HW_TRUNK_CALS; i++)
		CHECK(fabs(trunk_locked(&h, i, (uint64_t)i << 14, 0) - 2800) < 1e-6);
	CHECK(h.trunks.n == SR_HW_TRUNK_CALS && h.trunks.shared == 0);
	CHECK(h.wait_ns[SR_WAIT_SWAP_CACHE_LOCK] == 0);
	CHECK(fabs(trunk_locked(&h, i, (uint64_t)i << 14, 0) - 5600) < 1e-6);
	CHECK(h.trunks.shared == 1 && fabs(h.wait_ns[SR_WAIT_SWAP_CACHE_LOCK] - 2800) < 1e-6);
	h.now = 20000;
	CHECK(fabs(trunk_locked(&h, i + 1, (uint64_t)(i + 6) << 14, 20000) - 22800) < 1e-6);
	CHECK(h.trunks.n == SR_HW_TRUNK_CALS && h.trunks.shared == 1);
	CHECK(fabs(h.wait_ns[SR_WAIT_SWAP_CACHE_LOCK] - 2800) < 1e-6);
	CHECK(sr_hw_copy(&h2, &h) == 0);
	CHECK(fabs(trunk_locked(&h, i + 2, ((uint64_t)(i + 6) << 14) + 1, 20000) - 25600) < 1e-6);
	CHECK(fabs(trunk_locked(&h2, i + 2, ((uint64_t)(i + 6) << 14) + 1, 20000) - 25600) < 1e-6);
	CHECK(fabs(h2.wait_ns[SR_WAIT_SWAP_CACHE_LOCK] - 5600) < 1e-6);
	sr_hw_free(&h);
	sr_hw_free(&h2);
}

/* Task `task` (a CPU of its own) swaps a page out at slot 0 at time 0,
 * its cluster lock's holds having moved `lines` lines (the policy's
 * record says, sr_hw_cluster_lines()): when it is through (nothing but
 * L6's lines costs time). */
static double lines_played(struct sr_hw *h, long task, uint8_t lines)
{
	struct sr_hw_ev x;

	memset(&x, 0, sizeof(x));
	x.task = task;
	x.ci_lines = lines;
	return out_played(h, &x, 0, 0);
}

/* The lines task's event at slot off (a swap-out: out) moves, by record c
 * of device 0 (task: a CPU of its own). */
static int moved(struct sr_hw_clusters *c, long task, uint64_t off, int out)
{
	return sr_hw_cluster_lines(c, 0, off, out, sr_hw_holder(-1, task));
}

/*
 * (L6) The cluster locks, by hand.  Which devices take them: none before
 * 4.11; from 4.11 a non-rotational one (clusters of 256 slots, 512 from
 * 4.13), a rotational one from 6.14; a block of holds writes 2 lines (the
 * lock's and the slot's swap-map byte's), 3 from 6.18 where the swap
 * cache is under the lock (a swap-out; a swap-in from pmem skips it).
 * Then a policy's record on 6.12's NVMe: task 1 swaps out slot 100, the
 * cluster's first holder (0 lines); task 2 swaps in slot 200, the same
 * cluster (200 >> 9 = 0), last task 1's: 2 lines; task 2 swaps out slot
 * 300, its own now (0); task 1 swaps in slot 600, cluster 1's first (0),
 * then slot 101, cluster 0's again, task 2's (2).  A slot past the
 * device's 2049 clusters (2^20 pages and the header) folds onto them:
 * cluster 2049 is cluster 0, task 1's, and moves task 2's 2 lines.  Only
 * the chunk of the clusters touched is made (SR_HW_CLUSTER_CHUNK).  On
 * 6.18 task 2's swap-out after task 1 moves 3 lines; on 4.10 none.  A
 * simulation charges an event's lines at line_ns each (50 here) on its
 * CPU: 2 lines, done at 100.
 */
static void cluster_lock_lines(void)
{
	/* Kernel, device class: cluster size (log2), lines in and out. */
	static const struct {
		const char *kv;
		enum sr_dev_class cls;
		unsigned shift, lin, lout;
	} want[] = {
		{ "4.10", SR_DEV_NVME, 0, 0, 0 }, { "4.11", SR_DEV_NVME, 8, 2, 2 },
		{ "4.11", SR_DEV_HDD, 0, 0, 0 },  { "4.13", SR_DEV_ZRAM, 9, 2, 2 },
		{ "6.13", SR_DEV_HDD, 0, 0, 0 },  { "6.14", SR_DEV_HDD, 9, 2, 2 },
		{ "6.18", SR_DEV_NVME, 9, 3, 3 }, { "6.18", SR_DEV_PMEM, 9, 2, 3 },
		/* 7.0: no bypass, every swap-in through the table; 7.1: the
		 * count in the table's entry, no map byte. */
		{ "6.19", SR_DEV_ZRAM, 9, 2, 3 }, { "7.0", SR_DEV_ZRAM, 9, 3, 3 },
		{ "7.1", SR_DEV_ZRAM, 9, 2, 2 },  { "7.3", SR_DEV_NVME, 9, 2, 2 },
	};
	static struct sr_machine m;
	struct sr_hw_clusters c;
	struct sr_kernel k;
	struct sr_diag d;
	struct sr_hw h;
	unsigned sh, li, lo;
	size_t i;

	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		CHECK(sr_kernel_parse(want[i].kv, &k, &d) == SR_OK);
		sr_hw_cluster_kernel(&k, want[i].cls, &sh, &li, &lo);
		CHECK(sh == want[i].shift && (!sh || (li == want[i].lin && lo == want[i].lout)));
	}
	one_nvme(&m, 1u << 20);
	m.line_ns = 50;

	CHECK(sr_hw_clusters_init(&c, &m) == 0);
	CHECK(sr_kernel_parse("6.12", &k, &d) == SR_OK);
	sr_hw_cluster_kernel(&k, SR_DEV_NVME, &sh, &li, &lo);
	sr_hw_clusters_set(&c, &m, 0, sh, li, lo);
	CHECK(c.n[0] == 2049);
	CHECK(moved(&c, 1, 100, 1) == 0);
	CHECK(moved(&c, 2, 200, 0) == 2);
	CHECK(moved(&c, 2, 300, 1) == 0);
	CHECK(moved(&c, 1, 600, 0) == 0);
	CHECK(moved(&c, 1, 101, 0) == 2);
	CHECK(c.last[0][0] && !c.last[0][1] && !c.last[0][2]);
	CHECK(moved(&c, 2, 2049u << 9, 0) == 2);
	CHECK(sr_kernel_parse("6.18", &k, &d) == SR_OK);
	sr_hw_cluster_kernel(&k, SR_DEV_NVME, &sh, &li, &lo);
	sr_hw_clusters_set(&c, &m, 0, sh, li, lo);
	CHECK(moved(&c, 1, 100, 1) == 0 && moved(&c, 2, 101, 1) == 3);
	CHECK(sr_kernel_parse("4.10", &k, &d) == SR_OK);
	sr_hw_cluster_kernel(&k, SR_DEV_NVME, &sh, &li, &lo);
	sr_hw_clusters_set(&c, &m, 0, sh, li, lo);
	CHECK(moved(&c, 1, 100, 1) == 0 && moved(&c, 2, 100, 0) == 0 && c.last[0] == NULL);
	sr_hw_clusters_free(&c, m.nr_devices);

	memset(&h, 0, sizeof(h));
	CHECK(sr_hw_init(&h, &m) == 0);
	CHECK(fabs(lines_played(&h, 1, 0) - 0) < 1e-9);
	CHECK(fabs(lines_played(&h, 2, 2) - 100) < 1e-9);
	sr_hw_free(&h);
}

/*
 * (E3) What a swap-in through the swap cache costs more, by kernel and
 * device class, worked by hand from docs/MODEL.md: swapcache_ns (426)
 * before 6.18 unless a synchronous device bypasses the cache (4.15 to
 * 6.19), shadow_node_ns (747) more from 6.3 to 6.17; and the flags behind
 * it (the bypass ends at 7.0, readahead stays off for pmem and zram).
 */
static void swapcache_path_cost(void)
{
	static const struct {
		const char *kv;
		enum sr_dev_class cls;
		double ns;
	} want[] = {
		{ "4.0", SR_DEV_ZRAM, 426 },   { "4.14", SR_DEV_ZRAM, 426 },
		{ "4.15", SR_DEV_ZRAM, 0 },    { "4.15", SR_DEV_NVME, 426 },
		{ "6.2", SR_DEV_SSD, 426 },    { "6.3", SR_DEV_SSD, 1173 },
		{ "6.17", SR_DEV_HDD, 1173 },  { "6.17", SR_DEV_PMEM, 0 },
		{ "6.18", SR_DEV_NVME, 0 },    { "7.0", SR_DEV_ZRAM, 0 },
		{ "7.1", SR_DEV_NVME, 0 },
	};
	struct sr_machine m;
	struct sr_kernel k;
	struct sr_diag d;
	struct sr_hw h;
	size_t i;

	one_nvme(&m, 1u << 20);
	m.swapcache_ns = 426;
	m.shadow_node_ns = 747;
	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		test_name = want[i].kv;
		CHECK(sr_kernel_parse(want[i].kv, &k, &d) == SR_OK);
		CHECK(fabs(sr_cost_swapcache_ns(&m, &k, want[i].cls) - want[i].ns) < 1e-9);
	}
	test_name = "swapcache_path_cost";
	CHECK(sr_kernel_parse("6.19", &k, &d) == SR_OK && k.sync_bypass && k.sync_no_ra &&
	      !k.xarray_cache && !k.table_count);
	CHECK(sr_kernel_parse("7.0", &k, &d) == SR_OK && !k.sync_bypass && k.sync_no_ra &&
	      !k.table_count);
	CHECK(sr_kernel_parse("7.1", &k, &d) == SR_OK && !k.sync_bypass && k.table_count);
	/* A simulation's devices take it from its kernel. */
	memset(&h, 0, sizeof(h));
	CHECK(sr_hw_init(&h, &m) == 0);
	CHECK(h.swapcache_in[0] == 0);
	CHECK(sr_kernel_parse("6.6", &k, &d) == SR_OK);
	sr_hw_set_kernel(&h, &k);
	CHECK(fabs(h.swapcache_in[0] - 1173) < 1e-9);
	sr_hw_free(&h);
}

void suite_calendar(void)
{
	TEST(trunk_lock_holds);
	TEST(trunk_lock_pool);
	TEST(cluster_lock_lines);
	TEST(swapcache_path_cost);
	TEST(free_batch_holds);
	TEST(flash_wait_monotone);
	TEST(flash_draws_common);
	TEST(calendar_queues);
	TEST(calendar_stale);
	TEST(calendar_backlog_random);
	TEST(calendar_backlog);
	TEST(flash_read_waits);
}
