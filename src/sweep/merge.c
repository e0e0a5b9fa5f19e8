/* SPDX-License-Identifier: MIT */
/*
 * Merging the result files of a plan's units into one: the rows put in
 * unit order (policies in the plan's order), checked for doubled rows and,
 * against the plan, for missing units and units the plan does not have,
 * and written whole or not at all.
 */
#define _GNU_SOURCE /* qsort_r */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "common/internal.h"
#include "sweep/sweep_impl.h"
#include "swapreplay/outfile.h"

struct sr_sweep_merge {
	enum sr_sweep_fmt fmt;
	struct sr_rows rows;
	int plan;                   /* sr_sweep_merge_plan() read one */
	size_t nunits;              /* the plan's */
	char **pol;                 /* the policies' order: the plan's, else the rows' */
	size_t np;
	int checked;                /* 1: checked, nothing wrong; -1: problems */
};

enum sr_err sr_sweep_merge_new(struct sr_sweep_merge **out, enum sr_sweep_fmt fmt,
			       struct sr_diag *diag)
{
	*out = calloc(1, sizeof(**out));
	sr_diag_clear(diag);
	if (!*out)
		return sr_diag_set(diag, SR_ERR_NOMEM, "out of memory");
	(*out)->fmt = fmt;
	return SR_OK;
}

enum sr_err sr_sweep_merge_add(struct sr_sweep_merge *m, const char *path,
			       struct sr_diag *diag)
{
	long long gl;

	return sr_rows_load(&m->rows, path, m->fmt, &gl, diag);
}

enum sr_err sr_sweep_merge_plan(struct sr_sweep_merge *m, const char *path,
				struct sr_diag *diag)
{
	FILE *f = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0, n = 0;
	ssize_t len;

	sr_diag_clear(diag);
	if (!f) {
		sr_diag_file(diag, path);
		return sr_diag_set(diag, SR_ERR_IO, "cannot read the plan");
	}
	/* The plan's size, and its first line's policies. */
	while ((len = getline(&line, &cap, f)) > 0) {
		if (n == 0) {
			json_error_t e;
			json_t *o = json_loadb(line, (size_t)len, 0, &e), *pv;
			size_t i;

			pv = json_object_get(o, "policies");
			if (json_is_array(pv)) {
				m->pol = calloc(json_array_size(pv) + 1, sizeof(*m->pol));
				for (i = 0; m->pol && i < json_array_size(pv); i++)
					if (json_is_string(json_array_get(pv, i)))
						m->pol[m->np++] = strdup(json_string_value(json_array_get(pv, i)));
			}
			json_decref(o);
		}
		n++;
	}
	free(line);
	fclose(f);
	m->plan = 1;
	m->nunits = n;
	return SR_OK;
}

static size_t pol_rank(const struct sr_sweep_merge *m, const char *p)
{
	size_t i;

	for (i = 0; i < m->np; i++)
		if (!strcmp(m->pol[i], p))
			return i;
	return m->np;
}

static int cmp_row(const void *a, const void *b, void *arg)
{
	const struct sr_row *x = a, *y = b;
	size_t rx, ry;

	if (x->unit != y->unit)
		return x->unit < y->unit ? -1 : 1;
	rx = pol_rank(arg, x->policy);
	ry = pol_rank(arg, y->policy);
	if (rx != ry)
		return rx < ry ? -1 : 1;
	return strcmp(x->policy, y->policy);
}

enum sr_err sr_sweep_merge_check(struct sr_sweep_merge *m, sr_sweep_problem_fn fn, void *ctx,
				 struct sr_sweep_merge_counts *counts, struct sr_diag *diag)
{
	const struct sr_rows *rows = &m->rows;
	struct sr_sweep_merge_counts c = { 0, 0, 0 };
	struct sr_sweep_problem p;
	size_t i;

	sr_diag_clear(diag);
	if (!m->np) {
		/* No plan (or no policies in it): policies in the order they
		 * first appear. */
		free(m->pol);
		m->pol = calloc(rows->n + 1, sizeof(*m->pol));
		for (i = 0; m->pol && i < rows->n; i++) {
			size_t j;

			for (j = 0; j < m->np && strcmp(m->pol[j], rows->v[i].policy); j++)
				;
			if (j == m->np)
				m->pol[m->np++] = strdup(rows->v[i].policy);
		}
	}
	qsort_r(m->rows.v, rows->n, sizeof(*rows->v), cmp_row, m);
	memset(&p, 0, sizeof(p));
	for (i = 1; i < rows->n; i++)
		if (rows->v[i].unit == rows->v[i - 1].unit &&
		    !strcmp(rows->v[i].policy, rows->v[i - 1].policy)) {
			c.doubled++;
			p.kind = SR_SWEEP_DOUBLED;
			p.unit = rows->v[i].unit;
			p.policy = rows->v[i].policy;
			if (fn)
				fn(ctx, &p);
		}
	if (m->plan) {
		uint64_t u;
		size_t k = 0;

		for (u = 0; u < m->nunits; u++) {
			size_t have = 0;

			while (k < rows->n && rows->v[k].unit < u)
				k++;
			while (k + have < rows->n && rows->v[k + have].unit == u)
				have++;
			if (have < m->np) {
				c.missing++;
				memset(&p, 0, sizeof(p));
				p.kind = SR_SWEEP_MISSING;
				p.unit = u;
				p.rows = have;
				p.want = m->np;
				if (fn)
					fn(ctx, &p);
			}
		}
		memset(&p, 0, sizeof(p));
		for (i = 0; i < rows->n; i++)
			if (rows->v[i].unit >= m->nunits) {
				c.stray++;
				p.kind = SR_SWEEP_STRAY;
				p.unit = rows->v[i].unit;
				if (fn)
					fn(ctx, &p);
			}
	}
	if (counts)
		*counts = c;
	m->checked = c.doubled || c.stray || c.missing ? -1 : 1;
	if (m->checked < 0)
		return sr_diag_set(diag, SR_ERR_FORMAT,
				   "%zu duplicate or stray row(s), %zu missing unit(s)",
				   c.doubled + c.stray, c.missing);
	return SR_OK;
}

enum sr_err sr_sweep_merge_write(struct sr_sweep_merge *m, const char *path,
				 struct sr_diag *diag)
{
	struct sr_outfile *of;
	enum sr_err err;
	FILE *f;
	size_t i;

	sr_diag_clear(diag);
	if (m->checked != 1)
		return sr_diag_set(diag, SR_ERR_INVAL, "the rows are not checked, or not right");
	err = sr_outfile_open(&of, path, diag);
	if (err)
		return err;
	f = sr_outfile_stream(of);
	if (m->fmt == SR_SWEEP_CSV)
		fputs(sr_rows_csv_header, f);
	for (i = 0; i < m->rows.n; i++)
		fputs(m->rows.v[i].line, f);
	return sr_outfile_commit(of, diag);
}

void sr_sweep_merge_free(struct sr_sweep_merge *m)
{
	size_t i;

	if (!m)
		return;
	for (i = 0; i < m->np; i++)
		free(m->pol[i]);
	free(m->pol);
	sr_rows_free(&m->rows);
	free(m);
}
