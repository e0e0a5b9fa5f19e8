/* The time-ordered core (src/replay/order.c, docs/MODEL.md, "The core"):
 * tasks that drift apart are played in simulated time, no request is
 * served without contention, no device is busier than the run is long,
 * the shortcut that plays an idle task's record at once gives the queue's
 * figures, and a full queue is counted. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "swapreplay/machine.h"
#include "swapreplay/replay.h"
#include "test.h"

#define NTASK 8
#define NEV 600

/* One node, one NVMe of 20,000 write IOPS: the tasks' swap-outs and
 * swap-ins keep it busy far longer than the recording's 1-8 us gaps. */
static const char SLOW_NVME[] =
	"{\"nodes\": [{\"cpus\": 8}], \"devices\": ["
	" {\"name\": \"a\", \"class\": \"nvme\", \"node\": 0, \"write_iops\": 20000}]}";

struct trace {
	struct sr_event *e;
	size_t n;
};

static uint64_t rnd(uint64_t *z)
{
	*z = *z * 6364136223846793005ull + 1442695040888963407ull;
	return *z >> 33;
}

/*
 * NTASK tasks, task i every (i + 1) us as recorded: 60 % swap-outs of its
 * own slots, the rest swap-ins of slots it wrote.  With stop (>= 0),
 * task 1 stops after `stop` events, without an exit.  In time order.
 */
static int make_trace(struct trace *t, long stop)
{
	uint64_t z = 7, next[NTASK];
	uint32_t out[NTASK][NEV], nout[NTASK], done[NTASK];
	size_t k;
	int i;

	t->e = calloc((size_t)NTASK * NEV, sizeof(*t->e));
	if (!t->e)
		return -1;
	t->n = 0;
	for (i = 0; i < NTASK; i++) {
		next[i] = 1000000 + (uint64_t)i * 100;
		nout[i] = done[i] = 0;
	}
	for (;;) {
		struct sr_event *e;
		int b = -1;

		for (i = 0; i < NTASK; i++)
			if (done[i] < NEV && !(i == 1 && stop >= 0 && done[i] >= (uint32_t)stop) &&
			    (b < 0 || next[i] < next[b]))
				b = i;
		if (b < 0)
			break;
		e = &t->e[t->n++];
		sr_event_init(e);
		e->ts_ns = next[b];
		e->pid = 100 + (uint32_t)b;
		e->cpu = (uint32_t)b;
		e->dev = 0;
		e->nr_pages = 1;
		e->flags |= SR_EV_HAS_CPU | SR_EV_HAS_OFFSET;
		if (nout[b] && rnd(&z) % 10 >= 6) {
			k = rnd(&z) % nout[b];
			e->op = SR_OP_IN;
			e->offset = out[b][k];
			out[b][k] = out[b][--nout[b]];
		} else {
			e->op = SR_OP_OUT;
			e->offset = (uint64_t)b * 100000 + done[b];
			out[b][nout[b]++] = (uint32_t)e->offset;
		}
		done[b]++;
		next[b] += (uint64_t)(b + 1) * 1000;
	}
	return 0;
}

static const struct sr_result *replay(struct sr_replay **rp, const struct sr_machine *m,
				      const struct trace *t, uint64_t queue, int no_shortcut)
{
	static const char *const pol[] = { "reclaimer-nid" };
	struct sr_replay_opts o;
	const struct sr_result *res = NULL;
	struct sr_diag d;

	*rp = NULL;
	sr_replay_opts_init(&o);
	o.machine = m;
	o.order_queue = queue;
	o.order_no_shortcut = no_shortcut;
	if (sr_replay_new(rp, &o, pol, 1, pol[0], &d) != SR_OK ||
	    sr_replay_feed(*rp, t->e, t->n, &d) != SR_OK ||
	    sr_replay_finish(*rp, &res, &d) != SR_OK) {
		printf("FAIL %s: replay: %s\n", test_name, d.msg);
		test_failed++;
		return NULL;
	}
	return res;
}

/* Every device of every policy no busier than the run is long. */
static int busy_within(const struct sr_result *res)
{
	int k, i;

	for (k = 0; k < res->nr_policies; k++)
		for (i = 0; i < res->policy[k].nr_devices; i++)
			if (res->policy[k].dev[i].busy_ns > res->policy[k].makespan_ns)
				return 0;
	return 1;
}

static void drifting_tasks_in_time(void)
{
	struct sr_machine *m = NULL;
	struct sr_replay *r = NULL, *r1 = NULL;
	const struct sr_result *res, *res1;
	const struct sr_policy_result *p, *p1;
	struct trace t = { NULL, 0 };
	struct sr_diag d;

	CHECK(sr_machine_parse(&m, SLOW_NVME, strlen(SLOW_NVME), "slow-nvme", &d) == SR_OK);
	CHECK(make_trace(&t, -1) == 0);
	if (!m || !t.e)
		goto out;
	res = replay(&r, m, &t, 0, 0);
	res1 = replay(&r1, m, &t, 0, 1);
	if (!res || !res1)
		goto out;
	p = &res->policy[0];
	p1 = &res1->policy[0];
	/* The run takes far longer than recorded (8 tasks x 600 events at
	 * 1-8 us: 5 ms; each swap-in waits for its read, behind the writes),
	 * and the device is busy half of it, never more. */
	CHECK(p->makespan_ns > 10e6);
	CHECK(p->dev[0].util > 0.3 && p->dev[0].util <= 1.0);
	CHECK(busy_within(res));
	/* In simulated time throughout: nothing forced, late or stale. */
	CHECK(p->order_forced == 0 && p->order_late == 0 && p->stale_requests == 0);
	CHECK(res->order_queue == SR_ORDER_QUEUE_MAX);
	/* The shortcut (an idle task's record played at once) changes no
	 * figure: every record through the queue gives the same. */
	CHECK(p1->makespan_ns == p->makespan_ns);
	CHECK(p1->dev[0].busy_ns == p->dev[0].busy_ns);
	CHECK(p1->swapout_lat_mean_ns == p->swapout_lat_mean_ns);
	CHECK(p1->swapin_lat.sum_ns == p->swapin_lat.sum_ns && p1->swapin_lat.count == p->swapin_lat.count);
	CHECK(sr_hist_quantile(&p1->swapin_lat, 0.99) == sr_hist_quantile(&p->swapin_lat, 0.99));
	CHECK(p1->wait_cpu_ns == p->wait_cpu_ns && p1->wait_lru_lock_ns == p->wait_lru_lock_ns);
	CHECK(p1->order_forced == 0 && p1->order_late == 0);
out:
	sr_replay_free(r);
	sr_replay_free(r1);
	sr_machine_free(m);
	free(t.e);
}

/* A task that stops without its exit holds the others back: they wait
 * in the queue until the trace ends (the figures in time order), or, the
 * queue bounded, are played all the same and counted. */
static void full_queue_counted(void)
{
	struct sr_machine *m = NULL;
	struct sr_replay *r = NULL, *r1 = NULL;
	const struct sr_result *res, *res1;
	struct trace t = { NULL, 0 };
	struct sr_diag d;

	CHECK(sr_machine_parse(&m, SLOW_NVME, strlen(SLOW_NVME), "slow-nvme", &d) == SR_OK);
	CHECK(make_trace(&t, 20) == 0);
	if (!m || !t.e)
		goto out;
	res = replay(&r, m, &t, 0, 0);
	res1 = replay(&r1, m, &t, 16, 0);
	if (!res || !res1)
		goto out;
	CHECK(res->policy[0].order_forced == 0 && res->policy[0].order_late == 0);
	CHECK(res1->order_queue == 16);
	CHECK(res1->policy[0].order_forced > 1000);
	CHECK(res1->policy[0].stale_requests == 0 && busy_within(res1));
	/* Every event played either way. */
	CHECK(res1->policy[0].swapouts == res->policy[0].swapouts &&
	      res1->policy[0].swapins == res->policy[0].swapins);
out:
	sr_replay_free(r);
	sr_replay_free(r1);
	sr_machine_free(m);
	free(t.e);
}

/* order_behind: the swap events played after one that follows them in
 * the trace.  Tasks drifting apart (task i's events every (i + 1) us on a
 * device that falls behind) are played in another order than the trace's,
 * the same with the shortcut or without (it plays the same order); one
 * task alone is played in its trace's order. */
static void behind_counted(void)
{
	struct sr_machine *m = NULL;
	struct sr_replay *r = NULL, *r1 = NULL, *r2 = NULL;
	const struct sr_result *res, *res1, *res2;
	struct trace t = { NULL, 0 }, one = { NULL, 0 };
	struct sr_diag d;
	size_t i;

	CHECK(sr_machine_parse(&m, SLOW_NVME, strlen(SLOW_NVME), "slow-nvme", &d) == SR_OK);
	CHECK(make_trace(&t, -1) == 0);
	if (!m || !t.e)
		goto out;
	one.e = calloc(t.n, sizeof(*one.e));
	if (!one.e)
		goto out;
	for (i = 0; i < t.n; i++)
		if (t.e[i].pid == 102)
			one.e[one.n++] = t.e[i];
	res = replay(&r, m, &t, 0, 0);
	res1 = replay(&r1, m, &t, 0, 1);
	res2 = replay(&r2, m, &one, 0, 0);
	if (!res || !res1 || !res2)
		goto out;
	CHECK(res->policy[0].order_behind > 0);
	CHECK(res->policy[0].order_behind < res->policy[0].swapouts + res->policy[0].swapins);
	CHECK(res1->policy[0].order_behind == res->policy[0].order_behind);
	CHECK(res2->policy[0].swapouts > 0 && res2->policy[0].order_behind == 0);
out:
	sr_replay_free(r);
	sr_replay_free(r1);
	sr_replay_free(r2);
	sr_machine_free(m);
	free(t.e);
	free(one.e);
}

/* Random traces of six pids with forks, exits and waits among them in
 * any order (a child forked twice, waits for tasks alive, gone or never
 * seen, pids used again after their exit), and in every other trace
 * kswapd's swap-outs (pid 7's, kswapd alone, and pid 6's, which does
 * everything else too): every swap event is played once, whatever the
 * queue's size, with or without the shortcut, on the simulation threads
 * or not, and the figures do not depend on the shortcut or the threads. */
static void random_task_ops(void)
{
	static const char *const pol[] = { "reclaimer-nid", "page-nid-strict" };
	struct sr_machine *m = NULL;
	struct sr_event *ev = calloc(400, sizeof(*ev));
	struct sr_diag d;
	uint64_t z = 12345;
	int seed, bad = 0, diff = 0;

	CHECK(ev != NULL);
	CHECK(sr_machine_parse(&m, SLOW_NVME, strlen(SLOW_NVME), "slow-nvme", &d) == SR_OK);
	if (!m || !ev)
		goto out;
	for (seed = 0; seed < 60; seed++) {
		uint64_t ts = 1000, nswap = 0;
		double mk[4] = { 0 };
		size_t n = 0;
		int run;

		while (n < 400) {
			struct sr_event *e = &ev[n++];
			uint64_t r = rnd(&z) % 100;

			sr_event_init(e);
			ts += rnd(&z) % 5000;
			e->ts_ns = ts;
			e->pid = 1 + (uint32_t)(rnd(&z) % 6);
			if (r < 8) {
				e->op = SR_OP_FORK;
				e->child = 1 + (uint32_t)(rnd(&z) % 6);
				e->flags |= SR_EV_HAS_CHILD;
			} else if (r < 14) {
				e->op = SR_OP_EXIT;
			} else if (r < 22) {
				e->op = SR_OP_WAIT;
				e->child = 1 + (uint32_t)(rnd(&z) % 6);
				e->flags |= SR_EV_HAS_CHILD;
			} else {
				e->op = r < 62 ? SR_OP_OUT : SR_OP_IN;
				e->offset = rnd(&z) % 64;
				e->dev = 0;
				e->flags |= SR_EV_HAS_OFFSET;
				if ((seed & 1) && e->op == SR_OP_OUT && (e->pid == 6 || r < 32)) {
					if (e->pid != 6)
						e->pid = 7;
					e->flags |= SR_EV_HAS_RECLAIM | SR_EV_KSWAPD;
				}
				nswap++;
			}
		}
		for (run = 0; run < 4; run++) {
			struct sr_replay *r = NULL;
			struct sr_replay_opts o;
			const struct sr_result *res = NULL;
			int k;

			sr_replay_opts_init(&o);
			o.machine = m;
			o.order_queue = run == 1 ? 4 : 0;
			o.order_no_shortcut = run == 2;
			o.sim_threads = run == 3 ? 2 : 0;
			if (sr_replay_new(&r, &o, pol, 2, pol[0], &d) != SR_OK ||
			    sr_replay_feed(r, ev, n, &d) != SR_OK ||
			    sr_replay_finish(r, &res, &d) != SR_OK) {
				bad++;
				sr_replay_free(r);
				continue;
			}
			for (k = 0; k < 2; k++)
				bad += res->policy[k].swapins + res->policy[k].swapouts +
				       res->policy[k].unmatched_nodev + res->policy[k].swap_full != nswap;
			bad += res->events != nswap;
			mk[run] = res->policy[0].makespan_ns;
			sr_replay_free(r);
		}
		diff += mk[2] != mk[0] || mk[3] != mk[0];
	}
	CHECK(bad == 0);
	CHECK(diff == 0);
out:
	sr_machine_free(m);
	free(ev);
}

/*
 * kswapd (order.c, "kswapd"): one node, a pmem device that reads a page in
 * R = 1 ms + 1 ns (4096 B at 4.096 MB/s, the DRAM side 1 ns) and writes one
 * in W = 100 us + 1 ns (40.96 MB/s); the CPU's costs 1e-6 ns (a cluster
 * lock's lines too, L6: who held a cluster last differs between a run
 * with kswapd's records and one without, by such costs).  Task A
 * (pid 1, CPU 0) and pid 2 (CPU 1) share nothing but the device, whose
 * copies do not contend.
 */
static const char SLOW_PMEM[] =
	"{\"nodes\": [{\"cpus\": 4}],"
	" \"memory\": {\"read_local_gb_s\": 4096, \"read_remote_gb_s\": 4096,"
	"  \"write_local_gb_s\": 4096, \"write_remote_gb_s\": 4096},"
	" \"cpu\": {\"reclaim_ns\": 1e-6, \"reclaim_page_ns\": 1e-6, \"fault_ns\": 1e-6,"
	"  \"swap_lock_ns\": 1e-6, \"swap_slot_ns\": 1e-6, \"lru_lock_ns\": 1e-6,"
	"  \"lru_refault_ns\": 1e-6, \"swap_lock_other_ns\": 1e-6, \"swap_cache_lock_ns\": 1e-6,"
	"  \"remote_submit_ns\": 1e-6, \"blk_request_ns\": 1e-6, \"queue_lock_ns\": 1e-6,"
	"  \"remote_miss_ns\": 1e-6, \"line_ns\": 1e-6},"
	" \"devices\": [{\"name\": \"p\", \"class\": \"pmem\", \"node\": 0,"
	"  \"read_local_gb_s\": 0.004096, \"write_local_gb_s\": 0.04096}]}";
#define KR 1000001.0
#define KW 100001.0

static struct sr_event *kev(struct trace *t, uint64_t ts, int op, uint32_t pid, uint64_t off,
			    uint64_t lat, int kswapd)
{
	struct sr_event *e = &t->e[t->n++];

	sr_event_init(e);
	e->ts_ns = ts;
	e->op = (uint8_t)op;
	e->pid = pid;
	e->cpu = pid - 1;
	e->dev = 0;
	e->offset = off;
	e->nr_pages = 1;
	e->lat_ns = lat;
	e->flags |= SR_EV_HAS_CPU | SR_EV_HAS_OFFSET | SR_EV_HAS_RECLAIM;
	if (kswapd)
		e->flags |= SR_EV_KSWAPD;
	return e;
}

/* A replay of t (per task), with order_queue queue; its policy's figures
 * and task pid's. */
static const struct sr_policy_result *kreplay(struct sr_replay **rp, const struct sr_machine *m,
					      const struct trace *t, uint64_t queue, int no_shortcut,
					      uint32_t pid, const struct sr_task_result **task)
{
	static const char *const pol[] = { "reclaimer-nid" };
	struct sr_replay_opts o;
	const struct sr_result *res = NULL;
	struct sr_diag d;
	size_t i;

	*rp = NULL;
	*task = NULL;
	sr_replay_opts_init(&o);
	o.machine = m;
	o.per_task = 1;
	o.order_queue = queue;
	o.order_no_shortcut = no_shortcut;
	if (sr_replay_new(rp, &o, pol, 1, pol[0], &d) != SR_OK ||
	    sr_replay_feed(*rp, t->e, t->n, &d) != SR_OK ||
	    sr_replay_finish(*rp, &res, &d) != SR_OK) {
		printf("FAIL %s: replay: %s\n", test_name, d.msg);
		test_failed++;
		return NULL;
	}
	for (i = 0; i < res->policy[0].nr_tasks; i++)
		if (res->policy[0].task[i].pid == pid)
			*task = &res->policy[0].task[i];
	if (!*task) {
		printf("FAIL %s: no task %u\n", test_name, pid);
		test_failed++;
		return NULL;
	}
	return &res->policy[0];
}

/* The span of a task's swap-outs (first start to last end), ns, from its
 * KiB/s. */
static double out_span(const struct sr_task_result *x)
{
	return (double)x->pages_out * 4.0 / x->swapout_kib_s * 1e9;
}

/*
 * A record of kswapd starts at max(its clock, N) with a gap of 0, N the
 * simulation's time when it comes.  The trace (ns):
 *   1,000,000 out pid 2      1,101,000 in A (lat 100,000)
 *   1,000,500 in A (lat 100,000)   1,200,000 out pid 2   1,200,100 out pid 2
 * A: its first swap-in starts at 1,000,500 (its recorded time), ends
 * 1,000,500 + R; its second 500 ns later (its gap: 1,101,000 less
 * 1,000,500 + 100,000), at 2,001,001, ends 3,001,002.  Pid 2's first
 * write starts at its recorded 1,000,000 (a task's first record), ends at
 * c = 1,100,001.
 * kswapd: asleep after its write, it bounds nothing, and A's second
 * swap-in plays as soon as it comes (N = 2,001,001).  The second write
 * comes next: max(c, N) = 2,001,001, though its recorded gap is 200,000;
 * ends 2,101,002.  The third: N is still 2,001,001, c = 2,101,002: it
 * starts at c, not c + its recorded 100; ends 2,201,003.  Its writes span
 * 1,000 + R + 2 W = 1,201,003.
 * direct (its recorded gaps, as before): 1,100,001 + 200,000, then
 * + W + 100: they span 200,100 + 3 W = 500,103.
 * A is the same either way: its swap-ins span 2 R + 500 = 2,000,502, and
 * the run ends with it (makespan 2,001,002).
 */
static void kswapd_starts_at_demand(void)
{
	struct sr_machine *m = NULL;
	struct sr_replay *r[3] = { NULL, NULL, NULL };
	const struct sr_policy_result *p[3];
	const struct sr_task_result *k[3], *a;
	struct trace t = { NULL, 0 };
	struct sr_diag d;
	int run, i;

	CHECK(sr_machine_parse(&m, SLOW_PMEM, strlen(SLOW_PMEM), "slow-pmem", &d) == SR_OK);
	t.e = calloc(8, sizeof(*t.e));
	if (!m || !t.e)
		goto out;
	for (run = 0; run < 3; run++) {
		/* kswapd, kswapd through the queue, direct */
		int ksw = run < 2;

		t.n = 0;
		kev(&t, 1000000, SR_OP_OUT, 2, 10, 0, ksw);
		kev(&t, 1000500, SR_OP_IN, 1, 100, 100000, 0)->flags &= (uint8_t)~SR_EV_HAS_RECLAIM;
		kev(&t, 1101000, SR_OP_IN, 1, 101, 100000, 0)->flags &= (uint8_t)~SR_EV_HAS_RECLAIM;
		kev(&t, 1200000, SR_OP_OUT, 2, 11, 0, ksw);
		kev(&t, 1200100, SR_OP_OUT, 2, 12, 0, ksw);
		p[run] = kreplay(&r[run], m, &t, 0, run == 1, 2, &k[run]);
		if (!p[run])
			goto out;
	}
	CHECK(fabs(out_span(k[0]) - (1000 + KR + 2 * KW)) < 1);
	CHECK(fabs(out_span(k[2]) - (200100 + 3 * KW)) < 1);
	/* Its own time is its three writes either way. */
	CHECK(fabs(k[0]->busy_ns - 3 * KW) < 1 && fabs(k[2]->busy_ns - 3 * KW) < 1);
	for (i = 0; i < 3; i++) {
		a = NULL;
		for (size_t j = 0; j < p[i]->nr_tasks; j++)
			if (p[i]->task[j].pid == 1)
				a = &p[i]->task[j];
		CHECK(a && fabs((double)a->pages_in * 4.0 / a->swapin_kib_s * 1e9 - (2 * KR + 500)) < 1);
		CHECK(fabs(p[i]->makespan_ns - (1000 + 2 * KR)) < 1);
		CHECK(p[i]->order_forced == 0 && p[i]->order_late == 0);
	}
	/* The queue gives what the shortcut does. */
	CHECK(out_span(k[1]) == out_span(k[0]) && p[1]->makespan_ns == p[0]->makespan_ns);
	/* Played in the trace's order now; direct, the second write came
	 * before A's second swap-in, recorded before it. */
	CHECK(p[0]->order_behind == 0 && p[2]->order_behind == 1);
out:
	for (i = 0; i < 3; i++)
		sr_replay_free(r[i]);
	sr_machine_free(m);
	free(t.e);
}

/*
 * kswapd asleep holds nobody back.  Pid 2 writes at 1,000,000 and at
 * 5,450,000; between, A swaps in 40 pages, recorded every 110,000 ns
 * from 1,000,500 (lat 100,000: 10,000 of compute between), played every
 * R + 10,000 = 1,010,001.  With 8 records queued at most:
 * kswapd: asleep, it bounds nothing: each of A's swap-ins plays as it
 * comes, nothing forced, and the second write comes when A's last has
 * started, at N = 1,000,500 + 39 x 1,010,001 = 40,390,539: its writes
 * span 39,390,539 + W = 39,490,540.
 * direct (as before): idle, pid 2 bounds the others at T + (c - E), with
 * c - E = W (its write ended W after its recorded time), while A's
 * swap-ins start ever further past T: they wait, the queue fills, and
 * most are played all the same (forced); its second write starts at
 * 1,100,001 + 4,450,000, long before the time they reached (late), and
 * its writes span 4,450,000 + 2 W = 4,650,002.
 * A's swap-ins span 39 x 1,010,001 + R either way.
 */
static void kswapd_bounds_nothing(void)
{
	struct sr_machine *m = NULL;
	struct sr_replay *r[2] = { NULL, NULL };
	const struct sr_policy_result *p[2];
	const struct sr_task_result *k[2];
	struct trace t = { NULL, 0 };
	struct sr_diag d;
	int run, i;

	CHECK(sr_machine_parse(&m, SLOW_PMEM, strlen(SLOW_PMEM), "slow-pmem", &d) == SR_OK);
	t.e = calloc(64, sizeof(*t.e));
	if (!m || !t.e)
		goto out;
	for (run = 0; run < 2; run++) {
		t.n = 0;
		kev(&t, 1000000, SR_OP_OUT, 2, 10, 0, run == 0);
		for (i = 0; i < 40; i++)
			kev(&t, 1000500 + (uint64_t)i * 110000, SR_OP_IN, 1, 100 + (uint64_t)i, 100000, 0)
				->flags &= (uint8_t)~SR_EV_HAS_RECLAIM;
		kev(&t, 5450000, SR_OP_OUT, 2, 11, 0, run == 0);
		p[run] = kreplay(&r[run], m, &t, 8, 0, 2, &k[run]);
		if (!p[run])
			goto out;
	}
	CHECK(p[0]->order_forced == 0 && p[0]->order_late == 0);
	CHECK(fabs(out_span(k[0]) - (39390539 + KW)) < 1);
	CHECK(p[1]->order_forced > 20 && p[1]->order_late == 1);
	CHECK(fabs(out_span(k[1]) - (4450000 + 2 * KW)) < 1);
	CHECK(fabs(p[0]->makespan_ns - (500 + 39 * (KR + 10000) + KR)) < 1);
	CHECK(fabs(p[1]->makespan_ns - p[0]->makespan_ns) < 1e-3);
out:
	for (i = 0; i < 2; i++)
		sr_replay_free(r[i]);
	sr_machine_free(m);
	free(t.e);
}

void suite_order(void)
{
	TEST(drifting_tasks_in_time);
	TEST(full_queue_counted);
	TEST(behind_counted);
	TEST(random_task_ops);
	TEST(kswapd_starts_at_demand);
	TEST(kswapd_bounds_nothing);
}
