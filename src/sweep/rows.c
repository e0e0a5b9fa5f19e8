/* SPDX-License-Identifier: MIT */
/*
 * Result rows: formatted (JSON lines or CSV, docs/SWEEP.md), written a
 * whole row per write(), and read back for --resume, merge, the summary
 * and plot (src/plot/sweep_plot.c): one reader, a line at a time, whatever
 * reads them.  A row begins with its unit and ends with its schema, so
 * that a row cut short anywhere (a kill in the middle of a write) is told
 * from a whole one that only lacks its final newline.  CSV is read with
 * libcsv, as traces are: a quoted field may hold a newline.
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
#include "trace/source.h"
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
	/* --noise (generation 3): the replicas of the trace's timing, the
	 * delta's timing noise, and whether the delta is within it. */
	"noise_replicas", "delta_noise_pct", "delta_in_noise",
};
#define NFIG (sizeof(figure_cols) / sizeof(figure_cols[0]))
/* The generation that added each of them (sweep_impl.h, struct sr_id_field). */
static const unsigned char figure_added[NFIG] = {
	[15] = 1, [16] = 1, [17] = 1, [18] = 3, [19] = 3, [20] = 3,
};
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
		col_added[C_STATUS + i] = figure_added[i];
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
static int csv_map(char *const *in, int n, const char **out, int *old, int *gen)
{
	int c, k = 0, g;

	pthread_once(&header_once, make_header);
	for (g = GEN_NEW; g >= 0 && gen_count[g] != n; g--)
		;
	if (g < 0)
		return -1;
	*old = g != GEN_NEW;
	*gen = g;
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
	int noise;           /* ok: with --noise's figures (replicas > 0) */
	uint64_t nrep;       /* the replicas */
	double npct;         /* the delta's timing noise, % */
	uint64_t in_noise;   /* 1: the delta is within it (sr_delta_in_noise()) */
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
			/* Always given: null without replicas, so that a reader
			 * sees the noise was not measured. */
			if (g->noise)
				cat(b, ", \"noise_replicas\": %" PRIu64 ", \"delta_noise_pct\": %.3f, "
				    "\"delta_in_noise\": %s", g->nrep, g->npct,
				    g->in_noise ? "true" : "false");
			else
				cat(b, ", \"noise_replicas\": 0, \"delta_noise_pct\": null, "
				    "\"delta_in_noise\": null");
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
			if (g->noise)
				cat(b, ",%" PRIu64 ",%.3f,%s", g->nrep, g->npct,
				    g->in_noise ? "true" : "false");
			else
				cat(b, ",0,,");
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
		g.noise = p->noise.replicas > 0;
		g.nrep = (uint64_t)(p->noise.replicas > 0 ? p->noise.replicas : 0);
		/* As written (3 decimals): a row read back says the same. */
		g.npct = round(p->noise.pct * 1000) / 1000;
		g.in_noise = (uint64_t)sr_delta_in_noise(p);
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
	r->noise_on = g.noise;
	r->noise = g.npct;
	r->in_noise = (int)g.in_noise;
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

/* ---- a row's figures --------------------------------------------------- */

/*
 * The figures of a row that replayed, in the order rows write them: the
 * JSON key (within "swapin_lat_ns" when lat), the CSV column (of
 * figure_cols[]), an unsigned integer or not, and where struct figs keeps
 * it.  unc: --uncertainty's, in a row with variants only (JSON: "agree"
 * present; CSV: its column not empty).  noise: --noise's, in a row with
 * replicas only (noise_replicas above 0; a row written before them has
 * none, read as 0); bool: a yes or no (JSON true/false, CSV true/false),
 * kept as 1 or 0 in a uint64_t.
 */
static const struct fig {
	const char *key;
	int lat, col, u64, unc, noise, bool_;
	size_t off;
} figs_tab[] = {
	{ "events", 0, 2, 1, 0, 0, 0, offsetof(struct figs, events) },
	{ "throughput_kib_s", 0, 3, 0, 0, 0, 0, offsetof(struct figs, tput) },
	{ "delta_pct", 0, 4, 0, 0, 0, 0, offsetof(struct figs, delta) },
	{ "makespan_ns", 0, 5, 0, 0, 0, 0, offsetof(struct figs, makespan) },
	{ "swapouts", 0, 6, 1, 0, 0, 0, offsetof(struct figs, swapouts) },
	{ "swapins", 0, 7, 1, 0, 0, 0, offsetof(struct figs, swapins) },
	{ "unmatched_swapins", 0, 8, 1, 0, 0, 0, offsetof(struct figs, unmatched) },
	{ "swap_full", 0, 9, 1, 0, 0, 0, offsetof(struct figs, swap_full) },
	{ "moved_out_pct", 0, 10, 0, 0, 0, 0, offsetof(struct figs, moved) },
	{ "mean", 1, 11, 0, 0, 0, 0, offsetof(struct figs, mean) },
	{ "p50", 1, 12, 0, 0, 0, 0, offsetof(struct figs, p50) },
	{ "p90", 1, 13, 0, 0, 0, 0, offsetof(struct figs, p90) },
	{ "p99", 1, 14, 0, 0, 0, 0, offsetof(struct figs, p99) },
	{ "delta_pct_min", 0, 15, 0, 1, 0, 0, offsetof(struct figs, umin) },
	{ "delta_pct_max", 0, 16, 0, 1, 0, 0, offsetof(struct figs, umax) },
	{ "agree", 0, 17, 1, 1, 0, 0, offsetof(struct figs, agree) },
	{ "noise_replicas", 0, 18, 1, 0, 1, 0, offsetof(struct figs, nrep) },
	{ "delta_noise_pct", 0, 19, 0, 0, 1, 0, offsetof(struct figs, npct) },
	{ "delta_in_noise", 0, 20, 1, 0, 1, 1, offsetof(struct figs, in_noise) },
};
#define NFIGS (sizeof(figs_tab) / sizeof(figs_tab[0]))

static void fig_set(struct figs *g, const struct fig *f, uint64_t u, double x)
{
	if (f->u64)
		memcpy((char *)g + f->off, &u, sizeof(u));
	else
		memcpy((char *)g + f->off, &x, sizeof(x));
}

/* A JSON row's status and figures into g (g->error into o): NULL, or the
 * figure a row that replayed lacks or holds other than a number of its
 * kind. */
static const struct fig *figs_json(const json_t *o, struct figs *g)
{
	const json_t *st = json_object_get(o, "status");
	size_t i;

	memset(g, 0, sizeof(*g));
	g->ok = json_is_string(st) && !strcmp(json_string_value(st), "ok");
	g->quiet = json_is_string(st) && !strcmp(json_string_value(st), SR_ROW_QUIET);
	if (!g->ok) {
		g->error = json_string_value(json_object_get(o, "error"));
		return NULL;
	}
	g->unc = json_object_get(o, "agree") != NULL;
	{
		const json_t *x = json_object_get(o, "noise_replicas");

		g->noise = json_is_integer(x) && json_integer_value(x) > 0;
		if (x && (!json_is_integer(x) || json_integer_value(x) < 0))
			return &figs_tab[NFIGS - 3];
	}
	for (i = 0; i < NFIGS; i++) {
		const struct fig *f = &figs_tab[i];
		const json_t *x = json_object_get(f->lat ? json_object_get(o, "swapin_lat_ns") : o,
						  f->key);

		if ((f->unc && !g->unc) || (f->noise && !g->noise))
			continue;
		if (f->bool_) {
			if (!json_is_boolean(x))
				return f;
			fig_set(g, f, json_is_true(x), 0);
			continue;
		}
		if (f->u64 ? !json_is_integer(x) || json_integer_value(x) < 0 : !json_is_number(x))
			return f;
		fig_set(g, f, f->u64 ? (uint64_t)json_integer_value(x) : 0, json_number_value(x));
	}
	return NULL;
}

/* A CSV row's status and figures (its C_COUNT fields f) into g (g->error
 * into f): as figs_json(); a number is finite. */
static const struct fig *figs_csv(const char *const *f, struct figs *g)
{
	size_t i;

	memset(g, 0, sizeof(*g));
	g->ok = !strcmp(f[C_STATUS], "ok");
	g->quiet = !strcmp(f[C_STATUS], SR_ROW_QUIET);
	if (!g->ok) {
		g->error = f[C_STATUS + 1];
		return NULL;
	}
	g->unc = f[C_STATUS + 17][0] != '\0';
	/* Empty in a row written before --noise: none. */
	g->noise = f[C_STATUS + 18][0] != '\0' && strcmp(f[C_STATUS + 18], "0");
	for (i = 0; i < NFIGS; i++) {
		const struct fig *fg = &figs_tab[i];
		const char *s = f[C_STATUS + fg->col];
		uint64_t u = 0;
		double x = 0;
		char *end = NULL;

		if ((fg->unc && !g->unc) || (fg->noise && !g->noise))
			continue;
		if (fg->bool_) {
			if (strcmp(s, "true") && strcmp(s, "false"))
				return fg;
			fig_set(g, fg, !strcmp(s, "true"), 0);
			continue;
		}
		if (!*s)
			return fg;
		if (fg->u64 && sr_parse_u64(s, strlen(s), UINT64_MAX, &u))
			return fg;
		if (!fg->u64 && (x = strtod(s, &end), *end || !isfinite(x)))
			return fg;
		fig_set(g, fg, u, x);
	}
	return NULL;
}

/* ---- reading back ------------------------------------------------------ */

/* A row's values as read, before they are checked. */
struct fields {
	const char *f[C_COUNT];  /* CSV: every column; JSON: the identity only */
	int n;
	int old;                 /* CSV: a row without the columns added since */
	int gen;                 /* ... its generation */
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

/* What a row that replayed says when a figure is missing, into why. */
static const char *no_figure(const struct fig *f, enum sr_sweep_fmt fmt, char *why, size_t wsz)
{
	snprintf(why, wsz, "a row that replayed without its %s%s (%s)",
		 f->lat && fmt == SR_SWEEP_JSONL ? "swapin_lat_ns." : "",
		 fmt == SR_SWEEP_JSONL ? f->key : figure_cols[f->col],
		 f->bool_ ? "true or false" : f->u64 ? "an integer >= 0" : "a number");
	return why;
}

/* One JSON line (len bytes, no "\n") into r; NULL, or what is wrong ("":
 * out of memory). */
static const char *parse_jsonl(const char *line, size_t len, struct sr_row *r, char *why,
			       size_t wsz)
{
	json_error_t e;
	json_t *o = json_loadb(line, len, 0, &e), *v, *sch;
	const char *vals[SR_ID_COUNT], *bad = "not a sweep's result row (swapreplay sweep writes them)";
	const struct fig *miss;
	char num[SR_ID_COUNT][24];
	struct figs g;
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
			      "the result of): it cannot be resumed, merged or plotted; sweep again";
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
			vals[i] = sr_id_fields[i].absent;
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
	miss = figs_json(o, &g);
	if (miss) {
		bad = no_figure(miss, SR_SWEEP_JSONL, why, wsz);
		goto out;
	}
	r->quiet = g.quiet;
	r->ok = g.ok || g.quiet;
	r->throughput = g.tput;
	r->delta = g.delta;
	r->noise_on = g.noise;
	r->noise = g.npct;
	r->in_noise = (int)g.in_noise;
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
	const struct fig *miss;
	struct figs g;
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
	/* An empty field is null; in a row written before a field (old),
	 * what such rows had (struct sr_id_field.absent). */
	for (i = 0; i < SR_ID_COUNT; i++)
		vals[i] = f->f[C_ID0 + i][0] ? f->f[C_ID0 + i]
		       : f->old && (int)col_added[C_ID0 + i] > f->gen ? sr_id_fields[i].absent : NULL;
	if (strcmp(f->f[C_STATUS], "ok") && strcmp(f->f[C_STATUS], "error") &&
	    strcmp(f->f[C_STATUS], SR_ROW_QUIET))
		return "its status is none of ok, error and " SR_ROW_QUIET;
	miss = figs_csv(f->f, &g);
	if (miss)
		return no_figure(miss, SR_SWEEP_CSV, why, wsz);
	r->quiet = g.quiet;
	r->ok = g.ok || g.quiet;
	r->throughput = g.tput;
	r->delta = g.delta;
	r->noise_on = g.noise;
	r->noise = g.npct;
	r->in_noise = (int)g.in_noise;
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

/* A file's bytes read a window at a time: from a file descriptor up to the
 * size it had (0: to its end), or from a byte source (a path or "-",
 * zstd-compressed or not: trace/source.h). */
#define CHUNK (1u << 16)
struct input {
	int fd;
	off_t size, got;
	struct sr_src *src;
	char *chunk;             /* fd: CHUNK bytes, [at, len) not yet taken */
	size_t at, len;
};

/* The reading of one file. */
struct reader {
	struct input in;
	const char *name;        /* for the rows and the messages */
	int fmt;                 /* an enum sr_sweep_fmt; -1 until the content tells */
	size_t max;              /* the longest line (row), 0: any */
	sr_row_fn fn;
	void *ctx;
	struct sr_rows_info *info;
	struct sr_diag *d;
	char *line;              /* the line read, with its "\n" when it has one */
	size_t len, cap;
	uint64_t lineno;
	off_t pos;               /* the bytes before line */
	/* CSV: the parser, the record's fields, its text and first line */
	struct csv_parser p;
	int csv_on;
	struct rec rec;
	char *text;
	size_t tlen, tcap;
	uint64_t first;
};

/* The bytes not taken yet, at most CHUNK of them: *n 0 at the end. */
static enum sr_err in_peek(struct reader *rd, const char **p, size_t *n)
{
	struct input *in = &rd->in;

	if (in->src) {
		const unsigned char *q = NULL;
		enum sr_err err = sr_src_peek(in->src, CHUNK, &q, n, rd->d);

		*p = (const char *)q;
		return err;
	}
	while (in->at == in->len && !(in->size > 0 && in->got == in->size)) {
		size_t want = CHUNK;
		ssize_t k;

		if (in->size > 0 && (off_t)want > in->size - in->got)
			want = (size_t)(in->size - in->got);
		k = read(in->fd, in->chunk, want);
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0) {
			int e = errno;

			sr_diag_file(rd->d, rd->name);
			return sr_diag_set(rd->d, SR_ERR_IO, "read failed: %s", strerror(e));
		}
		if (k == 0)
			break;
		in->at = 0;
		in->len = (size_t)k;
		in->got += k;
	}
	*p = in->chunk + in->at;
	*n = in->len - in->at;
	return SR_OK;
}

static void in_skip(struct reader *rd, size_t n)
{
	if (rd->in.src)
		sr_src_skip(rd->in.src, n);
	else
		rd->in.at += n;
}

/* The next line into rd->line (rd->len 0 at the end of the file). */
static enum sr_err next_line(struct reader *rd)
{
	const char *p = NULL, *nl;
	size_t n = 0, take;
	enum sr_err err;

	rd->pos += (off_t)rd->len;
	rd->len = 0;
	for (;;) {
		err = in_peek(rd, &p, &n);
		if (err || !n)
			return err;
		nl = memchr(p, '\n', n);
		take = nl ? (size_t)(nl - p) + 1 : n;
		if (rd->max && rd->len + take - (nl ? 1 : 0) > rd->max) {
			sr_diag_file(rd->d, rd->name);
			rd->d->line = rd->lineno + 1;
			return sr_diag_set(rd->d, SR_ERR_LIMIT, "a line longer than %zu KiB: refused, "
					   "not a sweep's result row (a row is a few KiB)",
					   rd->max >> 10);
		}
		if (rd->len + take + 1 > rd->cap &&
		    sr_grow((void **)&rd->line, &rd->cap, rd->len + take + 1, 1, 256))
			return sr_diag_set(rd->d, SR_ERR_NOMEM, "out of memory");
		memcpy(rd->line + rd->len, p, take);
		rd->len += take;
		rd->line[rd->len] = '\0';
		in_skip(rd, take);
		if (nl)
			return SR_OK;
	}
}

/* The line holds nothing but blanks (spaces, tabs, "\r") before its "\n". */
static int blank_line(const char *s, size_t len)
{
	size_t i;

	if (!len || s[len - 1] != '\n')
		return 0;
	for (i = 0; i + 1 < len; i++)
		if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r')
			return 0;
	return 1;
}

/*
 * Take the row text[0..len) (with its final "\n" unless last), starting
 * at line lineno, end the bytes before end.  For CSV, f holds its fields.
 * last: it is the last of the file and has no "\n": a row that does not
 * parse is then one cut short, not an error.
 */
static enum sr_err take(struct reader *rd, const char *text, size_t len, uint64_t lineno,
			off_t end, const struct fields *f, int last)
{
	struct sr_row r;
	const char *bad;
	char why[200];
	size_t body = len;
	enum sr_err err;

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
				rd->info->good_len = end;
				return SR_OK;
			}
		if (last)
			goto cut;
		sr_diag_file(rd->d, rd->name);
		rd->d->line = lineno;
		return sr_diag_set(rd->d, SR_ERR_FORMAT, "%s",
				   !strncmp(text, "unit,", 5)
					   ? "the header of another swapreplay's CSV rows: they cannot be "
					     "resumed, merged or plotted by this one"
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
	r.fmt = (enum sr_sweep_fmt)rd->fmt;
	r.file = rd->name;
	r.lineno = lineno;
	rd->info->no_final_nl = last;
	rd->info->good_len = end;
	err = rd->fn(rd->ctx, &r, rd->d);
	return err;
cut:
	rd->info->cut_line = lineno;
	return SR_OK;
}

/* One line of CSV rows (rd->line), fed to libcsv: a record may span
 * lines (a quoted field may hold a newline). */
static enum sr_err csv_line(struct reader *rd, int last)
{
	struct fields f;
	enum sr_err err;
	int i;

	if (rd->p.pstate == 0) { /* ROW_NOT_BEGUN: a record starts here */
		rd->tlen = 0;
		rd->first = rd->lineno;
	}
	if (rd->max && rd->tlen + rd->len > rd->max + 1) {
		sr_diag_file(rd->d, rd->name);
		rd->d->line = rd->first;
		return sr_diag_set(rd->d, SR_ERR_LIMIT, "a row longer than %zu KiB: refused, "
				   "not a sweep's result row (a row is a few KiB)", rd->max >> 10);
	}
	if (rd->tlen + rd->len + 1 > rd->tcap &&
	    sr_grow((void **)&rd->text, &rd->tcap, rd->tlen + rd->len + 1, 1, 256))
		return sr_diag_set(rd->d, SR_ERR_NOMEM, "out of memory");
	memcpy(rd->text + rd->tlen, rd->line, rd->len + 1);
	rd->tlen += rd->len;
	if (csv_parse(&rd->p, rd->line, rd->len, on_field, on_row, &rd->rec) != rd->len ||
	    (last && csv_fini(&rd->p, on_field, on_row, &rd->rec))) {
		if (last) { /* cut in a quoted field */
			rd->info->cut_line = rd->first;
			return SR_OK;
		}
		sr_diag_file(rd->d, rd->name);
		rd->d->line = rd->first;
		return sr_diag_set(rd->d, SR_ERR_FORMAT, "CSV syntax error: %s",
				   csv_strerror(csv_error(&rd->p)));
	}
	if (rd->rec.nomem)
		return sr_diag_set(rd->d, SR_ERR_NOMEM, "out of memory");
	if (!rd->rec.done) {
		if (rd->p.pstate == 0 && !rd->rec.n && !rd->info->cut_line)
			rd->info->good_len = rd->pos + (off_t)rd->len; /* a blank line */
		return SR_OK;
	}
	f.n = rd->rec.n;
	f.old = 0;
	f.gen = GEN_NEW;
	if (rd->rec.n <= C_COUNT && !csv_map(rd->rec.f, rd->rec.n, f.f, &f.old, &f.gen))
		f.n = C_COUNT;
	else
		for (i = 0; i < C_COUNT; i++)
			f.f[i] = i < rd->rec.n ? rd->rec.f[i] : NULL;
	err = take(rd, rd->text, rd->tlen, rd->first, rd->pos + (off_t)rd->len, &f, last);
	rec_clear(&rd->rec);
	return err;
}

/*
 * The format of a result file by its first line that is not blank (line):
 * JSON lines begin with "{", CSV rows with their header, "unit,"; -1 when
 * it is neither.
 */
static int detect(const char *line)
{
	if (line[0] == '{')
		return SR_SWEEP_JSONL;
	if (!strncmp(line, "unit,", 5))
		return SR_SWEEP_CSV;
	return -1;
}

/* Read the rows of rd's input, each to rd->fn. */
static enum sr_err read_rows(struct reader *rd)
{
	enum sr_err err;
	int last;

	for (;;) {
		err = next_line(rd);
		if (err || !rd->len)
			break;
		rd->lineno++;
		last = rd->line[rd->len - 1] != '\n';
		if (memchr(rd->line, '\0', rd->len)) {
			sr_diag_file(rd->d, rd->name);
			rd->d->line = rd->lineno;
			return sr_diag_set(rd->d, SR_ERR_FORMAT, "not a result file (it holds a NUL "
					   "byte)");
		}
		if (rd->fmt < 0 || rd->fmt == SR_SWEEP_JSONL) {
			if (blank_line(rd->line, rd->len)) {
				/* Nothing, but not a row either. */
				if (!rd->info->cut_line)
					rd->info->good_len = rd->pos + (off_t)rd->len;
				continue;
			}
		}
		if (rd->fmt < 0) {
			rd->fmt = detect(rd->line);
			if (rd->fmt < 0) {
				sr_diag_file(rd->d, rd->name);
				rd->d->line = rd->lineno;
				return sr_diag_set(rd->d, SR_ERR_FORMAT, "not a result file: JSON rows "
						   "begin with {\"unit\": ..., CSV rows follow their "
						   "header, unit,%s...", sr_id_fields[0].name);
			}
			rd->info->fmt = rd->fmt;
		}
		if (rd->fmt == SR_SWEEP_CSV) {
			if (!rd->csv_on) {
				if (csv_init(&rd->p, CSV_STRICT | CSV_APPEND_NULL | CSV_STRICT_FINI))
					return sr_diag_set(rd->d, SR_ERR_NOMEM, "out of memory");
				rd->csv_on = 1;
			}
			err = csv_line(rd, last);
		} else {
			err = take(rd, rd->line, rd->len, rd->lineno, rd->pos + (off_t)rd->len, NULL,
				   last);
		}
		if (err || rd->info->cut_line)
			break;
	}
	/* A record still open at the end: cut short in a quoted field. */
	if (!err && rd->csv_on && rd->p.pstate != 0 && !rd->info->cut_line)
		rd->info->cut_line = rd->first;
	return err;
}

/*
 * Read the rows of name from in, in format fmt (-1: the one its content
 * shows), each to fn: the reading of sr_rows_read_fd(), sr_rows_read_any()
 * and sr_rows_each().
 */
static enum sr_err read_input(struct input *in, const char *name, int fmt, size_t max,
			      sr_row_fn fn, void *ctx, struct sr_rows_info *info,
			      struct sr_diag *caller)
{
	struct sr_diag local, *d = caller ? caller : &local;
	struct reader rd;
	enum sr_err err;

	memset(info, 0, sizeof(*info));
	memset(&rd, 0, sizeof(rd));
	rd.in = *in;
	rd.name = name;
	rd.fmt = fmt;
	rd.max = max;
	rd.fn = fn;
	rd.ctx = ctx;
	rd.info = info;
	rd.d = d;
	info->fmt = fmt;
	if (!rd.in.src) {
		rd.in.chunk = malloc(CHUNK);
		if (!rd.in.chunk)
			return sr_diag_set(d, SR_ERR_NOMEM, "out of memory");
	}
	err = read_rows(&rd);
	if (rd.csv_on)
		csv_free(&rd.p);
	rec_clear(&rd.rec);
	free(rd.text);
	free(rd.line);
	free(rd.in.chunk);
	return err;
}

/* sr_row_fn for sr_rows_read_*(): the row into the rows (ctx). */
static enum sr_err keep_row(void *ctx, struct sr_row *r, struct sr_diag *d)
{
	if (sr_rows_add(ctx, r))
		return sr_diag_set(d, SR_ERR_NOMEM, "out of memory");
	return SR_OK;
}

/* sr_rows_read_fd(), fmt < 0: the format the content shows. */
static enum sr_err read_fd(struct sr_rows *rows, int fd, off_t size, const char *name, int fmt,
			   struct sr_rows_info *info, struct sr_diag *caller)
{
	struct sr_diag local, *d = caller ? caller : &local;
	struct input in;

	sr_diag_clear(d);
	memset(info, 0, sizeof(*info));
	if (sr_strs_add(&rows->files, name, strlen(name)))
		return sr_diag_set(d, SR_ERR_NOMEM, "out of memory");
	memset(&in, 0, sizeof(in));
	in.fd = fd;
	in.size = size;
	return read_input(&in, rows->files.v[rows->files.n - 1], fmt, 0, keep_row, rows, info, d);
}

enum sr_err sr_rows_read_fd(struct sr_rows *rows, int fd, off_t size, const char *name,
			    enum sr_sweep_fmt fmt, struct sr_rows_info *info, struct sr_diag *d)
{
	return read_fd(rows, fd, size, name, (int)fmt, info, d);
}

enum sr_err sr_rows_read_file_any(struct sr_rows *rows, const char *path,
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
	err = read_fd(rows, fd, S_ISREG(st.st_mode) ? st.st_size : 0, path, -1, info, d);
	close(fd);
	return err;
}

enum sr_err sr_rows_each(const char *path, size_t max, sr_row_fn fn, void *ctx,
			 struct sr_rows_info *info, struct sr_diag *caller)
{
	struct sr_diag local, *d = caller ? caller : &local;
	struct input in;
	enum sr_err err;

	sr_diag_clear(d);
	memset(info, 0, sizeof(*info));
	memset(&in, 0, sizeof(in));
	in.fd = -1;
	err = sr_src_open(&in.src, path, d);
	if (!err)
		err = read_input(&in, path, -1, max, fn, ctx, info, d);
	sr_src_close(in.src);
	return err;
}

/* ---- a row again ---------------------------------------------------------- */

/* A row's line parsed again: its status and figures (g), and what they
 * point into. */
struct again {
	json_t *o;
	struct rec rec;
	struct figs g;
};

/* r's status and figures into a: 0, -1 out of memory, -2 when they cannot
 * be read from its line (a row read back whose figures are missing or not
 * numbers: the reader refuses them).  again_free() after, whatever it
 * returns. */
static int again_read(const struct sr_row *r, struct again *a)
{
	memset(a, 0, sizeof(*a));
	if (r->fmt == SR_SWEEP_JSONL) {
		json_error_t e;

		a->o = json_loadb(r->line, strlen(r->line), 0, &e);
		return !json_is_object(a->o) || figs_json(a->o, &a->g) ? -2 : 0;
	} else {
		struct csv_parser p;
		size_t len = strlen(r->line);
		const char *f[C_COUNT];
		int bad, old, gen;

		if (csv_init(&p, CSV_STRICT | CSV_APPEND_NULL | CSV_STRICT_FINI))
			return -1;
		bad = csv_parse(&p, r->line, len, on_field, on_row, &a->rec) != len ||
		      csv_fini(&p, on_field, on_row, &a->rec);
		csv_free(&p);
		if (a->rec.nomem)
			return -1;
		return bad || a->rec.n > C_COUNT || csv_map(a->rec.f, a->rec.n, f, &old, &gen) ||
		       figs_csv(f, &a->g) ? -2 : 0;
	}
}

static void again_free(struct again *a)
{
	json_decref(a->o);
	rec_clear(&a->rec);
}

int sr_row_line_as(const struct sr_row *r, enum sr_sweep_fmt fmt, char **line)
{
	struct buf b = { NULL, 0, 0 };
	struct again a;
	int k;

	*line = NULL;
	/* (A row written before the fields added since is made again, as
	 * this swapreplay writes it: with them, null.) */
	if (r->fmt == fmt && !r->old) {
		*line = strdup(r->line);
		return *line ? 0 : -1;
	}
	k = again_read(r, &a);
	if (!k)
		cat_row(&b, fmt, r->unit, &r->id, &a.g);
	again_free(&a);
	if (k || b.err) {
		free(b.s);
		return k ? k : -1;
	}
	*line = b.s;
	return 0;
}

int sr_row_figures(const struct sr_row *r, char **key)
{
	struct buf b = { NULL, 0, 0 };
	struct again a;
	const struct figs *g = &a.g;
	size_t i;
	int k;

	*key = NULL;
	k = again_read(r, &a);
	if (!k && !g->ok) {
		cat(&b, "%s", g->quiet ? SR_ROW_QUIET : "error");
		/* \x1f: the end of a value (no message holds it unescaped) */
		if (!g->quiet)
			cat(&b, "\x1f%s", g->error ? g->error : "");
	} else if (!k) {
		cat(&b, "ok");
		for (i = 0; i < NFIGS; i++) {
			const struct fig *f = &figs_tab[i];
			uint64_t u;
			double x;

			if (f->unc && !g->unc)
				continue;
			if (f->u64) {
				memcpy(&u, (const char *)g + f->off, sizeof(u));
				cat(&b, "\x1f%" PRIu64, u);
			} else {
				memcpy(&x, (const char *)g + f->off, sizeof(x));
				cat(&b, "\x1f%.17g", x);
			}
		}
	}
	again_free(&a);
	if (k || b.err) {
		free(b.s);
		return k ? k : -1;
	}
	*key = b.s;
	return 0;
}
