/* SPDX-License-Identifier: MIT */
/*
 * Merging the result files of a plan's units into one: the rows checked
 * by identity (ident.c) against the plan, or without one against each
 * other (one options, one trace and machine per unit number), checked for
 * doubled rows and, against the plan, for missing ones, put in unit order
 * (policies in the plan's order) and written whole or not at all.  A row
 * in error that a later run of its unit replaced (a resumed output, or
 * another file) gives way to the row that replayed.
 */
#define _GNU_SOURCE /* qsort_r */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "common/diag.h"
#include "common/grow.h"
#include "sweep/sweep_impl.h"
#include "swapreplay/outfile.h"

struct cut {
	const char *file;
	uint64_t line;
};

struct sr_sweep_merge {
	enum sr_sweep_fmt fmt;       /* written */
	unsigned formats;            /* read: 1 << each format seen */
	struct sr_rows rows;
	struct cut *cuts;            /* rows cut short, at the end of a file */
	size_t ncuts, cutcap;
	int plan;                    /* sr_sweep_merge_plan() read one */
	struct sr_plan p;
	const char **pol, **polh;    /* the policies' order: the plan's, else the rows' */
	size_t np;
	size_t *pick;                /* the rows written, in order */
	size_t npick;
	int checked;                 /* 1: checked, nothing wrong; -1: problems */
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
	struct sr_rows_info info;
	enum sr_err err = sr_rows_read_file_any(&m->rows, path, &info, diag);

	if (!err && info.fmt >= 0)
		m->formats |= 1u << info.fmt;

	/* A row cut short is reported by the check, never dropped unsaid; a
	 * whole one that lacks only its newline is kept. */
	if (!err && info.cut_line) {
		if (m->ncuts == m->cutcap &&
		    sr_grow((void **)&m->cuts, &m->cutcap, m->ncuts + 1, sizeof(*m->cuts), 8))
			return sr_diag_set(diag, SR_ERR_NOMEM, "out of memory");
		m->cuts[m->ncuts].file = m->rows.files.v[m->rows.files.n - 1];
		m->cuts[m->ncuts++].line = info.cut_line;
	}
	return err;
}

unsigned sr_sweep_merge_formats(const struct sr_sweep_merge *m)
{
	return m->formats;
}

void sr_sweep_merge_set_format(struct sr_sweep_merge *m, enum sr_sweep_fmt fmt)
{
	m->fmt = fmt;
}

enum sr_err sr_sweep_merge_plan(struct sr_sweep_merge *m, const char *path,
				struct sr_diag *diag)
{
	enum sr_err err;

	sr_diag_clear(diag);
	if (m->plan)
		return sr_diag_set(diag, SR_ERR_INVAL, "one plan per merge");
	err = sr_plan_read(&m->p, path, diag);
	if (err)
		return err;
	m->plan = 1;
	return SR_OK;
}

/* The index of row r's policy in the order, or m->np. */
static size_t pol_of(const struct sr_sweep_merge *m, const struct sr_row *r)
{
	size_t k;

	for (k = 0; k < m->np; k++)
		if (sr_id_eq(m->pol[k], r->id.v[SR_ID_POLICY]) &&
		    sr_id_eq(m->polh[k], r->id.v[SR_ID_POLICY_HASH]))
			return k;
	return m->np;
}

static int cmp_key(const void *a, const void *b, void *arg)
{
	const struct sr_sweep_merge *m = arg;
	const struct sr_row *x = &m->rows.v[*(const size_t *)a], *y = &m->rows.v[*(const size_t *)b];

	if (x->unit != y->unit)
		return x->unit < y->unit ? -1 : 1;
	if (x->pol != y->pol)
		return x->pol < y->pol ? -1 : 1;
	return (*(const size_t *)a > *(const size_t *)b) - (*(const size_t *)a < *(const size_t *)b);
}

static int cmp_unit(const void *a, const void *b, void *arg)
{
	const struct sr_rows *rows = arg;
	const struct sr_row *x = &rows->v[*(const size_t *)a], *y = &rows->v[*(const size_t *)b];

	if (x->unit != y->unit)
		return x->unit < y->unit ? -1 : 1;
	return (*(const size_t *)a > *(const size_t *)b) - (*(const size_t *)a < *(const size_t *)b);
}

/* The checks need a place for a problem's text. */
struct report {
	sr_sweep_problem_fn fn;
	void *ctx;
	struct sr_sweep_merge_counts c;
};

static void problem(struct report *rp, enum sr_sweep_problem_kind kind, const struct sr_row *r,
		    uint64_t unit, const char *why)
{
	struct sr_sweep_problem p;

	memset(&p, 0, sizeof(p));
	p.kind = kind;
	p.unit = r ? r->unit : unit;
	p.policy = r ? r->id.v[SR_ID_POLICY] : NULL;
	p.file = r ? r->file : NULL;
	p.line = r ? r->lineno : 0;
	p.why = why;
	switch (kind) {
	case SR_SWEEP_DOUBLED: rp->c.doubled++; break;
	case SR_SWEEP_MISSING: rp->c.missing++; break;
	case SR_SWEEP_STRAY: rp->c.stray++; break;
	case SR_SWEEP_FOREIGN: rp->c.foreign++; break;
	case SR_SWEEP_CUT: rp->c.cut++; break;
	}
	if (rp->fn)
		rp->fn(rp->ctx, &p);
}

/* Is row r one of the plan's (its unit, trace, machine, policy, options)?
 * NULL, or what differs in why. */
static const char *plan_foreign(const struct sr_sweep_merge *m, const struct sr_row *r,
				char *why, size_t wsz)
{
	const struct sr_plan_unit *pu = &m->p.u[r->unit];
	struct sr_ident want;
	char diff[400];
	int i;

	for (i = 0; i < SR_ID_COUNT; i++)
		want.v[i] = sr_id_fields[i].scope == SR_IDS_RUN ? m->p.run_v[i] : NULL;
	if (sr_ident_diff(&r->id, &want, SR_IDS_RUN, 0, diff, sizeof(diff))) {
		snprintf(why, wsz, "made with other options than the plan's (%s)", diff);
		return why;
	}
	if (!sr_id_eq(r->id.v[SR_ID_TRACE], pu->trace)) {
		snprintf(why, wsz, "its trace is %s, the plan's unit %" PRIu64 " is %s",
			 r->id.v[SR_ID_TRACE] ? r->id.v[SR_ID_TRACE] : "null", r->unit, pu->trace);
		return why;
	}
	/* A row in error may not know its machine (its file failed). */
	if (pu->mname && ((r->id.v[SR_ID_MACHINE] && !sr_id_eq(r->id.v[SR_ID_MACHINE], pu->mname)) ||
			  (r->id.v[SR_ID_MACHINE_HASH] &&
			   !sr_id_eq(r->id.v[SR_ID_MACHINE_HASH], pu->mhash)))) {
		snprintf(why, wsz, "its machine is %s (%s), the plan's unit %" PRIu64 " has %s (%s)",
			 r->id.v[SR_ID_MACHINE] ? r->id.v[SR_ID_MACHINE] : "null",
			 r->id.v[SR_ID_MACHINE_HASH] ? r->id.v[SR_ID_MACHINE_HASH] : "null", r->unit,
			 pu->mname, pu->mhash);
		return why;
	}
	if (r->pol == m->np) {
		snprintf(why, wsz, "its policy %s%s%s is not one of the plan's",
			 r->id.v[SR_ID_POLICY] ? r->id.v[SR_ID_POLICY] : "null",
			 r->id.v[SR_ID_POLICY_HASH] ? " " : "",
			 r->id.v[SR_ID_POLICY_HASH] ? r->id.v[SR_ID_POLICY_HASH] : "");
		return why;
	}
	return NULL;
}

/* Is row r of the same unit as ref (the first row of its unit number)?
 * NULL, or what differs. */
static const char *unit_foreign(const struct sr_row *r, const struct sr_row *ref, char *why,
				size_t wsz)
{
	static const enum sr_id f[] = { SR_ID_TRACE, SR_ID_TRACE_HASH, SR_ID_MACHINE,
					SR_ID_MACHINE_HASH };
	size_t i;

	for (i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
		const char *a = r->id.v[f[i]], *b = ref->id.v[f[i]];

		/* Null: a row in error that did not know it. */
		if (a && b && strcmp(a, b)) {
			snprintf(why, wsz, "unit %" PRIu64 " has %s %s here, %s at %s:%" PRIu64,
				 r->unit, sr_id_fields[f[i]].name, a, b, ref->file, ref->lineno);
			return why;
		}
	}
	return NULL;
}

/* The policies in the order they first appear (no plan). */
static int rows_policies(struct sr_sweep_merge *m)
{
	size_t i;

	m->pol = calloc(m->rows.n + 1, sizeof(*m->pol));
	m->polh = calloc(m->rows.n + 1, sizeof(*m->polh));
	if (!m->pol || !m->polh)
		return -1;
	for (i = 0; i < m->rows.n; i++)
		if (pol_of(m, &m->rows.v[i]) == m->np) {
			m->pol[m->np] = m->rows.v[i].id.v[SR_ID_POLICY];
			m->polh[m->np++] = m->rows.v[i].id.v[SR_ID_POLICY_HASH];
		}
	return 0;
}

enum sr_err sr_sweep_merge_check(struct sr_sweep_merge *m, sr_sweep_problem_fn fn, void *ctx,
				 struct sr_sweep_merge_counts *counts, struct sr_diag *diag)
{
	struct sr_rows *rows = &m->rows;
	struct report rp;
	unsigned char *bad = calloc(rows->n + 1, 1);
	size_t *ix = malloc((rows->n + 1) * sizeof(*ix)), i, j, n = 0;
	char why[600];

	sr_diag_clear(diag);
	memset(&rp, 0, sizeof(rp));
	rp.fn = fn;
	rp.ctx = ctx;
	free(m->pol);
	free(m->polh);
	m->pol = m->polh = NULL;
	m->np = 0;
	if (m->plan) {
		m->pol = calloc(m->p.np, sizeof(*m->pol));
		m->polh = calloc(m->p.np, sizeof(*m->polh));
		for (i = 0; m->pol && m->polh && i < m->p.np; i++) {
			m->pol[i] = m->p.pname[i];
			m->polh[i] = m->p.phash[i];
		}
		m->np = m->p.np;
	} else if (rows_policies(m)) {
		m->pol = NULL;
	}
	if (!bad || !ix || (!m->pol && m->np) || (!m->plan && !m->pol)) {
		free(bad);
		free(ix);
		return sr_diag_set(diag, SR_ERR_NOMEM, "out of memory");
	}
	for (i = 0; i < m->ncuts; i++) {
		struct sr_row r;

		memset(&r, 0, sizeof(r));
		r.file = m->cuts[i].file;
		r.lineno = m->cuts[i].line;
		problem(&rp, SR_SWEEP_CUT, &r, 0, "a row cut short (a sweep killed while writing it)");
	}
	for (i = 0; i < rows->n; i++)
		rows->v[i].pol = pol_of(m, &rows->v[i]);
	/* Rows of something else than the plan's units, or than the rest. */
	if (m->plan) {
		for (i = 0; i < rows->n; i++) {
			const char *w;

			if (rows->v[i].unit >= m->p.n) {
				bad[i] = 1;
				problem(&rp, SR_SWEEP_STRAY, &rows->v[i], 0, "not in the plan");
			} else if ((w = plan_foreign(m, &rows->v[i], why, sizeof(why)))) {
				bad[i] = 1;
				problem(&rp, SR_SWEEP_FOREIGN, &rows->v[i], 0, w);
			}
		}
	} else {
		for (i = 0; i < rows->n; i++)
			ix[i] = i;
		qsort_r(ix, rows->n, sizeof(*ix), cmp_unit, rows);
		for (i = 0; i < rows->n; i = j) {
			const struct sr_row *ref = &rows->v[ix[i]];

			for (j = i; j < rows->n && rows->v[ix[j]].unit == ref->unit; j++) {
				const struct sr_row *r = &rows->v[ix[j]];
				const char *w = unit_foreign(r, ref, why, sizeof(why));
				char diff[400];

				if (!w && sr_ident_diff(&r->id, &rows->v[0].id, SR_IDS_RUN, 0, diff,
							sizeof(diff))) {
					snprintf(why, sizeof(why), "made with other options than %s:%"
						 PRIu64 " (%s)", rows->v[0].file, rows->v[0].lineno, diff);
					w = why;
				}
				if (w) {
					bad[ix[j]] = 1;
					problem(&rp, SR_SWEEP_FOREIGN, r, 0, w);
				}
			}
		}
	}
	/* Per (unit, policy): one row that replayed, else the last in error. */
	for (i = 0; i < rows->n; i++)
		if (!bad[i])
			ix[n++] = i;
	qsort_r(ix, n, sizeof(*ix), cmp_key, m);
	free(m->pick);
	m->pick = malloc((n + 1) * sizeof(*m->pick));
	m->npick = 0;
	if (!m->pick) {
		free(bad);
		free(ix);
		return sr_diag_set(diag, SR_ERR_NOMEM, "out of memory");
	}
	for (i = 0; i < n; i = j) {
		size_t best = ix[i], oks = 0;

		for (j = i; j < n && rows->v[ix[j]].unit == rows->v[ix[i]].unit &&
			    rows->v[ix[j]].pol == rows->v[ix[i]].pol; j++) {
			const struct sr_row *r = &rows->v[ix[j]];

			if (r->ok && oks++)
				problem(&rp, SR_SWEEP_DOUBLED, r, 0, "more than one row");
			if (r->ok ? oks == 1 : !rows->v[best].ok)
				best = ix[j];
		}
		m->pick[m->npick++] = best;
	}
	if (m->plan) {
		uint64_t u;
		size_t k = 0;

		for (u = 0; u < m->p.n; u++) {
			char lack[400] = "";
			size_t have = 0, p, len = 0;
			unsigned char *got = calloc(m->np + 1, 1);

			while (k < m->npick && rows->v[m->pick[k]].unit < u)
				k++;
			for (; k < m->npick && rows->v[m->pick[k]].unit == u; k++)
				if (got)
					got[rows->v[m->pick[k]].pol] = 1;
			for (p = 0; got && p < m->np; p++) {
				have += got[p];
				if (!got[p] && len < sizeof(lack))
					len += (size_t)snprintf(lack + len, sizeof(lack) - len, "%s%s",
								len ? ", " : "", m->pol[p]);
			}
			free(got);
			if (have < m->np) {
				struct sr_sweep_problem pr;

				memset(&pr, 0, sizeof(pr));
				pr.kind = SR_SWEEP_MISSING;
				pr.unit = u;
				pr.rows = have;
				pr.want = m->np;
				pr.why = lack;
				rp.c.missing++;
				if (fn)
					fn(ctx, &pr);
			}
		}
	}
	free(bad);
	free(ix);
	if (counts)
		*counts = rp.c;
	m->checked = rp.c.doubled || rp.c.stray || rp.c.missing || rp.c.foreign || rp.c.cut ? -1 : 1;
	if (m->checked < 0)
		return sr_diag_set(diag, SR_ERR_FORMAT,
				   "%zu duplicate, stray or foreign row(s), %zu cut short, %zu missing "
				   "unit(s)", rp.c.doubled + rp.c.stray + rp.c.foreign, rp.c.cut,
				   rp.c.missing);
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
		fputs(sr_rows_csv_header(), f);
	/* A row read in the other format, or written before the fields
	 * added since, is written as a sweep in this format writes it. */
	for (i = 0; i < m->npick; i++) {
		const struct sr_row *r = &m->rows.v[m->pick[i]];
		char *line;
		int k;

		if (r->fmt == m->fmt && !r->old) {
			fputs(r->line, f);
			continue;
		}
		k = sr_row_line_as(r, m->fmt, &line);
		if (k) {
			sr_outfile_abort(of);
			if (k == -1)
				return sr_diag_set(diag, SR_ERR_NOMEM, "out of memory");
			sr_diag_file(diag, r->file);
			diag->line = r->lineno;
			return sr_diag_set(diag, SR_ERR_FORMAT,
					   "a row whose figures cannot be read to write it as %s",
					   m->fmt == SR_SWEEP_CSV ? "CSV" : "JSON");
		}
		fputs(line, f);
		free(line);
	}
	return sr_outfile_commit(of, diag);
}

void sr_sweep_merge_free(struct sr_sweep_merge *m)
{
	if (!m)
		return;
	free(m->pol);
	free(m->polh);
	free(m->pick);
	free(m->cuts);
	sr_plan_free(&m->p);
	sr_rows_free(&m->rows);
	free(m);
}
