/* The task ops in the replay (docs/MODEL.md, "Tasks"): a forked task
 * starts at its parent's clock, a wait ends no earlier than its child's
 * exit, and a trace without them replays as before. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "swapreplay/machine.h"
#include "swapreplay/replay.h"
#include "test.h"

#define NCHILD 5
#define NIN 20

/* One node, one NVMe whose reads take 1 ms: ten times the recording's. */
static const char SLOW_READS[] =
	"{\"nodes\": [{\"cpus\": 4}], \"devices\": ["
	" {\"name\": \"a\", \"class\": \"nvme\", \"node\": 0, \"read_lat_us\": 1000}]}";

struct tev {
	struct sr_event e[NCHILD * (NIN + 3) + 1];
	size_t n;
};

static struct sr_event *push(struct tev *v, uint64_t ts, int op, uint32_t pid)
{
	struct sr_event *e = &v->e[v->n++];

	sr_event_init(e);
	e->ts_ns = ts;
	e->op = (uint8_t)op;
	e->pid = pid;
	return e;
}

/*
 * A parent (pid 1) runs five children (pids 2 to 6) one after another:
 * fork, the child's 20 swap-ins (each 100 us as recorded, 10 us of
 * compute between), its exit, the parent's wait, the next fork.  With
 * ops 0, the same swap-ins without the forks, exits and waits.
 */
static void children(struct tev *v, int ops)
{
	uint64_t ts = 1000000;
	uint32_t c;
	int i;

	v->n = 0;
	for (c = 2; c < 2 + NCHILD; c++) {
		if (ops) {
			struct sr_event *f = push(v, ts, SR_OP_FORK, 1);

			f->child = c;
			f->flags |= SR_EV_HAS_CHILD;
		}
		for (i = 0; i < NIN; i++) {
			struct sr_event *e;

			ts += 10000;
			e = push(v, ts, SR_OP_IN, c);
			e->lat_ns = 100000;
			ts += 100000;
		}
		ts += 10000;
		if (ops) {
			struct sr_event *w;

			push(v, ts, SR_OP_EXIT, c);
			w = push(v, ts + 1, SR_OP_WAIT, 1);
			w->child = c;
			w->flags |= SR_EV_HAS_CHILD;
		}
		ts += 1000;
	}
}

static const struct sr_result *replay(struct sr_replay **rp, const struct sr_machine *m,
				      const struct tev *v, int sim_threads)
{
	static const char *const pol[] = { "reclaimer-nid", "page-nid" };
	struct sr_replay_opts o;
	const struct sr_result *res = NULL;
	struct sr_diag d;

	*rp = NULL;
	sr_replay_opts_init(&o);
	o.machine = m;
	o.per_task = 1;
	o.sim_threads = sim_threads;
	if (sr_replay_new(rp, &o, pol, 2, pol[0], &d) != SR_OK ||
	    sr_replay_feed(*rp, v->e, v->n, &d) != SR_OK ||
	    sr_replay_finish(*rp, &res, &d) != SR_OK) {
		printf("FAIL %s: replay: %s\n", test_name, d.msg);
		test_failed++;
		return NULL;
	}
	return res;
}

/* The children's own times: each one's swap-in phase, first start to last
 * end (pages x 4 KiB / its KiB/s). */
static double children_time(const struct sr_policy_result *p)
{
	double sum = 0;
	size_t i;

	for (i = 0; i < p->nr_tasks; i++)
		if (p->task[i].pid >= 2 && p->task[i].swapin_kib_s > 0)
			sum += (double)p->task[i].pages_in * 4.0 / p->task[i].swapin_kib_s * 1e9;
	return sum;
}

/* The test: on a machine ten times slower than the recording's,
 * the children still run one after another. */
static void children_in_turn(void)
{
	struct sr_machine *m = NULL;
	struct sr_diag d;
	struct tev *v = calloc(1, sizeof(*v));
	struct sr_replay *r = NULL, *r0 = NULL;
	const struct sr_result *res, *res0;
	double own, own0;

	CHECK(v != NULL);
	CHECK(sr_machine_parse(&m, SLOW_READS, strlen(SLOW_READS), "slow-reads", &d) == SR_OK);
	if (!v || !m)
		goto out;
	children(v, 1);
	res = replay(&r, m, v, 0);
	children(v, 0);
	res0 = replay(&r0, m, v, 0);
	if (!res || !res0)
		goto out;
	own = children_time(&res->policy[0]);
	own0 = children_time(&res0->policy[0]);
	/* Each child's 20 reads take at least 20 ms here. */
	CHECK(own > NCHILD * NIN * 1e6 && own0 > NCHILD * NIN * 1e6);
	CHECK(res->policy[0].makespan_ns >= 0.9 * own);
	/* Without the ops they overlap (below). */
	CHECK(res0->policy[0].makespan_ns < 0.5 * own0);
	CHECK(res->forks == NCHILD && res->exits == NCHILD && res->waits == NCHILD);
	CHECK(res->tasks_forked == NCHILD && res->tasks_unforked == 1 && res->tasks == NCHILD + 1);
	CHECK(res->forks_late == 0 && res->waits_unmatched == 0);
	CHECK(res->events == NCHILD * NIN && res0->events == NCHILD * NIN);
	CHECK(res0->forks == 0 && res0->tasks_forked == 0 && res0->tasks_unforked == NCHILD);
	/* One child at a time with the ops (the parent never swapped: not
	 * counted).  Without them, a child ended leaves no exit: until the
	 * trace's time is past its last event, it might still act, and
	 * bounds what the simulation plays (order.c), so the next children
	 * start while the simulation is held there, and overlap. */
	CHECK(res->policy[0].tasks_alive_max == 1);
	CHECK(res0->policy[0].tasks_alive_max >= 3);
	/* Both policies share a simulation (they decide alike): the same. */
	CHECK(res->policy[1].makespan_ns == res->policy[0].makespan_ns);
out:
	sr_replay_free(r);
	sr_replay_free(r0);
	sr_machine_free(m);
	free(v);
}

/* The simulation threads play task ops as the replay's thread does. */
static void children_threads_same(void)
{
	struct sr_machine *m = NULL;
	struct sr_diag d;
	struct tev *v = calloc(1, sizeof(*v));
	struct sr_replay *r = NULL, *r2 = NULL;
	const struct sr_result *a, *b;

	CHECK(v != NULL);
	CHECK(sr_machine_parse(&m, SLOW_READS, strlen(SLOW_READS), "slow-reads", &d) == SR_OK);
	if (!v || !m)
		goto out;
	children(v, 1);
	a = replay(&r, m, v, 0);
	b = replay(&r2, m, v, 2);
	CHECK(a && b && a->policy[0].makespan_ns == b->policy[0].makespan_ns &&
	      a->policy[0].swapout_lat_mean_ns == b->policy[0].swapout_lat_mean_ns &&
	      a->policy[0].throughput_kib_s == b->policy[0].throughput_kib_s);
out:
	sr_replay_free(r);
	sr_replay_free(r2);
	sr_machine_free(m);
	free(v);
}

/* A wait for a task never seen, and a fork of a task seen before: left as
 * recorded, and counted. */
static void unmatched_ops(void)
{
	struct sr_machine *m = NULL;
	struct sr_diag d;
	struct tev *v = calloc(1, sizeof(*v));
	struct sr_replay *r = NULL;
	const struct sr_result *res;
	struct sr_event *e;

	CHECK(v != NULL);
	CHECK(sr_machine_parse(&m, SLOW_READS, strlen(SLOW_READS), "slow-reads", &d) == SR_OK);
	if (!v || !m)
		goto out;
	e = push(v, 1000, SR_OP_IN, 7);
	e = push(v, 2000, SR_OP_FORK, 1);
	e->child = 7;
	e->flags |= SR_EV_HAS_CHILD;
	e = push(v, 3000, SR_OP_WAIT, 1);
	e->child = 9;
	e->flags |= SR_EV_HAS_CHILD;
	e = push(v, 4000, SR_OP_WAIT, 1);
	e->child = 7; /* seen, not exited */
	e->flags |= SR_EV_HAS_CHILD;
	res = replay(&r, m, v, 0);
	CHECK(res && res->forks == 1 && res->forks_late == 1 && res->tasks_forked == 0 &&
	      res->waits == 2 && res->waits_unmatched == 2 && res->events == 1 &&
	      res->tasks == 2);
out:
	sr_replay_free(r);
	sr_machine_free(m);
	free(v);
}

/* A pid used again after its exit, waiting for "itself" and for a task
 * that waits for it: every event is played all the same (order.c's drain
 * ends the waits no exit will end), none twice. */
static void waits_never_ended(void)
{
	struct sr_machine *m = NULL;
	struct sr_replay *r = NULL;
	const struct sr_result *res;
	struct tev *v = calloc(1, sizeof(*v));
	struct sr_event *e;
	struct sr_diag d;

	CHECK(v != NULL);
	CHECK(sr_machine_parse(&m, SLOW_READS, strlen(SLOW_READS), "slow-reads", &d) == SR_OK);
	if (!v || !m)
		goto out;
	push(v, 1000, SR_OP_IN, 5);
	push(v, 1100, SR_OP_IN, 6);
	push(v, 2000, SR_OP_EXIT, 5);
	push(v, 2100, SR_OP_EXIT, 6);
	push(v, 3000, SR_OP_IN, 5);   /* pid 5 again */
	push(v, 3100, SR_OP_IN, 6);   /* and 6 */
	e = push(v, 4000, SR_OP_WAIT, 5);
	e->child = 5;
	e->flags |= SR_EV_HAS_CHILD;
	e = push(v, 4100, SR_OP_WAIT, 5);
	e->child = 6;
	e->flags |= SR_EV_HAS_CHILD;
	e = push(v, 4200, SR_OP_WAIT, 6);
	e->child = 5;
	e->flags |= SR_EV_HAS_CHILD;
	push(v, 5000, SR_OP_IN, 5);
	push(v, 5100, SR_OP_IN, 6);
	res = replay(&r, m, v, 0);
	CHECK(res && res->events == 6 && res->waits == 3 && res->waits_unmatched == 0);
	CHECK(res && res->policy[0].swapins == 6 && res->policy[1].swapins == 6);
	/* Six reads of at least 1 ms, two tasks: 3 ms at least, in one go. */
	CHECK(res && res->policy[0].makespan_ns >= 3e6 && res->policy[0].makespan_ns < 1e9);
out:
	sr_replay_free(r);
	sr_machine_free(m);
	free(v);
}

/* One node, one NVMe whose reads take 10 us: ten times faster than the
 * recording's. */
static const char FAST_READS[] =
	"{\"nodes\": [{\"cpus\": 4}], \"devices\": ["
	" {\"name\": \"a\", \"class\": \"nvme\", \"node\": 0, \"read_lat_us\": 10}]}";

/* A wait's lat_ns is the time the parent waited in the recording (it
 * called wait4() right after each fork): on a faster machine its waits
 * end with its children's exits, not when the recording's did.  Without
 * it, the recorded wait is compute, and the parent keeps the recording's
 * pace (an upper bound). */
static void wait_lat_not_compute(void)
{
	struct sr_machine *m = NULL;
	struct sr_diag d;
	struct tev *v = calloc(1, sizeof(*v));
	struct sr_replay *r = NULL, *r0 = NULL;
	const struct sr_result *res, *res0;
	uint64_t fork_ts = 0;
	size_t i;

	CHECK(v != NULL);
	CHECK(sr_machine_parse(&m, FAST_READS, strlen(FAST_READS), "fast-reads", &d) == SR_OK);
	if (!v || !m)
		goto out;
	children(v, 1);
	res0 = replay(&r0, m, v, 0);
	for (i = 0; i < v->n; i++) {
		if (v->e[i].op == SR_OP_FORK)
			fork_ts = v->e[i].ts_ns;
		if (v->e[i].op == SR_OP_WAIT)
			v->e[i].lat_ns = v->e[i].ts_ns - fork_ts;
	}
	res = replay(&r, m, v, 0);
	CHECK(res && res0);
	if (!res || !res0)
		goto out;
	/* Recorded: 5 children of 20 x 110 us, 11.3 ms in all; each child
	 * now takes 20 x (10 us of compute + a read of 10 us and its CPU
	 * costs), some 0.5 ms. */
	CHECK(res0->policy[0].makespan_ns >= 11e6);
	CHECK(res->policy[0].makespan_ns < 0.5 * res0->policy[0].makespan_ns);
	CHECK(res->policy[0].makespan_ns >= 5 * 20 * 20e3);
	CHECK(res->waits == 5 && res->waits_unmatched == 0);
out:
	sr_replay_free(r);
	sr_replay_free(r0);
	sr_machine_free(m);
	free(v);
}

void suite_tasks(void)
{
	TEST(wait_lat_not_compute);
	TEST(children_in_turn);
	TEST(children_threads_same);
	TEST(unmatched_ops);
	TEST(waits_never_ended);
}
