/* SPDX-License-Identifier: MIT */
/*
 * swapreplay compare BEFORE AFTER: two replay reports (JSON) compared.
 * The options, the refusals and the exit status; reading the reports and
 * writing the comparison are the library's, include/swapreplay/compare.h.
 */
#include <string.h>

#include "cli.h"
#include "swapreplay/compare.h"
#include "swapreplay/outfile.h"

enum { O_FORMAT = 1, O_OUT, O_DIFFERENT, O_QUIET };

static const struct cli_opt opts[] = {
	{ "format", 'f', CLI_ARG, O_FORMAT },
	{ "output", 'o', CLI_ARG, O_OUT },
	{ "different-traces", 0, CLI_NOARG, O_DIFFERENT },
	{ "quiet", 'q', CLI_NOARG, O_QUIET },
	{ NULL, 0, 0, 0 },
};

/* "compare: " and a diagnostic; its exit status. */
static int compare_err(const struct sr_diag *d)
{
	char buf[1024];

	sr_diag_format(d, buf, sizeof(buf));
	cli_err("compare: %s", buf);
	return cli_status(d->code);
}

static int run(int argc, char **argv)
{
	struct cli_parser p;
	struct sr_compare_report *r[2] = { NULL, NULL };
	struct sr_outfile *of = NULL;
	enum sr_compare_fmt fmt = SR_COMPARE_TEXT;
	const char *val, *out = "-", *file[2] = { NULL, NULL };
	char why[1024];
	struct sr_diag d;
	enum sr_err err;
	int id, n = 0, different = 0, rc = EXIT_OK, i;

	cli_parser_init(&p, argc, argv, opts);
	while ((id = cli_next(&p, &val)) != -1) {
		switch (id) {
		case -2:
			return cli_usage("compare", "%s", p.err);
		case 0:
			if (n == 2)
				return cli_usage("compare", "takes two reports, BEFORE and AFTER "
						 "('%s' is a third)", val);
			file[n++] = val;
			break;
		case O_FORMAT:
			if (sr_compare_fmt_parse(val, &fmt))
				return cli_usage("compare", "--format takes text, json or csv, not '%s'",
						 val);
			break;
		case O_OUT:
			out = val;
			break;
		case O_DIFFERENT:
			different = 1;
			break;
		case O_QUIET:
			cli_quiet = 1;
			break;
		}
	}
	if (n < 2)
		return cli_usage("compare", "takes two reports, BEFORE and AFTER (written by "
				 "`swapreplay replay -f json`)");
	if (!strcmp(file[0], "-") && !strcmp(file[1], "-"))
		return cli_usage("compare", "only one of the reports can be standard input ('-')");
	rc = cli_check_output(out, file, 2);
	if (rc)
		return rc;
	for (i = 0; i < 2; i++) {
		err = sr_compare_report_read(&r[i], file[i], &d);
		if (err) {
			rc = compare_err(&d);
			goto out;
		}
	}
	if (sr_compare_trace_diff(r[0], r[1], why, sizeof(why))) {
		if (!different) {
			cli_err("compare: %s and %s are reports of different traces (%s): their figures "
				"do not compare; --different-traces compares them anyway", file[0],
				file[1], why);
			rc = EXIT_USAGE;
			goto out;
		}
		cli_warn("compare: %s and %s are reports of different traces (%s); compared as "
			 "--different-traces asks", file[0], file[1], why);
	}
	if (strcmp(sr_compare_baseline(r[0]), sr_compare_baseline(r[1])))
		cli_warn("compare: the baselines differ (%s in %s, %s in %s): the deltas are "
			 "against different policies", sr_compare_baseline(r[0]), file[0],
			 sr_compare_baseline(r[1]), file[1]);
	err = sr_outfile_open(&of, out, &d);
	if (err) {
		rc = cli_diag(&d);
		goto out;
	}
	err = sr_compare_write(sr_outfile_stream(of), r[0], r[1], fmt);
	if (err) {
		sr_outfile_abort(of);
		if (err == SR_ERR_NOMEM)
			cli_err("out of memory");
		else
			cli_err("%s: write failed", out);
		rc = cli_status(err);
		goto out;
	}
	err = sr_outfile_commit(of, &d);
	if (err)
		rc = cli_diag(&d);
out:
	sr_compare_report_free(r[0]);
	sr_compare_report_free(r[1]);
	return rc;
}

const struct cli_cmd cmd_compare = {
	.name = "compare",
	.summary = "compare two replay reports (JSON) of one trace, figure by figure",
	.help =
	"Usage: swapreplay compare BEFORE AFTER [-f text|json|csv] [-o FILE]\n"
	"                          [--different-traces]\n"
	"\n"
	"Compare two reports written by `swapreplay replay -f json` of one trace (two\n"
	"kernels, two machines, a patch and its baseline).  For each policy in both:\n"
	"its throughput (swap-out and swap-in), the tasks' summed throughputs (with\n"
	"--per-task), its makespan, its delta against its report's baseline, the\n"
	"delta's range and agreement (reports made with --uncertainty=N), its\n"
	"swap-in latency (mean, p50, p90, p99, max) and each device's utilisation and\n"
	"(nvme, ssd, hdd) the share of its requests' time spent queued: before, after\n"
	"and the change, (after / before - 1) x 100 %, of the figures as the reports\n"
	"give them; the delta's change is after - before, in points.  The header says\n"
	"each report's uncertainty, or that it was not estimated.  With reports made\n"
	"with --noise, the header says each one's noise and the delta section gives\n"
	"each policy's timing noise (+-) under its delta; a delta within its noise,\n"
	"or a change of the delta within the larger of the two reports' noise, is no\n"
	"difference (within noise): marked * in text, said in JSON\n"
	"(delta_within_noise: before, after, change) and CSV (a delta_within_noise\n"
	"row).  Policies and devices in one report only are listed as such.  BEFORE\n"
	"or AFTER may be '-' (standard input) and zstd-compressed.\n"
	"\n"
	"Reports of different traces (another event count or task count; the paths\n"
	"may differ) are refused, exit status 2, unless --different-traces is given.\n"
	"A file that is not a replay report (schema swapreplay-report/1) is refused\n"
	"with status 3, one that cannot be read with status 4.\n"
	"\n"
	"Options:\n"
	"  -f, --format=FMT      text (default: aligned columns within 76 characters,\n"
	"                        plain text to paste into a mail), json (schema\n"
	"                        swapreplay-compare/1) or csv (a row per figure)\n"
	"  -o, --output=FILE     write the comparison to FILE (whole or not at all)\n"
	"  --different-traces    compare reports of different traces anyway, saying\n"
	"                        on standard error what differs\n"
	"  -q, --quiet           no warnings on standard error (what differs in\n"
	"                        traces or baselines)\n"
	"\n"
	"See docs/REPORT.md, \"Comparing two reports\".\n",
	.run = run,
};
