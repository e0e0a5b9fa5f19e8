/* SPDX-License-Identifier: MIT */
/*
 * The native binary trace format, versions 1 to 5 (traces/FORMAT.md
 * documents every byte; keep the two in step).  All integers are little
 * endian.  Version 2 adds vaddr to the record, version 3 the task ops (op
 * 2 to 4) and their child, version 4 a swap-out's reclaim and a swap-in's
 * fault (flag bits 4 to 7, in version 3's record), version 5 a swap
 * event's memory cgroup (bytes 46-47) and the name records that give the
 * cgroups' paths; the writer writes the lowest version that holds the
 * events: 1 without addresses, task ops, reclaims, faults or memcgs.
 */
#ifndef SR_SWT_H
#define SR_SWT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "swapreplay/event.h"

/* "\x89SWT\r\n\x1a\n": the high byte and the CR LF / ^Z catch a file that was
 * mangled as text, as PNG's signature does. */
#define SWT_MAGIC "\x89SWT\r\n\x1a\n"
#define SWT_MAGIC_LEN 8
#define SWT_VERSION 5          /* the latest; 1 to 4 are read too */
#define SWT_HEADER_SIZE 32     /* fixed header, before the machine JSON */
#define SWT_RECORD_SIZE 48     /* version-1 record; larger sizes are allowed */
#define SWT_RECORD_SIZE_V2 56  /* version 2: vaddr after the version-1 fields */
#define SWT_RECORD_SIZE_V3 64  /* version 3: child and 4 reserved bytes after;
				* version 4's too */
#define SWT_MAX_RECORD 4096    /* refuse absurd record sizes */
#define SWT_MAX_MACHINE (1u << 20) /* embedded machine JSON: 1 MiB at most */

/* Header field offsets */
#define SWT_H_VERSION 8        /* u16 */
#define SWT_H_HDRSIZE 10       /* u16: bytes before the machine JSON */
#define SWT_H_RECSIZE 12       /* u32 */
#define SWT_H_MACHLEN 16       /* u32: machine JSON bytes, 0 = none */
#define SWT_H_FLAGS 20         /* u32: 0 in versions 1 to 4 */
/* 24..31: reserved, 0 */

/* Record field offsets */
#define SWT_R_TS 0             /* u64 */
#define SWT_R_OFFSET 8         /* u64 */
#define SWT_R_LAT 16           /* u64 */
#define SWT_R_PID 24           /* u32 */
#define SWT_R_CPU 28           /* u32 */
#define SWT_R_DEV 32           /* i32 */
#define SWT_R_NRPAGES 36       /* u32 */
#define SWT_R_CPUNID 40        /* u16 */
#define SWT_R_PAGENID 42       /* u16 */
#define SWT_R_OP 44            /* u8 */
#define SWT_R_FLAGS 45         /* u8: bits 4 to 7 (reclaim, fault) version 4's */
#define SWT_R_MEMCG 46         /* u16, version 5 (reserved, 0, before) */
#define SWT_R_VADDR 48         /* u64, version 2 */
#define SWT_R_CHILD 56         /* u32, version 3 */
/* 60..63: reserved, 0 (version 3) */

/* The flag bits of version 4: a swap-out's reclaim, a swap-in's fault. */
#define SWT_V4_FLAGS (SR_EV_HAS_RECLAIM | SR_EV_KSWAPD | SR_EV_HAS_FAULT | SR_EV_WRITE_FAULT)

/* Version 5's name record (traces/FORMAT.md, "Memory cgroups"): not an
 * event.  Its op is this, its memcg the id it names, its lat_ns the path's
 * length in bytes (1 to SR_MEMCG_PATH_MAX), every other byte 0; the path
 * follows in the next records' bytes, padded with zeros to a whole number
 * of records. */
#define SWT_OP_MEMCG_NAME 128u

/* The smallest record of version v (1 to 5). */
static inline uint32_t swt_record_size(unsigned v)
{
	return v >= 3 ? SWT_RECORD_SIZE_V3 : v == 2 ? SWT_RECORD_SIZE_V2 : SWT_RECORD_SIZE;
}

static inline uint16_t swt_get16(const unsigned char *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static inline uint32_t swt_get32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static inline uint64_t swt_get64(const unsigned char *p)
{
	return (uint64_t)swt_get32(p) | (uint64_t)swt_get32(p + 4) << 32;
}

static inline void swt_put16(unsigned char *p, uint16_t v)
{
	p[0] = (unsigned char)v;
	p[1] = (unsigned char)(v >> 8);
}

static inline void swt_put32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)v;
	p[1] = (unsigned char)(v >> 8);
	p[2] = (unsigned char)(v >> 16);
	p[3] = (unsigned char)(v >> 24);
}

static inline void swt_put64(unsigned char *p, uint64_t v)
{
	swt_put32(p, (uint32_t)v);
	swt_put32(p + 4, (uint32_t)(v >> 32));
}

/* e as a record of version v (1 to 5) at p, swt_record_size(v) bytes.
 * Version 1 has no vaddr (its flag bit is cleared), versions 1 and 2 no
 * child, versions 1 to 3 no reclaim or fault (their bits are cleared); a
 * child goes at SWT_R_CHILD, never in offset's bytes. */
static inline void swt_encode(unsigned char *p, const struct sr_event *e, unsigned v)
{
	int child = (e->flags & SR_EV_HAS_CHILD) != 0;

	swt_put64(p + SWT_R_TS, e->ts_ns);
	swt_put64(p + SWT_R_OFFSET, child ? 0 : e->offset);
	swt_put64(p + SWT_R_LAT, e->lat_ns);
	swt_put32(p + SWT_R_PID, e->pid);
	swt_put32(p + SWT_R_CPU, e->cpu);
	swt_put32(p + SWT_R_DEV, (uint32_t)e->dev);
	swt_put32(p + SWT_R_NRPAGES, e->nr_pages);
	swt_put16(p + SWT_R_CPUNID, e->cpu_nid);
	swt_put16(p + SWT_R_PAGENID, e->page_nid);
	p[SWT_R_OP] = e->op;
	p[SWT_R_FLAGS] = v < 4 ? (unsigned char)(e->flags & ~SWT_V4_FLAGS) : e->flags;
	swt_put16(p + SWT_R_MEMCG, v < 5 ? 0 : e->memcg);
	if (v < 2) {
		p[SWT_R_FLAGS] &= (unsigned char)~SR_EV_HAS_VADDR;
		return;
	}
	swt_put64(p + SWT_R_VADDR, (e->flags & SR_EV_HAS_VADDR) ? e->vaddr : 0);
	if (v < 3)
		return;
	swt_put32(p + SWT_R_CHILD, child ? e->child : 0);
	swt_put32(p + SWT_R_CHILD + 4, 0);
}

/* Version 5's name record of memcg id with its path (NUL-terminated, 1 to
 * SR_MEMCG_PATH_MAX bytes) at p, in records of recsize bytes: the bytes
 * written, recsize and the path padded to a whole number of records. */
static inline size_t swt_name_record(unsigned char *p, unsigned id, const char *path,
				     size_t recsize)
{
	size_t len = strlen(path), pad = (len + recsize - 1) / recsize * recsize;

	memset(p, 0, recsize + pad);
	swt_put64(p + SWT_R_LAT, len);
	p[SWT_R_OP] = (unsigned char)SWT_OP_MEMCG_NAME;
	swt_put16(p + SWT_R_MEMCG, (uint16_t)id);
	memcpy(p + recsize, path, len);
	return recsize + pad;
}

/* A record of version v (1 to 5); a version-1 record has no vaddr, and
 * only a version-3 record a child (when its flag is set: it replaces the
 * offset, which an event with a child does not have). */
static inline void swt_decode(const unsigned char *p, struct sr_event *e, unsigned v)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	/* The record's fields are struct sr_event's, in its byte order, in
	 * two pieces: 0..23 (ts_ns, offset, lat_ns) and 24..45 (pid to flags)
	 * around vaddr; three copies instead of twelve fields.  Bytes 46 and
	 * 47 are memcg (version 5's; 0 before: the reader checks). */
	memcpy(e, p, SWT_R_PID);
	memcpy(&e->pid, p + SWT_R_PID, SWT_R_VADDR - SWT_R_PID);
	if (v >= 2)
		memcpy(&e->vaddr, p + SWT_R_VADDR, sizeof(e->vaddr));
	else
		e->vaddr = 0;
#else
	e->ts_ns = swt_get64(p + SWT_R_TS);
	e->offset = swt_get64(p + SWT_R_OFFSET);
	e->lat_ns = swt_get64(p + SWT_R_LAT);
	e->pid = swt_get32(p + SWT_R_PID);
	e->cpu = swt_get32(p + SWT_R_CPU);
	e->dev = (int32_t)swt_get32(p + SWT_R_DEV);
	e->nr_pages = swt_get32(p + SWT_R_NRPAGES);
	e->cpu_nid = swt_get16(p + SWT_R_CPUNID);
	e->page_nid = swt_get16(p + SWT_R_PAGENID);
	e->op = p[SWT_R_OP];
	e->flags = p[SWT_R_FLAGS];
	e->memcg = swt_get16(p + SWT_R_MEMCG);
	e->vaddr = v >= 2 ? swt_get64(p + SWT_R_VADDR) : 0;
#endif
	if (v >= 3 && (e->flags & SR_EV_HAS_CHILD)) {
		e->offset = 0;
		e->child = swt_get32(p + SWT_R_CHILD);
	}
}

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
/* swt_decode()'s copies: the event's fields where the record has them. */
_Static_assert(offsetof(struct sr_event, ts_ns) == SWT_R_TS &&
	       offsetof(struct sr_event, offset) == SWT_R_OFFSET &&
	       offsetof(struct sr_event, lat_ns) == SWT_R_LAT, "sr_event: ts_ns, offset, lat_ns first");
_Static_assert(offsetof(struct sr_event, cpu) - offsetof(struct sr_event, pid) == SWT_R_CPU - SWT_R_PID &&
	       offsetof(struct sr_event, dev) - offsetof(struct sr_event, pid) == SWT_R_DEV - SWT_R_PID &&
	       offsetof(struct sr_event, nr_pages) - offsetof(struct sr_event, pid) == SWT_R_NRPAGES - SWT_R_PID &&
	       offsetof(struct sr_event, cpu_nid) - offsetof(struct sr_event, pid) == SWT_R_CPUNID - SWT_R_PID &&
	       offsetof(struct sr_event, page_nid) - offsetof(struct sr_event, pid) == SWT_R_PAGENID - SWT_R_PID &&
	       offsetof(struct sr_event, op) - offsetof(struct sr_event, pid) == SWT_R_OP - SWT_R_PID &&
	       offsetof(struct sr_event, flags) - offsetof(struct sr_event, pid) == SWT_R_FLAGS - SWT_R_PID &&
	       offsetof(struct sr_event, memcg) - offsetof(struct sr_event, pid) == SWT_R_MEMCG - SWT_R_PID &&
	       sizeof(struct sr_event) - offsetof(struct sr_event, pid) >= SWT_R_VADDR - SWT_R_PID,
	       "sr_event: pid to flags as in the record");
#endif

#endif /* SR_SWT_H */
