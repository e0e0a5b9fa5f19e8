/* SPDX-License-Identifier: MIT */
/* swapreplay [replay] TRACE --policy=... : the main job. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "readahead_opts.h"
#include "vmstat_opts.h"
#include "swapreplay/machine.h"
#include "swapreplay/outfile.h"
#include "swapreplay/policy.h"
#include "swapreplay/replay.h"
#include "swapreplay/report.h"
#include "swapreplay/trace.h"

#define DEFAULT_BASELINE "reclaimer-nid"
/* --uncertainty: each figure within a factor 1.25 either way by default. */
#define DEFAULT_UNC_RANGE 25
#define MAX_VARIANTS 200
#define MIB 1048576.0

enum { O_POLICY = 1, O_BASELINE, O_MACHINE, O_SLOTS, O_FORMAT, O_OUT, O_INFMT,
       O_MAXERR, O_REORDER, O_UNC, O_UNC_RANGE, O_PER_TASK, O_KERNEL, O_PLUG,
       O_SIMTHREAD, O_PROGRESS, O_QUIET, O_PLOT, O_NODE_MAP, O_MAX_MEMORY, O_ORDER_QUEUE,
       O_CHECK_RECORDED, O_NOISE, O_NOISE_JITTER, O_TIERS };

static const struct cli_opt opts[] = {
	{ "policy", 'p', CLI_ARG, O_POLICY },
	{ "baseline", 0, CLI_ARG, O_BASELINE },
	{ "machine", 'm', CLI_ARG, O_MACHINE },
	{ "slots-cache", 0, CLI_ARG, O_SLOTS },
	{ "format", 'f', CLI_ARG, O_FORMAT },
	{ "output", 'o', CLI_ARG, O_OUT },
	{ "input-format", 0, CLI_ARG, O_INFMT },
	{ "max-errors", 0, CLI_ARG, O_MAXERR },
	{ "reorder-window", 0, CLI_ARG, O_REORDER },
	{ "order-queue", 0, CLI_ARG, O_ORDER_QUEUE },
	{ "uncertainty", 'u', CLI_ARG, O_UNC },
	{ "uncertainty-range", 0, CLI_ARG, O_UNC_RANGE },
	{ "noise", 0, CLI_ARG, O_NOISE },
	{ "noise-jitter", 0, CLI_ARG, O_NOISE_JITTER },
	{ "tiers", 0, CLI_ARG, O_TIERS },
	{ "per-task", 0, CLI_NOARG, O_PER_TASK },
	{ "check-recorded", 0, CLI_NOARG, O_CHECK_RECORDED },
	{ "kernel", 0, CLI_ARG, O_KERNEL },
	{ "plug", 0, CLI_ARG, O_PLUG },
	{ "sim-thread", 0, CLI_ARG, O_SIMTHREAD },
	{ "progress", 0, CLI_NOARG, O_PROGRESS },
	{ "quiet", 'q', CLI_NOARG, O_QUIET },
	{ "plot", 0, CLI_ARG, O_PLOT },
	{ "node-map", 0, CLI_ARG, O_NODE_MAP },
	{ "max-memory", 0, CLI_ARG, O_MAX_MEMORY },
	CLI_RA_OPTS,
	CLI_VMSTAT_OPTS,
	{ NULL, 0, 0, 0 },
};

/* The policies when none is named: the four of the discussion. */
static const char *const default_policies[] = {
	"reclaimer-nid", "page-nid", "page-nid-strict", "hybrid", NULL,
};

/* --plot=FILE: the chart of the result (sr_plot_replay). */
struct plot_arg {
	const struct sr_result *res;
	struct sr_plot_replay_info info;
};

static enum sr_err draw_plot(FILE *f, enum sr_plot_fmt fmt, const void *arg, struct sr_diag *d)
{
	const struct plot_arg *a = arg;

	return sr_plot_replay(f, fmt, a->res, &a->info, d);
}

/*
 * What a replay may take, and whether its simulations fit in it before the
 * first event (--max-memory, else what the system has available: 90 % of
 * it beyond what the replay holds now).  Each simulation takes up to
 * sr_replay_sim_memory()'s bytes; the decisions, shared by all, grow with
 * the trace and are watched as the replay runs (*limit).  0, or the exit
 * status after saying what would not fit and how many variants would.
 */
static int memory_plan(const struct sr_replay *rp, uint64_t nvar, uint64_t nnoise,
		       uint64_t max_memory, uint64_t *limit, char *why, size_t whyn)
{
	uint64_t rss = cli_mem_rss(), each, per_cpu, avail, need;
	int nsims, np;

	if (max_memory) {
		*limit = max_memory;
		snprintf(why, whyn, "--max-memory");
	} else {
		avail = cli_mem_available(why, whyn);
		*limit = avail == UINT64_MAX ? UINT64_MAX : rss + avail / 10 * 9;
	}
	sr_replay_sim_memory(rp, &each, &per_cpu, &nsims);
	np = nsims / (int)(1 + nvar + nnoise);
	need = rss + (uint64_t)nsims * each;
	if (need <= *limit)
		return 0;
	if (!nvar || *limit <= rss + (uint64_t)np * each * (1 + nnoise))
		cli_err("the replay's %d simulations may take up to %.0f MiB (%.1f MiB each, more "
			"for each CPU two tasks share), more than the %.0f MiB it may (%s)%s", nsims,
			(double)need / MIB, (double)each / MIB, (double)*limit / MIB, why,
			nnoise ? "; --noise=0 leaves out the noise replicas' share" : "");
	else
		cli_err("--uncertainty=%" PRIu64 ": the replay's %d simulations (%d policies on the "
			"machine and on each variant) may take up to %.0f MiB (%.1f MiB each, more "
			"for each CPU two tasks share), more than the %.0f MiB it may (%s): "
			"--uncertainty=%" PRIu64 " fits", nvar, nsims, np, (double)need / MIB,
			(double)each / MIB, (double)*limit / MIB, why,
			(*limit - rss) / ((uint64_t)np * each) - 1 - nnoise);
	return EXIT_FAIL;
}

/*
 * --sim-thread's default: whether the simulations get threads of their
 * own beside the replay's and the trace's decoding thread.  With three
 * CPUs or more, always.  With two, the three threads share them, and the
 * decoding thread (zstd's work, which has no other thread to go to) gets
 * its share of the two, not a CPU of its own: one policy replayed alone
 * then goes faster on two threads, the decisions and its simulation on
 * one (make bench: 2s-nvme2, the writer's 10M events); several policies
 * or --uncertainty's variants give the replay's thread enough to do that
 * the third thread pays.  One CPU: never.
 */
static int sim_thread_auto(long ncpu, int npolicies, uint64_t nvariants)
{
	return ncpu >= 3 || (ncpu == 2 && (npolicies > 1 || nvariants > 0));
}

/*
 * How many threads play the simulations: --sim-thread=N as given; on (or
 * its default, sim_thread_auto()), one per policy (each simulation plays
 * on one thread, and those of policies that part play at once), as many
 * as the CPUs the replay's and the decoding threads leave, and at least
 * two: on two CPUs, three policies of which two part played the writer's
 * 10M events in 1.9 s on two threads against 2.3 s on one (make bench;
 * docs/MODEL.md, "Replay speed on two CPUs").
 */
static int sim_threads(int opt, int npolicies, uint64_t nvariants)
{
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN), n;

	if (opt >= 0)
		return opt;
	if (opt == -1 && !sim_thread_auto(ncpu, npolicies, nvariants))
		return 0;
	n = ncpu - 2 > 2 ? ncpu - 2 : 2;
	if (n > npolicies)
		n = npolicies;
	return n < 1 ? 1 : n > SR_SIM_WORKERS_MAX ? SR_SIM_WORKERS_MAX : (int)n;
}

static int cli_replay(int argc, char **argv)
{
	struct cli_parser p;
	struct cli_strs pl = { 0 };
	struct sr_read_opts ro = { .format = SR_FMT_AUTO, .max_errors = 0, .decompress_thread = 0 };
	struct sr_replay_opts rpo;
	struct sr_report_info info;
	enum sr_report_fmt fmt = SR_REPORT_TEXT;
	struct sr_reader *r = NULL;
	struct sr_replay *rp = NULL;
	struct sr_machine *m = NULL;
	struct sr_outfile *of = NULL;
	struct sr_pipe *pipe = NULL;
	const struct sr_result *res;
	struct sr_diag d;
	const char *trace = NULL, *machine = NULL, *baseline = DEFAULT_BASELINE;
	const char *out = "-", *val, *plot = NULL;
	enum sr_plot_fmt plot_fmt = SR_PLOT_SVG;
	uint64_t nvar = 0, unc_range = DEFAULT_UNC_RANGE;
	int nnoise = -1; /* --noise: -1 auto */
	unsigned jitter = 0;
	char origin[300], *mpath = NULL;
	uint64_t u;
	enum sr_err err;
	int id, rc = EXIT_OK, i, per_task = 0, slots_given = 0, plug = 1, check_rec = 0;
	int sim_thread = -1; /* --sim-thread: threads; -1 unset, -2 on (sim_threads()) */
	struct sr_kernel kern;
	struct sr_readahead_opts ra;
	struct sr_node_map nmap = { 0 };
	char rad[192], racav[256], nodes[SR_NODE_MAP_MAX * 48], devs[256];
	enum cli_progress_mode pmode = CLI_PROGRESS_AUTO;
	struct cli_progress prog;
	uint64_t fed = 0, max_memory = 0, mem_limit = UINT64_MAX, batches = 0;
	char mem_why[96] = "", kwhy[320] = "";
	const char *kernel_opt = NULL;

	sr_replay_opts_init(&rpo);
	rpo.ordered = 1; /* by the pipe */
	sr_kernel_parse(SR_KERNEL_DEFAULT, &kern, NULL);
	sr_readahead_default(&ra);
	cli_parser_init(&p, argc, argv, opts);
	while ((id = cli_next(&p, &val)) != -1) {
		switch (id) {
		case -2:
			rc = cli_usage("replay", "%s", p.err);
			goto out;
		case 0:
			if (trace) {
				rc = cli_usage("replay", "one trace at a time ('%s' and '%s'); "
					       "`swapreplay sweep` is for many", trace, val);
				goto out;
			}
			trace = val;
			break;
		case O_POLICY:
			i = cli_policy_list(&pl, val);
			if (i == -1)
				goto nomem;
			if (i) {
				rc = cli_usage("replay", "empty policy name in '%s'", val);
				goto out;
			}
			break;
		case O_BASELINE:
			baseline = val;
			break;
		case O_MACHINE:
			machine = val;
			break;
		case O_SLOTS:
			slots_given = 1;
			rc = cli_opt_on_off("replay", "slots-cache", val, &rpo.slots_cache);
			if (rc)
				goto out;
			break;
		case O_PLUG:
			rc = cli_opt_on_off("replay", "plug", val, &plug);
			if (rc)
				goto out;
			break;
		case O_SIMTHREAD:
			if (!strcmp(val, "on")) {
				sim_thread = -2;
			} else if (!strcmp(val, "off")) {
				sim_thread = 0;
			} else if (cli_parse_u64(val, SR_SIM_WORKERS_MAX, &u)) {
				rc = cli_usage("replay", "--sim-thread takes on, off or a number of threads from 0 to %d, not '%s'",
					       SR_SIM_WORKERS_MAX, val);
				goto out;
			} else {
				sim_thread = (int)u;
			}
			break;
		case O_PROGRESS:
			pmode = CLI_PROGRESS_LOG;
			break;
		case O_QUIET:
			cli_quiet = 1;
			break;
		case O_FORMAT:
			if (sr_report_fmt_parse(val, &fmt)) {
				rc = cli_usage("replay", "--format takes text, table, json, csv or markdown, not '%s'", val);
				goto out;
			}
			break;
		case O_OUT:
			out = val;
			break;
		case O_PLOT:
			plot = val;
			rc = cli_opt_plot("replay", plot, &plot_fmt);
			if (rc)
				goto out;
			break;
		case O_INFMT:
			if (sr_format_parse(val, &ro.format)) {
				rc = cli_usage("replay", "--input-format takes auto, csv, jsonl or swt, not '%s'", val);
				goto out;
			}
			break;
		case O_MAXERR:
			if (cli_parse_u64(val, UINT64_MAX, &ro.max_errors)) {
				rc = cli_usage("replay", "--max-errors takes a whole number, not '%s'", val);
				goto out;
			}
			break;
		case O_REORDER:
			if (cli_parse_u64(val, 1u << 24, &u) || u < 1) {
				rc = cli_usage("replay", "--reorder-window takes 1 to 16777216 events, not '%s'", val);
				goto out;
			}
			rpo.reorder_window = (unsigned)u;
			break;
		case O_ORDER_QUEUE:
			if (cli_parse_u64(val, SR_ORDER_QUEUE_LIMIT, &u) || u < 1) {
				rc = cli_usage("replay", "--order-queue takes 1 to %llu records, not '%s'",
					       (unsigned long long)SR_ORDER_QUEUE_LIMIT, val);
				goto out;
			}
			rpo.order_queue = u;
			break;
		case O_UNC:
			if (cli_parse_u64(val, MAX_VARIANTS, &nvar)) {
				rc = cli_usage("replay", "--uncertainty takes 0 to %d machine variants, not '%s'",
					       MAX_VARIANTS, val);
				goto out;
			}
			break;
		case O_NOISE:
			if (cli_parse_noise(val, &nnoise)) {
				rc = cli_usage("replay", "--noise takes " CLI_NOISE_TAKES ", not '%s'",
					       SR_REPLAY_MAX_NOISE, val);
				goto out;
			}
			break;
		case O_TIERS:
			/* The tiers policy with this assignment (each --tiers
			 * one more: a sweep's dimension). */
			rc = cli_tiers_spec("replay", val, &pl);
			if (rc == -1)
				goto nomem;
			if (rc)
				goto out;
			break;
		case O_NOISE_JITTER:
			if (cli_parse_noise_jitter(val, &jitter)) {
				rc = cli_usage("replay", "--noise-jitter takes " CLI_JITTER_TAKES ", not '%s'",
					       val);
				goto out;
			}
			break;
		case O_UNC_RANGE:
			if (cli_parse_u64(val, 400, &unc_range) || unc_range < 1) {
				rc = cli_usage("replay", "--uncertainty-range takes 1 to 400 (percent), not '%s'", val);
				goto out;
			}
			break;
		case O_PER_TASK:
			per_task = 1;
			break;
		case O_CHECK_RECORDED:
			check_rec = 1;
			break;
		case O_MAX_MEMORY:
			if (cli_parse_size(val, &max_memory) || !max_memory) {
				rc = cli_usage("replay", "--max-memory takes a size in bytes (K, M, G: "
					       "powers of 1024), not '%s'", val);
				goto out;
			}
			break;
		case O_NODE_MAP:
			if (sr_node_map_parse(val, &nmap, &d)) {
				rc = cli_usage("replay", "%s", d.msg);
				goto out;
			}
			rpo.node_map = &nmap;
			break;
		case O_KERNEL:
			/* Checked now; chosen with the machine, below. */
			rc = cli_opt_kernel("replay", val, &kern);
			if (rc)
				goto out;
			kernel_opt = val;
			break;
		default:
			rc = cli_ra_opt("replay", id, val, &ra);
			if (rc == 1)
				rc = cli_vmstat_opt("replay", id, val, &ro);
			if (rc)
				goto out;
			break;
		}
	}
	if (!trace) {
		rc = cli_usage("replay", "needs a trace");
		goto out;
	}
	if (slots_given && kernel_opt && (rc = cli_kernel_slots("replay", &kern)))
		goto out;
	if (check_rec && (fmt == SR_REPORT_TABLE || fmt == SR_REPORT_CSV))
		cli_warn("--check-recorded is ignored by -f %s: text, markdown and json give the "
			 "recorded figures beside the predicted", fmt == SR_REPORT_CSV ? "csv" : "table");
	if (per_task && fmt == SR_REPORT_TABLE)
		cli_warn("--per-task is ignored by -f table, which has no per-task figures (-f json "
			 "and csv give each task's, text and markdown their sums)");
	if (!pl.n)
		for (i = 0; default_policies[i]; i++)
			if (cli_strs_add(&pl, default_policies[i], strlen(default_policies[i])))
				goto nomem;
	/* The baseline is always replayed, first. */
	if (cli_strs_find(&pl, baseline, strlen(baseline)) < 0 && cli_strs_prepend(&pl, baseline))
		goto nomem;
	if (pl.n > SR_MAX_POLICIES) {
		rc = cli_usage("replay", "%zu policies, the baseline among them: at most %d",
			       pl.n, SR_MAX_POLICIES);
		goto out;
	}

	{
		const char *in[2] = { trace, machine };

		rc = cli_check_output(out, in, machine ? 2 : 1);
		if (!rc && plot)
			rc = cli_check_output(plot, in, machine ? 2 : 1);
		if (!rc && plot && !strcmp(plot, out))
			rc = cli_usage("replay", "--plot and --output name the same file, '%s'", plot);
		if (rc)
			goto out;
	}
	err = sr_reader_open(&r, trace, &ro, &d);
	if (err) {
		rc = cli_diag(&d);
		goto out;
	}
	{
		/* --machine, else the file beside the trace, else the trace's
		 * header, else the default (sr_machine_resolve(), as a sweep). */
		struct sr_machine_where w = { machine, trace, sr_reader_machine_json(r),
					      sr_reader_machine_origin(r) };
		enum sr_machine_src src;

		err = sr_machine_resolve(&m, &w, &src, &mpath, &d);
		snprintf(origin, sizeof(origin), "%s",
			 src == SR_MACHINE_FROM_OPTION ? (m && m->from_preset ? "preset" : "file") :
			 src == SR_MACHINE_FROM_BESIDE ? "file beside the trace" :
			 src == SR_MACHINE_FROM_HEADER ? "recorded in the trace header" :
			 "default preset: no --machine given, none beside the trace, and the trace "
			 "names none");
	}
	if (err) {
		rc = cli_diag(&d);
		goto out;
	}
	/* --kernel, else the one recorded with the trace, else the newest
	 * long-term release modelled (sr_kernel_resolve()). */
	err = sr_kernel_resolve(&kern, kernel_opt, trace, m, mpath ? mpath : origin, kwhy,
				sizeof(kwhy), &d);
	if (err) {
		rc = cli_diag(&d);
		goto out;
	}
	if (slots_given && !kernel_opt && kern.alloc != SR_ALLOC_SLOTS_CACHE) {
		rc = cli_usage("replay", "--slots-cache: kernel %u.%u (%s) has no slots cache "
			       "(4.11 to 6.14 have it): give --kernel", kern.major, kern.minor, kwhy);
		goto out;
	}
	cli_machine_notes(m);
	rpo.machine = m;
	rpo.memcgs = sr_reader_memcgs(r);
	/* --uncertainty's variants of the machine, replayed in the same pass
	 * on the same decisions (sr_replay_opts.variants). */
	rpo.variants = (unsigned)nvar;
	rpo.variant_range = (double)unc_range / 100.0;
	/* --noise's replicas of the trace's timing: auto, as many as the
	 * trace's size allows (sr_noise_auto()). */
	if (nnoise < 0)
		nnoise = (int)sr_noise_auto(sr_trace_events_guess(trace));
	rpo.noise = (unsigned)nnoise;
	rpo.noise_jitter_ns = jitter;
	rpo.kernel = kern;
	rpo.readahead = ra;
	rpo.per_task = per_task;
	rpo.plug = plug;
	rpo.sim_threads = sim_threads(sim_thread, (int)pl.n, nvar + (uint64_t)nnoise);
	err = sr_replay_new(&rp, &rpo, (const char *const *)pl.v, (int)pl.n, baseline, &d);
	if (err) {
		rc = cli_diag(&d);
		goto out;
	}
	cli_ra_warn_replay(&ra, rp, &kern, m);
	rc = memory_plan(rp, nvar, (uint64_t)nnoise, max_memory, &mem_limit, mem_why,
			 sizeof(mem_why));
	if (rc)
		goto out;
	/* Decoding, checking against the machine and ordering by time run on
	 * a thread of their own, ahead of the replay. */
	err = sr_pipe_start_ordered(&pipe, r, rpo.reorder_window ? rpo.reorder_window :
				    SR_REORDER_DEFAULT, sr_replay_check, rp, &d);
	if (err) {
		rc = cli_diag(&d);
		goto out;
	}
	cli_progress_start(&prog, cli_quiet ? CLI_PROGRESS_OFF : pmode, trace,
			   (unsigned)(nvar + (uint64_t)nnoise) + 1);
	for (;;) {
		const struct sr_event *batch;
		size_t n;

		err = sr_pipe_next(pipe, &batch, &n, &d);
		if (err && !d.file[0]) /* sr_replay_check's */
			snprintf(d.file, sizeof(d.file), "%s", trace);
		if (n) {
			struct sr_diag fd;
			enum sr_err ferr;

			sr_diag_clear(&fd);
			/* The pipe checked each event against rp (sr_replay_check). */
			ferr = sr_replay_feed_checked(rp, batch, n, &fd);

			if (ferr) {
				snprintf(fd.file, sizeof(fd.file), "%s", trace);
				d = fd;
				err = ferr;
			}
			fed += n;
			cli_progress_update(&prog, r, fed);
			/* Stopped, saying so, before the OOM killer would. */
			if (!ferr && !(++batches % 16) && mem_limit != UINT64_MAX &&
			    cli_mem_rss() > mem_limit) {
				cli_progress_end(&prog, r, fed, 0);
				cli_err("%s: stopped at event %" PRIu64 ": the replay took %.0f MiB, more "
					"than the %.0f MiB it may (%s); its decisions grow with the "
					"trace's swap slots in use, its simulations with the policies and "
					"--uncertainty's variants", trace, fed, (double)cli_mem_rss() / MIB,
					(double)mem_limit / MIB, mem_why);
				rc = EXIT_FAIL;
				goto out;
			}
		}
		if (err || !n)
			break;
	}
	cli_progress_end(&prog, r, fed, !err);
	sr_pipe_stop(pipe);
	pipe = NULL;
	cli_read_warnings(trace, sr_reader_stats(r));
	if (err) {
		rc = cli_diag(&d);
		goto out;
	}
	if (!sr_reader_stats(r)->events) {
		/* A valid trace of a machine that did not swap: nothing to
		 * replay, said as such (not a report of zeros). */
		fprintf(stderr, "swapreplay: %s: no swap activity: the trace holds no swap-out "
			"or swap-in events; nothing to replay\n", trace);
		rc = EXIT_EMPTY;
		goto out;
	}
	err = sr_replay_finish(rp, &res, &d);
	if (err) {
		rc = cli_diag(&d);
		goto out;
	}
	for (i = 0; i < (int)pl.n; i++)
		if (!strncmp(pl.v[i], "tiers:", 6))
			cli_tiers_unused(trace, pl.v[i] + 6, sr_reader_memcgs(r));
	info.trace = trace;
	info.machine = m->name;
	info.machine_origin = origin;
	info.machine_path = mpath;
	info.derived = sr_reader_stats(r)->derived[0] ? sr_reader_stats(r)->derived : NULL;
	info.slots_cache = rpo.slots_cache && kern.alloc == SR_ALLOC_SLOTS_CACHE;
	info.plug = plug;
	info.kernel = &kern;
	info.kernel_why = kwhy;
	info.readahead = sr_replay_readahead_describe(rp, rad, sizeof(rad));
	info.readahead_on = sr_replay_readahead_active(rp);
	info.readahead_caveat = sr_replay_readahead_caveat(rp, racav, sizeof(racav));
	info.nodes = sr_replay_nodes_describe(rp, nodes, sizeof(nodes));
	info.devices = sr_replay_devices_describe(rp, devs, sizeof(devs));
	info.check_recorded = check_rec;
	info.memcgs = sr_reader_memcgs(r);
	if (check_rec && !res->recorded.swapin_lat.count && !res->recorded.swapouts_timed)
		cli_warn("%s: --check-recorded: no swap event has a recorded latency (lat_ns): only "
			 "the throughput over the trace's span can be set beside the predicted", trace);
	{
		/* What weakens the figures, on standard error too. */
		struct sr_caveat cav[SR_CAV_COUNT];
		int c, nc = sr_report_caveats(res, &info, cav);

		for (c = 0; c < nc; c++)
			if (cav[c].warn)
				cli_warn("%s: %s", trace, cav[c].text);
	}
	err = sr_outfile_open(&of, out, &d);
	if (err) {
		rc = cli_diag(&d);
		goto out;
	}
	if (sr_report_write(sr_outfile_stream(of), res, &info, fmt)) {
		sr_outfile_abort(of);
		cli_err("%s: write failed", out);
		rc = EXIT_IO;
		goto out;
	}
	err = sr_outfile_commit(of, &d);
	if (err)
		rc = cli_diag(&d);
	if (!rc && plot) {
		struct plot_arg pa = { res, { trace, m->name } };

		rc = cli_write_plot(plot, plot_fmt, draw_plot, &pa);
	}
out:
	sr_pipe_stop(pipe);
	sr_replay_free(rp);
	sr_machine_free(m);
	free(mpath);
	sr_reader_close(r);
	cli_strs_free(&pl);
	return rc;
nomem:
	cli_err("out of memory");
	rc = EXIT_FAIL;
	goto out;
}

const struct cli_cmd cmd_replay = {
	.name = "replay",
	.summary = "replay a trace through policies and report (the default command)",
	.help =
	"Usage: swapreplay [replay] TRACE [OPTIONS]\n"
	"\n"
	"Replay TRACE ('-' for standard input) through swap device selection\n"
	"policies on a model of a machine, and report each policy's predicted swap\n"
	"throughput, its speed delta against the baseline and its swap-in latency.\n"
	"The trace is read once; every policy is evaluated in that pass.\n"
	"\n"
	"Options:\n"
	"  -p, --policy=LIST     policies, comma separated, or 'all' (every built-in\n"
	"                        but the example fixed-node and tiers, which load by\n"
	"                        name);\n"
	"                        a NAME may take parameters as NAME:PARAMS, and a path\n"
	"                        to a shared object (./my.so) loads an out-of-tree\n"
	"                        policy.  Default: reclaimer-nid, page-nid,\n"
	"                        page-nid-strict, hybrid.  May be repeated.\n"
	"  --tiers=CGROUP:TIER[+TIER...],...|@FILE\n"
	"                        replay the swap tiers series too: policy tiers with\n"
	"                        this assignment (tiers:CGROUP=TIER+TIER;...): each\n"
	"                        memory cgroup (by its path in the trace) and those\n"
	"                        below it may use those of the machine's tiers\n"
	"                        (\"tiers\" in its description; else by device class,\n"
	"                        memory and block), none to fall through to; FILE: a\n"
	"                        line per cgroup, 'CGROUP TIER[+TIER...]'.  Kernels\n"
	"                        6.15 on.  May be repeated; without --policy, the\n"
	"                        baseline and the assignments are replayed\n"
	"  --baseline=NAME       the policy deltas are measured against (default\n"
	"                        reclaimer-nid, the kernel); always replayed\n"
	"  -m, --machine=M       a preset (see `swapreplay machines`) or a machine\n"
	"                        description file.  Default: the description beside\n"
	"                        the trace (X.machine.json for X.EXT[.zst], as the\n"
	"                        capture writes it), else the machine recorded in a\n"
	"                        binary trace's header, else the preset " SR_MACHINE_DEFAULT "\n"
	"                        (the report says which, as a sweep chooses).  Any trace replays on any\n"
	"                        machine: its recorded devices only pair swap-ins\n"
	"                        with swap-outs; its nodes must exist there, or be\n"
	"                        mapped with --node-map\n"
	"  --node-map=R:M,...|fold\n"
	"                        replay the trace's node R as the machine's node M\n"
	"                        (a node not named as itself); fold: node n as n\n"
	"                        modulo the machine's nodes.  Without it, a trace\n"
	"                        naming a node the machine lacks is refused, with\n"
	"                        the map that would fold it; the report says what\n"
	"                        was mapped\n"
	"  --kernel=VERSION      the kernel generation to model, MAJOR.MINOR; default:\n"
	"                        the one recorded with the trace (the 'kernel:' line\n"
	"                        of X.info beside X.csv.zst, as the capture writes\n"
	"                        it, else the machine description's \"kernel\"), else\n"
	"                        " SR_KERNEL_DEFAULT ", the newest long-term release modelled; the\n"
	"                        report says which and why.  Before 4.11 no slots\n"
	"                        cache; 4.11-6.14 the\n"
	"                        per-CPU slots cache of 64; from 6.15 a per-CPU\n"
	"                        cluster per folio order; 4.14-6.18 per-node priority\n"
	"                        lists, one list before and after; before 6.18 a\n"
	"                        swap-in through the swap cache costs more (E3);\n"
	"                        from 7.0 none bypasses it (docs/MODEL.md).  4.0\n"
	"                        to 7.4 (later than 7.1 modelled as 7.1); as\n"
	"                        uname -r prints it too (6.6.0-28-generic is 6.6)\n"
	"  --slots-cache=on|off  on kernels 4.11-6.14: model the per-CPU swap slots\n"
	"                        cache (on, default) or allocate every slot by a\n"
	"                        list walk (off)\n"
	"  --plug=on|off         nvme, ssd and hdd: hold a task's swap writes of one\n"
	"                        reclaim pass (32 pages) in its block plug, where\n"
	"                        adjacent slots merge into one request (on, default:\n"
	"                        the kernel's way since 3.2), or send each to the\n"
	"                        device's queue alone (off; an ssd's or hdd's\n"
	"                        elevator may still merge requests that wait there)\n"
	"  --sim-thread=on|off|N\n"
	"                        play the simulations on threads of their own while\n"
	"                        the kernels' decisions run ahead (on: one per\n"
	"                        policy, up to the CPUs online less 2, or 2 where\n"
	"                        that is fewer; N: up to that many, 0 to 8), or on\n"
	"                        the replay's one thread (off, 0); each simulation on\n"
	"                        one thread (a thread starts with its first), and\n"
	"                        policies that part play at once.  The report is\n"
	"                        the same.  Default: on with three CPUs or more\n"
	"                        online, and with two when more than one policy or\n"
	"                        --uncertainty is replayed (the trace's decoding has\n"
	"                        a thread too)\n"
	CLI_RA_HELP
	"  -f, --format=FMT      text (default), table (plain text within 76 columns,\n"
	"                        its caveats in its footer: for a mailing list),\n"
	"                        json, csv or markdown (a table to\n"
	"                        paste into a patch review)\n"
	"  -o, --output=FILE     write the report to FILE (whole or not at all)\n"
	"  --plot=FILE           also draw each policy's swap-in latency (its\n"
	"                        distribution, log time axis) and each device's\n"
	"                        utilisation to FILE.svg, FILE.png or FILE.pdf\n"
	"  --input-format=FMT    auto (default), csv, jsonl, swt\n"
	"  --max-errors=N        skip up to N bad records (default 0)\n"
	"  --reorder-window=N    events held back to replay in time order\n"
	"                        (default 65536)\n"
	"  --order-queue=N       records each simulation holds to play its tasks'\n"
	"                        events in simulated time (default 65536, 8 MiB at\n"
	"                        most); past it the earliest is played all the same,\n"
	"                        counted (the order caveat): more for an order that\n"
	"                        stays exact where tasks drift apart\n"
	"  -u, --uncertainty=N   also replay on N variants of the machine whose every\n"
	"                        performance figure is drawn within --uncertainty-range\n"
	"                        (log-uniform, seeded: the same N give the same report),\n"
	"                        and report each delta's range and how many variants\n"
	"                        agree on its side (faster, slower, or within 1 %)\n"
	"  --noise=R|auto        also replay R replicas of the trace whose every event\n"
	"                        is moved later by up to --noise-jitter (seeded), and\n"
	"                        report each delta's timing noise: the most a replica\n"
	"                        moved it; a delta within it is \"no difference\n"
	"                        (within noise)\".  auto (default): 4 for a trace of\n"
	"                        up to about 100,000 events (guessed from the file's\n"
	"                        size), 2 or 3 up to 200,000, none beyond or from a\n"
	"                        pipe; 0 to 64.  Each replica costs a simulation per\n"
	"                        policy that decides apart, as a variant does (about\n"
	"                        what the replay's simulations cost)\n"
	"  --noise-jitter=NS     how much later at most (default 1000 ns)\n"
	"  --uncertainty-range=P figures vary by up to a factor 1+P/100 either way\n"
	"                        (default 25).  The variants share the policies'\n"
	"                        decisions: each costs a simulation per policy that\n"
	"                        decides apart, up to a few MiB each (the machine's\n"
	"                        calendars: 2.4 MiB on 2s-nvme2, and 192 KiB more\n"
	"                        for each CPU two tasks share), not a replay\n"
	"  --max-memory=BYTES    the memory the replay may take (K, M, G: powers of\n"
	"                        1024).  Default: 90 % of what the system has\n"
	"                        available when it starts (MemAvailable, or what its\n"
	"                        memory cgroup has left).  A replay whose simulations\n"
	"                        cannot fit is refused before its first event, with\n"
	"                        the estimate and the --uncertainty that fits; one\n"
	"                        that outgrows it (its decisions grow with the\n"
	"                        trace's swap slots in use) is stopped, saying so,\n"
	"                        with exit status 1\n"
	"  --per-task            also each task's figures: swap-outs, swap-ins, pages,\n"
	"                        simulated busy time, and its swap-in (swap-out)\n"
	"                        throughput over its swap-in (swap-out) phase, as\n"
	"                        vm-scalability reports per process; JSON lists them\n"
	"                        per policy, CSV gives one row per policy and task\n"
	"                        instead of one per policy, text and markdown the sums\n"
	"                        (-f table has none: a warning says so)\n"
	"  --check-recorded      also the trace's recorded figures beside each policy's\n"
	"                        predicted ones, with the difference: swap-in latency\n"
	"                        mean, p50, p90 and p99 and swap-out latency mean (of\n"
	"                        the events with a lat_ns), and the throughput over\n"
	"                        the trace's span: replayed on the machine and kernel\n"
	"                        it was recorded on, a trace should give back what\n"
	"                        was measured (text, markdown; JSON's trace.recorded)\n"
	"  --progress            write the progress into a log (a batch job's output):\n"
	"                        a line every 10 s and one at the end; without it,\n"
	"                        a line redrawn in place when standard error is a\n"
	"                        terminal (share of the file read, events, events/s,\n"
	"                        time left), erased when the replay ends\n"
	"  -q, --quiet           no progress and no warnings on standard error;\n"
	"                        errors are still printed\n"
	CLI_VMSTAT_HELP
	"\n"
	"A trace without swap events (a vmstat log of a quiet machine) is valid:\n"
	"the message says \"no swap activity\", no report is written, and the exit\n"
	"status is 5.\n"
	"\n"
	"See `swapreplay policies`, `swapreplay machines` and docs/MODEL.md.\n",
	.run = cli_replay,
};
