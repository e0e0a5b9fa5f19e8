/* SPDX-License-Identifier: MIT */
/*
 * Whether the decisions' order moves the figures (issue 31; docs/MODEL.md,
 * "The core"): a study, run by tests/validation/decision-order.sh.
 *
 *   decision_order TRACE MACHINE POLICY KERNEL SLOTS_CACHE READAHEAD [PASSES]
 *
 * READAHEAD as sr_readahead_parse() reads it ("cluster;page-cluster=3;
 * window=fixed;holes=skip;memory=16384", memory in pages).
 *
 * A replay takes the decisions (device, slots, slots cache, readahead,
 * plugs) in the trace's order, and its simulation plays the events in
 * simulated time.  This replays the trace once as it is (pass 1), noting
 * the order in which the simulation played each task's records, then
 * again with the events given in that order (pass 2: each task's events
 * in their own order, the tasks interleaved as the simulation played
 * them): the decisions then come in the simulation's order, and the
 * simulation plays in its own time again.  Each further pass takes the
 * order the last one played.  Prints one line per pass: makespan, mean
 * swap-in latency, throughput, swap-ins found in the swap cache, swap-ins
 * whose swap-out was not found (a recorded slot another task's swap-out
 * took first), events given out of the recorded time's order (late, as
 * pass 2's are), order_behind.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "swapreplay/kernel.h"
#include "swapreplay/machine.h"
#include "swapreplay/replay.h"
#include "swapreplay/trace.h"

struct played {
	long *task;
	size_t n, cap;
};

static void on_played(void *arg, long task)
{
	struct played *p = arg;

	if (p->n == p->cap) {
		size_t cap = p->cap ? 2 * p->cap : 1 << 16;
		long *t = realloc(p->task, cap * sizeof(*t));

		if (!t) {
			fprintf(stderr, "decision_order: out of memory\n");
			exit(1);
		}
		p->task = t;
		p->cap = cap;
	}
	p->task[p->n++] = task;
}

static int die(const char *what, const struct sr_diag *d)
{
	fprintf(stderr, "decision_order: %s: %s\n", what, d->msg);
	return 1;
}

int main(int argc, char **argv)
{
	struct sr_replay_opts o;
	struct sr_machine *m = NULL;
	struct sr_reader *rd = NULL;
	struct sr_diag d;
	struct sr_event *ev = NULL, *next;
	struct played pl = { NULL, 0, 0 };
	size_t n = 0, cap = 0, got, i, k, ntask = 0;
	uint32_t *pid_of = NULL;
	long *task_of, *first, *pos;
	const char *pol[1];
	int pass, passes = argc > 7 ? atoi(argv[7]) : 2;

	if (argc < 7) {
		fprintf(stderr, "usage: decision_order TRACE MACHINE POLICY KERNEL "
				"SLOTS_CACHE READAHEAD [PASSES]\n");
		return 2;
	}
	pol[0] = argv[3];
	sr_replay_opts_init(&o);
	if (sr_machine_load(&m, argv[2], &d) != SR_OK)
		return die(argv[2], &d);
	o.machine = m;
	if (sr_kernel_parse(argv[4], &o.kernel, &d) != SR_OK)
		return die(argv[4], &d);
	o.slots_cache = atoi(argv[5]);
	if (sr_readahead_parse(argv[6], &o.readahead, &d) != SR_OK)
		return die(argv[6], &d);
	if (sr_reader_open(&rd, argv[1], NULL, &d) != SR_OK)
		return die(argv[1], &d);
	for (;;) {
		if (n + 65536 > cap) {
			cap = cap ? 2 * cap : 1 << 20;
			ev = realloc(ev, cap * sizeof(*ev));
			if (!ev)
				return 1;
		}
		if (sr_reader_read(rd, ev + n, 65536, &got, &d) != SR_OK)
			return die(argv[1], &d);
		if (!got)
			break;
		n += got;
	}
	sr_reader_close(rd);
	/* Each event's task: the replay's numbers, by the first appearance of
	 * its pid, an event's or a fork's child's (tasks.c, replay.c). */
	task_of = malloc(n * sizeof(*task_of));
	pid_of = malloc(n * sizeof(*pid_of));
	next = malloc(n * sizeof(*next));
	first = calloc(2 * n + 1, sizeof(*first));
	pos = calloc(n + 1, sizeof(*pos));
	if (!task_of || !pid_of || !next || !first || !pos)
		return 1;
	pid_of = realloc(pid_of, 2 * n * sizeof(*pid_of));
	if (!pid_of)
		return 1;
	for (i = 0; i < n; i++) {
		for (k = 0; k < ntask && pid_of[k] != ev[i].pid; k++)
			;
		if (k == ntask)
			pid_of[ntask++] = ev[i].pid;
		task_of[i] = (long)k;
		/* (A fork makes its child's task, as replay.c does.) */
		if (ev[i].op == SR_OP_FORK) {
			for (k = 0; k < ntask && pid_of[k] != ev[i].child; k++)
				;
			if (k == ntask)
				pid_of[ntask++] = ev[i].child;
		}
	}
	printf("pass makespan_ms lat_mean_us kib_s swapcache_hits unmatched_in late_events "
	       "order_behind\n");
	for (pass = 1; pass <= passes; pass++) {
		struct sr_replay *r = NULL;
		const struct sr_result *res;
		const struct sr_policy_result *p;
		size_t *cnt;

		pl.n = 0;
		o.order_played = on_played;
		o.order_played_arg = &pl;
		o.ordered = pass > 1;
		if (sr_replay_new(&r, &o, pol, 1, pol[0], &d) != SR_OK ||
		    sr_replay_feed(r, ev, n, &d) != SR_OK || sr_replay_finish(r, &res, &d) != SR_OK)
			return die("replay", &d);
		p = &res->policy[0];
		printf("%d %.3f %.2f %.0f %llu %llu %llu %llu\n", pass, p->makespan_ns / 1e6,
		       p->swapin_lat.count ? p->swapin_lat.sum_ns / (double)p->swapin_lat.count / 1e3 : 0,
		       p->throughput_kib_s, (unsigned long long)p->swapcache_hits,
		       (unsigned long long)p->unmatched_in,
		       (unsigned long long)res->late_events, (unsigned long long)p->order_behind);
		sr_replay_free(r);
		if (pass == passes)
			break;
		/* The next pass's order: the k-th record of task t played is
		 * the task's k-th event. */
		if (pl.n != n) {
			fprintf(stderr, "decision_order: %zu records played of %zu events\n", pl.n, n);
			return 1;
		}
		cnt = calloc(ntask + 1, sizeof(*cnt));
		if (!cnt)
			return 1;
		/* first[t]: where task t's events start in a by-task list
		 * (pos), in their order. */
		for (i = 0; i < n; i++)
			cnt[task_of[i] + 1]++;
		for (k = 1; k <= ntask; k++)
			cnt[k] += cnt[k - 1];
		for (k = 0; k < ntask; k++)
			first[k] = (long)cnt[k];
		for (i = 0; i < n; i++)
			pos[cnt[task_of[i]]++] = (long)i;
		for (i = 0; i < n; i++) {
			long t = pl.task[i];

			if (t < 0 || (size_t)t >= ntask || first[t] >= (long)cnt[t]) {
				fprintf(stderr, "decision_order: task %ld played more records than "
						"it has events\n", t);
				return 1;
			}
			next[i] = ev[pos[first[t]++]];
		}
		free(cnt);
		/* (task_of follows the events.) */
		for (i = 0; i < n; i++)
			task_of[i] = pl.task[i];
		memcpy(ev, next, n * sizeof(*ev));
	}
	free(pl.task);
	free(ev);
	free(next);
	free(task_of);
	free(pid_of);
	free(first);
	free(pos);
	sr_machine_free(m);
	return 0;
}
