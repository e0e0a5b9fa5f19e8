/* The time-ordered core (src/replay/order.c, docs/MODEL.md, "The core"):
 * tasks that drift apart are played in simulated time, no request is
 * served without contention, no device is busier than the run is long,
 * the shortcut that plays an idle task's record at once gives the queue's
 * figures, and a full queue is counted. */
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
 * seen, pids used again after their exit): every swap event is played
 * once, whatever the queue's size, with or without the shortcut, on the
 * simulation threads or not, and the figures do not depend on the
 * shortcut or the threads. */
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

void suite_order(void)
{
	TEST(drifting_tasks_in_time);
	TEST(full_queue_counted);
	TEST(behind_counted);
	TEST(random_task_ops);
}
