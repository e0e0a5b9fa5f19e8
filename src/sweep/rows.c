/* SPDX-License-Identifier: MIT */
/*
 * Result rows: formatted (JSON lines or CSV, docs/SWEEP.md), written a
 * whole row per write(), and read back for --resume, merge and the
 * summary.  A row begins with its unit and ends with its schema, so that
 * a row cut short anywhere (a kill in the middle of a write) is told from
 * a whole one that only lacks its final newline.  CSV is read with libcsv,
 * as traces are: a quoted field may hold a newline.
 */
#define _GNU_SOURCE /* vasprintf */
#include <csv.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <jansson.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/diag.h"
#include "common/parse.h"
#include "common/grow.h"
#include "common/quote.h"
#include "sweep/sweep_impl.h"

/* ---- the CSV columns ---------------------------------------------------- */

/* After the unit and the identity: the status and the figures.  The last
 * column is always the schema. */
static const char *const figure_cols[] = {
	"status", "error", "events", "throughput_kib_s", "delta_pct", "makespan_ns",
	"swapouts", "swapins", "unmatched_swapins", "swap_full", "moved_out_pct",
	"swapin_mean_ns", "swapin_p50_ns", "swapin_p90_ns", "swapin_p99_ns",
	/* --uncertainty (added since the first rows of /2): the delta's range
	 * over the machine's variants and how many agree on its side. */
	"delta_pct_min", "delta_pct_max", "agree",
};
#define NFIG (sizeof(figure_cols) / sizeof(figure_cols[0]))
#define NFIG_ADDED 3 /* the last NFIG_ADDED of them, of generation 1 */
#define C_ID0 1                          /* the first identity column */
#define C_STATUS (C_ID0 + SR_ID_COUNT)
#define C_TPUT (C_STATUS + 3)
#define C_DELTA (C_STATUS + 4)
#define C_SCHEMA (C_STATUS + (int)NFIG)
#define C_COUNT (C_SCHEMA + 1)

#define GEN_NEW (SR_ID_GENERATIONS - 1)

/* The header of each generation of rows (sweep_impl.h: the newest is the
 * one written), made from the identity table once (ident.c). */
static char csv_header[SR_ID_GENERATIONS][1024];
/* Per column: the generation that added it (0: the first rows'); how
 * many columns the rows of each generation have. */
static unsigned char col_added[C_COUNT];
static int gen_count[SR_ID_GENERATIONS];
static pthread_once_t header_once = PTHREAD_ONCE_INIT;

/* ",name" onto the header of every generation that has the column. */
static void header_col(size_t len[], const char *name, int added)
{
	int g;

	for (g = added; g < SR_ID_GENERATIONS; g++)
		len[g] += (size_t)snprintf(csv_header[g] + len[g], sizeof(csv_header[g]) - len[g],
					   ",%s", name);
}

static void make_header(void)
{
	size_t len[SR_ID_GENERATIONS], i;
	int c = C_ID0, g;

	for (g = 0; g < SR_ID_GENERATIONS; g++)
		len[g] = (size_t)snprintf(csv_header[g], sizeof(csv_header[g]), "unit");
	for (i = 0; i < SR_ID_COUNT; i++, c++) {
		col_added[c] = (unsigned char)sr_id_fields[i].added;
		header_col(len, sr_id_fields[i].name, col_added[c]);
	}
	for (i = 0; i < NFIG; i++) {
		col_added[C_STATUS + i] = i >= NFIG - NFIG_ADDED;
		header_col(len, figure_cols[i], col_added[C_STATUS + i]);
	}
	for (g = 0; g < SR_ID_GENERATIONS; g++)
		snprintf(csv_header[g] + len[g], sizeof(csv_header[g]) - len[g], ",schema\n");
	for (c = 0; c < C_COUNT; c++)
		for (g = col_added[c]; g < SR_ID_GENERATIONS; g++)
			gen_count[g]++;
}

const char *sr_rows_csv_header(void)
{
	pthread_once(&header_once, make_header);
	return csv_header[GEN_NEW];
}

/* The fields of a CSV record of n fields (in) as the columns of the rows
 * written now (out[C_COUNT]): a record of an older generation has no
 * field for the columns added since ("" for them).  0, or -1 for a count
 * of no generation; *old says whether it is older than this one's. */
static int csv_map(char *const *in, int n, const char **out, int *old)
{
	int c, k = 0, g;

	pthread_once(&header_once, make_header);
	for (g = GEN_NEW; g >= 0 && gen_count[g] != n; g--)
		;
	if (g < 0)
		return -1;
	*old = g != GEN_NEW;
	for (c = 0; c < C_COUNT; c++)
		out[c] = col_added[c] > g ? "" : in[k++];
	return 0;
}

/* ---- writing ----------------------------------------------------------- */

/* A growing string; err set once an allocation failed. */
struct buf {
	char *s;
	size_t len;
	int err;
};

static void cat(struct buf *b, const char *fmt, ...) SR_PRINTF(2, 3);
static void cat(struct buf *b, const char *fmt, ...)
{
	va_list ap;
	char *more, *nb;
	int n;

	if (b->err)
		return;
	va_start(ap, fmt);
	n = vasprintf(&more, fmt, ap);
	va_end(ap);
	if (n < 0) {
		b->err = 1;
		return;
	}
	nb = realloc(b->s, b->len + (size_t)n + 1);
	if (!nb) {
		b->err = 1;
	} else {
		memcpy(nb + b->len, more, (size_t)n + 1);
		b->s = nb;
		b->len += (size_t)n;
	}
	free(more);
}

char *sr_json_str(const char *s)
{
	return sr_json_quote(s);
}

/* s as a CSV field, quoted when it needs to be (common/quote.c). */
static void cat_csv(struct buf *b, const char *s)
{
	char *q = sr_csv_quote(s);

	if (!q) {
		b->err = 1;
		return;
	}
	cat(b, "%s", q);
	free(q);
}

/* s as a JSON string, or null. */
static void cat_json(struct buf *b, const char *s)
{
	char *j;

	if (!s) {
		cat(b, "null");
		return;
	}
	j = sr_json_str(s);
	if (!j)
		b->err = 1;
	else
		cat(b, "%s", j);
	free(j);
}

/* A copy of the identity's values, in one block. */
static int copy_ident(struct sr_row *r, const struct sr_ident *id)
{
	size_t len = 0, i;
	char *p;

	for (i = 0; i < SR_ID_COUNT; i++)
		len += id->v[i] ? strlen(id->v[i]) + 1 : 0;
	r->idbuf = p = malloc(len ? len : 1);
	if (!p)
		return -1;
	for (i = 0; i < SR_ID_COUNT; i++) {
		if (!id->v[i]) {
			r->id.v[i] = NULL;
			continue;
		}
		r->id.v[i] = p;
		p = stpcpy(p, id->v[i]) + 1;
	}
	return 0;
}

/* A row's status and figures, as sr_row_make() writes them. */
struct figs {
	int ok;
	int quiet;           /* !ok: a trace without swap events, not an error */
	const char *error;   /* !ok: the message */
	uint64_t events, swapouts, swapins, unmatched, swap_full;
	double tput, delta, makespan, moved, mean, p50, p90, p99;
	int unc;             /* ok: with --uncertainty's figures */
	double umin, umax;   /* the delta's range over the variants */
	uint64_t agree;      /* the variants on the delta's side */
};

/* The row of unit with identity id and figures g, in format fmt, into b:
 * the one place a row's bytes are made, so that a row read in one format
 * and written in the other is the row a sweep in that format writes. */
static void cat_row(struct buf *b, enum sr_sweep_fmt fmt, uint64_t unit,
		    const struct sr_ident *id, const struct figs *g)
{
	int i;

	if (fmt == SR_SWEEP_JSONL) {
		cat(b, "{\"unit\": %" PRIu64, unit);
		for (i = 0; i < SR_ID_COUNT; i++) {
			const char *v = id->v[i];

			cat(b, ", \"%s\": ", sr_id_fields[i].name);
			if (!v)
				cat(b, "null");
			else if (sr_id_fields[i].kind == SR_IDK_BOOL)
				cat(b, "%s", strcmp(v, "on") ? "false" : "true");
			else if (sr_id_fields[i].kind == SR_IDK_INT)
				cat(b, "%s", v);
			else
				cat_json(b, v);
		}
		if (g->ok) {
			cat(b, ", \"status\": \"ok\", \"events\": %" PRIu64
			    ", \"throughput_kib_s\": %.1f, \"delta_pct\": %.3f, \"makespan_ns\": %.0f, "
			    "\"swapouts\": %" PRIu64 ", \"swapins\": %" PRIu64 ", \"unmatched_swapins\": %"
			    PRIu64 ", \"swap_full\": %" PRIu64 ", \"moved_out_pct\": %.3f, "
			    "\"swapin_lat_ns\": {\"mean\": %.0f, \"p50\": %.0f, \"p90\": %.0f, \"p99\": %.0f}",
			    g->events, g->tput, g->delta, g->makespan, g->swapouts, g->swapins,
			    g->unmatched, g->swap_full, g->moved, g->mean, g->p50, g->p90, g->p99);
			if (g->unc)
				cat(b, ", \"delta_pct_min\": %.3f, \"delta_pct_max\": %.3f, \"agree\": %"
				    PRIu64, g->umin, g->umax, g->agree);
		} else if (g->quiet) {
			cat(b, ", \"status\": \"%s\", \"events\": 0", SR_ROW_QUIET);
		} else {
			cat(b, ", \"status\": \"error\", \"error\": ");
			cat_json(b, g->error ? g->error : "failed");
		}
		cat(b, ", \"schema\": \"%s\"}\n", SR_ROW_SCHEMA);
	} else {
		cat(b, "%" PRIu64, unit);
		for (i = 0; i < SR_ID_COUNT; i++) {
			cat(b, ",");
			if (id->v[i])
				cat_csv(b, id->v[i]);
		}
		if (g->ok) {
			cat(b, ",ok,,%" PRIu64 ",%.1f,%.3f,%.0f,%" PRIu64 ",%" PRIu64 ",%" PRIu64
			    ",%" PRIu64 ",%.3f,%.0f,%.0f,%.0f,%.0f", g->events, g->tput, g->delta,
			    g->makespan, g->swapouts, g->swapins, g->unmatched, g->swap_full, g->moved,
			    g->mean, g->p50, g->p90, g->p99);
			if (g->unc)
				cat(b, ",%.3f,%.3f,%" PRIu64, g->umin, g->umax, g->agree);
			else
				cat(b, ",,,");
		} else if (g->quiet) {
			/* No message, no events, no figures. */
			cat(b, ",%s,,0", SR_ROW_QUIET);
			for (i = 3; i < (int)NFIG; i++)
				cat(b, ",");
		} else {
			/* The message, then the empty events and figures. */
			cat(b, ",error,");
			cat_csv(b, g->error ? g->error : "failed");
			for (i = 2; i < (int)NFIG; i++)
				cat(b, ",");
		}
		cat(b, ",%s\n", SR_ROW_SCHEMA);
	}
}

int sr_row_make(struct sr_row *r, enum sr_sweep_fmt fmt, uint64_t unit,
		const struct sr_ident *id, const struct sr_policy_result *p, uint64_t events,
		const char *error)
{
	struct buf b = { NULL, 0, 0 };
	struct figs g;

	memset(r, 0, sizeof(*r));
	memset(&g, 0, sizeof(g));
	g.ok = p != NULL;
	g.quiet = !p && !error;
	g.error = error;
	if (p) {
		const struct sr_hist *h = &p->swapin_lat;

		g.events = events;
		g.tput = p->throughput_kib_s;
		g.delta = p->delta_pct;
		g.makespan = p->makespan_ns;
		g.swapouts = p->swapouts;
		g.swapins = p->swapins;
		g.unmatched = p->unmatched_in;
		g.swap_full = p->swap_full;
		g.moved = p->swapouts ? 100.0 * (double)p->moved_out / (double)p->swapouts : 0;
		g.mean = h->count ? round(h->sum_ns / (double)h->count) : 0;
		g.p50 = round(sr_hist_quantile(h, 0.5));
		g.p90 = round(sr_hist_quantile(h, 0.9));
		g.p99 = round(sr_hist_quantile(h, 0.99));
		g.unc = p->unc.variants > 0;
		g.umin = p->unc.min;
		g.umax = p->unc.max;
		g.agree = (uint64_t)p->unc.agree;
	}
	cat_row(&b, fmt, unit, id, &g);
	if (b.err || copy_ident(r, id)) {
		free(b.s);
		free(r->idbuf);
		memset(r, 0, sizeof(*r));
		return -1;
	}
	r->unit = unit;
	r->line = b.s;
	r->fmt = fmt;
	r->ok = p != NULL || g.quiet;
	r->quiet = g.quiet;
	r->throughput = p ? p->throughput_kib_s : 0;
	r->delta = p ? p->delta_pct : 0;
	return 0;
}

/* Where the unit's digits are in a row's line: [*at, *at + *n). */
static int unit_digits(const char *line, enum sr_sweep_fmt fmt, size_t *at, size_t *n)
{
	static const char pre[] = "{\"unit\": ";
	size_t a = 0, k;

	if (fmt == SR_SWEEP_JSONL) {
		if (strncmp(line, pre, sizeof(pre) - 1))
			return -1;
		a = sizeof(pre) - 1;
	}
	for (k = a; line[k] >= '0' && line[k] <= '9'; k++)
		;
	if (k == a || line[k] != ',')
		return -1;
	*at = a;
	*n = k - a;
	return 0;
}

int sr_row_renumber(struct sr_row *r, enum sr_sweep_fmt fmt, uint64_t unit)
{
	char num[24], *nl;
	size_t at, n, len, nn;

	if (r->unit == unit)
		return 0;
	if (unit_digits(r->line, fmt, &at, &n))
		return -1; /* not one read back or made here: cannot happen */
	nn = (size_t)snprintf(num, sizeof(num), "%" PRIu64, unit);
	len = strlen(r->line);
	nl = malloc(len - n + nn + 1);
	if (!nl)
		return -1;
	memcpy(nl, r->line, at);
	memcpy(nl + at, num, nn);
	memcpy(nl + at + nn, r->line + at + n, len - at - n + 1);
	free(r->line);
	r->line = nl;
	r->unit = unit;
	return 0;
}

int sr_write_all(int fd, const char *buf, size_t len)
{
	while (len) {
		ssize_t n = write(fd, buf, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

/* ---- rows kept --------------------------------------------------------- */

void sr_row_free(struct sr_row *r)
{
	free(r->idbuf);
	free(r->line);
	memset(r, 0, sizeof(*r));
}

int sr_rows_add(struct sr_rows *rows, struct sr_row *r)
{
	if (rows->n == rows->cap &&
	    sr_grow((void **)&rows->v, &rows->cap, rows->n + 1, sizeof(*rows->v), 64)) {
		sr_row_free(r);
		return -1;
	}
	rows->v[rows->n++] = *r;
	return 0;
}

void sr_rows_free(struct sr_rows *rows)
{
	size_t i;

	for (i = 0; i < rows->n; i++)
		sr_row_free(&rows->v[i]);
	free(rows->v);
	sr_strs_free(&rows->files);
	memset(rows, 0, sizeof(*rows));
}

/* ---- reading back ------------------------------------------------------ */

/* A row's values as read, before they are checked. */
struct fields {
	const char *f[C_COUNT];  /* CSV: every column; JSON: the identity only */
	int n;
	int old;                 /* CSV: a row without the columns added since */
};

/* A decimal number filling a uint64_t. */
static int is_digits(const char *s)
{
	uint64_t v;

	return s && sr_parse_u64(s, strlen(s), UINT64_MAX, &v) == 0;
}

/* Check and take the identity values into r (they are copied). */
static const char *take_ident(struct sr_row *r, const char *const *v)
{
	struct sr_ident id;
	int i;

	for (i = 0; i < SR_ID_COUNT; i++) {
		const char *x = v[i];

		if (x && sr_id_fields[i].kind == SR_IDK_INT && !is_digits(x))
			return sr_id_fields[i].name;
		if (x && sr_id_fields[i].kind == SR_IDK_BOOL && strcmp(x, "on") && strcmp(x, "off"))
			return sr_id_fields[i].name;
		id.v[i] = x;
	}
	return copy_ident(r, &id) ? "" : NULL;
}

/* One JSON line (len bytes, no "\n") into r; NULL, or what is wrong ("":
 * out of memory). */
static const char *parse_jsonl(const char *line, size_t len, struct sr_row *r, char *why,
			       size_t wsz)
{
	json_error_t e;
	json_t *o = json_loadb(line, len, 0, &e), *v, *sch;
	const char *vals[SR_ID_COUNT], *bad = "not a result row";
	char num[SR_ID_COUNT][24];
	size_t at, n;
	int i;

	if (!json_is_object(o))
		goto out;
	sch = json_object_get(o, "schema");
	if (!json_is_string(sch)) {
		if (json_object_get(o, "policies"))
			bad = "a line of a sweep plan, not a result row";
		else if (json_object_get(o, "unit") && json_object_get(o, "policy"))
			bad = "a result row of an older swapreplay (it has no schema, nor what it is "
			      "the result of): it cannot be resumed or merged; sweep again";
		goto out;
	}
	if (strcmp(json_string_value(sch), SR_ROW_SCHEMA)) {
		snprintf(why, wsz, "%s, not a result row of schema %s",
			 strncmp(json_string_value(sch), "swapreplay-plan/", 16)
				 ? "a row of another schema" : "a line of a sweep plan",
			 SR_ROW_SCHEMA);
		bad = why;
		goto out;
	}
	v = json_object_get(o, "unit");
	if (!json_is_integer(v) || json_integer_value(v) < 0 || unit_digits(line, SR_SWEEP_JSONL, &at, &n)) {
		bad = "a result row begins with its unit: {\"unit\": N, ...";
		goto out;
	}
	r->unit = (uint64_t)json_integer_value(v);
	for (i = 0; i < SR_ID_COUNT; i++) {
		v = json_object_get(o, sr_id_fields[i].name);
		if (!v && sr_id_fields[i].added) { /* a row written before it */
			vals[i] = NULL;
			r->old = 1;
			continue;
		}
		if (!v || sr_id_from_json(v, sr_id_fields[i].kind, num[i], &vals[i])) {
			snprintf(why, wsz, "its %s is %s", sr_id_fields[i].name,
				 v ? "not of its kind" : "missing");
			bad = why;
			goto out;
		}
	}
	v = json_object_get(o, "status");
	if (!json_is_string(v) || (strcmp(json_string_value(v), "ok") &&
				   strcmp(json_string_value(v), "error") &&
				   strcmp(json_string_value(v), SR_ROW_QUIET))) {
		bad = "its status is none of \"ok\", \"error\" and \"" SR_ROW_QUIET "\"";
		goto out;
	}
	r->quiet = !strcmp(json_string_value(v), SR_ROW_QUIET);
	r->ok = r->quiet || !strcmp(json_string_value(v), "ok");
	r->throughput = json_number_value(json_object_get(o, "throughput_kib_s"));
	r->delta = json_number_value(json_object_get(o, "delta_pct"));
	if (r->ok && !r->quiet && (!json_is_number(json_object_get(o, "throughput_kib_s")) ||
		      !json_is_number(json_object_get(o, "delta_pct")))) {
		bad = "a row that replayed without its figures";
		goto out;
	}
	bad = take_ident(r, vals);
	if (bad && *bad) {
		snprintf(why, wsz, "its %s is not of its kind", bad);
		bad = why;
	}
out:
	json_decref(o);
	return bad;
}

/* One CSV record's fields into r; NULL or what is wrong. */
static const char *parse_csv(const struct fields *f, struct sr_row *r, char *why, size_t wsz)
{
	const char *vals[SR_ID_COUNT], *bad;
	int i;

	if (f->n != C_COUNT || !f->f[C_SCHEMA] || strcmp(f->f[C_SCHEMA], SR_ROW_SCHEMA)) {
		snprintf(why, wsz, "not a result row (%d fields, the last '%.40s'; a row has "
			 "%d, the last '%s')", f->n, f->n && f->f[f->n - 1] ? f->f[f->n - 1] : "",
			 C_COUNT, SR_ROW_SCHEMA);
		return why;
	}
	if (!is_digits(f->f[0]))
		return "a result row begins with its unit";
	r->unit = strtoull(f->f[0], NULL, 10);
	r->old = f->old;
	for (i = 0; i < SR_ID_COUNT; i++)
		vals[i] = f->f[C_ID0 + i][0] ? f->f[C_ID0 + i] : NULL;
	if (strcmp(f->f[C_STATUS], "ok") && strcmp(f->f[C_STATUS], "error") &&
	    strcmp(f->f[C_STATUS], SR_ROW_QUIET))
		return "its status is none of ok, error and " SR_ROW_QUIET;
	r->quiet = !strcmp(f->f[C_STATUS], SR_ROW_QUIET);
	r->ok = r->quiet || !strcmp(f->f[C_STATUS], "ok");
	r->throughput = strtod(f->f[C_TPUT], NULL);
	r->delta = strtod(f->f[C_DELTA], NULL);
	bad = take_ident(r, vals);
	if (bad && *bad) {
		snprintf(why, wsz, "its %s is not of its kind", bad);
		return why;
	}
	return bad;
}

/* libcsv's callbacks: the fields of one record. */
struct rec {
	char *f[C_COUNT + 1];
	int n;
	int done;
	int nomem;
};

static void on_field(void *s, size_t len, void *data)
{
	struct rec *r = data;

	if (r->n < C_COUNT + 1) {
		r->f[r->n] = strndup(s ? s : "", len);
		r->nomem |= !r->f[r->n];
	}
	r->n++;
}

static void on_row(int c, void *data)
{
	(void)c;
	((struct rec *)data)->done = 1;
}

static void rec_clear(struct rec *r)
{
	int i;

	for (i = 0; i < r->n && i < C_COUNT + 1; i++)
		free(r->f[i]);
	memset(r, 0, sizeof(*r));
}

/* The reading of one file. */
struct reader {
	struct sr_rows *rows;
	const char *name;        /* as kept in rows->files */
	enum sr_sweep_fmt fmt;
	struct sr_rows_info *info;
	struct sr_diag *d;
};

/*
 * Take the row text[0..len) (without a final "\n" when last_no_nl),
 * starting at line lineno.  For CSV, f holds its fields.  last: it is the
 * last of the file and has no "\n": a row that does not parse is then one
 * cut short, not an error.
 */
static enum sr_err take(struct reader *rd, const char *text, size_t len, uint64_t lineno,
			const struct fields *f, int last)
{
	struct sr_row r;
	const char *bad;
	char why[200];
	size_t body = len;

	memset(&r, 0, sizeof(r));
	if (body && text[body - 1] == '\n')
		body--;
	if (rd->fmt == SR_SWEEP_CSV && !rd->info->header) {
		int g;

		/* This swapreplay's header, or that of rows written before the
		 * columns added since (they are read, as null). */
		pthread_once(&header_once, make_header);
		for (g = 0; g < SR_ID_GENERATIONS; g++)
			if (body == strlen(csv_header[g]) - 1 && !memcmp(text, csv_header[g], body)) {
				rd->info->header = 1;
				rd->info->no_final_nl = last;
				return SR_OK;
			}
		if (last)
			goto cut;
		sr_diag_file(rd->d, rd->name);
		rd->d->line = lineno;
		return sr_diag_set(rd->d, SR_ERR_FORMAT, "%s",
				   !strncmp(text, "unit,", 5)
					   ? "the header of another swapreplay's CSV rows: they cannot be "
					     "resumed or merged by this one"
					   : "not a CSV result file (its first line is not the header of "
					     "the rows)");
	}
	bad = rd->fmt == SR_SWEEP_CSV ? parse_csv(f, &r, why, sizeof(why))
				      : parse_jsonl(text, body, &r, why, sizeof(why));
	if (bad && !*bad)
		return sr_diag_set(rd->d, SR_ERR_NOMEM, "out of memory");
	if (bad) {
		sr_row_free(&r);
		if (last)
			goto cut;
		sr_diag_file(rd->d, rd->name);
		rd->d->line = lineno;
		return sr_diag_set(rd->d, SR_ERR_FORMAT, "%s", bad);
	}
	/* Kept with its "\n", which the file gets before anything else. */
	r.line = malloc(body + 2);
	if (!r.line) {
		sr_row_free(&r);
		return sr_diag_set(rd->d, SR_ERR_NOMEM, "out of memory");
	}
	memcpy(r.line, text, body);
	memcpy(r.line + body, "\n", 2);
	r.fmt = rd->fmt;
	r.file = rd->name;
	r.lineno = lineno;
	if (sr_rows_add(rd->rows, &r))
		return sr_diag_set(rd->d, SR_ERR_NOMEM, "out of memory");
	rd->info->no_final_nl = last;
	return SR_OK;
cut:
	rd->info->cut_line = lineno;
	return SR_OK;
}

static enum sr_err read_jsonl(struct reader *rd, const char *buf, size_t len)
{
	size_t pos = 0;
	uint64_t lineno = 0;
	enum sr_err err;

	while (pos < len) {
		const char *nl = memchr(buf + pos, '\n', len - pos);
		size_t end = nl ? (size_t)(nl - buf) + 1 : len;

		lineno++;
		if (end - pos == 1 && nl) {
			/* A blank line: nothing, but not a row either. */
			pos = end;
			rd->info->good_len = (off_t)pos;
			continue;
		}
		err = take(rd, buf + pos, end - pos, lineno, NULL, !nl);
		if (err)
			return err;
		if (!rd->info->cut_line)
			rd->info->good_len = (off_t)end;
		pos = end;
	}
	return SR_OK;
}

/* Fed a line at a time, so that a record's first line and its end are
 * known: libcsv says when a record is complete, across quoted newlines. */
static enum sr_err read_csv(struct reader *rd, const char *buf, size_t len)
{
	struct csv_parser p;
	struct rec rec;
	struct fields f;
	size_t pos = 0, start = 0;
	uint64_t lineno = 0, first = 1;
	enum sr_err err = SR_OK;
	int i;

	memset(&rec, 0, sizeof(rec));
	if (csv_init(&p, CSV_STRICT | CSV_APPEND_NULL | CSV_STRICT_FINI))
		return sr_diag_set(rd->d, SR_ERR_NOMEM, "out of memory");
	while (!err && pos < len) {
		const char *nl = memchr(buf + pos, '\n', len - pos);
		size_t end = nl ? (size_t)(nl - buf) + 1 : len;
		int last = !nl;

		lineno++;
		if (p.pstate == 0) { /* ROW_NOT_BEGUN: a record starts here */
			start = pos;
			first = lineno;
		}
		if (csv_parse(&p, buf + pos, end - pos, on_field, on_row, &rec) != end - pos ||
		    (last && csv_fini(&p, on_field, on_row, &rec))) {
			if (last) { /* cut in a quoted field */
				rd->info->cut_line = first;
				break;
			}
			sr_diag_file(rd->d, rd->name);
			rd->d->line = first;
			err = sr_diag_set(rd->d, SR_ERR_FORMAT, "CSV syntax error: %s",
					  csv_strerror(csv_error(&p)));
			break;
		}
		pos = end;
		if (rec.nomem) {
			err = sr_diag_set(rd->d, SR_ERR_NOMEM, "out of memory");
			break;
		}
		if (!rec.done) {
			if (p.pstate == 0 && !rec.n)
				rd->info->good_len = (off_t)pos; /* a blank line */
			continue;
		}
		f.n = rec.n;
		f.old = 0;
		if (rec.n <= C_COUNT && !csv_map(rec.f, rec.n, f.f, &f.old))
			f.n = C_COUNT;
		else
			for (i = 0; i < C_COUNT; i++)
				f.f[i] = i < rec.n ? rec.f[i] : NULL;
		err = take(rd, buf + start, pos - start, first, &f, last);
		rec_clear(&rec);
		if (!err && !rd->info->cut_line)
			rd->info->good_len = (off_t)pos;
	}
	if (!err && pos >= len && p.pstate != 0 && !rd->info->cut_line)
		rd->info->cut_line = first;
	rec_clear(&rec);
	csv_free(&p);
	return err;
}

/*
 * The format of a result file by its first line that is not blank: JSON
 * lines begin with "{", CSV rows with their header, "unit,"; 0 with *fmt,
 * or -1 when the file has no such line (empty, blank lines only: *fmt
 * left) or -2 when it is neither (its line number in *line).
 */
static int detect(const char *buf, size_t len, enum sr_sweep_fmt *fmt, uint64_t *line)
{
	size_t i = 0;

	*line = 1;
	while (i < len && (buf[i] == '\n' || (buf[i] == '\r' && i + 1 < len && buf[i + 1] == '\n'))) {
		*line += buf[i] == '\n';
		i++;
	}
	if (i == len)
		return -1;
	if (buf[i] == '{') {
		*fmt = SR_SWEEP_JSONL;
		return 0;
	}
	if (len - i >= 5 && !memcmp(buf + i, "unit,", 5)) {
		*fmt = SR_SWEEP_CSV;
		return 0;
	}
	return -2;
}

/* sr_rows_read_fd(), fmt < 0: the format the content shows (detect()). */
static enum sr_err read_fd(struct sr_rows *rows, int fd, off_t size, const char *name, int fmt,
			   struct sr_rows_info *info, struct sr_diag *caller)
{
	struct sr_diag local, *d = caller ? caller : &local;
	struct reader rd;
	char *buf;
	size_t len = 0, cap;
	enum sr_err err;

	sr_diag_clear(d);
	memset(info, 0, sizeof(*info));
	if (sr_strs_add(&rows->files, name, strlen(name)))
		return sr_diag_set(d, SR_ERR_NOMEM, "out of memory");
	/* A regular file up to the size it had (a pipe to its end); one byte
	 * more for the NUL. */
	cap = size > 0 ? (size_t)size : 1 << 16;
	buf = malloc(cap + 1);
	if (!buf)
		return sr_diag_set(d, SR_ERR_NOMEM, "out of memory");
	while (!(size > 0 && len == (size_t)size)) {
		ssize_t n;

		if (len == cap) {
			char *nb = realloc(buf, 2 * cap + 1);

			if (!nb) {
				free(buf);
				return sr_diag_set(d, SR_ERR_NOMEM, "out of memory");
			}
			buf = nb;
			cap *= 2;
		}
		n = read(fd, buf + len, cap - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int e = errno;

			free(buf);
			sr_diag_file(d, name);
			return sr_diag_set(d, SR_ERR_IO, "read failed: %s", strerror(e));
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	buf[len] = '\0';
	if (memchr(buf, '\0', len)) {
		free(buf);
		sr_diag_file(d, name);
		return sr_diag_set(d, SR_ERR_FORMAT, "not a result file (it holds a NUL byte)");
	}
	info->fmt = fmt;
	if (fmt < 0) {
		enum sr_sweep_fmt f = SR_SWEEP_JSONL;
		uint64_t line;
		int k = detect(buf, len, &f, &line);

		if (k == -2) {
			free(buf);
			sr_diag_file(d, name);
			d->line = line;
			return sr_diag_set(d, SR_ERR_FORMAT,
					   "not a result file: JSON rows begin with {\"unit\": ..., "
					   "CSV rows follow their header, unit,%s...",
					   sr_id_fields[0].name);
		}
		info->fmt = k ? -1 : (int)f;
		fmt = (int)f;
	}
	rd.rows = rows;
	rd.name = rows->files.v[rows->files.n - 1];
	rd.fmt = (enum sr_sweep_fmt)fmt;
	rd.info = info;
	rd.d = d;
	err = rd.fmt == SR_SWEEP_CSV ? read_csv(&rd, buf, len) : read_jsonl(&rd, buf, len);
	free(buf);
	return err;
}

enum sr_err sr_rows_read_fd(struct sr_rows *rows, int fd, off_t size, const char *name,
			    enum sr_sweep_fmt fmt, struct sr_rows_info *info, struct sr_diag *d)
{
	return read_fd(rows, fd, size, name, (int)fmt, info, d);
}

/* sr_rows_read_file(), fmt < 0: the format the content shows. */
static enum sr_err read_file(struct sr_rows *rows, const char *path, int fmt,
			     struct sr_rows_info *info, struct sr_diag *caller)
{
	struct sr_diag local, *d = caller ? caller : &local;
	struct stat st;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	enum sr_err err;

	sr_diag_clear(d);
	if (fd < 0) {
		int e = errno;

		sr_diag_file(d, path);
		return sr_diag_set(d, SR_ERR_IO, "cannot open: %s", strerror(e));
	}
	/* A device (/dev/zero) would be read for ever: files and pipes only. */
	if (fstat(fd, &st) || !(S_ISREG(st.st_mode) || S_ISFIFO(st.st_mode))) {
		close(fd);
		sr_diag_file(d, path);
		return sr_diag_set(d, SR_ERR_IO, "not a regular file nor a pipe");
	}
	err = read_fd(rows, fd, S_ISREG(st.st_mode) ? st.st_size : 0, path, fmt, info, d);
	close(fd);
	return err;
}

enum sr_err sr_rows_read_file(struct sr_rows *rows, const char *path, enum sr_sweep_fmt fmt,
			      struct sr_rows_info *info, struct sr_diag *d)
{
	return read_file(rows, path, (int)fmt, info, d);
}

enum sr_err sr_rows_read_file_any(struct sr_rows *rows, const char *path,
				  struct sr_rows_info *info, struct sr_diag *d)
{
	return read_file(rows, path, -1, info, d);
}

/* ---- a row in the other format ------------------------------------------ */

/* A JSON row's figures: 0, or -1 when one is missing or not of its kind. */
static int json_u64(const json_t *o, const char *k, uint64_t *v)
{
	const json_t *x = json_object_get(o, k);

	if (!json_is_integer(x) || json_integer_value(x) < 0)
		return -1;
	*v = (uint64_t)json_integer_value(x);
	return 0;
}

static int json_num(const json_t *o, const char *k, double *v)
{
	const json_t *x = json_object_get(o, k);

	if (!json_is_number(x))
		return -1;
	*v = json_number_value(x);
	return 0;
}

static int figs_json(const json_t *o, struct figs *g)
{
	const json_t *lat = json_object_get(o, "swapin_lat_ns");
	const json_t *st = json_object_get(o, "status");

	memset(g, 0, sizeof(*g));
	if (!json_is_string(st))
		return -1;
	g->ok = !strcmp(json_string_value(st), "ok");
	g->quiet = !strcmp(json_string_value(st), SR_ROW_QUIET);
	if (!g->ok) {
		g->error = json_string_value(json_object_get(o, "error"));
		return 0;
	}
	if (json_object_get(o, "agree")) {
		g->unc = 1;
		if (json_num(o, "delta_pct_min", &g->umin) || json_num(o, "delta_pct_max", &g->umax) ||
		    json_u64(o, "agree", &g->agree))
			return -1;
	}
	return json_u64(o, "events", &g->events) || json_num(o, "throughput_kib_s", &g->tput) ||
	       json_num(o, "delta_pct", &g->delta) || json_num(o, "makespan_ns", &g->makespan) ||
	       json_u64(o, "swapouts", &g->swapouts) || json_u64(o, "swapins", &g->swapins) ||
	       json_u64(o, "unmatched_swapins", &g->unmatched) ||
	       json_u64(o, "swap_full", &g->swap_full) || json_num(o, "moved_out_pct", &g->moved) ||
	       json_num(lat, "mean", &g->mean) || json_num(lat, "p50", &g->p50) ||
	       json_num(lat, "p90", &g->p90) || json_num(lat, "p99", &g->p99) ? -1 : 0;
}

static int csv_u64(const char *s, uint64_t *v)
{
	return s && *s ? sr_parse_u64(s, strlen(s), UINT64_MAX, v) ? -1 : 0 : -1;
}

static int csv_num(const char *s, double *v)
{
	char *end;

	if (!s || !*s)
		return -1;
	*v = strtod(s, &end);
	return *end ? -1 : 0;
}

/* A CSV row's figures (its C_COUNT fields f; g->error into f). */
static int figs_csv(const char *const *f, struct figs *g)
{
	const int c = C_STATUS;

	memset(g, 0, sizeof(*g));
	g->ok = !strcmp(f[c], "ok");
	g->quiet = !strcmp(f[c], SR_ROW_QUIET);
	if (!g->ok) {
		g->error = f[c + 1];
		return 0;
	}
	if (f[c + 17][0]) {
		g->unc = 1;
		if (csv_num(f[c + 15], &g->umin) || csv_num(f[c + 16], &g->umax) ||
		    csv_u64(f[c + 17], &g->agree))
			return -1;
	}
	return csv_u64(f[c + 2], &g->events) || csv_num(f[c + 3], &g->tput) ||
	       csv_num(f[c + 4], &g->delta) || csv_num(f[c + 5], &g->makespan) ||
	       csv_u64(f[c + 6], &g->swapouts) || csv_u64(f[c + 7], &g->swapins) ||
	       csv_u64(f[c + 8], &g->unmatched) || csv_u64(f[c + 9], &g->swap_full) ||
	       csv_num(f[c + 10], &g->moved) || csv_num(f[c + 11], &g->mean) ||
	       csv_num(f[c + 12], &g->p50) || csv_num(f[c + 13], &g->p90) ||
	       csv_num(f[c + 14], &g->p99) ? -1 : 0;
}

int sr_row_line_as(const struct sr_row *r, enum sr_sweep_fmt fmt, char **line)
{
	struct buf b = { NULL, 0, 0 };
	struct figs g;
	int bad = 0;

	*line = NULL;
	/* (A row written before the fields added since is made again, as
	 * this swapreplay writes it: with them, null.) */
	if (r->fmt == fmt && !r->old) {
		*line = strdup(r->line);
		return *line ? 0 : -1;
	}
	if (r->fmt == SR_SWEEP_JSONL) {
		json_error_t e;
		json_t *o = json_loadb(r->line, strlen(r->line), 0, &e);

		bad = !json_is_object(o) || figs_json(o, &g);
		if (!bad)
			cat_row(&b, fmt, r->unit, &r->id, &g);
		json_decref(o);
	} else {
		struct csv_parser p;
		struct rec rec;
		size_t len = strlen(r->line);

		memset(&rec, 0, sizeof(rec));
		if (csv_init(&p, CSV_STRICT | CSV_APPEND_NULL | CSV_STRICT_FINI))
			return -1;
		bad = csv_parse(&p, r->line, len, on_field, on_row, &rec) != len ||
		      csv_fini(&p, on_field, on_row, &rec);
		if (rec.nomem) {
			b.err = 1;
		} else if (!bad) {
			const char *f[C_COUNT];
			int old;

			bad = rec.n > C_COUNT || csv_map(rec.f, rec.n, f, &old) || figs_csv(f, &g);
			if (!bad)
				cat_row(&b, fmt, r->unit, &r->id, &g);
		}
		rec_clear(&rec);
		csv_free(&p);
	}
	if (bad || b.err) {
		free(b.s);
		return bad ? -2 : -1;
	}
	*line = b.s;
	return 0;
}
