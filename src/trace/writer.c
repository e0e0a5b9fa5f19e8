/* SPDX-License-Identifier: MIT */
/*
 * Trace writers: CSV, JSON lines and the binary format, each optionally
 * compressed with zstd as one stream (readable by `zstd -d`).  Output goes
 * through an sr_outfile, so a file appears only when it is complete.  An
 * output begun without what an event needs (vaddr: a CSV column, .swt
 * version 2; a task op: the child column, .swt version 3; a reclaim or a
 * fault: its CSV column, .swt version 4; a memcg: the memcg columns, .swt
 * version 5) is written again with it when such an event comes
 * (upgrade()).  The path of each memcg goes with the first of its events
 * written once the table given (sr_write_opts.memcgs) names it.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include "common/compiler.h"
#include "common/diag.h"
#include "common/quote.h"
#include "trace/fields.h"
#include "swapreplay/outfile.h"
#include "swapreplay/trace.h"
#include "trace/swt.h"

#define WBUF_SIZE (1u << 17)
/* Room for one formatted event: 512 bytes, and a memcg's path quoted
 * (CSV: each byte may be a doubled quote; JSON: an escaped one, a path
 * being UTF-8 without a control byte, sr_memcgs_set()) or with its .swt
 * name record. */
#define WBUF_SLACK (512 + 2 * SR_MEMCG_PATH_MAX + 256)
#define REREAD_BATCH 4096 /* events read back at a time by upgrade() */

/*
 * What an output may be begun without and have to be written again for
 * (struct sr_writer.has): the vaddr column (CSV) or .swt version 2; the
 * child column (CSV, for fork and wait) or .swt version 3 (any task op,
 * and vaddr with it); the reclaim column (CSV) or the fault column, either
 * .swt version 4 (and all the above with it); the memcg and memcg_path
 * columns (CSV) or .swt version 5 (and all the above).  JSON lines have
 * every key anyway.
 */
#define W_VADDR 0x1u
#define W_TASKS 0x2u
#define W_RECLAIM 0x4u
#define W_FAULT 0x8u
#define W_MEMCG 0x10u
#define W_CTX (W_RECLAIM | W_FAULT)
#define W_ALL (W_VADDR | W_TASKS | W_CTX | W_MEMCG)

struct sr_writer {
	struct sr_outfile *of;
	FILE *fp;
	enum sr_format fmt;
	ZSTD_CCtx *zc;
	unsigned char *zbuf;
	size_t zcap;
	char *buf;  /* formatted, not yet written */
	size_t len;
	unsigned has; /* W_*: what the output carries (JSON lines: W_ALL) */
	char name[256];
	char *path; /* the target as given, to write it again (upgrade()) */
	char *machine; /* SWT: the machine description of the header, or NULL */
	size_t mlen;
	const struct sr_memcgs *memcgs; /* the memcgs' paths, or NULL */
	uint8_t named[(SR_MEMCG_MAX + 8) / 8]; /* memcgs whose path was written */
};

/* The path to write with event e: its memcg's, when the table names it
 * and it was not written yet (then it is taken as written); else NULL. */
static const char *path_due(struct sr_writer *w, const struct sr_event *e)
{
	const char *path;
	unsigned id = e->memcg;

	if (SR_LIKELY(!id) || !w->memcgs || (w->named[id >> 3] & (1u << (id & 7))))
		return NULL;
	path = sr_memcgs_path(w->memcgs, id);
	if (path)
		w->named[id >> 3] |= (uint8_t)(1u << (id & 7));
	return path;
}

static enum sr_err put_raw(struct sr_writer *w, const void *p, size_t n,
			   struct sr_diag *d)
{
	if (n && fwrite(p, 1, n, w->fp) != n)
		return sr_diag_set(d, SR_ERR_IO, "write failed: %s", strerror(errno));
	return SR_OK;
}

/* Hand w->buf to the compressor or the file; end the zstd frame if last. */
static enum sr_err flush_buf(struct sr_writer *w, int last, struct sr_diag *d)
{
	enum sr_err err;

	if (!w->zc) {
		err = put_raw(w, w->buf, w->len, d);
		w->len = 0;
		return err;
	}
	{
		ZSTD_inBuffer in = { w->buf, w->len, 0 };
		ZSTD_EndDirective mode = last ? ZSTD_e_end : ZSTD_e_continue;
		size_t rem;

		do {
			ZSTD_outBuffer out = { w->zbuf, w->zcap, 0 };

			rem = ZSTD_compressStream2(w->zc, &out, &in, mode);
			if (ZSTD_isError(rem))
				return sr_diag_set(d, SR_ERR_ZSTD, "zstd compression failed: %s",
						   ZSTD_getErrorName(rem));
			err = put_raw(w, w->zbuf, out.pos, d);
			if (err)
				return err;
		} while (last ? rem != 0 : in.pos < in.size);
	}
	w->len = 0;
	return SR_OK;
}

static char *put_u64(char *p, uint64_t v)
{
	char tmp[24];
	int i = 0;

	do {
		tmp[i++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (i)
		*p++ = tmp[--i];
	return p;
}

static char *put_str(char *p, const char *s)
{
	size_t n = strlen(s);

	memcpy(p, s, n);
	return p + n;
}

static char *put_dev(char *p, int32_t dev)
{
	if (dev < 0)
		return put_str(p, "-1");
	return put_u64(p, (uint64_t)dev);
}

/* ",out,", ",in,", ... : an op between its commas (CSV). */
static char *put_op(char *p, unsigned op)
{
	*p++ = ',';
	p = put_str(p, sr_op_name((enum sr_op)op));
	*p++ = ',';
	return p;
}

/* Checklist: the column order is sr_field_names[] (event.c); vaddr,
 * child, reclaim, fault and memcg with memcg_path, the last, only when the
 * writer carries them (has); path: the memcg's, to name it on this row. */
static char *fmt_csv(char *p, const struct sr_event *e, unsigned has, const char *path)
{
	p = put_u64(p, e->ts_ns);
	p = put_op(p, e->op);
	p = put_u64(p, e->pid);
	*p++ = ',';
	if (e->flags & SR_EV_HAS_CPU)
		p = put_u64(p, e->cpu);
	*p++ = ',';
	p = put_u64(p, e->cpu_nid);
	*p++ = ',';
	p = put_u64(p, e->page_nid);
	*p++ = ',';
	p = put_dev(p, e->dev);
	*p++ = ',';
	if (e->flags & SR_EV_HAS_OFFSET)
		p = put_u64(p, e->offset);
	*p++ = ',';
	p = put_u64(p, e->nr_pages);
	*p++ = ',';
	p = put_u64(p, e->lat_ns);
	if (has & W_VADDR) {
		*p++ = ',';
		if (e->flags & SR_EV_HAS_VADDR)
			p = put_u64(p, e->vaddr);
	}
	if (has & W_TASKS) {
		*p++ = ',';
		if (e->flags & SR_EV_HAS_CHILD)
			p = put_u64(p, e->child);
	}
	if (has & W_RECLAIM) {
		*p++ = ',';
		if (e->flags & SR_EV_HAS_RECLAIM)
			p = put_str(p, (e->flags & SR_EV_KSWAPD) ? "kswapd" : "direct");
	}
	if (has & W_FAULT) {
		*p++ = ',';
		if (e->flags & SR_EV_HAS_FAULT)
			p = put_str(p, (e->flags & SR_EV_WRITE_FAULT) ? "write" : "read");
	}
	if (has & W_MEMCG) {
		*p++ = ',';
		if (e->memcg)
			p = put_u64(p, e->memcg);
		*p++ = ',';
		if (path)
			p = sr_csv_put(p, path);
	}
	*p++ = '\n';
	return p;
}

static char *fmt_jsonl(char *p, const struct sr_event *e, const char *path)
{
	p = put_str(p, "{\"ts_ns\":");
	p = put_u64(p, e->ts_ns);
	p = put_str(p, ",\"op\":\"");
	p = put_str(p, sr_op_name((enum sr_op)e->op));
	p = put_str(p, "\",\"pid\":");
	p = put_u64(p, e->pid);
	if (e->flags & SR_EV_HAS_CPU) {
		p = put_str(p, ",\"cpu\":");
		p = put_u64(p, e->cpu);
	}
	p = put_str(p, ",\"cpu_nid\":");
	p = put_u64(p, e->cpu_nid);
	p = put_str(p, ",\"page_nid\":");
	p = put_u64(p, e->page_nid);
	p = put_str(p, ",\"dev\":");
	p = put_dev(p, e->dev);
	if (e->flags & SR_EV_HAS_OFFSET) {
		p = put_str(p, ",\"offset\":");
		p = put_u64(p, e->offset);
	}
	p = put_str(p, ",\"nr_pages\":");
	p = put_u64(p, e->nr_pages);
	p = put_str(p, ",\"lat_ns\":");
	p = put_u64(p, e->lat_ns);
	if (e->flags & SR_EV_HAS_VADDR) {
		p = put_str(p, ",\"vaddr\":");
		p = put_u64(p, e->vaddr);
	}
	if (e->flags & SR_EV_HAS_CHILD) {
		p = put_str(p, ",\"child\":");
		p = put_u64(p, e->child);
	}
	if (e->flags & SR_EV_HAS_RECLAIM)
		p = put_str(p, (e->flags & SR_EV_KSWAPD) ? ",\"reclaim\":\"kswapd\"" :
							    ",\"reclaim\":\"direct\"");
	if (e->flags & SR_EV_HAS_FAULT)
		p = put_str(p, (e->flags & SR_EV_WRITE_FAULT) ? ",\"fault\":\"write\"" :
								 ",\"fault\":\"read\"");
	if (e->memcg) {
		p = put_str(p, ",\"memcg\":");
		p = put_u64(p, e->memcg);
	}
	if (path) {
		p = put_str(p, ",\"memcg_path\":");
		p = sr_json_put(p, path);
	}
	p = put_str(p, "}\n");
	return p;
}

/* What an output of format fmt that carries has carries in all: JSON
 * lines every key, .swt version 3 vaddr too, version 4 everything but
 * memcgs, version 5 everything. */
static unsigned carried(enum sr_format fmt, unsigned has)
{
	if (fmt == SR_FMT_JSONL || (fmt == SR_FMT_SWT && (has & W_MEMCG)))
		return W_ALL;
	if (fmt == SR_FMT_SWT && (has & W_CTX))
		return W_ALL & ~W_MEMCG;
	return fmt == SR_FMT_SWT && (has & W_TASKS) ? has | W_VADDR : has;
}

/* The .swt version of an output that carries has: the lowest that holds it. */
static unsigned swt_version(unsigned has)
{
	return (has & W_MEMCG) ? 5 : (has & W_CTX) ? 4 : (has & W_TASKS) ? 3 :
	       (has & W_VADDR) ? 2 : 1;
}

/* The header of w's format (with the columns or version of w->has) into
 * w->buf, and for SWT its machine description written through. */
static enum sr_err write_header(struct sr_writer *w, struct sr_diag *d)
{
	enum sr_err err = SR_OK;

	if (w->fmt == SR_FMT_CSV) {
		int i;

		for (i = 0; i < SR_F_COUNT; i++) {
			if ((i == SR_F_VADDR && !(w->has & W_VADDR)) ||
			    (i == SR_F_CHILD && !(w->has & W_TASKS)) ||
			    (i == SR_F_RECLAIM && !(w->has & W_RECLAIM)) ||
			    (i == SR_F_FAULT && !(w->has & W_FAULT)) ||
			    ((i == SR_F_MEMCG || i == SR_F_MEMCG_PATH) && !(w->has & W_MEMCG)))
				continue;
			w->len += (size_t)sprintf(w->buf + w->len, "%s%s", i ? "," : "",
						  sr_field_names[i]);
		}
		w->buf[w->len++] = '\n';
	} else if (w->fmt == SR_FMT_SWT) {
		unsigned char h[SWT_HEADER_SIZE] = { 0 };
		size_t off = 0;

		memcpy(h, SWT_MAGIC, SWT_MAGIC_LEN);
		/* Version 1 unless the events carry addresses (2), task ops
		 * (3), reclaims or faults (4) or memcgs (5): what older builds
		 * read stays theirs to read. */
		swt_put16(h + SWT_H_VERSION, (uint16_t)swt_version(w->has));
		swt_put16(h + SWT_H_HDRSIZE, SWT_HEADER_SIZE);
		swt_put32(h + SWT_H_RECSIZE, swt_record_size(swt_version(w->has)));
		swt_put32(h + SWT_H_MACHLEN, (uint32_t)w->mlen);
		memcpy(w->buf, h, sizeof(h));
		w->len = sizeof(h);
		/* The machine may exceed the buffer: write it through. */
		err = flush_buf(w, 0, d);
		while (!err && off < w->mlen) {
			size_t k = w->mlen - off < WBUF_SIZE ? w->mlen - off : WBUF_SIZE;

			memcpy(w->buf, w->machine + off, k);
			w->len = k;
			off += k;
			err = flush_buf(w, 0, d);
		}
	}
	return err;
}

enum sr_err sr_writer_open(struct sr_writer **out, const char *path,
			   const struct sr_write_opts *opts, struct sr_diag *caller)
{
	struct sr_diag local, *d = caller ? caller : &local;
	struct sr_writer *w;
	enum sr_err err;
	size_t mlen = 0;

	*out = NULL;
	sr_diag_clear(d);
	sr_diag_file(d, path);
	if (opts->format != SR_FMT_CSV && opts->format != SR_FMT_JSONL &&
	    opts->format != SR_FMT_SWT)
		return sr_diag_set(d, SR_ERR_INVAL, "no output format given");
	if (opts->zstd_level < 0 || opts->zstd_level > ZSTD_maxCLevel())
		return sr_diag_set(d, SR_ERR_INVAL, "zstd level %d out of range 1..%d",
				   opts->zstd_level, ZSTD_maxCLevel());
	if (opts->machine_json) {
		mlen = strlen(opts->machine_json);
		if (mlen > SWT_MAX_MACHINE)
			return sr_diag_set(d, SR_ERR_LIMIT,
					   "machine description over %u bytes", SWT_MAX_MACHINE);
	}
	w = calloc(1, sizeof(*w));
	if (!w)
		return sr_diag_set(d, SR_ERR_NOMEM, "out of memory");
	snprintf(w->name, sizeof(w->name), "%s", path);
	w->fmt = opts->format;
	w->memcgs = opts->memcgs;
	w->path = strdup(path);
	w->buf = malloc(WBUF_SIZE + WBUF_SLACK);
	if (mlen && w->fmt == SR_FMT_SWT) {
		w->machine = malloc(mlen);
		if (w->machine)
			memcpy(w->machine, opts->machine_json, mlen);
		w->mlen = mlen;
	}
	if (!w->buf || !w->path || (w->mlen && !w->machine)) {
		err = sr_diag_set(d, SR_ERR_NOMEM, "out of memory");
		goto out_free;
	}
	if (opts->zstd_level) {
		w->zc = ZSTD_createCCtx();
		w->zcap = ZSTD_CStreamOutSize();
		w->zbuf = malloc(w->zcap);
		if (!w->zc || !w->zbuf) {
			err = sr_diag_set(d, SR_ERR_NOMEM, "out of memory");
			goto out_free;
		}
		ZSTD_CCtx_setParameter(w->zc, ZSTD_c_compressionLevel, opts->zstd_level);
		ZSTD_CCtx_setParameter(w->zc, ZSTD_c_checksumFlag, 1);
	}
	err = sr_outfile_open(&w->of, path, d);
	if (err)
		goto out_free;
	w->fp = sr_outfile_stream(w->of);
	/* Where the output cannot be written again, vaddr, the task ops, the
	 * reclaims and the faults from the start if the events may bring
	 * them. */
	{
		int again = sr_outfile_temp_name(w->of) != NULL;

		w->has = carried(w->fmt,
				 (opts->vaddr || (opts->may_vaddr && !again) ? W_VADDR : 0) |
				 (opts->tasks || (opts->may_tasks && !again) ? W_TASKS : 0) |
				 (opts->reclaim || (opts->may_reclaim && !again) ? W_RECLAIM : 0) |
				 (opts->fault || (opts->may_fault && !again) ? W_FAULT : 0) |
				 (opts->memcg || (opts->may_memcg && !again) ? W_MEMCG : 0));
	}
	err = write_header(w, d);
	if (err)
		goto out_abort;
	*out = w;
	return SR_OK;

out_abort:
	sr_outfile_abort(w->of);
out_free:
	ZSTD_freeCCtx(w->zc);
	free(w->zbuf);
	free(w->buf);
	free(w->path);
	free(w->machine);
	free(w);
	return err;
}

/*
 * What event e needs that an output may be begun without (W_*): vaddr; for
 * CSV the child column (a fork or a wait: an exit has no child), for .swt
 * version 3 (any task op); a reclaim, a fault.
 */
static unsigned needs(const struct sr_writer *w, const struct sr_event *e)
{
	unsigned n = (e->flags & SR_EV_HAS_VADDR) ? W_VADDR : 0;

	if ((e->flags & SR_EV_HAS_CHILD) || (w->fmt == SR_FMT_SWT && sr_op_is_task(e->op)))
		n |= W_TASKS;
	if (SR_UNLIKELY(e->flags & (SR_EV_HAS_RECLAIM | SR_EV_HAS_FAULT)))
		n |= ((e->flags & SR_EV_HAS_RECLAIM) ? W_RECLAIM : 0) |
		     ((e->flags & SR_EV_HAS_FAULT) ? W_FAULT : 0);
	if (SR_UNLIKELY(e->memcg))
		n |= W_MEMCG;
	return n;
}

/* What an output without `missing` (W_*) lacks, for a message. */
static const char *lacking(const struct sr_writer *w, unsigned missing)
{
	static const char *const swt[] = { ".swt version 1", ".swt version 2", ".swt version 3",
					   ".swt version 4" };

	if (w->fmt == SR_FMT_CSV)
		return (missing & W_VADDR) ? "no vaddr column" :
		       (missing & W_TASKS) ? "no child column" :
		       (missing & W_RECLAIM) ? "no reclaim column" :
		       (missing & W_FAULT) ? "no fault column" : "no memcg column";
	return swt[swt_version(w->has) - 1];
}

/*
 * The first event e that needs what the output was begun without (`more`,
 * W_*: a vaddr in a CSV without the column or .swt version 1; a task op in
 * a CSV without the child column or .swt before version 3; a reclaim or a
 * fault in a CSV without its column or .swt before version 4): what was
 * written is read back from the temporary file and written again with it,
 * in the same format, to a new temporary file that takes the old one's
 * place (which goes).  At most once per kind of need and output, and only
 * what came before that event is read again.  An output that cannot be
 * read back (standard output, a pipe, a device) is an error: better than
 * addresses, tasks, reclaims or faults silently lost.
 */
static enum sr_err upgrade(struct sr_writer *w, unsigned more, const struct sr_event *e,
			   struct sr_diag *d)
{
	const char *old = sr_outfile_temp_name(w->of);
	struct sr_read_opts ro = { .format = w->fmt };
	struct sr_outfile *nof = NULL, *oof;
	struct sr_reader *r = NULL;
	struct sr_event *evs;
	enum sr_err err;
	size_t n;

	if (!old) {
		sr_diag_file(d, w->name);
		if (more & W_VADDR)
			return sr_diag_set(d, SR_ERR_INVAL,
					   "an event has a virtual address (vaddr), but this output was begun without them (%s) and cannot be written again (standard output, a pipe or a device): write to a file",
					   lacking(w, more));
		if (!(more & (W_TASKS | W_CTX)))
			return sr_diag_set(d, SR_ERR_INVAL,
					   "an event has a memory cgroup (memcg), but this output was begun without them (%s) and cannot be written again (standard output, a pipe or a device): write to a file",
					   lacking(w, more));
		if (!(more & W_TASKS))
			return sr_diag_set(d, SR_ERR_INVAL,
					   "an event has a %s (%s), but this output was begun without them (%s) and cannot be written again (standard output, a pipe or a device): write to a file",
					   (more & W_RECLAIM) ? "swap-out's reclaim" : "swap-in's fault",
					   (more & W_RECLAIM) ? "reclaim" : "fault", lacking(w, more));
		return sr_diag_set(d, SR_ERR_INVAL,
				   "an event is a task op (%s), but this output was begun without them (%s) and cannot be written again (standard output, a pipe or a device): write to a file",
				   sr_op_name((enum sr_op)e->op), lacking(w, more));
	}
	evs = malloc(REREAD_BATCH * sizeof(*evs));
	if (!evs)
		return sr_diag_set(d, SR_ERR_NOMEM, "out of memory");
	err = flush_buf(w, 1, d);
	if (!err && fflush(w->fp))
		err = sr_diag_set(d, SR_ERR_IO, "write failed: %s", strerror(errno));
	if (err) {
		sr_diag_file(d, w->name);
		goto out_free;
	}
	err = sr_outfile_open(&nof, w->path, d);
	if (err)
		goto out_free;
	err = sr_reader_open(&r, old, &ro, d);
	if (err)
		goto out_abort_new;
	/* The writer's own from here: w->of goes with the writer. */
	oof = w->of;
	w->of = nof;
	w->fp = sr_outfile_stream(nof);
	w->has = carried(w->fmt, w->has | more);
	w->len = 0;
	/* The paths go again with the first events written again. */
	memset(w->named, 0, sizeof(w->named));
	if (w->zc)
		ZSTD_CCtx_reset(w->zc, ZSTD_reset_session_only);
	err = write_header(w, d);
	while (!err) {
		err = sr_reader_read(r, evs, REREAD_BATCH, &n, d);
		if (err || !n)
			break;
		err = sr_writer_write(w, evs, n, d);
	}
	if (err && !d->file[0])
		sr_diag_file(d, w->name);
	sr_reader_close(r);
	sr_outfile_abort(oof);
	free(evs);
	return err;

out_abort_new:
	sr_outfile_abort(nof);
out_free:
	free(evs);
	return err;
}

enum sr_err sr_writer_write(struct sr_writer *w, const struct sr_event *evs,
			    size_t n, struct sr_diag *d)
{
	enum sr_err err;
	size_t i;

	for (i = 0; i < n; i++) {
		const struct sr_event *e = &evs[i];
		unsigned more = needs(w, e) & ~w->has;

		if (SR_UNLIKELY(more)) {
			err = upgrade(w, more, e, d);
			if (err)
				return err;
		}
		switch (w->fmt) {
		case SR_FMT_CSV:
			w->len = (size_t)(fmt_csv(w->buf + w->len, e, w->has,
						  (w->has & W_MEMCG) ? path_due(w, e) : NULL) -
					  w->buf);
			break;
		case SR_FMT_JSONL:
			if (e->ts_ns > INT64_MAX || e->offset > INT64_MAX ||
			    e->lat_ns > INT64_MAX || e->vaddr > INT64_MAX) {
				sr_diag_file(d, w->name);
				return sr_diag_set(d, SR_ERR_LIMIT,
						   "event %zu has a value over 2^63-1, which JSON lines cannot hold",
						   i + 1);
			}
			w->len = (size_t)(fmt_jsonl(w->buf + w->len, e, path_due(w, e)) - w->buf);
			break;
		default: {
			unsigned v = swt_version(w->has);
			const char *path = v >= 5 ? path_due(w, e) : NULL;

			if (SR_UNLIKELY(path != NULL))
				w->len += swt_name_record((unsigned char *)w->buf + w->len, e->memcg,
							  path, swt_record_size(v));
			swt_encode((unsigned char *)w->buf + w->len, e, v);
			w->len += swt_record_size(v);
			break;
		}
		}
		if (w->len >= WBUF_SIZE) {
			err = flush_buf(w, 0, d);
			if (err) {
				sr_diag_file(d, w->name);
				return err;
			}
		}
	}
	return SR_OK;
}

static void free_writer(struct sr_writer *w)
{
	ZSTD_freeCCtx(w->zc);
	free(w->zbuf);
	free(w->buf);
	free(w->path);
	free(w->machine);
	free(w);
}

enum sr_err sr_writer_finish(struct sr_writer *w, struct sr_diag *d)
{
	enum sr_err err;

	err = flush_buf(w, 1, d);
	if (err) {
		sr_diag_file(d, w->name);
		sr_outfile_abort(w->of);
	} else {
		err = sr_outfile_commit(w->of, d);
	}
	free_writer(w);
	return err;
}

void sr_writer_abort(struct sr_writer *w)
{
	if (!w)
		return;
	sr_outfile_abort(w->of);
	free_writer(w);
}
