/* SPDX-License-Identifier: MIT */
/*
 * The summary at the end of a sweep: per policy, how many units it won
 * (the highest throughput of its unit; ties count for each) and its median
 * and worst delta, over the rows of the output (earlier runs' included) or
 * those the run wrote.
 */
#include <stdlib.h>
#include <string.h>

#include "common/internal.h"
#include "sweep/sweep_impl.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static int cmp_unit(const void *a, const void *b)
{
	const struct sr_row *x = *(const struct sr_row *const *)a;
	const struct sr_row *y = *(const struct sr_row *const *)b;

	return (x->unit > y->unit) - (x->unit < y->unit);
}

void sr_rows_summary(FILE *f, const struct sr_rows *rows, const char *const *policies,
		     int np)
{
	const struct sr_row **by = malloc((rows->n + 1) * sizeof(*by));
	int *win = calloc(rows->n + 1, sizeof(*win));
	double *d = malloc((rows->n + 1) * sizeof(*d));
	size_t i, j, g;
	int k, units = 0, failed = 0;

	if (!by || !win || !d)
		goto out;
	for (i = 0; i < rows->n; i++)
		by[i] = &rows->v[i];
	qsort(by, rows->n, sizeof(*by), cmp_unit);
	/* Per unit: the best throughput wins (ties: every best one). */
	for (g = 0; g < rows->n; g = j) {
		double best = -1;
		int bad = 0;

		for (j = g; j < rows->n && by[j]->unit == by[g]->unit; j++) {
			bad |= !by[j]->ok;
			if (by[j]->ok && by[j]->throughput > best)
				best = by[j]->throughput;
		}
		units++;
		failed += bad;
		for (i = g; i < j; i++)
			win[i] = by[i]->ok && by[i]->throughput == best;
	}
	fprintf(f, "%-22s %6s %12s %12s   (%d trace x machine cases, %d failed)\n", "policy",
		"won", "median", "worst", units, failed);
	for (k = 0; k < np; k++) {
		size_t nd = 0;
		int won = 0;

		for (i = 0; i < rows->n; i++) {
			if (!by[i]->ok || strcmp(by[i]->policy, policies[k]))
				continue;
			d[nd++] = by[i]->delta;
			won += win[i];
		}
		if (!nd) {
			fprintf(f, "%-22s %6d %12s %12s\n", policies[k], 0, "-", "-");
			continue;
		}
		qsort(d, nd, sizeof(*d), cmp_double);
		fprintf(f, "%-22s %6d %+11.2f%% %+11.2f%%\n", policies[k], won,
			nd % 2 ? d[nd / 2] : (d[nd / 2 - 1] + d[nd / 2]) / 2, d[0]);
	}
out:
	free(by);
	free(win);
	free(d);
}

enum sr_err sr_sweep_write_summary(const struct sr_sweep *s, FILE *f, struct sr_diag *caller)
{
	struct sr_diag local, *d = caller ? caller : &local;
	struct sr_rows all = { 0 };
	enum sr_err err = SR_OK;
	size_t u;

	sr_diag_clear(d);
	if (!s->finished)
		return sr_diag_set(d, SR_ERR_INVAL, "the run is not finished");
	if (s->out_path && s->out_regular) {
		long long gl;

		err = sr_rows_load(&all, s->out_path, s->fmt, &gl, d);
	} else {
		/* The rows went to the caller's descriptor, or to a file that
		 * is not a regular one: those of this run. */
		for (u = 0; !err && u < s->nunits; u++)
			if (s->out && s->out[u])
				err = sr_rows_parse(&all, s->out[u], s->out_name, s->fmt, d);
	}
	if (!err)
		sr_rows_summary(f, &all, (const char *const *)s->policies.v, (int)s->policies.n);
	sr_rows_free(&all);
	return err;
}
