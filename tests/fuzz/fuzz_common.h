/* SPDX-License-Identifier: MIT */
/*
 * Helpers shared by the fuzz targets (tests/fuzz/README.md).  Everything
 * here is static: each target file exports only LLVMFuzzerTestOneInput, so
 * that the same file links into a libFuzzer binary (clang
 * -fsanitize=fuzzer) and into a plain replay binary with driver.c (gcc).
 *
 * Include this first: it asks for _GNU_SOURCE (memfd_create).
 *
 * Nothing here writes to standard output.  A broken invariant prints one
 * line to standard error and abort()s, which libFuzzer reports as a crash
 * and the replay driver as a failure.
 */
#ifndef SR_FUZZ_COMMON_H
#define SR_FUZZ_COMMON_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "trace/fields.h"
#include "swapreplay/machine.h"
#include "swapreplay/trace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Not every target uses every helper. */
#define FUZZ_HELPER static __attribute__((unused))

#define FUZZ_CHECK(cond) do { \
	if (!(cond)) { \
		fprintf(stderr, "fuzz: invariant broken: %s (%s:%d)\n", #cond, \
			__FILE__, __LINE__); \
		abort(); \
	} \
} while (0)

/*
 * Known bugs, reported and not yet fixed in src/, that a long fuzzing run
 * steps around so that it goes on to find others: a target tests them
 * under #ifndef FUZZ_KNOWN_<what>, and `make fuzz` defines the macros listed
 * in FUZZ_KNOWN_BUGS (tests/fuzz/fuzz.mk).  The replay binaries of
 * `make test` never define them, so the committed crash-* input of each
 * such bug fails there until src/ is fixed.  Remove the #ifndef and the
 * macro with the fix.  None at the moment (FUZZ_KNOWN_NULL_DIAG went with
 * the fix of e9acf89: "library entry points take a NULL diagnostic").
 */

/* Events asked for per sr_reader_read() call: small and odd, so that batch
 * boundaries fall everywhere. */
#define FUZZ_BATCH 7

/*
 * Stop after this many events.  No uncompressed input within -max_len comes
 * near it; it only bounds a zstd "bomb" (a few KiB that decompress to
 * hundreds of MiB of valid records), which the reader streams by design.
 */
#define FUZZ_MAX_EVENTS (1u << 22)

/*
 * An anonymous file holding data: a memfd, or else an unlinked temporary
 * file.  Returns the descriptor (its offset at 0) or -1.  The readers open
 * it again by name as /proc/self/fd/N, which gives them their own offset.
 */
FUZZ_HELPER int fuzz_memfd(const uint8_t *data, size_t size)
{
	size_t done = 0;
	int fd;

	fd = memfd_create("swapreplay-fuzz", MFD_CLOEXEC);
	if (fd < 0) {
		char tmpl[] = "/tmp/swapreplay-fuzz.XXXXXX";

		fd = mkstemp(tmpl);
		if (fd < 0)
			return -1;
		unlink(tmpl);
	}
	while (done < size) {
		ssize_t w = write(fd, data + done, size - done);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			close(fd);
			return -1;
		}
		done += (size_t)w;
	}
	if (lseek(fd, 0, SEEK_SET) != 0) {
		close(fd);
		return -1;
	}
	return fd;
}

/* A fixed-size text field filled by the library must stay NUL-terminated. */
#define FUZZ_CHECK_STR(arr) FUZZ_CHECK(memchr((arr), '\0', sizeof(arr)) != NULL)

FUZZ_HELPER void fuzz_check_diag(const struct sr_diag *d, enum sr_err err)
{
	char buf[1024];

	FUZZ_CHECK_STR(d->file);
	FUZZ_CHECK_STR(d->msg);
	/* The error says what is wrong, and the code in it is the one returned. */
	FUZZ_CHECK(d->msg[0] != '\0');
	FUZZ_CHECK(d->code == err);
	sr_diag_format(d, buf, sizeof(buf));
	FUZZ_CHECK(buf[0] != '\0');
}

/* Every event a reader hands out passes the checks common to all formats
 * (traces/FORMAT.md), and those of its op ("Tasks"). */
FUZZ_HELPER void fuzz_check_event(const struct sr_event *e)
{
	char msg[400];

	FUZZ_CHECK(sr_event_check(e, msg, sizeof(msg)) == 0);
	FUZZ_CHECK(e->op < SR_OP_COUNT);
	FUZZ_CHECK(e->cpu_nid < SR_MAX_NODES && e->page_nid < SR_MAX_NODES);
	FUZZ_CHECK(e->nr_pages >= 1 && e->nr_pages <= SR_MAX_NR_PAGES &&
		   (e->nr_pages & (e->nr_pages - 1)) == 0);
	FUZZ_CHECK(e->dev >= -1);
	/* A value of reclaim or fault only with its field's bit. */
	FUZZ_CHECK(!(e->flags & SR_EV_KSWAPD) || (e->flags & SR_EV_HAS_RECLAIM));
	FUZZ_CHECK(!(e->flags & SR_EV_WRITE_FAULT) || (e->flags & SR_EV_HAS_FAULT));
	/* A reclaim only on a swap-out, a fault only on a swap-in. */
	FUZZ_CHECK(!(e->flags & SR_EV_HAS_RECLAIM) || e->op == SR_OP_OUT);
	FUZZ_CHECK(!(e->flags & SR_EV_HAS_FAULT) || e->op == SR_OP_IN);
	if (e->op == SR_OP_OUT || e->op == SR_OP_IN) {
		FUZZ_CHECK(!(e->flags & SR_EV_HAS_CHILD));
		return;
	}
	/* fork, exit, wait: no slot, no page, no device, a task; fork and
	 * wait name a child other than 0 and the task, exit none. */
	FUZZ_CHECK(!(e->flags & (SR_EV_HAS_OFFSET | SR_EV_HAS_VADDR)));
	FUZZ_CHECK(e->nr_pages == 1 && e->dev == -1 && e->pid != 0);
	FUZZ_CHECK((e->op == SR_OP_EXIT) == !(e->flags & SR_EV_HAS_CHILD));
	FUZZ_CHECK(!(e->flags & SR_EV_HAS_CHILD) || (e->child != 0 && e->child != e->pid));
}

/* An embedded machine description goes where the replay sends it. */
FUZZ_HELPER void fuzz_parse_machine(const char *json, struct sr_diag *d)
{
	struct sr_machine *m = NULL;
	enum sr_err err;

	err = sr_machine_parse(&m, json, strlen(json), "trace header", d);
	FUZZ_CHECK((err == SR_OK) == (m != NULL));
	sr_machine_free(m);
}

/* FNV-1a 64, as stats.content_hash (sweeps) computes it. */
FUZZ_HELPER uint64_t fuzz_fnv1a(uint64_t h, const void *p, size_t n)
{
	const unsigned char *c = p;

	while (n--)
		h = (h ^ *c++) * 0x100000001b3ULL;
	return h;
}

#define FUZZ_FNV_BASIS 0xcbf29ce484222325ULL

/* What a read came to, to compare two reads of the same input. */
struct fuzz_result {
	int rc;              /* FUZZ_READ_* */
	enum sr_err err;
	uint64_t events, skipped;
	uint64_t digest;     /* FNV-1a of every event's fields, in order */
	enum sr_format format;
	char msg[512];       /* the error's message (with_diag only) */
};

FUZZ_HELPER uint64_t fuzz_event_digest(uint64_t h, const struct sr_event *e)
{
	uint64_t v[10];

	v[0] = e->ts_ns;
	v[1] = e->offset;
	v[2] = e->lat_ns;
	v[3] = e->pid;
	v[4] = e->cpu;
	v[5] = (uint64_t)(int64_t)e->dev;
	v[6] = e->nr_pages;
	v[7] = (uint64_t)e->cpu_nid << 16 | e->page_nid;
	v[8] = e->op;
	v[9] = (uint64_t)e->memcg << 8 | e->flags;
	return fuzz_fnv1a(h, v, sizeof(v));
}

/*
 * Read the whole input as a trace through the public API with options o:
 * open, read every event until the end or an error, ask again after the
 * end or the error, close.  res (may be NULL) gets what it came to.
 *
 * with_diag: pass a struct sr_diag and check what it says; 0 passes NULL
 * everywhere (error.h: the library fills a diagnostic "when the caller
 * passes one").
 *
 * Returns FUZZ_READ_END (read to the end), FUZZ_READ_OPEN_ERR (refused at
 * open) or FUZZ_READ_ERR (an error while reading): a second pass with
 * other options is worth its cost only for some of them.
 */
enum { FUZZ_READ_END, FUZZ_READ_OPEN_ERR, FUZZ_READ_ERR };

FUZZ_HELPER int fuzz_read_trace_opts(const uint8_t *data, size_t size,
				     const struct sr_read_opts *o, int with_diag,
				     struct fuzz_result *res)
{
	struct sr_reader *r = (struct sr_reader *)(uintptr_t)1; /* open must reset it */
	struct sr_event evs[FUZZ_BATCH];
	struct sr_diag d, d2;
	struct sr_diag *dp = with_diag ? &d : NULL;
	const struct sr_read_stats *st;
	struct fuzz_result local;
	uint64_t total = 0;
	enum sr_err err;
	char path[64];
	size_t n, i;
	int fd;

	if (!res)
		res = &local;
	memset(res, 0, sizeof(*res));
	res->digest = FUZZ_FNV_BASIS;
	fd = fuzz_memfd(data, size);
	FUZZ_CHECK(fd >= 0);
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);

	err = sr_reader_open(&r, path, o, dp);
	if (err) {
		FUZZ_CHECK(r == NULL);
		/* The file exists and is readable: a refusal is about content. */
		FUZZ_CHECK(err == SR_ERR_FORMAT || err == SR_ERR_ZSTD ||
			   err == SR_ERR_LIMIT);
		if (with_diag) {
			fuzz_check_diag(&d, err);
			memcpy(res->msg, d.msg, sizeof(res->msg));
		}
		close(fd);
		res->err = err;
		return res->rc = FUZZ_READ_OPEN_ERR;
	}
	FUZZ_CHECK(r != NULL);
	st = sr_reader_stats(r);
	if (o->format != SR_FMT_AUTO)
		FUZZ_CHECK(st->format == o->format);
	{
		const char *mj = sr_reader_machine_json(r);

		if (mj) {
			FUZZ_CHECK(st->format == SR_FMT_SWT);
			fuzz_parse_machine(mj, dp);
		}
	}

	for (;;) {
		n = (size_t)-1;
		err = sr_reader_read(r, evs, FUZZ_BATCH, &n, dp);
		FUZZ_CHECK(n <= FUZZ_BATCH);
		for (i = 0; i < n; i++) {
			fuzz_check_event(&evs[i]);
			res->digest = fuzz_event_digest(res->digest, &evs[i]);
		}
		total += n;
		FUZZ_CHECK(st->events == total);
		FUZZ_CHECK(st->skipped <= o->max_errors);
		if (err || n == 0 || total >= FUZZ_MAX_EVENTS)
			break;
	}
	FUZZ_CHECK_STR(st->unknown_fields);
	FUZZ_CHECK_STR(st->first_skip);
	if (st->skipped)
		FUZZ_CHECK(st->first_skip[0] != '\0');

	if (err) {
		FUZZ_CHECK(err != SR_ERR_IO && err != SR_ERR_INVAL);
		FUZZ_CHECK(!st->complete);
		if (with_diag) {
			fuzz_check_diag(&d, err);
			memcpy(res->msg, d.msg, sizeof(res->msg));
		}
		/* trace.h: every later call returns the same error. */
		n = (size_t)-1;
		FUZZ_CHECK(sr_reader_read(r, evs, FUZZ_BATCH, &n, with_diag ? &d2 : NULL) == err);
		FUZZ_CHECK(n == 0);
		if (with_diag)
			FUZZ_CHECK(strcmp(d.msg, d2.msg) == 0);
	} else if (n == 0) {
		/* At the end: more calls say "end" again.  No events is a
		 * valid, empty trace, but not when every record was bad. */
		FUZZ_CHECK(total > 0 || !st->skipped);
		FUZZ_CHECK(st->complete);
		/* The hash of the file as stored, every byte of it. */
		if (o->content_hash)
			FUZZ_CHECK(st->content_hash == fuzz_fnv1a(FUZZ_FNV_BASIS, data, size));
		n = (size_t)-1;
		FUZZ_CHECK(sr_reader_read(r, evs, FUZZ_BATCH, &n, dp) == SR_OK);
		FUZZ_CHECK(n == 0);
	}
	FUZZ_CHECK(st->events == total);
	res->err = err;
	res->events = total;
	res->skipped = st->skipped;
	res->format = st->format;
	sr_reader_close(r);
	close(fd);
	return res->rc = err ? FUZZ_READ_ERR : FUZZ_READ_END;
}

/* fuzz_read_trace_opts() with the other options at their defaults; the
 * strict pass with a diagnostic also asks for the content hash. */
FUZZ_HELPER int fuzz_read_trace(const uint8_t *data, size_t size, enum sr_format format,
				uint64_t max_errors, int with_diag)
{
	struct sr_read_opts o;

	memset(&o, 0, sizeof(o));
	o.format = format;
	o.max_errors = max_errors;
	o.content_hash = with_diag && !max_errors;
	return fuzz_read_trace_opts(data, size, &o, with_diag, NULL);
}

/*
 * The two passes of a reader target: strict with every diagnostic checked;
 * then, if it can make a difference, as --max-errors=3 with no diagnostic
 * asked for (a refusal at open is the same with any --max-errors: only the
 * NULL diagnostic is new there).  The second pass costs as much as the
 * first (the source allocates a 2 MiB window, slow under ASan), hence the
 * condition.
 */
FUZZ_HELPER void fuzz_reader_passes(const uint8_t *data, size_t size, enum sr_format format)
{
	int rc = fuzz_read_trace(data, size, format, 0, 1);

	if (rc == FUZZ_READ_ERR || rc == FUZZ_READ_OPEN_ERR)
		fuzz_read_trace(data, size, format, 3, 0);
}

#endif /* SR_FUZZ_COMMON_H */
