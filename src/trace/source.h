/* SPDX-License-Identifier: MIT */
/* The byte source (source.c): a file or standard input, transparently
 * zstd-decompressed, read by the trace readers and by whatever reads a
 * file of ours that may be compressed. */
#ifndef SR_TRACE_SOURCE_H
#define SR_TRACE_SOURCE_H

#include <stddef.h>
#include <stdint.h>

#include "swapreplay/error.h"

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

#endif /* SR_TRACE_SOURCE_H */
