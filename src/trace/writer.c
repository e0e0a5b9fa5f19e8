/* SPDX-License-Identifier: MIT */
/*
 * Trace writers: CSV, JSON lines and the binary format, each optionally
 * compressed with zstd as one stream (readable by `zstd -d`).  Output goes
 * through an sr_outfile, so a file appears only when it is complete.  An
 * output begun without vaddr (a CSV without the column, .swt version 1) is
 * written again with it when an event brings one (upgrade()).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include "common/diag.h"
#include "trace/fields.h"
#include "swapreplay/outfile.h"
#include "swapreplay/trace.h"
#include "trace/swt.h"

#define WBUF_SIZE (1u << 17)
#define WBUF_SLACK 512 /* room for one formatted event */
#define REREAD_BATCH 4096 /* events read back at a time by upgrade() */

struct sr_writer {
	struct sr_outfile *of;
	FILE *fp;
	enum sr_format fmt;
	ZSTD_CCtx *zc;
	unsigned char *zbuf;
	size_t zcap;
	char *buf;  /* formatted, not yet written */
	size_t len;
	int vaddr;  /* events carry vaddr: a CSV column, .swt version 2 */
	char name[256];
	char *path; /* the target as given, to write it again (upgrade()) */
	char *machine; /* SWT: the machine description of the header, or NULL */
	size_t mlen;
};

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

/* Checklist: the column order is sr_field_names[] (event.c); vaddr, the
 * last, only when the writer carries it. */
static char *fmt_csv(char *p, const struct sr_event *e, int vaddr)
{
	p = put_u64(p, e->ts_ns);
	p = put_str(p, e->op == SR_OP_IN ? ",in," : ",out,");
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
	if (vaddr) {
		*p++ = ',';
		if (e->flags & SR_EV_HAS_VADDR)
			p = put_u64(p, e->vaddr);
	}
	*p++ = '\n';
	return p;
}

static char *fmt_jsonl(char *p, const struct sr_event *e)
{
	p = put_str(p, "{\"ts_ns\":");
	p = put_u64(p, e->ts_ns);
	p = put_str(p, e->op == SR_OP_IN ? ",\"op\":\"in\",\"pid\":" : ",\"op\":\"out\",\"pid\":");
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
	p = put_str(p, "}\n");
	return p;
}

/* The header of w's format (with vaddr or not, as w->vaddr) into w->buf,
 * and for SWT its machine description written through. */
static enum sr_err write_header(struct sr_writer *w, struct sr_diag *d)
{
	enum sr_err err = SR_OK;

	if (w->fmt == SR_FMT_CSV) {
		int i;

		for (i = 0; i < (w->vaddr ? SR_F_COUNT : SR_F_VADDR); i++) {
			w->len += (size_t)sprintf(w->buf + w->len, "%s%s", i ? "," : "",
						  sr_field_names[i]);
		}
		w->buf[w->len++] = '\n';
	} else if (w->fmt == SR_FMT_SWT) {
		unsigned char h[SWT_HEADER_SIZE] = { 0 };
		size_t off = 0;

		memcpy(h, SWT_MAGIC, SWT_MAGIC_LEN);
		/* Version 1 unless the events carry addresses: what older
		 * builds read stays theirs to read. */
		swt_put16(h + SWT_H_VERSION, w->vaddr ? SWT_VERSION : 1);
		swt_put16(h + SWT_H_HDRSIZE, SWT_HEADER_SIZE);
		swt_put32(h + SWT_H_RECSIZE, w->vaddr ? SWT_RECORD_SIZE_V2 : SWT_RECORD_SIZE);
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
	/* Where the output cannot be written again, vaddr from the start if
	 * the events may bring one. */
	w->vaddr = opts->vaddr || (opts->may_vaddr && !sr_outfile_temp_name(w->of));
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
 * The first event with a vaddr in an output begun without (a CSV without
 * the column, .swt version 1): what was written is read back from the
 * temporary file and written again with vaddr, in the same format, to a
 * new temporary file that takes the old one's place (which goes).  At most
 * once per output, and only what came before that event is read again.
 * An output that cannot be read back (standard output, a pipe, a device)
 * is an error: better than addresses silently lost.
 */
static enum sr_err upgrade(struct sr_writer *w, struct sr_diag *d)
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
		return sr_diag_set(d, SR_ERR_INVAL,
				   "an event has a virtual address (vaddr), but this output was begun without them (%s) and cannot be written again (standard output, a pipe or a device): write to a file",
				   w->fmt == SR_FMT_CSV ? "no vaddr column" : ".swt version 1");
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
	w->vaddr = 1;
	w->len = 0;
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

		if (!w->vaddr && (e->flags & SR_EV_HAS_VADDR) && w->fmt != SR_FMT_JSONL) {
			err = upgrade(w, d);
			if (err)
				return err;
		}
		switch (w->fmt) {
		case SR_FMT_CSV:
			w->len = (size_t)(fmt_csv(w->buf + w->len, e, w->vaddr) - w->buf);
			break;
		case SR_FMT_JSONL:
			if (e->ts_ns > INT64_MAX || e->offset > INT64_MAX ||
			    e->lat_ns > INT64_MAX || e->vaddr > INT64_MAX) {
				sr_diag_file(d, w->name);
				return sr_diag_set(d, SR_ERR_LIMIT,
						   "event %zu has a value over 2^63-1, which JSON lines cannot hold",
						   i + 1);
			}
			w->len = (size_t)(fmt_jsonl(w->buf + w->len, e) - w->buf);
			break;
		default:
			swt_encode((unsigned char *)w->buf + w->len, e);
			if (w->vaddr) {
				swt_put64((unsigned char *)w->buf + w->len + SWT_R_VADDR,
					  (e->flags & SR_EV_HAS_VADDR) ? e->vaddr : 0);
				w->len += SWT_RECORD_SIZE_V2;
			} else {
				((unsigned char *)w->buf)[w->len + SWT_R_FLAGS] &=
					(unsigned char)~SR_EV_HAS_VADDR;
				w->len += SWT_RECORD_SIZE;
			}
			break;
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
