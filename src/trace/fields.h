/* SPDX-License-Identifier: MIT */
/* An event's fields by name and the checks every reader makes of an
 * event (event.c). */
#ifndef SR_TRACE_FIELDS_H
#define SR_TRACE_FIELDS_H

#include <stddef.h>
#include <stdint.h>

#include "swapreplay/event.h"

/* Field ids, in the canonical column order. */
enum sr_field {
	SR_F_TS_NS, SR_F_OP, SR_F_PID, SR_F_CPU, SR_F_CPU_NID, SR_F_PAGE_NID,
	SR_F_DEV, SR_F_OFFSET, SR_F_NR_PAGES, SR_F_LAT_NS, SR_F_VADDR,
	SR_F_COUNT
};
extern const char *const sr_field_names[SR_F_COUNT];
/* Field id of a name, or -1. */
int sr_field_lookup(const char *name, size_t len);
/* Set one field of e from its text value; fills msg (size msz) on error. */
int sr_field_set_text(struct sr_event *e, enum sr_field f, const char *v,
		      size_t len, char *msg, size_t msz);
/* ts_ns, op, cpu_nid and page_nid must be given. */
int sr_field_required(enum sr_field f);
/* Check a whole event's values; returns 0 or -1 with msg. */
int sr_event_check(const struct sr_event *e, char *msg, size_t msz);

/* sr_event_check() without the message: 1 if e would pass it.  Inline, for
 * readers that check every event of a batch (the message is made only for
 * one that fails). */
static inline int sr_event_valid(const struct sr_event *e)
{
	uint32_t n = e->nr_pages;

	return e->op <= SR_OP_IN && e->cpu_nid < SR_MAX_NODES && e->page_nid < SR_MAX_NODES &&
	       n != 0 && !(n & (n - 1)) && n <= SR_MAX_NR_PAGES && e->dev >= -1 &&
	       !(e->flags & ~(SR_EV_HAS_CPU | SR_EV_HAS_OFFSET | SR_EV_HAS_VADDR));
}

#endif /* SR_TRACE_FIELDS_H */
