/* SPDX-License-Identifier: MIT */
/* Internal helpers shared by the library's files; not installed. */
#ifndef SR_INTERNAL_H
#define SR_INTERNAL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "swapreplay/error.h"
#include "swapreplay/event.h"

#if defined(__GNUC__)
#define SR_PRINTF(a, b) __attribute__((format(printf, a, b)))
#define SR_LIKELY(x) __builtin_expect(!!(x), 1)
#define SR_UNLIKELY(x) __builtin_expect(!!(x), 0)
#else
#define SR_PRINTF(a, b)
#define SR_LIKELY(x) (x)
#define SR_UNLIKELY(x) (x)
#endif

/* Fill d (if not NULL) with code and a formatted message; returns code. */
enum sr_err sr_diag_set(struct sr_diag *d, enum sr_err code, const char *fmt, ...)
	SR_PRINTF(3, 4);
/* Set d->file (truncated to fit). */
void sr_diag_file(struct sr_diag *d, const char *name);

/* ---- byte source: a file or stdin, transparently zstd-decompressed ---- */

struct sr_src;

/* Open path ("-" = stdin).  Detects zstd by its magic (or a skippable frame). */
enum sr_err sr_src_open(struct sr_src **out, const char *path, struct sr_diag *d);
void sr_src_close(struct sr_src *s);
/* Decompress on a thread of its own from now on (zstd input only). */
enum sr_err sr_src_threaded(struct sr_src *s, struct sr_diag *d);
int sr_src_compressed(const struct sr_src *s);
const char *sr_src_name(const struct sr_src *s);

/*
 * Make at least want bytes available from the current position (fewer only
 * at end of data).  *p points at them, *avail says how many; valid until the
 * next call.  want must not exceed SR_SRC_MAX_WANT.
 */
#define SR_SRC_MAX_WANT (1u << 20)
enum sr_err sr_src_peek(struct sr_src *s, size_t want, const unsigned char **p,
			size_t *avail, struct sr_diag *d);
/* Consume n bytes (n <= the last *avail). */
void sr_src_skip(struct sr_src *s, size_t n);
/* Start hashing (FNV-1a 64) the file's bytes; call right after open,
 * before the first peek or read. */
void sr_src_hash_on(struct sr_src *s);
/* FNV-1a 64 of the file's bytes (compressed as stored) read so far. */
uint64_t sr_src_hash(const struct sr_src *s);
/* Decompressed bytes consumed so far. */
uint64_t sr_src_pos(const struct sr_src *s);
/* Bytes read from the file so far (compressed bytes for zstd) and its size
 * (0 when it is not a regular file: standard input, a pipe); safe to call
 * from another thread than the one reading. */
void sr_src_file_progress(const struct sr_src *s, uint64_t *read, uint64_t *size);

/*
 * Next line without its "\n" (a trailing "\r" is kept: callers strip it).
 * *line stays valid until the next call.  Returns SR_OK with *line NULL at
 * end of data.  Lines longer than SR_MAX_LINE are SR_ERR_LIMIT.
 */
#define SR_MAX_LINE (64u << 20)
enum sr_err sr_src_getline(struct sr_src *s, const char **line, size_t *len,
			   struct sr_diag *d);
/* Whether the line sr_src_getline() gave last ended with "\n" (then
 * line[len] is that "\n"), rather than at the end of the data. */
int sr_src_line_had_nl(const struct sr_src *s);

/* ---- numbers ---------------------------------------------------------- */

/* Parse a decimal unsigned integer filling [0, max]; returns 0 on success,
 * -1 not a number (empty, sign, junk), -2 over max. */
int sr_parse_u64(const char *s, size_t len, uint64_t max, uint64_t *out);

/* ---- event checks shared by every reader ------------------------------ */

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

/*
 * Make the array *p of *cap elements of elem bytes hold need of them: its
 * capacity doubled (from first, when it has none) until it does.  0, or -1
 * out of memory (*p and *cap unchanged).
 */
static inline int sr_grow(void **p, size_t *cap, size_t need, size_t elem, size_t first)
{
	size_t ncap = *cap ? *cap : first;
	void *np;

	if (need <= *cap)
		return 0;
	while (ncap < need)
		ncap *= 2;
	np = realloc(*p, ncap * elem);
	if (!np)
		return -1;
	*p = np;
	*cap = ncap;
	return 0;
}

/* sr_grow(), the new elements zeroed. */
static inline int sr_grow_zeroed(void **p, size_t *cap, size_t need, size_t elem, size_t first)
{
	size_t old = *cap;

	if (sr_grow(p, cap, need, elem, first))
		return -1;
	memset((char *)*p + old * elem, 0, (*cap - old) * elem);
	return 0;
}

/* ---- u64 -> u64 hash map (open addressing, linear probing) ----------- */

#define SR_U64MAP_EMPTY UINT64_MAX /* marks a free entry; not a valid key */

struct sr_u64ent {
	uint64_t key;
	uint64_t val; /* first member after key: &val maps back to the entry */
};

struct sr_u64map {
	struct sr_u64ent *ent;
	size_t cap;          /* power of two, or 0 */
	size_t count;
};

/* Iterate: for (i = 0; i < m->cap; i++) if (m->ent[i].key != SR_U64MAP_EMPTY) */
void sr_u64map_init(struct sr_u64map *m);
void sr_u64map_free(struct sr_u64map *m);
/* Returns pointer to the value slot (inserting 0 if absent, *added=1), or
 * NULL on ENOMEM or for the key SR_U64MAP_EMPTY. */
uint64_t *sr_u64map_put(struct sr_u64map *m, uint64_t key, int *added);
/* sr_u64map_free() of a map whose values are malloc()ed pointers: those
 * are freed too. */
void sr_u64map_free_ptrs(struct sr_u64map *m);
/* Returns pointer to the value or NULL if absent. */
uint64_t *sr_u64map_get(const struct sr_u64map *m, uint64_t key);
/* Remove key; returns 1 if it was there. */
int sr_u64map_del(struct sr_u64map *m, uint64_t key);

/*
 * Buffers of 1 MiB or more (bigmem.c): mappings aligned on 2 MiB and advised
 * for huge pages, kept by the freeing thread for its next buffer of the same
 * length; smaller ones, and all of them under AddressSanitizer
 * (SR_BIG_PLAIN), are malloc()'s.  sr_big_free() takes the length asked for.
 */
#if defined(__SANITIZE_ADDRESS__)
#define SR_BIG_PLAIN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SR_BIG_PLAIN 1
#endif
#endif
#define SR_BIG_MIN ((size_t)1 << 20)
void *sr_big_alloc(size_t n);
void sr_big_free(void *p, size_t n);

/* quote.c: s as a JSON string, quotes and escapes included (\" \\ \b \f
 * \n \r \t, other control characters and bytes that are no UTF-8 as
 * \u00XX), as jansson escapes: written to f, or malloc'ed (NULL out of
 * memory); and s as one CSV cell, as it is or quoted (its quotes doubled)
 * when it holds a comma, a quote or a line break, malloc'ed. */
/* The length of the well-formed UTF-8 sequence at s (n bytes left: 1 to
 * 4), or 0 when s[0] begins none. */
size_t sr_utf8_seq(const unsigned char *s, size_t n);
void sr_json_write(FILE *f, const char *s);
char *sr_json_quote(const char *s);
void sr_csv_write(FILE *f, const char *s);
char *sr_csv_quote(const char *s);

#endif /* SR_INTERNAL_H */
