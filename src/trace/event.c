/* SPDX-License-Identifier: MIT */
/*
 * The canonical event's fields: names, text parsing and range checks, shared
 * by every reader so that each format accepts exactly the same values.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <stdlib.h>
#include <stdint.h>
#include <stddef.h>

#include "common/compiler.h"
#include "common/parse.h"
#include "trace/fields.h"

/* Checklist: keep in step with enum sr_field, traces/FORMAT.md and the
 * CSV/JSON writers (writer.c). */
const char *const sr_field_names[SR_F_COUNT] = {
	[SR_F_TS_NS] = "ts_ns",
	[SR_F_OP] = "op",
	[SR_F_PID] = "pid",
	[SR_F_CPU] = "cpu",
	[SR_F_CPU_NID] = "cpu_nid",
	[SR_F_PAGE_NID] = "page_nid",
	[SR_F_DEV] = "dev",
	[SR_F_OFFSET] = "offset",
	[SR_F_NR_PAGES] = "nr_pages",
	[SR_F_LAT_NS] = "lat_ns",
	[SR_F_VADDR] = "vaddr",
	[SR_F_CHILD] = "child",
	[SR_F_RECLAIM] = "reclaim",
	[SR_F_FAULT] = "fault",
	[SR_F_MEMCG] = "memcg",
	[SR_F_MEMCG_PATH] = "memcg_path",
};

void sr_event_init(struct sr_event *e)
{
	memset(e, 0, sizeof(*e));
	e->dev = -1;
	e->nr_pages = 1;
}

const char *sr_op_name(enum sr_op op)
{
	static const char *const names[SR_OP_COUNT] = { "out", "in", "fork", "exit", "wait" };

	return (unsigned)op < SR_OP_COUNT ? names[op] : "?";
}

int sr_field_lookup(const char *name, size_t len)
{
	int i;

	for (i = 0; i < SR_F_COUNT; i++)
		if (strlen(sr_field_names[i]) == len &&
		    memcmp(sr_field_names[i], name, len) == 0)
			return i;
	return -1;
}

/* Copy a value for a message, shortened and with control bytes shown as '?'. */
static void show(char *dst, size_t dsz, const char *v, size_t len)
{
	size_t i, n = len < 40 ? len : 40;

	for (i = 0; i < n && i + 1 < dsz; i++) {
		unsigned char c = (unsigned char)v[i];

		dst[i] = (c < 0x20 || c == 0x7f) ? '?' : (char)c;
	}
	dst[i] = '\0';
	if (len > n && i + 4 < dsz)
		strcpy(dst + i, "...");
}

static int bad(char *msg, size_t msz, const char *what, enum sr_field f,
	       const char *v, size_t len)
{
	char shown[48];

	show(shown, sizeof(shown), v, len);
	snprintf(msg, msz, "%s (%s, \"%s\")", what,
		 (unsigned)f < SR_F_COUNT ? sr_field_names[f] : "?", shown);
	return -1;
}


static int required(enum sr_field f)
{
	return f == SR_F_TS_NS || f == SR_F_OP || f == SR_F_CPU_NID || f == SR_F_PAGE_NID;
}

int sr_field_required(enum sr_field f)
{
	return required(f);
}

/* The message for a number that did not parse (rc from sr_parse_u64). */
static int bad_number(int rc, enum sr_field f, const char *v, size_t len, char *msg,
		      size_t msz)
{
	if (len && v[0] == '-')
		return bad(msg, msz, "negative number", f, v, len);
	if (rc == -2)
		return bad(msg, msz, (f == SR_F_CPU_NID || f == SR_F_PAGE_NID) ?
				     "node id over 1023" : "number overflows 64 bits", f, v, len);
	return bad(msg, msz, "not a number", f, v, len);
}

/* reclaim (kswapd, direct) or fault (write, read) from its word. */
static int set_word(struct sr_event *e, enum sr_field f, const char *v, size_t len,
		    char *msg, size_t msz)
{
	if (f == SR_F_RECLAIM) {
		if (len == 6 && memcmp(v, "kswapd", 6) == 0)
			e->flags |= SR_EV_HAS_RECLAIM | SR_EV_KSWAPD;
		else if (len == 6 && memcmp(v, "direct", 6) == 0)
			e->flags = (uint8_t)((e->flags | SR_EV_HAS_RECLAIM) & ~SR_EV_KSWAPD);
		else
			return bad(msg, msz, "unknown reclaim, expected kswapd or direct", f, v, len);
		return 0;
	}
	if (len == 5 && memcmp(v, "write", 5) == 0)
		e->flags |= SR_EV_HAS_FAULT | SR_EV_WRITE_FAULT;
	else if (len == 4 && memcmp(v, "read", 4) == 0)
		e->flags = (uint8_t)((e->flags | SR_EV_HAS_FAULT) & ~SR_EV_WRITE_FAULT);
	else
		return bad(msg, msz, "unknown fault, expected write or read", f, v, len);
	return 0;
}

/* One parse per value: the hot path of the text readers. */
int sr_field_set_text(struct sr_event *e, enum sr_field f, const char *v,
		      size_t len, char *msg, size_t msz)
{
	uint64_t x;
	int rc;

	if (f == SR_F_OP) {
		if (len == 3 && v[0] == 'o' && v[1] == 'u' && v[2] == 't')
			e->op = SR_OP_OUT;
		else if (len == 2 && v[0] == 'i' && v[1] == 'n')
			e->op = SR_OP_IN;
		else if (len == 4 && memcmp(v, "fork", 4) == 0)
			e->op = SR_OP_FORK;
		else if (len == 4 && memcmp(v, "exit", 4) == 0)
			e->op = SR_OP_EXIT;
		else if (len == 4 && memcmp(v, "wait", 4) == 0)
			e->op = SR_OP_WAIT;
		else
			return bad(msg, msz, "unknown op, expected out, in, fork, exit or wait",
				   f, v, len);
		return 0;
	}
	if (f == SR_F_DEV && len && v[0] == '-') {
		if (len == 2 && v[1] == '1') {
			e->dev = -1;
			return 0;
		}
		return bad(msg, msz, "device index below -1", f, v, len);
	}
	rc = sr_parse_u64(v, len, UINT64_MAX, &x);
	if (SR_UNLIKELY(rc)) {
		/* reclaim and fault are words: tested here, where a number
		 * did not parse, so that the numbers cost nothing more. */
		if (f == SR_F_RECLAIM || f == SR_F_FAULT)
			return set_word(e, f, v, len, msg, msz);
		return bad_number(rc, f, v, len, msg, msz);
	}
	switch (f) {
	case SR_F_TS_NS:
		e->ts_ns = x;
		return 0;
	case SR_F_PID:
	case SR_F_CPU:
	case SR_F_CHILD:
		if (x > UINT32_MAX)
			return bad(msg, msz, "number out of range", f, v, len);
		if (f == SR_F_PID) {
			e->pid = (uint32_t)x;
		} else if (f == SR_F_CPU) {
			e->cpu = (uint32_t)x;
			e->flags |= SR_EV_HAS_CPU;
		} else {
			/* In offset's bytes: an event with both is refused
			 * by sr_event_check(), without either value. */
			e->child = (uint32_t)x;
			e->flags |= SR_EV_HAS_CHILD;
		}
		return 0;
	case SR_F_CPU_NID:
	case SR_F_PAGE_NID:
		if (x >= SR_MAX_NODES)
			return bad(msg, msz, "node id over 1023", f, v, len);
		if (f == SR_F_CPU_NID)
			e->cpu_nid = (uint16_t)x;
		else
			e->page_nid = (uint16_t)x;
		return 0;
	case SR_F_DEV:
		if (x > INT32_MAX)
			return bad(msg, msz, "number out of range", f, v, len);
		e->dev = (int32_t)x;
		return 0;
	case SR_F_OFFSET:
		e->offset = x;
		e->flags |= SR_EV_HAS_OFFSET;
		return 0;
	case SR_F_NR_PAGES:
		if (x > UINT32_MAX)
			return bad(msg, msz, "number out of range", f, v, len);
		e->nr_pages = (uint32_t)x;
		if (x == 0 || (x & (x - 1)) || x > SR_MAX_NR_PAGES)
			return bad(msg, msz, "nr_pages must be a power of two from 1 to 512",
				   f, v, len);
		return 0;
	case SR_F_LAT_NS:
		e->lat_ns = x;
		return 0;
	case SR_F_VADDR:
		e->vaddr = x;
		e->flags |= SR_EV_HAS_VADDR;
		return 0;
	case SR_F_RECLAIM:
	case SR_F_FAULT:
		return set_word(e, f, v, len, msg, msz); /* a number: refused */
	case SR_F_MEMCG:
		if (x == 0 || x > SR_MEMCG_MAX)
			return bad(msg, msz, "memcg id out of range 1 to 65535 (the kernel's "
				   "mem_cgroup_id(); leave it empty when unknown)", f, v, len);
		e->memcg = (uint16_t)x;
		return 0;
	default:
		break;
	}
	return bad(msg, msz, "unknown field", f, v, len);
}

/* The value of offset or child for a message: offset and child share their
 * bytes, so with both given ("given") neither value is known. */
static const char *shared_value(char *buf, size_t bsz, const struct sr_event *e, int child)
{
	if ((e->flags & (SR_EV_HAS_OFFSET | SR_EV_HAS_CHILD)) ==
	    (SR_EV_HAS_OFFSET | SR_EV_HAS_CHILD))
		return "given";
	snprintf(buf, bsz, "%" PRIu64, child ? (uint64_t)e->child : e->offset);
	return buf;
}

/* The value of an event's reclaim or fault (given), for a message. */
static const char *reclaim_value(const struct sr_event *e)
{
	return (e->flags & SR_EV_KSWAPD) ? "kswapd" : "direct";
}

static const char *fault_value(const struct sr_event *e)
{
	return (e->flags & SR_EV_WRITE_FAULT) ? "write" : "read";
}

/* A reclaim on an event other than a swap-out, or a fault on an event
 * other than a swap-in (named op): 0, or -1 with msg. */
static int check_ctx(const struct sr_event *e, const char *op, char *msg, size_t msz)
{
	if (e->op != SR_OP_OUT && (e->flags & SR_EV_HAS_RECLAIM)) {
		snprintf(msg, msz, "%s has no reclaim: only a swap-out (out) has one (reclaim, %s)",
			 op, reclaim_value(e));
		return -1;
	}
	if (e->op != SR_OP_IN && (e->flags & SR_EV_HAS_FAULT)) {
		snprintf(msg, msz, "%s has no fault: only a swap-in (in) has one (fault, %s)", op,
			 fault_value(e));
		return -1;
	}
	return 0;
}

/* What a task op (named op) asks of an event that passed the common checks. */
static int check_task(const struct sr_event *e, const char *op, char *msg, size_t msz)
{
	char v[24];

	if (e->flags & SR_EV_HAS_OFFSET) {
		snprintf(msg, msz, "%s has no offset: a task op has no slot (offset, %s)", op,
			 shared_value(v, sizeof(v), e, 0));
		return -1;
	}
	if (e->flags & SR_EV_HAS_VADDR) {
		snprintf(msg, msz, "%s has no vaddr: a task op has no page (vaddr, %" PRIu64 ")",
			 op, e->vaddr);
		return -1;
	}
	if (check_ctx(e, op, msg, msz))
		return -1;
	if (e->nr_pages != 1) {
		snprintf(msg, msz,
			 "%s has nr_pages 1 or none: a task op has no page (nr_pages, %" PRIu32 ")",
			 op, e->nr_pages);
		return -1;
	}
	if (e->dev != -1) {
		snprintf(msg, msz,
			 "%s has dev -1 or none: a task op has no device (dev, %" PRId32 ")",
			 op, e->dev);
		return -1;
	}
	if (!e->pid) {
		snprintf(msg, msz, "%s needs a pid other than 0 (pid, 0)", op);
		return -1;
	}
	if (e->memcg) {
		snprintf(msg, msz, "%s has no memcg: a task op moves no page (memcg, %u)", op,
			 e->memcg);
		return -1;
	}
	if (e->op == SR_OP_EXIT) {
		if (!(e->flags & SR_EV_HAS_CHILD))
			return 0;
		snprintf(msg, msz, "exit has no child: only fork and wait name one (child, %s)",
			 shared_value(v, sizeof(v), e, 1));
		return -1;
	}
	if (!(e->flags & SR_EV_HAS_CHILD)) {
		snprintf(msg, msz, "%s needs a child: the task it %s (child, none)", op,
			 e->op == SR_OP_FORK ? "created" : "waited for");
		return -1;
	}
	if (!e->child) {
		snprintf(msg, msz, "%s needs a child other than 0 (child, 0)", op);
		return -1;
	}
	if (e->child == e->pid) {
		snprintf(msg, msz, "%s's child is the task itself (child, %" PRIu32 ")", op,
			 e->child);
		return -1;
	}
	return 0;
}

int sr_event_check(const struct sr_event *e, char *msg, size_t msz)
{
	uint32_t n = e->nr_pages;

	if (e->op >= SR_OP_COUNT) {
		snprintf(msg, msz, "unknown op (op, %u)", e->op);
		return -1;
	}
	if (e->cpu_nid >= SR_MAX_NODES) {
		snprintf(msg, msz, "node id over 1023 (cpu_nid, %u)", e->cpu_nid);
		return -1;
	}
	if (e->page_nid >= SR_MAX_NODES) {
		snprintf(msg, msz, "node id over 1023 (page_nid, %u)", e->page_nid);
		return -1;
	}
	if (n == 0 || (n & (n - 1)) || n > SR_MAX_NR_PAGES) {
		snprintf(msg, msz,
			 "nr_pages must be a power of two from 1 to 512 (nr_pages, %" PRIu32 ")", n);
		return -1;
	}
	if (e->dev < -1) {
		snprintf(msg, msz, "device index below -1 (dev, %" PRId32 ")", e->dev);
		return -1;
	}
	if (e->flags & ~(SR_EV_OUT_FLAGS | SR_EV_IN_FLAGS | SR_EV_TASK_FLAGS)) {
		snprintf(msg, msz, "unknown flag bits (flags, 0x%02x)", e->flags);
		return -1;
	}
	/* Only the binary format can give a value without its field. */
	if ((e->flags & SR_EV_VALUE_FLAGS) >> 1 & ~e->flags) {
		snprintf(msg, msz, "%s (flags, 0x%02x)",
			 (e->flags & SR_EV_KSWAPD) && !(e->flags & SR_EV_HAS_RECLAIM) ?
			 "flag bit 5 (kswapd) without bit 4 (reclaim)" :
			 "flag bit 7 (write fault) without bit 6 (fault)", e->flags);
		return -1;
	}
	if (sr_op_is_task(e->op))
		return check_task(e, sr_op_name((enum sr_op)e->op), msg, msz);
	if (e->flags & SR_EV_HAS_CHILD) {
		char v[24];

		snprintf(msg, msz, "%s has no child: only fork and wait name one (child, %s)",
			 sr_op_name((enum sr_op)e->op), shared_value(v, sizeof(v), e, 1));
		return -1;
	}
	return check_ctx(e, sr_op_name((enum sr_op)e->op), msg, msz);
}
