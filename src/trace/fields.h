/* SPDX-License-Identifier: MIT */
/* An event's fields by name and the checks every reader makes of an
 * event (event.c). */
#ifndef SR_TRACE_FIELDS_H
#define SR_TRACE_FIELDS_H

#include <stddef.h>
#include <stdint.h>

#include "common/compiler.h"
#include "swapreplay/event.h"

/* Field ids, in the canonical column order. */
enum sr_field {
	SR_F_TS_NS, SR_F_OP, SR_F_PID, SR_F_CPU, SR_F_CPU_NID, SR_F_PAGE_NID,
	SR_F_DEV, SR_F_OFFSET, SR_F_NR_PAGES, SR_F_LAT_NS, SR_F_VADDR, SR_F_CHILD,
	SR_F_RECLAIM, SR_F_FAULT, SR_F_MEMCG, SR_F_MEMCG_PATH,
	SR_F_COUNT
};
extern const char *const sr_field_names[SR_F_COUNT];
/* Field id of a name, or -1. */
int sr_field_lookup(const char *name, size_t len);
/* Set one field of e from its text value; fills msg (size msz) on error.
 * Not memcg_path, which names the row's memcg in the reader's table
 * (sr_memcgs_set(), memcgs.c): the text readers keep it until the row's
 * event is whole. */
int sr_field_set_text(struct sr_event *e, enum sr_field f, const char *v,
		      size_t len, char *msg, size_t msz);
/* ts_ns, op, cpu_nid and page_nid must be given. */
int sr_field_required(enum sr_field f);
/*
 * Check a whole event's values; returns 0 or -1 with msg.  Beyond each
 * field's range, what its op asks (traces/FORMAT.md, "Tasks"): a swap event
 * has no child; a task op has no offset and no vaddr, nr_pages 1 and dev -1,
 * and a pid; fork and wait name a child, neither 0 nor the pid; exit none.
 * Only a swap-out has a reclaim, only a swap-in a fault; a task op no
 * memcg.
 */
int sr_event_check(const struct sr_event *e, char *msg, size_t msz);

/* The flag bits an event of each kind may have: every swap event, a
 * swap-out (its reclaim) and a swap-in (its fault) besides, a task op. */
#define SR_EV_SWAP_FLAGS (SR_EV_HAS_CPU | SR_EV_HAS_OFFSET | SR_EV_HAS_VADDR)
#define SR_EV_OUT_FLAGS (SR_EV_SWAP_FLAGS | SR_EV_HAS_RECLAIM | SR_EV_KSWAPD)
#define SR_EV_IN_FLAGS (SR_EV_SWAP_FLAGS | SR_EV_HAS_FAULT | SR_EV_WRITE_FAULT)
#define SR_EV_TASK_FLAGS (SR_EV_HAS_CPU | SR_EV_HAS_CHILD)
/* The value bits of reclaim and fault, each its given bit << 1: a value
 * bit without its given bit is refused. */
#define SR_EV_VALUE_FLAGS (SR_EV_KSWAPD | SR_EV_WRITE_FAULT)
_Static_assert(SR_EV_KSWAPD == SR_EV_HAS_RECLAIM << 1 &&
	       SR_EV_WRITE_FAULT == SR_EV_HAS_FAULT << 1, "a value bit is its given bit << 1");

/* sr_event_valid() of a task op (e->op > SR_OP_IN). */
static inline int sr_task_valid(const struct sr_event *e)
{
	return e->op < SR_OP_COUNT && e->cpu_nid < SR_MAX_NODES && e->page_nid < SR_MAX_NODES &&
	       e->nr_pages == 1 && e->dev == -1 && !(e->flags & ~SR_EV_TASK_FLAGS) &&
	       e->pid != 0 && !e->memcg &&
	       (e->op == SR_OP_EXIT ? !(e->flags & SR_EV_HAS_CHILD) :
		(e->flags & SR_EV_HAS_CHILD) && e->child != 0 && e->child != e->pid);
}

/* The flags of a swap event (e->op is SR_OP_OUT or SR_OP_IN) that has
 * more than SR_EV_SWAP_FLAGS: its op's, a value bit only with its given
 * bit. */
static inline int sr_swap_ctx_valid(const struct sr_event *e)
{
	return !(e->flags & ~(e->op == SR_OP_OUT ? SR_EV_OUT_FLAGS : SR_EV_IN_FLAGS)) &&
	       !((e->flags & SR_EV_VALUE_FLAGS) >> 1 & ~e->flags);
}

/* sr_event_check() without the message: 1 if e would pass it.  Inline, for
 * readers that check every event of a batch (the message is made only for
 * one that fails).  A swap event costs what it did before task ops: the
 * test of its op was there already; and one without reclaim or fault
 * what it did before them: the test of its flags was there too. */
static inline int sr_event_valid(const struct sr_event *e)
{
	uint32_t n = e->nr_pages;

	if (SR_UNLIKELY(e->op > SR_OP_IN))
		return sr_task_valid(e);
	return e->cpu_nid < SR_MAX_NODES && e->page_nid < SR_MAX_NODES &&
	       n != 0 && !(n & (n - 1)) && n <= SR_MAX_NR_PAGES && e->dev >= -1 &&
	       (SR_LIKELY(!(e->flags & ~SR_EV_SWAP_FLAGS)) || sr_swap_ctx_valid(e));
}

#endif /* SR_TRACE_FIELDS_H */
