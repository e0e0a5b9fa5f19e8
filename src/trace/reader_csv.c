/* SPDX-License-Identifier: MIT */
/*
 * CSV traces, parsed with libcsv: a header row naming the fields in any
 * order, then one event per row.  Lines are fed to libcsv one at a time so
 * that every error names the line it is on; a quoted field may still span
 * lines.  Unknown columns are ignored (listed in the reader's stats).
 */
#include <csv.h>
#include <stdlib.h>
#include <string.h>

#include "trace/reader_impl.h"
#include "common/diag.h"
#include "trace/fields.h"

#define CSV_MAX_COLS 256

struct csv_state {
	struct csv_parser p;
	int header_done;
	size_t ncols;
	int col_field[CSV_MAX_COLS]; /* column -> enum sr_field, or -1 */

	/* The row being parsed; written by the callbacks. */
	struct sr_event *ev;
	struct sr_reader *r;
	size_t col;
	int row_done;
	int bad;             /* first problem of this row is in msg */
	char msg[400];
	/* The row's memcg_path, named once the row's event is whole. */
	char path[SR_MEMCG_PATH_MAX + 1];
	size_t path_len;
	size_t row_bytes;    /* bytes fed since the row started */
	uint64_t row_line;   /* line the row started on */
};

static int csv_probe(const unsigned char *p, size_t n)
{
	(void)p;
	(void)n;
	return 1; /* the fallback: anything that is not binary or JSON */
}

static void row_fail(struct csv_state *st, const char *fmt, const char *a)
{
	if (st->bad)
		return;
	st->bad = 1;
	snprintf(st->msg, sizeof(st->msg), fmt, a);
}

static void on_header_field(struct csv_state *st, const char *s, size_t len)
{
	int f;
	size_t i;

	if (st->ncols == CSV_MAX_COLS) {
		row_fail(st, "header has more than 256 columns%s", "");
		return;
	}
	f = sr_field_lookup(s, len);
	if (f < 0) {
		sr_reader_note_unknown(st->r, s, len);
	} else {
		for (i = 0; i < st->ncols; i++)
			if (st->col_field[i] == f)
				row_fail(st, "duplicate column (%s)", sr_field_names[f]);
	}
	st->col_field[st->ncols++] = f;
}

static void on_field(void *s, size_t len, void *data)
{
	struct csv_state *st = data;
	char m[400];
	int f;

	if (!st->header_done) {
		on_header_field(st, s, len);
		return;
	}
	if (st->col >= st->ncols) {
		st->col++;
		return;
	}
	f = st->col_field[st->col++];
	if (f < 0 || st->bad)
		return;
	if (len == 0) {
		if (sr_field_required(f))
			row_fail(st, "missing value of a required field (%s, \"\")",
				 sr_field_names[f]);
		return;
	}
	if (f == SR_F_MEMCG_PATH) {
		if (len > SR_MEMCG_PATH_MAX) {
			row_fail(st, "memcg path longer than 4095 bytes (memcg_path, %s)", "...");
			return;
		}
		memcpy(st->path, s, len);
		st->path_len = len;
		return;
	}
	if (sr_field_set_text(st->ev, f, s, len, m, sizeof(m)))
		row_fail(st, "%s", m);
}

static void on_row(int c, void *data)
{
	struct csv_state *st = data;

	(void)c;
	st->row_done = 1;
}

static void reset_row(struct csv_state *st, struct sr_event *ev)
{
	st->ev = ev;
	st->col = 0;
	st->row_done = 0;
	st->bad = 0;
	st->row_bytes = 0;
	st->path_len = 0;
	sr_event_init(ev);
}

/* Feed lines until libcsv reports a complete row.  *eof at end of data. */
static enum sr_err feed_row(struct sr_reader *r, struct csv_state *st, int *eof,
			    struct sr_diag *d)
{
	const char *line;
	size_t len;
	enum sr_err err;
	int nl, cr;

	*eof = 0;
	while (!st->row_done) {
		err = sr_reader_line(r, &line, &len, &cr, d);
		if (err)
			return err;
		if (!line) {
			if (csv_fini(&st->p, on_field, on_row, st) != 0) {
				sr_reader_at_line(r, d);
				d->line = st->row_line;
				return sr_diag_set(d, SR_ERR_FORMAT,
						   "unterminated quoted field at end of file");
			}
			if (!st->row_done)
				*eof = 1;
			return SR_OK;
		}
		/* One call with the line's own "\n" when it has one and no
		 * CR before it (the common case), else the line and a "\n". */
		nl = sr_src_line_had_nl(r->src) && !cr;
		/* pstate 0 is libcsv's ROW_NOT_BEGUN: this line starts a row. */
		if (st->p.pstate == 0)
			st->row_line = r->line;
		st->row_bytes += len + 1;
		if (nl ? csv_parse(&st->p, line, len + 1, on_field, on_row, st) != len + 1 :
			 (csv_parse(&st->p, line, len, on_field, on_row, st) != len ||
			  csv_parse(&st->p, "\n", 1, on_field, on_row, st) != 1)) {
			int e = csv_error(&st->p);

			/* Start afresh on the next line, so that the row can be
			 * skipped under --max-errors. */
			csv_free(&st->p);
			csv_init(&st->p, CSV_STRICT | CSV_APPEND_NULL | CSV_STRICT_FINI);
			sr_reader_at_line(r, d);
			r->record_error = st->header_done;
			return sr_diag_set(d, e == CSV_ENOMEM ? SR_ERR_NOMEM : SR_ERR_FORMAT,
					   "CSV syntax error: %s", csv_strerror(e));
		}
		if (!st->row_done) {
			/* Back at ROW_NOT_BEGUN: it was a blank line. */
			if (st->p.pstate == 0)
				st->row_bytes = 0;
			if (st->row_bytes > SR_MAX_LINE) {
				sr_reader_at_line(r, d);
				return sr_diag_set(d, SR_ERR_LIMIT,
						   "quoted field longer than %u bytes", SR_MAX_LINE);
			}
		}
	}
	st->row_bytes = 0;
	return SR_OK;
}

static enum sr_err csv_open(struct sr_reader *r, struct sr_diag *d)
{
	struct csv_state *st;
	struct sr_event scratch;
	enum sr_err err;
	int eof, f;
	size_t i;
	int have[SR_F_COUNT] = { 0 };

	st = calloc(1, sizeof(*st));
	if (!st)
		return sr_diag_set(d, SR_ERR_NOMEM, "out of memory");
	if (csv_init(&st->p, CSV_STRICT | CSV_APPEND_NULL | CSV_STRICT_FINI)) {
		free(st);
		return sr_diag_set(d, SR_ERR_NOMEM, "out of memory");
	}
	st->r = r;
	r->priv = st;
	reset_row(st, &scratch);
	err = feed_row(r, st, &eof, d);
	if (err)
		return err;
	if (eof) {
		sr_reader_at_line(r, d);
		return sr_diag_set(d, SR_ERR_FORMAT, "empty trace (no header row)");
	}
	if (st->bad) {
		sr_reader_at_line(r, d);
		return sr_diag_set(d, SR_ERR_FORMAT, "bad header: %s", st->msg);
	}
	for (i = 0; i < st->ncols; i++)
		if (st->col_field[i] >= 0)
			have[st->col_field[i]] = 1;
	for (f = 0; f < SR_F_COUNT; f++) {
		if (sr_field_required(f) && !have[f]) {
			sr_reader_at_line(r, d);
			return sr_diag_set(d, SR_ERR_FORMAT,
					   "missing required column (%s) in the header row",
					   sr_field_names[f]);
		}
	}
	st->header_done = 1;
	r->may_vaddr = have[SR_F_VADDR];
	r->may_tasks = have[SR_F_CHILD];
	r->may_reclaim = have[SR_F_RECLAIM];
	r->may_fault = have[SR_F_FAULT];
	r->may_memcg = have[SR_F_MEMCG];
	return SR_OK;
}

static enum sr_err csv_next(struct sr_reader *r, struct sr_event *ev, int *eof,
			    struct sr_diag *d)
{
	struct csv_state *st = r->priv;
	enum sr_err err;

	reset_row(st, ev);
	err = feed_row(r, st, eof, d);
	if (err || *eof)
		return err;
	if (!st->bad && st->col != st->ncols) {
		snprintf(st->msg, sizeof(st->msg),
			 "expected %zu fields as in the header, found %zu",
			 st->ncols, st->col);
		st->bad = 1;
	}
	/* What the op asks of the other fields (each value is checked as it
	 * is parsed): a row of a swap event passes at the cost of one test. */
	if (!st->bad && SR_UNLIKELY(!sr_event_valid(ev)) &&
	    sr_event_check(ev, st->msg, sizeof(st->msg)))
		st->bad = 1;
	if (!st->bad && SR_UNLIKELY(st->path_len)) {
		int rc = sr_memcgs_set(r->memcgs, ev->memcg, st->path, st->path_len, st->msg,
				       sizeof(st->msg));

		if (rc == -2) {
			sr_reader_at_line(r, d);
			return sr_diag_set(d, SR_ERR_NOMEM, "out of memory");
		}
		st->bad = rc != 0;
	}
	if (st->bad) {
		sr_reader_at_line(r, d);
		d->line = st->row_line;
		r->record_error = 1;
		return sr_diag_set(d, SR_ERR_FORMAT, "%s", st->msg);
	}
	return SR_OK;
}

static void csv_close(struct sr_reader *r)
{
	struct csv_state *st = r->priv;

	if (!st)
		return;
	csv_free(&st->p);
	free(st);
	r->priv = NULL;
}

const struct sr_reader_ops sr_reader_csv_ops = {
	.format = SR_FMT_CSV,
	.probe = csv_probe,
	.open = csv_open,
	.next = csv_next,
	.close = csv_close,
};
