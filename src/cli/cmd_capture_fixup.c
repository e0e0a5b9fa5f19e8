/* SPDX-License-Identifier: MIT */
/* swapreplay capture-fixup RAW OUT: the bpftrace capture into a trace. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "swapreplay/capture.h"
#include "swapreplay/trace.h"

#define BATCH 4096

enum { O_ROOT = 1, O_CGROOT, O_TO, O_ZSTD, O_STRICT, O_MAXERR, O_QUIET };

static const struct cli_opt opts[] = {
	{ "sysfs-root", 0, CLI_ARG, O_ROOT },
	{ "cgroup-root", 0, CLI_ARG, O_CGROOT },
	{ "to", 0, CLI_ARG, O_TO },
	{ "zstd", 0, CLI_OPTARG, O_ZSTD },
	{ "strict", 0, CLI_NOARG, O_STRICT },
	{ "max-errors", 0, CLI_ARG, O_MAXERR },
	{ "quiet", 'q', CLI_NOARG, O_QUIET },
	{ NULL, 0, 0, 0 },
};

static int run(int argc, char **argv)
{
	struct cli_parser p;
	struct sr_write_opts wo = { .format = SR_FMT_AUTO };
	struct sr_pfn_map *map = NULL;
	struct sr_capture *c = NULL;
	struct sr_writer *w = NULL;
	struct sr_event *evs = NULL;
	struct sr_diag d;
	const char *in = NULL, *out = NULL, *root = "/", *cgroot = NULL, *val;
	int id, level = -1, rc = EXIT_OK, strict = 0;
	uint64_t max_errors = 0;
	enum sr_err err;

	cli_parser_init(&p, argc, argv, opts);
	while ((id = cli_next(&p, &val)) != -1) {
		switch (id) {
		case -2:
			return cli_usage("capture-fixup", "%s", p.err);
		case 0:
			if (!in)
				in = val;
			else if (!out)
				out = val;
			else
				return cli_usage("capture-fixup", "too many arguments ('%s')", val);
			break;
		case O_ROOT:
			if (!*val)
				return cli_usage("capture-fixup", "--sysfs-root needs a directory");
			root = val;
			break;
		case O_CGROOT:
			if (!*val)
				return cli_usage("capture-fixup", "--cgroup-root needs a directory");
			cgroot = val;
			break;
		case O_TO:
			if (cli_opt_to("capture-fixup", val, &wo.format))
				return EXIT_USAGE;
			break;
		case O_ZSTD:
			if (cli_opt_zstd("capture-fixup", val, &level))
				return EXIT_USAGE;
			break;
		case O_STRICT:
			strict = 1;
			break;
		case O_MAXERR:
			if (cli_parse_u64(val, UINT64_MAX, &max_errors))
				return cli_usage("capture-fixup", "--max-errors takes a whole number, not '%s'", val);
			break;
		case O_QUIET:
			cli_quiet = 1;
			break;
		}
	}
	if (!in || !out)
		return cli_usage("capture-fixup", "needs the raw capture and an output (RAW OUT)");
	if (cli_output_format("capture-fixup", out, level, &wo))
		return EXIT_USAGE;
	rc = cli_check_output(out, &in, 1);
	if (rc)
		return rc;
	evs = malloc(BATCH * sizeof(*evs));
	if (!evs) {
		cli_err("out of memory");
		return EXIT_FAIL;
	}
	err = sr_pfn_map_load(&map, root, &d);
	if (!err)
		err = sr_capture_open(&c, in, map, &d);
	if (!err) {
		sr_capture_strict(c, strict);
		sr_capture_max_errors(c, max_errors);
		sr_capture_cgroup_root(c, cgroot);
	}
	while (!err) {
		size_t n, i;

		err = sr_capture_read(c, evs, BATCH, &n, &d);
		if (!err && !w) {
			/* The trace carries addresses if the first events do
			 * (a capture with the vaddr column). */
			for (i = 0; i < n && !wo.vaddr; i++)
				wo.vaddr = (evs[i].flags & SR_EV_HAS_VADDR) != 0;
			/* The tracepoint capture's swap-ins have theirs, after
			 * swap-outs without. */
			if (sr_capture_stats(c)->tracepoint)
				wo.vaddr = 1;
			/* Else from the first event that has one (the writer
			 * writes the output again), or from the start on
			 * standard output if the capture has the column. */
			wo.may_vaddr = sr_capture_stats(c)->vaddr_column;
			/* The tracepoint capture's forks, exits and waits
			 * (F, X and W lines) are the trace's task ops. */
			wo.may_tasks = sr_capture_stats(c)->task_lines ||
				       sr_capture_stats(c)->child_column;
			/* Swap-outs' reclaims: the kprobe capture's column, the
			 * tracepoint capture's P lines from version 4; swap-ins'
			 * faults: the kprobe capture's column only.  Each from
			 * the start if the first events have one. */
			for (i = 0; i < n; i++) {
				wo.reclaim |= (evs[i].flags & SR_EV_HAS_RECLAIM) != 0;
				wo.fault |= (evs[i].flags & SR_EV_HAS_FAULT) != 0;
			}
			wo.may_reclaim = sr_capture_stats(c)->ctx_columns ||
					 sr_capture_stats(c)->reclaim_lines;
			wo.may_fault = sr_capture_stats(c)->ctx_columns;
			/* The page's memcg: the kprobe capture's columns, the
			 * tracepoint capture's M lines from version 5; their
			 * paths as the fixup finds them. */
			for (i = 0; i < n && !wo.memcg; i++)
				wo.memcg = evs[i].memcg != 0;
			wo.may_memcg = sr_capture_stats(c)->memcg_columns ||
				       sr_capture_stats(c)->memcg_lines;
			wo.memcgs = sr_capture_memcgs(c);
			err = sr_writer_open(&w, out, &wo, &d);
		}
		if (err || !n)
			break;
		err = sr_writer_write(w, evs, n, &d);
		if (cli_interrupted)
			break;
	}
	if (!err && c && !sr_capture_stats(c)->events) {
		sr_diag_clear(&d);
		snprintf(d.file, sizeof(d.file), "%s", in);
		if (sr_capture_stats(c)->skipped)
			snprintf(d.msg, sizeof(d.msg), "no events in the capture (%" PRIu64
				 " bad line(s) skipped; the first: %.300s)", sr_capture_stats(c)->skipped,
				 sr_capture_stats(c)->first_skip);
		else
			snprintf(d.msg, sizeof(d.msg), "no events in the capture");
		d.code = err = SR_ERR_FORMAT;
	}
	if (err) {
		sr_writer_abort(w);
		rc = cli_diag(&d);
	} else {
		const struct sr_capture_stats *st = sr_capture_stats(c);

		err = sr_writer_finish(w, &d);
		if (err)
			rc = cli_diag(&d);
		if (st->no_pfn && !st->tracepoint)
			cli_warn("%s: %" PRIu64 " event(s) without a page frame number (swap cache hits): page node taken as the CPU's",
				 in, st->no_pfn);
		if (st->tracepoint) {
			/* What the tracepoints could not give, said once. */
			cli_warn("%s: tracepoint capture: %" PRIu64 " swap-in read(s), %" PRIu64
				 " with their fault's address; their page node is the CPU's (no tracepoint gives the page read); swap-ins that hit the swap cache are not in it",
				 in, st->reads, st->reads_with_fault);
			if (st->no_pfn > st->reads)
				cli_warn("%s: %" PRIu64 " swap-out(s) without reclaim's write of their folio (mm_vmscan_write_folio): page node taken as the CPU's",
					 in, st->no_pfn - st->reads);
			if (st->reclaim_lines)
				cli_warn("%s: swap-outs' reclaim from the name of the task that wrote them: kswapd %" PRIu64
					 ", direct %" PRIu64 ", the rest unknown; swap-ins' fault unknown (no tracepoint gives it)",
					 in, st->writes_kswapd, st->writes_direct);
			if (st->no_completion)
				cli_warn("%s: %" PRIu64 " event(s) whose request's completion was not seen (lost, or a stacked device): no latency",
					 in, st->no_completion);
			if (st->not_swap_io)
				cli_warn("%s: %" PRIu64 " request(s) on the swap devices outside the swap areas (the file system's) left out",
					 in, st->not_swap_io);
			if (st->task_ops[0] || st->task_ops[1] || st->task_ops[2] || st->task_ops_bad)
				cli_warn("%s: task ops of every task of the machine: fork %" PRIu64 ", exit %" PRIu64
					 ", wait %" PRIu64 " (wait4() only)%s",
					 in, st->task_ops[0], st->task_ops[1], st->task_ops[2],
					 st->task_ops_bad ? "; some named no task or the task itself and were left out" : "");
		}
		if (st->pfn_unmapped)
			cli_warn("%s: %" PRIu64 " event(s) whose page frame is in no node's memory blocks (another machine's sysfs?): page node taken as the CPU's",
				 in, st->pfn_unmapped);
		if (st->cut_lines)
			cli_warn("%s: the last line has no newline: cut short (bpftrace killed, or the disk full?); dropped (--strict refuses such a capture)",
				 in);
		if (st->skipped)
			cli_warn("%s: skipped %" PRIu64 " bad line(s) under --max-errors; the first: %s",
				 in, st->skipped, st->first_skip);
		if (st->memcgs_renumbered)
			cli_warn("%s: %u memcg(s) numbered 1 to %u by capture-fixup, in the order they came: the tracepoints give a memcg's cgroup, not its id (mem_cgroup_id())",
				 in, st->memcgs_renumbered, st->memcgs_renumbered);
		if (st->memcg_lines && st->no_completion + st->events > st->memcg_paired &&
		    !st->memcg_paired)
			cli_warn("%s: no swap event has a memcg (the kernel's memcg:count_memcg_events tracepoint, 6.13 on, did not fire for them)",
				 in);
		if (st->memcgs_no_path)
			cli_warn("%s: %u memcg(s) without a path: no directory of their cgroup's inode under %s%s%s (removed before the fixup? another machine's capture?); their events keep the memcg",
				 in, st->memcgs_no_path,
				 st->cgroup_root[0] ? st->cgroup_root : "the memory cgroup mount",
				 st->cgroup_why[0] ? ": " : "", st->cgroup_why);
		if (st->memcgs_bad_path)
			cli_warn("%s: %u memcg(s) kept without their path, which a trace cannot hold (the first: %s)",
				 in, st->memcgs_bad_path, st->bad_path_why);
		if (st->memcg_id_reused)
			cli_warn("%s: %" PRIu64 " event(s) of a memcg whose id another memcg's path had first in the capture (the kernel reuses a removed memcg's id): their memcg dropped",
				 in, st->memcg_id_reused);
		if (st->lost_events)
			cli_warn("%s: bpftrace lost %" PRIu64 " event(s) (\"Lost N events\": its buffers were full): the trace lacks them",
				 in, st->lost_events);
	}
	sr_capture_close(c);
	sr_pfn_map_free(map);
	free(evs);
	return rc;
}

const struct cli_cmd cmd_capture_fixup = {
	.name = "capture-fixup",
	.summary = "turn the bpftrace capture (traces/capture/) into a trace",
	.help =
	"Usage: swapreplay capture-fixup [OPTIONS] RAW OUT\n"
	"\n"
	"Read RAW, the output of traces/capture/swapreplay-capture.bt (optionally\n"
	"zstd-compressed; '-' for standard input), resolve each page frame number\n"
	"to the node whose memory holds it, from the memory blocks sysfs lists\n"
	"under each node (/sys/devices/system/node/node*/memory*, blocks of\n"
	"/sys/devices/system/memory/block_size_bytes), and write the events to OUT\n"
	"as a trace.  Run it on the recorded machine, or give a copy of its sysfs\n"
	"with --sysfs-root (traces/capture/swapreplay-record keeps one in\n"
	"PREFIX.sysfs: --sysfs-root=PREFIX.sysfs).  Events without a frame number\n"
	"(a swap-in served from the swap cache) or with one in no node's memory\n"
	"take the CPU's node, with a warning.  bpftrace's \"Lost N events\" lines\n"
	"are counted and reported: they are the events its buffers dropped.  A\n"
	"last line without its newline (bpftrace killed, or the disk full) may be\n"
	"cut mid-number: it is dropped with a warning.  Any other data line that\n"
	"does not parse, or holds what no kernel gives, is an error naming\n"
	"FILE:LINE, or with --max-errors skipped and counted.\n"
	"\n"
	"Each swap event's memory cgroup (memcg) comes with the inode number of\n"
	"its cgroup's directory: its path is that directory's, found by walking\n"
	"the memory cgroup hierarchy (the cgroup mount with the memory\n"
	"controller in /proc/self/mountinfo, else the cgroup2 mount; or\n"
	"--cgroup-root).  A memcg whose directory is gone (removed before the\n"
	"fixup) keeps its id without a path, with a warning.  The tracepoint\n"
	"capture's memcgs are numbered by the fixup (no tracepoint gives the\n"
	"kernel's id).\n"
	"\n"
	"Options:\n"
	"  --sysfs-root=DIR      read DIR/sys/... instead of /sys\n"
	"  --cgroup-root=DIR     the memory cgroup hierarchy's root directory (default:\n"
	"                        its mount, from /proc/self/mountinfo)\n"
	"  --to=FORMAT           csv, jsonl or swt; default: from OUT's name\n"
	"  --zstd[=LEVEL]        compress with zstd (level 1-19, default 3)\n"
	"  --strict              refuse a capture whose last line has no newline\n"
	"  --max-errors=N        skip up to N bad data lines, counting them (default\n"
	"                        0: the first bad line is an error)\n"
	"  -q, --quiet           no warnings on standard error (events lost or\n"
	"                        without a node, lines skipped or cut short)\n",
	.run = run,
};
