/* SPDX-License-Identifier: MIT */
/* swapreplay merge RESULTS...: the result files of a plan's units, as one. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cli.h"
#include "sweep/sweep_impl.h"
#include "swapreplay/outfile.h"

enum { O_OUT = 1, O_PLAN, O_FORMAT };

static const struct cli_opt opts[] = {
	{ "output", 'o', CLI_ARG, O_OUT },
	{ "plan", 0, CLI_ARG, O_PLAN },
	{ "format", 'f', CLI_ARG, O_FORMAT },
	{ NULL, 0, 0, 0 },
};

/* The plan's size and policy order. */
static int plan_units(const char *path, size_t *n, char ***pol, size_t *np)
{
	FILE *f = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;

	*n = 0;
	*pol = NULL;
	*np = 0;
	if (!f)
		return -1;
	while ((len = getline(&line, &cap, f)) > 0) {
		if (*n == 0) {
			json_error_t e;
			json_t *o = json_loadb(line, (size_t)len, 0, &e), *pv;
			size_t i;

			pv = json_object_get(o, "policies");
			if (json_is_array(pv)) {
				*pol = calloc(json_array_size(pv) + 1, sizeof(**pol));
				for (i = 0; *pol && i < json_array_size(pv); i++)
					if (json_is_string(json_array_get(pv, i)))
						(*pol)[(*np)++] = strdup(json_string_value(json_array_get(pv, i)));
			}
			json_decref(o);
		}
		(*n)++;
	}
	free(line);
	fclose(f);
	return 0;
}

struct order {
	char **pol;
	size_t np;
};

static struct order *sort_order;

static size_t pol_rank(const char *p)
{
	size_t i;

	for (i = 0; i < sort_order->np; i++)
		if (!strcmp(sort_order->pol[i], p))
			return i;
	return sort_order->np;
}

static int cmp_row(const void *a, const void *b)
{
	const struct sr_row *x = a, *y = b;
	size_t rx, ry;

	if (x->unit != y->unit)
		return x->unit < y->unit ? -1 : 1;
	rx = pol_rank(x->policy);
	ry = pol_rank(y->policy);
	if (rx != ry)
		return rx < ry ? -1 : 1;
	return strcmp(x->policy, y->policy);
}

static int run(int argc, char **argv)
{
	struct cli_parser p;
	struct sr_rows rows = { 0 };
	struct order ord = { NULL, 0 };
	enum sr_sweep_fmt fmt = SR_SWEEP_JSONL;
	const char *val, *out = "-", *plan = NULL;
	size_t nfiles = 0, i, nunits = 0, dups = 0, missing = 0;
	char **files = calloc((size_t)argc, sizeof(*files)), err[512];
	int id, rc = EXIT_OK;

	if (!files) {
		cli_err("out of memory");
		return EXIT_FAIL;
	}
	cli_parser_init(&p, argc, argv, opts);
	while ((id = cli_next(&p, &val)) != -1) {
		switch (id) {
		case -2:
			rc = cli_usage("merge", "%s", p.err);
			goto out;
		case 0:
			files[nfiles++] = (char *)val;
			break;
		case O_OUT:
			out = val;
			break;
		case O_PLAN:
			plan = val;
			break;
		case O_FORMAT:
			if (!strcmp(val, "jsonl") || !strcmp(val, "json")) {
				fmt = SR_SWEEP_JSONL;
			} else if (!strcmp(val, "csv")) {
				fmt = SR_SWEEP_CSV;
			} else {
				rc = cli_usage("merge", "--format takes jsonl or csv, not '%s'", val);
				goto out;
			}
			break;
		}
	}
	if (!nfiles) {
		rc = cli_usage("merge", "needs result files");
		goto out;
	}
	for (i = 0; i < nfiles; i++) {
		struct sr_diag d;
		long long gl;

		if (sr_rows_load(&rows, files[i], fmt, &gl, &d)) {
			sr_diag_format(&d, err, sizeof(err));
			cli_err("merge: %s", err);
			rc = EXIT_DATA;
			goto out;
		}
	}
	if (plan && plan_units(plan, &nunits, &ord.pol, &ord.np)) {
		cli_err("merge: %s: cannot read the plan", plan);
		rc = EXIT_IO;
		goto out;
	}
	if (!ord.np) {
		/* No plan: policies in the order they first appear. */
		ord.pol = calloc(rows.n + 1, sizeof(*ord.pol));
		for (i = 0; ord.pol && i < rows.n; i++) {
			size_t j;

			for (j = 0; j < ord.np && strcmp(ord.pol[j], rows.v[i].policy); j++)
				;
			if (j == ord.np)
				ord.pol[ord.np++] = strdup(rows.v[i].policy);
		}
	}
	sort_order = &ord;
	qsort(rows.v, rows.n, sizeof(*rows.v), cmp_row);
	for (i = 1; i < rows.n; i++)
		if (rows.v[i].unit == rows.v[i - 1].unit &&
		    !strcmp(rows.v[i].policy, rows.v[i - 1].policy)) {
			if (dups++ < 10)
				cli_err("merge: unit %" PRIu64 ", policy %s: more than one row",
					rows.v[i].unit, rows.v[i].policy);
		}
	if (plan) {
		uint64_t u;
		size_t k = 0;

		for (u = 0; u < nunits; u++) {
			size_t have = 0;

			while (k < rows.n && rows.v[k].unit < u)
				k++;
			while (k + have < rows.n && rows.v[k + have].unit == u)
				have++;
			if (have < ord.np) {
				if (missing++ < 20)
					cli_err("merge: unit %" PRIu64 " is missing (%zu of %zu rows)",
						u, have, ord.np);
			}
		}
		for (i = 0; i < rows.n; i++)
			if (rows.v[i].unit >= nunits) {
				cli_err("merge: unit %" PRIu64 " is not in the plan", rows.v[i].unit);
				dups++;
			}
	}
	if (dups || missing) {
		cli_err("merge: %zu duplicate or stray row(s), %zu missing unit(s); nothing written",
			dups, missing);
		rc = EXIT_DATA;
		goto out;
	}
	{
		struct sr_outfile *of;
		struct sr_diag d;
		FILE *f;

		if (sr_outfile_open(&of, out, &d)) {
			rc = cli_diag(&d);
			goto out;
		}
		f = sr_outfile_stream(of);
		if (fmt == SR_SWEEP_CSV)
			fputs(sr_rows_csv_header, f);
		for (i = 0; i < rows.n; i++)
			fputs(rows.v[i].line, f);
		if (sr_outfile_commit(of, &d))
			rc = cli_diag(&d);
	}
out:
	for (i = 0; i < ord.np; i++)
		free(ord.pol[i]);
	free(ord.pol);
	sr_rows_free(&rows);
	free(files);
	return rc;
}

const struct cli_cmd cmd_merge = {
	.name = "merge",
	.summary = "combine the result files of a sweep's units into one",
	.help =
	"Usage: swapreplay merge [--plan=PLAN] [-o OUT] [--format=jsonl|csv] RESULT...\n"
	"\n"
	"Read the rows of RESULT files written by `swapreplay sweep --run-index` or\n"
	"`--shard` (or a whole sweep), check that no (unit, policy) row appears\n"
	"twice and, with --plan, that every unit of the plan is there; then write\n"
	"the rows in unit order, policies in the plan's order: the same bytes as a\n"
	"local sweep of the same plan.  Nothing is written if a row is missing or\n"
	"doubled (exit status 3, the units named on standard error).\n",
	.run = run,
};
