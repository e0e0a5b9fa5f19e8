/* SPDX-License-Identifier: MIT */
/*
 * The swap cache's trunk locks, 4.11 to 6.17 (docs/MODEL.md, L4): a lock
 * per 64 MB trunk of each device (2^14 slots, SR_SWAP_TRUNK_SHIFT), each
 * a calendar as every lock of the model is (hw/calendar.h), first come
 * first served.  Not a calendar per trunk for the life of a simulation: a
 * 64 GB device has 1024 trunks, a calendar of CAL_BUCKETS is 192 KiB, and
 * a simulation is copied whole when policies part (src/replay/shared.c).
 *
 * A lock matters only while it holds work at or after the simulation's
 * time (struct sr_hw's now): the core plays records in simulated time
 * (src/replay/order.c) and an event's holds start after its start, so
 * later requests start there or later.  A calendar whose work is all done
 * before the bucket that holds now answers every such request as a
 * calendar never used would: the buckets it reads are empty.  So the
 * trunks share a pool of calendars: a trunk keeps its calendar while it
 * has one; a trunk without one takes a calendar that is idle so (the
 * next one a clock hand finds), its trunk losing it, or a new one, up to
 * SR_HW_TRUNK_CALS.  Only when all of those are busy at once does a trunk
 * take a busy one, the one done first, and share its work with another
 * trunk's (false contention: counted, `shared`, and said by the report).
 * The pool's size is then how many trunks are busy at once, not how many
 * the devices have: about the tasks in the kernel at a time.
 *
 * Each calendar has SR_HW_TRUNK_BUCKETS buckets of CAL_BUCKET_NS (the si
 * and LRU locks' width): a lock's backlog is its waiters' holds, microseconds
 * each, and a request far after now waits in the calendar's far list
 * (calendar.h) as on any lock.  A request that starts more than half a
 * window before a calendar's latest (a record played late) is served at
 * once and counted stale, as on every calendar.
 *
 * Memory: at most SR_HW_TRUNK_CALS calendars of 96 KiB (12 MiB), each
 * made at its first use (under L5 only by a hold of another CPU's lock),
 * and per device a trunk's calendar and its last holder as 6 bytes a
 * trunk (6 KiB for 64 GB).
 */
#ifndef SR_HW_TRUNKS_H
#define SR_HW_TRUNKS_H

#include <stdint.h>

#include "hw/calendar.h"
#include "swapreplay/machine.h"

/* The calendars the trunks of one simulation's devices share, at most:
 * [E] 128, twice the most trunks busy at once that the validation suite
 * and make bench's traces need (the busy ones are about the tasks then in
 * the kernel: 32 for C2's 32 tasks, 67 for tests/bench/writer.c's 64). */
#define SR_HW_TRUNK_CALS 128u
/* A trunk calendar's buckets: 8192 of 10 us, a window of 82 ms (41 ms
 * behind the latest request), half a lock's usual (CAL_BUCKETS); none of
 * those traces' requests came before it, with up to 250,000 records
 * played late.  1024 (5 ms behind) was enough with `gen`'s reclaim of a
 * page at a time; its passes of 32 (G3) play C4's mix up to 20 ms late
 * (4096 buckets: 75 requests stale there; 8192: none). */
#define SR_HW_TRUNK_BUCKETS 8192
/* An event whose slot's position is not known: its holds take their time,
 * on no lock. */
#define SR_HW_TRUNK_NONE UINT32_MAX

struct sr_hw_trunks {
	struct cal *cal;     /* the pool, SR_HW_TRUNK_CALS places, n made */
	double *end;         /* per calendar: when the last work it took is done */
	int32_t *dv;         /* per calendar: the device and trunk it serves (-1: none) */
	uint32_t *trunk;
	uint16_t **ix;       /* per device: a trunk's calendar + 1 (0: none), NULL
			      * until the device's first trunk lock */
	int32_t **last;      /* per device: who held a trunk's lock last (sr_hw_holder();
			      * 0 nobody), NULL until sr_hw_trunks_dev() */
	uint32_t *ntrunks;   /* per device: its trunks */
	uint32_t n, hand;    /* calendars made; where the search for an idle one starts */
	uint64_t shared;     /* trunks that took a calendar still busy with another's */
};

/* t for machine m's devices (a device of size_pages has size_pages + 1
 * slots, the header's first), its calendars told the simulation's time
 * now; 0 or -1 out of memory (then sr_hw_trunks_free() it all the same). */
int sr_hw_trunks_init(struct sr_hw_trunks *t, const struct sr_machine *m, const double *now);
/* Free t (a zeroed one too). */
void sr_hw_trunks_free(struct sr_hw_trunks *t, int ndev);
/* dst (made by sr_hw_trunks_init() for the same machine, never used)
 * becomes a copy of src; 0 or -1 out of memory. */
int sr_hw_trunks_copy(struct sr_hw_trunks *dst, const struct sr_hw_trunks *src, int ndev);
/* Make device dv's record of who held each trunk's lock last (t->last[dv]);
 * 0, or -1 out of memory. */
int sr_hw_trunks_dev(struct sr_hw_trunks *t, int dv);
/* Requests the trunks' calendars served before their window. */
uint64_t sr_hw_trunks_stale(const struct sr_hw_trunks *t);
/* The calendar of device dv's trunk (< t->ntrunks[dv]) when it has none:
 * an idle one, a new one, or the busy one done first (see above), at the
 * simulation's time now; its place + 1, or 0 out of memory. */
uint32_t sr_hw_trunk_take(struct sr_hw_trunks *t, int dv, uint32_t trunk, double now);
/* The most memory a simulation's trunk locks take on machine m. */
size_t sr_hw_trunks_bytes(const struct sr_machine *m);

/* Device dv's trunk's calendar: its place in t->cal + 1, or 0 out of
 * memory.  trunk < t->ntrunks[dv]: the caller (sr_hw_trunk_lock()) folds
 * a trunk past the device's end (a recorded offset, replayed on a smaller
 * device) onto its trunks first, as its record of the last holder needs. */
static inline uint32_t sr_hw_trunk_cal(struct sr_hw_trunks *t, int dv, uint32_t trunk, double now)
{
	uint32_t i = t->ix[dv] ? t->ix[dv][trunk] : 0;

	return SR_LIKELY(i) ? i : sr_hw_trunk_take(t, dv, trunk, now);
}

#endif /* SR_HW_TRUNKS_H */
