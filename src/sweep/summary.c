/* SPDX-License-Identifier: MIT */
/*
 * The summary at the end of a sweep, per machine (deltas on two machines
 * are not one population): per policy, how many of its units it won (the
 * one highest throughput), how many it tied (a highest shared with
 * another policy: where all do alike, none won), and its median and worst
 * delta, over the rows that stand in the output (earlier runs' included;
 * rows in error replayed again are replaced).  A delta within its timing
 * noise (--noise: the row's delta_in_noise) is no difference (within
 * noise): it counts as the baseline's throughput for won and tied, and
 * as a delta of 0 for the median and the worst, so that a replica of the
 * trace's timing could not make it a win or a worst.  Also the state of
 * the output, on which the exit status stands, and what a resume found.
 */
#include <stdlib.h>
#include <string.h>

#include "common/diag.h"
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

/* The throughput row i of by[g..j) (one unit's rows) is ranked by: its
 * own, or within its noise the baseline's (its row's, else what its
 * delta says the baseline's was). */
static double ranked_tput(const struct sr_row **by, size_t g, size_t j, size_t i)
{
	size_t b;

	if (!by[i]->in_noise)
		return by[i]->throughput;
	for (b = g; b < j; b++)
		if (by[b]->ok && !by[b]->quiet &&
		    sr_id_eq(by[b]->id.v[SR_ID_POLICY], by[b]->id.v[SR_ID_BASELINE]) &&
		    sr_id_eq(by[b]->id.v[SR_ID_POLICY_HASH], by[b]->id.v[SR_ID_BASELINE_HASH]))
			return by[b]->throughput;
	return by[i]->throughput / (1 + by[i]->delta / 100);
}

/* The summary of the n rows of one machine, in unit order. */
static void machine_summary(FILE *f, const struct sr_row **by, size_t n, int *win, double *d,
			    const char *const *policies, const char *const *hashes, size_t np)
{
	size_t i, j, g, k;
	int units = 0, failed = 0, quiet = 0, noise_on = 0, any_in = 0;

	/* Per unit: the one best throughput wins; a best shared with
	 * another policy is a tie, for each of them (a unit where every
	 * policy does alike is no policy's win). */
	for (g = 0; g < n; g = j) {
		double best = -1;
		int bad = 0, nbest = 0, q = 0;

		/* Rows of a trace without swap events have no figures: they
		 * win, tie and count for no delta. */
		for (j = g; j < n && by[j]->unit == by[g]->unit; j++) {
			bad |= !by[j]->ok;
			q |= by[j]->quiet;
			noise_on |= by[j]->ok && by[j]->noise_on;
			any_in |= by[j]->ok && by[j]->in_noise;
		}
		for (i = g; i < j; i++)
			if (by[i]->ok && !by[i]->quiet && ranked_tput(by, g, j, i) > best)
				best = ranked_tput(by, g, j, i);
		for (i = g; i < j; i++)
			nbest += by[i]->ok && !by[i]->quiet && ranked_tput(by, g, j, i) == best;
		units++;
		failed += bad;
		quiet += q && !bad;
		for (i = g; i < j; i++)
			win[i] = !(by[i]->ok && !by[i]->quiet && ranked_tput(by, g, j, i) == best) ? 0
				 : nbest == 1 ? 1 : 2;
	}
	fprintf(f, "machine %s: %d trace%s, %d failed", by[0]->id.v[SR_ID_MACHINE], units,
		units == 1 ? "" : "s", failed);
	if (quiet)
		fprintf(f, ", %d with no swap activity", quiet);
	fputc('\n', f);
	/* With --noise, how many of its units' deltas were within their
	 * noise ("noise" column), and a line saying what that means. */
	fprintf(f, "  %-22s %5s %5s", "policy", "won", "tied");
	if (noise_on)
		fprintf(f, " %5s", "noise");
	fprintf(f, " %11s %11s\n", "median", "worst");
	for (k = 0; k < np; k++) {
		size_t nd = 0;
		int won = 0, tied = 0, in = 0;

		for (i = 0; i < n; i++) {
			if (!by[i]->ok || by[i]->quiet ||
			    !sr_id_eq(by[i]->id.v[SR_ID_POLICY], policies[k]) ||
			    !sr_id_eq(by[i]->id.v[SR_ID_POLICY_HASH], hashes[k]))
				continue;
			d[nd++] = by[i]->in_noise ? 0 : by[i]->delta;
			won += win[i] == 1;
			tied += win[i] == 2;
			in += by[i]->in_noise;
		}
		fprintf(f, "  %-22s %5d %5d", policies[k], won, tied);
		if (noise_on)
			fprintf(f, " %5d", in);
		if (!nd) {
			fprintf(f, " %11s %11s\n", "-", "-");
			continue;
		}
		qsort(d, nd, sizeof(*d), cmp_double);
		fprintf(f, " %+10.2f%% %+10.2f%%\n",
			nd % 2 ? d[nd / 2] : (d[nd / 2 - 1] + d[nd / 2]) / 2, d[0]);
	}
	if (any_in)
		fprintf(f, "  noise: deltas within their timing noise: %s, counted as 0\n",
			SR_WITHIN_NOISE);
}

/* Rows ordered by machine (its name, then its description's hash), then
 * by unit. */
static int cmp_machine_unit(const void *a, const void *b)
{
	const struct sr_row *x = *(const struct sr_row *const *)a;
	const struct sr_row *y = *(const struct sr_row *const *)b;
	const char *xm = x->id.v[SR_ID_MACHINE], *ym = y->id.v[SR_ID_MACHINE];
	const char *xh = x->id.v[SR_ID_MACHINE_HASH], *yh = y->id.v[SR_ID_MACHINE_HASH];
	int c = strcmp(xm ? xm : "", ym ? ym : "");

	if (!c)
		c = strcmp(xh ? xh : "", yh ? yh : "");
	return c ? c : cmp_unit(a, b);
}

void sr_rows_summary(FILE *f, const struct sr_row *const *rows, size_t n,
		     const char *const *policies, const char *const *hashes, size_t np)
{
	const struct sr_row **by = malloc((n + 1) * sizeof(*by));
	int *win = calloc(n + 1, sizeof(*win));
	double *d = malloc((n + 1) * sizeof(*d));
	size_t g, j;

	if (!by || !win || !d)
		goto out;
	memcpy(by, rows, n * sizeof(*by));
	qsort(by, n, sizeof(*by), cmp_machine_unit);
	/* Per machine: deltas across machines are not comparable figures. */
	for (g = 0; g < n; g = j) {
		for (j = g; j < n && sr_id_eq(by[j]->id.v[SR_ID_MACHINE], by[g]->id.v[SR_ID_MACHINE]) &&
			    sr_id_eq(by[j]->id.v[SR_ID_MACHINE_HASH], by[g]->id.v[SR_ID_MACHINE_HASH]);
		     j++)
			;
		machine_summary(f, by + g, j - g, win + g, d, policies, hashes, np);
	}
out:
	free(by);
	free(win);
	free(d);
}

/* The rows that stand, in unit order; NULL out of memory. */
static const struct sr_row **standing(const struct sr_sweep *s, size_t *n)
{
	size_t np = s->policies.n, i, k = 0;
	const struct sr_row **v = malloc((s->nunits * np + 1) * sizeof(*v));

	*n = 0;
	if (!v)
		return NULL;
	for (i = 0; s->win && i < s->nunits * np; i++)
		if (s->win[i])
			v[k++] = &s->rows.v[s->win[i] - 1];
	*n = k;
	return v;
}

enum sr_err sr_sweep_write_summary(const struct sr_sweep *s, FILE *f, struct sr_diag *caller)
{
	struct sr_diag local, *d = caller ? caller : &local;
	const struct sr_row **v;
	size_t n;

	sr_diag_clear(d);
	if (!s->finished)
		return sr_diag_set(d, SR_ERR_INVAL, "the run is not finished");
	/* From memory: the output is never read back (/dev/full reads as
	 * endless zeros), and a descriptor cannot be. */
	v = standing(s, &n);
	if (!v)
		return sr_diag_set(d, SR_ERR_NOMEM, "out of memory");
	sr_rows_summary(f, v, n, (const char *const *)s->pname, (const char *const *)s->phash,
			s->policies.n);
	free(v);
	return SR_OK;
}

void sr_sweep_state(const struct sr_sweep *s, struct sr_sweep_state *st)
{
	size_t np = s->policies.n, u, k;

	memset(st, 0, sizeof(*st));
	for (u = 0; s->win && u < s->nunits; u++) {
		int any = 0, bad = 0;

		for (k = 0; k < np; k++) {
			size_t w = s->win[u * np + k];

			any |= w != 0;
			bad |= w && !s->rows.v[w - 1].ok;
		}
		st->units += (size_t)any;
		st->failed += (size_t)bad;
	}
}

void sr_sweep_resumed(const struct sr_sweep *s, struct sr_sweep_resumed *r)
{
	memset(r, 0, sizeof(*r));
	r->rows = s->old_rows;
	r->retried = s->retried;
	r->cut_line = s->info.cut_line;
	r->no_final_nl = s->info.no_final_nl;
}
