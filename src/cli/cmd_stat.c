/* SPDX-License-Identifier: MIT */
/* swapreplay stat TRACE... */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "vmstat_opts.h"
#include "swapreplay/report.h"
#include "swapreplay/stat.h"
#include "swapreplay/trace.h"

#define BATCH 4096
#define MAX_DEVS_SHOWN 4096

enum { O_FORMAT = 1, O_INFMT, O_MAXERR, O_TIMELINE, O_PLOT, O_QUIET };

static const struct cli_opt opts[] = {
	{ "format", 0, CLI_ARG, O_FORMAT },
	{ "input-format", 0, CLI_ARG, O_INFMT },
	{ "max-errors", 0, CLI_ARG, O_MAXERR },
	{ "timeline", 0, CLI_OPTARG, O_TIMELINE },
	{ "plot", 0, CLI_ARG, O_PLOT },
	{ "quiet", 'q', CLI_NOARG, O_QUIET },
	CLI_VMSTAT_OPTS,
	{ NULL, 0, 0, 0 },
};

/* ---- --timeline: swap-out and swap-in rates per time bucket ---------- */

/* Without --timeline=S: buckets of 1 s at most, and at least TL_AUTO_MIN of
 * them over a shorter trace (sr_timeline_new_auto()); a vmstat log's are
 * 1 s, its lines' interval by default. */
#define TL_DEFAULT_NS 1000000000ull
#define TL_AUTO_MIN 50

/* The unit of the bucket width and the start column: seconds while they
 * show buckets of a millisecond or more (3 decimals), else us, else ns. */
static void tl_unit(uint64_t width_ns, double *ns, const char **name)
{
	if (width_ns >= 1000000) {
		*ns = 1e9;
		*name = "s";
	} else if (width_ns >= 1000) {
		*ns = 1e3;
		*name = "us";
	} else {
		*ns = 1;
		*name = "ns";
	}
}

static void tl_print(FILE *f, const struct sr_timeline *t, int json)
{
	struct sr_timeline_info ti;
	const char *un;
	double u;
	size_t i;
	int op;

	sr_timeline_get(t, &ti);
	tl_unit(ti.width_ns, &u, &un);
	if (json) {
		fprintf(f, ",\"timeline\":{\"bucket_ns\":%" PRIu64 ",\"start_ns\":%" PRIu64,
			ti.width_ns, ti.base_ns);
		for (op = 0; op < 2; op++) {
			fprintf(f, ",\"%s_kib_s\":[", op ? "in" : "out");
			for (i = 0; i < ti.buckets; i++)
				fprintf(f, "%s%.1f", i ? "," : "", sr_timeline_kib_s(t, i, op));
			fputc(']', f);
		}
		fputc('}', f);
		return;
	}
	fprintf(f, "timeline:         %g %s buckets from ts %" PRIu64 " ns%s\n",
		(double)ti.width_ns / u, un, ti.base_ns,
		ti.widened ? " (widened to keep under 100000 buckets)" : "");
	fprintf(f, "  %12s %14s %14s\n", un[0] == 's' ? "start (s)" : un[0] == 'u' ? "start (us)" : "start (ns)",
		"out KiB/s", "in KiB/s");
	for (i = 0; i < ti.buckets; i++)
		fprintf(f, "  %12.*f %14.1f %14.1f\n", u > 1 ? 3 : 0,
			(double)i * (double)ti.width_ns / u,
			sr_timeline_kib_s(t, i, SR_OP_OUT), sr_timeline_kib_s(t, i, SR_OP_IN));
}

/* --plot=FILE: the timelines of every trace (sr_plot_timeline). */
struct plot_arg {
	const char *const *names;
	const struct sr_timeline *const *tl;
	size_t n;
};

static enum sr_err draw_plot(FILE *f, enum sr_plot_fmt fmt, const void *arg, struct sr_diag *d)
{
	const struct plot_arg *a = arg;

	return sr_plot_timeline(f, fmt, a->names, a->tl, a->n, d);
}

static void print_nodes(FILE *f, const struct sr_stat *s, int which, int json)
{
	unsigned n;
	int first = 1;

	for (n = 0; n < SR_MAX_NODES; n++) {
		uint64_t c = sr_stat_node_events(s, which, n);

		if (!c)
			continue;
		if (json)
			fprintf(f, "%s\"%u\":%" PRIu64, first ? "" : ",", n, c);
		else
			fprintf(f, "%s%u (%" PRIu64 ")", first ? "" : ", ", n, c);
		first = 0;
	}
}

/* The memory cgroups shown at most (then "... (N in all)"), as devices. */
#define STAT_MEMCGS 64

/* The memcgs of a trace that has any (traces/FORMAT.md, "Memory cgroups"):
 * per memcg its path when the trace names it, its events and pages by op;
 * the events without one as "none". */
static void print_memcgs(FILE *f, const struct sr_stat *s, const struct sr_memcgs *names,
			 int json)
{
	struct sr_stat_memcg mc[STAT_MEMCGS];
	size_t n = sr_stat_memcgs(s, mc, STAT_MEMCGS), shown = n < STAT_MEMCGS ? n : STAT_MEMCGS;
	size_t i, named;

	if (!n)
		return;
	/* The memcgs named, less "none" (listed first when some events have
	 * no memcg). */
	named = n - (!mc[0].id);
	if (json) {
		fputs(",\"memcgs\":{", f);
		for (i = 0; i < shown; i++) {
			const char *path = sr_memcgs_path(names, mc[i].id);

			if (mc[i].id)
				fprintf(f, "%s\"%u\":{", i ? "," : "", mc[i].id);
			else
				fprintf(f, "%s\"none\":{", i ? "," : "");
			if (path) {
				fputs("\"path\":", f);
				sr_report_json_string(f, path);
				fputc(',', f);
			}
			fprintf(f, "\"events\":{\"out\":%" PRIu64 ",\"in\":%" PRIu64 "},"
				"\"pages\":{\"out\":%" PRIu64 ",\"in\":%" PRIu64 "}}",
				mc[i].events[0], mc[i].events[1], mc[i].pages[0], mc[i].pages[1]);
		}
		fprintf(f, "},\"memcgs_total\":%zu", named);
		return;
	}
	fprintf(f, "memcgs:           %zu\n", named);
	for (i = 0; i < shown; i++) {
		const char *path = sr_memcgs_path(names, mc[i].id);

		if (mc[i].id)
			fprintf(f, "  %u%s%s", mc[i].id, path ? " " : "", path ? path : "");
		else
			fputs("  none", f);
		fprintf(f, ": pages out %" PRIu64 ", in %" PRIu64 "; events out %" PRIu64 ", in %"
			PRIu64 "\n",
			mc[i].pages[0], mc[i].pages[1], mc[i].events[0], mc[i].events[1]);
	}
	if (n > shown)
		fprintf(f, "  ... (%zu in all)\n", named);
}

static void print_one(FILE *f, const char *name, const struct sr_read_stats *rs,
		      const struct sr_stat *s, const struct sr_memcgs *names,
		      const struct sr_timeline *tl, int json, int first)
{
	struct sr_stat_summary m;
	int32_t devs[64];
	uint64_t counts[64];
	size_t ndev, i, shown;
	double span;
	uint64_t task_ops, reclaims, faults;

	sr_stat_summary(s, &m);
	task_ops = m.task_ops[0] + m.task_ops[1] + m.task_ops[2];
	reclaims = m.out_reclaim[0] + m.out_reclaim[1];
	faults = m.in_fault[0] + m.in_fault[1];
	ndev = sr_stat_devices(s, devs, counts, 64);
	shown = ndev < 64 ? ndev : 64;
	span = (double)(m.ts_max - m.ts_min) / 1e9;
	if (json) {
		fprintf(f, "%s{\"trace\":", first ? "" : ",\n");
		sr_report_json_string(f, name);
		fprintf(f, ",\"format\":\"%s\",\"compressed\":%s", sr_format_name(rs->format),
			rs->compressed ? "true" : "false");
		fprintf(f, ",\"events\":{\"out\":%" PRIu64 ",\"in\":%" PRIu64 "}",
			m.events[0], m.events[1]);
		if (!(m.events[0] + m.events[1]))
			fputs(",\"no_swap_activity\":true", f);
		fprintf(f, ",\"pages\":{\"out\":%" PRIu64 ",\"in\":%" PRIu64 "}",
			m.pages[0], m.pages[1]);
		fprintf(f, ",\"bytes\":{\"out\":%" PRIu64 ",\"in\":%" PRIu64 "}",
			m.pages[0] * SR_PAGE_SIZE, m.pages[1] * SR_PAGE_SIZE);
		fprintf(f, ",\"huge_events\":{\"out\":%" PRIu64 ",\"in\":%" PRIu64 "}",
			m.huge_events[0], m.huge_events[1]);
		if (reclaims)
			fprintf(f, ",\"reclaim\":{\"kswapd\":%" PRIu64 ",\"direct\":%" PRIu64
				",\"unknown\":%" PRIu64 "}", m.out_reclaim[0], m.out_reclaim[1],
				m.events[0] - reclaims);
		if (faults)
			fprintf(f, ",\"fault\":{\"write\":%" PRIu64 ",\"read\":%" PRIu64
				",\"unknown\":%" PRIu64 "}", m.in_fault[0], m.in_fault[1],
				m.events[1] - faults);
		fprintf(f, ",\"ts_first_ns\":%" PRIu64 ",\"ts_last_ns\":%" PRIu64
			",\"span_ns\":%" PRIu64, m.ts_min, m.ts_max, m.ts_max - m.ts_min);
		fprintf(f, ",\"tasks\":%" PRIu64 ",\"cpus\":%" PRIu64, m.tasks, m.cpus);
		if (task_ops)
			fprintf(f, ",\"task_ops\":{\"fork\":%" PRIu64 ",\"exit\":%" PRIu64
				",\"wait\":%" PRIu64 "}", m.task_ops[0], m.task_ops[1], m.task_ops[2]);
		fputs(",\"cpu_nodes\":{", f);
		print_nodes(f, s, 0, 1);
		fputs("},\"page_nodes\":{", f);
		print_nodes(f, s, 1, 1);
		fputs("},\"devices\":{", f);
		for (i = 0; i < shown; i++)
			fprintf(f, "%s\"%" PRId32 "\":%" PRIu64, i ? "," : "", devs[i], counts[i]);
		fprintf(f, "},\"devices_total\":%zu", ndev);
		print_memcgs(f, s, names, 1);
		fprintf(f, ",\"lat_known\":%" PRIu64 ",\"lat_mean_ns\":%" PRIu64,
			m.lat_known, m.lat_known ? m.lat_sum_ns / m.lat_known : 0);
		fprintf(f, ",\"ts_backwards\":%" PRIu64 ",\"skipped\":%" PRIu64,
			rs->ts_backwards, rs->skipped);
		if (rs->derived[0]) {
			fputs(",\"derived\":", f);
			sr_report_json_string(f, rs->derived);
		}
		if (tl)
			tl_print(f, tl, 1);
		fputc('}', f);
		return;
	}
	if (!first)
		fputc('\n', f);
	fprintf(f, "trace:            %s\n", name);
	fprintf(f, "format:           %s%s\n", sr_format_name(rs->format),
		rs->compressed ? " (zstd)" : "");
	fprintf(f, "events:           %" PRIu64 " (out %" PRIu64 ", in %" PRIu64 ")%s\n",
		m.events[0] + m.events[1], m.events[0], m.events[1],
		m.events[0] + m.events[1] ? "" : ": no swap activity");
	fprintf(f, "pages:            out %" PRIu64 ", in %" PRIu64 "\n", m.pages[0], m.pages[1]);
	fprintf(f, "bytes:            out %" PRIu64 " (%.1f MiB), in %" PRIu64 " (%.1f MiB)\n",
		m.pages[0] * SR_PAGE_SIZE, (double)m.pages[0] * SR_PAGE_SIZE / 1048576.0,
		m.pages[1] * SR_PAGE_SIZE, (double)m.pages[1] * SR_PAGE_SIZE / 1048576.0);
	fprintf(f, "huge-page events: out %" PRIu64 ", in %" PRIu64 "\n",
		m.huge_events[0], m.huge_events[1]);
	/* Only for a trace that has them: the others' output as before. */
	if (reclaims)
		fprintf(f, "swap-out reclaim: kswapd %" PRIu64 ", direct %" PRIu64 ", unknown %" PRIu64
			"\n", m.out_reclaim[0], m.out_reclaim[1], m.events[0] - reclaims);
	if (faults)
		fprintf(f, "swap-in faults:   write %" PRIu64 ", read %" PRIu64 ", unknown %" PRIu64
			"\n", m.in_fault[0], m.in_fault[1], m.events[1] - faults);
	fprintf(f, "time span:        %.6f s (first %" PRIu64 " ns, last %" PRIu64 " ns)\n",
		span, m.ts_min, m.ts_max);
	fprintf(f, "tasks:            %" PRIu64 "\n", m.tasks);
	if (task_ops)
		fprintf(f, "task ops:         fork %" PRIu64 ", exit %" PRIu64 ", wait %" PRIu64 "\n",
			m.task_ops[0], m.task_ops[1], m.task_ops[2]);
	fprintf(f, "cpus:             %" PRIu64 "\n", m.cpus);
	fputs("cpu nodes:        ", f);
	print_nodes(f, s, 0, 0);
	fputs("\npage nodes:       ", f);
	print_nodes(f, s, 1, 0);
	fputs("\ndevices:          ", f);
	for (i = 0; i < shown; i++)
		fprintf(f, "%s%" PRId32 " (%" PRIu64 ")", i ? ", " : "", devs[i], counts[i]);
	if (ndev > shown)
		fprintf(f, ", ... (%zu in all)", ndev);
	fputc('\n', f);
	print_memcgs(f, s, names, 0);
	if (m.lat_known)
		fprintf(f, "recorded latency: %" PRIu64 " events, mean %.1f us\n", m.lat_known,
			(double)(m.lat_sum_ns / m.lat_known) / 1000.0);
	else
		fputs("recorded latency: none\n", f);
	if (rs->ts_backwards)
		fprintf(f, "ts backwards:     %" PRIu64 "\n", rs->ts_backwards);
	if (rs->skipped)
		fprintf(f, "skipped records:  %" PRIu64 "\n", rs->skipped);
	if (rs->derived[0])
		fprintf(f, "origin:           %s\n", rs->derived);
	if (tl)
		tl_print(f, tl, 0);
}

static int run(int argc, char **argv)
{
	struct cli_parser p;
	struct sr_read_opts ro = { .format = SR_FMT_AUTO, .max_errors = 0, .decompress_thread = 1 };
	struct sr_event *evs;
	const char *val;
	const char **files, *plot = NULL;
	struct sr_timeline **tls = NULL; /* with --plot: every trace's, kept to the end */
	enum sr_plot_fmt plot_fmt = SR_PLOT_SVG;
	int id, nfiles = 0, json = 0, rc = EXIT_OK, i, timeline = 0;
	uint64_t tl_width = 0; /* --timeline=S; 0: adaptive */

	files = calloc((size_t)argc, sizeof(*files));
	tls = calloc((size_t)argc, sizeof(*tls));
	evs = malloc(BATCH * sizeof(*evs));
	if (!files || !tls || !evs) {
		free(files);
		free(tls);
		free(evs);
		cli_err("out of memory");
		return EXIT_FAIL;
	}
	cli_parser_init(&p, argc, argv, opts);
	while ((id = cli_next(&p, &val)) != -1) {
		switch (id) {
		case -2:
			rc = cli_usage("stat", "%s", p.err);
			goto out;
		case 0:
			files[nfiles++] = val;
			break;
		case O_FORMAT:
			if (strcmp(val, "json") == 0)
				json = 1;
			else if (strcmp(val, "text") == 0)
				json = 0;
			else {
				rc = cli_usage("stat", "--format takes text or json, not '%s'", val);
				goto out;
			}
			break;
		case O_INFMT:
			if (sr_format_parse(val, &ro.format)) {
				rc = cli_usage("stat", "--input-format takes auto, csv, jsonl, swt or vmstat, not '%s'", val);
				goto out;
			}
			break;
		case O_TIMELINE:
			timeline = 1;
			if (val && cli_parse_seconds(val, &tl_width)) {
				rc = cli_usage("stat", "--timeline takes seconds above 0 (such as 1, 0.5 or 60), not '%s'", val);
				goto out;
			}
			break;
		case O_PLOT:
			plot = val;
			rc = cli_opt_plot("stat", plot, &plot_fmt);
			if (rc)
				goto out;
			break;
		case O_QUIET:
			cli_quiet = 1;
			break;
		case O_MAXERR:
			if (cli_parse_u64(val, UINT64_MAX, &ro.max_errors)) {
				rc = cli_usage("stat", "--max-errors takes a whole number, not '%s'", val);
				goto out;
			}
			break;
		default:
			rc = cli_vmstat_opt("stat", id, val, &ro);
			if (rc)
				goto out;
			break;
		}
	}
	if (!nfiles) {
		rc = cli_usage("stat", "needs at least one trace");
		goto out;
	}
	if (plot && (rc = cli_check_output(plot, files, (size_t)nfiles)))
		goto out;
	if (json)
		fputs("{\"schema\":\"swapreplay-stat/1\",\"traces\":[\n", stdout);
	for (i = 0; i < nfiles; i++) {
		struct sr_reader *r = NULL;
		struct sr_stat *s = sr_stat_new();
		struct sr_timeline *tl = NULL;
		struct sr_diag d;
		enum sr_err err;
		size_t n;

		if (!s) {
			cli_err("out of memory");
			rc = EXIT_FAIL;
			break;
		}
		err = sr_reader_open(&r, files[i], &ro, &d);
		if (!err && (timeline || plot)) {
			if (tl_width)
				tl = sr_timeline_new(tl_width);
			else if (sr_reader_stats(r)->format == SR_FMT_VMSTAT)
				tl = sr_timeline_new(TL_DEFAULT_NS);
			else
				tl = sr_timeline_new_auto(TL_DEFAULT_NS, TL_AUTO_MIN);
			if (!tl) {
				sr_diag_clear(&d);
				d.code = err = SR_ERR_NOMEM;
			}
		}
		while (!err) {
			err = sr_reader_read(r, evs, BATCH, &n, &d);
			if (n && (sr_stat_add(s, evs, n) || (tl && sr_timeline_add(tl, evs, n)))) {
				sr_diag_clear(&d);
				d.code = err = SR_ERR_NOMEM;
			}
			if (!n)
				break;
		}
		if (r)
			cli_read_warnings(files[i], sr_reader_stats(r));
		if (err)
			rc = cli_diag(&d);
		else
			print_one(stdout, files[i], sr_reader_stats(r), s, sr_reader_memcgs(r),
				  timeline ? tl : NULL, json, i == 0);
		sr_reader_close(r);
		sr_stat_free(s);
		if (plot)
			tls[i] = tl;
		else
			sr_timeline_free(tl);
		if (err)
			break;
	}
	if (json)
		fputs("\n]}\n", stdout);
	if (plot && rc == EXIT_OK) {
		struct plot_arg pa = { files, (const struct sr_timeline *const *)tls, (size_t)nfiles };

		fflush(stdout);
		rc = cli_write_plot(plot, plot_fmt, draw_plot, &pa);
	}
out:
	for (i = 0; i < argc; i++)
		sr_timeline_free(tls[i]);
	free(tls);
	free(files);
	free(evs);
	return rc;
}

const struct cli_cmd cmd_stat = {
	.name = "stat",
	.summary = "summarise traces: events, pages, time span, tasks, nodes, devices",
	.help =
	"Usage: swapreplay stat [OPTIONS] TRACE...\n"
	"\n"
	"Print, for each TRACE ('-' for standard input): its format, events and\n"
	"base pages by op (out/in), bytes (4 KiB pages), huge-page events (more\n"
	"than one base page), the time span, the distinct tasks and CPUs, the events\n"
	"per CPU node and per page node, the events per recorded device, and the\n"
	"recorded latency: all of the swap events.  The task ops (fork, exit,\n"
	"wait), if any, are counted apart, on a line of their own (\"task ops\").\n"
	"A trace whose swap-outs say who reclaimed them (reclaim: kswapd or\n"
	"direct) or whose swap-ins say what fault read them (fault: write or read)\n"
	"gets a line for each (\"swap-out reclaim\", \"swap-in faults\"), with the\n"
	"events that do not say (unknown).\n"
	"A trace whose swap events name their memory cgroup (memcg) gets its\n"
	"memcgs, each with its path when the trace names it and its pages and\n"
	"events swapped out and in (\"memcgs\"; the events without one as\n"
	"\"none\"; the first 64, by id).\n"
	"A trace without swap events (a vmstat log of a quiet machine) is valid\n"
	"and says \"no swap activity\".  Stops at the first trace that cannot be\n"
	"read.\n"
	"With --timeline, also the swap-out and swap-in rates (KiB/s) in each\n"
	"time bucket from the first event: the phases of a run (on a vmstat log,\n"
	"the so and si columns again).  The buckets are 1 s, or for a trace of\n"
	"less than 50 s the widest of 1, 2 and 5 x 10^k ns that makes 50 of them\n"
	"(a vmstat log's: 1 s), unless given.\n"
	"\n"
	"Options:\n"
	"  --format=text|json    output format (default text)\n"
	"  --input-format=FORMAT auto (default), csv, jsonl, swt, vmstat\n"
	"  --max-errors=N        skip up to N bad records per trace (default 0)\n"
	"  --timeline[=S]        rates per bucket of S seconds (default: 1, finer\n"
	"                        for a trace shorter than 50 s, above; buckets\n"
	"                        widen beyond 100000 of them)\n"
	"  --plot=FILE           draw the timeline, swap-out and swap-in KiB/s over\n"
	"                        time (in --timeline's buckets), a curve per trace,\n"
	"                        to FILE.svg, FILE.png or FILE.pdf\n"
	"  -q, --quiet           no warnings on standard error (unknown fields,\n"
	"                        skipped records, timestamps going backwards)\n"
	CLI_VMSTAT_HELP,
	.run = run,
};
