/* SPDX-License-Identifier: MIT */
/*
 * swapreplay merge RESULTS...: the result files of a plan's units, as one.
 * The options, the messages and the exit status; the merge itself (the
 * checks, the order) is the library's, include/swapreplay/sweep.h.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "swapreplay/sweep.h"

enum { O_OUT = 1, O_PLAN, O_FORMAT };

static const struct cli_opt opts[] = {
	{ "output", 'o', CLI_ARG, O_OUT },
	{ "plan", 0, CLI_ARG, O_PLAN },
	{ "format", 'f', CLI_ARG, O_FORMAT },
	{ NULL, 0, 0, 0 },
};

/* The problems printed so far, by kind: the first 10 doubled rows and the
 * first 20 missing units are named, every stray row. */
struct shown {
	size_t doubled, missing;
	int plan;
};

static void problem(void *ctx, const struct sr_sweep_problem *p)
{
	struct shown *n = ctx;

	switch (p->kind) {
	case SR_SWEEP_DOUBLED:
		if (n->doubled++ < 10)
			cli_err("merge: %s:%" PRIu64 ": unit %" PRIu64 ", policy %s: more than one row",
				p->file, p->line, p->unit, p->policy);
		break;
	case SR_SWEEP_MISSING:
		if (n->missing++ < 20)
			cli_err("merge: unit %" PRIu64 " is missing (%zu of %zu rows; no row of %s)",
				p->unit, p->rows, p->want, p->why);
		break;
	case SR_SWEEP_STRAY:
		cli_err("merge: %s:%" PRIu64 ": unit %" PRIu64 " is not in the plan", p->file, p->line,
			p->unit);
		break;
	case SR_SWEEP_FOREIGN:
		cli_err("merge: %s:%" PRIu64 ": not a row of %s: %s", p->file, p->line,
			n->plan ? "the plan" : "the same sweep", p->why);
		break;
	case SR_SWEEP_CUT:
		cli_err("merge: %s:%" PRIu64 ": %s: resume the sweep that wrote it", p->file, p->line,
			p->why);
		break;
	}
}

/* "merge: " and a diagnostic; returns status. */
static int merge_err(const struct sr_diag *d, const char *more, int status)
{
	char buf[1024];

	sr_diag_format(d, buf, sizeof(buf));
	cli_err("merge: %s%s", buf, more);
	return status;
}

static int run(int argc, char **argv)
{
	struct cli_parser p;
	struct sr_sweep_merge *m = NULL;
	struct shown shown = { 0, 0, 0 };
	enum sr_sweep_fmt fmt = SR_SWEEP_JSONL;
	int fmt_given = 0;
	unsigned seen;
	const char *val, *out = "-", *plan = NULL;
	size_t nfiles = 0, i;
	char **files = calloc((size_t)argc, sizeof(*files));
	struct sr_diag d;
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
			if (sr_sweep_fmt_parse(val, &fmt)) {
				rc = cli_usage("merge", "--format takes jsonl or csv, not '%s'", val);
				goto out;
			}
			fmt_given = 1;
			break;
		}
	}
	if (!nfiles) {
		rc = cli_usage("merge", "needs result files");
		goto out;
	}
	/* Never write over a result file, standard input's included, nor
	 * the plan (a --plan option took an argv slot: files has room). */
	files[nfiles] = (char *)plan;
	rc = cli_check_output(out, (const char *const *)files, nfiles + 1);
	if (rc)
		goto out;
	if (sr_sweep_merge_new(&m, fmt, &d)) {
		cli_err("out of memory");
		rc = EXIT_FAIL;
		goto out;
	}
	/* A result file that cannot be read is a data error, whatever went wrong. */
	for (i = 0; i < nfiles; i++)
		if (sr_sweep_merge_add(m, files[i], &d)) {
			rc = merge_err(&d, "", EXIT_DATA);
			goto out;
		}
	/* Unless told, the output is in the format of the results. */
	seen = sr_sweep_merge_formats(m);
	if (!fmt_given && seen == (1u << SR_SWEEP_CSV | 1u << SR_SWEEP_JSONL)) {
		rc = cli_usage("merge", "the result files are JSON lines and CSV: name the output's "
			       "format, --format=jsonl or --format=csv");
		goto out;
	}
	if (!fmt_given && seen == 1u << SR_SWEEP_CSV)
		sr_sweep_merge_set_format(m, SR_SWEEP_CSV);
	if (plan && sr_sweep_merge_plan(m, plan, &d)) {
		rc = merge_err(&d, "", cli_status(d.code));
		goto out;
	}
	shown.plan = plan != NULL;
	if (sr_sweep_merge_check(m, problem, &shown, NULL, &d)) {
		rc = merge_err(&d, "; nothing written", EXIT_DATA);
		goto out;
	}
	if (sr_sweep_merge_write(m, out, &d))
		rc = cli_diag(&d);
out:
	sr_sweep_merge_free(m);
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
	"`--shard` (or a whole sweep), check each by what it is the result of (with\n"
	"--plan: the plan's trace, machine, policies and options for its unit; without:\n"
	"the options of the first row, one trace and machine per unit number), that no\n"
	"(unit, policy) row appears twice and, with --plan, that every unit of the plan\n"
	"has a row of each of its policies; then write the rows in unit order, policies\n"
	"in the plan's order: the same bytes as a local sweep of the same plan.  A row in\n"
	"error that a later run of its unit replaced gives way.  Nothing is written if a\n"
	"row is missing, doubled, foreign or cut short (exit status 3, each named on\n"
	"standard error).\n"
	"\n"
	"Each RESULT's format is told by its content: JSON lines, or CSV with the\n"
	"header `sweep -f csv` writes; the files may mix the two.\n"
	"\n"
	"Options:\n"
	"  --plan=PLAN           check the rows against the plan PLAN (`sweep --plan`)\n"
	"  -f, --format=FMT      the output's format: jsonl or csv; a row read in the\n"
	"                        other is written as a sweep in FMT writes it.\n"
	"                        Default: the RESULT files' format (jsonl if none has a\n"
	"                        row; files in both need --format)\n"
	"  -o, --output=FILE     write to FILE (whole or not at all; default standard\n"
	"                        output); never one of the RESULT files or the plan\n",
	.run = run,
};
