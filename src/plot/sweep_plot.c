/* SPDX-License-Identifier: MIT */
/*
 * A sweep's chart (sr_plot_sweep, `swapreplay plot`): its rows read back
 * by the sweep's own reader (src/sweep/rows.c, sr_rows_each(): JSON lines
 * or CSV, docs/SWEEP.md, "Rows"; a row is read as --resume and merge read
 * it), and each policy's delta per machine across the traces.
 *
 * Rows are taken by what they are the result of, their identity
 * (src/sweep/ident.c): a row given twice (a file and a subset of it) is
 * counted once; two rows of one identity with other figures are refused,
 * naming both; so are rows of other settings than the first's (the run
 * fields: kernel, readahead, slots cache, plug, uncertainty, ...), and
 * two traces, machines or policies of one name that are not the same
 * (other content hashes): one chart is of one setting.
 */
#include <inttypes.h>
#include <math.h>

#include "common/hash.h"
#include "common/diag.h"
#include "common/grow.h"
#include "common/u64map.h"
#include "common/strs.h"
#include "plot/chart.h"
#include "sweep/sweep_impl.h"

#define PAGE_W 800
#define PAGE_H 540
#define PLOT_X0 90
#define PLOT_X1 600
#define PLOT_Y0 90
#define PLOT_Y1 450
#define LEGEND_X 620
#define LEGEND_W (PAGE_W - LEGEND_X - 10)

/* The longest line read (a CSV row's lines together): a sweep's row is a
 * few KiB at most (its trace's and machine's paths, at most 4 KiB each,
 * are its longest fields); what jansson makes of 64 KiB is at most a few
 * MB. */
#define MAX_LINE (64u << 10)

/* A row that replayed: indexes into the name lists, its delta, and with
 * --noise its timing noise and whether the delta is within it. */
struct row {
	long trace, machine, policy;
	double delta;
	int noise_on, in_noise;
	double noise;
};

/* A row read, by identity: what it is the result of (the identity's
 * fields but the info ones, as text), what it says of its run (its status
 * and figures, sr_row_figures(): the same text in either format), and
 * where. */
struct seen {
	char *key, *figs;
	size_t file;                  /* in files */
	uint64_t line;
	size_t next;                  /* the next of its hash, or NONE */
};
#define NONE ((size_t)-1)

/* The content hash a name was first seen with, and where. */
struct named {
	char *hash;                   /* NULL: the row gave none */
	size_t file;
	uint64_t line;
};

struct sr_plot_rows {
	struct sr_strs traces, machines, policies; /* names, in the order first seen */
	struct named *tnamed, *mnamed, *pnamed;    /* ... and their hashes, by index */
	size_t tcap, mcap, pcap;
	char *baseline;               /* of the first row; every row's */
	struct row *r;
	size_t n, cap;
	size_t read, errors, quiet;   /* rows read; of them in error, and of traces
				       * with no swap activity (no figures) */
	size_t doubled;               /* rows given again, left out */
	size_t noise_on, in_noise;    /* rows drawn with their timing noise; of
				       * them, within it */
	struct sr_strs files;         /* the files read, for the messages */
	struct seen *seen;
	size_t nseen, seencap;
	struct sr_u64map byhash;      /* a hash of key -> its first seen + 1 */
	const char *ref_id[SR_ID_COUNT]; /* the first row that replayed: its
					  * identity, into ref_buf */
	char *ref_buf;
	size_t ref_file;
	uint64_t ref_line;
	int has_ref;
};

enum sr_err sr_plot_rows_new(struct sr_plot_rows **out, struct sr_diag *diag)
{
	*out = calloc(1, sizeof(**out));
	if (!*out)
		return sr_diag_set(diag, SR_ERR_NOMEM, "out of memory");
	sr_u64map_init(&(*out)->byhash);
	return SR_OK;
}

static void named_free(struct named *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(v[i].hash);
	free(v);
}

void sr_plot_rows_free(struct sr_plot_rows *r)
{
	size_t i;

	if (!r)
		return;
	named_free(r->tnamed, r->tcap);
	named_free(r->mnamed, r->mcap);
	named_free(r->pnamed, r->pcap);
	sr_strs_free(&r->traces);
	sr_strs_free(&r->machines);
	sr_strs_free(&r->policies);
	free(r->baseline);
	free(r->r);
	for (i = 0; i < r->nseen; i++) {
		free(r->seen[i].key);
		free(r->seen[i].figs);
	}
	free(r->seen);
	sr_u64map_free(&r->byhash);
	sr_strs_free(&r->files);
	free(r->ref_buf);
	free(r);
}

size_t sr_plot_rows_count(const struct sr_plot_rows *r)
{
	return r->read;
}

size_t sr_plot_rows_errors(const struct sr_plot_rows *r)
{
	return r->errors;
}

size_t sr_plot_rows_quiet(const struct sr_plot_rows *r)
{
	return r->quiet;
}

size_t sr_plot_rows_doubled(const struct sr_plot_rows *r)
{
	return r->doubled;
}

/* ---- a row's identity ------------------------------------------------------ */

/* The key's hash for the map (common/hash.h's FNV-1a; never the map's
 * empty mark). */
static uint64_t key_hash(const char *s)
{
	uint64_t h = sr_fnv1a(SR_FNV_BASIS, (const unsigned char *)s, strlen(s));

	return h == SR_U64MAP_EMPTY ? h - 1 : h;
}

/* The identity as one string (the info fields left out: they say how a
 * unit came to its identity, not what it is), malloc'ed; NULL out of
 * memory. */
static char *ident_key(const char *const id[SR_ID_COUNT])
{
	size_t len = 1, at = 0;
	char *k;
	int i;

	for (i = 0; i < SR_ID_COUNT; i++)
		len += (id[i] ? strlen(id[i]) : 0) + 2;
	k = malloc(len);
	if (!k)
		return NULL;
	for (i = 0; i < SR_ID_COUNT; i++) {
		if (sr_id_fields[i].scope == SR_IDS_INFO)
			continue;
		/* \x1e: null, \x1f: the end of a value (neither is in JSON
		 * text unescaped, and a value is JSON's) */
		at += (size_t)sprintf(k + at, "%s%s\x1f", id[i] ? "" : "\x1e", id[i] ? id[i] : "");
	}
	k[at] = '\0';
	return k;
}

/*
 * Whether the row w (read at its file and line) was read before: 1 when
 * it was, with the same figures (to be left out); 0 when not (it is
 * remembered); -1 with d set when a row of its identity has other
 * figures, or out of memory.
 */
static int seen_before(struct sr_plot_rows *r, const struct sr_row *w, struct sr_diag *d)
{
	char *key = ident_key(w->id.v), *figs = NULL;
	uint64_t *head;
	size_t i;
	int added, k = key ? sr_row_figures(w, &figs) : -1;

	if (k == -2) { /* (never for a row the reader took: it read them) */
		free(key);
		sr_diag_set(d, SR_ERR_FORMAT, "its figures cannot be read back");
		return -1;
	}
	if (k)
		goto nomem;
	head = sr_u64map_put(&r->byhash, key_hash(key), &added);
	if (!head)
		goto nomem;
	for (i = added ? NONE : (size_t)*head - 1; i != NONE; i = r->seen[i].next) {
		if (strcmp(r->seen[i].key, key))
			continue;
		if (!strcmp(r->seen[i].figs, figs)) {
			free(key);
			free(figs);
			return 1;
		}
		sr_diag_set(d, SR_ERR_FORMAT, "the result of the same trace, machine, policy and "
			    "options as %s:%" PRIu64 ", with other figures: two runs of one "
			    "unit; plot one of them", r->files.v[r->seen[i].file],
			    r->seen[i].line);
		free(key);
		free(figs);
		return -1;
	}
	if (r->nseen == r->seencap &&
	    sr_grow((void **)&r->seen, &r->seencap, r->nseen + 1, sizeof(*r->seen), 64))
		goto nomem;
	if (!r->files.n || strcmp(r->files.v[r->files.n - 1], w->file))
		if (sr_strs_add(&r->files, w->file, strlen(w->file)))
			goto nomem;
	r->seen[r->nseen].key = key;
	r->seen[r->nseen].figs = figs;
	r->seen[r->nseen].file = r->files.n - 1;
	r->seen[r->nseen].line = w->lineno;
	r->seen[r->nseen].next = added ? NONE : (size_t)*head - 1;
	*head = ++r->nseen;
	return 0;
nomem:
	free(key);
	free(figs);
	sr_diag_set(d, SR_ERR_NOMEM, "out of memory");
	return -1;
}

/*
 * The settings of a row (its run fields) against the first row that
 * replayed: 0 when they agree (a row in error may lack those it never
 * knew), -1 with d set when not.  The first row that replayed becomes
 * the reference.
 */
static int same_settings(struct sr_plot_rows *r, const char *const id[SR_ID_COUNT],
			 int failed, struct sr_diag *d)
{
	struct sr_ident a, b;
	char diff[400];
	size_t len = 0, at = 0;
	int i;

	if (!r->has_ref) {
		if (failed)
			return 0;
		for (i = 0; i < SR_ID_COUNT; i++)
			len += id[i] ? strlen(id[i]) + 1 : 0;
		r->ref_buf = malloc(len + 1);
		if (!r->ref_buf)
			return sr_diag_set(d, SR_ERR_NOMEM, "out of memory"), -1;
		for (i = 0; i < SR_ID_COUNT; i++) {
			r->ref_id[i] = id[i] ? strcpy(r->ref_buf + at, id[i]) : NULL;
			at += id[i] ? strlen(id[i]) + 1 : 0;
		}
		r->ref_file = r->files.n - 1;
		r->ref_line = d->line;
		r->has_ref = 1;
		return 0;
	}
	memcpy(a.v, id, sizeof(a.v));
	memcpy(b.v, r->ref_id, sizeof(b.v));
	if (!sr_ident_diff(&a, &b, SR_IDS_RUN, failed, diff, sizeof(diff)))
		return 0;
	if (!sr_id_eq(a.v[SR_ID_BASELINE], b.v[SR_ID_BASELINE]) && a.v[SR_ID_BASELINE])
		sr_diag_set(d, SR_ERR_FORMAT, "a row against the baseline %.100s, the rows of %s:%"
			    PRIu64 " against %.100s: plot the rows of one baseline at a time",
			    a.v[SR_ID_BASELINE], r->files.v[r->ref_file], r->ref_line,
			    b.v[SR_ID_BASELINE] ? b.v[SR_ID_BASELINE] : "null");
	else
		sr_diag_set(d, SR_ERR_FORMAT, "a row of other settings than %s:%" PRIu64 "'s (%s): "
			    "plot the rows of one setting at a time", r->files.v[r->ref_file],
			    r->ref_line, diff);
	return -1;
}

/*
 * Name ix of a list (its hashes in *named, room for *cap) is one thing:
 * the first hash it was seen with is remembered; another one later is
 * refused (two traces, machines or policies of one name).  0, or -1 with
 * d set.
 */
static int same_thing(struct sr_plot_rows *r, const char *what, const char *hashname,
		      const char *name, long ix, struct named **named, size_t *cap,
		      const char *hash, struct sr_diag *d)
{
	struct named *nv;

	if ((size_t)ix >= *cap) {
		size_t c = *cap ? 2 * *cap : 16;

		while (c <= (size_t)ix)
			c *= 2;
		nv = realloc(*named, c * sizeof(*nv));
		if (!nv)
			return sr_diag_set(d, SR_ERR_NOMEM, "out of memory"), -1;
		memset(nv + *cap, 0, (c - *cap) * sizeof(*nv));
		*named = nv;
		*cap = c;
	}
	nv = &(*named)[ix];
	if (!hash)
		return 0;
	if (!nv->hash) {
		nv->hash = strdup(hash);
		if (!nv->hash)
			return sr_diag_set(d, SR_ERR_NOMEM, "out of memory"), -1;
		nv->file = r->files.n - 1;
		nv->line = d->line;
		return 0;
	}
	if (!strcmp(nv->hash, hash))
		return 0;
	sr_diag_set(d, SR_ERR_FORMAT, "%s %.100s with %s %s, not %s as at %s:%" PRIu64 ": two "
		    "%ss of one name in one chart; plot them apart", what, name, hashname, hash,
		    nv->hash, r->files.v[nv->file], nv->line, what);
	return -1;
}

/* One row as the sweep's reader read it (rows.c: its identity, status
 * and figures checked), into the chart's rows; w is ours, freed here. */
static enum sr_err add_row(struct sr_plot_rows *r, struct sr_row *w, struct sr_diag *d)
{
	static const enum sr_id need[] = { SR_ID_TRACE, SR_ID_MACHINE, SR_ID_POLICY,
					   SR_ID_BASELINE };
	const char *const *id = w->id.v;
	struct row row;
	long ix[3];
	size_t i;
	int again;

	sr_diag_file(d, w->file);
	d->line = w->lineno;
	/* Once per identity: a row given again is left out. */
	again = seen_before(r, w, d);
	if (again < 0)
		return d->code;
	if (again) {
		r->doubled++;
		return SR_OK;
	}
	if (same_settings(r, id, !w->ok, d))
		return d->code;
	r->read++;
	if (!w->ok || w->quiet) {
		if (!w->ok)
			r->errors++;
		else
			r->quiet++;
		return SR_OK;
	}
	/* A row that replayed is drawn under its names: none is null. */
	for (i = 0; i < sizeof(need) / sizeof(need[0]); i++)
		if (!id[need[i]])
			return sr_diag_set(d, SR_ERR_FORMAT, "a row without its '%s'",
					   sr_id_fields[need[i]].name);
	if (!r->baseline) {
		r->baseline = strdup(id[SR_ID_BASELINE]);
		if (!r->baseline)
			return sr_diag_set(d, SR_ERR_NOMEM, "out of memory");
	}
	ix[0] = sr_strs_index(&r->traces, id[SR_ID_TRACE]);
	ix[1] = sr_strs_index(&r->machines, id[SR_ID_MACHINE]);
	/* The baseline's own rows (a delta of 0) are the reference, not a bar. */
	ix[2] = strcmp(id[SR_ID_POLICY], r->baseline) ? sr_strs_index(&r->policies, id[SR_ID_POLICY])
						       : -2;
	if (ix[0] < 0 || ix[1] < 0 || ix[2] == -1)
		return sr_diag_set(d, SR_ERR_NOMEM, "out of memory");
	/* One name, one thing: a trace, machine or policy of another
	 * content under a name seen is refused. */
	if (same_thing(r, "trace", "trace_hash", id[SR_ID_TRACE], ix[0], &r->tnamed, &r->tcap,
		       id[SR_ID_TRACE_HASH], d) ||
	    same_thing(r, "machine", "machine_hash", id[SR_ID_MACHINE], ix[1], &r->mnamed,
		       &r->mcap, id[SR_ID_MACHINE_HASH], d) ||
	    (ix[2] >= 0 && same_thing(r, "policy", "policy_hash", id[SR_ID_POLICY], ix[2],
				      &r->pnamed, &r->pcap, id[SR_ID_POLICY_HASH], d)))
		return d->code;
	if (ix[2] == -2)
		return SR_OK;
	if (r->n == r->cap &&
	    sr_grow((void **)&r->r, &r->cap, r->n + 1, sizeof(*r->r), 64))
		return sr_diag_set(d, SR_ERR_NOMEM, "out of memory");
	row.trace = ix[0];
	row.machine = ix[1];
	row.policy = ix[2];
	row.delta = w->delta;
	row.noise_on = w->noise_on;
	row.in_noise = w->in_noise;
	row.noise = w->noise_on ? w->noise : 0;
	r->noise_on += (size_t)row.noise_on;
	r->in_noise += (size_t)row.in_noise;
	r->r[r->n++] = row;
	return SR_OK;
}

/* sr_row_fn: add_row(), the row freed after. */
static enum sr_err take_row(void *ctx, struct sr_row *w, struct sr_diag *d)
{
	enum sr_err err = add_row(ctx, w, d);

	sr_row_free(w);
	return err;
}

enum sr_err sr_plot_rows_read(struct sr_plot_rows *r, const char *path, struct sr_diag *diag)
{
	struct sr_rows_info info;
	enum sr_err err;

	err = sr_rows_each(path, MAX_LINE, take_row, r, &info, diag);
	/* A last row cut short: said, as merge says it, not drawn without. */
	if (!err && info.cut_line) {
		sr_diag_file(diag, path);
		diag->line = info.cut_line;
		err = sr_diag_set(diag, SR_ERR_FORMAT, "a row cut short (a sweep killed while "
				  "writing it)");
	}
	if (!err)
		sr_diag_clear(diag);
	return err;
}

/* ---- the chart ----------------------------------------------------------- */

/* Policy k's deltas on machine m, as drawn (within CHART_VALUE_MAX):
 * their mean, least and most; how many. */
static size_t deltas_of(const struct sr_plot_rows *r, long m, long k, double *mean,
			double *lo, double *hi)
{
	double sum = 0;
	size_t i, n = 0;

	for (i = 0; i < r->n; i++) {
		const struct row *w = &r->r[i];

		double v = chart_clip(w->delta); /* as drawn: their sum is finite */

		if (w->machine != m || w->policy != k)
			continue;
		if (!n || v < *lo)
			*lo = v;
		if (!n || v > *hi)
			*hi = v;
		sum += v;
		n++;
	}
	*mean = n ? sum / (double)n : 0;
	return n;
}

/* A trace's delta: hollow, or filled (a delta measured beyond its timing
 * noise, when the sweep measured it). */
static void dot(cairo_t *cr, double x, double y, int filled)
{
	cairo_new_sub_path(cr);
	cairo_arc(cr, x, y, 3, 0, 2 * M_PI);
	if (filled)
		cairo_set_source_rgb(cr, 0.15, 0.15, 0.15);
	else
		cairo_set_source_rgb(cr, 1, 1, 1);
	cairo_fill_preserve(cr);
	cairo_set_source_rgb(cr, 0.15, 0.15, 0.15);
	cairo_set_line_width(cr, 1);
	cairo_stroke(cr);
}

enum sr_err sr_plot_sweep(FILE *f, enum sr_plot_fmt fmt, const struct sr_plot_rows *r,
			  struct sr_diag *diag)
{
	struct chart_panel pn = {
		.x0 = PLOT_X0, .x1 = PLOT_X1, .y0 = PLOT_Y0, .y1 = PLOT_Y1,
		.x = { .scale = CH_CATEGORY, .label = "machine" },
		.y = { .scale = CH_LINEAR, .label = "throughput delta (%; + faster)",
		       .tick = chart_tick_pct },
	};
	struct chart_page pg;
	char title[1200], sub[300], more[400], foot[600]; /* title: a long baseline uncut */
	double cw, group;
	size_t i, clipped = 0, len;
	long m, k;
	enum sr_err err;

	if (!r->read)
		return sr_diag_set(diag, SR_ERR_FORMAT, "no rows: nothing to plot");
	if (r->read == r->errors + r->quiet)
		return sr_diag_set(diag, SR_ERR_FORMAT, "no row replayed (%zu in error, %zu of "
				   "traces with no swap activity): nothing to plot", r->errors,
				   r->quiet);
	/* The delta axis: every row's, and 0; a delta beyond what an axis
	 * reaches (CHART_VALUE_MAX) is drawn at its end, and said. */
	for (i = 0; i < r->n; i++) {
		double v = chart_clip(r->r[i].delta);
		/* ... and its noise band's ends */
		double lo = chart_clip(r->r[i].delta - r->r[i].noise);
		double hi = chart_clip(r->r[i].delta + r->r[i].noise);

		clipped += chart_clipped(r->r[i].delta);
		if (v < pn.y.min)
			pn.y.min = v;
		if (v > pn.y.max)
			pn.y.max = v;
		if (lo < pn.y.min)
			pn.y.min = lo;
		if (hi > pn.y.max)
			pn.y.max = hi;
	}
	/* Room above and below the bars' ends, so that no dot sits on the
	 * frame; the zero stays in. */
	{
		double span = pn.y.max - pn.y.min;

		pn.y.max += 0.05 * span;
		if (pn.y.min < 0)
			pn.y.min -= 0.05 * span;
	}
	chart_axis_nice(&pn.y, 6);
	pn.x.max = (double)r->machines.n;
	pn.x.cats = (const char *const *)r->machines.v;

	err = chart_page_open(&pg, f, fmt, PAGE_W, PAGE_H, diag);
	if (err)
		return err;
	pn.cr = pg.cr;
	snprintf(title, sizeof(title), "Throughput delta against %s, by machine", r->baseline);
	snprintf(sub, sizeof(sub), "%zu trace%s x %zu machine%s; bars: the mean over the traces, "
		 "whiskers: least to most, dots: each trace", r->traces.n,
		 r->traces.n == 1 ? "" : "s", r->machines.n, r->machines.n == 1 ? "" : "s");
	/* What was left out, or drawn clipped, in the footer. */
	len = 0;
	more[0] = '\0';
	if (r->errors && !r->quiet)
		len += (size_t)snprintf(more, sizeof(more), "%zu row%s in error left out",
					r->errors, r->errors == 1 ? "" : "s");
	if (r->quiet)
		len += (size_t)snprintf(more, sizeof(more), "%zu row%s in error, %zu of traces "
					"with no swap activity left out", r->errors,
					r->errors == 1 ? "" : "s", r->quiet);
	if (clipped && len < sizeof(more))
		len += (size_t)snprintf(more + len, sizeof(more) - len, "%s%zu delta%s beyond %g %% "
					"drawn at the axis's end", len ? "; " : "", clipped,
					clipped == 1 ? "" : "s", CHART_VALUE_MAX);
	/* With --noise: each dot's band of +- its timing noise, and the dots
	 * within it hollow, the others filled. */
	if (r->noise_on && len < sizeof(more))
		snprintf(more + len, sizeof(more) - len, "%sgrey bands: +- each delta's timing "
			 "noise; hollow dots: %s (%zu of %zu)", len ? "; " : "", SR_WITHIN_NOISE,
			 r->in_noise, r->noise_on);
	chart_page_head(&pg, title, sub, chart_footer(foot, sizeof(foot), more[0] ? more : NULL));
	chart_axes(&pn, NULL);
	chart_hline(&pn, 0);
	/* In each machine's column, a bar per policy side by side across
	 * 80 % of it; its whisker and dots on its middle. */
	cw = (PLOT_X1 - PLOT_X0) / (double)(r->machines.n ? r->machines.n : 1);
	group = 0.8 * cw / (double)(r->policies.n ? r->policies.n : 1);
	for (m = 0; m < (long)r->machines.n; m++)
		for (k = 0; k < (long)r->policies.n; k++) {
			double a = PLOT_X0 + (double)m * cw + 0.1 * cw + (double)k * group;
			double mid = a + group / 2, mean, lo, hi;

			if (!deltas_of(r, m, k, &mean, &lo, &hi))
				continue;
			chart_bar(&pn, a + 1, a + group - 1, 0, mean, (int)k);
			cairo_set_source_rgb(pg.cr, 0.15, 0.15, 0.15);
			cairo_set_line_width(pg.cr, 1);
			cairo_move_to(pg.cr, mid, chart_py(&pn, lo));
			cairo_line_to(pg.cr, mid, chart_py(&pn, hi));
			cairo_move_to(pg.cr, mid - group / 6, chart_py(&pn, lo));
			cairo_line_to(pg.cr, mid + group / 6, chart_py(&pn, lo));
			cairo_move_to(pg.cr, mid - group / 6, chart_py(&pn, hi));
			cairo_line_to(pg.cr, mid + group / 6, chart_py(&pn, hi));
			cairo_stroke(pg.cr);
			for (i = 0; i < r->n; i++) {
				const struct row *w = &r->r[i];

				if (w->machine != m || w->policy != k || !w->noise_on)
					continue;
				cairo_set_source_rgba(pg.cr, 0.4, 0.4, 0.4, 0.35);
				cairo_rectangle(pg.cr, mid - group / 5,
						chart_py(&pn, chart_clip(w->delta + w->noise)), 2 * group / 5,
						chart_py(&pn, chart_clip(w->delta - w->noise)) -
						chart_py(&pn, chart_clip(w->delta + w->noise)));
				cairo_fill(pg.cr);
			}
			for (i = 0; i < r->n; i++)
				if (r->r[i].machine == m && r->r[i].policy == k)
					dot(pg.cr, mid, chart_py(&pn, r->r[i].delta),
					    r->r[i].noise_on && !r->r[i].in_noise);
		}
	if (!r->policies.n) {
		cairo_set_source_rgb(pg.cr, 0.4, 0.4, 0.4);
		chart_text(pg.cr, (PLOT_X0 + PLOT_X1) / 2.0, (PLOT_Y0 + PLOT_Y1) / 2.0, CH_CENTRE,
			   12, 0, 0, 0, "only the baseline was swept: no delta to draw");
	}
	chart_legend(pg.cr, LEGEND_X, PLOT_Y0 + 10, LEGEND_W,
		     (const char *const *)r->policies.v, r->policies.n, CH_SWATCH_BOX, 0);
	return chart_page_close(&pg, diag);
}
