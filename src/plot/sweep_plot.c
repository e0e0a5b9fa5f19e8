/* SPDX-License-Identifier: MIT */
/*
 * A sweep's chart (sr_plot_sweep, `swapreplay plot`): its rows read back
 * (JSON lines, docs/SWEEP.md, "Rows": a row's trace, machine, policy,
 * baseline, status and delta_pct), and each policy's delta per machine
 * across the traces.
 */
#include <math.h>

#include <jansson.h>

#include "common/filekind.h"
#include "common/internal.h"
#include "common/strs.h"
#include "plot/chart.h"

#define PAGE_W 800
#define PAGE_H 540
#define PLOT_X0 90
#define PLOT_X1 600
#define PLOT_Y0 90
#define PLOT_Y1 450
#define LEGEND_X 620
#define LEGEND_W (PAGE_W - LEGEND_X - 10)

/* The longest line read: a sweep's row is a few KiB at most (its trace's
 * and machine's paths, at most 4 KiB each, are its longest fields); what
 * jansson makes of 64 KiB is at most a few MB. */
#define MAX_LINE (64u << 10)

/* A row that replayed: indexes into the name lists, and its delta. */
struct row {
	long trace, machine, policy;
	double delta;
};

struct sr_plot_rows {
	struct sr_strs traces, machines, policies; /* names, in the order first seen */
	char *baseline;               /* of the first row; every row's */
	struct row *r;
	size_t n, cap;
	size_t read, errors, quiet;   /* rows read; of them in error, and of traces
				       * with no swap activity (no figures) */
};

enum sr_err sr_plot_rows_new(struct sr_plot_rows **out, struct sr_diag *diag)
{
	*out = calloc(1, sizeof(**out));
	return *out ? SR_OK : sr_diag_set(diag, SR_ERR_NOMEM, "out of memory");
}

void sr_plot_rows_free(struct sr_plot_rows *r)
{
	if (!r)
		return;
	sr_strs_free(&r->traces);
	sr_strs_free(&r->machines);
	sr_strs_free(&r->policies);
	free(r->baseline);
	free(r->r);
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

/* A string field of a row, or NULL. */
static const char *str_of(const json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key));
}

/* One line (len bytes, no newline) of the file, its line-th. */
static enum sr_err add_line(struct sr_plot_rows *r, const char *path, uint64_t line,
			    const char *s, size_t len, struct sr_diag *d)
{
	static const char *const need[] = { "trace", "machine", "policy", "baseline" };
	json_error_t je;
	json_t *o;
	const char *status;
	struct row row;
	long ix[4];
	size_t i;

	while (len && (s[len - 1] == '\r' || s[len - 1] == ' ' || s[len - 1] == '\t'))
		len--;
	for (i = 0; i < len && (s[i] == ' ' || s[i] == '\t'); i++)
		;
	if (i == len)
		return SR_OK; /* a blank line */
	sr_diag_file(d, path);
	d->line = line;
	if (!r->read && len - i >= 5 && !strncmp(s + i, "unit,", 5))
		return sr_diag_set(d, SR_ERR_FORMAT, "CSV rows: plot reads JSON lines "
				   "(swapreplay merge -f jsonl FILE -o ROWS.jsonl writes them)");
	o = json_loadb(s + i, len - i, 0, &je);
	if (!json_is_object(o) || sr_json_file_kind(o) != SR_KIND_SWEEP) {
		json_decref(o);
		return sr_diag_set(d, SR_ERR_FORMAT, "not a sweep's result row (swapreplay sweep "
				   "writes them)");
	}
	for (i = 0; i < 4; i++)
		if (!str_of(o, need[i])) {
			json_decref(o);
			return sr_diag_set(d, SR_ERR_FORMAT, "a row without its '%s'", need[i]);
		}
	status = str_of(o, "status");
	if (status && strcmp(status, "ok") && strcmp(status, "error") &&
	    strcmp(status, "no swap activity")) {
		json_decref(o);
		return sr_diag_set(d, SR_ERR_FORMAT, "its status is none of ok, error and "
				   "no swap activity");
	}
	r->read++;
	if (status && strcmp(status, "ok")) {
		if (!strcmp(status, "error"))
			r->errors++;
		else
			r->quiet++;
		json_decref(o);
		return SR_OK;
	}
	if (!json_is_number(json_object_get(o, "delta_pct")) ||
	    !isfinite(json_number_value(json_object_get(o, "delta_pct")))) {
		json_decref(o);
		return sr_diag_set(d, SR_ERR_FORMAT, "a row that replayed without its 'delta_pct'");
	}
	if (!r->baseline) {
		r->baseline = strdup(str_of(o, "baseline"));
		if (!r->baseline) {
			json_decref(o);
			return sr_diag_set(d, SR_ERR_NOMEM, "out of memory");
		}
	} else if (strcmp(r->baseline, str_of(o, "baseline"))) {
		sr_diag_set(d, SR_ERR_FORMAT, "a row against the baseline %s, the rows before "
			    "against %s: plot the rows of one baseline at a time",
			    str_of(o, "baseline"), r->baseline);
		json_decref(o);
		return SR_ERR_FORMAT;
	}
	ix[0] = sr_strs_index(&r->traces, str_of(o, "trace"));
	ix[1] = sr_strs_index(&r->machines, str_of(o, "machine"));
	/* The baseline's own rows (a delta of 0) are the reference, not a bar. */
	ix[2] = strcmp(str_of(o, "policy"), r->baseline)
			? sr_strs_index(&r->policies, str_of(o, "policy")) : -2;
	row.delta = json_number_value(json_object_get(o, "delta_pct"));
	json_decref(o);
	if (ix[0] < 0 || ix[1] < 0 || ix[2] == -1)
		return sr_diag_set(d, SR_ERR_NOMEM, "out of memory");
	if (ix[2] == -2)
		return SR_OK;
	if (r->n == r->cap) {
		size_t c = r->cap ? 2 * r->cap : 64;
		struct row *nr = realloc(r->r, c * sizeof(*nr));

		if (!nr)
			return sr_diag_set(d, SR_ERR_NOMEM, "out of memory");
		r->r = nr;
		r->cap = c;
	}
	row.trace = ix[0];
	row.machine = ix[1];
	row.policy = ix[2];
	r->r[r->n++] = row;
	return SR_OK;
}

enum sr_err sr_plot_rows_read(struct sr_plot_rows *r, const char *path, struct sr_diag *diag)
{
	struct sr_src *s = NULL;
	const unsigned char *p;
	char *line = NULL, *nl;
	size_t n, len = 0, cap = 0, take;
	uint64_t lineno = 0;
	enum sr_err err;

	sr_diag_clear(diag);
	err = sr_src_open(&s, path, diag);
	/* Lines are gathered across the byte source's chunks. */
	while (!err) {
		err = sr_src_peek(s, 1 << 16, &p, &n, diag);
		if (err || !n)
			break;
		nl = memchr(p, '\n', n);
		take = nl ? (size_t)((const unsigned char *)nl - p) : n;
		if (len + take > MAX_LINE) {
			sr_diag_file(diag, path);
			diag->line = lineno + 1;
			err = sr_diag_set(diag, SR_ERR_LIMIT, "a line longer than %u KiB: refused, "
					  "not a sweep's result row (a row is a few KiB)",
					  MAX_LINE >> 10);
			break;
		}
		if (len + take + 1 > cap) {
			size_t c = 2 * (len + take) + 1;
			char *nb = realloc(line, c);

			if (!nb) {
				err = sr_diag_set(diag, SR_ERR_NOMEM, "out of memory");
				break;
			}
			line = nb;
			cap = c;
		}
		memcpy(line + len, p, take);
		len += take;
		sr_src_skip(s, take + (nl ? 1 : 0));
		if (nl) {
			err = add_line(r, path, ++lineno, line, len, diag);
			len = 0;
		}
	}
	if (!err && len) /* a last line without its newline */
		err = add_line(r, path, ++lineno, line, len, diag);
	free(line);
	sr_src_close(s);
	if (!err)
		sr_diag_clear(diag);
	return err;
}

/* ---- the chart ----------------------------------------------------------- */

/* Policy k's deltas on machine m: their mean, least and most; how many. */
static size_t deltas_of(const struct sr_plot_rows *r, long m, long k, double *mean,
			double *lo, double *hi)
{
	double sum = 0;
	size_t i, n = 0;

	for (i = 0; i < r->n; i++) {
		const struct row *w = &r->r[i];

		if (w->machine != m || w->policy != k)
			continue;
		if (!n || w->delta < *lo)
			*lo = w->delta;
		if (!n || w->delta > *hi)
			*hi = w->delta;
		sum += w->delta;
		n++;
	}
	*mean = n ? sum / (double)n : 0;
	return n;
}

static void dot(cairo_t *cr, double x, double y)
{
	cairo_new_sub_path(cr);
	cairo_arc(cr, x, y, 3, 0, 2 * M_PI);
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
	char title[200], sub[300], more[200], foot[400];
	double cw, group;
	size_t i;
	long m, k;
	enum sr_err err;

	if (!r->read)
		return sr_diag_set(diag, SR_ERR_FORMAT, "no rows: nothing to plot");
	if (r->read == r->errors + r->quiet)
		return sr_diag_set(diag, SR_ERR_FORMAT, "no row replayed (%zu in error, %zu of "
				   "traces with no swap activity): nothing to plot", r->errors,
				   r->quiet);
	/* The delta axis: every row's, and 0. */
	for (i = 0; i < r->n; i++) {
		if (r->r[i].delta < pn.y.min)
			pn.y.min = r->r[i].delta;
		if (r->r[i].delta > pn.y.max)
			pn.y.max = r->r[i].delta;
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
	/* What was left out, in the footer. */
	snprintf(more, sizeof(more), "%zu row%s in error left out", r->errors,
		 r->errors == 1 ? "" : "s");
	if (r->quiet)
		snprintf(more, sizeof(more), "%zu row%s in error, %zu of traces with no swap "
			 "activity left out", r->errors, r->errors == 1 ? "" : "s", r->quiet);
	chart_page_head(&pg, title, sub, chart_footer(foot, sizeof(foot),
						      r->errors || r->quiet ? more : NULL));
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
			for (i = 0; i < r->n; i++)
				if (r->r[i].machine == m && r->r[i].policy == k)
					dot(pg.cr, mid, chart_py(&pn, r->r[i].delta));
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
