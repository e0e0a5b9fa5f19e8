/* SPDX-License-Identifier: MIT */
/*
 * The native binary format (swt.h, traces/FORMAT.md): a fixed header, an
 * optional machine description, then fixed-size records decoded straight
 * from the source's window.
 */
#include <stdlib.h>
#include <string.h>

#include "trace/reader_impl.h"
#include "trace/swt.h"
#include "common/diag.h"
#include "trace/fields.h"

struct swt_state {
	uint32_t recsize;
	unsigned version;
	uint64_t nrec;     /* records consumed, good or bad */
};

static int swt_probe(const unsigned char *p, size_t n)
{
	return n >= SWT_MAGIC_LEN && memcmp(p, SWT_MAGIC, SWT_MAGIC_LEN) == 0;
}

static enum sr_err hdr_error(struct sr_reader *r, struct sr_diag *d, uint64_t off)
{
	sr_diag_file(d, sr_src_name(r->src));
	d->has_offset = 1;
	d->byte_offset = off;
	return SR_ERR_FORMAT;
}

static enum sr_err swt_open(struct sr_reader *r, struct sr_diag *d)
{
	struct swt_state *st;
	const unsigned char *p;
	size_t n;
	enum sr_err err;
	uint32_t hdrsize, recsize, mlen;
	uint16_t version;

	err = sr_src_peek(r->src, SWT_HEADER_SIZE, &p, &n, d);
	if (err)
		return err;
	if (n < SWT_MAGIC_LEN || memcmp(p, SWT_MAGIC, SWT_MAGIC_LEN)) {
		hdr_error(r, d, 0);
		return sr_diag_set(d, SR_ERR_FORMAT, "wrong binary magic (not a .swt trace)");
	}
	if (n < SWT_HEADER_SIZE) {
		hdr_error(r, d, n);
		return sr_diag_set(d, SR_ERR_FORMAT,
				   "truncated header (%zu of %d bytes)", n, SWT_HEADER_SIZE);
	}
	version = swt_get16(p + SWT_H_VERSION);
	hdrsize = swt_get16(p + SWT_H_HDRSIZE);
	recsize = swt_get32(p + SWT_H_RECSIZE);
	mlen = swt_get32(p + SWT_H_MACHLEN);
	if (version < 1 || version > SWT_VERSION) {
		hdr_error(r, d, SWT_H_VERSION);
		return sr_diag_set(d, SR_ERR_FORMAT,
				   "unsupported binary version (version, %u; this build reads 1 to %d)",
				   version, SWT_VERSION);
	}
	if (hdrsize < SWT_HEADER_SIZE || hdrsize > SR_SRC_MAX_WANT) {
		hdr_error(r, d, SWT_H_HDRSIZE);
		return sr_diag_set(d, SR_ERR_FORMAT, "bad header size (header_size, %u)",
				   hdrsize);
	}
	if (recsize < swt_record_size(version) || recsize > SWT_MAX_RECORD) {
		hdr_error(r, d, SWT_H_RECSIZE);
		return sr_diag_set(d, SR_ERR_FORMAT,
				   "bad record size (record_size, %u; expected %u to %d in version %u)",
				   recsize, swt_record_size(version), SWT_MAX_RECORD, version);
	}
	if (swt_get32(p + SWT_H_FLAGS)) {
		hdr_error(r, d, SWT_H_FLAGS);
		return sr_diag_set(d, SR_ERR_FORMAT,
				   "unknown header flags (flags, 0x%08x; versions 1 to 5 have none)",
				   swt_get32(p + SWT_H_FLAGS));
	}
	if (mlen > SWT_MAX_MACHINE) {
		hdr_error(r, d, SWT_H_MACHLEN);
		return sr_diag_set(d, SR_ERR_FORMAT,
				   "machine description too large (machine_len, %u; at most %u)",
				   mlen, SWT_MAX_MACHINE);
	}
	/* A later version's longer header: skip what this build does not know. */
	err = sr_src_peek(r->src, hdrsize, &p, &n, d);
	if (err)
		return err;
	if (n < hdrsize) {
		hdr_error(r, d, n);
		return sr_diag_set(d, SR_ERR_FORMAT, "truncated header (%zu of %u bytes)",
				   n, hdrsize);
	}
	sr_src_skip(r->src, hdrsize);
	if (mlen) {
		err = sr_src_peek(r->src, mlen, &p, &n, d);
		if (err)
			return err;
		if (n < mlen) {
			hdr_error(r, d, sr_src_pos(r->src) + n);
			return sr_diag_set(d, SR_ERR_FORMAT,
					   "truncated machine description (%zu of %u bytes)",
					   n, mlen);
		}
		r->machine_json = malloc((size_t)mlen + 1);
		if (!r->machine_json)
			return sr_diag_set(d, SR_ERR_NOMEM, "out of memory");
		memcpy(r->machine_json, p, mlen);
		r->machine_json[mlen] = '\0';
		if (strlen(r->machine_json) != mlen) {
			hdr_error(r, d, sr_src_pos(r->src));
			return sr_diag_set(d, SR_ERR_FORMAT,
					   "machine description contains a NUL byte");
		}
		sr_src_skip(r->src, mlen);
	}
	st = calloc(1, sizeof(*st));
	if (!st)
		return sr_diag_set(d, SR_ERR_NOMEM, "out of memory");
	st->recsize = recsize;
	st->version = version;
	r->priv = st;
	r->may_vaddr = version >= 2;
	r->may_tasks = version >= 3;
	r->may_reclaim = version >= 4;
	r->may_fault = version >= 4;
	r->may_memcg = version >= 5;
	return SR_OK;
}

/* Position of the record about to be consumed, for a diagnostic. */
static void rec_error(struct sr_reader *r, struct swt_state *st, struct sr_diag *d)
{
	sr_diag_file(d, sr_src_name(r->src));
	d->has_offset = 1;
	d->byte_offset = sr_src_pos(r->src);
	d->record = st->nrec;
	r->record_error = 1;
}

/*
 * A name record (swt.h, SWT_OP_MEMCG_NAME) decoded into ev, at the source's
 * position: the path that follows it taken into the reader's table, the
 * record and the path's records consumed.  A bad one is a bad record.
 */
static enum sr_err name_record(struct sr_reader *r, struct swt_state *st,
			       const struct sr_event *ev, struct sr_diag *d)
{
	uint64_t len = ev->lat_ns;
	size_t total, n;
	const unsigned char *p;
	enum sr_err err;
	char msg[300];
	int rc;

	if (len == 0 || len > SR_MEMCG_PATH_MAX) {
		rec_error(r, st, d);
		sr_src_skip(r->src, st->recsize);
		return sr_diag_set(d, SR_ERR_FORMAT,
				   "name record with a path of %llu bytes (lat_ns; 1 to 4095)",
				   (unsigned long long)len);
	}
	total = st->recsize + ((size_t)len + st->recsize - 1) / st->recsize * st->recsize;
	err = sr_src_peek(r->src, total, &p, &n, d);
	if (err)
		return err;
	if (n < total) {
		rec_error(r, st, d);
		sr_src_skip(r->src, n);
		return sr_diag_set(d, SR_ERR_FORMAT,
				   "truncated name record (%zu of %zu bytes with its path)", n, total);
	}
	{
		/* Every byte but op, memcg and lat_ns 0 (traces/FORMAT.md), and
		 * the path's padding: else it is no name record this format
		 * wrote. */
		size_t i;

		for (i = 0; i < st->recsize; i++)
			if (p[i] && i != SWT_R_OP && !(i >= SWT_R_MEMCG && i < SWT_R_MEMCG + 2) &&
			    !(i >= SWT_R_LAT && i < SWT_R_LAT + 8))
				break;
		if (i == st->recsize)
			for (i = st->recsize + (size_t)len; i < total && !p[i]; i++)
				;
		if (i < total) {
			rec_error(r, st, d);
			sr_src_skip(r->src, total);
			st->nrec += total / st->recsize - 1;
			return sr_diag_set(d, SR_ERR_FORMAT, "name record with a byte not 0 %s "
					   "(byte %zu): every byte but op, memcg, lat_ns and the "
					   "path's is 0", i < st->recsize ? "in the record" :
					   "in the path's padding", i);
		}
	}
	rc = sr_memcgs_set(r->memcgs, ev->memcg, (const char *)p + st->recsize, (size_t)len,
			   msg, sizeof(msg));
	if (rc) {
		rec_error(r, st, d);
		sr_src_skip(r->src, total);
		st->nrec += total / st->recsize - 1;
		return sr_diag_set(d, rc == -2 ? SR_ERR_NOMEM : SR_ERR_FORMAT, "%s", msg);
	}
	sr_src_skip(r->src, total);
	st->nrec += total / st->recsize - 1;
	return SR_OK;
}

static enum sr_err swt_next(struct sr_reader *r, struct sr_event *ev, int *eof,
			    struct sr_diag *d)
{
	struct swt_state *st = r->priv;
	const unsigned char *p;
	size_t n;
	enum sr_err err;
	char msg[300];

	*eof = 0;
again:
	err = sr_src_peek(r->src, st->recsize, &p, &n, d);
	if (err)
		return err;
	if (n == 0) {
		*eof = 1;
		return SR_OK;
	}
	st->nrec++;
	if (n < st->recsize) {
		rec_error(r, st, d);
		sr_src_skip(r->src, n);
		return sr_diag_set(d, SR_ERR_FORMAT,
				   "truncated record (%zu of %u bytes)", n, st->recsize);
	}
	swt_decode(p, ev, st->version);
	if (SR_UNLIKELY(st->version >= 5 && ev->op == SWT_OP_MEMCG_NAME)) {
		err = name_record(r, st, ev, d);
		if (err)
			return err;
		goto again;
	}
	if (SR_UNLIKELY(st->version < 5 && ev->memcg)) {
		rec_error(r, st, d);
		sr_src_skip(r->src, st->recsize);
		return sr_diag_set(d, SR_ERR_FORMAT,
				   "reserved bytes 46-47 not 0 (memcg, %u; memcg is version 5's)",
				   ev->memcg);
	}
	if (SR_UNLIKELY(st->version < 2 && (ev->flags & SR_EV_HAS_VADDR))) {
		rec_error(r, st, d);
		sr_src_skip(r->src, st->recsize);
		return sr_diag_set(d, SR_ERR_FORMAT,
				   "unknown flag bits (flags, 0x%02x; vaddr is version 2's)", ev->flags);
	}
	/* The task ops and their child are version 3's: before, op 2 was as
	 * unknown as op 200. */
	if (SR_UNLIKELY(st->version < 3 && ev->op > SR_OP_IN)) {
		rec_error(r, st, d);
		sr_src_skip(r->src, st->recsize);
		return sr_diag_set(d, SR_ERR_FORMAT, "unknown op (op, %u)", ev->op);
	}
	if (SR_UNLIKELY(st->version < 3 && (ev->flags & SR_EV_HAS_CHILD))) {
		rec_error(r, st, d);
		sr_src_skip(r->src, st->recsize);
		return sr_diag_set(d, SR_ERR_FORMAT,
				   "unknown flag bits (flags, 0x%02x; child is version 3's)", ev->flags);
	}
	if (SR_UNLIKELY(st->version < 4 && (ev->flags & SWT_V4_FLAGS))) {
		rec_error(r, st, d);
		sr_src_skip(r->src, st->recsize);
		return sr_diag_set(d, SR_ERR_FORMAT,
				   "unknown flag bits (flags, 0x%02x; reclaim and fault are version 4's)",
				   ev->flags);
	}
	if (SR_UNLIKELY(sr_event_check(ev, msg, sizeof(msg)))) {
		rec_error(r, st, d);
		sr_src_skip(r->src, st->recsize);
		return sr_diag_set(d, SR_ERR_FORMAT, "%s", msg);
	}
	sr_src_skip(r->src, st->recsize);
	return SR_OK;
}

static enum sr_err swt_next_batch(struct sr_reader *r, struct sr_event *evs, size_t cap,
				  size_t *n, struct sr_diag *d)
{
	struct swt_state *st = r->priv;
	/* In locals: the decode's copies could change *st, for the compiler. */
	const size_t recsize = st->recsize;
	const unsigned version = st->version;
	const unsigned char *p;
	/* 32 KiB of records: decoded while the decompressed bytes are still
	 * in the cache (a fill of a 1 MiB window at a time was slower). */
	size_t avail, want = (32768 + recsize - 1) / recsize, i;
	/* Flag bits this version may not have: vaddr is version 2's, child
	 * version 3's, reclaim and fault version 4's; and the highest op it
	 * has (task ops: version 3). */
	const unsigned bad_flags = (version < 2 ? SR_EV_HAS_VADDR : 0) |
				   (version < 3 ? SR_EV_HAS_CHILD : 0) |
				   (version < 4 ? SWT_V4_FLAGS : 0);
	const unsigned max_op = version < 3 ? SR_OP_IN : SR_OP_COUNT - 1;
	/* Versions 1 to 4 have bytes 46-47 reserved, 0; version 5 memcg
	 * there (a name record's op is above max_op: next() reads it). */
	const unsigned memcg_mask = version < 5 ? 0xffffu : 0;
	uint64_t last_ts = r->last_ts, backwards = 0;
	enum sr_err err;

	*n = 0;
	if (want > cap)
		want = cap;
	err = sr_src_peek(r->src, want * recsize, &p, &avail, d);
	if (err)
		return err;
	want = avail / recsize < want ? avail / recsize : want;
	/* Decoded, checked and counted (the stats of sr_reader_read()'s
	 * count_event()) in one pass, while the event is at hand.
	 * last_ts is 0 before the first event, and no timestamp is below it,
	 * so the first needs no test of its own. */
	for (i = 0; i < want; i++, p += recsize) {
		struct sr_event *e = &evs[i];

		swt_decode(p, e, version);
		if (SR_UNLIKELY(!sr_event_valid(e) || (e->flags & bad_flags) || e->op > max_op ||
				(e->memcg & memcg_mask)))
			break; /* next() reports it */
		backwards += e->ts_ns < last_ts;
		last_ts = e->ts_ns;
	}
	r->stats.ts_backwards += backwards;
	r->stats.events += i;
	r->last_ts = last_ts;
	st->nrec += i;
	sr_src_skip(r->src, i * recsize);
	*n = i;
	return SR_OK;
}

static void swt_close(struct sr_reader *r)
{
	free(r->priv);
	r->priv = NULL;
}

const struct sr_reader_ops sr_reader_swt_ops = {
	.format = SR_FMT_SWT,
	.probe = swt_probe,
	.open = swt_open,
	.next = swt_next,
	.next_batch = swt_next_batch,
	.close = swt_close,
};
