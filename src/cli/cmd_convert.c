/* SPDX-License-Identifier: MIT */
/* swapreplay convert IN OUT */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "vmstat_opts.h"
#include "swapreplay/trace.h"

#define BATCH 4096

enum { O_TO = 1, O_ZSTD, O_INFMT, O_MAXERR, O_MACHINE, O_QUIET };

static const struct cli_opt opts[] = {
	{ "to", 0, CLI_ARG, O_TO },
	{ "zstd", 0, CLI_OPTARG, O_ZSTD },
	{ "input-format", 0, CLI_ARG, O_INFMT },
	{ "max-errors", 0, CLI_ARG, O_MAXERR },
	{ "machine", 'm', CLI_ARG, O_MACHINE },
	{ "quiet", 'q', CLI_NOARG, O_QUIET },
	CLI_VMSTAT_OPTS,
	{ NULL, 0, 0, 0 },
};

static int run(int argc, char **argv)
{
	struct cli_parser p;
	struct sr_read_opts ro = { .format = SR_FMT_AUTO, .max_errors = 0, .decompress_thread = 1 };
	struct sr_write_opts wo = { .format = SR_FMT_AUTO };
	struct sr_reader *r = NULL;
	struct sr_writer *w = NULL;
	struct sr_diag d;
	struct sr_event *evs;
	const char *in = NULL, *out = NULL, *val, *machine = NULL;
	struct sr_machine *m = NULL;
	uint64_t nth = 0;
	int id, level = -1, rc;
	enum sr_err err;

	cli_parser_init(&p, argc, argv, opts);
	while ((id = cli_next(&p, &val)) != -1) {
		switch (id) {
		case -2:
			return cli_usage("convert", "%s", p.err);
		case 0:
			if (!in)
				in = val;
			else if (!out)
				out = val;
			else
				return cli_usage("convert", "too many arguments ('%s')", val);
			break;
		case O_TO:
			if (cli_opt_to("convert", val, &wo.format))
				return EXIT_USAGE;
			break;
		case O_ZSTD:
			if (cli_opt_zstd("convert", val, &level))
				return EXIT_USAGE;
			break;
		case O_INFMT:
			if (sr_format_parse(val, &ro.format))
				return cli_usage("convert", "--input-format takes auto, csv, jsonl, swt or vmstat, not '%s'", val);
			break;
		case O_MAXERR:
			if (cli_parse_u64(val, UINT64_MAX, &ro.max_errors))
				return cli_usage("convert", "--max-errors takes a whole number, not '%s'", val);
			break;
		case O_MACHINE:
			machine = val;
			break;
		case O_QUIET:
			cli_quiet = 1;
			break;
		default:
			if (cli_vmstat_opt("convert", id, val, &ro))
				return EXIT_USAGE;
			break;
		}
	}
	if (!in || !out)
		return cli_usage("convert", "needs an input and an output (IN OUT)");
	if (cli_output_format("convert", out, level, &wo))
		return EXIT_USAGE;
	if (machine && wo.format != SR_FMT_SWT)
		return cli_usage("convert", "--machine embeds a machine description in a binary "
				 "trace: OUT must be .swt (or --to=swt), not %s",
				 sr_format_name(wo.format));
	{
		const char *ins[2] = { in, machine };

		rc = cli_check_output(out, ins, machine ? 2 : 1);
		if (rc)
			return rc;
	}
	if (machine) {
		err = sr_machine_load(&m, machine, &d);
		if (err)
			return cli_diag(&d);
		cli_machine_notes(m);
	}

	evs = malloc(BATCH * sizeof(*evs));
	if (!evs) {
		cli_err("out of memory");
		sr_machine_free(m);
		return EXIT_FAIL;
	}
	err = sr_reader_open(&r, in, &ro, &d);
	if (err) {
		rc = cli_diag(&d);
		goto out;
	}
	/* The machine given, else a binary input's own. */
	if (wo.format == SR_FMT_SWT)
		wo.machine_json = m ? m->json : sr_reader_machine_json(r);
	for (;;) {
		size_t n, i;
		enum sr_err werr;

		err = sr_reader_read(r, evs, BATCH, &n, &d);
		if (!w) {
			struct sr_diag od;

			/* The output carries addresses (task ops, reclaims,
			 * faults) if the first events do; else from the first event that
			 * does (the writer writes the output again then), or
			 * from the start if the input may have some and OUT
			 * cannot be written again (standard output). */
			for (i = 0; i < n; i++) {
				wo.vaddr |= (evs[i].flags & SR_EV_HAS_VADDR) != 0;
				wo.tasks |= sr_op_is_task(evs[i].op);
				wo.reclaim |= (evs[i].flags & SR_EV_HAS_RECLAIM) != 0;
				wo.fault |= (evs[i].flags & SR_EV_HAS_FAULT) != 0;
				wo.memcg |= evs[i].memcg != 0;
			}
			wo.may_vaddr = sr_reader_may_vaddr(r);
			wo.may_tasks = sr_reader_may_tasks(r);
			wo.may_reclaim = sr_reader_may_reclaim(r);
			wo.may_fault = sr_reader_may_fault(r);
			wo.may_memcg = sr_reader_may_memcg(r);
			wo.memcgs = sr_reader_memcgs(r);
			werr = sr_writer_open(&w, out, &wo, &od);
			if (werr) {
				rc = cli_diag(&od);
				goto out;
			}
		}
		/* The events must fit the machine embedded. */
		for (i = 0; m && i < n; i++)
			if (sr_machine_check_event(m, &evs[i], ++nth, &d)) {
				snprintf(d.file, sizeof(d.file), "%s", in);
				sr_writer_abort(w);
				rc = cli_diag(&d);
				goto out;
			}
		if (n) {
			struct sr_diag wd;

			werr = sr_writer_write(w, evs, n, &wd);
			if (werr) {
				err = werr;
				d = wd;
				break;
			}
		}
		if (err || n == 0)
			break;
	}
	cli_read_warnings(in, sr_reader_stats(r));
	if (err) {
		sr_writer_abort(w);
		rc = cli_diag(&d);
		goto out;
	}
	err = sr_writer_finish(w, &d);
	rc = err ? cli_diag(&d) : EXIT_OK;
out:
	sr_reader_close(r);
	sr_machine_free(m);
	free(evs);
	return rc;
}

const struct cli_cmd cmd_convert = {
	.name = "convert",
	.summary = "convert a trace between CSV, JSON lines and binary, with or without zstd",
	.help =
	"Usage: swapreplay convert [OPTIONS] IN OUT\n"
	"\n"
	"Read the trace IN ('-' for standard input) and write its events to OUT\n"
	"('-' for standard output).  Converting CSV -> swt -> JSON lines -> CSV gives\n"
	"back the same events, field for field.  The output carries the events'\n"
	"virtual addresses (vaddr: a CSV column, .swt version 2) if any event has\n"
	"one (else it is a CSV without the column, .swt version 1); on standard\n"
	"output, if the input can have them (a CSV with the column, JSON lines,\n"
	".swt version 2 or 3).  The task ops (fork, exit, wait) likewise: a CSV\n"
	"child column if a fork or a wait names a child, .swt version 3 if there\n"
	"is any task op; on standard output, if the input can have them (a CSV\n"
	"with the child column, .swt version 3) or its first 4096 events have one.\n"
	"A swap-out's reclaim (kswapd or direct) and a swap-in's fault (write or\n"
	"read) likewise: a CSV reclaim (fault) column if an event has one, .swt\n"
	"version 4 if any has either; on standard output, if the input can have\n"
	"them (a CSV with the column, .swt version 4) or its first 4096 events do.\n"
	"A swap event's memory cgroup (memcg, and its path once per trace)\n"
	"likewise: CSV memcg and memcg_path columns, .swt version 5.\n"
	"A file OUT appears only when it is complete; on an error the old OUT, if\n"
	"any, is left as it was.\n"
	"\n"
	"Options:\n"
	"  --to=FORMAT           csv, jsonl or swt; default: from OUT's name\n"
	"                        (.csv, .jsonl, .swt, each optionally .zst)\n"
	"  --zstd[=LEVEL]        compress with zstd (level 1-19, default 3); an OUT\n"
	"                        ending in .zst is compressed at level 3 anyway\n"
	"  --input-format=FORMAT auto (default: from the content), csv, jsonl, swt,\n"
	"                        vmstat (a vmstat log, read as a coarse trace)\n"
	"  --max-errors=N        skip up to N bad records, counting them (default 0:\n"
	"                        the first bad record is an error)\n"
	"  -m, --machine=M       embed machine M (a preset or a description file) in\n"
	"                        OUT's header, for the replay to use when it is given\n"
	"                        no -m (OUT must be .swt); every event is checked to\n"
	"                        fit it (its nodes and device)\n"
	"  -q, --quiet           no warnings on standard error (unknown fields,\n"
	"                        skipped records, timestamps going backwards)\n"
	CLI_VMSTAT_HELP	"\n"
	"A binary input's embedded machine description is kept when OUT is binary\n"
	"(--machine replaces it).\n"
	"JSON lines hold numbers up to 2^63-1; a larger value is an error.\n",
	.run = run,
};
