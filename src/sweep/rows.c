/* SPDX-License-Identifier: MIT */
/* Result rows of sweeps read back: for --resume, merge and the summary
 * (src/cli/cmd_sweep.c, src/cli/cmd_merge.c). */
#include <csv.h>
#include <errno.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "sweep/sweep_impl.h"

/* Checklist: the columns of row_csv() in cmd_sweep.c, in order. */
const char sweep_csv_header[] =
	"unit,trace,trace_hash,machine,policy,baseline,slots_cache,status,error,events,"
	"throughput_kib_s,delta_pct,makespan_ns,swapouts,swapins,unmatched_swapins,"
	"swap_full,moved_out_pct,swapin_mean_ns,swapin_p50_ns,swapin_p90_ns,swapin_p99_ns\n";

enum { C_UNIT = 0, C_MACHINE = 3, C_POLICY = 4, C_STATUS = 7, C_TPUT = 10, C_DELTA = 11,
       C_COUNT = 22 };

struct csvline {
	char *f[C_COUNT];
	int n;
};

static void on_field(void *s, size_t len, void *data)
{
	struct csvline *l = data;

	if (l->n < C_COUNT)
		l->f[l->n] = strndup(s ? s : "", len);
	l->n++;
}

static void on_row(int c, void *data)
{
	(void)c;
	(void)data;
}

static int add(struct sweep_rows *rows, struct sweep_row *r)
{
	if (rows->n == rows->cap) {
		size_t ncap = rows->cap ? rows->cap * 2 : 64;
		struct sweep_row *nv = realloc(rows->v, ncap * sizeof(*nv));

		if (!nv)
			return -1;
		rows->v = nv;
		rows->cap = ncap;
	}
	rows->v[rows->n++] = *r;
	return 0;
}

static int parse_jsonl(const char *line, size_t len, struct sweep_row *r)
{
	json_error_t e;
	json_t *o = json_loadb(line, len, 0, &e), *v;
	int rc = -1;

	if (!json_is_object(o))
		goto out;
	v = json_object_get(o, "unit");
	if (!json_is_integer(v) || json_integer_value(v) < 0)
		goto out;
	r->unit = (uint64_t)json_integer_value(v);
	v = json_object_get(o, "machine");
	r->machine = strdup(json_is_string(v) ? json_string_value(v) : "");
	v = json_object_get(o, "policy");
	r->policy = strdup(json_is_string(v) ? json_string_value(v) : "");
	v = json_object_get(o, "status");
	r->ok = json_is_string(v) && !strcmp(json_string_value(v), "ok");
	r->throughput = json_number_value(json_object_get(o, "throughput_kib_s"));
	r->delta = json_number_value(json_object_get(o, "delta_pct"));
	rc = r->machine && r->policy ? 0 : -1;
out:
	json_decref(o);
	return rc;
}

static int parse_csv(const char *line, size_t len, struct sweep_row *r)
{
	struct csv_parser p;
	struct csvline l;
	int i, rc = -1;

	memset(&l, 0, sizeof(l));
	if (csv_init(&p, CSV_APPEND_NULL))
		return -1;
	csv_parse(&p, line, len, on_field, on_row, &l);
	csv_fini(&p, on_field, on_row, &l);
	csv_free(&p);
	if (l.n == C_COUNT && l.f[C_UNIT] && strcmp(l.f[C_UNIT], "unit") != 0) {
		char *end;

		r->unit = strtoull(l.f[C_UNIT], &end, 10);
		if (!*end && l.f[C_UNIT][0]) {
			r->machine = l.f[C_MACHINE];
			r->policy = l.f[C_POLICY];
			l.f[C_MACHINE] = l.f[C_POLICY] = NULL;
			r->ok = !strcmp(l.f[C_STATUS], "ok");
			r->throughput = strtod(l.f[C_TPUT], NULL);
			r->delta = strtod(l.f[C_DELTA], NULL);
			rc = 0;
		}
	} else if (l.n == C_COUNT) {
		rc = 1; /* the header */
	}
	for (i = 0; i < C_COUNT && i < l.n; i++)
		free(l.f[i]);
	return rc;
}

int sweep_rows_load(const char *path, enum sweep_fmt fmt, struct sweep_rows *rows,
		    long long *good_len, char *err, size_t errsize)
{
	FILE *f = fopen(path, "rb");
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	long long pos = 0, lineno = 0;

	*good_len = 0;
	if (!f) {
		snprintf(err, errsize, "%s: cannot open: %s", path, strerror(errno));
		return -1;
	}
	while ((n = getline(&line, &cap, f)) > 0) {
		struct sweep_row r;
		int rc;

		lineno++;
		if (line[n - 1] != '\n')
			break; /* cut short by a kill: dropped */
		memset(&r, 0, sizeof(r));
		rc = fmt == SWEEP_CSV ? parse_csv(line, (size_t)n, &r) : parse_jsonl(line, (size_t)n, &r);
		if (rc < 0) {
			snprintf(err, errsize, "%s:%lld: not a result row", path, lineno);
			free(r.machine);
			free(r.policy);
			free(line);
			fclose(f);
			return -1;
		}
		pos += n;
		if (rc == 1)
			continue;
		r.line = strndup(line, (size_t)n);
		if (!r.line || add(rows, &r)) {
			snprintf(err, errsize, "out of memory");
			free(r.machine);
			free(r.policy);
			free(r.line);
			free(line);
			fclose(f);
			return -1;
		}
	}
	free(line);
	fclose(f);
	*good_len = pos;
	return 0;
}

void sweep_rows_free(struct sweep_rows *rows)
{
	size_t i;

	for (i = 0; i < rows->n; i++) {
		free(rows->v[i].machine);
		free(rows->v[i].policy);
		free(rows->v[i].line);
	}
	free(rows->v);
	memset(rows, 0, sizeof(*rows));
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static int cmp_unit(const void *a, const void *b)
{
	const struct sweep_row *x = *(const struct sweep_row *const *)a;
	const struct sweep_row *y = *(const struct sweep_row *const *)b;

	return (x->unit > y->unit) - (x->unit < y->unit);
}

void sweep_summary(FILE *f, const struct sweep_rows *rows, const char *const *policies,
		   int np)
{
	const struct sweep_row **by = malloc((rows->n + 1) * sizeof(*by));
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
