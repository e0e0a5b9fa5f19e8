/* SPDX-License-Identifier: MIT */
/*
 * swapreplay/stat.h - summary statistics of a trace (`swapreplay stat`),
 * and its timeline (`stat --timeline`).
 * The summary's memory grows with the number of distinct pids, CPUs and
 * devices, not with the number of events; a timeline's with its buckets.
 */
#ifndef SWAPREPLAY_STAT_H
#define SWAPREPLAY_STAT_H

#include <stddef.h>
#include <stdint.h>

#include "swapreplay/error.h"
#include "swapreplay/event.h"

struct sr_stat;

/* A new, empty accumulator; NULL on ENOMEM. */
struct sr_stat *sr_stat_new(void);
void sr_stat_free(struct sr_stat *s);

/* Add n events; SR_ERR_NOMEM if a set could not grow (the counts so far stay valid). */
enum sr_err sr_stat_add(struct sr_stat *s, const struct sr_event *evs, size_t n);

/*
 * The swap events (out, in), and apart from them the task ops (fork, exit,
 * wait; traces/FORMAT.md, "Tasks"), which only task_ops counts: every other
 * figure, the nodes and the devices are the swap events' (a task op has no
 * page, no device and no slot).
 */
struct sr_stat_summary {
	uint64_t events[2];      /* swap events by op (SR_OP_OUT, SR_OP_IN) */
	uint64_t pages[2];       /* base pages by op */
	uint64_t huge_events[2]; /* events of more than one base page, by op */
	uint64_t ts_min, ts_max; /* over all swap events (0, 0 if none) */
	uint64_t tasks;          /* distinct pids of the swap events */
	uint64_t cpus;           /* distinct CPUs among swap events that name one */
	uint64_t lat_known;      /* swap events with lat_ns > 0 */
	uint64_t lat_sum_ns;     /* sum of those latencies (saturating) */
	uint64_t task_ops[SR_OP_COUNT - SR_OP_FORK]; /* by op - SR_OP_FORK: fork, exit, wait */
	/* Swap-outs that say who reclaimed them: [0] kswapd, [1] direct
	 * reclaim (events[SR_OP_OUT] less both: unknown). */
	uint64_t out_reclaim[2];
	/* Swap-ins that say what fault read them: [0] a write fault, [1] a
	 * read fault (events[SR_OP_IN] less both: unknown). */
	uint64_t in_fault[2];
};

void sr_stat_summary(const struct sr_stat *s, struct sr_stat_summary *out);

/* Swap events per node id as CPU node (which = 0) or page node (which =
 * 1); node < SR_MAX_NODES. */
uint64_t sr_stat_node_events(const struct sr_stat *s, int which, unsigned node);

/*
 * Devices of the swap events, sorted by index (-1, unknown, first): fills
 * up to cap pairs and returns how many distinct devices there are in all.
 */
size_t sr_stat_devices(const struct sr_stat *s, int32_t *devs, uint64_t *counts,
		       size_t cap);

/* One memory cgroup's swap events (traces/FORMAT.md, "Memory cgroups"). */
struct sr_stat_memcg {
	unsigned id;        /* the kernel's memcg id; 0: the events without one */
	uint64_t events[2]; /* by op (SR_OP_OUT, SR_OP_IN) */
	uint64_t pages[2];  /* base pages by op */
};

/*
 * The memory cgroups of the swap events, sorted by id: the events without
 * one (id 0) first, when any event has one (a trace without memcgs has
 * none at all: 0).  Fills up to cap and returns how many there are in all.
 */
size_t sr_stat_memcgs(const struct sr_stat *s, struct sr_stat_memcg *out, size_t cap);

/*
 * A timeline: swap-out and swap-in pages per time bucket of width_ns from
 * the first swap event (its time floored to a width); task ops are not
 * counted.  Events before that bucket count in it.  Rather than grow past SR_TIMELINE_MAX_BUCKETS, the
 * buckets double in width (sr_timeline_info.widened says how many times).
 */
#define SR_TIMELINE_MAX_BUCKETS 100000

struct sr_timeline;

/* A new, empty timeline of buckets width_ns wide; NULL on ENOMEM or a width of 0. */
struct sr_timeline *sr_timeline_new(uint64_t width_ns);
/*
 * A timeline whose buckets adapt to the trace's span, known at its end:
 * the widest of 1, 2 and 5 x 10^k ns, no wider than max_width_ns, that
 * makes at least min_buckets buckets from the first event to the last (a
 * trace too short for that many gets the finest, 1 ns; one of a single
 * instant, max_width_ns).  Beyond SR_TIMELINE_MAX_BUCKETS of max_width_ns,
 * wider (widened).  NULL on ENOMEM or a 0 argument.
 */
struct sr_timeline *sr_timeline_new_auto(uint64_t max_width_ns, unsigned min_buckets);
void sr_timeline_free(struct sr_timeline *t);
/* Add n events; SR_ERR_NOMEM if the buckets could not grow. */
enum sr_err sr_timeline_add(struct sr_timeline *t, const struct sr_event *evs, size_t n);

struct sr_timeline_info {
	uint64_t width_ns;       /* the buckets' width now (after widening) */
	uint64_t base_ns;        /* the start of bucket 0 */
	size_t buckets;          /* from bucket 0 to the last event's (0 if none) */
	unsigned widened;        /* times the width doubled (adaptive: grew tenfold,
				  * when it ends wider than its max_width_ns) */
};

void sr_timeline_get(const struct sr_timeline *t, struct sr_timeline_info *out);
/* Base pages of op (SR_OP_OUT, SR_OP_IN) in bucket i; 0 beyond the last. */
uint64_t sr_timeline_pages(const struct sr_timeline *t, size_t i, int op);
/* The same as KiB (4 KiB pages) per second of the bucket. */
double sr_timeline_kib_s(const struct sr_timeline *t, size_t i, int op);

#endif /* SWAPREPLAY_STAT_H */
