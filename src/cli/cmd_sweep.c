/* SPDX-License-Identifier: MIT */
/*
 * swapreplay sweep: every trace x every machine x every policy.  The
 * options, the messages and the exit status; the engine (units, workers,
 * rows, plans, resuming) is the library's, include/swapreplay/sweep.h and
 * src/sweep/.
 */
#include <inttypes.h>
#include <malloc.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "readahead_opts.h"
#include "swapreplay/machine.h"
#include "swapreplay/policy.h"
#include "swapreplay/replay.h"
#include "swapreplay/sweep.h"
#include "swapreplay/trace.h"

enum { O_POLICY = 1, O_MACHINE, O_BASELINE, O_SLOTS, O_JOBS, O_OUT, O_FORMAT, O_RESUME,
       O_QUIET, O_PLAN, O_RUN_INDEX, O_SHARD, O_INFMT, O_MAXERR, O_EVERY, O_KERNEL, O_PLUG,
       O_UNC, O_UNC_RANGE, O_NODE_MAP, O_NOISE, O_NOISE_JITTER, O_TIERS };

static const struct cli_opt opts[] = {
	{ "policy", 'p', CLI_ARG, O_POLICY },
	{ "machine", 'm', CLI_ARG, O_MACHINE },
	{ "baseline", 0, CLI_ARG, O_BASELINE },
	{ "slots-cache", 0, CLI_ARG, O_SLOTS },
	{ "kernel", 0, CLI_ARG, O_KERNEL },
	{ "plug", 0, CLI_ARG, O_PLUG },
	{ "node-map", 0, CLI_ARG, O_NODE_MAP },
	{ "jobs", 'j', CLI_ARG, O_JOBS },
	{ "output", 'o', CLI_ARG, O_OUT },
	{ "format", 'f', CLI_ARG, O_FORMAT },
	{ "resume", 0, CLI_NOARG, O_RESUME },
	{ "quiet", 'q', CLI_NOARG, O_QUIET },
	{ "plan", 0, CLI_ARG, O_PLAN },
	{ "run-index", 0, CLI_ARG, O_RUN_INDEX },
	{ "shard", 0, CLI_ARG, O_SHARD },
	{ "input-format", 0, CLI_ARG, O_INFMT },
	{ "max-errors", 0, CLI_ARG, O_MAXERR },
	{ "every-file", 0, CLI_NOARG, O_EVERY },
	{ "uncertainty", 'u', CLI_ARG, O_UNC },
	{ "uncertainty-range", 0, CLI_ARG, O_UNC_RANGE },
	{ "noise", 0, CLI_ARG, O_NOISE },
	{ "noise-jitter", 0, CLI_ARG, O_NOISE_JITTER },
	{ "tiers", 0, CLI_ARG, O_TIERS },
	CLI_RA_OPTS,
	{ NULL, 0, 0, 0 },
};

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/*
 * The errors of setting a sweep up (sr_sweep_new(), sr_sweep_open_plan()),
 * printed as the command always has: too many policies or machines and
 * inputs without a trace are usage errors, with the hint; the others are
 * "sweep: " and the diagnostic, with `status`: 2 for an input that does not
 * expand (no message for a directory that cannot be read: the library
 * leaves it empty), 4 or 3 for a plan that cannot be opened or read.
 */
static int setup_failed(enum sr_err e, const struct sr_diag *d, int status)
{
	char buf[1024];

	if (e == SR_ERR_NOMEM) {
		cli_err("out of memory");
		return EXIT_FAIL;
	}
	sr_diag_format(d, buf, sizeof(buf));
	if (e == SR_ERR_INVAL || e == SR_ERR_LIMIT)
		return cli_usage("sweep", "%s", buf);
	if (d->msg[0])
		cli_err("sweep: %s", buf);
	return status;
}

/* The inputs left out, and why: an archive's other files, the output. */
static void say_skipped(struct sr_sweep *s, size_t *said)
{
	const struct sr_sweep_skip *sk;
	size_t n, i;

	sk = sr_sweep_skipped(s, &n);
	for (i = *said; sk && i < n; i++)
		cli_warn("sweep: skipped %s: %s%s", sk[i].path, sk[i].why,
			 strcmp(sk[i].why, "the sweep's output") &&
				 strcmp(sk[i].why, "named more than once") &&
				 strncmp(sk[i].why, "not a regular file", 18) ?
				 " (--every-file to sweep it)" : "");
	*said = n;
}

/* "sweep: " and a diagnostic; returns status. */
static int sweep_err(const struct sr_diag *d, int status)
{
	char buf[1024];

	sr_diag_format(d, buf, sizeof(buf));
	cli_err("sweep: %s", buf);
	return status;
}

static int run(int argc, char **argv)
{
	struct cli_parser p;
	struct sr_sweep_opts so;
	struct sr_sweep_run_opts ro;
	struct sr_sweep *s = NULL;
	struct sr_sweep_progress prog;
	struct cli_strs inputs = { 0 }, machines = { 0 }, policies = { 0 };
	int lrc;
	struct sr_sweep_state st;
	const char *val, *out = NULL, *plan = NULL;
	size_t said = 0;
	uint64_t jobs = 0, run_index = UINT64_MAX, shard_i = 0, shard_n = 1, u;
	int id, rc = EXIT_OK, resume = 0, quiet = 0, progress, sharded = 0;
	/* Options a plan holds: given with --run-index or --shard, refused. */
	int slots_given = 0;
	struct sr_kernel kern;
	struct sr_readahead_opts ra;
	char ras[128];
	const char *plan_opt = NULL;
	struct sr_diag d;
	enum sr_err e;
	double t0;

	/*
	 * Every unit allocates and frees the same large buffers (calendars of
	 * 128 KiB, slot tables): with glibc's defaults they are mapped and
	 * unmapped each time and faulted in again page by page, and page
	 * faults of one process's threads contend on its address-space lock.
	 * Keep freed memory for the next unit instead: -j 1 measured 1.63 s
	 * against 1.27 s so (make bench's sweep), a fifth of it system time.
	 * (A setting of the whole process: the command's to make, not the
	 * library's.)
	 */
#ifdef M_MMAP_THRESHOLD
	mallopt(M_MMAP_THRESHOLD, 256 << 20);
	mallopt(M_TRIM_THRESHOLD, 1 << 30);
#endif
	sr_kernel_parse(SR_KERNEL_DEFAULT, &kern, NULL);
	sr_readahead_default(&ra);
	memset(&so, 0, sizeof(so));
	so.slots_cache = 1;
	so.plug = 1;
	so.input_format = SR_FMT_AUTO;
	so.format = SR_SWEEP_JSONL;
	/* As replay: each trace's noise replicas from its size. */
	so.noise = SR_SWEEP_NOISE_AUTO;
	cli_parser_init(&p, argc, argv, opts);
	while ((id = cli_next(&p, &val)) != -1) {
		switch (id) {
		case -2:
			rc = cli_usage("sweep", "%s", p.err);
			goto out;
		case 0:
			if (cli_strs_add(&inputs, val, strlen(val)))
				goto nomem;
			break;
		case O_POLICY:
			lrc = cli_policy_list(&policies, val);
			if (lrc == -1)
				goto nomem;
			if (lrc) {
				rc = cli_usage("sweep", "empty policy name in '%s'", val);
				goto out;
			}
			break;
		case O_MACHINE:
			lrc = cli_strs_split(&machines, val);
			if (lrc == -1)
				goto nomem;
			if (lrc) {
				rc = cli_usage("sweep", "empty machine name in '%s'", val);
				goto out;
			}
			break;
		case O_BASELINE:
			so.baseline = val;
			plan_opt = "--baseline";
			break;
		case O_SLOTS:
			rc = cli_opt_on_off("sweep", "slots-cache", val, &so.slots_cache);
			if (rc)
				goto out;
			plan_opt = "--slots-cache";
			slots_given = 1;
			break;
		case O_NODE_MAP: {
			struct sr_node_map nm;

			if (sr_node_map_parse(val, &nm, &d)) {
				rc = cli_usage("sweep", "%s", d.msg);
				goto out;
			}
			so.node_map = val;
			plan_opt = "--node-map";
			break;
		}
		case O_PLUG:
			rc = cli_opt_on_off("sweep", "plug", val, &so.plug);
			if (rc)
				goto out;
			plan_opt = "--plug";
			break;
		case O_KERNEL:
			rc = cli_opt_kernel("sweep", val, &kern);
			if (rc)
				goto out;
			so.kernel = val;
			plan_opt = "--kernel";
			break;
		case O_JOBS:
			if (cli_parse_u64(val, 1024, &jobs) || !jobs) {
				rc = cli_usage("sweep", "-j takes 1 to 1024, not '%s'", val);
				goto out;
			}
			break;
		case O_OUT:
			out = val;
			break;
		case O_FORMAT:
			if (sr_sweep_fmt_parse(val, &so.format)) {
				rc = cli_usage("sweep", "--format takes jsonl or csv, not '%s'", val);
				goto out;
			}
			break;
		case O_RESUME:
			resume = 1;
			break;
		case O_QUIET:
			quiet = 1;
			break;
		case O_EVERY:
			so.every_file = 1;
			break;
		case O_PLAN:
			plan = val;
			break;
		case O_RUN_INDEX:
			if (cli_parse_u64(val, UINT32_MAX, &run_index)) {
				rc = cli_usage("sweep", "--run-index takes a unit number, not '%s'", val);
				goto out;
			}
			break;
		case O_SHARD: {
			const char *sl = strchr(val, '/');
			char a[32];

			if (!sl || (size_t)(sl - val) >= sizeof(a)) {
				rc = cli_usage("sweep", "--shard takes I/N, not '%s'", val);
				goto out;
			}
			memcpy(a, val, (size_t)(sl - val));
			a[sl - val] = '\0';
			if (cli_parse_u64(a, UINT32_MAX, &shard_i) ||
			    cli_parse_u64(sl + 1, UINT32_MAX, &shard_n) || !shard_n || shard_i >= shard_n) {
				rc = cli_usage("sweep", "--shard takes I/N with 0 <= I < N, not '%s'", val);
				goto out;
			}
			sharded = 1;
			break;
		}
		case O_INFMT:
			if (sr_format_parse(val, &so.input_format)) {
				rc = cli_usage("sweep", "--input-format takes auto, csv, jsonl or swt, not '%s'", val);
				goto out;
			}
			plan_opt = "--input-format";
			break;
		case O_UNC:
			if (cli_parse_u64(val, SR_SWEEP_MAX_VARIANTS, &u)) {
				rc = cli_usage("sweep", "--uncertainty takes 0 to %d machine variants, not '%s'",
					       SR_SWEEP_MAX_VARIANTS, val);
				goto out;
			}
			so.uncertainty = (unsigned)u;
			plan_opt = "--uncertainty";
			break;
		case O_UNC_RANGE:
			if (cli_parse_u64(val, 400, &u) || u < 1) {
				rc = cli_usage("sweep", "--uncertainty-range takes 1 to 400 (percent), not '%s'",
					       val);
				goto out;
			}
			so.uncertainty_range = (unsigned)u;
			plan_opt = "--uncertainty-range";
			break;
		case O_NOISE:
			/* (auto: SR_SWEEP_NOISE_AUTO, -1 as cli_parse_noise() says it) */
			if (cli_parse_noise(val, &so.noise)) {
				rc = cli_usage("sweep", "--noise takes " CLI_NOISE_TAKES ", not '%s'",
					       SR_REPLAY_MAX_NOISE, val);
				goto out;
			}
			plan_opt = "--noise";
			break;
		case O_TIERS:
			/* The tiers policy with this assignment (each --tiers
			 * one more: a sweep's dimension). */
			rc = cli_tiers_spec("sweep", val, &policies);
			if (rc == -1)
				goto nomem;
			if (rc)
				goto out;
			break;
		case O_NOISE_JITTER:
			if (cli_parse_noise_jitter(val, &so.noise_jitter_ns)) {
				rc = cli_usage("sweep", "--noise-jitter takes " CLI_JITTER_TAKES ", not '%s'",
					       val);
				goto out;
			}
			plan_opt = "--noise-jitter";
			break;
		case O_MAXERR:
			if (cli_parse_u64(val, UINT64_MAX, &so.max_errors)) {
				rc = cli_usage("sweep", "--max-errors takes a whole number, not '%s'", val);
				goto out;
			}
			plan_opt = "--max-errors";
			break;
		default:
			rc = cli_ra_opt("sweep", id, val, &ra);
			if (rc == 1) {
				rc = cli_usage("sweep", "unexpected option");
				goto out;
			}
			if (rc)
				goto out;
			so.readahead = sr_readahead_format(&ra, ras, sizeof(ras));
			plan_opt = "--readahead";
			break;
		}
	}
	/* "-" is standard output, as everywhere else. */
	if (out && !strcmp(out, "-"))
		out = NULL;
	if (resume && !out) {
		rc = cli_usage("sweep", "--resume needs -o FILE: the results to continue");
		goto out;
	}
	/* Without --kernel, --slots-cache is for the traces whose kernel has
	 * the cache. */
	if (slots_given && so.kernel && (rc = cli_kernel_slots("sweep", &kern)))
		goto out;
	/* What a readahead named outright leaves out (auto is settled per
	 * unit, by its machine). */
	if (ra.mode != SR_RA_AUTO || !ra.page_cluster)
		cli_ra_warn_unused(&ra, !ra.page_cluster ? SR_RA_OFF : ra.mode, "");
	so.machines = (const char *const *)machines.v;
	so.nmachines = machines.n;
	so.policies = (const char *const *)policies.v;
	so.npolicies = policies.n;
	if (run_index != UINT64_MAX || sharded) {
		/* Run part of a plan (--shard=0/1: all of it): the one argument
		 * is the plan, which holds every setting of its rows. */
		if (inputs.n != 1 || plan || policies.n || machines.n) {
			rc = cli_usage("sweep", "--run-index and --shard take one PLAN file and no "
				       "--plan, --policy or --machine (the plan has them)");
			goto out;
		}
		if (plan_opt) {
			rc = cli_usage("sweep", "%s cannot be given with --run-index or --shard: "
				       "the plan has it", plan_opt);
			goto out;
		}
		e = sr_sweep_open_plan(&s, inputs.v[0], &so, &d);
		if (e) {
			rc = setup_failed(e, &d, cli_status(e));
			goto out;
		}
	} else {
		if (!inputs.n) {
			rc = cli_usage("sweep", "needs traces: files, directories, globs or @LIST");
			goto out;
		}
		e = sr_sweep_new(&s, (const char *const *)inputs.v, inputs.n, &so, &d);
		if (e) {
			rc = setup_failed(e, &d, EXIT_USAGE);
			goto out;
		}
	}
	/* Machines and policies loaded up front: a bad one fails here. */
	if (sr_sweep_load(s, &d)) {
		rc = cli_diag(&d);
		goto out;
	}
	if (plan) {
		say_skipped(s, &said);
		if (sr_sweep_write_plan(s, plan, &d))
			rc = cli_diag(&d);
		else if (!quiet)
			fprintf(stderr, "swapreplay: sweep: %zu units in %s (run each with "
				"`swapreplay sweep --run-index=I %s -o RESULT`)\n", sr_sweep_units(s),
				plan, plan);
		goto out;
	}
	if (run_index != UINT64_MAX && run_index >= sr_sweep_units(s)) {
		rc = cli_usage("sweep", "--run-index=%" PRIu64 ": the plan has units 0 to %zu",
			       run_index, sr_sweep_units(s) - 1);
		goto out;
	}

	/* The output: appended to, a whole row per write(). */
	memset(&ro, 0, sizeof(ro));
	ro.output = out;
	ro.fd = STDOUT_FILENO;
	ro.resume = resume;
	ro.jobs = (unsigned)jobs;
	ro.one_unit = run_index != UINT64_MAX;
	ro.unit = run_index;
	ro.nshards = shard_n;
	ro.shard = shard_i;
	e = sr_sweep_prepare(s, &ro, &d);
	say_skipped(s, &said);
	if (e == SR_ERR_INVAL) {
		/* An output refused: it exists, or its rows are not this run's. */
		char buf[1024];

		sr_diag_format(&d, buf, sizeof(buf));
		rc = cli_usage("sweep", "%s", buf);
		goto out;
	}
	if (e) {
		/* Taken by another sweep (4), its rows unreadable (3)... */
		rc = sweep_err(&d, cli_status(e));
		goto out;
	}
	if (resume && !quiet) {
		struct sr_sweep_resumed rs;

		sr_sweep_resumed(s, &rs);
		if (rs.cut_line)
			cli_warn("sweep: %s:%" PRIu64 ": its last row was cut short (a sweep killed "
				 "while writing it): dropped, and its unit replayed", out, rs.cut_line);
		if (rs.retried)
			fprintf(stderr, "swapreplay: sweep: %zu row(s) in error in %s are replayed again\n",
				rs.retried, out);
	}
	e = sr_sweep_start(s, &d);
	if (e) {
		rc = sweep_err(&d, cli_status(e));
		goto out;
	}

	/* The library's workers replay; this thread writes the units in order. */
	sr_sweep_progress(s, &prog);
	progress = !quiet && isatty(STDERR_FILENO);
	t0 = now();
	while (prog.done < prog.total) {
		if (sr_sweep_next(s, &prog, &d) && !rc)
			rc = sweep_err(&d, EXIT_IO);
		if (progress) {
			double el = now() - t0;

			fprintf(stderr, "\r[%zu/%zu] %.0f events/s, ETA %.0f s   ", prog.done,
				prog.total, el > 0 ? (double)prog.events / el : 0,
				prog.done ? el / (double)prog.done * (double)(prog.total - prog.done) : 0);
		}
	}
	e = sr_sweep_finish(s, &d);
	if (progress)
		fputc('\n', stderr);
	if (e && !rc)
		rc = sweep_err(&d, EXIT_IO);

	/* The summary, over every row of the output (earlier runs included);
	 * with the rows on standard output, of this run's rows, on stderr. */
	if (!quiet)
		sr_sweep_write_summary(s, out ? stdout : stderr, NULL);
	/* The state of the whole output: a resume that leaves a unit failed,
	 * or finds one failed and cannot replay it, says so. */
	sr_sweep_state(s, &st);
	if (st.failed && !rc) {
		cli_err("sweep: %zu of %zu cases%s%s failed (their rows say why)", st.failed, st.units,
			out ? " in " : "", out ? out : "");
		rc = 64 + (int)(st.failed < 63 ? st.failed : 63);
	}
	goto out;
nomem:
	cli_err("out of memory");
	rc = EXIT_FAIL;
out:
	sr_sweep_free(s);
	cli_strs_free(&inputs);
	cli_strs_free(&machines);
	cli_strs_free(&policies);
	return rc;
}

const struct cli_cmd cmd_sweep = {
	.name = "sweep",
	.summary = "replay many traces x machines x policies, in parallel, resumable",
	.help =
	"Usage: swapreplay sweep [OPTIONS] INPUT...\n"
	"       swapreplay sweep [OPTIONS] --plan=PLAN INPUT...\n"
	"       swapreplay sweep --run-index=I|--shard=I/N PLAN [-o RESULT] [--resume]\n"
	"\n"
	"Replay every trace on every machine through every policy: one result row\n"
	"per (trace, machine, policy).  INPUT is a trace, a directory (searched\n"
	"recursively, files not starting with '.'), a glob pattern, or @LIST (a\n"
	"file naming one INPUT per line).  Each trace is decoded once per machine\n"
	"for all its policies (a unit of work).  Rows come out in the same order\n"
	"whatever -j is; a damaged trace gives rows with status \"error\" and does not\n"
	"stop the sweep; a trace without swap events (a vmstat log of a quiet\n"
	"machine) gives rows with status \"no swap activity\", which is no error.\n"
	"\n"
	"Options:\n"
	"  -p, --policy=LIST     policies (comma separated, may be repeated; 'all' for\n"
	"                        every built-in but the example fixed-node and tiers;\n"
	"                        default\n"
	"                        reclaimer-nid, page-nid, page-nid-strict, hybrid)\n"
	"  -m, --machine=LIST    machines: presets or files (may be repeated; default:\n"
	"                        for a trace X.EXT[.zst], the file X.machine.json beside\n"
	"                        it (as the capture script writes them), else the\n"
	"                        machine in its header, else " SR_MACHINE_DEFAULT ")\n"
	"  --tiers=CGROUP:TIER[+TIER...],...|@FILE\n"
	"                        as for replay: the tiers policy with this\n"
	"                        assignment; each --tiers one more policy, the\n"
	"                        assignments a dimension of the sweep\n"
	"  --baseline=NAME       default reclaimer-nid, always replayed\n"
	"  --kernel=VERSION      as for replay; default: each trace's own, recorded\n"
	"                        with it (X.info or the machine description beside\n"
	"                        it, or the header's machine), else " SR_KERNEL_DEFAULT "; the rows'\n"
	"                        kernel_modelled says which and why\n"
	"  --slots-cache=on|off  as for replay\n"
	"  --plug=on|off         as for replay\n"
	"  --node-map=R:M,...|fold  as for replay, on every machine (a machine that\n"
	"                        lacks a node it maps to gives error rows)\n"
	"  --readahead=MODE, --page-cluster=N, --readahead-window=W,\n"
	"  --readahead-holes=H, --memory=BYTES   as for replay\n"
	"  -j, --jobs=N          units replayed at once, on threads (default: CPUs)\n"
	"  -o, --output=FILE     append rows to FILE, one whole row per write (default\n"
	"                        and '-': standard output); an existing FILE needs --resume\n"
	"  --resume              continue FILE: its rows that replayed stand, rows in\n"
	"                        error and a last row cut short by a kill are redone;\n"
	"                        rows of other traces, machines, policies or options\n"
	"                        are refused (the file is one sweep)\n"
	"  -f, --format=FMT      jsonl (default) or csv\n"
	"  -q, --quiet           no progress and no summary\n"
	"  --every-file          sweep every file found in directories and by globs (by\n"
	"                        default, result files, plans, machine descriptions,\n"
	"                        reports, a capture's .info files and raw captures\n"
	"                        are skipped, and said so)\n"
	"  --plan=PLAN           write the units to PLAN (a line each) and stop\n"
	"  --run-index=I         run unit I of the plan given as the argument\n"
	"  --shard=I/N           run the units whose number is I modulo N (0/1: all)\n"
	"  --input-format=FMT, --max-errors=N   as for replay (N below 2^63)\n"
	"  -u, --uncertainty=N   also replay each unit on N variants of its machine, as\n"
	"                        replay does (the same seeds: the same variants); rows\n"
	"                        that replayed then give the delta's range over them\n"
	"                        (delta_pct_min, delta_pct_max) and how many agree on\n"
	"                        its side (agree: faster, slower, or within 1 %)\n"
	"  --uncertainty-range=P as for replay (default 25)\n"
	"  --noise=auto|R        also replay each unit on R replicas of its trace's\n"
	"                        timing (0 to 64), as replay does (auto, the default:\n"
	"                        as many as replay's auto plays for that trace, from\n"
	"                        its size; none for a long one); rows that replayed\n"
	"                        then give the delta's timing noise (delta_noise_pct)\n"
	"                        and whether the delta is within it (delta_in_noise:\n"
	"                        no difference (within noise))\n"
	"  --noise-jitter=NS     as for replay (default 1000)\n"
	"  (--run-index and --shard take the policies, machines, baseline, slots cache,\n"
	"  kernel, readahead, input format, max errors, uncertainty and noise from the\n"
	"  plan, and refuse them as options)\n"
	"\n"
	"Rows (docs/SWEEP.md): the unit, what the row is the result of (tool_version,\n"
	"trace, trace_hash, machine, machine_hash, where the machine came from\n"
	"(machine_source: -m, beside the trace, trace header or default; machine_path),\n"
	"policy, policy_hash, baseline, the options), status, error, events, the\n"
	"replay report's figures, schema.  To a\n"
	"file, rows are written as each unit finishes and put in unit order at the end;\n"
	"--resume matches them to this run's units by what they are the result of, and\n"
	"refuses rows of other traces, machines, policies or options.  At the end a\n"
	"summary per machine and policy: units won (the one highest throughput),\n"
	"tied (a highest shared with another policy), median and worst delta (a\n"
	"delta within its timing noise is no difference (within noise): counted as\n"
	"the baseline's throughput and a delta of 0, never a win nor a worst); on\n"
	"standard output with -o, else standard error.  Progress goes to standard error\n"
	"when it is a terminal.\n"
	"\n"
	"Exit status: 0 if every unit of the output replayed, 64 + the number of failed\n"
	"units in it (at most 127) if some failed, else as for every command (2 usage,\n"
	"3 a result file or plan that cannot be read, 4 I/O, or the output taken by\n"
	"another sweep).\n"
	"`swapreplay merge` combines the RESULT files of a plan's units.\n",
	.run = run,
};
