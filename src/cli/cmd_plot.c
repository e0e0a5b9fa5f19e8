/* SPDX-License-Identifier: MIT */
/* swapreplay plot RESULT... -o FILE: a sweep's rows drawn. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "swapreplay/plot.h"

enum { O_OUT = 1, O_QUIET };

static const struct cli_opt opts[] = {
	{ "output", 'o', CLI_ARG, O_OUT },
	{ "quiet", 'q', CLI_NOARG, O_QUIET },
	{ NULL, 0, 0, 0 },
};

static enum sr_err draw_sweep(FILE *f, enum sr_plot_fmt fmt, const void *rows,
			      struct sr_diag *d)
{
	return sr_plot_sweep(f, fmt, rows, d);
}

static int run(int argc, char **argv)
{
	struct cli_parser p;
	struct sr_plot_rows *rows = NULL;
	enum sr_plot_fmt fmt = SR_PLOT_SVG;
	struct sr_diag d;
	const char **files, *out = NULL, *val;
	int id, nfiles = 0, i, rc = EXIT_OK;

	files = calloc((size_t)argc, sizeof(*files));
	if (!files) {
		cli_err("out of memory");
		return EXIT_FAIL;
	}
	cli_parser_init(&p, argc, argv, opts);
	while ((id = cli_next(&p, &val)) != -1) {
		switch (id) {
		case -2:
			rc = cli_usage("plot", "%s", p.err);
			goto out;
		case 0:
			files[nfiles++] = val;
			break;
		case O_OUT:
			out = val;
			rc = cli_opt_plot("plot", out, &fmt);
			if (rc)
				goto out;
			break;
		case O_QUIET:
			cli_quiet = 1;
			break;
		}
	}
	if (!nfiles) {
		rc = cli_usage("plot", "needs a sweep's result file (swapreplay sweep -o FILE writes one)");
		goto out;
	}
	if (!out) {
		rc = cli_usage("plot", "needs -o FILE.svg, FILE.png or FILE.pdf");
		goto out;
	}
	rc = cli_check_output(out, files, (size_t)nfiles);
	if (rc)
		goto out;
	if (sr_plot_rows_new(&rows, &d)) {
		rc = cli_diag(&d);
		goto out;
	}
	for (i = 0; i < nfiles; i++)
		if (sr_plot_rows_read(rows, files[i], &d)) {
			rc = cli_diag(&d);
			goto out;
		}
	if (sr_plot_rows_doubled(rows))
		cli_warn("%zu rows were given more than once (the same trace, machine, policy, "
			 "options and figures): each counted once", sr_plot_rows_doubled(rows));
	if (sr_plot_rows_errors(rows))
		cli_warn("%zu of %zu rows are in error (their units did not replay): left out",
			 sr_plot_rows_errors(rows), sr_plot_rows_count(rows));
	if (sr_plot_rows_quiet(rows))
		cli_warn("%zu of %zu rows are of traces with no swap activity (no delta): left out",
			 sr_plot_rows_quiet(rows), sr_plot_rows_count(rows));
	rc = cli_write_plot(out, fmt, draw_sweep, rows);
out:
	sr_plot_rows_free(rows);
	free(files);
	return rc;
}

const struct cli_cmd cmd_plot = {
	.name = "plot",
	.summary = "draw a sweep's results: each policy's delta per machine across traces",
	.help =
	"Usage: swapreplay plot RESULT... -o FILE\n"
	"\n"
	"Draw the rows of sweep results (JSON lines or CSV, as `swapreplay sweep`\n"
	"and `swapreplay merge` write them; '-' for standard input; zstd-compressed\n"
	"or not) as a chart: for each machine a group of bars, one per policy but\n"
	"the baseline, each the mean of the policy's throughput delta against the\n"
	"baseline over the traces, with a whisker from the smallest delta to the\n"
	"largest and a dot for each trace.  Rows are read as `sweep --resume` and\n"
	"`merge` read them: a row they refuse (a field or a figure missing, a row\n"
	"cut short), plot refuses, naming its file and line.  Rows in error and\n"
	"rows of traces with no swap activity are left out, and said so on standard\n"
	"error.  A row is counted once however many files give it, in either format\n"
	"(rows are told by what they are the result of: trace, machine, policy and\n"
	"options); two rows of the same identity with other figures are refused,\n"
	"naming both.  One chart is of one setting: every row must be against the\n"
	"same baseline and of the same options (kernel, readahead, slots cache,\n"
	"plug, uncertainty, ...) as the first, and a trace, machine or policy name\n"
	"must name one content (hash); other rows are refused (plot each setting\n"
	"apart).\n"
	"\n"
	"Options:\n"
	"  -o, --output=FILE     the chart: FILE.svg, FILE.png or FILE.pdf (the\n"
	"                        format by the name; whole or not at all)\n"
	"  -q, --quiet           no warnings on standard error (rows given twice,\n"
	"                        in error or without swap activity, left out)\n"
	"\n"
	"`swapreplay replay --plot=FILE` draws a replay's swap-in latency and\n"
	"device utilisation, `swapreplay stat --plot=FILE` a trace's timeline\n"
	"(docs/REPORT.md, \"Plots\").\n",
	.run = run,
};
